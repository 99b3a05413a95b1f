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

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;
use std::sync::Arc;

use super::shared::Shared;
use super::vecmap::VecMap;

use super::ctx::Io;
use super::objects::{EventRecorder, EventVersion, ObjectKey, ObjectReference, Text};
use super::record::{ChangeType, EventRecord};
use super::rng::Rng;
use super::strings::{cat, hex};
use super::time::SimTime;

/// A cache key kept as a 128-bit digest of its parts (two FxHash passes with different seeds),
/// not as the parts: a process's cache holds tens to hundreds of keys, so two
/// different keys share a digest with odds of about n²/2^128. Each entry then costs 16 bytes and
/// no string, and copying a cache a checkpoint still shares (at a process's first event after
/// each checkpoint) copies no string. The caches are only looked up, never listed, so nothing
/// depends on the digests' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Digest(u64, u64);

impl Digest {
    fn of(parts: &impl Hash) -> Digest {
        let pass = |seed: usize| {
            let mut h = FxHasher::with_seed(seed);
            parts.hash(&mut h);
            h.finish()
        };
        Digest(pass(0x9e37_79b9), pass(0x85eb_ca6b))
    }
}

/// Identifies "the same event" for counting repeats (`getEventKey`): the source, the involved
/// object (for the legacy recorder without its resourceVersion), the type, the reason and the
/// message.
#[derive(Hash)]
struct EventKey<'a> {
    component: &'static str,
    host: &'a str,
    object: [&'a str; 7],
    type_: &'static str,
    reason: &'static str,
    message: &'a str,
}

/// The legacy recorder's aggregation key (`EventAggregatorByReasonFunc`): the source, the
/// involved object without its fieldPath, the type and the reason; not the message (the
/// reporting controller and instance it adds are the source's component and host).
#[derive(Hash)]
struct AggregateKey<'a> {
    component: &'static str,
    host: &'a str,
    object: [&'a str; 5],
    type_: &'static str,
    reason: &'static str,
}

/// The aggregator's record for one [`AggregateKey`] (`aggregateRecord`): the distinct messages
/// seen (their digests, at most [`AGGREGATE_MAX_EVENTS`] − 1 kept), and when the last came.
#[derive(Clone, Debug)]
struct Aggregate {
    messages: Vec<u64>,
    last: SimTime,
}

/// `defaultAggregateMaxEvents`: from the 10th distinct message within the interval, the Event is
/// the combined one.
const AGGREGATE_MAX_EVENTS: usize = 10;
/// `defaultAggregateIntervalInSeconds`: a record older than this since its last event starts
/// afresh.
const AGGREGATE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(600);
/// `EventAggregatorByReasonMessageFunc`'s prefix.
const COMBINED: &str = "(combined from similar events): ";

/// One process's event cache.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorder {
    /// Each event's [`EventKey`] and the Event it was counted on, with its count. Shared with
    /// the checkpoints that copied it until it changes again (copy on write).
    seen: Shared<VecMap<Digest, (Arc<ObjectKey>, i32)>>,
    /// The aggregator's records, by the digest of their [`AggregateKey`].
    aggregates: Shared<VecMap<Digest, Aggregate>>,
    /// The spam filter's token buckets, by the [`SpamKey`] of source, object and type.
    spam: Shared<VecMap<Digest, Bucket>>,
    /// The recorder its last new Event named (a kubelet's names its own host every time): shared
    /// by the Events, which name it alike.
    recorder: Option<Arc<EventRecorder>>,
}

/// The legacy recorder's spam filter key (`getSpamKey`): source, involved object and type; no
/// reason, no message.
#[derive(Hash)]
struct SpamKey<'a> {
    component: &'static str,
    host: &'a str,
    kind: &'a str,
    namespace: &'a str,
    name: &'a str,
    uid: &'a str,
    api_version: &'a str,
    type_: &'static str,
}

/// A token bucket, in microseconds of refill (one token is [`SPAM_REFILL`] of them).
#[derive(Clone, Copy, Debug)]
struct Bucket {
    micros: u64,
    at: SimTime,
}

/// `defaultSpamBurst`: the bucket holds 25 tokens and starts full.
const SPAM_BURST: u64 = 25;
/// `defaultSpamQPS` = 1/300: one token comes back every 300 s.
const SPAM_REFILL: u64 = 300_000_000;

/// Which recorder writes an event.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// The kubelet on the machine with this hostname.
    Kubelet(&'a str),
    /// A kube-controller-manager controller with this component name.
    Controller(&'static str),
    /// kube-scheduler (events.k8s.io/v1).
    Scheduler { action: &'static str },
}

/// The reference the kubelet uses for its Node: the name stands in for the uid.
pub(crate) fn kubelet_node_ref(node: &str) -> ObjectReference {
    let name: Text = node.into();
    ObjectReference { kind: "Node".into(), name: name.clone(), uid: name, ..ObjectReference::default() }
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

/// The reference the taint eviction controller builds for a Pod it knows by name only
/// (`taint_eviction.go` fills in apiVersion, kind, name and namespace): no uid, no
/// resourceVersion, so `kubectl describe pod` (which selects events by uid) does not list it.
pub(crate) fn pod_ref_by_name(namespace: &str, name: &str) -> ObjectReference {
    ObjectReference {
        kind: "Pod".into(),
        namespace: namespace.into(),
        name: name.into(),
        api_version: "v1".into(),
        ..ObjectReference::default()
    }
}

/// The scheduler's host, as it appears in `reportingInstance`.
pub(crate) const SCHEDULER_INSTANCE: &str = "default-scheduler-control-plane";

impl Recorder {
    /// The spam filter (`EventSourceObjectSpamFilter`): whether an emission at `at` from
    /// `source` about `object` of `type_` passes. Each emission, first or repeat, takes a token;
    /// without one it is dropped silently. The scheduler's events.k8s.io recorder has no such
    /// filter.
    pub(crate) fn spam_allows(
        &mut self,
        source: Source<'_>,
        object: &ObjectReference,
        type_: &'static str,
        at: SimTime,
    ) -> bool {
        let (component, host) = match source {
            Source::Kubelet(host) => ("kubelet", host),
            Source::Controller(c) => (c, ""),
            Source::Scheduler { .. } => return true,
        };
        let key = Digest::of(&SpamKey {
            component,
            host,
            kind: &object.kind,
            namespace: &object.namespace,
            name: &object.name,
            uid: &object.uid,
            api_version: &object.api_version,
            type_,
        });
        let full = SPAM_BURST * SPAM_REFILL;
        let bucket = self.spam.get(&key).copied().unwrap_or(Bucket { micros: full, at });
        let refilled = (bucket.micros + at.as_micros().saturating_sub(bucket.at.as_micros())).min(full);
        let (micros, allowed) =
            if refilled >= SPAM_REFILL { (refilled - SPAM_REFILL, true) } else { (refilled, false) };
        self.spam.insert(key, Bucket { micros, at: at.max(bucket.at) });
        allowed
    }

    /// Records an event from `source` about `object` that happened at `at` (now, or earlier for
    /// a kubelet's delayed events): a new Event object, or a repeat counted on the one before.
    /// The caller has passed it through [`Recorder::spam_allows`] when it was emitted.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record(
        &mut self,
        ctx: &mut Io<'_>,
        source: Source<'_>,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
        at: SimTime,
    ) {
        let (component, host): (&'static str, &str) = match source {
            Source::Kubelet(host) => ("kubelet", host),
            Source::Controller(c) => (c, ""),
            Source::Scheduler { .. } => ("default-scheduler", ""),
        };
        let wall_at = ctx.wall_at(at);
        let o = &object;
        // The legacy recorder's key ignores the resourceVersion.
        let rv = if matches!(source, Source::Scheduler { .. }) { o.resource_version.as_str() } else { "" };
        // The legacy recorder aggregates first: from the 10th distinct message for the same
        // source, object, type and reason, the Event is the combined one, counted under the
        // aggregate key.
        let aggregate = match source {
            Source::Scheduler { .. } => None,
            _ => {
                let key = Digest::of(&AggregateKey {
                    component,
                    host,
                    object: [&o.kind, &o.namespace, &o.name, &o.uid, &o.api_version],
                    type_,
                    reason,
                });
                self.aggregate(key, &message, at).then_some(key)
            }
        };
        let (key, message) = match aggregate {
            // (Hashed with a tag, so that it is never the digest of an event's own key.)
            Some(aggregate) => (Digest::of(&("aggregate", aggregate.0, aggregate.1)), cat!(COMBINED, message)),
            None => (
                Digest::of(&EventKey {
                    component,
                    host,
                    object: [&o.kind, &o.namespace, &o.name, &o.uid, &o.api_version, rv, &o.field_path],
                    type_,
                    reason,
                    message: &message,
                }),
                message,
            ),
        };
        let existing = self.seen.get(&key).cloned();
        let message = ctx.share_message(message);
        let object = ctx.share_reference(object);
        let (event_key, count, version) = match existing
            .and_then(|(k, n)| ctx.stored_event(&k.namespace, &k.name).map(|e| (k, n, e)))
        {
            Some((k, n, stored)) => {
                let count = n + 1;
                // The scheduler's recorder writes a series at its second occurrence only.
                let version = if !matches!(source, Source::Scheduler { .. }) || count == 2 {
                    let mut e = EventVersion::clone(&stored);
                    e.count = count;
                    e.last = wall_at;
                    // (A combined Event's patch carries the latest message.)
                    e.message = message.clone();
                    ctx.store_event(e, ChangeType::Modified)
                } else {
                    stored
                };
                (k, count, version)
            }
            None => {
                // (One `default` for the Events of every cluster-scoped object, a Node's.)
                static DEFAULT: std::sync::LazyLock<Text> = std::sync::LazyLock::new(|| "default".into());
                let namespace = if object.namespace.is_empty() { DEFAULT.clone() } else { object.namespace.clone() };
                let nanos = ctx.event_nanos(wall_at);
                // (`{:x}` of the i64, which is never negative here.)
                let name: Text = cat!(object.name, ".", hex(nanos as u64)).into();
                let kept = self.recorder.as_ref().filter(|kept| match (&***kept, source) {
                    (EventRecorder::EventsV1 { component: c, action: a, .. }, Source::Scheduler { action }) => {
                        (*c, *a) == (component, action)
                    }
                    (EventRecorder::Legacy { component: c, host: h }, Source::Kubelet(_) | Source::Controller(_)) => {
                        *c == component && **h == *host
                    }
                    _ => false,
                });
                let recorder = match kept {
                    Some(kept) => kept.clone(),
                    None => {
                        let recorder = match source {
                            Source::Scheduler { action } => {
                                EventRecorder::EventsV1 { component, instance: SCHEDULER_INSTANCE, action }
                            }
                            _ => EventRecorder::Legacy { component, host: host.into() },
                        };
                        self.recorder.insert(Arc::new(recorder)).clone()
                    }
                };
                let event = EventVersion {
                    name: name.clone(),
                    namespace: namespace.clone(),
                    uid: ctx.rng.uuid_value(),
                    resource_version: 0,
                    created: ctx.wall(),
                    involved_object: object.clone(),
                    reason,
                    type_,
                    message: message.clone(),
                    recorder,
                    first: wall_at,
                    last: wall_at,
                    count: 1,
                    built: Default::default(),
                };
                let version = ctx.store_event(event, ChangeType::Added);
                (ctx.object_key(super::objects::Kind::Event, &namespace, &name), 1, version)
            }
        };
        self.seen.insert(key, (event_key.clone(), count));
        let now = ctx.now;
        ctx.push_event_record(|seq| EventRecord { seq, t: now, object, version, count });
    }
}

impl Recorder {
    /// `EventAggregate`: notes `message` under the aggregate key `key` at `at`, and says whether
    /// the event is to be the combined one. A record whose last event is more than 600 s old
    /// starts afresh; at the 10th distinct message one is dropped from the set (`PopAny`; here
    /// the smallest digest, a choice as arbitrary as Go's map order but the same every run), so
    /// every new message after it is combined too.
    fn aggregate(&mut self, key: Digest, message: &str, at: SimTime) -> bool {
        let local = Digest::of(&message).0;
        let fresh = || Aggregate { messages: Vec::new(), last: at };
        let mut record = match self.aggregates.get(&key) {
            Some(r) if at - r.last <= AGGREGATE_INTERVAL => r.clone(),
            _ => fresh(),
        };
        if let Err(i) = record.messages.binary_search(&local) {
            record.messages.insert(i, local);
        }
        record.last = at;
        let combined = record.messages.len() >= AGGREGATE_MAX_EVENTS;
        if combined {
            record.messages.remove(0);
        }
        self.aggregates.insert(key, record);
        combined
    }

    /// Records an event from `source` about `object`, happening now, unless the spam filter
    /// drops it.
    pub(crate) fn event(
        &mut self,
        ctx: &mut Io<'_>,
        source: Source<'_>,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) {
        let now = ctx.now;
        if self.spam_allows(source, &object, type_, now) {
            self.record(ctx, source, object, type_, reason, message, now);
        }
    }

    /// [`Recorder::event`], with the new Event's uid and name drawn from a generator of its own
    /// (keyed by the source, the object, the reason and the instant) instead of the seeded
    /// stream: for Events added to the simulation later, which must not move the run's other
    /// draws (and so its timings).
    pub(crate) fn event_keyed(
        &mut self,
        ctx: &mut Io<'_>,
        source: Source<'_>,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) {
        let component = match source {
            Source::Kubelet(host) => host,
            Source::Controller(c) => c,
            Source::Scheduler { .. } => "default-scheduler",
        };
        let at = ctx.now.as_micros().to_string();
        let mut keyed = Rng::keyed(&["event", component, &object.uid, &object.name, reason, &at]);
        std::mem::swap(ctx.rng, &mut keyed);
        self.event(ctx, source, object, type_, reason, message);
        std::mem::swap(ctx.rng, &mut keyed);
    }
}
