//! `v1.Event`. Two recorders write them: the legacy one (`k8s.io/client-go/tools/record`, used by
//! the kubelet and kube-controller-manager) fills `source`, `firstTimestamp`, `lastTimestamp` and
//! `count`; the events.k8s.io/v1 one (`tools/events`, used by kube-scheduler) fills `eventTime`,
//! `action` and `reportingComponent` instead. Both shapes are served through core/v1.

use std::sync::{Arc, OnceLock};

use serde::Serialize;

use super::meta::{MicroTime, ObjectMeta, ObjectReference, Time};
use super::text::Text;
use crate::rng::Uuid;
use crate::time::WallTime;

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

/// One version of an Event, kept compactly: what the recorders vary, with the Event's names and
/// its involved object shared. An Event object is 416 bytes with its metadata, and an hour of
/// 1,000 nodes writes 23,000 of them, nearly all read never; the log keeps these instead and
/// builds the Event when something reads it ([`EventVersion::shared`]), once.
#[derive(Debug)]
pub struct EventVersion {
    pub name: Text,
    pub namespace: Text,
    pub uid: Uuid,
    pub resource_version: u64,
    /// When the API server created it (`metadata.creationTimestamp`).
    pub created: WallTime,
    pub involved_object: Arc<ObjectReference>,
    pub reason: &'static str,
    pub type_: &'static str,
    pub message: Arc<str>,
    /// Shared by the Events one recorder writes as one component (a kubelet's, the node
    /// controller's, the scheduler's for one action): 48 bytes an Event natively otherwise.
    pub recorder: Arc<EventRecorder>,
    /// The first and the last occurrence counted on it.
    pub first: WallTime,
    pub last: WallTime,
    pub count: i32,
    /// The Event, once built: a reader that lists every Event (`kubectl get events`, a fleet's
    /// 20,000 of them) builds each once, not at every frame. Not copied with the version (a copy
    /// is made to be changed) and not compared.
    pub built: OnceLock<Arc<Event>>,
}

impl Clone for EventVersion {
    fn clone(&self) -> EventVersion {
        EventVersion {
            name: self.name.clone(),
            namespace: self.namespace.clone(),
            uid: self.uid,
            resource_version: self.resource_version,
            created: self.created,
            involved_object: self.involved_object.clone(),
            reason: self.reason,
            type_: self.type_,
            message: self.message.clone(),
            recorder: self.recorder.clone(),
            first: self.first,
            last: self.last,
            count: self.count,
            built: OnceLock::new(),
        }
    }
}

impl PartialEq for EventVersion {
    fn eq(&self, other: &EventVersion) -> bool {
        (&self.name, &self.namespace, self.uid, self.resource_version, self.created)
            == (&other.name, &other.namespace, other.uid, other.resource_version, other.created)
            && (&self.involved_object, self.reason, self.type_, &self.message, &self.recorder)
                == (&other.involved_object, other.reason, other.type_, &other.message, &other.recorder)
            && (self.first, self.last, self.count) == (other.first, other.last, other.count)
    }
}

/// Which of client-go's recorders wrote an Event, with what it names itself.
#[derive(Clone, Debug, PartialEq)]
pub enum EventRecorder {
    /// `tools/record` (the kubelet, kube-controller-manager): `source`, `firstTimestamp`,
    /// `lastTimestamp` and `count`.
    Legacy { component: &'static str, host: Arc<str> },
    /// `tools/events` (kube-scheduler): `eventTime`, `action`, `reportingComponent` and a
    /// `series` from the second occurrence.
    EventsV1 { component: &'static str, instance: &'static str, action: &'static str },
}

impl EventRecorder {
    /// The component the recorder names (`kubelet`, `node-controller`, `default-scheduler`, ...).
    pub fn component(&self) -> &'static str {
        match self {
            EventRecorder::Legacy { component, .. } | EventRecorder::EventsV1 { component, .. } => component,
        }
    }
}

impl EventVersion {
    /// The Event this version is, built at the first call.
    pub fn shared(&self) -> Arc<Event> {
        self.built.get_or_init(|| Arc::new(self.event())).clone()
    }

    /// The Event this version is, built.
    pub fn event(&self) -> Event {
        let metadata = ObjectMeta {
            name: self.name.clone(),
            namespace: self.namespace.clone(),
            uid: (*self.uid.text()).into(),
            resource_version: self.resource_version,
            creation_timestamp: Some(Time::at(self.created)),
            ..ObjectMeta::default()
        };
        let mut event = Event {
            kind: "Event",
            api_version: "v1",
            metadata,
            involved_object: self.involved_object.clone(),
            reason: self.reason,
            message: self.message.clone(),
            source: EventSource::default(),
            first_timestamp: None,
            last_timestamp: None,
            count: None,
            type_: self.type_,
            event_time: None,
            series: None,
            action: "",
            reporting_component: "",
            reporting_instance: Arc::from(""),
        };
        match &*self.recorder {
            EventRecorder::Legacy { component, host } => {
                event.source = EventSource { component, host: host.clone() };
                event.first_timestamp = Some(Time::at(self.first));
                event.last_timestamp = Some(Time::at(self.last));
                event.count = Some(self.count);
                event.reporting_component = component;
                event.reporting_instance = host.clone();
            }
            EventRecorder::EventsV1 { component, instance, action } => {
                event.event_time = Some(MicroTime(self.first));
                event.series = (self.count > 1)
                    .then_some(EventSeries { count: self.count, last_observed_time: MicroTime(self.last) });
                event.action = action;
                event.reporting_component = component;
                event.reporting_instance = Arc::from(*instance);
            }
        }
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn version(recorder: EventRecorder, count: i32) -> EventVersion {
        EventVersion {
            name: "node-1.17f0".into(),
            namespace: "default".into(),
            uid: Rng::new(1).uuid_value(),
            resource_version: 42,
            created: WallTime(1_000),
            involved_object: Arc::new(ObjectReference {
                kind: "Node".into(),
                name: "node-1".into(),
                ..Default::default()
            }),
            reason: "NodeNotReady",
            type_: "Normal",
            message: "Node node-1 status is now: NodeNotReady".into(),
            recorder: recorder.into(),
            first: WallTime(1_000),
            last: WallTime(61_000),
            count,
            built: OnceLock::new(),
        }
    }

    #[test]
    fn a_legacy_version_builds_source_timestamps_and_count() {
        let host: Arc<str> = "node-1".into();
        let e = version(EventRecorder::Legacy { component: "kubelet", host: host.clone() }, 3).event();
        assert_eq!((e.source.component, &*e.source.host), ("kubelet", "node-1"));
        assert_eq!(
            (e.first_timestamp, e.last_timestamp),
            (Some(Time::at(WallTime(1_000))), Some(Time::at(WallTime(61_000))))
        );
        assert_eq!((e.count, e.event_time, e.series, e.action), (Some(3), None, None, ""));
        assert_eq!((e.reporting_component, &*e.reporting_instance), ("kubelet", "node-1"));
        assert_eq!(&*e.metadata.uid, Rng::new(1).uuid());
        assert_eq!((e.metadata.resource_version, e.metadata.creation_timestamp), (42, Some(Time::at(WallTime(1_000)))));
    }

    #[test]
    fn an_events_v1_version_has_a_series_from_its_second_occurrence() {
        let recorder =
            EventRecorder::EventsV1 { component: "default-scheduler", instance: "scheduler-1", action: "Binding" };
        let once = version(recorder.clone(), 1).event();
        assert_eq!((once.event_time, once.series, once.count), (Some(MicroTime(WallTime(1_000))), None, None));
        assert_eq!((once.first_timestamp, &*once.source.host, once.action), (None, "", "Binding"));
        assert_eq!(&*once.reporting_instance, "scheduler-1");
        let twice = version(recorder, 2).event();
        assert_eq!(twice.series, Some(EventSeries { count: 2, last_observed_time: MicroTime(WallTime(61_000)) }));
    }

    #[test]
    fn a_version_builds_its_event_once_and_a_copy_builds_its_own() {
        let v = version(EventRecorder::Legacy { component: "kubelet", host: "node-1".into() }, 1);
        let first = v.shared();
        assert!(Arc::ptr_eq(&first, &v.shared()), "built once");
        let mut counted = v.clone();
        counted.count = 2;
        assert_eq!((counted.shared().count, v.shared().count), (Some(2), Some(1)));
        assert_eq!(v, v.clone(), "the cache is not compared");
    }
}
