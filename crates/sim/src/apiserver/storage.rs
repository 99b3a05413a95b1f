//! The API server's handlers for StatefulSets, PersistentVolumeClaims and PersistentVolumes: the
//! admission of a new claim or volume (the `StorageObjectInUseProtection` plugin's finalizers, the
//! PersistentVolume strategy's `Pending` phase with its transition time), and their status (and a
//! claim's bind) written back by the controllers.

use super::{ApiServer, Exec};
use crate::objects::{Object, ObjectMeta, PersistentVolume, PersistentVolumeClaim, StatefulSet, Status};
use crate::rng::Rng;

impl ApiServer {
    /// The volumes a Pod needs, one for each claim its spec names: what the claim is bound to
    /// (none while it is missing or unbound). The attach-detach controller and the kubelet read
    /// them so.
    pub(crate) fn volumes_of<'s>(&'s self, pod: &'s crate::objects::Pod) -> impl Iterator<Item = Option<&'s str>> + 's {
        pod.claim_names().map(move |claim| {
            let claim = self.claims.get(&(pod.metadata.namespace.to_string(), claim.to_string()))?;
            Some(claim.spec.volume_name.as_str()).filter(|v| !v.is_empty())
        })
    }

    pub(super) fn update_statefulset_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: StatefulSet,
    ) -> Result<Object, Box<Status>> {
        let (current, mut set) = self.edit::<StatefulSet, _>(&key(&wanted.metadata), &wanted.metadata.name)?;
        ApiServer::check_rv(&*current, &wanted.metadata)?;
        set.status = wanted.status;
        Ok(self.store_changed(ctx, current, set))
    }

    /// A new claim's uid, and the `StorageObjectInUseProtection` finalizer.
    pub(super) fn admit_claim(&mut self, ctx: &mut Exec<'_>, claim: &mut PersistentVolumeClaim) {
        // The claim's uid from a generator of its own: the claim was added to the simulation
        // later, and must not move the seeded stream's draws (the run's timings).
        let at = ctx.wall.0.to_string();
        let m = &claim.metadata;
        claim.metadata.uid = Rng::keyed(&["persistentvolumeclaims", &m.namespace, &m.name, &at]).uuid().into();
        claim.metadata.creation_timestamp = Some(ctx.time());
        claim.metadata.finalizers = vec!["kubernetes.io/pvc-protection".into()].into();
    }

    /// `PUT persistentvolumeclaims/NAME` (`status` kept) or `…/status` (only `status` taken).
    pub(super) fn update_claim(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: PersistentVolumeClaim,
        status: bool,
    ) -> Result<Object, Box<Status>> {
        let (current, mut claim) =
            self.edit::<PersistentVolumeClaim, _>(&key(&wanted.metadata), &wanted.metadata.name)?;
        ApiServer::check_rv(&*current, &wanted.metadata)?;
        if status {
            claim.status = wanted.status;
        } else {
            claim.metadata.annotations = wanted.metadata.annotations;
            claim.spec = wanted.spec;
        }
        Ok(self.store_changed(ctx, current, claim))
    }

    /// A new volume's uid, the protection finalizer, and the PersistentVolume strategy's
    /// `Pending` phase with its transition time.
    pub(super) fn admit_volume(&mut self, ctx: &mut Exec<'_>, pv: &mut PersistentVolume) {
        // From the seeded stream: the attach-detach controller drew this volume's name from it
        // before volumes were stored objects.
        self.new_meta(ctx, &mut pv.metadata);
        pv.metadata.finalizers.insert(0, "kubernetes.io/pv-protection".into());
        pv.status.phase = "Pending".into();
        pv.status.last_phase_transition_time = Some(ctx.time());
    }

    /// `PUT persistentvolumes/NAME/status`; a new phase moves `lastPhaseTransitionTime`.
    pub(super) fn update_volume_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: PersistentVolume,
    ) -> Result<Object, Box<Status>> {
        let (current, mut pv) = self.edit::<PersistentVolume, str>(&wanted.metadata.name, &wanted.metadata.name)?;
        ApiServer::check_rv(&*current, &wanted.metadata)?;
        if pv.status.phase != wanted.status.phase {
            pv.status.phase = wanted.status.phase;
            pv.status.last_phase_transition_time = Some(ctx.time());
        }
        Ok(self.store_changed(ctx, current, pv))
    }
}

/// A namespaced object's key.
fn key(meta: &ObjectMeta) -> (String, String) {
    (meta.namespace.to_string(), meta.name.to_string())
}
