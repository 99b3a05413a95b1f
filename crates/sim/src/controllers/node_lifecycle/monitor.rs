//! The monitor pass (`monitorNodeHealth` every `--node-monitor-period`): each Node's Ready
//! heartbeat and Lease against the grace period, Unknown conditions, `NodeNotReady`, and the
//! node's Pods marked not Ready.

use super::*;
use crate::strings::cat;

impl NodeLifecycle {
    /// `monitorNodeHealth`, every 5 s.
    ///
    /// No Node is added or removed during a pass (only this controller runs), so the `i`th Node
    /// of the store stays the `i`th, and is read again by position after each write to it.
    pub(super) fn monitor_node_health(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let slots = self.pair_with_store(ctx);
        let node_at = |ctx: &Ctx<'_, NodeLifecycleTimer>, i: usize| ctx.store().nodes.entry_at(i).1.clone();
        // Newly seen nodes: RegisteredNode, a zone limiter, reachable.
        for (i, &slot) in slots.iter().enumerate() {
            if !self.nodes.entry_at(slot).1.known {
                let node = node_at(ctx, i);
                let name = &node.metadata.name;
                self.nodes.value_at_mut(slot).known = true;
                self.nodes.value_at_mut(slot).uid = node.metadata.uid.as_str().into();
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
                    self.tainters.insert(zone.clone(), TaintQueue::new(Limiter::new(EVICTION_QPS, now)));
                }
                self.mark_node_as_reachable(name, ctx);
            }
        }
        // Forgetting a Node moves the entries after it: pair again.
        let slots = if self.forget_deleted_nodes(ctx) { self.pair_with_store(ctx) } else { slots };
        // Leases are not written during a pass: their renewTimes are read once.
        let renewed = self.renew_times(ctx);
        // Each zone's counts, found by a short scan (a fleet has a few zones; the entries of one
        // zone usually share its name's allocation).
        let mut zone_conditions: Vec<(Zone, ZoneCount)> = Vec::new();
        // Whether any node waits in a tainting queue. A node joins one only while it is itself
        // processed, so a Ready node found in none now is in none when its turn comes: for it
        // (and without a NoExecute taint) the taint-based eviction step does nothing.
        let any_queued = self.tainters.values().any(|q| !q.is_empty());
        for (i, &slot) in slots.iter().enumerate() {
            let node = node_at(ctx, i);
            let name = &node.metadata.name;
            let (observed, current) = self.try_update_node_health(slot, &node, renewed[i], ctx);
            let zone = self.zone_at(slot, &node);
            if !self.excluded_at(slot, &node) {
                let place = match zone_conditions.iter().position(|(z, _)| Arc::ptr_eq(z, &zone) || *z == zone) {
                    Some(place) => place,
                    None => {
                        zone_conditions.push((zone.clone(), ZoneCount::default()));
                        zone_conditions.len() - 1
                    }
                };
                let count = &mut zone_conditions[place].1;
                if current == Some("True") {
                    count.ready += 1;
                } else {
                    count.not_ready += 1;
                }
            }
            let Some(current) = current else { continue };
            // The pass's own write (if any) is read back.
            let node = node_at(ctx, i);
            let untouched = observed == "True"
                && !any_queued
                && !node.has_taint(TAINT_UNREACHABLE, "NoExecute")
                && !node.has_taint(TAINT_NOT_READY, "NoExecute");
            if !untouched {
                self.process_taint_based_eviction(&node, &zone, observed, ctx);
            }
            if current != "True" && observed == "True" {
                let uid = node.metadata.uid.clone();
                self.recorder.event(
                    ctx,
                    Source::Controller("node-controller"),
                    controller_node_ref(name, &uid),
                    "Normal",
                    "NodeNotReady",
                    cat!("Node ", name, " status is now: NodeNotReady"),
                );
                self.mark_pods_not_ready(name, ctx);
            }
        }
        self.handle_disruption(zone_conditions.into_iter().collect(), ctx);
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
    pub(super) fn try_update_node_health(
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

    /// `MarkPodsNotReady`: every Pod on the node gets Ready=False and a `NodeNotReady` event.
    pub(super) fn mark_pods_not_ready(&mut self, node: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
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
}
