//! The API server's handlers for StatefulSets, PersistentVolumeClaims and PersistentVolumes:
//! created, their status (and a claim's bind) written back by the controllers. The
//! `StorageObjectInUseProtection` admission plugin adds the protection finalizers on create, and
//! the PersistentVolume strategy starts a new volume `Pending` with its phase transition time.

use super::ApiServer;
use super::Exec;
use crate::objects::{
    ControllerRevision, Object, ObjectMeta, PersistentVolume, PersistentVolumeClaim, StatefulSet, Status,
};
use crate::record::ChangeType;
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

    pub(super) fn create_statefulset(
        &mut self,
        ctx: &mut Exec<'_>,
        mut set: StatefulSet,
    ) -> Result<Object, Box<Status>> {
        self.check_new::<StatefulSet>(&set.metadata)?;
        self.new_meta(ctx, &mut set.metadata);
        set.metadata.generation = Some(1);
        Ok(self.store(ctx, set, ChangeType::Added))
    }

    /// `POST controllerrevisions` (the StatefulSet controller's `ControllerRevisions().Create`).
    pub(super) fn create_revision(
        &mut self,
        ctx: &mut Exec<'_>,
        mut rev: ControllerRevision,
    ) -> Result<Object, Box<Status>> {
        self.check_new::<ControllerRevision>(&rev.metadata)?;
        self.new_meta(ctx, &mut rev.metadata);
        Ok(self.store(ctx, rev, ChangeType::Added))
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

    pub(super) fn create_claim(
        &mut self,
        ctx: &mut Exec<'_>,
        mut claim: PersistentVolumeClaim,
    ) -> Result<Object, Box<Status>> {
        self.check_new::<PersistentVolumeClaim>(&claim.metadata)?;
        // The claim's uid from a generator of its own: the claim was added to the simulation
        // later, and must not move the seeded stream's draws (the run's timings).
        let at = ctx.wall.0.to_string();
        let m = &claim.metadata;
        claim.metadata.uid = Rng::keyed(&["persistentvolumeclaims", &m.namespace, &m.name, &at]).uuid().into();
        claim.metadata.creation_timestamp = Some(ctx.time());
        claim.metadata.finalizers = vec!["kubernetes.io/pvc-protection".into()].into();
        Ok(self.store(ctx, claim, ChangeType::Added))
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

    pub(super) fn create_volume(
        &mut self,
        ctx: &mut Exec<'_>,
        mut pv: PersistentVolume,
    ) -> Result<Object, Box<Status>> {
        self.check_new::<PersistentVolume>(&pv.metadata)?;
        // From the seeded stream: the attach-detach controller drew this volume's name from it
        // before volumes were stored objects.
        self.new_meta(ctx, &mut pv.metadata);
        pv.metadata.finalizers.insert(0, "kubernetes.io/pv-protection".into());
        pv.status.phase = "Pending".into();
        pv.status.last_phase_transition_time = Some(ctx.time());
        Ok(self.store(ctx, pv, ChangeType::Added))
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
