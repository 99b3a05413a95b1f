//! The Pods tab: `kubectl get pods -o wide`'s cells for every Pod.

use super::markup::{empty_markup, headers, state};
use crate::i18n::{Key, Lang};
use crate::sim::objects::Pod;
use crate::sim::{Snapshot, WallTime};
use crate::view::html::{cat, escape};

/// One row of the Pods tab.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PodRow {
    pub namespace: String,
    pub name: String,
    pub status: String,
    pub ready: String,
    /// `spec.nodeName`, or `<none>`.
    pub node: String,
    pub age: String,
}

/// The Pods tab row of `pod` at `now`: cells of `kubectl get pods -o wide`.
pub fn pod_row(pod: &Pod, now: WallTime) -> PodRow {
    let mut cells = crate::render::kubectl_printer::get::pod_row(pod, now).cells.into_iter();
    let mut next = || cells.next().unwrap_or_default();
    let (name, ready, status, _restarts, age, _ip, node) = (next(), next(), next(), next(), next(), next(), next());
    PodRow { namespace: pod.metadata.namespace.to_string(), name, status, ready, node, age }
}

/// Every Pod at the snapshot's instant, by namespace and name.
pub fn pod_rows(snapshot: &Snapshot<'_>) -> Vec<PodRow> {
    let now = snapshot.wall();
    snapshot.pods().iter().map(|p| pod_row(p, now)).collect()
}

/// The Pods tab.
pub fn pods_markup(rows: &[PodRow], lang: Lang) -> String {
    if rows.is_empty() {
        return empty_markup(None, lang.text(Key::NoPods));
    }
    let mut o = String::from(r#"<div class="table-scroll"><table class="pods"><tbody><tr class="head">"#);
    headers(&mut o, lang, &[Key::ColName, Key::ColPhase, Key::ColReady, Key::ColNode, Key::ColAge], false);
    o.push_str("</tr>");
    for r in rows {
        let class = match r.status.as_str() {
            "Running" => "ok",
            "Terminating" | "Failed" | "Unknown" => "bad",
            _ => "unknown",
        };
        cat(&mut o, &[r#"<tr><th scope="row">"#, &escape(&r.name), "</th><td>"]);
        state(&mut o, class, &r.status);
        cat(
            &mut o,
            &[
                "</td><td>",
                &escape(&r.ready),
                "</td><td>",
                &escape(&r.node),
                "</td><td>",
                &escape(&r.age),
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
    use crate::render::kubectl_printer::get::pod_state;
    use crate::sim::WallTime;

    /// kubectl's STATUS and READY columns, as the tab shows them.
    fn pod_status(pod: &Pod) -> String {
        pod_state(pod, WallTime(0)).1
    }

    fn pod_ready(pod: &Pod) -> String {
        pod_state(pod, WallTime(0)).0
    }
    use crate::sim::objects::Time;
    use crate::view::inspector::fixtures::{pod, status, w};

    #[test]
    fn pod_status_and_ready_follow_kubectl() {
        let pending = pod("Pending", vec![]);
        assert_eq!((pod_status(&pending), pod_ready(&pending)), ("Pending".into(), "0/1".into()));
        let creating = pod("Pending", vec![status(Some("ContainerCreating"), false, false)]);
        assert_eq!(pod_status(&creating), "ContainerCreating");
        let running = pod("Running", vec![status(None, true, true)]);
        assert_eq!((pod_status(&running), pod_ready(&running)), ("Running".into(), "1/1".into()));
        // Running but not ready (a probe failing): READY counts only ready containers.
        let unready = pod("Running", vec![status(None, true, false)]);
        assert_eq!((pod_status(&unready), pod_ready(&unready)), ("Running".into(), "0/1".into()));
        let mut deleted = running.clone();
        deleted.metadata.deletion_timestamp = Some(Time(w("2026-03-02T09:06:00Z")));
        assert_eq!(pod_status(&deleted), "Terminating");
        let mut done = pod("Succeeded", vec![]);
        done.metadata.deletion_timestamp = Some(Time(w("2026-03-02T09:06:00Z")));
        assert_eq!(pod_status(&done), "Succeeded");
        let row = pod_row(&pending, w("2026-03-02T09:01:30Z"));
        assert_eq!(row.node, "<none>");
        assert_eq!(row.age, "90s");
    }
}
