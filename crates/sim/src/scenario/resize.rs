//! A fleet story told with another number of nodes than it is written for (`--nodes`,
//! `&nodes=N`): the fleet chapter is written for 150 nodes and told with 3 to 1,000.
//!
//! Three rules keep the story's meaning at any size:
//! - **What scales with the fleet scales.** The fleet is [`fleet`]`(n)`; a Deployment of one
//!   replica a node keeps one a node; `cut-nodes:ZONE/K` cuts at least the share of the zone the
//!   story's cuts have reached so far as written (at least one node), and never the zone whole
//!   (that is `cut-zone`'s).
//! - **The Deployment waits for the fleet.** The node lifecycle controller takes each new Node's
//!   `node.kubernetes.io/not-ready:NoSchedule` taint off with two requests (a GET, a PATCH) at its
//!   client's rate, so a larger fleet can take Pods later. The Deployment of one replica a node is
//!   created no earlier than 10 s after that, and every later time of the story (actions, steps
//!   at a fixed time, its end) moves with it.
//! - **A control plane cut backs up with the fleet.** While the control plane is cut, marking
//!   every Node `Unknown` goes at the controller's client rate (each Node's status, its Pods' and
//!   their Events), so a larger fleet enters master disruption mode later: with more nodes than
//!   written, what follows the cut comes 0.15 s a node later (three requests' time at 20 a
//!   second), and the control plane still comes back about two minutes after that mode begins.

use std::time::Duration;

use super::{Anchor, Scenario, fleet, zone_sizes};
use crate::action::{ActionKind, split_zone_count};
use crate::flowcontrol::KUBE_CONTROLLER_MANAGER;
use crate::time::SimTime;

impl Scenario {
    /// This fleet story with `n` nodes (a story that is not a fleet, or `n` its own size: as it
    /// is).
    pub fn resized(&self, n: usize) -> Scenario {
        let written = self.machines.len();
        if !self.fleet || n == written {
            return self.clone();
        }
        let mut out = self.clone();
        out.machines = fleet(n);
        let rate = KUBE_CONTROLLER_MANAGER.qps;
        let mut shift = Duration::ZERO;
        for rs in &mut out.replicasets {
            if usize::try_from(rs.replicas).is_ok_and(|r| r == written) {
                rs.replicas = n as i32;
                let ready = Duration::from_secs_f64(2.0 * n as f64 / rate) + Duration::from_secs(10);
                if ready > rs.created_after {
                    shift = shift.max(ready - rs.created_after);
                    rs.created_after = ready;
                }
            }
        }
        let deployed = self.replicasets.iter().map(|rs| rs.created_after).min().unwrap_or_default();
        let backlog = Duration::from_secs((n.saturating_sub(written) * 3) as u64 / rate as u64);
        let cut_at = self.script.iter().find(|a| a.kind == ActionKind::CutControlPlane).map(|a| a.at);
        let moved = |t: SimTime| {
            let mut t = t;
            if t.since_start() > deployed {
                t = t + shift;
            }
            if cut_at.is_some_and(|c| t > c + shift) {
                t = t + backlog;
            }
            t
        };
        let (before, after) = (zone_sizes(written), zone_sizes(n));
        // Per zone: how many nodes the script cuts so far as written, and as resized.
        let (mut written_cut, mut cut) = ([0usize; 3], [0usize; 3]);
        out.script.retain_mut(|action| {
            action.at = moved(action.at);
            if action.kind != ActionKind::CutNodes {
                return true;
            }
            let Some((zone, k)) = action.machine.as_deref().and_then(split_zone_count) else { return true };
            let Some(z) = super::ZONES.iter().position(|name| *name == zone) else { return true };
            written_cut[z] += k;
            // At least the share of the zone cut so far as written, and at least one node; never
            // the zone whole, unless its one node.
            let share = (written_cut[z] * after[z]).div_ceil(before[z].max(1)).max(1);
            let total = share.min(after[z].saturating_sub(1)).max(1).max(cut[z]);
            let k = total - cut[z];
            cut[z] = total;
            action.machine = Some(format!("{zone}/{k}"));
            k > 0
        });
        for step in &mut out.steps {
            if let Anchor::At(d) = &mut step.anchor {
                *d = moved(SimTime::ZERO + *d).since_start();
            }
        }
        out.duration = moved(SimTime::ZERO + self.duration).since_start();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Chapter, DEFAULT_FLEET};
    use crate::time::secs;

    fn cuts(s: &Scenario) -> Vec<String> {
        s.script.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn the_fleet_chapter_keeps_its_shares_and_waits_for_its_fleet() {
        let written = Chapter::ZoneOutage.scenario_for(DEFAULT_FLEET);
        assert_eq!(written.resized(DEFAULT_FLEET), written);
        let small = written.resized(30);
        assert_eq!(small.machines.len(), 30);
        assert_eq!((small.replicasets[0].replicas, small.replicasets[0].created_after), (30, secs(30)));
        assert_eq!(cuts(&small)[..2], ["cut-nodes:eu-west-1b/1@2m0s", "cut-nodes:eu-west-1b/5@4m30s"]);
        assert_eq!(small.duration, written.duration);
        // 1,000 nodes: the Deployment once 2,000 taint requests at 20 a second are done (110 s,
        // 80 s later than written), and the control plane's backlog, 850 nodes × 3 / 20 = 127 s.
        let large = written.resized(1000);
        assert_eq!((large.replicasets[0].replicas, large.replicasets[0].created_after), (1000, secs(110)));
        assert_eq!(
            cuts(&large),
            [
                "cut-nodes:eu-west-1b/20@3m20s",
                "cut-nodes:eu-west-1b/180@5m50s",
                "cut-zone:eu-west-1b@8m20s",
                "cut-control-plane@15m20s",
                "restore-control-plane@20m57s"
            ]
        );
        assert_eq!(large.steps[0].anchor, Anchor::At(secs(90 + 80)));
        assert_eq!(large.duration, written.duration + secs(80 + 127));
    }

    #[test]
    fn a_zone_of_one_node_is_cut_once() {
        let tiny = Chapter::ZoneOutage.scenario_for(DEFAULT_FLEET).resized(3);
        assert_eq!(cuts(&tiny)[..2], ["cut-nodes:eu-west-1b/1@2m0s", "cut-zone:eu-west-1b@7m0s"]);
    }

    #[test]
    fn a_story_that_is_not_a_fleet_is_as_written() {
        let s = Chapter::NodeFailure.scenario();
        assert_eq!(s.resized(1000), s);
    }
}
