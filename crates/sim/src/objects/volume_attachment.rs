//! `storage.k8s.io/v1` `VolumeAttachment`: a CSI volume attached to a node, written by the
//! attach-detach controller and marked attached by the driver's external-attacher.

use serde::Serialize;

use super::meta::ObjectMeta;

/// `storage.k8s.io/v1` `VolumeAttachment`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VolumeAttachment {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: VolumeAttachmentSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<VolumeAttachmentStatus>,
}

/// `VolumeAttachmentSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeAttachmentSpec {
    pub attacher: String,
    pub node_name: String,
    pub source: VolumeAttachmentSource,
}

/// `VolumeAttachmentSource`: here always a PersistentVolume.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeAttachmentSource {
    pub persistent_volume_name: String,
}

/// `VolumeAttachmentStatus`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VolumeAttachmentStatus {
    pub attached: bool,
}

impl VolumeAttachment {
    /// A VolumeAttachment of `pv` to `node` by `attacher`, not attached yet.
    pub fn new(name: &str, attacher: &str, pv: &str, node: &str) -> VolumeAttachment {
        VolumeAttachment {
            kind: "VolumeAttachment",
            api_version: "storage.k8s.io/v1",
            metadata: ObjectMeta { name: name.into(), ..ObjectMeta::default() },
            spec: VolumeAttachmentSpec {
                attacher: attacher.into(),
                node_name: node.into(),
                source: VolumeAttachmentSource { persistent_volume_name: pv.into() },
            },
            status: None,
        }
    }
}
