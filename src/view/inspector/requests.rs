//! The Requests tab: the latest requests up to the playhead, newest first, each of which opens
//! to show it as client-go logs it at `-v=8` ([`crate::render::request`]) and what it changed.

use crate::i18n::{Key, Lang};
use crate::render::request;
use crate::sim::{Log, Outcome, SimTime};
use crate::view::html::{cat, escape};
use crate::view::inspector::empty_markup;
use crate::view::inspector::yaml::clock_ms;

/// How many requests the tab lists.
pub const LISTED: usize = 12;

/// The indices of the `n` latest requests sent at or before `t`, newest first.
pub fn recent(log: &Log, t: SimTime, n: usize) -> Vec<usize> {
    let end = log.requests.first_after(t);
    (end.saturating_sub(n)..end).rev().collect()
}

/// The index of the request with sequence number `seq`.
pub fn by_seq(log: &Log, seq: u64) -> Option<usize> {
    log.requests.binary_search_by_key(&seq, |r| r.seq).ok()
}

/// `T+00:05.123 kubelet/node-1 PATCH /api/v1/nodes/node-1/status → 200`.
pub fn summary(log: &Log, idx: usize, lang: Lang) -> String {
    let r = log.requests.at(idx);
    let answer = match r.outcome {
        Outcome::Code(c) => c.to_string(),
        Outcome::Timeout => lang.text(Key::RequestTimeout).to_string(),
    };
    format!("{} {} {} {} → {answer}", clock_ms(r.t), r.actor, r.method.as_str(), r.path)
}

/// The list: each request a disclosure (`<details>`), the `open` one (by sequence number)
/// expanded with its `-v=8` lines and a line saying what it changed. A request that is open but
/// no longer among the latest stays listed, first.
pub fn markup(log: &Log, t: SimTime, open: Option<u64>, lang: Lang) -> String {
    let mut list = recent(log, t, LISTED);
    if let Some(i) = open.and_then(|s| by_seq(log, s))
        && !list.contains(&i)
        && log.requests.t(i) <= t
    {
        list.insert(0, i);
    }
    if list.is_empty() {
        return empty_markup(None, lang.text(Key::NoRequestYet));
    }
    let mut o = String::new();
    cat(&mut o, &[r#"<p class="help">"#, &escape(lang.text(Key::RequestsHelp)), r#"</p><ul class="requests">"#]);
    for i in list {
        let r = log.requests.at(i);
        let is_open = open == Some(r.seq);
        let tone = match r.outcome {
            Outcome::Code(200..=299) => "ok",
            Outcome::Code(_) => "warn",
            Outcome::Timeout => "timeout",
        };
        let seq = r.seq.to_string();
        cat(
            &mut o,
            &[
                r#"<li><details data-seq=""#,
                &seq,
                "\"",
                if is_open { " open" } else { "" },
                r#"><summary data-seq=""#,
                &seq,
                r#"" class="req-"#,
                tone,
                r#"">"#,
                &escape(&summary(log, i, lang)),
                "</summary>",
            ],
        );
        if is_open {
            cat(
                &mut o,
                &[
                    r#"<p class="req-effect">"#,
                    &escape(&lang.fill(Key::RequestEffect, &[&log.summary(i)])),
                    r#"</p><pre class="verbose" tabindex="0"><code>"#,
                    &escape(&request::verbose(&r)),
                    "</code></pre>",
                ],
            );
        }
        o.push_str("</details></li>");
    }
    o.push_str("</ul>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, Method, Timeline};

    fn registration() -> Timeline {
        let mut tl = Timeline::new(Chapter::Registration, Config::default());
        tl.run_until(SimTime::from_secs(120));
        tl
    }

    #[test]
    fn lists_the_latest_newest_first() {
        let tl = registration();
        let log = tl.log();
        let t = SimTime::from_secs(60);
        let ids = recent(log, t, LISTED);
        assert_eq!(ids.len(), LISTED);
        assert!(ids.windows(2).all(|w| w[0] > w[1]));
        assert!(log.requests.t(ids[0]) <= t && log.requests.t(ids[0] + 1) > t);
        // At T+0 the kubelet has only just started: its CSINode wait GET and first try.
        assert_eq!(recent(log, SimTime::ZERO, 5), vec![2, 1, 0]);
        assert!(log.requests.t(3) > SimTime::ZERO);
        let html = markup(&Log::default(), SimTime::ZERO, None, Lang::En);
        assert!(html.contains("No request yet."), "{html}");
    }

    #[test]
    fn an_open_status_patch_shows_its_strategic_merge_patch() {
        let tl = registration();
        let log = tl.log();
        let i = (0..log.requests.len())
            .find(|&i| {
                let r = log.requests.at(i);
                r.method == Method::Patch
                    && r.path.ends_with("/nodes/node-1/status")
                    && log.summary(i).contains("Ready: False → True")
            })
            .expect("the kubelet patches Ready to True");
        let r = log.requests.at(i);
        let html = markup(log, r.t, Some(r.seq), Lang::En);
        assert!(html.contains(&format!(r#"<details data-seq="{}" open>"#, r.seq)), "{html}");
        assert!(html.contains("PATCH https://10.0.0.10:6443/api/v1/nodes/node-1/status"), "{html}");
        assert!(html.contains("    Content-Type: application/strategic-merge-patch+json"), "{html}");
        assert!(
            html.contains(
                r#"\&quot;$setElementOrder/conditions\&quot;:[{\&quot;type\&quot;:\&quot;MemoryPressure\&quot;}"#
            ),
            "{html}"
        );
        assert!(html.contains("Response Status: 200 OK in "), "{html}");
        assert!(
            html.contains("&quot;Response Body&quot; body=&quot;{\\&quot;apiVersion\\&quot;:\\&quot;v1\\&quot;,\\&quot;kind\\&quot;:\\&quot;Node\\&quot;"),
            "{html}"
        );
        // Closed ones carry no transcript; the open one stays listed when it grows old.
        assert_eq!(html.matches("<pre").count(), 1);
        let later = markup(log, r.t + std::time::Duration::from_secs(50), Some(r.seq), Lang::En);
        assert!(later.contains(&format!(r#"<details data-seq="{}" open>"#, r.seq)));
    }

    #[test]
    fn summaries_name_sender_and_answer() {
        let tl = registration();
        let log = tl.log();
        let post = log.requests.iter().position(|r| r.method == Method::Post && r.path == "/api/v1/nodes").unwrap();
        let s = summary(log, post, Lang::En);
        assert!(s.starts_with("T+00:0") && s.ends_with("kubelet/node-1 POST /api/v1/nodes → 201"), "{s}");
    }
}
