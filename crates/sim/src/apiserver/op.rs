//! What a client sends the API server: one [`ApiOp`], its route (method and path) and the body
//! that goes on the wire.

use crate::shared::Shared;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::{JSON, MERGE_PATCH, NODE_LEASE_NAMESPACE, SMP};
use crate::objects::{DaemonSet, Kind, Lease, MicroTime, Node, Object, Pod, PodDisruptionBudget, PodStatus, Taint};
use crate::record::{BindingParts, Body, LeaseVersion, Method};

/// One operation on the API server, as a client sends it.
#[derive(Clone, Debug)]
pub(crate) enum ApiOp {
    CreateNode(Node),
    GetNode(String),
    /// The kubelet's `PATCH nodes/NAME/status`, from the version it read to the one it wants.
    PatchNodeStatus {
        base: Arc<Node>,
        wanted: Arc<Node>,
    },
    /// A `PATCH nodes/NAME` that sets labels (`kubectl label`'s merge patch).
    PatchNodeLabels {
        name: String,
        labels: BTreeMap<String, String>,
    },
    /// The TTL controller's annotation patch on `nodes/NAME`.
    PatchNodeAnnotations {
        name: String,
        annotations: BTreeMap<String, String>,
    },
    /// The node IPAM controller's `spec.podCIDR` patch on `nodes/NAME`.
    PatchNodePodCidr {
        name: String,
        cidr: String,
    },
    /// The node lifecycle controller's `PUT nodes/NAME/status`.
    UpdateNodeStatus(Node),
    /// The node lifecycle controller's taint patch on `nodes/NAME`.
    PatchNodeTaints {
        name: String,
        taints: Vec<Taint>,
    },
    /// A `POST` of a new object of a kind the store keeps whole (`Kept`): a CSINode (the
    /// kubelet's CSI plugin init), a PodDisruptionBudget or a DaemonSet (`kubectl create`), a
    /// VolumeAttachment (the attach-detach controller), a StatefulSet (`kubectl apply`), a
    /// ControllerRevision or a claim (the StatefulSet controller), a PersistentVolume (the
    /// external-provisioner).
    Create(Object),
    /// `GET csinodes/NAME` (the kubelet's CSI plugin init).
    GetCsiNode(String),
    GetLease(String),
    CreateLease(Lease),
    /// A PUT of a Lease: the Lease sent, and the version the sender read and changed.
    UpdateLease {
        lease: Arc<Lease>,
        base: Arc<Lease>,
    },
    /// A PUT of a Lease that only renews it: the version the sender read, with this
    /// `spec.renewTime` (the kubelet's heartbeat, 100 a second in a fleet of 1,000 nodes, sent,
    /// stored and answered compactly: its body is a [`Body::Renewal`], its version and answer a
    /// [`LeaseVersion`]).
    RenewLease {
        read: LeaseVersion,
        renew_time: MicroTime,
        /// Where the API server found the Lease among its Leases the last time (a hint: any
        /// value works, a right one spares the search by name).
        slot: u32,
    },
    CreatePod(Pod),
    GetPod {
        namespace: String,
        name: String,
    },
    BindPod {
        namespace: String,
        name: String,
        uid: String,
        node: String,
    },
    /// A `PATCH pods/NAME/status` carrying the whole wanted status. The kubelet's patch also
    /// carries the Pod's uid (`metadata.uid`, empty for other writers).
    PatchPodStatus {
        namespace: String,
        name: String,
        uid: String,
        status: Shared<PodStatus>,
    },
    /// A `PUT pods/NAME/status`.
    UpdatePodStatus(Pod),
    DeletePod {
        namespace: String,
        name: String,
        grace_seconds: Option<i64>,
        /// `preconditions.uid`: the delete fails with 409 unless the stored Pod has this uid.
        precondition_uid: Option<String>,
        /// As `kubectl delete` sends it: through the dynamic client, with no `kind` or
        /// `apiVersion`, and `propagationPolicy: Background`.
        background: bool,
    },
    /// `kubectl cordon`/`uncordon`: a strategic merge patch of `spec.unschedulable` on `nodes/NAME`.
    PatchNodeUnschedulable {
        name: String,
        unschedulable: bool,
    },
    /// `POST pods/NAME/eviction` (`policy/v1` `Eviction`).
    EvictPod {
        namespace: String,
        name: String,
        grace_seconds: Option<i64>,
    },
    /// The disruption controller's `PUT poddisruptionbudgets/NAME/status`.
    UpdatePdbStatus(PodDisruptionBudget),
    GetDaemonSet {
        namespace: String,
        name: String,
    },
    /// The DaemonSet controller's `PUT daemonsets/NAME/status`.
    UpdateDaemonSetStatus(DaemonSet),
    /// `kubectl delete node NAME`: a `DELETE nodes/NAME` with background propagation.
    DeleteNode(String),
    /// The garbage collector's `DELETE leases/NAME` of a Lease whose owner is gone (with its uid
    /// as the precondition).
    DeleteLease {
        name: String,
        precondition_uid: String,
    },
    /// The garbage collector's `DELETE csinodes/NAME` of a CSINode whose owner is gone (with its
    /// uid as the precondition).
    DeleteCsiNode {
        name: String,
        precondition_uid: String,
    },
    /// The external-attacher's `PATCH volumeattachments/NAME/status`: `attached: true`.
    MarkVolumeAttached(String),
    /// The attach-detach controller's detach: `DELETE volumeattachments/NAME` (held by the
    /// external-attacher's finalizer until the driver has detached).
    DeleteVolumeAttachment(String),
    /// The external-attacher's merge `PATCH volumeattachments/NAME` adding its finalizer before
    /// it attaches (`add`), or taking it away once the driver has detached.
    PatchVolumeAttachmentFinalizer {
        name: String,
        add: bool,
    },
    /// The StatefulSet controller's `PUT statefulsets/NAME/status`.
    UpdateStatefulSetStatus(crate::objects::StatefulSet),
    /// The PV controller's `PUT persistentvolumeclaims/NAME` (annotations, `spec.volumeName`).
    UpdateClaim(crate::objects::PersistentVolumeClaim),
    /// The PV controller's `PUT persistentvolumeclaims/NAME/status`.
    UpdateClaimStatus(crate::objects::PersistentVolumeClaim),
    /// The PV controller's `PUT persistentvolumes/NAME/status`.
    UpdateVolumeStatus(crate::objects::PersistentVolume),
    /// `GET certificatesigningrequests/NAME`.
    GetCsr(String),
    /// csrapproving's (or `kubectl certificate approve|deny`'s) `PUT
    /// certificatesigningrequests/NAME/approval` (`UpdateApproval`).
    UpdateCsrApproval(crate::objects::CertificateSigningRequest),
    /// csrsigning's `PUT certificatesigningrequests/NAME/status` (`UpdateStatus`) with the
    /// certificate.
    UpdateCsrStatus(crate::objects::CertificateSigningRequest),
    /// `GET secrets/NAME` (kubectl's wait after a delete).
    GetSecret {
        namespace: String,
        name: String,
    },
    /// `kubectl delete secret -n NAMESPACE NAME` (the bootstrap token's).
    DeleteSecret {
        namespace: String,
        name: String,
    },
}

impl ApiOp {
    /// The request's method, and its path (without query) written into `out` (cleared first):
    /// a buffer the caller reuses, so a request whose path the log already holds allocates
    /// nothing for it. Paths come from the kinds' table ([`Kind::push_path`]).
    pub(crate) fn route_into(&self, out: &mut String) -> Method {
        use Method::{Delete, Get, Patch, Post, Put};
        out.clear();
        // The kind's path, with a namespace, a name and a subresource where they are not empty.
        let mut at = |kind: Kind, namespace: &str, name: &str, subresource: &str| {
            kind.push_path(out, namespace, name, subresource);
        };
        const LEASES: &str = NODE_LEASE_NAMESPACE;
        let (method, ()) = match self {
            ApiOp::Create(o) => (Post, at(o.kind(), &o.meta().namespace, "", "")),
            ApiOp::CreateNode(_) => (Post, at(Kind::Node, "", "", "")),
            ApiOp::GetNode(n) => (Get, at(Kind::Node, "", n, "")),
            ApiOp::PatchNodeStatus { wanted, .. } => (Patch, at(Kind::Node, "", &wanted.metadata.name, "status")),
            ApiOp::PatchNodeLabels { name, .. }
            | ApiOp::PatchNodeTaints { name, .. }
            | ApiOp::PatchNodeAnnotations { name, .. }
            | ApiOp::PatchNodePodCidr { name, .. }
            | ApiOp::PatchNodeUnschedulable { name, .. } => (Patch, at(Kind::Node, "", name, "")),
            ApiOp::UpdateNodeStatus(n) => (Put, at(Kind::Node, "", &n.metadata.name, "status")),
            ApiOp::DeleteNode(name) => (Delete, at(Kind::Node, "", name, "")),
            ApiOp::GetCsiNode(n) => (Get, at(Kind::CsiNode, "", n, "")),
            ApiOp::DeleteCsiNode { name, .. } => (Delete, at(Kind::CsiNode, "", name, "")),
            ApiOp::GetLease(n) => (Get, at(Kind::Lease, LEASES, n, "")),
            ApiOp::CreateLease(_) => (Post, at(Kind::Lease, LEASES, "", "")),
            ApiOp::UpdateLease { lease: l, .. } | ApiOp::RenewLease { read: LeaseVersion { base: l, .. }, .. } => {
                (Put, at(Kind::Lease, LEASES, &l.metadata.name, ""))
            }
            ApiOp::DeleteLease { name, .. } => (Delete, at(Kind::Lease, LEASES, name, "")),
            ApiOp::CreatePod(p) => (Post, at(Kind::Pod, &p.metadata.namespace, "", "")),
            ApiOp::GetPod { namespace, name } => (Get, at(Kind::Pod, namespace, name, "")),
            ApiOp::BindPod { namespace, name, .. } => (Post, at(Kind::Pod, namespace, name, "binding")),
            ApiOp::PatchPodStatus { namespace, name, .. } => (Patch, at(Kind::Pod, namespace, name, "status")),
            ApiOp::UpdatePodStatus(p) => (Put, at(Kind::Pod, &p.metadata.namespace, &p.metadata.name, "status")),
            ApiOp::DeletePod { namespace, name, .. } => (Delete, at(Kind::Pod, namespace, name, "")),
            ApiOp::EvictPod { namespace, name, .. } => (Post, at(Kind::Pod, namespace, name, "eviction")),
            ApiOp::UpdatePdbStatus(p) => {
                (Put, at(Kind::PodDisruptionBudget, &p.metadata.namespace, &p.metadata.name, "status"))
            }
            ApiOp::GetDaemonSet { namespace, name } => (Get, at(Kind::DaemonSet, namespace, name, "")),
            ApiOp::UpdateDaemonSetStatus(d) => {
                (Put, at(Kind::DaemonSet, &d.metadata.namespace, &d.metadata.name, "status"))
            }
            ApiOp::MarkVolumeAttached(name) => (Patch, at(Kind::VolumeAttachment, "", name, "status")),
            ApiOp::DeleteVolumeAttachment(name) => (Delete, at(Kind::VolumeAttachment, "", name, "")),
            ApiOp::PatchVolumeAttachmentFinalizer { name, .. } => (Patch, at(Kind::VolumeAttachment, "", name, "")),
            ApiOp::UpdateStatefulSetStatus(d) => {
                (Put, at(Kind::StatefulSet, &d.metadata.namespace, &d.metadata.name, "status"))
            }
            ApiOp::UpdateClaim(c) => {
                (Put, at(Kind::PersistentVolumeClaim, &c.metadata.namespace, &c.metadata.name, ""))
            }
            ApiOp::UpdateClaimStatus(c) => {
                (Put, at(Kind::PersistentVolumeClaim, &c.metadata.namespace, &c.metadata.name, "status"))
            }
            ApiOp::UpdateVolumeStatus(v) => (Put, at(Kind::PersistentVolume, "", &v.metadata.name, "status")),
            ApiOp::GetCsr(name) => (Get, at(Kind::CertificateSigningRequest, "", name, "")),
            ApiOp::UpdateCsrApproval(c) => (Put, at(Kind::CertificateSigningRequest, "", &c.metadata.name, "approval")),
            ApiOp::UpdateCsrStatus(c) => (Put, at(Kind::CertificateSigningRequest, "", &c.metadata.name, "status")),
            ApiOp::DeleteSecret { namespace, name } => (Delete, at(Kind::Secret, namespace, name, "")),
            ApiOp::GetSecret { namespace, name } => (Get, at(Kind::Secret, namespace, name, "")),
        };
        method
    }

    /// The body the request carries, and its content type.
    pub(crate) fn body(&self) -> Option<(Body, crate::record::ContentType)> {
        let obj = |o: Object| Some((Body::Object(o), JSON));
        match self {
            ApiOp::GetNode(_)
            | ApiOp::GetCsiNode(_)
            | ApiOp::GetLease(_)
            | ApiOp::GetPod { .. }
            | ApiOp::GetDaemonSet { .. }
            | ApiOp::GetCsr(_)
            | ApiOp::GetSecret { .. } => None,
            ApiOp::UpdateCsrApproval(c) | ApiOp::UpdateCsrStatus(c) => {
                obj(Object::CertificateSigningRequest(Arc::new(c.clone())))
            }
            ApiOp::DeleteSecret { .. } => {
                Some((json_body(serde_json::json!({ "propagationPolicy": "Background" })), JSON))
            }
            ApiOp::Create(o) => obj(o.clone()),
            ApiOp::PatchNodeUnschedulable { unschedulable, .. } => Some((
                json_body(if *unschedulable {
                    serde_json::json!({ "spec": { "unschedulable": true } })
                } else {
                    serde_json::json!({ "spec": { "unschedulable": null } })
                }),
                SMP,
            )),
            ApiOp::EvictPod { namespace, name, grace_seconds } => {
                let mut delete = serde_json::json!({});
                if let Some(g) = grace_seconds {
                    delete["gracePeriodSeconds"] = (*g).into();
                }
                Some((
                    json_body(serde_json::json!({
                        "kind": "Eviction",
                        "apiVersion": "policy/v1",
                        "metadata": { "name": name, "namespace": namespace, "creationTimestamp": null },
                        "deleteOptions": delete,
                    })),
                    JSON,
                ))
            }
            ApiOp::UpdatePdbStatus(p) => obj(Object::PodDisruptionBudget(Arc::new(p.clone()))),
            ApiOp::UpdateDaemonSetStatus(d) => obj(Object::DaemonSet(Arc::new(d.clone()))),
            ApiOp::CreateNode(n) | ApiOp::UpdateNodeStatus(n) => obj(Object::Node(Arc::new(n.clone()))),
            ApiOp::PatchNodeStatus { base, wanted } => Some((
                Body::StatusPatch { base: Object::Node(base.clone()), wanted: Some(Object::Node(wanted.clone())) },
                SMP,
            )),
            ApiOp::PatchNodeLabels { labels, .. } => {
                Some((json_body(serde_json::json!({ "metadata": { "labels": labels } })), MERGE_PATCH))
            }
            // A two-way merge patch: the whole list (no merge key), `null` once none is left.
            ApiOp::PatchNodeTaints { taints, .. } if taints.is_empty() => {
                Some((json_body(serde_json::json!({ "spec": { "taints": null } })), SMP))
            }
            ApiOp::PatchNodeTaints { taints, .. } => {
                Some((json_body(serde_json::json!({ "spec": { "taints": taints } })), SMP))
            }
            ApiOp::PatchNodeAnnotations { annotations, .. } => {
                Some((json_body(serde_json::json!({ "metadata": { "annotations": annotations } })), SMP))
            }
            ApiOp::PatchNodePodCidr { cidr, .. } => {
                Some((json_body(serde_json::json!({ "spec": { "podCIDR": cidr, "podCIDRs": [cidr] } })), SMP))
            }
            ApiOp::CreateLease(l) => obj(Object::Lease(Arc::new(l.clone()))),
            ApiOp::UpdateLease { lease, base } => match Body::renewal(base, lease) {
                Some(renewal) => Some((renewal, JSON)),
                None => obj(Object::Lease(lease.clone())),
            },
            ApiOp::RenewLease { read, renew_time, .. } => Some((
                Body::Renewal {
                    base: read.base.clone(),
                    resource_version: read.resource_version,
                    renew_time: *renew_time,
                },
                JSON,
            )),
            ApiOp::CreatePod(p) | ApiOp::UpdatePodStatus(p) => obj(Object::Pod(Arc::new(p.clone()))),
            ApiOp::BindPod { namespace, name, uid, node } => Some((
                Body::Binding(Box::new(BindingParts {
                    namespace: namespace.clone(),
                    name: name.clone(),
                    uid: uid.clone(),
                    node: node.clone(),
                })),
                JSON,
            )),
            ApiOp::PatchPodStatus { uid, status, .. } => {
                Some((Body::PodStatus { uid: uid.clone(), status: status.clone() }, SMP))
            }
            ApiOp::DeletePod { grace_seconds, precondition_uid, background, .. } => {
                let mut body = if *background {
                    serde_json::json!({})
                } else {
                    serde_json::json!({ "kind": "DeleteOptions", "apiVersion": "v1" })
                };
                if let Some(g) = grace_seconds {
                    body["gracePeriodSeconds"] = (*g).into();
                }
                if let Some(uid) = precondition_uid {
                    body["preconditions"] = serde_json::json!({ "uid": uid });
                }
                if *background {
                    body["propagationPolicy"] = "Background".into();
                }
                Some((json_body(body), JSON))
            }
            // kubectl sends only what was set (`--cascade=background`).
            ApiOp::DeleteNode(_) => Some((json_body(serde_json::json!({ "propagationPolicy": "Background" })), JSON)),
            ApiOp::UpdateStatefulSetStatus(d) => obj(Object::StatefulSet(Arc::new(d.clone()))),
            ApiOp::UpdateClaim(c) | ApiOp::UpdateClaimStatus(c) => {
                obj(Object::PersistentVolumeClaim(Arc::new(c.clone())))
            }
            ApiOp::UpdateVolumeStatus(v) => obj(Object::PersistentVolume(Arc::new(v.clone()))),
            ApiOp::MarkVolumeAttached(_) => {
                Some((json_body(serde_json::json!({ "status": { "attached": true } })), MERGE_PATCH))
            }
            ApiOp::DeleteVolumeAttachment(_) => {
                Some((json_body(serde_json::json!({ "kind": "DeleteOptions", "apiVersion": "v1" })), JSON))
            }
            ApiOp::PatchVolumeAttachmentFinalizer { add: true, .. } => Some((
                json_body(serde_json::json!({ "metadata": { "finalizers": [crate::apiserver::VA_FINALIZER] } })),
                MERGE_PATCH,
            )),
            ApiOp::PatchVolumeAttachmentFinalizer { add: false, .. } => Some((
                json_body(serde_json::json!({ "metadata": { "finalizers": null }, "status": { "attached": false } })),
                MERGE_PATCH,
            )),
            ApiOp::DeleteLease { precondition_uid, .. } | ApiOp::DeleteCsiNode { precondition_uid, .. } => Some((
                json_body(serde_json::json!({
                    "kind": "DeleteOptions",
                    "apiVersion": "v1",
                    "preconditions": { "uid": precondition_uid },
                    "propagationPolicy": "Background",
                })),
                JSON,
            )),
        }
    }
}

/// A JSON request body, kept as its text.
fn json_body(value: serde_json::Value) -> Body {
    Body::Json(value.into())
}
