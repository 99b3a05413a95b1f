//! `v1.Node`, in the API's field order.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::meta::{ObjectMeta, Time};
use crate::shared::Shared;

/// A Kubernetes Node as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    /// Shared between versions (a status change leaves the spec alone), copied on write.
    pub spec: Shared<NodeSpec>,
    pub status: NodeStatus,
}

impl Node {
    /// An empty Node named `name`.
    pub fn new(name: &str) -> Node {
        Node {
            kind: "Node",
            api_version: "v1",
            metadata: ObjectMeta { name: name.to_string(), ..ObjectMeta::default() },
            spec: Shared::default(),
            status: NodeStatus::default(),
        }
    }

    /// The condition of type `ty`, if present.
    pub fn condition(&self, ty: &str) -> Option<&NodeCondition> {
        self.status.conditions.iter().find(|c| c.type_ == ty)
    }

    /// The status of the `Ready` condition: `"True"`, `"False"`, `"Unknown"`, or `None` if absent.
    pub fn ready_status(&self) -> Option<&str> {
        self.condition("Ready").map(|c| &*c.status)
    }

    /// Whether the node carries a taint with this key and effect.
    pub fn has_taint(&self, key: &str, effect: &str) -> bool {
        self.spec.taints.iter().any(|t| t.key == key && t.effect == effect)
    }

    /// The node's InternalIP address, if any.
    pub fn internal_ip(&self) -> Option<&str> {
        self.status.addresses.iter().find(|a| a.type_ == "InternalIP").map(|a| a.address.as_str())
    }
}

/// `v1.NodeSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    #[serde(rename = "podCIDR", skip_serializing_if = "String::is_empty")]
    pub pod_cidr: String,
    #[serde(rename = "podCIDRs", skip_serializing_if = "Vec::is_empty")]
    pub pod_cidrs: Vec<String>,
    #[serde(rename = "providerID", skip_serializing_if = "String::is_empty")]
    pub provider_id: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unschedulable: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
}

/// `v1.Taint`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    pub key: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    pub effect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_added: Option<Time>,
}

impl Taint {
    /// A taint with no value.
    pub fn new(key: &str, effect: &str, time_added: Option<Time>) -> Taint {
        Taint { key: key.to_string(), value: String::new(), effect: effect.to_string(), time_added }
    }

    /// `key=value:Effect` or `key:Effect`, as kubectl prints it.
    pub fn display(&self) -> String {
        if self.value.is_empty() {
            format!("{}:{}", self.key, self.effect)
        } else {
            format!("{}={}:{}", self.key, self.value, self.effect)
        }
    }
}

/// A map of resource quantities (`cpu: "4"`), shared between versions.
pub type Quantities = Arc<BTreeMap<String, String>>;

fn no_entries<T>(list: &Shared<Vec<T>>) -> bool {
    list.is_empty()
}

fn no_quantities(q: &Quantities) -> bool {
    q.is_empty()
}

fn no_images(i: &Arc<Vec<ContainerImage>>) -> bool {
    i.is_empty()
}

/// `v1.NodeStatus`. The parts a kubelet rarely changes are shared (`Arc`), so versions are cheap.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    #[serde(skip_serializing_if = "no_quantities")]
    pub capacity: Quantities,
    #[serde(skip_serializing_if = "no_quantities")]
    pub allocatable: Quantities,
    /// Shared between a status PATCH's body and the version it makes (the API server keeps the
    /// sender's list when the merge comes to the same), copied on write.
    #[serde(skip_serializing_if = "no_entries")]
    pub conditions: Shared<Vec<NodeCondition>>,
    /// Shared between versions, as the labels are: a status PATCH leaves the addresses alone.
    #[serde(skip_serializing_if = "no_entries")]
    pub addresses: Shared<Vec<NodeAddress>>,
    pub daemon_endpoints: NodeDaemonEndpoints,
    pub node_info: Arc<NodeSystemInfo>,
    #[serde(skip_serializing_if = "no_images")]
    pub images: Arc<Vec<ContainerImage>>,
    #[serde(skip_serializing_if = "no_entries")]
    pub runtime_handlers: Shared<Vec<NodeRuntimeHandler>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<NodeFeatures>,
}

/// `v1.NodeCondition`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeCondition {
    #[serde(rename = "type")]
    pub type_: Cow<'static, str>,
    pub status: Cow<'static, str>,
    pub last_heartbeat_time: Time,
    pub last_transition_time: Time,
    pub reason: Cow<'static, str>,
    pub message: Cow<'static, str>,
}

impl NodeCondition {
    /// Whether two conditions are equal ignoring `lastHeartbeatTime`, the comparison the kubelet
    /// makes before deciding whether a status PATCH is due.
    pub fn same_ignoring_heartbeat(&self, other: &NodeCondition) -> bool {
        self.type_ == other.type_
            && self.status == other.status
            && self.last_transition_time == other.last_transition_time
            && self.reason == other.reason
            && self.message == other.message
    }
}

/// `v1.NodeAddress`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeAddress {
    #[serde(rename = "type")]
    pub type_: String,
    pub address: String,
}

/// `v1.NodeDaemonEndpoints`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeDaemonEndpoints {
    pub kubelet_endpoint: DaemonEndpoint,
}

/// `v1.DaemonEndpoint`; the JSON key really is capitalised `Port`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DaemonEndpoint {
    #[serde(rename = "Port")]
    pub port: i32,
}

/// `v1.NodeSystemInfo`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSystemInfo {
    #[serde(rename = "machineID")]
    pub machine_id: String,
    #[serde(rename = "systemUUID")]
    pub system_uuid: String,
    #[serde(rename = "bootID")]
    pub boot_id: String,
    pub kernel_version: String,
    pub os_image: String,
    pub container_runtime_version: String,
    pub kubelet_version: String,
    pub kube_proxy_version: String,
    pub operating_system: String,
    pub architecture: String,
}

/// `v1.ContainerImage`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerImage {
    pub names: Vec<String>,
    pub size_bytes: i64,
}

/// `v1.NodeRuntimeHandler`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeRuntimeHandler {
    pub name: String,
    pub features: NodeRuntimeHandlerFeatures,
}

/// `v1.NodeRuntimeHandlerFeatures`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRuntimeHandlerFeatures {
    pub recursive_read_only_mounts: bool,
    pub user_namespaces: bool,
}

/// `v1.NodeFeatures`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeFeatures {
    pub supplemental_groups_policy: bool,
}
