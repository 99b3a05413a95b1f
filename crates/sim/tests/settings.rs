//! The Kubernetes settings a simulation runs with: each reaches the component that reads it, a
//! setting at its default changes nothing, and no text given for a setting panics.
#![cfg(not(target_arch = "wasm32"))]

mod common;
mod props;

use std::time::Duration;

use nodeline_sim::record::EventRecord;
use nodeline_sim::settings::{Component, ROWS};
use nodeline_sim::{Actor, Chapter, Config, Log, Method, Profile, SettingValue, Settings, SimTime, Timeline};
use proptest::prelude::*;

use common::{canonical, end_of};

/// A chapter's whole timeline with these settings set.
fn run(chapter: Chapter, profile: Profile, set: &[(&str, &str, &str)]) -> Timeline {
    let mut settings = Settings::defaults(profile);
    for (component, name, value) in set {
        settings.set(component, name, value).expect("a valid setting");
    }
    settings.check().expect("valid together");
    let mut timeline = Timeline::new(chapter, Config { profile, nodes: 30, settings, ..Config::default() });
    timeline.run_until(end_of(chapter));
    timeline
}

fn first_event<'a>(log: &'a Log, source: &str, reason: &str) -> &'a EventRecord {
    log.events.iter().find(|e| e.source() == source && e.reason() == reason).unwrap_or_else(|| panic!("{reason}"))
}

/// Every setting set to its default, in every chapter and both releases, gives the same log, and
/// so the same timeline, as setting nothing. (The kubelet's shutdown periods, set, are every
/// machine's: a chapter whose machines have their own is run without them.)
#[test]
fn every_setting_at_its_default_changes_nothing() {
    for profile in Profile::ALL {
        for chapter in Chapter::ALL {
            let own_shutdown = chapter.scenario().machines.iter().any(|m| !m.shutdown_grace_period.is_zero());
            let defaults: Vec<(&str, &str, String)> = ROWS
                .iter()
                .filter(|r| !(own_shutdown && r.name.starts_with("shutdownGracePeriod")))
                .map(|r| (r.component.name(), r.name, r.default(profile).to_string()))
                .collect();
            let set: Vec<(&str, &str, &str)> = defaults.iter().map(|(c, n, v)| (*c, *n, v.as_str())).collect();
            let plain = run(chapter, profile, &[]);
            let with = run(chapter, profile, &set);
            assert_eq!(with.config().settings().set_rows().count(), set.len());
            let (a, b) = (canonical(plain.log()), canonical(with.log()));
            assert!(a == b, "{chapter} ({profile}): the log differs with every setting at its default");
        }
    }
}

/// `--node-monitor-grace-period` 20s instead of 50s: node-1 is marked NotReady (its conditions
/// `Unknown`) 30 s sooner after its last heartbeat, within one monitor period.
#[test]
fn a_shorter_grace_period_marks_the_node_not_ready_sooner() {
    let at = |t: &Timeline| first_event(t.log(), "node-controller", "NodeNotReady").t;
    let default = at(&run(Chapter::NodeFailure, Profile::V1_34, &[]));
    let short = at(&run(
        Chapter::NodeFailure,
        Profile::V1_34,
        &[("kube-controller-manager", "node-monitor-grace-period", "20s")],
    ));
    let sooner = default.saturating_since(short);
    assert!(
        (Duration::from_secs(25)..=Duration::from_secs(35)).contains(&sooner),
        "NodeNotReady at {default} by default, at {short} with 20s: {sooner:?} sooner"
    );
    // And a longer monitor period checks less often: the same grace period, noticed later or as soon.
    let slow =
        at(&run(Chapter::NodeFailure, Profile::V1_34, &[("kube-controller-manager", "node-monitor-period", "30s")]));
    assert!(slow >= default.saturating_sub(Duration::from_secs(5)), "{slow} vs {default}");
}

/// kube-apiserver's default toleration seconds reach every Pod that has no toleration of its own,
/// and the taint eviction controller deletes the Pods that much after the taint.
#[test]
fn the_default_toleration_seconds_go_into_every_pod() {
    let short = run(
        Chapter::NodeFailure,
        Profile::V1_34,
        &[
            ("kube-apiserver", "default-unreachable-toleration-seconds", "30"),
            ("kube-apiserver", "default-not-ready-toleration-seconds", "60"),
        ],
    );
    let end = short.at(end_of(Chapter::NodeFailure));
    let pods = end.all::<nodeline_sim::objects::Pod>();
    assert!(!pods.is_empty());
    for pod in pods {
        let seconds: Vec<(String, Option<i64>)> =
            pod.spec.tolerations.iter().map(|t| (t.key.to_string(), t.toleration_seconds)).collect();
        assert_eq!(
            seconds,
            [
                ("node.kubernetes.io/not-ready".to_string(), Some(60)),
                ("node.kubernetes.io/unreachable".to_string(), Some(30))
            ],
            "{}",
            pod.metadata.name
        );
    }
    let default = run(Chapter::NodeFailure, Profile::V1_34, &[]);
    let evicted = |t: &Timeline| first_event(t.log(), "taint-eviction-controller", "TaintManagerEviction").t;
    let taint = |t: &Timeline| first_event(t.log(), "node-controller", "NodeNotReady").t;
    let (d, s) = (evicted(&default).saturating_since(taint(&default)), evicted(&short).saturating_since(taint(&short)));
    assert!(
        d >= Duration::from_secs(300) && s >= Duration::from_secs(30) && s < Duration::from_secs(40),
        "{d:?} {s:?}"
    );
}

/// The kubelet's heartbeat settings: its status loop, its Lease's duration and renewal, and its
/// heartbeat client's timeout (the `timeout=` every heartbeat request carries).
#[test]
fn the_kubelets_heartbeat_settings_reach_its_loops() {
    let t = run(
        Chapter::Registration,
        Profile::V1_34,
        &[("kubelet", "nodeStatusUpdateFrequency", "20s"), ("kubelet", "nodeLeaseDurationSeconds", "80")],
    );
    let log = t.log();
    let renewals: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| r.method.as_str() == "PUT" && r.path.contains("/leases/node-1"))
        .map(|r| r.t)
        .collect();
    assert!(renewals.len() > 3);
    for pair in renewals.windows(2) {
        let gap = pair[1].saturating_since(pair[0]);
        // A quarter of 80 s, with the lease controller's 4 % jitter.
        assert!((Duration::from_secs(19)..=Duration::from_secs(21)).contains(&gap), "{gap:?}");
    }
    assert!(log.requests.iter().filter(|r| r.path.contains("/leases/")).all(|r| r.query == "timeout=20s"));
    let lease = t.at(end_of(Chapter::Registration)).all::<nodeline_sim::objects::Lease>();
    assert!(lease.iter().all(|l| l.spec.lease_duration_seconds == Some(80)));
}

/// kube-controller-manager's client rate: at 2 requests a second (burst 2) the TTL controller
/// annotates the fleet's 30 Nodes in some 14 s, not in one burst of 30.
#[test]
fn the_controller_managers_client_rate_paces_its_controllers() {
    let last_patch = |t: &Timeline| {
        t.log()
            .requests
            .iter()
            .filter(|r| r.actor == Actor::TtlController && r.method == Method::Patch)
            .map(|r| r.t)
            .nth(29)
            .expect("30 PATCHes")
    };
    let default = last_patch(&run(Chapter::ZoneOutage, Profile::V1_34, &[]));
    let slow = last_patch(&run(
        Chapter::ZoneOutage,
        Profile::V1_34,
        &[("kube-controller-manager", "kube-api-qps", "2"), ("kube-controller-manager", "kube-api-burst", "2")],
    ));
    let later = slow.saturating_since(default);
    assert!((Duration::from_secs(13)..=Duration::from_secs(15)).contains(&later), "at 20/s {default}, at 2/s {slow}");
}

/// Every setting at the ends of its range runs a failing node's story to its end without a
/// panic (no overflow, no loop that never advances the clock).
#[test]
fn every_setting_at_the_ends_of_its_range_runs() {
    use nodeline_sim::settings::{Range, Type};
    for row in &ROWS {
        let ends: &[&str] = match (row.type_, row.range) {
            (Type::Duration, Range::Period) => &["100ms", "168h"],
            (Type::Duration, Range::Positive) => &["1us", "168h"],
            (Type::Duration, Range::Validity) => &["1us", "87600h"],
            (Type::Duration, _) => &["0s", "168h"],
            (Type::Float, Range::Fraction) => &["0", "1"],
            (Type::Float, Range::Rate) => &["0", "0.001", "1e9"],
            (Type::Float, _) => &["0.001", "1e9"],
            (Type::Integer, Range::Positive) => &["1", "2147483647"],
            (Type::Integer, Range::Int32) => &["-2147483648", "2147483647"],
            (Type::Integer, _) => &["0", "2147483647"],
            (Type::Boolean, _) => &["false", "true"],
            (Type::Thresholds, _) => &["{}", "memory.available<1", "memory.available<8Ei"],
            (Type::GracePeriods, _) => &["{}", "memory.available=0s", "memory.available=168h"],
        };
        for value in ends {
            let mut settings = Settings::default();
            settings
                .set(row.component.name(), row.name, value)
                .unwrap_or_else(|e| panic!("{}={value}: {e}", row.key()));
            if settings.check().is_err() {
                continue;
            }
            let mut timeline = Timeline::new(Chapter::NodeFailure, Config { settings, ..Config::default() });
            timeline.run_until(SimTime::from_secs(15 * 60));
            assert!(!timeline.log().requests.is_empty(), "{}={value}", row.key());
        }
    }
}

fn proptest_config() -> ProptestConfig {
    props::config(2_000, 0x7365_7474)
}

/// A name from the table, or one like it, or anything.
fn arb_name() -> impl Strategy<Value = (String, String)> {
    let known = (0..ROWS.len()).prop_map(|i| (ROWS[i].component.name().to_string(), ROWS[i].name.to_string()));
    let component =
        prop_oneof![(0..Component::ALL.len()).prop_map(|i| Component::ALL[i].name().to_string()), ".{0,30}",];
    prop_oneof![known, (component, ".{0,40}")]
}

/// A value of any type, or nearly one, or anything.
fn arb_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{0,12}(\\.[0-9]{0,6})?(ns|us|µs|ms|s|m|h){0,2}",
        "-?[0-9]{0,25}(\\.[0-9]*)?([eE][-+]?[0-9]{0,4})?",
        "(NaN|inf|-inf|\\+Inf|0x1p3|1_000)",
        ".{0,40}",
    ]
}

proptest! {
    #![proptest_config(proptest_config())]

    /// Whatever the text, `set` answers (never panics), a refusal changes nothing, and a value it
    /// takes reads back as it prints (but a kubelet shutdown period finer than the microseconds
    /// a duration prints, which only `check` refuses, as the kubelet does: under a second).
    #[test]
    fn any_text_gets_an_answer((component, name) in arb_name(), value in arb_value()) {
        let mut settings = Settings::default();
        match settings.set(&component, &name, &value) {
            Ok(()) => {
                let got = settings.get(&component, &name).expect("it was set");
                if let SettingValue::Duration(d) = got && d.subsec_nanos() % 1_000 != 0 {
                    prop_assert!(settings.check().is_err());
                    return Ok(());
                }
                let mut again = Settings::default();
                prop_assert_eq!(again.set(&component, &name, &got.to_string()), Ok(()));
                prop_assert_eq!(again.get(&component, &name), Ok(got));
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                prop_assert_eq!(&settings, &Settings::default());
            }
        }
        let _ = settings.check();
    }
}
