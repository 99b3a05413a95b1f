//! The registry of actions: every action the reader (or a chapter's script) can take, declared
//! once with its name in the notation, what it is aimed at, the sandbox group it sits in, whether
//! only typing it (the kubectl panel, a link) takes it, the `+flag` suffixes it takes, and what it
//! models. The notation's parser and printer, the page's groups of buttons, the command line's
//! help and the README's table of actions are derived from it. Labels are the page's (its
//! catalogue keys them by action); the English here describes the notation, as its errors do.

use super::{ActionKind, Budget, DeleteFlags, DrainFlags};

/// What an action is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing: the cluster as a whole.
    None,
    /// One machine (`:MACHINE`; the chapter's first machine when omitted).
    Machine,
    /// A zone (`:ZONE`, required).
    Zone,
    /// A number of nodes of a zone (`:ZONE/K`, required).
    ZoneCount,
    /// A Pod (`:NAME` in `default`, or `:NAMESPACE/NAME`, required).
    Pod,
    /// A machine's Node and one taint argument of `kubectl taint` (`:NODE/KEY[=VALUE]:EFFECT`, or
    /// `:NODE/KEY[:EFFECT]-` to remove; required).
    NodeTaint,
    /// A CertificateSigningRequest (`:NAME`, required).
    Csr,
    /// A Pod and, optionally, one of its containers (`:[NAMESPACE/]NAME` or
    /// `:NAMESPACE/NAME/CONTAINER`, required).
    PodContainer,
}

impl Target {
    /// The target's placeholder in the notation (`ACTION:MACHINE@TIME`), empty for none.
    pub fn placeholder(self) -> &'static str {
        match self {
            Target::None => "",
            Target::Machine => "MACHINE",
            Target::Zone => "ZONE",
            Target::ZoneCount => "ZONE/K",
            Target::Pod => "[NAMESPACE/]NAME",
            Target::NodeTaint => "NODE/TAINT",
            Target::Csr => "CSR",
            Target::PodContainer => "[NAMESPACE/]NAME[/CONTAINER]",
        }
    }

    /// What the target is, in a few words.
    pub fn about(self) -> &'static str {
        match self {
            Target::None => "none",
            Target::Machine => "a machine, the chapter's first when omitted",
            Target::Zone => "a zone, e.g. eu-west-1b",
            Target::ZoneCount => "the first K connected nodes of a zone",
            Target::Pod => "a Pod, in default when no namespace is given",
            Target::NodeTaint => "a Node and a taint: KEY[=VALUE]:EFFECT adds, KEY[:EFFECT]- removes",
            Target::Csr => "a CertificateSigningRequest's name",
            Target::PodContainer => "a Pod; NAMESPACE/NAME/CONTAINER names its container",
        }
    }
}

/// The `+flag` suffixes an action takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flags {
    None,
    /// `kubectl drain`'s ([`DrainFlags`]).
    Drain,
    /// The budget of `kubectl create pdb` ([`Budget`]), required.
    Budget,
    /// `kubectl delete pod`'s ([`DeleteFlags`]).
    Delete,
    /// `kubectl taint`'s `--overwrite`.
    Overwrite,
}

impl Flags {
    /// The suffixes as the notation writes them.
    pub fn syntax(self) -> &'static str {
        match self {
            Flags::None => "",
            Flags::Drain | Flags::Delete => "[+FLAG...]",
            Flags::Budget => "+min-available=N|+max-unavailable=N",
            Flags::Overwrite => "[+overwrite]",
        }
    }

    /// The flags there are, as the parser's errors and the help list them.
    pub fn known(self) -> &'static str {
        match self {
            Flags::None => "",
            Flags::Drain => {
                "ignore-daemonsets, delete-emptydir-data, force, disable-eviction, grace-period=N, timeout=DURATION, \
                 chunk-size=N, pod-selector=SELECTOR"
            }
            Flags::Budget => "min-available=N or max-unavailable=N (N a number or a percentage)",
            Flags::Delete => "grace-period=N, force, wait=false",
            Flags::Overwrite => "overwrite",
        }
    }
}

/// The sandbox's groups of buttons, in the page's order (in each, a pair undoes the other), and
/// the fleet chapter's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Kubelet,
    Runtime,
    Network,
    Pods,
    /// A Pod's memory, aimed at a running Pod.
    Memory,
    Machines,
    Role,
    Maintenance,
    Workloads,
    Power,
    OutOfService,
    /// Only in the fleet chapter (zone-outage), with a zone and a number of nodes.
    Fleet,
}

impl Group {
    /// Every group, in the page's order.
    pub const ALL: [Group; 12] = [
        Group::Kubelet,
        Group::Runtime,
        Group::Network,
        Group::Pods,
        Group::Memory,
        Group::Machines,
        Group::Role,
        Group::Maintenance,
        Group::Workloads,
        Group::Power,
        Group::OutOfService,
        Group::Fleet,
    ];
}

/// One action, as the registry declares it.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The action, its flags at their defaults.
    pub kind: ActionKind,
    /// Its name in the notation.
    pub name: &'static str,
    pub target: Target,
    pub group: Group,
    /// Taken only typed (the kubectl panel, a link): no button names a taint, a Pod to delete or
    /// a CSR.
    pub typed: bool,
    pub flags: Flags,
    /// What it does to the cluster, in one line (the README's table). The page never shows it,
    /// so its build leaves it out (the page's first load is held to a size).
    #[cfg(not(target_arch = "wasm32"))]
    pub about: &'static str,
}

const fn spec(kind: ActionKind, name: &'static str, target: Target, group: Group, about: &'static str) -> Spec {
    #[cfg(target_arch = "wasm32")]
    let _ = about;
    Spec {
        kind,
        name,
        target,
        group,
        typed: false,
        flags: Flags::None,
        #[cfg(not(target_arch = "wasm32"))]
        about,
    }
}

const fn with_flags(s: Spec, flags: Flags) -> Spec {
    Spec { flags, ..s }
}

const fn typed(s: Spec) -> Spec {
    Spec { typed: true, ..s }
}

/// Every action, in the order the notation's errors list them.
pub const ACTIONS: [Spec; 40] = {
    use ActionKind as A;
    use Group as G;
    use Target as T;
    [
        spec(A::KillKubelet, "kill-kubelet", T::Machine, G::Kubelet, "stops the kubelet (its process is killed)"),
        spec(A::StartKubelet, "start-kubelet", T::Machine, G::Kubelet, "starts the kubelet again"),
        spec(A::StopRuntime, "stop-runtime", T::Machine, G::Runtime, "stops containerd"),
        spec(A::StartRuntime, "start-runtime", T::Machine, G::Runtime, "starts containerd again"),
        spec(A::CutNetwork, "cut-network", T::Machine, G::Network, "cuts the machine off the API server"),
        spec(A::RestoreNetwork, "restore-network", T::Machine, G::Network, "restores the machine's network"),
        spec(A::CreatePod, "create-pod", T::None, G::Pods, "creates a Pod"),
        spec(
            A::CreateToleratingPod,
            "create-tolerating-pod",
            T::None,
            G::Pods,
            "creates a Pod that tolerates the not-ready taint",
        ),
        spec(
            A::CreateBestEffortPod,
            "create-besteffort-pod",
            T::Machine,
            G::Pods,
            "creates a Pod with no resource requests (BestEffort) pinned to the machine's node",
        ),
        spec(A::AddMachine, "add-machine", T::None, G::Machines, "adds a machine with a kubelet"),
        spec(
            A::AddDuplicateMachine,
            "add-duplicate-machine",
            T::Machine,
            G::Machines,
            "adds a second machine with the machine's hostname",
        ),
        spec(
            A::LabelNodeRole,
            "label-node-role",
            T::Machine,
            G::Role,
            "kubectl label node NODE node-role.kubernetes.io/worker= with the kubelet's credentials",
        ),
        spec(A::Cordon, "cordon", T::Machine, G::Maintenance, "kubectl cordon NODE"),
        spec(A::Uncordon, "uncordon", T::Machine, G::Maintenance, "kubectl uncordon NODE"),
        with_flags(
            spec(A::Drain(DrainFlags::NONE), "drain", T::Machine, G::Maintenance, "kubectl drain NODE with its flags"),
            Flags::Drain,
        ),
        with_flags(
            spec(
                A::CreatePdb(Budget::ONE),
                "create-pdb",
                T::None,
                G::Workloads,
                "kubectl create pdb over the Deployment web (app=web) with its budget",
            ),
            Flags::Budget,
        ),
        spec(
            A::CreateDaemonSet,
            "create-daemonset",
            T::None,
            G::Workloads,
            "applies a DaemonSet (a node agent in kube-system)",
        ),
        spec(
            A::CreateCache,
            "create-cache",
            T::Machine,
            G::Workloads,
            "applies a Deployment cache pinned to the machine's node with an emptyDir (drain's local-storage rule)",
        ),
        spec(
            A::Shutdown,
            "shutdown",
            T::Machine,
            G::Power,
            "systemctl poweroff: a graceful node shutdown when the kubelet has shutdownGracePeriod",
        ),
        spec(A::PowerOff, "power-off", T::Machine, G::Power, "the machine loses power at once"),
        spec(A::DeleteNode, "delete-node", T::Machine, G::Power, "kubectl delete node NODE"),
        spec(
            A::TaintOutOfService,
            "taint-out-of-service",
            T::Machine,
            G::OutOfService,
            "kubectl taint nodes NODE node.kubernetes.io/out-of-service=nodeshutdown:NoExecute",
        ),
        spec(
            A::UntaintOutOfService,
            "untaint-out-of-service",
            T::Machine,
            G::OutOfService,
            "kubectl taint nodes NODE node.kubernetes.io/out-of-service-",
        ),
        typed(with_flags(
            spec(
                A::Taint { overwrite: false },
                "taint",
                T::NodeTaint,
                G::OutOfService,
                "kubectl taint nodes NODE TAINT, any taint (+overwrite: --overwrite)",
            ),
            Flags::Overwrite,
        )),
        spec(
            A::CreateStatefulSet,
            "create-statefulset",
            T::None,
            G::OutOfService,
            "applies a StatefulSet db with one replica and one claim template, data",
        ),
        spec(A::CutZone, "cut-zone", T::Zone, G::Fleet, "cuts every kubelet of the zone off the API server"),
        spec(A::RestoreZone, "restore-zone", T::Zone, G::Fleet, "restores every cut kubelet of the zone"),
        spec(
            A::CutControlPlane,
            "cut-control-plane",
            T::None,
            G::Fleet,
            "the API server hears no kubelet (the control plane's network is cut)",
        ),
        spec(
            A::RestoreControlPlane,
            "restore-control-plane",
            T::None,
            G::Fleet,
            "every kubelet reaches the API server again",
        ),
        spec(
            A::CutNodes,
            "cut-nodes",
            T::ZoneCount,
            G::Fleet,
            "cuts the first K still-connected kubelets of the zone in one gesture",
        ),
        typed(with_flags(
            spec(
                A::DeletePod(DeleteFlags { grace_period: None, force: false, no_wait: false }),
                "delete-pod",
                T::Pod,
                G::Pods,
                "kubectl delete pod NAME [-n NAMESPACE] with its flags",
            ),
            Flags::Delete,
        )),
        spec(
            A::CreatePriorityPod,
            "create-priority-pod",
            T::Machine,
            G::Pods,
            "creates the PriorityClass high-priority (value 1000000) if there is none, and a Pod of that class pinned \
             to the machine's node",
        ),
        spec(
            A::LeakMemory,
            "leak-memory",
            T::Pod,
            G::Memory,
            "the Pod's container starts leaking memory (64Mi a second)",
        ),
        spec(A::StopLeak, "stop-leak", T::Pod, G::Memory, "the Pod's leak stops growing (what it took stays taken)"),
        typed(spec(
            A::ApproveCsr,
            "approve-csr",
            T::Csr,
            G::Role,
            "kubectl certificate approve CSR: the Approved condition (KubectlApprove)",
        )),
        typed(spec(
            A::DenyCsr,
            "deny-csr",
            T::Csr,
            G::Role,
            "kubectl certificate deny CSR: the Denied condition (KubectlDeny)",
        )),
        typed(spec(
            A::DeleteBootstrapToken,
            "delete-bootstrap-token",
            T::None,
            G::Role,
            "kubectl -n kube-system delete secret bootstrap-token-07401b: the bootstrap token no longer authenticates",
        )),
        typed(spec(
            A::DeleteAutoApproveBinding,
            "delete-autoapprove-binding",
            T::None,
            G::Role,
            "kubectl delete clusterrolebinding kubeadm:node-autoapprove-bootstrap: no CSR of a bootstrap token is auto-approved",
        )),
        typed(spec(
            A::Logs,
            "logs",
            T::PodContainer,
            G::Pods,
            "kubectl logs POD [-c CONTAINER]: the API server's answer (nodeline has no container output)",
        )),
        typed(spec(
            A::Exec,
            "exec",
            T::PodContainer,
            G::Pods,
            "kubectl exec POD [-c CONTAINER] -- CMD: the API server's answer (nodeline runs no commands)",
        )),
    ]
};

impl ActionKind {
    /// Every action, in the registry's order.
    pub const ALL: [ActionKind; ACTIONS.len()] = {
        let mut all = [ActionKind::KillKubelet; ACTIONS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = ACTIONS[i].kind;
            i += 1;
        }
        all
    };

    /// The action's entry in the registry.
    pub fn spec(self) -> &'static Spec {
        let all: &'static [Spec] = &ACTIONS;
        let this = std::mem::discriminant(&self);
        all.iter().find(|s| std::mem::discriminant(&s.kind) == this).expect("every action is in the registry")
    }

    /// The action's name in the notation.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The action named `name`.
    pub fn from_name(name: &str) -> Option<ActionKind> {
        ACTIONS.iter().find(|s| s.name == name).map(|s| s.kind)
    }

    /// Whether the action is aimed at one machine (and so takes `:MACHINE`).
    pub fn targets_machine(self) -> bool {
        self.target() == Target::Machine
    }

    /// What the action is aimed at.
    pub fn target(self) -> Target {
        self.spec().target
    }

    /// Whether two kinds are the same action, whatever their flags.
    pub fn same_action(self, other: ActionKind) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_action;
    use super::*;

    #[test]
    fn names_and_actions_are_declared_once() {
        for (i, a) in ACTIONS.iter().enumerate() {
            assert!(ACTIONS[..i].iter().all(|b| b.name != a.name && !b.kind.same_action(a.kind)), "{}", a.name);
            assert_eq!(a.kind.spec().name, a.name);
            assert_eq!(ActionKind::from_name(a.name), Some(a.kind));
        }
    }

    #[test]
    fn the_notation_reads_what_the_registry_declares() {
        let example = |s: &Spec| match s.target {
            Target::None => String::new(),
            Target::Machine => ":node-1".into(),
            Target::Zone => ":eu-west-1b".into(),
            Target::ZoneCount => ":eu-west-1b/2".into(),
            Target::Pod => ":default/web-1".into(),
            Target::NodeTaint => ":node-1/dedicated=db:NoSchedule".into(),
            Target::Csr => ":node-csr-Ab_9-x".into(),
            Target::PodContainer => ":default/web-1/nginx".into(),
        };
        for s in &ACTIONS {
            let flags = if s.flags == Flags::Budget { "+min-available=1" } else { "" };
            let text = format!("{}{flags}{}@1m0s", s.name, example(s));
            let action = parse_action(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((action.kind, action.to_string()), (s.kind, text));
            // Only the actions declared with flags take them.
            let flagged = parse_action(&format!("{}+sideways{}@1m", s.name, example(s))).unwrap_err().to_string();
            assert_eq!(flagged.contains("takes no flags"), s.flags == Flags::None, "{}: {flagged}", s.name);
            // Only the actions declared with a target take one.
            let bare = parse_action(&format!("{}{flags}@1m", s.name));
            assert_eq!(bare.is_ok(), matches!(s.target, Target::None | Target::Machine), "{}: {bare:?}", s.name);
        }
    }
}
