//! The Events tab: the most recent Events, as `kubectl get events` and `kubectl describe` show
//! them.

use super::markup::{empty_markup, headers, state};
use crate::i18n::{Key, Lang};
use crate::sim::objects::{Event, ObjectKey};
use crate::sim::record::ChangeType;
use crate::sim::{SimTime, Timeline, WallTime};
use crate::view::html::{cat, escape};

/// At most this many events are listed (the most recent ones).
pub const EVENT_CAP: usize = 50;

/// One row of the Events tab, like `kubectl get events` (LAST SEEN, TYPE, REASON, OBJECT,
/// MESSAGE), with a repeated event's count and span in the form `kubectl describe` uses:
/// `5s (x2 over 45s)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EventRow {
    /// The Event object's namespace and name (unique).
    pub id: String,
    pub last_seen: String,
    pub type_: String,
    pub reason: String,
    /// `kind/name`, kind in lower case (`node/node-1`).
    pub object: String,
    pub message: String,
}

/// The Events tab row of `e` at `now`, following kubectl's `printEvent`: the legacy
/// `firstTimestamp`/`lastTimestamp`/`count`, or `eventTime` and `series` from the
/// events.k8s.io recorder.
pub fn event_row(e: &Event, now: WallTime) -> EventRow {
    // The cells of `kubectl get events -o wide`: LAST SEEN, TYPE, REASON, OBJECT, SUBOBJECT,
    // SOURCE, MESSAGE, FIRST SEEN, COUNT, NAME.
    let mut cells = crate::render::kubectl_printer::get::event_row(e, now).cells.into_iter();
    let mut next = || cells.next().unwrap_or_default();
    let (last, type_, reason, object, _sub, _source, message, first, count) =
        (next(), next(), next(), next(), next(), next(), next(), next(), next());
    let last_seen = if count != "1" && count != "0" {
        [last, " (x".into(), count, " over ".into(), first, ")".into()].concat()
    } else {
        last
    };
    EventRow {
        id: [e.metadata.namespace.as_str(), "/", &e.metadata.name].concat(),
        last_seen,
        type_,
        reason,
        object,
        message,
    }
}

/// The Events tab.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventList {
    /// Oldest first (by the last time each was recorded).
    pub rows: Vec<EventRow>,
    /// Whether older events were left out.
    pub capped: bool,
}

/// The events at `t`, the `cap` most recently recorded ones, oldest first. Reads the log's event
/// records backwards from `t`, so the work does not grow with the timeline's length.
pub fn event_list(timeline: &Timeline, t: SimTime, cap: usize) -> EventList {
    let (log, snapshot) = (timeline.log(), timeline.at(t));
    let now = snapshot.wall();
    let end = log.events.partition_point(|e| e.t <= t);
    let mut keys: Vec<ObjectKey> = Vec::new();
    let mut capped = false;
    for record in log.events.range(0..end).rev() {
        let key = record.key();
        if keys.contains(&key) {
            continue;
        }
        if keys.len() == cap {
            capped = true;
            break;
        }
        keys.push(key);
    }
    let rows = keys
        .iter()
        .rev()
        .filter_map(|k| match snapshot.version(k) {
            Some(c) if c.change != ChangeType::Deleted => match &c.object() {
                crate::sim::objects::Object::Event(e) => Some(event_row(e, now)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    EventList { rows, capped }
}
/// The Events tab, oldest first.
pub fn events_markup(list: &EventList, lang: Lang) -> String {
    if list.rows.is_empty() {
        return empty_markup(None, lang.text(Key::NoEvents));
    }
    let mut o = String::new();
    if list.capped {
        cat(
            &mut o,
            &[r#"<p class="legend">"#, &escape(&lang.fill(Key::EventsCapped, &[&EVENT_CAP.to_string()])), "</p>"],
        );
    }
    o.push_str(
        r#"<div class="table-scroll"><table class="events stack" role="table"><tbody role="rowgroup"><tr role="row" class="head">"#,
    );
    headers(&mut o, lang, &[Key::ColLastSeen, Key::ColType, Key::ColReason, Key::ColObject, Key::ColMessage], true);
    o.push_str("</tr>");
    let seen = escape(lang.text(Key::ColLastSeen));
    for r in &list.rows {
        let warning = r.type_ == "Warning";
        cat(
            &mut o,
            &[
                r#"<tr role="row""#,
                if warning { r#" class="warning""# } else { "" },
                r#"><td role="cell" class="c-seen nowrap" data-label=""#,
                &seen,
                r#"">"#,
                &escape(&r.last_seen),
                r#"</td><td role="cell" class="c-type">"#,
            ],
        );
        state(&mut o, if warning { "bad" } else { "neutral" }, &r.type_);
        cat(
            &mut o,
            &[
                r#"</td><td role="cell" class="c-reason">"#,
                &escape(&r.reason),
                r#"</td><td role="cell" class="c-object nowrap">"#,
                &escape(&r.object),
                r#"</td><td role="cell" class="c-message">"#,
                &escape(&r.message),
                "</td></tr>",
            ],
        );
    }
    o.push_str("</tbody></table></div>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::objects::{EventSeries, MicroTime, ObjectReference};
    use crate::view::inspector::fixtures::{event, w};

    #[test]
    fn event_rows_follow_kubectl() {
        let now = w("2026-03-02T09:01:00Z");
        let once = event_row(&event(Some(1), "2026-03-02T09:00:50Z", "2026-03-02T09:00:50Z"), now);
        assert_eq!(once.last_seen, "10s");
        assert_eq!(once.object, "node/node-1");
        assert_eq!(once.type_, "Normal");
        let twice = event_row(&event(Some(2), "2026-03-02T09:00:15Z", "2026-03-02T09:00:55Z"), now);
        assert_eq!(twice.last_seen, "5s (x2 over 45s)");
        // The events.k8s.io shape: eventTime, no count, maybe a series.
        let mut scheduler = event(None, "2026-03-02T09:00:00Z", "2026-03-02T09:00:00Z");
        scheduler.first_timestamp = None;
        scheduler.last_timestamp = None;
        scheduler.event_time = Some(MicroTime(w("2026-03-02T09:00:30.500000Z")));
        scheduler.involved_object =
            ObjectReference { kind: "Pod".into(), name: "web-1".into(), ..Default::default() }.into();
        assert_eq!(event_row(&scheduler, now).last_seen, "29s");
        assert_eq!(event_row(&scheduler, now).object, "pod/web-1");
        scheduler.series = Some(EventSeries { count: 3, last_observed_time: MicroTime(w("2026-03-02T09:00:58Z")) });
        assert_eq!(event_row(&scheduler, now).last_seen, "2s (x3 over 29s)");
    }
}
