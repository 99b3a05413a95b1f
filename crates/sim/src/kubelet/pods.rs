//! Pod workers: the kubelet brings the machine's containers in line with the Pods bound to its
//! node (sandbox, image pull, create, start; kill for a deleted Pod), and reports each Pod's
//! status as it goes.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, DIAL_TIMEOUT};
use crate::events::pod_ref;
use crate::machine::RunningContainer;
use crate::objects::{
    ContainerImage, ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting,
    ContainerStatus, Object, Pod, PodIp, PodStatus, Time, order_pod_conditions, set_pod_condition,
};
use crate::shared::Shared;
use crate::time::{SimTime, format_go_duration, millis};
use crate::workload::{WORKLOAD_IMAGE_DIGEST, WORKLOAD_IMAGE_SIZE};

use super::{Host, Kubelet, KubeletTimer, MachineTimer, POD_WORKER_BACKOFF};

/// Steps of the pod worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PodStep {
    /// The pod worker tries again after a failed sync.
    Retry,
    /// `WaitForAttachAndMount` checks the Pod's volumes again.
    Volumes,
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
    /// The containers of a deleted Pod have stopped: the status manager writes the terminal
    /// status.
    Killed,
    /// Volumes are unmounted and cgroups gone: the status manager's next sync deletes the Pod.
    Cleaned,
}

/// What the kubelet is doing with one Pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Worker {
    /// Cannot start: the pod network is not ready (non-hostNetwork Pods).
    WaitingForNetwork,
    /// Cannot start yet: a volume the Pod's spec names is not attached to the node.
    WaitingForVolumes,
    /// Pulling, creating, starting.
    Starting,
    /// Containers running.
    Running,
    /// Stopping containers of a deleted Pod.
    Killing,
    /// The containers of a deleted Pod have stopped (the one that ran, if any, and when).
    Killed { container: Option<RunningContainer>, at: SimTime },
}

/// `scheduling.SystemCriticalPriority`: the priority from which a Pod is system-critical
/// (`IsCriticalPod`; the shutdown manager's second group).
pub(super) const SYSTEM_CRITICAL_PRIORITY: i32 = 2_000_000_000;
/// How long the nginx container takes to stop on its stop signal (it exits at once).
pub(super) const CONTAINER_STOP: Duration = millis(300);

/// `podAttachAndMountRetryInterval`.
const ATTACH_AND_MOUNT_RETRY: Duration = millis(300);

/// Whether every volume the Pod's claims are bound to is attached to the Pod's node. (Mounting
/// takes no time here; the 2-minute `FailedMount` timeout is not simulated.)
fn volumes_attached(ctx: &Ctx<'_, MachineTimer>, pod: &Pod) -> bool {
    let store = ctx.store();
    store.volumes_of(pod).all(|pv| {
        pv.is_some_and(|pv| {
            store.volume_attachments.values().any(|va| {
                va.spec.source.persistent_volume_name == pv
                    && va.spec.node_name == pod.spec.node_name
                    && va.status.as_ref().is_some_and(|s| s.attached)
            })
        })
    })
}

/// The message of a container status the kubelet could not find when the Pod was deleted
/// (`convertToAPIContainerStatuses`; two spaces before "The").
const CONTAINER_VANISHED_ON_DELETE: &str =
    "The container could not be located when the pod was deleted.  The container used to be Running";
/// `TerminatePod`'s message for a container status that is not terminated yet.
const CONTAINER_VANISHED_ON_TERMINATE: &str = "The container could not be located when the pod was terminated";

impl Kubelet {
    /// Brings the machine's containers in line with the Pods bound to its node.
    pub(super) fn sync_pods(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        if !self.cold.registered || h.network_cut {
            return;
        }
        // The informer copy of the Node follows the store while the watch works.
        self.node_cache = ctx.store().node(&h.hostname).cloned();
        if !h.runtime_up || !self.runtime_errors(h, ctx).is_empty() {
            // "Skipping pod synchronization": the sync loop waits for the runtime and PLEG.
            return;
        }
        let pods: Vec<Arc<Pod>> = ctx.store().pods_on(&h.hostname).cloned().collect();
        let network_ready = self.cold.network_error.is_none();
        for pod in &pods {
            let uid = pod.metadata.uid.as_str();
            let worker = self.cold.workers.get(uid).cloned();
            let has_containers = h.containers.iter().any(|c| c.pod_uid == uid);
            if pod.is_terminating() {
                if !matches!(worker, Some(Worker::Killing | Worker::Killed { .. })) {
                    self.set_worker(uid, Worker::Killing);
                    // The status manager syncs the status it has (unchanged: no PATCH).
                    self.call(h, ctx, get_pod(pod));
                    if has_containers {
                        let name = pod.spec.containers[0].name.clone();
                        self.event(
                            h,
                            ctx,
                            pod_ref(pod, Some(&name)),
                            "Normal",
                            "Killing",
                            format!("Stopping container {name}"),
                        );
                        self.after(ctx, millis(300), KubeletTimer::Pod(Box::new((uid.to_string(), PodStep::Killed))));
                    } else {
                        self.after(ctx, millis(20), KubeletTimer::Pod(Box::new((uid.to_string(), PodStep::Killed))));
                    }
                }
                continue;
            }
            if matches!(&*pod.status.phase, "Succeeded" | "Failed") {
                // A terminal Pod never runs again.
                continue;
            }
            match worker {
                None if self.cold.shutdown.is_some() => self.reject_for_shutdown(h, ctx, pod),
                None if !self.admits_under_pressure(pod) => self.reject_for_pressure(h, ctx, pod),
                None if has_containers => {
                    // A restarted kubelet adopts containers that kept running.
                    self.set_worker(uid, Worker::Running);
                    self.report_running(h, ctx, pod);
                }
                None => {
                    // SyncPod: the status goes out first, then the network check.
                    self.report_starting(h, ctx, pod);
                    self.try_start(h, ctx, pod, network_ready);
                }
                Some(Worker::WaitingForNetwork | Worker::WaitingForVolumes) => {}
                Some(Worker::Running) => {
                    if !pod.is_ready() || pod.status.phase != "Running" {
                        self.report_running(h, ctx, pod);
                    }
                }
                Some(_) => {}
            }
        }
        // Pods that vanished from the API (deleted for good): stop what still runs.
        let live: Vec<&str> = pods.iter().map(|p| p.metadata.uid.as_str()).collect();
        // Written only when something goes: a write copies what a checkpoint still shares.
        if h.containers.iter().any(|c| !live.contains(&c.pod_uid.as_str())) {
            let h = &mut **h;
            h.touch();
            h.containers.retain(|c| live.contains(&c.pod_uid.as_str()));
        }
        if self.cold.workers.keys().any(|uid| !live.contains(&uid.as_str())) {
            self.cold.workers.retain(|uid, _| live.contains(&uid.as_str()));
        }
    }

    /// Starts a Pod's sandbox, or (non-hostNetwork Pods while the pod network is not ready) records
    /// `NetworkNotReady` and retries after the pod worker's backoff.
    pub(super) fn try_start(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        pod: &Pod,
        network_ready: bool,
    ) {
        let uid = pod.metadata.uid.clone();
        if !network_ready && !pod.spec.host_network {
            self.set_worker(&uid, Worker::WaitingForNetwork);
            let err = self.cold.network_error.clone().unwrap_or_default();
            self.event(
                h,
                ctx,
                pod_ref(pod, None),
                "Warning",
                "NetworkNotReady",
                format!("network is not ready: {err}"),
            );
            self.after(ctx, POD_WORKER_BACKOFF, KubeletTimer::Pod(Box::new((uid.to_string(), PodStep::Retry))));
            return;
        }
        // `WaitForAttachAndMount`, before the runtime's SyncPod: every claim's volume attached to
        // this node (the CSI attacher's `WaitForAttach` reads the VolumeAttachment's
        // `status.attached`), polled every 300 ms (`podAttachAndMountRetryInterval`).
        if !volumes_attached(ctx, pod) {
            self.set_worker(&uid, Worker::WaitingForVolumes);
            self.after(ctx, ATTACH_AND_MOUNT_RETRY, KubeletTimer::Pod(Box::new((uid.to_string(), PodStep::Volumes))));
            return;
        }
        self.set_worker(&uid, Worker::Starting);
        // Creating the sandbox takes a moment; then the Pod has an IP.
        let d = ctx.rng.between(millis(250), millis(450));
        self.after(ctx, d, KubeletTimer::Pod(Box::new((uid.to_string(), PodStep::Sandbox))));
    }

    pub(super) fn set_worker(&mut self, uid: &str, w: Worker) {
        self.cold.workers.insert(uid.to_string(), w);
    }

    pub(super) fn pod_step(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, uid: &str, step: PodStep) {
        let Some(pod) = ctx.store().pod_by_uid(uid).cloned() else { return };
        let container = &pod.spec.containers[0].name;
        let image = &pod.spec.containers[0].image;
        // The container's reference, built only for an Event.
        let cref = || pod_ref(&pod, Some(container));
        match step {
            PodStep::Retry => {
                if self.cold.workers.get(uid) != Some(&Worker::WaitingForNetwork) {
                    return;
                }
                if !h.runtime_up || !self.runtime_errors(h, ctx).is_empty() {
                    self.after(ctx, POD_WORKER_BACKOFF, KubeletTimer::Pod(Box::new((uid.into(), PodStep::Retry))));
                    return;
                }
                let network_ready = self.cold.network_error.is_none();
                self.try_start(h, ctx, &pod, network_ready);
            }
            PodStep::Volumes => {
                if self.cold.workers.get(uid) != Some(&Worker::WaitingForVolumes) {
                    return;
                }
                let network_ready = self.cold.network_error.is_none();
                self.try_start(h, ctx, &pod, network_ready);
            }
            PodStep::Sandbox => {
                self.report_sandbox(h, ctx, &pod);
                self.after(ctx, millis(40), KubeletTimer::Pod(Box::new((uid.into(), PodStep::Pull))));
            }
            PodStep::Pull => {
                if h.has_image(image) {
                    self.event(
                        h,
                        ctx,
                        cref(),
                        "Normal",
                        "Pulled",
                        format!("Container image \"{image}\" already present on machine"),
                    );
                    self.after(ctx, millis(60), KubeletTimer::Pod(Box::new((uid.into(), PodStep::Create))));
                } else {
                    self.event(h, ctx, cref(), "Normal", "Pulling", format!("Pulling image \"{image}\""));
                    // serializeImagePulls (default true): one pull at a time per machine. A pull
                    // that waited finds the layers already there and finishes quickly.
                    let now = ctx.now;
                    let busy = h.pulls_busy_until.filter(|b| *b > now);
                    let pull = match busy {
                        Some(_) => ctx.rng.between(millis(300), millis(700)),
                        None => ctx.rng.between(millis(1_400), millis(2_600)),
                    };
                    let done = busy.unwrap_or(now) + pull;
                    h.pulls_busy_until = Some(done);
                    let step = PodStep::Pulled { pull, total: done - now };
                    self.after(ctx, done - now, KubeletTimer::Pod(Box::new((uid.into(), step))));
                }
            }
            PodStep::Pulled { pull, total } => {
                let ms = |d: Duration| format_go_duration(Duration::from_millis(d.as_millis() as u64));
                let (pull, total) = (ms(pull), ms(total));
                if !h.has_image(image) {
                    self.wake_image_cache(ctx);
                    h.add_image(
                        ctx,
                        ContainerImage {
                            names: vec![WORKLOAD_IMAGE_DIGEST.into(), format!("docker.io/library/{image}")],
                            size_bytes: WORKLOAD_IMAGE_SIZE,
                        },
                    );
                }
                self.event(h, ctx, cref(), "Normal", "Pulled", format!(
                    "Successfully pulled image \"{image}\" in {pull} ({total} including waiting). Image size: {WORKLOAD_IMAGE_SIZE} bytes."
                ));
                self.after(ctx, millis(60), KubeletTimer::Pod(Box::new((uid.into(), PodStep::Create))));
            }
            PodStep::Create => {
                let message = ctx.profile.created_container_message(container);
                self.event(h, ctx, cref(), "Normal", "Created", message);
                self.after(ctx, millis(80), KubeletTimer::Pod(Box::new((uid.into(), PodStep::Start))));
            }
            PodStep::Start => {
                let id = ctx.rng.hex(64);
                let now = ctx.now;
                h.touch();
                h.containers.push(RunningContainer {
                    pod_uid: pod.metadata.uid.clone(),
                    namespace: pod.metadata.namespace.clone(),
                    pod: pod.metadata.name.clone(),
                    name: container.as_ref().into(),
                    id: id.into(),
                    started_at: now,
                });
                self.event(h, ctx, cref(), "Normal", "Started", format!("Started container {container}"));
                self.set_worker(uid, Worker::Running);
                self.report_running(h, ctx, &pod);
                // Beside a leak, or under a threshold set above what the machine has to spare.
                self.wake_eviction(h, ctx);
            }
            PodStep::Killed => {
                h.touch();
                let container = h.containers.iter().find(|c| c.pod_uid == uid).cloned();
                h.containers.retain(|c| c.pod_uid != uid);
                let now = ctx.now;
                self.set_worker(uid, Worker::Killed { container: container.clone(), at: now });
                // The status manager reads the Pod, then writes the terminal status.
                if let Some(Object::Pod(live)) = self.call(h, ctx, get_pod(&pod)).ok() {
                    let status = self.terminal_status(h, ctx, &live, container.as_ref(), now);
                    self.patch_pod_status(h, ctx, &live, status);
                }
                // Volumes unmount (WaitForUnmount polls every 300 ms) before the Pod may go.
                let d = ctx.rng.between(millis(300), millis(600));
                self.after(ctx, d, KubeletTimer::Pod(Box::new((uid.into(), PodStep::Cleaned))));
            }
            PodStep::Cleaned => {
                let Some(Worker::Killed { container, at }) = self.cold.workers.get(uid).cloned() else { return };
                let Some(Object::Pod(live)) = self.call(h, ctx, get_pod(&pod)).ok() else {
                    // Unreachable API server: the GET failed after the dial timeout; the status
                    // manager tries again at its next sync.
                    self.after(
                        ctx,
                        DIAL_TIMEOUT + POD_WORKER_BACKOFF,
                        KubeletTimer::Pod(Box::new((uid.into(), PodStep::Cleaned))),
                    );
                    return;
                };
                // TerminatePod: whatever is not terminated yet never will be.
                let mut status = self.terminal_status(h, ctx, &live, container.as_ref(), at);
                let mut changed = false;
                for c in &mut status.container_statuses {
                    if c.state.terminated.is_none() {
                        c.state = ContainerState {
                            terminated: Some(Box::new(ContainerStateTerminated {
                                exit_code: 137,
                                reason: "ContainerStatusUnknown".into(),
                                message: CONTAINER_VANISHED_ON_TERMINATE.into(),
                                started_at: Time::at(ctx.epoch),
                                finished_at: Time::at(ctx.epoch),
                                container_id: "".into(),
                            })),
                            ..ContainerState::default()
                        };
                        changed = true;
                    }
                }
                if status.phase == "Pending" || status.phase == "Running" {
                    status.phase = "Failed".into();
                    changed = true;
                }
                if changed {
                    self.patch_pod_status(h, ctx, &live, status);
                }
                self.call(
                    h,
                    ctx,
                    ApiOp::DeletePod {
                        namespace: live.metadata.namespace.to_string(),
                        name: live.metadata.name.to_string(),
                        grace_seconds: Some(0),
                        precondition_uid: Some(live.metadata.uid.to_string()),
                        background: false,
                    },
                );
                self.cold.workers.remove(uid);
            }
        }
    }

    /// `rejectPod`: an admission handler turned the Pod away: a Warning Event with its reason and
    /// message, and the Pod `Failed` with them (it never runs here).
    pub(super) fn reject_pod(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        pod: &Pod,
        reason: &'static str,
        message: std::borrow::Cow<'static, str>,
    ) {
        self.set_worker(&pod.metadata.uid, Worker::Killed { container: None, at: ctx.now });
        self.event(h, ctx, pod_ref(pod, None), "Warning", reason, message.to_string());
        let mut status = pod.status.clone();
        status.phase = "Failed".into();
        status.reason = reason.into();
        status.message = message;
        self.patch_pod_status(h, ctx, pod, status);
    }

    /// The kubelet kills a running Pod it will not delete (`killPodNow` with a status function:
    /// a node shutdown, an eviction): `Killing`, then the status function's `DisruptionTarget`
    /// condition (`TerminationByKubelet`, `message`) goes out while the container still runs (the
    /// status manager holds the terminal phase back until it has stopped).
    pub(super) fn kill_abnormally(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        pod: &Pod,
        message: &str,
    ) {
        self.set_worker(&pod.metadata.uid, Worker::Killing);
        let container = pod.spec.containers[0].name.clone();
        let stopping = format!("Stopping container {container}");
        self.event(h, ctx, pod_ref(pod, Some(&container)), "Normal", "Killing", stopping);
        let mut status = pod.status.clone();
        let wall = Time::at(ctx.wall());
        set_pod_condition(&mut status, "DisruptionTarget", "True", "TerminationByKubelet", message.to_string(), wall);
        order_pod_conditions(&mut status, pod.metadata.generation);
        self.patch_pod_status(h, ctx, pod, status);
    }

    /// The container of a Pod killed by [`Kubelet::kill_abnormally`] has stopped: its terminal
    /// status, `Failed` (a Pod already `Succeeded` keeps it) with `reason` and `message`, and the
    /// `DisruptionTarget` condition. The Pod is not deleted. Returns its `namespace/name`.
    pub(super) fn killed_abnormally(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        uid: &str,
        reason: &'static str,
        message: &str,
    ) -> Option<String> {
        h.touch();
        let container = h.containers.iter().find(|c| c.pod_uid == uid).cloned();
        h.containers.retain(|c| c.pod_uid != uid);
        let now = ctx.now;
        self.set_worker(uid, Worker::Killed { container: container.clone(), at: now });
        let pod = ctx.store().pod_by_uid(uid).cloned()?;
        let mut status = self.terminal_status(h, ctx, &pod, container.as_ref(), now);
        // The status function set `Failed` while the Pod was running ("unless it was already in
        // a successful terminal phase"); the terminal status keeps it, with its reason.
        status.phase = if pod.status.phase == "Succeeded" { "Succeeded" } else { "Failed" }.into();
        status.reason = reason.into();
        status.message = message.to_string().into();
        let wall = Time::at(ctx.wall());
        set_pod_condition(&mut status, "DisruptionTarget", "True", "TerminationByKubelet", message.to_string(), wall);
        set_pod_condition(&mut status, "Ready", "False", "PodFailed", "", wall);
        set_pod_condition(&mut status, "ContainersReady", "False", "PodFailed", "", wall);
        order_pod_conditions(&mut status, pod.metadata.generation);
        self.patch_pod_status(h, ctx, &pod, status);
        Some(format!("{}/{}", pod.metadata.namespace, pod.metadata.name))
    }

    /// The status of a deleted Pod whose containers have stopped (`generateAPIPodStatus` with
    /// `podIsTerminal`): the container that ran is terminated (nginx exits 0 on its stop
    /// signal); one that vanished is reported as such. Every container stopped: `Succeeded` if
    /// all exited 0, else `Failed`.
    pub(super) fn terminal_status(
        &self,
        h: &Host,
        ctx: &Ctx<'_, MachineTimer>,
        pod: &Pod,
        killed: Option<&RunningContainer>,
        at: SimTime,
    ) -> Shared<PodStatus> {
        let now = Time::at(ctx.wall());
        let mut status = self.status_base(h, ctx, pod);
        let mut all_zero = true;
        for c in &mut status.container_statuses {
            let was_running = c.state.running.clone();
            match (killed, was_running) {
                (Some(k), _) if *k.name == *c.name => {
                    c.state = ContainerState {
                        terminated: Some(Box::new(ContainerStateTerminated {
                            exit_code: 0,
                            reason: "Completed".into(),
                            message: "".into(),
                            started_at: Time::at(ctx.epoch + k.started_at.since_start()),
                            finished_at: Time::at(ctx.epoch + at.since_start()),
                            container_id: format!("containerd://{}", k.id).into(),
                        })),
                        ..ContainerState::default()
                    };
                }
                (_, Some(running)) => {
                    // It ran, and is gone: its last state says so; the Pod is being deleted,
                    // so the restart count stays.
                    all_zero = false;
                    c.state = ContainerState {
                        waiting: Some(ContainerStateWaiting { reason: "ContainerCreating".into(), message: "".into() }),
                        ..ContainerState::default()
                    };
                    c.last_state = ContainerState {
                        terminated: Some(Box::new(ContainerStateTerminated {
                            exit_code: 137,
                            reason: "ContainerStatusUnknown".into(),
                            message: CONTAINER_VANISHED_ON_DELETE.into(),
                            started_at: running.started_at,
                            finished_at: running.started_at,
                            container_id: "".into(),
                        })),
                        ..ContainerState::default()
                    };
                }
                _ => {}
            }
            if c.state.terminated.is_some() || c.last_state.terminated.is_some() {
                c.ready = false;
                c.started = false;
            }
        }
        let stopped = !status.container_statuses.is_empty()
            && status
                .container_statuses
                .iter()
                .all(|c| c.state.terminated.is_some() || c.last_state.terminated.is_some());
        if stopped {
            status.phase = if all_zero { "Succeeded" } else { "Failed" }.into();
        }
        let reason = match &*status.phase {
            "Succeeded" => "PodCompleted",
            "Failed" => "PodFailed",
            _ => "ContainersNotReady",
        };
        set_pod_condition(&mut status, "PodReadyToStartContainers", "False", "", "", now);
        set_pod_condition(&mut status, "Initialized", "True", "", "", now);
        set_pod_condition(&mut status, "Ready", "False", reason, "", now);
        set_pod_condition(&mut status, "ContainersReady", "False", reason, "", now);
        order_pod_conditions(&mut status, pod.metadata.generation);
        status
    }

    pub(super) fn status_base(&self, h: &Host, ctx: &Ctx<'_, MachineTimer>, pod: &Pod) -> Shared<PodStatus> {
        let machine = h;
        let mut status = pod.status.clone();
        // Kept when unchanged: the versions share the strings.
        if *status.host_ip != *machine.ip {
            let ip: Arc<str> = machine.ip.as_str().into();
            status.host_ip = ip.clone();
            status.host_ips = vec![PodIp { ip }].into();
        }
        if status.start_time.is_none() {
            status.start_time = Some(Time::at(ctx.wall()));
        }
        status
    }

    pub(super) fn report_starting(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, pod: &Pod) {
        let now = Time::at(ctx.wall());
        let mut status = self.status_base(h, ctx, pod);
        let c = &pod.spec.containers[0];
        let unready = format!("containers with unready status: [{}]", c.name);
        status.phase = "Pending".into();
        let generation = pod.metadata.generation;
        set_pod_condition(&mut status, "PodReadyToStartContainers", "False", "", "", now);
        set_pod_condition(&mut status, "Initialized", "True", "", "", now);
        set_pod_condition(&mut status, "Ready", "False", "ContainersNotReady", unready.clone(), now);
        set_pod_condition(&mut status, "ContainersReady", "False", "ContainersNotReady", unready, now);
        order_pod_conditions(&mut status, generation);
        let containers = vec![ContainerStatus {
            name: Arc::from(&*c.name),
            state: ContainerState {
                waiting: Some(ContainerStateWaiting { reason: "ContainerCreating".into(), message: "".into() }),
                ..ContainerState::default()
            },
            last_state: ContainerState::default(),
            ready: false,
            restart_count: 0,
            image: Arc::from(&*c.image),
            image_id: "".into(),
            container_id: "".into(),
            started: false,
        }];
        // (Kept as they were when unchanged: the versions share them.)
        if *status.container_statuses != containers {
            status.container_statuses = containers.into();
        }
        self.patch_pod_status(h, ctx, pod, status);
    }

    pub(super) fn report_running(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, pod: &Pod) {
        let now = Time::at(ctx.wall());
        let uid = pod.metadata.uid.clone();
        let Some(running) = h.containers.iter().find(|c| c.pod_uid == uid).cloned() else { return };
        let mut status = self.status_base(h, ctx, pod);
        self.assign_pod_ip(h, ctx, &mut status);
        let c = &pod.spec.containers[0];
        status.phase = "Running".into();
        let generation = pod.metadata.generation;
        set_pod_condition(&mut status, "PodReadyToStartContainers", "True", "", "", now);
        set_pod_condition(&mut status, "Initialized", "True", "", "", now);
        set_pod_condition(&mut status, "Ready", "True", "", "", now);
        set_pod_condition(&mut status, "ContainersReady", "True", "", "", now);
        order_pod_conditions(&mut status, generation);
        let started = Time::at(ctx.epoch + running.started_at.since_start());
        let containers = vec![ContainerStatus {
            name: Arc::from(&*c.name),
            state: ContainerState {
                running: Some(ContainerStateRunning { started_at: started }),
                ..ContainerState::default()
            },
            last_state: ContainerState::default(),
            ready: true,
            restart_count: 0,
            image: format!("docker.io/library/{}", c.image).into(),
            image_id: WORKLOAD_IMAGE_DIGEST.into(),
            container_id: format!("containerd://{}", running.id).into(),
            started: true,
        }];
        // (Kept as they were when unchanged: the versions share them.)
        if *status.container_statuses != containers {
            status.container_statuses = containers.into();
        }
        self.patch_pod_status(h, ctx, pod, status);
    }

    /// The CNI plugin's address for a Pod whose sandbox is up (host-local IPAM over the Node's
    /// `spec.podCIDR`).
    pub(super) fn assign_pod_ip(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        status: &mut PodStatus,
    ) {
        if !status.pod_ip.is_empty() {
            return;
        }
        let cidr = ctx.store().node(&h.hostname).map(|n| n.spec.pod_cidr.clone()).unwrap_or_default();
        let prefix = cidr.rsplit_once('.').map(|(p, _)| p.to_string()).unwrap_or_else(|| "10.244.0".into());
        let ip: Arc<str> = format!("{prefix}.{}", h.next_pod_ip).into();
        h.next_pod_ip += 1;
        status.pod_ip = ip.clone();
        status.pod_ips = vec![PodIp { ip }].into();
    }

    /// The sandbox is up: `PodReadyToStartContainers` turns True and the Pod has its IP.
    pub(super) fn report_sandbox(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, pod: &Pod) {
        let now = Time::at(ctx.wall());
        let mut status = self.status_base(h, ctx, pod);
        self.assign_pod_ip(h, ctx, &mut status);
        set_pod_condition(&mut status, "PodReadyToStartContainers", "True", "", "", now);
        order_pod_conditions(&mut status, pod.metadata.generation);
        self.patch_pod_status(h, ctx, pod, status);
    }

    pub(super) fn patch_pod_status(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        pod: &Pod,
        status: Shared<PodStatus>,
    ) {
        if status == pod.status {
            return;
        }
        self.call(
            h,
            ctx,
            ApiOp::PatchPodStatus {
                namespace: pod.metadata.namespace.to_string(),
                name: pod.metadata.name.to_string(),
                uid: pod.metadata.uid.to_string(),
                status,
            },
        );
    }
}

/// The status manager's `GET pods/NAME` (main client, no query).
fn get_pod(pod: &Pod) -> ApiOp {
    ApiOp::GetPod { namespace: pod.metadata.namespace.to_string(), name: pod.metadata.name.to_string() }
}
