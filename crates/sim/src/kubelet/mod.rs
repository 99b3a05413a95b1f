//! The kubelet of one machine, and the machine it runs on (its host, and systemd's view of the
//! process). A [`Machine`] is one component: the router drives it through [`Machine::on_timer`],
//! [`Machine::on_change`] (its informers saw Nodes or Pods change) and the reader's actions, and
//! it acts only through its [`Ctx`].
//!
//! Each loop of the real kubelet is a chain of timers here, one link at a time, so that a
//! request that times out (a cut network) delays the rest of its loop exactly as long as the
//! client waits. Constants and strings follow `pkg/kubelet` (see `docs/kubernetes-notes.md`).
//! The loops live in their own files: [`register`], [`status`] (node status sync), [`lease`]
//! (the node Lease), [`pods`] (pod workers), [`runtime`] (runtime and PLEG checks), [`csi`] (the
//! CSI plugin's CSINode), and [`events`] (the kubelet's event queue while it cannot reach the API
//! server).

mod bootstrap;
mod cert_manager;
mod csi;
mod events;
mod eviction;
mod host;
mod lease;
mod pods;
mod register;
mod runtime;
mod shutdown;
mod status;

pub use eviction::{
    EVICTION_HARD_MEMORY_AVAILABLE, EVICTION_HARD_MEMORY_AVAILABLE_BYTES, EVICTION_MONITORING_PERIOD,
    EVICTION_PRESSURE_TRANSITION_PERIOD, Thresholds,
};

use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Client, Ctx, Reply, Sender};
use crate::events::{Recorder, kubelet_node_ref};
use crate::flowcontrol::{ClientRate, TokenBucket};
use crate::machine::{KubeletState, Leak, MachineSpec, MachineView, ZONE_LABEL};
use crate::objects::{ContainerImage, Node};
use crate::profile::Profile;
use crate::record::{Actor, LeaseVersion};
use crate::rng::Rng;
use crate::shared::Shared;
use crate::time::{SimTime, millis, secs};
use crate::vecmap::VecMap;
use std::sync::Arc;

pub(crate) use csi::CSINODE_NOT_INITIALIZED;
pub(crate) use host::Host;
pub(crate) use pods::PodStep;
pub(crate) use shutdown::ShutdownTimer;

// `nodeStatusUpdateFrequency`, `nodeStatusReportFrequency`, `nodeLeaseDurationSeconds` (the
// Lease renewed every quarter of it), the heartbeat client's timeout (min of the first and the
// last) and `kubeAPIQPS`/`kubeAPIBurst` are read from `ctx.settings`.

/// `nodeStatusUpdateRetry`: tries per status sync.
const NODE_STATUS_UPDATE_RETRY: u8 = 5;
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
/// How often the image manager refreshes its image list (`imageCacheRefreshPeriod`, no jitter).
const IMAGE_CACHE_REFRESH_PERIOD: Duration = secs(30);
/// systemd's `RestartSec=10` in the kubelet unit.
pub(crate) const SYSTEMD_RESTART_SEC: Duration = secs(10);

/// The message containerd reports while no CNI configuration exists.
pub const CNI_NOT_READY: &str = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";
/// The kubelet's start-up error when containerd's socket is missing.
pub(crate) const CRI_DOWN_AT_START: &str = "failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \"unix:///run/containerd/containerd.sock\": rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory\"";

/// A machine's timer: systemd's, the CNI plugin's, or its running kubelet's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MachineTimer {
    /// systemd starts (or restarts) the kubelet.
    Boot,
    /// The machine's boot starts the kubelet unit (`systemctl enable --now kubelet`).
    Start,
    /// The CNI configuration appears.
    CniReady,
    /// A running kubelet's own timer; ignored if the process that set it has gone.
    Kubelet { generation: u32, timer: KubeletTimer },
    /// The machine powers off (the end of a graceful shutdown).
    PowerOff,
}

/// A kubelet timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum KubeletTimer {
    /// `BirthCry`: the `Starting` event.
    BirthCry,
    /// The CSI plugin's `waitForAPIServerForever` poll.
    CsiWait,
    /// Try `attempt` of call `call` of `InitializeCSINodeWithAnnotation`.
    CsiTry { call: u8, attempt: u8 },
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
    /// The image manager refreshes its cache of the runtime's image list.
    ImageCache,
    /// The next step of starting or stopping a Pod's containers (the Pod's uid and the step;
    /// boxed, as is the shutdown manager's, to keep every queued timer small).
    Pod(Box<(String, PodStep)>),
    /// The node shutdown manager's next step.
    Shutdown(Box<ShutdownTimer>),
    /// The eviction manager's next step.
    Eviction(eviction::EvictionStep),
    /// A request's client timeout ran out: its error lines, then the loop goes on.
    TimedOut(Box<TimedOut>),
    /// The TLS bootstrap's next step.
    Bootstrap(bootstrap::BootstrapStep),
    /// A certificate manager's next step (the client certificate's with `rotateCertificates`,
    /// the serving certificate's with `serverTLSBootstrap`; boxed, as the Pod worker's step is,
    /// to keep every queued timer small).
    Certificate(Box<(cert_manager::Managed, cert_manager::ManagerStep)>),
}

/// What a loop does when a request it sent times out, once the timeout has run: the call returns
/// its error only then, so its lines are logged then, and then the loop's next step follows
/// (after `after`, or not at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TimedOut {
    lines: Vec<String>,
    then: Option<(Duration, KubeletTimer)>,
}

/// The kubelet process, as systemd sees it.
#[derive(Clone, Debug)]
pub(crate) enum KubeletProcess {
    /// Stopped (`systemctl stop kubelet`).
    Stopped,
    /// Exited with an error; systemd starts it again after `RestartSec=10`.
    Restarting { why: String },
    /// Running.
    Running(Box<Kubelet>),
}

/// One machine: its host, and its kubelet process.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    pub(crate) host: Shared<Host>,
    pub(crate) process: KubeletProcess,
    /// Whether systemd wants the kubelet running (false after `kill-kubelet`).
    enabled: bool,
    /// Whether the reader has started or killed this kubelet (the scenario then leaves it be).
    touched_by_reader: bool,
    /// Incremented at every kubelet process start; timers of older processes are ignored.
    generation: u32,
}

impl Machine {
    /// Builds machine number `index` (0-based) from its spec; its kubelet is not running yet.
    pub(crate) fn new(spec: &MachineSpec, index: u32, profile: Profile, rng: &mut Rng) -> Machine {
        Machine {
            host: Shared::new(Host::new(spec, index, profile, rng)),
            process: KubeletProcess::Stopped,
            enabled: false,
            touched_by_reader: false,
            generation: 0,
        }
    }

    /// The timers a machine starts with, from its spec.
    pub(crate) fn start(spec: &MachineSpec, ctx: &mut Ctx<'_, MachineTimer>) {
        if let Some(after) = spec.cni_ready_after {
            ctx.at(SimTime::ZERO + after, MachineTimer::CniReady);
        }
        if let Some(after) = spec.kubelet_start {
            ctx.at(SimTime::ZERO + after, MachineTimer::Start);
        }
    }

    /// The running kubelet, if any.
    pub(crate) fn kubelet(&self) -> Option<&Kubelet> {
        match &self.process {
            KubeletProcess::Running(k) => Some(k),
            _ => None,
        }
    }

    /// What can be seen of the machine now.
    pub(crate) fn view(&self) -> MachineView {
        let h = &self.host;
        MachineView {
            name: h.name.clone(),
            hostname: h.hostname.clone(),
            ip: h.ip.clone(),
            kubelet: match &self.process {
                KubeletProcess::Stopped => KubeletState::Stopped,
                KubeletProcess::Restarting { why } => KubeletState::Restarting { why: why.clone() },
                KubeletProcess::Running(_) => KubeletState::Running,
            },
            runtime_up: h.runtime_up,
            cni_ready: h.cni_ready,
            network_cut: h.network_cut,
            containers: h.containers.clone(),
            powered_off: h.powered_off,
            leaks: h.leaks.clone(),
            zone: h.node_labels.iter().find(|(k, _)| k == ZONE_LABEL).map(|(_, v)| v.clone()).unwrap_or_default(),
            bootstrap: h.bootstrap,
            client_certificate: h.client_certificate.clone(),
            serving_certificate: h.serving_certificate.clone(),
        }
    }

    /// Input: one of the machine's timers fired.
    pub(crate) fn on_timer(&mut self, timer: MachineTimer, ctx: &mut Ctx<'_, MachineTimer>) {
        match timer {
            MachineTimer::Boot => self.boot(ctx),
            MachineTimer::Start => {
                // The reader's own start or kill of this kubelet wins over the scenario's.
                if !self.touched_by_reader {
                    self.enabled = true;
                    self.boot(ctx);
                }
            }
            MachineTimer::Kubelet { generation, timer } => {
                if let KubeletProcess::Running(k) = &mut self.process
                    && k.generation == generation
                {
                    k.on_timer(&mut self.host, ctx, timer);
                    if let Some(why) = k.exit.take() {
                        // klog.Fatalf: the process exits; systemd starts it again.
                        self.host.touch();
                        self.process = KubeletProcess::Restarting { why };
                        ctx.after(SYSTEMD_RESTART_SEC, MachineTimer::Boot);
                    }
                }
            }
            MachineTimer::PowerOff => self.power_off(),
            MachineTimer::CniReady => {
                if let KubeletProcess::Running(k) = &mut self.process {
                    k.wake_runtime_check(ctx);
                }
                let h = &mut self.host;
                h.cni_ready = true;
                h.touch();
                let host = h.hostname.clone();
                h.log(
                    ctx,
                    format!(
                        "CNI plugin configuration written to /etc/cni/net.d on {host}; containerd reports NetworkReady=true"
                    ),
                );
            }
        }
    }

    /// Input: the informers saw Nodes or Pods change; the kubelet brings its Pods in line.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        if let KubeletProcess::Running(k) = &mut self.process
            && k.cold.bootstrap.is_none()
        {
            k.sync_pods(&mut self.host, ctx);
        }
    }

    /// systemd starts the kubelet.
    fn boot(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        if !self.enabled || self.kubelet().is_some() {
            return;
        }
        self.host.touch();
        self.generation += 1;
        if !self.host.runtime_up {
            // PreInitRuntimeService fails before anything else; systemd tries again in 10 s.
            self.host.log(ctx, format!("\"command failed\" err=\"{}\"", CRI_DOWN_AT_START.replace('"', "\\\"")));
            self.process = KubeletProcess::Restarting { why: "containerd is not running".into() };
            ctx.after(SYSTEMD_RESTART_SEC, MachineTimer::Boot);
            return;
        }
        let mut k = Kubelet::new(ctx.now, self.generation, ctx.settings.kubelet_client);
        k.cold.csi = csi::CsiInit::new(&self.host.info.boot_id, self.generation);
        let version = ctx.profile.kubelet_version();
        self.host.log(ctx, format!("\"Kubelet version\" kubeletVersion=\"{version}\""));
        if self.host.bootstrap && ctx.settings.rotate_certificates {
            // `rotateCertificates` with a bootstrap kubeconfig: the client certificate manager
            // (the rest of the kubelet starts once it has a certificate).
            k.start_client_rotation(&mut self.host, ctx);
        } else if self.host.bootstrap && self.host.client_certificate.is_none() {
            // `LoadClientCert` runs before the rest of the kubelet is built.
            k.start_bootstrap(&mut self.host, ctx);
        } else {
            k.start_loops(&mut self.host, ctx);
        }
        self.process = KubeletProcess::Running(Box::new(k));
    }

    /// Input: a CertificateSigningRequest changed (the bootstrap's watch, the certificate
    /// managers').
    pub(crate) fn on_csr_change(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        if let KubeletProcess::Running(k) = &mut self.process
            && k.cold.client_manager.is_some()
        {
            k.manager_watch(&mut self.host, ctx, cert_manager::Managed::Client);
        }
        if let KubeletProcess::Running(k) = &mut self.process
            && k.cold.serving.is_some()
        {
            k.manager_watch(&mut self.host, ctx, cert_manager::Managed::Serving);
        }
        if let KubeletProcess::Running(k) = &mut self.process
            && k.cold.bootstrap.is_some()
        {
            k.bootstrap_watch(&mut self.host, ctx);
            if let Some(why) = k.exit.take() {
                self.host.touch();
                self.process = KubeletProcess::Restarting { why };
                ctx.after(SYSTEMD_RESTART_SEC, MachineTimer::Boot);
            }
        }
    }

    /// Action: systemd is asked to start the kubelet (now, or as a new machine boots).
    pub(crate) fn start_kubelet(&mut self, by_reader: bool, ctx: &mut Ctx<'_, MachineTimer>) {
        // A machine that was off boots again.
        self.host.powered_off = false;
        self.enabled = true;
        self.touched_by_reader |= by_reader;
        self.host.touch();
        ctx.at(ctx.now, MachineTimer::Boot);
    }

    /// Action: the kubelet process stops at once (`systemctl stop kubelet`). Its containers keep
    /// running.
    pub(crate) fn kill_kubelet(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        self.touched_by_reader = true;
        self.host.touch();
        self.enabled = false;
        let was_running = matches!(self.process, KubeletProcess::Running(_));
        self.process = KubeletProcess::Stopped;
        if was_running {
            self.host.log(
                ctx,
                "Received signal to terminate: systemctl stop kubelet (SIGTERM); containers keep running".into(),
            );
        }
    }

    /// Action: containerd stops.
    pub(crate) fn stop_runtime(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        let now = ctx.now;
        if let KubeletProcess::Running(k) = &mut self.process {
            k.wake_runtime_check(ctx);
        }
        self.host.touch();
        self.host.runtime_up = false;
        self.host.runtime_down_since = Some(now);
    }

    /// Action: containerd starts again.
    pub(crate) fn start_runtime(&mut self) {
        self.host.touch();
        self.host.runtime_up = true;
        self.host.runtime_down_since = None;
    }

    /// Action: the container of the Pod `uid` starts leaking memory (`leak-memory`); the eviction
    /// manager wakes at its round when the leak will reach the threshold.
    pub(crate) fn leak_memory(&mut self, uid: &str, ctx: &mut Ctx<'_, MachineTimer>) {
        self.host.touch();
        self.host.leaks.push(Leak { pod_uid: uid.into(), since: ctx.now, until: None });
        if let KubeletProcess::Running(k) = &mut self.process {
            k.wake_eviction(&self.host, ctx);
        }
    }

    /// Action: the Pod's leak stops growing (`stop-leak`); what it took stays taken until its
    /// container exits.
    pub(crate) fn stop_leak(&mut self, uid: &str, now: SimTime) {
        self.host.touch();
        for leak in self.host.leaks.iter_mut().filter(|l| l.pod_uid == uid && l.active()) {
            leak.until = Some(now);
        }
    }

    /// Action: the machine's network to the API server is cut.
    pub(crate) fn cut_network(&mut self, now: SimTime) {
        self.host.touch();
        self.host.network_cut = true;
        self.host.network_cut_since = Some(now);
    }

    /// Action: the network comes back. The informers' watches reconnect at the reflector's next
    /// retry. Its backoff starts at 800 ms and doubles to 30 s, with up to 100 % jitter, so after
    /// a long cut the retry comes within a minute.
    pub(crate) fn restore_network(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        self.host.touch();
        self.host.network_cut = false;
        let since = self.host.network_cut_since.take().unwrap_or(ctx.now);
        let cut_for = ctx.now - since;
        if let KubeletProcess::Running(k) = &mut self.process {
            let interval = cut_for.clamp(millis(800), secs(30));
            let delay = ctx.rng.between(millis(100), interval * 2);
            k.after(ctx, delay, KubeletTimer::Relist);
        }
    }

    /// Action: the reader's "Label node-role": someone on the machine runs
    /// `kubectl label node NODE node-role.kubernetes.io/worker=` with the kubelet's kubeconfig.
    /// kubectl reads the Node, then sends its merge patch; NodeRestriction refuses the node's
    /// credentials (`403`). The kubelet itself never labels its Node after registering.
    pub(crate) fn label_node_role(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        self.host.touch();
        let h = &self.host;
        let name = h.hostname.clone();
        let actor = Actor::KubectlAsNode(name.as_str().into());
        let sender =
            Sender { hostname: &h.hostname, network_cut: h.network_cut, client: Client::Main, bootstrap: None };
        ctx.call(actor.clone(), Some(sender), ApiOp::GetNode(name.to_string()));
        let labels = [("node-role.kubernetes.io/worker".to_string(), String::new())].into_iter().collect();
        ctx.call_with(
            actor,
            Some(sender),
            ApiOp::PatchNodeLabels { name: name.to_string(), labels },
            "fieldManager=kubectl-label",
        );
    }
}

/// A running kubelet process's state. A checkpoint copies every running kubelet, so what the
/// periodic loops (the Lease, the status sync, the runtime check: every few seconds) write is kept
/// here, small; the rest is in [`KubeletCold`], shared with the checkpoints until it is written.
#[derive(Clone, Debug)]
pub(crate) struct Kubelet {
    /// Which start of the process this is: timers of an earlier process are ignored.
    generation: u32,
    /// The kubelet's informer copy of its Node (stale while the network is cut).
    pub(crate) node_cache: Option<Arc<Node>>,
    /// The image manager's copy of the runtime's images (what the node status reports), empty
    /// until its first refresh.
    image_cache: Arc<Vec<ContainerImage>>,
    /// When the cache was last refreshed, while its loop is quiet (no timer queued).
    image_cache_at: Option<SimTime>,
    last_status_report: Option<SimTime>,
    /// When the last runtime check ran (see [`Kubelet::runtime_synced_at`] while the loop is
    /// quiet).
    runtime_synced_at: Option<SimTime>,
    /// Whether the runtime check loop is quiet: no timer queued, checks counted on its grid.
    runtime_quiet: bool,
    /// Set when the process exits on its own (`klog.Fatalf`).
    exit: Option<String>,
    pleg_relisted: bool,
    fast_status_done: bool,
    /// The Lease as last written or read (compactly: renewing builds no Lease).
    lease: Option<LeaseVersion>,
    /// Where the API server last found the Lease (the renewal's hint, `ApiOp::RenewLease`).
    lease_slot: u32,
    lease_sleep: Duration,
    /// What the setters read at the last sync that found nothing to send.
    quiet_inputs: Option<status::StatusInputs>,
    /// `lastNodeUnschedulable`: the `spec.unschedulable` the last status sync saw.
    last_unschedulable: bool,
    /// Whether the status sync running now is an extra one (the shutdown manager's), which
    /// does not schedule the periodic loop's next sync.
    status_out_of_band: bool,
    pub(crate) cold: Shared<KubeletCold>,
}

/// What a running kubelet keeps that its periodic loops do not write: registration, the
/// runtime's network and storage errors, the event recorder, the pod workers, the shutdown
/// manager.
#[derive(Clone, Debug)]
pub(crate) struct KubeletCold {
    pub(crate) started_at: SimTime,
    pub(crate) registered: bool,
    register_sleep: Duration,
    network_error: Option<String>,
    /// The volume plugins' error for the Ready condition (`setStorageState`): the CSINode's.
    storage_error: Option<String>,
    csi: csi::CsiInit,
    pub(crate) recorder: Recorder,
    pub(crate) pending_events: Vec<events::PendingEvent>,
    workers: Shared<VecMap<String, pods::Worker>>,
    /// The node shutdown manager, once a shutdown event came. Boxed: few machines ever have one.
    shutdown: Option<Box<shutdown::ShutdownState>>,
    /// The eviction manager.
    eviction: eviction::EvictionManager,
    /// The TLS bootstrap, while it runs (nothing else of the kubelet has started).
    bootstrap: Option<bootstrap::Bootstrap>,
    /// The CSR the bootstrap's watch last saw approved without a certificate (logged once).
    bootstrap_approved_seen: Option<String>,
    /// The client certificate manager, with `rotateCertificates` and a bootstrap kubeconfig.
    client_manager: Option<cert_manager::Manager>,
    /// The serving certificate manager, with `serverTLSBootstrap`.
    serving: Option<cert_manager::Manager>,
    /// The main client's token bucket (`kubeAPIQPS` 50, `kubeAPIBurst` 100 by default): registration, the
    /// status manager's Pod reads, writes and deletes, the CSINode. The heartbeat client (node
    /// status, Lease) has no limit, and the Events have a client of their own that the kubelet
    /// never outruns here (a few Events a Pod, far under `eventBurst` 100).
    client: TokenBucket,
}

impl Kubelet {
    fn new(now: SimTime, generation: u32, client: ClientRate) -> Kubelet {
        Kubelet {
            generation,
            node_cache: None,
            image_cache: Arc::new(Vec::new()),
            image_cache_at: None,
            last_status_report: None,
            runtime_synced_at: None,
            runtime_quiet: false,
            exit: None,
            pleg_relisted: false,
            fast_status_done: false,
            lease: None,
            lease_slot: 0,
            lease_sleep: millis(100),
            quiet_inputs: None,
            last_unschedulable: false,
            status_out_of_band: false,
            cold: Shared::new(KubeletCold {
                started_at: now,
                registered: false,
                // registerWithAPIServer sleeps 100 ms before its first POST (here the status loop's
                // start) and doubles the sleep before each next one, up to 7 s.
                register_sleep: millis(200),
                network_error: Some("network state unknown".into()),
                storage_error: Some(CSINODE_NOT_INITIALIZED.into()),
                csi: csi::CsiInit::new("", generation),
                recorder: Recorder::default(),
                pending_events: Vec::new(),
                workers: Shared::default(),
                shutdown: None,
                eviction: eviction::EvictionManager::default(),
                bootstrap: None,
                bootstrap_approved_seen: None,
                client_manager: None,
                serving: None,
                client: TokenBucket::client(client),
            }),
        }
    }

    /// The kubelet's loops, from `NewMainKubelet` on: the CSI plugin's init, the birth cry, the
    /// runtime check, the Lease, the image cache, the status loops and registration.
    fn start_loops(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let k = self;
        // The CSI plugin's init (inside NewMainKubelet) starts its CSINode goroutine.
        k.after(ctx, Duration::ZERO, KubeletTimer::CsiWait);
        k.after(ctx, millis(350), KubeletTimer::BirthCry);
        k.after(ctx, millis(400), KubeletTimer::RuntimeCheck);
        k.after(ctx, millis(420), KubeletTimer::LeaseSync);
        k.after(ctx, millis(440), KubeletTimer::ImageCache);
        // The fast status goroutine, the status loop and registration start together; the
        // fast status poll reads the lister before the first POST.
        k.after(ctx, millis(450), KubeletTimer::FastStatus);
        k.after(ctx, millis(450), KubeletTimer::SyncNodeStatus);
        k.after(ctx, millis(520), KubeletTimer::AllocatableEnforced);
        k.after(ctx, millis(1400), KubeletTimer::PlegRelist);
        k.wake_eviction(h, ctx);
        if h.server_tls_bootstrap {
            k.start_manager(h, ctx, cert_manager::Managed::Serving);
        }
    }

    /// Sends a request through the main client: it takes a token of the bucket (the requests of
    /// one step go together; the bucket owes what it lacks, and the next step waits for it).
    pub(super) fn call(&mut self, h: &Host, ctx: &mut Ctx<'_, MachineTimer>, op: ApiOp) -> Reply {
        self.cold.client.reserve(ctx.now);
        h.call(ctx, op)
    }

    /// [`Kubelet::call`] with a query.
    pub(super) fn call_with_query(
        &mut self,
        h: &Host,
        ctx: &mut Ctx<'_, MachineTimer>,
        op: ApiOp,
        query: &'static str,
    ) -> Reply {
        self.cold.client.reserve(ctx.now);
        h.call_with_query(ctx, op, query)
    }

    /// When the main client has a token again, if it has none now: a Pod worker's step, whose
    /// requests go through it, waits until then (client-go's `Wait`).
    pub(super) fn main_client_wait(&self, now: SimTime) -> Option<SimTime> {
        self.cold.client.ready_at(now).filter(|at| *at > now)
    }

    /// Asks for one of this process's timers.
    fn after(&self, ctx: &mut Ctx<'_, MachineTimer>, d: Duration, timer: KubeletTimer) {
        ctx.after(d, MachineTimer::Kubelet { generation: self.generation, timer });
    }

    /// A request timed out after `wait`: `lines` are logged when the wait is over, and `then`
    /// follows.
    fn timed_out(
        &self,
        ctx: &mut Ctx<'_, MachineTimer>,
        wait: Duration,
        lines: Vec<String>,
        then: Option<(Duration, KubeletTimer)>,
    ) {
        self.after(ctx, wait, KubeletTimer::TimedOut(Box::new(TimedOut { lines, then })));
    }

    /// Input: one of the kubelet's timers fired.
    fn on_timer(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, timer: KubeletTimer) {
        match timer {
            KubeletTimer::BirthCry => {
                let node = h.hostname.clone();
                self.event(h, ctx, kubelet_node_ref(&node), "Normal", "Starting", "Starting kubelet.".into());
                // The image GC's first pass finds no image filesystem stats yet (every start).
                self.event(
                    h,
                    ctx,
                    kubelet_node_ref(&node),
                    "Warning",
                    "InvalidDiskCapacity",
                    "invalid capacity 0 on image filesystem".into(),
                );
                h.log(
                    ctx,
                    "\"Image garbage collection failed once. Stats initialization may not have completed yet\" err=\"invalid capacity 0 on image filesystem\"".into(),
                );
            }
            KubeletTimer::CsiWait => self.csi_wait(h, ctx),
            KubeletTimer::CsiTry { call, attempt } => self.csi_try(h, ctx, call, attempt),
            KubeletTimer::AllocatableEnforced => {
                let node = h.hostname.clone();
                self.event(
                    h,
                    ctx,
                    kubelet_node_ref(&node),
                    "Normal",
                    "NodeAllocatableEnforced",
                    "Updated Node Allocatable limit across pods".into(),
                );
            }
            KubeletTimer::ImageCache => self.refresh_image_cache(h, ctx),
            KubeletTimer::RuntimeCheck => self.runtime_check(h, ctx),
            KubeletTimer::PlegRelist => {
                if h.runtime_up {
                    self.pleg_relisted = true;
                    // The sync loop stops skipping pod synchronization.
                    self.sync_pods(h, ctx);
                } else {
                    self.after(ctx, secs(1), KubeletTimer::PlegRelist);
                }
            }
            KubeletTimer::SyncNodeStatus => self.sync_node_status(h, ctx),
            KubeletTimer::Register => self.register(h, ctx),
            KubeletTimer::StatusTry(n) => self.status_try(h, ctx, n),
            KubeletTimer::FastStatus => self.fast_status(h, ctx),
            KubeletTimer::LeaseSync => self.lease_sync(h, ctx),
            KubeletTimer::LeaseTry(n) => {
                let base = self.lease.clone();
                match base {
                    Some(base) => self.lease_update(h, ctx, n, base),
                    None => self.lease_ensure(h, ctx, true),
                }
            }
            KubeletTimer::LeaseEnsure { then_update } => self.lease_ensure(h, ctx, then_update),
            KubeletTimer::EventFlush => self.flush_events(h, ctx),
            KubeletTimer::Relist => {
                if !h.network_cut {
                    self.sync_pods(h, ctx);
                }
            }
            KubeletTimer::Pod(pod) => {
                if let Some(at) = self.main_client_wait(ctx.now) {
                    self.after(ctx, at - ctx.now, KubeletTimer::Pod(pod));
                    return;
                }
                let (uid, step) = *pod;
                self.pod_step(h, ctx, &uid, step)
            }
            KubeletTimer::Shutdown(timer) => self.on_shutdown_timer(h, ctx, *timer),
            KubeletTimer::Eviction(step) => self.on_eviction_step(h, ctx, step),
            KubeletTimer::Bootstrap(step) => self.bootstrap_step(h, ctx, step),
            KubeletTimer::Certificate(step) => {
                let (which, step) = *step;
                self.manager_step(h, ctx, which, step);
            }
            KubeletTimer::TimedOut(timed_out) => {
                let TimedOut { lines, then } = *timed_out;
                for line in lines {
                    h.log(ctx, line);
                }
                match then {
                    Some((Duration::ZERO, next)) => self.on_timer(h, ctx, next),
                    Some((d, next)) => self.after(ctx, d, next),
                    None => {}
                }
            }
        }
    }

    /// Records the events the status setters found.
    fn emit(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        events: Vec<(&'static str, &'static str, String)>,
    ) {
        let node = h.hostname.clone();
        for (ty, reason, message) in events {
            self.event(h, ctx, kubelet_node_ref(&node), ty, reason, message);
        }
    }
}

#[cfg(test)]
mod client_tests {
    use super::*;
    use crate::objects::ObjectMeta;
    use crate::testkit::{Probe, matches};
    use crate::workload::new_pod;

    /// The main client's burst is 100: a Pod worker's step that comes when the bucket is empty
    /// waits for the next token (1/50 s), and its status PATCH is sent then.
    #[test]
    fn a_step_waits_for_the_main_clients_token_after_its_burst() {
        let mut probe = Probe::new();
        probe.given(ApiOp::CreateNode(Node::new("node-1")));
        let meta = ObjectMeta { name: "web-0".into(), namespace: "default".into(), ..ObjectMeta::default() };
        let mut pod = new_pod(meta, Vec::new(), Profile::V1_34);
        pod.spec.node_name = "node-1".into();
        let uid = match probe.given(ApiOp::CreatePod(pod)) {
            crate::objects::Object::Pod(p) => p.metadata.uid.to_string(),
            other => panic!("{other:?}"),
        };
        let mut host = Shared::new(Host::new(&MachineSpec::new("node-1"), 0, Profile::V1_34, probe.rng()));
        let mut kubelet = Kubelet::new(probe.now, 1, crate::flowcontrol::KUBELET);
        let burst = probe.input(|ctx| {
            for _ in 0..100 {
                kubelet.call(&host, ctx, ApiOp::GetNode("node-1".into()));
            }
        });
        assert_eq!(burst.len(), 100, "the burst goes at once");
        let step = || KubeletTimer::Pod(Box::new((uid.clone(), pods::PodStep::Sandbox)));
        let waits = probe.input(|ctx| kubelet.on_timer(&mut host, ctx, step()));
        assert!(matches(&waits, &["timer +20ms Kubelet { generation: 1, timer: Pod((*, Sandbox)) }"]), "{waits:#?}");
        probe.now = SimTime::ZERO + millis(20);
        let sent = probe.input(|ctx| kubelet.on_timer(&mut host, ctx, step()));
        assert_eq!(sent[0], "PATCH /api/v1/namespaces/default/pods/web-0/status -> 200", "{sent:#?}");
    }
}
