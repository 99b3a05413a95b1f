//! The API server's handlers for maintenance: `kubectl cordon`'s patch of `spec.unschedulable`,
//! PodDisruptionBudgets and DaemonSets in the store, and the Pod's `eviction` subresource
//! (`pkg/registry/core/pod/storage/eviction.go`).

use std::sync::Arc;

use super::{ApiServer, Exec, conflict, not_found};
use crate::objects::{
    DaemonSet, Node, Object, Pod, PodDisruptionBudget, Status, StatusCause, StatusDetails, StatusMeta,
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
    fn store_pdb(&mut self, ctx: &mut Exec<'_>, mut pdb: PodDisruptionBudget, change: ChangeType) -> Object {
        pdb.metadata.resource_version = self.next_rv();
        let key = (pdb.metadata.namespace.to_string(), pdb.metadata.name.to_string());
        let pdb = Arc::new(pdb);
        self.pdbs.insert(key, pdb.clone());
        let obj = Object::PodDisruptionBudget(pdb);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    fn store_daemonset(&mut self, ctx: &mut Exec<'_>, mut ds: DaemonSet, change: ChangeType) -> Object {
        ds.metadata.resource_version = self.next_rv();
        let key = (ds.metadata.namespace.to_string(), ds.metadata.name.to_string());
        let ds = Arc::new(ds);
        self.daemonsets.insert(key, ds.clone());
        let obj = Object::DaemonSet(ds);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    /// `kubectl cordon`/`uncordon`: the strategic merge patch of `spec.unschedulable`.
    pub(super) fn patch_unschedulable(
        &mut self,
        ctx: &mut Exec<'_>,
        name: &str,
        unschedulable: bool,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.nodes.get(name) else { return Err(not_found("", "nodes", name)) };
        let mut node = Node::clone(current);
        node.spec.unschedulable = unschedulable;
        if node == **current {
            return Ok(Object::Node(current.clone()));
        }
        Ok(self.store_node(ctx, node, ChangeType::Modified))
    }

    pub(super) fn create_pdb(
        &mut self,
        ctx: &mut Exec<'_>,
        mut pdb: PodDisruptionBudget,
    ) -> Result<Object, Box<Status>> {
        let key = (pdb.metadata.namespace.to_string(), pdb.metadata.name.to_string());
        if self.pdbs.contains_key(&key) {
            return Err(Box::new(Status::failure(
                409,
                "AlreadyExists",
                format!("poddisruptionbudgets.policy \"{}\" already exists", key.1),
                "policy",
                "poddisruptionbudgets",
                &key.1,
            )));
        }
        self.new_meta(ctx, &mut pdb.metadata);
        pdb.metadata.generation = Some(1);
        Ok(self.store_pdb(ctx, pdb, ChangeType::Added))
    }

    pub(super) fn update_pdb_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: PodDisruptionBudget,
    ) -> Result<Object, Box<Status>> {
        let key = (wanted.metadata.namespace.to_string(), wanted.metadata.name.to_string());
        let Some(current) = self.pdbs.get(&key) else {
            return Err(not_found("policy", "poddisruptionbudgets", &key.1));
        };
        if current.metadata.resource_version != wanted.metadata.resource_version {
            return Err(conflict("policy", "poddisruptionbudgets", &key.1));
        }
        let mut pdb = PodDisruptionBudget::clone(current);
        pdb.status = wanted.status;
        if pdb == **current {
            return Ok(Object::PodDisruptionBudget(current.clone()));
        }
        Ok(self.store_pdb(ctx, pdb, ChangeType::Modified))
    }

    pub(super) fn create_daemonset(&mut self, ctx: &mut Exec<'_>, mut ds: DaemonSet) -> Result<Object, Box<Status>> {
        self.new_meta(ctx, &mut ds.metadata);
        ds.metadata.generation = Some(1);
        Ok(self.store_daemonset(ctx, ds, ChangeType::Added))
    }

    pub(super) fn get_daemonset(&self, namespace: &str, name: &str) -> Result<Object, Box<Status>> {
        self.daemonsets
            .get(&(namespace.to_string(), name.to_string()))
            .map(|d| Object::DaemonSet(d.clone()))
            .ok_or_else(|| not_found("apps", "daemonsets", name))
    }

    pub(super) fn update_daemonset_status(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: DaemonSet,
    ) -> Result<Object, Box<Status>> {
        let key = (wanted.metadata.namespace.to_string(), wanted.metadata.name.to_string());
        let Some(current) = self.daemonsets.get(&key) else { return Err(not_found("apps", "daemonsets", &key.1)) };
        let mut ds = DaemonSet::clone(current);
        ds.status = wanted.status;
        if ds == *current.as_ref() {
            return Ok(Object::DaemonSet(current.clone()));
        }
        Ok(self.store_daemonset(ctx, ds, ChangeType::Modified))
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
        let Some(pod) = self.pods.get(&key).cloned() else { return Err(not_found("", "pods", &name)) };
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
        self.store_pdb(ctx, next, ChangeType::Modified);
        Ok(())
    }
}
