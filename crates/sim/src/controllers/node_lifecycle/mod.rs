//! kube-controller-manager's node lifecycle controller
//! (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`), plus the two small controllers
//! that also act on every new Node: node IPAM (`spec.podCIDR`) and TTL (an annotation).
//!
//! * Every 5 s `monitorNodeHealth` checks each Node's Ready heartbeat and Lease `renewTime`;
//!   after the grace period it writes Unknown conditions (`NodeStatusUnknown`), records
//!   `NodeNotReady` and marks the node's Pods not Ready.
//! * On every Node change `doNoScheduleTaintingPass` keeps the NoSchedule taints in line with the
//!   conditions (`not-ready`, `unreachable`, ...), stamped with `timeAdded`.
//! * NoExecute taints are queued per zone and applied by a rate-limited 100 ms loop, with the Ready
//!   condition observed *before* the pass's own Unknown write, so they land one pass later.
//! * Zone states: with no Ready node anywhere, master disruption mode removes NoExecute taints
//!   and evicts nothing.
//!
//! Its inputs: [`NodeLifecycle::on_timer`] (the monitor pass, the tainting loop) and
//! [`NodeLifecycle::on_node_change`] (a Node was added or changed).
//!
//! Its files: this one holds the controller's memory and its inputs; `client.rs` its client's
//! rate limit (its requests and Events waiting for kube-controller-manager's 20 requests a
//! second); `monitor.rs` the monitor pass (`monitorNodeHealth`, `tryUpdateNodeHealth`,
//! `MarkPodsNotReady`), which waits for the client between Nodes; `taints.rs` the NoSchedule and
//! NoExecute tainting passes; `zones.rs` zone states, tainting rates and the per-zone token
//! buckets (`handleDisruption`, `ComputeZoneState`, `RateLimitedTimedQueue`).

mod client;
mod monitor;
mod taints;
#[cfg(test)]
mod tests;
mod zones;

pub use taints::carries_no_execute;
use zones::{TaintQueue, ZoneCount};
pub use zones::{ZoneState, compute_zone_state, zone_qps};

use crate::shared::Shared;
use crate::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::{ApiOp, TAINT_NOT_READY, TAINT_UNREACHABLE};
use crate::ctx::{Ctx, Reply};
use crate::events::{Recorder, Source, controller_node_ref, pod_ref};
use crate::objects::{MicroTime, Node, NodeCondition, Object, Pod, Taint, Time, set_pod_condition};
use crate::record::{Actor, Severity};
use crate::time::{SimTime, millis};

// The controller's flags (`--node-monitor-period`, `--node-monitor-grace-period`,
// `--node-startup-grace-period`, `--node-eviction-rate`, `--secondary-node-eviction-rate`,
// `--unhealthy-zone-threshold`, `--large-cluster-size-threshold`) are read from `ctx.settings`.

/// `NodeEvictionPeriod`: how often the NoExecute tainting loop runs.
const NODE_EVICTION_PERIOD: Duration = millis(100);
/// `scheduler.EvictionRateLimiterBurst`: each zone's tainting bucket holds one token.
const EVICTION_BURST: u32 = 1;

/// What the controller remembers about one Node (`nodeHealthData`).
#[derive(Clone, Copy, Debug)]
struct Health {
    probe: SimTime,
    ready_transition: SimTime,
    /// The Ready condition's heartbeat and transition times as last observed.
    saved_ready: Option<(Time, Time)>,
    /// The Lease `renewTime` as last observed.
    saved_lease: Option<MicroTime>,
}

/// The controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeLifecycleTimer {
    /// The monitor pass (every 5 s).
    Monitor,
    /// The NoExecute tainting loop (every 100 ms while work waits).
    NoExecuteTainting,
    /// The client has a token again for what waits for one.
    Client,
}

/// The controller's memory.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeLifecycle {
    recorder: Recorder,
    /// What the controller keeps about each Node, by name: the store's order, so a monitor pass
    /// pairs each Node with its entry by walking both lists together (no lookup by name).
    /// (Keys and uids shared, not copied, when a checkpoint copies the map.)
    nodes: VecMap<Arc<str>, Tracked>,
    zone_states: VecMap<Zone, ZoneState>,
    tainters: VecMap<Zone, TaintQueue>,
    /// When the tainting loop runs next, if work waits for it.
    tainting_at: Option<SimTime>,
    /// The controller's client (its Events go through it too) and what waits for its tokens.
    client: client::Client,
    /// The monitor pass in progress while it waits for the client.
    pass: Option<monitor::Pass>,
    /// Whether the last pass found every zone fully disrupted.
    all_disrupted: bool,
    /// The store's membership (`ApiServer::membership`) when the last pass paired the entries
    /// with the store's Nodes, and each Node's place among the stored Leases then: while it is
    /// the same, the `i`th entry is the `i`th Node's and no walk by name is needed.
    paired: Option<(u64, Shared<Vec<Option<u32>>>)>,
}

/// What the controller keeps about one Node.
#[derive(Clone, Debug, Default)]
struct Tracked {
    /// Whether a monitor pass has seen it (`knownNodeSet`).
    known: bool,
    /// Its uid when a pass first saw it (for `RemovingNode`).
    uid: Arc<str>,
    /// `nodeHealthData`, once a pass has looked at it.
    health: Option<Health>,
    /// Its zone key, refreshed whenever the Node changes.
    zone: Option<Zone>,
    /// Whether it carries `node.kubernetes.io/exclude-disruption`, refreshed with the zone.
    excluded: Option<bool>,
}

/// A zone key, shared by every Node in the zone.
type Zone = Arc<str>;

/// The zone key of a Node (`nodetopology.GetZoneKey`): region and zone labels, or empty. The
/// deprecated `failure-domain.beta.kubernetes.io/` labels win over the GA ones when both are set.
fn compute_zone(node: &Node) -> Zone {
    let (region, zone) = zone_labels(node);
    if region.is_empty() && zone.is_empty() {
        return Zone::from("");
    }
    let mut key = String::with_capacity(region.len() + 3 + zone.len());
    key.push_str(region);
    key.push_str(":\x00:");
    key.push_str(zone);
    Zone::from(key)
}

/// Whether `key` is the zone key of a Node with these region and zone labels (no key is built).
fn is_zone_key(key: &str, (region, zone): (&str, &str)) -> bool {
    if region.is_empty() && zone.is_empty() {
        return key.is_empty();
    }
    key.len() == region.len() + 3 + zone.len()
        && key.starts_with(region)
        && key[region.len()..].starts_with(":\x00:")
        && key.ends_with(zone)
}

/// The region and zone labels [`compute_zone`] keys a Node by.
fn zone_labels(node: &Node) -> (&str, &str) {
    const PREFIX: &str = "topology.kubernetes.io/";
    const BETA_REGION: &str = "failure-domain.beta.kubernetes.io/region";
    const BETA_ZONE: &str = "failure-domain.beta.kubernetes.io/zone";
    let l = &node.metadata.labels;
    let get = |k: &str| l.get(k).map(String::as_str);
    if get(BETA_REGION).is_some() || get(BETA_ZONE).is_some() {
        let region = get(BETA_REGION).or(get("topology.kubernetes.io/region")).unwrap_or("");
        let zone = get(BETA_ZONE).or(get("topology.kubernetes.io/zone")).unwrap_or("");
        return (region, zone);
    }
    let mut region = "";
    let mut zone = "";
    for (k, v) in l.range::<str, _>((std::ops::Bound::Included(PREFIX), std::ops::Bound::Unbounded)) {
        match k.strip_prefix(PREFIX) {
            Some("region") => region = v,
            Some("zone") => zone = v,
            Some(_) => {}
            None => break,
        }
    }
    (region, zone)
}

impl NodeLifecycle {
    /// The first monitor pass: the loop runs every 5 s from kube-controller-manager's start, at a
    /// seeded phase.
    pub(crate) fn start(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        self.client.bucket = crate::flowcontrol::TokenBucket::client(ctx.settings.controller_manager_client);
        let last = ctx.settings.node_monitor_period.saturating_sub(millis(1));
        let phase = ctx.rng.between(millis(0), last);
        ctx.at(SimTime::ZERO + phase, NodeLifecycleTimer::Monitor);
    }

    /// Input: one of the controller's timers fired.
    pub(crate) fn on_timer(&mut self, timer: NodeLifecycleTimer, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        match timer {
            // (`wait.UntilWithContext`: the next pass starts a period after this one ends.)
            NodeLifecycleTimer::Monitor => {
                if self.monitor_node_health(ctx) {
                    ctx.after(ctx.settings.node_monitor_period, NodeLifecycleTimer::Monitor);
                }
            }
            NodeLifecycleTimer::NoExecuteTainting => {
                if self.tainting_at == Some(ctx.now) {
                    self.tainting_at = None;
                    self.no_execute_tainting_pass(ctx);
                }
            }
            NodeLifecycleTimer::Client => self.on_client_ready(ctx),
        }
        self.note_backlog(ctx);
    }

    /// Input: a Node was added or changed: its zone, and its NoSchedule taints.
    pub(crate) fn on_node_change(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if let Some(node) = ctx.store().node(name) {
            let excluded = Some(is_excluded(node));
            match self.nodes.position(name) {
                Ok(i) => {
                    let tracked = self.nodes.value_at_mut(i);
                    // Most changes are status updates: the key is built only when the labels moved.
                    if tracked.zone.as_ref().is_none_or(|z| !is_zone_key(z, zone_labels(node))) {
                        tracked.zone = Some(compute_zone(node));
                    }
                    tracked.excluded = excluded;
                }
                Err(i) => {
                    let zone = Some(compute_zone(node));
                    self.nodes.insert_at(i, name.into(), Tracked { zone, excluded, ..Tracked::default() })
                }
            }
        }
        self.queue_no_schedule_pass(name, ctx);
        self.note_backlog(ctx);
    }

    /// A Node's zone key, from the cache kept up to date on every Node change.
    fn zone_of(&self, node: &Node) -> Zone {
        match self.nodes.get(node.metadata.name.as_str()).and_then(|t| t.zone.as_ref()) {
            Some(z) => z.clone(),
            None => compute_zone(node),
        }
    }

    /// The zone key of the Node whose entry is at `slot`.
    fn zone_at(&self, slot: usize, node: &Node) -> Zone {
        match &self.nodes.entry_at(slot).1.zone {
            Some(z) => z.clone(),
            None => compute_zone(node),
        }
    }

    /// Pairs every stored Node (in name order) with its entry, adding entries for Nodes not
    /// tracked yet: `slots[i]` is the entry of the `i`th Node. Both lists are in name order, so
    /// this is one walk with one comparison a Node; none while the store's membership is the one
    /// the last pass paired at (its entries are then exactly the stored Nodes).
    fn pair_with_store(&mut self, ctx: &Ctx<'_, NodeLifecycleTimer>) -> Vec<usize> {
        let store = ctx.store();
        if self.paired.as_ref().is_some_and(|(m, _)| *m == store.membership) {
            return (0..store.nodes.len()).collect();
        }
        let nodes = &store.nodes;
        let mut slots = Vec::with_capacity(nodes.len());
        let mut j = 0;
        for name in nodes.keys() {
            while j < self.nodes.len() && &**self.nodes.entry_at(j).0 < name.as_str() {
                j += 1;
            }
            if j == self.nodes.len() || &**self.nodes.entry_at(j).0 != name.as_str() {
                self.nodes.insert_at(j, name.as_str().into(), Tracked::default());
            }
            slots.push(j);
            j += 1;
        }
        slots
    }

    /// Notes that the entries are now exactly the stored Nodes (after a pass forgot the deleted
    /// ones), with each Node's place among the stored Leases (a Lease has its Node's name).
    fn paired_now(&mut self, ctx: &Ctx<'_, NodeLifecycleTimer>) {
        let store = ctx.store();
        if self.paired.as_ref().is_some_and(|(m, _)| *m == store.membership) {
            return;
        }
        let mut leases = store.leases.keys().enumerate().peekable();
        let places = store
            .nodes
            .keys()
            .map(|name| {
                while leases.next_if(|(_, l)| l.as_str() < name.as_str()).is_some() {}
                leases.next_if(|(_, l)| *l == name).map(|(j, _)| j as u32)
            })
            .collect();
        self.paired = Some((store.membership, Shared::new(places)));
    }

    /// Each stored Node's Lease `renewTime`, read by the places [`NodeLifecycle::paired_now`]
    /// noted.
    fn renew_times(&mut self, ctx: &Ctx<'_, NodeLifecycleTimer>) -> Vec<Option<MicroTime>> {
        self.paired_now(ctx);
        let leases = &ctx.store().leases;
        let (_, places) = self.paired.as_ref().expect("paired");
        places.iter().map(|j| j.and_then(|j| leases.entry_at(j as usize).1.renew_time)).collect()
    }

    /// Whether the Node whose entry is at `slot` is left out of its zone's counts.
    fn excluded_at(&self, slot: usize, node: &Node) -> bool {
        self.nodes.entry_at(slot).1.excluded.unwrap_or_else(|| is_excluded(node))
    }
}

/// Whether a Node carries `node.kubernetes.io/exclude-disruption` (left out of its zone's state).
fn is_excluded(node: &Node) -> bool {
    node.metadata.labels.contains_key("node.kubernetes.io/exclude-disruption")
}

/// A condition status as a static string.
fn status_str(s: &str) -> &'static str {
    match s {
        "True" => "True",
        "False" => "False",
        _ => "Unknown",
    }
}

const ACTOR: Actor = Actor::NodeLifecycleController;

/// A zone key as klog's text format quotes it: the `\x00` separator escaped.
fn klog_escape(zone: &str) -> String {
    zone.replace('\0', "\\x00")
}
