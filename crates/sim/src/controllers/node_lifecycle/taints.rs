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
                        let stamp = self.decision_timestamp(ctx);
                        ctx.log_line(
                            ACTOR,
                            cat!(
                                "\"Node is NotReady. Adding it to the Taint queue\" node=\"",
                                name,
                                "\" timeStamp=\"",
                                &stamp,
                                "\""
                            ),
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
                        let stamp = self.decision_timestamp(ctx);
                        ctx.log_line(
                            ACTOR,
                            cat!(
                                "\"Node is unresponsive. Adding it to the Taint queue\" node=\"",
                                name,
                                "\" timeStamp=\"",
                                &stamp,
                                "\""
                            ),
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

    /// `decisionTimestamp` (`nc.now()`) as klog prints a `metav1.Time`: Go's `time.Time.String()`
    /// with the monotonic reading since kube-controller-manager started (at `T+00:00`).
    fn decision_timestamp(&self, ctx: &Ctx<'_, NodeLifecycleTimer>) -> String {
        ctx.wall().go_string(ctx.now.since_start())
    }

    /// Whether [`NodeLifecycle::process_taint_based_eviction`] sends requests for `node` observed
    /// `observed`: a swap of one NoExecute taint for the other, or their removal.
    pub(super) fn taint_step_sends(node: &Node, observed: &str) -> bool {
        match observed {
            "False" => node.has_taint(TAINT_UNREACHABLE, "NoExecute"),
            "Unknown" => node.has_taint(TAINT_NOT_READY, "NoExecute"),
            "True" => carries_no_execute(node),
            _ => false,
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
        if !node.has_taint(add, "NoExecute") {
            taints.push(Taint::new(add, "NoExecute", stamp));
            self.patch_taints(name, taints.clone(), ctx);
        }
        taints.retain(|t| !(t.key == remove && t.effect == "NoExecute"));
        self.patch_taints(name, taints, ctx);
    }

    /// `AddOrUpdateTaintOnNode` / `RemoveTaintOffNode`: read the Node (from the API server's
    /// watch cache, `resourceVersion=0`), then patch its taints.
    pub(super) fn patch_taints(&mut self, name: &str, taints: Vec<Taint>, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        self.send(ApiOp::GetNode(name.to_string()), "resourceVersion=0", ctx);
        self.send(ApiOp::PatchNodeTaints { name: name.to_string(), taints }, "", ctx);
    }

    /// `markNodeAsReachable`: removes both NoExecute taints and forgets the queued tainting.
    /// Returns whether the zone's queue held the node (`Remove`'s answer: what "Node is healthy
    /// again, removed all taints" is logged on).
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
            }
        }
        self.tainters.get_mut(zone).is_some_and(|q| q.remove(name))
    }

    /// Asks for the tainting loop at its next round (it runs on its own 100 ms grid).
    pub(super) fn schedule_tainting(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let next = (ctx.now.as_micros() / 100_000 + 1) * 100_000;
        self.tainting_at_or_before(SimTime::from_micros(next), ctx);
    }

    /// Asks for the tainting loop at its first round from `t` on, unless it runs sooner.
    pub(super) fn tainting_from(&mut self, t: SimTime, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let period = NODE_EVICTION_PERIOD.as_micros() as u64;
        self.tainting_at_or_before(SimTime::from_micros(t.as_micros().div_ceil(period) * period), ctx);
    }

    fn tainting_at_or_before(&mut self, at: SimTime, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if self.tainting_at.is_none_or(|t| t > at) {
            self.tainting_at = Some(at);
            ctx.at(at, NodeLifecycleTimer::NoExecuteTainting);
        }
    }

    /// `doNoExecuteTaintingPass`: one rate-limited step for every zone's queue. A taint's requests
    /// go through the controller's client: without a token the queue waits for one.
    pub(super) fn no_execute_tainting_pass(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let now = ctx.now;
        let zones: Vec<Zone> = self.tainters.keys().cloned().collect();
        let mut wake: Option<SimTime> = None;
        for zone in zones {
            loop {
                let q = self.tainters.get_mut(&zone).expect("zone");
                let Some(head) = q.head().map(str::to_string) else { break };
                if !self.client.bucket.has_token(now) {
                    if let Some(t) = self.client.bucket.ready_at(now) {
                        wake = Some(wake.map_or(t, |w: SimTime| w.min(t)));
                    }
                    break;
                }
                let q = self.tainters.get_mut(&zone).expect("zone");
                if !q.limiter.try_accept(now) {
                    if let Some(t) = q.limiter.ready_at(now) {
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
            self.tainting_from(t, ctx);
        }
    }

    /// `doNoScheduleTaintingPass`.
    pub(super) fn no_schedule_tainting_pass(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let Some(node) = ctx.store().node(name).cloned() else { return };
        let Some((to_add, to_del)) = Self::no_schedule_diff(&node) else { return };
        let stamp = Some(Time::at(ctx.wall()));
        let mut taints = node.spec.taints.clone();
        if !to_add.is_empty() {
            for k in &to_add {
                taints.push(Taint::new(k, "NoSchedule", stamp));
            }
            self.patch_taints(name, taints.clone(), ctx);
        }
        if !to_del.is_empty() {
            taints.retain(|t| !(t.effect == "NoSchedule" && to_del.contains(&t.key.as_str())));
            self.patch_taints(name, taints, ctx);
        }
    }

    /// The NoSchedule taints `node` should gain and lose to match its conditions (`TaintSetDiff`),
    /// if any.
    pub(super) fn no_schedule_diff(node: &Node) -> Option<(Vec<&'static str>, Vec<&'static str>)> {
        const MANAGED: [&str; 7] = [
            TAINT_NOT_READY,
            TAINT_UNREACHABLE,
            "node.kubernetes.io/memory-pressure",
            "node.kubernetes.io/disk-pressure",
            "node.kubernetes.io/pid-pressure",
            "node.kubernetes.io/network-unavailable",
            "node.kubernetes.io/unschedulable",
        ];
        let mut wanted: Vec<&'static str> = Vec::new();
        for c in &node.status.conditions {
            let key = match (&*c.type_, &*c.status) {
                ("Ready", "False") => MANAGED[0],
                ("Ready", "Unknown") => MANAGED[1],
                ("MemoryPressure", "True") => MANAGED[2],
                ("DiskPressure", "True") => MANAGED[3],
                ("PIDPressure", "True") => MANAGED[4],
                ("NetworkUnavailable", "True") => MANAGED[5],
                _ => continue,
            };
            wanted.push(key);
        }
        if node.spec.unschedulable {
            wanted.push(MANAGED[6]);
        }
        let existing: Vec<&'static str> = MANAGED
            .iter()
            .copied()
            .filter(|k| node.spec.taints.iter().any(|t| t.effect == "NoSchedule" && t.key == *k))
            .collect();
        let to_add: Vec<&'static str> = wanted.iter().copied().filter(|k| !existing.contains(k)).collect();
        let to_del: Vec<&'static str> = existing.iter().copied().filter(|k| !wanted.contains(k)).collect();
        (!to_add.is_empty() || !to_del.is_empty()).then_some((to_add, to_del))
    }
}
