//! The attach-detach controller (`pkg/controller/volume/attachdetach`) for CSI volumes, with the
//! driver's external-attacher: a StatefulSet Pod's volume is attached to the node the Pod is bound
//! to (a `VolumeAttachment`, marked `attached` by the external-attacher), and detached when no Pod
//! there needs it any more. A ReadWriteOnce volume still attached elsewhere cannot be attached
//! (`Multi-Attach error`). A detach from a node that is not Ready waits for the volume to be
//! unmounted, which a dead kubelet never reports, so it happens only after
//! `maxWaitForUnmountDuration` (6 min, the forced detach), or at once when the node carries
//! `node.kubernetes.io/out-of-service` (`hasOutOfServiceTaint`).
//!
//! A Pod's volumes come from its spec (`persistentVolumeClaim.claimName`, as the desired state of
//! world populator reads them): each is the PersistentVolume its claim is bound to
//! (`spec.volumeName`), and a claim not bound yet gives nothing to attach.

use std::time::Duration;

use crate::apiserver::{ApiOp, TAINT_OUT_OF_SERVICE};
use crate::ctx::Ctx;
use crate::events::{Recorder, Source, pod_ref};
use crate::objects::{Object, Pod, VolumeAttachment};
use crate::record::Actor;
use crate::time::{SimTime, millis, secs};
use crate::vecmap::VecMap;

/// `maxWaitForUnmountDuration`: the forced detach from an unhealthy node.
pub(crate) const MAX_WAIT_FOR_UNMOUNT: Duration = secs(6 * 60);
/// The CSI driver's name.
pub(crate) const ATTACHER: &str = "pd.csi.storage.gke.io";
/// How long the external-attacher takes to attach (inference: one ControllerPublishVolume call).
const ATTACH_TIME: Duration = millis(1_500);

/// The controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AttachDetachTimer {
    /// Reconcile again (a forced detach is due).
    Reconcile,
    /// The external-attacher finished attaching this VolumeAttachment.
    Attached(String),
}

/// The controller's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttachDetach {
    /// VolumeAttachments no Pod needs any more, since when.
    undesired_since: VecMap<String, SimTime>,
    /// Pods (uid) already told about a Multi-Attach error.
    warned: VecMap<String, ()>,
    recorder: Recorder,
}

const ACTOR: Actor = Actor::AttachDetachController;

/// The volume a Pod needs (the simulation's Pods name one claim at most).
fn volume_of<'s>(store: &'s crate::apiserver::ApiServer, pod: &'s Pod) -> Option<&'s str> {
    store.volumes_of(pod).next().flatten()
}

impl AttachDetach {
    /// Input: Pods or Nodes changed.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        self.reconcile(ctx);
    }

    /// Input: one of the controller's timers.
    pub(crate) fn on_timer(&mut self, timer: AttachDetachTimer, ctx: &mut Ctx<'_, AttachDetachTimer>) {
        match timer {
            AttachDetachTimer::Reconcile => self.reconcile(ctx),
            AttachDetachTimer::Attached(name) => {
                let Some(va) = ctx.store().volume_attachments.get(&name).cloned() else { return };
                if ctx.call(Actor::CsiAttacher, None, ApiOp::MarkVolumeAttached(name)).ok().is_none() {
                    return;
                }
                let pv = va.spec.source.persistent_volume_name.clone();
                let node = va.spec.node_name.clone();
                let store = ctx.store();
                let pod = store.pods_on(&node).find(|p| volume_of(store, p) == Some(pv.as_str())).cloned();
                if let Some(pod) = pod {
                    self.recorder.event(
                        ctx,
                        Source::Controller("attachdetach-controller"),
                        pod_ref(&pod, None),
                        "Normal",
                        "SuccessfulAttachVolume",
                        format!("AttachVolume.Attach succeeded for volume \"{pv}\" "),
                    );
                }
            }
        }
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
                let volume = format!("kubernetes.io/csi/{ATTACHER}^{pv}");
                let line = if healthy || node_obj.is_none() {
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
                ctx.call(ACTOR, None, ApiOp::DeleteVolumeAttachment(va.metadata.name.to_string()));
                self.undesired_since.remove(&*va.metadata.name);
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
            if live.iter().any(|va| va.spec.source.persistent_volume_name == pv) {
                if self.warned.add(pod_uid.clone())
                    && let Some(pod) = ctx.store().pod_by_uid(&pod_uid).cloned()
                {
                    self.recorder.event(
                        ctx,
                        Source::Controller("attachdetach-controller"),
                        pod_ref(&pod, None),
                        "Warning",
                        "FailedAttachVolume",
                        format!(
                            "Multi-Attach error for volume \"{pv}\" Volume is already exclusively attached to one node and can't be attached to another"
                        ),
                    );
                }
                continue;
            }
            let name = format!("csi-{}", ctx.rng.hex(64));
            let va = VolumeAttachment::new(&name, ATTACHER, &pv, &node);
            if let Some(Object::VolumeAttachment(_)) = ctx.call(ACTOR, None, ApiOp::CreateVolumeAttachment(va)).ok() {
                ctx.after(ATTACH_TIME, AttachDetachTimer::Attached(name));
            }
        }
    }
}
