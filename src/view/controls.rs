//! The sandbox controls' view model: which actions the reader can take at the playhead, on which
//! machine, and why the others are not possible now.

use crate::i18n::Key;
use crate::sim::objects::IntOrPercent;
use crate::sim::{ACTIONS, Action, ActionKind, Budget, Group, Refusal, Snapshot, Spec, Target, format_actions};

/// The sandbox's buttons in the groups the page lays them out in ([`Group`], from the registry;
/// in each, a pair undoes the other), without the fleet chapter's and the typed-only actions.
pub fn groups() -> Vec<Vec<ActionKind>> {
    Group::ALL
        .into_iter()
        .filter(|&g| g != Group::Fleet)
        .map(|g| ACTIONS.iter().filter(|s| s.group == g && !s.typed).map(|s| s.kind).collect())
        .collect()
}

/// The fleet chapter's own actions, in the page's order: the one that takes the count of nodes
/// first, next to the count (fail K nodes of a zone), then the registry's order (cut and restore
/// a zone, cut and restore the control plane).
pub fn fleet_group() -> Vec<ActionKind> {
    let fleet = ACTIONS.iter().filter(|s| s.group == Group::Fleet);
    let (counted, others): (Vec<&Spec>, Vec<&Spec>) = fleet.partition(|s| s.target == Target::ZoneCount);
    counted.into_iter().chain(others).map(|s| s.kind).collect()
}

/// Actions without a button (they name a taint or a Pod, which no button can): typed into the
/// kubectl panel (`kubectl taint nodes …`, `kubectl delete pod NAME`), or given in a link.
pub fn typed() -> Vec<ActionKind> {
    ACTIONS.iter().filter(|s| s.typed).map(|s| s.kind).collect()
}

/// The target of a fleet action on `zone` with `count` nodes: `ZONE/K`, `ZONE`, or none.
pub fn fleet_target(kind: ActionKind, zone: &str, count: usize) -> Option<String> {
    match kind.target() {
        Target::ZoneCount => Some(format!("{zone}/{count}")),
        Target::Zone => Some(zone.to_string()),
        _ => None,
    }
}

/// The fleet actions' availability at the snapshot's instant, aimed at `zone` (`count` nodes for
/// `cut-nodes`), in [`fleet_group`] order.
pub fn fleet_button_states(snapshot: &Snapshot<'_>, zone: &str, count: usize) -> Vec<ButtonState> {
    let checker = snapshot.action_checker();
    fleet_group()
        .into_iter()
        .map(|kind| ButtonState {
            kind,
            unavailable: checker.check(kind, fleet_target(kind, zone, count).as_deref()).err(),
        })
        .collect()
}

/// The sandbox's budget, read as `kubectl create pdb web --selector=app=web --min-available=VALUE`
/// (or `--max-unavailable`) reads it: kubectl's own check of the flag (`^[0-9]*%?$`), then the
/// API server's validation of the field (`ValidatePositiveIntOrPercent`,
/// `IsNotMoreThan100Percent`). The error is what kubectl prints.
pub fn budget_of(max_unavailable: bool, value: &str) -> Result<Budget, String> {
    let (flag, field) =
        if max_unavailable { ("max-unavailable", "maxUnavailable") } else { ("min-available", "minAvailable") };
    let value = value.trim();
    if value.is_empty() {
        return Err("error: one of min-available or max-unavailable must be specified".into());
    }
    let digits = value.strip_suffix('%').unwrap_or(value);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("error: invalid format specified for {flag}"));
    }
    let invalid = |why: &str| {
        format!(
            "error: failed to create poddisruptionbudgets: PodDisruptionBudget.policy \"web\" is invalid: spec.{field}: Invalid value: \"{value}\": {why}"
        )
    };
    // `intstr.Parse`: a number that fits an int32 is a number; anything else a string, which must
    // be a percentage.
    let amount = match value.parse::<i32>() {
        Ok(n) => IntOrPercent::Int(n),
        Err(_) => match digits.parse::<i32>() {
            Ok(p) if value.ends_with('%') && !digits.is_empty() => {
                if p > 100 {
                    return Err(invalid("must not be greater than 100%"));
                }
                IntOrPercent::Percent(p)
            }
            _ => {
                return Err(invalid(
                    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
                ));
            }
        },
    };
    Ok(if max_unavailable { Budget::MaxUnavailable(amount) } else { Budget::MinAvailable(amount) })
}

/// The button label of an action.
pub fn label(kind: ActionKind) -> Key {
    match kind {
        ActionKind::KillKubelet => Key::KillKubelet,
        ActionKind::StartKubelet => Key::StartKubelet,
        ActionKind::StopRuntime => Key::StopRuntime,
        ActionKind::StartRuntime => Key::StartRuntime,
        ActionKind::CutNetwork => Key::CutNetwork,
        ActionKind::RestoreNetwork => Key::RestoreNetwork,
        ActionKind::CreatePod => Key::CreatePod,
        ActionKind::CreateToleratingPod => Key::CreateToleratingPod,
        ActionKind::CreateBestEffortPod => Key::CreateBestEffortPod,
        ActionKind::CreatePriorityPod => Key::CreatePriorityPod,
        ActionKind::AddMachine => Key::AddMachine,
        ActionKind::AddDuplicateMachine => Key::AddDuplicateMachine,
        ActionKind::LabelNodeRole => Key::LabelNodeRole,
        ActionKind::Cordon => Key::Cordon,
        ActionKind::Uncordon => Key::Uncordon,
        ActionKind::Drain(_) => Key::Drain,
        ActionKind::CreatePdb(_) => Key::CreatePdb,
        ActionKind::CreateDaemonSet => Key::CreateDaemonSet,
        ActionKind::CreateCache => Key::CreateCache,
        ActionKind::Shutdown => Key::ShutdownMachine,
        ActionKind::PowerOff => Key::PowerOffMachine,
        ActionKind::DeleteNode => Key::DeleteNodeAction,
        ActionKind::TaintOutOfService => Key::TaintOutOfService,
        ActionKind::UntaintOutOfService => Key::UntaintOutOfService,
        ActionKind::Taint { .. } => Key::TaintNode,
        ActionKind::CreateStatefulSet => Key::CreateStatefulSet,
        ActionKind::CutZone => Key::CutZone,
        ActionKind::RestoreZone => Key::RestoreZone,
        ActionKind::CutControlPlane => Key::CutControlPlane,
        ActionKind::RestoreControlPlane => Key::RestoreControlPlane,
        ActionKind::CutNodes => Key::CutNodes,
        ActionKind::DeletePod(_) => Key::DeletePodAction,
        ActionKind::LeakMemory => Key::LeakMemoryAction,
        ActionKind::StopLeak => Key::StopLeakAction,
        ActionKind::ApproveCsr => Key::ApproveCsrAction,
        ActionKind::DenyCsr => Key::DenyCsrAction,
        ActionKind::DeleteBootstrapToken => Key::DeleteBootstrapTokenAction,
        ActionKind::DeleteAutoApproveBinding => Key::DeleteAutoApproveBindingAction,
        ActionKind::Logs => Key::LogsAction,
        ActionKind::Exec => Key::ExecAction,
    }
}

/// The machine index to act on: the chosen one if it exists, else the first.
pub fn clamp_machine(index: usize, machines: usize) -> usize {
    if index < machines { index } else { 0 }
}

/// The sandbox's machine picker's options, one per `(name, hostname)`, valued by index: the
/// name, and the hostname beside it when it differs. Written as one string: a fleet has a
/// thousand machines, and a view and an effect for each option were tens of milliseconds.
pub fn machine_options(machines: &[(String, String)], lang: crate::i18n::Lang) -> String {
    let mut o = String::with_capacity(machines.len() * 48);
    for (i, (name, host)) in machines.iter().enumerate() {
        option(&mut o, &i.to_string(), &machine_label(name, host, lang), false);
    }
    o
}

/// A machine's label in the picker: its name, and its hostname where that differs.
pub fn machine_label(name: &str, host: &str, lang: crate::i18n::Lang) -> String {
    if name == host { name.to_string() } else { lang.fill(Key::MachineHostname, &[name, host]) }
}

/// One option of a picker, its value and label escaped here.
pub fn option(o: &mut String, value: &str, label: &str, selected: bool) {
    use crate::view::html::{cat, escape};
    cat(
        o,
        &[
            "<option value=\"",
            &escape(value),
            "\"",
            if selected { " selected" } else { "" },
            ">",
            &escape(label),
            "</option>",
        ],
    );
}

/// The machine argument of an action: `None` for actions that take no machine and for the first
/// machine (the notation's default, so links stay short), else the machine's name.
pub fn machine_arg(kind: ActionKind, machines: &[String], index: usize) -> Option<String> {
    if !kind.targets_machine() {
        return None;
    }
    let index = clamp_machine(index, machines.len());
    if index == 0 { None } else { machines.get(index).cloned() }
}

/// One sandbox button at the playhead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ButtonState {
    pub kind: ActionKind,
    /// Why the action is not possible now (`None`: it is).
    pub unavailable: Option<Refusal>,
}

/// Every action's availability at the snapshot's instant, aimed at `machine` (`None`: the first
/// machine) or, for a Pod's memory, at `pod` (`None`: no Pod runs), in [`groups`] order.
pub fn button_states(snapshot: &Snapshot<'_>, machine: Option<&str>, pod: Option<&str>) -> Vec<ButtonState> {
    let checker = snapshot.action_checker();
    groups()
        .into_iter()
        .flatten()
        .map(|kind| {
            let unavailable = match kind.target() {
                Target::Pod => match pod {
                    Some(pod) => checker.check(kind, Some(pod)).err(),
                    None => Some(Refusal::NoPodRunning),
                },
                Target::Machine => checker.check(kind, machine).err(),
                _ => checker.check(kind, None).err(),
            };
            ButtonState { kind, unavailable }
        })
        .collect()
}

/// The Pods the memory actions can aim at: each Pod with a container running on a machine, as
/// `(target, machine)`: the target in the notation (`NAME` in `default`, else `NAMESPACE/NAME`),
/// in the machines' order.
pub fn pod_targets(snapshot: &Snapshot<'_>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    // A Pod's containers after its first: a fleet runs thousands of Pods.
    let mut seen = std::collections::BTreeSet::new();
    let machines = snapshot.machines();
    for m in machines.iter() {
        for c in m.containers.iter() {
            if !seen.insert((&*c.namespace, &*c.pod)) {
                continue;
            }
            let target =
                if &*c.namespace == "default" { c.pod.to_string() } else { format!("{}/{}", c.namespace, c.pod) };
            out.push((target, m.name.to_string()));
        }
    }
    out
}

/// The Pod picker's options, valued and labelled by target ([`pod_targets`]), in a group per
/// machine (the group's label its name: a Pod's name alone fits the picker's width), escaped.
pub fn pod_options(pods: &[(String, String)]) -> String {
    use crate::view::html::{cat, escape};
    let mut o = String::with_capacity(pods.len() * 64);
    let mut machine: Option<&str> = None;
    for (target, on) in pods {
        if machine != Some(on.as_str()) {
            if machine.is_some() {
                o.push_str("</optgroup>");
            }
            cat(&mut o, &["<optgroup label=\"", &escape(on), "\">"]);
            machine = Some(on);
        }
        option(&mut o, target, target, false);
    }
    if machine.is_some() {
        o.push_str("</optgroup>");
    }
    o
}

/// The machines' names at the snapshot's instant.
pub fn machine_names(snapshot: &Snapshot<'_>) -> Vec<String> {
    snapshot.machines().iter().map(|m| m.name.to_string()).collect()
}

/// The reader's actions in the link notation (`kill-kubelet@1m30s,start-kubelet@2m`), if any.
pub fn fork_summary(actions: &[Action]) -> Option<String> {
    (!actions.is_empty()).then(|| format_actions(actions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, SimTime, Timeline};

    #[test]
    fn machine_options_are_valued_by_index_and_escaped() {
        let machines = [("node-1".to_string(), "node-1".to_string()), ("m<2>".to_string(), "host-2".to_string())];
        let o = machine_options(&machines, crate::i18n::Lang::En);
        let second = crate::i18n::Lang::En.fill(Key::MachineHostname, &["m&lt;2&gt;", "host-2"]);
        assert_eq!(o, format!("<option value=\"0\">node-1</option><option value=\"1\">{second}</option>"));
    }

    #[test]
    fn every_action_has_one_place_and_a_label() {
        let mut listed: Vec<ActionKind> = groups().into_iter().flatten().collect();
        listed.extend(fleet_group());
        listed.extend(typed());
        listed.sort();
        let mut all = ActionKind::ALL.to_vec();
        all.sort();
        assert_eq!(listed, all);
        // The page's layout, as the registry's groups give it.
        let names = |kinds: Vec<ActionKind>| kinds.into_iter().map(ActionKind::name).collect::<Vec<_>>().join(" ");
        let rows: Vec<String> = groups().into_iter().map(names).collect();
        assert_eq!(
            rows,
            [
                "kill-kubelet start-kubelet",
                "stop-runtime start-runtime",
                "cut-network restore-network",
                "create-pod create-tolerating-pod create-besteffort-pod create-priority-pod",
                "leak-memory stop-leak",
                "add-machine add-duplicate-machine",
                "label-node-role",
                "cordon uncordon drain",
                "create-pdb create-daemonset create-cache",
                "shutdown power-off delete-node",
                "taint-out-of-service untaint-out-of-service create-statefulset",
            ]
        );
        assert_eq!(names(fleet_group()), "cut-nodes cut-zone restore-zone cut-control-plane restore-control-plane");
        assert_eq!(
            names(typed()),
            "taint delete-pod approve-csr deny-csr delete-bootstrap-token delete-autoapprove-binding logs exec"
        );
        assert_eq!(label(ActionKind::RestoreNetwork), Key::RestoreNetwork);
    }

    #[test]
    fn a_budget_is_read_as_kubectl_create_pdb_reads_it() {
        use IntOrPercent::{Int, Percent};
        assert_eq!(budget_of(false, "5"), Ok(Budget::MinAvailable(Int(5))));
        assert_eq!(budget_of(false, " 0 "), Ok(Budget::MinAvailable(Int(0))));
        assert_eq!(budget_of(true, "50%"), Ok(Budget::MaxUnavailable(Percent(50))));
        assert_eq!(budget_of(true, "100%"), Ok(Budget::MaxUnavailable(Percent(100))));
        // kubectl's own check of the flag.
        assert_eq!(budget_of(false, "abc").unwrap_err(), "error: invalid format specified for min-available");
        assert_eq!(budget_of(true, "-1").unwrap_err(), "error: invalid format specified for max-unavailable");
        assert_eq!(
            budget_of(true, "").unwrap_err(),
            "error: one of min-available or max-unavailable must be specified"
        );
        // The API server's validation.
        assert_eq!(
            budget_of(false, "150%").unwrap_err(),
            "error: failed to create poddisruptionbudgets: PodDisruptionBudget.policy \"web\" is invalid: spec.minAvailable: Invalid value: \"150%\": must not be greater than 100%"
        );
        assert!(
            budget_of(true, "%")
                .unwrap_err()
                .contains("spec.maxUnavailable: Invalid value: \"%\": a valid percent string")
        );
        assert!(budget_of(false, "99999999999").unwrap_err().contains("a valid percent string"));
        // Every budget it accepts, the notation carries.
        for b in [budget_of(false, "5"), budget_of(true, "50%")] {
            let action = Action::new(ActionKind::CreatePdb(b.unwrap()), crate::sim::SimTime::from_secs(60));
            assert_eq!(crate::sim::parse_actions(&format_actions(std::slice::from_ref(&action))).unwrap(), [action]);
        }
    }

    #[test]
    fn each_pod_is_listed_once_in_the_machines_order() {
        // Each machine's containers, in order, a Pod's after its first left out.
        let reference = |at: &crate::sim::Snapshot<'_>| {
            let mut out: Vec<(String, String)> = Vec::new();
            for m in at.machines() {
                for c in m.containers.iter() {
                    let target = if &*c.namespace == "default" {
                        c.pod.to_string()
                    } else {
                        format!("{}/{}", c.namespace, c.pod)
                    };
                    if !out.iter().any(|(e, _)| *e == target) {
                        out.push((target, m.name.to_string()));
                    }
                }
            }
            out
        };
        for chapter in Chapter::ALL {
            let config = Config { nodes: 30, ..Config::default() };
            let mut tl = Timeline::with_actions(chapter, config, &[]);
            let end = SimTime::ZERO + tl.scenario().duration;
            tl.run_until(end);
            let mut t = SimTime::ZERO;
            while t <= end {
                let at = tl.at(t);
                assert_eq!(pod_targets(&at), reference(&at), "{chapter:?} at {t:?}");
                t = t + std::time::Duration::from_secs(5);
            }
        }
    }

    #[test]
    fn the_first_machine_is_the_default() {
        let names = vec!["node-1".to_string(), "node-2".to_string()];
        assert_eq!(machine_arg(ActionKind::KillKubelet, &names, 0), None);
        assert_eq!(machine_arg(ActionKind::KillKubelet, &names, 1), Some("node-2".into()));
        assert_eq!(machine_arg(ActionKind::KillKubelet, &names, 7), None);
        // Actions that take no machine never get one (the notation would reject it).
        assert_eq!(machine_arg(ActionKind::CreatePod, &names, 1), None);
        assert_eq!(machine_arg(ActionKind::AddMachine, &names, 1), None);
        assert_eq!(clamp_machine(3, 2), 0);
        assert_eq!(clamp_machine(1, 2), 1);
    }

    fn unavailable(states: &[ButtonState], kind: ActionKind) -> Option<String> {
        states.iter().find(|b| b.kind == kind).unwrap().unavailable.as_ref().map(ToString::to_string)
    }

    #[test]
    fn availability_comes_from_the_simulation() {
        let mut tl = Timeline::new(Chapter::Registration, Config::default());
        tl.run_until(SimTime::from_secs(100));
        let states = button_states(&tl.at(SimTime::from_secs(90)), None, None);
        assert_eq!(states.len(), ActionKind::ALL.len() - fleet_group().len() - typed().len());
        assert_eq!(unavailable(&states, ActionKind::LeakMemory).unwrap(), "no Pod is running");
        assert_eq!(unavailable(&states, ActionKind::KillKubelet), None);
        assert_eq!(unavailable(&states, ActionKind::CreatePod), None);
        assert_eq!(unavailable(&states, ActionKind::StartKubelet).unwrap(), "the kubelet on node-1 is already running");
        assert_eq!(unavailable(&states, ActionKind::RestoreNetwork).unwrap(), "the network of node-1 is not cut");
        assert_eq!(unavailable(&states, ActionKind::StartRuntime).unwrap(), "containerd on node-1 is already running");
        // A machine that does not exist is explained too.
        let states = button_states(&tl.at(SimTime::from_secs(90)), Some("node-9"), None);
        assert!(unavailable(&states, ActionKind::KillKubelet).unwrap().contains("no machine named node-9"));
        assert_eq!(unavailable(&states, ActionKind::CreatePod), None);
        assert_eq!(machine_names(&tl.at(SimTime::from_secs(90))), ["node-1"]);
        // A Pod's memory: the running Pods, each with its machine, and the actions aimed at one.
        let at = tl.at(SimTime::from_secs(90));
        let pods = pod_targets(&at);
        assert_eq!(
            pods,
            [("demo-dq4ck".to_string(), "node-1".to_string()), ("tolerant-bwbt7".to_string(), "node-1".to_string())]
        );
        assert_eq!(
            pod_options(&pods),
            "<optgroup label=\"node-1\"><option value=\"demo-dq4ck\">demo-dq4ck</option>\
             <option value=\"tolerant-bwbt7\">tolerant-bwbt7</option></optgroup>"
        );
        let two = [("a".to_string(), "node-1".to_string()), ("kube-system/b<".to_string(), "node-2".to_string())];
        assert_eq!(
            pod_options(&two),
            "<optgroup label=\"node-1\"><option value=\"a\">a</option></optgroup><optgroup label=\"node-2\">\
             <option value=\"kube-system/b&lt;\">kube-system/b&lt;</option></optgroup>"
        );
        assert_eq!(pod_options(&[]), "");
        let states = button_states(&at, None, Some("demo-dq4ck"));
        assert_eq!(unavailable(&states, ActionKind::LeakMemory), None);
        assert_eq!(
            unavailable(&states, ActionKind::StopLeak).unwrap(),
            "the Pod default/demo-dq4ck does not leak memory"
        );
    }

    #[test]
    fn fleet_actions_are_explained_per_zone() {
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 9, ..Config::default() });
        tl.run_until(SimTime::from_secs(100));
        let at = tl.at(SimTime::from_secs(90));
        let states = fleet_button_states(&at, "eu-west-1b", 2);
        assert_eq!(unavailable(&states, ActionKind::CutNodes), None);
        assert_eq!(unavailable(&states, ActionKind::RestoreZone).unwrap(), "no node of zone eu-west-1b is cut off");
        assert_eq!(
            unavailable(&states, ActionKind::RestoreControlPlane).unwrap(),
            "no kubelet is cut off from the API server"
        );
        let states = fleet_button_states(&at, "eu-west-1z", 2);
        assert_eq!(unavailable(&states, ActionKind::CutZone).unwrap(), "there is no zone named eu-west-1z");
        assert_eq!(fleet_target(ActionKind::CutNodes, "eu-west-1b", 3).as_deref(), Some("eu-west-1b/3"));
        assert_eq!(fleet_target(ActionKind::CutControlPlane, "eu-west-1b", 3), None);
    }

    #[test]
    fn after_a_kill_the_pair_swaps() {
        let mut tl = Timeline::new(Chapter::Registration, Config::default());
        tl.run_until(SimTime::from_secs(100));
        let action = Action::new(ActionKind::KillKubelet, SimTime::from_secs(90));
        tl.fork(action.clone()).unwrap();
        let states = button_states(&tl.at(SimTime::from_secs(91)), None, None);
        assert!(unavailable(&states, ActionKind::KillKubelet).is_some());
        assert_eq!(unavailable(&states, ActionKind::StartKubelet), None);
        // kubectl with the node's credentials needs the machine, not the kubelet process.
        assert_eq!(unavailable(&states, ActionKind::LabelNodeRole), None);
        assert_eq!(fork_summary(&tl.actions()).as_deref(), Some("kill-kubelet@1m30s"));
        assert_eq!(fork_summary(&[]), None);
    }
}
