//! `v1.Event`. Two recorders write them: the legacy one (`k8s.io/client-go/tools/record`, used by
//! the kubelet and kube-controller-manager) fills `source`, `firstTimestamp`, `lastTimestamp` and
//! `count`; the events.k8s.io/v1 one (`tools/events`, used by kube-scheduler) fills `eventTime`,
//! `action` and `reportingComponent` instead. Both shapes are served through core/v1.

use serde::Serialize;

use super::meta::{MicroTime, ObjectMeta, ObjectReference, Time};

/// A core/v1 Event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub kind: &'static str,
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub involved_object: ObjectReference,
    pub reason: String,
    pub message: String,
    pub source: EventSource,
    pub first_timestamp: Option<Time>,
    pub last_timestamp: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    #[serde(rename = "type")]
    pub type_: String,
    /// `null` for events from the legacy recorder.
    pub event_time: Option<MicroTime>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<EventSeries>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub action: String,
    pub reporting_component: String,
    pub reporting_instance: String,
}

impl Event {
    /// How many times the event has happened (`count`, or the series count, or 1).
    pub fn occurrences(&self) -> i32 {
        self.series.as_ref().map(|s| s.count).or(self.count).unwrap_or(1)
    }
}

/// `v1.EventSource`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EventSource {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub component: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub host: String,
}

/// `v1.EventSeries`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventSeries {
    pub count: i32,
    pub last_observed_time: MicroTime,
}
