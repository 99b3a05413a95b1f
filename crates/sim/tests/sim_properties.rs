//! Properties that hold whatever the reader does: random sequences of 1–8 sandbox actions on a
//! random chapter and seed, each run for 12 minutes, and checked entry by entry.
//!
//! The run is reproducible: the case generator is seeded with a fixed value unless
//! `PROPTEST_RNG_SEED` is set; `PROPTEST_CASES` raises the number of cases (default 32).
#![cfg(not(target_arch = "wasm32"))]

mod common;
mod props;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use common::{canonical, machine_before, node_before, rendering_difference, version_before};
use nodeline_sim::objects::{Kind, Node, Object, ObjectKey, Pod};
use nodeline_sim::{
    Action, ActionKind, Actor, Body, ChangeType, Chapter, Config, KubeletState, Log, Method, Request, SimTime, Timeline,
};
use proptest::prelude::*;

/// How far each random timeline is computed.
const HORIZON: SimTime = SimTime::from_secs(12 * 60);
/// Actions are drawn within the first 10 minutes.
const ACTIONS_WITHIN_MS: u64 = 10 * 60 * 1000;
/// `maxWaitForContainerRuntime` (pkg/kubelet/kubelet.go): the kubelet notices containerd is gone
/// only when its last good runtime check is this old, so it may still report Ready=True that long
/// after containerd stopped (docs/kubernetes-notes.md §3.2).
const MAX_WAIT_FOR_CONTAINER_RUNTIME: Duration = Duration::from_secs(30);

fn config() -> ProptestConfig {
    props::config(32, 0x6e6f_6465)
}

/// One random input: a chapter, a seed and its actions (sorted by time).
#[derive(Clone, Debug)]
struct Case {
    chapter: Chapter,
    seed: u64,
    actions: Vec<Action>,
}

fn arb_case() -> impl Strategy<Value = Case> {
    prop_oneof![Just(Chapter::Registration), Just(Chapter::NodeFailure), Just(Chapter::KubeletRestart)].prop_flat_map(
        |chapter| {
            let machines: Vec<String> = chapter.scenario().machines.iter().map(|m| m.name.clone()).collect();
            let n = machines.len();
            let action = (0..ActionKind::ALL.len(), proptest::option::of(0..n), 0..ACTIONS_WITHIN_MS).prop_map(
                move |(k, m, ms)| {
                    let kind = ActionKind::ALL[k];
                    let machine = m.filter(|_| kind.targets_machine()).map(|i| machines[i].clone());
                    Action { at: SimTime::from_millis(ms), kind, machine }
                },
            );
            (any::<u64>(), proptest::collection::vec(action, 1..=8)).prop_map(move |(seed, mut actions)| {
                actions.sort_by_key(|a| a.at);
                Case { chapter, seed, actions }
            })
        },
    )
}

fn build(case: &Case) -> Timeline {
    let mut timeline =
        Timeline::with_actions(case.chapter, Config { seed: case.seed, ..Config::default() }, &case.actions);
    timeline.run_until(HORIZON);
    timeline
}

/// The first broken invariant, if any.
type Check = Result<(), String>;

fn pod_of(object: Object) -> Option<Arc<Pod>> {
    match object {
        Object::Pod(p) => Some(p),
        _ => None,
    }
}

fn untolerated(pod: &Pod, node: &Node) -> Vec<String> {
    node.spec
        .taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .filter(|t| !pod.spec.tolerations.iter().any(|tol| tol.tolerates(&t.key, &t.value, &t.effect)))
        .map(|t| t.display())
        .collect()
}

/// (a) No Pod is newly bound to a node that, at that moment, has a NoSchedule or NoExecute taint
/// the Pod does not tolerate: neither by a `pods/NAME/binding` request nor by any change that
/// sets `spec.nodeName`.
fn no_binding_past_a_taint(log: &Log) -> Check {
    for r in &log.requests {
        if r.method != Method::Post || !r.path.ends_with("/binding") || !r.outcome.is_success() {
            continue;
        }
        let mut parts = r.path.rsplit('/');
        let (_, pod_name, _, namespace) = (parts.next(), parts.next(), parts.next(), parts.next());
        let (Some(pod_name), Some(namespace)) = (pod_name, namespace) else { return Err(format!("path {}", r.path)) };
        let Some(binding) = r.body.as_ref().and_then(Body::json) else {
            return Err(format!("binding without a body at {}", r.t));
        };
        let target = binding["target"]["name"].as_str().ok_or("a Binding without target.name")?;
        let key = ObjectKey::namespaced(Kind::Pod, namespace, pod_name);
        let pod = version_before(log, &key, r.seq).and_then(|c| pod_of(c.object())).ok_or("bound a missing Pod")?;
        let node = node_before(log, target, r.seq).ok_or_else(|| format!("bound {pod_name} to a missing node"))?;
        let bad = untolerated(&pod, &node);
        if !bad.is_empty() {
            return Err(format!("{pod_name} bound to {target} at {} despite untolerated {bad:?}", r.t));
        }
    }
    for (i, c) in log.changes().iter().enumerate() {
        let Some(pod) = pod_of(c.object()) else { continue };
        if pod.spec.node_name.is_empty() {
            continue;
        }
        let was_bound = log
            .previous_version(i as u32)
            .and_then(|p| pod_of(p.object()))
            .is_some_and(|p| !p.spec.node_name.is_empty());
        if was_bound {
            continue;
        }
        let node = node_before(log, &pod.spec.node_name, c.seq)
            .ok_or_else(|| format!("{} bound to a missing node {}", pod.metadata.name, pod.spec.node_name))?;
        let bad = untolerated(&pod, &node);
        if !bad.is_empty() {
            return Err(format!(
                "{} got nodeName {} at {} despite {bad:?}",
                pod.metadata.name, pod.spec.node_name, c.t
            ));
        }
    }
    Ok(())
}

/// When machine `name`'s containerd last went down before entry `seq`, if it is down then.
fn runtime_down_since(log: &Log, name: &str, seq: u64) -> Option<SimTime> {
    let mut since = None;
    for r in log.machines.iter().filter(|r| r.seq < seq && r.view.name == name) {
        since = match (since, r.view.runtime_up) {
            (_, true) => None,
            (None, false) => Some(r.t),
            (s, false) => s,
        };
    }
    since
}

/// Whether the request's body asserts Ready=True: a created Node that is Ready, or a status
/// patch whose Ready condition differs from the sender's base and is True.
fn claims_ready(request: &Request) -> bool {
    match &request.body {
        Some(Body::Object(Object::Node(n))) => n.ready_status() == Some("True"),
        Some(Body::StatusPatch { .. }) => match request.status_patch() {
            Some((Object::Node(base), wanted)) => {
                let Object::Node(wanted) = &*wanted else { return false };
                wanted.ready_status() == Some("True") && base.condition("Ready") != wanted.condition("Ready")
            }
            _ => false,
        },
        _ => false,
    }
}

/// (b) A kubelet writes Ready=True only while it runs and its containerd is up (or went down less
/// than [`MAX_WAIT_FOR_CONTAINER_RUNTIME`] ago, which the kubelet cannot know yet).
fn ready_only_from_a_healthy_kubelet(log: &Log) -> Check {
    for r in &log.requests {
        let Actor::Kubelet(machine) = &r.actor else { continue };
        if r.changes.is_empty() || !claims_ready(&r) {
            continue;
        }
        let view = machine_before(log, machine, r.seq).ok_or_else(|| format!("no state for {machine}"))?;
        if view.kubelet != KubeletState::Running {
            return Err(format!("{machine}'s kubelet ({:?}) wrote Ready=True at {}", view.kubelet, r.t));
        }
        if let Some(down) = runtime_down_since(log, machine, r.seq)
            && r.t >= down + MAX_WAIT_FOR_CONTAINER_RUNTIME
        {
            return Err(format!(
                "{machine}'s kubelet wrote Ready=True at {} ({} {}) though containerd has been down since {down}",
                r.t,
                r.method.as_str(),
                r.path
            ));
        }
    }
    Ok(())
}

/// (c) Two machines with the same hostname never make two Nodes: a Node name is created once and
/// keeps its uid while it lives (only after `kubectl delete node` may a kubelet create it again,
/// with a new uid), and there are never more Nodes than distinct hostnames.
fn one_node_per_hostname(log: &Log) -> Check {
    let hostnames: BTreeSet<&str> = log.machines.iter().map(|r| &*r.view.hostname).collect();
    let nodes: Vec<&ObjectKey> = log.keys_of(Kind::Node).collect();
    if nodes.len() > hostnames.len() {
        return Err(format!("{} Nodes for {} hostnames", nodes.len(), hostnames.len()));
    }
    for key in nodes {
        let mut alive: Option<String> = None;
        for &i in log.versions(key) {
            let c = &log.changes().at(i as usize);
            let uid = c.object().meta().uid.clone();
            match (c.change, &alive) {
                (ChangeType::Added, Some(old)) => {
                    return Err(format!("{key} was created again while it existed (uids {old}, {uid})"));
                }
                (ChangeType::Added, None) => alive = Some(uid.to_string()),
                (ChangeType::Deleted, _) => alive = None,
                (_, Some(old)) if *old != uid => return Err(format!("{key} changed its uid from {old} to {uid}")),
                _ => {}
            }
        }
        if !hostnames.contains(&*key.name) {
            return Err(format!("{key} matches no machine's hostname"));
        }
    }
    let mut created: BTreeMap<String, usize> = BTreeMap::new();
    for r in log.requests.iter() {
        let n = r.node.as_str();
        if r.method == Method::Delete && r.path.starts_with("/api/v1/nodes/") && r.outcome.is_success() {
            created.remove(r.path.trim_start_matches("/api/v1/nodes/"));
        }
        if r.method == Method::Post && r.path == "/api/v1/nodes" && r.outcome.is_success() {
            *created.entry(n.to_string()).or_default() += 1;
            if created[n] > 1 {
                return Err(format!("a second POST creating Node {n} succeeded at {}", r.t));
            }
        }
    }
    Ok(())
}

fn lease_renew_time(object: &Object) -> Option<String> {
    match object {
        Object::Lease(l) => l.spec.renew_time.map(|t| serde_json::to_string(&t).expect("serializes")),
        _ => None,
    }
}

/// (d) A Lease's renewTime only moves forward through a request from a kubelet whose machine is
/// running its kubelet and can reach the API server.
fn leases_renewed_only_by_live_kubelets(log: &Log) -> Check {
    for (i, c) in log.changes().iter().enumerate() {
        if c.object().kind() != Kind::Lease || c.change == ChangeType::Deleted {
            continue;
        }
        let now = lease_renew_time(&c.object());
        let before = log.previous_version(i as u32).and_then(|p| lease_renew_time(&p.object()));
        if now.is_none() || now == before {
            continue;
        }
        let r =
            c.request.map(|r| log.requests.at(r as usize)).ok_or_else(|| format!("{} renewed by no request", c.t))?;
        let Actor::Kubelet(machine) = &r.actor else {
            return Err(format!("{} renewed by {} at {}", c.object().key(), r.actor, c.t));
        };
        let view = machine_before(log, machine, r.seq).ok_or_else(|| format!("no state for {machine}"))?;
        if view.kubelet != KubeletState::Running || view.network_cut {
            return Err(format!(
                "{} renewed at {} by {machine} (kubelet {:?}, network cut: {})",
                c.object().key(),
                c.t,
                view.kubelet,
                view.network_cut
            ));
        }
    }
    Ok(())
}

/// (e) Containers on a machine go away only while its kubelet runs (containerd's shims keep them
/// running through kubelet and containerd restarts), or when the machine powers off.
fn containers_stop_only_under_a_kubelet(log: &Log) -> Check {
    let mut last: BTreeMap<usize, &nodeline_sim::MachineView> = BTreeMap::new();
    for r in &log.machines {
        if let Some(prev) = last.get(&r.index) {
            let gone: Vec<&str> = prev
                .containers
                .iter()
                .filter(|c| !r.view.containers.iter().any(|n| n.id == c.id))
                .map(|c| &*c.pod)
                .collect();
            if !gone.is_empty() && r.view.kubelet != KubeletState::Running && !r.view.powered_off {
                return Err(format!(
                    "containers of {gone:?} vanished from {} at {} with its kubelet {:?}",
                    r.view.name, r.t, r.view.kubelet
                ));
            }
        }
        last.insert(r.index, &r.view);
    }
    Ok(())
}

/// (f) resourceVersions strictly increase in log order; and every list of the log is in time order.
fn log_order(log: &Log) -> Check {
    for (w0, w1) in log.changes().iter().zip(log.changes().iter_from(1)) {
        let (a, b) = (w0.object().meta().resource_version, w1.object().meta().resource_version);
        if a >= b {
            return Err(format!("resourceVersion {a} then {b} ({} then {})", w0.object().key(), w1.object().key()));
        }
        if w0.t > w1.t || w0.seq >= w1.seq {
            return Err(format!("changes out of order at {}", w1.t));
        }
    }
    let times = |name: &str, ts: Vec<(u64, SimTime)>| -> Check {
        match ts.windows(2).find(|w| w[0].1 > w[1].1 || w[0].0 >= w[1].0) {
            Some(w) => Err(format!("{name} out of order: {} after {}", w[1].1, w[0].1)),
            None => Ok(()),
        }
    };
    times("requests", log.requests.iter().map(|r| (r.seq, r.t)).collect())?;
    times("events", log.events.iter().map(|e| (e.seq, e.t)).collect())?;
    times("inputs", log.inputs.iter().map(|i| (i.seq, i.t)).collect())?;
    times("machine states", log.machines.iter().map(|m| (m.seq, m.t)).collect())?;
    Ok(())
}

fn check_all(log: &Log) -> Check {
    no_binding_past_a_taint(log).map_err(|e| format!("(a) {e}"))?;
    ready_only_from_a_healthy_kubelet(log).map_err(|e| format!("(b) {e}"))?;
    one_node_per_hostname(log).map_err(|e| format!("(c) {e}"))?;
    leases_renewed_only_by_live_kubelets(log).map_err(|e| format!("(d) {e}"))?;
    containers_stop_only_under_a_kubelet(log).map_err(|e| format!("(e) {e}"))?;
    log_order(log).map_err(|e| format!("(f) {e}"))?;
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// (a)–(f) hold, nothing panics (g), and building the same timeline twice gives the same log (h).
    #[test]
    fn random_actions_keep_the_invariants(case in arb_case()) {
        let timeline = build(&case);
        let verdict = check_all(timeline.log());
        prop_assert!(verdict.is_ok(), "{}", verdict.unwrap_err());
        let again = build(&case);
        let (a, b) = (canonical(timeline.log()), canonical(again.log()));
        let difference = rendering_difference(&a, &b);
        prop_assert!(difference.is_none(), "the same case built twice: {}", difference.unwrap_or_default());
    }
}

/// The checks themselves catch what they are meant to catch.
#[test]
fn the_checks_catch_a_binding_past_a_taint() {
    // The registration chapter's ordinary Pod waits for the not-ready taint; pretend the
    // scheduler had bound it at once by moving its binding before the NodeReady.
    let timeline = build(&Case { chapter: Chapter::Registration, seed: 1, actions: Vec::new() });
    let mut log = timeline.log().clone();
    assert_eq!(check_all(&log), Ok(()));
    let created = log
        .changes()
        .iter()
        .position(|c| c.change == ChangeType::Added && c.object().meta().name.starts_with("demo-"))
        .expect("the ordinary Pod");
    let Object::Pod(pod) = &log.changes().at(created).object() else { unreachable!() };
    let mut bound = Pod::clone(pod);
    bound.spec.node_name = "node-1".into();
    let c = &log.changes().at(created);
    let altered = nodeline_sim::record::Change::new(c.seq, c.t, c.change, Object::Pod(Arc::new(bound)), c.request);
    assert!(log.replace_change(created, altered), "a Pod's version is kept whole");
    let verdict = no_binding_past_a_taint(&log).expect_err("a Pod created bound to a tainted node");
    assert!(verdict.contains("node.kubernetes.io/not-ready:NoSchedule"), "{verdict}");
}
