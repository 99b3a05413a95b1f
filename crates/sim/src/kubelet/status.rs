//! Node status: `syncNodeStatus` (the status setters, a PATCH when something changed or every
//! `nodeStatusReportFrequency`, five tries), and `fastStatusUpdateOnce` at start-up.

use crate::strings::cat;
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use crate::shared::Shared;
use crate::time::millis;

use crate::apiserver::ApiOp;
use crate::ctx::{API_SERVER, Ctx, Reply};
use crate::objects::{
    ContainerImage, DaemonEndpoint, Node, NodeAddress, NodeCondition, NodeDaemonEndpoints, NodeFeatures,
    NodeRuntimeHandler, NodeRuntimeHandlerFeatures, Object, Time,
};

use super::{
    HEARTBEAT_JITTER, Host, Kubelet, KubeletTimer, MachineTimer, NODE_READY_GRACE_PERIOD, NODE_STATUS_UPDATE_RETRY,
};

/// Everything the status setters depend on, to skip recomputing an unchanged status.
#[derive(Clone, Debug)]
pub(super) struct StatusInputs {
    base: Arc<Node>,
    errors: Vec<String>,
    images: Arc<Vec<ContainerImage>>,
    runtime_synced: bool,
    memory_pressure: bool,
}

impl StatusInputs {
    fn same_as(&self, other: &StatusInputs) -> bool {
        Arc::ptr_eq(&self.base, &other.base)
            && self.errors == other.errors
            && Arc::ptr_eq(&self.images, &other.images)
            && self.runtime_synced == other.runtime_synced
            && self.memory_pressure == other.memory_pressure
    }
}

impl Kubelet {
    /// Runs the status setters over `base`, as `setNodeStatus` does. Returns the wanted Node and
    /// the events the setters record.
    pub(super) fn compute_status(
        &self,
        h: &Host,
        ctx: &Ctx<'_, MachineTimer>,
        base: &Node,
    ) -> (Node, Vec<(&'static str, &'static str, String)>) {
        let machine = h;
        let k = self;
        let now = Time::at(ctx.wall());
        let host = &machine.hostname;
        let mut node = base.clone();
        let mut events = Vec::new();
        let s = &mut node.status;
        // Kept as the base's when unchanged, so the versions share them (and built only then).
        let same_addresses = matches!(&s.addresses[..], [ip, name]
            if ip.type_ == "InternalIP" && ip.address == machine.ip && name.type_ == "Hostname" && name.address == *host);
        if !same_addresses {
            s.addresses = Shared::new(vec![
                NodeAddress { type_: "InternalIP".into(), address: machine.ip.to_string() },
                NodeAddress { type_: "Hostname".into(), address: host.to_string() },
            ]);
        }
        s.capacity = machine.capacity.clone();
        s.allocatable = machine.allocatable.clone();
        if !base.status.node_info.boot_id.is_empty() && base.status.node_info.boot_id != machine.info.boot_id {
            events.push((
                "Warning",
                "Rebooted",
                format!("Node {host} has been rebooted, boot id: {}", machine.info.boot_id),
            ));
        }
        s.node_info = machine.info.clone();
        s.daemon_endpoints = NodeDaemonEndpoints { kubelet_endpoint: DaemonEndpoint { port: 10250 } };
        s.images = k.image_cache.clone();
        if ctx.profile.runtime_reports_handlers() && k.runtime_synced_at.is_some() {
            let features = NodeRuntimeHandlerFeatures { recursive_read_only_mounts: true, user_namespaces: true };
            let same_handlers = matches!(&s.runtime_handlers[..], [runc, default]
                if runc.name == "runc" && runc.features == features && default.name.is_empty() && default.features == features);
            if !same_handlers {
                s.runtime_handlers = Shared::new(vec![
                    NodeRuntimeHandler { name: "runc".into(), features: features.clone() },
                    NodeRuntimeHandler { name: String::new(), features },
                ]);
            }
            s.features = Some(NodeFeatures { supplemental_groups_policy: true });
        }
        // Pressure conditions (`MemoryPressureCondition`, `DiskPressureCondition`,
        // `PIDPressureCondition`): memory from the eviction manager, disk and PIDs never under
        // pressure here. A missing condition starts Unknown and flips, so a fresh object (or one
        // the controller marked Unknown) records an event.
        let memory = if k.cold.eviction.memory_pressure {
            (
                "MemoryPressure",
                "True",
                "KubeletHasInsufficientMemory",
                "kubelet has insufficient memory available",
                "NodeHasInsufficientMemory",
            )
        } else {
            (
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
                "NodeHasSufficientMemory",
            )
        };
        for (ty, status, reason, message, event) in [
            memory,
            (
                "DiskPressure",
                "False",
                "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure",
                "NodeHasNoDiskPressure",
            ),
            (
                "PIDPressure",
                "False",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available",
                "NodeHasSufficientPID",
            ),
        ] {
            let idx = match s.conditions.iter().position(|c| c.type_ == ty) {
                Some(i) => i,
                None => {
                    // New pressure conditions go before Ready, in setter order.
                    let at = s.conditions.iter().position(|c| c.type_ == "Ready").unwrap_or(s.conditions.len());
                    s.conditions.insert(at, condition(ty, "Unknown", "", String::new(), now));
                    at
                }
            };
            let c = &mut s.conditions[idx];
            c.last_heartbeat_time = now;
            if c.set(status, reason, message, now) {
                events.push(("Normal", event, format!("Node {host} status is now: {event}")));
            }
        }
        let errs = self.ready_errors(h, ctx);
        let (status, reason, message): (_, _, Cow<'static, str>) = if errs.is_empty() {
            ("True", "KubeletReady", "kubelet is posting ready status".into())
        } else {
            ("False", "KubeletNotReady", aggregate(&errs).into())
        };
        match s.conditions.iter_mut().find(|c| c.type_ == "Ready") {
            Some(c) => {
                if c.set(status, reason, message, now) {
                    let event = if status == "True" { "NodeReady" } else { "NodeNotReady" };
                    events.push(("Normal", event, format!("Node {host} status is now: {event}")));
                }
                c.last_heartbeat_time = now;
            }
            None => s.conditions.push(condition("Ready", status, reason, message, now)),
        }
        // `recordNodeSchedulableEvent`, the last setter.
        if base.spec.unschedulable != self.last_unschedulable {
            let event = if base.spec.unschedulable { "NodeNotSchedulable" } else { "NodeSchedulable" };
            events.push(("Normal", event, format!("Node {host} status is now: {event}")));
        }
        (node, events)
    }

    pub(super) fn sync_node_status(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let registered = self.cold.registered;
        if registered {
            self.status_try(h, ctx, 0);
        } else {
            self.register(h, ctx);
        }
    }

    pub(super) fn next_status_sync(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        if std::mem::take(&mut self.status_out_of_band) {
            return;
        }
        let d = {
            let d = ctx.settings.node_status_update_frequency;
            ctx.rng.jitter(d, HEARTBEAT_JITTER)
        };
        self.after(ctx, d, KubeletTimer::SyncNodeStatus);
    }

    /// Try `n` of `updateNodeStatus`: try 0 reads the informer cache, later tries GET the Node.
    pub(super) fn status_try(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, n: u8) {
        // (Read from the host where a message or a request needs it: a sync every ten seconds
        // copies no name.)
        let host = h.hostname.as_str();
        let cached = self.node_cache.clone();
        if n == 0 && cached.is_none() {
            // Right after a fresh POST the lister does not have the Node yet; the retry (no
            // sleep) GETs it.
            let err = format!("error getting node \\\"{host}\\\": node \\\"{host}\\\" not found");
            h.log(ctx, format!("\"Error updating node status, will retry\" err=\"{err}\""));
            return self.status_try(h, ctx, 1);
        }
        let base = match (n, cached) {
            (0, Some(node)) => node,
            _ => match h.call_heartbeat(ctx, ApiOp::GetNode(host.to_string())) {
                Reply::Ok(Object::Node(node)) => {
                    self.node_cache = Some(node.clone());
                    node
                }
                Reply::Timeout => {
                    let err = cat!(
                        "error getting node \\\"",
                        host,
                        "\\\": Get \\\"",
                        API_SERVER,
                        "/api/v1/nodes/",
                        host,
                        "?timeout=10s\\\": context deadline exceeded"
                    );
                    return self.status_failed(h, ctx, n, err, true);
                }
                Reply::Err(status) => {
                    let err = format!("error getting node \\\"{host}\\\": {}", status.message.replace('"', "\\\""));
                    return self.status_failed(h, ctx, n, err, false);
                }
                Reply::Ok(_) => unreachable!("GET node returns a Node"),
            },
        };
        let now = ctx.now;
        let k = &*self;
        let report_due = k.last_status_report.is_none_or(|t| now >= t + ctx.settings.node_status_report_frequency);
        // Nothing the setters read has moved since the last quiet sync: the answer is the same.
        let inputs = StatusInputs {
            base: base.clone(),
            errors: self.ready_errors(h, ctx),
            images: self.image_cache.clone(),
            runtime_synced: k.runtime_synced_at.is_some(),
            memory_pressure: k.cold.eviction.memory_pressure,
        };
        if !report_due && k.quiet_inputs.as_ref().is_some_and(|q| q.same_as(&inputs)) {
            self.next_status_sync(ctx);
            return;
        }
        let (wanted, events) = self.compute_status(h, ctx, &base);
        self.last_unschedulable = base.spec.unschedulable;
        self.emit(h, ctx, events);
        if !report_due && !status_changed(&base, &wanted) {
            self.quiet_inputs = Some(inputs);
            self.next_status_sync(ctx);
            return;
        }
        let wanted = Arc::new(wanted);
        let sent = (base.clone(), wanted.clone());
        match h.call_heartbeat(ctx, ApiOp::PatchNodeStatus { base, wanted }) {
            Reply::Ok(Object::Node(node)) => {
                let k = &mut *self;
                k.node_cache = Some(node);
                k.last_status_report = Some(now);
                self.next_status_sync(ctx);
            }
            Reply::Timeout => {
                let host = &h.hostname;
                let cause = cat!(
                    "Patch \"",
                    API_SERVER,
                    "/api/v1/nodes/",
                    host,
                    "/status?timeout=10s\": context deadline exceeded"
                );
                let err = patch_failed(host, &sent.0, &sent.1, &cause);
                self.status_failed(h, ctx, n, err, true);
            }
            Reply::Err(status) => {
                let err = patch_failed(&h.hostname, &sent.0, &sent.1, &status.message);
                self.status_failed(h, ctx, n, err, false);
            }
            Reply::Ok(_) => unreachable!("PATCH node returns a Node"),
        }
    }

    pub(super) fn status_failed(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        n: u8,
        err: String,
        timed_out: bool,
    ) {
        // A timed-out request returns its error when the client's timeout runs out: the lines
        // and the next try wait for it.
        let mut lines = vec![cat!("\"Error updating node status, will retry\" err=\"", err, "\"")];
        let then = if n + 1 < NODE_STATUS_UPDATE_RETRY {
            Some((Duration::ZERO, KubeletTimer::StatusTry(n + 1)))
        } else {
            lines.push("\"Unable to update node status\" err=\"update node status exceeds retry count\"".into());
            if std::mem::take(&mut self.status_out_of_band) {
                None
            } else {
                Some((
                    {
                        let d = ctx.settings.node_status_update_frequency;
                        ctx.rng.jitter(d, HEARTBEAT_JITTER)
                    },
                    KubeletTimer::SyncNodeStatus,
                ))
            }
        };
        if timed_out {
            self.timed_out(ctx, ctx.settings.heartbeat_timeout(), lines, then);
            return;
        }
        for line in lines {
            h.log(ctx, line);
        }
        if let Some((d, next)) = then {
            self.after(ctx, d, next);
        }
    }

    /// `fastStatusUpdateOnce`: every 100 ms after start, until the cached Node is Ready or 120 s
    /// pass, patch at once when Ready would flip to True.
    pub(super) fn fast_status(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let k = &*self;
        if k.fast_status_done || ctx.now >= k.cold.started_at + NODE_READY_GRACE_PERIOD {
            return;
        }
        let Some(cached) = k.node_cache.clone() else {
            if ctx.store().node(&h.hostname).is_none() {
                let host = &h.hostname;
                h.log(
                    ctx,
                    format!("\"Error getting the current node from lister\" err=\"node \\\"{host}\\\" not found\""),
                );
            }
            self.after(ctx, millis(100), KubeletTimer::FastStatus);
            return;
        };
        if cached.ready_status() == Some("True") {
            self.fast_status_done = true;
            return;
        }
        if self.ready_errors(h, ctx).is_empty() && !h.network_cut {
            h.log(ctx, "\"Fast updating node status as it just became ready\"".into());
            let (wanted, events) = self.compute_status(h, ctx, &cached);
            self.last_unschedulable = cached.spec.unschedulable;
            self.emit(h, ctx, events);
            if let Reply::Ok(Object::Node(node)) =
                h.call_heartbeat(ctx, ApiOp::PatchNodeStatus { base: cached, wanted: Arc::new(wanted) })
            {
                let now = ctx.now;
                let k = &mut *self;
                k.node_cache = Some(node);
                k.last_status_report = Some(now);
                k.fast_status_done = true;
                return;
            }
        }
        self.after(ctx, millis(100), KubeletTimer::FastStatus);
    }
}

/// `PatchNodeStatus`'s error, `failed to patch status %q for node %q: %v` (the patch's bytes
/// quoted as Go's `%q` quotes them), escaped for the `err="…"` of a klog line.
fn patch_failed(host: &str, base: &Node, wanted: &Node, cause: &str) -> String {
    let go_quote = |s: &str| cat!("\"", s.replace('\\', "\\\\").replace('"', "\\\""), "\"");
    let patch = crate::patch::node_status_bytes(base, wanted);
    let err = cat!("failed to patch status ", go_quote(&patch), " for node ", go_quote(host), ": ", cause);
    err.replace('\\', "\\\\").replace('"', "\\\"")
}

fn condition(
    ty: &'static str,
    status: &'static str,
    reason: &'static str,
    message: impl Into<Cow<'static, str>>,
    now: Time,
) -> NodeCondition {
    NodeCondition::new(ty, status, now, now, reason, message)
}

/// Joins errors as `utilerrors.NewAggregate(...).Error()` does: one alone, several as `[a, b]`,
/// duplicates dropped.
fn aggregate(errs: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errs {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    match seen.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// Whether a status PATCH is due because something other than heartbeats changed.
fn status_changed(base: &Node, wanted: &Node) -> bool {
    let (b, w) = (&base.status, &wanted.status);
    if b.conditions.len() != w.conditions.len()
        || b.conditions.iter().zip(&w.conditions).any(|(x, y)| !x.same_ignoring_heartbeat(y))
    {
        return true;
    }
    b.capacity != w.capacity
        || b.allocatable != w.allocatable
        || b.addresses != w.addresses
        || b.node_info != w.node_info
        || b.images != w.images
        || b.daemon_endpoints != w.daemon_endpoints
        || b.runtime_handlers != w.runtime_handlers
        || b.features != w.features
        || !base.metadata.labels.contains_key("kubernetes.io/os")
        || !base.metadata.labels.contains_key("kubernetes.io/arch")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::MachineSpec;
    use crate::profile::Profile;
    use crate::testkit::{Probe, matches};
    use crate::time::SimTime;

    /// What the status loop is given at one step: a change to its machine, then one of its timers.
    enum Step {
        /// The loop's periodic `syncNodeStatus`.
        Sync,
        /// Try `n` of `updateNodeStatus`, after a failed one.
        Try(u8),
    }

    /// The status loop of a registered kubelet, driven alone: one input a step (a change to the
    /// machine, then a timer), and the requests, Events, log lines and timers that come out.
    #[test]
    fn the_status_loop_patches_on_change_or_every_five_minutes_and_retries() {
        type Change = fn(&mut Kubelet, &mut Shared<Host>);
        let healthy: Change = |_, _| {};
        let storage_down: Change = |k, _| k.cold.storage_error = Some("storage is down".into());
        let storage_up_network_cut: Change = |k, h| {
            k.cold.storage_error = None;
            h.network_cut = true;
        };
        // (seconds, change, timer, what comes out)
        let steps: Vec<(u64, Change, Step, Vec<&str>)> = vec![
            (
                // Right after registering, the lister has no Node: a retry at once GETs it, then
                // the first PATCH (the pressure conditions flip from Unknown: three Events).
                0,
                healthy,
                Step::Sync,
                vec![
                    "GET /api/v1/nodes/node-1 -> 200",
                    "PATCH /api/v1/nodes/node-1/status -> 200",
                    "event NodeHasSufficientMemory: Node node-1 status is now: NodeHasSufficientMemory",
                    "event NodeHasNoDiskPressure: Node node-1 status is now: NodeHasNoDiskPressure",
                    "event NodeHasSufficientPID: Node node-1 status is now: NodeHasSufficientPID",
                    "timer +1*s Kubelet { generation: 1, timer: SyncNodeStatus }",
                    "log \"Error updating node status, will retry\" err=\"error getting node \\\"node-1\\\": node \\\"node-1\\\" not found\"",
                ],
            ),
            // Nothing changed, and the last report is recent: no request.
            (10, healthy, Step::Sync, vec!["timer +1*s Kubelet { generation: 1, timer: SyncNodeStatus }"]),
            // Ready changes: a PATCH at once, and its Event.
            (
                20,
                storage_down,
                Step::Sync,
                vec![
                    "PATCH /api/v1/nodes/node-1/status -> 200",
                    "event NodeNotReady: Node node-1 status is now: NodeNotReady",
                    "timer +1*s Kubelet { generation: 1, timer: SyncNodeStatus }",
                ],
            ),
            (319, healthy, Step::Sync, vec!["timer +1*s Kubelet { generation: 1, timer: SyncNodeStatus }"]),
            // `nodeStatusReportFrequency` after the last PATCH: one more, though nothing changed.
            (
                320,
                healthy,
                Step::Sync,
                vec![
                    "PATCH /api/v1/nodes/node-1/status -> 200",
                    "timer +1*s Kubelet { generation: 1, timer: SyncNodeStatus }",
                ],
            ),
            // Ready again, but the network is cut: the PATCH times out, and its error (logged
            // then) and the next try wait for the client's timeout. The NodeReady Event waits in the kubelet's queue.
            (
                330,
                storage_up_network_cut,
                Step::Sync,
                vec![
                    "PATCH /api/v1/nodes/node-1/status -> timeout",
                    "timer +10s Kubelet { generation: 1, timer: EventFlush }",
                    "timer +10s Kubelet { generation: 1, timer: TimedOut(*context deadline exceeded\\\"\"], then: Some((0ns, StatusTry(1))) }) }",
                ],
            ),
            // A retry GETs the Node first.
            (
                350,
                healthy,
                Step::Try(1),
                vec![
                    "GET /api/v1/nodes/node-1 -> timeout",
                    "timer +10s Kubelet { generation: 1, timer: TimedOut(*context deadline exceeded\\\"\"], then: Some((0ns, StatusTry(2))) }) }",
                ],
            ),
            // The fifth try is the last (`nodeStatusUpdateRetry`): the loop gives up until its
            // next period, after the timeout.
            (
                390,
                healthy,
                Step::Try(4),
                vec![
                    "GET /api/v1/nodes/node-1 -> timeout",
                    "timer +10s Kubelet { generation: 1, timer: TimedOut(*\\\"update node status exceeds retry count\\\"\"], then: Some((10.145988s, SyncNodeStatus)) }) }",
                ],
            ),
        ];
        let mut probe = Probe::new();
        // As the kubelet registered it: with the labels it keeps.
        let mut node = Node::new("node-1");
        for (k, v) in [("kubernetes.io/arch", "amd64"), ("kubernetes.io/os", "linux")] {
            node.metadata.labels.insert(k.into(), v.into());
        }
        probe.given(ApiOp::CreateNode(node));
        let mut host = Shared::new(Host::new(&MachineSpec::new("node-1"), 0, Profile::V1_34, probe.rng()));
        let mut kubelet = Kubelet::new(probe.now, 1, crate::flowcontrol::KUBELET);
        kubelet.cold.registered = true;
        kubelet.runtime_synced_at = Some(probe.now);
        kubelet.pleg_relisted = true;
        kubelet.cold.network_error = None;
        kubelet.cold.storage_error = None;
        for (secs, change, step, want) in steps {
            probe.now = SimTime::from_secs(secs);
            kubelet.runtime_synced_at = Some(probe.now);
            change(&mut kubelet, &mut host);
            let lines = probe.line_count();
            let mut got = probe.input(|ctx| match step {
                Step::Sync => kubelet.sync_node_status(&mut host, ctx),
                Step::Try(n) => kubelet.status_try(&mut host, ctx, n),
            });
            got.extend(probe.lines_from(lines));
            assert!(matches(&got, &want), "at {secs} s: {got:#?}");
        }
    }

    #[test]
    fn errors_aggregate_like_apimachinery() {
        assert_eq!(aggregate(&[]), "");
        assert_eq!(aggregate(&["a".into()]), "a");
        assert_eq!(aggregate(&["a".into(), "b".into(), "a".into()]), "[a, b]");
    }
}
