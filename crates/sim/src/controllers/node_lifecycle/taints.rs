//! The taints: NoSchedule kept in line with the conditions on every Node change
//! (`doNoScheduleTaintingPass`), NoExecute queued per zone and applied by the rate-limited loop
//! (`doNoExecuteTaintingPass`, `processTaintBaseEviction`).

use super::*;
use crate::strings::cat;

/// Whether a Node carries one of this controller's `NoExecute` taints (`unreachable` or
/// `not-ready`): the taints that send its Pods away.
pub fn carries_no_execute(node: &Node) -> bool {
    node.has_taint(TAINT_UNREACHABLE, "NoExecute") || node.has_taint(TAINT_NOT_READY, "NoExecute")
}

impl NodeLifecycle {
    /// `processTaintBaseEviction` for `node` as stored now, with the Ready status observed before
    /// this pass's update.
    pub(super) fn process_taint_based_eviction(
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
                            cat!("\"Node is NotReady. Adding it to the Taint queue\" node=\"", name, "\""),
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
                            cat!("\"Node is unresponsive. Adding it to the Taint queue\" node=\"", name, "\""),
                        );
                        self.schedule_tainting(ctx);
                    }
                }
            }
            "True" if self.mark_reachable(node, zone, ctx) => {
                ctx.log_line(ACTOR, cat!("\"Node is healthy again, removed all taints\" node=\"", name, "\""));
            }
            _ => {}
        }
    }

    /// Swaps one NoExecute taint for the other at once ("instantly swap").
    pub(super) fn swap_no_execute(
        &mut self,
        name: &str,
        add: &str,
        remove: &str,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) {
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
    pub(super) fn patch_taints(&mut self, name: &str, taints: Vec<Taint>, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        ctx.call_with(ACTOR, None, ApiOp::GetNode(name.to_string()), "resourceVersion=0");
        ctx.call(ACTOR, None, ApiOp::PatchNodeTaints { name: name.to_string(), taints });
    }

    /// `markNodeAsReachable`: removes both NoExecute taints and forgets the queued tainting.
    /// Returns whether a taint was removed.
    pub(super) fn mark_node_as_reachable(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let Some(node) = ctx.store().node(name).cloned() else { return false };
        let zone = self.zone_of(&node);
        self.mark_reachable(&node, &zone, ctx)
    }

    /// [`NodeLifecycle::mark_node_as_reachable`] for `node` as stored now, in `zone`.
    pub(super) fn mark_reachable(&mut self, node: &Node, zone: &Zone, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let name = node.metadata.name.as_str();
        let tainted = node.has_taint(TAINT_UNREACHABLE, "NoExecute") || node.has_taint(TAINT_NOT_READY, "NoExecute");
        if !tainted && self.tainters.get(zone).is_none_or(|q| !q.holds(name)) {
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

    pub(super) fn schedule_tainting(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if !self.tainting_scheduled {
            self.tainting_scheduled = true;
            // The 100 ms loop runs on its own grid.
            let next = (ctx.now.as_micros() / 100_000 + 1) * 100_000;
            ctx.at(SimTime::from_micros(next), NodeLifecycleTimer::NoExecuteTainting);
        }
    }

    /// `doNoExecuteTaintingPass`: one rate-limited step for every zone's queue.
    pub(super) fn no_execute_tainting_pass(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        self.tainting_scheduled = false;
        let now = ctx.now;
        let zones: Vec<Zone> = self.tainters.keys().cloned().collect();
        let mut wake: Option<SimTime> = None;
        for zone in zones {
            loop {
                let q = self.tainters.get_mut(&zone).expect("zone");
                let Some(head) = q.head().map(str::to_string) else { break };
                if !q.limiter.try_accept(now) {
                    if let Some(t) = q.limiter.next_token() {
                        wake = Some(wake.map_or(t, |w: SimTime| w.min(t)));
                    }
                    break;
                }
                q.pop_head();
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

    /// `doNoScheduleTaintingPass`.
    pub(super) fn no_schedule_tainting_pass(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
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
