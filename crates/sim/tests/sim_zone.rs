//! Chapter 4, "A zone goes dark": the node lifecycle controller's zone rules over a fleet
//! (`../shared/reference/node-operations.md` §1), checked on whole timelines: the first node of a
//! queue goes at once, the rest at the zone's rate; a partially disrupted zone of 50 nodes is
//! not tainted, one of 51 at 0.01 node/s; master disruption mode removes NoExecute taints and
//! keeps NoSchedule ones; the taint eviction controller keeps to its client's 20 requests/s.
#![cfg(not(target_arch = "wasm32"))]

use nodeline_sim::objects::Object;
use nodeline_sim::{
    Action, ActionKind, Actor, Chapter, Config, Log, Method, ReplicaSetSpec, SimTime, TAINT_UNREACHABLE, Timeline,
};
use std::time::Duration;

const NOEXEC: [&str; 2] = ["node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready"];

/// A NoExecute taint newly added (not swapped for the other one): when, on which node, in which zone.
fn no_execute_added(log: &Log) -> Vec<(SimTime, String, String)> {
    let mut last: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut out = Vec::new();
    for c in log.changes() {
        let Object::Node(n) = &c.object() else { continue };
        let now: Vec<String> = n
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == "NoExecute" && NOEXEC.contains(&t.key.as_str()))
            .map(|t| t.key.clone())
            .collect();
        let before = last.insert(n.metadata.name.to_string(), now.clone()).unwrap_or_default();
        if before.is_empty() && !now.is_empty() {
            let zone = n.metadata.labels.get("topology.kubernetes.io/zone").cloned().unwrap_or_default();
            out.push((c.t, n.metadata.name.to_string(), zone));
        }
    }
    out
}

fn line_times(log: &Log, contains: &str) -> Vec<SimTime> {
    log.lines.iter().filter(|l| l.message.contains(contains)).map(|l| l.t).collect()
}

fn chapter(nodes: usize, actions: &[Action]) -> Timeline {
    let mut tl = Timeline::with_actions(Chapter::ZoneOutage, Config { nodes, ..Config::default() }, actions);
    tl.run_until(SimTime::ZERO + Chapter::ZoneOutage.scenario().duration);
    tl
}

/// No zone is tainted faster than 0.1 node/s (one every 10 s), and nothing is tainted in
/// master disruption mode.
fn assert_rates(tl: &Timeline, what: &str) {
    let log = tl.log();
    let added = no_execute_added(log);
    let mut last: std::collections::BTreeMap<&str, SimTime> = Default::default();
    for (t, node, zone) in &added {
        if let Some(prev) = last.insert(zone.as_str(), *t) {
            assert!(
                *t - prev >= Duration::from_millis(9_900),
                "{what}: {node} tainted {:?} after the last in {zone}",
                *t - prev
            );
        }
    }
    let enter = line_times(log, "Entering master disruption mode");
    let exit = line_times(log, "Exiting master disruption mode");
    for from in &enter {
        let to = exit.iter().find(|e| *e > from).copied().unwrap_or(SimTime::MAX);
        assert!(
            !added.iter().any(|(t, _, _)| t > from && *t < to),
            "{what}: a NoExecute taint added in master disruption mode"
        );
    }
}

#[test]
fn the_chapter_tells_its_story_at_30_and_150_nodes() {
    for nodes in [30, 150] {
        let tl = chapter(nodes, &[]);
        let steps = tl.steps();
        assert!(steps.iter().all(Option::is_some), "{nodes}: {steps:?}");
        assert_rates(&tl, &format!("{nodes} nodes"));
    }
}

#[test]
fn the_first_node_goes_at_once_the_next_ten_seconds_later() {
    let tl = chapter(150, &[]);
    let added = no_execute_added(tl.log());
    let b: Vec<SimTime> = added.iter().filter(|(_, _, z)| z == "eu-west-1b").map(|(t, _, _)| *t).collect();
    let unknown = tl
        .log()
        .changes()
        .iter()
        .find(|c| matches!(&c.object(), Object::Node(n) if n.ready_status() == Some("Unknown")))
        .map(|c| c.t)
        .expect("a node goes Unknown");
    // The NoExecute taint follows the pass after the Unknown write (5 s), and goes at once.
    assert!(b[0] - unknown <= Duration::from_millis(5_200), "first taint {:?} after Unknown", b[0] - unknown);
    assert!(b[1] - b[0] >= Duration::from_secs(10) && b[1] - b[0] < Duration::from_millis(10_200));
}

#[test]
fn a_partially_disrupted_zone_of_50_is_not_tainted_one_of_51_at_a_hundredth() {
    for (nodes, min_gap) in [(150, None), (153, Some(Duration::from_secs(100)))] {
        let tl = chapter(nodes, &[]);
        let log = tl.log();
        let partial = line_times(log, "newState=\"PartialDisruption\"")[0];
        let full = line_times(log, "newState=\"FullDisruption\"")[0];
        let during: Vec<SimTime> = no_execute_added(log)
            .into_iter()
            .filter(|(t, _, z)| z == "eu-west-1b" && *t > partial && *t < full)
            .map(|(t, _, _)| t)
            .collect();
        match min_gap {
            None => assert!(during.is_empty(), "{nodes}: tainted in PartialDisruption at {during:?}"),
            Some(gap) => {
                assert!(!during.is_empty(), "{nodes}: nothing tainted at 0.01 node/s");
                assert!(during.windows(2).all(|w| w[1] - w[0] >= gap - Duration::from_millis(100)), "{during:?}");
            }
        }
    }
}

#[test]
fn master_disruption_removes_no_execute_and_keeps_no_schedule() {
    let tl = chapter(150, &[]);
    let enter = line_times(tl.log(), "Entering master disruption mode")[0];
    // The removals (a GET and a PATCH a Node) go at the controller's client rate.
    let removals: Vec<SimTime> = tl
        .log()
        .requests
        .iter()
        .filter(|r| r.t >= enter && r.actor == Actor::NodeLifecycleController && r.method == Method::Patch)
        .take_while(|r| r.t < enter + Duration::from_secs(30))
        .map(|r| r.t)
        .collect();
    let last = *removals.last().expect("taints removed");
    assert!(last - enter > Duration::from_secs(1), "{} removals by {last}: faster than the client", removals.len());
    let snap = tl.at(last);
    let nodes = snap.nodes();
    assert!(nodes.iter().all(|n| !n.spec.taints.iter().any(|t| t.effect == "NoExecute")), "NoExecute left");
    let dark: Vec<_> = nodes
        .iter()
        .filter(|n| n.metadata.labels.get("topology.kubernetes.io/zone").map(String::as_str) == Some("eu-west-1b"))
        .collect();
    assert!(!dark.is_empty() && dark.iter().all(|n| n.has_taint(TAINT_UNREACHABLE, "NoSchedule")));
    // The pending evictions are cancelled.
    assert!(tl.log().events.iter().any(|e| e.t >= enter && e.message().starts_with("Cancelling deletion")));
}

#[test]
fn random_fleets_and_actions_keep_the_rates() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let kinds = [
        ActionKind::CutNodes,
        ActionKind::CutZone,
        ActionKind::RestoreZone,
        ActionKind::CutControlPlane,
        ActionKind::RestoreControlPlane,
    ];
    for case in 0..6 {
        let nodes = 3 + next(40) as usize;
        let mut actions = Vec::new();
        for _ in 0..(2 + next(4)) {
            let kind = kinds[next(kinds.len() as u64) as usize];
            let at = SimTime::from_secs(100 + next(700));
            let zone = ["eu-west-1a", "eu-west-1b", "eu-west-1c"][next(3) as usize];
            let target = match kind {
                ActionKind::CutNodes => Some(format!("{zone}/{}", 1 + next(nodes as u64))),
                ActionKind::CutZone | ActionKind::RestoreZone => Some(zone.to_string()),
                _ => None,
            };
            actions.push(Action { at, kind, machine: target });
        }
        let mut tl = Timeline::with_actions(Chapter::ZoneOutage, Config { nodes, ..Config::default() }, &actions);
        tl.run_until(SimTime::from_secs(1000));
        assert_rates(&tl, &format!("case {case}: {nodes} nodes, {actions:?}"));
    }
}

#[test]
fn taint_eviction_keeps_to_the_client_rate() {
    // 60 Pods on node-1 (node-2 joins after they are placed): 180 requests when they are due.
    let mut scenario = Chapter::NodeFailure.scenario();
    scenario.replicasets =
        vec![ReplicaSetSpec { deployment: "web".into(), replicas: 60, created_after: Duration::from_secs(5) }];
    let mut tl = Timeline::from_scenario(scenario, Config::default(), &[]);
    tl.run_until(SimTime::from_secs(540));
    let times: Vec<SimTime> =
        tl.log().requests.iter().filter(|r| r.actor == Actor::TaintEvictionController).map(|r| r.t).collect();
    assert!(times.len() >= 150, "{} requests", times.len());
    for (i, t) in times.iter().enumerate() {
        let in_window = times[i..].iter().take_while(|u| **u < *t + Duration::from_secs(1)).count();
        assert!(in_window <= 30 + 20 + 3, "{in_window} requests in the second from {t}");
    }
    let span = *times.last().unwrap() - times[0];
    assert!(span >= Duration::from_secs(7), "180 requests in {span:?}: faster than 20/s after a burst of 30");
}

/// The most requests and Events `actor`'s client sent in any one second.
fn busiest_second(log: &Log, actor: &Actor, events_from: &str) -> usize {
    let mut times: Vec<SimTime> = log.requests.iter().filter(|r| r.actor == *actor).map(|r| r.t).collect();
    times.extend(log.events.iter().filter(|e| e.version.recorder.component() == events_from).map(|e| e.t));
    times.sort();
    (0..times.len())
        .map(|i| times[i..].iter().take_while(|u| **u < times[i] + Duration::from_secs(1)).count())
        .max()
        .unwrap_or(0)
}

#[test]
fn the_node_lifecycle_controller_keeps_to_its_client_rate() {
    // Its requests and its Events share one client: 20 a second after a burst of 30 (a Node's
    // status write and the taint it may lead to go together, a few over).
    for nodes in [30, 150] {
        let tl = chapter(nodes, &[]);
        let busiest = busiest_second(tl.log(), &Actor::NodeLifecycleController, "node-controller");
        assert!(busiest <= 30 + 20 + 4, "{nodes} nodes: {busiest} in one second");
    }
    // Marking a dark zone of 50 Nodes Unknown (their statuses, their Pods', the NoSchedule taints
    // and the Events) takes several seconds now, so FullDisruption comes later than the grace
    // period and one monitor pass after the cut.
    let tl = chapter(150, &[]);
    let cut = SimTime::from_secs(420);
    let full = line_times(tl.log(), "newState=\"FullDisruption\"")[0];
    assert!(full - cut > Duration::from_secs(58), "FullDisruption {:?} after the cut", full - cut);
    // ... and the requests waiting are in the log while they wait.
    let waiting = tl.log().backlog_at(&Actor::NodeLifecycleController, full.saturating_sub(Duration::from_secs(2)));
    assert!(waiting > 20, "{waiting} requests waiting before FullDisruption");
    assert_eq!(tl.log().backlog_at(&Actor::NodeLifecycleController, cut), 0);
}

#[test]
fn a_zone_state_change_gives_its_queue_a_fresh_bucket() {
    // 51 nodes a zone: PartialDisruption taints at 0.01/s, FullDisruption swaps in a fresh 0.1/s
    // bucket, drained (the old one had no token): the next taint about 10 s after the change,
    // not when the old bucket's token would have come.
    let tl = chapter(153, &[]);
    let full = line_times(tl.log(), "newState=\"FullDisruption\"")[0];
    let next = no_execute_added(tl.log())
        .into_iter()
        .find(|(t, _, z)| z == "eu-west-1b" && *t > full)
        .expect("tainting resumes")
        .0;
    assert!(
        next - full >= Duration::from_secs(10) && next - full <= Duration::from_millis(10_100),
        "first taint {:?} after FullDisruption",
        next - full
    );
}

#[test]
fn the_controller_logs_what_a_default_verbosity_prints() {
    let tl = chapter(30, &[]);
    let log = tl.log();
    let lines = |text: &str| log.lines.iter().filter(|l| l.message.contains(text)).count();
    assert_eq!(lines("Initializing eviction metric for zone"), 3, "one line a zone");
    assert_eq!(lines("Missing timestamp for Node. Assuming now as a timestamp"), 30, "one line a Node");
    let queued = log.lines.iter().filter(|l| l.message.contains("Adding it to the Taint queue"));
    assert!(queued.clone().count() > 0 && queued.clone().all(|l| l.message.contains(" timeStamp=\"2026-")));
    assert!(queued.clone().all(|l| l.message.contains(" +0000 UTC m=+")));
    // Nodes still Unknown in master disruption mode are queued again; when they come back, their
    // queue held them, so the controller says so.
    let exit = line_times(log, "Exiting master disruption mode")[0];
    assert!(log.lines.iter().any(|l| l.t > exit && l.message.contains("Node is healthy again, removed all taints")));
}

#[test]
fn the_scheduler_keeps_to_its_client_rate() {
    // 150 Pods at once: 100 bindings (the burst), then 50 a second.
    let tl = chapter(150, &[]);
    let log = tl.log();
    let binds: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| r.actor == Actor::Scheduler && r.path.ends_with("/binding"))
        .map(|r| r.t)
        .collect();
    assert!(binds.len() >= 150, "{} bindings", binds.len());
    let busiest = busiest_second(log, &Actor::Scheduler, "no events");
    assert!(busiest <= 100 + 50 + 1, "{busiest} scheduler requests in one second");
    let first = binds[0];
    let burst = binds.iter().filter(|t| **t < first + Duration::from_secs(1)).count();
    assert!(burst < 150, "every Pod bound within a second of the first");
}
