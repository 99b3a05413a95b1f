//! What the stage's tests share: hand-made requests and logs, and scenes from real timelines.

use super::layout::Layout;
use super::packets::Timing;
use super::scene::Scene;
use crate::i18n::Lang;
use crate::sim::{
    Actor, Chapter, Config, HEARTBEAT_TIMEOUT, Log, Method, Outcome, Request, SimTime, Timeline, parse_actions,
};
use crate::view::session::Session;

pub(super) fn req(seq: u64, ms: u64, actor: Actor, method: Method, path: &str, outcome: Outcome) -> Request {
    let t = SimTime::from_millis(ms);
    let end = if outcome == Outcome::Timeout { t + HEARTBEAT_TIMEOUT } else { t };
    Request {
        seq,
        t,
        end,
        actor,
        node: Default::default(),
        method,
        path: path.into(),
        query: "".into(),
        content_type: None,
        outcome,
        no_answer: None,
        body: None,
        response: None,
        changes: Default::default(),
    }
}

pub(super) fn kubelet() -> Actor {
    Actor::Kubelet("node-1".into())
}

pub(super) const LEASE: &str = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1";

pub(super) fn log_of(requests: Vec<Request>) -> Log {
    let mut log = Log::default();
    log.requests = requests.into_iter().collect();
    log
}

pub(super) fn session(chapter: Chapter, actions: &str, t: SimTime) -> Session {
    let actions = parse_actions(actions).expect("actions");
    let mut s = Session::new(Timeline::with_actions(chapter, Config::default(), &actions));
    s.ensure(t);
    s
}

pub(super) fn scene_at(chapter: Chapter, actions: &str, secs: u64, layout: Layout) -> Scene {
    let t = SimTime::from_secs(secs);
    Scene::build(&session(chapter, actions, t), t, Timing::new(1.0, false), layout, Lang::En)
}

/// A scene with one machine link (straight down) for packet tests.
pub(super) fn scene() -> Scene {
    scene_at(Chapter::Registration, "", 60, Layout::Wide)
}
