//! The router: the API server's store, the components, and the timer queue on a simulated clock.
//!
//! Components never call each other, and never reach into each other's state. The router drives
//! each through its inputs (`on_timer`, `on_change`, the reader's actions), handing it a
//! [`Ctx`] through which it reads the store and sends requests (answered at the instant they are
//! sent, and logged); only a cut network makes a sender wait (for its client timeout). Watches are
//! modelled as a reconcile pass one millisecond after any Node or Pod change, which delivers the
//! change to every component that watches it.

use std::sync::Arc;

use super::action::{Action, ActionKind, Refusal, split_pod, split_taint_target};
use super::apiserver::ApiServer;
use super::client::ClientWake;
use super::controllers::attach_detach::{AttachDetach, AttachDetachTimer};
use super::controllers::certificates::CertificateControllers;
use super::controllers::daemonset::DaemonSetController;
use super::controllers::disruption::{DisruptionController, DisruptionTimer};
use super::controllers::garbage_collector::GarbageCollector;
use super::controllers::node_ipam::NodeIpam;
use super::controllers::node_lifecycle::{NodeLifecycle, NodeLifecycleTimer};
use super::controllers::persistent_volume::{PersistentVolumeController, PersistentVolumeTimer};
use super::controllers::podgc::{PodGc, PodGcTimer};
use super::controllers::replicaset::ReplicaSetController;
use super::controllers::scheduler::{Scheduler, SchedulerTimer};
use super::controllers::statefulset::StatefulSetController;
use super::controllers::taint_eviction::{TaintEviction, TaintEvictionTimer};
use super::controllers::ttl::TtlController;
use super::ctx::{Bus, Changes, Ctx, NoTimer};
use super::kubectl_client;
use super::kubelet::{Machine, MachineTimer};
use super::machine::{MachineSpec, MachineView, ShutdownPeriods};
use super::profile::Profile;
use super::queue::TimerQueue;
use super::record::{AppliedInput, Log};
use super::rng::Rng;
use super::scenario::{DEFAULT_FLEET, ReplicaSetSpec};
use super::settings::Settings;
use super::shared::Shared;
use super::time::{SimTime, WallTime};
use super::vecmap::VecMap;

mod checks;

pub(crate) use checks::{check_action, fleet_targets};

/// How a simulation is set up: everything that, with the inputs, decides its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub profile: Profile,
    pub seed: u64,
    /// The wall-clock instant that `T+00:00` stands for.
    pub epoch: WallTime,
    /// How many nodes a fleet chapter runs (`--nodes`, `&nodes=`); other chapters ignore it.
    pub nodes: usize,
    /// The Kubernetes settings set (a story's, the command line's `--set`, the link's
    /// `&shutdownGracePeriod=`); every other one is the profile's default. The kubelet's
    /// shutdown periods, when set, are every machine's instead of its chapter's.
    pub settings: Settings,
}

impl Config {
    /// The settings the cluster runs with: those set, and the profile's defaults.
    pub fn settings(&self) -> Settings {
        self.settings.resolved(self.profile)
    }

    /// This configuration with every kubelet's shutdown periods, when given (the page's and the
    /// link's setting).
    pub fn with_shutdown(mut self, periods: Option<ShutdownPeriods>) -> Config {
        if let Some(p) = periods {
            self.settings.set_shutdown(p);
        }
        self
    }
}

/// The default seed: the same command prints the same bytes.
pub const DEFAULT_SEED: u64 = 1;

/// The default epoch, 2026-03-02T09:00:00Z (a Monday morning).
pub const DEFAULT_EPOCH: WallTime = WallTime(1_772_442_000_000_000);

impl Default for Config {
    fn default() -> Config {
        Config {
            profile: Profile::default(),
            seed: DEFAULT_SEED,
            epoch: DEFAULT_EPOCH,
            nodes: DEFAULT_FLEET,
            settings: Settings::default(),
        }
    }
}

/// The address of the taint eviction controller's timers.
fn taint_eviction_timer(timer: TaintEvictionTimer) -> Timer {
    Timer::TaintEviction(Box::new(timer))
}

/// The address of the persistent volume controller's timers.
fn persistent_volume_timer(timer: PersistentVolumeTimer) -> Timer {
    Timer::PersistentVolume(Box::new(timer))
}

/// The address of the timers of components that ask for none.
fn no_timer(timer: NoTimer) -> Timer {
    match timer {}
}

/// The components whose only timer is their client's wake-up ([`ClientWake`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Waker {
    Ttl,
    NodeIpam,
    GarbageCollector,
    ReplicaSet,
    DaemonSet,
    StatefulSet,
}

/// The address of a component's wake-up timer.
fn wake(waker: Waker) -> impl Fn(ClientWake) -> Timer {
    move |ClientWake| Timer::ClientWake(waker)
}

/// Something that happens at a set time: a component's own timer, addressed to it, or the
/// router's.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Timer {
    /// A machine's timer (systemd, the CNI plugin, its kubelet).
    Machine {
        m: usize,
        timer: MachineTimer,
    },
    NodeLifecycle(NodeLifecycleTimer),
    Scheduler(SchedulerTimer),
    /// Boxed, as the kubelet's Pod and shutdown timers are: the queue holds thousands of timers
    /// and every checkpoint copies it, so each is kept small.
    TaintEviction(Box<TaintEvictionTimer>),
    /// The reader's kubectl (a drain's retries and polls).
    Kubectl(kubectl_client::KubectlTimer),
    PodGc(PodGcTimer),
    AttachDetach(AttachDetachTimer),
    /// Boxed: the largest timer, it would make every timer as large.
    PersistentVolume(Box<PersistentVolumeTimer>),
    /// The disruption controller's recheck of a budget.
    Disruption(DisruptionTimer),
    /// A component's client has a token again.
    ClientWake(Waker),
    /// Informers deliver changes: controllers and kubelets reconcile.
    Reconcile,
    /// A full resync (a new ReplicaSet appears): every controller reconciles.
    Resync,
    /// `kubeadm token create`, before the machines that bootstrap start.
    BootstrapToken,
}

/// Where [`World::run_within`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reached {
    /// The instant the clock is at.
    pub(crate) t: SimTime,
    /// Nothing at `t` has run yet (else some of its timers have: it was split).
    pub(crate) whole: bool,
}

/// What every component shares: the clock, the configuration, the generator, the store, the
/// timer queue and what the last requests changed.
#[derive(Clone, Debug)]
struct Core {
    now: SimTime,
    config: Config,
    /// The settings resolved for the profile, as the components read them.
    settings: Settings,
    rng: Rng,
    api: ApiServer,
    bus: Bus,
    queue: TimerQueue<Timer>,
}

impl Core {
    /// Runs `f` with a context for a component whose timers `wrap` addresses, then files the
    /// timers it asked for (and the reconcile pass its requests called for) into the queue.
    fn with<T, R>(&mut self, log: &mut Log, wrap: impl Fn(T) -> Timer, f: impl FnOnce(&mut Ctx<'_, T>) -> R) -> R {
        let mut ctx = Ctx::new(
            self.now,
            self.config.epoch,
            self.config.profile,
            &self.settings,
            &mut self.rng,
            &mut self.api,
            log,
            &mut self.bus,
        );
        let result = f(&mut ctx);
        let timers = ctx.finish();
        for (at, seq, timer) in timers {
            self.queue.push(at, seq, wrap(timer));
        }
        if let Some((at, seq)) = self.bus.reconcile_at.take() {
            self.queue.push(at, seq, Timer::Reconcile);
        }
        result
    }

    /// Schedules one of the router's own timers.
    fn at(&mut self, at: SimTime, timer: Timer) {
        let seq = self.bus.next_seq();
        self.queue.push(at.max(self.now), seq, timer);
    }
}

/// The whole simulated world at one instant.
#[derive(Clone, Debug)]
pub(crate) struct World {
    core: Core,
    machines: Vec<Machine>,
    nlc: NodeLifecycle,
    ttl: TtlController,
    ipam: NodeIpam,
    scheduler: Scheduler,
    eviction: TaintEviction,
    replicasets: ReplicaSetController,
    daemonsets: DaemonSetController,
    disruption: DisruptionController,
    kubectl: kubectl_client::Kubectl,
    podgc: PodGc,
    gc: GarbageCollector,
    statefulsets: StatefulSetController,
    attach_detach: AttachDetach,
    persistent_volumes: PersistentVolumeController,
    /// `csrapproving` and `csrsigning`.
    certificates: CertificateControllers,
    /// The machines of each hostname (two, when the reader adds a duplicate).
    hosts: Shared<VecMap<String, Vec<usize>>>,
    /// Machines whose visible state may have changed since it was last recorded.
    dirty_machines: VecMap<usize, ()>,
    last_views: Vec<Option<Arc<MachineView>>>,
}

impl World {
    /// The settings resolved for the profile, as the components read them.
    pub(crate) fn settings(&self) -> &Settings {
        &self.core.settings
    }

    /// A world with the given machines, nothing running yet.
    pub(crate) fn new(config: Config, machines: &[MachineSpec]) -> World {
        let settings = config.settings();
        let machines: Vec<MachineSpec> = machines.iter().map(|s| settings.machine(s)).collect();
        let mut rng = Rng::new(config.seed);
        let seed = config.seed;
        let built: Vec<Machine> =
            machines.iter().enumerate().map(|(i, s)| Machine::new(s, i as u32, config.profile, &mut rng)).collect();
        let mut api = ApiServer::with_resource_version(1_000);
        api.set_default_toleration_seconds(
            settings.not_ready_toleration_seconds,
            settings.unreachable_toleration_seconds,
        );
        let core =
            Core { now: SimTime::ZERO, config, settings, rng, api, bus: Bus::default(), queue: TimerQueue::default() };
        let mut world = World {
            core,
            machines: built,
            nlc: NodeLifecycle::default(),
            ttl: TtlController::default(),
            ipam: NodeIpam::default(),
            scheduler: Scheduler::default(),
            eviction: TaintEviction::default(),
            replicasets: ReplicaSetController::default(),
            daemonsets: DaemonSetController::default(),
            disruption: DisruptionController::default(),
            kubectl: kubectl_client::Kubectl::default(),
            podgc: PodGc::default(),
            gc: GarbageCollector::default(),
            statefulsets: StatefulSetController::default(),
            attach_detach: AttachDetach::default(),
            persistent_volumes: PersistentVolumeController::new(seed),
            certificates: CertificateControllers,
            hosts: Shared::default(),
            dirty_machines: (0..machines.len()).map(|m| (m, ())).collect(),
            last_views: vec![None; machines.len()],
        };
        for (m, spec) in machines.iter().enumerate() {
            world.hosts.get_or_insert_with(spec.hostname.clone(), Vec::new).push(m);
        }
        // Starting the world writes nothing to the log.
        let mut log = Log::default();
        // A machine that bootstraps needs a bootstrap token (made first, at T+00:00).
        if machines.iter().any(|m| m.bootstrap) {
            world.core.at(SimTime::ZERO, Timer::BootstrapToken);
        }
        let nlc = &mut world.nlc;
        world.core.with(&mut log, Timer::NodeLifecycle, |ctx| nlc.start(ctx));
        for (m, spec) in machines.iter().enumerate() {
            world.core.with(&mut log, |timer| Timer::Machine { m, timer }, |ctx| Machine::start(spec, ctx));
        }
        world.core.with(&mut log, Timer::PodGc, PodGc::start);
        world
    }

    /// The instant the world has run to.
    pub(crate) fn now(&self) -> SimTime {
        self.core.now
    }

    /// Adds a scenario's ReplicaSet; every controller resyncs when it is created.
    pub(crate) fn add_replicaset(&mut self, spec: &ReplicaSetSpec) {
        self.add_workload(spec, None);
    }

    /// Adds a ReplicaSet (node-local: pinned to that node, with an `emptyDir`), active from
    /// `created_after`; every controller resyncs then.
    fn add_workload(&mut self, spec: &ReplicaSetSpec, node_local: Option<&str>) {
        let uid = self.replicasets.add(spec, node_local, &mut self.core.rng);
        self.disruption.add_scale(&uid, spec.replicas);
        let active = SimTime::ZERO + spec.created_after;
        self.core.at(active.max(self.core.now), Timer::Resync);
    }

    /// Runs every timer due before `t` and moves the clock to `t`, unless the log holds `records`
    /// records first: then it stops at the next instant a timer is due (everything before it has
    /// run, nothing at it) and moves the clock there. Should the log hold `split` records (at
    /// least `records`) first, it stops between two timers of the instant under way, having run
    /// one at least: going on, it runs the rest of that instant first, in the order it would
    /// have. A thousand kubelets act at the same instants; split, such an instant is computed in
    /// pieces as short as any other. It stops the same way (at the next instant, or between two
    /// timers of this one) once `more` says no, asked after each timer: the caller's own measure
    /// of a piece, such as a page's clock. Returns where it stopped.
    pub(crate) fn run_within(
        &mut self,
        t: SimTime,
        log: &mut Log,
        (records, split): (usize, usize),
        more: &mut dyn FnMut() -> bool,
    ) -> Reached {
        let mut fired = false;
        while let Some(next) = self.core.queue.next_at() {
            if next >= t {
                break;
            }
            let enough = fired && !more();
            if next > self.core.now && (log.len() >= records || enough) {
                self.core.now = next;
                return Reached { t: next, whole: true };
            }
            if next == self.core.now && fired && (log.len() >= split || enough) {
                return Reached { t: next, whole: false };
            }
            let (at, timer) = self.core.queue.pop().expect("peeked");
            self.core.now = at;
            self.fire(timer, log);
            self.record_machines(log);
            fired = true;
        }
        self.core.now = self.core.now.max(t);
        Reached { t: self.core.now, whole: true }
    }

    fn fire(&mut self, timer: Timer, log: &mut Log) {
        match timer {
            Timer::Machine { m, timer } => self.on_machine(m, log, |machine, ctx| machine.on_timer(timer, ctx)),
            Timer::NodeLifecycle(timer) => {
                let nlc = &mut self.nlc;
                self.core.with(log, Timer::NodeLifecycle, |ctx| nlc.on_timer(timer, ctx));
            }
            Timer::Scheduler(timer) => {
                let scheduler = &mut self.scheduler;
                self.core.with(log, Timer::Scheduler, |ctx| scheduler.on_timer(timer, ctx));
                // The PV controller's claim informer: the scheduler may have selected a node.
                if !self.statefulsets.sets.is_empty() {
                    let volumes = &mut self.persistent_volumes;
                    self.core.with(log, persistent_volume_timer, |ctx| volumes.on_change(ctx));
                }
            }
            Timer::PersistentVolume(timer) => {
                let volumes = &mut self.persistent_volumes;
                self.core.with(log, persistent_volume_timer, |ctx| volumes.on_timer(*timer, ctx));
            }
            Timer::TaintEviction(timer) => {
                let eviction = &mut self.eviction;
                self.core.with(log, taint_eviction_timer, |ctx| eviction.on_timer(*timer, ctx));
            }
            Timer::Kubectl(timer) => {
                let kubectl = &mut self.kubectl;
                self.core.with(log, Timer::Kubectl, |ctx| kubectl.on_timer(timer, ctx));
            }
            Timer::Disruption(timer) => {
                let disruption = &mut self.disruption;
                self.core.with(log, Timer::Disruption, |ctx| disruption.on_timer(timer, ctx));
            }
            Timer::PodGc(timer) => {
                let podgc = &mut self.podgc;
                self.core.with(log, Timer::PodGc, |ctx| podgc.on_timer(timer, ctx));
            }
            Timer::AttachDetach(timer) => {
                let ad = &mut self.attach_detach;
                self.core.with(log, Timer::AttachDetach, |ctx| ad.on_timer(timer, ctx));
            }
            Timer::ClientWake(waker) => self.wake(waker, log),
            Timer::Reconcile => {
                self.core.bus.reconcile_pending = false;
                self.reconcile(log);
            }
            Timer::BootstrapToken => {
                self.core.with(log, no_timer, kubectl_client::create_bootstrap_token);
            }
            Timer::Resync => {
                self.core.bus.dirty_pods = true;
                self.core.bus.resync = true;
                self.reconcile(log);
            }
        }
    }

    /// A component's client has a token again: it goes on with its work.
    fn wake(&mut self, waker: Waker, log: &mut Log) {
        let w = wake(waker);
        match waker {
            Waker::Ttl => {
                let ttl = &mut self.ttl;
                self.core.with(log, w, |ctx| ttl.on_wake(ctx));
            }
            Waker::NodeIpam => {
                let ipam = &mut self.ipam;
                self.core.with(log, w, |ctx| ipam.on_wake(ctx));
            }
            Waker::GarbageCollector => {
                let gc = &mut self.gc;
                self.core.with(log, w, |ctx| gc.on_wake(ctx));
            }
            Waker::ReplicaSet => {
                let replicasets = &mut self.replicasets;
                self.core.with(log, w, |ctx| replicasets.on_wake(ctx));
            }
            Waker::DaemonSet => {
                let daemonsets = &mut self.daemonsets;
                self.core.with(log, w, |ctx| daemonsets.on_wake(ctx));
            }
            Waker::StatefulSet => {
                let statefulsets = &mut self.statefulsets;
                self.core.with(log, w, |ctx| statefulsets.on_wake(ctx));
            }
        }
    }

    /// Delivers the Node and Pod changes since the last pass to every component that watches them.
    fn reconcile(&mut self, log: &mut Log) {
        let nodes = std::mem::take(&mut self.core.bus.dirty_nodes);
        let pods_changed = std::mem::take(&mut self.core.bus.dirty_pods);
        let pods = std::mem::take(&mut self.core.bus.changed_pods);
        let pod_nodes = std::mem::take(&mut self.core.bus.pod_nodes);
        let all = std::mem::take(&mut self.core.bus.resync);
        if std::mem::take(&mut self.core.bus.dirty_csrs) {
            // The kubelets' watches of their CSRs, then the certificate controllers' informer.
            for m in 0..self.machines.len() {
                if self.machines[m].kubelet().is_some() {
                    self.on_machine(m, log, |machine, ctx| machine.on_csr_change(ctx));
                }
            }
            let certificates = &mut self.certificates;
            self.core.with(log, no_timer, |ctx| certificates.on_change(ctx));
        }
        let changes = Changes { nodes: &nodes, pods: &pods, all };
        for name in nodes.keys() {
            let (nlc, ttl, ipam) = (&mut self.nlc, &mut self.ttl, &mut self.ipam);
            self.core.with(log, Timer::NodeLifecycle, |ctx| nlc.on_node_change(name, ctx));
            self.core.with(log, wake(Waker::Ttl), |ctx| ttl.on_node_change(name, ctx));
            self.core.with(log, wake(Waker::NodeIpam), |ctx| ipam.on_node_change(name, ctx));
            let gc = &mut self.gc;
            self.core.with(log, wake(Waker::GarbageCollector), |ctx| gc.on_node_change(name, ctx));
        }
        if pods_changed || !nodes.is_empty() {
            let eviction = &mut self.eviction;
            self.core.with(log, taint_eviction_timer, |ctx| eviction.on_change(&changes, ctx));
            let scheduler = &mut self.scheduler;
            self.core.with(log, Timer::Scheduler, |ctx| scheduler.on_change(ctx));
            // The ReplicaSet controller watches Pods only.
            if pods_changed {
                let replicasets = &mut self.replicasets;
                self.core.with(log, wake(Waker::ReplicaSet), |ctx| replicasets.on_change(ctx));
                let disruption = &mut self.disruption;
                self.core.with(log, Timer::Disruption, |ctx| disruption.on_change(ctx));
                let statefulsets = &mut self.statefulsets;
                self.core.with(log, wake(Waker::StatefulSet), |ctx| statefulsets.on_change(ctx));
                if !self.statefulsets.sets.is_empty() {
                    let volumes = &mut self.persistent_volumes;
                    self.core.with(log, persistent_volume_timer, |ctx| volumes.on_change(ctx));
                }
            }
            // The DaemonSet controller watches Nodes and Pods.
            if self.daemonsets.exists() {
                let daemonsets = &mut self.daemonsets;
                self.core.with(log, wake(Waker::DaemonSet), |ctx| daemonsets.on_change(ctx));
            }
            // Only StatefulSet Pods have volumes to attach.
            if !self.statefulsets.sets.is_empty() {
                let ad = &mut self.attach_detach;
                self.core.with(log, Timer::AttachDetach, |ctx| ad.on_change(ctx));
            }
            // A kubelet's informers watch its own Node and the Pods bound to it, including what the
            // controllers changed in this pass.
            let watching: Vec<usize> = if all {
                (0..self.machines.len()).collect()
            } else {
                let bus = &self.core.bus;
                let hosts =
                    nodes.keys().chain(pod_nodes.keys()).chain(bus.dirty_nodes.keys()).chain(bus.pod_nodes.keys());
                let mut ms: Vec<usize> = hosts.filter_map(|h| self.hosts.get(h)).flatten().copied().collect();
                ms.sort_unstable();
                ms.dedup();
                ms
            };
            for m in watching {
                self.on_machine(m, log, |machine, ctx| machine.on_change(ctx));
            }
        }
    }

    /// Hands machine `m` one input, and notes whether its visible state may have changed.
    fn on_machine(&mut self, m: usize, log: &mut Log, f: impl FnOnce(&mut Machine, &mut Ctx<'_, MachineTimer>)) {
        let machine = &mut self.machines[m];
        self.core.with(log, |timer| Timer::Machine { m, timer }, |ctx| f(machine, ctx));
        if machine.host.touched {
            self.dirty_machines.add(m);
        }
    }

    /// Records the visible state of every machine that changed.
    pub(crate) fn record_machines(&mut self, log: &mut Log) {
        if self.dirty_machines.is_empty() {
            return;
        }
        for m in std::mem::take(&mut self.dirty_machines).into_keys() {
            let machine = &mut self.machines[m];
            machine.host.touched = false;
            let view = machine.view();
            if self.last_views.len() <= m {
                self.last_views.resize(m + 1, None);
            }
            if self.last_views[m].as_deref() == Some(&view) {
                continue;
            }
            let view = Arc::new(view);
            self.last_views[m] = Some(view.clone());
            log.push_machine(self.core.now, m, view);
        }
    }

    /// What the API server meets at each machine's kubelet (by hostname), for `kubectl logs` and
    /// `exec`.
    fn kubelet_servers(&self) -> Vec<(String, kubectl_client::KubeletServer)> {
        use kubectl_client::KubeletServer as S;
        let server = |m: &Machine| {
            let h = &m.host;
            if h.powered_off {
                S::NotModelled("a powered-off machine")
            } else if h.network_cut {
                S::NotModelled("a machine whose network is cut")
            } else if m.kubelet().is_none() {
                S::NotListening
            } else if !h.runtime_up {
                S::NotModelled("a machine whose container runtime is stopped")
            } else if h.server_tls_bootstrap && h.serving_certificate.is_none() {
                S::NoServingCertificate
            } else {
                S::Serving
            }
        };
        self.machines.iter().map(|m| (m.host.hostname.to_string(), server(m))).collect()
    }

    /// The index of the machine named `name`.
    fn machine_index(&self, name: &str) -> Option<usize> {
        self.machines.iter().position(|m| m.host.name == name)
    }

    /// Whether `action` makes sense now; the error says why not.
    pub(crate) fn check_action(&self, kind: ActionKind, machine: Option<&str>) -> Result<Option<usize>, Refusal> {
        let views = self.views();
        let views: Vec<&MachineView> = views.iter().map(|v| &**v).collect();
        let node = |n: &str| self.core.api.nodes.get(n).cloned();
        let pod = |ns: &str, name: &str| self.core.api.pods.get(&(ns.to_string(), name.to_string())).cloned();
        let created = |k: ActionKind| match k {
            ActionKind::CreateStatefulSet => !self.statefulsets.sets.is_empty(),
            ActionKind::CreateCache => self.replicasets.has(CACHE_DEPLOYMENT),
            _ => false,
        };
        check_action(kind, machine, &views, node, pod, self.core.api.pods.len(), created)
    }

    /// What can be seen of every machine now: the view last recorded ([`World::record_machines`]
    /// runs after every timer and input), built again only for a machine that changed since or
    /// was never recorded (a fleet's thousand views are not built for each input).
    fn views(&self) -> Vec<std::borrow::Cow<'_, MachineView>> {
        use std::borrow::Cow;
        let views: Vec<Cow<'_, MachineView>> = (self.machines.iter().enumerate())
            .map(|(m, machine)| match self.last_views.get(m) {
                Some(Some(view)) if !self.dirty_machines.contains_key(&m) => Cow::Borrowed(&**view),
                _ => Cow::Owned(machine.view()),
            })
            .collect();
        debug_assert!(
            views.iter().zip(&self.machines).all(|(v, machine)| **v == machine.view()),
            "every machine's last recorded view is its view now"
        );
        views
    }

    /// Applies an input now. Inputs that make no sense now are recorded as rejected.
    pub(crate) fn apply(&mut self, action: &Action, scripted: bool, log: &mut Log) {
        let seq = log.seq();
        let now = self.core.now;
        let m = match self.check_action(action.kind, action.machine.as_deref()) {
            Ok(m) => m,
            Err(why) => {
                log.inputs.push(AppliedInput { seq, t: now, action: action.clone(), scripted, rejected: Some(why) });
                return;
            }
        };
        log.inputs.push(AppliedInput { seq, t: now, action: action.clone(), scripted, rejected: None });
        let views = self.views();
        if let Ok(targets) =
            fleet_targets(action.kind, action.machine.as_deref(), &views.iter().map(|v| &**v).collect::<Vec<_>>())
        {
            let cut = matches!(action.kind, ActionKind::CutZone | ActionKind::CutNodes | ActionKind::CutControlPlane);
            for m in targets {
                if cut {
                    self.on_machine(m, log, |machine, _| machine.cut_network(now));
                } else {
                    self.on_machine(m, log, |machine, ctx| machine.restore_network(ctx));
                }
            }
            return;
        }
        if let Some(m) = m {
            match action.kind {
                ActionKind::KillKubelet => self.on_machine(m, log, |machine, ctx| machine.kill_kubelet(ctx)),
                ActionKind::StartKubelet => self.on_machine(m, log, |machine, ctx| machine.start_kubelet(true, ctx)),
                ActionKind::StopRuntime => self.on_machine(m, log, |machine, ctx| machine.stop_runtime(ctx)),
                ActionKind::StartRuntime => self.on_machine(m, log, |machine, _| machine.start_runtime()),
                ActionKind::CutNetwork => self.on_machine(m, log, |machine, _| machine.cut_network(now)),
                ActionKind::RestoreNetwork => self.on_machine(m, log, |machine, ctx| machine.restore_network(ctx)),
                ActionKind::LabelNodeRole => self.on_machine(m, log, |machine, ctx| machine.label_node_role(ctx)),
                ActionKind::Shutdown => self.on_machine(m, log, |machine, ctx| machine.shutdown(ctx)),
                ActionKind::PowerOff => self.on_machine(m, log, |machine, _| machine.power_off()),
                ActionKind::DeleteNode => {
                    let node = self.machines[m].host.hostname.clone();
                    self.core.with(log, no_timer, |ctx| kubectl_client::delete_node(&node, ctx));
                }
                ActionKind::TaintOutOfService | ActionKind::UntaintOutOfService => {
                    let node = self.machines[m].host.hostname.clone();
                    let add = action.kind == ActionKind::TaintOutOfService;
                    self.core.with(log, no_timer, |ctx| kubectl_client::taint_out_of_service(&node, add, ctx));
                }
                ActionKind::Taint { overwrite } => {
                    let node = self.machines[m].host.hostname.clone();
                    let (_, edit) = split_taint_target(action.machine.as_deref().unwrap_or_default())
                        .expect("checked when the action was read");
                    self.core.with(log, no_timer, |ctx| kubectl_client::taint(&node, &edit, overwrite, ctx));
                }
                ActionKind::AddDuplicateMachine => {
                    let host = self.machines[m].host.hostname.clone();
                    let mut spec = MachineSpec::new(&format!("{host}-dup"));
                    spec.hostname = host.to_string();
                    self.add_machine(spec, log);
                }
                ActionKind::CreateBestEffortPod => {
                    let node = self.machines[m].host.hostname.clone();
                    self.core.with(log, no_timer, |ctx| kubectl_client::create_besteffort_pod(&node, ctx));
                }
                ActionKind::CreatePriorityPod => {
                    let node = self.machines[m].host.hostname.clone();
                    self.core.with(log, no_timer, |ctx| kubectl_client::create_priority_pod(&node, ctx));
                }
                ActionKind::CreateCache => {
                    let node = self.machines[m].host.hostname.clone();
                    let spec = ReplicaSetSpec {
                        deployment: CACHE_DEPLOYMENT.into(),
                        replicas: 1,
                        created_after: now.since_start(),
                    };
                    self.add_workload(&spec, Some(&node));
                }
                ActionKind::Cordon | ActionKind::Uncordon => {
                    let node = self.machines[m].host.hostname.clone();
                    let desired = action.kind == ActionKind::Cordon;
                    self.core.with(log, no_timer, |ctx| kubectl_client::cordon(&node, desired, ctx));
                }
                ActionKind::Drain(flags) => {
                    let node = self.machines[m].host.hostname.clone();
                    let kubectl = &mut self.kubectl;
                    self.core.with(log, Timer::Kubectl, |ctx| kubectl.drain(&node, flags, ctx));
                }
                ActionKind::LeakMemory | ActionKind::StopLeak => {
                    let target = action.machine.as_deref().unwrap_or_default();
                    let (namespace, name) = split_pod(target).unwrap_or(("default", target));
                    let key = (namespace.to_string(), name.to_string());
                    let uid = self.core.api.pods.get(&key).map(|p| p.metadata.uid.to_string()).unwrap_or_default();
                    if action.kind == ActionKind::LeakMemory {
                        self.on_machine(m, log, |machine, ctx| machine.leak_memory(&uid, ctx));
                    } else {
                        self.on_machine(m, log, |machine, _| machine.stop_leak(&uid, now));
                    }
                }
                _ => unreachable!("aims at no machine"),
            }
            return;
        }
        match action.kind {
            ActionKind::CreatePod => self.core.with(log, no_timer, |ctx| kubectl_client::create_pod(false, ctx)),
            ActionKind::CreateToleratingPod => {
                self.core.with(log, no_timer, |ctx| kubectl_client::create_pod(true, ctx))
            }
            ActionKind::CreatePdb(budget) => {
                self.core.with(log, no_timer, |ctx| kubectl_client::create_pdb(budget, ctx));
                // The disruption controller's informer delivers the new budget.
                let disruption = &mut self.disruption;
                self.core.with(log, Timer::Disruption, |ctx| disruption.on_change(ctx));
            }
            ActionKind::CreateDaemonSet => {
                let daemonsets = &mut self.daemonsets;
                self.core.with(log, wake(Waker::DaemonSet), |ctx| {
                    daemonsets.create(ctx);
                    daemonsets.on_change(ctx);
                });
            }
            ActionKind::CreateStatefulSet => {
                let sets = &mut self.statefulsets;
                let added = self.core.with(log, wake(Waker::StatefulSet), |ctx| {
                    let added = sets.add(ctx);
                    if added {
                        sets.on_change(ctx);
                    }
                    added
                });
                if added {
                    let volumes = &mut self.persistent_volumes;
                    self.core.with(log, persistent_volume_timer, |ctx| volumes.on_change(ctx));
                }
            }
            ActionKind::DeletePod(flags) => {
                let target = action.machine.as_deref().unwrap_or_default();
                let (namespace, name) = split_pod(target).unwrap_or(("default", target));
                self.core.with(log, no_timer, |ctx| kubectl_client::delete_pod(namespace, name, flags, ctx));
            }
            ActionKind::ApproveCsr | ActionKind::DenyCsr => {
                let name = action.machine.clone().unwrap_or_default();
                let approve = action.kind == ActionKind::ApproveCsr;
                self.core.with(log, no_timer, |ctx| kubectl_client::certificate(&name, approve, ctx));
            }
            ActionKind::DeleteBootstrapToken => {
                self.core.with(log, no_timer, kubectl_client::delete_bootstrap_token);
            }
            ActionKind::DeleteAutoApproveBinding => {
                self.core.with(log, no_timer, kubectl_client::delete_autoapprove_binding);
            }
            ActionKind::Logs | ActionKind::Exec => {
                let target = action.machine.clone().unwrap_or_default();
                let (namespace, name, container) =
                    crate::action::split_pod_container(&target).unwrap_or(("default", &target, None));
                let servers = self.kubelet_servers();
                let server = |node: &str| {
                    servers.iter().find(|(h, _)| h == node).map_or(
                        kubectl_client::KubeletServer::NotModelled("a Pod whose Node has no machine"),
                        |(_, s)| s.clone(),
                    )
                };
                let exec = action.kind == ActionKind::Exec;
                self.core
                    .with(log, no_timer, |ctx| kubectl_client::logs(namespace, name, container, exec, server, ctx));
            }
            ActionKind::AddMachine => {
                let n = (1..).find(|i| self.machine_index(&format!("node-{i}")).is_none()).expect("a free name");
                self.add_machine(MachineSpec::new(&format!("node-{n}")), log);
            }
            _ => unreachable!("aims at a machine"),
        }
    }

    fn add_machine(&mut self, spec: MachineSpec, log: &mut Log) {
        let spec = self.core.settings.machine(&spec);
        let m = self.machines.len();
        let machine = Machine::new(&spec, m as u32, self.core.config.profile, &mut self.core.rng);
        self.machines.push(machine);
        self.hosts.get_or_insert_with(spec.hostname.clone(), Vec::new).push(m);
        self.on_machine(m, log, |machine, ctx| machine.start_kubelet(false, ctx));
    }
}

/// The node-local workload `create-cache` makes.
pub(crate) const CACHE_DEPLOYMENT: &str = "cache";

/// The most Pods a sandbox holds.
pub(crate) const MAX_PODS: usize = 24;
/// The most machines a sandbox holds.
pub(crate) const MAX_MACHINES: usize = 6;

#[cfg(test)]
mod timer_size {
    /// The queue holds thousands of timers and every checkpoint copies it: a timer stays at 32
    /// bytes (a queued entry, with its instant and sequence number, at 48).
    #[test]
    fn a_timer_is_32_bytes() {
        assert_eq!(std::mem::size_of::<super::Timer>(), 32);
    }
}
