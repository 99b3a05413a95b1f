//! Scenarios: a starting cluster, the scripted inputs, and the steps, which are named moments of
//! the resulting timeline found by what happens (an event, a request, a taint), not by fixed
//! frames. The chapters' own are their story files (`stories/ID.yaml`), compiled into
//! `chapters.rs`; a fleet's is told at other sizes by the rules of `resize.rs`.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use serde::Serialize;

#[rustfmt::skip]
mod chapters;
mod resize;

use super::action::{Action, ActionKind};
use super::machine::{MachineSpec, REGION_LABEL, ZONE_LABEL};
use super::objects::{Kind, Object};
use super::record::{AppliedInput, Change, EventRecord, Log, LogLine, Method, Request};
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

/// The built-in chapters, in story order. Each is told by its story file, `stories/ID.yaml`,
/// compiled in (`chapters.rs`).
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
    /// A fleet in three zones: zone states, rate-limited tainting, master disruption mode.
    ZoneOutage,
    /// Cordon, drain against a PodDisruptionBudget, uncordon.
    Maintenance,
    /// A node goes away: graceful shutdown, deleting the Node, non-graceful shutdown.
    NodeGoesAway,
}

impl Chapter {
    /// All chapters, in story order.
    pub const ALL: [Chapter; 6] = [
        Chapter::Registration,
        Chapter::NodeFailure,
        Chapter::KubeletRestart,
        Chapter::ZoneOutage,
        Chapter::Maintenance,
        Chapter::NodeGoesAway,
    ];

    /// The chapter's id in URLs and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Chapter::Registration => "registration",
            Chapter::NodeFailure => "node-failure",
            Chapter::KubeletRestart => "kubelet-restart",
            Chapter::ZoneOutage => "zone-outage",
            Chapter::Maintenance => "maintenance",
            Chapter::NodeGoesAway => "node-goes-away",
        }
    }

    /// The chapter named `id` (also accepting the `cluster-node-*` scheme names of the card that
    /// inspired nodeline).
    pub fn from_id(id: &str) -> Option<Chapter> {
        match id {
            "registration" | "cluster-node-registration" => Some(Chapter::Registration),
            "node-failure" | "cluster-node-failure" => Some(Chapter::NodeFailure),
            "kubelet-restart" | "cluster-node-restart" => Some(Chapter::KubeletRestart),
            "zone-outage" => Some(Chapter::ZoneOutage),
            "maintenance" => Some(Chapter::Maintenance),
            "node-goes-away" => Some(Chapter::NodeGoesAway),
            _ => None,
        }
    }

    /// The chapter whose id is exactly `id` (not a scheme name): the name of its story file,
    /// `stories/ID.yaml`.
    pub fn with_id(id: &str) -> Option<Chapter> {
        Chapter::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The chapter's 1-based number.
    pub fn number(self) -> usize {
        Chapter::ALL.iter().position(|c| *c == self).expect("listed") + 1
    }

    /// The scenario behind the chapter (a fleet chapter at its default size).
    pub fn scenario(self) -> Scenario {
        self.scenario_for(DEFAULT_FLEET)
    }

    /// The scenario behind the chapter, a fleet chapter with `nodes` nodes (clamped to
    /// [`MIN_FLEET`]..=[`MAX_FLEET`]); the other chapters ignore `nodes`.
    pub fn scenario_for(self, nodes: usize) -> Scenario {
        let written = chapters::written(self);
        if written.fleet { written.resized(nodes.clamp(MIN_FLEET, MAX_FLEET)) } else { written }
    }

    /// Whether the chapter is a fleet (its size set by `--nodes` / `&nodes=`; its scenario's
    /// [`Scenario::fleet`]).
    pub fn is_fleet(self) -> bool {
        chapters::is_fleet(self)
    }
}

impl fmt::Display for Chapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What marks a step's moment. Its texts are the chapters' own (`&'static str`) or a story
/// file's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A fixed time.
    At(Duration),
    /// The first applied input of this kind.
    Input(ActionKind),
    /// The first event with this reason whose message contains the text.
    Event { reason: Words, contains: Words },
    /// The first request with this method whose path ends with the text.
    Request { method: Method, path_ends: Words },
    /// The first moment the Node carries this taint.
    Taint { node: Words, key: Words, effect: Words },
    /// The first line the reader's kubectl prints (stdout or stderr) that contains the text.
    Kubectl { contains: Words },
    /// The first log line that contains the text.
    LogLine { contains: Words },
}

/// A text an [`Anchor`] looks for.
pub type Words = Cow<'static, str>;

impl Anchor {
    /// [`Anchor::Event`].
    pub fn event(reason: impl Into<Words>, contains: impl Into<Words>) -> Anchor {
        Anchor::Event { reason: reason.into(), contains: contains.into() }
    }

    /// [`Anchor::Request`].
    pub fn request(method: Method, path_ends: impl Into<Words>) -> Anchor {
        Anchor::Request { method, path_ends: path_ends.into() }
    }

    /// [`Anchor::Taint`].
    pub fn taint(node: impl Into<Words>, key: impl Into<Words>, effect: impl Into<Words>) -> Anchor {
        Anchor::Taint { node: node.into(), key: key.into(), effect: effect.into() }
    }

    /// [`Anchor::Kubectl`].
    pub fn kubectl(contains: impl Into<Words>) -> Anchor {
        Anchor::Kubectl { contains: contains.into() }
    }

    /// [`Anchor::LogLine`].
    pub fn log_line(contains: impl Into<Words>) -> Anchor {
        Anchor::LogLine { contains: contains.into() }
    }
}

/// One step of a chapter: its anchor, and the two times found from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepSpec {
    pub anchor: Anchor,
    /// How long before the anchor the step's lead-in starts, so that playing from it shows the
    /// moment happening.
    pub lead: Duration,
    /// What the step names, when it shows later than its anchor (searched from the anchor on):
    /// the step's moment is then this one's, plus `after`. `None`: the anchor itself.
    pub shows: Option<Anchor>,
    /// How long after the anchor (or what it shows) the step's moment is: where what the step
    /// names has happened and shows (the answer to the anchor's request applied, the conditions
    /// it writes next).
    pub after: Duration,
}

/// When a step happens in one timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepTime {
    /// Where its lead-in starts: playing from the step starts here. From here on the step is the
    /// current one.
    pub start: SimTime,
    /// Its moment: what the step names has happened. A paused step shows this instant.
    pub moment: SimTime,
}

/// A chapter's (or a story file's) starting cluster and script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// The chapter it is, or `None` for a story file's.
    pub chapter: Option<Chapter>,
    /// Whether it is told as a fleet: its machines are [`fleet`]'s, in zones, and the page draws
    /// them as the zones' node cells (the fleet chapter, a story's `cluster.fleet`).
    pub fleet: bool,
    pub machines: Vec<MachineSpec>,
    pub replicasets: Vec<ReplicaSetSpec>,
    /// Inputs the chapter applies by itself.
    pub script: Vec<Action>,
    pub steps: Vec<StepSpec>,
    /// How long the chapter's story runs.
    pub duration: Duration,
}

/// An action of a chapter's script, in the link notation (`chapters.rs`: compiled from a story
/// file whose every action was read back from this notation when it was compiled).
fn scripted(text: &str) -> Action {
    crate::action::parse_action(text).unwrap_or_else(|e| panic!("a chapter's action {text:?}: {e}"))
}

/// A step anchored at the first of an action (`chapters.rs`: by the name the registry gives it).
fn input(name: &str) -> Anchor {
    Anchor::Input(ActionKind::from_name(name).unwrap_or_else(|| panic!("a chapter's anchor: no action {name:?}")))
}

/// The smallest fleet (one node per zone).
pub const MIN_FLEET: usize = 3;
/// The largest fleet.
pub const MAX_FLEET: usize = 1000;
/// The fleet chapter's size unless the reader asks for another: 50 nodes a zone, exactly the
/// large-cluster threshold, so one more node a zone changes the partial-disruption rate.
pub const DEFAULT_FLEET: usize = 150;
/// The fleet's region, as a cloud provider labels its Nodes.
pub const REGION: &str = "eu-west-1";
/// The fleet's three zones.
pub const ZONES: [&str; 3] = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
/// The zone that goes dark.
pub const DARK_ZONE: &str = "eu-west-1b";

/// How many of `n` nodes each zone gets: evenly, the first zones one more when `n` is not a
/// multiple of three.
pub fn zone_sizes(n: usize) -> [usize; 3] {
    [0, 1, 2].map(|z| n / 3 + usize::from(z < n % 3))
}

/// `n` machines in three zones, in blocks (`node-1`... in the first zone, and so on), labelled
/// as a cloud provider labels them.
pub fn fleet(n: usize) -> Vec<MachineSpec> {
    let sizes = zone_sizes(n);
    let mut machines = Vec::with_capacity(n);
    for (z, size) in sizes.iter().enumerate() {
        for _ in 0..*size {
            let mut spec = MachineSpec::new(&format!("node-{}", machines.len() + 1));
            spec.labels = vec![(REGION_LABEL.into(), REGION.into()), (ZONE_LABEL.into(), ZONES[z].into())];
            machines.push(spec);
        }
    }
    machines
}

/// Pods per node in the [`benchmark`] cluster.
pub const BENCHMARK_PODS_PER_NODE: i32 = 3;

/// The cluster the simulation's budgets are measured on (issue 12: `cargo bench --bench sim`
/// natively, `cargo xtask bench` in the page): `n` machines in three zones ([`fleet`]) running a
/// Deployment of [`BENCHMARK_PODS_PER_NODE`] Pods per node, created at 30 s; nothing scripted.
pub fn benchmark(n: usize) -> Scenario {
    let mut scenario = Chapter::Registration.scenario();
    scenario.script.clear();
    scenario.machines = fleet(n);
    scenario.fleet = true;
    scenario.replicasets = vec![ReplicaSetSpec {
        deployment: "web".into(),
        replicas: BENCHMARK_PODS_PER_NODE * n as i32,
        created_after: secs(30),
    }];
    scenario
}

/// Finds each step's times in `log`. A step is searched from the previous step's anchor on; a
/// step whose anchor never happened (the reader changed the story) has none.
///
/// The steps' times interleave: each step's moment is at or after the previous step's, and its
/// start is after the previous step's moment (or at its own moment, when the two moments are
/// one). So the step at an instant (the last one started) is, at a step's moment, that step.
pub fn resolve_steps(scenario: &Scenario, log: &Log) -> Vec<Option<StepTime>> {
    StepSearch::default().resolve(scenario, log)
}

/// The step in progress at `t` (1-based; 0 before the first): the last one, by number, whose
/// lead-in has started. At a step's moment it is that step ([`resolve_steps`]).
pub fn current_step(steps: &[Option<StepTime>], t: SimTime) -> usize {
    steps.iter().enumerate().filter(|(_, s)| s.is_some_and(|s| s.start <= t)).map(|(i, _)| i + 1).max().unwrap_or(0)
}

/// The least time between a step's moment and the next step's start.
const STEP_GAP: Duration = Duration::from_millis(1);

/// [`resolve_steps`] for a log that grows: each step's search goes on from where the last call
/// stopped, so a timeline computed a stretch at a time (a fleet, whose log holds 100,000 lines)
/// reads each record about once per step instead of once per stretch and step. The answers are
/// [`resolve_steps`]'s. A search follows one timeline's log: it starts again by itself when that
/// log is cut back (a fork).
#[derive(Clone, Debug, Default)]
pub struct StepSearch {
    /// The log's [`Log::truncations`] when the cursors were made.
    truncations: u64,
    cursors: Vec<Cursor>,
}

/// Where one step's search stands: searching from `from`, every record of its list before
/// `next` read, its moment `found` (once found it never changes: the log only grows).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cursor {
    from: SimTime,
    next: usize,
    found: Option<SimTime>,
    /// The search for what the step shows ([`StepSpec::shows`]), from its anchor on.
    shown_next: usize,
    shown: Option<SimTime>,
}

impl Cursor {
    fn new(from: SimTime) -> Cursor {
        Cursor { from, next: 0, found: None, shown_next: 0, shown: None }
    }
}

impl StepSearch {
    /// Each step's times in `log` as far as it is computed (`None`: not found yet).
    pub fn resolve(&mut self, scenario: &Scenario, log: &Log) -> Vec<Option<StepTime>> {
        if self.truncations != log.truncations() || self.cursors.len() != scenario.steps.len() {
            self.truncations = log.truncations();
            self.cursors = vec![Cursor::new(SimTime::ZERO); scenario.steps.len()];
        }
        let mut from = SimTime::ZERO;
        let mut last: Option<SimTime> = None;
        let mut out = Vec::with_capacity(scenario.steps.len());
        for (s, cursor) in scenario.steps.iter().zip(&mut self.cursors) {
            if cursor.from != from {
                *cursor = Cursor::new(from);
            }
            if cursor.found.is_none() {
                (cursor.found, cursor.next) = find_anchor(&s.anchor, log, from, cursor.next);
            }
            let shown = match (cursor.found, &s.shows) {
                (Some(t), Some(shows)) => {
                    if cursor.shown.is_none() {
                        (cursor.shown, cursor.shown_next) = find_anchor(shows, log, t, cursor.shown_next);
                    }
                    cursor.shown
                }
                (found, _) => found,
            };
            match (cursor.found, shown) {
                (Some(t), Some(shown)) => {
                    from = t;
                    let mut moment = shown + s.after;
                    let mut start = t.saturating_sub(s.lead);
                    if let Some(before) = last {
                        moment = moment.max(before);
                        start = start.max(before + STEP_GAP).min(moment);
                    }
                    last = Some(moment);
                    out.push(Some(StepTime { start, moment }));
                }
                _ => out.push(None),
            }
        }
        out
    }
}

/// The first moment at or after `from` that `anchor` names in `log` (story files' questions are
/// derived with it).
pub fn first_from(anchor: &Anchor, log: &Log, from: SimTime) -> Option<SimTime> {
    find_anchor(anchor, log, from, 0).0
}

/// The first record at or after `from` that `anchor` names, reading its list from index `next`
/// on (the records before it were read already and did not match); with the index to go on from
/// when there is none yet.
fn find_anchor(anchor: &Anchor, log: &Log, from: SimTime, next: usize) -> (Option<SimTime>, usize) {
    // Every list is in time order: a search that starts (`next` is 0) skips what is before
    // `from` by a binary search; one that goes on starts at `next`. Each record is still held to
    // `from`: a step after one anchored at a fixed time can be searched before the log gets
    // there.
    let start = |first_from: &dyn Fn() -> usize| if next == 0 { first_from() } else { next };
    /// The first of `items` (a list of `len` from index `start`) that `found` names.
    fn scan<T>(
        start: usize,
        len: usize,
        items: impl Iterator<Item = T>,
        found: impl Fn(&T) -> Option<SimTime>,
    ) -> (Option<SimTime>, usize) {
        for (i, item) in items.enumerate() {
            if let Some(t) = found(&item) {
                return (Some(t), start + i);
            }
        }
        (None, start.max(len))
    }
    match anchor {
        Anchor::At(d) => (Some(SimTime::ZERO + *d), next),
        Anchor::Input(kind) => {
            let at = start(&|| log.inputs.partition_point(|i| i.t < from));
            let found = |i: &&AppliedInput| {
                (i.t >= from && i.action.kind.same_action(*kind) && i.rejected.is_none()).then_some(i.t)
            };
            scan(at, log.inputs.len(), log.inputs.iter().skip(at), found)
        }
        Anchor::Event { reason, contains } => {
            let at = start(&|| log.events.partition_point(|e| e.t < from));
            let found = |e: &&EventRecord| {
                (e.t >= from && e.reason() == reason.as_ref() && crate::strings::contains(e.message(), contains))
                    .then_some(e.t)
            };
            scan(at, log.events.len(), log.events.iter().skip(at), found)
        }
        Anchor::Request { method, path_ends } => {
            let at = start(&|| log.requests.first_from(from));
            let found = |r: &std::borrow::Cow<'_, Request>| {
                (r.t >= from && r.method == *method && r.path.ends_with(path_ends.as_ref())).then_some(r.t)
            };
            scan(at, log.requests.len(), log.requests.iter_from(at), found)
        }
        Anchor::Taint { node, key, effect } => {
            let at = start(&|| log.changes().first_from(from));
            let found = |c: &Option<&Change>| {
                let c = (*c)?;
                (c.t >= from
                    && c.kind() == Kind::Node
                    && c.name() == node.as_ref()
                    && matches!(&c.object(), Object::Node(n) if n.has_taint(key, effect)))
                .then_some(c.t)
            };
            scan(at, log.changes().len(), log.changes().whole_from(at), found)
        }
        Anchor::Kubectl { contains } => {
            let at = start(&|| log.lines.partition_point(|l| l.t < from));
            let found = |l: &&LogLine| {
                (l.t >= from
                    && matches!(l.actor, super::record::Actor::Kubectl | super::record::Actor::KubectlStderr)
                    && crate::strings::contains(&l.message, contains))
                .then_some(l.t)
            };
            scan(at, log.lines.len(), log.lines.iter().skip(at), found)
        }
        Anchor::LogLine { contains } => {
            let at = start(&|| log.lines.partition_point(|l| l.t < from));
            let found = |l: &&LogLine| (l.t >= from && crate::strings::contains(&l.message, contains)).then_some(l.t);
            scan(at, log.lines.len(), log.lines.iter().skip(at), found)
        }
    }
}
