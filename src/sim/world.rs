//! The discrete-event core: the cluster's whole state, a queue of timers, and the run loop.
//!
//! Components never call each other. They send requests to the API server through
//! [`World::call`] and react to what changed when a reconcile pass or one of their own timers
//! fires. Requests are answered at the instant they are sent; only a cut network makes a sender
//! wait (for its client timeout). Watches are modelled as a reconcile pass one millisecond after
//! any Node or Pod change.

use super::vecmap::VecMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::time::Duration;

use super::action::{Action, ActionKind, Refusal};
use super::apiserver::{ApiOp, ApiServer, Caller, Ctx};
use super::controllers::node_lifecycle::NodeLifecycle;
use super::controllers::replicaset::ReplicaSetController;
use super::controllers::scheduler::Scheduler;
use super::controllers::taint_eviction::TaintEviction;
use super::events::Recorder;
use super::kubelet::KubeletTimer;
use super::machine::{KubeletProcess, KubeletState, Machine, MachineSpec, MachineView};
use super::objects::{Kind, Object, Status};
use super::profile::Profile;
use super::record::{Actor, AppliedInput, Log, LogLine, MachineRecord, Outcome, Request, Response};
use super::rng::Rng;
use super::time::{SimTime, WallTime, millis};

/// The API server's address, as kubelets and log lines name it.
pub const API_SERVER: &str = "https://10.0.0.10:6443";

/// How a simulation is set up: everything that, with the inputs, decides its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub profile: Profile,
    pub seed: u64,
    /// The wall-clock instant that `T+00:00` stands for.
    pub epoch: WallTime,
}

/// The default seed: the same command prints the same bytes.
pub const DEFAULT_SEED: u64 = 1;

/// The default epoch, 2026-03-02T09:00:00Z (a Monday morning).
pub const DEFAULT_EPOCH: WallTime = WallTime(1_772_442_000_000_000);

impl Default for Config {
    fn default() -> Config {
        Config { profile: Profile::default(), seed: DEFAULT_SEED, epoch: DEFAULT_EPOCH }
    }
}

/// Something that happens at a set time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Timer {
    /// systemd starts (or restarts) a machine's kubelet.
    KubeletBoot { m: usize },
    /// The machine's boot starts the kubelet unit (`systemctl enable --now kubelet`).
    KubeletStart { m: usize },
    /// A running kubelet's own timer; ignored if the process that set it has gone.
    Kubelet { m: usize, kgen: u32, timer: KubeletTimer },
    /// A machine's CNI configuration appears.
    CniReady { m: usize },
    /// The node lifecycle controller's monitor pass (every 5 s).
    NodeMonitor,
    /// The node lifecycle controller's NoExecute tainting loop (every 100 ms while work waits).
    NoExecuteTainting,
    /// Informers deliver changes: controllers and kubelets reconcile.
    Reconcile,
    /// A full resync (a new ReplicaSet appears): every controller reconciles.
    Resync,
    /// kube-scheduler retries Pods left unschedulable for 5 minutes.
    SchedulerFlush,
    /// The taint eviction controller's timer for one Pod.
    Eviction { namespace: String, name: String, uid: String },
}

#[derive(Debug)]
struct Scheduled {
    at: SimTime,
    seq: u64,
    timer: Timer,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    // BinaryHeap is a max-heap: the earliest timer must compare greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl Clone for Scheduled {
    fn clone(&self) -> Self {
        Scheduled { at: self.at, seq: self.seq, timer: self.timer.clone() }
    }
}

/// The answer a component got.
#[derive(Clone, Debug)]
pub(crate) enum Reply {
    Ok(Object),
    Err(Status),
    /// No answer: the network is cut; the sender waited its whole timeout.
    Timeout,
}

impl Reply {
    pub(crate) fn ok(self) -> Option<Object> {
        match self {
            Reply::Ok(o) => Some(o),
            _ => None,
        }
    }
}

/// The whole simulated world at one instant.
#[derive(Clone, Debug)]
pub(crate) struct World {
    pub(crate) now: SimTime,
    pub(crate) config: Config,
    pub(crate) rng: Rng,
    queue: BinaryHeap<Scheduled>,
    timer_seq: u64,
    pub(crate) api: ApiServer,
    pub(crate) machines: Vec<Machine>,
    pub(crate) nlc: NodeLifecycle,
    pub(crate) scheduler: Scheduler,
    pub(crate) eviction: TaintEviction,
    pub(crate) replicasets: ReplicaSetController,
    /// Node names whose Pod CIDR has been handed out, in order.
    pub(crate) ipam: VecMap<String, u32>,
    pub(crate) controller_recorder: Recorder,
    reconcile_pending: bool,
    /// Nodes and Pods changed since the last reconcile pass.
    pub(crate) dirty_nodes: VecMap<String, ()>,
    pub(crate) dirty_pods: bool,
    /// Machines whose visible state may have changed since it was last recorded.
    pub(crate) dirty_machines: VecMap<usize, ()>,
    last_views: Vec<Option<Arc<MachineView>>>,
}

impl World {
    /// A world with the given machines, nothing running yet.
    pub(crate) fn new(config: Config, machines: &[MachineSpec]) -> World {
        let mut rng = Rng::new(config.seed);
        let built =
            machines.iter().enumerate().map(|(i, s)| Machine::new(s, i as u32, config.profile, &mut rng)).collect();
        let mut world = World {
            now: SimTime::ZERO,
            config,
            rng,
            queue: BinaryHeap::new(),
            timer_seq: 0,
            api: ApiServer::with_resource_version(1_000),
            machines: built,
            nlc: NodeLifecycle::default(),
            scheduler: Scheduler::default(),
            eviction: TaintEviction::default(),
            replicasets: ReplicaSetController::default(),
            ipam: VecMap::new(),
            controller_recorder: Recorder::controllers(),
            reconcile_pending: false,
            dirty_nodes: VecMap::new(),
            dirty_pods: false,
            dirty_machines: (0..machines.len()).map(|m| (m, ())).collect(),
            last_views: vec![None; machines.len()],
        };
        // The monitor pass runs every 5 s from kube-controller-manager's start, at a seeded phase.
        let phase = world.rng.between(millis(0), millis(4_999));
        world.at(SimTime::ZERO + phase, Timer::NodeMonitor);
        for (m, spec) in machines.iter().enumerate() {
            if let Some(after) = spec.cni_ready_after {
                world.at(SimTime::ZERO + after, Timer::CniReady { m });
            }
            if let Some(after) = spec.kubelet_start {
                world.at(SimTime::ZERO + after, Timer::KubeletStart { m });
            }
        }
        world
    }

    /// The wall-clock time now.
    pub(crate) fn wall(&self) -> WallTime {
        self.config.epoch + self.now.since_start()
    }

    /// Schedules `timer` at `at`.
    pub(crate) fn at(&mut self, at: SimTime, timer: Timer) {
        self.timer_seq += 1;
        self.queue.push(Scheduled { at: at.max(self.now), seq: self.timer_seq, timer });
    }

    /// Schedules `timer` after `d`.
    pub(crate) fn after(&mut self, d: Duration, timer: Timer) {
        self.at(self.now + d, timer);
    }

    /// Runs every timer due before `t`, then moves the clock to `t`.
    pub(crate) fn run_until(&mut self, t: SimTime, log: &mut Log) {
        while let Some(next) = self.queue.peek() {
            if next.at >= t {
                break;
            }
            let Scheduled { at, timer, .. } = self.queue.pop().expect("peeked");
            self.now = at;
            self.fire(timer, log);
            self.record_machines(log);
        }
        self.now = self.now.max(t);
    }

    fn fire(&mut self, timer: Timer, log: &mut Log) {
        match timer {
            Timer::KubeletBoot { m } => self.kubelet_boot(m, log),
            Timer::KubeletStart { m } => {
                // The reader's own start or kill of this kubelet wins over the scenario's.
                if !self.machines[m].kubelet_touched {
                    self.machines[m].kubelet_enabled = true;
                    self.kubelet_boot(m, log);
                }
            }
            Timer::Kubelet { m, kgen, timer } => {
                if self.machines[m].kubelet().is_some() && self.machines[m].kubelet_gen == kgen {
                    self.kubelet_timer(m, timer, log);
                }
            }
            Timer::CniReady { m } => {
                self.machines[m].cni_ready = true;
                self.touch(m);
                let host = self.machines[m].hostname.clone();
                self.log_line(log, self.machines[m].actor.clone(), format!(
                    "CNI plugin configuration written to /etc/cni/net.d on {host}; containerd reports NetworkReady=true"
                ));
            }
            Timer::NodeMonitor => {
                self.monitor_node_health(log);
                self.after(super::controllers::node_lifecycle::NODE_MONITOR_PERIOD, Timer::NodeMonitor);
            }
            Timer::NoExecuteTainting => self.no_execute_tainting_pass(log),
            Timer::Reconcile => {
                self.reconcile_pending = false;
                self.reconcile(log);
            }
            Timer::Resync => {
                self.dirty_pods = true;
                self.reconcile(log);
            }
            Timer::SchedulerFlush => self.scheduler_flush(log),
            Timer::Eviction { namespace, name, uid } => self.eviction_fire(&namespace, &name, &uid, log),
        }
    }

    /// Records the visible state of every machine that changed.
    pub(crate) fn record_machines(&mut self, log: &mut Log) {
        if self.dirty_machines.is_empty() {
            return;
        }
        for m in std::mem::take(&mut self.dirty_machines).into_keys() {
            let view = self.machines[m].view();
            if self.last_views.len() <= m {
                self.last_views.resize(m + 1, None);
            }
            if self.last_views[m].as_deref() == Some(&view) {
                continue;
            }
            let view = Arc::new(view);
            self.last_views[m] = Some(view.clone());
            let seq = log.seq();
            log.machines.push(MachineRecord { seq, t: self.now, index: m, view });
        }
    }

    /// Marks a machine's visible state as possibly changed.
    pub(crate) fn touch(&mut self, m: usize) {
        self.dirty_machines.add(m);
    }

    /// Asks for a reconcile pass, as a watch event would.
    pub(crate) fn reconcile_soon(&mut self) {
        if !self.reconcile_pending {
            self.reconcile_pending = true;
            self.after(millis(1), Timer::Reconcile);
        }
    }

    fn reconcile(&mut self, log: &mut Log) {
        let nodes = std::mem::take(&mut self.dirty_nodes);
        let pods_changed = std::mem::take(&mut self.dirty_pods);
        for name in nodes.keys() {
            self.node_added_or_updated(name, log);
        }
        if pods_changed || !nodes.is_empty() {
            self.taint_eviction_reconcile(log);
            self.schedule_pending(log);
            self.replicaset_reconcile(log);
            for m in 0..self.machines.len() {
                self.kubelet_sync_pods(m, log);
            }
        }
    }

    /// Sends one request to the API server, records it, and returns the answer.
    ///
    /// `from` is the machine whose kubelet sends it (its network may be cut); control-plane
    /// components pass `None`.
    pub(crate) fn call(&mut self, log: &mut Log, actor: Actor, from: Option<usize>, op: ApiOp) -> Reply {
        self.call_with(log, actor, from, op, "")
    }

    /// [`World::call`] with a query string (the heartbeat client adds `timeout=10s`).
    pub(crate) fn call_with(
        &mut self,
        log: &mut Log,
        actor: Actor,
        from: Option<usize>,
        op: ApiOp,
        query: &'static str,
    ) -> Reply {
        let (method, path) = op.route();
        let (body, content_type) = match op.body() {
            Some((b, c)) => (Some(b), Some(c)),
            None => (None, None),
        };
        let node = match &op {
            ApiOp::CreateNode(n) | ApiOp::UpdateNodeStatus(n) => Some(n.metadata.name.clone()),
            ApiOp::PatchNodeStatus { wanted, .. } => Some(wanted.metadata.name.clone()),
            ApiOp::GetNode(n) | ApiOp::PatchNodeLabels { name: n, .. } | ApiOp::PatchNodeTaints { name: n, .. } => {
                Some(n.clone())
            }
            ApiOp::GetLease(n) => Some(n.clone()),
            ApiOp::CreateLease(l) => Some(l.metadata.name.clone()),
            ApiOp::UpdateLease(l) => Some(l.metadata.name.clone()),
            ApiOp::BindPod { node, .. } => Some(node.clone()),
            _ => from.map(|m| self.machines[m].hostname.clone()),
        };
        let seq = log.seq();
        let mut request = Request {
            seq,
            t: self.now,
            end: self.now,
            actor,
            node,
            method,
            path,
            query,
            content_type,
            outcome: Outcome::Code(0),
            error: None,
            body,
            response: None,
            changes: Vec::new(),
        };
        if let Some(m) = from
            && self.machines[m].network_cut
        {
            let timeout = super::kubelet::HEARTBEAT_TIMEOUT;
            request.end = self.now + timeout;
            request.outcome = Outcome::Timeout;
            let verb = match method {
                super::record::Method::Get => "Get",
                super::record::Method::Post => "Post",
                super::record::Method::Put => "Put",
                super::record::Method::Patch => "Patch",
                super::record::Method::Delete => "Delete",
            };
            let q = if query.is_empty() { String::new() } else { format!("?{query}") };
            request.error = Some(format!("{verb} \"{API_SERVER}{}{q}\": context deadline exceeded", request.path));
            log.requests.push(request);
            return Reply::Timeout;
        }
        let idx = log.requests.len() as u32;
        let first_change = log.changes.len();
        let caller = match from {
            Some(m) => Caller::Node(&self.machines[m].hostname),
            None => Caller::Trusted,
        };
        // Borrow dance: the caller name lives in `self.machines`, the store in `self.api`.
        let caller_name;
        let caller = match caller {
            Caller::Node(n) => {
                caller_name = n.to_string();
                Caller::Node(&caller_name)
            }
            Caller::Trusted => Caller::Trusted,
        };
        let is_bind = matches!(op, ApiOp::BindPod { .. });
        let is_create = matches!(op, ApiOp::CreateNode(_) | ApiOp::CreateLease(_) | ApiOp::CreatePod(_));
        let wall = self.wall();
        let result = {
            let mut ctx = Ctx { now: self.now, wall, log, rng: &mut self.rng, request: Some(idx) };
            self.api.execute(&mut ctx, caller, op)
        };
        let changes: Vec<u32> = (first_change as u32..log.changes.len() as u32).collect();
        for &c in &changes {
            let change = &log.changes[c as usize];
            match change.object.kind() {
                Kind::Node => {
                    self.dirty_nodes.add(change.object.meta().name.clone());
                }
                Kind::Pod => self.dirty_pods = true,
                _ => {}
            }
        }
        if !changes.is_empty() {
            self.reconcile_soon();
        }
        request.changes = changes;
        let reply = match result {
            Ok(obj) => {
                request.outcome = Outcome::Code(if is_create || is_bind { 201 } else { 200 });
                request.response =
                    Some(if is_bind { Response::Status(Status::success(201)) } else { Response::Object(obj.clone()) });
                Reply::Ok(obj)
            }
            Err(status) => {
                let status = *status;
                request.outcome = Outcome::Code(status.code);
                request.response = Some(Response::Status(status.clone()));
                Reply::Err(status)
            }
        };
        log.requests.push(request);
        reply
    }

    /// Records a log line.
    pub(crate) fn log_line(&mut self, log: &mut Log, actor: Actor, message: String) {
        let seq = log.seq();
        log.lines.push(LogLine { seq, t: self.now, actor, message });
    }

    /// The index of the machine named `name`.
    pub(crate) fn machine_index(&self, name: &str) -> Option<usize> {
        self.machines.iter().position(|m| m.name == name)
    }

    /// Whether `action` makes sense now; the error says why not.
    pub(crate) fn check_action(&self, kind: ActionKind, machine: Option<&str>) -> Result<Option<usize>, Refusal> {
        let views: Vec<MachineView> = self.machines.iter().map(Machine::view).collect();
        check_action(kind, machine, &views, |n| self.api.nodes.contains_key(n), self.api.pods.len())
    }

    /// Applies an input now. Inputs that make no sense now are recorded as rejected.
    pub(crate) fn apply(&mut self, action: &Action, scripted: bool, log: &mut Log) {
        let seq = log.seq();
        let m = match self.check_action(action.kind, action.machine.as_deref()) {
            Ok(m) => m,
            Err(why) => {
                log.inputs.push(AppliedInput {
                    seq,
                    t: self.now,
                    action: action.clone(),
                    scripted,
                    rejected: Some(why),
                });
                return;
            }
        };
        log.inputs.push(AppliedInput { seq, t: self.now, action: action.clone(), scripted, rejected: None });
        if let Some(m) = m {
            self.touch(m);
            if matches!(action.kind, ActionKind::KillKubelet | ActionKind::StartKubelet) {
                self.machines[m].kubelet_touched = true;
            }
        }
        match action.kind {
            ActionKind::KillKubelet => self.kill_kubelet(m.expect("machine"), log),
            ActionKind::StartKubelet => {
                let m = m.expect("machine");
                self.machines[m].kubelet_enabled = true;
                self.at(self.now, Timer::KubeletBoot { m });
            }
            ActionKind::StopRuntime => {
                let m = m.expect("machine");
                self.machines[m].runtime_up = false;
                self.machines[m].runtime_down_since = Some(self.now);
            }
            ActionKind::StartRuntime => {
                let m = m.expect("machine");
                self.machines[m].runtime_up = true;
                self.machines[m].runtime_down_since = None;
            }
            ActionKind::CutNetwork => {
                let m = m.expect("machine");
                self.machines[m].network_cut = true;
                self.machines[m].network_cut_since = Some(self.now);
            }
            ActionKind::RestoreNetwork => {
                let m = m.expect("machine");
                self.machines[m].network_cut = false;
                let since = self.machines[m].network_cut_since.take().unwrap_or(self.now);
                self.kubelet_network_restored(m, self.now - since);
            }
            ActionKind::CreatePod => self.kubectl_create_pod(false, log),
            ActionKind::CreateToleratingPod => self.kubectl_create_pod(true, log),
            ActionKind::AddMachine => {
                let n = (1..).find(|i| self.machine_index(&format!("node-{i}")).is_none()).expect("a free name");
                let name = format!("node-{n}");
                self.add_machine(MachineSpec::new(&name));
            }
            ActionKind::AddDuplicateMachine => {
                let host = self.machines[m.expect("machine")].hostname.clone();
                let mut spec = MachineSpec::new(&format!("{host}-dup"));
                spec.hostname = host;
                self.add_machine(spec);
            }
            ActionKind::LabelNodeRole => self.kubelet_label_node_role(m.expect("machine"), log),
        }
    }

    fn add_machine(&mut self, spec: MachineSpec) {
        let index = self.machines.len() as u32;
        let mut machine = Machine::new(&spec, index, self.config.profile, &mut self.rng);
        machine.kubelet_enabled = true;
        self.machines.push(machine);
        self.touch(index as usize);
        self.at(self.now, Timer::KubeletBoot { m: index as usize });
    }

    /// Stops a kubelet process at once. Its containers keep running.
    pub(crate) fn kill_kubelet(&mut self, m: usize, log: &mut Log) {
        self.touch(m);
        let machine = &mut self.machines[m];
        machine.kubelet_enabled = false;
        let was_running = matches!(machine.kubelet, KubeletProcess::Running(_));
        machine.kubelet = KubeletProcess::Stopped;
        if was_running {
            self.log_line(
                log,
                self.machines[m].actor.clone(),
                "Received signal to terminate: systemctl stop kubelet (SIGTERM); containers keep running".into(),
            );
        }
    }
}

/// The most Pods a sandbox holds.
pub(crate) const MAX_PODS: usize = 24;
/// The most machines a sandbox holds.
pub(crate) const MAX_MACHINES: usize = 6;

/// Whether an action makes sense given the machines, which Nodes exist, and how many Pods
/// there are. Returns the index of the machine the action is aimed at, or why it cannot be done.
pub(crate) fn check_action(
    kind: ActionKind,
    machine: Option<&str>,
    machines: &[MachineView],
    node_exists: impl Fn(&str) -> bool,
    pods: usize,
) -> Result<Option<usize>, Refusal> {
    let m = if kind.targets_machine() {
        let name = machine.unwrap_or_else(|| machines.first().map(|m| m.name.as_str()).unwrap_or("node-1"));
        match machines.iter().position(|m| m.name == name) {
            Some(m) => Some(m),
            None => return Err(Refusal::NoSuchMachine(name.to_string())),
        }
    } else {
        None
    };
    let view = m.map(|m| &machines[m]);
    let name = view.map(|m| m.name.as_str()).unwrap_or_default();
    let kubelet = view.map(|m| &m.kubelet);
    match kind {
        ActionKind::KillKubelet => {
            if matches!(kubelet, Some(KubeletState::Stopped)) {
                return Err(Refusal::KubeletNotRunning(name.to_string()));
            }
        }
        ActionKind::StartKubelet => {
            if !matches!(kubelet, Some(KubeletState::Stopped)) {
                return Err(Refusal::KubeletAlreadyRunning(name.to_string()));
            }
        }
        ActionKind::StopRuntime => {
            if !view.is_some_and(|m| m.runtime_up) {
                return Err(Refusal::RuntimeAlreadyStopped(name.to_string()));
            }
        }
        ActionKind::StartRuntime => {
            if view.is_some_and(|m| m.runtime_up) {
                return Err(Refusal::RuntimeAlreadyRunning(name.to_string()));
            }
        }
        ActionKind::CutNetwork => {
            if view.is_some_and(|m| m.network_cut) {
                return Err(Refusal::NetworkAlreadyCut(name.to_string()));
            }
        }
        ActionKind::RestoreNetwork => {
            if !view.is_some_and(|m| m.network_cut) {
                return Err(Refusal::NetworkNotCut(name.to_string()));
            }
        }
        ActionKind::CreatePod | ActionKind::CreateToleratingPod => {
            if pods >= MAX_PODS {
                return Err(Refusal::TooManyPods(MAX_PODS));
            }
        }
        ActionKind::AddMachine => {
            if machines.len() >= MAX_MACHINES {
                return Err(Refusal::TooManyMachines(MAX_MACHINES));
            }
        }
        ActionKind::AddDuplicateMachine => {
            if machines.len() >= MAX_MACHINES {
                return Err(Refusal::TooManyMachines(MAX_MACHINES));
            }
            let host = &view.expect("targets a machine").hostname;
            if machines.iter().filter(|m| &m.hostname == host).count() > 1 {
                return Err(Refusal::DuplicateExists(host.clone()));
            }
        }
        ActionKind::LabelNodeRole => {
            let v = view.expect("targets a machine");
            if v.kubelet != KubeletState::Running {
                return Err(Refusal::KubeletNotRunning(name.to_string()));
            }
            if !node_exists(&v.hostname) {
                return Err(Refusal::NodeNotRegistered(v.hostname.clone()));
            }
            if v.network_cut {
                return Err(Refusal::KubeletCannotReach(name.to_string()));
            }
        }
    }
    Ok(m)
}
