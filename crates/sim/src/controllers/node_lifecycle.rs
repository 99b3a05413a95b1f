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

use crate::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::{ApiOp, TAINT_NOT_READY, TAINT_UNREACHABLE};
use crate::ctx::{Ctx, Reply};
use crate::events::{Recorder, Source, controller_node_ref, pod_ref};
use crate::objects::{MicroTime, Node, NodeCondition, Object, Pod, Taint, Time, set_pod_condition};
use crate::record::{Actor, Severity};
use crate::time::{SimTime, millis, secs};

/// `--node-monitor-period`.
pub const NODE_MONITOR_PERIOD: Duration = secs(5);
/// `--node-startup-grace-period`.
pub(crate) const NODE_STARTUP_GRACE_PERIOD: Duration = secs(60);
/// `NodeEvictionPeriod`: how often the NoExecute tainting loop runs.
const NODE_EVICTION_PERIOD: Duration = millis(100);
/// `--node-eviction-rate`.
const EVICTION_QPS: f64 = 0.1;
/// `--secondary-node-eviction-rate`.
const SECONDARY_EVICTION_QPS: f64 = 0.01;
/// `--unhealthy-zone-threshold`.
const UNHEALTHY_ZONE_THRESHOLD: f64 = 0.55;
/// `--large-cluster-size-threshold`.
const LARGE_CLUSTER_THRESHOLD: usize = 50;

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

/// A zone's health, as `ComputeZoneState` classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneState {
    Initial,
    Normal,
    PartialDisruption,
    FullDisruption,
}

impl ZoneState {
    /// The state's name as the controller logs it.
    pub fn as_str(self) -> &'static str {
        match self {
            ZoneState::Initial => "Initial",
            ZoneState::Normal => "Normal",
            ZoneState::PartialDisruption => "PartialDisruption",
            ZoneState::FullDisruption => "FullDisruption",
        }
    }
}

/// A token bucket (`flowcontrol.NewTokenBucketRateLimiter`), or the never-limiter at qps 0.
#[derive(Clone, Debug)]
struct Limiter {
    qps: f64,
    tokens: f64,
    at: SimTime,
}

impl Limiter {
    fn new(qps: f64, now: SimTime) -> Limiter {
        Limiter { qps, tokens: 1.0, at: now }
    }

    fn refill(&mut self, now: SimTime) {
        if self.qps > 0.0 {
            let dt = (now - self.at).as_secs_f64();
            self.tokens = (self.tokens + dt * self.qps).min(1.0);
        }
        self.at = now;
    }

    fn try_accept(&mut self, now: SimTime) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// When the next token will be there, if ever.
    fn next_token(&self) -> Option<SimTime> {
        (self.qps > 0.0).then(|| {
            let missing = (1.0 - self.tokens).max(0.0);
            self.at + Duration::from_secs_f64(missing / self.qps)
        })
    }
}

/// One zone's NoExecute tainting queue (`RateLimitedTimedQueue`).
#[derive(Clone, Debug)]
struct TaintQueue {
    queue: Vec<String>,
    set: VecMap<String, ()>,
    limiter: Limiter,
}

impl TaintQueue {
    fn add(&mut self, node: &str) -> bool {
        if self.set.add(node.to_string()) {
            self.queue.push(node.to_string());
            true
        } else {
            false
        }
    }

    fn remove(&mut self, node: &str) {
        self.set.remove(node);
        self.queue.retain(|n| n != node);
    }

    /// `SwapLimiter`: a fresh bucket, drained if the old one had no token.
    fn swap_limiter(&mut self, qps: f64, now: SimTime) {
        if (self.limiter.qps - qps).abs() < f64::EPSILON {
            return;
        }
        let mut fresh = Limiter::new(qps, now);
        if !self.limiter.try_accept(now) {
            fresh.tokens = 0.0;
        }
        self.limiter = fresh;
    }
}

/// The controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeLifecycleTimer {
    /// The monitor pass (every 5 s).
    Monitor,
    /// The NoExecute tainting loop (every 100 ms while work waits).
    NoExecuteTainting,
}

/// The controller's memory.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeLifecycle {
    recorder: Recorder,
    /// What the controller keeps about each Node, by name: the store's order, so a monitor pass
    /// pairs each Node with its entry by walking both lists together (no lookup by name).
    nodes: VecMap<String, Tracked>,
    zone_states: VecMap<Zone, ZoneState>,
    tainters: VecMap<Zone, TaintQueue>,
    tainting_scheduled: bool,
    /// Whether the last pass found every zone fully disrupted.
    all_disrupted: bool,
}

/// What the controller keeps about one Node.
#[derive(Clone, Debug, Default)]
struct Tracked {
    /// Whether a monitor pass has seen it (`knownNodeSet`).
    known: bool,
    /// Its uid when a pass first saw it (for `RemovingNode`).
    uid: String,
    /// `nodeHealthData`, once a pass has looked at it.
    health: Option<Health>,
    /// Its zone key, refreshed whenever the Node changes.
    zone: Option<Zone>,
}

/// A zone key, shared by every Node in the zone.
type Zone = Arc<str>;

/// The zone key of a Node (`nodetopology.GetZoneKey`): region and zone labels, or empty. The
/// deprecated `failure-domain.beta.kubernetes.io/` labels win over the GA ones when both are set.
fn compute_zone(node: &Node) -> Zone {
    const PREFIX: &str = "topology.kubernetes.io/";
    const BETA: &str = "failure-domain.beta.kubernetes.io/";
    let l = &node.metadata.labels;
    let beta = |k: &str| l.get(&format!("{BETA}{k}")).map(String::as_str);
    if let (Some(_), _) | (_, Some(_)) = (beta("region"), beta("zone")) {
        let region = beta("region").or(l.get("topology.kubernetes.io/region").map(String::as_str)).unwrap_or("");
        let zone = beta("zone").or(l.get("topology.kubernetes.io/zone").map(String::as_str)).unwrap_or("");
        return Zone::from(format!("{region}:\x00:{zone}"));
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
    if region.is_empty() && zone.is_empty() { Zone::from("") } else { Zone::from(format!("{region}:\x00:{zone}")) }
}

impl NodeLifecycle {
    /// The first monitor pass: the loop runs every 5 s from kube-controller-manager's start, at a
    /// seeded phase.
    pub(crate) fn start(ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let phase = ctx.rng.between(millis(0), millis(4_999));
        ctx.at(SimTime::ZERO + phase, NodeLifecycleTimer::Monitor);
    }

    /// Input: one of the controller's timers fired.
    pub(crate) fn on_timer(&mut self, timer: NodeLifecycleTimer, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        match timer {
            NodeLifecycleTimer::Monitor => {
                self.monitor_node_health(ctx);
                ctx.after(NODE_MONITOR_PERIOD, NodeLifecycleTimer::Monitor);
            }
            NodeLifecycleTimer::NoExecuteTainting => self.no_execute_tainting_pass(ctx),
        }
    }

    /// Input: a Node was added or changed: its zone, and its NoSchedule taints.
    pub(crate) fn on_node_change(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if let Some(node) = ctx.store().node(name) {
            let zone = compute_zone(node);
            match self.nodes.position(name) {
                Ok(i) => {
                    let tracked = self.nodes.value_at_mut(i);
                    if tracked.zone.as_ref() != Some(&zone) {
                        tracked.zone = Some(zone);
                    }
                }
                Err(i) => self.nodes.insert_at(i, name.to_string(), Tracked { zone: Some(zone), ..Tracked::default() }),
            }
        }
        self.no_schedule_tainting_pass(name, ctx);
    }

    /// A Node's zone key, from the cache kept up to date on every Node change.
    fn zone_of(&self, node: &Node) -> Zone {
        match self.nodes.get(&node.metadata.name).and_then(|t| t.zone.as_ref()) {
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
    /// this is one walk with one comparison a Node.
    fn pair_with_store(&mut self, ctx: &Ctx<'_, NodeLifecycleTimer>) -> Vec<usize> {
        let nodes = &ctx.store().nodes;
        let mut slots = Vec::with_capacity(nodes.len());
        let mut j = 0;
        for name in nodes.keys() {
            while j < self.nodes.len() && self.nodes.entry_at(j).0 < name {
                j += 1;
            }
            if j == self.nodes.len() || self.nodes.entry_at(j).0 != name {
                self.nodes.insert_at(j, name.clone(), Tracked::default());
            }
            slots.push(j);
            j += 1;
        }
        slots
    }

    /// Each stored Node's Lease `renewTime` (a Lease has its Node's name), by the same walk.
    fn renew_times(ctx: &Ctx<'_, NodeLifecycleTimer>) -> Vec<Option<MicroTime>> {
        let store = ctx.store();
        let mut leases = store.leases.iter().peekable();
        store
            .nodes
            .keys()
            .map(|name| {
                while leases.next_if(|(l, _)| l.as_str() < name.as_str()).is_some() {}
                leases.next_if(|(l, _)| *l == name).and_then(|(_, lease)| lease.renew_time)
            })
            .collect()
    }
}

/// A condition status as a static string.
fn status_str(s: &str) -> &'static str {
    match s {
        "True" => "True",
        "False" => "False",
        _ => "Unknown",
    }
}

/// How many nodes of a zone are Ready and not.
#[derive(Clone, Copy, Debug, Default)]
struct ZoneCount {
    ready: usize,
    not_ready: usize,
}

impl ZoneCount {
    fn total(self) -> usize {
        self.ready + self.not_ready
    }
}

/// Whether a Node carries one of this controller's `NoExecute` taints (`unreachable` or
/// `not-ready`): the taints that send its Pods away.
pub fn carries_no_execute(node: &Node) -> bool {
    node.has_taint(TAINT_UNREACHABLE, "NoExecute") || node.has_taint(TAINT_NOT_READY, "NoExecute")
}

/// `setLimiterInZone`: the tainting rate of a zone of `size` nodes in `state` (`HealthyQPSFunc`,
/// `ReducedQPSFunc`; master disruption mode sets 0 on its own).
pub fn zone_qps(state: ZoneState, size: usize) -> f64 {
    match state {
        ZoneState::Normal | ZoneState::FullDisruption | ZoneState::Initial => EVICTION_QPS,
        ZoneState::PartialDisruption if size > LARGE_CLUSTER_THRESHOLD => SECONDARY_EVICTION_QPS,
        ZoneState::PartialDisruption => 0.0,
    }
}

/// `ComputeZoneState`.
pub fn compute_zone_state(ready: usize, not_ready: usize) -> ZoneState {
    if not_ready > 0 && ready == 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2 && not_ready as f64 / (ready + not_ready) as f64 >= UNHEALTHY_ZONE_THRESHOLD {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    }
}

const ACTOR: Actor = Actor::NodeLifecycleController;

/// A zone key as klog's text format quotes it: the `\x00` separator escaped.
fn klog_escape(zone: &str) -> String {
    zone.replace('\0', "\\x00")
}

impl NodeLifecycle {
    /// `monitorNodeHealth`, every 5 s.
    ///
    /// No Node is added or removed during a pass (only this controller runs), so the `i`th Node
    /// of the store stays the `i`th, and is read again by position after each write to it.
    fn monitor_node_health(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let slots = self.pair_with_store(ctx);
        // Leases are not written during a pass: their renewTimes are read once.
        let renewed = Self::renew_times(ctx);
        let node_at = |ctx: &Ctx<'_, NodeLifecycleTimer>, i: usize| ctx.store().nodes.entry_at(i).1.clone();
        // Newly seen nodes: RegisteredNode, a zone limiter, reachable.
        for (i, &slot) in slots.iter().enumerate() {
            if !self.nodes.entry_at(slot).1.known {
                let node = node_at(ctx, i);
                let name = &node.metadata.name;
                self.nodes.value_at_mut(slot).known = true;
                self.nodes.value_at_mut(slot).uid = node.metadata.uid.clone();
                self.recorder.event(
                    ctx,
                    Source::Controller("node-controller"),
                    controller_node_ref(name, &node.metadata.uid),
                    "Normal",
                    "RegisteredNode",
                    format!("Node {name} event: Registered Node {name} in Controller"),
                );
                let zone = self.zone_at(slot, &node);
                if !self.zone_states.contains_key(&zone) {
                    self.zone_states.insert(zone.clone(), ZoneState::Initial);
                    let now = ctx.now;
                    self.tainters.insert(
                        zone.clone(),
                        TaintQueue { queue: Vec::new(), set: VecMap::new(), limiter: Limiter::new(EVICTION_QPS, now) },
                    );
                }
                self.mark_node_as_reachable(name, ctx);
            }
        }
        // Forgetting a Node moves the entries after it: pair again.
        let slots = if self.forget_deleted_nodes(ctx) { self.pair_with_store(ctx) } else { slots };
        let mut zone_conditions: VecMap<Zone, ZoneCount> = VecMap::new();
        for (i, &slot) in slots.iter().enumerate() {
            let node = node_at(ctx, i);
            let name = &node.metadata.name;
            let (observed, current) = self.try_update_node_health(slot, &node, renewed[i], ctx);
            let zone = self.zone_at(slot, &node);
            if !node.metadata.labels.contains_key("node.kubernetes.io/exclude-disruption") {
                let count = zone_conditions.get_or_insert_with(zone.clone(), ZoneCount::default);
                if current == Some("True") {
                    count.ready += 1;
                } else {
                    count.not_ready += 1;
                }
            }
            let Some(current) = current else { continue };
            // The pass's own write (if any) is read back.
            let node = node_at(ctx, i);
            self.process_taint_based_eviction(&node, &zone, observed, ctx);
            if current != "True" && observed == "True" {
                let uid = node.metadata.uid.clone();
                self.recorder.event(
                    ctx,
                    Source::Controller("node-controller"),
                    controller_node_ref(name, &uid),
                    "Normal",
                    "NodeNotReady",
                    format!("Node {name} status is now: NodeNotReady"),
                );
                self.mark_pods_not_ready(name, ctx);
            }
        }
        self.handle_disruption(zone_conditions, ctx);
    }

    /// Known Nodes that are gone (`classifyNodes`' deleted): `RemovingNode`, and the controller
    /// forgets them (their health, their place in the NoExecute queue). Returns whether any was.
    ///
    /// Runs after the newly seen Nodes are known, so every stored Node has an entry: there is a
    /// gone one exactly when there are more entries than stored Nodes.
    fn forget_deleted_nodes(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        if self.nodes.len() <= ctx.store().nodes.len() {
            return false;
        }
        let gone: Vec<(String, String)> = self
            .nodes
            .iter()
            .filter(|(name, _)| ctx.store().node(name).is_none())
            .map(|(n, t)| (n.clone(), t.uid.clone()))
            .collect();
        for (name, uid) in &gone {
            self.recorder.event(
                ctx,
                Source::Controller("node-controller"),
                controller_node_ref(name, uid),
                "Normal",
                "RemovingNode",
                format!("Node {name} event: Removing Node {name} from Controller"),
            );
            self.nodes.remove(name);
            for tainter in self.tainters.values_mut() {
                tainter.remove(name);
            }
        }
        !gone.is_empty()
    }

    /// `tryUpdateNodeHealth` for the Node whose entry is at `slot`, given its Lease's renewTime:
    /// returns the Ready status observed before this pass and the one after.
    fn try_update_node_health(
        &mut self,
        slot: usize,
        node: &Arc<Node>,
        lease_renewed: Option<MicroTime>,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) -> (&'static str, Option<&'static str>) {
        let now = ctx.now;
        let name = &node.metadata.name;
        let current = node.condition("Ready");
        let stamps = current.map(|c| (c.last_heartbeat_time, c.last_transition_time));
        let (observed, grace) = match current {
            Some(c) => (status_str(&c.status), ctx.profile.node_monitor_grace_period()),
            None => ("Unknown", NODE_STARTUP_GRACE_PERIOD),
        };
        let created = node
            .metadata
            .creation_timestamp
            .map(|t| SimTime::from_micros((t.0.0 - ctx.epoch.0).max(0) as u64))
            .unwrap_or(now);
        let mut health = match self.nodes.entry_at(slot).1.health {
            None => Health {
                probe: if current.is_none() { created } else { now },
                ready_transition: if current.is_none() { created } else { now },
                saved_ready: stamps,
                saved_lease: None,
            },
            Some(mut h) => {
                match (h.saved_ready, stamps) {
                    (None, Some(c)) => {
                        h.probe = now;
                        h.ready_transition = now;
                        h.saved_ready = Some(c);
                    }
                    (Some(_), None) => h.saved_ready = None,
                    (Some(saved), Some(c)) if saved.0 != c.0 => {
                        if saved.1 != c.1 {
                            h.ready_transition = now;
                        }
                        h.probe = now;
                        h.saved_ready = Some(c);
                    }
                    _ => {}
                }
                h
            }
        };
        // A renewed Lease always counts as a heartbeat.
        if let Some(renew) = lease_renewed
            && health.saved_lease.is_none_or(|saved| saved < renew)
        {
            health.saved_lease = Some(renew);
            health.probe = now;
        }
        let mut result_current = current.map(|c| status_str(&c.status));
        if now > health.probe + grace {
            let mut updated = Node::clone(node);
            let stamp = Time::at(ctx.wall());
            for ty in ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"] {
                match updated.status.conditions.iter_mut().find(|c| c.type_ == ty) {
                    Some(c) => {
                        if c.status != "Unknown" {
                            c.status = "Unknown".into();
                            c.reason = "NodeStatusUnknown".into();
                            c.message = "Kubelet stopped posting node status.".into();
                            c.last_transition_time = stamp;
                        }
                    }
                    None => updated.status.conditions.push(NodeCondition {
                        type_: ty.into(),
                        status: "Unknown".into(),
                        last_heartbeat_time: node.metadata.creation_timestamp.unwrap_or(stamp),
                        last_transition_time: stamp,
                        reason: "NodeStatusNeverUpdated".into(),
                        message: "Kubelet never posted node status.".into(),
                    }),
                }
            }
            if updated.condition("Ready") != current {
                match ctx.call(ACTOR, None, ApiOp::UpdateNodeStatus(updated)) {
                    Reply::Ok(Object::Node(stored)) => {
                        health.saved_ready =
                            stored.condition("Ready").map(|c| (c.last_heartbeat_time, c.last_transition_time));
                        health.ready_transition = now;
                        result_current = Some("Unknown");
                    }
                    _ => {
                        ctx.log_line(ACTOR, format!("\"Error updating node\" node=\"{name}\""));
                    }
                }
            }
        }
        self.nodes.value_at_mut(slot).health = Some(health);
        (observed, result_current)
    }

    /// `processTaintBaseEviction` for `node` as stored now, with the Ready status observed before
    /// this pass's update.
    fn process_taint_based_eviction(
        &mut self,
        node: &Node,
        zone: &Zone,
        observed: &str,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) {
        let name = node.metadata.name.as_str();
        match observed {
            "False" => {
                if node.has_taint(TAINT_UNREACHABLE, "NoExecute") {
                    self.swap_no_execute(name, TAINT_NOT_READY, TAINT_UNREACHABLE, ctx);
                } else if let Some(q) = self.tainters.get_mut(zone) {
                    // `markNodeForTainting`: queued again (at the back) until it carries the taint.
                    if !node.has_taint(TAINT_NOT_READY, "NoExecute") {
                        q.remove(name);
                    }
                    if q.add(name) {
                        ctx.log_line(
                            ACTOR,
                            format!("\"Node is NotReady. Adding it to the Taint queue\" node=\"{name}\""),
                        );
                        self.schedule_tainting(ctx);
                    }
                }
            }
            "Unknown" => {
                if node.has_taint(TAINT_NOT_READY, "NoExecute") {
                    self.swap_no_execute(name, TAINT_UNREACHABLE, TAINT_NOT_READY, ctx);
                } else if let Some(q) = self.tainters.get_mut(zone) {
                    if !node.has_taint(TAINT_UNREACHABLE, "NoExecute") {
                        q.remove(name);
                    }
                    if q.add(name) {
                        ctx.log_line(
                            ACTOR,
                            format!("\"Node is unresponsive. Adding it to the Taint queue\" node=\"{name}\""),
                        );
                        self.schedule_tainting(ctx);
                    }
                }
            }
            "True" if self.mark_reachable(node, zone, ctx) => {
                ctx.log_line(ACTOR, format!("\"Node is healthy again, removed all taints\" node=\"{name}\""));
            }
            _ => {}
        }
    }

    /// Swaps one NoExecute taint for the other at once ("instantly swap").
    fn swap_no_execute(&mut self, name: &str, add: &str, remove: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let Some(node) = ctx.store().node(name).cloned() else { return };
        let stamp = Some(Time::at(ctx.wall()));
        let mut taints: Vec<Taint> = node.spec.taints.clone();
        taints.push(Taint::new(add, "NoExecute", stamp));
        self.patch_taints(name, taints.clone(), ctx);
        taints.retain(|t| !(t.key == remove && t.effect == "NoExecute"));
        self.patch_taints(name, taints, ctx);
    }

    /// `AddOrUpdateTaintOnNode` / `RemoveTaintOffNode`: read the Node (from the API server's
    /// watch cache, `resourceVersion=0`), then patch its taints.
    fn patch_taints(&mut self, name: &str, taints: Vec<Taint>, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        ctx.call_with(ACTOR, None, ApiOp::GetNode(name.to_string()), "resourceVersion=0");
        ctx.call(ACTOR, None, ApiOp::PatchNodeTaints { name: name.to_string(), taints });
    }

    /// `markNodeAsReachable`: removes both NoExecute taints and forgets the queued tainting.
    /// Returns whether a taint was removed.
    fn mark_node_as_reachable(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let Some(node) = ctx.store().node(name).cloned() else { return false };
        let zone = self.zone_of(&node);
        self.mark_reachable(&node, &zone, ctx)
    }

    /// [`NodeLifecycle::mark_node_as_reachable`] for `node` as stored now, in `zone`.
    fn mark_reachable(&mut self, node: &Node, zone: &Zone, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let name = node.metadata.name.as_str();
        let tainted = node.has_taint(TAINT_UNREACHABLE, "NoExecute") || node.has_taint(TAINT_NOT_READY, "NoExecute");
        if !tainted && self.tainters.get(zone).is_none_or(|q| !q.set.contains(name)) {
            return false;
        }
        let mut removed = false;
        for key in [TAINT_UNREACHABLE, TAINT_NOT_READY] {
            let Some(current) = ctx.store().node(name).cloned() else { break };
            if current.has_taint(key, "NoExecute") {
                let taints = current
                    .spec
                    .taints
                    .iter()
                    .filter(|t| !(t.key == key && t.effect == "NoExecute"))
                    .cloned()
                    .collect();
                self.patch_taints(name, taints, ctx);
                removed = true;
            }
        }
        if let Some(q) = self.tainters.get_mut(zone) {
            q.remove(name);
        }
        removed
    }

    fn schedule_tainting(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if !self.tainting_scheduled {
            self.tainting_scheduled = true;
            // The 100 ms loop runs on its own grid.
            let next = (ctx.now.as_micros() / 100_000 + 1) * 100_000;
            ctx.at(SimTime::from_micros(next), NodeLifecycleTimer::NoExecuteTainting);
        }
    }

    /// `doNoExecuteTaintingPass`: one rate-limited step for every zone's queue.
    fn no_execute_tainting_pass(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        self.tainting_scheduled = false;
        let now = ctx.now;
        let zones: Vec<Zone> = self.tainters.keys().cloned().collect();
        let mut wake: Option<SimTime> = None;
        for zone in zones {
            loop {
                let q = self.tainters.get_mut(&zone).expect("zone");
                let Some(head) = q.queue.first().cloned() else { break };
                if !q.limiter.try_accept(now) {
                    if let Some(t) = q.limiter.next_token() {
                        wake = Some(wake.map_or(t, |w: SimTime| w.min(t)));
                    }
                    break;
                }
                q.queue.remove(0);
                let Some(node) = ctx.store().node(&head).cloned() else { continue };
                let stamp = Some(Time::at(ctx.wall()));
                let (add, remove) = match node.ready_status() {
                    Some("False") => (TAINT_NOT_READY, TAINT_UNREACHABLE),
                    Some("Unknown") => (TAINT_UNREACHABLE, TAINT_NOT_READY),
                    _ => continue,
                };
                if !node.has_taint(add, "NoExecute") || node.has_taint(remove, "NoExecute") {
                    let mut taints: Vec<Taint> = node
                        .spec
                        .taints
                        .iter()
                        .filter(|t| !(t.key == remove && t.effect == "NoExecute"))
                        .cloned()
                        .collect();
                    if !node.has_taint(add, "NoExecute") {
                        taints.push(Taint::new(add, "NoExecute", stamp));
                    }
                    self.patch_taints(&head, taints, ctx);
                }
            }
        }
        if let Some(t) = wake {
            self.tainting_scheduled = true;
            let grid = t.as_micros().div_ceil(NODE_EVICTION_PERIOD.as_micros() as u64)
                * NODE_EVICTION_PERIOD.as_micros() as u64;
            ctx.at(SimTime::from_micros(grid), NodeLifecycleTimer::NoExecuteTainting);
        }
    }

    /// `handleDisruption`: zone states, master disruption mode, and the tainting rates.
    fn handle_disruption(&mut self, zone_conditions: VecMap<Zone, ZoneCount>, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let now = ctx.now;
        let new_states: Vec<(&Zone, ZoneState)> =
            zone_conditions.iter().map(|(z, c)| (z, compute_zone_state(c.ready, c.not_ready))).collect();
        let all_are = !new_states.is_empty() && new_states.iter().all(|(_, s)| *s == ZoneState::FullDisruption);
        for (zone, _) in &new_states {
            if !self.zone_states.contains_key(*zone) {
                ctx.log_line_at(
                    ACTOR,
                    Severity::Error,
                    format!("\"Setting initial state for unseen zone\" zone=\"{}\"", klog_escape(zone)),
                );
                self.zone_states.insert((*zone).clone(), ZoneState::Initial);
            }
        }
        if all_are == self.all_disrupted
            && new_states.iter().all(|(z, s)| self.zone_states.get(*z) == Some(s))
            && self.zone_states.len() == new_states.len()
        {
            return;
        }
        self.all_disrupted = all_are;
        let new_states: Vec<(Zone, ZoneState)> = new_states.into_iter().map(|(z, s)| (z.clone(), s)).collect();
        self.zone_states.retain(|z, _| zone_conditions.contains_key(z));
        let all_were = self.zone_states.values().all(|s| *s == ZoneState::FullDisruption);
        if !all_are || !all_were {
            if all_are {
                ctx.log_line(
                    ACTOR,
                    "\"Controller detected that all Nodes are not-Ready. Entering master disruption mode\"".into(),
                );
                let names: Vec<String> = ctx.store().nodes.keys().cloned().collect();
                for name in names {
                    self.mark_node_as_reachable(&name, ctx);
                }
                for q in self.tainters.values_mut() {
                    q.swap_limiter(0.0, now);
                }
                for s in self.zone_states.values_mut() {
                    *s = ZoneState::FullDisruption;
                }
                return;
            }
            if all_were {
                ctx.log_line(
                    ACTOR,
                    "\"Controller detected that some Nodes are Ready. Exiting master disruption mode\"".into(),
                );
                for h in self.nodes.values_mut().filter_map(|t| t.health.as_mut()) {
                    h.probe = now;
                    h.ready_transition = now;
                }
                for (zone, state) in &new_states {
                    let size = zone_conditions[zone].total();
                    self.set_limiter_in_zone(zone, size, *state, now);
                    self.zone_states.insert(zone.clone(), *state);
                }
                self.schedule_tainting(ctx);
                return;
            }
        }
        for (zone, state) in &new_states {
            if self.zone_states.get(zone) != Some(state) {
                let size = zone_conditions[zone].total();
                ctx.log_line(
                    ACTOR,
                    format!(
                        "\"Controller detected that zone is now in new state\" zone=\"{}\" newState=\"{}\"",
                        klog_escape(zone),
                        state.as_str()
                    ),
                );
                self.set_limiter_in_zone(zone, size, *state, now);
                self.zone_states.insert(zone.clone(), *state);
            }
        }
    }

    fn set_limiter_in_zone(&mut self, zone: &str, size: usize, state: ZoneState, now: SimTime) {
        let qps = zone_qps(state, size);
        if let Some(q) = self.tainters.get_mut(zone) {
            q.swap_limiter(qps, now);
        }
    }

    /// `MarkPodsNotReady`: every Pod on the node gets Ready=False and a `NodeNotReady` event.
    fn mark_pods_not_ready(&mut self, node: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let pods: Vec<Arc<Pod>> = ctx.store().pods_on(node).cloned().collect();
        let stamp = Time::at(ctx.wall());
        for pod in pods {
            if matches!(pod.status.phase.as_str(), "Succeeded" | "Failed") {
                continue;
            }
            let Some(ready) = pod.condition("Ready") else { continue };
            if ready.status == "False" {
                continue;
            }
            let mut updated = Pod::clone(&pod);
            let (reason, message) = (ready.reason.clone(), ready.message.clone());
            set_pod_condition(&mut updated.status, "Ready", "False", &reason, &message, stamp);
            if let Reply::Ok(Object::Pod(stored)) = ctx.call(ACTOR, None, ApiOp::UpdatePodStatus(updated)) {
                self.recorder.event(
                    ctx,
                    Source::Controller("node-controller"),
                    pod_ref(&stored, None),
                    "Warning",
                    "NodeNotReady",
                    "Node is not ready".into(),
                );
            }
        }
    }

    /// `doNoScheduleTaintingPass`.
    fn no_schedule_tainting_pass(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let Some(node) = ctx.store().node(name).cloned() else { return };
        let mut wanted: Vec<&str> = Vec::new();
        for c in &node.status.conditions {
            let key = match (&*c.type_, &*c.status) {
                ("Ready", "False") => TAINT_NOT_READY,
                ("Ready", "Unknown") => TAINT_UNREACHABLE,
                ("MemoryPressure", "True") => "node.kubernetes.io/memory-pressure",
                ("DiskPressure", "True") => "node.kubernetes.io/disk-pressure",
                ("PIDPressure", "True") => "node.kubernetes.io/pid-pressure",
                ("NetworkUnavailable", "True") => "node.kubernetes.io/network-unavailable",
                _ => continue,
            };
            wanted.push(key);
        }
        if node.spec.unschedulable {
            wanted.push("node.kubernetes.io/unschedulable");
        }
        const MANAGED: [&str; 7] = [
            TAINT_NOT_READY,
            TAINT_UNREACHABLE,
            "node.kubernetes.io/memory-pressure",
            "node.kubernetes.io/disk-pressure",
            "node.kubernetes.io/pid-pressure",
            "node.kubernetes.io/network-unavailable",
            "node.kubernetes.io/unschedulable",
        ];
        let existing: Vec<&Taint> =
            node.spec.taints.iter().filter(|t| t.effect == "NoSchedule" && MANAGED.contains(&t.key.as_str())).collect();
        let to_add: Vec<&str> = wanted.iter().copied().filter(|k| !existing.iter().any(|t| t.key == *k)).collect();
        let to_del: Vec<String> =
            existing.iter().filter(|t| !wanted.contains(&t.key.as_str())).map(|t| t.key.clone()).collect();
        if to_add.is_empty() && to_del.is_empty() {
            return;
        }
        let stamp = Some(Time::at(ctx.wall()));
        let mut taints = node.spec.taints.clone();
        if !to_add.is_empty() {
            for k in &to_add {
                taints.push(Taint::new(k, "NoSchedule", stamp));
            }
            self.patch_taints(name, taints.clone(), ctx);
        }
        if !to_del.is_empty() {
            taints.retain(|t| !(t.effect == "NoSchedule" && to_del.contains(&t.key)));
            self.patch_taints(name, taints, ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Probe, matches};
    use crate::time::WallTime;

    /// A Node whose kubelet last posted `Ready=True` at the start.
    fn ready_node(name: &str) -> Node {
        let mut node = Node::new(name);
        let start = Time::at(WallTime(0));
        node.status.conditions.push(NodeCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_heartbeat_time: start,
            last_transition_time: start,
            reason: "KubeletReady".into(),
            message: "kubelet is posting ready status".into(),
        });
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
                vec![
                    "event RegisteredNode: Node node-1 event: Registered Node node-1 in Controller",
                    "timer +5s Monitor",
                ],
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
        let probes = |nlc: &NodeLifecycle| -> Vec<SimTime> {
            nlc.nodes.values().map(|t| t.health.expect("seen").probe).collect()
        };
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
            assert_eq!(compute_zone_state(ready, not_ready), state, "{ready} ready, {not_ready} not");
        }
    }

    #[test]
    fn tainting_rates_follow_the_zone_size() {
        assert_eq!(zone_qps(ZoneState::Normal, 3), 0.1);
        assert_eq!(zone_qps(ZoneState::PartialDisruption, 50), 0.0);
        assert_eq!(zone_qps(ZoneState::PartialDisruption, 51), 0.01);
        assert_eq!(zone_qps(ZoneState::FullDisruption, 50), 0.1);
    }

    #[test]
    fn a_token_bucket_lets_the_first_node_through_at_once() {
        let mut l = Limiter::new(0.1, SimTime::ZERO);
        assert!(l.try_accept(SimTime::ZERO));
        assert!(!l.try_accept(SimTime::from_millis(9_900)));
        assert!(l.try_accept(SimTime::from_secs(10)));
        let mut never = Limiter::new(0.0, SimTime::ZERO);
        assert!(!never.try_accept(SimTime::from_secs(1000)));
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
}
