//! What the inspector's tests share: objects made by hand, and a chapter run.

use std::borrow::Cow;
use std::time::Duration;

use crate::sim::objects::{
    Container, ContainerState, ContainerStateRunning, ContainerStateWaiting, ContainerStatus, Event, EventSource,
    Lease, MicroTime, Node, NodeCondition, ObjectMeta, ObjectReference, Pod, PodSpec, PodStatus, Time,
};
use crate::sim::{Chapter, Config, SimTime, Timeline, WallTime};

pub(super) fn w(s: &str) -> WallTime {
    WallTime::parse_rfc3339(s).unwrap()
}

pub(super) fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

pub(super) fn condition(
    ty: &'static str,
    status: &'static str,
    reason: &'static str,
    hb: &str,
    tr: &str,
) -> NodeCondition {
    NodeCondition::new(
        Cow::Borrowed(ty),
        Cow::Borrowed(status),
        Time(w(hb)),
        Time(w(tr)),
        Cow::Borrowed(reason),
        Cow::Borrowed("m"),
    )
}

pub(super) fn node(ready: Option<&'static str>) -> Node {
    let mut n = Node::new("node-1");
    n.metadata.creation_timestamp = Some(Time(w("2026-03-02T09:00:00Z")));
    n.status.conditions.push(condition(
        "MemoryPressure",
        "False",
        "KubeletHasSufficientMemory",
        "2026-03-02T09:00:00Z",
        "2026-03-02T09:00:00Z",
    ));
    if let Some(s) = ready {
        n.status.conditions.push(condition("Ready", s, "KubeletReady", "2026-03-02T09:00:40Z", "2026-03-02T09:00:40Z"));
    }
    n
}

pub(super) fn lease(renew: &str) -> Lease {
    let mut l = Lease::new("kube-node-lease", "node-1");
    l.spec.holder_identity = Some("node-1".into());
    l.spec.lease_duration_seconds = Some(40);
    l.spec.renew_time = Some(MicroTime(w(renew)));
    l
}

pub(super) fn pod(phase: &'static str, statuses: Vec<ContainerStatus>) -> Pod {
    Pod {
        kind: "Pod",
        api_version: "v1",
        metadata: ObjectMeta {
            name: "web-1".into(),
            namespace: "default".into(),
            creation_timestamp: Some(Time(w("2026-03-02T09:00:00Z"))),
            ..ObjectMeta::default()
        },
        spec: PodSpec {
            containers: vec![Container {
                name: "web".into(),
                image: "nginx".into(),
                resources: Default::default(),
                volume_mounts: Vec::new(),
                termination_message_path: "".into(),
                termination_message_policy: "".into(),
                image_pull_policy: "".into(),
            }]
            .into(),
            ..PodSpec::default()
        }
        .into(),
        status: PodStatus { phase: phase.into(), container_statuses: statuses.into(), ..PodStatus::default() }.into(),
    }
}

pub(super) fn status(waiting: Option<&str>, running: bool, ready: bool) -> ContainerStatus {
    ContainerStatus {
        name: "web".into(),
        state: ContainerState {
            waiting: waiting.map(|r| ContainerStateWaiting { reason: r.to_string().into(), message: "".into() }),
            running: running.then(|| ContainerStateRunning { started_at: Time(w("2026-03-02T09:00:05Z")) }),
            terminated: None,
        },
        last_state: ContainerState::default(),
        ready,
        restart_count: 0,
        image: "nginx".into(),
        image_id: "".into(),
        container_id: "".into(),
        started: running,
    }
}

pub(super) fn event(count: Option<i32>, first: &str, last: &str) -> Event {
    Event {
        kind: "Event",
        api_version: "v1",
        metadata: ObjectMeta { name: "node-1.1".into(), namespace: "default".into(), ..ObjectMeta::default() },
        involved_object: ObjectReference { kind: "Node".into(), name: "node-1".into(), ..Default::default() }.into(),
        reason: "NodeHasSufficientMemory",
        message: "Node node-1 status is now: NodeHasSufficientMemory".into(),
        source: EventSource { component: "kubelet", host: "node-1".into() },
        first_timestamp: Some(Time(w(first))),
        last_timestamp: Some(Time(w(last))),
        count,
        type_: "Normal",
        event_time: None,
        series: None,
        action: "",
        reporting_component: "kubelet",
        reporting_instance: "node-1".into(),
    }
}

pub(super) fn registration() -> Timeline {
    let mut tl = Timeline::new(Chapter::Registration, Config::default());
    tl.run_until(SimTime::from_secs(400));
    tl
}
