//! The controller's client and its rate limit. kube-controller-manager builds each controller its
//! own client at `--kube-api-qps` 20, `--kube-api-burst` 30, and the node lifecycle controller's
//! Events go through the same client (`StartRecordingToSink` with
//! `v1core.New(nc.kubeClient.CoreV1().RESTClient())`): every request and every Event it writes
//! takes a token of one bucket, and waits for one when there is none.
//!
//! What waits, taking turns as tokens come: the Events recorded and not written yet (the
//! broadcaster's sink writes them one after the other), the Nodes whose NoSchedule taints are to
//! change (`nodeUpdateQueue`), and the monitor pass, stopped at the Node whose first request
//! found no token. The requests one Node's check makes (its status, its Pods' statuses, a taint)
//! are sent together when the first has its token, and the next Node waits until the bucket has
//! made up for them (client-go sends each when its own token comes, 50 ms apart at 20/s).

use super::*;
use crate::client::{Keys, PendingEvent};
use crate::flowcontrol::TokenBucket;
use crate::objects::{ObjectReference, Text};
use std::collections::VecDeque;

/// The Events' source component.
pub(super) const COMPONENT: &str = "node-controller";

/// The controller's client, and what waits for its tokens.
#[derive(Clone, Debug, Default)]
pub(super) struct Client {
    pub(super) bucket: TokenBucket,
    /// Events recorded (they passed the spam filter then) and not written yet, oldest first.
    events: VecDeque<PendingEvent>,
    /// Nodes whose NoSchedule taints are to change, in the order their changes came (each once).
    no_schedule: Keys,
    /// Nodes whose NoExecute taints master disruption mode is removing, in order.
    reachable: VecDeque<Text>,
    /// When a `Client` timer is asked for.
    wake: Option<SimTime>,
    /// The backlog last noted in the log.
    noted: u32,
    /// How many requests it has sent.
    pub(super) sent: u64,
    /// Whose turn it is among what waits ([`TURNS`]).
    turn: u32,
}

/// What waits for the client's tokens.
#[derive(Clone, Copy)]
enum Job {
    Events,
    NoSchedule,
    Pass,
}

/// One round of turns: the Event writer's one, then the NoSchedule workers' and the monitor
/// pass's eight each, alternating (`nodeUpdateWorkerSize`).
const TURNS: u32 = 17;

impl NodeLifecycle {
    /// Sends a request through the client: it takes a token (the bucket may owe tokens after it,
    /// which the next Node waits for).
    pub(super) fn send(&mut self, op: ApiOp, query: &'static str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> Reply {
        self.client.bucket.reserve(ctx.now);
        self.client.sent += 1;
        ctx.call_with(ACTOR, None, op, query)
    }

    /// Whether the client has a token now (a Node's first request waits for one).
    pub(super) fn client_ready(&self, now: SimTime) -> bool {
        self.client.bucket.has_token(now)
    }

    /// Records an Event (`recorder.Eventf`): the spam filter now, the write when the client has
    /// a token for it, after the Events before it.
    pub(super) fn emit(
        &mut self,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) {
        let now = ctx.now;
        let source = Source::Controller(COMPONENT);
        if !self.recorder.spam_allows(source, &object, type_, now) {
            return;
        }
        if self.client.events.is_empty() && self.client_ready(now) {
            self.client.bucket.reserve(now);
            self.recorder.record(ctx, source, object, type_, reason, message, now);
        } else {
            self.client.events.push_back(PendingEvent { object, type_, reason, message, at: now });
            self.wait_for_client(ctx);
        }
    }

    /// Input: a Node changed. Its NoSchedule taints are brought in line now if nothing waits for
    /// the client, else when its turn comes (read again then).
    pub(super) fn queue_no_schedule_pass(&mut self, name: &str, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if self.client.no_schedule.is_empty() && self.client_ready(ctx.now) {
            self.no_schedule_tainting_pass(name, ctx);
            return;
        }
        let changes = ctx.store().node(name).is_some_and(|n| Self::no_schedule_diff(n).is_some());
        if changes {
            self.client.no_schedule.add(name);
            self.wait_for_client(ctx);
        }
    }

    /// Asks for a `Client` timer when the next token comes, unless one comes sooner.
    pub(super) fn wait_for_client(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let Some(at) = self.client.bucket.ready_at(ctx.now) else { return };
        if self.client.wake.is_none_or(|w| w > at) {
            self.client.wake = Some(at);
            ctx.at(at, NodeLifecycleTimer::Client);
        }
    }

    /// Input: the client has a token: what waits takes turns (an Event, a Node's NoSchedule
    /// taints, the monitor pass's next Nodes) while tokens last.
    pub(super) fn on_client_ready(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        if self.client.wake != Some(ctx.now) {
            return;
        }
        self.client.wake = None;
        let now = ctx.now;
        while self.client_ready(now) {
            // Turns as client-go's waiters get them: eight monitor workers, eight NoSchedule
            // workers and the one goroutine that writes Events each wait for a token in turn.
            let order = match self.client.turn % TURNS {
                0 => [Job::Events, Job::NoSchedule, Job::Pass],
                t if t % 2 == 1 => [Job::NoSchedule, Job::Pass, Job::Events],
                _ => [Job::Pass, Job::NoSchedule, Job::Events],
            };
            self.client.turn = self.client.turn.wrapping_add(1);
            if !order.into_iter().any(|job| self.take_turn(job, ctx)) {
                break;
            }
        }
        if !self.client.events.is_empty()
            || !self.client.no_schedule.is_empty()
            || !self.client.reachable.is_empty()
            || self.pass.is_some()
        {
            self.wait_for_client(ctx);
        }
    }

    /// Gives `job` a token's worth of work. Returns whether it had any.
    fn take_turn(&mut self, job: Job, ctx: &mut Ctx<'_, NodeLifecycleTimer>) -> bool {
        let now = ctx.now;
        match job {
            Job::Events => {
                let Some(e) = self.client.events.pop_front() else { return false };
                self.client.bucket.reserve(now);
                let source = Source::Controller(COMPONENT);
                self.recorder.record(ctx, source, e.object, e.type_, e.reason, e.message, e.at);
                true
            }
            Job::NoSchedule => {
                let Some(name) = self.client.no_schedule.pop() else { return false };
                self.no_schedule_tainting_pass(&name, ctx);
                true
            }
            Job::Pass => {
                if let Some(name) = self.client.reachable.pop_front() {
                    self.mark_node_as_reachable(&name, ctx);
                    return true;
                }
                self.pass.is_some() && self.resume_pass(ctx)
            }
        }
    }

    /// The requests waiting for the client now: the Events not written, two for each Node whose
    /// taints wait to change (GET and PATCH), and those the monitor pass has still to send.
    pub(super) fn backlog(&self) -> u32 {
        let pass = self.pass.as_ref().map_or(0, |p| p.expected.saturating_sub(p.sent));
        let nodes = self.client.no_schedule.len() + self.client.reachable.len() as u32;
        self.client.events.len() as u32 + 2 * nodes + pass
    }

    /// `markNodeAsReachable` as master disruption mode calls it for every Node: at once for a
    /// Node without a NoExecute taint (it only leaves its zone's queue), else when the client
    /// has tokens for its requests.
    pub(super) fn mark_reachable_soon(&mut self, name: &Text, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let tainted = ctx.store().node(name).is_some_and(|n| carries_no_execute(n));
        if !tainted || (self.client.reachable.is_empty() && self.client_ready(ctx.now)) {
            self.mark_node_as_reachable(name, ctx);
        } else {
            self.client.reachable.push_back(name.clone());
            self.wait_for_client(ctx);
        }
    }

    /// Notes the backlog in the log when it changed.
    pub(super) fn note_backlog(&mut self, ctx: &mut Ctx<'_, NodeLifecycleTimer>) {
        let waiting = self.backlog();
        if waiting != self.client.noted {
            self.client.noted = waiting;
            ctx.note_backlog(ACTOR, waiting);
        }
    }
}
