//! `v1` `PersistentVolumeClaim` and `PersistentVolume`: the StatefulSet's claim `data-db-0`, the
//! CSI volume the external-provisioner creates for it, and the bind the PV controller completes
//! (`docs/kubernetes-notes.md` §12).

use std::collections::BTreeMap;

use serde::Serialize;

use super::meta::{ObjectMeta, ObjectReference, Time};

/// The storage class the claims name (GKE's default CSI class).
pub const STORAGE_CLASS: &str = "standard-rwo";
/// What a claim asks for.
pub const CLAIM_SIZE: &str = "1Gi";
/// The CSI driver that provisions and attaches the class's volumes.
pub const CSI_DRIVER: &str = "pd.csi.storage.gke.io";
/// The claim's annotation naming the node the scheduler picked for a delayed-binding claim's
/// first consumer.
pub const SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
/// The claim's annotation set once the persistent volume controller's `bind()` has completed.
pub const BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";

/// A `PersistentVolumeClaim` as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PersistentVolumeClaim {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: ClaimSpec,
    pub status: ClaimStatus,
}

/// `PersistentVolumeClaimSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimSpec {
    pub access_modes: Vec<String>,
    pub resources: serde_json::Value,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub volume_name: String,
    pub storage_class_name: String,
    pub volume_mode: String,
}

/// `PersistentVolumeClaimStatus`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimStatus {
    pub phase: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: BTreeMap<String, String>,
}

/// A `PersistentVolume` as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PersistentVolume {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: VolumeSpec,
    pub status: VolumeStatus,
}

/// `PersistentVolumeSpec` of a CSI volume.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeSpec {
    pub capacity: BTreeMap<String, String>,
    pub csi: serde_json::Value,
    pub access_modes: Vec<String>,
    pub claim_ref: ObjectReference,
    pub persistent_volume_reclaim_policy: String,
    pub storage_class_name: String,
    pub volume_mode: String,
}

/// `PersistentVolumeStatus`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeStatus {
    pub phase: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_phase_transition_time: Option<Time>,
}

fn rwo() -> Vec<String> {
    vec!["ReadWriteOnce".into()]
}

fn storage() -> BTreeMap<String, String> {
    [("storage".to_string(), CLAIM_SIZE.to_string())].into_iter().collect()
}

impl PersistentVolumeClaim {
    /// A reference to the claim, as `ref.GetReference` builds it (a volume's `claimRef`, an
    /// Event's `involvedObject`).
    pub fn reference(&self) -> ObjectReference {
        ObjectReference {
            kind: "PersistentVolumeClaim".into(),
            namespace: self.metadata.namespace.clone(),
            name: self.metadata.name.clone(),
            uid: self.metadata.uid.clone(),
            api_version: "v1".into(),
            resource_version: self.metadata.resource_version.to_string(),
            field_path: String::new(),
        }
    }

    /// The claim the StatefulSet controller creates from its `data` template for `pod`
    /// (`getPersistentVolumeClaims`: `TEMPLATE-POD`, labelled with the selector's labels).
    pub fn for_pod(pod: &str, labels: BTreeMap<String, String>) -> PersistentVolumeClaim {
        PersistentVolumeClaim {
            kind: "PersistentVolumeClaim",
            api_version: "v1",
            metadata: ObjectMeta {
                name: format!("data-{pod}").into(),
                namespace: "default".into(),
                labels: labels.into(),
                ..ObjectMeta::default()
            },
            spec: ClaimSpec {
                access_modes: rwo(),
                resources: serde_json::json!({ "requests": { "storage": CLAIM_SIZE } }),
                volume_name: String::new(),
                storage_class_name: STORAGE_CLASS.into(),
                volume_mode: "Filesystem".into(),
            },
            status: ClaimStatus { phase: "Pending".into(), access_modes: Vec::new(), capacity: BTreeMap::new() },
        }
    }

    /// The claim's size request (`spec.resources.requests.storage`).
    pub fn request(&self) -> &str {
        self.spec.resources["requests"]["storage"].as_str().unwrap_or_default()
    }

    /// The capacity bound (`status.capacity.storage`), empty while Pending.
    pub fn capacity(&self) -> &str {
        self.status.capacity.get("storage").map_or("", String::as_str)
    }

    /// The claim bound: `status` as the PV controller writes it (`Bound`, the volume's modes and
    /// capacity).
    pub fn bound_status(&self) -> ClaimStatus {
        ClaimStatus { phase: "Bound".into(), access_modes: rwo(), capacity: storage() }
    }
}

impl PersistentVolume {
    /// The volume the external-provisioner creates for `claim` with `driver`
    /// (`pvc-<claim uid>`, claimRef set, `provisioned-by`, its finalizer).
    pub fn provisioned_for(claim: &PersistentVolumeClaim, driver: &str) -> PersistentVolume {
        let name = format!("pvc-{}", claim.metadata.uid);
        let mut metadata = ObjectMeta { name: name.as_str().into(), ..ObjectMeta::default() };
        metadata.annotations.insert("pv.kubernetes.io/provisioned-by".into(), driver.into());
        metadata.annotations.insert("volume.kubernetes.io/provisioner-deletion-secret-name".into(), String::new());
        metadata.annotations.insert("volume.kubernetes.io/provisioner-deletion-secret-namespace".into(), String::new());
        metadata.finalizers = vec!["external-provisioner.volume.kubernetes.io/finalizer".into()].into();
        PersistentVolume {
            kind: "PersistentVolume",
            api_version: "v1",
            metadata,
            spec: VolumeSpec {
                capacity: storage(),
                csi: serde_json::json!({
                    "driver": driver,
                    "fsType": "ext4",
                    "volumeHandle": format!("projects/nodeline/zones/us-central1-a/disks/{name}"),
                }),
                access_modes: rwo(),
                claim_ref: claim.reference(),
                persistent_volume_reclaim_policy: "Delete".into(),
                storage_class_name: STORAGE_CLASS.into(),
                volume_mode: "Filesystem".into(),
            },
            status: VolumeStatus { phase: "Pending".into(), last_phase_transition_time: None },
        }
    }

    /// `CLAIM` in `kubectl get pv`: `namespace/name`.
    pub fn claim(&self) -> String {
        format!("{}/{}", self.spec.claim_ref.namespace, self.spec.claim_ref.name)
    }
}
