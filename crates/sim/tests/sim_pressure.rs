//! Node-pressure eviction on a timeline: a Pod of `web` leaks memory on node-1 until the
//! kubelet's eviction manager finds `memory.available<100Mi`; the condition, its Events, the
//! controller's NoSchedule taint, the evicted Pod's status and Event, its replacement, and the
//! condition's 5-minute way back to False.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use nodeline_sim::objects::Pod;
use nodeline_sim::{
    Action, ActionKind, Actor, Chapter, Config, Method, Profile, Refusal, Scenario, SimTime, Timeline, parse_actions,
};
use std::sync::Arc;

fn s(secs: u64) -> SimTime {
    SimTime::from_secs(secs)
}

/// Three nodes, a node agent and six replicas of `web` (the maintenance chapter without its
/// maintenance), with `extra` actions, run to `until`.
fn run(profile: Profile, extra: &[Action], until: u64) -> Timeline {
    let mut scenario: Scenario = Chapter::Maintenance.scenario();
    scenario.script = parse_actions("create-daemonset@2s").expect("a script");
    let config = Config { profile, ..Config::default() };
    let mut tl = Timeline::from_scenario(scenario, config, extra);
    tl.run_until(s(until));
    tl
}

/// A `web` Pod running on node-1 at 50 s.
fn web_pod_on_node_1(profile: Profile) -> Arc<Pod> {
    let tl = run(profile, &[], 50);
    let pods = tl.at(s(50)).pods_on("node-1");
    pods.into_iter().find(|p| p.metadata.name.starts_with("web-") && p.status.phase == "Running").expect("a web Pod")
}

fn leak(pod: &Pod, at: u64) -> Action {
    Action::on(ActionKind::LeakMemory, &format!("default/{}", pod.metadata.name), s(at))
}

fn memory_pressure(tl: &Timeline, at: SimTime) -> (String, String, String) {
    let node = tl.at(at).node("node-1").expect("node-1");
    let c = node.status.conditions.iter().find(|c| c.type_ == "MemoryPressure").expect("MemoryPressure").clone();
    (c.status.to_string(), c.reason.to_string(), c.message.to_string())
}

#[test]
fn a_leak_ends_in_one_eviction_a_taint_and_five_minutes_of_pressure() {
    for profile in Profile::ALL {
        let leaker = web_pod_on_node_1(profile);
        let tl = run(profile, &[leak(&leaker, 60)], 1200);
        let log = tl.log();
        let event = |reason: &'static str| log.events.iter().filter(move |e| e.reason() == reason);
        // The first round that finds the threshold met: the Event on the Node.
        let met = event("EvictionThresholdMet").next().expect("EvictionThresholdMet");
        assert_eq!(met.message(), "Attempting to reclaim memory");
        let t = met.t;
        // 64Mi a second from ~14.3Gi available: some 230 s after the leak began.
        assert!(t > s(260) && t < s(320), "{t}");
        assert_eq!(memory_pressure(&tl, t).0, "False", "{profile}: the Node learns it at the next status sync");
        // It is the loop's first round past the crossing: ten seconds before, the threshold was
        // not met yet (the machine's view holds what the memory model reads).
        let available = |at: SimTime| {
            let view = tl.at(at).machines().into_iter().find(|m| m.name == "node-1").expect("node-1");
            nodeline_sim::memory::available(&view.containers, &view.leaks, at)
        };
        let before = t.saturating_sub(std::time::Duration::from_secs(10));
        assert!(available(before) >= 100 * nodeline_sim::memory::MI, "{profile}: met before {t}");
        assert!(available(t) < 100 * nodeline_sim::memory::MI);
        // The leaking Pod is the one evicted, and the only one.
        let evicted: Vec<_> = event("Evicted").collect();
        assert_eq!(evicted.len(), 1, "{profile}: one eviction relieves the node");
        let message = evicted[0].message().to_string();
        assert!(
            message.starts_with("The node was low on resource: memory. Threshold quantity: 100Mi, available: "),
            "{message}"
        );
        assert!(message.ends_with(", request is 64Mi, has larger consumption of memory. "), "{message}");
        assert!(message.contains(". Container nginx was using "), "{message}");
        let pod = tl.at(t + std::time::Duration::from_secs(2)).pod("default", &leaker.metadata.name).expect("kept");
        assert_eq!((&*pod.status.phase, &*pod.status.reason, &*pod.status.message), ("Failed", "Evicted", &*message));
        let dt = pod.condition("DisruptionTarget").expect("DisruptionTarget");
        assert_eq!((dt.status, &*dt.reason, &*dt.message), ("True", "TerminationByKubelet", &*message));
        let object = nodeline_sim::objects::Object::Pod(pod.clone());
        assert_eq!(common::object_round_trip_diff(&object), None, "the evicted Pod's shape");
        // The condition within one status sync, with its Event.
        let (status, reason, text) = memory_pressure(&tl, t + std::time::Duration::from_secs(11));
        assert_eq!(
            (status.as_str(), reason.as_str(), text.as_str()),
            ("True", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available")
        );
        let insufficient = event("NodeHasInsufficientMemory").next().expect("NodeHasInsufficientMemory");
        assert_eq!(insufficient.message(), "Node node-1 status is now: NodeHasInsufficientMemory");
        // The controller's NoSchedule taint, never a kubelet's write, never NoExecute.
        let tainted = tl.at(t + std::time::Duration::from_secs(12)).node("node-1").unwrap();
        assert!(tainted.has_taint("node.kubernetes.io/memory-pressure", "NoSchedule"), "{profile}");
        assert!(!tainted.has_taint("node.kubernetes.io/memory-pressure", "NoExecute"));
        let taint_patches: Vec<_> = log
            .requests
            .iter()
            .filter(|r| r.method == Method::Patch && r.path == "/api/v1/nodes/node-1" && r.t > t)
            .map(|r| r.actor.clone())
            .collect();
        assert!(!taint_patches.is_empty() && taint_patches.iter().all(|a| *a == Actor::NodeLifecycleController));
        // Five minutes after the last round that found it met (the loop counts its rounds from
        // the evicted Pod's cleanup, a second after), at the next status sync; not before.
        assert_eq!(memory_pressure(&tl, t + std::time::Duration::from_secs(299)).0, "True");
        let sufficient = event("NodeHasSufficientMemory").filter(|e| e.t > t).map(|e| e.t).next().expect("back");
        assert!(
            sufficient >= t + std::time::Duration::from_secs(300)
                && sufficient <= t + std::time::Duration::from_secs(322),
            "{profile}: {sufficient} after {t}"
        );
        let clear = tl.at(sufficient + std::time::Duration::from_secs(1)).node("node-1").unwrap();
        assert!(!clear.has_taint("node.kubernetes.io/memory-pressure", "NoSchedule"), "{profile}: the taint comes off");
        // The ReplicaSet replaced it: six web Pods run again.
        let running = tl
            .at(s(1200))
            .pods()
            .into_iter()
            .filter(|p| p.metadata.name.starts_with("web-") && p.status.phase == "Running")
            .count();
        assert_eq!(running, 6, "{profile}");
    }
}

/// The same leak gives the same log, eviction and all; a fork that adds the leak is the same as the
/// timeline built with it.
#[test]
fn an_eviction_is_deterministic_and_forks_alike() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let a = run(Profile::V1_34, &[leak(&leaker, 60)], 600);
    let b = run(Profile::V1_34, &[leak(&leaker, 60)], 600);
    assert!(a.log().events.iter().any(|e| e.reason() == "Evicted"));
    common::assert_same_rendering(&common::canonical(a.log()), &common::canonical(b.log()), "leak");
    let mut forked = run(Profile::V1_34, &[], 600);
    forked.fork(leak(&leaker, 60)).expect("the leak applies");
    forked.run_until(s(600));
    common::assert_same_rendering(&common::canonical(a.log()), &common::canonical(forked.log()), "fork");
}

/// A BestEffort Pod (no request: any usage is above it) ranks right after the leaking Pod, before
/// the Pods under their requests, whatever their usage.
#[test]
fn a_besteffort_pod_ranks_before_pods_under_their_request() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let besteffort = Action::on(ActionKind::CreateBestEffortPod, "node-1", s(30));
    let tl = run(Profile::V1_34, &[besteffort, leak(&leaker, 60)], 400);
    let pod = tl.at(s(50)).pods_on("node-1").into_iter().find(|p| p.metadata.name.starts_with("besteffort-"));
    let pod = pod.expect("the BestEffort Pod runs on node-1");
    assert_eq!((&*pod.status.qos_class, &*pod.status.phase), ("BestEffort", "Running"));
    assert!(pod.spec.containers[0].resources.requests.is_empty());
    let ranked = tl.log().lines.iter().find(|l| l.message.contains("pods ranked for eviction")).expect("a ranking");
    let list = ranked.message.split("pods=").nth(1).unwrap_or_default().to_string();
    let order: Vec<&str> = list.trim_matches(['[', ']']).split(',').map(|k| k.trim_matches('"')).collect();
    assert_eq!(order[0], format!("default/{}", leaker.metadata.name), "{list}");
    assert_eq!(order[1], format!("default/{}", pod.metadata.name), "{list}");
    assert!(order.len() > 2, "{list}");
}

/// Between the round that finds the threshold met and the controller's taint, a BestEffort Pod
/// can still be bound to the node; the kubelet's admission turns it away (`Failed`, `Evicted`,
/// `nodeConditionMessageFmt`), as it does not tolerate the memory-pressure taint.
#[test]
fn a_besteffort_pod_is_not_admitted_under_memory_pressure() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let base = run(Profile::V1_34, &[leak(&leaker, 60)], 400);
    let t = base.log().events.iter().find(|e| e.reason() == "EvictionThresholdMet").unwrap().t;
    let tainted = base
        .log()
        .requests
        .iter()
        .find(|r| r.t > t && r.actor == Actor::NodeLifecycleController && r.path == "/api/v1/nodes/node-1")
        .map(|r| r.t)
        .expect("the taint");
    let at = t + std::time::Duration::from_millis(100);
    assert!(tainted > at + std::time::Duration::from_secs(1), "a window before the taint: {t} {tainted}");
    let create = Action { at, kind: ActionKind::CreateBestEffortPod, machine: Some("node-1".into()) };
    let tl = run(Profile::V1_34, &[leak(&leaker, 60), create], 400);
    let pods = tl.at(s(400)).pods_on("node-1");
    let pod = pods.iter().find(|p| p.metadata.name.starts_with("besteffort-")).expect("bound to node-1");
    assert_eq!(
        (&*pod.status.phase, &*pod.status.reason, &*pod.status.message),
        ("Failed", "Evicted", "The node had condition: [MemoryPressure]. ")
    );
    let rejected = tl.log().events.iter().filter(|e| e.reason() == "Evicted").count();
    assert_eq!(rejected, 2, "the leaker's eviction and the admission's rejection");
}

/// While the taint is on, a new Pod without its toleration goes to another node.
#[test]
fn the_scheduler_keeps_new_pods_off_a_node_under_pressure() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let base = run(Profile::V1_34, &[leak(&leaker, 60)], 400);
    let t = base.log().events.iter().find(|e| e.reason() == "EvictionThresholdMet").unwrap().t;
    let create = t.since_start().as_secs() + 30;
    let tl = run(Profile::V1_34, &[leak(&leaker, 60), Action::new(ActionKind::CreatePod, s(create))], create + 30);
    let node = tl.at(s(create)).node("node-1").unwrap();
    assert!(node.has_taint("node.kubernetes.io/memory-pressure", "NoSchedule"));
    let demo: Vec<_> =
        tl.at(s(create + 30)).pods().into_iter().filter(|p| p.metadata.name.starts_with("demo-")).collect();
    assert_eq!(demo.len(), 1);
    assert!(!demo[0].spec.node_name.is_empty(), "scheduled");
    assert_ne!(demo[0].spec.node_name, "node-1", "not onto the tainted node");
}

/// The actions make sense only for a running Pod's container: refused with a clear reason
/// otherwise.
#[test]
fn leaks_are_refused_where_they_make_no_sense() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let name = format!("default/{}", leaker.metadata.name);
    let tl = run(Profile::V1_34, &[leak(&leaker, 60)], 70);
    let at = tl.at(s(70));
    assert_eq!(
        at.check_action(ActionKind::LeakMemory, Some("default/nope")),
        Err(Refusal::NoSuchPod("default/nope".into()))
    );
    assert_eq!(at.check_action(ActionKind::LeakMemory, Some(&name)), Err(Refusal::PodAlreadyLeaking(name.clone())));
    assert_eq!(at.check_action(ActionKind::StopLeak, Some(&name)), Ok(()));
    let early = tl.at(s(1));
    assert!(early.check_action(ActionKind::StopLeak, Some(&name)).is_err());
    let stopped = run(Profile::V1_34, &[leak(&leaker, 60), Action::on(ActionKind::StopLeak, &name, s(80))], 700);
    assert_eq!(
        stopped.at(s(90)).check_action(ActionKind::StopLeak, Some(&name)),
        Err(Refusal::PodNotLeaking(name.clone()))
    );
    // 20 s of leak (1.25Gi) leaves plenty: no eviction, no pressure.
    assert!(stopped.log().events.iter().all(|e| e.reason() != "Evicted" && e.reason() != "EvictionThresholdMet"));
    assert_eq!(memory_pressure(&stopped, s(700)).0, "False");
    assert!(stopped.log().inputs.iter().all(|i| i.rejected.is_none()));
}

/// Without a leak, nothing of the eviction manager shows: the Nodes keep reporting sufficient
/// memory.
#[test]
fn without_a_leak_nodes_have_sufficient_memory() {
    let tl = run(Profile::V1_34, &[], 600);
    assert!(tl.log().lines.iter().all(|l| !l.message.contains("Eviction manager")));
    for node in tl.at(s(600)).nodes() {
        let c = node.status.conditions.iter().find(|c| c.type_ == "MemoryPressure").unwrap();
        assert_eq!((&*c.status, &*c.reason), ("False", "KubeletHasSufficientMemory"));
    }
}

/// `create-priority-pod`: the PriorityClass `high-priority` once, and a Pod naming it, given its
/// value by the Priority admission plugin. Leaking beside a BestEffort Pod, the high-priority Pod
/// ranks after it (both use more than their request; lower priority first), so the BestEffort
/// Pod, using a few megabytes, is evicted first; the leak takes back what that freed at once,
/// and the next round, right after the cleanup, evicts the high-priority Pod.
#[test]
fn priority_orders_pods_above_their_request() {
    let creates = [
        Action::on(ActionKind::CreatePriorityPod, "node-1", s(30)),
        Action::on(ActionKind::CreateBestEffortPod, "node-1", s(31)),
        Action::on(ActionKind::CreatePriorityPod, "node-2", s(32)),
    ];
    let first = run(Profile::V1_34, &creates, 50);
    let at = first.at(s(50));
    let classes: Vec<_> = at
        .objects()
        .into_iter()
        .filter_map(|o| match o {
            nodeline_sim::objects::Object::PriorityClass(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(classes.len(), 1, "the class is created once");
    assert_eq!((&*classes[0].metadata.name, classes[0].value), ("high-priority", 1_000_000));
    let class = nodeline_sim::objects::Object::PriorityClass(classes[0].clone());
    assert_eq!(common::object_round_trip_diff(&class), None, "the PriorityClass's shape");
    let creates_of_class = first
        .log()
        .requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path == "/apis/scheduling.k8s.io/v1/priorityclasses")
        .count();
    assert_eq!(creates_of_class, 1);
    let on_1 = at.pods_on("node-1");
    let high = on_1.iter().find(|p| p.metadata.name.starts_with("priority-")).expect("on node-1").clone();
    assert_eq!((&*high.spec.priority_class_name, high.spec.priority), ("high-priority", 1_000_000));
    assert_eq!(&*high.status.phase, "Running");
    assert_eq!(common::object_round_trip_diff(&nodeline_sim::objects::Object::Pod(high.clone())), None);
    let besteffort = on_1.iter().find(|p| p.metadata.name.starts_with("besteffort-")).expect("on node-1").clone();

    let mut actions = creates.to_vec();
    actions.push(leak(&high, 60));
    let tl = run(Profile::V1_34, &actions, 700);
    let log = tl.log();
    let evicted: Vec<(SimTime, String)> =
        log.events.iter().filter(|e| e.reason() == "Evicted").map(|e| (e.t, e.object.name.to_string())).collect();
    assert_eq!(evicted.len(), 2, "{evicted:?}");
    assert_eq!(evicted[0].1, besteffort.metadata.name, "lower priority first, though it uses almost nothing");
    assert_eq!(evicted[1].1, high.metadata.name);
    // One a round: the second in the round the cleanup of the first starts, a few seconds on.
    let gap = evicted[1].0.saturating_since(evicted[0].0);
    assert!(gap >= std::time::Duration::from_secs(1) && gap < std::time::Duration::from_secs(10), "{gap:?}");
    let ranked: Vec<&str> =
        log.lines.iter().filter(|l| l.message.contains("pods ranked for eviction")).map(|l| &*l.message).collect();
    let be = format!("\"default/{}\"", besteffort.metadata.name);
    let hi = format!("\"default/{}\"", high.metadata.name);
    assert!(ranked[0].find(&be).unwrap() < ranked[0].find(&hi).unwrap(), "{}", ranked[0]);
    // The Pods under their request rank after both, whatever their priority.
    let web = ranked[0].find("\"default/web-").expect("a web Pod ranked");
    assert!(web > ranked[0].find(&hi).unwrap(), "{}", ranked[0]);
    let message = log.events.iter().find(|e| e.reason() == "Evicted").unwrap().message().to_string();
    assert!(message.ends_with(", request is 0, has larger consumption of memory. "), "{message}");
}

/// The action makes sense once the machine's Node is registered, as `create-besteffort-pod`.
#[test]
fn a_priority_pod_needs_a_registered_node() {
    let tl = run(Profile::V1_34, &[], 5);
    let early = tl.at(SimTime::ZERO);
    assert!(early.check_action(ActionKind::CreatePriorityPod, Some("node-1")).is_err());
    assert_eq!(tl.at(s(5)).check_action(ActionKind::CreatePriorityPod, Some("node-1")), Ok(()));
}

/// `evictionPressureTransitionPeriod` set to one minute: the condition comes back to `False` a
/// minute (and up to a round and a status sync) after the last round that met the threshold,
/// and the controller's taint with it.
#[test]
fn the_transition_period_is_the_kubelets_setting() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let mut scenario: Scenario = Chapter::Maintenance.scenario();
    scenario.script = parse_actions("create-daemonset@2s").expect("a script");
    let mut config = Config::default();
    config.settings.set("kubelet", "evictionPressureTransitionPeriod", "1m").expect("a setting");
    let mut tl = Timeline::from_scenario(scenario, config, &[leak(&leaker, 60)]);
    tl.run_until(s(600));
    let log = tl.log();
    let met = log.events.iter().rfind(|e| e.reason() == "EvictionThresholdMet").map(|e| e.t).expect("met");
    let back = log
        .events
        .iter()
        .find(|e| e.reason() == "NodeHasSufficientMemory" && e.t > met)
        .map(|e| e.t)
        .expect("back to False");
    let after = back.saturating_since(met);
    assert!(after >= std::time::Duration::from_secs(60) && after <= std::time::Duration::from_secs(82), "{after:?}");
    assert!(
        !tl.at(back + std::time::Duration::from_secs(1))
            .node("node-1")
            .unwrap()
            .has_taint("node.kubernetes.io/memory-pressure", "NoSchedule")
    );
    // Below the simulation's shortest period, refused by the table.
    assert!(Config::default().settings.set("kubelet", "evictionPressureTransitionPeriod", "0s").is_err());
}

/// `evictionSoft: memory.available<8Gi` with a minute's grace period, and a leak stopped below
/// it (far above the hard 100Mi): `MemoryPressure` is reported from the first round that finds
/// it met, the Pod is evicted only once it has been met for a minute, with the soft threshold's
/// quantity in its message. Each setting at its default gives the same timeline as none.
#[test]
fn a_soft_threshold_evicts_after_its_grace_period() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let run_with = |set: &[(&str, &str)], extra: &[Action]| {
        let mut scenario: Scenario = Chapter::Maintenance.scenario();
        scenario.script = parse_actions("create-daemonset@2s").expect("a script");
        let mut config = Config::default();
        for (name, value) in set {
            config.settings.set("kubelet", name, value).expect("a setting");
        }
        config.settings.check().expect("settings the kubelet takes");
        let mut tl = Timeline::from_scenario(scenario, config, extra);
        tl.run_until(s(600));
        tl
    };
    let stop = Action::on(ActionKind::StopLeak, &format!("default/{}", leaker.metadata.name), s(200));
    let soft = [
        ("evictionSoft", "memory.available<8Gi"),
        ("evictionSoftGracePeriod", "memory.available=1m"),
        ("evictionMaxPodGracePeriod", "10"),
    ];
    let tl = run_with(&soft, &[leak(&leaker, 60), stop.clone()]);
    let log = tl.log();
    let insufficient =
        log.events.iter().find(|e| e.reason() == "NodeHasInsufficientMemory").map(|e| e.t).expect("pressure");
    let evicted = log.events.iter().find(|e| e.reason() == "Evicted").expect("an eviction");
    let met = log.events.iter().find(|e| e.reason() == "EvictionThresholdMet").map(|e| e.t).expect("met");
    assert_eq!(met, evicted.t, "the Event comes with the eviction, not with the condition");
    // The condition is reported (at the next status sync) long before the eviction.
    let wait = met.saturating_since(insufficient);
    assert!(wait >= std::time::Duration::from_secs(45), "{wait:?}");
    assert_eq!(memory_pressure(&tl, met.saturating_sub(std::time::Duration::from_secs(5))).0, "True");
    let message = evicted.message();
    assert!(message.starts_with("The node was low on resource: memory. Threshold quantity: 8Gi, available: "));
    assert_eq!(log.events.iter().filter(|e| e.reason() == "Evicted").count(), 1);
    // The default hard threshold alone never acts on that leak.
    let plain = run_with(&[], &[leak(&leaker, 60), stop.clone()]);
    assert!(!plain.log().events.iter().any(|e| e.reason() == "Evicted"));
    // The eviction settings at their defaults print the same log as none.
    let defaults = [
        ("evictionHard", "memory.available<100Mi"),
        ("evictionSoft", "{}"),
        ("evictionSoftGracePeriod", "{}"),
        ("evictionMaxPodGracePeriod", "0"),
    ];
    let with = run_with(&defaults, &[leak(&leaker, 60)]);
    let without = run_with(&[], &[leak(&leaker, 60)]);
    let events = |tl: &Timeline| -> Vec<(SimTime, String)> {
        tl.log().events.iter().map(|e| (e.t, e.message().to_string())).collect()
    };
    assert_eq!(events(&with), events(&without));
    assert_eq!(with.log().lines.len(), without.log().lines.len());
    assert_eq!(with.log().requests.len(), without.log().requests.len());
}

/// A hard threshold set higher still acts in the round that finds it met.
#[test]
fn a_hard_threshold_set_higher_acts_at_once() {
    let leaker = web_pod_on_node_1(Profile::V1_34);
    let mut scenario: Scenario = Chapter::Maintenance.scenario();
    scenario.script = parse_actions("create-daemonset@2s").expect("a script");
    let mut config = Config::default();
    config.settings.set("kubelet", "evictionHard", "memory.available<8Gi").expect("a setting");
    let mut tl = Timeline::from_scenario(scenario, config, &[leak(&leaker, 60)]);
    tl.run_until(s(400));
    let log = tl.log();
    let evicted = log.events.iter().find(|e| e.reason() == "Evicted").expect("an eviction");
    assert!(
        evicted.message().starts_with("The node was low on resource: memory. Threshold quantity: 8Gi, available: ")
    );
    // 64Mi a second from ~14.3Gi down to 8Gi: about 100 s after the leak, within a round.
    assert!(evicted.t > s(150) && evicted.t < s(180), "{}", evicted.t);
}
