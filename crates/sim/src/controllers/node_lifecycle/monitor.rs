//! The monitor pass (`monitorNodeHealth` every `--node-monitor-period`): each Node's Ready
//! heartbeat and Lease against the grace period, Unknown conditions, `NodeNotReady`, and the
//! node's Pods marked not Ready.

use super::*;
use crate::flowcontrol::TokenBucket;
use crate::objects::Text;
use crate::strings::cat;

/// A monitor pass that waits for the controller's client: the Nodes it listed still to check,
/// by name, and what it has counted so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pass {
    rest: Vec<Text>,
    next: usize,
    /// The Node whose Pods are still to be marked not Ready, before `rest[next]`.
    pods_of: Option<Text>,
    counts: Counts,
    /// The requests the Nodes still to check were expected to make when the pass stopped, and
    /// those sent since (what the backlog shows).
    pub(super) expected: u32,
    pub(super) sent: u32,
}

/// What a pass gathers: each zone's counts (found by a short scan: a fleet has a few zones, and
/// the entries of one zone usually share its name's allocation), and whether any node waited in
/// a tainting queue when it started.
#[derive(Clone, Debug, Default)]
struct Counts {
    zones: Vec<(Zone, ZoneCount)>,
    any_queued: bool,
}

impl Counts {
    fn add(&mut self, zone: Zone, ready: bool) {
        let place = match self.zones.iter().position(|(z, _)| Arc::ptr_eq(z, &zone) || *z == zone) {
            Some(place) => place,
            None => {
                self.zones.push((zone, ZoneCount::default()));
                self.zones.len() - 1
            }
        };
        let count = &mut self.zones[place].1;
        if ready {
            count.ready += 1;
        } else {
            count.not_ready += 1;
        }
    }
}

/// Where a Node's check stopped, the client having no token: before its first request (it is
/// checked again), or among its Pods' status writes (the rest of its Pods are marked first).
pub(super) enum Wait {
    Before,
    InPods,
}

impl NodeLifecycle {
    /// `monitorNodeHealth`, every 5 s. Returns whether the pass is over (else it goes on when the
    /// client has tokens: [`NodeLifecycle::resume_pass`]).
    ///
    /// While the pass runs through at once no Node is added or removed (only this controller
    /// runs), so the `i`th Node of the store stays the `i`th, and is read again by position after
    /// each write to it.
    pub(super) fn monitor_node_health(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let slots = self.pair_with_store(ctx);
        let node_at = |ctx: &Ctx<'_, NodeLifecycleTimer>, i: usize| ctx.store().nodes.entry_at(i).1.clone();
        // A tainting queue for each zone seen for the first time (`addPodEvictorForNewZone`).
        for (i, &slot) in slots.iter().enumerate() {
            if !self.nodes.entry_at(slot).1.known {
                let zone = self.zone_at(slot, &node_at(ctx, i));
                if !self.zone_states.contains_key(&zone) {
                    self.zone_states.insert(zone.clone(), ZoneState::Initial);
                    let now = ctx.now;
                    let bucket = TokenBucket::new(ctx.settings.node_eviction_rate, EVICTION_BURST, now);
                    self.tainters.insert(zone.clone(), TaintQueue::new(bucket));
                    ctx.log_line(
                        ACTOR,
                        cat!("\"Initializing eviction metric for zone\" zone=\"", &klog_escape(&zone), "\""),
                    );
                }
            }
        }
        // Newly seen nodes: RegisteredNode, reachable.
        for (i, &slot) in slots.iter().enumerate() {
            if !self.nodes.entry_at(slot).1.known {
                let node = node_at(ctx, i);
                let name = &node.metadata.name;
                self.nodes.value_at_mut(slot).known = true;
                self.nodes.value_at_mut(slot).uid = node.metadata.uid.as_str().into();
                self.emit(
                    controller_node_ref(name, &node.metadata.uid),
                    "Normal",
                    "RegisteredNode",
                    format!("Node {name} event: Registered Node {name} in Controller"),
                    ctx,
                );
                self.mark_node_as_reachable(name, ctx);
            }
        }
        // Forgetting a Node moves the entries after it: pair again.
        let slots = if self.forget_deleted_nodes(ctx) { self.pair_with_store(ctx) } else { slots };
        // Leases are not written during a pass: their renewTimes are read once.
        let renewed = self.renew_times(ctx);
        let mut counts = Counts { zones: Vec::new(), any_queued: self.tainters.values().any(|q| !q.is_empty()) };
        for (i, &slot) in slots.iter().enumerate() {
            let node = node_at(ctx, i);
            if let Err(wait) = self.check_node(slot, &node, renewed[i], &mut counts, ctx) {
                // The rest of the pass waits for the client.
                let (skip, pods_of) = match wait {
                    Wait::Before => (i, None),
                    Wait::InPods => (i + 1, Some(node.metadata.name.clone())),
                };
                let rest: Vec<Text> = ctx.store().nodes.keys().skip(skip).cloned().collect();
                let expected =
                    self.expected_requests(&rest, ctx) + pods_of.as_ref().map_or(0, |n| Self::ready_pods(n, ctx));
                self.pass = Some(Pass { rest, next: 0, pods_of, counts, expected, sent: 0 });
                self.wait_for_client(ctx);
                return false;
            }
        }
        self.handle_disruption(counts.zones.into_iter().collect(), ctx);
        true
    }

    /// Goes on with the pass that waits for the client, Node by Node, until a Node has sent its
    /// requests, a Node's request finds no token, or the pass is over. Returns whether anything was
    /// done.
    pub(super) fn resume_pass(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let Some(mut pass) = self.pass.take() else { return false };
        let start = (pass.next, pass.sent);
        if let Some(name) = pass.pods_of.take() {
            let before = self.client.sent;
            let marked = self.mark_pods_not_ready(&name, ctx);
            pass.sent += (self.client.sent - before) as u32;
            if marked.is_err() {
                pass.pods_of = Some(name);
                let progressed = pass.sent > start.1;
                self.pass = Some(pass);
                return progressed;
            }
        }
        while pass.next < pass.rest.len() {
            let name = pass.rest[pass.next].clone();
            let Some(node) = ctx.store().node(&name).cloned() else {
                pass.next += 1;
                continue;
            };
            let slot = match self.nodes.position(name.as_str()) {
                Ok(slot) => slot,
                Err(slot) => {
                    self.nodes.insert_at(slot, name.as_str().into(), Tracked::default());
                    slot
                }
            };
            let renewed = ctx.store().leases.get(name.as_str()).and_then(|l| l.renew_time);
            let before = self.client.sent;
            let checked = self.check_node(slot, &node, renewed, &mut pass.counts, ctx);
            pass.sent += (self.client.sent - before) as u32;
            match checked {
                // One Node that sent something is this turn's work (what else waits takes the next).
                Ok(()) if self.client.sent > before => {
                    pass.next += 1;
                    if pass.next < pass.rest.len() {
                        self.pass = Some(pass);
                        return true;
                    }
                }
                Ok(()) => pass.next += 1,
                Err(wait) => {
                    if let Wait::InPods = wait {
                        pass.pods_of = Some(name);
                        pass.next += 1;
                    }
                    let progressed = (pass.next, pass.sent) != start;
                    self.pass = Some(pass);
                    return progressed;
                }
            }
        }
        self.handle_disruption(pass.counts.zones.into_iter().collect(), ctx);
        ctx.after(ctx.settings.node_monitor_period, NodeLifecycleTimer::Monitor);
        true
    }

    /// The requests the Nodes `rest` are expected to make in this pass: for each whose kubelet
    /// has been silent past the grace period and whose Ready is not `Unknown` yet, its status and
    /// one for each of its Pods still Ready.
    fn expected_requests(&self, rest: &[Text], ctx: &Ctx<'_, NodeLifecycleTimer>) -> u32 {
        let store = ctx.store();
        let grace = ctx.settings.node_monitor_grace_period;
        let stale = ctx.wall_at(ctx.now.saturating_sub(grace));
        let mut expected = 0;
        for name in rest {
            let Some(node) = store.node(name) else { continue };
            if node.ready_status().is_none_or(|s| s == "Unknown") {
                continue;
            }
            let renewed = store.leases.get(name.as_str()).and_then(|l| l.renew_time);
            if renewed.is_some_and(|r| r.0 >= stale) {
                continue;
            }
            expected += 1 + Self::ready_pods(name, ctx);
        }
        expected
    }

    /// How many of `node`'s Pods are Ready (each a status write when the node stops being Ready).
    fn ready_pods(node: &str, ctx: &Ctx<'_, NodeLifecycleTimer>) -> u32 {
        let ready = ctx.store().pods_on(node).filter(|p| p.condition("Ready").is_some_and(|c| c.status == "True"));
        ready.count() as u32
    }

    /// One Node of the pass (`updateNodeFunc`): its health, its zone's counts, its taints, and its
    /// Pods when it has just stopped being Ready. Nothing is done when its first request finds no
    /// token: it is checked again when one comes.
    fn check_node(
        &mut self,
        slot: usize,
        node: &Arc<Node>,
        renewed: Option<MicroTime>,
        counts: &mut Counts,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) -> Result<(), Wait> {
        let name = &node.metadata.name;
        let written = self.client.sent;
        let (observed, current) = self.try_update_node_health(slot, node, renewed, ctx)?;
        let zone = self.zone_at(slot, node);
        let Some(current) = current else {
            if !self.excluded_at(slot, node) {
                counts.add(zone, false);
            }
            return Ok(());
        };
        // The pass's own write (if any) is read back.
        let node = ctx.store().node(name).cloned().unwrap_or_else(|| node.clone());
        let untouched = observed == "True"
            && !counts.any_queued
            && !node.has_taint(TAINT_UNREACHABLE, "NoExecute")
            && !node.has_taint(TAINT_NOT_READY, "NoExecute");
        if !untouched {
            // A Node whose first request would be a taint's waits for a token too.
            if self.client.sent == written && Self::taint_step_sends(&node, observed) && !self.client_ready(ctx.now) {
                return Err(Wait::Before);
            }
            self.process_taint_based_eviction(&node, &zone, observed, ctx);
        }
        if !self.excluded_at(slot, &node) {
            counts.add(zone, current == "True");
        }
        if current != "True" && observed == "True" {
            let uid = node.metadata.uid.clone();
            self.emit(
                controller_node_ref(name, &uid),
                "Normal",
                "NodeNotReady",
                cat!("Node ", name, " status is now: NodeNotReady"),
                ctx,
            );
            self.mark_pods_not_ready(name, ctx)?;
        }
        Ok(())
    }

    /// Known Nodes that are gone (`classifyNodes`' deleted): `RemovingNode`, and the controller
    /// forgets them (their health, their place in the NoExecute queue). Returns whether any was.
    ///
    /// Runs after the newly seen Nodes are known, so every stored Node has an entry: there is a
    /// gone one exactly when there are more entries than stored Nodes.
    pub(super) fn forget_deleted_nodes(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        if self.nodes.len() <= ctx.store().nodes.len() {
            return false;
        }
        let gone: Vec<(Arc<str>, Arc<str>)> = self
            .nodes
            .iter()
            .filter(|(name, _)| ctx.store().node(name).is_none())
            .map(|(n, t)| (n.clone(), t.uid.clone()))
            .collect();
        for (name, uid) in &gone {
            self.emit(
                controller_node_ref(name, uid),
                "Normal",
                "RemovingNode",
                format!("Node {name} event: Removing Node {name} from Controller"),
                ctx,
            );
            self.nodes.remove(name);
            for tainter in self.tainters.values_mut() {
                tainter.remove(name);
            }
        }
        !gone.is_empty()
    }

    /// `tryUpdateNodeHealth` for the Node whose entry is at `slot`, given its Lease's renewTime:
    /// returns the Ready status observed before this pass and the one after. If the status is to
    /// be written and the client has no token, nothing is kept: the Node is checked again.
    pub(super) fn try_update_node_health(
        &mut self,
        slot: usize,
        node: &Arc<Node>,
        lease_renewed: Option<MicroTime>,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) -> Result<(&'static str, Option<&'static str>), Wait> {
        let now = ctx.now;
        let name = &node.metadata.name;
        let current = node.condition("Ready");
        let stamps = current.map(|c| (c.last_heartbeat_time, c.last_transition_time));
        let (observed, grace) = match current {
            Some(c) => (status_str(&c.status), ctx.settings.node_monitor_grace_period),
            None => ("Unknown", ctx.settings.node_startup_grace_period),
        };
        let created = node
            .metadata
            .creation_timestamp
            .map(|t| SimTime::from_micros((t.0.0 - ctx.epoch.0).max(0) as u64))
            .unwrap_or(now);
        // `nodeHealth == nil` with a Ready condition: "Missing timestamp for Node".
        let mut missing = self.nodes.entry_at(slot).1.health.is_none() && current.is_some();
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
        // The status is written only when the Ready condition changes (below): while it is
        // Unknown already (a dark node, every pass), nothing is built.
        let ready_changes = current.is_none_or(|c| c.status != "Unknown");
        if now > health.probe + grace && ready_changes {
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
                    None => updated.status.conditions.push(NodeCondition::new(
                        ty,
                        "Unknown",
                        node.metadata.creation_timestamp.unwrap_or(stamp),
                        stamp,
                        "NodeStatusNeverUpdated",
                        "Kubelet never posted node status.",
                    )),
                }
            }
            if updated.condition("Ready") != current {
                if !self.client_ready(now) {
                    return Err(Wait::Before);
                }
                if std::mem::take(&mut missing) {
                    self.log_missing_timestamp(name, ctx);
                }
                match self.send(ApiOp::UpdateNodeStatus(updated), "", ctx) {
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
        if missing {
            self.log_missing_timestamp(name, ctx);
        }
        self.nodes.value_at_mut(slot).health = Some(health);
        Ok((observed, result_current))
    }

    /// The first sighting of a Node that has a Ready condition (`tryUpdateNodeHealth`, an Info
    /// line at any verbosity).
    fn log_missing_timestamp(&self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        ctx.log_line(ACTOR, cat!("\"Missing timestamp for Node. Assuming now as a timestamp\" node=\"", name, "\""));
    }

    /// `MarkPodsNotReady`: every Pod on the node gets Ready=False and a `NodeNotReady` event. Each
    /// write waits for a token: without one it stops (and goes on later, the Pods already marked
    /// passed over).
    pub(super) fn mark_pods_not_ready(
        &mut self,
        node: &str,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) -> Result<(), Wait> {
        let pods: Vec<Arc<Pod>> = ctx.store().pods_on(node).cloned().collect();
        let stamp = Time::at(ctx.wall());
        for pod in pods {
            if matches!(&*pod.status.phase, "Succeeded" | "Failed") {
                continue;
            }
            let Some(ready) = pod.condition("Ready") else { continue };
            if ready.status == "False" {
                continue;
            }
            let mut updated = Pod::clone(&pod);
            let (reason, message) = (ready.reason.clone(), ready.message.clone());
            set_pod_condition(&mut updated.status, "Ready", "False", reason.clone(), message.clone(), stamp);
            if !self.client_ready(ctx.now) {
                return Err(Wait::InPods);
            }
            if let Reply::Ok(Object::Pod(stored)) = self.send(ApiOp::UpdatePodStatus(updated), "", ctx) {
                // (Recorded after the update, "to make sure pod still exists".)
                self.emit(pod_ref(&stored, None), "Warning", "NodeNotReady", "Node is not ready".into(), ctx);
            }
        }
        Ok(())
    }
}
