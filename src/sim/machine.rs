//! A machine: what exists outside Kubernetes. Its container runtime can be up or down, its
//! network to the API server can be cut, and its containers keep running whatever its kubelet
//! does.

use std::collections::BTreeMap;

use super::kubelet::Kubelet;
use std::sync::Arc;

use super::objects::{ContainerImage, NodeSystemInfo, Quantities};
use super::profile::Profile;
use super::rng::Rng;
use super::time::SimTime;

/// How a machine starts, as a scenario describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineSpec {
    /// The machine's name, used to aim actions at it (`kill-kubelet:node-2@1m`).
    pub name: String,
    /// The hostname, and so the Node name its kubelet registers.
    pub hostname: String,
    /// When the kubelet's systemd unit is started (`None`: not started by itself).
    pub kubelet_start: Option<std::time::Duration>,
    /// When the CNI plugin's configuration appears on the machine (`None`: present at boot).
    /// Until then containerd reports `NetworkReady=false`.
    pub cni_ready_after: Option<std::time::Duration>,
}

impl MachineSpec {
    /// A ready-to-go machine whose kubelet starts at boot.
    pub fn new(name: &str) -> MachineSpec {
        MachineSpec {
            name: name.into(),
            hostname: name.into(),
            kubelet_start: Some(std::time::Duration::ZERO),
            cni_ready_after: None,
        }
    }
}

/// A container running on a machine, owned by containerd (it survives the kubelet and containerd
/// restarts: the shim keeps it running).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningContainer {
    pub pod_uid: String,
    pub namespace: String,
    pub pod: String,
    pub name: String,
    pub id: String,
    pub started_at: SimTime,
}

/// What can be seen of a machine at one moment (the stage draws it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineView {
    pub name: String,
    pub hostname: String,
    pub ip: String,
    pub kubelet: KubeletState,
    pub runtime_up: bool,
    pub cni_ready: bool,
    pub network_cut: bool,
    pub containers: Vec<RunningContainer>,
}

/// The kubelet process's state, as `systemctl status kubelet` would tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KubeletState {
    /// Not running, and not wanted (`systemctl stop kubelet`).
    Stopped,
    /// Exited with an error; systemd starts it again in 10 s.
    Restarting { why: String },
    /// Running.
    Running,
}

/// The kubelet process, as systemd sees it.
#[derive(Clone, Debug)]
pub(crate) enum KubeletProcess {
    /// Stopped (`systemctl stop kubelet`).
    Stopped,
    /// Exited with an error; systemd starts it again after `RestartSec=10`.
    Restarting { why: String },
    /// Running.
    Running(Box<Kubelet>),
}

/// One machine.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    pub(crate) name: String,
    /// The actor name of the machine's kubelet, shared by every request it sends.
    pub(crate) actor: super::record::Actor,
    pub(crate) hostname: String,
    pub(crate) ip: String,
    pub(crate) info: Arc<NodeSystemInfo>,
    pub(crate) capacity: Quantities,
    pub(crate) allocatable: Quantities,
    /// Images on the machine, largest first (the order the kubelet reports them in).
    pub(crate) images: Arc<Vec<ContainerImage>>,
    pub(crate) runtime_up: bool,
    /// When the runtime last went down (for PLEG's "last seen active").
    pub(crate) runtime_down_since: Option<SimTime>,
    pub(crate) cni_ready: bool,
    pub(crate) network_cut: bool,
    /// When the network was cut.
    pub(crate) network_cut_since: Option<SimTime>,
    pub(crate) containers: Vec<RunningContainer>,
    pub(crate) kubelet: KubeletProcess,
    /// Whether systemd wants the kubelet running (false after `kill-kubelet`).
    pub(crate) kubelet_enabled: bool,
    /// Whether the reader has started or killed this kubelet (the scenario then leaves it be).
    pub(crate) kubelet_touched: bool,
    /// Incremented at every kubelet process start; timers of older processes are ignored.
    pub(crate) kubelet_gen: u32,
    /// The next pod IP's last octet.
    pub(crate) next_pod_ip: u32,
    /// When the image pull in progress (pulls are serialized) finishes.
    pub(crate) pulls_busy_until: Option<SimTime>,
}

/// The images every machine has before any Pod runs.
fn base_images() -> Vec<ContainerImage> {
    vec![
        ContainerImage {
            names: vec![
                "registry.k8s.io/kube-proxy@sha256:9e876f24a8b6e2a7c1f3e4d5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5"
                    .into(),
                "registry.k8s.io/kube-proxy:v1.34.1".into(),
            ],
            size_bytes: 30_934_120,
        },
        ContainerImage {
            names: vec![
                "registry.k8s.io/pause@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a".into(),
                "registry.k8s.io/pause:3.10.1".into(),
            ],
            size_bytes: 320_448,
        },
    ]
}

/// The image the simulation's workload runs.
pub(crate) const WORKLOAD_IMAGE: &str = "nginx:1.27.5";
/// Its size, as containerd reports it after the pull.
pub(crate) const WORKLOAD_IMAGE_SIZE: i64 = 72_195_292;

impl Machine {
    /// Builds machine number `index` (0-based) from its spec.
    pub(crate) fn new(spec: &MachineSpec, index: u32, profile: Profile, rng: &mut Rng) -> Machine {
        let capacity: BTreeMap<String, String> = [
            ("cpu", "4"),
            ("ephemeral-storage", "102626232Ki"),
            ("hugepages-1Gi", "0"),
            ("hugepages-2Mi", "0"),
            ("memory", "16374584Ki"),
            ("pods", "110"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut allocatable = capacity.clone();
        // memory.available<100Mi and nodefs.available<10% are the default hard eviction thresholds.
        allocatable.insert("memory".into(), "16272184Ki".into());
        allocatable.insert("ephemeral-storage".into(), "94580335412".into());
        let info = NodeSystemInfo {
            machine_id: rng.hex(32),
            system_uuid: rng.uuid(),
            boot_id: rng.uuid(),
            kernel_version: "6.8.0-85-generic".into(),
            os_image: "Ubuntu 24.04.3 LTS".into(),
            container_runtime_version: profile.container_runtime_version().into(),
            kubelet_version: profile.kubelet_version().into(),
            kube_proxy_version: profile.kube_proxy_version().into(),
            operating_system: "linux".into(),
            architecture: "amd64".into(),
        };
        Machine {
            name: spec.name.clone(),
            actor: super::record::Actor::Kubelet(spec.name.as_str().into()),
            hostname: spec.hostname.clone(),
            ip: format!("10.0.0.{}", 11 + index),
            info: Arc::new(info),
            capacity: Arc::new(capacity),
            allocatable: Arc::new(allocatable),
            images: Arc::new(base_images()),
            runtime_up: true,
            runtime_down_since: None,
            cni_ready: spec.cni_ready_after.is_none(),
            network_cut: false,
            network_cut_since: None,
            containers: Vec::new(),
            kubelet: KubeletProcess::Stopped,
            kubelet_enabled: false,
            kubelet_touched: false,
            kubelet_gen: 0,
            next_pod_ip: 2,
            pulls_busy_until: None,
        }
    }

    /// The running kubelet, if any.
    pub(crate) fn kubelet(&self) -> Option<&Kubelet> {
        match &self.kubelet {
            KubeletProcess::Running(k) => Some(k),
            _ => None,
        }
    }

    /// The running kubelet, mutably.
    pub(crate) fn kubelet_mut(&mut self) -> Option<&mut Kubelet> {
        match &mut self.kubelet {
            KubeletProcess::Running(k) => Some(k),
            _ => None,
        }
    }

    /// What can be seen of the machine now.
    pub(crate) fn view(&self) -> MachineView {
        MachineView {
            name: self.name.clone(),
            hostname: self.hostname.clone(),
            ip: self.ip.clone(),
            kubelet: match &self.kubelet {
                KubeletProcess::Stopped => KubeletState::Stopped,
                KubeletProcess::Restarting { why } => KubeletState::Restarting { why: why.clone() },
                KubeletProcess::Running(_) => KubeletState::Running,
            },
            runtime_up: self.runtime_up,
            cni_ready: self.cni_ready,
            network_cut: self.network_cut,
            containers: self.containers.clone(),
        }
    }

    /// Adds a pulled image, keeping the list largest first.
    pub(crate) fn add_image(&mut self, image: ContainerImage) {
        let images = Arc::make_mut(&mut self.images);
        let at = images.partition_point(|i| i.size_bytes >= image.size_bytes);
        images.insert(at, image);
    }

    /// Whether the image is already on the machine.
    pub(crate) fn has_image(&self, image: &str) -> bool {
        self.images.iter().any(|i| i.names.iter().any(|n| n == image || n.ends_with(&format!("/{image}"))))
    }
}
