//! The API server's handlers for maintenance: `kubectl cordon`'s patch of `spec.unschedulable`,
//! PodDisruptionBudgets and DaemonSets in the store, and the Pod's `eviction` subresource
//! (`pkg/registry/core/pod/storage/eviction.go`).

use std::sync::Arc;

use super::errors::not_found;
use super::{ApiServer, Exec};
use crate::objects::{
    DaemonSet, Kind, Node, Object, Pod, PodDisruptionBudget, Status, StatusCause, StatusDetails, StatusMeta,
    set_disruption_allowed, set_pod_condition,
};
use crate::record::ChangeType;

/// The message of the eviction subresource's 429.
pub const EVICTION_429: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// `errors.NewTooManyRequests(EVICTION_429, retry)` with one `DisruptionBudget` cause.
fn too_many_requests(cause: String) -> Box<Status> {
    Box::new(Status {
        kind: "Status",
        api_version: "v1",
        metadata: StatusMeta {},
        status: "Failure",
        message: EVICTION_429.into(),
        reason: "TooManyRequests",
        details: Some(StatusDetails {
            name: String::new(),
            group: "",
            kind: "",
            causes: vec![StatusCause { reason: "DisruptionBudget".into(), message: cause }],
        }),
        code: 429,
    })
}

impl ApiServer {
    /// `kubectl cordon`/`uncordon`: the strategic merge patch of `spec.unschedulable`.
    pub(super) fn patch_unschedulable(
        &mut self,
        ctx: &mut Exec<'_>,
        name: &str,
        unschedulable: bool,
    ) -> Result<Object, Box<Status>> {
        let (current, mut node) = self.edit::<Node, str>(name, name)?;
        node.spec.unschedulable = unschedulable;
        Ok(self.store_changed(ctx, current, node))
    }

    pub(super) fn update_pdb_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: PodDisruptionBudget,
    ) -> Result<Object, Box<Status>> {
        let key = (wanted.metadata.namespace.to_string(), wanted.metadata.name.to_string());
        let (current, mut pdb) = self.edit::<PodDisruptionBudget, _>(&key, &key.1)?;
        ApiServer::check_rv(&*current, &wanted.metadata)?;
        pdb.status = wanted.status;
        Ok(self.store_changed(ctx, current, pdb))
    }

    pub(super) fn update_daemonset_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: DaemonSet,
    ) -> Result<Object, Box<Status>> {
        let key = (wanted.metadata.namespace.to_string(), wanted.metadata.name.to_string());
        let (current, mut ds) = self.edit::<DaemonSet, _>(&key, &key.1)?;
        ds.status = wanted.status;
        Ok(self.store_changed(ctx, current, ds))
    }

    /// The PodDisruptionBudgets in the Pod's namespace whose (non-empty) selector matches it.
    pub(crate) fn pdbs_of(&self, pod: &Pod) -> Vec<Arc<PodDisruptionBudget>> {
        self.pdbs
            .iter()
            .filter(|((ns, _), pdb)| {
                *ns == pod.metadata.namespace
                    && !pdb.spec.selector.match_labels.is_empty()
                    && pdb.spec.selector.matches(&pod.metadata.labels)
            })
            .map(|(_, pdb)| pdb.clone())
            .collect()
    }

    /// `EvictionREST.Create`: a Pod that can ignore budgets is deleted; otherwise its one budget
    /// must allow a disruption, and the API server itself decrements it before the delete.
    pub(super) fn evict(
        &mut self,
        ctx: &mut Exec<'_>,
        namespace: String,
        name: String,
        grace_seconds: Option<i64>,
    ) -> Result<Object, Box<Status>> {
        let key = (namespace.clone(), name.clone());
        let Some(pod) = self.pods.get(&key).cloned() else { return Err(not_found(Kind::Pod, &name)) };
        let can_ignore = matches!(&*pod.status.phase, "Succeeded" | "Failed" | "Pending")
            || pod.metadata.deletion_timestamp.is_some();
        if !can_ignore {
            let pdbs = self.pdbs_of(&pod);
            if pdbs.len() > 1 {
                let mut status = Status::success(500);
                status.status = "Failure";
                status.message =
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
                        .into();
                return Err(Box::new(status));
            }
            if let Some(pdb) = pdbs.first() {
                let s = &pdb.status;
                let unready_but_healthy =
                    !pod.is_ready() && s.current_healthy >= s.desired_healthy && s.desired_healthy > 0;
                if !unready_but_healthy {
                    self.check_and_decrement(ctx, pdb, &name)?;
                }
            }
        }
        // `addConditionAndDeletePod`: the DisruptionTarget condition, then a graceful delete.
        if !can_ignore || pod.metadata.deletion_timestamp.is_none() {
            let mut marked = Pod::clone(&pod);
            set_pod_condition(
                &mut marked.status,
                "DisruptionTarget",
                "True",
                "EvictionByEvictionAPI",
                "Eviction API: evicting",
                ctx.time(),
            );
            crate::objects::order_pod_conditions(&mut marked.status, marked.metadata.generation);
            if marked != *pod {
                self.store_pod(ctx, marked, ChangeType::Modified);
            }
        }
        let delete =
            super::ApiOp::DeletePod { namespace, name, grace_seconds, precondition_uid: None, background: false };
        self.apply(ctx, super::Caller::Trusted, delete)
    }

    /// `checkAndDecrement`: a 429 when the budget allows no disruption, else the budget's status
    /// written with one disruption fewer and the Pod in `disruptedPods`.
    fn check_and_decrement(
        &mut self,
        ctx: &mut Exec<'_>,
        pdb: &PodDisruptionBudget,
        pod: &str,
    ) -> Result<(), Box<Status>> {
        let s = &pdb.status;
        if s.observed_generation.unwrap_or(0) < pdb.metadata.generation.unwrap_or(0) {
            return Err(too_many_requests(format!(
                "The disruption budget {} is still being processed by the server.",
                pdb.metadata.name
            )));
        }
        if s.disruptions_allowed == 0 {
            return Err(too_many_requests(format!(
                "The disruption budget {} needs {} healthy pods and has {} currently",
                pdb.metadata.name, s.desired_healthy, s.current_healthy
            )));
        }
        let mut next = pdb.clone();
        next.status.disruptions_allowed -= 1;
        if next.status.disruptions_allowed == 0 {
            let generation = next.status.observed_generation;
            set_disruption_allowed(&mut next.status, false, generation, ctx.time());
        }
        next.status.disrupted_pods.insert(pod.to_string(), ctx.time());
        self.store(ctx, next, ChangeType::Modified);
        Ok(())
    }
}
