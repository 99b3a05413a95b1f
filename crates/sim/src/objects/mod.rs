//! Kubernetes object shapes, written by hand in the API's field order and serialized with
//! serde to the JSON the API server serves. A native test round-trips every object the
//! simulation emits through `k8s-openapi`'s types, so a misspelt or invented field fails.

mod apps;
mod certificates;
mod csinode;
mod event;
mod kind;
mod lease;
mod meta;
mod node;
mod pod;
mod policy;
mod scheduling;
mod status;
mod text;
mod volume;
mod volume_attachment;

use std::fmt;

use serde::Serialize;

pub use apps::{
    ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetStatus, PodTemplateSpec, StatefulSet, StatefulSetSpec,
    StatefulSetStatus, TemplateMeta,
};
pub use certificates::{
    BOOTSTRAP_TOKEN_TYPE, CertificateSigningRequest, CsrCondition, CsrSpec, CsrStatus, SIGNER_KUBELET_CLIENT,
    SIGNER_KUBELET_SERVING, Secret, base64, base64_decode, base64_raw_url, certificate_request,
    certificate_request_with_sans, certificate_validity, issued_certificate, pem, request_sans, request_subject,
};
pub use csinode::{CsiNode, CsiNodeDriver, CsiNodeSpec, MIGRATED_PLUGINS, MIGRATED_PLUGINS_ANNOTATION};
pub use event::{Event, EventRecorder, EventSeries, EventSource, EventVersion};
pub use kind::{Kind, KindInfo, Object, Stored};
pub use lease::{Lease, LeaseSpec};
pub use meta::{MicroTime, ObjectMeta, ObjectReference, OwnerReference, StringMap, Time};
pub use node::{
    AttachedVolume, ContainerImage, DaemonEndpoint, Node, NodeAddress, NodeCondition, NodeDaemonEndpoints,
    NodeFeatures, NodeRuntimeHandler, NodeRuntimeHandlerFeatures, NodeSpec, NodeStatus, NodeSystemInfo, Quantities,
    Taint,
};
pub use pod::{
    Binding, BindingMeta, ClaimVolumeSource, Container, ContainerState, ContainerStateRunning,
    ContainerStateTerminated, ContainerStateWaiting, ContainerStatus, EmptyObject, Pod, PodCondition, PodIp, PodSpec,
    PodStatus, ProjectedVolume, ResourceRequirements, Toleration, Volume, VolumeMount,
};
pub use policy::{
    Condition, IntOrPercent, LabelSelector, PdbSpec, PdbStatus, PodDisruptionBudget, set_disruption_allowed,
};
pub use scheduling::PriorityClass;
pub use status::{Status, StatusCause, StatusDetails, StatusMeta};
pub use text::Text;
pub use volume::{
    BIND_COMPLETED, CLAIM_SIZE, CSI_DRIVER, ClaimSpec, ClaimStatus, PersistentVolume, PersistentVolumeClaim,
    SELECTED_NODE, STORAGE_CLASS, VolumeSpec, VolumeStatus,
};
pub use volume_attachment::{VolumeAttachment, VolumeAttachmentSource, VolumeAttachmentSpec, VolumeAttachmentStatus};

pub(crate) use pod::{order_pod_conditions, pinned_to, set_pod_condition};

/// An `omitempty` number: serde's `skip_serializing_if` for the API's integer fields that Go
/// omits at zero.
fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// How an object changed (a watch event's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ChangeType {
    Added,
    Modified,
    Deleted,
}

/// Identifies one stored object.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ObjectKey {
    pub kind: Kind,
    /// (Shared with the object's metadata when the key is made from an object.)
    pub namespace: Text,
    pub name: Text,
}

impl ObjectKey {
    /// A cluster-scoped key.
    pub fn cluster(kind: Kind, name: &str) -> ObjectKey {
        ObjectKey { kind, namespace: Text::default(), name: name.into() }
    }

    /// A namespaced key.
    pub fn namespaced(kind: Kind, namespace: &str, name: &str) -> ObjectKey {
        ObjectKey { kind, namespace: namespace.into(), name: name.into() }
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.namespace.is_empty() {
            write!(f, "{}/{}", self.kind.as_str(), self.name)
        } else {
            write!(f, "{}/{}/{}", self.kind.as_str(), self.namespace, self.name)
        }
    }
}

impl Object {
    /// The key the object is stored under.
    pub fn key(&self) -> ObjectKey {
        let m = self.meta();
        ObjectKey { kind: self.kind(), namespace: m.namespace.clone(), name: m.name.clone() }
    }

    /// The object as a JSON value.
    pub fn to_json(&self) -> serde_json::Value {
        // Objects have string keys only, so serialization cannot fail.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}
