//! A rate-limited client as a component meets it: client-go's `Wait` before every request, and
//! an event broadcaster whose sink writes through the same client (kube-controller-manager's
//! controllers: `StartRecordingToSink` with the controller's own clientset).
//!
//! A component's work is level-triggered, as a controller's sync is: it asks [`Throttled::admit`]
//! before each request and, when there is no token, stops there; the client asks for the
//! component's wake-up timer for when the next token comes, and the component's sync runs again
//! then, from what the store says is still to do. So each request is sent, and logged, when its
//! token comes. Events recorded meanwhile wait in a queue and are written with the tokens the
//! work leaves (the sink's one goroutine asks for a token per Event, behind the workers' requests:
//! a burst of creates goes first, its Events after), each keeping the time it was recorded.

use std::collections::VecDeque;
use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::ctx::Ctx;
use super::events::{Recorder, Source};
use super::flowcontrol::{ClientRate, TokenBucket};
use super::objects::ObjectReference;
use super::record::Actor;
use super::settings::Settings;
use super::time::SimTime;

/// An Event recorded (it passed the spam filter then) and not written yet.
#[derive(Clone, Debug)]
pub(crate) struct PendingEvent {
    pub(crate) object: ObjectReference,
    pub(crate) type_: &'static str,
    pub(crate) reason: &'static str,
    pub(crate) message: String,
    pub(crate) at: SimTime,
}

/// Whose rate a client has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rate {
    /// A kube-controller-manager controller's (`--kube-api-qps`, `--kube-api-burst`).
    ControllerManager,
    /// The garbage collector's metadata client (twice the QPS).
    GarbageCollector,
}

impl Rate {
    fn of(self, settings: &Settings) -> ClientRate {
        match self {
            Rate::ControllerManager => settings.controller_manager_client,
            Rate::GarbageCollector => settings.garbage_collector_client(),
        }
    }
}

/// A component's client: its token bucket, the Events waiting for it and the wake-up it asked for.
#[derive(Clone, Debug)]
pub(crate) struct Throttled {
    /// Made at the rate the settings give the first time the client is used (full, as it would
    /// have been from the start: no token was taken before).
    bucket: Option<TokenBucket>,
    rate: Rate,
    events: VecDeque<PendingEvent>,
    wake: Option<SimTime>,
    /// Whether the work stopped for want of a token (it resumes on the wake-up).
    stopped: bool,
    /// The backlog last noted in the log.
    noted: u32,
}

impl Throttled {
    /// A client at `rate`, its bucket full.
    pub(crate) fn new(rate: Rate) -> Throttled {
        Throttled { bucket: None, rate, events: VecDeque::new(), wake: None, stopped: false, noted: 0 }
    }

    /// The client's bucket, at the rate `settings` give it.
    fn bucket(&mut self, settings: &Settings) -> &mut TokenBucket {
        let rate = self.rate;
        self.bucket.get_or_insert_with(|| TokenBucket::client(rate.of(settings)))
    }

    /// `Wait` for a request the component would send now: takes the token if there is one.
    /// Without one the component stops its work here (it is run again on its wake-up timer,
    /// `wake`, asked for when the next token comes).
    pub(crate) fn admit<T>(&mut self, ctx: &mut Ctx<'_, T>, wake: impl FnOnce() -> T) -> bool {
        let bucket = self.bucket(ctx.settings);
        if bucket.has_token(ctx.now) {
            bucket.reserve(ctx.now);
            true
        } else {
            self.stopped = true;
            self.wait(ctx, wake);
            false
        }
    }

    /// Whether a token is there for the next request, without taking it (the requests then sent
    /// take theirs with [`Throttled::also`]). Without one, as [`Throttled::admit`].
    pub(crate) fn ready<T>(&mut self, ctx: &mut Ctx<'_, T>, wake: impl FnOnce() -> T) -> bool {
        if self.bucket(ctx.settings).has_token(ctx.now) {
            true
        } else {
            self.stopped = true;
            self.wait(ctx, wake);
            false
        }
    }

    /// Takes tokens for `n` more requests sent with the one just admitted: they go together, and
    /// the bucket owes their tokens (the next request waits for them).
    pub(crate) fn also<T>(&mut self, n: u32, ctx: &Ctx<'_, T>) {
        let bucket = self.bucket(ctx.settings);
        for _ in 0..n {
            bucket.reserve(ctx.now);
        }
    }

    /// Whether the work stopped for want of a token and waits for its wake-up.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Asks for the wake-up when the next token comes, unless one is asked for by then.
    fn wait<T>(&mut self, ctx: &mut Ctx<'_, T>, wake: impl FnOnce() -> T) {
        let Some(at) = self.bucket(ctx.settings).ready_at(ctx.now) else { return };
        if self.wake.is_none_or(|w| w > at) {
            self.wake = Some(at);
            ctx.at(at, wake());
        }
    }

    /// The wake-up timer fired: whether it is the one asked for last (the component then runs
    /// its work again, and [`Throttled::write_events`] after it).
    pub(crate) fn woken(&mut self, now: SimTime) -> bool {
        if self.wake != Some(now) {
            return false;
        }
        self.wake = None;
        self.stopped = false;
        true
    }

    /// Records an Event (`recorder.Eventf`) from the component `source`: the spam filter now;
    /// the write now if the client has a token and no Event waits, else in its turn.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn event<T>(
        &mut self,
        recorder: &mut Recorder,
        ctx: &mut Ctx<'_, T>,
        source: &'static str,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
        wake: impl FnOnce() -> T,
    ) {
        let now = ctx.now;
        let from = Source::Controller(source);
        if !recorder.spam_allows(from, &object, type_, now) {
            return;
        }
        if self.events.is_empty() && !self.stopped && self.bucket(ctx.settings).has_token(now) {
            self.bucket(ctx.settings).reserve(now);
            recorder.record(ctx, from, object, type_, reason, message, now);
        } else {
            self.events.push_back(PendingEvent { object, type_, reason, message, at: now });
            self.wait(ctx, wake);
        }
    }

    /// Writes the Events waiting while tokens last, after the work had its turn; asks for the
    /// wake-up again if any still wait, or the work stopped.
    pub(crate) fn write_events<T>(
        &mut self,
        recorder: &mut Recorder,
        ctx: &mut Ctx<'_, T>,
        source: &'static str,
        wake: impl FnOnce() -> T,
    ) {
        let now = ctx.now;
        while !self.stopped && !self.events.is_empty() && self.bucket(ctx.settings).has_token(now) {
            let e = self.events.pop_front().expect("an Event waits");
            self.bucket(ctx.settings).reserve(now);
            recorder.record(ctx, Source::Controller(source), e.object, e.type_, e.reason, e.message, e.at);
        }
        if !self.events.is_empty() || self.stopped {
            self.wait(ctx, wake);
        }
    }

    /// How many Events wait.
    pub(crate) fn events_waiting(&self) -> u32 {
        self.events.len() as u32
    }

    /// Notes in the log the requests `actor` has waiting (`work`, what its sync has still to
    /// send, and the Events), when the number changed.
    pub(crate) fn note<T>(&mut self, actor: Actor, work: u32, ctx: &mut Ctx<'_, T>) {
        let waiting = work + self.events_waiting();
        if waiting != self.noted {
            self.noted = waiting;
            ctx.note_backlog(actor, waiting);
        }
    }
}

impl Default for Throttled {
    /// A kube-controller-manager controller's client.
    fn default() -> Throttled {
        Throttled::new(Rate::ControllerManager)
    }
}

/// The wake-up timer of a component whose only timer it is: its client has a token again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClientWake;

/// Names of objects waiting for a component's client, each once, oldest first (the workqueue of
/// a controller keyed by name). Which names wait is kept apart from their order: a thousand new
/// Nodes are a thousand keys, and finding a key in the order was a thousand comparisons.
#[derive(Clone, Debug, Default)]
pub(crate) struct Keys {
    order: VecDeque<Arc<str>>,
    waiting: FxHashSet<Arc<str>>,
}

impl Keys {
    /// Adds `key` unless it waits already.
    pub(crate) fn add(&mut self, key: &str) {
        if !self.waiting.contains(key) {
            let key: Arc<str> = key.into();
            self.waiting.insert(key.clone());
            self.order.push_back(key);
        }
    }

    /// The oldest key.
    pub(crate) fn front(&self) -> Option<&str> {
        self.order.front().map(|k| &**k)
    }

    /// Takes the oldest key out.
    pub(crate) fn pop(&mut self) -> Option<String> {
        let key = self.order.pop_front()?;
        self.waiting.remove(&key);
        Some(key.to_string())
    }

    pub(crate) fn len(&self) -> u32 {
        self.order.len() as u32
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Probe, matches};

    fn object() -> ObjectReference {
        ObjectReference { kind: "Pod".into(), namespace: "default".into(), name: "web-0".into(), ..Default::default() }
    }

    /// The burst goes at once, Events taking tokens too; without a token the work stops and a
    /// wake-up is asked for when the next comes; an Event recorded meanwhile waits, and is
    /// written on the wake-up once the work has had its turn.
    #[test]
    fn work_stops_without_a_token_and_events_wait_behind_it() {
        let mut probe = Probe::new();
        let mut client = Throttled::default();
        let mut recorder = Recorder::default();
        let out = probe.input::<ClientWake>(|ctx| {
            for _ in 0..29 {
                assert!(client.admit(ctx, || ClientWake));
            }
            client.event(&mut recorder, ctx, "test", object(), "Normal", "First", "one".into(), || ClientWake);
            assert!(!client.admit(ctx, || ClientWake), "the burst is spent");
            assert!(client.is_stopped());
            client.event(&mut recorder, ctx, "test", object(), "Normal", "Second", "two".into(), || ClientWake);
            client.note(Actor::ReplicaSetController, 1, ctx);
        });
        assert!(matches(&out, &["event First: one", "timer +50ms ClientWake"]), "{out:#?}");
        assert_eq!(probe.log().backlog_at(&Actor::ReplicaSetController, SimTime::ZERO), 2);
        // A wake-up that is not the one asked for does nothing.
        probe.now = SimTime::ZERO + std::time::Duration::from_millis(10);
        assert!(!client.woken(probe.now));
        probe.now = SimTime::ZERO + std::time::Duration::from_millis(50);
        let out = probe.input::<ClientWake>(|ctx| {
            assert!(client.woken(ctx.now));
            client.write_events(&mut recorder, ctx, "test", || ClientWake);
        });
        assert!(matches(&out, &["event Second: two"]), "{out:#?}");
        let written: Vec<u64> = probe.log().events.iter().map(|e| e.t.as_millis()).collect();
        assert_eq!(written, [0, 50]);
    }
}
