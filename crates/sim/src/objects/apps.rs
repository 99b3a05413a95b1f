//! `apps/v1` `DaemonSet`: the shape of the one DaemonSet the simulation runs (kube-proxy).

use std::collections::BTreeMap;

use serde::Serialize;

use super::is_zero;
use super::meta::ObjectMeta;
use super::pod::PodSpec;
use super::policy::LabelSelector;

/// A DaemonSet as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DaemonSet {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: DaemonSetSpec,
    pub status: DaemonSetStatus,
}

/// `apps/v1` `DaemonSetSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetSpec {
    pub selector: LabelSelector,
    pub template: PodTemplateSpec,
    pub update_strategy: serde_json::Value,
    pub revision_history_limit: i32,
}

/// `v1.PodTemplateSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PodTemplateSpec {
    pub metadata: TemplateMeta,
    pub spec: crate::shared::Shared<PodSpec>,
}

/// A template's metadata: labels only (`creationTimestamp: null` as the API server prints it).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateMeta {
    pub creation_timestamp: Option<()>,
    pub labels: BTreeMap<String, String>,
}

/// `apps/v1` `DaemonSetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetStatus {
    pub current_number_scheduled: i32,
    pub number_misscheduled: i32,
    pub desired_number_scheduled: i32,
    pub number_ready: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_number_scheduled: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number_available: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number_unavailable: Option<i32>,
}

/// An `apps/v1` `ControllerRevision`: the StatefulSet controller's record of one version of
/// its Pod template (`history.NewControllerRevision`). `data` is the template as a
/// strategic-merge patch (`getPatch`), `revision` its number in the set's history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ControllerRevision {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub data: serde_json::Value,
    pub revision: i64,
}

/// An `apps/v1` `StatefulSet` as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatefulSet {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: StatefulSetSpec,
    pub status: StatefulSetStatus,
}

/// `apps/v1` `StatefulSetSpec`, in the API's field order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetSpec {
    pub replicas: i32,
    pub selector: LabelSelector,
    pub template: PodTemplateSpec,
    pub volume_claim_templates: Vec<serde_json::Value>,
    pub service_name: String,
    pub pod_management_policy: &'static str,
    pub update_strategy: serde_json::Value,
    pub revision_history_limit: i32,
    pub persistent_volume_claim_retention_policy: serde_json::Value,
}

/// `apps/v1` `StatefulSetStatus`: `replicas` and `availableReplicas` have no `omitempty`; the
/// controller always writes `collisionCount` (a pointer, so `0` is printed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    pub replicas: i32,
    #[serde(skip_serializing_if = "is_zero")]
    pub ready_replicas: i32,
    #[serde(skip_serializing_if = "is_zero")]
    pub current_replicas: i32,
    #[serde(skip_serializing_if = "is_zero")]
    pub updated_replicas: i32,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub current_revision: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub update_revision: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    pub available_replicas: i32,
}
