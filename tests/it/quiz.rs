//! Question mode: every question's stop and answer, recomputed from the timeline in both version
//! profiles and held to what the simulation's settings say they must be; and the catalogue's
//! words for every question in every language.

use std::collections::BTreeSet;
use std::time::Duration;

use nodeline::i18n::{Lang, Segment, fill, segments};
use nodeline::quiz::{self, Answer, Derived, Kind, Question, Response};
use nodeline::sim::{
    Chapter, Config, NODE_MONITOR_PERIOD, NODE_STATUS_REPORT_FREQUENCY, NODE_STATUS_UPDATE_FREQUENCY, Profile, SimTime,
    Timeline,
};

/// A chapter's timeline as the page computes it: the story and a stretch after it.
fn timeline(chapter: Chapter, profile: Profile) -> Timeline {
    let mut tl = Timeline::new(chapter, Config { profile, ..Config::default() });
    tl.run_until(SimTime::ZERO + chapter.scenario().duration + Duration::from_secs(180));
    tl
}

fn derived(chapter: Chapter, profile: Profile) -> Vec<(&'static Question, Derived)> {
    let tl = timeline(chapter, profile);
    quiz::questions(chapter)
        .iter()
        .map(|q| {
            (q, q.derive(&tl).unwrap_or_else(|| panic!("{} in {}: no answer in the timeline", q.id, profile.as_str())))
        })
        .collect()
}

fn seconds(d: &Derived) -> f64 {
    match d.answer {
        Answer::Time { seconds, .. } => seconds,
        ref other => panic!("not a time: {other:?}"),
    }
}

fn order_labels(q: &Question, d: &Derived) -> Vec<&'static str> {
    match &d.answer {
        Answer::Order(order) => order.iter().map(|i| q.options[*i]).collect(),
        other => panic!("not an order: {other:?}"),
    }
}

fn choice(q: &Question, d: &Derived) -> &'static str {
    match d.answer {
        Answer::Choice(i) => q.options[i],
        ref other => panic!("not a choice: {other:?}"),
    }
}

fn node(d: &Derived) -> &str {
    match &d.answer {
        Answer::Node { nodes, right } => &nodes[*right],
        other => panic!("not a node: {other:?}"),
    }
}

fn by_id<'a>(all: &'a [(&'static Question, Derived)], id: &str) -> &'a (&'static Question, Derived) {
    all.iter().find(|(q, _)| q.id == id).unwrap_or_else(|| panic!("no question {id}"))
}

#[test]
fn every_chapter_asks_at_least_three_questions_in_story_order() {
    let mut ids = BTreeSet::new();
    for profile in Profile::ALL {
        for chapter in Chapter::ALL {
            let all = derived(chapter, profile);
            assert!(all.len() >= 3, "{chapter}: {} questions", all.len());
            let end = SimTime::ZERO + chapter.scenario().duration;
            let mut last = None;
            for (q, d) in &all {
                assert_eq!(q.chapter, chapter, "{}", q.id);
                assert!(d.stop < d.reveal, "{}: the answer shows at {} before the stop {}", q.id, d.reveal, d.stop);
                assert!(d.reveal <= end, "{}: the answer comes after the story ends", q.id);
                assert!(last.is_none_or(|l| l < d.stop), "{}: stops out of order or at the same moment", q.id);
                last = Some(d.stop);
                ids.insert(q.id);
            }
        }
    }
    let total: usize = Chapter::ALL.iter().map(|c| quiz::questions(*c).len()).sum();
    assert_eq!(ids.len(), total, "question ids are not unique");
    let kinds: BTreeSet<&str> = Chapter::ALL.iter().flat_map(|c| quiz::questions(*c)).map(|q| q.kind.id()).collect();
    assert_eq!(kinds.len(), 4, "every kind of question is asked somewhere: {kinds:?}");
}

#[test]
fn registration_answers_follow_from_the_kubelet_and_the_scheduler() {
    for profile in Profile::ALL {
        let all = derived(Chapter::Registration, profile);
        let (q, d) = by_id(&all, "registration-first-ready");
        assert_eq!(choice(q, d), "False", "the runtime's network is not ready at the POST");
        let (q, d) = by_id(&all, "registration-pods-order");
        assert_eq!(order_labels(q, d), ["tolerant-scheduled", "node-ready", "demo-scheduled", "tolerant-started"]);
        let (_, d) = by_id(&all, "registration-report-frequency");
        let report = NODE_STATUS_REPORT_FREQUENCY.as_secs_f64();
        let s = seconds(d);
        assert!(
            (report..=report + NODE_STATUS_UPDATE_FREQUENCY.as_secs_f64()).contains(&s),
            "{s} s: an unchanged status is reported at the first update tick after nodeStatusReportFrequency"
        );
    }
}

#[test]
fn node_failure_answers_follow_from_the_grace_period_and_the_toleration() {
    for profile in Profile::ALL {
        let all = derived(Chapter::NodeFailure, profile);
        let (q, d) = by_id(&all, "node-failure-ready");
        assert_eq!(choice(q, d), "Unknown");
        assert_eq!(d.facts[0], format!("{}", profile.node_monitor_grace_period().as_secs()));
        let (_, d) = by_id(&all, "node-failure-unknown-after");
        let grace = profile.node_monitor_grace_period().as_secs_f64();
        let period = NODE_MONITOR_PERIOD.as_secs_f64();
        let s = seconds(d);
        // The grace period counts from the pass that saw the renewal (at most a period later),
        // and Unknown is written at the first pass after it (at most another period).
        assert!((grace..=grace + 2.0 * period).contains(&s), "{} s with a {grace} s grace period", s);
        let (q, d) = by_id(&all, "node-failure-order");
        assert_eq!(order_labels(q, d), ["node-not-ready", "no-execute", "pod-deleted", "replacement-running"]);
        let (_, d) = by_id(&all, "node-failure-toleration");
        assert!((seconds(d) - 300.0).abs() < 1.0, "{} s", seconds(d));
        assert_eq!(d.facts[1], "300");
        let (_, d) = by_id(&all, "node-failure-replacement");
        assert_eq!(node(d), "node-2");
        assert_eq!(d.facts[1], "node-1", "the tainted node the explanation names");
    }
}

#[test]
fn the_grace_period_question_differs_between_profiles_by_the_grace_period() {
    let unknown_after = |profile| {
        let all = derived(Chapter::NodeFailure, profile);
        seconds(&by_id(&all, "node-failure-unknown-after").1)
    };
    let diff = unknown_after(Profile::V1_34) - unknown_after(Profile::V1_31);
    let expected =
        (Profile::V1_34.node_monitor_grace_period() - Profile::V1_31.node_monitor_grace_period()).as_secs_f64();
    assert!((diff - expected).abs() <= NODE_MONITOR_PERIOD.as_secs_f64(), "{diff} s apart");
}

#[test]
fn kubelet_restart_answers_follow_from_adoption_and_cancelled_eviction() {
    for profile in Profile::ALL {
        let all = derived(Chapter::KubeletRestart, profile);
        let (q, d) = by_id(&all, "kubelet-restart-post");
        assert_eq!(choice(q, d), "409");
        assert_eq!(d.facts, ["T+04:30"]);
        let (_, d) = by_id(&all, "kubelet-restart-pod-node");
        assert_eq!(node(d), "node-1", "the Pod never moved");
        let (q, d) = by_id(&all, "kubelet-restart-order");
        assert_eq!(order_labels(q, d), ["lease-renewed", "node-post", "node-ready", "deletion-cancelled"]);
    }
}

#[test]
fn the_stage_does_not_show_the_answer_at_the_stop() {
    for profile in Profile::ALL {
        let tl = timeline(Chapter::NodeFailure, profile);
        let all = derived(Chapter::NodeFailure, profile);
        let (_, d) = by_id(&all, "node-failure-ready");
        assert_eq!(tl.at(d.stop).node("node-1").unwrap().ready_status(), Some("True"));
        let (_, d) = by_id(&all, "node-failure-replacement");
        assert!(tl.at(d.stop).pods().iter().all(|p| p.spec.node_name != "node-2"), "no Pod on node-2 yet");
        let tl = timeline(Chapter::Registration, profile);
        let all = derived(Chapter::Registration, profile);
        let (_, d) = by_id(&all, "registration-first-ready");
        assert!(tl.at(d.stop).node("node-1").is_none(), "no Node yet at the stop");
    }
}

#[test]
fn a_story_the_reader_changed_drops_the_questions_it_no_longer_contains() {
    // The kubelet is started again before the grace period runs out: no Unknown, no eviction.
    let actions = nodeline::sim::parse_actions("start-kubelet@2m20s").unwrap();
    let mut tl = Timeline::with_actions(Chapter::NodeFailure, Config::default(), &actions);
    tl.run_until(SimTime::from_secs(800));
    let derived = nodeline::story::Questions::Chapter(Chapter::NodeFailure).derive_all(&tl);
    assert!(derived.iter().skip(1).all(Option::is_none), "{derived:?}");
}

#[test]
fn answers_are_checked_the_way_the_page_checks_them() {
    let all = derived(Chapter::NodeFailure, Profile::V1_34);
    let (_, d) = by_id(&all, "node-failure-unknown-after");
    let s = seconds(d);
    assert!(d.answer.accepts(&Response::Seconds(s.round())));
    assert!(!d.answer.accepts(&Response::Seconds(Profile::V1_34.node_monitor_grace_period().as_secs_f64() - 10.0)));
    let (q, d) = by_id(&all, "node-failure-order");
    assert_eq!(q.kind, Kind::Order);
    assert!(!d.answer.accepts(&Response::Order((0..q.options.len()).collect())), "shown in the order they happen");
}

fn placeholders(text: &str) -> BTreeSet<usize> {
    (0..10).filter(|n| text.contains(&format!("{{{n}}}"))).collect()
}

fn code(text: &str) -> BTreeSet<String> {
    segments(text)
        .into_iter()
        .filter_map(|s| match s {
            Segment::Code(c) => Some(c.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_question_has_words_in_every_language() {
    let japanese =
        |s: &str| s.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c));
    for profile in Profile::ALL {
        for chapter in Chapter::ALL {
            for (q, d) in derived(chapter, profile) {
                let english = Lang::En.question(q.id).unwrap_or_else(|| panic!("no English for {}", q.id));
                for lang in Lang::ALL {
                    let text = lang.question(q.id).unwrap_or_else(|| panic!("no {lang} for {}", q.id));
                    assert_eq!(text.options.len(), q.options.len(), "{lang} {}: one label per option", q.id);
                    for part in [text.prompt, text.why] {
                        assert!(
                            placeholders(part).iter().all(|n| *n < d.facts.len()),
                            "{lang} {}: a placeholder with no fact",
                            q.id
                        );
                        assert!(!fill(part, &[]).trim().is_empty());
                    }
                    assert_eq!(placeholders(text.why), placeholders(english.why), "{lang} {}", q.id);
                    assert_eq!(placeholders(text.prompt), placeholders(english.prompt), "{lang} {}", q.id);
                    assert_eq!(code(text.why), code(english.why), "{lang} {}: Kubernetes identifiers differ", q.id);
                    assert_eq!(code(text.prompt), code(english.prompt), "{lang} {}", q.id);
                    for (ours, theirs) in text.options.iter().zip(english.options) {
                        assert_eq!(code(ours), code(theirs), "{lang} {}", q.id);
                    }
                    if lang == Lang::Ja {
                        assert!(japanese(text.prompt) && japanese(text.why), "{}: left in English", q.id);
                    }
                    // Two to four sentences (full stops outside code).
                    let prose: String = segments(text.why)
                        .into_iter()
                        .filter_map(|s| match s {
                            Segment::Text(t) => Some(t),
                            _ => None,
                        })
                        .collect();
                    let sentences =
                        prose.matches(". ").count() + prose.matches('。').count() + usize::from(prose.ends_with('.'));
                    assert!((2..=4).contains(&sentences), "{lang} {}: {sentences} sentences", q.id);
                }
            }
        }
    }
    assert!(Lang::En.question("no-such-question").is_none());
}

#[test]
fn the_fleet_chapter_answers_follow_the_zone_rules() {
    for profile in Profile::ALL {
        let all = derived(Chapter::ZoneOutage, profile);
        // One node every 10 s: --node-eviction-rate 0.1.
        let (_, interval) = by_id(&all, "zone-outage-taint-interval");
        assert!((seconds(interval) - 10.0).abs() < 0.2, "{}", seconds(interval));
        // 50 nodes a zone by default: not more than the large-cluster threshold, so rate 0.
        let (q, partial) = by_id(&all, "zone-outage-partial");
        assert_eq!(choice(q, partial), "stopped");
        assert_eq!(partial.facts, ["50"]);
        // FullDisruption comes after the grace period and the pass that marks the dark Nodes at
        // the controller's client rate: later than the grace period and one pass.
        let (_, mark) = by_id(&all, "zone-outage-mark");
        let grace = profile.node_monitor_grace_period().as_secs_f64();
        assert!(seconds(mark) > grace + 5.0 + 1.0 && seconds(mark) < grace + 30.0, "{}", seconds(mark));
        // Master disruption mode removes the NoExecute taints.
        let (q, master) = by_id(&all, "zone-outage-master");
        assert_eq!(choice(q, master), "removed");
    }
    // 51 nodes a zone: past the threshold, the secondary rate (one node every 100 s).
    let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 153, ..Config::default() });
    tl.run_until(SimTime::ZERO + Chapter::ZoneOutage.scenario().duration);
    let q = &quiz::questions(Chapter::ZoneOutage)[1];
    let d = q.derive(&tl).expect("an answer at 153 nodes");
    assert_eq!(choice(q, &d), "every-100s");
    assert_eq!(d.facts, ["51"]);
}
