//! The API server's handlers for StatefulSets, PersistentVolumeClaims and PersistentVolumes:
//! created, their status (and a claim's bind) written back by the controllers. The
//! `StorageObjectInUseProtection` admission plugin adds the protection finalizers on create, and
//! the PersistentVolume strategy starts a new volume `Pending` with its phase transition time.

use std::sync::Arc;

use super::{ApiServer, Exec, already_exists, conflict, not_found};
use crate::objects::{
    ControllerRevision, Object, ObjectMeta, PersistentVolume, PersistentVolumeClaim, StatefulSet, Status,
};
use crate::record::ChangeType;
use crate::rng::Rng;

/// A stored object's namespace and name.
fn key(meta: &ObjectMeta) -> (String, String) {
    (meta.namespace.to_string(), meta.name.to_string())
}

/// A PUT's optimistic concurrency check.
fn check_rv(
    current: &ObjectMeta,
    wanted: &ObjectMeta,
    group: &'static str,
    resource: &'static str,
) -> Result<(), Box<Status>> {
    if current.resource_version != wanted.resource_version {
        return Err(conflict(group, resource, &wanted.name));
    }
    Ok(())
}

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

    fn store_statefulset(&mut self, ctx: &mut Exec<'_>, mut set: StatefulSet, change: ChangeType) -> Object {
        set.metadata.resource_version = self.next_rv();
        let set = Arc::new(set);
        self.statefulsets.insert(key(&set.metadata), set.clone());
        let obj = Object::StatefulSet(set);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    fn store_claim(&mut self, ctx: &mut Exec<'_>, mut claim: PersistentVolumeClaim, change: ChangeType) -> Object {
        claim.metadata.resource_version = self.next_rv();
        let claim = Arc::new(claim);
        self.claims.insert(key(&claim.metadata), claim.clone());
        let obj = Object::PersistentVolumeClaim(claim);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    fn store_volume(&mut self, ctx: &mut Exec<'_>, mut pv: PersistentVolume, change: ChangeType) -> Object {
        pv.metadata.resource_version = self.next_rv();
        let pv = Arc::new(pv);
        self.volumes.insert(pv.metadata.name.to_string(), pv.clone());
        let obj = Object::PersistentVolume(pv);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    pub(super) fn create_statefulset(
        &mut self,
        ctx: &mut Exec<'_>,
        mut set: StatefulSet,
    ) -> Result<Object, Box<Status>> {
        if self.statefulsets.contains_key(&key(&set.metadata)) {
            return Err(already_exists("apps", "statefulsets", &set.metadata.name));
        }
        self.new_meta(ctx, &mut set.metadata);
        set.metadata.generation = Some(1);
        Ok(self.store_statefulset(ctx, set, ChangeType::Added))
    }

    /// `POST controllerrevisions` (the StatefulSet controller's `ControllerRevisions().Create`).
    pub(super) fn create_revision(
        &mut self,
        ctx: &mut Exec<'_>,
        mut rev: ControllerRevision,
    ) -> Result<Object, Box<Status>> {
        if self.revisions.contains_key(&key(&rev.metadata)) {
            return Err(already_exists("apps", "controllerrevisions", &rev.metadata.name));
        }
        self.new_meta(ctx, &mut rev.metadata);
        rev.metadata.resource_version = self.next_rv();
        let rev = Arc::new(rev);
        self.revisions.insert(key(&rev.metadata), rev.clone());
        let obj = Object::ControllerRevision(rev);
        ctx.log.push_change(ctx.now, ChangeType::Added, obj.clone(), ctx.request);
        Ok(obj)
    }

    pub(super) fn update_statefulset_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: StatefulSet,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.statefulsets.get(&key(&wanted.metadata)) else {
            return Err(not_found("apps", "statefulsets", &wanted.metadata.name));
        };
        check_rv(&current.metadata, &wanted.metadata, "apps", "statefulsets")?;
        let mut set = StatefulSet::clone(current);
        set.status = wanted.status;
        if set == **current {
            return Ok(Object::StatefulSet(current.clone()));
        }
        Ok(self.store_statefulset(ctx, set, ChangeType::Modified))
    }

    pub(super) fn create_claim(
        &mut self,
        ctx: &mut Exec<'_>,
        mut claim: PersistentVolumeClaim,
    ) -> Result<Object, Box<Status>> {
        if self.claims.contains_key(&key(&claim.metadata)) {
            return Err(already_exists("", "persistentvolumeclaims", &claim.metadata.name));
        }
        // The claim's uid from a generator of its own: the claim was added to the simulation
        // later, and must not move the seeded stream's draws (the run's timings).
        let at = ctx.wall.0.to_string();
        let m = &claim.metadata;
        claim.metadata.uid = Rng::keyed(&["persistentvolumeclaims", &m.namespace, &m.name, &at]).uuid().into();
        claim.metadata.creation_timestamp = Some(ctx.time());
        claim.metadata.finalizers = vec!["kubernetes.io/pvc-protection".into()].into();
        Ok(self.store_claim(ctx, claim, ChangeType::Added))
    }

    /// `PUT persistentvolumeclaims/NAME` (`status` kept) or `…/status` (only `status` taken).
    pub(super) fn update_claim(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: PersistentVolumeClaim,
        status: bool,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.claims.get(&key(&wanted.metadata)) else {
            return Err(not_found("", "persistentvolumeclaims", &wanted.metadata.name));
        };
        check_rv(&current.metadata, &wanted.metadata, "", "persistentvolumeclaims")?;
        let mut claim = PersistentVolumeClaim::clone(current);
        if status {
            claim.status = wanted.status;
        } else {
            claim.metadata.annotations = wanted.metadata.annotations;
            claim.spec = wanted.spec;
        }
        if claim == **current {
            return Ok(Object::PersistentVolumeClaim(current.clone()));
        }
        Ok(self.store_claim(ctx, claim, ChangeType::Modified))
    }

    pub(super) fn create_volume(
        &mut self,
        ctx: &mut Exec<'_>,
        mut pv: PersistentVolume,
    ) -> Result<Object, Box<Status>> {
        if self.volumes.contains_key(&*pv.metadata.name) {
            return Err(already_exists("", "persistentvolumes", &pv.metadata.name));
        }
        // From the seeded stream: the attach-detach controller drew this volume's name from it
        // before volumes were stored objects.
        self.new_meta(ctx, &mut pv.metadata);
        pv.metadata.finalizers.insert(0, "kubernetes.io/pv-protection".into());
        pv.status.phase = "Pending".into();
        pv.status.last_phase_transition_time = Some(ctx.time());
        Ok(self.store_volume(ctx, pv, ChangeType::Added))
    }

    /// `PUT persistentvolumes/NAME/status`; a new phase moves `lastPhaseTransitionTime`.
    pub(super) fn update_volume_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: PersistentVolume,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.volumes.get(&*wanted.metadata.name) else {
            return Err(not_found("", "persistentvolumes", &wanted.metadata.name));
        };
        check_rv(&current.metadata, &wanted.metadata, "", "persistentvolumes")?;
        let mut pv = PersistentVolume::clone(current);
        if pv.status.phase != wanted.status.phase {
            pv.status.phase = wanted.status.phase;
            pv.status.last_phase_transition_time = Some(ctx.time());
        }
        if pv == **current {
            return Ok(Object::PersistentVolume(current.clone()));
        }
        Ok(self.store_volume(ctx, pv, ChangeType::Modified))
    }
}
