//! `storage.k8s.io/v1` `CSINode`: the kubelet publishes one per node, named after it and owned
//! by it, listing the CSI drivers installed on the node and (in an annotation) the in-tree volume
//! plugins whose volumes it hands to CSI drivers (`docs/kubernetes-notes.md` §9.3).

use std::borrow::Cow;

use serde::Serialize;

use super::meta::{ObjectMeta, OwnerReference, StringMap};

/// The annotation naming the in-tree plugins the kubelet migrates to CSI.
pub const MIGRATED_PLUGINS_ANNOTATION: &str = "storage.alpha.kubernetes.io/migrated-plugins";

/// Its value, sorted and comma-joined as `setMigrationAnnotation` writes it. The same for both
/// profiles: gce-pd, aws-ebs, cinder, azure-disk, azure-file and vsphere-volume are always
/// migrated, and `CSIMigrationPortworx` is on by default from 1.31 (GA in 1.33).
pub const MIGRATED_PLUGINS: &str = "kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/portworx-volume,kubernetes.io/vsphere-volume";

/// A node's CSINode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CsiNode {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: CsiNodeSpec,
}

/// `CSINodeSpec`. `drivers` has no `omitempty`: the kubelet sends `[]`, and the API server,
/// which stores it as protobuf (where an empty list is no list), serves `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CsiNodeSpec {
    pub drivers: Option<Vec<CsiNodeDriver>>,
}

/// `CSINodeDriver`: one CSI driver on the node (none in the simulated clusters).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CsiNodeDriver {
    pub name: String,
    #[serde(rename = "nodeID")]
    pub node_id: String,
}

impl CsiNode {
    /// The CSINode the kubelet creates for its Node (`CreateCSINode`): named after the Node,
    /// owned by it (no `controller`, no `blockOwnerDeletion`), no drivers yet.
    pub fn for_node(node: &str, node_uid: &str) -> CsiNode {
        // The same for every CSINode: one map shared by all.
        static ANNOTATIONS: std::sync::LazyLock<StringMap> = std::sync::LazyLock::new(|| {
            [(MIGRATED_PLUGINS_ANNOTATION.to_string(), MIGRATED_PLUGINS.to_string())].into_iter().collect()
        });
        let mut metadata = ObjectMeta { name: node.into(), ..ObjectMeta::default() };
        metadata.annotations = ANNOTATIONS.clone();
        metadata.owner_references = vec![OwnerReference {
            api_version: Cow::Borrowed("v1"),
            kind: Cow::Borrowed("Node"),
            name: node.into(),
            uid: node_uid.into(),
            controller: None,
            block_owner_deletion: None,
        }]
        .into();
        CsiNode {
            kind: "CSINode",
            api_version: "storage.k8s.io/v1",
            metadata,
            spec: CsiNodeSpec { drivers: Some(Vec::new()) },
        }
    }

    /// How many drivers the spec lists (`kubectl get csinodes`' DRIVERS column).
    pub fn driver_count(&self) -> usize {
        self.spec.drivers.as_ref().map_or(0, Vec::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kubelets_csinode_is_owned_by_its_node_and_sends_an_empty_driver_list() {
        let c = CsiNode::for_node("node-1", "uid-1");
        let json = serde_json::to_value(&c).expect("serializes");
        assert_eq!(json["apiVersion"], "storage.k8s.io/v1");
        assert_eq!(json["spec"]["drivers"], serde_json::json!([]));
        assert_eq!(
            json["metadata"]["ownerReferences"],
            serde_json::json!([{ "apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "uid-1" }])
        );
        assert_eq!(json["metadata"]["annotations"][MIGRATED_PLUGINS_ANNOTATION], MIGRATED_PLUGINS);
        let mut names: Vec<&str> = MIGRATED_PLUGINS.split(',').collect();
        names.sort_unstable();
        assert_eq!(names.join(","), MIGRATED_PLUGINS, "setMigrationAnnotation sorts the names");
        let stored = CsiNode { spec: CsiNodeSpec { drivers: None }, ..c };
        assert_eq!(serde_json::to_value(&stored).expect("serializes")["spec"]["drivers"], serde_json::Value::Null);
        assert_eq!(stored.driver_count(), 0);
    }
}
