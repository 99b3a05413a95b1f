//! Kubernetes Events, recorded the way client-go's two recorders do it.
//!
//! * The legacy recorder (`tools/record`; kubelet and kube-controller-manager) writes core/v1
//!   Events named `<object>.<hex of unix nanos>`, and counts identical repeats on the same object
//!   (`count`, `lastTimestamp`). Each process has its own cache, so a restarted kubelet starts
//!   new Events.
//! * The events.k8s.io/v1 recorder (`tools/events`; kube-scheduler) sets `eventTime`, `action` and
//!   `reportingComponent`; a repeat becomes a `series` (written at the second occurrence).
//!
//! Writing an Event is a request too, but the timeline keeps Events on their own track, so they
//! are not logged as requests.

use super::vecmap::VecMap;
use std::time::Duration;

use super::apiserver::Ctx;
use super::objects::{Event, EventSeries, EventSource, MicroTime, ObjectKey, ObjectMeta, ObjectReference, Time};
use super::record::{ChangeType, EventRecord, Log};
use super::time::SimTime;
use super::world::World;

/// Identifies "the same event" for counting repeats.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct EventKey {
    component: &'static str,
    host: String,
    object: ObjectReference,
    type_: &'static str,
    reason: &'static str,
    message: String,
}

/// One process's event cache.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorder {
    seen: VecMap<EventKey, (ObjectKey, i32)>,
}

impl Recorder {
    /// The cache kube-controller-manager and kube-scheduler keep for their whole life.
    pub(crate) fn controllers() -> Recorder {
        Recorder::default()
    }
}

/// An event the kubelet could not deliver yet (its network to the API server is cut).
#[derive(Clone, Debug)]
pub(crate) struct PendingEvent {
    pub(crate) at: SimTime,
    pub(crate) object: ObjectReference,
    pub(crate) type_: &'static str,
    pub(crate) reason: &'static str,
    pub(crate) message: String,
    pub(crate) tries: u32,
}

/// client-go's `maxTriesPerEvent`.
pub(crate) const MAX_TRIES_PER_EVENT: u32 = 12;
/// client-go's sleep between tries.
pub(crate) const EVENT_RETRY_SLEEP: Duration = Duration::from_secs(10);

/// Which recorder writes an event.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source {
    /// The kubelet on machine `m`.
    Kubelet(usize),
    /// A kube-controller-manager controller with this component name.
    Controller(&'static str),
    /// kube-scheduler (events.k8s.io/v1).
    Scheduler { action: &'static str },
}

/// The reference the kubelet uses for its Node: the name stands in for the uid.
pub(crate) fn kubelet_node_ref(node: &str) -> ObjectReference {
    ObjectReference { kind: "Node".into(), name: node.into(), uid: node.into(), ..ObjectReference::default() }
}

/// The reference the node controller uses for a Node.
pub(crate) fn controller_node_ref(node: &str, uid: &str) -> ObjectReference {
    ObjectReference {
        kind: "Node".into(),
        name: node.into(),
        uid: uid.into(),
        api_version: "v1".into(),
        ..ObjectReference::default()
    }
}

/// A reference to a Pod (`ref.GetReference`), optionally to one of its containers.
pub(crate) fn pod_ref(pod: &super::objects::Pod, container: Option<&str>) -> ObjectReference {
    ObjectReference {
        kind: "Pod".into(),
        namespace: pod.metadata.namespace.clone(),
        name: pod.metadata.name.clone(),
        uid: pod.metadata.uid.clone(),
        api_version: "v1".into(),
        resource_version: pod.metadata.resource_version.to_string(),
        field_path: container.map(|c| format!("spec.containers{{{c}}}")).unwrap_or_default(),
    }
}

/// The scheduler's host, as it appears in `reportingInstance`.
const SCHEDULER_INSTANCE: &str = "default-scheduler-control-plane";

impl World {
    /// Records an event from `source` about `object`.
    pub(crate) fn event(
        &mut self,
        log: &mut Log,
        source: Source,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) {
        if let Source::Kubelet(m) = source {
            let cut = self.machines[m].network_cut;
            let Some(k) = self.machines[m].kubelet_mut() else { return };
            if cut || !k.pending_events.is_empty() {
                let first = k.pending_events.is_empty();
                k.pending_events.push(PendingEvent { at: self.now, object, type_, reason, message, tries: 1 });
                if first {
                    self.kubelet_after(m, EVENT_RETRY_SLEEP, super::kubelet::KubeletTimer::EventFlush);
                }
                return;
            }
        }
        let now = self.now;
        self.write_event(log, source, object, type_, reason, message, now);
    }

    /// Writes an event that happened at `at` (now, or earlier for a kubelet's delayed events).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write_event(
        &mut self,
        log: &mut Log,
        source: Source,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
        at: SimTime,
    ) {
        let (component, host) = match source {
            Source::Kubelet(m) => ("kubelet", self.machines[m].hostname.clone()),
            Source::Controller(c) => (c, String::new()),
            Source::Scheduler { .. } => ("default-scheduler", String::new()),
        };
        let wall_at = self.config.epoch + at.since_start();
        let mut key_object = object.clone();
        if !matches!(source, Source::Scheduler { .. }) {
            // The legacy recorder's key ignores the resourceVersion.
            key_object.resource_version.clear();
        }
        let key =
            EventKey { component, host: host.clone(), object: key_object, type_, reason, message: message.clone() };
        let mut recorder = match source {
            Source::Kubelet(m) => match self.machines[m].kubelet_mut() {
                Some(k) => std::mem::take(&mut k.recorder),
                None => return,
            },
            _ => std::mem::take(&mut self.controller_recorder),
        };
        let existing = recorder.seen.get(&key).cloned();
        let wall_now = self.wall();
        let mut ctx = Ctx { now: self.now, wall: wall_now, log, rng: &mut self.rng, request: None };
        let (event_key, count) = match existing
            .and_then(|(k, n)| self.api.events.get(&(k.namespace.clone(), k.name.clone())).map(|e| (k, n, e.clone())))
        {
            Some((k, n, stored)) => {
                let count = n + 1;
                let mut e = Event::clone(&stored);
                let write = match source {
                    Source::Scheduler { .. } => {
                        e.series = Some(EventSeries { count, last_observed_time: MicroTime(wall_at) });
                        count == 2
                    }
                    _ => {
                        e.count = Some(count);
                        e.last_timestamp = Some(Time::at(wall_at));
                        true
                    }
                };
                if write {
                    self.api.store_event(&mut ctx, e, ChangeType::Modified);
                }
                (k, count)
            }
            None => {
                let namespace =
                    if object.namespace.is_empty() { "default".to_string() } else { object.namespace.clone() };
                let nanos = wall_at.0 * 1000 + ctx.rng.below(1000) as i64;
                let name = format!("{}.{:x}", object.name, nanos);
                let meta = ObjectMeta {
                    name: name.clone(),
                    namespace: namespace.clone(),
                    uid: ctx.rng.uuid(),
                    creation_timestamp: Some(Time::at(wall_now)),
                    ..ObjectMeta::default()
                };
                let event = match source {
                    Source::Scheduler { action } => Event {
                        kind: "Event",
                        api_version: "v1",
                        metadata: meta,
                        involved_object: object.clone(),
                        reason: reason.into(),
                        message: message.clone(),
                        source: EventSource::default(),
                        first_timestamp: None,
                        last_timestamp: None,
                        count: None,
                        type_: type_.into(),
                        event_time: Some(MicroTime(wall_at)),
                        series: None,
                        action: action.into(),
                        reporting_component: "default-scheduler".into(),
                        reporting_instance: SCHEDULER_INSTANCE.into(),
                    },
                    _ => Event {
                        kind: "Event",
                        api_version: "v1",
                        metadata: meta,
                        involved_object: object.clone(),
                        reason: reason.into(),
                        message: message.clone(),
                        source: EventSource { component: component.into(), host: host.clone() },
                        first_timestamp: Some(Time::at(wall_at)),
                        last_timestamp: Some(Time::at(wall_at)),
                        count: Some(1),
                        type_: type_.into(),
                        event_time: None,
                        series: None,
                        action: String::new(),
                        reporting_component: component.into(),
                        reporting_instance: host.clone(),
                    },
                };
                self.api.store_event(&mut ctx, event, ChangeType::Added);
                (ObjectKey::namespaced(super::objects::Kind::Event, &namespace, &name), 1)
            }
        };
        recorder.seen.insert(key, (event_key.clone(), count));
        match source {
            Source::Kubelet(m) => {
                if let Some(k) = self.machines[m].kubelet_mut() {
                    k.recorder = recorder;
                }
            }
            _ => self.controller_recorder = recorder,
        }
        let seq = log.seq();
        log.events.push(EventRecord {
            seq,
            t: self.now,
            reason: reason.into(),
            type_: type_.into(),
            message,
            object,
            source: component.into(),
            count,
            key: event_key,
        });
    }

    /// Retries the kubelet's undelivered events.
    pub(crate) fn kubelet_flush_events(&mut self, m: usize, log: &mut Log) {
        let cut = self.machines[m].network_cut;
        let Some(k) = self.machines[m].kubelet_mut() else { return };
        let mut pending = std::mem::take(&mut k.pending_events);
        if cut {
            for e in &mut pending {
                e.tries += 1;
            }
            let before = pending.len();
            pending.retain(|e| e.tries <= MAX_TRIES_PER_EVENT);
            let dropped = before - pending.len();
            let again = !pending.is_empty();
            if let Some(k) = self.machines[m].kubelet_mut() {
                k.pending_events = pending;
            }
            if dropped > 0 {
                self.log_line(
                    log,
                    self.machines[m].actor.clone(),
                    format!("\"Unable to write event (retry limit exceeded!)\" ({dropped} event(s) dropped)"),
                );
            }
            if again {
                self.kubelet_after(m, EVENT_RETRY_SLEEP, super::kubelet::KubeletTimer::EventFlush);
            }
            return;
        }
        for e in pending {
            self.write_event(log, Source::Kubelet(m), e.object, e.type_, e.reason, e.message, e.at);
        }
    }
}
