//! The simulated kube-apiserver: an object store with uids, resourceVersions and creation
//! timestamps, the admission plugins that matter for nodes (TaintNodesByCondition,
//! NodeRestriction, DefaultTolerationSeconds, ServiceAccount), and the answers the real one gives
//! (201, 200, 403, 404, 409) with their exact messages.

mod list;
mod node_delete;
mod op;
mod policy;
mod storage;

pub(crate) use op::ApiOp;

pub use policy::EVICTION_429;

use super::shared::Shared;
use super::vecmap::VecMap;
use crate::strings::cat;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::objects::CsiNode;
use super::objects::{
    DaemonSet, Lease, MicroTime, Node, Object, OwnerReference, Pod, PodDisruptionBudget, Status, Taint, Text, Time,
    Toleration, set_pod_condition,
};
use super::record::{ChangeType, ContentType, LeaseVersion, Log};
use super::rng::Rng;
use super::time::{SimTime, WallTime};

/// The namespace node Leases live in.
pub const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";
/// Content type of strategic-merge patches.
pub(crate) const SMP: ContentType = ContentType::StrategicMergePatch;
/// Content type of JSON merge patches (`kubectl label`).
pub(crate) const MERGE_PATCH: ContentType = ContentType::MergePatch;
/// Content type of JSON bodies.
pub(crate) const JSON: ContentType = ContentType::Json;

/// The taint TaintNodesByCondition adds to every new Node.
pub const TAINT_NOT_READY: &str = "node.kubernetes.io/not-ready";
/// The taint the node lifecycle controller adds when a node's Ready condition is Unknown.
pub const TAINT_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
/// `v1.TaintNodeOutOfService`: an administrator's mark for a node that is shut down for good.
pub const TAINT_OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";
/// The CSI driver's external-attacher's finalizer on a VolumeAttachment
/// (`external-attacher/` and the driver's name with every other character a `-`).
pub(crate) const VA_FINALIZER: &str = "external-attacher/pd-csi-storage-gke-io";

/// Who is calling, as authentication and NodeRestriction see it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Caller<'a> {
    /// A kubelet, authenticated as `system:node:<name>`.
    Node(&'a str),
    /// A control-plane component or an administrator: not restricted.
    Trusted,
}

/// What one request did.
pub(crate) type ApiResult = Result<Answer, Box<Status>>;

/// What the API server answers a request that succeeded.
#[derive(Clone, Debug)]
pub(crate) enum Answer {
    /// The object as stored (or read).
    Object(Object),
    /// A Lease renewed, kept compactly, and its place among the Leases (the next renewal's
    /// hint, [`ApiOp::RenewLease`]'s `slot`).
    Renewed(LeaseVersion, u32),
}

/// The Pods bound to one node, by namespace and name: the same versions as `pods` holds (a
/// kubelet's sync reads its node's Pods here, without a search of every Pod's key for each).
type PodKeys = VecMap<(String, String), Arc<Pod>>;

/// The store and its admission chain.
#[derive(Clone, Debug, Default)]
pub(crate) struct ApiServer {
    resource_version: u64,
    /// Counts every Node and Lease added or removed: while it stays the same, the stored Nodes
    /// and Leases are the same names in the same places (what the node lifecycle controller
    /// pairs its entries with).
    pub(crate) membership: u64,
    pub(crate) nodes: Shared<VecMap<Text, Arc<Node>>>,
    /// The annotations the last annotation patch left on its Node (see `PatchNodeAnnotations`).
    patched_annotations: Option<super::objects::StringMap>,
    /// Each node's Lease, compactly (a renewal builds no Lease).
    pub(crate) leases: Shared<VecMap<Text, LeaseVersion>>,
    pub(crate) volume_attachments: Shared<VecMap<String, Arc<super::objects::VolumeAttachment>>>,
    /// (A B-tree: Pods come by the thousand with random names, and a sorted vector's inserts
    /// moved ~100 KB each at 1,000 nodes.)
    pub(crate) pods: Shared<BTreeMap<(String, String), Arc<Pod>>>,
    /// The Pods bound to each node: what a `spec.nodeName` field selector lists.
    pods_by_node: Shared<VecMap<String, PodKeys>>,
    /// The Pods bound to no node yet (the same map type as `pods`, so the page's code holds one
    /// B-tree of Pods, not two).
    unbound: Shared<BTreeMap<(String, String), Arc<Pod>>>,
    /// Each Pod's key by uid.
    pod_uids: Shared<VecMap<String, (String, String)>>,
    /// How many Pods of each owner (by uid) are active: not terminating, not finished.
    active_by_owner: Shared<VecMap<String, i32>>,
    /// How many stored Pods are terminating (PodGC's pass reads every Pod only when some are).
    terminating: usize,
    /// Each node's CSINode.
    pub(crate) csinodes: Shared<VecMap<String, Arc<CsiNode>>>,
    /// PodDisruptionBudgets, by namespace and name.
    pub(crate) pdbs: Shared<VecMap<(String, String), Arc<PodDisruptionBudget>>>,
    /// DaemonSets, by namespace and name.
    pub(crate) daemonsets: Shared<VecMap<(String, String), Arc<DaemonSet>>>,
    /// StatefulSets, by namespace and name.
    pub(crate) statefulsets: Shared<VecMap<(String, String), Arc<super::objects::StatefulSet>>>,
    /// ControllerRevisions, by namespace and name.
    pub(crate) revisions: Shared<VecMap<(String, String), Arc<super::objects::ControllerRevision>>>,
    /// PersistentVolumeClaims, by namespace and name.
    pub(crate) claims: Shared<VecMap<(String, String), Arc<super::objects::PersistentVolumeClaim>>>,
    /// PersistentVolumes, by name.
    pub(crate) volumes: Shared<VecMap<String, Arc<super::objects::PersistentVolume>>>,
}

/// The mutable context one request runs in.
pub(crate) struct Exec<'a> {
    pub(crate) now: SimTime,
    pub(crate) wall: WallTime,
    pub(crate) log: &'a mut Log,
    pub(crate) rng: &'a mut Rng,
    pub(crate) request: Option<u32>,
    /// The request is a Lease renewal that the caller keeps next, with its answer: a renewed
    /// Lease's version is kept by it ([`Log::push_renewal`]).
    pub(crate) renewal: bool,
}

impl Exec<'_> {
    fn time(&self) -> Time {
        Time::at(self.wall)
    }
}

fn not_found(group: &'static str, resource: &'static str, name: &str) -> Box<Status> {
    let dot = if group.is_empty() { "" } else { "." };
    let message = cat!(resource, dot, group, " \"", name, "\" not found");
    Box::new(Status::failure(404, "NotFound", message, group, resource, name))
}

fn already_exists(group: &'static str, resource: &'static str, name: &str) -> Box<Status> {
    let qualified = qualified(group, resource);
    Box::new(Status::failure(
        409,
        "AlreadyExists",
        format!("{qualified} \"{name}\" already exists"),
        group,
        resource,
        name,
    ))
}

fn qualified(group: &str, resource: &str) -> String {
    if group.is_empty() { resource.to_string() } else { format!("{resource}.{group}") }
}

fn forbidden(group: &'static str, resource: &'static str, name: &str, why: String) -> Box<Status> {
    let qualified = qualified(group, resource);
    Box::new(Status::failure(
        403,
        "Forbidden",
        format!("{qualified} \"{name}\" is forbidden: {why}"),
        group,
        resource,
        name,
    ))
}

/// NodeRestriction's answer to a kubelet touching another node's Lease.
fn lease_forbidden(name: &str) -> Box<Status> {
    forbidden(
        "coordination.k8s.io",
        "leases",
        name,
        "can only access node lease with the same name as the requesting node".into(),
    )
}

fn conflict(group: &'static str, resource: &'static str, name: &str) -> Box<Status> {
    let qualified = qualified(group, resource);
    Box::new(Status::failure(
        409,
        "Conflict",
        format!(
            "Operation cannot be fulfilled on {qualified} \"{name}\": the object has been modified; please apply your changes to the latest version and try again"
        ),
        group,
        resource,
        name,
    ))
}

/// Whether a kubelet may set this label on its own Node (`IsKubeletLabel` plus the
/// `node-restriction.kubernetes.io/` ban).
pub fn kubelet_may_set_label(key: &str) -> bool {
    const EXACT: [&str; 11] = [
        "kubernetes.io/hostname",
        "kubernetes.io/os",
        "kubernetes.io/arch",
        "beta.kubernetes.io/os",
        "beta.kubernetes.io/arch",
        "beta.kubernetes.io/instance-type",
        "node.kubernetes.io/instance-type",
        "topology.kubernetes.io/zone",
        "topology.kubernetes.io/region",
        "failure-domain.beta.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/region",
    ];
    let Some((prefix, _)) = key.split_once('/') else { return true };
    if prefix == "node-restriction.kubernetes.io" || prefix.ends_with(".node-restriction.kubernetes.io") {
        return false;
    }
    if EXACT.contains(&key) {
        return true;
    }
    let under = |ns: &str| prefix == ns || prefix.ends_with(&format!(".{ns}"));
    if under("kubelet.kubernetes.io") || under("node.kubernetes.io") {
        return true;
    }
    !(under("kubernetes.io") || under("k8s.io"))
}

fn forbidden_labels<'a>(labels: impl Iterator<Item = &'a String>) -> Vec<&'a str> {
    let mut bad: Vec<&str> = labels.map(String::as_str).filter(|k| !kubelet_may_set_label(k)).collect();
    bad.sort_unstable();
    bad
}

impl ApiServer {
    fn next_rv(&mut self) -> u64 {
        self.resource_version += 1;
        self.resource_version
    }

    /// Starts the resourceVersion counter where a freshly installed cluster's would be.
    /// The store's current resourceVersion (what a list answers with).
    pub(crate) fn resource_version(&self) -> u64 {
        self.resource_version
    }

    pub(crate) fn with_resource_version(rv: u64) -> ApiServer {
        ApiServer { resource_version: rv, ..ApiServer::default() }
    }

    /// The current version of a Node.
    pub(crate) fn node(&self, name: &str) -> Option<&Arc<Node>> {
        self.nodes.get(name)
    }

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

    fn store_node(&mut self, ctx: &mut Exec<'_>, mut node: Node, change: ChangeType) -> Object {
        node.metadata.resource_version = self.next_rv();
        let node = Arc::new(node);
        match self.nodes.get_mut(&*node.metadata.name) {
            Some(slot) => *slot = node.clone(),
            None => {
                self.nodes.insert(node.metadata.name.clone(), node.clone());
                self.membership += 1;
            }
        }
        let obj = Object::Node(node);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    fn store_csinode(&mut self, ctx: &mut Exec<'_>, mut csinode: CsiNode, change: ChangeType) -> Object {
        csinode.metadata.resource_version = self.next_rv();
        let csinode = Arc::new(csinode);
        self.csinodes.insert(csinode.metadata.name.to_string(), csinode.clone());
        let obj = Object::CsiNode(csinode);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    fn store_lease(&mut self, ctx: &mut Exec<'_>, mut lease: Lease, change: ChangeType) -> Object {
        lease.metadata.resource_version = self.next_rv();
        let lease = Arc::new(lease);
        match self.leases.get_mut(&*lease.metadata.name) {
            Some(slot) => *slot = LeaseVersion::whole(lease.clone()),
            None => {
                self.leases.insert(lease.metadata.name.clone(), LeaseVersion::whole(lease.clone()));
                self.membership += 1;
            }
        }
        let obj = Object::Lease(lease);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    fn store_pod(&mut self, ctx: &mut Exec<'_>, mut pod: Pod, change: ChangeType) -> Object {
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

    fn delete_volume_attachment(&mut self, ctx: &mut Exec<'_>, name: &str) -> Result<Object, Box<Status>> {
        let Some(current) = self.volume_attachments.remove(name) else {
            return Err(not_found("storage.k8s.io", "volumeattachments", name));
        };
        let mut va = super::objects::VolumeAttachment::clone(&current);
        va.metadata.resource_version = self.next_rv();
        let obj = Object::VolumeAttachment(Arc::new(va));
        ctx.log.push_change(ctx.now, ChangeType::Deleted, obj.clone(), ctx.request);
        Ok(obj)
    }

    fn store_volume_attachment(
        &mut self,
        ctx: &mut Exec<'_>,
        mut va: super::objects::VolumeAttachment,
        change: ChangeType,
    ) -> Object {
        va.metadata.resource_version = self.next_rv();
        let va = Arc::new(va);
        self.volume_attachments.insert(va.metadata.name.to_string(), va.clone());
        let obj = Object::VolumeAttachment(va);
        ctx.log.push_change(ctx.now, change, obj.clone(), ctx.request);
        obj
    }

    /// Stores an Event object (events are written by the recorder, not through [`ApiOp`]). The
    /// Events are kept in the log only (read back with `Ctx::stored_event`): thousands of them in
    /// a fleet, which every checkpoint of the store would otherwise copy.
    pub(crate) fn store_event(
        &mut self,
        ctx: &mut Exec<'_>,
        mut event: super::objects::EventVersion,
        change: ChangeType,
    ) -> Arc<super::objects::EventVersion> {
        event.resource_version = self.next_rv();
        let event = Arc::new(event);
        ctx.log.push_event(ctx.now, change, event.clone());
        event
    }

    fn new_meta(&mut self, ctx: &mut Exec<'_>, meta: &mut super::objects::ObjectMeta) {
        meta.uid = ctx.rng.uuid().into();
        meta.creation_timestamp = Some(ctx.time());
        if meta.name.is_empty() && !meta.generate_name.is_empty() {
            meta.name = format!("{}{}", meta.generate_name, ctx.rng.name_suffix(5)).into();
        }
    }

    /// Runs one request through authorization, admission and the store.
    pub(crate) fn execute(&mut self, ctx: &mut Exec<'_>, caller: Caller<'_>, op: ApiOp) -> ApiResult {
        match op {
            ApiOp::RenewLease { read, renew_time, slot } => {
                self.renew_lease(ctx, caller, &read, renew_time, slot).map(|(v, slot)| Answer::Renewed(v, slot))
            }
            op => self.apply(ctx, caller, op).map(Answer::Object),
        }
    }

    /// A renewal (`PUT` of a Lease with only a new renewTime), stored compactly: the version read
    /// must be the current one, which is renewed.
    fn renew_lease(
        &mut self,
        ctx: &mut Exec<'_>,
        caller: Caller<'_>,
        read: &LeaseVersion,
        renew_time: MicroTime,
        hint: u32,
    ) -> Result<(LeaseVersion, u32), Box<Status>> {
        let name = &read.base.metadata.name;
        if let Caller::Node(me) = caller
            && name != me
        {
            return Err(lease_forbidden(name));
        }
        let group = "coordination.k8s.io";
        let hint = hint as usize;
        let slot = if hint < self.leases.len() && self.leases.entry_at(hint).0 == name {
            hint
        } else {
            match self.leases.position(name.as_str()) {
                Ok(slot) => slot,
                Err(_) => return Err(not_found(group, "leases", name)),
            }
        };
        let current = self.leases.value_at_mut(slot);
        if current.resource_version != read.resource_version {
            return Err(conflict(group, "leases", name));
        }
        // (`next_rv`, with the store borrowed.)
        self.resource_version += 1;
        let renewed = LeaseVersion::renewed(current.base.clone(), self.resource_version, renew_time);
        *current = renewed.clone();
        ctx.log.push_renewal(ctx.now, renewed.clone(), ctx.request, ctx.renewal);
        Ok((renewed, slot as u32))
    }

    /// [`ApiServer::execute`], answering with the object.
    fn apply(&mut self, ctx: &mut Exec<'_>, caller: Caller<'_>, op: ApiOp) -> Result<Object, Box<Status>> {
        // NodeRestriction: a kubelet may only touch its own Node and Lease.
        if let Caller::Node(me) = caller {
            let target = match &op {
                ApiOp::CreateNode(n) | ApiOp::UpdateNodeStatus(n) => Some(("nodes", n.metadata.name.as_str())),
                ApiOp::PatchNodeStatus { wanted, .. } => Some(("nodes", wanted.metadata.name.as_str())),
                ApiOp::GetNode(n)
                | ApiOp::PatchNodeLabels { name: n, .. }
                | ApiOp::PatchNodeTaints { name: n, .. }
                | ApiOp::PatchNodeAnnotations { name: n, .. }
                | ApiOp::PatchNodePodCidr { name: n, .. } => Some(("nodes", n.as_str())),
                ApiOp::CreateCsiNode(c) => Some(("csinodes", c.metadata.name.as_str())),
                ApiOp::GetLease(n) => Some(("leases", n.as_str())),
                ApiOp::CreateLease(l) => Some(("leases", l.metadata.name.as_str())),
                ApiOp::UpdateLease { lease: l, .. } | ApiOp::RenewLease { read: LeaseVersion { base: l, .. }, .. } => {
                    Some(("leases", l.metadata.name.as_str()))
                }
                _ => None,
            };
            match target {
                Some(("nodes", name)) if name != me && !matches!(op, ApiOp::GetNode(_)) => {
                    return Err(forbidden(
                        "",
                        "nodes",
                        name,
                        format!("node \"{me}\" is not allowed to modify node \"{name}\""),
                    ));
                }
                Some(("csinodes", name)) if name != me => {
                    return Err(forbidden(
                        "storage.k8s.io",
                        "csinodes",
                        name,
                        "can only access CSINode with the same name as the requesting node".into(),
                    ));
                }
                Some(("leases", name)) if name != me => {
                    return Err(lease_forbidden(name));
                }
                _ => {}
            }
        }
        let lease_group = "coordination.k8s.io";
        match op {
            ApiOp::CreateNode(mut node) => {
                let name = node.metadata.name.clone();
                if let Caller::Node(me) = caller {
                    let bad = forbidden_labels(node.metadata.labels.keys());
                    if !bad.is_empty() {
                        return Err(forbidden(
                            "",
                            "nodes",
                            &name,
                            format!("node \"{me}\" is not allowed to set the following labels: {}", bad.join(", ")),
                        ));
                    }
                }
                if self.nodes.contains_key(&*name) {
                    return Err(Box::new(Status::failure(
                        409,
                        "AlreadyExists",
                        format!("nodes \"{name}\" already exists"),
                        "",
                        "nodes",
                        &name,
                    )));
                }
                // TaintNodesByCondition: every new Node starts tainted not-ready:NoSchedule.
                if !node.has_taint(TAINT_NOT_READY, "NoSchedule") {
                    node.spec.taints.push(Taint::new(TAINT_NOT_READY, "NoSchedule", None));
                }
                self.new_meta(ctx, &mut node.metadata);
                Ok(self.store_node(ctx, node, ChangeType::Added))
            }
            ApiOp::GetNode(name) => self
                .nodes
                .get(name.as_str())
                .map(|n| Object::Node(n.clone()))
                .ok_or_else(|| not_found("", "nodes", &name)),
            ApiOp::PatchNodeStatus { base, wanted } => {
                let name = wanted.metadata.name.clone();
                let Some(current) = self.nodes.get(&*name) else { return Err(not_found("", "nodes", &name)) };
                let mut node = Node::clone(current);
                merge_node_status_patch(&mut node, &base, &wanted);
                if node == **current {
                    return Ok(Object::Node(current.clone()));
                }
                Ok(self.store_node(ctx, node, ChangeType::Modified))
            }
            ApiOp::PatchNodeLabels { name, labels } => {
                let Some(current) = self.nodes.get(name.as_str()) else { return Err(not_found("", "nodes", &name)) };
                if let Caller::Node(_) = caller {
                    let changed: Vec<&String> = labels
                        .iter()
                        .filter(|(k, v)| current.metadata.labels.get(*k) != Some(*v))
                        .map(|(k, _)| k)
                        .collect();
                    let bad = forbidden_labels(changed.into_iter());
                    if !bad.is_empty() {
                        return Err(forbidden(
                            "",
                            "nodes",
                            &name,
                            format!("is not allowed to modify labels: {}", bad.join(", ")),
                        ));
                    }
                }
                let mut node = Node::clone(current);
                node.metadata.labels.extend(labels);
                if node == **current {
                    return Ok(Object::Node(current.clone()));
                }
                Ok(self.store_node(ctx, node, ChangeType::Modified))
            }
            ApiOp::UpdateNodeStatus(wanted) => {
                let name = wanted.metadata.name.clone();
                let Some(current) = self.nodes.get(&*name) else { return Err(not_found("", "nodes", &name)) };
                if current.metadata.resource_version != wanted.metadata.resource_version {
                    return Err(conflict("", "nodes", &name));
                }
                let mut node = Node::clone(current);
                node.status = wanted.status;
                Ok(self.store_node(ctx, node, ChangeType::Modified))
            }
            ApiOp::PatchNodeTaints { name, taints } => {
                let Some(current) = self.nodes.get(name.as_str()) else { return Err(not_found("", "nodes", &name)) };
                if let Caller::Node(me) = caller {
                    return Err(forbidden(
                        "",
                        "nodes",
                        &name,
                        format!("node \"{me}\" is not allowed to modify taints"),
                    ));
                }
                let mut node = Node::clone(current);
                node.spec.taints = taints;
                if node == **current {
                    return Ok(Object::Node(current.clone()));
                }
                Ok(self.store_node(ctx, node, ChangeType::Modified))
            }
            ApiOp::PatchNodeAnnotations { name, annotations } => {
                let Some(current) = self.nodes.get(name.as_str()) else { return Err(not_found("", "nodes", &name)) };
                let mut node = Node::clone(current);
                // A patch usually leaves the annotations the one before it left on another Node
                // (the TTL controller's, on every Node): kept once.
                node.metadata.annotations = match &self.patched_annotations {
                    Some(kept) if **kept == annotations => kept.clone(),
                    _ => self.patched_annotations.insert(annotations.into()).clone(),
                };
                if node == **current {
                    return Ok(Object::Node(current.clone()));
                }
                Ok(self.store_node(ctx, node, ChangeType::Modified))
            }
            ApiOp::PatchNodePodCidr { name, cidr } => {
                let Some(current) = self.nodes.get(name.as_str()) else { return Err(not_found("", "nodes", &name)) };
                let mut node = Node::clone(current);
                node.spec.pod_cidr = cidr.clone();
                node.spec.pod_cidrs = vec![cidr];
                if node == **current {
                    return Ok(Object::Node(current.clone()));
                }
                Ok(self.store_node(ctx, node, ChangeType::Modified))
            }
            ApiOp::GetCsiNode(name) => self
                .csinodes
                .get(&name)
                .map(|c| Object::CsiNode(c.clone()))
                .ok_or_else(|| not_found("storage.k8s.io", "csinodes", &name)),
            ApiOp::CreateCsiNode(mut csinode) => {
                let name = csinode.metadata.name.clone();
                if self.csinodes.contains_key(&*name) {
                    return Err(Box::new(Status::failure(
                        409,
                        "AlreadyExists",
                        format!("csinodes.storage.k8s.io \"{name}\" already exists"),
                        "storage.k8s.io",
                        "csinodes",
                        &name,
                    )));
                }
                // The uid comes from a generator of its own, keyed by the owner's uid, so that
                // CSINodes did not move every later draw of the seeded stream (Pod names, uids).
                let owner = csinode.metadata.owner_references.first().map_or("", |o| o.uid.as_str());
                csinode.metadata.uid = Rng::keyed(&["csinode", &name, owner]).uuid().into();
                csinode.metadata.creation_timestamp = Some(ctx.time());
                // Stored as protobuf, where an empty list is no list: served as `drivers: null`.
                if csinode.spec.drivers.as_ref().is_some_and(Vec::is_empty) {
                    csinode.spec.drivers = None;
                }
                Ok(self.store_csinode(ctx, csinode, ChangeType::Added))
            }
            ApiOp::GetLease(name) => self
                .leases
                .get(name.as_str())
                .map(|l| Object::Lease(l.lease()))
                .ok_or_else(|| not_found(lease_group, "leases", &name)),
            ApiOp::CreateLease(mut lease) => {
                let name = lease.metadata.name.clone();
                if lease.metadata.namespace != NODE_LEASE_NAMESPACE && matches!(caller, Caller::Node(_)) {
                    return Err(forbidden(
                        lease_group,
                        "leases",
                        &name,
                        format!("can only access leases in the \"{NODE_LEASE_NAMESPACE}\" system namespace"),
                    ));
                }
                if self.leases.contains_key(&*name) {
                    return Err(Box::new(Status::failure(
                        409,
                        "AlreadyExists",
                        format!("leases.coordination.k8s.io \"{name}\" already exists"),
                        lease_group,
                        "leases",
                        &name,
                    )));
                }
                self.new_meta(ctx, &mut lease.metadata);
                Ok(self.store_lease(ctx, lease, ChangeType::Added))
            }
            ApiOp::UpdateLease { lease, .. } => {
                let name = lease.metadata.name.clone();
                let Some(current) = self.leases.get(&*name) else {
                    return Err(not_found(lease_group, "leases", &name));
                };
                if current.resource_version != lease.metadata.resource_version {
                    return Err(conflict(lease_group, "leases", &name));
                }
                // The stored object is the client's, with the server's own fields kept.
                let mut next = Lease::clone(&lease);
                next.metadata.uid.clone_from(&current.base.metadata.uid);
                next.metadata.creation_timestamp = current.base.metadata.creation_timestamp;
                Ok(self.store_lease(ctx, next, ChangeType::Modified))
            }
            ApiOp::RenewLease { read, renew_time, slot } => {
                self.renew_lease(ctx, caller, &read, renew_time, slot).map(|(v, _)| Object::Lease(v.lease()))
            }
            ApiOp::CreatePod(mut pod) => {
                admit_pod(&mut pod, ctx.rng);
                self.new_meta(ctx, &mut pod.metadata);
                let key = (pod.metadata.namespace.to_string(), pod.metadata.name.to_string());
                if self.pods.contains_key(&key) {
                    return Err(Box::new(Status::failure(
                        409,
                        "AlreadyExists",
                        format!("pods \"{}\" already exists", key.1),
                        "",
                        "pods",
                        &key.1,
                    )));
                }
                Ok(self.store_pod(ctx, pod, ChangeType::Added))
            }
            ApiOp::GetPod { namespace, name } => self
                .pods
                .get(&(namespace, name.clone()))
                .map(|p| Object::Pod(p.clone()))
                .ok_or_else(|| not_found("", "pods", &name)),
            ApiOp::BindPod { namespace, name, node, .. } => {
                let Some(current) = self.pods.get(&(namespace.clone(), name.clone())) else {
                    return Err(not_found("", "pods", &name));
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
            ApiOp::PatchPodStatus { namespace, name, status, .. } => {
                let Some(current) = self.pods.get(&(namespace, name.clone())) else {
                    return Err(not_found("", "pods", &name));
                };
                if let Caller::Node(me) = caller
                    && current.spec.node_name != me
                {
                    return Err(forbidden(
                        "",
                        "pods",
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
            ApiOp::UpdatePodStatus(wanted) => {
                let key = (wanted.metadata.namespace.to_string(), wanted.metadata.name.to_string());
                let Some(current) = self.pods.get(&key) else { return Err(not_found("", "pods", &key.1)) };
                if current.metadata.resource_version != wanted.metadata.resource_version {
                    return Err(conflict("", "pods", &key.1));
                }
                let mut pod = Pod::clone(current);
                pod.status = wanted.status;
                Ok(self.store_pod(ctx, pod, ChangeType::Modified))
            }
            ApiOp::PatchNodeUnschedulable { name, unschedulable } => {
                self.patch_unschedulable(ctx, &name, unschedulable)
            }
            ApiOp::EvictPod { namespace, name, grace_seconds } => self.evict(ctx, namespace, name, grace_seconds),
            ApiOp::CreatePdb(pdb) => self.create_pdb(ctx, pdb),
            ApiOp::UpdatePdbStatus(pdb) => self.update_pdb_status(ctx, pdb),
            ApiOp::CreateDaemonSet(ds) => self.create_daemonset(ctx, ds),
            ApiOp::GetDaemonSet { namespace, name } => self.get_daemonset(&namespace, &name),
            ApiOp::UpdateDaemonSetStatus(ds) => self.update_daemonset_status(ctx, ds),
            ApiOp::CreateStatefulSet(set) => self.create_statefulset(ctx, set),
            ApiOp::CreateControllerRevision(rev) => self.create_revision(ctx, rev),
            ApiOp::UpdateStatefulSetStatus(set) => self.update_statefulset_status(ctx, set),
            ApiOp::CreateClaim(claim) => self.create_claim(ctx, claim),
            ApiOp::UpdateClaim(claim) => self.update_claim(ctx, claim, false),
            ApiOp::UpdateClaimStatus(claim) => self.update_claim(ctx, claim, true),
            ApiOp::CreateVolume(pv) => self.create_volume(ctx, pv),
            ApiOp::UpdateVolumeStatus(pv) => self.update_volume_status(ctx, pv),
            ApiOp::DeletePod { namespace, name, grace_seconds, precondition_uid, .. } => {
                let Some(current) = self.pods.get(&(namespace.clone(), name.clone())) else {
                    return Err(not_found("", "pods", &name));
                };
                if let Some(uid) = precondition_uid
                    && uid != current.metadata.uid
                {
                    // Storage's Preconditions.Check, turned into a Conflict by the registry.
                    return Err(Box::new(Status::failure(
                        409,
                        "Conflict",
                        format!(
                            "Operation cannot be fulfilled on pods \"{name}\": StorageError: invalid object, Code: 4, Key: /registry/pods/{namespace}/{name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                            current.metadata.uid
                        ),
                        "",
                        "pods",
                        &name,
                    )));
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
                    pod.metadata.deletion_timestamp =
                        Some(Time::at(ctx.wall + std::time::Duration::from_secs(grace as u64)));
                    pod.metadata.deletion_grace_period_seconds = Some(grace);
                    pod.metadata.generation = pod.metadata.generation.map(|g| g + 1);
                    Ok(self.store_pod(ctx, pod, ChangeType::Modified))
                }
            }
            ApiOp::DeleteNode(name) => self.delete_node(ctx, &name),
            ApiOp::DeleteLease { name, precondition_uid } => self.delete_lease(ctx, &name, &precondition_uid),
            ApiOp::DeleteCsiNode { name, precondition_uid } => self.delete_csinode(ctx, &name, &precondition_uid),
            ApiOp::CreateVolumeAttachment(mut va) => {
                let name = va.metadata.name.clone();
                if self.volume_attachments.contains_key(&*name) {
                    return Err(Box::new(Status::failure(
                        409,
                        "AlreadyExists",
                        format!("volumeattachments.storage.k8s.io \"{name}\" already exists"),
                        "storage.k8s.io",
                        "volumeattachments",
                        &name,
                    )));
                }
                self.new_meta(ctx, &mut va.metadata);
                Ok(self.store_volume_attachment(ctx, va, ChangeType::Added))
            }
            ApiOp::MarkVolumeAttached(name) => {
                let Some(current) = self.volume_attachments.get(&name) else {
                    return Err(not_found("storage.k8s.io", "volumeattachments", &name));
                };
                let mut va = super::objects::VolumeAttachment::clone(current);
                va.status = Some(super::objects::VolumeAttachmentStatus { attached: true });
                Ok(self.store_volume_attachment(ctx, va, ChangeType::Modified))
            }
            ApiOp::PatchVolumeAttachmentFinalizer { name, add } => {
                let Some(current) = self.volume_attachments.get(&name) else {
                    return Err(not_found("storage.k8s.io", "volumeattachments", &name));
                };
                let mut va = super::objects::VolumeAttachment::clone(current);
                if add {
                    va.metadata.finalizers = vec![VA_FINALIZER.to_string()].into();
                } else {
                    // (The external-attacher's `markAsDetached` also sets `attached: false`;
                    // a main-resource PATCH leaves the status as it is.)
                    va.metadata.finalizers = Default::default();
                    if va.metadata.deletion_timestamp.is_some() {
                        return self.delete_volume_attachment(ctx, &name);
                    }
                }
                Ok(self.store_volume_attachment(ctx, va, ChangeType::Modified))
            }
            ApiOp::DeleteVolumeAttachment(name) => {
                let Some(current) = self.volume_attachments.get(&name) else {
                    return Err(not_found("storage.k8s.io", "volumeattachments", &name));
                };
                if current.metadata.finalizers.is_empty() {
                    return self.delete_volume_attachment(ctx, &name);
                }
                // The external-attacher's finalizer keeps it until the driver has detached.
                if current.metadata.deletion_timestamp.is_some() {
                    return Ok(Object::VolumeAttachment(current.clone()));
                }
                let mut va = super::objects::VolumeAttachment::clone(current);
                va.metadata.deletion_timestamp = Some(ctx.time());
                va.metadata.deletion_grace_period_seconds = Some(0);
                Ok(self.store_volume_attachment(ctx, va, ChangeType::Modified))
            }
        }
    }
}

/// Applies the kubelet's status patch: what differs between `base` and `wanted` is written over
/// the current object (conditions merge by type, as the patch's merge key says; other fields are
/// replaced when they changed).
fn merge_node_status_patch(node: &mut Node, base: &Node, wanted: &Node) {
    let (b, w) = (&base.status, &wanted.status);
    let s = &mut node.status;
    if b.capacity != w.capacity {
        s.capacity = w.capacity.clone();
    }
    if b.allocatable != w.allocatable {
        s.allocatable = w.allocatable.clone();
    }
    for cond in w.conditions.iter() {
        if b.conditions.iter().any(|c| c == cond) {
            continue;
        }
        match s.conditions.iter_mut().find(|c| c.type_ == cond.type_) {
            Some(c) => *c = cond.clone(),
            None => s.conditions.push(cond.clone()),
        }
    }
    // The usual outcome, the sender's list: kept as the sender's, not a copy of it.
    if s.conditions == w.conditions {
        s.conditions = w.conditions.clone();
    }
    if b.addresses != w.addresses {
        s.addresses = w.addresses.clone();
    }
    if b.daemon_endpoints != w.daemon_endpoints {
        s.daemon_endpoints = w.daemon_endpoints.clone();
    }
    if b.node_info != w.node_info {
        s.node_info = w.node_info.clone();
    }
    if b.images != w.images {
        s.images = w.images.clone();
    }
    if b.volumes_attached != w.volumes_attached {
        s.volumes_attached = w.volumes_attached.clone();
    }
    if b.runtime_handlers != w.runtime_handlers {
        s.runtime_handlers = w.runtime_handlers.clone();
    }
    if b.features != w.features {
        s.features = w.features.clone();
    }
    // The status strategy keeps label and annotation changes sent this way (the 409 path
    // reconciles the kubelet's default labels through it).
    for (k, v) in &wanted.metadata.labels {
        if base.metadata.labels.get(k) != Some(v) {
            node.metadata.labels.insert(k.clone(), v.clone());
        }
    }
    for (k, v) in &wanted.metadata.annotations {
        if base.metadata.annotations.get(k) != Some(v) {
            node.metadata.annotations.insert(k.clone(), v.clone());
        }
    }
}

/// The projected service-account volume's sources, the same in every Pod: one copy shared by all
/// (the JSON documents are ~8 KB of allocations each, 25 MB over the 1,000-node hour's Pods).
static SERVICE_ACCOUNT_SOURCES: std::sync::LazyLock<Shared<Vec<serde_json::Value>>> = std::sync::LazyLock::new(|| {
    Shared::new(vec![
        serde_json::json!({ "serviceAccountToken": { "expirationSeconds": 3607, "path": "token" } }),
        serde_json::json!({ "configMap": { "name": "kube-root-ca.crt", "items": [{ "key": "ca.crt", "path": "ca.crt" }] } }),
        serde_json::json!({ "downwardAPI": { "items": [{ "path": "namespace", "fieldRef": { "apiVersion": "v1", "fieldPath": "metadata.namespace" } }] } }),
    ])
});

/// DefaultTolerationSeconds' two tolerations, as a Pod without tolerations of its own gets them:
/// one list shared by every such Pod (a fleet's thousands of Pods held a 448-byte list each).
static DEFAULT_TOLERATIONS: std::sync::LazyLock<Shared<Vec<Toleration>>> = std::sync::LazyLock::new(|| {
    let mut tolerations = Shared::default();
    default_tolerations(&mut tolerations);
    tolerations
});

/// DefaultTolerationSeconds: tolerates the not-ready and unreachable NoExecute taints for 300 s,
/// unless the Pod tolerates them already.
fn default_tolerations(tolerations: &mut Shared<Vec<Toleration>>) {
    for key in [TAINT_NOT_READY, TAINT_UNREACHABLE] {
        let tolerated = tolerations
            .iter()
            .any(|t| (t.key == key || t.key.is_empty()) && (t.effect == "NoExecute" || t.effect.is_empty()));
        if !tolerated {
            tolerations.push(Toleration {
                key: key.into(),
                operator: "Exists".into(),
                value: "".into(),
                effect: "NoExecute".into(),
                toleration_seconds: Some(300),
            });
        }
    }
}

/// Admission for new Pods: the ServiceAccount plugin's token volume, and DefaultTolerationSeconds.
fn admit_pod(pod: &mut Pod, rng: &mut Rng) {
    if pod.spec.tolerations.is_empty() {
        pod.spec.tolerations = DEFAULT_TOLERATIONS.clone();
    } else {
        default_tolerations(&mut pod.spec.tolerations);
    }
    // ServiceAccount admission: mount the projected API token.
    if pod.spec.service_account_name.is_empty() {
        pod.spec.service_account_name = "default".into();
        pod.spec.service_account = "default".into();
    }
    // (Simplified: the real plugin adds it unless a volume is already named `kube-api-access-…`;
    // here a Pod created with an `emptyDir` gets none. A StatefulSet Pod's claim does not count.)
    if pod.spec.volumes.iter().all(|v| v.persistent_volume_claim.is_some()) {
        let volume = format!("kube-api-access-{}", rng.name_suffix(5));
        // (Exactly as long as needed: the Pod's versions keep these lists for the whole log, and
        // a first push on an empty list makes room for four.)
        pod.spec.volumes.reserve_exact(1);
        pod.spec.volumes.push(super::objects::Volume {
            name: volume.clone(),
            empty_dir: None,
            persistent_volume_claim: None,
            projected: Some(super::objects::ProjectedVolume {
                sources: SERVICE_ACCOUNT_SOURCES.clone(),
                default_mode: 420,
            }),
        });
        for c in &mut pod.spec.containers {
            c.volume_mounts.reserve_exact(1);
            c.volume_mounts.push(super::objects::VolumeMount {
                name: volume.clone(),
                read_only: true,
                mount_path: "/var/run/secrets/kubernetes.io/serviceaccount".into(),
            });
        }
    }
}

/// A fresh `ownerReferences` entry pointing at a controller.
pub(crate) fn controller_ref(api_version: &'static str, kind: &'static str, name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

#[cfg(test)]
mod tests;
