//! Kubernetes object shapes, written by hand in the API's field order and serialized with
//! serde to the JSON the API server serves. A native test round-trips every object the
//! simulation emits through `k8s-openapi`'s types, so a misspelt or invented field fails.

mod apps;
mod csinode;
mod event;
mod lease;
mod meta;
mod node;
mod pod;
mod policy;
mod status;
mod text;
mod volume;
mod volume_attachment;

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

pub use apps::{
    ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetStatus, PodTemplateSpec, StatefulSet, StatefulSetSpec,
    StatefulSetStatus, TemplateMeta,
};
pub use csinode::{CsiNode, CsiNodeDriver, CsiNodeSpec, MIGRATED_PLUGINS, MIGRATED_PLUGINS_ANNOTATION};
pub use event::{Event, EventRecorder, EventSeries, EventSource, EventVersion};
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
pub use status::{Status, StatusCause, StatusDetails, StatusMeta};
pub use text::Text;
pub use volume::{
    CLAIM_SIZE, ClaimSpec, ClaimStatus, PersistentVolume, PersistentVolumeClaim, STORAGE_CLASS, VolumeSpec,
    VolumeStatus,
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

/// The kinds of object the simulated API server stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Kind {
    Node,
    CsiNode,
    Lease,
    Pod,
    Event,
    PodDisruptionBudget,
    DaemonSet,
    VolumeAttachment,
    StatefulSet,
    ControllerRevision,
    PersistentVolumeClaim,
    PersistentVolume,
}

impl Kind {
    /// The kind's name as it appears in `kind:`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Node => "Node",
            Kind::CsiNode => "CSINode",
            Kind::Lease => "Lease",
            Kind::Pod => "Pod",
            Kind::Event => "Event",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::DaemonSet => "DaemonSet",
            Kind::VolumeAttachment => "VolumeAttachment",
            Kind::StatefulSet => "StatefulSet",
            Kind::ControllerRevision => "ControllerRevision",
            Kind::PersistentVolumeClaim => "PersistentVolumeClaim",
            Kind::PersistentVolume => "PersistentVolume",
        }
    }
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

/// One version of any stored object. Versions are shared, never mutated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Object {
    Node(Arc<Node>),
    CsiNode(Arc<CsiNode>),
    Lease(Arc<Lease>),
    Pod(Arc<Pod>),
    Event(Arc<Event>),
    PodDisruptionBudget(Arc<PodDisruptionBudget>),
    DaemonSet(Arc<DaemonSet>),
    VolumeAttachment(Arc<VolumeAttachment>),
    StatefulSet(Arc<StatefulSet>),
    ControllerRevision(Arc<ControllerRevision>),
    PersistentVolumeClaim(Arc<PersistentVolumeClaim>),
    PersistentVolume(Arc<PersistentVolume>),
}

/// A kind of object the store holds: its [`Kind`], and its value out of an [`Object`].
pub trait Stored: Sized {
    const KIND: Kind;
    /// The object, if it is of this kind.
    fn from_object(object: Object) -> Option<Arc<Self>>;
}

macro_rules! stored {
    ($($kind:ident),* $(,)?) => {
        $(
            impl Stored for $kind {
                const KIND: Kind = Kind::$kind;
                fn from_object(object: Object) -> Option<Arc<Self>> {
                    match object {
                        Object::$kind(o) => Some(o),
                        _ => None,
                    }
                }
            }
        )*
    };
}

stored!(
    Node,
    CsiNode,
    Lease,
    Pod,
    Event,
    PodDisruptionBudget,
    DaemonSet,
    VolumeAttachment,
    StatefulSet,
    ControllerRevision,
    PersistentVolumeClaim,
    PersistentVolume,
);

impl Object {
    /// The object's metadata.
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Object::Node(o) => &o.metadata,
            Object::CsiNode(o) => &o.metadata,
            Object::Lease(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::Event(o) => &o.metadata,
            Object::PodDisruptionBudget(o) => &o.metadata,
            Object::DaemonSet(o) => &o.metadata,
            Object::VolumeAttachment(o) => &o.metadata,
            Object::StatefulSet(o) => &o.metadata,
            Object::ControllerRevision(o) => &o.metadata,
            Object::PersistentVolumeClaim(o) => &o.metadata,
            Object::PersistentVolume(o) => &o.metadata,
        }
    }

    /// The object's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Object::Node(_) => Kind::Node,
            Object::CsiNode(_) => Kind::CsiNode,
            Object::Lease(_) => Kind::Lease,
            Object::Pod(_) => Kind::Pod,
            Object::Event(_) => Kind::Event,
            Object::PodDisruptionBudget(_) => Kind::PodDisruptionBudget,
            Object::DaemonSet(_) => Kind::DaemonSet,
            Object::VolumeAttachment(_) => Kind::VolumeAttachment,
            Object::StatefulSet(_) => Kind::StatefulSet,
            Object::ControllerRevision(_) => Kind::ControllerRevision,
            Object::PersistentVolumeClaim(_) => Kind::PersistentVolumeClaim,
            Object::PersistentVolume(_) => Kind::PersistentVolume,
        }
    }

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
