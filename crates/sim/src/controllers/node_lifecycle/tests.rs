//! The controller alone: inputs in, requests and timers out.

use super::*;
use crate::settings::Settings;
use crate::testkit::{Probe, matches};
use crate::time::WallTime;

/// A Node whose kubelet last posted `Ready=True` at the start.
fn ready_node(name: &str) -> Node {
    let mut node = Node::new(name);
    let start = Time::at(WallTime(0));
    node.status.conditions.push(NodeCondition::new(
        "Ready",
        "True",
        start,
        start,
        "KubeletReady",
        "kubelet is posting ready status",
    ));
    node
}

#[test]
fn a_silent_node_goes_unknown_after_the_grace_period_and_alone_gets_no_no_execute_taint() {
    let mut probe = Probe::new();
    let mut nlc = NodeLifecycle::default();
    probe.given(ApiOp::CreateNode(ready_node("node-1")));
    // (when, the input, what comes out): the 1.34 grace period is 50 s.
    type Input = fn(&mut NodeLifecycle, &mut Ctx<'_, NodeLifecycleTimer>);
    let monitor: Input = |nlc, ctx| nlc.on_timer(NodeLifecycleTimer::Monitor, ctx);
    let changed: Input = |nlc, ctx| nlc.on_node_change("node-1", ctx);
    let tainting: Input = |nlc, ctx| nlc.on_timer(NodeLifecycleTimer::NoExecuteTainting, ctx);
    let steps: Vec<(u64, Input, Vec<&str>)> = vec![
        // First sighting: registered; the NoSchedule not-ready taint TaintNodesByCondition
        // added goes, the Node being Ready.
        (
            0,
            monitor,
            vec!["event RegisteredNode: Node node-1 event: Registered Node node-1 in Controller", "timer +5s Monitor"],
        ),
        (1, changed, vec!["GET /api/v1/nodes/node-1 -> 200", "PATCH /api/v1/nodes/node-1 -> 200"]),
        // Within the grace period nothing happens.
        (50_000, monitor, vec!["timer +5s Monitor"]),
        // Past it: Unknown conditions, NodeNotReady.
        (
            50_001,
            monitor,
            vec![
                "PUT /api/v1/nodes/node-1/status -> 200",
                "event NodeNotReady: Node node-1 status is now: NodeNotReady",
                "timer +5s Monitor",
            ],
        ),
        // The NoSchedule taint follows the condition.
        (50_002, changed, vec!["GET /api/v1/nodes/node-1 -> 200", "PATCH /api/v1/nodes/node-1 -> 200"]),
        // The next pass sees Unknown: queued for the NoExecute taint, on the 100 ms grid...
        (55_001, monitor, vec!["timer +99ms NoExecuteTainting", "timer +5s Monitor"]),
        // ...but the only node of the only zone is down: master disruption mode stopped the
        // zone's rate limiter, and no NoExecute taint comes.
        (55_100, tainting, vec![]),
    ];
    for (ms, input, want) in steps {
        probe.now = SimTime::from_millis(ms);
        let got = probe.input(|ctx| input(&mut nlc, ctx));
        assert!(matches(&got, &want), "at {ms} ms: {got:#?}");
    }
    let node = probe.given(ApiOp::GetNode("node-1".into()));
    let Object::Node(node) = node else { panic!("a Node") };
    assert_eq!(node.ready_status(), Some("Unknown"));
    let reason = node.condition("Ready").map(|c| c.reason.to_string());
    assert_eq!(reason.as_deref(), Some("NodeStatusUnknown"));
    let taints: Vec<(&str, &str)> = node.spec.taints.iter().map(|t| (t.key.as_str(), t.effect.as_str())).collect();
    assert_eq!(taints, [(TAINT_UNREACHABLE, "NoSchedule")]);
}

#[test]
fn leaving_master_disruption_mode_restarts_every_nodes_grace_period() {
    // handleDisruption (node_lifecycle_controller.go): on exit, every node's probeTimestamp
    // and readyTransitionTimestamp become now (kubernetes-notes §1.4).
    let mut probe = Probe::new();
    let mut nlc = NodeLifecycle::default();
    for name in ["node-1", "node-2", "node-3"] {
        probe.given(ApiOp::CreateNode(ready_node(name)));
    }
    let pass = |probe: &mut Probe, nlc: &mut NodeLifecycle, ms: u64| {
        probe.now = SimTime::from_millis(ms);
        probe.input(|ctx| nlc.on_timer(NodeLifecycleTimer::Monitor, ctx));
    };
    let probes =
        |nlc: &NodeLifecycle| -> Vec<SimTime> { nlc.nodes.values().map(|t| t.health.expect("seen").probe).collect() };
    pass(&mut probe, &mut nlc, 0);
    assert_eq!(probes(&nlc), [SimTime::ZERO; 3]);
    // Every node silent past the grace period: all Unknown, master disruption mode.
    pass(&mut probe, &mut nlc, 50_001);
    assert!(nlc.all_disrupted);
    // node-1's kubelet posts Ready again; node-2 and node-3 stay silent.
    let Object::Node(old) = probe.given(ApiOp::GetNode("node-1".into())) else { panic!("a Node") };
    let mut back = Node::clone(&old);
    let beat = Time::at(WallTime(70_000_000));
    for c in back.status.conditions.iter_mut().filter(|c| c.type_ == "Ready") {
        (c.status, c.last_heartbeat_time, c.last_transition_time) = ("True".into(), beat, beat);
    }
    probe.given(ApiOp::UpdateNodeStatus(back));
    pass(&mut probe, &mut nlc, 70_001);
    assert!(!nlc.all_disrupted, "some node is Ready: the mode is left");
    let now = SimTime::from_millis(70_001);
    assert_eq!(probes(&nlc), [now; 3], "every node's grace period starts again now");
    assert!(nlc.nodes.values().all(|t| t.health.expect("seen").ready_transition == now));
}

#[test]
fn zone_states_follow_the_worked_examples() {
    // (ready, not ready, state): node-operations.md §1.2.
    for (ready, not_ready, state) in [
        (1, 2, ZoneState::Normal),
        (1, 3, ZoneState::PartialDisruption),
        (5, 5, ZoneState::Normal),
        (4, 6, ZoneState::PartialDisruption),
        (0, 3, ZoneState::FullDisruption),
        (0, 1, ZoneState::FullDisruption),
        (3, 0, ZoneState::Normal),
    ] {
        assert_eq!(compute_zone_state(&Settings::default(), ready, not_ready), state, "{ready} ready, {not_ready} not");
    }
}

#[test]
fn tainting_rates_follow_the_zone_size() {
    assert_eq!(zone_qps(&Settings::default(), ZoneState::Normal, 3), 0.1);
    assert_eq!(zone_qps(&Settings::default(), ZoneState::PartialDisruption, 50), 0.0);
    assert_eq!(zone_qps(&Settings::default(), ZoneState::PartialDisruption, 51), 0.01);
    assert_eq!(zone_qps(&Settings::default(), ZoneState::FullDisruption, 50), 0.1);
}

#[test]
fn the_beta_zone_labels_win() {
    let mut node = Node::new("n");
    assert_eq!(&*compute_zone(&node), "");
    node.metadata.labels.insert("topology.kubernetes.io/region".into(), "r".into());
    node.metadata.labels.insert("topology.kubernetes.io/zone".into(), "a".into());
    assert_eq!(&*compute_zone(&node), "r:\x00:a");
    node.metadata.labels.insert("failure-domain.beta.kubernetes.io/zone".into(), "b".into());
    assert_eq!(&*compute_zone(&node), "r:\x00:b");
    assert_eq!(klog_escape(&compute_zone(&node)), "r:\\x00:b");
}

#[test]
fn a_zone_key_is_recognised_without_being_built() {
    let mut labelled = Vec::new();
    for (region, zone) in [("", ""), ("r", ""), ("", "a"), ("r", "a"), ("eu-west-1", "eu-west-1b")] {
        let mut node = Node::new("n");
        if !region.is_empty() {
            node.metadata.labels.insert("topology.kubernetes.io/region".into(), region.into());
        }
        if !zone.is_empty() {
            node.metadata.labels.insert("topology.kubernetes.io/zone".into(), zone.into());
        }
        labelled.push(node);
    }
    for a in &labelled {
        for b in &labelled {
            let same = compute_zone(a) == compute_zone(b);
            assert_eq!(
                is_zone_key(&compute_zone(a), zone_labels(b)),
                same,
                "{:?} {:?}",
                compute_zone(a),
                compute_zone(b)
            );
        }
    }
}
