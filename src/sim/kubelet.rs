//! The kubelet: registration, node status, the node Lease, and the Pods bound to its node.
//!
//! Each loop of the real kubelet is a chain of timers here, one link at a time, so that a
//! request that times out (a cut network) delays the rest of its loop exactly as long as the
//! client waits. Constants and strings follow `pkg/kubelet` (see `docs/kubernetes-notes.md`).

use super::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use super::apiserver::{ApiOp, NODE_LEASE_NAMESPACE, set_pod_condition};
use super::events::{PendingEvent, Recorder, Source, kubelet_node_ref, pod_ref};
use super::machine::{KubeletProcess, RunningContainer, WORKLOAD_IMAGE_SIZE};
use super::objects::{
    ContainerImage, ContainerState, ContainerStateRunning, ContainerStateWaiting, ContainerStatus, DaemonEndpoint,
    Lease, LeaseSpec, MicroTime, Node, NodeAddress, NodeCondition, NodeDaemonEndpoints, NodeFeatures,
    NodeRuntimeHandler, NodeRuntimeHandlerFeatures, Object, OwnerReference, Pod, PodCondition, PodIp, PodStatus, Time,
};
use super::record::{Actor, Log};
use super::time::{SimTime, format_go_duration, millis, secs};
use super::world::{Reply, Timer, World};

/// Timeout of the heartbeat client: min(`nodeStatusUpdateFrequency`, lease duration) = 10 s.
pub const HEARTBEAT_TIMEOUT: Duration = secs(10);
/// `nodeStatusUpdateFrequency`.
pub const NODE_STATUS_UPDATE_FREQUENCY: Duration = secs(10);
/// `nodeStatusReportFrequency`.
pub const NODE_STATUS_REPORT_FREQUENCY: Duration = secs(300);
/// `nodeStatusUpdateRetry`: tries per status sync.
const NODE_STATUS_UPDATE_RETRY: u8 = 5;
/// `nodeLeaseDurationSeconds`.
pub const LEASE_DURATION_SECONDS: i32 = 40;
/// Lease renew interval: 40 s × 0.25.
pub const LEASE_RENEW_INTERVAL: Duration = secs(10);
/// Jitter factor of both heartbeat loops.
const HEARTBEAT_JITTER: f64 = 0.04;
/// `maxUpdateRetries` of the lease controller.
const LEASE_MAX_UPDATE_RETRIES: u8 = 5;
/// `nodeReadyGracePeriod`: how long the fast startup status loop runs at most.
const NODE_READY_GRACE_PERIOD: Duration = secs(120);
/// `maxWaitForContainerRuntime`: after this long without a good runtime check, "container runtime is down".
const MAX_WAIT_FOR_CONTAINER_RUNTIME: Duration = secs(30);
/// `genericPlegRelistThreshold`.
const PLEG_RELIST_THRESHOLD: Duration = secs(180);
/// `updateRuntimeUp` period.
const RUNTIME_CHECK_PERIOD: Duration = secs(5);
/// How long a pod worker waits before syncing a Pod again after an error.
const POD_WORKER_BACKOFF: Duration = secs(10);
/// systemd's `RestartSec=10` in the kubelet unit.
pub(crate) const SYSTEMD_RESTART_SEC: Duration = secs(10);

/// The message containerd reports while no CNI configuration exists.
pub const CNI_NOT_READY: &str = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";
/// The kubelet's start-up error when containerd's socket is missing.
pub(crate) const CRI_DOWN_AT_START: &str = "failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \"unix:///run/containerd/containerd.sock\": rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory\"";

/// A kubelet timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum KubeletTimer {
    /// `BirthCry`: the `Starting` event.
    BirthCry,
    /// `updateRuntimeUp`.
    RuntimeCheck,
    /// The first PLEG relist.
    PlegRelist,
    /// `syncNodeStatus`.
    SyncNodeStatus,
    /// The next registration attempt, after a backoff.
    Register,
    /// Try `n` (1–4) of `updateNodeStatus`, after a failed try.
    StatusTry(u8),
    /// `fastStatusUpdateOnce`'s 100 ms poll.
    FastStatus,
    /// The node Lease controller's `sync`.
    LeaseSync,
    /// PUT try `n` of `retryUpdateLease`, after a failed one.
    LeaseTry(u8),
    /// An attempt of `backoffEnsureLease`; `then_update` says whether a PUT follows.
    LeaseEnsure { then_update: bool },
    /// Retry undelivered events.
    EventFlush,
    /// The informers' watches reconnect after the network returns (reflector backoff).
    Relist,
    /// The container manager's `NodeAllocatableEnforced` event.
    AllocatableEnforced,
    /// The next step of starting or stopping a Pod's containers.
    Pod { uid: String, step: PodStep },
}

/// Steps of the pod worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PodStep {
    /// The pod worker tries again after a failed sync.
    Retry,
    /// The sandbox is up: the Pod has an IP.
    Sandbox,
    Pull,
    /// The image pull finished: how long it took, and how long including its wait in the
    /// (serialized) pull queue.
    Pulled {
        pull: Duration,
        total: Duration,
    },
    Create,
    Start,
    Killed,
}

/// What the kubelet is doing with one Pod.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Worker {
    /// Cannot start: the pod network is not ready (non-hostNetwork Pods).
    WaitingForNetwork,
    /// Pulling, creating, starting.
    Starting,
    /// Containers running.
    Running,
    /// Stopping containers of a deleted Pod.
    Killing,
}

/// A running kubelet process's state.
#[derive(Clone, Debug)]
pub(crate) struct Kubelet {
    pub(crate) started_at: SimTime,
    pub(crate) registered: bool,
    register_sleep: Duration,
    /// The kubelet's informer copy of its Node (stale while the network is cut).
    pub(crate) node_cache: Option<Arc<Node>>,
    last_status_report: Option<SimTime>,
    runtime_synced_at: Option<SimTime>,
    network_error: Option<String>,
    pleg_relisted: bool,
    fast_status_done: bool,
    lease: Option<Arc<Lease>>,
    lease_sleep: Duration,
    pub(crate) recorder: Recorder,
    pub(crate) pending_events: Vec<PendingEvent>,
    workers: VecMap<String, Worker>,
    /// What the setters read at the last sync that found nothing to send.
    quiet_inputs: Option<StatusInputs>,
}

/// Everything the status setters depend on, to skip recomputing an unchanged status.
#[derive(Clone, Debug)]
struct StatusInputs {
    base: Arc<Node>,
    errors: Vec<String>,
    images: usize,
    runtime_synced: bool,
}

impl StatusInputs {
    fn same_as(&self, other: &StatusInputs) -> bool {
        Arc::ptr_eq(&self.base, &other.base)
            && self.errors == other.errors
            && self.images == other.images
            && self.runtime_synced == other.runtime_synced
    }
}

impl Kubelet {
    fn new(now: SimTime) -> Kubelet {
        Kubelet {
            started_at: now,
            registered: false,
            register_sleep: millis(100),
            node_cache: None,
            last_status_report: None,
            runtime_synced_at: None,
            network_error: Some("network state unknown".into()),
            pleg_relisted: false,
            fast_status_done: false,
            lease: None,
            lease_sleep: millis(100),
            recorder: Recorder::default(),
            pending_events: Vec::new(),
            workers: VecMap::new(),
            quiet_inputs: None,
        }
    }
}

fn condition(
    ty: &'static str,
    status: &'static str,
    reason: &'static str,
    message: String,
    now: Time,
) -> NodeCondition {
    NodeCondition {
        type_: ty.into(),
        status: status.into(),
        last_heartbeat_time: now,
        last_transition_time: now,
        reason: reason.into(),
        message: message.into(),
    }
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

impl World {
    fn kubelet_actor(&self, m: usize) -> Actor {
        self.machines[m].actor.clone()
    }

    fn klog(&mut self, m: usize, log: &mut Log, message: String) {
        let actor = self.kubelet_actor(m);
        self.log_line(log, actor, message);
    }

    /// Schedules a timer for the running kubelet on machine `m`.
    pub(crate) fn kubelet_after(&mut self, m: usize, d: Duration, timer: KubeletTimer) {
        let kgen = self.machines[m].kubelet_gen;
        self.after(d, Timer::Kubelet { m, kgen, timer });
    }

    /// systemd starts the kubelet.
    pub(crate) fn kubelet_boot(&mut self, m: usize, log: &mut Log) {
        if !self.machines[m].kubelet_enabled || self.machines[m].kubelet().is_some() {
            return;
        }
        self.touch(m);
        self.machines[m].kubelet_gen += 1;
        if !self.machines[m].runtime_up {
            // PreInitRuntimeService fails before anything else; systemd tries again in 10 s.
            self.klog(m, log, format!("\"command failed\" err=\"{}\"", CRI_DOWN_AT_START.replace('"', "\\\"")));
            self.machines[m].kubelet = KubeletProcess::Restarting { why: "containerd is not running".into() };
            self.after(SYSTEMD_RESTART_SEC, Timer::KubeletBoot { m });
            return;
        }
        let now = self.now;
        self.machines[m].kubelet = KubeletProcess::Running(Box::new(Kubelet::new(now)));
        let version = self.config.profile.kubelet_version();
        self.klog(m, log, format!("\"Kubelet version\" kubeletVersion=\"{version}\""));
        self.kubelet_after(m, millis(350), KubeletTimer::BirthCry);
        self.kubelet_after(m, millis(400), KubeletTimer::RuntimeCheck);
        self.kubelet_after(m, millis(420), KubeletTimer::LeaseSync);
        self.kubelet_after(m, millis(450), KubeletTimer::SyncNodeStatus);
        self.kubelet_after(m, millis(500), KubeletTimer::FastStatus);
        self.kubelet_after(m, millis(520), KubeletTimer::AllocatableEnforced);
        self.kubelet_after(m, millis(1400), KubeletTimer::PlegRelist);
    }

    pub(crate) fn kubelet_timer(&mut self, m: usize, timer: KubeletTimer, log: &mut Log) {
        match timer {
            KubeletTimer::BirthCry => {
                let node = self.machines[m].hostname.clone();
                self.event(
                    log,
                    Source::Kubelet(m),
                    kubelet_node_ref(&node),
                    "Normal",
                    "Starting",
                    "Starting kubelet.".into(),
                );
            }
            KubeletTimer::AllocatableEnforced => {
                let node = self.machines[m].hostname.clone();
                self.event(
                    log,
                    Source::Kubelet(m),
                    kubelet_node_ref(&node),
                    "Normal",
                    "NodeAllocatableEnforced",
                    "Updated Node Allocatable limit across pods".into(),
                );
            }
            KubeletTimer::RuntimeCheck => {
                self.kubelet_runtime_check(m, log);
                self.kubelet_after(m, RUNTIME_CHECK_PERIOD, KubeletTimer::RuntimeCheck);
            }
            KubeletTimer::PlegRelist => {
                if self.machines[m].runtime_up {
                    if let Some(k) = self.machines[m].kubelet_mut() {
                        k.pleg_relisted = true;
                    }
                    // The sync loop stops skipping pod synchronization.
                    self.kubelet_sync_pods(m, log);
                } else {
                    self.kubelet_after(m, secs(1), KubeletTimer::PlegRelist);
                }
            }
            KubeletTimer::SyncNodeStatus => self.kubelet_sync_node_status(m, log),
            KubeletTimer::Register => self.kubelet_register(m, log),
            KubeletTimer::StatusTry(n) => self.kubelet_status_try(m, n, log),
            KubeletTimer::FastStatus => self.kubelet_fast_status(m, log),
            KubeletTimer::LeaseSync => self.kubelet_lease_sync(m, log),
            KubeletTimer::LeaseTry(n) => {
                let base = self.machines[m].kubelet().and_then(|k| k.lease.clone());
                match base {
                    Some(base) => self.kubelet_lease_update(m, n, base, log),
                    None => self.kubelet_lease_ensure(m, true, log),
                }
            }
            KubeletTimer::LeaseEnsure { then_update } => self.kubelet_lease_ensure(m, then_update, log),
            KubeletTimer::EventFlush => self.kubelet_flush_events(m, log),
            KubeletTimer::Relist => {
                if !self.machines[m].network_cut {
                    self.kubelet_sync_pods(m, log);
                }
            }
            KubeletTimer::Pod { uid, step } => self.kubelet_pod_step(m, &uid, step, log),
        }
    }

    fn kubelet_runtime_check(&mut self, m: usize, log: &mut Log) {
        let now = self.now;
        let up = self.machines[m].runtime_up;
        let cni = self.machines[m].cni_ready;
        if !up {
            self.klog(m, log, "\"Container runtime sanity check failed\" err=\"rpc error: code = Unavailable desc = connection error: desc = \\\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused\\\"\"".into());
            return;
        }
        let k = self.machines[m].kubelet_mut().expect("running");
        let was_network = k.network_error.clone();
        let was_down = k.runtime_synced_at.is_none_or(|t| t + MAX_WAIT_FOR_CONTAINER_RUNTIME <= now);
        k.runtime_synced_at = Some(now);
        k.network_error = (!cni).then(|| CNI_NOT_READY.to_string());
        let network_back = was_network.is_some() && k.network_error.is_none();
        if was_down || network_back {
            self.kubelet_sync_pods(m, log);
        }
    }

    /// The errors that keep Ready False, in the order the Ready setter combines them.
    fn kubelet_ready_errors(&self, m: usize) -> Vec<String> {
        let mut errs = self.kubelet_runtime_errors(m);
        if let Some(e) = self.machines[m].kubelet().and_then(|k| k.network_error.as_ref()) {
            errs.push(e.clone());
        }
        errs
    }

    /// `runtimeErrors()`: the runtime status check and PLEG health. While there are any, the
    /// kubelet's sync loop skips pod synchronization.
    fn kubelet_runtime_errors(&self, m: usize) -> Vec<String> {
        let machine = &self.machines[m];
        let k = machine.kubelet().expect("running");
        let mut errs = Vec::new();
        match k.runtime_synced_at {
            None => errs.push("container runtime status check may not have completed yet".to_string()),
            Some(t) if t + MAX_WAIT_FOR_CONTAINER_RUNTIME <= self.now => errs.push("container runtime is down".into()),
            Some(_) => {}
        }
        if !k.pleg_relisted {
            errs.push("PLEG is not healthy: pleg has yet to be successful".into());
        } else if let Some(down) = machine.runtime_down_since {
            let since = self.now - down;
            if since > PLEG_RELIST_THRESHOLD {
                errs.push(format!(
                    "PLEG is not healthy: pleg was last seen active {} ago; threshold is 3m0s",
                    format_go_duration(since)
                ));
            }
        }
        errs
    }

    /// Runs the status setters over `base`, as `setNodeStatus` does. Returns the wanted Node and
    /// the events the setters record.
    fn kubelet_compute_status(&self, m: usize, base: &Node) -> (Node, Vec<(&'static str, &'static str, String)>) {
        let machine = &self.machines[m];
        let k = machine.kubelet().expect("running");
        let now = Time::at(self.wall());
        let host = &machine.hostname;
        let mut node = base.clone();
        let mut events = Vec::new();
        let s = &mut node.status;
        s.addresses = vec![
            NodeAddress { type_: "InternalIP".into(), address: machine.ip.clone() },
            NodeAddress { type_: "Hostname".into(), address: host.clone() },
        ];
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
        s.images = machine.images.clone();
        if self.config.profile.runtime_reports_handlers() && k.runtime_synced_at.is_some() {
            let features = NodeRuntimeHandlerFeatures { recursive_read_only_mounts: true, user_namespaces: true };
            s.runtime_handlers = vec![
                NodeRuntimeHandler { name: "runc".into(), features: features.clone() },
                NodeRuntimeHandler { name: String::new(), features },
            ];
            s.features = Some(NodeFeatures { supplemental_groups_policy: true });
        }
        // Pressure conditions: never under pressure here. A missing condition starts Unknown and
        // flips, so a fresh object (or one the controller marked Unknown) records an event.
        for (ty, reason, message, event) in [
            (
                "MemoryPressure",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
                "NodeHasSufficientMemory",
            ),
            ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", "NodeHasNoDiskPressure"),
            ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available", "NodeHasSufficientPID"),
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
            if c.status != "False" {
                c.status = "False".into();
                c.reason = reason.into();
                c.message = message.into();
                c.last_transition_time = now;
                events.push(("Normal", event, format!("Node {host} status is now: {event}")));
            } else {
                c.reason = reason.into();
                c.message = message.into();
            }
        }
        let errs = self.kubelet_ready_errors(m);
        let (status, reason, message) = if errs.is_empty() {
            ("True", "KubeletReady", "kubelet is posting ready status".to_string())
        } else {
            ("False", "KubeletNotReady", aggregate(&errs))
        };
        match s.conditions.iter_mut().find(|c| c.type_ == "Ready") {
            Some(c) => {
                if c.status != status {
                    c.last_transition_time = now;
                    let event = if status == "True" { "NodeReady" } else { "NodeNotReady" };
                    events.push(("Normal", event, format!("Node {host} status is now: {event}")));
                }
                c.status = status.into();
                c.reason = reason.into();
                c.message = message.into();
                c.last_heartbeat_time = now;
            }
            None => s.conditions.push(condition("Ready", status, reason, message, now)),
        }
        (node, events)
    }

    /// The Node the kubelet registers (`initialNode`).
    fn kubelet_initial_node(&self, m: usize) -> (Node, Vec<(&'static str, &'static str, String)>) {
        let host = &self.machines[m].hostname;
        let mut node = Node::new(host);
        for (k, v) in [
            ("beta.kubernetes.io/arch", "amd64"),
            ("beta.kubernetes.io/os", "linux"),
            ("kubernetes.io/arch", "amd64"),
            ("kubernetes.io/hostname", host.as_str()),
            ("kubernetes.io/os", "linux"),
        ] {
            node.metadata.labels.insert(k.into(), v.into());
        }
        node.metadata
            .annotations
            .insert("volumes.kubernetes.io/controller-managed-attach-detach".into(), "true".into());
        self.kubelet_compute_status(m, &node)
    }

    fn kubelet_emit(&mut self, m: usize, events: Vec<(&'static str, &'static str, String)>, log: &mut Log) {
        let node = self.machines[m].hostname.clone();
        for (ty, reason, message) in events {
            self.event(log, Source::Kubelet(m), kubelet_node_ref(&node), ty, reason, message);
        }
    }

    fn kubelet_sync_node_status(&mut self, m: usize, log: &mut Log) {
        let registered = self.machines[m].kubelet().is_some_and(|k| k.registered);
        if registered {
            self.kubelet_status_try(m, 0, log);
        } else {
            self.kubelet_register(m, log);
        }
    }

    fn next_status_sync(&mut self, m: usize) {
        let d = self.rng.jitter(NODE_STATUS_UPDATE_FREQUENCY, HEARTBEAT_JITTER);
        self.kubelet_after(m, d, KubeletTimer::SyncNodeStatus);
    }

    /// One attempt of `registerWithAPIServer`.
    fn kubelet_register(&mut self, m: usize, log: &mut Log) {
        let (node, events) = self.kubelet_initial_node(m);
        self.kubelet_emit(m, events, log);
        let host = node.metadata.name.clone();
        self.klog(m, log, format!("\"Attempting to register node\" node=\"{host}\""));
        let actor = self.kubelet_actor(m);
        match self.call(log, actor.clone(), Some(m), ApiOp::CreateNode(node.clone())) {
            Reply::Ok(Object::Node(stored)) => {
                self.klog(m, log, format!("\"Successfully registered node\" node=\"{host}\""));
                let k = self.machines[m].kubelet_mut().expect("running");
                k.registered = true;
                k.node_cache = Some(stored);
                self.kubelet_status_try(m, 0, log);
            }
            Reply::Err(status) if status.reason == "AlreadyExists" => {
                // tryRegisterWithAPIServer: adopt the existing Node, reconcile a few fields.
                match self.call(log, actor, Some(m), ApiOp::GetNode(host.clone())) {
                    Reply::Ok(Object::Node(existing)) => {
                        self.klog(m, log, format!("\"Node was previously registered\" node=\"{host}\""));
                        let mut wanted = Node::clone(&existing);
                        for (k, v) in &node.metadata.labels {
                            wanted.metadata.labels.insert(k.clone(), v.clone());
                        }
                        for (k, v) in &node.metadata.annotations {
                            wanted.metadata.annotations.insert(k.clone(), v.clone());
                        }
                        if wanted.status.capacity.is_empty() {
                            wanted.status.capacity = node.status.capacity.clone();
                            wanted.status.allocatable = node.status.allocatable.clone();
                        }
                        let mut cache = existing.clone();
                        if wanted != *existing {
                            let actor = self.kubelet_actor(m);
                            if let Reply::Ok(Object::Node(n)) = self.call(
                                log,
                                actor,
                                Some(m),
                                ApiOp::PatchNodeStatus { base: existing, wanted: Arc::new(wanted) },
                            ) {
                                cache = n;
                            }
                        }
                        self.klog(m, log, format!("\"Successfully registered node\" node=\"{host}\""));
                        let k = self.machines[m].kubelet_mut().expect("running");
                        k.registered = true;
                        k.node_cache = Some(cache);
                        self.kubelet_status_try(m, 0, log);
                    }
                    _ => self.kubelet_register_failed(m, "error getting existing node", log),
                }
            }
            Reply::Err(status) => {
                let why = status.message.clone();
                self.kubelet_register_failed(m, &why, log);
            }
            Reply::Timeout => {
                let err =
                    format!("Post \"{}/api/v1/nodes\": dial tcp 10.0.0.10:6443: i/o timeout", super::world::API_SERVER);
                self.kubelet_register_failed(m, &err, log);
            }
            Reply::Ok(_) => unreachable!("creating a Node returns a Node"),
        }
    }

    fn kubelet_register_failed(&mut self, m: usize, err: &str, log: &mut Log) {
        let host = self.machines[m].hostname.clone();
        self.klog(
            m,
            log,
            format!("\"Unable to register node with API server\" err=\"{}\" node=\"{host}\"", err.replace('"', "\\\"")),
        );
        let cut = self.machines[m].network_cut;
        let k = self.machines[m].kubelet_mut().expect("running");
        let sleep = k.register_sleep;
        k.register_sleep = (sleep * 2).min(secs(7));
        // A timed-out POST already waited for the client's timeout.
        let wait = if cut { HEARTBEAT_TIMEOUT + sleep } else { sleep };
        self.kubelet_after(m, wait, KubeletTimer::Register);
    }

    /// Try `n` of `updateNodeStatus`: try 0 reads the informer cache, later tries GET the Node.
    fn kubelet_status_try(&mut self, m: usize, n: u8, log: &mut Log) {
        let host = self.machines[m].hostname.clone();
        let actor = self.kubelet_actor(m);
        let cached = self.machines[m].kubelet().and_then(|k| k.node_cache.clone());
        let base = match (n, cached) {
            (0, Some(node)) => node,
            _ => match self.call_with(log, actor.clone(), Some(m), ApiOp::GetNode(host.clone()), "timeout=10s") {
                Reply::Ok(Object::Node(node)) => {
                    if let Some(k) = self.machines[m].kubelet_mut() {
                        k.node_cache = Some(node.clone());
                    }
                    node
                }
                Reply::Timeout => {
                    let err = format!(
                        "error getting node \\\"{host}\\\": Get \\\"{}/api/v1/nodes/{host}?timeout=10s\\\": context deadline exceeded",
                        super::world::API_SERVER
                    );
                    return self.kubelet_status_failed(m, n, err, true, log);
                }
                Reply::Err(status) => {
                    let err = format!("error getting node \\\"{host}\\\": {}", status.message.replace('"', "\\\""));
                    return self.kubelet_status_failed(m, n, err, false, log);
                }
                Reply::Ok(_) => unreachable!("GET node returns a Node"),
            },
        };
        let now = self.now;
        let k = self.machines[m].kubelet().expect("running");
        let report_due = k.last_status_report.is_none_or(|t| now >= t + NODE_STATUS_REPORT_FREQUENCY);
        // Nothing the setters read has moved since the last quiet sync: the answer is the same.
        let inputs = StatusInputs {
            base: base.clone(),
            errors: self.kubelet_ready_errors(m),
            images: self.machines[m].images.len(),
            runtime_synced: k.runtime_synced_at.is_some(),
        };
        if !report_due && k.quiet_inputs.as_ref().is_some_and(|q| q.same_as(&inputs)) {
            self.next_status_sync(m);
            return;
        }
        let (wanted, events) = self.kubelet_compute_status(m, &base);
        self.kubelet_emit(m, events, log);
        if !report_due && !status_changed(&base, &wanted) {
            if let Some(k) = self.machines[m].kubelet_mut() {
                k.quiet_inputs = Some(inputs);
            }
            self.next_status_sync(m);
            return;
        }
        match self.call_with(
            log,
            actor,
            Some(m),
            ApiOp::PatchNodeStatus { base, wanted: Arc::new(wanted) },
            "timeout=10s",
        ) {
            Reply::Ok(Object::Node(node)) => {
                let k = self.machines[m].kubelet_mut().expect("running");
                k.node_cache = Some(node);
                k.last_status_report = Some(now);
                self.next_status_sync(m);
            }
            Reply::Timeout => {
                let err = format!(
                    "failed to patch status for node \\\"{host}\\\": Patch \\\"{}/api/v1/nodes/{host}/status?timeout=10s\\\": context deadline exceeded",
                    super::world::API_SERVER
                );
                self.kubelet_status_failed(m, n, err, true, log);
            }
            Reply::Err(status) => {
                let err =
                    format!("failed to patch status for node \\\"{host}\\\": {}", status.message.replace('"', "\\\""));
                self.kubelet_status_failed(m, n, err, false, log);
            }
            Reply::Ok(_) => unreachable!("PATCH node returns a Node"),
        }
    }

    fn kubelet_status_failed(&mut self, m: usize, n: u8, err: String, timed_out: bool, log: &mut Log) {
        self.klog(m, log, format!("\"Error updating node status, will retry\" err=\"{err}\""));
        let wait = if timed_out { HEARTBEAT_TIMEOUT } else { Duration::ZERO };
        if n + 1 < NODE_STATUS_UPDATE_RETRY {
            self.kubelet_after(m, wait, KubeletTimer::StatusTry(n + 1));
        } else {
            self.klog(m, log, "\"Unable to update node status\" err=\"update node status exceeds retry count\"".into());
            let d = wait + self.rng.jitter(NODE_STATUS_UPDATE_FREQUENCY, HEARTBEAT_JITTER);
            self.kubelet_after(m, d, KubeletTimer::SyncNodeStatus);
        }
    }

    /// `fastStatusUpdateOnce`: every 100 ms after start, until the cached Node is Ready or 120 s
    /// pass, patch at once when Ready would flip to True.
    fn kubelet_fast_status(&mut self, m: usize, log: &mut Log) {
        let k = self.machines[m].kubelet().expect("running");
        if k.fast_status_done || self.now >= k.started_at + NODE_READY_GRACE_PERIOD {
            return;
        }
        let Some(cached) = k.node_cache.clone() else {
            self.kubelet_after(m, millis(100), KubeletTimer::FastStatus);
            return;
        };
        if cached.ready_status() == Some("True") {
            self.machines[m].kubelet_mut().expect("running").fast_status_done = true;
            return;
        }
        if self.kubelet_ready_errors(m).is_empty() && !self.machines[m].network_cut {
            self.klog(m, log, "\"Fast updating node status as it just became ready\"".into());
            let (wanted, events) = self.kubelet_compute_status(m, &cached);
            self.kubelet_emit(m, events, log);
            let actor = self.kubelet_actor(m);
            if let Reply::Ok(Object::Node(node)) = self.call_with(
                log,
                actor,
                Some(m),
                ApiOp::PatchNodeStatus { base: cached, wanted: Arc::new(wanted) },
                "timeout=10s",
            ) {
                let now = self.now;
                let k = self.machines[m].kubelet_mut().expect("running");
                k.node_cache = Some(node);
                k.last_status_report = Some(now);
                k.fast_status_done = true;
                return;
            }
        }
        self.kubelet_after(m, millis(100), KubeletTimer::FastStatus);
    }

    fn next_lease_sync(&mut self, m: usize) {
        let d = self.rng.jitter(LEASE_RENEW_INTERVAL, HEARTBEAT_JITTER);
        self.kubelet_after(m, d, KubeletTimer::LeaseSync);
    }

    /// The lease controller's `sync`.
    fn kubelet_lease_sync(&mut self, m: usize, log: &mut Log) {
        match self.machines[m].kubelet().and_then(|k| k.lease.clone()) {
            Some(base) => self.kubelet_lease_update(m, 0, base, log),
            None => self.kubelet_lease_ensure(m, false, log),
        }
    }

    /// The owner reference to the kubelet's Node (`SetNodeOwnerFunc`), which needs a GET.
    fn kubelet_node_owner(&mut self, m: usize, log: &mut Log) -> Result<OwnerReference, ()> {
        let host = self.machines[m].hostname.clone();
        let actor = self.kubelet_actor(m);
        match self.call_with(log, actor, Some(m), ApiOp::GetNode(host.clone()), "timeout=10s") {
            Reply::Ok(Object::Node(node)) => Ok(OwnerReference {
                api_version: "v1".into(),
                kind: "Node".into(),
                name: host,
                uid: node.metadata.uid.clone(),
                controller: None,
                block_owner_deletion: None,
            }),
            _ => {
                self.klog(m, log, format!(
                    "\"Failed to get node when trying to set owner ref to the node lease\" err=\"nodes \\\"{host}\\\" not found\" node=\"{host}\""
                ));
                Err(())
            }
        }
    }

    /// One PUT of `retryUpdateLease`.
    fn kubelet_lease_update(&mut self, m: usize, n: u8, base: Arc<Lease>, log: &mut Log) {
        let host = self.machines[m].hostname.clone();
        let mut lease = Lease::clone(&base);
        lease.spec.renew_time = Some(MicroTime(self.wall()));
        if self.config.profile.lease_duration_reasserted() {
            lease.spec.lease_duration_seconds = Some(LEASE_DURATION_SECONDS);
        }
        if lease.metadata.owner_references.is_empty() {
            match self.kubelet_node_owner(m, log) {
                Ok(owner) => lease.metadata.owner_references = vec![owner],
                Err(()) => {
                    self.klog(m, log, "\"Failed to prepare lease\"".into());
                    self.next_lease_sync(m);
                    return;
                }
            }
        }
        let actor = self.kubelet_actor(m);
        match self.call_with(log, actor, Some(m), ApiOp::UpdateLease(Arc::new(lease)), "timeout=10s") {
            Reply::Ok(Object::Lease(stored)) => {
                let k = self.machines[m].kubelet_mut().expect("running");
                k.lease = Some(stored);
                k.lease_sleep = millis(100);
                self.next_lease_sync(m);
            }
            Reply::Err(status) if status.code == 409 => {
                self.klog(
                    m,
                    log,
                    format!("\"Failed to update lease\" err=\"{}\"", status.message.replace('"', "\\\"")),
                );
                // A conflict re-reads the Lease and tries again at once, within the same 5 tries.
                if n + 1 < LEASE_MAX_UPDATE_RETRIES {
                    let actor = self.kubelet_actor(m);
                    if let Reply::Ok(Object::Lease(fresh)) =
                        self.call_with(log, actor, Some(m), ApiOp::GetLease(host), "timeout=10s")
                    {
                        self.machines[m].kubelet_mut().expect("running").lease = Some(fresh.clone());
                        return self.kubelet_lease_update(m, n + 1, fresh, log);
                    }
                }
                self.kubelet_lease_gave_up(m, Duration::ZERO, log);
            }
            Reply::Timeout => {
                self.klog(m, log, format!(
                    "\"Failed to update lease\" err=\"Put \\\"{}/apis/coordination.k8s.io/v1/namespaces/{NODE_LEASE_NAMESPACE}/leases/{host}?timeout=10s\\\": context deadline exceeded\"",
                    super::world::API_SERVER
                ));
                if n + 1 < LEASE_MAX_UPDATE_RETRIES {
                    self.kubelet_after(m, HEARTBEAT_TIMEOUT, KubeletTimer::LeaseTry(n + 1));
                } else {
                    self.kubelet_lease_gave_up(m, HEARTBEAT_TIMEOUT, log);
                }
            }
            Reply::Err(status) => {
                self.klog(
                    m,
                    log,
                    format!("\"Failed to update lease\" err=\"{}\"", status.message.replace('"', "\\\"")),
                );
                if n + 1 < LEASE_MAX_UPDATE_RETRIES {
                    self.kubelet_after(m, Duration::ZERO, KubeletTimer::LeaseTry(n + 1));
                } else {
                    self.kubelet_lease_gave_up(m, Duration::ZERO, log);
                }
            }
            Reply::Ok(_) => unreachable!("PUT lease returns a Lease"),
        }
    }

    fn kubelet_lease_gave_up(&mut self, m: usize, waited: Duration, log: &mut Log) {
        self.klog(m, log, "\"failed to update lease using latest lease, fallback to ensure lease\" err=\"failed 5 attempts to update lease\"".into());
        self.machines[m].kubelet_mut().expect("running").lease_sleep = millis(100);
        self.kubelet_after(m, waited, KubeletTimer::LeaseEnsure { then_update: true });
    }

    /// One attempt of `backoffEnsureLease`: GET the Lease, create it if missing.
    fn kubelet_lease_ensure(&mut self, m: usize, then_update: bool, log: &mut Log) {
        let host = self.machines[m].hostname.clone();
        let actor = self.kubelet_actor(m);
        match self.call_with(log, actor.clone(), Some(m), ApiOp::GetLease(host.clone()), "timeout=10s") {
            Reply::Ok(Object::Lease(lease)) => {
                self.machines[m].kubelet_mut().expect("running").lease = Some(lease.clone());
                self.kubelet_lease_update(m, 0, lease, log);
            }
            Reply::Err(status) if status.code == 404 => {
                let Ok(owner) = self.kubelet_node_owner(m, log) else {
                    // No Node yet: skip this round, try again at the next tick.
                    self.next_lease_sync(m);
                    return;
                };
                let mut lease = Lease::new(NODE_LEASE_NAMESPACE, &host);
                lease.metadata.owner_references = vec![owner];
                lease.spec = LeaseSpec {
                    holder_identity: Some(host.clone()),
                    lease_duration_seconds: Some(LEASE_DURATION_SECONDS),
                    renew_time: Some(MicroTime(self.wall())),
                    ..LeaseSpec::default()
                };
                match self.call_with(log, actor, Some(m), ApiOp::CreateLease(lease), "timeout=10s") {
                    Reply::Ok(Object::Lease(stored)) => {
                        self.machines[m].kubelet_mut().expect("running").lease = Some(stored);
                        self.next_lease_sync(m);
                    }
                    other => self.kubelet_lease_ensure_failed(m, then_update, matches!(other, Reply::Timeout), log),
                }
            }
            Reply::Timeout => self.kubelet_lease_ensure_failed(m, then_update, true, log),
            _ => self.kubelet_lease_ensure_failed(m, then_update, false, log),
        }
    }

    fn kubelet_lease_ensure_failed(&mut self, m: usize, then_update: bool, timed_out: bool, log: &mut Log) {
        let k = self.machines[m].kubelet_mut().expect("running");
        let sleep = (k.lease_sleep * 2).min(secs(7));
        k.lease_sleep = sleep;
        let host = self.machines[m].hostname.clone();
        self.klog(m, log, format!(
            "\"Failed to ensure lease exists, will retry\" err=\"Get \\\"{}/apis/coordination.k8s.io/v1/namespaces/{NODE_LEASE_NAMESPACE}/leases/{host}?timeout=10s\\\": context deadline exceeded\" interval=\"{}\"",
            super::world::API_SERVER,
            format_go_duration(sleep)
        ));
        let wait = if timed_out { HEARTBEAT_TIMEOUT + sleep } else { sleep };
        self.kubelet_after(m, wait, KubeletTimer::LeaseEnsure { then_update });
    }

    /// The network is back: the informers' watches reconnect at the reflector's next retry. Its
    /// backoff starts at 800 ms and doubles to 30 s, with up to 100 % jitter, so after a long cut
    /// the retry comes within a minute.
    pub(crate) fn kubelet_network_restored(&mut self, m: usize, cut_for: Duration) {
        if self.machines[m].kubelet().is_none() {
            return;
        }
        let interval = cut_for.clamp(millis(800), secs(30));
        let delay = self.rng.between(millis(100), interval * 2);
        self.kubelet_after(m, delay, KubeletTimer::Relist);
    }

    /// The reader's "Label node-role" action: the kubelet tries to label its own Node
    /// `node-role.kubernetes.io/worker`, and NodeRestriction refuses.
    pub(crate) fn kubelet_label_node_role(&mut self, m: usize, log: &mut Log) {
        let host = self.machines[m].hostname.clone();
        let actor = self.kubelet_actor(m);
        let labels = [("node-role.kubernetes.io/worker".to_string(), String::new())].into_iter().collect();
        if let Reply::Err(status) = self.call(log, actor, Some(m), ApiOp::PatchNodeLabels { name: host, labels }) {
            self.klog(
                m,
                log,
                format!("\"Failed to update node labels\" err=\"{}\"", status.message.replace('"', "\\\"")),
            );
        }
    }

    /// Brings the machine's containers in line with the Pods bound to its node.
    pub(crate) fn kubelet_sync_pods(&mut self, m: usize, log: &mut Log) {
        let machine = &self.machines[m];
        let Some(k) = machine.kubelet() else { return };
        if !k.registered || machine.network_cut {
            return;
        }
        // The informer copy of the Node follows the store while the watch works.
        let fresh = self.api.node(&machine.hostname).cloned();
        let k = self.machines[m].kubelet_mut().expect("running");
        k.node_cache = fresh;
        if !self.machines[m].runtime_up || !self.kubelet_runtime_errors(m).is_empty() {
            // "Skipping pod synchronization": the sync loop waits for the runtime and PLEG.
            return;
        }
        let host = self.machines[m].hostname.clone();
        let pods: Vec<Arc<Pod>> = self.api.pods_on(&host).cloned().collect();
        let network_ready = self.machines[m].kubelet().is_some_and(|k| k.network_error.is_none());
        for pod in &pods {
            let uid = pod.metadata.uid.clone();
            let worker = self.machines[m].kubelet().and_then(|k| k.workers.get(&uid).cloned());
            let has_containers = self.machines[m].containers.iter().any(|c| c.pod_uid == uid);
            if pod.is_terminating() {
                if worker != Some(Worker::Killing) {
                    self.set_worker(m, &uid, Worker::Killing);
                    if has_containers {
                        let name = pod.spec.containers[0].name.clone();
                        self.event(
                            log,
                            Source::Kubelet(m),
                            pod_ref(pod, Some(&name)),
                            "Normal",
                            "Killing",
                            format!("Stopping container {name}"),
                        );
                        self.kubelet_after(m, millis(300), KubeletTimer::Pod { uid, step: PodStep::Killed });
                    } else {
                        self.kubelet_after(m, millis(20), KubeletTimer::Pod { uid, step: PodStep::Killed });
                    }
                }
                continue;
            }
            match worker {
                None if has_containers => {
                    // A restarted kubelet adopts containers that kept running.
                    self.set_worker(m, &uid, Worker::Running);
                    self.kubelet_report_running(m, pod, log);
                }
                None => {
                    // SyncPod: the status goes out first, then the network check.
                    self.kubelet_report_starting(m, pod, log);
                    self.kubelet_try_start(m, pod, network_ready, log);
                }
                Some(Worker::WaitingForNetwork) => {}
                Some(Worker::Running) => {
                    if !pod.is_ready() || pod.status.phase != "Running" {
                        self.kubelet_report_running(m, pod, log);
                    }
                }
                Some(_) => {}
            }
        }
        // Pods that vanished from the API (deleted for good): stop what still runs.
        let live: Vec<String> = pods.iter().map(|p| p.metadata.uid.clone()).collect();
        if self.machines[m].containers.iter().any(|c| !live.contains(&c.pod_uid)) {
            self.touch(m);
        }
        let machine = &mut self.machines[m];
        machine.containers.retain(|c| live.contains(&c.pod_uid));
        if let Some(k) = machine.kubelet_mut() {
            k.workers.retain(|uid, _| live.contains(uid));
        }
    }

    /// Starts a Pod's sandbox, or (non-hostNetwork Pods while the pod network is not ready) records
    /// `NetworkNotReady` and retries after the pod worker's backoff.
    fn kubelet_try_start(&mut self, m: usize, pod: &Pod, network_ready: bool, log: &mut Log) {
        let uid = pod.metadata.uid.clone();
        if !network_ready && !pod.spec.host_network {
            self.set_worker(m, &uid, Worker::WaitingForNetwork);
            let err = self.machines[m].kubelet().and_then(|k| k.network_error.clone()).unwrap_or_default();
            self.event(
                log,
                Source::Kubelet(m),
                pod_ref(pod, None),
                "Warning",
                "NetworkNotReady",
                format!("network is not ready: {err}"),
            );
            self.kubelet_after(m, POD_WORKER_BACKOFF, KubeletTimer::Pod { uid, step: PodStep::Retry });
            return;
        }
        self.set_worker(m, &uid, Worker::Starting);
        // Creating the sandbox takes a moment; then the Pod has an IP.
        let d = self.rng.between(millis(250), millis(450));
        self.kubelet_after(m, d, KubeletTimer::Pod { uid, step: PodStep::Sandbox });
    }

    fn set_worker(&mut self, m: usize, uid: &str, w: Worker) {
        if let Some(k) = self.machines[m].kubelet_mut() {
            k.workers.insert(uid.to_string(), w);
        }
    }

    fn kubelet_pod_step(&mut self, m: usize, uid: &str, step: PodStep, log: &mut Log) {
        let Some(pod) = self.api.pods().find(|p| p.metadata.uid == uid).cloned() else { return };
        let container = pod.spec.containers[0].name.clone();
        let image = pod.spec.containers[0].image.clone();
        let cref = pod_ref(&pod, Some(&container));
        match step {
            PodStep::Retry => {
                if self.machines[m].kubelet().and_then(|k| k.workers.get(uid)) != Some(&Worker::WaitingForNetwork) {
                    return;
                }
                if !self.machines[m].runtime_up || !self.kubelet_runtime_errors(m).is_empty() {
                    self.kubelet_after(
                        m,
                        POD_WORKER_BACKOFF,
                        KubeletTimer::Pod { uid: uid.into(), step: PodStep::Retry },
                    );
                    return;
                }
                let network_ready = self.machines[m].kubelet().is_some_and(|k| k.network_error.is_none());
                self.kubelet_try_start(m, &pod, network_ready, log);
            }
            PodStep::Sandbox => {
                self.kubelet_report_sandbox(m, &pod, log);
                self.kubelet_after(m, millis(40), KubeletTimer::Pod { uid: uid.into(), step: PodStep::Pull });
            }
            PodStep::Pull => {
                if self.machines[m].has_image(&image) {
                    self.event(
                        log,
                        Source::Kubelet(m),
                        cref,
                        "Normal",
                        "Pulled",
                        format!("Container image \"{image}\" already present on machine"),
                    );
                    self.kubelet_after(m, millis(60), KubeletTimer::Pod { uid: uid.into(), step: PodStep::Create });
                } else {
                    self.event(
                        log,
                        Source::Kubelet(m),
                        cref,
                        "Normal",
                        "Pulling",
                        format!("Pulling image \"{image}\""),
                    );
                    // serializeImagePulls (default true): one pull at a time per machine. A pull
                    // that waited finds the layers already there and finishes quickly.
                    let now = self.now;
                    let busy = self.machines[m].pulls_busy_until.filter(|b| *b > now);
                    let pull = match busy {
                        Some(_) => self.rng.between(millis(300), millis(700)),
                        None => self.rng.between(millis(1_400), millis(2_600)),
                    };
                    let done = busy.unwrap_or(now) + pull;
                    self.machines[m].pulls_busy_until = Some(done);
                    let step = PodStep::Pulled { pull, total: done - now };
                    self.kubelet_after(m, done - now, KubeletTimer::Pod { uid: uid.into(), step });
                }
            }
            PodStep::Pulled { pull, total } => {
                let ms = |d: Duration| format_go_duration(Duration::from_millis(d.as_millis() as u64));
                let (pull, total) = (ms(pull), ms(total));
                if !self.machines[m].has_image(&image) {
                    self.machines[m].add_image(ContainerImage {
                        names: vec![
                            "docker.io/library/nginx@sha256:6784fb0834aa7dbbe12e3d7471e69c290df3e6ba810dc38b34ae33d3c1c05f7d".into(),
                            format!("docker.io/library/{image}"),
                        ],
                        size_bytes: WORKLOAD_IMAGE_SIZE,
                    });
                }
                self.event(log, Source::Kubelet(m), cref, "Normal", "Pulled", format!(
                    "Successfully pulled image \"{image}\" in {pull} ({total} including waiting). Image size: {WORKLOAD_IMAGE_SIZE} bytes."
                ));
                self.kubelet_after(m, millis(60), KubeletTimer::Pod { uid: uid.into(), step: PodStep::Create });
            }
            PodStep::Create => {
                self.event(
                    log,
                    Source::Kubelet(m),
                    cref,
                    "Normal",
                    "Created",
                    format!("Created container: {container}"),
                );
                self.kubelet_after(m, millis(80), KubeletTimer::Pod { uid: uid.into(), step: PodStep::Start });
            }
            PodStep::Start => {
                let id = self.rng.hex(64);
                let now = self.now;
                self.touch(m);
                self.machines[m].containers.push(RunningContainer {
                    pod_uid: uid.into(),
                    namespace: pod.metadata.namespace.clone(),
                    pod: pod.metadata.name.clone(),
                    name: container.clone(),
                    id,
                    started_at: now,
                });
                self.event(
                    log,
                    Source::Kubelet(m),
                    cref,
                    "Normal",
                    "Started",
                    format!("Started container {container}"),
                );
                self.set_worker(m, uid, Worker::Running);
                self.kubelet_report_running(m, &pod, log);
            }
            PodStep::Killed => {
                self.touch(m);
                self.machines[m].containers.retain(|c| c.pod_uid != uid);
                let actor = self.kubelet_actor(m);
                let grace = Some(0);
                self.call(
                    log,
                    actor,
                    Some(m),
                    ApiOp::DeletePod {
                        namespace: pod.metadata.namespace.clone(),
                        name: pod.metadata.name.clone(),
                        grace_seconds: grace,
                    },
                );
                if let Some(k) = self.machines[m].kubelet_mut() {
                    k.workers.remove(uid);
                }
            }
        }
    }

    fn kubelet_status_base(&self, m: usize, pod: &Pod) -> PodStatus {
        let machine = &self.machines[m];
        let mut status = pod.status.clone();
        status.host_ip = machine.ip.clone();
        status.host_ips = vec![PodIp { ip: machine.ip.clone() }];
        if status.start_time.is_none() {
            status.start_time = Some(Time::at(self.wall()));
        }
        status
    }

    fn kubelet_report_starting(&mut self, m: usize, pod: &Pod, log: &mut Log) {
        let now = Time::at(self.wall());
        let mut status = self.kubelet_status_base(m, pod);
        let c = &pod.spec.containers[0];
        let unready = format!("containers with unready status: [{}]", c.name);
        status.phase = "Pending".into();
        let generation = pod.metadata.generation;
        set_pod_condition(&mut status, "PodReadyToStartContainers", "False", "", "", now);
        set_pod_condition(&mut status, "Initialized", "True", "", "", now);
        set_pod_condition(&mut status, "Ready", "False", "ContainersNotReady", &unready, now);
        set_pod_condition(&mut status, "ContainersReady", "False", "ContainersNotReady", &unready, now);
        order_pod_conditions(&mut status, generation);
        status.container_statuses = vec![ContainerStatus {
            name: c.name.clone(),
            state: ContainerState {
                waiting: Some(ContainerStateWaiting { reason: "ContainerCreating".into(), message: String::new() }),
                ..ContainerState::default()
            },
            last_state: ContainerState::default(),
            ready: false,
            restart_count: 0,
            image: c.image.clone(),
            image_id: String::new(),
            container_id: String::new(),
            started: false,
        }];
        self.kubelet_patch_pod_status(m, pod, status, log);
    }

    fn kubelet_report_running(&mut self, m: usize, pod: &Pod, log: &mut Log) {
        let now = Time::at(self.wall());
        let uid = pod.metadata.uid.clone();
        let Some(running) = self.machines[m].containers.iter().find(|c| c.pod_uid == uid).cloned() else { return };
        let mut status = self.kubelet_status_base(m, pod);
        self.assign_pod_ip(m, &mut status);
        let c = &pod.spec.containers[0];
        status.phase = "Running".into();
        let generation = pod.metadata.generation;
        set_pod_condition(&mut status, "PodReadyToStartContainers", "True", "", "", now);
        set_pod_condition(&mut status, "Initialized", "True", "", "", now);
        set_pod_condition(&mut status, "Ready", "True", "", "", now);
        set_pod_condition(&mut status, "ContainersReady", "True", "", "", now);
        order_pod_conditions(&mut status, generation);
        let started = Time::at(self.config.epoch + running.started_at.since_start());
        status.container_statuses = vec![ContainerStatus {
            name: c.name.clone(),
            state: ContainerState {
                running: Some(ContainerStateRunning { started_at: started }),
                ..ContainerState::default()
            },
            last_state: ContainerState::default(),
            ready: true,
            restart_count: 0,
            image: format!("docker.io/library/{}", c.image),
            image_id: "docker.io/library/nginx@sha256:6784fb0834aa7dbbe12e3d7471e69c290df3e6ba810dc38b34ae33d3c1c05f7d"
                .into(),
            container_id: format!("containerd://{}", running.id),
            started: true,
        }];
        self.kubelet_patch_pod_status(m, pod, status, log);
    }

    /// The CNI plugin's address for a Pod whose sandbox is up (host-local IPAM over the Node's
    /// `spec.podCIDR`).
    fn assign_pod_ip(&mut self, m: usize, status: &mut PodStatus) {
        if !status.pod_ip.is_empty() {
            return;
        }
        let cidr = self.api.node(&self.machines[m].hostname).map(|n| n.spec.pod_cidr.clone()).unwrap_or_default();
        let prefix = cidr.rsplit_once('.').map(|(p, _)| p.to_string()).unwrap_or_else(|| "10.244.0".into());
        let ip = format!("{prefix}.{}", self.machines[m].next_pod_ip);
        self.machines[m].next_pod_ip += 1;
        status.pod_ip = ip.clone();
        status.pod_ips = vec![PodIp { ip }];
    }

    /// The sandbox is up: `PodReadyToStartContainers` turns True and the Pod has its IP.
    fn kubelet_report_sandbox(&mut self, m: usize, pod: &Pod, log: &mut Log) {
        let now = Time::at(self.wall());
        let mut status = self.kubelet_status_base(m, pod);
        self.assign_pod_ip(m, &mut status);
        set_pod_condition(&mut status, "PodReadyToStartContainers", "True", "", "", now);
        order_pod_conditions(&mut status, pod.metadata.generation);
        self.kubelet_patch_pod_status(m, pod, status, log);
    }

    fn kubelet_patch_pod_status(&mut self, m: usize, pod: &Pod, status: PodStatus, log: &mut Log) {
        if status == pod.status {
            return;
        }
        let actor = self.kubelet_actor(m);
        self.call(
            log,
            actor,
            Some(m),
            ApiOp::PatchPodStatus {
                namespace: pod.metadata.namespace.clone(),
                name: pod.metadata.name.clone(),
                status,
            },
        );
    }
}

/// Puts Pod conditions in the order the kubelet writes them, and stamps `observedGeneration`
/// (1.34's PodObservedGenerationTracking) when the Pod has a generation.
pub(crate) fn order_pod_conditions(status: &mut PodStatus, generation: Option<i64>) {
    const ORDER: [&str; 6] =
        ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled", "DisruptionTarget"];
    let rank = |c: &PodCondition| ORDER.iter().position(|o| *o == c.type_).unwrap_or(ORDER.len());
    // Insertion sort: at most six conditions.
    let conditions = &mut status.conditions;
    for i in 1..conditions.len() {
        let mut j = i;
        while j > 0 && rank(&conditions[j - 1]) > rank(&conditions[j]) {
            conditions.swap(j - 1, j);
            j -= 1;
        }
    }
    if let Some(g) = generation {
        status.observed_generation = Some(g);
        for c in &mut status.conditions {
            c.observed_generation = Some(g);
        }
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

    #[test]
    fn errors_aggregate_like_apimachinery() {
        assert_eq!(aggregate(&[]), "");
        assert_eq!(aggregate(&["a".into()]), "a");
        assert_eq!(aggregate(&["a".into(), "b".into(), "a".into()]), "[a, b]");
    }
}
