//! Queries on a timeline's log that the questions' derivations are written in: the first event,
//! request, taint or condition change from a moment on. Each returns the moment (and the log
//! sequence number, which orders simultaneous records).

use crate::sim::objects::Object;
use crate::sim::record::EventRecord;
use crate::sim::{ActionKind, Actor, Log, Method, Request, SimTime};
use std::borrow::Cow;

/// A moment in the log: its time and sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct At {
    pub t: SimTime,
    pub seq: u64,
}

/// The first applied (not rejected) input of `kind`.
pub(super) fn input(log: &Log, kind: ActionKind) -> Option<SimTime> {
    log.inputs.iter().find(|i| i.action.kind == kind && i.rejected.is_none()).map(|i| i.t)
}

/// The first event from `from` on with this reason, about an object whose name starts with
/// `object` and whose message contains `contains`.
pub(super) fn event<'a>(
    log: &'a Log,
    from: SimTime,
    reason: &str,
    object: &str,
    contains: &str,
) -> Option<&'a EventRecord> {
    log.events.iter().find(|e| {
        e.t >= from && e.reason() == reason && e.object.name.starts_with(object) && e.message().contains(contains)
    })
}

/// The moment of an event.
pub(super) fn event_at(e: &EventRecord) -> At {
    At { t: e.t, seq: e.seq }
}

/// The kubelet on machine `machine`, as a request's actor.
pub(super) fn kubelet(machine: &str) -> Actor {
    Actor::Kubelet(machine.into())
}

/// The first request from `from` on by `actor` with this method and a path ending with
/// `path_ends`.
pub(super) fn request<'a>(
    log: &'a Log,
    from: SimTime,
    actor: &Actor,
    method: Method,
    path_ends: &str,
) -> Option<Cow<'a, Request>> {
    log.requests.iter().find(|r| r.t >= from && r.method == method && r.path.ends_with(path_ends) && r.actor == *actor)
}

/// The last successful request before `before` by `actor` with this method and path ending.
pub(super) fn last_success_before<'a>(
    log: &'a Log,
    before: SimTime,
    actor: &Actor,
    method: Method,
    path_ends: &str,
) -> Option<Cow<'a, Request>> {
    log.requests.iter().rev().find(|r| {
        r.t < before && r.method == method && r.outcome.is_success() && r.path.ends_with(path_ends) && r.actor == *actor
    })
}

/// The moment of a request.
pub(super) fn request_at(r: &Request) -> At {
    At { t: r.t, seq: r.seq }
}

/// The first moment from `from` on that Node `node` carries (`present`) or no longer carries
/// (`!present`) the taint.
pub(super) fn taint(log: &Log, from: SimTime, node: &str, key: &str, effect: &str, present: bool) -> Option<At> {
    log.changes()
        .kept_whole()
        .find(|c| {
            c.t >= from
                && matches!(&c.object(), Object::Node(n) if n.metadata.name == node && n.has_taint(key, effect) == present)
        })
        .map(|c| At { t: c.t, seq: c.seq })
}

/// The first version of Node `node` from `from` on whose `Ready` status differs from
/// `before`, with that status.
pub(super) fn ready_change(log: &Log, from: SimTime, node: &str, before: Option<&str>) -> Option<(At, String)> {
    log.changes().kept_whole().find_map(|c| match &c.object() {
        Object::Node(n) if c.t >= from && n.metadata.name == node && n.ready_status() != before => {
            Some((At { t: c.t, seq: c.seq }, n.ready_status().unwrap_or_default().to_string()))
        }
        _ => None,
    })
}

/// The first moment from `from` on that a Pod which did not exist before `from` is bound to a
/// node, and that node.
pub(super) fn new_pod_bound(log: &Log, from: SimTime) -> Option<(At, String)> {
    let existed = |name: &str| {
        log.changes()
            .kept_whole()
            .take_while(|c| c.t < from)
            .any(|c| matches!(&c.object(), Object::Pod(p) if p.metadata.name == name))
    };
    log.changes().kept_whole().find_map(|c| match &c.object() {
        Object::Pod(p) if c.t >= from && !p.spec.node_name.is_empty() && !existed(&p.metadata.name) => {
            Some((At { t: c.t, seq: c.seq }, p.spec.node_name.clone()))
        }
        _ => None,
    })
}
