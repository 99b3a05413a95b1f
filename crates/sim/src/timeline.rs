//! A chapter's timeline: its inputs, the log they produce, checkpoints for forking, and
//! [`Snapshot`]s for reading the cluster at any instant.
//!
//! The log indexes every object version, so reading the state at `t` (a seek) is a handful of
//! binary searches and never re-runs the simulation. Forking at `t` keeps the past: the world is
//! restored from the last checkpoint before `t`, the log is cut back to that checkpoint, and the
//! simulation runs again, deterministically, with the new input.

use std::sync::Arc;
use std::time::Duration;

use super::action::{Action, ActionKind, Refusal};
use super::machine::MachineView;
use super::objects::{
    CsiNode, DaemonSet, Event, Kind, Lease, Node, Object, ObjectKey, Pod, PodDisruptionBudget, Stored, VolumeAttachment,
};
use super::record::{Change, Log, LogMark};
use super::scenario::{Chapter, Scenario, StepTime, resolve_steps};
use super::settings::Settings;
use super::time::{SimTime, WallTime, secs};
use super::world::{Config, Reached, World, check_action};

/// How long at most between two checkpoints, in simulated time.
const CHECKPOINT_EVERY: Duration = secs(600);

/// The most log records between two checkpoints: checkpoints are spaced by work, so that a fork
/// anywhere re-runs at most this much before the reader's action (about 150 simulated seconds of
/// 1,000 nodes, within the fork budget of docs/performance.md). A checkpoint shares what has not
/// changed since the one before (see [`crate::shared`]), so it costs what changed, most of it the
/// kubelets' and the timer queue's. Spacing them by simulated time instead would crowd them where
/// little happens and shorten nothing a reader waits for: a fork re-runs everything after its
/// action anyway.
const CHECKPOINT_RECORDS: usize = 36_000;

/// Far from the horizon, checkpoints are thinned ([`Timeline::thin_checkpoints`]): a fork at `t`
/// re-runs everything from `t` to the horizon anyway, so a checkpoint may lie before `t` by up to
/// a `1 / THIN_SHARE` part of that. A fork then re-runs at most a third more than it must (and
/// near the horizon, where that part is less than the spacing, nothing is thinned), for the
/// memory of the checkpoints it drops (see also [`THIN_EVERY`]).
const THIN_SHARE: usize = 3;

/// How many records at most between two thinnings ([`Timeline::run_until`]).
const THIN_EVERY: usize = CHECKPOINT_RECORDS / 4;

/// One input of a timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub action: Action,
    /// Whether the chapter's script applies it (rather than the reader).
    pub scripted: bool,
}

#[derive(Clone, Debug)]
struct Checkpoint {
    t: SimTime,
    world: World,
    mark: LogMark,
    /// How many records the log held.
    records: usize,
    next_input: usize,
}

/// A chapter's timeline, computed up to its horizon.
#[derive(Clone, Debug)]
pub struct Timeline {
    scenario: Scenario,
    config: Config,
    inputs: Vec<Input>,
    next_input: usize,
    world: World,
    log: Log,
    checkpoints: Vec<Checkpoint>,
}

/// Why an action could not be added to a timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForkError(pub Refusal);

impl std::fmt::Display for ForkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ForkError {}

impl Timeline {
    /// The chapter as scripted.
    pub fn new(chapter: Chapter, config: Config) -> Timeline {
        Timeline::with_actions(chapter, config, &[])
    }

    /// The chapter with the reader's actions: the script up to the first action, then the
    /// actions (each replacing what the script would have done after it).
    pub fn with_actions(chapter: Chapter, config: Config, actions: &[Action]) -> Timeline {
        Timeline::from_scenario(chapter.scenario_for(config.nodes), config, actions)
    }

    /// Any scenario (benchmarks and tests build their own clusters), with the reader's actions.
    pub fn from_scenario(scenario: Scenario, config: Config, actions: &[Action]) -> Timeline {
        let mut actions = actions.to_vec();
        super::action::sort_by_time(&mut actions);
        // A read (`kubectl logs`, `exec`) changes nothing: the script goes on past it.
        let first = actions.iter().find(|a| !a.kind.reads()).map(|a| a.at).unwrap_or(SimTime::MAX);
        let mut inputs: Vec<Input> = scenario
            .script
            .iter()
            .filter(|a| a.at < first)
            .map(|a| Input { action: a.clone(), scripted: true })
            .collect();
        inputs.extend(actions.into_iter().map(|action| Input { action, scripted: false }));
        // In time order, the script's first at one instant (a stable insertion sort).
        for i in 1..inputs.len() {
            let mut j = i;
            while j > 0 && inputs[j - 1].action.at > inputs[j].action.at {
                inputs.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut world = World::new(config.clone(), &scenario.machines);
        for rs in &scenario.replicasets {
            world.add_replicaset(rs);
        }
        let log = Log::default();
        let checkpoints =
            vec![Checkpoint { t: SimTime::ZERO, world: world.clone(), mark: log.mark(), records: 0, next_input: 0 }];
        Timeline { scenario, config, inputs, next_input: 0, world, log, checkpoints }
    }

    /// The chapter, or `None` for a story file's scenario.
    pub fn chapter(&self) -> Option<Chapter> {
        self.scenario.chapter
    }

    /// The scenario the timeline runs.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The configuration (profile, seed, epoch).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The settings the cluster runs with, resolved for its profile (the configuration's, read
    /// once, as the components read them).
    pub fn settings(&self) -> &Settings {
        self.world.settings()
    }

    /// Every input, in time order.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The reader's actions (not the script's), in time order.
    pub fn actions(&self) -> Vec<Action> {
        self.inputs.iter().filter(|i| !i.scripted).map(|i| i.action.clone()).collect()
    }

    /// Everything produced up to the horizon.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// How many checkpoints the timeline keeps for forking (the benchmarks print it).
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// How far the timeline has been computed: everything before this instant is final.
    pub fn horizon(&self) -> SimTime {
        self.world.now()
    }

    /// Computes the timeline up to `t`.
    pub fn run_until(&mut self, t: SimTime) {
        self.run_until_within(t, usize::MAX, &mut || true);
    }

    /// Computes the timeline toward `t`, but no further than the first instant at which the log
    /// has gained at least `records` records (everything before that instant has run, nothing
    /// at it), or, within an instant that gains more, than twice as many (between two of its
    /// timers), or than the first timer after which `more` says no (the caller's own measure,
    /// such as a page's clock: the simulation reads none). A caller can compute a little at a
    /// time. Returns whether it reached `t`. Computed in such pieces, the timeline is the one
    /// [`Timeline::run_until`] computes at once, checkpoints included: checkpoints are made
    /// between instants only, and an instant split goes on where it stopped.
    pub fn run_until_within(&mut self, t: SimTime, records: usize, more: &mut dyn FnMut() -> bool) -> bool {
        let stop = self.log.len().saturating_add(records);
        let split = stop.saturating_add(records);
        while self.world.now() < t {
            if self.log.len() >= stop {
                return false;
            }
            let last = self.checkpoints.last().expect("a checkpoint at zero");
            let boundary = last.t + CHECKPOINT_EVERY;
            let records = last.records + CHECKPOINT_RECORDS;
            let target = t.min(boundary);
            // Paused every THIN_EVERY records to thin: a checkpoint a fork can do without goes as
            // soon as the horizon has moved far enough, not at the next one made.
            let mut refused = false;
            let mut ask = || {
                let go = more();
                refused |= !go;
                go
            };
            let reached = self.advance(target, (records.min(self.log.len() + THIN_EVERY).min(stop), split), &mut ask);
            if !reached.whole {
                return false;
            }
            if reached.t == boundary || (reached.t < target && self.log.len() >= records) {
                self.checkpoints.push(Checkpoint {
                    t: reached.t,
                    world: self.world.clone(),
                    mark: self.log.mark(),
                    records: self.log.len(),
                    next_input: self.next_input,
                });
            }
            self.thin_checkpoints();
            if refused {
                return false;
            }
        }
        true
    }

    /// Drops the checkpoints a fork can do without: walking back from the newest, a checkpoint
    /// goes when the one before it and the next one kept are no further apart (in records) than
    /// a [`THIN_SHARE`] part of the records from that next one to the horizon. A fork at `t`
    /// between them re-runs from the one before, at most that part of the records after `t`
    /// more than from `t` itself. The first checkpoint and the newest always stay. As the
    /// horizon moves on, checkpoints further back thin again; none comes back, and none is
    /// needed: the bound only loosens with distance.
    fn thin_checkpoints(&mut self) {
        let horizon = self.log.len();
        let records: Vec<usize> = self.checkpoints.iter().map(|c| c.records).collect();
        let Some(mut next) = records.len().checked_sub(1) else { return };
        let mut keep = vec![true; records.len()];
        for i in (1..next).rev() {
            let allowed = (horizon - records[next]) / THIN_SHARE;
            if records[next] - records[i - 1] <= allowed {
                keep[i] = false;
            } else {
                next = i;
            }
        }
        let mut keep = keep.into_iter();
        self.checkpoints.retain(|_| keep.next().unwrap_or(true));
    }

    /// Runs everything due before `target`, or stops early at an instant where the log holds
    /// `records` records (everything before it has run, nothing at it), or within one once it
    /// holds `split` ([`World::run_within`]). Returns where it stopped.
    fn advance(&mut self, target: SimTime, records: (usize, usize), more: &mut dyn FnMut() -> bool) -> Reached {
        while let Some(input) = self.inputs.get(self.next_input) {
            if input.action.at >= target {
                break;
            }
            let Input { action, scripted } = input.clone();
            let reached = self.world.run_within(action.at, &mut self.log, records, more);
            if reached.t < action.at {
                return reached;
            }
            self.world.apply(&action, scripted, &mut self.log);
            self.world.record_machines(&mut self.log);
            self.next_input += 1;
        }
        self.world.run_within(target, &mut self.log, records, more)
    }

    /// Adds the reader's action at `action.at`: the past is kept, the future is recomputed with
    /// the action (later inputs are dropped). The timeline is then computed to at least its
    /// previous horizon.
    pub fn fork(&mut self, action: Action) -> Result<(), ForkError> {
        let t = action.at;
        let horizon = self.horizon().max(t);
        self.run_until(t + Duration::from_micros(1));
        self.at(t).check_action(action.kind, action.machine.as_deref()).map_err(ForkError)?;
        let keep = self.checkpoints.iter().rposition(|c| c.t <= t).expect("a checkpoint at zero");
        self.checkpoints.truncate(keep + 1);
        let cp = self.checkpoints[keep].clone();
        self.world = cp.world;
        self.log.truncate(cp.mark);
        self.next_input = cp.next_input;
        if action.kind.reads() {
            // A read changes nothing: every input stays, the read after those of its instant.
            let at = self.inputs.partition_point(|i| i.action.at <= t);
            self.inputs.insert(at, Input { action, scripted: false });
        } else {
            // The reader's inputs up to now stay; the script's stop before the first action of
            // the reader, exactly as `with_actions` builds it.
            self.inputs.retain(|i| if i.scripted { i.action.at < t } else { i.action.at <= t });
            self.inputs.push(Input { action, scripted: false });
        }
        self.run_until(horizon);
        Ok(())
    }

    /// The cluster as it was at `t` (which must not be past the horizon to be complete).
    pub fn at(&self, t: SimTime) -> Snapshot<'_> {
        Snapshot { log: &self.log, t, epoch: self.config.epoch }
    }

    /// Each step's start and moment in this timeline (`None`: the step did not happen).
    pub fn steps(&self) -> Vec<Option<StepTime>> {
        resolve_steps(&self.scenario, &self.log)
    }
}

/// The cluster at one instant, read from a timeline's log.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    log: &'a Log,
    t: SimTime,
    epoch: WallTime,
}

impl<'a> Snapshot<'a> {
    /// The instant.
    pub fn time(&self) -> SimTime {
        self.t
    }

    /// The wall-clock instant the snapshot stands for: the timeline's epoch plus its instant.
    /// The one place a playhead becomes a wall clock (`kubectl`'s ages, the inspector's times).
    pub fn wall(&self) -> WallTime {
        self.epoch + self.t.since_start()
    }

    /// The wall-clock instant of the simulated instant `t`, on this snapshot's clock.
    pub fn wall_at(&self, t: SimTime) -> WallTime {
        self.epoch + t.since_start()
    }

    /// The change that made the current version of `key`, if the object exists.
    pub fn version(&self, key: &ObjectKey) -> Option<std::borrow::Cow<'a, Change>> {
        self.log.version_at(key, self.t)
    }

    /// Every object of `kind`, by namespace and name.
    pub fn objects_of(&self, kind: Kind) -> impl Iterator<Item = Object> + 'a {
        let (log, t) = (self.log, self.t);
        log.versions_of_kind_at(kind, t).map(|c| c.object())
    }

    /// Every object of kind `T`, by namespace and name.
    pub fn all<T: Stored>(&self) -> Vec<Arc<T>> {
        self.objects_of(T::KIND).filter_map(T::from_object).collect()
    }

    /// Every Node, by name.
    pub fn nodes(&self) -> Vec<Arc<Node>> {
        self.all()
    }

    /// The Node named `name`.
    pub fn node(&self, name: &str) -> Option<Arc<Node>> {
        match self.log.version_of_at(Kind::Node, "", name, self.t).map(|c| c.object()) {
            Some(Object::Node(n)) => Some(n),
            _ => None,
        }
    }

    /// Every CSINode, by name.
    pub fn csinodes(&self) -> Vec<Arc<CsiNode>> {
        self.all()
    }

    /// Every Lease, by name.
    pub fn leases(&self) -> Vec<Arc<Lease>> {
        self.all()
    }

    /// The Lease of node `name`.
    pub fn lease(&self, name: &str) -> Option<Arc<Lease>> {
        match self.log.version_of_at(Kind::Lease, "kube-node-lease", name, self.t).map(|c| c.object()) {
            Some(Object::Lease(l)) => Some(l),
            _ => None,
        }
    }

    /// Every Pod, by namespace and name.
    pub fn pods(&self) -> Vec<Arc<Pod>> {
        self.all()
    }

    /// The Pod `namespace/name`.
    pub fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        match self.log.version_of_at(Kind::Pod, namespace, name, self.t).map(|c| c.object()) {
            Some(Object::Pod(p)) => Some(p),
            _ => None,
        }
    }

    /// The Pods bound to node `name`, by namespace and name (read from the log's by-node index,
    /// not from every Pod).
    pub fn pods_on(&self, name: &str) -> Vec<Arc<Pod>> {
        self.log
            .pods_on_at(name, self.t)
            .filter_map(|c| match c.object() {
                Object::Pod(p) => Some(p),
                _ => None,
            })
            .collect()
    }

    /// Every Event object, by namespace and name.
    pub fn events(&self) -> Vec<Arc<Event>> {
        self.all()
    }

    /// Every PodDisruptionBudget, by namespace and name.
    pub fn pdbs(&self) -> Vec<Arc<PodDisruptionBudget>> {
        self.all()
    }

    /// Every VolumeAttachment, by name.
    pub fn volume_attachments(&self) -> Vec<Arc<VolumeAttachment>> {
        self.all()
    }

    /// Every StatefulSet, by namespace and name.
    pub fn statefulsets(&self) -> Vec<Arc<crate::objects::StatefulSet>> {
        self.all()
    }

    /// Every ControllerRevision, by namespace and name.
    pub fn revisions(&self) -> Vec<Arc<crate::objects::ControllerRevision>> {
        self.all()
    }

    /// Every PersistentVolumeClaim, by namespace and name.
    pub fn claims(&self) -> Vec<Arc<crate::objects::PersistentVolumeClaim>> {
        self.all()
    }

    /// Every PersistentVolume, by name.
    pub fn persistent_volumes(&self) -> Vec<Arc<crate::objects::PersistentVolume>> {
        self.all()
    }

    /// Every DaemonSet, by namespace and name.
    pub fn daemonsets(&self) -> Vec<Arc<DaemonSet>> {
        self.all()
    }

    /// Every object, kind by kind in [`Kind::ALL`]'s order.
    pub fn objects(&self) -> Vec<Object> {
        Kind::ALL.iter().flat_map(|k| self.objects_of(*k)).collect()
    }

    /// What can be seen of each machine.
    pub fn machines(&self) -> Vec<Arc<MachineView>> {
        (0..self.log.machine_count_at(self.t)).filter_map(|i| self.log.machine_at(i, self.t).cloned()).collect()
    }

    /// Whether `kind` (aimed at `machine`) makes sense at this instant; the error says why not.
    pub fn check_action(&self, kind: ActionKind, machine: Option<&str>) -> Result<(), Refusal> {
        self.action_checker().check(kind, machine)
    }

    /// What [`Snapshot::check_action`] reads, read once for checking many actions.
    pub fn action_checker(&self) -> ActionChecker<'_> {
        // Counting the Pods' versions builds no Pod.
        let pods = self.log.versions_of_kind_at(Kind::Pod, self.t).count();
        // The workloads made once (`create-statefulset`, `create-cache`): made if an earlier input
        // of the kind was accepted.
        let created = self
            .log
            .inputs
            .iter()
            .filter(|i| i.t <= self.t && i.rejected.is_none())
            .map(|i| i.action.kind)
            .filter(|k| matches!(k, ActionKind::CreateStatefulSet | ActionKind::CreateCache))
            .collect();
        ActionChecker { snapshot: self, machines: self.machines(), pods, created }
    }
}

/// Checks actions against one instant (the machines and counts read once).
pub struct ActionChecker<'a> {
    snapshot: &'a Snapshot<'a>,
    machines: Vec<Arc<MachineView>>,
    pods: usize,
    created: Vec<ActionKind>,
}

impl ActionChecker<'_> {
    /// Whether `kind` (aimed at `machine`) makes sense at this instant; the error says why not.
    pub fn check(&self, kind: ActionKind, machine: Option<&str>) -> Result<(), Refusal> {
        let created = |k: ActionKind| self.created.contains(&k);
        let machines: Vec<&MachineView> = self.machines.iter().map(|m| &**m).collect();
        let pod = |ns: &str, name: &str| self.snapshot.pod(ns, name);
        check_action(kind, machine, &machines, |n| self.snapshot.node(n), pod, self.pods, created).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One node's Pods, read through the by-node index, are the Pods bound to it at that instant,
    /// also where Pods are evicted and replaced on other nodes, and after a fork rebinds them.
    #[test]
    fn a_nodes_pods_are_the_pods_bound_to_it() {
        let check = |timeline: &Timeline| {
            let names: Vec<String> = timeline.scenario().machines.iter().map(|m| m.hostname.clone()).collect();
            let mut seen = 0;
            for s in (0..=900).step_by(15) {
                let snapshot = timeline.at(SimTime::from_secs(s));
                let all = snapshot.pods();
                for name in &names {
                    let bound: Vec<Arc<Pod>> = all.iter().filter(|p| &p.spec.node_name == name).cloned().collect();
                    seen += bound.len();
                    assert_eq!(snapshot.pods_on(name), bound, "{name} at {s} s");
                }
            }
            assert!(seen > 0, "Pods were bound");
        };
        let mut timeline = Timeline::new(Chapter::NodeFailure, Config::default());
        timeline.run_until(SimTime::from_secs(900));
        check(&timeline);
        // Starting the kubelet again before the eviction: the Pods stay where they were.
        timeline.fork(Action::new(ActionKind::StartKubelet, SimTime::from_secs(150))).expect("a stopped kubelet");
        check(&timeline);
    }

    /// Far from the horizon, checkpoints are thinned so that a fork at any instant re-runs at most
    /// a [`THIN_SHARE`] part more than the records from that instant on; near it, they stay as
    /// they were made.
    #[test]
    fn checkpoints_thin_with_distance_from_the_horizon() {
        let mut timeline = Timeline::new(Chapter::KubeletRestart, Config::default());
        timeline.run_until(SimTime::from_secs(6 * 3600));
        let horizon = timeline.log().len();
        let cps = &timeline.checkpoints;
        assert_eq!(cps[0].t, SimTime::ZERO, "the first checkpoint stays");
        // Made every ten simulated minutes (the records between them are few): 36 of them.
        assert!(cps.len() < 20, "{} checkpoints kept", cps.len());
        assert!(cps.len() > 3, "{} checkpoints kept", cps.len());
        for pair in cps.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let made_apart = b.t - a.t <= CHECKPOINT_EVERY;
            let allowed = (horizon - b.records) / THIN_SHARE;
            assert!(
                made_apart || b.records - a.records <= allowed,
                "{} records between the checkpoints at {} and {}, {} records before the horizon",
                b.records - a.records,
                a.t,
                b.t,
                horizon - b.records
            );
        }
        // The newest are as they were made, ten minutes apart.
        let newest: Vec<SimTime> = cps[cps.len() - 4..].iter().map(|c| c.t).collect();
        assert!(newest.windows(2).all(|p| p[1] - p[0] == CHECKPOINT_EVERY), "{newest:?}");
    }
}
