//! The chapters: a starting cluster, the scripted inputs, and the steps, which are named moments
//! of the resulting timeline found by what happens (an event, a request, a taint), not by fixed
//! frames.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

mod maintenance;

use super::action::{Action, ActionKind};
use super::machine::MachineSpec;
use super::objects::{Kind, Object};
use super::record::{Log, Method};
use super::time::{SimTime, millis, secs};

/// A ReplicaSet a scenario starts with (owned by a Deployment, as `kubectl create deployment`
/// would make it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaSetSpec {
    /// The Deployment's name; the ReplicaSet is `<name>-<pod-template-hash>`.
    pub deployment: String,
    pub replicas: i32,
    /// When the Deployment is created.
    pub created_after: Duration,
}

/// The three chapters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Chapter {
    /// How a machine becomes a Node.
    #[default]
    Registration,
    /// "Kill kubelet": NotReady, Unknown, taints, eviction, replacement.
    NodeFailure,
    /// The kubelet comes back.
    KubeletRestart,
    /// Cordon, drain against a PodDisruptionBudget, uncordon.
    Maintenance,
}

impl Chapter {
    /// All chapters, in story order.
    pub const ALL: [Chapter; 4] =
        [Chapter::Registration, Chapter::NodeFailure, Chapter::KubeletRestart, Chapter::Maintenance];

    /// The chapter's id in URLs and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Chapter::Registration => "registration",
            Chapter::NodeFailure => "node-failure",
            Chapter::KubeletRestart => "kubelet-restart",
            Chapter::Maintenance => "maintenance",
        }
    }

    /// The chapter named `id` (also accepting the `cluster-node-*` scheme names of the card that
    /// inspired nodeline).
    pub fn from_id(id: &str) -> Option<Chapter> {
        match id {
            "registration" | "cluster-node-registration" => Some(Chapter::Registration),
            "node-failure" | "cluster-node-failure" => Some(Chapter::NodeFailure),
            "kubelet-restart" | "cluster-node-restart" => Some(Chapter::KubeletRestart),
            "maintenance" => Some(Chapter::Maintenance),
            _ => None,
        }
    }

    /// The chapter's 1-based number.
    pub fn number(self) -> usize {
        Chapter::ALL.iter().position(|c| *c == self).expect("listed") + 1
    }

    /// The scenario behind the chapter.
    pub fn scenario(self) -> Scenario {
        match self {
            Chapter::Registration => registration(),
            Chapter::NodeFailure => node_failure(),
            Chapter::KubeletRestart => kubelet_restart(),
            Chapter::Maintenance => maintenance::maintenance(),
        }
    }
}

impl fmt::Display for Chapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What marks a step's moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A fixed time.
    At(Duration),
    /// The first applied input of this kind.
    Input(ActionKind),
    /// The first event with this reason whose message contains the text.
    Event { reason: &'static str, contains: &'static str },
    /// The first request with this method whose path ends with the text.
    Request { method: Method, path_ends: &'static str },
    /// The first moment the Node carries this taint.
    Taint { node: &'static str, key: &'static str, effect: &'static str },
    /// The first line the reader's kubectl prints (stdout or stderr) that contains the text.
    Kubectl { contains: &'static str },
}

/// One step of a chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepSpec {
    pub anchor: Anchor,
    /// How long before the anchor the step starts, so that playing from it shows the moment.
    pub lead: Duration,
}

/// A chapter's starting cluster and script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub chapter: Chapter,
    pub machines: Vec<MachineSpec>,
    pub replicasets: Vec<ReplicaSetSpec>,
    /// Inputs the chapter applies by itself.
    pub script: Vec<Action>,
    pub steps: Vec<StepSpec>,
    /// How long the chapter's story runs.
    pub duration: Duration,
}

pub(crate) fn step(anchor: Anchor, lead: Duration) -> StepSpec {
    StepSpec { anchor, lead }
}

fn registration() -> Scenario {
    let mut node = MachineSpec::new("node-1");
    // containerd runs, but the CNI plugin's configuration only appears after 40 s, so the runtime
    // reports NetworkReady=false until then (the usual state of a machine that just joined).
    node.cni_ready_after = Some(secs(40));
    Scenario {
        chapter: Chapter::Registration,
        machines: vec![node],
        replicasets: Vec::new(),
        script: vec![
            Action::new(ActionKind::LabelNodeRole, SimTime::from_secs(14)),
            Action::new(ActionKind::CreatePod, SimTime::from_secs(22)),
            Action::new(ActionKind::CreateToleratingPod, SimTime::from_secs(28)),
        ],
        steps: vec![
            step(Anchor::At(Duration::ZERO), Duration::ZERO),
            step(Anchor::Request { method: Method::Post, path_ends: "/api/v1/nodes" }, millis(300)),
            step(Anchor::At(secs(8)), Duration::ZERO),
            step(Anchor::Input(ActionKind::CreatePod), secs(1)),
            step(Anchor::Event { reason: "NodeReady", contains: "" }, secs(2)),
            step(Anchor::At(secs(90)), Duration::ZERO),
        ],
        duration: secs(390),
    }
}

fn two_nodes() -> (Vec<MachineSpec>, Vec<ReplicaSetSpec>) {
    let node1 = MachineSpec::new("node-1");
    let mut node2 = MachineSpec::new("node-2");
    // node-2 joins after the Deployment's Pod has landed on node-1.
    node2.kubelet_start = Some(secs(20));
    (vec![node1, node2], vec![ReplicaSetSpec { deployment: "web".into(), replicas: 1, created_after: secs(5) }])
}

fn node_failure() -> Scenario {
    let (machines, replicasets) = two_nodes();
    Scenario {
        chapter: Chapter::NodeFailure,
        machines,
        replicasets,
        script: vec![Action::new(ActionKind::KillKubelet, SimTime::from_secs(120))],
        steps: vec![
            step(Anchor::At(secs(90)), Duration::ZERO),
            step(Anchor::Input(ActionKind::KillKubelet), millis(500)),
            step(Anchor::Event { reason: "NodeNotReady", contains: "" }, secs(2)),
            step(Anchor::Taint { node: "node-1", key: "node.kubernetes.io/unreachable", effect: "NoExecute" }, secs(1)),
            step(Anchor::Event { reason: "TaintManagerEviction", contains: "Marking for deletion" }, secs(2)),
            step(Anchor::Event { reason: "Started", contains: "" }, secs(1)),
        ],
        duration: secs(540),
    }
}

fn kubelet_restart() -> Scenario {
    let (machines, replicasets) = two_nodes();
    Scenario {
        chapter: Chapter::KubeletRestart,
        machines,
        replicasets,
        script: vec![
            Action::new(ActionKind::KillKubelet, SimTime::from_secs(120)),
            Action::new(ActionKind::StartKubelet, SimTime::from_secs(270)),
        ],
        steps: vec![
            step(Anchor::At(secs(240)), Duration::ZERO),
            step(Anchor::Input(ActionKind::StartKubelet), millis(500)),
            step(Anchor::Event { reason: "NodeReady", contains: "" }, secs(1)),
            step(Anchor::Event { reason: "TaintManagerEviction", contains: "Cancelling" }, secs(1)),
        ],
        duration: secs(360),
    }
}

/// Finds each step's moment in `log`. A step is searched from the previous step's anchor on; a
/// step whose anchor never happened (the reader changed the story) has no moment.
pub fn resolve_steps(scenario: &Scenario, log: &Log) -> Vec<Option<SimTime>> {
    let mut from = SimTime::ZERO;
    let mut out = Vec::with_capacity(scenario.steps.len());
    for s in &scenario.steps {
        let found = find_anchor(&s.anchor, log, from);
        match found {
            Some(t) => {
                from = t;
                out.push(Some(t.saturating_sub(s.lead)));
            }
            None => out.push(None),
        }
    }
    out
}

fn find_anchor(anchor: &Anchor, log: &Log, from: SimTime) -> Option<SimTime> {
    match anchor {
        Anchor::At(d) => Some(SimTime::ZERO + *d),
        Anchor::Input(kind) => log
            .inputs
            .iter()
            .find(|i| i.t >= from && i.action.kind.same_action(*kind) && i.rejected.is_none())
            .map(|i| i.t),
        Anchor::Event { reason, contains } => {
            log.events.iter().find(|e| e.t >= from && e.reason == *reason && e.message.contains(contains)).map(|e| e.t)
        }
        Anchor::Request { method, path_ends } => {
            log.requests.iter().find(|r| r.t >= from && r.method == *method && r.path.ends_with(path_ends)).map(|r| r.t)
        }
        Anchor::Taint { node, key, effect } => log
            .changes
            .iter()
            .find(|c| {
                c.t >= from
                    && c.kind() == Kind::Node
                    && matches!(&c.object(), Object::Node(n) if n.metadata.name == *node && n.has_taint(key, effect))
            })
            .map(|c| c.t),
        Anchor::Kubectl { contains } => log
            .lines
            .iter()
            .find(|l| {
                l.t >= from
                    && matches!(l.actor, super::record::Actor::Kubectl | super::record::Actor::KubectlStderr)
                    && l.message.contains(contains)
            })
            .map(|l| l.t),
    }
}
