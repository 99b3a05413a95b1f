//! Chapter 5, "Maintenance": three nodes with a node agent (a DaemonSet) and six replicas of
//! `web` under a PodDisruptionBudget of `minAvailable: 5`; node-1 is cordoned, drained
//! (`--ignore-daemonsets`) and uncordoned.

use std::time::Duration;

use super::{Anchor, Chapter, LANDED, ReplicaSetSpec, Scenario, step, step_after};
use crate::action::{Action, ActionKind, Budget, DrainFlags};
use crate::machine::MachineSpec;
use crate::objects::IntOrPercent;
use crate::time::{SimTime, millis, secs};

/// When the reader's kubectl drains node-1.
const DRAIN_AT: u64 = 120;

pub(super) fn maintenance() -> Scenario {
    let drain = DrainFlags { ignore_daemonsets: true, ..DrainFlags::default() };
    Scenario {
        chapter: Some(Chapter::Maintenance),
        fleet: false,
        machines: vec![MachineSpec::new("node-1"), MachineSpec::new("node-2"), MachineSpec::new("node-3")],
        replicasets: vec![ReplicaSetSpec { deployment: "web".into(), replicas: 6, created_after: secs(5) }],
        script: vec![
            Action::new(ActionKind::CreateDaemonSet, SimTime::from_secs(2)),
            Action::new(ActionKind::CreatePdb(Budget::MinAvailable(IntOrPercent::Int(5))), SimTime::from_secs(60)),
            Action::on(ActionKind::Cordon, "node-1", SimTime::from_secs(90)),
            Action::on(ActionKind::Drain(drain), "node-1", SimTime::from_secs(DRAIN_AT)),
            Action::on(ActionKind::Uncordon, "node-1", SimTime::from_secs(240)),
        ],
        steps: vec![
            step_after(Anchor::Input(ActionKind::CreatePdb(Budget::default())), secs(1), LANDED),
            step_after(Anchor::Input(ActionKind::Cordon), millis(500), LANDED),
            step_after(Anchor::Input(ActionKind::Drain(DrainFlags::default())), millis(500), LANDED),
            step(Anchor::At(secs(DRAIN_AT) + secs(2)), Duration::ZERO),
            step_after(Anchor::kubectl("evicting pod"), millis(500), millis(300)),
            step(Anchor::kubectl(" drained"), millis(500)),
            step_after(Anchor::Input(ActionKind::Uncordon), millis(500), LANDED),
        ],
        duration: secs(300),
    }
}
