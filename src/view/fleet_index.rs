//! What the fleet view reads every frame, indexed once per timeline and extended as the
//! timeline is computed further: each machine's zone and Node, each Node's cell (its Ready
//! condition and the node lifecycle controller's strongest taint) by time, which Nodes exist by
//! time, and each zone's running and terminating Pods by time. A frame then costs a binary
//! search a machine instead of a seek of every Node and every Pod in the snapshot.
//!
//! Pure: read from the log's machine records and object changes, with native tests.

use std::collections::BTreeMap;

use crate::sim::objects::{Kind, Node, Object, Pod};
use crate::sim::{ChangeType, Log, SimTime, TAINT_NOT_READY, TAINT_UNREACHABLE};

/// A node's Ready condition, as the cell's shape and colour say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readiness {
    Ready,
    NotReady,
    Unknown,
}

/// The node lifecycle controller's taints on a node: the strongest one shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaintMark {
    None,
    NoSchedule,
    NoExecute,
}

/// What a Node's cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellState {
    pub ready: Readiness,
    pub taint: TaintMark,
}

impl CellState {
    /// The cell of `node`.
    pub fn of(node: &Node) -> CellState {
        let ready = match node.ready_status() {
            Some("True") => Readiness::Ready,
            Some("False") => Readiness::NotReady,
            _ => Readiness::Unknown,
        };
        let has = |effect: &str| {
            node.spec
                .taints
                .iter()
                .any(|t| t.effect == effect && matches!(t.key.as_str(), TAINT_UNREACHABLE | TAINT_NOT_READY))
        };
        let taint = if has("NoExecute") {
            TaintMark::NoExecute
        } else if has("NoSchedule") {
            TaintMark::NoSchedule
        } else {
            TaintMark::None
        };
        CellState { ready, taint }
    }
}

/// One machine of the fleet (machines are never removed; their hostname and zone stay).
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    pub hostname: String,
    /// Its zone, an index into [`FleetIndex::zones`].
    pub zone: usize,
    /// When it was first recorded.
    pub since: SimTime,
    /// Its Node's track, an index into the tracks.
    track: usize,
}

/// A Pod as the zone counts see it: where it runs and whether it is running or terminating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PodPlace {
    Running(usize),
    Terminating(usize),
}

/// One Node name's history.
#[derive(Clone, Debug, Default, PartialEq)]
struct Track {
    /// Its cell from each moment on (`None`: no such Node then).
    states: Vec<(SimTime, Option<CellState>)>,
    /// The machine whose hostname it is.
    machine: Option<usize>,
}

impl Track {
    fn at(&self, t: SimTime) -> Option<CellState> {
        let n = self.states.partition_point(|s| s.0 <= t);
        self.states.get(n.checked_sub(1)?)?.1
    }
}

/// The index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FleetIndex {
    pub machines: Vec<Machine>,
    /// The zones, in the order of their first machine.
    pub zones: Vec<String>,
    /// How many machine records and object changes of the log are read.
    records: usize,
    changes: usize,
    /// Each Node name's track, in name order (the order `kubectl get nodes` lists them).
    by_name: BTreeMap<String, usize>,
    tracks: Vec<Track>,
    /// The moments a Node was created or deleted.
    presence: Vec<SimTime>,
    /// Each Pod's place as last read, by namespace and name.
    pods: BTreeMap<(String, String), PodPlace>,
    /// From each moment on, every zone's running and terminating Pods.
    pod_counts: Vec<(SimTime, Vec<(u32, u32)>)>,
}

impl FleetIndex {
    /// The index of everything `log` holds.
    pub fn of(log: &Log) -> FleetIndex {
        let mut index = FleetIndex::default();
        index.extend(log);
        index
    }

    /// Reads what `log` gained since the index last read it. (A log cut back by a fork is not
    /// a longer log: index a forked timeline anew.)
    pub fn extend(&mut self, log: &Log) {
        for r in log.machines.get(self.records..).unwrap_or_default() {
            if r.index < self.machines.len() {
                continue;
            }
            let zone = match self.zones.iter().position(|z| *z == r.view.zone) {
                Some(z) => z,
                None => {
                    self.zones.push(r.view.zone.clone());
                    self.zones.len() - 1
                }
            };
            let track = self.track(&r.view.hostname);
            self.tracks[track].machine = Some(self.machines.len());
            self.machines.push(Machine { hostname: r.view.hostname.to_string(), zone, since: r.t, track });
        }
        self.records = log.machines.len();
        // Only Nodes and Pods are read (a renewed Lease's version is never built here).
        for c in log.changes().whole_from(self.changes).flatten() {
            if !matches!(c.kind(), Kind::Node | Kind::Pod) {
                continue;
            }
            match c.object() {
                Object::Node(node) => {
                    let cell = (c.change != ChangeType::Deleted).then(|| CellState::of(&node));
                    let track = self.track(&node.metadata.name);
                    let states = &mut self.tracks[track].states;
                    let was = states.last().and_then(|s| s.1);
                    if was.is_some() != cell.is_some() {
                        self.presence.push(c.t);
                    }
                    if states.last().is_none_or(|s| s.1 != cell) {
                        states.push((c.t, cell));
                    }
                }
                Object::Pod(pod) => self.read_pod(c.t, &pod, c.change == ChangeType::Deleted),
                _ => {}
            }
        }
        self.changes = log.changes().len();
    }

    /// The track of the Node named `name`, made if it is new.
    fn track(&mut self, name: &str) -> usize {
        if let Some(&t) = self.by_name.get(name) {
            return t;
        }
        self.tracks.push(Track::default());
        self.by_name.insert(name.to_string(), self.tracks.len() - 1);
        self.tracks.len() - 1
    }

    /// Counts a Pod's new version in its zone.
    fn read_pod(&mut self, t: SimTime, pod: &Pod, deleted: bool) {
        let zone = self
            .by_name
            .get(pod.spec.node_name.as_str())
            .and_then(|&track| self.tracks[track].machine)
            .map(|m| self.machines[m].zone);
        let place = match zone {
            Some(z) if !deleted && pod.is_terminating() => Some(PodPlace::Terminating(z)),
            Some(z) if !deleted && pod.status.phase == "Running" => Some(PodPlace::Running(z)),
            _ => None,
        };
        let key = (pod.metadata.namespace.to_string(), pod.metadata.name.to_string());
        let was = match place {
            Some(p) => self.pods.insert(key, p),
            None => self.pods.remove(&key),
        };
        if was == place {
            return;
        }
        let mut counts = self.pod_counts.last().map(|c| c.1.clone()).unwrap_or_default();
        counts.resize(self.zones.len(), (0, 0));
        for (p, add) in [(was, false), (place, true)] {
            let Some(p) = p else { continue };
            let (z, running) = match p {
                PodPlace::Running(z) => (z, true),
                PodPlace::Terminating(z) => (z, false),
            };
            let n = if running { &mut counts[z].0 } else { &mut counts[z].1 };
            *n = if add { *n + 1 } else { n.saturating_sub(1) };
        }
        match self.pod_counts.last_mut() {
            Some(last) if last.0 == t => last.1 = counts,
            _ => self.pod_counts.push((t, counts)),
        }
    }

    /// Machine `m`'s Node's cell at `t` (`None`: it has no Node then).
    pub fn cell(&self, m: usize, t: SimTime) -> Option<CellState> {
        self.tracks[self.machines.get(m)?.track].at(t)
    }

    /// The machines that exist at `t`, with their indices.
    pub fn machines_at(&self, t: SimTime) -> impl Iterator<Item = (usize, &Machine)> {
        self.machines.iter().enumerate().filter(move |(_, m)| m.since <= t)
    }

    /// Zone `zone`'s running and terminating Pods at `t`.
    pub fn pods(&self, zone: usize, t: SimTime) -> (usize, usize) {
        let n = self.pod_counts.partition_point(|c| c.0 <= t);
        let Some((_, counts)) = n.checked_sub(1).map(|i| &self.pod_counts[i]) else { return (0, 0) };
        counts.get(zone).map_or((0, 0), |&(r, t)| (r as usize, t as usize))
    }

    /// How many times Nodes were created or deleted by `t`: the list of Nodes at `t` is the
    /// same wherever this is.
    pub fn node_set_revision(&self, t: SimTime) -> usize {
        self.presence.partition_point(|p| *p <= t)
    }

    /// The names of the Nodes that exist at `t`, in name order.
    pub fn node_names(&self, t: SimTime) -> Vec<String> {
        self.by_name
            .iter()
            .filter(|(_, track)| self.tracks[**track].at(t).is_some())
            .map(|(name, _)| name.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Action, ActionKind, Chapter, Config, Timeline};

    /// The index agrees with the snapshots: every machine's cell, the Nodes' names and each
    /// zone's Pods, at moments through the story, read whole or extended stretch by stretch,
    /// and for a forked timeline indexed anew.
    #[test]
    fn the_index_says_what_the_snapshots_say() {
        let check = |tl: &Timeline, index: &FleetIndex| {
            let mut seen_not_ready = false;
            for s in (0..=tl.horizon().as_millis() / 1000).step_by(20) {
                let t = SimTime::from_secs(s);
                let snap = tl.at(t);
                let machines = snap.machines();
                assert_eq!(index.machines_at(t).count(), machines.len(), "{s} s");
                let nodes = snap.nodes();
                let names: Vec<String> = nodes.iter().map(|n| n.metadata.name.to_string()).collect();
                assert_eq!(index.node_names(t), names, "{s} s");
                let mut pods = vec![(0, 0); index.zones.len()];
                for (m, machine) in index.machines_at(t) {
                    assert_eq!(machine.hostname, machines[m].hostname);
                    assert_eq!(index.zones[machine.zone], machines[m].zone);
                    let node = nodes.iter().find(|n| n.metadata.name == machine.hostname);
                    let cell = node.map(|n| CellState::of(n));
                    seen_not_ready |= cell.is_some_and(|c| c.ready != Readiness::Ready);
                    assert_eq!(index.cell(m, t), cell, "{} at {s} s", machine.hostname);
                    for p in snap.pods_on(&machine.hostname) {
                        if p.is_terminating() {
                            pods[machine.zone].1 += 1;
                        } else if p.status.phase == "Running" {
                            pods[machine.zone].0 += 1;
                        }
                    }
                }
                for (z, want) in pods.iter().enumerate() {
                    assert_eq!(index.pods(z, t), *want, "zone {z} at {s} s");
                }
            }
            assert!(seen_not_ready, "nodes failed");
        };
        let config = Config { nodes: 30, ..Config::default() };
        let mut tl = Timeline::new(Chapter::ZoneOutage, config.clone());
        let mut grown = FleetIndex::default();
        for s in (100..=1000).step_by(150) {
            tl.run_until(SimTime::from_secs(s));
            grown.extend(tl.log());
        }
        let whole = FleetIndex::of(tl.log());
        assert_eq!(whole.zones, ["eu-west-1a", "eu-west-1b", "eu-west-1c"]);
        assert_eq!(whole, grown);
        check(&tl, &grown);
        assert!(whole.node_set_revision(SimTime::from_secs(60)) >= 30);
        let action =
            Action { machine: Some("eu-west-1a".into()), ..Action::new(ActionKind::CutZone, SimTime::from_secs(120)) };
        tl.fork(action).expect("a zone to cut");
        check(&tl, &FleetIndex::of(tl.log()));
    }
}
