//! Whether a reader's action makes sense now, and what it is aimed at: the machine, the zone's
//! kubelets, the leaking Pod. The timeline checks every action with these before it forks.

use std::sync::Arc;

use super::{CACHE_DEPLOYMENT, MAX_MACHINES, MAX_PODS};
use crate::action::{ActionKind, Refusal, Target, split_pod, split_taint_target, split_zone_count};
use crate::apiserver::TAINT_OUT_OF_SERVICE;
use crate::machine::{KubeletState, MachineView};
use crate::objects::{Node, Pod};

/// Whether an action makes sense given the machines, which Nodes exist, and how many Pods
/// there are. Returns the index of the machine the action is aimed at, or why it cannot be done.
pub(crate) fn check_action(
    kind: ActionKind,
    machine: Option<&str>,
    machines: &[&MachineView],
    node: impl Fn(&str) -> Option<Arc<Node>>,
    pod: impl Fn(&str, &str) -> Option<Arc<Pod>>,
    pods: usize,
    created: impl Fn(ActionKind) -> bool,
) -> Result<Option<usize>, Refusal> {
    let node_exists = |n: &str| node(n).is_some();
    if matches!(kind, ActionKind::LeakMemory | ActionKind::StopLeak) {
        return leak_target(kind, machine.unwrap_or_default(), machines, pod).map(Some);
    }
    match fleet_targets(kind, machine, machines) {
        Err(Refusal::NoSuchMachine(_)) => {}
        other => return other.map(|_| None),
    }
    // A taint's target is `NODE/SPEC`: the machine is its first part.
    let original = machine;
    let machine = match kind.target() {
        Target::NodeTaint => machine.and_then(|t| t.split_once('/')).map(|(node, _)| node),
        _ => machine,
    };
    let m = if matches!(kind.target(), Target::Machine | Target::NodeTaint) {
        let name = machine.unwrap_or_else(|| machines.first().map(|m| m.name.as_str()).unwrap_or("node-1"));
        match machines.iter().position(|m| m.name == name) {
            Some(m) => Some(m),
            None => return Err(Refusal::NoSuchMachine(name.to_string())),
        }
    } else {
        None
    };
    let view = m.map(|m| machines[m]);
    let name = view.map(|m| m.name.as_str()).unwrap_or_default();
    let kubelet = view.map(|m| &m.kubelet);
    match kind {
        ActionKind::KillKubelet | ActionKind::Shutdown | ActionKind::PowerOff => {
            if matches!(kubelet, Some(KubeletState::Stopped)) {
                return Err(Refusal::KubeletNotRunning(name.to_string()));
            }
        }
        ActionKind::StartKubelet => {
            if !matches!(kubelet, Some(KubeletState::Stopped)) {
                return Err(Refusal::KubeletAlreadyRunning(name.to_string()));
            }
        }
        ActionKind::StopRuntime => {
            if !view.is_some_and(|m| m.runtime_up) {
                return Err(Refusal::RuntimeAlreadyStopped(name.to_string()));
            }
        }
        ActionKind::StartRuntime => {
            if view.is_some_and(|m| m.runtime_up) {
                return Err(Refusal::RuntimeAlreadyRunning(name.to_string()));
            }
        }
        ActionKind::CutNetwork => {
            if view.is_some_and(|m| m.network_cut) {
                return Err(Refusal::NetworkAlreadyCut(name.to_string()));
            }
        }
        ActionKind::RestoreNetwork => {
            if !view.is_some_and(|m| m.network_cut) {
                return Err(Refusal::NetworkNotCut(name.to_string()));
            }
        }
        ActionKind::CreatePod | ActionKind::CreateToleratingPod => {
            if pods >= MAX_PODS {
                return Err(Refusal::TooManyPods(MAX_PODS));
            }
        }
        ActionKind::AddMachine => {
            if machines.len() >= MAX_MACHINES {
                return Err(Refusal::TooManyMachines(MAX_MACHINES));
            }
        }
        ActionKind::AddDuplicateMachine => {
            if machines.len() >= MAX_MACHINES {
                return Err(Refusal::TooManyMachines(MAX_MACHINES));
            }
            let host = &view.expect("targets a machine").hostname;
            if machines.iter().filter(|m| &m.hostname == host).count() > 1 {
                return Err(Refusal::DuplicateExists(host.to_string()));
            }
        }
        ActionKind::CreateBestEffortPod | ActionKind::CreatePriorityPod => {
            let v = view.expect("targets a machine");
            if !node_exists(&v.hostname) {
                return Err(Refusal::NodeNotRegistered(v.hostname.to_string()));
            }
            if pods >= MAX_PODS {
                return Err(Refusal::TooManyPods(MAX_PODS));
            }
        }
        ActionKind::CreateCache => {
            let v = view.expect("targets a machine");
            if created(kind) {
                return Err(Refusal::DeploymentExists(CACHE_DEPLOYMENT.into()));
            }
            if !node_exists(&v.hostname) {
                return Err(Refusal::NodeNotRegistered(v.hostname.to_string()));
            }
            if pods >= MAX_PODS {
                return Err(Refusal::TooManyPods(MAX_PODS));
            }
        }
        ActionKind::Cordon
        | ActionKind::Uncordon
        | ActionKind::Drain(_)
        | ActionKind::DeleteNode
        | ActionKind::Taint { .. } => {
            if kind.target() == Target::NodeTaint && original.and_then(split_taint_target).is_none() {
                return Err(Refusal::InvalidTaint(original.unwrap_or_default().to_string()));
            }
            // The reader's kubectl, from outside the machine: the Node must exist.
            let v = view.expect("targets a machine");
            if !node_exists(&v.hostname) {
                return Err(Refusal::NodeNotRegistered(v.hostname.to_string()));
            }
        }
        // The reader's kubectl: a Pod, a CSR or a Secret that is not there gets the API server's
        // NotFound.
        ActionKind::CreatePdb(_)
        | ActionKind::CreateDaemonSet
        | ActionKind::DeletePod(_)
        | ActionKind::ApproveCsr
        | ActionKind::DenyCsr
        | ActionKind::DeleteBootstrapToken
        | ActionKind::DeleteAutoApproveBinding
        | ActionKind::Logs
        | ActionKind::Exec => {}
        ActionKind::TaintOutOfService | ActionKind::UntaintOutOfService => {
            let v = view.expect("targets a machine");
            let Some(n) = node(&v.hostname) else { return Err(Refusal::NodeNotRegistered(v.hostname.to_string())) };
            let tainted = n.spec.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE);
            if kind == ActionKind::TaintOutOfService && tainted {
                return Err(Refusal::OutOfServiceAlreadyTainted(v.hostname.to_string()));
            }
            if kind == ActionKind::UntaintOutOfService && !tainted {
                return Err(Refusal::OutOfServiceNotTainted(v.hostname.to_string()));
            }
        }
        ActionKind::CreateStatefulSet => {
            if created(kind) {
                return Err(Refusal::StatefulSetExists("db".into()));
            }
            if pods >= MAX_PODS {
                return Err(Refusal::TooManyPods(MAX_PODS));
            }
        }
        ActionKind::CutZone
        | ActionKind::RestoreZone
        | ActionKind::CutNodes
        | ActionKind::CutControlPlane
        | ActionKind::RestoreControlPlane => unreachable!("checked by fleet_targets"),
        ActionKind::LeakMemory | ActionKind::StopLeak => unreachable!("checked by leak_target"),
        ActionKind::LabelNodeRole => {
            // kubectl on the machine, with the kubelet's kubeconfig: the kubelet process need not
            // run, but the Node must exist and the machine must reach the API server.
            let v = view.expect("targets a machine");
            if !node_exists(&v.hostname) {
                return Err(Refusal::NodeNotRegistered(v.hostname.to_string()));
            }
            if v.network_cut {
                return Err(Refusal::MachineCannotReach(name.to_string()));
            }
        }
    }
    Ok(m)
}

/// The machine running the Pod a `leak-memory` or `stop-leak` names (`[NAMESPACE/]NAME`), or why
/// the action makes no sense: no such Pod, no running container, a leak already growing (or none
/// to stop).
fn leak_target(
    kind: ActionKind,
    target: &str,
    machines: &[&MachineView],
    pod: impl Fn(&str, &str) -> Option<Arc<Pod>>,
) -> Result<usize, Refusal> {
    let (namespace, name) = split_pod(target).unwrap_or(("default", target));
    let key = format!("{namespace}/{name}");
    let Some(pod) = pod(namespace, name) else { return Err(Refusal::NoSuchPod(key)) };
    let uid = pod.metadata.uid.as_str();
    let running = !pod.is_terminating() && pod.status.phase == "Running";
    let m = machines
        .iter()
        .position(|m| m.hostname == pod.spec.node_name && m.containers.iter().any(|c| c.pod_uid == uid))
        .filter(|_| running)
        .ok_or_else(|| Refusal::PodNotRunning(key.clone()))?;
    let leaking = machines[m].leaks.iter().any(|l| l.pod_uid == uid && l.active());
    match kind {
        ActionKind::LeakMemory if leaking => Err(Refusal::PodAlreadyLeaking(key)),
        ActionKind::StopLeak if !leaking => Err(Refusal::PodNotLeaking(key)),
        _ => Ok(m),
    }
}

/// The machines a zone or control-plane action cuts or restores, or why there are none. For
/// any other action: `Err(Refusal::NoSuchMachine)` (it is not one of these).
///
/// `cut-zone` cuts every kubelet of the zone still connected, `cut-nodes:ZONE/K` the first K of
/// them (fewer if fewer are left), `restore-zone` every cut one; `cut-control-plane` cuts every
/// kubelet off the API server and `restore-control-plane` restores every cut one.
pub(crate) fn fleet_targets(
    kind: ActionKind,
    target: Option<&str>,
    machines: &[&MachineView],
) -> Result<Vec<usize>, Refusal> {
    let cut = matches!(kind, ActionKind::CutZone | ActionKind::CutNodes | ActionKind::CutControlPlane);
    let (zone, limit) = match kind {
        ActionKind::CutControlPlane | ActionKind::RestoreControlPlane => (None, usize::MAX),
        ActionKind::CutZone | ActionKind::RestoreZone | ActionKind::CutNodes => {
            let first = machines.first().map(|m| m.zone.as_str()).unwrap_or_default();
            let (zone, k) = match (kind, target) {
                (ActionKind::CutNodes, Some(t)) => split_zone_count(t).unwrap_or((t, 0)),
                (_, Some(t)) => (t, usize::MAX),
                (_, None) => (first, usize::MAX),
            };
            if zone.is_empty() || !machines.iter().any(|m| m.zone == zone) {
                return Err(Refusal::NoSuchZone(zone.to_string()));
            }
            (Some(zone), k)
        }
        _ => return Err(Refusal::NoSuchMachine(String::new())),
    };
    let picked: Vec<usize> = machines
        .iter()
        .enumerate()
        .filter(|(_, m)| zone.is_none_or(|z| m.zone == z) && m.network_cut != cut)
        .map(|(i, _)| i)
        .take(limit)
        .collect();
    if !picked.is_empty() {
        return Ok(picked);
    }
    Err(match (zone, cut) {
        (Some(z), true) => Refusal::ZoneAlreadyCut(z.to_string()),
        (Some(z), false) => Refusal::ZoneNotCut(z.to_string()),
        (None, true) => Refusal::ControlPlaneAlreadyCut,
        (None, false) => Refusal::ControlPlaneNotCut,
    })
}
