//! Chapter 5's rules, each checked on the timeline: cordon as kubectl sends it and the taint the
//! controller adds, the drain's filters and their messages, the 429 and kubectl's 5 s retries, the
//! 1 s polling, and the budget arithmetic.

use nodeline_sim::objects::Object;
use nodeline_sim::record::{Body, ContentType};
use nodeline_sim::{
    Action, ActionKind, Actor, Chapter, Config, EVICTION_429, Method, Outcome, Scenario, SimTime, Timeline,
    parse_actions,
};

fn s(secs: u64) -> SimTime {
    SimTime::from_secs(secs)
}

/// The chapter with its script replaced by `script` (the notation), run to 5 minutes.
fn run(script: &str, extra: &[Action]) -> Timeline {
    let mut scenario: Scenario = Chapter::Maintenance.scenario();
    scenario.script = parse_actions(script).expect("a script");
    let mut tl = Timeline::from_scenario(scenario, Config::default(), extra);
    tl.run_until(s(300));
    tl
}

fn transcript(tl: &Timeline) -> Vec<(SimTime, String)> {
    tl.log()
        .lines
        .iter()
        .filter_map(|l| match l.actor {
            Actor::Kubectl => Some((l.t, l.message.to_string())),
            Actor::KubectlStderr => Some((l.t, format!("E {}", l.message))),
            _ => None,
        })
        .collect()
}

const SETUP: &str = "create-daemonset@2s,create-pdb+min-available=5@60s";

#[test]
fn cordon_patches_spec_and_the_controller_adds_the_taint() {
    let tl = run(&format!("{SETUP},cordon:node-1@90s,uncordon:node-1@150s"), &[]);
    let log = tl.log();
    let patch =
        log.requests.iter().find(|r| r.actor == Actor::Kubectl && r.method == Method::Patch).expect("kubectl's PATCH");
    assert_eq!((patch.path.as_str(), patch.t), ("/api/v1/nodes/node-1", s(90)));
    assert_eq!(patch.content_type.map(ContentType::as_str), Some("application/strategic-merge-patch+json"));
    assert_eq!(patch.body, Some(Body::Json(serde_json::json!({ "spec": { "unschedulable": true } }).into())));
    // The taint comes from the node lifecycle controller's own PATCH, with a timeAdded.
    let taint = log
        .requests
        .iter()
        .find(|r| r.t >= s(90) && r.actor == Actor::NodeLifecycleController && r.method == Method::Patch)
        .expect("the controller's taint patch");
    let Some(Body::Json(body)) = &taint.body else { panic!("a JSON patch") };
    let body = body.value();
    let taints = body["spec"]["taints"].as_array().expect("taints");
    let t = taints.iter().find(|t| t["key"] == "node.kubernetes.io/unschedulable").expect("the unschedulable taint");
    assert_eq!(t["effect"], "NoSchedule");
    assert!(t["timeAdded"].is_string(), "{t}");
    let node = tl.at(s(95)).node("node-1").expect("node-1");
    assert!(node.spec.unschedulable && node.has_taint("node.kubernetes.io/unschedulable", "NoSchedule"));
    // The kubelet notices on its next status sync.
    let event = |reason: &str| log.events.iter().find(|e| e.reason() == reason).map(|e| (e.t, e.message()));
    let (at, message) = event("NodeNotSchedulable").expect("NodeNotSchedulable");
    assert!(at > s(90) && at <= s(101), "{at:?}");
    assert_eq!(message, "Node node-1 status is now: NodeNotSchedulable");
    // Uncordon: `null`, the taint goes, NodeSchedulable.
    let unpatch =
        log.requests.iter().filter(|r| r.actor == Actor::Kubectl && r.method == Method::Patch).nth(1).unwrap();
    assert_eq!(unpatch.body, Some(Body::Json(serde_json::json!({ "spec": { "unschedulable": null } }).into())));
    let node = tl.at(s(155)).node("node-1").expect("node-1");
    assert!(!node.spec.unschedulable && !node.has_taint("node.kubernetes.io/unschedulable", "NoSchedule"));
    assert!(event("NodeSchedulable").is_some_and(|(t, _)| t > s(150) && t <= s(161)));
    let lines: Vec<String> = transcript(&tl).into_iter().map(|(_, l)| l).collect();
    assert_eq!(lines, ["poddisruptionbudget.policy/web created", "node/node-1 cordoned", "node/node-1 uncordoned"]);
}

#[test]
fn drain_evicts_everything_at_once_and_retries_a_429_every_5s() {
    let tl = run(&format!("{SETUP},drain+ignore-daemonsets:node-1@120s"), &[]);
    let log = tl.log();
    let evictions: Vec<_> = log.requests.iter().filter(|r| r.path.ends_with("/eviction")).collect();
    // Both Pods are POSTed at the drain's instant; one passes, the budget refuses the other.
    assert_eq!(evictions[0].t, s(120));
    assert_eq!(evictions[1].t, s(120));
    assert_eq!(evictions[0].outcome, Outcome::Code(201));
    assert_eq!(evictions[1].outcome, Outcome::Code(429));
    let Some(nodeline_sim::Response::Status(status)) = &evictions[1].response else { panic!("a Status") };
    assert_eq!(&*status.message, EVICTION_429);
    let cause = &status.details.as_ref().expect("details").causes[0];
    assert_eq!(cause.reason, "DisruptionBudget");
    assert_eq!(&*cause.message, "The disruption budget web needs 5 healthy pods and has 6 currently");
    // (currentHealthy is the controller's last count: the API server only decremented the allowance.)
    // The refused Pod is tried again exactly 5 s later, and that succeeds.
    assert_eq!(evictions[2].path, evictions[1].path);
    assert_eq!((evictions[2].t, evictions[2].outcome), (s(125), Outcome::Code(201)));
    // The evicted Pod is polled every second until it is gone.
    let name = evictions[0].path.trim_end_matches("/eviction").to_string();
    let polls: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| r.actor == Actor::Kubectl && r.method == Method::Get && r.path == name)
        .map(|r| r.t)
        .collect();
    assert!(polls.len() >= 2, "{polls:?}");
    for w in polls.windows(2) {
        assert_eq!(w[1].since_start() - w[0].since_start(), std::time::Duration::from_secs(1));
    }
    // The API server decremented the budget itself, inside the eviction.
    let pdb = evictions[0]
        .changes
        .iter()
        .map(|c| log.changes().at(c as usize).object())
        .find_map(|o| match o {
            Object::PodDisruptionBudget(p) => Some(p.clone()),
            _ => None,
        })
        .expect("the budget written by the eviction");
    assert_eq!(pdb.status.disruptions_allowed, 0);
    assert_eq!(pdb.status.disrupted_pods.len(), 1);
    let lines: Vec<String> = transcript(&tl).into_iter().map(|(_, l)| l).collect();
    let last = lines.last().expect("lines");
    assert_eq!(last, "node/node-1 drained");
    assert!(lines.iter().any(|l| l.starts_with("E Warning: ignoring DaemonSet-managed Pods: kube-system/node-agent-")));
    assert!(lines.iter().any(|l| l.starts_with("E error when evicting pods/\"web-")
        && l.ends_with(&format!("(will retry after 5s): {EVICTION_429}"))));
    // The DaemonSet's Pod stays on the node.
    let left: Vec<String> = tl
        .at(s(200))
        .pods()
        .iter()
        .filter(|p| p.spec.node_name == "node-1")
        .map(|p| p.metadata.name.to_string())
        .collect();
    assert_eq!(left.len(), 1);
    assert!(left[0].starts_with("node-agent-"), "{left:?}");
}

#[test]
fn daemonset_pods_stop_a_drain_without_the_flag_and_the_node_stays_cordoned() {
    let tl = run(&format!("{SETUP},drain:node-1@120s"), &[]);
    let lines: Vec<String> = transcript(&tl).into_iter().map(|(_, l)| l).collect();
    let ds = tl
        .at(s(119))
        .pods()
        .iter()
        .find(|p| p.spec.node_name == "node-1" && p.metadata.namespace == "kube-system")
        .unwrap()
        .metadata
        .name
        .clone();
    let error = format!("cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/{ds}");
    assert_eq!(
        lines[1..],
        [
            "node/node-1 cordoned".to_string(),
            format!("E error: unable to drain node \"node-1\" due to error: {error}, continuing command..."),
            "E There are pending nodes to be drained:".into(),
            "E  node-1".into(),
            format!("E {error}"),
        ]
    );
    assert!(!tl.log().requests.iter().any(|r| r.path.ends_with("/eviction")), "nothing evicted");
    assert!(tl.at(s(200)).node("node-1").unwrap().spec.unschedulable, "still cordoned");
}

#[test]
fn a_pod_without_a_controller_needs_force() {
    // A bare Pod lands somewhere; drain that node.
    let probe = run(&format!("{SETUP},create-pod@70s"), &[]);
    let bare =
        probe.at(s(100)).pods().into_iter().find(|p| p.metadata.name.starts_with("demo-")).expect("the bare Pod");
    let node = bare.spec.node_name.clone();
    let refused = run(&format!("{SETUP},create-pod@70s,drain+ignore-daemonsets:{node}@120s"), &[]);
    let lines: Vec<String> = transcript(&refused).into_iter().map(|(_, l)| l).collect();
    let want = format!(
        "E cannot delete Pods that declare no controller (use --force to override): default/{}",
        bare.metadata.name
    );
    assert_eq!(lines.last(), Some(&want), "{lines:#?}");
    let forced = run(&format!("{SETUP},create-pod@70s,drain+ignore-daemonsets+force:{node}@120s"), &[]);
    let lines: Vec<String> = transcript(&forced).into_iter().map(|(_, l)| l).collect();
    let warning = lines.iter().find(|l| l.starts_with("E Warning:")).expect("a warning");
    assert!(
        warning.contains(&format!("deleting Pods that declare no controller: default/{}", bare.metadata.name)),
        "{warning}"
    );
    assert_eq!(lines.last().map(String::as_str), Some(format!("node/{node} drained").as_str()));
}

#[test]
fn budgets_in_percentages_count_from_the_deployment_scale() {
    let tl = run("create-daemonset@2s,create-pdb+max-unavailable=50%@60s", &[]);
    let pdb = tl.at(s(61)).objects().into_iter().find_map(|o| match o {
        Object::PodDisruptionBudget(p) => Some(p),
        _ => None,
    });
    let pdb = pdb.expect("the budget");
    // Six replicas, half may be unavailable: three must stay healthy, three may go.
    assert_eq!(
        (
            pdb.status.expected_pods,
            pdb.status.desired_healthy,
            pdb.status.current_healthy,
            pdb.status.disruptions_allowed
        ),
        (6, 3, 6, 3)
    );
    let condition = pdb.condition().expect("DisruptionAllowed");
    assert_eq!((condition.status.as_str(), condition.reason.as_str()), ("True", "SufficientPods"));
}

#[test]
fn the_chapter_reaches_every_step() {
    let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
    tl.run_until(s(300));
    let steps = tl.steps();
    assert!(steps.iter().all(Option::is_some), "{steps:?}");
    let times: Vec<SimTime> = steps.into_iter().flatten().map(|s| s.moment).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    assert!(ActionKind::from_name("drain").is_some());
}

/// `create-cache:node-1`: a Deployment's Pod pinned to node-1 with an `emptyDir`. Without
/// `--delete-emptydir-data` the local-storage filter refuses the drain and nothing is evicted; with
/// it the Pod is evicted and its warning is dropped (the unreplicated filter after it passes the Pod,
/// and `filterPods` keeps the last status); the replacement cannot leave the cordoned node.
#[test]
fn local_storage_refuses_the_drain_unless_emptydir_data_may_go() {
    let refused = run(&format!("{SETUP},create-cache:node-1@30s,drain+ignore-daemonsets:node-1@120s"), &[]);
    let cache =
        refused.at(s(119)).pods().into_iter().find(|p| p.metadata.name.starts_with("cache-")).expect("the cache Pod");
    assert_eq!(cache.spec.node_name, "node-1");
    assert!(cache.has_local_storage() && cache.pinned_node() == Some("node-1"));
    let key = format!("default/{}", cache.metadata.name);
    let lines = transcript(&refused);
    let expected = format!(
        "E error: unable to drain node \"node-1\" due to error: cannot delete Pods with local storage (use --delete-emptydir-data to override): {key}, continuing command..."
    );
    assert!(lines.iter().any(|(_, l)| *l == expected), "{lines:#?}");
    assert!(!lines.iter().any(|(_, l)| l.starts_with("evicting pod")), "nothing is evicted: {lines:#?}");

    let allowed =
        run(&format!("{SETUP},create-cache:node-1@30s,drain+ignore-daemonsets+delete-emptydir-data:node-1@120s"), &[]);
    let lines = transcript(&allowed);
    assert!(lines.iter().any(|(_, l)| *l == format!("evicting pod {key}")), "{lines:#?}");
    assert!(lines.iter().any(|(_, l)| *l == format!("pod/{} evicted", cache.metadata.name)), "{lines:#?}");
    assert!(!lines.iter().any(|(_, l)| l.contains("local storage")), "the warning is dropped: {lines:#?}");
    let pending = allowed
        .log()
        .events
        .iter()
        .find(|e| e.reason() == "FailedScheduling" && e.t > s(120))
        .expect("the replacement cannot be scheduled");
    assert!(pending.message().contains("1 node(s) were unschedulable"), "{}", pending.message());
    // Only one cache: a second is refused.
    let again = allowed.at(s(200)).check_action(ActionKind::CreateCache, Some("node-2"));
    assert_eq!(again.map_err(|r| r.to_string()), Err("the Deployment cache already exists".into()));
}
