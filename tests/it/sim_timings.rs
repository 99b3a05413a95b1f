//! The chapters' timings and exact strings, checked against `shared/reference/kubernetes-node-lifecycle.md`
//! and `docs/kubernetes-notes.md` (where the two disagree, the notes win: `unreachable:NoExecute`
//! lands one 5 s monitor pass after Ready goes Unknown, so the eviction comes ~305 s after it).

use std::sync::Arc;
use std::time::Duration;

use crate::common::{chapter_timeline, end_of, node_before};
use nodeline::sim::objects::{Node, Object, Pod};
use nodeline::sim::record::{Change, EventRecord, Request, Response};
use nodeline::sim::{
    Action, ActionKind, Actor, Body, Chapter, Config, KubeletState, Log, Method, Outcome, Profile, SimTime, StepTime,
    Timeline,
};
use std::borrow::Cow;

const NODE_1: &str = "node-1";

fn kubelet(machine: &str) -> Actor {
    Actor::Kubelet(machine.into())
}

/// When the first accepted input of `kind` was applied.
fn input_time(log: &Log, kind: ActionKind) -> SimTime {
    log.inputs
        .iter()
        .find(|i| i.action.kind == kind && i.rejected.is_none())
        .unwrap_or_else(|| panic!("no accepted {kind} input"))
        .t
}

/// The first event after `from` with this reason, source and message prefix.
fn event_after<'a>(log: &'a Log, from: SimTime, source: &str, reason: &str, message: &str) -> Option<&'a EventRecord> {
    log.events
        .iter()
        .find(|e| e.t >= from && e.source() == source && e.reason() == reason && e.message().starts_with(message))
}

/// Successful Lease writes (create or renew) of `machine`'s kubelet for its own Lease.
fn lease_writes<'a>(log: &'a Log, machine: &'a str) -> impl Iterator<Item = Cow<'a, Request>> + 'a {
    log.requests.iter().filter(move |r| {
        r.actor == kubelet(machine)
            && matches!(r.method, Method::Put | Method::Post)
            && r.path.contains("/namespaces/kube-node-lease/leases")
            && r.outcome.is_success()
    })
}

/// Every version of Node `name`, with the change that made it.
fn node_versions<'a>(log: &'a Log, name: &str) -> Vec<(std::borrow::Cow<'a, Change>, Arc<Node>)> {
    let key = nodeline::sim::objects::ObjectKey::cluster(nodeline::sim::objects::Kind::Node, name);
    log.versions(&key)
        .iter()
        .filter_map(|&i| {
            let c = log.changes().at(i as usize);
            match c.object() {
                Object::Node(n) => Some((c, n)),
                _ => None,
            }
        })
        .collect()
}

/// The first moment after `from` at which Node `name` carries the taint.
fn taint_appears(log: &Log, name: &str, key: &str, effect: &str, from: SimTime) -> Option<SimTime> {
    node_versions(log, name).into_iter().find(|(c, n)| c.t >= from && n.has_taint(key, effect)).map(|(c, _)| c.t)
}

fn actor_of(log: &Log, change: &Change) -> Option<Actor> {
    change.request.map(|r| log.requests.at(r as usize).actor.clone())
}

fn assert_within(what: &str, t: SimTime, lo: SimTime, hi: SimTime) {
    assert!(lo <= t && t <= hi, "{what} at {t}, expected within [{lo}, {hi}]");
}

fn pod_named(timeline: &Timeline, t: SimTime, name: &str) -> Option<Arc<Pod>> {
    timeline.at(t).pods().into_iter().find(|p| p.metadata.name == name)
}

fn node_failure_timings(profile: Profile) {
    let config = Config { profile, ..Config::default() };
    let timeline = chapter_timeline(Chapter::NodeFailure, config);
    let log = timeline.log();
    let kill = input_time(log, ActionKind::KillKubelet);
    let last_renew = lease_writes(log, NODE_1)
        .filter(|r| r.method == Method::Put && r.t < kill)
        .last()
        .expect("node-1 renewed its Lease before the kill")
        .t;
    let grace = profile.node_monitor_grace_period();

    // Ready goes Unknown: the first monitor pass past probe + grace (probe = the pass that saw the
    // last renew, up to 5 s later; the kill may also come up to 10 s into the renew period).
    let (unknown_change, unknown_node) = node_versions(log, NODE_1)
        .into_iter()
        .find(|(c, n)| c.t > kill && n.ready_status() == Some("Unknown"))
        .expect("node-1 goes Unknown");
    let unknown = unknown_change.t;
    assert_eq!(actor_of(log, &unknown_change), Some(Actor::NodeLifecycleController), "who wrote Unknown");
    let req = log.requests.at(unknown_change.request.expect("a request") as usize);
    assert_eq!((req.method, &*req.path), (Method::Put, "/api/v1/nodes/node-1/status"), "UpdateStatus");
    assert_within(
        &format!("Ready=Unknown ({profile})"),
        unknown,
        last_renew + grace,
        last_renew + grace + Duration::from_secs(15),
    );
    for ty in ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"] {
        let c = unknown_node.condition(ty).unwrap_or_else(|| panic!("{ty} present"));
        assert_eq!(
            (&*c.status, &*c.reason, &*c.message),
            ("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."),
            "{ty}"
        );
    }
    assert!(event_after(log, unknown, "node-controller", "NodeNotReady", "Node node-1 status is now").is_some());

    // The taints: NoSchedule from the update handler within ms, NoExecute one monitor pass later.
    let no_schedule =
        taint_appears(log, NODE_1, "node.kubernetes.io/unreachable", "NoSchedule", unknown).expect("NoSchedule");
    assert_within("unreachable:NoSchedule", no_schedule, unknown, unknown + Duration::from_secs(1));
    let no_execute =
        taint_appears(log, NODE_1, "node.kubernetes.io/unreachable", "NoExecute", unknown).expect("NoExecute");
    assert_within(
        "unreachable:NoExecute",
        no_execute,
        unknown + Duration::from_secs(5),
        unknown + Duration::from_secs(6),
    );

    // 300 s of DefaultTolerationSeconds, then the eviction.
    let eviction =
        event_after(log, no_execute, "taint-eviction-controller", "TaintManagerEviction", "Marking for deletion Pod ")
            .expect("the Pod is marked for deletion");
    assert_within(
        "TaintManagerEviction",
        eviction.t,
        no_execute + Duration::from_secs(299),
        no_execute + Duration::from_secs(301),
    );
    let old_name = eviction.message().rsplit('/').next().expect("ns/name").to_string();
    let old = pod_named(&timeline, eviction.t, &old_name).expect("the evicted Pod exists");
    let owner = old.metadata.owner_references.first().expect("owned by the ReplicaSet").uid.clone();

    // A replacement runs on node-2 within 10 s.
    let by = eviction.t + Duration::from_secs(10);
    let replacement = timeline
        .at(by)
        .pods()
        .into_iter()
        .find(|p| p.metadata.name != old_name && p.metadata.owner_references.iter().any(|o| o.uid == owner))
        .expect("a replacement Pod");
    assert_eq!(replacement.spec.node_name, "node-2");
    assert_eq!(replacement.status.phase, "Running", "replacement Running by {by}");
    assert!(replacement.is_ready());

    // The old Pod stays Terminating while its container keeps running on node-1.
    for t in [by, end_of(Chapter::NodeFailure)] {
        let pod = pod_named(&timeline, t, &old_name).unwrap_or_else(|| panic!("{old_name} still exists at {t}"));
        assert!(pod.metadata.deletion_timestamp.is_some(), "{old_name} is Terminating at {t}");
        let machines = timeline.at(t).machines();
        let node1 = machines.iter().find(|m| m.name == NODE_1).expect("machine node-1");
        assert_eq!(node1.kubelet, KubeletState::Stopped);
        assert!(node1.containers.iter().any(|c| c.pod == old_name), "{old_name}'s container still runs at {t}");
    }
}

#[test]
fn node_failure_timings_1_34() {
    node_failure_timings(Profile::V1_34);
}

#[test]
fn node_failure_timings_1_31() {
    node_failure_timings(Profile::V1_31);
}

#[test]
fn kubelet_restart_timings() {
    let timeline = chapter_timeline(Chapter::KubeletRestart, Config::default());
    let log = timeline.log();
    let start = input_time(log, ActionKind::StartKubelet);
    let ours: Vec<Cow<'_, Request>> =
        log.requests.iter().filter(|r| r.t >= start && r.actor == kubelet(NODE_1)).collect();

    let starting = event_after(log, start, "kubelet", "Starting", "Starting kubelet.").expect("Starting event");
    let post = ours
        .iter()
        .position(|r| r.method == Method::Post && r.path == "/api/v1/nodes")
        .expect("the kubelet registers again");
    assert_eq!(ours[post].outcome, Outcome::Code(409), "the Node already exists");
    assert!(starting.t <= ours[post].t);
    let get = ours.get(post + 1).expect("a request after the 409");
    assert_eq!((get.method, &*get.path, get.outcome), (Method::Get, "/api/v1/nodes/node-1", Outcome::Code(200)));

    for reason in ["NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID"] {
        let e = log
            .events
            .iter()
            .find(|e| e.t >= start && e.reason() == reason && e.count == 2)
            .unwrap_or_else(|| panic!("{reason} reaches x2"));
        assert_eq!(e.source(), "kubelet");
    }
    let not_ready = event_after(log, start, "kubelet", "NodeNotReady", "Node node-1").expect("kubelet NodeNotReady");
    let ready = event_after(log, start, "kubelet", "NodeReady", "Node node-1").expect("NodeReady");
    assert!(not_ready.t <= ready.t);
    assert_within("NodeReady", ready.t, start, start + Duration::from_secs(5));

    // Both NoExecute taints are gone within 10 s of NodeReady, and stay gone.
    let clear = ready.t + Duration::from_secs(10);
    for (c, n) in node_versions(log, NODE_1) {
        if c.t >= clear {
            assert!(n.spec.taints.iter().all(|t| t.effect != "NoExecute"), "NoExecute taint at {}", c.t);
        }
    }
    assert!(timeline.at(clear).node(NODE_1).expect("node-1").spec.taints.iter().all(|t| t.effect != "NoExecute"));

    let cancel =
        event_after(log, start, "taint-eviction-controller", "TaintManagerEviction", "Cancelling deletion of Pod ")
            .expect("the pending deletion is cancelled");
    let pod_name = cancel.message().rsplit('/').next().expect("ns/name");
    let pod = pod_named(&timeline, end_of(Chapter::KubeletRestart), pod_name).expect("the Pod survives");
    assert!(pod.is_ready() && !pod.is_terminating() && pod.spec.node_name == NODE_1, "{pod_name} Ready again");
    assert!(log.events.iter().all(|e| !e.message().starts_with("Marking for deletion")), "nothing was evicted");
}

/// A restarted kubelet does not sync Pods until its runtime checks pass: `syncLoop` skips every
/// iteration while `runtimeState.runtimeErrors()` is non-nil ("Skipping pod synchronization"),
/// and right after a start that includes `PLEG is not healthy: pleg has yet to be successful`
/// (kubernetes/kubernetes `pkg/kubelet/kubelet.go`, `syncLoop`; docs/kubernetes-notes.md §3.2).
/// With CNI fine, those errors are exactly what keeps the kubelet's Ready False, so its adopted
/// Pod may be reported Ready no earlier than the kubelet's own `NodeReady` (give or take the
/// 100 ms poll of the fast status loop that sends it).
#[test]
fn restarted_kubelet_reports_pods_only_after_its_runtime_checks_pass() {
    let timeline = chapter_timeline(Chapter::KubeletRestart, Config::default());
    let log = timeline.log();
    let start = input_time(log, ActionKind::StartKubelet);
    let ready = event_after(log, start, "kubelet", "NodeReady", "Node node-1").expect("NodeReady").t;
    let first_pod_write = log
        .requests
        .iter()
        .find(|r| r.t >= start && r.actor == kubelet(NODE_1) && r.path.contains("/pods/"))
        .expect("the restarted kubelet reports its Pod");
    let node = node_before(log, NODE_1, first_pod_write.seq).expect("node-1");
    let ready_condition = node.condition("Ready").expect("Ready");
    assert!(
        first_pod_write.t + Duration::from_millis(100) >= ready,
        "the restarted kubelet wrote {} {} at {} (summary: {}), before its runtime checks passed \
         (NodeReady at {}); the Node said Ready={} \"{}\"",
        first_pod_write.method.as_str(),
        first_pod_write.path,
        first_pod_write.t,
        log.summary(log.requests.iter().position(|r| r.seq == first_pod_write.seq).expect("listed")),
        ready,
        ready_condition.status,
        ready_condition.message
    );
}

#[test]
fn registration_chapter_strings_and_order() {
    let timeline = chapter_timeline(Chapter::Registration, Config::default());
    let log = timeline.log();

    // The first POST carries Ready=False: the CNI plugin is not there yet.
    let post = log
        .requests
        .iter()
        .find(|r| r.method == Method::Post && r.path == "/api/v1/nodes")
        .expect("the kubelet registers");
    let Some(Body::Object(Object::Node(body))) = &post.body else { panic!("a Node body") };
    let ready = body.condition("Ready").expect("Ready in the POST body");
    assert_eq!((&*ready.status, &*ready.reason), ("False", "KubeletNotReady"));
    assert!(ready.message.contains("cni plugin not initialized"), "{}", ready.message);

    // TaintNodesByCondition's taint has no timeAdded.
    let (_, created) = node_versions(log, NODE_1).into_iter().next().expect("created");
    let taint = created
        .spec
        .taints
        .iter()
        .find(|t| t.key == "node.kubernetes.io/not-ready" && t.effect == "NoSchedule")
        .expect("not-ready:NoSchedule at creation");
    assert_eq!(taint.time_added, None);

    // Someone runs `kubectl label` with the node's credentials; NodeRestriction refuses.
    let as_node = Actor::KubectlAsNode(NODE_1.into());
    assert_eq!(as_node.user(NODE_1), "system:node:node-1");
    assert_eq!(as_node.to_string(), "kubectl (system:node:node-1)");
    let i = log
        .requests
        .iter()
        .position(|r| r.method == Method::Patch && r.path == "/api/v1/nodes/node-1" && r.actor == as_node)
        .expect("the label PATCH");
    let label = log.requests.at(i);
    assert_eq!(
        (label.query.as_ref(), label.content_type.map(|c| c.as_str())),
        ("fieldManager=kubectl-label", Some("application/merge-patch+json"))
    );
    assert_eq!(json_body(&label), serde_json::json!({"metadata": {"labels": {"node-role.kubernetes.io/worker": ""}}}));
    assert_eq!(label.outcome, Outcome::Code(403));
    let Some(Response::Status(status)) = &label.response else { panic!("a Status answer") };
    assert_eq!(
        status.message,
        "nodes \"node-1\" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/worker"
    );
    let read = log.requests.iter().take(i).rev().find(|r| r.actor == as_node).expect("kubectl reads the Node first");
    assert_eq!(
        (read.method, read.path.as_str(), read.query.as_ref(), read.t),
        (Method::Get, "/api/v1/nodes/node-1", "", label.t)
    );
    assert!(
        !log.requests
            .iter()
            .any(|r| r.actor == kubelet(NODE_1) && r.path == "/api/v1/nodes/node-1" && r.method == Method::Patch)
    );
    assert!(!log.lines.iter().any(|l| l.message.contains("Failed to update node labels")));

    // The ordinary Pod cannot go anywhere yet; the tolerating one can, while Ready=False.
    let failed = log.events.iter().find(|e| e.reason() == "FailedScheduling").expect("FailedScheduling");
    assert!(failed.object.name.starts_with("demo-"), "{}", failed.object.name);
    assert_eq!(
        failed.message(),
        "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    );
    let binding = |prefix: &str| {
        log.requests
            .iter()
            .find(|r| {
                r.method == Method::Post
                    && r.path.starts_with(&format!("/api/v1/namespaces/default/pods/{prefix}"))
                    && r.path.ends_with("/binding")
            })
            .unwrap_or_else(|| panic!("a binding for {prefix}*"))
    };
    let tolerant = binding("tolerant-");
    assert_eq!(tolerant.outcome, Outcome::Code(201));
    let node_then = node_before(log, NODE_1, tolerant.seq).expect("node-1");
    assert_eq!(node_then.ready_status(), Some("False"), "the tolerating Pod is bound while Ready=False");

    // After NodeReady: the taint goes, and the ordinary Pod is bound and runs.
    let node_ready = event_after(log, SimTime::ZERO, "kubelet", "NodeReady", "Node node-1").expect("NodeReady").t;
    let after = timeline.at(node_ready + Duration::from_secs(1)).node(NODE_1).expect("node-1");
    assert!(after.spec.taints.iter().all(|t| t.key != "node.kubernetes.io/not-ready"), "{:?}", after.spec.taints);
    let demo = binding("demo-");
    assert_eq!(demo.outcome, Outcome::Code(201));
    assert!(demo.t >= node_ready, "the ordinary Pod is bound only after NodeReady");
    let demo_name = demo.path.trim_end_matches("/binding").rsplit('/').next().expect("name");
    let pod = pod_named(&timeline, end_of(Chapter::Registration), demo_name).expect("the ordinary Pod");
    assert_eq!((&*pod.spec.node_name, &*pod.status.phase), (NODE_1, "Running"));
}

#[test]
fn heartbeats_on_a_quiet_node() {
    let mut timeline = Timeline::new(Chapter::Registration, Config::default());
    timeline.run_until(SimTime::from_secs(20 * 60));
    let log = timeline.log();

    // The Lease is renewed every 10 s, stretched by up to 4 % of jitter.
    let renewals: Vec<SimTime> = lease_writes(log, NODE_1).map(|r| r.t).collect();
    assert!(renewals.len() > 100, "{} Lease writes in 20 minutes", renewals.len());
    for w in renewals.windows(2) {
        assert_within("Lease renewal", w[1], w[0] + Duration::from_secs(10), w[0] + Duration::from_millis(10_400));
    }

    // With nothing changing, the Node's status is PATCHed every nodeStatusReportFrequency (5 min),
    // at the first 10 s status sync after it is due.
    let quiet_from = SimTime::from_secs(120);
    let patches: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| {
            r.actor == kubelet(NODE_1)
                && r.method == Method::Patch
                && r.path == "/api/v1/nodes/node-1/status"
                && r.outcome.is_success()
        })
        .map(|r| r.t)
        .collect();
    let last_busy = patches.iter().copied().rfind(|&t| t < quiet_from).expect("PATCHes while starting");
    let quiet: Vec<SimTime> =
        std::iter::once(last_busy).chain(patches.iter().copied().filter(|&t| t >= quiet_from)).collect();
    assert!(quiet.len() >= 4, "status PATCHes on the quiet node: {quiet:?}");
    for w in quiet.windows(2) {
        assert_within("quiet status PATCH", w[1], w[0] + Duration::from_secs(300), w[0] + Duration::from_secs(311));
    }
}

#[test]
fn every_step_of_every_chapter_resolves_in_order() {
    for chapter in Chapter::ALL {
        for profile in Profile::ALL {
            let timeline = chapter_timeline(chapter, Config { profile, ..Config::default() });
            let steps = timeline.steps();
            assert_eq!(steps.len(), chapter.scenario().steps.len());
            let resolved: Vec<StepTime> = steps
                .iter()
                .enumerate()
                .map(|(i, s)| s.unwrap_or_else(|| panic!("{chapter} ({profile}): step {} never happens", i + 1)))
                .collect();
            // Each step's lead-in comes before its moment, and after the moment before it.
            for (i, s) in resolved.iter().enumerate() {
                assert!(s.start <= s.moment, "{chapter} ({profile}): step {} starts after its moment", i + 1);
            }
            for (i, w) in resolved.windows(2).enumerate() {
                assert!(
                    w[0].moment < w[1].start,
                    "{chapter} ({profile}): step {} starts before step {}'s moment",
                    i + 2,
                    i + 1
                );
            }
            let resolved: Vec<SimTime> = resolved.iter().map(|s| s.moment).collect();
            for (i, w) in resolved.windows(2).enumerate() {
                assert!(
                    w[0] < w[1],
                    "{chapter} ({profile}): step {} at {} is not before step {} at {}",
                    i + 1,
                    w[0],
                    i + 2,
                    w[1]
                );
            }
            assert!(resolved.iter().all(|&t| t <= end_of(chapter)), "{chapter}: a step after the end");
        }
    }
}

/// Master disruption mode: in a one-node cluster the only node going Unknown puts every zone in
/// full disruption in the same pass, so `unreachable:NoExecute` never appears, not even briefly
/// (docs/kubernetes-notes.md §1.4), and nothing is evicted.
#[test]
fn a_one_node_cluster_never_gets_a_no_execute_taint() {
    let mut scenario = Chapter::Registration.scenario();
    for m in &mut scenario.machines {
        m.cni_ready_after = None;
    }
    scenario.script.clear();
    let kill = SimTime::from_secs(60);
    let actions =
        [Action::new(ActionKind::CreatePod, SimTime::from_secs(20)), Action::new(ActionKind::KillKubelet, kill)];
    let mut timeline = Timeline::from_scenario(scenario, Config::default(), &actions);
    let end = kill + Duration::from_secs(600);
    timeline.run_until(end);
    let log = timeline.log();

    let versions = node_versions(log, NODE_1);
    assert!(
        versions.iter().any(|(c, n)| c.t > kill && n.ready_status() == Some("Unknown")),
        "the node must go Unknown for this test to mean anything"
    );
    assert!(versions.iter().any(|(_, n)| n.has_taint("node.kubernetes.io/unreachable", "NoSchedule")));
    for (c, n) in &versions {
        assert!(
            n.spec.taints.iter().all(|t| t.effect != "NoExecute"),
            "NoExecute taint at {}: {:?}",
            c.t,
            n.spec.taints
        );
    }
    assert!(log.events.iter().all(|e| e.reason() != "TaintManagerEviction"), "nothing is evicted");
    assert!(timeline.at(end).pods().iter().all(|p| !p.is_terminating()));
}

/// When a cut network comes back, the kubelet notices within about a minute that the controller
/// marked its Node Unknown, and reports Ready=True again. Its status sync (every 10 s, +4 %
/// jitter) reads the Node from its informer first (reference §4, "try 0"); the informer's watch
/// broke with the network and the reflector retries with a backoff that "will stop at [30,60) sec
/// interval" (client-go `tools/cache/reflector.go`, `NewReflectorWithOptions`), so the Unknown
/// version reaches the kubelet less than 60 s after the restore, and the next sync PATCHes.
#[test]
fn kubelet_reports_ready_soon_after_its_network_returns() {
    let (cut, restore) = (SimTime::from_secs(60), SimTime::from_secs(130));
    let actions =
        [Action::on(ActionKind::CutNetwork, NODE_1, cut), Action::on(ActionKind::RestoreNetwork, NODE_1, restore)];
    let mut timeline = Timeline::with_actions(Chapter::NodeFailure, Config::default(), &actions);
    timeline.run_until(end_of(Chapter::NodeFailure));
    let log = timeline.log();
    let versions = node_versions(log, NODE_1);
    let unknown = versions
        .iter()
        .find(|(c, n)| c.t > cut && n.ready_status() == Some("Unknown"))
        .map(|(c, _)| c.t)
        .expect("node-1 goes Unknown while cut off");
    assert!(unknown < restore, "Unknown at {unknown}, before the restore at {restore}");
    let ready_again = versions
        .iter()
        .find(|(c, n)| c.t > restore && n.ready_status() == Some("True"))
        .map(|(c, _)| c.t)
        .expect("node-1 is Ready again");
    let bound = restore + Duration::from_secs(60) + Duration::from_millis(10_400);
    assert!(
        ready_again <= bound,
        "node-1's network came back at {restore}, but its kubelet reported Ready=True only at {ready_again} \
         (expected by {bound}); until then the Node stays Unknown with its unreachable taints"
    );
}

/// A timeline of `chapter` with the reader's actions in `ACTION[:MACHINE]@TIME` notation.
fn timeline_with(chapter: Chapter, actions: &str, until: SimTime) -> Timeline {
    let actions = nodeline::sim::parse_actions(actions).expect("actions parse");
    let mut timeline = Timeline::with_actions(chapter, Config::default(), &actions);
    timeline.run_until(until);
    timeline
}

fn json_body(r: &Request) -> serde_json::Value {
    match r.body.as_ref().and_then(Body::json) {
        Some(v) => v,
        None => panic!("{:?} {}: a JSON body, got {:?}", r.method, r.path, r.body),
    }
}

#[test]
fn returning_kubelet_reports_terminal_phase_before_deleting() {
    let timeline = timeline_with(
        Chapter::NodeFailure,
        "kill-kubelet:node-1@120s,start-kubelet:node-1@9m",
        SimTime::from_secs(600),
    );
    let log = timeline.log();
    let killing = event_after(log, SimTime::from_secs(540), "kubelet", "Killing", "Stopping container nginx")
        .expect("the returning kubelet stops the Terminating Pod");
    let name = killing.object.name.clone();
    let pod_path = format!("/api/v1/namespaces/default/pods/{name}");
    let uid = timeline
        .at(killing.t)
        .pods()
        .into_iter()
        .find(|p| p.metadata.name == name)
        .expect("the Pod")
        .metadata
        .uid
        .clone();
    let requests: Vec<Cow<'_, Request>> = log
        .requests
        .iter()
        .filter(|r| r.t >= killing.t && r.actor == kubelet(NODE_1) && r.path.starts_with(&pod_path))
        .collect();
    let shape: Vec<(Method, &str)> =
        requests.iter().map(|r| (r.method, r.path.trim_start_matches(&pod_path))).collect();
    assert_eq!(
        shape,
        [(Method::Get, ""), (Method::Get, ""), (Method::Patch, "/status"), (Method::Get, ""), (Method::Delete, "")]
    );
    assert!(requests.iter().all(|r| r.query.is_empty() && r.outcome.is_success()), "main client, no query");
    assert_eq!(requests[0].t, killing.t, "the status manager reads the Pod as it starts killing it");
    let (patch, delete) = (&requests[2], &requests[4]);
    assert_eq!(patch.content_type.map(|c| c.as_str()), Some("application/strategic-merge-patch+json"));
    assert_eq!(json_body(patch)["status"]["phase"], "Succeeded");
    assert_eq!(json_body(patch)["metadata"]["uid"], uid.as_str());
    assert_eq!(json_body(delete)["gracePeriodSeconds"], 0);
    assert_eq!(json_body(delete)["preconditions"]["uid"], uid.as_str());
    assert_within("the DELETE", delete.t, patch.t + Duration::from_millis(300), patch.t + Duration::from_millis(600));

    // Between the PATCH and the DELETE the Pod is Completed.
    let between = patch.t + Duration::from_millis(1);
    let pod = pod_named(&timeline, between, &name).expect("the Pod until the DELETE");
    assert_eq!(pod.status.phase, "Succeeded");
    let c = &pod.status.container_statuses[0];
    let terminated = c.state.terminated.as_ref().expect("terminated");
    assert_eq!((terminated.exit_code, &*terminated.reason), (0, "Completed"));
    assert!(!c.ready && !c.started);
    let ready = pod.status.conditions.iter().find(|c| c.type_ == "Ready").expect("Ready");
    assert_eq!((ready.status, &*ready.reason), ("False", "PodCompleted"));
    let cluster = nodeline::render::kubectl_printer::Cluster::from_snapshot(
        &timeline.at(between),
        nodeline::sim::DEFAULT_EPOCH + between.since_start(),
    );
    let out = nodeline::render::kubectl_printer::command::run(&["get".into(), "pods".into()], &cluster);
    let row = out.stdout.lines().find(|l| l.starts_with(name.as_str())).expect("the Pod's row");
    assert!(row.contains(" 0/1 ") && row.contains(" Completed "), "{row}");
    assert!(pod_named(&timeline, delete.t, &name).is_none(), "the DELETE removes it");
}

#[test]
fn taint_manager_eviction_events_name_the_pod_without_uid() {
    let timeline = chapter_timeline(Chapter::NodeFailure, Config::default());
    let log = timeline.log();
    let marking = log.events.iter().find(|e| e.reason() == "TaintManagerEviction").expect("an eviction");
    assert!(marking.message().starts_with("Marking for deletion Pod default/"), "{}", marking.message());
    let o = &marking.object;
    assert_eq!((&*o.api_version, &*o.kind, &*o.namespace), ("v1", "Pod", "default"));
    assert_eq!((&*o.uid, &*o.resource_version, &*o.field_path), ("", "", ""), "{o:?}");
    let stored =
        timeline.at(marking.t).events().into_iter().find(|e| e.reason == "TaintManagerEviction").expect("stored");
    assert!(stored.involved_object.uid.is_empty() && stored.involved_object.resource_version.is_empty());
}

#[test]
fn events_created_in_one_millisecond_sort_in_write_order() {
    for chapter in Chapter::ALL {
        let timeline = chapter_timeline(chapter, Config::default());
        let created: Vec<&EventRecord> = timeline.log().events.iter().filter(|e| e.count == 1).collect();
        let mut pairs = 0;
        for w in created.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.t.as_micros() / 1000 == b.t.as_micros() / 1000 && a.object.name == b.object.name {
                pairs += 1;
                assert!(
                    a.key().name < b.key().name,
                    "{chapter}: {} ({}) then {} ({})",
                    a.key().name,
                    a.reason(),
                    b.key().name,
                    b.reason()
                );
            }
        }
        assert!(pairs > 0, "{chapter} writes several Events in one millisecond");
    }
    let timeline = chapter_timeline(Chapter::Registration, Config::default());
    let t = SimTime::from_secs(2);
    let cluster = nodeline::render::kubectl_printer::Cluster::from_snapshot(
        &timeline.at(t),
        nodeline::sim::DEFAULT_EPOCH + t.since_start(),
    );
    let out = nodeline::render::kubectl_printer::command::run(&["get".into(), "events".into()], &cluster);
    let order: Vec<&str> =
        out.stdout.lines().filter_map(|l| l.split_whitespace().nth(2)).filter(|r| r.starts_with("NodeHas")).collect();
    assert_eq!(order, ["NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID"], "{}", out.stdout);
}

#[test]
fn registration_with_network_cut_waits_for_the_dial_timeout() {
    let timeline = timeline_with(
        Chapter::Registration,
        "cut-network:node-1@100ms,restore-network:node-1@100s",
        SimTime::from_secs(130),
    );
    let log = timeline.log();
    let dial = "Post \"https://10.0.0.10:6443/api/v1/nodes\": dial tcp 10.0.0.10:6443: i/o timeout";
    let posts: Vec<Cow<'_, Request>> = log
        .requests
        .iter()
        .filter(|r| r.actor == kubelet(NODE_1) && r.method == Method::Post && r.path == "/api/v1/nodes")
        .collect();
    let failed: Vec<&Cow<'_, Request>> = posts.iter().filter(|r| r.outcome == Outcome::Timeout).collect();
    assert!(failed.len() >= 3, "{} failed POSTs", failed.len());
    let ms: Vec<u64> = failed.iter().map(|r| r.t.as_micros() / 1000).collect();
    assert_eq!(&ms[..3], [450, 30_650, 61_050], "sleep 200 ms, 400 ms after each 30 s dial timeout");
    for r in &failed {
        assert_eq!(r.error().as_deref(), Some(dial));
        assert!(r.query.is_empty());
        assert_eq!(r.end - r.t, Duration::from_secs(30));
    }
    let logged: Vec<&str> = log
        .lines
        .iter()
        .filter(|l| l.actor == kubelet(NODE_1) && l.message.starts_with("\"Unable to register node with API server\""))
        .map(|l| &*l.message)
        .collect();
    assert_eq!(logged.len(), failed.len());
    let escaped = dial.replace('"', "\\\"");
    for line in logged {
        assert_eq!(line, format!("\"Unable to register node with API server\" err=\"{escaped}\" node=\"node-1\""));
    }
    // The heartbeat client keeps its 10 s deadline.
    let lease_get = log
        .requests
        .iter()
        .find(|r| r.actor == kubelet(NODE_1) && r.path.contains("/leases/") && r.outcome == Outcome::Timeout)
        .expect("a Lease GET during the cut");
    assert_eq!(lease_get.end - lease_get.t, Duration::from_secs(10));
    assert!(lease_get.error().as_deref().is_some_and(|e| e.ends_with("?timeout=10s\": context deadline exceeded")));
    assert!(posts.last().is_some_and(|r| r.outcome == Outcome::Code(201)), "registers once the network is back");
}

#[test]
fn images_reach_node_status_after_cache_refresh() {
    let timeline = chapter_timeline(Chapter::Registration, Config::default());
    let log = timeline.log();
    let pulled = event_after(log, SimTime::ZERO, "kubelet", "Pulled", "Successfully pulled image").expect("a pull");
    let starting = event_after(log, SimTime::ZERO, "kubelet", "Starting", "Starting kubelet.").expect("Starting");
    // The kubelet process starts 350 ms before its Starting event; the image cache is filled
    // 440 ms after the start, then every 30 s.
    let first_refresh = starting.t + Duration::from_millis(90);
    let mut tick = first_refresh;
    while tick < pulled.t {
        tick = tick + Duration::from_secs(30);
    }
    let (change, _) = node_versions(log, NODE_1)
        .into_iter()
        .find(|(_, n)| n.status.images.iter().any(|i| i.names.iter().any(|name| name.contains("nginx"))))
        .expect("the nginx image reaches the Node's status");
    assert_within("the images PATCH", change.t, tick, tick + Duration::from_millis(10_400));
    assert!(change.t > pulled.t + Duration::from_secs(10), "pulled at {}, reported at {}", pulled.t, change.t);
}

#[test]
fn created_container_message_follows_the_profile() {
    for (profile, want) in [(Profile::V1_34, "Created container: nginx"), (Profile::V1_31, "Created container nginx")] {
        let timeline = chapter_timeline(Chapter::Registration, Config { profile, ..Config::default() });
        let created = event_after(timeline.log(), SimTime::ZERO, "kubelet", "Created", "").expect("Created");
        assert_eq!(created.message(), want, "{profile}");
    }
}

#[test]
fn every_kubelet_start_warns_invalid_disk_capacity() {
    for chapter in Chapter::ALL {
        let timeline = chapter_timeline(chapter, Config::default());
        let log = timeline.log();
        let starts: Vec<&EventRecord> = log.events.iter().filter(|e| e.reason() == "Starting").collect();
        assert!(!starts.is_empty());
        for s in starts {
            let warning = log
                .events
                .iter()
                .find(|e| {
                    e.reason() == "InvalidDiskCapacity"
                        && e.object.name == s.object.name
                        && e.t >= s.t
                        && e.t <= s.t + Duration::from_millis(20)
                })
                .unwrap_or_else(|| panic!("{chapter}: no InvalidDiskCapacity after Starting at {}", s.t));
            assert_eq!((warning.type_(), warning.message()), ("Warning", "invalid capacity 0 on image filesystem"));
            assert!(log.lines.iter().any(|l| l.t == s.t
                && &*l.message
                    == "\"Image garbage collection failed once. Stats initialization may not have completed yet\" err=\"invalid capacity 0 on image filesystem\""));
        }
    }
}

#[test]
fn duplicate_machine_rebooted_events_pass_the_spam_filter() {
    let timeline =
        timeline_with(Chapter::Registration, "add-duplicate-machine:node-1@60s", SimTime::from_secs(16 * 60));
    let log = timeline.log();
    let rebooted: Vec<&EventRecord> = log.events.iter().filter(|e| e.reason() == "Rebooted").collect();
    let mut objects: Vec<&str> = rebooted.iter().map(|e| e.version.name.as_str()).collect();
    objects.sort_unstable();
    objects.dedup();
    assert_eq!(objects.len(), 2, "one Event per kubelet process");
    let at = SimTime::from_secs(60 + 15 * 60);
    for name in objects {
        let emissions: Vec<&&EventRecord> = rebooted.iter().filter(|e| e.key().name == name).collect();
        let count = emissions.iter().filter(|e| e.t <= at).map(|e| e.count).max().unwrap_or(0);
        assert!((26..=29).contains(&count), "{name}: count {count} at 16 min");
        for w in emissions.windows(2).skip(24) {
            assert!(w[1].t - w[0].t >= Duration::from_secs(295), "{name}: {} then {}", w[0].t, w[1].t);
        }
    }
}

#[test]
fn first_status_update_after_a_fresh_post_misses_the_lister() {
    let timeline = chapter_timeline(Chapter::Registration, Config::default());
    let log = timeline.log();
    let i = log
        .requests
        .iter()
        .position(|r| r.method == Method::Post && r.path == "/api/v1/nodes" && r.outcome == Outcome::Code(201))
        .expect("the Node POST");
    let post = log.requests.at(i);
    let next: Vec<Cow<'_, Request>> =
        log.requests.iter_from(i + 1).filter(|r| r.actor == kubelet(NODE_1)).take(2).collect();
    assert_eq!(
        next.iter().map(|r| (r.method, r.path.as_str(), r.query.as_ref(), r.t)).collect::<Vec<_>>(),
        [
            (Method::Get, "/api/v1/nodes/node-1", "timeout=10s", post.t),
            (Method::Patch, "/api/v1/nodes/node-1/status", "timeout=10s", post.t)
        ]
    );
    let miss = log
        .lines
        .iter()
        .find(|l| {
            &*l.message
                == "\"Error updating node status, will retry\" err=\"error getting node \\\"node-1\\\": node \\\"node-1\\\" not found\""
        })
        .expect("the lister miss is logged");
    assert!(post.seq < miss.seq && miss.seq < next[0].seq, "logged between the POST and the GET");
    let lister = log
        .lines
        .iter()
        .filter(|l| {
            &*l.message == "\"Error getting the current node from lister\" err=\"node \\\"node-1\\\" not found\""
        })
        .count();
    assert!((1..=2).contains(&lister), "{lister} fast status lister misses before the Node exists");
}

const CSINODES: &str = "/apis/storage.k8s.io/v1/csinodes";

/// The kubelet's CSINode requests (`docs/kubernetes-notes.md` §9.3).
fn csinode_requests<'a>(log: &'a Log, machine: &'a str, from: SimTime) -> Vec<Cow<'a, Request>> {
    log.requests.iter().filter(|r| r.t >= from && r.actor == kubelet(machine) && r.path.starts_with(CSINODES)).collect()
}

/// When the kubelet process on `machine` started at or after `from` (its "Kubelet version" line).
fn kubelet_starts(log: &Log, machine: &str) -> Vec<SimTime> {
    log.lines
        .iter()
        .filter(|l| l.actor == kubelet(machine) && l.message.starts_with("\"Kubelet version\""))
        .map(|l| l.t)
        .collect()
}

/// The Ready message of a Node.
fn ready_message(node: &Node) -> String {
    node.condition("Ready").map(|c| c.message.to_string()).unwrap_or_default()
}

/// Registration: the CSI plugin's wait GET comes first, at the kubelet's start; its tries fail
/// while the Node does not exist (so the registered Node's Ready message carries the failed
/// call's error); the CSINode is created with an owner reference to the Node within a second of
/// the Node's POST, and the next status write drops the storage error.
#[test]
fn csinode_created_after_registration() {
    for profile in Profile::ALL {
        let timeline = chapter_timeline(Chapter::Registration, Config { profile, ..Config::default() });
        let log = timeline.log();
        let start = kubelet_starts(log, NODE_1)[0];
        let first = log.requests.iter().find(|r| r.actor == kubelet(NODE_1)).expect("a kubelet request");
        assert_eq!(
            (first.method, first.path.as_str(), first.query.as_ref(), first.t, first.outcome),
            (Method::Get, "/apis/storage.k8s.io/v1/csinodes/node-1", "resourceVersion=0", start, Outcome::Code(404)),
            "{profile:?}: waitForAPIServerForever's GET from the watch cache comes first"
        );
        let node_post = log
            .requests
            .iter()
            .find(|r| r.method == Method::Post && r.path == "/api/v1/nodes" && r.outcome == Outcome::Code(201))
            .expect("the Node POST");
        let csi = csinode_requests(log, NODE_1, start);
        let posts: Vec<&Cow<'_, Request>> = csi.iter().filter(|r| r.method == Method::Post).collect();
        assert_eq!(posts.len(), 1, "{profile:?}: one CSINode POST");
        let post = posts[0];
        assert_eq!((post.path.as_str(), post.query.as_ref(), post.outcome), (CSINODES, "", Outcome::Code(201)));
        assert_within("the CSINode POST", post.t, node_post.t, node_post.t + Duration::from_secs(1));
        // Every try before the Node exists: GET the CSINode, GET the Node, both 404.
        let before: Vec<Cow<'_, Request>> = log
            .requests
            .iter()
            .filter(|r| r.actor == kubelet(NODE_1) && r.t < node_post.t && r.query.is_empty())
            .collect();
        assert!(before.len() >= 8 && before.len().is_multiple_of(2), "{profile:?}: {} tries' requests", before.len());
        for pair in before.chunks(2) {
            assert_eq!(
                (pair[0].method, pair[0].path.as_str()),
                (Method::Get, "/apis/storage.k8s.io/v1/csinodes/node-1")
            );
            assert_eq!((pair[1].method, pair[1].path.as_str()), (Method::Get, "/api/v1/nodes/node-1"));
            assert_eq!((pair[0].outcome, pair[1].outcome), (Outcome::Code(404), Outcome::Code(404)));
            assert_eq!(pair[0].t, pair[1].t);
        }
        let node = match &node_post.response {
            Some(Response::Object(Object::Node(n))) => n.clone(),
            other => panic!("the Node POST answers the Node, got {other:?}"),
        };
        let csinode = match &post.response {
            Some(Response::Object(Object::CsiNode(c))) => c.clone(),
            other => panic!("the CSINode POST answers the CSINode, got {other:?}"),
        };
        let owner = &csinode.metadata.owner_references;
        assert_eq!(owner.len(), 1);
        assert_eq!(
            (&*owner[0].api_version, &*owner[0].kind, owner[0].name.as_str(), owner[0].uid.as_str()),
            ("v1", "Node", NODE_1, node.metadata.uid.as_str())
        );
        assert_eq!((owner[0].controller, owner[0].block_owner_deletion), (None, None));
        let sent = match &post.body {
            Some(Body::Object(o)) => o.to_json(),
            other => panic!("the CSINode POST sends the object, got {other:?}"),
        };
        assert_eq!(sent["spec"]["drivers"], serde_json::json!([]), "the kubelet sends an empty list");
        assert_eq!(csinode.spec.drivers, None, "the API server serves drivers: null");
        // Ready's message: the failed call's error when the Node is registered, none of it after
        // the CSINode exists.
        let failed = "failed to initialize CSINode: error updating CSINode annotation: timed out waiting for the \
                      condition; caused by: nodes \"node-1\" not found";
        assert!(ready_message(&node).contains(failed), "{profile:?}: {}", ready_message(&node));
        assert!(ready_message(&node).ends_with(&format!("{failed}]")), "storage errors come last");
        let after: Vec<Arc<Node>> =
            node_versions(log, NODE_1).into_iter().filter(|(c, _)| c.t > post.t).map(|(_, n)| n).collect();
        assert!(!after.is_empty());
        for n in &after {
            assert!(!ready_message(n).contains("CSINode"), "{profile:?}: {}", ready_message(n));
        }
        let logged = log
            .lines
            .iter()
            .filter(|l| l.actor == kubelet(NODE_1) && l.message.starts_with("Failed to initialize CSINode"));
        assert_eq!(
            logged.map(|l| &*l.message).collect::<Vec<_>>(),
            [format!("F{}", &failed[1..])],
            "{profile:?}: klog.Errorf once per failed call"
        );
        // The object as listed.
        let listed = timeline.at(SimTime::from_secs(60)).csinodes();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].metadata.name, NODE_1);
        assert_eq!(listed[0].metadata.uid, csinode.metadata.uid);
    }
}

/// A restarted kubelet finds its CSINode: the wait GET and one try's GET, no write, and the
/// storage error is gone from the start.
#[test]
fn kubelet_restart_reads_csinode_without_writing() {
    let timeline = chapter_timeline(Chapter::KubeletRestart, Config::default());
    let log = timeline.log();
    let start = input_time(log, ActionKind::StartKubelet);
    let csi = csinode_requests(log, NODE_1, start);
    assert_eq!(
        csi.iter().map(|r| (r.method, r.path.as_str(), r.query.as_ref(), r.outcome, r.t)).collect::<Vec<_>>(),
        [
            (Method::Get, "/apis/storage.k8s.io/v1/csinodes/node-1", "resourceVersion=0", Outcome::Code(200), start),
            (Method::Get, "/apis/storage.k8s.io/v1/csinodes/node-1", "", Outcome::Code(200), start),
        ]
    );
    for (c, n) in node_versions(log, NODE_1) {
        if c.t >= start {
            assert!(!ready_message(&n).contains("CSINode"), "at {}: {}", c.t, ready_message(&n));
        }
    }
}

/// While the Node cannot be registered, six failed calls are fatal: the kubelet exits
/// (`klog.Fatalf`), systemd starts it again 10 s later, and the new process starts over. Here the
/// network comes back just before a wait GET and 5 s after a registration POST began, which then
/// waits out its dial timeout and a 7 s backoff: longer than the six calls take.
#[test]
fn csinode_init_gives_up_after_six_calls_and_the_kubelet_restarts() {
    let timeline = timeline_with(
        Chapter::Registration,
        "cut-network:node-1@0s,restore-network:node-1@235s",
        SimTime::from_secs(320),
    );
    let log = timeline.log();
    let fatal = log
        .lines
        .iter()
        .find(|l| &*l.message == "Failed to initialize CSINode after retrying: timed out waiting for the condition")
        .expect("the fatal line");
    let errors = log
        .lines
        .iter()
        .filter(|l| {
            l.t > SimTime::from_secs(235) && l.t <= fatal.t && l.message.starts_with("Failed to initialize CSINode: ")
        })
        .count();
    assert_eq!(errors, 6, "six failed calls before giving up");
    let starts = kubelet_starts(log, NODE_1);
    assert_eq!(starts.len(), 2, "{starts:?}");
    assert_eq!(starts[1], fatal.t + Duration::from_secs(10), "systemd's RestartSec=10");
    // The first call's tries began at the wait GET; the six calls take 15 ms + 90 ms + 540 ms +
    // 3.24 s + 19.44 s of sleeps (+ up to 10 %) and 310 ms of tries each.
    let wait = csinode_requests(log, NODE_1, SimTime::from_secs(235)).swap_remove(0);
    assert_eq!((wait.query.as_ref(), wait.outcome), ("resourceVersion=0", Outcome::Code(404)));
    assert_within("giving up", fatal.t, wait.t + Duration::from_millis(25_185), wait.t + Duration::from_millis(27_535));
    let post = csinode_requests(log, NODE_1, starts[1]).into_iter().find(|r| r.method == Method::Post);
    assert!(post.is_some_and(|r| r.outcome == Outcome::Code(201)), "the new process creates the CSINode");
}

/// `updateRuntimeUp` runs every 5 s from the kubelet's start (its first check 400 ms in), whether
/// or not anything changed in between: when containerd stops at an arbitrary instant, its
/// failures are logged at the next instants of that grid, every 5 s, until it starts again; the
/// next good check, on the same grid, lets Ready return. (The engine runs no timer for a check
/// that changes nothing, and wakes the loop where the grid says.)
#[test]
fn runtime_checks_keep_their_five_second_grid_across_quiet_periods() {
    let stop = SimTime::from_millis(95_321);
    let start = SimTime::from_millis(131_007);
    let timeline =
        timeline_with(Chapter::Registration, "stop-runtime@1m35.321s,start-runtime@2m11.007s", SimTime::from_secs(240));
    let log = timeline.log();
    let boot = kubelet_starts(log, NODE_1)[0];
    let grid = |t: SimTime| (t.as_micros() - boot.as_micros() - 400_000).is_multiple_of(5_000_000);
    let failures: Vec<SimTime> = log
        .lines
        .iter()
        .filter(|l| l.actor == kubelet(NODE_1) && l.message.starts_with("\"Container runtime sanity check failed\""))
        .map(|l| l.t)
        .collect();
    assert!(failures.len() >= 7, "a failure every 5 s while containerd is down: {failures:?}");
    assert!(failures.iter().all(|&t| grid(t) && t > stop && t < start), "{failures:?} off the grid from {boot:?}");
    let five = Duration::from_secs(5);
    assert!(failures[0] - stop <= five, "the first failure at the grid's next instant after {stop:?}");
    assert!(failures.windows(2).all(|w| w[1] - w[0] == five), "{failures:?}");
    assert!(start - *failures.last().expect("failures") <= five);
}
