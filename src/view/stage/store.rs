//! The objects the API server stores, as the stage shows them: Node cards with their status and
//! taints, Lease cards with their age, and the Pods.

use std::time::Duration;

use super::geometry::{CH_SANS, Pt, Rect, fit, round_rect};
use super::layout::{Layout, PAD};
use super::packets::{TRAVEL, Timing};
use super::scene::{BudgetCard, Chip, Health, LeaseCard, NodeCard, PodRow, PodsToggle, Store};
use crate::i18n::{Key, Lang};
use crate::render::kubectl_printer::get;
use crate::sim::objects::{Kind, Lease, Pod, PodDisruptionBudget};
use crate::sim::{Log, NODE_LEASE_NAMESPACE, SimTime, Snapshot, format_go_duration};
use crate::view::session::Session;

/// Pod rows drawn (more are summarised).
const MAX_POD_ROWS: usize = 6;

/// The shape a Node card gets from kubectl's STATUS column ([`get::node_status`]): `Ready` is
/// fine, `Unknown` (no Ready condition yet) a warning, `NotReady` down.
fn node_health(status: &str) -> Health {
    if status.starts_with("Ready") {
        Health::Ok
    } else if status.starts_with("Unknown") {
        Health::Warn
    } else {
        Health::Down
    }
}

/// The shape a Pod row gets from kubectl's STATUS column ([`get::pod_state`]): running and
/// ready is fine; running but unready, pending or being created a warning; anything else
/// (terminating, failed, a container's error) down.
fn pod_health(status: &str, pod: &Pod) -> Health {
    match status {
        "Running" if pod.is_ready() => Health::Ok,
        "Running" | "Pending" | "ContainerCreating" => Health::Warn,
        _ => Health::Down,
    }
}

/// Whether the object was changed by a request whose packet is showing its answer now (ignoring
/// staggering): from its arrival to the end of its window.
fn fresh(log: &Log, kind: Kind, ns: &str, name: &str, t: SimTime, timing: Timing) -> bool {
    let arrival = if timing.reduced_motion { Duration::ZERO } else { timing.window.mul_f64(TRAVEL) };
    log.version_of_at(kind, ns, name, t).is_some_and(|c| {
        let age = t - c.t;
        age >= arrival && age < arrival + timing.window
    })
}

pub(super) fn store(
    snapshot: &Snapshot<'_>,
    session: &Session,
    timing: Timing,
    layout: Layout,
    top: f32,
    lang: Lang,
    all_pods: bool,
) -> Store {
    let log = session.timeline.log();
    let t = snapshot.time();
    let now = snapshot.wall();
    let width = layout.width();
    let narrow = layout == Layout::Narrow;
    let ch_mono = layout.ch_mono();
    let inner = top + 26.0;
    // Columns: nodes, the lease namespace, pods (side by side, or stacked).
    let (node_col, lease_col, pod_col) = if narrow {
        let w = width - 2.0 * PAD - 8.0;
        (Rect::new(PAD + 4.0, inner, w, 0.0), Rect::new(PAD + 4.0, 0.0, w, 0.0), Rect::new(PAD + 4.0, 0.0, w, 0.0))
    } else {
        (
            Rect::new(PAD + 8.0, inner, 230.0, 0.0),
            Rect::new(PAD + 8.0 + 238.0, inner, 290.0, 0.0),
            Rect::new(PAD + 8.0 + 238.0 + 298.0, inner, width - 2.0 * PAD - 16.0 - 238.0 - 298.0, 0.0),
        )
    };

    // Nodes.
    let mut nodes = Vec::new();
    let mut y = node_col.y;
    for node in snapshot.nodes() {
        let name = &node.metadata.name;
        let status = get::node_status(&node);
        let health = node_health(&status);
        let title = lang.fill(Key::NodeObject, &[name]);
        let mut taints = Vec::new();
        let (mut cx, mut cy) = (node_col.x + PAD, y + 44.0);
        for taint in &node.spec.taints {
            let full = taint.display();
            let text = full.strip_prefix("node.kubernetes.io/").unwrap_or(&full).to_string();
            let text = fit(&text, node_col.w - 2.0 * PAD - 10.0, ch_mono);
            let w = text.chars().count() as f32 * ch_mono + 10.0;
            if cx + w > node_col.right() - PAD && cx > node_col.x + PAD {
                cx = node_col.x + PAD;
                cy += 20.0;
            }
            taints.push(Chip {
                rect: round_rect(Rect::new(cx, cy, w, 16.0)),
                text,
                no_execute: taint.effect == "NoExecute",
                full,
            });
            cx += w + 4.0;
        }
        let taint_list = if taints.is_empty() {
            lang.text(Key::NoTaints).to_string()
        } else {
            taints.iter().map(|c| c.full.as_str()).collect::<Vec<_>>().join(", ")
        };
        let no_taints =
            taints.is_empty().then(|| lang.fill(Key::StagePart, &[lang.text(Key::Taints), lang.text(Key::NoTaints)]));
        let h = cy + 16.0 + PAD - y;
        let label = format!(
            "{}; {}",
            lang.fill(Key::StagePart, &[&title, &status]),
            lang.fill(Key::StagePart, &[lang.text(Key::Taints), &taint_list])
        );
        nodes.push(NodeCard {
            rect: round_rect(Rect::new(node_col.x, y, node_col.w, h)),
            title,
            status,
            health,
            taints,
            no_taints,
            label,
            fresh: fresh(log, Kind::Node, "", name, t, timing),
        });
        y += h + 8.0;
    }
    let no_nodes = nodes.is_empty().then(|| {
        y += 24.0;
        (Pt { x: node_col.x + 4.0, y: node_col.y + 14.0 }, lang.text(Key::NoNodeYet).to_string())
    });
    let nodes_bottom = y - 8.0;

    // kube-node-lease.
    let ns_y = if narrow { nodes_bottom + 14.0 } else { lease_col.y };
    let grace = session.timeline.config().settings().node_monitor_grace_period;
    let mut leases = Vec::new();
    let mut y = ns_y + 24.0;
    let card_w = lease_col.w - 2.0 * PAD;
    for lease in snapshot.leases().iter().filter(|l| l.metadata.namespace == NODE_LEASE_NAMESPACE) {
        leases.push(lease_card(
            lease,
            Rect::new(lease_col.x + PAD, y, card_w, 66.0),
            now.0,
            grace,
            lang,
            fresh(log, Kind::Lease, NODE_LEASE_NAMESPACE, &lease.metadata.name, t, timing),
            ch_mono,
        ));
        y += 66.0 + 8.0;
    }
    let no_leases = leases.is_empty().then(|| {
        y += 18.0;
        (Pt { x: lease_col.x + PAD, y: ns_y + 38.0 }, lang.text(Key::NoLease).to_string())
    });
    let lease_ns = Rect::new(lease_col.x, ns_y, lease_col.w, y - ns_y);

    // PodDisruptionBudgets, below the Leases.
    let mut budgets = Vec::new();
    let mut y = lease_ns.bottom() + 8.0;
    for pdb in snapshot.pdbs() {
        let rect = Rect::new(lease_col.x, y, lease_col.w, BUDGET_H);
        let fresh = fresh(log, Kind::PodDisruptionBudget, &pdb.metadata.namespace, &pdb.metadata.name, t, timing);
        budgets.push(budget_card(&pdb, rect, lang, fresh, ch_mono));
        y += BUDGET_H + 8.0;
    }
    let lease_bottom = y - 8.0;

    // Pods.
    let pods_y = if narrow { lease_bottom + 14.0 } else { pod_col.y };
    let all = snapshot.pods();
    let mut pods = Vec::new();
    let mut y = pods_y + 24.0;
    let shown = if all.len() > MAX_POD_ROWS && !all_pods { MAX_POD_ROWS - 1 } else { all.len() };
    for pod in all.iter().take(shown) {
        let (ready, status, _) = get::pod_state(pod, now);
        let health = pod_health(&status, pod);
        let node = if pod.spec.node_name.is_empty() { "—" } else { pod.spec.node_name.as_str() };
        // A StatefulSet Pod's name is its identity: the same on whichever node it runs.
        let set = pod.metadata.owner_references.iter().find(|o| o.kind == "StatefulSet");
        let owner = set.map(|set| format!("StatefulSet/{}/{}", pod.metadata.namespace, set.name));
        let identity = set.map(|set| {
            let ordinal = pod.metadata.labels.get("apps.kubernetes.io/pod-index").map(String::as_str).unwrap_or("0");
            lang.fill(Key::StatefulSetIdentity, &[&set.name, ordinal])
        });
        let name_w = pod_col.w - 2.0 * PAD - 20.0;
        // The identity takes what the name leaves (a StatefulSet Pod's name is short: `db-0`).
        let name_len = pod.metadata.name.chars().count() as f32 * ch_mono + 8.0;
        let identity_w =
            identity.as_ref().map_or(0.0, |i| (i.chars().count() as f32 * CH_SANS).min((name_w - name_len).max(0.0)));
        pods.push(PodRow {
            rect: Rect::new(pod_col.x + PAD, y, pod_col.w - 2.0 * PAD, 30.0),
            name: fit(&pod.metadata.name, name_w - identity_w, ch_mono),
            detail: format!("{ready} {status} · {node}"),
            health,
            identity: identity.map(|i| fit(&i, identity_w, CH_SANS)),
            owner,
        });
        y += 32.0;
    }
    let pods_note = all.is_empty().then(|| {
        y += 18.0;
        (Pt { x: pod_col.x + PAD, y: pods_y + 38.0 }, lang.text(Key::NoPods).to_string())
    });
    // Every Pod stays reachable: past the first few, a button shows them all (and fewer again).
    let pods_toggle = (all.len() > MAX_POD_ROWS).then(|| {
        let rect = Rect::new(pod_col.x + PAD, y, pod_col.w - 2.0 * PAD, 24.0);
        y += 28.0;
        let all_n = all.len().to_string();
        let (text, label) = if all_pods {
            (lang.text(Key::ShowFewerPods).to_string(), lang.text(Key::ShowFewerPods).to_string())
        } else {
            (lang.fill(Key::MoreItems, &[&(all.len() - shown).to_string()]), lang.fill(Key::ShowAllPods, &[&all_n]))
        };
        PodsToggle { rect, text, label, expanded: all_pods }
    });
    let pods_frame = Rect::new(pod_col.x, pods_y, pod_col.w, y - pods_y);

    let bottom = nodes_bottom.max(lease_bottom).max(pods_frame.bottom()) + 10.0;
    Store {
        frame: Rect::new(PAD, top, width - 2.0 * PAD, bottom - top),
        title: lang.text(Key::StoredObjects).to_string(),
        nodes,
        no_nodes,
        lease_ns,
        lease_ns_title: lang.text(Key::LeaseNamespace).to_string(),
        leases,
        no_leases,
        budgets,
        pods_frame,
        pods_title: lang.text(Key::TabPods).to_string(),
        pods,
        pods_note,
        pods_toggle,
    }
}

/// A PodDisruptionBudget card's height.
const BUDGET_H: f32 = 66.0;

/// A PodDisruptionBudget's card: its spec and its status as the disruption controller and the
/// API server's evictions keep it.
fn budget_card(pdb: &PodDisruptionBudget, rect: Rect, lang: Lang, fresh: bool, ch_mono: f32) -> BudgetCard {
    let title = lang.fill(Key::BudgetObject, &[&pdb.metadata.name]);
    let spec = match (pdb.spec.min_available, pdb.spec.max_unavailable) {
        (Some(v), _) => format!("minAvailable: {v}"),
        (None, Some(v)) => format!("maxUnavailable: {v}"),
        (None, None) => String::new(),
    };
    let s = &pdb.status;
    let healthy = format!("currentHealthy: {}  desiredHealthy: {}", s.current_healthy, s.desired_healthy);
    let allowed = format!("disruptionsAllowed: {}", s.disruptions_allowed);
    let health = if s.disruptions_allowed > 0 { Health::Ok } else { Health::Down };
    let label = format!("{title}: {spec}, {healthy}, {allowed}");
    let w = rect.w - 2.0 * PAD;
    BudgetCard {
        rect: round_rect(rect),
        title: fit(&title, w, CH_SANS),
        spec: fit(&spec, w, ch_mono),
        healthy: fit(&healthy, w, ch_mono),
        allowed: fit(&allowed, w - 16.0, ch_mono),
        health,
        label,
        fresh,
    }
}

fn lease_card(
    lease: &Lease,
    rect: Rect,
    now_us: i64,
    grace: Duration,
    lang: Lang,
    fresh: bool,
    ch_mono: f32,
) -> LeaseCard {
    let name = &lease.metadata.name;
    let holder = lease.spec.holder_identity.clone().unwrap_or_default();
    let (renew, ago, stale) = match lease.spec.renew_time {
        Some(rt) => {
            let secs = ((now_us - rt.0.0).max(0) / 1_000_000) as u64;
            let d = format_go_duration(Duration::from_secs(secs));
            let stale = Duration::from_secs(secs) > grace;
            let ago = if stale {
                lang.fill(Key::LeaseStale, &[&d, &format_go_duration(grace)])
            } else {
                lang.fill(Key::LeaseRenewed, &[&d])
            };
            (rt.0.rfc3339_micros(), ago, stale)
        }
        None => (String::new(), String::new(), false),
    };
    let title = lang.fill(Key::LeaseObject, &[name]);
    let label = format!("{title}: holderIdentity {holder}, renewTime {renew}, {ago}");
    LeaseCard {
        rect: round_rect(rect),
        title,
        holder: format!("holderIdentity: {holder}"),
        renew: fit(&format!("renewTime: {renew}"), rect.w - 2.0 * PAD, ch_mono),
        // After the stale mark (16 units) when stale; the label keeps the whole sentence.
        ago: fit(&ago, rect.w - 2.0 * PAD - if stale { 16.0 } else { 0.0 }, CH_SANS),
        stale,
        label,
        fresh,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Chapter;
    use crate::sim::objects::Node;
    use crate::view::stage::Scene;
    use crate::view::stage::fixtures::{scene_at, session};

    #[test]
    fn a_dead_kubelet_leaves_its_containers_running() {
        let s = scene_at(Chapter::NodeFailure, "", 150, Layout::Wide);
        let m = &s.machines[0];
        assert_eq!(m.kubelet.health, Health::Down);
        assert_eq!(m.kubelet.label, "node-1: kubelet stopped");
        assert_eq!(m.runtime.containers.title, "1 container running");
        assert!(m.runtime.containers.rows[0].1.ends_with("/nginx"), "{:?}", m.runtime.containers.rows);
        assert_eq!(s.machines[1].kubelet.health, Health::Ok);
        // The Lease is going stale.
        let lease = &s.store.leases[0];
        assert!(lease.ago.starts_with("renewed ") && !lease.stale, "{lease:?}");
        // After the grace period the controller marks the node NotReady and taints it.
        let s = scene_at(Chapter::NodeFailure, "", 180, Layout::Wide);
        let node = &s.store.nodes[0];
        assert_eq!((node.status.as_str(), node.health), ("NotReady", Health::Down));
        assert!(node.taints.iter().any(|c| c.text == "unreachable:NoExecute" && c.no_execute), "{node:?}");
        assert!(s.store.leases[0].stale);
        // kubectl's READY counts container statuses, which the controller leaves alone.
        assert_eq!(s.store.pods[0].detail, "1/1 Running · node-1");
        // After the toleration runs out: deleted, still running on the silent machine, and a
        // replacement bound to node-2.
        let s = scene_at(Chapter::NodeFailure, "", 480, Layout::Wide);
        let details: Vec<&str> = s.store.pods.iter().map(|p| p.detail.as_str()).collect();
        assert!(details.contains(&"1/1 Terminating · node-1"), "{details:?}");
        assert!(details.iter().any(|d| d.ends_with("Running · node-2")), "{details:?}");
        assert_eq!(s.machines[0].runtime.containers.rows.len(), 1);
    }

    #[test]
    fn before_registration_there_is_no_node_and_no_cni() {
        let s = scene_at(Chapter::Registration, "", 0, Layout::Wide);
        assert!(s.store.nodes.is_empty());
        assert_eq!(s.store.no_nodes.as_ref().map(|n| n.1.as_str()), Some("no Node object yet"));
        assert_eq!(s.store.no_leases.as_ref().map(|n| n.1.as_str()), Some("no Lease yet"));
        let cni = s.machines[0].runtime.cni.as_ref().expect("CNI badge");
        assert_eq!(cni.1, "no CNI config: NetworkReady=false");
        // Registered, tainted not-ready, with a Lease from the second heartbeat on.
        let s = scene_at(Chapter::Registration, "", 12, Layout::Wide);
        let node = &s.store.nodes[0];
        assert_eq!(node.status, "NotReady");
        assert_eq!(
            node.taints.iter().map(|c| c.full.as_str()).collect::<Vec<_>>(),
            vec!["node.kubernetes.io/not-ready:NoSchedule"]
        );
        assert_eq!(s.store.leases[0].holder, "holderIdentity: node-1");
        assert!(s.store.leases[0].renew.starts_with("renewTime: 2026-03-02T09:00:10."), "{:?}", s.store.leases[0]);
        let s = scene_at(Chapter::Registration, "", 60, Layout::Wide);
        assert_eq!(s.store.nodes[0].status, "Ready");
        assert!(s.machines[0].runtime.cni.is_none());
        assert_eq!(s.store.pods.len(), 2);
    }

    #[test]
    fn an_object_lights_up_while_the_request_that_changed_it_shows_its_answer() {
        // The first Lease renewal (a PUT), about 20 s in.
        let s = session(Chapter::Registration, "", SimTime::from_secs(30));
        let renewal = s
            .timeline
            .log()
            .requests
            .iter()
            .find(|r| r.method == crate::sim::Method::Put && crate::sim::contains(&r.path, "/leases/"))
            .expect("a renewal")
            .t
            .as_micros();
        let lit = |after_ms: u64, reduced: bool| {
            let t = SimTime::from_micros(renewal + after_ms * 1000);
            Scene::build(&s, t, Timing::new(1.0, reduced), Layout::Wide, Lang::En).store.leases[0].fresh
        };
        assert!(!lit(100, false), "not before its packet arrives");
        assert!(lit(400, false));
        assert!(!lit(1000, false), "not after its packet is gone");
        assert!(lit(100, true), "with reduced motion, at once");
    }

    #[test]
    fn the_budget_is_drawn_and_follows_each_eviction() {
        // The chapter's budget, before the drain: one disruption allowed.
        let s = scene_at(Chapter::Maintenance, "", 100, Layout::Wide);
        let b = &s.store.budgets[0];
        assert_eq!((b.title.as_str(), b.spec.as_str()), ("PodDisruptionBudget web", "minAvailable: 5"));
        assert_eq!(b.healthy, "currentHealthy: 6  desiredHealthy: 5");
        assert_eq!((b.allowed.as_str(), b.health), ("disruptionsAllowed: 1", Health::Ok));
        assert!(b.label.contains("disruptionsAllowed: 1"), "{}", b.label);
        // Below the Leases, inside the store.
        assert!(b.rect.y >= s.store.lease_ns.bottom() && b.rect.bottom() <= s.store.frame.bottom());
        // The first eviction takes it: none allowed while the evicted Pod is replaced.
        let t = SimTime::from_millis(120_500);
        let s = Scene::build(&session(Chapter::Maintenance, "", t), t, Timing::new(1.0, false), Layout::Wide, Lang::En);
        let b = &s.store.budgets[0];
        assert_eq!((b.allowed.as_str(), b.health), ("disruptionsAllowed: 0", Health::Down), "{b:?}");
        // A reader's budget, a percentage of maxUnavailable, in the narrow layout too.
        let s = scene_at(Chapter::Maintenance, "create-pdb+max-unavailable=50%@30s", 50, Layout::Narrow);
        assert_eq!(s.store.budgets[0].spec, "maxUnavailable: 50%");
        assert!(s.store.pods_frame.y > s.store.budgets[0].rect.bottom());
        let markup = crate::view::stage::store_markup(&s.store);
        assert!(markup.contains(r#"aria-label="PodDisruptionBudget web: maxUnavailable: 50%, "#), "{markup}");
    }

    #[test]
    fn every_pod_is_reachable() {
        let t = SimTime::from_secs(100);
        let s = session(Chapter::Maintenance, "", t);
        let pods = s.at(t).pods().len();
        assert!(pods > MAX_POD_ROWS, "{pods}");
        let few = Scene::build(&s, t, Timing::new(1.0, false), Layout::Wide, Lang::En).store;
        assert_eq!(few.pods.len(), MAX_POD_ROWS - 1);
        let toggle = few.pods_toggle.as_ref().expect("a button");
        assert_eq!(toggle.text, format!("+{} more", pods - MAX_POD_ROWS + 1));
        assert_eq!(toggle.label, format!("Show all {pods} Pods"));
        assert!(!toggle.expanded);
        let markup = crate::view::stage::store_markup(&few);
        assert!(markup.contains(r#"role="button" tabindex="0" data-expand="pods" aria-expanded="false""#), "{markup}");
        let all = Scene::build_with(&s, t, Timing::new(1.0, false), Layout::Wide, Lang::En, true).store;
        assert_eq!(all.pods.len(), pods);
        let toggle = all.pods_toggle.as_ref().expect("a button");
        assert_eq!((toggle.text.as_str(), toggle.expanded), ("Show fewer", true));
        assert!(all.pods_frame.bottom() > few.pods_frame.bottom());
        // A short list has no button.
        assert!(scene_at(Chapter::NodeFailure, "", 60, Layout::Wide).store.pods_toggle.is_none());
    }

    #[test]
    fn kubectl_status_columns() {
        // The STATUS text is kubectl's (render::kubectl_printer::get); the stage picks a shape for it.
        let status = |n: &Node| {
            let s = get::node_status(n);
            let health = node_health(&s);
            (s, health)
        };
        let mut node = Node::new("n");
        assert_eq!(status(&node), ("Unknown".into(), Health::Warn));
        node.status.conditions.push(crate::sim::objects::NodeCondition::new(
            "Ready",
            "Unknown",
            crate::sim::objects::Time(crate::sim::WallTime(0)),
            crate::sim::objects::Time(crate::sim::WallTime(0)),
            "NodeStatusUnknown",
            "Kubelet stopped posting node status.",
        ));
        assert_eq!(status(&node), ("NotReady".into(), Health::Down));
        node.spec.unschedulable = true;
        assert_eq!(status(&node), ("NotReady,SchedulingDisabled".into(), Health::Down));
        node.status.conditions[0].status = "True".into();
        assert_eq!(status(&node), ("Ready,SchedulingDisabled".into(), Health::Ok));
    }
}
