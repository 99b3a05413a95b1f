//! A request that gets no answer: its error comes when the client's timeout runs out
//! (`docs/kubernetes-notes.md` §14).
#![cfg(not(target_arch = "wasm32"))]

use std::borrow::Cow;
use std::time::Duration;

use nodeline_sim::record::Request;
use nodeline_sim::{Actor, Chapter, Config, Method, Outcome, SimTime, Timeline};

const NODE_1: &str = "node-1";

fn kubelet(machine: &str) -> Actor {
    Actor::Kubelet(machine.into())
}

/// A timeline of `chapter` with the reader's actions in `ACTION[:MACHINE]@TIME` notation.
fn timeline_with(chapter: Chapter, actions: &str, until: SimTime) -> Timeline {
    let actions = nodeline_sim::parse_actions(actions).expect("actions parse");
    let mut timeline = Timeline::with_actions(chapter, Config::default(), &actions);
    timeline.run_until(until);
    timeline
}

/// A request that times out returns its error when the client's timeout runs out, not when it
/// is sent: each of the kubelet's error lines for a timed-out Lease PUT, Node GET or status PATCH
/// is logged at the request's end, 10 s after it went out; the Lease controller's fallback after
/// its fifth failed PUT is an `Info` line, logged with the fifth error.
#[test]
fn a_timed_out_request_s_error_is_logged_when_its_timeout_runs_out() {
    let timeline = timeline_with(Chapter::NodeFailure, "cut-network:node-1@60s", SimTime::from_secs(420));
    let log = timeline.log();
    let timed_out: Vec<Cow<'_, Request>> = log
        .requests
        .iter()
        .filter(|r| r.actor == kubelet(NODE_1) && r.outcome == Outcome::Timeout && r.end <= SimTime::from_secs(410))
        .collect();
    // For each kind, the instants of the error lines are exactly the requests' ends.
    type OfKind = fn(&Request) -> bool;
    let kinds: [(&str, OfKind); 2] = [
        ("\"Failed to update lease\"", |r| r.path.contains("/leases/") && r.method == Method::Put),
        ("\"Error updating node status, will retry\"", |r| r.path.starts_with("/api/v1/nodes/node-1")),
    ];
    for (prefix, of_kind) in kinds {
        let ends: Vec<SimTime> = timed_out.iter().filter(|r| of_kind(r)).map(|r| r.end).collect();
        let lines: Vec<SimTime> = log
            .lines
            .iter()
            .filter(|l| {
                l.actor == kubelet(NODE_1)
                    && l.message.starts_with(prefix)
                    && l.t > SimTime::from_secs(60)
                    && l.t <= SimTime::from_secs(410)
            })
            .map(|l| l.t)
            .collect();
        assert!(ends.len() >= 5, "{prefix}: {} timed-out requests", ends.len());
        assert_eq!(lines, ends, "{prefix} logged when each request's timeout runs out");
    }
    for r in &timed_out {
        assert_eq!(r.end - r.t, Duration::from_secs(10));
    }
    // The status PATCH's error quotes the patch it sent (`failed to patch status %q for node
    // %q: %v`), escaped once more in the klog line's err="…".
    let patch_failed =
        log.lines.iter().find(|l| l.message.contains("failed to patch status")).expect("a status PATCH timed out");
    assert!(
        patch_failed.message.starts_with(
            "\"Error updating node status, will retry\" err=\"failed to patch status \\\"{\\\\\\\"status\\\\\\\":{"
        ),
        "{}",
        patch_failed.message
    );
    assert!(
        patch_failed.message.contains("\\\" for node \\\"node-1\\\": Patch \\\"https://"),
        "{}",
        patch_failed.message
    );
    let fallback = log
        .lines
        .iter()
        .find(|l| l.message.starts_with("\"failed to update lease using latest lease, fallback to ensure lease\""))
        .expect("the Lease controller falls back");
    assert_eq!(fallback.severity, nodeline_sim::record::Severity::Info);
    let fifth = timed_out.iter().filter(|r| r.path.contains("/leases/") && r.method == Method::Put).nth(4).unwrap();
    assert_eq!(fallback.t, fifth.end, "after the fifth PUT's timeout");
}
