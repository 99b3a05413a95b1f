//! The API server's Pods: the store and its indexes (by node, unbound, by uid, the active Pods
//! of each owner, the terminating count), and the Pod's requests: create, get, the `binding`
//! subresource, status writes and a graceful delete.

use std::sync::Arc;

use super::admission::admit_pod;
use super::errors::{already_exists, conflict, forbidden, not_found};
use super::{ApiServer, Caller, Exec};
use crate::objects::{Kind, Node, Object, Pod, PodStatus, Status, Time, set_pod_condition};
use crate::record::ChangeType;
use crate::shared::Shared;
use crate::vecmap::VecMap;

impl ApiServer {
    /// Pods bound to `node`, in namespace/name order.
    pub(crate) fn pods_on<'a>(&'a self, node: &'a str) -> impl Iterator<Item = &'a Arc<Pod>> + 'a {
        self.pods_by_node.get(node).into_iter().flat_map(|pods| pods.values())
    }

    /// The terminating Pods, in namespace/name order (read from every Pod only when there are
    /// some: PodGC asks every 20 s, and a fleet's 3,000 Pods are seldom terminating).
    pub(crate) fn terminating_pods(&self) -> Vec<Arc<Pod>> {
        debug_assert_eq!(
            self.terminating,
            self.pods.values().filter(|p| p.is_terminating()).count(),
            "the count of terminating Pods follows the store"
        );
        if self.terminating == 0 {
            return Vec::new();
        }
        self.pods.values().filter(|p| p.is_terminating()).cloned().collect()
    }

    /// Pods bound to a Node that is not stored, in namespace/name order (PodGC's orphans): the
    /// by-node index and the Nodes, both in name order, read side by side.
    pub(crate) fn pods_on_missing_nodes(&self) -> Vec<&Arc<Pod>> {
        let mut nodes = self.nodes.keys().peekable();
        let mut out: Vec<&Arc<Pod>> = Vec::new();
        for (node, keys) in self.pods_by_node.iter() {
            while nodes.next_if(|n| n.as_str() < node.as_str()).is_some() {}
            if nodes.peek().is_some_and(|n| *n == node) {
                continue;
            }
            out.extend(keys.values());
        }
        out.sort_by(|a, b| (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name)));
        out
    }

    /// Every Node with how many Pods are bound to it, in name order.
    pub(crate) fn nodes_with_pod_counts(&self) -> impl Iterator<Item = (&Arc<Node>, usize)> {
        let mut bound = self.pods_by_node.iter().peekable();
        self.nodes.iter().map(move |(name, node)| {
            while bound.next_if(|(n, _)| n.as_str() < name.as_str()).is_some() {}
            let count = bound.next_if(|(n, _)| *n == name).map_or(0, |(_, keys)| keys.len());
            (node, count)
        })
    }

    /// How many Pods are bound to the node named `node`.
    pub(crate) fn pod_count_on(&self, node: &str) -> usize {
        self.pods_by_node.get(node).map_or(0, |keys| keys.len())
    }

    /// How many active Pods (not terminating, not finished) the owner with this uid has.
    pub(crate) fn active_pods_of(&self, owner_uid: &str) -> i32 {
        self.active_by_owner.get(owner_uid).copied().unwrap_or(0)
    }

    /// Pods bound to no node, in namespace/name order.
    pub(crate) fn unbound_pods(&self) -> impl Iterator<Item = &Arc<Pod>> {
        self.unbound.values()
    }

    /// The Pod with this uid.
    pub(crate) fn pod_by_uid(&self, uid: &str) -> Option<&Arc<Pod>> {
        self.pod_uids.get(uid).and_then(|k| self.pods.get(k))
    }

    pub(super) fn store_pod(&mut self, ctx: &mut Exec<'_>, mut pod: Pod, change: ChangeType) -> Object {
        pod.metadata.resource_version = self.next_rv();
        let key = (pod.metadata.namespace.to_string(), pod.metadata.name.to_string());
        let pod = Arc::new(pod);
        let obj = Object::Pod(pod.clone());
        // The indexes: a Pod is bound once and never moves.
        let active = |p: &Pod| !p.is_terminating() && !matches!(&*p.status.phase, "Succeeded" | "Failed");
        if let Some(old) = self.pods.get(&key) {
            self.terminating -= usize::from(old.is_terminating());
            if active(old) {
                for o in &old.metadata.owner_references {
                    *self.active_by_owner.get_or_insert_with(o.uid.clone(), || 0) -= 1;
                }
            }
        }
        if change != ChangeType::Deleted {
            self.terminating += usize::from(pod.is_terminating());
        }
        if change != ChangeType::Deleted && active(&pod) {
            for o in &pod.metadata.owner_references {
                *self.active_by_owner.get_or_insert_with(o.uid.clone(), || 0) += 1;
            }
        }
        if change == ChangeType::Deleted {
            self.pods.remove(&key);
            self.unbound.remove(&key);
            self.pod_uids.remove(&*pod.metadata.uid);
            if let Some(keys) = self.pods_by_node.get_mut(&pod.spec.node_name) {
                keys.remove(&key);
            }
        } else {
            if pod.spec.node_name.is_empty() {
                self.unbound.insert(key.clone(), pod.clone());
            } else {
                self.unbound.remove(&key);
                self.pods_by_node
                    .get_or_insert_with(pod.spec.node_name.clone(), VecMap::new)
                    .insert(key.clone(), pod.clone());
            }
            if change == ChangeType::Added {
                self.pod_uids.insert(pod.metadata.uid.to_string(), key.clone());
            }
            self.pods.insert(key, pod);
        }
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    /// `POST pods`, through admission.
    pub(super) fn create_pod(&mut self, ctx: &mut Exec<'_>, mut pod: Pod) -> Result<Object, Box<Status>> {
        self.admit_priority(&mut pod)?;
        admit_pod(&mut pod, ctx.rng, &self.default_tolerations);
        self.new_meta(ctx, &mut pod.metadata);
        let key = (pod.metadata.namespace.to_string(), pod.metadata.name.to_string());
        if self.pods.contains_key(&key) {
            return Err(already_exists(Kind::Pod, &key.1));
        }
        Ok(self.store_pod(ctx, pod, ChangeType::Added))
    }

    /// The Priority admission plugin (`plugin/pkg/admission/priority`) for a Pod that names a
    /// PriorityClass: its value and preemption policy into the Pod, or 403 when there is no such
    /// class. (A Pod naming none keeps priority 0: the simulation's clusters have no
    /// `globalDefault` class.)
    fn admit_priority(&self, pod: &mut Pod) -> Result<(), Box<Status>> {
        if pod.spec.priority_class_name.is_empty() {
            return Ok(());
        }
        let Some(class) = self.priority_classes.get(&pod.spec.priority_class_name) else {
            let why = format!("no PriorityClass with name {} was found", pod.spec.priority_class_name);
            return Err(forbidden(Kind::Pod, &pod.metadata.name, why));
        };
        pod.spec.priority = class.value;
        pod.spec.preemption_policy = class.preemption_policy.into();
        Ok(())
    }

    /// `GET pods/NAME`.
    pub(super) fn get_pod(&self, namespace: String, name: String) -> Result<Object, Box<Status>> {
        self.pods
            .get(&(namespace, name.clone()))
            .map(|p| Object::Pod(p.clone()))
            .ok_or_else(|| not_found(Kind::Pod, &name))
    }

    /// The scheduler's `POST pods/NAME/binding`.
    pub(super) fn bind_pod(
        &mut self,
        ctx: &mut Exec<'_>,
        namespace: String,
        name: String,
        node: String,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.pods.get(&(namespace.clone(), name.clone())) else {
            return Err(not_found(Kind::Pod, &name));
        };
        if current.is_terminating() {
            return Err(Box::new(Status::failure(
                409,
                "Conflict",
                format!(
                    "Operation cannot be fulfilled on pods/binding \"{name}\": pod {name} is being deleted, cannot be assigned to a host"
                ),
                "",
                "pods/binding",
                &name,
            )));
        }
        if !current.spec.node_name.is_empty() {
            return Err(Box::new(Status::failure(
                409,
                "Conflict",
                format!(
                    "Operation cannot be fulfilled on pods/binding \"{name}\": pod {name} is already assigned to node \"{}\"",
                    current.spec.node_name
                ),
                "",
                "pods/binding",
                &name,
            )));
        }
        let mut pod = Pod::clone(current);
        pod.spec.node_name = node;
        let now = ctx.time();
        set_pod_condition(&mut pod.status, "PodScheduled", "True", "", "", now);
        self.store_pod(ctx, pod, ChangeType::Modified);
        // The binding subresource answers with a Status, not the Pod.
        Ok(Object::Pod(self.pods[&(namespace, name)].clone()))
    }

    /// A `PATCH pods/NAME/status` carrying the whole wanted status (a kubelet only for its own
    /// node's Pods).
    pub(super) fn patch_pod_status(
        &mut self,
        ctx: &mut Exec<'_>,
        caller: Caller<'_>,
        namespace: String,
        name: String,
        status: Shared<PodStatus>,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.pods.get(&(namespace, name.clone())) else {
            return Err(not_found(Kind::Pod, &name));
        };
        if let Caller::Node(me) = caller
            && current.spec.node_name != me
        {
            return Err(forbidden(
                Kind::Pod,
                &name,
                format!("node \"{me}\" can only update pod status for pods with spec.nodeName set to itself"),
            ));
        }
        let mut pod = Pod::clone(current);
        pod.status = status;
        if pod == **current {
            return Ok(Object::Pod(current.clone()));
        }
        Ok(self.store_pod(ctx, pod, ChangeType::Modified))
    }

    /// `PUT pods/NAME/status`.
    pub(super) fn update_pod_status(&mut self, ctx: &mut Exec<'_>, wanted: Pod) -> Result<Object, Box<Status>> {
        let key = (wanted.metadata.namespace.to_string(), wanted.metadata.name.to_string());
        let Some(current) = self.pods.get(&key) else { return Err(not_found(Kind::Pod, &key.1)) };
        if current.metadata.resource_version != wanted.metadata.resource_version {
            return Err(conflict(Kind::Pod, &key.1));
        }
        let mut pod = Pod::clone(current);
        pod.status = wanted.status;
        Ok(self.store_pod(ctx, pod, ChangeType::Modified))
    }

    /// `DELETE pods/NAME`: at once, or graceful (the Pod `Terminating` until its kubelet has
    /// stopped it).
    pub(super) fn delete_pod(
        &mut self,
        ctx: &mut Exec<'_>,
        namespace: String,
        name: String,
        grace_seconds: Option<i64>,
        precondition_uid: Option<String>,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.pods.get(&(namespace.clone(), name.clone())) else {
            return Err(not_found(Kind::Pod, &name));
        };
        if let Some(uid) = precondition_uid
            && uid != current.metadata.uid
        {
            // Storage's Preconditions.Check, turned into a Conflict by the registry.
            let pods = Kind::Pod.plural();
            let message = format!(
                "Operation cannot be fulfilled on {pods} \"{name}\": StorageError: invalid object, Code: 4, Key: \
                 /registry/{pods}/{namespace}/{name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID \
                 in precondition: {uid}, UID in object meta: {}",
                current.metadata.uid
            );
            return Err(Box::new(Status::failure(409, "Conflict", message, Kind::Pod.group(), pods, &name)));
        }
        let mut pod = Pod::clone(current);
        let grace = grace_seconds.unwrap_or(pod.spec.termination_grace_period_seconds);
        // An unbound Pod, a finished one (Failed or Succeeded) or a zero grace period goes
        // at once (the pod strategy's `CheckGracefulDelete`); otherwise the Pod waits for
        // its kubelet with a deletionTimestamp ("Terminating").
        let finished = matches!(&*pod.status.phase, "Failed" | "Succeeded");
        if grace == 0 || pod.spec.node_name.is_empty() || finished {
            if pod.metadata.deletion_timestamp.is_none() {
                pod.metadata.deletion_timestamp = Some(ctx.time());
                pod.metadata.deletion_grace_period_seconds = Some(0);
            }
            Ok(self.store_pod(ctx, pod, ChangeType::Deleted))
        } else {
            if pod.metadata.deletion_timestamp.is_some() {
                return Ok(Object::Pod(current.clone()));
            }
            pod.metadata.deletion_timestamp = Some(Time::at(ctx.wall + std::time::Duration::from_secs(grace as u64)));
            pod.metadata.deletion_grace_period_seconds = Some(grace);
            pod.metadata.generation = pod.metadata.generation.map(|g| g + 1);
            Ok(self.store_pod(ctx, pod, ChangeType::Modified))
        }
    }
}
