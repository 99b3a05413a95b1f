//! `v1.Event`. Two recorders write them: the legacy one (`k8s.io/client-go/tools/record`, used by
//! the kubelet and kube-controller-manager) fills `source`, `firstTimestamp`, `lastTimestamp` and
//! `count`; the events.k8s.io/v1 one (`tools/events`, used by kube-scheduler) fills `eventTime`,
//! `action` and `reportingComponent` instead. Both shapes are served through core/v1.

use std::sync::Arc;

use serde::Serialize;

use super::meta::{MicroTime, ObjectMeta, ObjectReference, Time};

/// A core/v1 Event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub kind: &'static str,
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    /// Shared with the Event's records in the log, as the message is.
    pub involved_object: Arc<ObjectReference>,
    /// The recorder's constants (reason, type, components) are `&'static str`; the host and the
    /// message are shared: 23,000 Events are written in an hour of 1,000 nodes.
    pub reason: &'static str,
    pub message: Arc<str>,
    pub source: EventSource,
    pub first_timestamp: Option<Time>,
    pub last_timestamp: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    #[serde(rename = "type")]
    pub type_: &'static str,
    /// `null` for events from the legacy recorder.
    pub event_time: Option<MicroTime>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<EventSeries>,
    #[serde(skip_serializing_if = "blank")]
    pub action: &'static str,
    pub reporting_component: &'static str,
    pub reporting_instance: Arc<str>,
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
    #[serde(skip_serializing_if = "blank")]
    pub component: &'static str,
    #[serde(skip_serializing_if = "no_host")]
    pub host: Arc<str>,
}

fn blank(s: &&str) -> bool {
    s.is_empty()
}

fn no_host(host: &Arc<str>) -> bool {
    host.is_empty()
}

/// `v1.EventSeries`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventSeries {
    pub count: i32,
    pub last_observed_time: MicroTime,
}
