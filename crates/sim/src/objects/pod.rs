//! `v1.Pod` and `v1.Binding`, with the fields the simulation's Pods carry, in the API's order.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::is_zero;
use super::meta::{ObjectMeta, ObjectReference, Time};
use crate::shared::Shared;

/// A Pod as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pod {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    /// Shared between the Pod's versions (and copied when one writes it): most versions change
    /// only the status.
    pub spec: Shared<PodSpec>,
    /// Shared the same way: a status PATCH's body and the version it makes hold one status.
    pub status: Shared<PodStatus>,
}

impl Pod {
    /// The condition of type `ty`, if present.
    pub fn condition(&self, ty: &str) -> Option<&PodCondition> {
        self.status.conditions.iter().map(|c| &**c).find(|c| c.type_ == ty)
    }

    /// Whether the Pod's `Ready` condition is True.
    pub fn is_ready(&self) -> bool {
        self.condition("Ready").is_some_and(|c| c.status == "True")
    }

    /// Whether the Pod mounts local storage (`hasLocalStorage`: any `emptyDir` volume).
    pub fn has_local_storage(&self) -> bool {
        self.spec.volumes.iter().any(|v| v.empty_dir.is_some())
    }

    /// The claims the Pod's volumes name (`spec.volumes[].persistentVolumeClaim.claimName`).
    pub fn claim_names(&self) -> impl Iterator<Item = &str> {
        self.spec.volumes.iter().filter_map(|v| v.persistent_volume_claim.as_ref()).map(|c| c.claim_name.as_str())
    }

    /// The node a required node affinity on `metadata.name` pins the Pod to, as the DaemonSet
    /// controller writes it (`nodeSelectorTerms[0].matchFields[0]`, operator `In`, one value).
    pub fn pinned_node(&self) -> Option<&str> {
        let term = self.spec.affinity.as_ref()?.pointer(
            "/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchFields/0",
        )?;
        (term.get("key")?.as_str()? == "metadata.name" && term.get("operator")?.as_str()? == "In")
            .then(|| term.pointer("/values/0")?.as_str())
            .flatten()
    }

    /// The controller in `ownerReferences`, if any.
    pub fn controller(&self) -> Option<&super::meta::OwnerReference> {
        self.metadata.owner_references.iter().find(|o| o.controller == Some(true))
    }

    /// Whether the Pod has been deleted gracefully and is waiting for its kubelet.
    pub fn is_terminating(&self) -> bool {
        self.metadata.deletion_timestamp.is_some()
    }
}

/// `v1.PodSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(skip_serializing_if = "no_items")]
    pub volumes: Shared<Vec<Volume>>,
    pub containers: Shared<Vec<Container>>,
    pub restart_policy: Cow<'static, str>,
    pub termination_grace_period_seconds: i64,
    pub dns_policy: Cow<'static, str>,
    pub service_account_name: String,
    pub service_account: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub node_name: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub host_network: bool,
    pub security_context: EmptyObject,
    /// `spec.affinity`: only the node affinity a DaemonSet's Pods carry (see [`Pod::pinned_node`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity: Option<serde_json::Value>,
    pub scheduler_name: Cow<'static, str>,
    #[serde(skip_serializing_if = "no_items")]
    pub tolerations: Shared<Vec<Toleration>>,
    /// `spec.priorityClassName`: the PriorityClass whose value the Priority admission plugin
    /// writes into `priority`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub priority_class_name: String,
    pub priority: i32,
    pub enable_service_links: bool,
    pub preemption_policy: Cow<'static, str>,
}

/// An always-empty object (`{}`), such as a defaulted `securityContext`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EmptyObject {}

/// `v1.Volume`: the projected service-account token volume, an `emptyDir` (default medium, no
/// size limit), or a StatefulSet Pod's claim, in `VolumeSource`'s field order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Volume {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_dir: Option<EmptyObject>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persistent_volume_claim: Option<ClaimVolumeSource>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projected: Option<ProjectedVolume>,
}

/// `v1.PersistentVolumeClaimVolumeSource` (`readOnly` false, omitted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimVolumeSource {
    pub claim_name: String,
}

/// `v1.ProjectedVolumeSource`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectedVolume {
    /// Shared: every Pod's service-account volume has the same sources.
    pub sources: Shared<Vec<serde_json::Value>>,
    pub default_mode: i32,
}

/// `v1.Container`. Its texts are constants of the templates, and its resources shared with the
/// template's (a map of two requests is a 560-byte tree): a Pod's containers are copied by the
/// API server's admission (which adds the token's volume mount), and 3,000 Pods of a fleet copy
/// no string but their mount's name.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    pub name: Cow<'static, str>,
    pub image: Cow<'static, str>,
    pub resources: Shared<ResourceRequirements>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<VolumeMount>,
    pub termination_message_path: Cow<'static, str>,
    pub termination_message_policy: Cow<'static, str>,
    pub image_pull_policy: Cow<'static, str>,
}

/// `v1.ResourceRequirements`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ResourceRequirements {
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<String, String>,
}

/// `v1.VolumeMount`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeMount {
    pub name: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
    pub mount_path: Cow<'static, str>,
}

/// `v1.Toleration`. Its texts are constants (the admission's default tolerations, the taints'
/// keys), borrowed rather than copied into every Pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    #[serde(skip_serializing_if = "str::is_empty")]
    pub key: Cow<'static, str>,
    pub operator: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub value: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub effect: Cow<'static, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// Whether this toleration tolerates a taint with `key`, `value` and `effect`
    /// (`v1.Toleration.ToleratesTaint`).
    pub fn tolerates(&self, key: &str, value: &str, effect: &str) -> bool {
        if !self.effect.is_empty() && self.effect != effect {
            return false;
        }
        if !self.key.is_empty() && self.key != key {
            return false;
        }
        match &*self.operator {
            "Exists" => true,
            "" | "Equal" => self.value == value,
            _ => false,
        }
    }
}

/// `v1.PodStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    pub phase: Cow<'static, str>,
    /// Each condition shared between the status versions it is unchanged in (a version changes
    /// one or two of its five or six).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Shared<PodCondition>>,
    /// Why the Pod is in this state (e.g. `Terminated` after a graceful node shutdown).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub message: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub reason: Cow<'static, str>,
    #[serde(rename = "hostIP", skip_serializing_if = "str::is_empty")]
    pub host_ip: Arc<str>,
    /// Shared between the status versions it is unchanged in, as the container statuses are.
    #[serde(rename = "hostIPs", skip_serializing_if = "no_items")]
    pub host_ips: Shared<Vec<PodIp>>,
    #[serde(rename = "podIP", skip_serializing_if = "str::is_empty")]
    pub pod_ip: Arc<str>,
    #[serde(rename = "podIPs", skip_serializing_if = "no_items")]
    pub pod_ips: Shared<Vec<PodIp>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    /// Shared between the status versions it is unchanged in (most of a Pod's status PATCHes
    /// change a condition or an address, not its containers).
    #[serde(skip_serializing_if = "no_items")]
    pub container_statuses: Shared<Vec<ContainerStatus>>,
    pub qos_class: Cow<'static, str>,
}

fn no_items<T>(list: &Shared<Vec<T>>) -> bool {
    list.is_empty()
}

/// `v1.PodIP` / `v1.HostIP`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PodIp {
    pub ip: Arc<str>,
}

/// `v1.PodCondition`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodCondition {
    /// The type and status are the API's constants (as `&'static str`, 16 bytes where a `Cow`
    /// is 24: five conditions are copied into every Pod status version).
    #[serde(rename = "type")]
    pub type_: &'static str,
    /// `omitempty`: 0 until 1.34's PodObservedGenerationTracking stamps it (a Pod's generation
    /// starts at 1).
    #[serde(skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    pub status: &'static str,
    pub last_probe_time: Option<Time>,
    pub last_transition_time: Time,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub reason: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub message: Cow<'static, str>,
}

/// `v1.ContainerStatus`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: Arc<str>,
    pub state: ContainerState,
    pub last_state: ContainerState,
    pub ready: bool,
    pub restart_count: i32,
    pub image: Arc<str>,
    #[serde(rename = "imageID")]
    pub image_id: Arc<str>,
    #[serde(rename = "containerID", skip_serializing_if = "str::is_empty")]
    pub container_id: Arc<str>,
    pub started: bool,
}

/// `v1.ContainerState`: at most one of the three is set.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ContainerState {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<ContainerStateWaiting>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<ContainerStateRunning>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Boxed: it is rare, and inline it made every container status (two states) 170 bytes
    /// longer, in every version of a Pod's status.
    pub terminated: Option<Box<ContainerStateTerminated>>,
}

/// `v1.ContainerStateWaiting`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContainerStateWaiting {
    pub reason: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub message: Cow<'static, str>,
}

/// `v1.ContainerStateRunning`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateRunning {
    pub started_at: Time,
}

/// `v1.ContainerStateTerminated`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    pub exit_code: i32,
    pub reason: Cow<'static, str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub message: Cow<'static, str>,
    pub started_at: Time,
    pub finished_at: Time,
    #[serde(rename = "containerID")]
    pub container_id: Arc<str>,
}

/// `v1.Binding`: what the scheduler POSTs to `pods/NAME/binding`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Binding {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: BindingMeta,
    pub target: ObjectReference,
}

/// The metadata of a Binding: the Pod's name, namespace and uid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BindingMeta {
    pub name: String,
    pub namespace: String,
    pub uid: String,
    #[serde(rename = "creationTimestamp")]
    pub creation_timestamp: Option<Time>,
}

/// A required node affinity on `metadata.name` that pins a Pod to `node` (what the DaemonSet
/// controller writes, `ReplaceDaemonSetPodNodeNameNodeAffinity`; [`Pod::pinned_node`] reads it).
pub(crate) fn pinned_to(node: &str) -> serde_json::Value {
    serde_json::json!({
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{
                    "matchFields": [{ "key": "metadata.name", "operator": "In", "values": [node] }]
                }]
            }
        }
    })
}

/// Sets (or adds) a Pod condition, moving `lastTransitionTime` only when the status flips.
pub(crate) fn set_pod_condition(
    status: &mut PodStatus,
    ty: &'static str,
    value: &'static str,
    reason: impl Into<Cow<'static, str>>,
    message: impl Into<Cow<'static, str>>,
    now: Time,
) {
    let (reason, message) = (reason.into(), message.into());
    match status.conditions.iter_mut().find(|c| c.type_ == ty) {
        // (Written only when it changes: an unchanged condition stays shared.)
        Some(c) if c.status == value && c.reason == reason && c.message == message => {}
        Some(c) => {
            let c = &mut **c;
            if c.status != value {
                c.last_transition_time = now;
                c.status = value;
            }
            c.reason = reason;
            c.message = message;
        }
        None => {
            // Exactly one more: a status's conditions are copied into every version that changes
            // them, with no room to spare.
            status.conditions.reserve_exact(1);
            status.conditions.push(Shared::new(PodCondition {
                type_: ty,
                observed_generation: 0,
                status: value,
                last_probe_time: None,
                last_transition_time: now,
                reason,
                message,
            }))
        }
    }
}

/// Puts Pod conditions in the order the kubelet writes them, and stamps `observedGeneration`
/// (1.34's PodObservedGenerationTracking) when the Pod has a generation.
pub(crate) fn order_pod_conditions(status: &mut PodStatus, generation: Option<i64>) {
    const ORDER: [&str; 6] =
        ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled", "DisruptionTarget"];
    let rank = |c: &PodCondition| ORDER.iter().position(|o| *o == c.type_).unwrap_or(ORDER.len());
    // Insertion sort: at most six conditions.
    let conditions = &mut status.conditions;
    for i in 1..conditions.len() {
        let mut j = i;
        while j > 0 && rank(&conditions[j - 1]) > rank(&conditions[j]) {
            conditions.swap(j - 1, j);
            j -= 1;
        }
    }
    if let Some(g) = generation {
        status.observed_generation = Some(g);
        for c in status.conditions.iter_mut().filter(|c| c.observed_generation != g) {
            c.observed_generation = g;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::WallTime;

    /// A new status version shares the conditions it does not change with the one it came from.
    #[test]
    fn a_status_version_shares_its_unchanged_conditions() {
        let at = |s: i64| Time(WallTime(s * 1_000_000));
        let mut first = PodStatus::default();
        set_pod_condition(&mut first, "PodScheduled", "True", "", "", at(0));
        set_pod_condition(&mut first, "Ready", "False", "ContainersNotReady", "containers with unready status", at(0));
        order_pod_conditions(&mut first, Some(1));
        let mut next = first.clone();
        set_pod_condition(&mut next, "PodScheduled", "True", "", "", at(5));
        set_pod_condition(&mut next, "Ready", "True", "", "", at(5));
        order_pod_conditions(&mut next, Some(1));
        let scheduled = |s: &PodStatus| s.conditions.iter().find(|c| c.type_ == "PodScheduled").cloned().unwrap();
        let ready = |s: &PodStatus| s.conditions.iter().find(|c| c.type_ == "Ready").cloned().unwrap();
        assert!(std::ptr::eq(&*scheduled(&first), &*scheduled(&next)), "PodScheduled is unchanged and shared");
        assert_eq!((ready(&first).status, ready(&next).status), ("False", "True"));
        assert_eq!((ready(&next).last_transition_time, ready(&next).reason.as_ref()), (at(5), ""));
        assert_eq!(scheduled(&next).last_transition_time, at(0), "no transition, no new time");
        assert_eq!(next.conditions.iter().map(|c| c.observed_generation).collect::<Vec<_>>(), [1, 1]);
    }
}
