//! What the stage holds at one instant, laid out: the machines, the arrows, the control plane and
//! the stored objects, as plain values ([`super::layout`] builds them, [`super::svg`] draws them).

use super::geometry::{Pt, Rect, Route};
use super::layout::Layout;
use crate::sim::Actor;

/// How a part of the system is doing. It picks the shape drawn next to the text (never colour
/// alone): a disc, a triangle, or a crossed square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    Ok,
    Warn,
    Down,
}

impl Health {
    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            Health::Ok => "ok",
            Health::Warn => "warn",
            Health::Down => "down",
        }
    }
}

/// A row with a state: a shape, a text, and the accessible name of its group.
#[derive(Clone, Debug, PartialEq)]
pub struct StateChip {
    pub rect: Rect,
    pub health: Health,
    pub text: String,
    /// The accessible name, e.g. `node-1: kubelet stopped`.
    pub label: String,
}

/// The containers a machine runs (containerd owns them; they outlive the kubelet).
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerList {
    pub rect: Rect,
    /// `2 containers running`.
    pub title: String,
    /// One row per container: `pod/container`.
    pub rows: Vec<(Rect, String)>,
    /// `+3 more`, when not every container has a row.
    pub more: Option<(Rect, String)>,
    pub label: String,
}

/// containerd on a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeBox {
    /// The box around containerd and its containers.
    pub rect: Rect,
    /// The title row (state shape and text).
    pub chip: StateChip,
    /// `no CNI config: NetworkReady=false`, while the CNI plugin has not written its config.
    pub cni: Option<(Rect, String)>,
    pub containers: ContainerList,
}

/// One machine.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineBox {
    pub name: String,
    pub ip: String,
    pub rect: Rect,
    /// Where the IP goes: after the name (`true`) or on its own line.
    pub ip_inline: bool,
    /// The accessible name: `Machine node-1 (10.0.0.11)`.
    pub label: String,
    pub kubelet: StateChip,
    /// A machine that bootstraps its credentials: what the kubelet holds, one row each (its
    /// bootstrap kubeconfig only, then the current client and serving certificates in
    /// `/var/lib/kubelet/pki`). Empty for a machine that started with them.
    pub credentials: Vec<StateChip>,
    pub runtime: RuntimeBox,
    /// The volumes attached (or being attached) to the machine's Node, one row each.
    pub volumes: Vec<VolumeRow>,
    pub network: StateChip,
    /// The machine is off (a shutdown or a power-off), not only its kubelet.
    pub powered_off: bool,
}

/// A volume a VolumeAttachment attaches to a machine's Node: `db-0: pvc-…` (the Pod using it).
#[derive(Clone, Debug, PartialEq)]
pub struct VolumeRow {
    pub rect: Rect,
    pub text: String,
    /// `false` while the external-attacher has not marked it attached.
    pub attached: bool,
    /// The accessible name: `node-2: volume pvc-… attached, used by Pod db-0`.
    pub label: String,
    /// The YAML tab's choice a click opens: `VolumeAttachment//csi-…`.
    pub object: String,
}

/// What the stage says about one VolumeAttachment on a machine's Node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct AttachedVolume {
    pub pv: String,
    /// The VolumeAttachment's name.
    pub attachment: String,
    pub attached: bool,
    /// The StatefulSet Pod on that Node that uses it, if any.
    pub pod: Option<String>,
}

/// Who a route belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sender {
    /// A machine's kubelet, by machine name.
    Machine(String),
    NodeLifecycle,
    TaintEviction,
    ReplicaSet,
    /// The node IPAM and TTL controllers, which share a row.
    IpamTtl,
    /// The controllers of a node going away, which share a row: PodGC, the garbage collector,
    /// the StatefulSet and attach-detach controllers (with the CSI driver's attacher).
    PodGc,
    Scheduler,
    Kubectl,
}

impl Sender {
    /// The sender of a request.
    pub fn of(actor: &Actor) -> Sender {
        match actor {
            Actor::Kubelet(m) | Actor::KubeletBootstrap(m) => Sender::Machine(m.to_string()),
            Actor::NodeLifecycleController => Sender::NodeLifecycle,
            Actor::TaintEvictionController => Sender::TaintEviction,
            Actor::ReplicaSetController | Actor::DaemonSetController | Actor::DisruptionController => {
                Sender::ReplicaSet
            }
            Actor::NodeIpamController | Actor::TtlController => Sender::IpamTtl,
            Actor::PodGcController
            | Actor::GarbageCollector
            | Actor::StatefulSetController
            | Actor::AttachDetachController
            | Actor::CsiAttacher
            | Actor::PersistentVolumeController
            | Actor::CsiProvisioner
            | Actor::CsrApprovingController
            | Actor::CsrSigningController => Sender::PodGc,
            Actor::Scheduler => Sender::Scheduler,
            Actor::Kubectl | Actor::KubectlAsNode(_) | Actor::KubectlStderr => Sender::Kubectl,
        }
    }

    /// The CSS class of the sender's colour.
    pub fn class(&self) -> &'static str {
        match self {
            Sender::Machine(_) => "kubelet",
            Sender::Scheduler => "scheduler",
            Sender::Kubectl => "client",
            _ => "controller",
        }
    }
}

/// An arrow requests travel along.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub sender: Sender,
    pub route: Route,
    /// Where a cut network is cut (and where timed-out requests stop), as a fraction of the route.
    pub cut_at: Option<f32>,
    /// Whether it is cut now.
    pub cut: bool,
    /// The narration target (`network` for machine links).
    pub target: Option<&'static str>,
}

/// A box in the control plane, or kubectl.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorBox {
    pub sender: Sender,
    pub rect: Rect,
    pub text: String,
    pub target: Option<&'static str>,
    /// A top-level component (its own box with a bold title) rather than a row inside one.
    pub component: bool,
}

/// The control plane.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlPlane {
    /// The outline around the control plane (kubectl stays outside it).
    pub frame: Vec<Pt>,
    pub title: String,
    pub title_at: Pt,
    pub apiserver: Rect,
    pub apiserver_text: String,
    pub manager: Rect,
    pub manager_title: String,
    pub actors: Vec<ActorBox>,
}

/// A taint, as a chip on its Node's card.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    pub rect: Rect,
    /// Short form: `not-ready:NoSchedule`.
    pub text: String,
    /// As kubectl prints it: `node.kubernetes.io/not-ready:NoSchedule`.
    pub full: String,
    pub no_execute: bool,
}

/// A Node object.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeCard {
    pub rect: Rect,
    /// `Node node-1`.
    pub title: String,
    /// kubectl's STATUS column: `Ready`, `NotReady`, `Unknown`, maybe `,SchedulingDisabled`.
    pub status: String,
    pub health: Health,
    pub taints: Vec<Chip>,
    /// `Taints: none`, when there are none.
    pub no_taints: Option<String>,
    pub label: String,
    /// Changed within the last packet window (it is drawn lit up).
    pub fresh: bool,
}

/// A Lease object in `kube-node-lease`.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaseCard {
    pub rect: Rect,
    /// `Lease node-1`.
    pub title: String,
    /// `holderIdentity: node-1`.
    pub holder: String,
    /// `renewTime: 2026-03-02T09:00:10.763258Z`.
    pub renew: String,
    /// `renewed 4s ago`.
    pub ago: String,
    /// Older than the node monitor grace period.
    pub stale: bool,
    pub label: String,
    pub fresh: bool,
}

/// A Pod object.
#[derive(Clone, Debug, PartialEq)]
pub struct PodRow {
    pub rect: Rect,
    pub name: String,
    /// kubectl's READY and STATUS columns and the node: `1/1 Running · node-1`.
    pub detail: String,
    pub health: Health,
    /// A StatefulSet Pod's identity (`StatefulSet db · ordinal 0`): its name stays the same on
    /// whichever node it runs.
    pub identity: Option<String>,
    /// The YAML tab's choice a click on the identity opens: `StatefulSet/default/db`.
    pub owner: Option<String>,
}

/// The objects the API server stores.
#[derive(Clone, Debug, PartialEq)]
pub struct Store {
    pub frame: Rect,
    pub title: String,
    pub nodes: Vec<NodeCard>,
    /// `no Node object yet`.
    pub no_nodes: Option<(Pt, String)>,
    pub lease_ns: Rect,
    pub lease_ns_title: String,
    pub leases: Vec<LeaseCard>,
    pub no_leases: Option<(Pt, String)>,
    /// The PodDisruptionBudgets, one card each (below the Leases).
    pub budgets: Vec<BudgetCard>,
    pub pods_frame: Rect,
    pub pods_title: String,
    pub pods: Vec<PodRow>,
    /// `No Pods`.
    pub pods_note: Option<(Pt, String)>,
    /// The button that shows every Pod (`+3 more`) or the first few again.
    pub pods_toggle: Option<PodsToggle>,
}

/// The Pods list's button: every Pod's row, or the first few.
#[derive(Clone, Debug, PartialEq)]
pub struct PodsToggle {
    pub rect: Rect,
    /// `+3 more`, or `Show fewer`.
    pub text: String,
    /// Its accessible name: `Show all 9 Pods`, or `Show fewer`.
    pub label: String,
    pub expanded: bool,
}

/// A PodDisruptionBudget: what it asks for and what it allows now.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetCard {
    pub rect: Rect,
    /// `PodDisruptionBudget web`.
    pub title: String,
    /// `minAvailable: 5` or `maxUnavailable: 50%`.
    pub spec: String,
    /// `currentHealthy: 6  desiredHealthy: 5`.
    pub healthy: String,
    /// `disruptionsAllowed: 1`.
    pub allowed: String,
    /// Ok while it allows a disruption, down when it allows none.
    pub health: Health,
    pub label: String,
    pub fresh: bool,
}

/// Everything on the stage but the packets.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub layout: Layout,
    pub width: f32,
    pub height: f32,
    pub machines: Vec<MachineBox>,
    pub lines: Vec<Line>,
    pub control_plane: ControlPlane,
    /// The line from the API server down to what it stores.
    pub storage_link: (Pt, Pt),
    pub store: Store,
}
