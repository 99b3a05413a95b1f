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
            metadata: ObjectMeta { name: name.into(), ..ObjectMeta::default() },
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
    /// The attach/detach controller's record of the volumes attached to the node (its node
    /// status updater's PATCH), in the API's place after `volumesInUse` (not modelled).
    #[serde(skip_serializing_if = "no_entries")]
    pub volumes_attached: Shared<Vec<AttachedVolume>>,
    #[serde(skip_serializing_if = "no_entries")]
    pub runtime_handlers: Shared<Vec<NodeRuntimeHandler>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<NodeFeatures>,
}

/// `v1.NodeCondition`: its heartbeat's time, and the rest ([`ConditionState`]) shared between
/// the Node's versions while it does not change. A kubelet's status PATCH moves every
/// condition's heartbeat and usually nothing else, so its version holds five times and five
/// pointers, not five conditions (`c.status`, `c.reason`... read through `Deref`; a write through
/// `DerefMut` copies the state first if another version shares it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeCondition {
    pub last_heartbeat_time: Time,
    state: Arc<ConditionState>,
}

/// What a [`NodeCondition`] says, but for its heartbeat's time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionState {
    pub type_: Cow<'static, str>,
    pub status: Cow<'static, str>,
    pub last_transition_time: Time,
    pub reason: Cow<'static, str>,
    pub message: Cow<'static, str>,
}

impl NodeCondition {
    /// A condition of type `type_` with these fields.
    pub fn new(
        type_: impl Into<Cow<'static, str>>,
        status: impl Into<Cow<'static, str>>,
        last_heartbeat_time: Time,
        last_transition_time: Time,
        reason: impl Into<Cow<'static, str>>,
        message: impl Into<Cow<'static, str>>,
    ) -> NodeCondition {
        NodeCondition {
            last_heartbeat_time,
            state: Arc::new(ConditionState {
                type_: type_.into(),
                status: status.into(),
                last_transition_time,
                reason: reason.into(),
                message: message.into(),
            }),
        }
    }

    /// Sets the status, reason and message (the transition's time to `now` if the status
    /// changes), leaving the state shared if they are what it already says. Returns whether the
    /// status changed.
    pub fn set(
        &mut self,
        status: &'static str,
        reason: &'static str,
        message: impl Into<Cow<'static, str>>,
        now: Time,
    ) -> bool {
        let message = message.into();
        let changed = self.status != status;
        if changed || self.reason != reason || self.message != message {
            let state = Arc::make_mut(&mut self.state);
            if changed {
                state.status = status.into();
                state.last_transition_time = now;
            }
            state.reason = reason.into();
            state.message = message;
        }
        changed
    }

    /// Whether two conditions are equal ignoring `lastHeartbeatTime`, the comparison the kubelet
    /// makes before deciding whether a status PATCH is due.
    pub fn same_ignoring_heartbeat(&self, other: &NodeCondition) -> bool {
        Arc::ptr_eq(&self.state, &other.state) || self.state == other.state
    }

    /// Whether the two share their state.
    #[cfg(test)]
    fn shares_state_with(&self, other: &NodeCondition) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
    }
}

impl std::ops::Deref for NodeCondition {
    type Target = ConditionState;

    fn deref(&self) -> &ConditionState {
        &self.state
    }
}

impl std::ops::DerefMut for NodeCondition {
    /// The state, for writing: copied first if another version shares it.
    fn deref_mut(&mut self) -> &mut ConditionState {
        Arc::make_mut(&mut self.state)
    }
}

impl Serialize for NodeCondition {
    /// As `v1.NodeCondition`, its fields in the API's order.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("NodeCondition", 6)?;
        out.serialize_field("type", &self.type_)?;
        out.serialize_field("status", &self.status)?;
        out.serialize_field("lastHeartbeatTime", &self.last_heartbeat_time)?;
        out.serialize_field("lastTransitionTime", &self.last_transition_time)?;
        out.serialize_field("reason", &self.reason)?;
        out.serialize_field("message", &self.message)?;
        out.end()
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

/// `v1.AttachedVolume`: the volume's unique name (`kubernetes.io/csi/DRIVER^HANDLE` for CSI) and
/// its device path (empty for CSI; the field has no `omitempty`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachedVolume {
    pub name: String,
    pub device_path: String,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::WallTime;

    #[test]
    fn a_heartbeat_shares_the_condition_and_a_change_copies_it() {
        let (t0, t1) = (Time(WallTime(0)), Time(WallTime(10_000_000)));
        let first = NodeCondition::new("Ready", "True", t0, t0, "KubeletReady", "kubelet is posting ready status");
        let mut beat = first.clone();
        beat.last_heartbeat_time = t1;
        assert!(!beat.set("True", "KubeletReady", "kubelet is posting ready status", t1), "no transition");
        assert!(beat.shares_state_with(&first), "a heartbeat alone shares the state");
        assert!(beat.same_ignoring_heartbeat(&first));
        assert_eq!(serde_json::to_value(&beat).unwrap()["lastHeartbeatTime"], serde_json::to_value(t1).unwrap());

        let mut down = beat.clone();
        assert!(down.set("False", "KubeletNotReady", String::from("container runtime is down"), t1));
        assert!(!down.shares_state_with(&first), "a change copies the state");
        assert_eq!((&*down.status, down.last_transition_time), ("False", t1));
        assert_eq!((&*first.status, first.last_transition_time), ("True", t0), "the earlier version is unchanged");
        let keys: Vec<String> = serde_json::to_value(&down).unwrap().as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys.len(), 6);
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            r#"{"type":"Ready","status":"True","lastHeartbeatTime":"1970-01-01T00:00:00Z","lastTransitionTime":"1970-01-01T00:00:00Z","reason":"KubeletReady","message":"kubelet is posting ready status"}"#
        );
    }
}
