//! The chapters' scenarios, compiled from their story files (`stories/ID.yaml`) by
//! `nodeline::story::generate`: every `cargo xtask` command writes this file when a chapter's
//! file changes (so does `NODELINE_BLESS=1 cargo test --test it chapters::`). Edit the story
//! file, not this one.

use super::{Anchor, Chapter, MachineSpec, Method, ReplicaSetSpec, Scenario, StepSpec, fleet, input, millis, scripted};

/// The chapter's scenario as its story file writes it (a fleet at the size written).
pub(super) fn written(chapter: Chapter) -> Scenario {
    match chapter {
        Chapter::Registration => registration(),
        Chapter::NodeFailure => node_failure(),
        Chapter::KubeletRestart => kubelet_restart(),
        Chapter::ZoneOutage => zone_outage(),
        Chapter::Maintenance => maintenance(),
        Chapter::NodeGoesAway => node_goes_away(),
    }
}

/// Whether the chapter is told as a fleet (its size set by `--nodes` / `&nodes=`).
pub(super) fn is_fleet(chapter: Chapter) -> bool {
    match chapter {
        Chapter::Registration => false,
        Chapter::NodeFailure => false,
        Chapter::KubeletRestart => false,
        Chapter::ZoneOutage => true,
        Chapter::Maintenance => false,
        Chapter::NodeGoesAway => false,
    }
}

fn registration() -> Scenario {
    Scenario {
        chapter: Some(Chapter::Registration),
        fleet: false,
        machines: vec![
            {
                let mut m = MachineSpec::new("node-1");
                m.cni_ready_after = Some(millis(40000));
                m
            },
        ],
        replicasets: vec![],
        script: vec![
            scripted("label-node-role:node-1@14s"),
            scripted("create-pod@22s"),
            scripted("create-tolerating-pod@28s"),
        ],
        steps: vec![
            StepSpec {
                anchor: Anchor::At(millis(0)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: Anchor::request(Method::Post, "/api/v1/nodes"),
                lead: millis(300),
                shows: None,
                after: millis(400),
            },
            StepSpec {
                anchor: Anchor::At(millis(8000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("create-pod"),
                lead: millis(1000),
                shows: None,
                after: millis(1000),
            },
            StepSpec {
                anchor: Anchor::event("NodeReady", ""),
                lead: millis(2000),
                shows: None,
                after: millis(1000),
            },
            StepSpec {
                anchor: Anchor::At(millis(90000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
        ],
        duration: millis(390000),
    }
}

fn node_failure() -> Scenario {
    Scenario {
        chapter: Some(Chapter::NodeFailure),
        fleet: false,
        machines: vec![
            MachineSpec::new("node-1"),
            {
                let mut m = MachineSpec::new("node-2");
                m.kubelet_start = Some(millis(20000));
                m
            },
        ],
        replicasets: vec![
            ReplicaSetSpec { deployment: "web".into(), replicas: 1, created_after: millis(5000) },
        ],
        script: vec![
            scripted("kill-kubelet:node-1@2m0s"),
        ],
        steps: vec![
            StepSpec {
                anchor: Anchor::At(millis(90000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("kill-kubelet"),
                lead: millis(500),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: Anchor::event("NodeNotReady", ""),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::taint("node-1", "node.kubernetes.io/unreachable", "NoExecute"),
                lead: millis(1000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::event("TaintManagerEviction", "Marking for deletion"),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::event("Started", ""),
                lead: millis(1000),
                shows: None,
                after: millis(500),
            },
        ],
        duration: millis(540000),
    }
}

fn kubelet_restart() -> Scenario {
    Scenario {
        chapter: Some(Chapter::KubeletRestart),
        fleet: false,
        machines: vec![
            MachineSpec::new("node-1"),
            {
                let mut m = MachineSpec::new("node-2");
                m.kubelet_start = Some(millis(20000));
                m
            },
        ],
        replicasets: vec![
            ReplicaSetSpec { deployment: "web".into(), replicas: 1, created_after: millis(5000) },
        ],
        script: vec![
            scripted("kill-kubelet:node-1@2m0s"),
            scripted("start-kubelet:node-1@4m30s"),
        ],
        steps: vec![
            StepSpec {
                anchor: Anchor::At(millis(240000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("start-kubelet"),
                lead: millis(500),
                shows: None,
                after: millis(800),
            },
            StepSpec {
                anchor: Anchor::event("NodeReady", ""),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::event("TaintManagerEviction", "Cancelling"),
                lead: millis(1000),
                shows: None,
                after: millis(500),
            },
        ],
        duration: millis(360000),
    }
}

fn zone_outage() -> Scenario {
    Scenario {
        chapter: Some(Chapter::ZoneOutage),
        fleet: true,
        machines: fleet(150),
        replicasets: vec![
            ReplicaSetSpec { deployment: "web".into(), replicas: 150, created_after: millis(30000) },
        ],
        script: vec![
            scripted("cut-nodes:eu-west-1b/3@2m0s"),
            scripted("cut-nodes:eu-west-1b/27@4m30s"),
            scripted("cut-zone:eu-west-1b@7m0s"),
            scripted("cut-control-plane@14m0s"),
            scripted("restore-control-plane@17m30s"),
        ],
        steps: vec![
            StepSpec {
                anchor: Anchor::At(millis(90000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("cut-nodes"),
                lead: millis(500),
                shows: Some(Anchor::log_line("Node is unresponsive. Adding it to the Taint queue")),
                after: millis(5500),
            },
            StepSpec {
                anchor: Anchor::log_line("eu-west-1b\" newState=\"PartialDisruption\""),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::log_line("eu-west-1b\" newState=\"FullDisruption\""),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::log_line("Entering master disruption mode"),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::log_line("Exiting master disruption mode"),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
        ],
        duration: millis(1200000),
    }
}

fn maintenance() -> Scenario {
    Scenario {
        chapter: Some(Chapter::Maintenance),
        fleet: false,
        machines: vec![
            MachineSpec::new("node-1"),
            MachineSpec::new("node-2"),
            MachineSpec::new("node-3"),
        ],
        replicasets: vec![
            ReplicaSetSpec { deployment: "web".into(), replicas: 6, created_after: millis(5000) },
        ],
        script: vec![
            scripted("create-daemonset@2s"),
            scripted("create-pdb+min-available=5@1m0s"),
            scripted("cordon:node-1@1m30s"),
            scripted("drain+ignore-daemonsets:node-1@2m0s"),
            scripted("uncordon:node-1@4m0s"),
        ],
        steps: vec![
            StepSpec {
                anchor: input("create-pdb"),
                lead: millis(1000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: input("cordon"),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: input("drain"),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::At(millis(122000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: Anchor::kubectl("evicting pod"),
                lead: millis(500),
                shows: None,
                after: millis(300),
            },
            StepSpec {
                anchor: Anchor::kubectl(" drained"),
                lead: millis(500),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("uncordon"),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
        ],
        duration: millis(300000),
    }
}

fn node_goes_away() -> Scenario {
    Scenario {
        chapter: Some(Chapter::NodeGoesAway),
        fleet: false,
        machines: vec![
            {
                let mut m = MachineSpec::new("node-1");
                m.shutdown_grace_period = millis(30000);
                m.shutdown_grace_period_critical_pods = millis(10000);
                m
            },
            {
                let mut m = MachineSpec::new("node-2");
                m.kubelet_start = Some(millis(20000));
                m
            },
            {
                let mut m = MachineSpec::new("node-3");
                m.kubelet_start = Some(millis(40000));
                m
            },
        ],
        replicasets: vec![
            ReplicaSetSpec { deployment: "web".into(), replicas: 2, created_after: millis(5000) },
        ],
        script: vec![
            scripted("create-statefulset@30s"),
            scripted("shutdown:node-1@1m30s"),
            scripted("delete-node:node-3@2m30s"),
            scripted("kill-kubelet:node-3@4m30s"),
            scripted("start-kubelet:node-3@4m35s"),
            scripted("power-off:node-2@5m30s"),
            scripted("taint-out-of-service:node-2@11m50s"),
        ],
        steps: vec![
            StepSpec {
                anchor: Anchor::At(millis(75000)),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("shutdown"),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::log_line("Shutdown manager completed processing shutdown event"),
                lead: millis(0),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: input("delete-node"),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::log_line("Forced deletion of orphaned Pod succeeded"),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: input("start-kubelet"),
                lead: millis(500),
                shows: None,
                after: millis(1000),
            },
            StepSpec {
                anchor: input("power-off"),
                lead: millis(500),
                shows: None,
                after: millis(0),
            },
            StepSpec {
                anchor: Anchor::event("TaintManagerEviction", "Marking for deletion Pod default/db-0"),
                lead: millis(2000),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: input("taint-out-of-service"),
                lead: millis(500),
                shows: None,
                after: millis(500),
            },
            StepSpec {
                anchor: Anchor::event("SuccessfulCreate", "create Pod db-0"),
                lead: millis(0),
                shows: Some(Anchor::event("Started", "Started container")),
                after: millis(500),
            },
        ],
        duration: millis(810000),
    }
}
