//! The attach-detach controller (`pkg/controller/volume/attachdetach`) for CSI volumes, with the
//! driver's external-attacher: a StatefulSet Pod's volume is attached to the node the Pod is bound
//! to (a `VolumeAttachment`, given the external-attacher's finalizer and then marked `attached`),
//! and detached when no Pod there needs it any more. The reconciler runs every 100 ms
//! (`reconcilerLoopPeriod`): a change is acted on at its next pass. A detach first takes the
//! volume out of the Node's `status.volumesAttached` (a status PATCH), then DELETEs the
//! VolumeAttachment, which the finalizer keeps until the external-attacher has detached; until
//! then the volume is attached to the old node, and a Pod that needs it elsewhere gets
//! `FailedAttachVolume` (`Multi-Attach error`). After an attach the node status updater adds the
//! volume to `volumesAttached` at the next pass. A detach from a node that is not Ready waits for
//! the volume to be unmounted, which a dead kubelet never reports, so it happens only after
//! `maxWaitForUnmountDuration` (6 min, the forced detach), or at once when the node carries
//! `node.kubernetes.io/out-of-service` (`hasOutOfServiceTaint`).
//!
//! A Pod's volumes come from its spec (`persistentVolumeClaim.claimName`, as the desired state of
//! world populator reads them): each is the PersistentVolume its claim is bound to
//! (`spec.volumeName`), and a claim not bound yet gives nothing to attach.
//!
//! The controller's client is its own (`ClientOrDie("attachdetach-controller")`, 20 requests a
//! second, burst 30, its Events through it): a pass that finds no token for a detach (its status
//! PATCH and DELETE, sent together), an attach or a status write leaves it, and the rest of the
//! pass, to the pass when the next token has come.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::{ApiOp, TAINT_OUT_OF_SERVICE};
use crate::client::Throttled;
use crate::ctx::Ctx;
use crate::events::{Recorder, pod_ref};
use crate::objects::{AttachedVolume, CSI_DRIVER, Node, Object, Pod, VolumeAttachment};
use crate::record::Actor;
use crate::time::{SimTime, millis, secs};
use crate::vecmap::VecMap;

/// `maxWaitForUnmountDuration`: the forced detach from an unhealthy node.
pub(crate) const MAX_WAIT_FOR_UNMOUNT: Duration = secs(6 * 60);
/// How long the external-attacher takes to attach (inference: one ControllerPublishVolume call).
const ATTACH_TIME: Duration = millis(1_500);
/// How long it takes to detach (inference: one ControllerUnpublishVolume call, as long as an
/// attach).
const DETACH_TIME: Duration = millis(1_500);
/// `reconcilerLoopPeriod`: the reconciler's pass, and the node status updater's with it.
const LOOP_PERIOD: Duration = millis(100);

/// The controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AttachDetachTimer {
    /// The reconciler's next pass (a change to act on, or a forced detach due).
    Reconcile,
    /// The external-attacher finished attaching this VolumeAttachment, or detaching it if it is
    /// being deleted. (One variant for both keeps every queued timer small.)
    Attacher(String),
}

/// The controller's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttachDetach {
    /// VolumeAttachments no Pod needs any more, since when.
    undesired_since: VecMap<String, SimTime>,
    /// Pods (uid) already told about a Multi-Attach error.
    warned: VecMap<String, ()>,
    /// The actual state of the world as the node status updater reports it: each node's
    /// attached volumes (their unique names, in order), and whether the node's
    /// `volumesAttached` is to be written at the next pass.
    attached: VecMap<String, (Vec<String>, bool)>,
    /// When the next pass is queued.
    pass_at: Option<SimTime>,
    recorder: Recorder,
    client: Throttled,
}

const ACTOR: Actor = Actor::AttachDetachController;
/// The Events' source component.
const COMPONENT: &str = "attachdetach-controller";

/// The volume a Pod needs (the simulation's Pods name one claim at most).
fn volume_of<'s>(store: &'s crate::apiserver::ApiServer, pod: &'s Pod) -> Option<&'s str> {
    store.volumes_of(pod).next().flatten()
}

/// The volume's unique name in the attach/detach controller (`kubernetes.io/csi/DRIVER^HANDLE`;
/// the simulation's volume handle is the PersistentVolume's name).
fn unique_name(pv: &str) -> String {
    format!("kubernetes.io/csi/{CSI_DRIVER}^{pv}")
}

impl AttachDetach {
    /// Input: Pods or Nodes changed: the next pass acts on it.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        self.queue_pass(ctx, ctx.now);
    }

    /// Queues the reconciler's first pass after `after` (passes every 100 ms from the start),
    /// unless one comes sooner.
    fn queue_pass(&mut self, ctx: &mut Ctx<'_, AttachDetachTimer>, after: SimTime) {
        let period = LOOP_PERIOD.as_micros() as u64;
        let at = SimTime::from_micros((after.as_micros() / period + 1) * period);
        if self.pass_at.is_some_and(|p| p > ctx.now && p <= at) {
            return;
        }
        self.pass_at = Some(at);
        ctx.at(at, AttachDetachTimer::Reconcile);
    }

    /// Input: one of the controller's timers.
    pub(crate) fn on_timer(&mut self, timer: AttachDetachTimer, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        match timer {
            AttachDetachTimer::Reconcile => {
                if self.pass_at == Some(ctx.now) {
                    self.pass_at = None;
                }
                self.client.woken(ctx.now);
                self.reconcile(ctx);
                self.update_node_statuses(ctx);
                self.client.write_events(&mut self.recorder, ctx, COMPONENT, || AttachDetachTimer::Reconcile);
            }
            AttachDetachTimer::Attacher(name) => {
                let Some(va) = ctx.store().volume_attachments.get(&name).cloned() else { return };
                if va.metadata.deletion_timestamp.is_some() {
                    // ControllerUnpublishVolume returned: the finalizer goes, and with it the
                    // VolumeAttachment; the detach operation, which waited for that, ends.
                    ctx.call(Actor::CsiAttacher, None, ApiOp::PatchVolumeAttachmentFinalizer { name, add: false });
                    self.queue_pass(ctx, ctx.now);
                    return;
                }
                if ctx.call(Actor::CsiAttacher, None, ApiOp::MarkVolumeAttached(name)).ok().is_none() {
                    return;
                }
                let pv = va.spec.source.persistent_volume_name.clone();
                let node = va.spec.node_name.clone();
                // The attach operation returns: the volume is attached in the actual state of the
                // world, and the node status updater reports it at the next pass.
                let (volumes, dirty) = self.attached.get_or_insert_with(node.clone(), Default::default);
                let volume = unique_name(&pv);
                if let Err(i) = volumes.binary_search(&volume) {
                    volumes.insert(i, volume);
                }
                *dirty = true;
                self.queue_pass(ctx, ctx.now);
                let store = ctx.store();
                let pod = store.pods_on(&node).find(|p| volume_of(store, p) == Some(pv.as_str())).cloned();
                if let Some(pod) = pod {
                    self.client.event(
                        &mut self.recorder,
                        ctx,
                        COMPONENT,
                        pod_ref(&pod, None),
                        "Normal",
                        "SuccessfulAttachVolume",
                        format!("AttachVolume.Attach succeeded for volume \"{pv}\" "),
                        || AttachDetachTimer::Reconcile,
                    );
                }
            }
        }
    }

    /// The node status updater: each node whose attached volumes changed gets them written to
    /// `status.volumesAttached` (`UpdateNodeStatuses`).
    fn update_node_statuses(&mut self, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        let dirty: Vec<String> =
            self.attached.iter().filter(|(_, (_, dirty))| *dirty).map(|(node, _)| node.clone()).collect();
        for node in dirty {
            if self.client.is_stopped() || !self.client.admit(ctx, || AttachDetachTimer::Reconcile) {
                return;
            }
            if let Some((_, d)) = self.attached.get_mut(&node) {
                *d = false;
            }
            self.patch_node_status(&node, ctx);
        }
    }

    /// `PATCH nodes/NAME/status` with the node's attached volumes (nothing when it is gone or
    /// already says so).
    fn patch_node_status(&mut self, node: &str, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        let Some(base) = ctx.store().node(node).cloned() else { return };
        let volumes: Vec<AttachedVolume> = self
            .attached
            .get(node)
            .map(|(v, _)| {
                v.iter().map(|name| AttachedVolume { name: name.clone(), device_path: String::new() }).collect()
            })
            .unwrap_or_default();
        if *base.status.volumes_attached == volumes {
            return;
        }
        let mut wanted = Node::clone(&base);
        wanted.status.volumes_attached = volumes.into();
        ctx.call(ACTOR, None, ApiOp::PatchNodeStatus { base, wanted: Arc::new(wanted) });
    }

    fn reconcile(&mut self, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        // The desired state: (volume, node) of every scheduled StatefulSet Pod not terminated.
        let mut desired: Vec<(String, String, String)> = Vec::new();
        let pods: Vec<_> = ctx.store().pods.values().cloned().collect();
        for pod in &pods {
            if pod.spec.node_name.is_empty() || matches!(&*pod.status.phase, "Failed" | "Succeeded") {
                continue;
            }
            let Some(pv) = volume_of(ctx.store(), pod).map(str::to_string) else { continue };
            desired.push((pv, pod.spec.node_name.clone(), pod.metadata.uid.to_string()));
        }
        let attachments: Vec<_> = ctx.store().volume_attachments.values().cloned().collect();
        // Detach what no Pod needs.
        let now = ctx.now;
        let mut next: Option<SimTime> = None;
        for va in &attachments {
            // (A detach already under way: the external-attacher is at work.)
            if va.metadata.deletion_timestamp.is_some() {
                continue;
            }
            let (pv, node) = (&va.spec.source.persistent_volume_name, &va.spec.node_name);
            if desired.iter().any(|(p, n, _)| p == pv && n == node) {
                self.undesired_since.remove(&*va.metadata.name);
                continue;
            }
            let since = *self.undesired_since.get_or_insert_with(va.metadata.name.to_string(), || now);
            let node_obj = ctx.store().node(node).cloned();
            let healthy = node_obj.as_ref().is_some_and(|n| n.ready_status() == Some("True"));
            let out_of_service =
                node_obj.as_ref().is_some_and(|n| n.spec.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE));
            let forced = now >= since + MAX_WAIT_FOR_UNMOUNT;
            if healthy || node_obj.is_none() || out_of_service || forced {
                if self.client.is_stopped() || !self.client.admit(ctx, || AttachDetachTimer::Reconcile) {
                    break;
                }
                self.client.also(1, ctx);
                self.detach(va, healthy || node_obj.is_none(), forced, ctx);
            } else {
                let due = since + MAX_WAIT_FOR_UNMOUNT;
                next = Some(next.map_or(due, |n: SimTime| n.min(due)));
            }
        }
        if let Some(due) = next {
            ctx.at(due, AttachDetachTimer::Reconcile);
        }
        // Attach what is needed.
        for (pv, node, pod_uid) in desired {
            let live: Vec<_> = ctx.store().volume_attachments.values().cloned().collect();
            if live.iter().any(|va| va.spec.source.persistent_volume_name == pv && va.spec.node_name == node) {
                continue;
            }
            // Attached elsewhere, a detach still under way included: a ReadWriteOnce volume
            // cannot be attached here too.
            if live.iter().any(|va| va.spec.source.persistent_volume_name == pv) {
                if self.warned.add(pod_uid.clone())
                    && let Some(pod) = ctx.store().pod_by_uid(&pod_uid).cloned()
                {
                    self.client.event(
                        &mut self.recorder,
                        ctx,
                        COMPONENT,
                        pod_ref(&pod, None),
                        "Warning",
                        "FailedAttachVolume",
                        format!(
                            "Multi-Attach error for volume \"{pv}\" Volume is already exclusively attached to one node and can't be attached to another"
                        ),
                        || AttachDetachTimer::Reconcile,
                    );
                }
                continue;
            }
            if self.client.is_stopped() || !self.client.admit(ctx, || AttachDetachTimer::Reconcile) {
                break;
            }
            let name = format!("csi-{}", ctx.rng.hex(64));
            let va = VolumeAttachment::new(&name, CSI_DRIVER, &pv, &node);
            if let Some(Object::VolumeAttachment(_)) = ctx.call(ACTOR, None, ApiOp::Create(va.into())).ok() {
                // The external-attacher sees it at once: its finalizer first, then the attach.
                ctx.call(
                    Actor::CsiAttacher,
                    None,
                    ApiOp::PatchVolumeAttachmentFinalizer { name: name.clone(), add: true },
                );
                ctx.after(ATTACH_TIME, AttachDetachTimer::Attacher(name));
            }
        }
    }

    /// `DetachVolume`: the volume leaves the node's `volumesAttached` first (if that write fails,
    /// no detach), then the VolumeAttachment is deleted, and the external-attacher detaches it.
    fn detach(&mut self, va: &VolumeAttachment, safe: bool, forced: bool, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        let (pv, node) = (&va.spec.source.persistent_volume_name, &va.spec.node_name);
        let volume = unique_name(pv);
        if let Some((volumes, _)) = self.attached.get_mut(node.as_str()) {
            volumes.retain(|v| *v != volume);
        }
        self.patch_node_status(node, ctx);
        let line = if safe {
            format!("\"attacherDetacher.DetachVolume started\" node=\"{node}\" volumeName=\"{volume}\"")
        } else if forced {
            format!(
                "\"attacherDetacher.DetachVolume started: this volume is not safe to detach, but maxWaitForUnmountDuration expired, force detaching\" duration=\"6m0s\" node=\"{node}\" volumeName=\"{volume}\""
            )
        } else {
            format!(
                "\"attacherDetacher.DetachVolume started: node has out-of-service taint, force detaching\" node=\"{node}\" volumeName=\"{volume}\""
            )
        };
        ctx.log_line(ACTOR, line);
        let name = va.metadata.name.to_string();
        if ctx.call(ACTOR, None, ApiOp::DeleteVolumeAttachment(name.clone())).ok().is_some() {
            ctx.after(DETACH_TIME, AttachDetachTimer::Attacher(name.clone()));
        }
        self.undesired_since.remove(&name);
    }
}
