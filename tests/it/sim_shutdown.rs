//! A node goes away (chapter 6): graceful node shutdown, power-off, deleting the Node. The
//! strings and timings are those of `shared/reference/node-operations.md` §3 and §6 and
//! `docs/kubernetes-notes.md` §12.

use std::time::Duration;

use nodeline::sim::objects::{Object, Pod};
use nodeline::sim::record::{Request, Response};
use nodeline::sim::{
    Action, ActionKind, Actor, Chapter, Config, KubeletState, Method, Outcome, Scenario, SimTime, Timeline,
};

const NODE_1: &str = "node-1";

fn s(secs: u64) -> SimTime {
    SimTime::from_secs(secs)
}

/// Chapter 2's two nodes and Deployment, with no script, node-1's kubelet configured with
/// `shutdownGracePeriod` / `shutdownGracePeriodCriticalPods` (zero: the default, off).
fn two_nodes(grace: u64, critical: u64) -> Scenario {
    let mut scenario = Chapter::NodeFailure.scenario();
    scenario.script.clear();
    scenario.machines[0].shutdown_grace_period = Duration::from_secs(grace);
    scenario.machines[0].shutdown_grace_period_critical_pods = Duration::from_secs(critical);
    scenario
}

fn run(scenario: Scenario, actions: &[Action], until: SimTime) -> Timeline {
    let mut timeline = Timeline::from_scenario(scenario, Config::default(), actions);
    timeline.run_until(until);
    timeline
}

/// The Deployment's first Pod (on node-1).
fn first_web_pod(timeline: &Timeline, at: SimTime) -> Pod {
    let pods = timeline.at(at).pods();
    let pod = pods.iter().find(|p| p.spec.node_name == NODE_1).expect("a Pod on node-1");
    Pod::clone(pod)
}

fn ready(timeline: &Timeline, at: SimTime) -> (String, String, String) {
    let node = timeline.at(at).node(NODE_1).expect("node-1");
    let c = node.status.conditions.iter().find(|c| c.type_ == "Ready").expect("Ready");
    (c.status.to_string(), c.reason.to_string(), c.message.to_string())
}

#[test]
fn graceful_shutdown_fails_pods_without_deleting_them() {
    let shutdown = s(120);
    let timeline = run(two_nodes(30, 10), &[Action::on(ActionKind::Shutdown, NODE_1, shutdown)], s(260));
    let log = timeline.log();
    let web = first_web_pod(&timeline, s(110));

    // The node event, at once.
    let event = log.events.iter().find(|e| e.reason() == "Shutdown").expect("a Shutdown event");
    assert_eq!(event.t, shutdown);
    assert_eq!(event.message(), "Shutdown manager detected shutdown event");
    assert_eq!(event.source(), "kubelet");

    // The immediate status sync: Ready False, KubeletNotReady, `node is shutting down`.
    assert_eq!(
        ready(&timeline, shutdown + Duration::from_millis(1)),
        ("False".to_string(), "KubeletNotReady".to_string(), "node is shutting down".to_string())
    );
    assert!(
        log.events.iter().any(|e| e.t == shutdown && e.reason() == "NodeNotReady"),
        "the kubelet records NodeNotReady"
    );

    // The Pod: Failed, Terminated, the message, DisruptionTarget; still there.
    let after = first_web_pod(&timeline, s(200));
    assert_eq!(after.metadata.uid, web.metadata.uid, "not deleted");
    assert!(after.metadata.deletion_timestamp.is_none());
    assert_eq!(after.status.phase, "Failed");
    assert_eq!(after.status.reason, "Terminated");
    assert_eq!(after.status.message, "Pod was terminated in response to imminent node shutdown.");
    let dt = after.status.conditions.iter().find(|c| c.type_ == "DisruptionTarget").expect("DisruptionTarget");
    assert_eq!((dt.status, &*dt.reason), ("True", "TerminationByKubelet"));
    assert_eq!(&*dt.message, "Pod was terminated in response to imminent node shutdown.");
    let lines: Vec<&str> = log.lines.iter().map(|l| l.message.as_ref()).collect();
    let pod_key = format!("default/{}", web.metadata.name);
    assert!(lines.contains(
        &format!("\"Shutdown manager killing pod with gracePeriod\" pod=\"{pod_key}\" gracePeriod=20").as_str()
    ));
    assert!(lines.contains(&"\"Shutdown manager completed processing shutdown event, node will shutdown shortly\""));

    // The kubelet stops within a few seconds; Unknown follows as in chapter 2.
    let machines = timeline.at(shutdown + Duration::from_secs(5)).machines();
    assert_eq!(machines[0].kubelet, KubeletState::Stopped);
    assert!(machines[0].containers.is_empty(), "the machine is off");
    let (status, reason, _) = ready(&timeline, s(250));
    assert_eq!((status.as_str(), reason.as_str()), ("Unknown", "NodeStatusUnknown"));

    // The ReplicaSet replaced the Failed Pod on node-2.
    let pods = timeline.at(s(200)).pods();
    let replacement = pods.iter().find(|p| p.spec.node_name == "node-2").expect("a replacement on node-2");
    assert_eq!(replacement.status.phase, "Running");
}

#[test]
fn without_the_settings_a_shutdown_is_immediate() {
    let shutdown = s(120);
    let timeline = run(two_nodes(0, 0), &[Action::on(ActionKind::Shutdown, NODE_1, shutdown)], s(200));
    let log = timeline.log();
    assert!(!log.events.iter().any(|e| e.reason() == "Shutdown"), "no shutdown manager");
    assert_eq!(timeline.at(shutdown + Duration::from_millis(1)).machines()[0].kubelet, KubeletState::Stopped);
    // Nobody told the API server: the Pod still says Running, the node is NotReady only after
    // the grace period (chapter 2).
    let pod = first_web_pod(&timeline, s(190));
    assert_eq!(pod.status.phase, "Running");
    assert_eq!(ready(&timeline, s(150)).0, "True");
    assert_eq!(ready(&timeline, s(190)).0, "Unknown");
}

#[test]
fn power_off_ignores_the_graceful_settings() {
    let timeline = run(two_nodes(30, 10), &[Action::on(ActionKind::PowerOff, NODE_1, s(120))], s(150));
    assert!(!timeline.log().events.iter().any(|e| e.reason() == "Shutdown"));
    let machines = timeline.at(s(121)).machines();
    assert_eq!(machines[0].kubelet, KubeletState::Stopped);
    assert!(machines[0].containers.is_empty());
}

#[test]
fn a_pod_bound_while_the_node_shuts_down_is_rejected() {
    // node-1 alone; a Pod that tolerates not-ready lands on it while it shuts down.
    let mut scenario = two_nodes(60, 0);
    scenario.machines.truncate(1);
    let actions = [
        Action::on(ActionKind::Shutdown, NODE_1, s(120)),
        Action::new(ActionKind::CreateToleratingPod, SimTime::from_millis(120_100)),
    ];
    let timeline = run(scenario, &actions, s(200));
    let e = timeline.log().events.iter().find(|e| e.reason() == "NodeShutdown").expect("a NodeShutdown event");
    assert_eq!(e.message(), "Pod was rejected as the node is shutting down.");
    assert_eq!(e.type_(), "Warning");
    let pods = timeline.at(s(130)).pods();
    let pod = pods.iter().find(|p| p.status.reason == "NodeShutdown").expect("the rejected Pod");
    assert_eq!(pod.status.phase, "Failed");
    assert_eq!(pod.status.message, "Pod was rejected as the node is shutting down.");
    assert_eq!(pod.spec.node_name, NODE_1);
}

#[test]
fn deleting_the_node_collects_its_lease_and_orphaned_pods() {
    let delete = s(120);
    let timeline = run(two_nodes(0, 0), &[Action::on(ActionKind::DeleteNode, NODE_1, delete)], s(300));
    let log = timeline.log();
    let web = first_web_pod(&timeline, s(110));

    // kubectl: DELETE with background propagation, `node "node-1" deleted`, then the wait's GET
    // (404: the Node is gone).
    let kubectl: Vec<_> = log.requests.iter().filter(|r| r.actor == Actor::Kubectl && r.t == delete).collect();
    let calls: Vec<String> = kubectl.iter().map(|r| format!("{:?} {} {:?}", r.method, r.path, r.outcome)).collect();
    assert_eq!(calls, ["Delete /api/v1/nodes/node-1 Code(200)", "Get /api/v1/nodes/node-1 Code(404)"]);
    assert!(log.lines.iter().any(|l| l.actor == Actor::Kubectl && &*l.message == "node \"node-1\" deleted"));
    assert!(timeline.at(delete + Duration::from_millis(1)).node(NODE_1).is_none());

    // The garbage collector deletes the Lease at once, through its owner reference.
    let lease_delete = log
        .requests
        .iter()
        .find(|r| r.actor == Actor::GarbageCollector && r.method == Method::Delete)
        .expect("the Lease deleted");
    assert_eq!(lease_delete.path, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1");
    assert!(lease_delete.t - delete < Duration::from_secs(1));
    // And the CSINode, the Node's other dependent.
    let deletes: Vec<String> = log
        .requests
        .iter()
        .filter(|r| r.actor == Actor::GarbageCollector && r.method == Method::Delete)
        .map(|r| r.path.to_string())
        .collect();
    assert_eq!(
        deletes,
        [
            "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1",
            "/apis/storage.k8s.io/v1/csinodes/node-1"
        ]
    );
    assert!(timeline.at(delete + Duration::from_secs(1)).csinodes().iter().all(|c| c.metadata.name != NODE_1));

    // The node lifecycle controller's next pass: RemovingNode.
    let removing = log.events.iter().find(|e| e.reason() == "RemovingNode").expect("RemovingNode");
    assert_eq!(removing.message(), "Node node-1 event: Removing Node node-1 from Controller");
    assert!(removing.t - delete <= Duration::from_secs(5));

    // The kubelet keeps running and cannot find its Node.
    let not_found = "error getting node \\\"node-1\\\": nodes \\\"node-1\\\" not found";
    assert!(
        log.lines.iter().any(|l| l.t > delete && l.message.contains(not_found)),
        "the status update fails with {not_found}"
    );
    assert!(log.lines.iter().any(|l| l.t > delete && l.message.contains("update node status exceeds retry count")));
    assert!(
        !log.requests.iter().any(|r| r.t > delete && r.method == Method::Post && r.path == "/api/v1/nodes"),
        "a running kubelet does not register again"
    );

    // PodGC: quarantine 40 s after a 20 s pass, then Failed with DeletionByPodGC, force-deleted.
    let patch = log
        .requests
        .iter()
        .find(|r| r.actor == Actor::PodGcController && r.method == Method::Patch)
        .expect("PodGC marks the Pod Failed");
    let after = patch.t - delete;
    assert!(after >= Duration::from_secs(40) && after <= Duration::from_secs(60), "{after:?}");
    let Some(Response::Object(Object::Pod(failed))) = &patch.response else { panic!("the patched Pod") };
    assert_eq!(failed.metadata.uid, web.metadata.uid);
    assert_eq!(failed.status.phase, "Failed");
    let dt = failed.status.conditions.iter().find(|c| c.type_ == "DisruptionTarget").expect("condition");
    assert_eq!((&*dt.reason, &*dt.message), ("DeletionByPodGC", "PodGC: node no longer exists"));
    assert!(timeline.at(patch.t + Duration::from_millis(1)).pods().iter().all(|p| p.metadata.uid != web.metadata.uid));
    // The kubelet stops the deleted Pod's container.
    assert!(timeline.at(patch.t + Duration::from_secs(1)).machines()[0].containers.is_empty());
}

#[test]
fn a_restarted_kubelet_registers_a_new_node() {
    let actions = [
        Action::on(ActionKind::DeleteNode, NODE_1, s(120)),
        Action::on(ActionKind::KillKubelet, NODE_1, s(200)),
        Action::on(ActionKind::StartKubelet, NODE_1, s(210)),
    ];
    let timeline = run(two_nodes(0, 0), &actions, s(260));
    let old = timeline.at(s(110)).node(NODE_1).expect("node-1");
    let new = timeline.at(s(250)).node(NODE_1).expect("node-1 again");
    assert_ne!(old.metadata.uid, new.metadata.uid, "a new Node");
    let post = timeline
        .log()
        .requests
        .iter()
        .find(|r| r.t > s(200) && r.method == Method::Post && r.path == "/api/v1/nodes")
        .expect("registered again");
    assert_eq!(post.outcome, Outcome::Code(201));
    assert!(timeline.at(s(250)).lease(NODE_1).is_some(), "a new Lease");
    // The garbage collector took the old CSINode; the restarted kubelet creates one owned by the
    // new Node.
    let csinode = timeline.at(s(250)).csinodes().into_iter().find(|c| c.metadata.name == NODE_1).expect("a CSINode");
    assert_eq!(csinode.metadata.owner_references[0].uid, new.metadata.uid);
}

/// The node db-0 runs on, and its machine name.
fn db_node(timeline: &Timeline, at: SimTime) -> String {
    let pods = timeline.at(at).pods();
    pods.iter().find(|p| p.metadata.name == "db-0").expect("db-0").spec.node_name.clone()
}

#[test]
fn a_statefulset_pod_on_a_dead_node_waits_for_out_of_service() {
    let probe = run(two_nodes(0, 0), &[Action::new(ActionKind::CreateStatefulSet, s(30))], s(60));
    let node = db_node(&probe, s(60));
    let other = if node == NODE_1 { "node-2" } else { NODE_1 };
    // The volume is attached to db-0's node.
    let vas = probe.at(s(60)).objects();
    let va = vas
        .iter()
        .find_map(|o| match o {
            Object::VolumeAttachment(va) => Some(va.clone()),
            _ => None,
        })
        .expect("a VolumeAttachment");
    assert_eq!(va.spec.node_name, node);
    assert_eq!(va.status.as_ref().map(|s| s.attached), Some(true));

    // (Between two of PodGC's passes, every 20 s from the start, as in the chapter.)
    let taint_at = s(665);
    let actions = [
        Action::new(ActionKind::CreateStatefulSet, s(30)),
        Action::on(ActionKind::PowerOff, &node, s(120)),
        Action::on(ActionKind::TaintOutOfService, &node, taint_at),
    ];
    let timeline = run(two_nodes(0, 0), &actions, s(720));
    let log = timeline.log();
    let db = |t: SimTime| timeline.at(t).pods().into_iter().find(|p| p.metadata.name == "db-0");

    // A machine that loses power writes nothing, to its journal or anywhere.
    let powered_off = s(120);
    assert!(
        !log.lines.iter().any(|l| l.t >= powered_off && l.actor == Actor::Kubelet(node.as_str().into())),
        "a line from a machine without power"
    );
    // Evicted after the 300 s toleration: Terminating, and nothing replaces it.
    let evicted = db(s(600)).expect("db-0 still there");
    assert!(evicted.metadata.deletion_timestamp.is_some(), "Terminating");
    assert_eq!(evicted.spec.node_name, node);
    let (_, status, _) = nodeline::render::kubectl_printer::get::pod_state(&evicted, timeline.at(s(600)).wall());
    assert_eq!(status, "Terminating");
    assert!(
        !log.events.iter().any(|e| e.t > s(120)
            && e.t < taint_at
            && e.reason() == "SuccessfulCreate"
            && e.message().contains("db-0")),
        "no replacement while db-0 exists"
    );

    // kubectl taint: PodGC's next pass (≤ 20 s) marks it Failed and force-deletes it.
    let taint = log.requests.iter().find(|r| r.t == taint_at && r.method == Method::Patch).expect("the taint PATCH");
    assert_eq!(taint.actor, Actor::Kubectl);
    let gc_delete = log
        .requests
        .iter()
        .find(|r| r.actor == Actor::PodGcController && r.method == Method::Delete)
        .expect("PodGC deletes db-0");
    assert!(gc_delete.t >= taint_at && gc_delete.t - taint_at <= Duration::from_secs(20));
    // Before it, the taint eviction controller: the out-of-service taint is a NoExecute taint db-0
    // does not tolerate, so it is deleted again at once (`processPodOnNode`), its Event recorded.
    let te_delete = log
        .requests
        .iter()
        .find(|r| r.t >= taint_at && r.actor == Actor::TaintEvictionController && r.method == Method::Delete)
        .expect("the taint eviction controller deletes db-0 again");
    assert_eq!(te_delete.path, "/api/v1/namespaces/default/pods/db-0");
    assert!(te_delete.t - taint_at <= Duration::from_millis(1), "at once, when the taint lands");
    assert!(te_delete.t < gc_delete.t, "before PodGC's pass");
    let marked =
        log.events.iter().filter(|e| e.t >= taint_at && e.message() == "Marking for deletion Pod default/db-0").count();
    assert_eq!(marked, 1, "once");
    assert!(log.lines.iter().any(|l| l.t == te_delete.t
        && l.actor == Actor::TaintEvictionController
        && l.message.contains("pod=\"default/db-0\"")));
    // ("Garbage collecting pods that are terminating …" is a V(4) line: not at the default verbosity.)
    assert!(!log.lines.iter().any(|l| l.message.starts_with("\"Garbage collecting pods that are terminating")));
    // The detach starts at the reconciler's next 100 ms pass after PodGC's deletion: the volume
    // leaves the old Node's volumesAttached first, then the VolumeAttachment is deleted, which
    // the external-attacher's finalizer holds until the driver has detached.
    assert!(log.lines.iter().any(|l| l.message.contains("node has out-of-service taint, force detaching")));
    let after_gc = |r: &Request| r.t > gc_delete.t;
    let status_patch = log
        .requests
        .iter()
        .find(|r| {
            after_gc(r) && r.actor == Actor::AttachDetachController && r.path == format!("/api/v1/nodes/{node}/status")
        })
        .expect("volumesAttached written before the detach");
    let va_delete = log
        .requests
        .iter()
        .find(|r| after_gc(r) && r.method == Method::Delete && r.path.contains("/volumeattachments/"))
        .expect("the VolumeAttachment deleted");
    assert!(status_patch.seq < va_delete.seq);
    assert_eq!(va_delete.t.as_micros() % 100_000, 0, "on the reconciler's 100 ms grid");
    assert!(va_delete.t - gc_delete.t <= Duration::from_millis(100));
    let finalizer_gone = log
        .requests
        .iter()
        .find(|r| after_gc(r) && r.actor == Actor::CsiAttacher && r.method == Method::Patch && r.path == va_delete.path)
        .expect("the external-attacher takes its finalizer away once detached");
    assert_eq!(finalizer_gone.t - va_delete.t, Duration::from_millis(1_500));
    let held = timeline.at(va_delete.t + Duration::from_millis(500));
    let held = held
        .objects()
        .into_iter()
        .find_map(|o| match o {
            Object::VolumeAttachment(va) if va.spec.node_name == node => Some(va),
            _ => None,
        })
        .expect("the old VolumeAttachment, held by the finalizer");
    assert!(held.metadata.deletion_timestamp.is_some());
    assert_eq!(held.metadata.finalizers.to_vec(), ["external-attacher/pd-csi-storage-gke-io".to_string()]);
    // Meanwhile the new db-0 cannot have the volume: Multi-Attach error, once.
    let multi: Vec<_> = log.events.iter().filter(|e| e.t > gc_delete.t && e.reason() == "FailedAttachVolume").collect();
    assert_eq!(multi.len(), 1);
    assert!(multi[0].message().starts_with("Multi-Attach error for volume \"pvc-"));
    assert!(
        multi[0]
            .message()
            .ends_with("\" Volume is already exclusively attached to one node and can't be attached to another")
    );
    assert!(multi[0].t < finalizer_gone.t);
    // Attached on the other node at the next pass after the old one is gone.
    let va_create = log
        .requests
        .iter()
        .find(|r| after_gc(r) && r.method == Method::Post && r.path.ends_with("/volumeattachments"))
        .expect("a new VolumeAttachment");
    assert!(va_create.t > finalizer_gone.t && va_create.t - finalizer_gone.t <= Duration::from_millis(100));
    // volumesAttached: on the other node once attached, on the old one no more.
    let volumes = |t: SimTime, name: &str| {
        let at = timeline.at(t);
        at.nodes().into_iter().find(|n| n.metadata.name == name).map(|n| n.status.volumes_attached.len())
    };
    assert_eq!(volumes(s(715), other), Some(1));
    assert_eq!(volumes(s(715), &node), Some(0));
    assert_eq!(volumes(s(60), &node), Some(1), "the first attach is reported too");
    // db-0 comes back, same name, on the other node.
    let back = db(s(715)).expect("db-0 again");
    assert_eq!(back.spec.node_name, other);
    assert_ne!(back.metadata.uid, evicted.metadata.uid);
    assert_eq!(back.status.phase, "Running");
    let attached: Vec<String> = timeline
        .at(s(715))
        .objects()
        .into_iter()
        .filter_map(|o| match o {
            Object::VolumeAttachment(va) => Some(va.spec.node_name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(attached, [other.to_string()]);
}

/// `kubectl taint` as an action: the added taint comes first in the Node's list (kubectl's
/// `reorganizeTaints`), an existing one without `--overwrite` is kubectl's error on stderr and no
/// PATCH, and a target that is not `NODE/SPEC` (an action built in code) is refused.
#[test]
fn kubectl_taint_adds_first_refuses_duplicates_and_rejects_bad_targets() {
    let taint = |target: &str, t: u64| Action::on(ActionKind::Taint { overwrite: false }, target, s(t));
    let actions = [
        taint("node-1/dedicated=db:NoSchedule", 60),
        taint("node-1/dedicated=web:NoSchedule", 70),
        Action::new(ActionKind::Taint { overwrite: false }, s(80)),
    ];
    let tl = run(two_nodes(0, 0), &actions, s(90));
    let node = tl.at(s(65)).node(NODE_1).expect("node-1");
    assert_eq!(node.spec.taints[0].display(), "dedicated=db:NoSchedule");
    let lines: Vec<&str> = tl.log().lines.iter().filter(|l| l.t >= s(60)).map(|l| l.message.as_ref()).collect();
    assert!(lines.contains(&"node/node-1 tainted"), "{lines:?}");
    assert!(
        lines.contains(
            &"error: node node-1 already has dedicated taint(s) with same effect(s) and --overwrite is false"
        )
    );
    let patches = tl.log().requests.iter().filter(|r| r.actor == Actor::Kubectl && r.method == Method::Patch).count();
    assert_eq!(patches, 1, "the refused taint sends no PATCH");
    let last = tl.log().inputs.last().expect("the bad action is recorded");
    assert!(last.rejected.as_ref().is_some_and(|r| r.to_string().contains("is not a Node and a taint")));
}

/// The sandbox's setting: `Config::with_shutdown` gives every kubelet the periods, overriding the
/// chapter's (chapter 2's node-1 has none, so without it a shutdown is immediate); pairs the
/// kubelet would refuse are refused with its own message.
#[test]
fn the_sandbox_setting_configures_every_kubelet() {
    use nodeline::sim::ShutdownPeriods;
    let periods = ShutdownPeriods { grace: Duration::from_secs(20), critical: Duration::from_secs(5) };
    let config = Config::default().with_shutdown(Some(periods));
    let shutdown = s(120);
    let mut timeline =
        Timeline::from_scenario(two_nodes(0, 0), config, &[Action::on(ActionKind::Shutdown, NODE_1, shutdown)]);
    timeline.run_until(s(200));
    assert!(timeline.log().events.iter().any(|e| e.reason() == "Shutdown"), "graceful: the shutdown manager ran");
    assert_eq!(first_web_pod(&timeline, s(150)).status.reason, "Terminated");
    let bad = ShutdownPeriods { grace: Duration::from_secs(10), critical: Duration::from_secs(30) };
    assert_eq!(
        bad.validate().unwrap_err(),
        "invalid configuration: shutdownGracePeriodCriticalPods 30s must be <= shutdownGracePeriod 10s"
    );
    let short = ShutdownPeriods { grace: Duration::from_millis(500), critical: Duration::ZERO };
    assert!(
        short.validate().unwrap_err().ends_with("shutdownGracePeriod 500ms must be either zero or otherwise >= 1 sec")
    );
    assert_eq!(periods.validate(), Ok(()));
}

/// Chapter 6, step 3: the Pods the graceful shutdown left `Failed` are deleted 300 s after the
/// `not-ready:NoExecute` taint, not after the `unreachable` one that replaces it (the taint
/// eviction controller keeps the schedule of the earlier taint), and the narration says so in
/// both languages.
#[test]
fn failed_pods_go_300_s_after_the_not_ready_taint() {
    let mut timeline = Timeline::new(Chapter::NodeGoesAway, Config::default());
    timeline.run_until(s(900));
    let log = timeline.log();
    let taint_added = |key: &str| {
        let node_key = nodeline::sim::objects::ObjectKey::cluster(nodeline::sim::objects::Kind::Node, NODE_1);
        log.versions(&node_key).iter().find_map(|&i| {
            let c = log.changes().at(i as usize);
            match c.object() {
                Object::Node(n) if n.spec.taints.iter().any(|t| t.key == key && t.effect == "NoExecute") => Some(c.t),
                _ => None,
            }
        })
    };
    let not_ready = taint_added("node.kubernetes.io/not-ready").expect("not-ready:NoExecute on node-1");
    let unreachable = taint_added("node.kubernetes.io/unreachable").expect("unreachable:NoExecute on node-1");
    assert!(unreachable > not_ready);
    let deleted = log
        .requests
        .iter()
        .find(|r| r.actor == Actor::TaintEvictionController && r.method == Method::Delete)
        .expect("the taint eviction controller deletes the Failed Pods");
    assert!(deleted.t >= not_ready + Duration::from_secs(300));
    assert!(deleted.t - (not_ready + Duration::from_secs(300)) < Duration::from_millis(200), "at {}", deleted.t);
    for lang in nodeline::i18n::Lang::ALL {
        let step = lang.chapter(Chapter::NodeGoesAway).steps[2].body.join(" ");
        assert!(step.contains("`not-ready:NoExecute`"), "{lang}: {step}");
    }
}
