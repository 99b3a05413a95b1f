//! Driving one component alone, in unit tests: a store, a log and a generator of its own, one
//! input at a time; what comes out is read back as short lines (requests, Events, timers), so a
//! test case is a table of inputs and expected lines, in the style of raft-rs's data-driven tests.

use std::time::Duration;

use crate::apiserver::{ApiOp, ApiServer};
use crate::ctx::{Bus, Ctx};
use crate::objects::{Node, Object, Taint};
use crate::profile::Profile;
use crate::record::{Actor, Log, Outcome};
use crate::rng::Rng;
use crate::settings::Settings;
use crate::time::{SimTime, WallTime, format_go_duration};

/// A world with no components: the store, the log and the generator a component acts on.
pub(crate) struct Probe {
    pub(crate) now: SimTime,
    api: ApiServer,
    log: Log,
    rng: Rng,
    bus: Bus,
    settings: Settings,
    /// When the timers the last input asked for are due.
    timers: Vec<SimTime>,
}

impl Probe {
    pub(crate) fn new() -> Probe {
        Probe {
            now: SimTime::ZERO,
            api: ApiServer::with_resource_version(1_000),
            log: Log::default(),
            rng: Rng::new(1),
            bus: Bus::default(),
            settings: Settings::defaults(Profile::V1_34),
            timers: Vec::new(),
        }
    }

    /// Hands one input to a component through a fresh context; returns what came out: one line
    /// per request (`METHOD path -> code`), per Event (`event Reason: message`) and per timer
    /// asked for (`timer +delay Timer`), in that order.
    pub(crate) fn input<T: std::fmt::Debug>(&mut self, f: impl FnOnce(&mut Ctx<'_, T>)) -> Vec<String> {
        let (requests, events) = (self.log.requests.len(), self.log.events.len());
        let mut ctx = Ctx::new(
            self.now,
            WallTime(0),
            Profile::V1_34,
            &self.settings,
            &mut self.rng,
            &mut self.api,
            &mut self.log,
            &mut self.bus,
        );
        f(&mut ctx);
        let timers: Vec<_> = ctx.finish().into_iter().collect();
        self.timers = timers.iter().map(|(at, _, _)| *at).collect();
        let mut out: Vec<String> = self
            .log
            .requests
            .iter_from(requests)
            .map(|r| {
                let outcome = match r.outcome {
                    Outcome::Code(c) => c.to_string(),
                    Outcome::Timeout => "timeout".into(),
                };
                format!("{} {} -> {outcome}", r.method.as_str(), r.path)
            })
            .collect();
        out.extend(self.log.events.iter_from(events).map(|e| format!("event {}: {}", e.reason(), e.message())));
        out.extend(timers.into_iter().map(|(at, _, timer)| {
            let delay = Duration::from_millis((at - self.now).as_millis() as u64);
            format!("timer +{} {timer:?}", format_go_duration(delay))
        }));
        out
    }

    /// Moves the clock to each timer the component asks for, up to `until`, and hands it `wake`
    /// then, until it asks for none (a rate-limited client's wake-ups). Returns when each request
    /// since the start was sent, in milliseconds, with its method.
    pub(crate) fn run_timers<T: std::fmt::Debug>(
        &mut self,
        until: SimTime,
        mut wake: impl FnMut(&mut Ctx<'_, T>),
    ) -> Vec<(u64, String)> {
        while let Some(next) = self.timers.iter().copied().filter(|t| *t <= until).min() {
            self.now = next;
            self.input::<T>(&mut wake);
        }
        self.log.requests.iter().map(|r| (r.t.as_millis(), r.method.as_str().to_string())).collect()
    }

    /// The log lines written since the first `from` (`journalctl`'s view of a component).
    pub(crate) fn lines_from(&self, from: usize) -> Vec<String> {
        self.log.lines.iter_from(from).map(|l| format!("log {}", l.message)).collect()
    }

    /// How many log lines have been written.
    pub(crate) fn line_count(&self) -> usize {
        self.log.lines.len()
    }

    /// The log, to check what a component recorded.
    pub(crate) fn log(&self) -> &Log {
        &self.log
    }

    /// The settings the components read, to set one.
    pub(crate) fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The store, to check what a component left in it.
    pub(crate) fn store(&self) -> &ApiServer {
        &self.api
    }

    /// The generator, to build what a component is made of.
    pub(crate) fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// Sends a request as an administrator would, to set the scene.
    pub(crate) fn given(&mut self, op: ApiOp) -> Object {
        let mut reply = None;
        self.input::<()>(|ctx| reply = ctx.call(Actor::Kubectl, None, op).ok());
        reply.expect("the scene's request succeeds")
    }

    /// A registered Node named `name`, its taints replaced by `taints`.
    pub(crate) fn given_node(&mut self, name: &str, taints: Vec<Taint>) {
        self.given(ApiOp::CreateNode(Node::new(name)));
        self.given(ApiOp::PatchNodeTaints { name: name.into(), taints });
    }
}

/// `n` new Nodes, `node-0` … each handed at once to a controller keyed by Node name; its
/// client's wake-ups then run until it asks for none. Returns the probe and when each of the
/// controller's requests was sent (ms).
pub(crate) fn nodes_through<C, T: std::fmt::Debug>(
    n: usize,
    controller: &mut C,
    change: impl Fn(&mut C, &str, &mut Ctx<'_, T>),
    wake: impl Fn(&mut C, &mut Ctx<'_, T>),
) -> (Probe, Vec<u64>) {
    let mut probe = Probe::new();
    let names: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
    for name in &names {
        probe.given_node(name, Vec::new());
    }
    let from = probe.log().requests.len();
    probe.input::<T>(|ctx| names.iter().for_each(|name| change(controller, name, ctx)));
    let sent = probe.run_timers::<T>(SimTime::MAX, |ctx| wake(controller, ctx));
    let times = sent[from..].iter().map(|(t, _)| *t).collect();
    (probe, times)
}

/// The times (ms) a client at `qps` with a full bucket of `burst` sends `n` requests asked for
/// at `t0`: the burst at once, then one each `1/qps` s.
pub(crate) fn paced(t0: u64, n: usize, burst: usize, qps: f64) -> Vec<u64> {
    (0..n).map(|i| if i < burst { t0 } else { t0 + ((i + 1 - burst) as f64 * 1000.0 / qps).round() as u64 }).collect()
}

/// Whether output lines match the expected ones, where a `*` in an expected line stands for any
/// text (a jittered delay, a generated uid).
pub(crate) fn matches(got: &[String], want: &[&str]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| match w.split_once('*') {
            Some((head, tail)) => g.len() >= head.len() + tail.len() && g.starts_with(head) && g.ends_with(tail),
            None => g == w,
        })
}

#[cfg(test)]
mod recorder_tests {
    use super::*;
    use crate::events::{Recorder, SCHEDULER_INSTANCE, Source};
    use crate::objects::EventRecorder;
    use crate::objects::ObjectReference;
    use std::sync::Arc;

    /// A recorder's new Events name it with one shared value while it names itself alike, and
    /// with a new one when it names another component or host.
    #[test]
    fn events_of_one_recorder_share_what_names_it() {
        let mut probe = Probe::new();
        let mut recorder = Recorder::default();
        let pod = |name: &str| ObjectReference {
            kind: "Pod".into(),
            namespace: "default".into(),
            name: name.into(),
            ..Default::default()
        };
        probe.input::<()>(|ctx| {
            recorder.event(ctx, Source::Kubelet("node-1"), pod("a"), "Normal", "Pulled", "pulled a".into());
            recorder.event(ctx, Source::Kubelet("node-1"), pod("b"), "Normal", "Pulled", "pulled b".into());
            recorder.event(ctx, Source::Kubelet("node-2"), pod("c"), "Normal", "Pulled", "pulled c".into());
            recorder.event(ctx, Source::Scheduler { action: "Binding" }, pod("d"), "Normal", "Scheduled", "d".into());
        });
        let events = &probe.log().events;
        let names: Vec<&EventRecorder> = events.iter().map(|e| &*e.version.recorder).collect();
        assert_eq!(
            names,
            [
                &EventRecorder::Legacy { component: "kubelet", host: "node-1".into() },
                &EventRecorder::Legacy { component: "kubelet", host: "node-1".into() },
                &EventRecorder::Legacy { component: "kubelet", host: "node-2".into() },
                &EventRecorder::EventsV1 {
                    component: "default-scheduler",
                    instance: SCHEDULER_INSTANCE,
                    action: "Binding"
                },
            ]
        );
        assert!(Arc::ptr_eq(&events[0].version.recorder, &events[1].version.recorder), "one value for node-1's");
        assert!(!Arc::ptr_eq(&events[1].version.recorder, &events[2].version.recorder));
    }

    /// client-go's aggregator: a ReplicaSet creating 25 Pods records 9 Events of their own, then
    /// one `(combined from similar events): …` Event counted 16 times, its message the latest; a
    /// quiet 10 minutes later the aggregator starts afresh. The scheduler's recorder does not
    /// aggregate.
    #[test]
    fn the_tenth_distinct_message_is_combined() {
        let mut probe = Probe::new();
        let mut recorder = Recorder::default();
        let rs = ObjectReference {
            kind: "ReplicaSet".into(),
            namespace: "default".into(),
            name: "web-85df99fd58".into(),
            uid: "u".into(),
            api_version: "apps/v1".into(),
            ..Default::default()
        };
        let source = Source::Controller("replicaset-controller");
        probe.input::<()>(|ctx| {
            for i in 0..25 {
                let message = format!("Created pod: web-85df99fd58-{i:05}");
                recorder.event(ctx, source, rs.clone(), "Normal", "SuccessfulCreate", message);
            }
        });
        let events = &probe.log().events;
        assert_eq!(events.len(), 25);
        let combined: Vec<_> = events.iter().filter(|e| e.message().starts_with("(combined")).collect();
        assert_eq!(combined.len(), 16, "the 10th to the 25th");
        assert!(events.iter().take(9).all(|e| e.count == 1 && e.message().starts_with("Created pod: ")));
        assert_eq!(events[9].message(), "(combined from similar events): Created pod: web-85df99fd58-00009");
        assert_eq!(events[9].count, 1);
        assert_eq!(events[24].message(), "(combined from similar events): Created pod: web-85df99fd58-00024");
        assert_eq!(events[24].count, 16, "one Event, its count rising");
        assert_eq!(events[24].version.name, events[9].version.name);
        assert!(events[9].version.name.starts_with("web-85df99fd58."));

        // Ten minutes and a second later, the aggregator starts afresh.
        probe.now = probe.now + std::time::Duration::from_secs(601);
        probe.input::<()>(|ctx| {
            let message = "Created pod: web-85df99fd58-99999".to_string();
            recorder.event(ctx, source, rs.clone(), "Normal", "SuccessfulCreate", message);
        });
        assert_eq!(probe.log().events.last().map(|e| e.message()), Some("Created pod: web-85df99fd58-99999"));

        // The events.k8s.io recorder (the scheduler's) has no aggregator.
        let mut scheduler = Recorder::default();
        probe.input::<()>(|ctx| {
            for i in 0..12 {
                let pod = ObjectReference { kind: "Pod".into(), name: "p".into(), ..Default::default() };
                let source = Source::Scheduler { action: "Scheduling" };
                scheduler.event(ctx, source, pod, "Warning", "FailedScheduling", format!("message {i}"));
            }
        });
        assert!(
            !probe.log().events.iter().any(|e| e.message().starts_with("(combined") && e.message().contains("message"))
        );
    }
}
