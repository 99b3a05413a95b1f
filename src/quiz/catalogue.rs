//! Every chapter's questions and how each one's stop and answer are found in a timeline.
//!
//! Each derivation starts from a step's moment or an input (the chapter's own anchors) and
//! reads the answer from what the log records after it. The words are in the catalogue
//! (`src/i18n/quiz_en.rs`, `quiz_ja.rs`), keyed by the question's id.

use std::time::Duration;

use super::query::{self, At};
use super::{Answer, Derived, Kind, Question, Region, seconds_between, seconds_label, whole_seconds};
use crate::sim::objects::Object;
use crate::sim::{
    ActionKind, Actor, Chapter, DARK_ZONE, GC_CHECK_PERIOD, Method, SimTime, TAINT_UNREACHABLE, Timeline, ZONE_LABEL,
    ZoneState, carries_no_execute, zone_qps,
};

/// What the stage may not show while most questions are open: the narration and the
/// timeline's marks both tell the future.
const FUTURE: &[Region] = &[Region::Narration, Region::Track];
/// The same, and the inspector (its grace countdown or a Pod's tolerations give a time away).
const FUTURE_AND_INSPECTOR: &[Region] = &[Region::Narration, Region::Track, Region::Inspector];

/// The fleet chapter's: the same, and the zones' tainting rates and the chart (drawn to the end
/// of the story).
const FLEET_FUTURE: &[Region] = &[Region::Narration, Region::Track, Region::Inspector, Region::Fleet];

/// The `Ready` condition's statuses, as options.
const READY_STATUSES: &[&str] = &["True", "False", "Unknown"];

const NODE: &str = "node-1";

static REGISTRATION: [Question; 3] = [
    Question {
        id: "registration-first-ready",
        chapter: Chapter::Registration,
        kind: Kind::Choice,
        options: READY_STATUSES,
        conceal: FUTURE,
        derive: registration_first_ready,
    },
    Question {
        id: "registration-pods-order",
        chapter: Chapter::Registration,
        kind: Kind::Order,
        options: &["node-ready", "tolerant-started", "tolerant-scheduled", "demo-scheduled"],
        conceal: FUTURE,
        derive: registration_pods_order,
    },
    Question {
        id: "registration-report-frequency",
        chapter: Chapter::Registration,
        kind: Kind::Time,
        options: &[],
        conceal: FUTURE_AND_INSPECTOR,
        derive: registration_report_frequency,
    },
];

static NODE_FAILURE: [Question; 5] = [
    Question {
        id: "node-failure-ready",
        chapter: Chapter::NodeFailure,
        kind: Kind::Choice,
        options: READY_STATUSES,
        conceal: FUTURE,
        derive: node_failure_ready,
    },
    Question {
        id: "node-failure-unknown-after",
        chapter: Chapter::NodeFailure,
        kind: Kind::Time,
        options: &[],
        conceal: FUTURE_AND_INSPECTOR,
        derive: node_failure_unknown_after,
    },
    Question {
        id: "node-failure-order",
        chapter: Chapter::NodeFailure,
        kind: Kind::Order,
        options: &["pod-deleted", "no-execute", "replacement-running", "node-not-ready"],
        conceal: FUTURE,
        derive: node_failure_order,
    },
    Question {
        id: "node-failure-toleration",
        chapter: Chapter::NodeFailure,
        kind: Kind::Time,
        options: &[],
        conceal: FUTURE_AND_INSPECTOR,
        derive: node_failure_toleration,
    },
    Question {
        id: "node-failure-replacement",
        chapter: Chapter::NodeFailure,
        kind: Kind::Node,
        options: &[],
        conceal: FUTURE,
        derive: node_failure_replacement,
    },
];

static KUBELET_RESTART: [Question; 3] = [
    Question {
        id: "kubelet-restart-post",
        chapter: Chapter::KubeletRestart,
        kind: Kind::Choice,
        options: &["201", "409", "403"],
        conceal: FUTURE,
        derive: kubelet_restart_post,
    },
    Question {
        id: "kubelet-restart-pod-node",
        chapter: Chapter::KubeletRestart,
        kind: Kind::Node,
        options: &[],
        conceal: FUTURE,
        derive: kubelet_restart_pod_node,
    },
    Question {
        id: "kubelet-restart-order",
        chapter: Chapter::KubeletRestart,
        kind: Kind::Order,
        options: &["node-ready", "deletion-cancelled", "lease-renewed", "node-post"],
        conceal: FUTURE,
        derive: kubelet_restart_order,
    },
];

static ZONE_OUTAGE: [Question; 4] = [
    Question {
        id: "zone-outage-taint-interval",
        chapter: Chapter::ZoneOutage,
        kind: Kind::Time,
        options: &[],
        conceal: FLEET_FUTURE,
        derive: zone_outage_taint_interval,
    },
    Question {
        id: "zone-outage-partial",
        chapter: Chapter::ZoneOutage,
        kind: Kind::Choice,
        options: &["every-10s", "every-100s", "stopped"],
        conceal: FLEET_FUTURE,
        derive: zone_outage_partial,
    },
    Question {
        id: "zone-outage-mark",
        chapter: Chapter::ZoneOutage,
        kind: Kind::Time,
        options: &[],
        conceal: FLEET_FUTURE,
        derive: zone_outage_mark,
    },
    Question {
        id: "zone-outage-master",
        chapter: Chapter::ZoneOutage,
        kind: Kind::Choice,
        options: &["removed", "kept", "added"],
        conceal: FLEET_FUTURE,
        derive: zone_outage_master,
    },
];

static MAINTENANCE: [Question; 3] = [
    Question {
        id: "maintenance-evictions",
        chapter: Chapter::Maintenance,
        kind: Kind::Choice,
        options: &["at-once", "one-by-one"],
        conceal: FUTURE,
        derive: maintenance_evictions,
    },
    Question {
        id: "maintenance-retry",
        chapter: Chapter::Maintenance,
        kind: Kind::Time,
        options: &[],
        conceal: FUTURE_AND_INSPECTOR,
        derive: maintenance_retry,
    },
    Question {
        id: "maintenance-left",
        chapter: Chapter::Maintenance,
        kind: Kind::Choice,
        options: &["nothing", "daemonset", "web"],
        conceal: FUTURE,
        derive: maintenance_left,
    },
];

static NODE_GOES_AWAY: [Question; 3] = [
    Question {
        id: "node-goes-away-phase",
        chapter: Chapter::NodeGoesAway,
        kind: Kind::Choice,
        options: &["Running", "Failed", "Succeeded"],
        conceal: FUTURE,
        derive: node_goes_away_phase,
    },
    Question {
        id: "node-goes-away-orphans",
        chapter: Chapter::NodeGoesAway,
        kind: Kind::Time,
        options: &[],
        conceal: FUTURE_AND_INSPECTOR,
        derive: node_goes_away_orphans,
    },
    Question {
        id: "node-goes-away-db-node",
        chapter: Chapter::NodeGoesAway,
        kind: Kind::Node,
        options: &[],
        conceal: FUTURE,
        derive: node_goes_away_db_node,
    },
];

/// A chapter's questions, in the order the story reaches them.
pub fn questions(chapter: Chapter) -> &'static [Question] {
    match chapter {
        Chapter::Registration => &REGISTRATION,
        Chapter::NodeFailure => &NODE_FAILURE,
        Chapter::KubeletRestart => &KUBELET_RESTART,
        Chapter::ZoneOutage => &ZONE_OUTAGE,
        Chapter::Maintenance => &MAINTENANCE,
        Chapter::NodeGoesAway => &NODE_GOES_AWAY,
    }
}

/// Where step `n` (1-based) starts: its lead-in, before what it names can be seen.
fn step(timeline: &Timeline, n: usize) -> Option<SimTime> {
    timeline.steps().get(n - 1).copied().flatten().map(|s| s.start)
}

fn option(options: &[&str], value: &str) -> Option<usize> {
    options.iter().position(|o| *o == value)
}

/// An order question's answer from each option's moment: the options sorted by when they happen.
fn order(moments: &[Option<At>]) -> Option<(Vec<usize>, SimTime)> {
    let moments: Vec<At> = moments.iter().copied().collect::<Option<_>>()?;
    let mut order: Vec<usize> = (0..moments.len()).collect();
    order.sort_by_key(|i| moments[*i]);
    let first = moments.iter().map(|m| m.t).min()?;
    Some((order, first))
}

fn registration_first_ready(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 2)?;
    let post = query::request(log, stop, &query::kubelet(NODE), Method::Post, "/api/v1/nodes")?;
    let (created, status) = query::ready_change(log, stop, NODE, None)?;
    Some(Derived {
        stop,
        reveal: post.t.min(created.t),
        answer: Answer::Choice(option(READY_STATUSES, &status)?),
        facts: Vec::new(),
    })
}

fn registration_pods_order(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 4)?;
    let event = |reason: &str, object: &str| query::event(log, stop, reason, object, "").map(query::event_at);
    let (order, reveal) = order(&[
        event("NodeReady", NODE),
        event("Started", "tolerant-"),
        event("Scheduled", "tolerant-"),
        event("Scheduled", "demo-"),
    ])?;
    Some(Derived { stop, reveal, answer: Answer::Order(order), facts: Vec::new() })
}

fn registration_report_frequency(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 6)?;
    let path = "/api/v1/nodes/node-1/status";
    let last = query::last_success_before(log, stop, &query::kubelet(NODE), Method::Patch, path)?;
    let next = query::request(log, stop, &query::kubelet(NODE), Method::Patch, path)?;
    let seconds = seconds_between(last.t, next.t);
    let settings = timeline.config().settings();
    Some(Derived {
        stop,
        reveal: next.t,
        answer: Answer::Time { seconds, tolerance: settings.node_status_update_frequency.as_secs_f64() },
        facts: vec![
            seconds_label(seconds),
            whole_seconds(settings.node_status_report_frequency),
            whole_seconds(settings.node_status_update_frequency),
        ],
    })
}

/// The grace period and the version it belongs to, as an explanation cites them.
fn grace_facts(timeline: &Timeline) -> [String; 2] {
    let config = timeline.config();
    [whole_seconds(config.settings().node_monitor_grace_period), config.profile.as_str().to_string()]
}

/// `--node-monitor-period`, the controller's pass: how precisely a time question can be answered.
fn monitor_period(timeline: &Timeline) -> Duration {
    timeline.config().settings().node_monitor_period
}

fn node_failure_ready(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 2)?;
    let before = timeline.at(stop).node(NODE)?;
    let (changed, status) = query::ready_change(log, stop, NODE, before.ready_status())?;
    Some(Derived {
        stop,
        reveal: changed.t,
        answer: Answer::Choice(option(READY_STATUSES, &status)?),
        facts: grace_facts(timeline).into(),
    })
}

fn node_failure_unknown_after(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = query::input(log, ActionKind::KillKubelet)? + Duration::from_secs(1);
    let renewal = query::last_success_before(log, stop, &query::kubelet(NODE), Method::Put, "/leases/node-1")?;
    let (unknown, status) = query::ready_change(log, stop, NODE, Some("True"))?;
    (status == "Unknown").then_some(())?;
    let seconds = seconds_between(renewal.t, unknown.t);
    let [grace, version] = grace_facts(timeline);
    Some(Derived {
        stop,
        reveal: unknown.t,
        answer: Answer::Time { seconds, tolerance: monitor_period(timeline).as_secs_f64() },
        facts: vec![seconds_label(seconds), grace, version, whole_seconds(monitor_period(timeline))],
    })
}

fn node_failure_order(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 3)?;
    let deleted = query::event(log, stop, "TaintManagerEviction", "", "Marking for deletion").map(query::event_at);
    let replacement = deleted.and_then(|d| query::event(log, d.t, "Started", "", "")).map(query::event_at);
    let (order, reveal) = order(&[
        deleted,
        query::taint(log, stop, NODE, TAINT_UNREACHABLE, "NoExecute", true),
        replacement,
        query::event(log, stop, "NodeNotReady", NODE, "").map(query::event_at),
    ])?;
    Some(Derived { stop, reveal, answer: Answer::Order(order), facts: Vec::new() })
}

fn node_failure_toleration(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 4)?;
    let tainted = query::taint(log, stop, NODE, TAINT_UNREACHABLE, "NoExecute", true)?;
    let marked = query::event(log, tainted.t, "TaintManagerEviction", "", "Marking for deletion")?;
    // The toleration the evicted Pod carries (given at admission by DefaultTolerationSeconds).
    let pod = timeline.at(stop).pods().into_iter().find(|p| p.metadata.name == marked.object.name)?;
    let toleration = pod
        .spec
        .tolerations
        .iter()
        .find(|t| t.key == TAINT_UNREACHABLE && t.effect == "NoExecute")
        .and_then(|t| t.toleration_seconds)?;
    let seconds = seconds_between(tainted.t, marked.t);
    Some(Derived {
        stop,
        reveal: marked.t,
        answer: Answer::Time { seconds, tolerance: monitor_period(timeline).as_secs_f64() },
        facts: vec![seconds_label(seconds), toleration.to_string()],
    })
}

/// The Nodes on the stage at `t`, by name.
fn node_names(timeline: &Timeline, t: SimTime) -> Vec<String> {
    timeline.at(t).nodes().iter().map(|n| n.metadata.name.to_string()).collect()
}

fn node_failure_replacement(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 5)?;
    let nodes = node_names(timeline, stop);
    let (bound, node) = query::new_pod_bound(log, stop)?;
    let tainted: Vec<String> = timeline
        .at(stop)
        .nodes()
        .iter()
        .filter(|n| n.has_taint(TAINT_UNREACHABLE, "NoSchedule"))
        .map(|n| n.metadata.name.to_string())
        .collect();
    let right = nodes.iter().position(|n| *n == node)?;
    Some(Derived {
        stop,
        reveal: bound.t,
        answer: Answer::Node { nodes, right },
        facts: vec![node, tainted.join(", ")],
    })
}

fn kubelet_restart_post(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 1)?;
    let post = query::request(log, stop, &query::kubelet(NODE), Method::Post, "/api/v1/nodes")?;
    let code = post.outcome.code()?.to_string();
    let options = questions(Chapter::KubeletRestart)[0].options;
    let start = query::input(log, ActionKind::StartKubelet)?;
    Some(Derived {
        stop,
        reveal: post.t,
        answer: Answer::Choice(option(options, &code)?),
        facts: vec![start.clock_label()],
    })
}

fn kubelet_restart_pod_node(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 2)?;
    let nodes = node_names(timeline, stop);
    // Whatever the taint eviction controller does next (cancel or delete) shows the answer.
    let decided = query::event(log, stop, "TaintManagerEviction", "", "")?;
    let end = SimTime::ZERO + timeline.scenario().duration;
    let running = timeline
        .at(end)
        .pods()
        .into_iter()
        .find(|p| p.metadata.name.starts_with("web-") && !p.is_terminating() && p.status.phase == "Running")?;
    let right = nodes.iter().position(|n| *n == running.spec.node_name)?;
    Some(Derived {
        stop,
        reveal: decided.t,
        answer: Answer::Node { nodes, right },
        facts: vec![running.spec.node_name.clone()],
    })
}

fn kubelet_restart_order(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = query::input(log, ActionKind::StartKubelet)?;
    let kubelet = query::kubelet(NODE);
    let renewed = log
        .requests
        .iter()
        .find(|r| {
            r.t >= stop
                && r.method == Method::Put
                && r.outcome.is_success()
                && r.path.ends_with("/leases/node-1")
                && r.actor == kubelet
        })
        .map(|r| query::request_at(&r));
    let (order, reveal) = order(&[
        query::event(log, stop, "NodeReady", NODE, "").map(query::event_at),
        query::event(log, stop, "TaintManagerEviction", "", "Cancelling").map(query::event_at),
        renewed,
        query::request(log, stop, &query::kubelet(NODE), Method::Post, "/api/v1/nodes").map(|r| query::request_at(&r)),
    ])?;
    Some(Derived { stop, reveal, answer: Answer::Order(order), facts: vec![whole_seconds(monitor_period(timeline))] })
}

/// The reader's kubectl's eviction POSTs from `from` on.
fn evictions(log: &crate::sim::Log, from: SimTime) -> Vec<std::borrow::Cow<'_, crate::sim::Request>> {
    log.requests
        .iter()
        .filter(|r| r.t >= from && r.actor == crate::sim::Actor::Kubectl && r.path.ends_with("/eviction"))
        .collect()
}

fn maintenance_evictions(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 3)?;
    let posts = evictions(log, stop);
    let (first, second) = (posts.first()?, posts.get(1)?);
    let answer = if first.t == second.t { "at-once" } else { "one-by-one" };
    let options = questions(Chapter::Maintenance)[0].options;
    Some(Derived { stop, reveal: second.t, answer: Answer::Choice(option(options, answer)?), facts: Vec::new() })
}

fn maintenance_retry(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let drain = step(timeline, 3)?;
    let stop = step(timeline, 4)?;
    let posts = evictions(log, drain);
    let refused = posts.iter().find(|r| r.outcome.code() == Some(429))?;
    let retry = posts.iter().find(|r| r.seq > refused.seq && r.path == refused.path)?;
    let seconds = seconds_between(refused.t, retry.t);
    Some(Derived {
        stop,
        reveal: retry.t,
        answer: Answer::Time { seconds, tolerance: 1.0 },
        facts: vec![seconds_label(seconds)],
    })
}

/// The phase node-1's Pods end in after the graceful shutdown: the first status change of a Pod
/// on node-1 to a terminal phase.
fn node_goes_away_phase(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 2)?;
    let shutdown = query::input(log, ActionKind::Shutdown)?;
    let (t, phase) = log.changes().kept_whole().find_map(|c| match &c.object() {
        Object::Pod(p)
            if c.t >= shutdown && p.spec.node_name == NODE && matches!(&*p.status.phase, "Failed" | "Succeeded") =>
        {
            Some((c.t, p.status.phase.clone()))
        }
        _ => None,
    })?;
    let options = questions(Chapter::NodeGoesAway)[0].options;
    Some(Derived { stop, reveal: t, answer: Answer::Choice(option(options, &phase)?), facts: Vec::new() })
}

/// How long after `kubectl delete node` PodGC force-deletes the first orphaned Pod.
fn node_goes_away_orphans(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let deleted = query::input(log, ActionKind::DeleteNode)?;
    let stop = deleted + Duration::from_secs(1);
    let gc =
        log.requests.iter().find(|r| r.t >= stop && r.actor == Actor::PodGcController && r.method == Method::Delete)?;
    let seconds = seconds_between(deleted, gc.t);
    Some(Derived {
        stop,
        reveal: gc.t,
        answer: Answer::Time { seconds, tolerance: GC_CHECK_PERIOD.as_secs_f64() },
        facts: vec![seconds_label(seconds)],
    })
}

fn maintenance_left(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 5)?;
    let drained = log
        .lines
        .iter()
        .find(|l| l.t >= stop && l.actor == crate::sim::Actor::Kubectl && l.message.ends_with(" drained"))?;
    let left: Vec<_> = timeline.at(drained.t).pods().into_iter().filter(|p| p.spec.node_name == NODE).collect();
    let answer = match left.first() {
        None => "nothing",
        Some(p) if p.controller().is_some_and(|c| c.kind == "DaemonSet") => "daemonset",
        Some(_) => "web",
    };
    let options = questions(Chapter::Maintenance)[2].options;
    Some(Derived { stop, reveal: drained.t, answer: Answer::Choice(option(options, answer)?), facts: Vec::new() })
}

/// The node the StatefulSet's `db-0` is bound to once it comes back.
fn node_goes_away_db_node(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let stop = step(timeline, 9)?;
    let nodes = node_names(timeline, stop);
    let old = timeline.at(stop).pods().into_iter().find(|p| p.metadata.name == "db-0")?;
    let (t, node) = log.changes().kept_whole().find_map(|c| match &c.object() {
        Object::Pod(p)
            if c.t >= stop
                && p.metadata.name == "db-0"
                && p.metadata.uid != old.metadata.uid
                && !p.spec.node_name.is_empty() =>
        {
            Some((c.t, p.spec.node_name.clone()))
        }
        _ => None,
    })?;
    let right = nodes.iter().position(|n| *n == node)?;
    Some(Derived { stop, reveal: t, answer: Answer::Node { nodes, right }, facts: vec![node] })
}

/// Whether a Node is in `zone` (its `topology.kubernetes.io/zone` label).
fn in_zone(node: &crate::sim::objects::Node, zone: &str) -> bool {
    node.metadata.labels.get(ZONE_LABEL).map(String::as_str) == Some(zone)
}

/// When a Node of `zone` gained a `NoExecute` taint, from `from` on, in order.
fn no_execute_added(log: &crate::sim::Log, zone: &str, from: SimTime) -> Vec<SimTime> {
    let mut tainted: std::collections::BTreeMap<&str, bool> = std::collections::BTreeMap::new();
    let mut added = Vec::new();
    // A renewed Lease's version (most of the changes) is not built.
    for c in log.changes().kept_whole() {
        if c.kind() != crate::sim::objects::Kind::Node {
            continue;
        }
        let Object::Node(node) = c.object() else { continue };
        if !in_zone(&node, zone) {
            continue;
        }
        let now = carries_no_execute(&node);
        let before = tainted.insert(c.name(), now).unwrap_or(false);
        if now && !before && c.t >= from {
            added.push(c.t);
        }
    }
    added
}

/// The first line of the node lifecycle controller's from `from` on that contains every text.
fn controller_line(log: &crate::sim::Log, from: SimTime, contains: &[&str]) -> Option<SimTime> {
    log.lines
        .iter()
        .find(|l| {
            l.t >= from && l.actor == Actor::NodeLifecycleController && contains.iter().all(|c| l.message.contains(c))
        })
        .map(|l| l.t)
}

/// How many seconds after the dark zone's first `NoExecute` taint the second one comes.
fn zone_outage_taint_interval(timeline: &Timeline) -> Option<Derived> {
    let cut = step(timeline, 2)?;
    let added = no_execute_added(timeline.log(), DARK_ZONE, cut);
    let (first, second) = (*added.first()?, *added.get(1)?);
    let stop = first + Duration::from_millis(500);
    // Asked only when the zone has another node waiting (the prompt says so): then the second
    // taint comes at the zone's rate, not when a later failure happens.
    let unknown = timeline
        .at(stop)
        .nodes()
        .iter()
        .filter(|n| in_zone(n, DARK_ZONE) && n.ready_status() == Some("Unknown"))
        .count();
    if stop >= second || unknown < 2 {
        return None;
    }
    let seconds = seconds_between(first, second);
    Some(Derived {
        stop,
        reveal: second,
        answer: Answer::Time { seconds, tolerance: 1.0 },
        facts: vec![seconds_label(seconds)],
    })
}

/// What the dark zone's tainting does once it is `PartialDisruption`: asked when the nodes that
/// take it past 55 % have just failed, answered by the rate the controller gives such a zone of
/// its size (the zone panel shows it from the moment the state changes).
fn zone_outage_partial(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let partial = controller_line(log, SimTime::ZERO, &["newState=\"PartialDisruption\"", DARK_ZONE])?;
    let cut = log
        .inputs
        .iter()
        .filter(|i| i.action.kind == ActionKind::CutNodes && i.rejected.is_none() && i.t < partial)
        .map(|i| i.t)
        .max()?;
    let stop = cut + Duration::from_secs(1);
    let size = timeline.at(partial).nodes().iter().filter(|n| in_zone(n, DARK_ZONE)).count();
    let qps = zone_qps(&timeline.config().settings(), ZoneState::PartialDisruption, size);
    let answer = if qps == 0.0 {
        "stopped"
    } else if qps < 0.1 {
        "every-100s"
    } else {
        "every-10s"
    };
    let options = questions(Chapter::ZoneOutage)[1].options;
    Some(Derived {
        stop,
        reveal: partial,
        answer: Answer::Choice(option(options, answer)?),
        facts: vec![size.to_string()],
    })
}

/// How long after the rest of the dark zone is cut off the controller finds it `FullDisruption`:
/// the grace period, then the monitor pass that marks every dark Node `Unknown` at its client's
/// rate (the zone's state is counted once the pass has checked every Node).
fn zone_outage_mark(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let cut = query::input(log, ActionKind::CutZone)?;
    let full = controller_line(log, cut, &["newState=\"FullDisruption\"", DARK_ZONE])?;
    let seconds = seconds_between(cut, full);
    let grace = timeline.config().settings().node_monitor_grace_period;
    Some(Derived {
        stop: cut + Duration::from_secs(1),
        reveal: full,
        answer: Answer::Time { seconds, tolerance: 3.0 },
        facts: vec![seconds_label(seconds), whole_seconds(grace)],
    })
}

/// What master disruption mode does to the `NoExecute` taints already placed: counted just
/// before the controller enters it and just after.
fn zone_outage_master(timeline: &Timeline) -> Option<Derived> {
    let log = timeline.log();
    let cut = query::input(log, ActionKind::CutControlPlane)?;
    let entering = controller_line(log, cut, &["Entering master disruption mode"])?;
    let stop = cut + Duration::from_secs(1);
    let count = |t: SimTime| timeline.at(t).nodes().iter().filter(|n| carries_no_execute(n)).count();
    let before = count(SimTime::from_micros(entering.as_micros().saturating_sub(1_000)));
    let reveal = entering + Duration::from_secs(1);
    let after = count(reveal);
    let answer = match after.cmp(&before) {
        std::cmp::Ordering::Less => "removed",
        std::cmp::Ordering::Equal => "kept",
        std::cmp::Ordering::Greater => "added",
    };
    let options = questions(Chapter::ZoneOutage)[3].options;
    Some(Derived { stop, reveal, answer: Answer::Choice(option(options, answer)?), facts: Vec::new() })
}
