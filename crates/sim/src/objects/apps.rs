//! `apps/v1` `DaemonSet`: the shape of the one DaemonSet the simulation runs (kube-proxy).

use std::collections::BTreeMap;

use serde::Serialize;

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
    pub spec: PodSpec,
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
