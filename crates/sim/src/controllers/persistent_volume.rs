//! The PersistentVolume controller (`pkg/controller/volume/persistentvolume`, "persistent-volume-
//! binder") with the CSI driver's external-provisioner, for the StatefulSet's claims: a new claim
//! is marked for the external provisioner (`volume.kubernetes.io/storage-provisioner`), the
//! provisioner creates `pvc-<claim uid>` with its `claimRef` set, and the controller completes the
//! bind as `bind()` does: the volume's phase `Bound`, the claim's `spec.volumeName` with the
//! `bind-completed` and `bound-by-controller` annotations, then the claim's status `Bound`.
//!
//! Simplified: provisioning takes no time (the real CreateVolume call takes seconds), the storage
//! class binds at once (GKE's `standard-rwo` waits for the first consumer: the scheduler's
//! `volume.kubernetes.io/selected-node` is not simulated), and the controller's and provisioner's
//! Events are not written. `docs/kubernetes-notes.md` §12.

use crate::apiserver::ApiOp;
use crate::controllers::attach_detach::ATTACHER;
use crate::ctx::Ctx;
use crate::objects::{Object, PersistentVolume};
use crate::record::Actor;

const ACTOR: Actor = Actor::PersistentVolumeController;
/// The annotations the controller sets on a claim it hands to an external provisioner.
const PROVISIONER_ANNOTATIONS: [&str; 2] =
    ["volume.beta.kubernetes.io/storage-provisioner", "volume.kubernetes.io/storage-provisioner"];

/// The controller's state (none: it works from the store).
#[derive(Clone, Debug, Default)]
pub(crate) struct PersistentVolumeController;

impl PersistentVolumeController {
    /// Input: claims or volumes changed (run after the StatefulSet controller).
    pub(crate) fn on_change<T>(&mut self, ctx: &mut Ctx<'_, T>) {
        let claims: Vec<_> = ctx.store().claims.values().cloned().collect();
        for claim in claims {
            if !claim.spec.volume_name.is_empty() && claim.status.phase == "Bound" {
                continue;
            }
            let mut claim = claim;
            // `provisionClaim`: hand the claim to the external provisioner.
            if !claim.metadata.annotations.contains_key(PROVISIONER_ANNOTATIONS[1]) {
                let mut wanted = crate::objects::PersistentVolumeClaim::clone(&claim);
                for a in PROVISIONER_ANNOTATIONS {
                    wanted.metadata.annotations.insert(a.into(), ATTACHER.into());
                }
                match ctx.call(ACTOR, None, ApiOp::UpdateClaim(wanted)).ok() {
                    Some(Object::PersistentVolumeClaim(c)) => claim = c,
                    _ => continue,
                }
            }
            // The external-provisioner's `Provision`.
            let pv_name = format!("pvc-{}", claim.metadata.uid);
            let mut volume = ctx.store().volumes.get(&pv_name).cloned();
            if volume.is_none() {
                let pv = PersistentVolume::provisioned_for(&claim, ATTACHER);
                match ctx.call(Actor::CsiProvisioner, None, ApiOp::CreateVolume(pv)).ok() {
                    Some(Object::PersistentVolume(v)) => volume = Some(v),
                    _ => continue,
                }
            }
            let Some(volume) = volume else { continue };
            // `bind`: the volume's phase, the claim's volumeName, the claim's phase.
            if volume.status.phase != "Bound" {
                let mut wanted = PersistentVolume::clone(&volume);
                wanted.status.phase = "Bound".into();
                if ctx.call(ACTOR, None, ApiOp::UpdateVolumeStatus(wanted)).ok().is_none() {
                    continue;
                }
            }
            if claim.spec.volume_name.is_empty() {
                let mut wanted = crate::objects::PersistentVolumeClaim::clone(&claim);
                wanted.spec.volume_name = pv_name.clone();
                wanted.metadata.annotations.insert("pv.kubernetes.io/bind-completed".into(), "yes".into());
                wanted.metadata.annotations.insert("pv.kubernetes.io/bound-by-controller".into(), "yes".into());
                match ctx.call(ACTOR, None, ApiOp::UpdateClaim(wanted)).ok() {
                    Some(Object::PersistentVolumeClaim(c)) => claim = c,
                    _ => continue,
                }
            }
            let mut wanted = crate::objects::PersistentVolumeClaim::clone(&claim);
            wanted.status = claim.bound_status();
            ctx.call(ACTOR, None, ApiOp::UpdateClaimStatus(wanted));
        }
    }
}
