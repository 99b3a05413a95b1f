//! The simulated kube-apiserver: an object store with uids, resourceVersions and creation
//! timestamps, the admission plugins that matter for nodes (TaintNodesByCondition,
//! NodeRestriction, DefaultTolerationSeconds, ServiceAccount), and the answers the real one gives
//! (201, 200, 403, 404, 409) with their exact messages.
//!
//! This file holds the store's maps, the reads components make of them and the dispatch of each
//! [`ApiOp`]; `store` the handlers every kept kind shares, `errors` the error answers (worded
//! from the kinds' table), `admission` the admission plugins, `pods` the Pods and their indexes.

mod admission;
mod certificates;
mod errors;
mod list;
mod node_delete;
mod op;
mod pods;
mod policy;
mod storage;
mod store;

pub(crate) use op::ApiOp;

pub use admission::kubelet_may_set_label;
pub(crate) use certificates::BOOTSTRAP_TOKEN_NAMESPACE;
pub use certificates::NODE_AUTOAPPROVE_BINDING;
pub(crate) use certificates::unauthorized;
pub use policy::EVICTION_429;

use admission::forbidden_labels;
use errors::{already_exists, conflict, forbidden, lease_forbidden, not_found};

use super::shared::Shared;
use super::vecmap::VecMap;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::objects::{
    CsiNode, DaemonSet, Kind, Lease, MicroTime, Node, Object, OwnerReference, Pod, PodDisruptionBudget, Status, Taint,
    Text, Time, VolumeAttachment, VolumeAttachmentStatus,
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
    /// A kubelet with its bootstrap kubeconfig, authenticated by the bootstrap token `<id>` as
    /// `system:bootstrap:<id>` (while the token's Secret exists).
    Bootstrap(&'a str),
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
    /// PriorityClasses, by name.
    pub(crate) priority_classes: Shared<VecMap<String, Arc<super::objects::PriorityClass>>>,
    /// CertificateSigningRequests, by name.
    pub(crate) csrs: Shared<VecMap<String, Arc<super::objects::CertificateSigningRequest>>>,
    /// Secrets (only bootstrap tokens'), by namespace and name.
    pub(crate) secrets: Shared<VecMap<(String, String), Arc<super::objects::Secret>>>,
    /// The ClusterRoleBinding `kubeadm:node-autoapprove-bootstrap` is gone: RBAC no longer
    /// lets bootstrap tokens' users have their CSRs approved (`nodeclient`).
    pub(crate) nodeclient_unbound: bool,
    /// What DefaultTolerationSeconds adds to new Pods.
    default_tolerations: admission::DefaultTolerations,
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

impl ApiServer {
    fn next_rv(&mut self) -> u64 {
        self.resource_version += 1;
        self.resource_version
    }

    /// The store's current resourceVersion (what a list answers with).
    pub(crate) fn resource_version(&self) -> u64 {
        self.resource_version
    }

    /// Starts the resourceVersion counter where a freshly installed cluster's would be.
    pub(crate) fn with_resource_version(rv: u64) -> ApiServer {
        ApiServer { resource_version: rv, ..ApiServer::default() }
    }

    /// kube-apiserver's `--default-not-ready-toleration-seconds` and
    /// `--default-unreachable-toleration-seconds`.
    pub(crate) fn set_default_toleration_seconds(&mut self, not_ready: i64, unreachable: i64) {
        self.default_tolerations = admission::DefaultTolerations::new(not_ready, unreachable);
    }

    /// The current version of a Node.
    pub(crate) fn node(&self, name: &str) -> Option<&Arc<Node>> {
        self.nodes.get(name)
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

    /// A new CSINode's uid and creationTimestamp, and its drivers as the store serves them.
    fn admit_csinode(&mut self, ctx: &mut Exec<'_>, csinode: &mut CsiNode) {
        // The uid comes from a generator of its own, keyed by the owner's uid, so that
        // CSINodes did not move every later draw of the seeded stream (Pod names, uids).
        let owner = csinode.metadata.owner_references.first().map_or("", |o| o.uid.as_str());
        csinode.metadata.uid = Rng::keyed(&["csinode", &csinode.metadata.name, owner]).uuid().into();
        csinode.metadata.creation_timestamp = Some(ctx.time());
        // Stored as protobuf, where an empty list is no list: served as `drivers: null`.
        if csinode.spec.drivers.as_ref().is_some_and(Vec::is_empty) {
            csinode.spec.drivers = None;
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
        let hint = hint as usize;
        let slot = if hint < self.leases.len() && self.leases.entry_at(hint).0 == name {
            hint
        } else {
            match self.leases.position(name.as_str()) {
                Ok(slot) => slot,
                Err(_) => return Err(not_found(Kind::Lease, name)),
            }
        };
        let current = self.leases.value_at_mut(slot);
        if current.resource_version != read.resource_version {
            return Err(conflict(Kind::Lease, name));
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
        // The bootstrap token authenticator: no Secret, no user.
        if let Caller::Bootstrap(id) = caller
            && !self.bootstrap_token_valid(id)
        {
            return Err(unauthorized());
        }
        // NodeRestriction: a kubelet may only touch its own Node and Lease.
        if let Caller::Node(me) = caller {
            let target = match &op {
                ApiOp::CreateNode(n) | ApiOp::UpdateNodeStatus(n) => Some((Kind::Node, n.metadata.name.as_str())),
                ApiOp::PatchNodeStatus { wanted, .. } => Some((Kind::Node, wanted.metadata.name.as_str())),
                ApiOp::GetNode(n)
                | ApiOp::PatchNodeLabels { name: n, .. }
                | ApiOp::PatchNodeTaints { name: n, .. }
                | ApiOp::PatchNodeAnnotations { name: n, .. }
                | ApiOp::PatchNodePodCidr { name: n, .. } => Some((Kind::Node, n.as_str())),
                ApiOp::Create(o @ Object::CsiNode(_)) => Some((Kind::CsiNode, o.meta().name.as_str())),
                ApiOp::GetLease(n) => Some((Kind::Lease, n.as_str())),
                ApiOp::CreateLease(l) => Some((Kind::Lease, l.metadata.name.as_str())),
                ApiOp::UpdateLease { lease: l, .. } | ApiOp::RenewLease { read: LeaseVersion { base: l, .. }, .. } => {
                    Some((Kind::Lease, l.metadata.name.as_str()))
                }
                _ => None,
            };
            match target {
                Some((Kind::Node, name)) if name != me && !matches!(op, ApiOp::GetNode(_)) => {
                    return Err(forbidden(
                        Kind::Node,
                        name,
                        format!("node \"{me}\" is not allowed to modify node \"{name}\""),
                    ));
                }
                Some((Kind::CsiNode, name)) if name != me => {
                    return Err(forbidden(
                        Kind::CsiNode,
                        name,
                        "can only access CSINode with the same name as the requesting node".into(),
                    ));
                }
                Some((Kind::Lease, name)) if name != me => {
                    return Err(lease_forbidden(name));
                }
                _ => {}
            }
        }
        match op {
            ApiOp::CreateNode(mut node) => {
                if let Caller::Node(me) = caller {
                    let bad = forbidden_labels(node.metadata.labels.keys());
                    if !bad.is_empty() {
                        let why =
                            format!("node \"{me}\" is not allowed to set the following labels: {}", bad.join(", "));
                        return Err(forbidden(Kind::Node, &node.metadata.name, why));
                    }
                }
                self.check_new::<Node>(&node.metadata)?;
                // TaintNodesByCondition: every new Node starts tainted not-ready:NoSchedule.
                if !node.has_taint(TAINT_NOT_READY, "NoSchedule") {
                    node.spec.taints.push(Taint::new(TAINT_NOT_READY, "NoSchedule", None));
                }
                self.new_meta(ctx, &mut node.metadata);
                Ok(self.store(ctx, node, ChangeType::Added))
            }
            ApiOp::GetNode(name) => self.get::<Node, str>(&name, &name),
            ApiOp::PatchNodeStatus { base, wanted } => {
                let (current, mut node) = self.edit::<Node, str>(&wanted.metadata.name, &wanted.metadata.name)?;
                merge_node_status_patch(&mut node, &base, &wanted);
                Ok(self.store_changed(ctx, current, node))
            }
            ApiOp::PatchNodeLabels { name, labels } => {
                let (current, mut node) = self.edit::<Node, str>(&name, &name)?;
                if let Caller::Node(_) = caller {
                    let changed = labels.iter().filter(|(k, v)| current.metadata.labels.get(*k) != Some(*v));
                    let bad = forbidden_labels(changed.map(|(k, _)| k));
                    if !bad.is_empty() {
                        let why = format!("is not allowed to modify labels: {}", bad.join(", "));
                        return Err(forbidden(Kind::Node, &name, why));
                    }
                }
                node.metadata.labels.extend(labels);
                Ok(self.store_changed(ctx, current, node))
            }
            ApiOp::UpdateNodeStatus(wanted) => {
                let (current, mut node) = self.edit::<Node, str>(&wanted.metadata.name, &wanted.metadata.name)?;
                ApiServer::check_rv(&*current, &wanted.metadata)?;
                node.status = wanted.status;
                Ok(self.store(ctx, node, ChangeType::Modified))
            }
            ApiOp::PatchNodeTaints { name, taints } => {
                let (current, mut node) = self.edit::<Node, str>(&name, &name)?;
                if let Caller::Node(me) = caller {
                    return Err(forbidden(Kind::Node, &name, format!("node \"{me}\" is not allowed to modify taints")));
                }
                node.spec.taints = taints;
                Ok(self.store_changed(ctx, current, node))
            }
            ApiOp::PatchNodeAnnotations { name, annotations } => {
                let (current, mut node) = self.edit::<Node, str>(&name, &name)?;
                // A patch usually leaves the annotations the one before it left on another Node
                // (the TTL controller's, on every Node): kept once.
                node.metadata.annotations = match &self.patched_annotations {
                    Some(kept) if **kept == annotations => kept.clone(),
                    _ => self.patched_annotations.insert(annotations.into()).clone(),
                };
                Ok(self.store_changed(ctx, current, node))
            }
            ApiOp::PatchNodePodCidr { name, cidr } => {
                let (current, mut node) = self.edit::<Node, str>(&name, &name)?;
                node.spec.pod_cidr = cidr.clone();
                node.spec.pod_cidrs = vec![cidr];
                Ok(self.store_changed(ctx, current, node))
            }
            ApiOp::Create(Object::CertificateSigningRequest(csr)) => {
                self.create_csr(ctx, caller, Arc::unwrap_or_clone(csr))
            }
            ApiOp::Create(object) => self.create(ctx, object),
            ApiOp::GetCsr(name) => self.get::<super::objects::CertificateSigningRequest, str>(&name, &name),
            ApiOp::UpdateCsrApproval(csr) => self.update_csr(ctx, csr, true),
            ApiOp::UpdateCsrStatus(csr) => self.update_csr(ctx, csr, false),
            ApiOp::GetSecret { namespace, name } => {
                let key = (namespace, name);
                self.get::<super::objects::Secret, _>(&key, &key.1)
            }
            ApiOp::DeleteSecret { namespace, name } => {
                let key = (namespace, name);
                self.delete::<super::objects::Secret, _>(ctx, &key, &key.1, None)
            }
            ApiOp::GetCsiNode(name) => self.get::<CsiNode, str>(&name, &name),
            ApiOp::GetLease(name) => self
                .leases
                .get(name.as_str())
                .map(|l| Object::Lease(l.lease()))
                .ok_or_else(|| not_found(Kind::Lease, &name)),
            ApiOp::CreateLease(mut lease) => {
                let name = lease.metadata.name.clone();
                if lease.metadata.namespace != NODE_LEASE_NAMESPACE && matches!(caller, Caller::Node(_)) {
                    return Err(forbidden(
                        Kind::Lease,
                        &name,
                        format!("can only access leases in the \"{NODE_LEASE_NAMESPACE}\" system namespace"),
                    ));
                }
                if self.leases.contains_key(&*name) {
                    return Err(already_exists(Kind::Lease, &name));
                }
                self.new_meta(ctx, &mut lease.metadata);
                Ok(self.store_lease(ctx, lease, ChangeType::Added))
            }
            ApiOp::UpdateLease { lease, .. } => {
                let name = lease.metadata.name.clone();
                let Some(current) = self.leases.get(&*name) else {
                    return Err(not_found(Kind::Lease, &name));
                };
                if current.resource_version != lease.metadata.resource_version {
                    return Err(conflict(Kind::Lease, &name));
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
            ApiOp::CreatePod(pod) => self.create_pod(ctx, pod),
            ApiOp::GetPod { namespace, name } => self.get_pod(namespace, name),
            ApiOp::BindPod { namespace, name, node, .. } => self.bind_pod(ctx, namespace, name, node),
            ApiOp::PatchPodStatus { namespace, name, status, .. } => {
                self.patch_pod_status(ctx, caller, namespace, name, status)
            }
            ApiOp::UpdatePodStatus(wanted) => self.update_pod_status(ctx, wanted),
            ApiOp::PatchNodeUnschedulable { name, unschedulable } => {
                self.patch_unschedulable(ctx, &name, unschedulable)
            }
            ApiOp::EvictPod { namespace, name, grace_seconds } => self.evict(ctx, namespace, name, grace_seconds),
            ApiOp::UpdatePdbStatus(pdb) => self.update_pdb_status(ctx, pdb),
            ApiOp::GetDaemonSet { namespace, name } => {
                let key = (namespace, name);
                self.get::<DaemonSet, _>(&key, &key.1)
            }
            ApiOp::UpdateDaemonSetStatus(ds) => self.update_daemonset_status(ctx, ds),
            ApiOp::UpdateStatefulSetStatus(set) => self.update_statefulset_status(ctx, set),
            ApiOp::UpdateClaim(claim) => self.update_claim(ctx, claim, false),
            ApiOp::UpdateClaimStatus(claim) => self.update_claim(ctx, claim, true),
            ApiOp::UpdateVolumeStatus(pv) => self.update_volume_status(ctx, pv),
            ApiOp::DeletePod { namespace, name, grace_seconds, precondition_uid, .. } => {
                self.delete_pod(ctx, namespace, name, grace_seconds, precondition_uid)
            }
            ApiOp::DeleteNode(name) => self.delete_node(ctx, &name),
            ApiOp::DeleteLease { name, precondition_uid } => self.delete_lease(ctx, &name, &precondition_uid),
            ApiOp::DeleteCsiNode { name, precondition_uid } => self.delete_csinode(ctx, &name, &precondition_uid),
            ApiOp::MarkVolumeAttached(name) => {
                let (_, mut va) = self.edit::<VolumeAttachment, str>(&name, &name)?;
                va.status = Some(VolumeAttachmentStatus { attached: true });
                Ok(self.store(ctx, va, ChangeType::Modified))
            }
            ApiOp::PatchVolumeAttachmentFinalizer { name, add } => {
                let (_, mut va) = self.edit::<VolumeAttachment, str>(&name, &name)?;
                if add {
                    va.metadata.finalizers = vec![VA_FINALIZER.to_string()].into();
                } else {
                    // (The external-attacher's `markAsDetached` also sets `attached: false`;
                    // a main-resource PATCH leaves the status as it is.)
                    va.metadata.finalizers = Default::default();
                    if va.metadata.deletion_timestamp.is_some() {
                        return self.delete::<VolumeAttachment, str>(ctx, &name, &name, None);
                    }
                }
                Ok(self.store(ctx, va, ChangeType::Modified))
            }
            ApiOp::DeleteVolumeAttachment(name) => {
                let (current, mut va) = self.edit::<VolumeAttachment, str>(&name, &name)?;
                if current.metadata.finalizers.is_empty() {
                    return self.delete::<VolumeAttachment, str>(ctx, &name, &name, None);
                }
                // The external-attacher's finalizer keeps it until the driver has detached.
                if current.metadata.deletion_timestamp.is_some() {
                    return Ok(Object::VolumeAttachment(current));
                }
                va.metadata.deletion_timestamp = Some(ctx.time());
                va.metadata.deletion_grace_period_seconds = Some(0);
                Ok(self.store(ctx, va, ChangeType::Modified))
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
