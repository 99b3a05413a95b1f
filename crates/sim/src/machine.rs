//! What can be seen of a machine, outside Kubernetes: how a scenario starts it, and its visible
//! state at one moment (its kubelet process, container runtime, network and containers). The
//! machine itself, with its kubelet, is a component (`kubelet::Machine`); these are the plain
//! values it is described and recorded by.

use super::objects::Text;
use super::time::{SimTime, format_go_duration};

/// The id of the bootstrap token a bootstrapping machine is given (`kubeadm token create`'s
/// `[a-z0-9]{6}.[a-z0-9]{16}`; the example of the Kubernetes documentation, "Authenticating with
/// Bootstrap Tokens").
pub const BOOTSTRAP_TOKEN_ID: &str = "07401b";
/// The secret half of the bootstrap token.
pub const BOOTSTRAP_TOKEN_SECRET: &str = "f395accd246ae52d";

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
    /// Labels the kubelet registers its Node with (`--node-labels`), e.g. the
    /// `topology.kubernetes.io/zone` a cloud provider would set.
    pub labels: Vec<(String, String)>,
    /// The kubelet's `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods` (both zero, the
    /// default: no graceful node shutdown).
    pub shutdown_grace_period: std::time::Duration,
    pub shutdown_grace_period_critical_pods: std::time::Duration,
    /// The machine starts with only a bootstrap kubeconfig (`--bootstrap-kubeconfig`, the
    /// bootstrap token's): its kubelet asks for its client certificate with a
    /// CertificateSigningRequest before it registers. Off: it starts with its credentials.
    pub bootstrap: bool,
    /// `serverTLSBootstrap: true`: the kubelet asks for its serving certificate with a
    /// CertificateSigningRequest (`kubernetes.io/kubelet-serving`), which nothing approves by
    /// itself.
    pub server_tls_bootstrap: bool,
}

impl MachineSpec {
    /// A ready-to-go machine whose kubelet starts at boot.
    pub fn new(name: &str) -> MachineSpec {
        MachineSpec {
            name: name.into(),
            hostname: name.into(),
            kubelet_start: Some(std::time::Duration::ZERO),
            cni_ready_after: None,
            labels: Vec::new(),
            shutdown_grace_period: std::time::Duration::ZERO,
            shutdown_grace_period_critical_pods: std::time::Duration::ZERO,
            bootstrap: false,
            server_tls_bootstrap: false,
        }
    }
}

/// A certificate the kubelet wrote on its machine (its client certificate once its TLS bootstrap
/// is done, or its serving certificate): the file
/// `certificate_store.go` writes in `/var/lib/kubelet/pki` (certificate and key in one PEM, the
/// symlink `kubelet-client-current.pem` pointing at it), and the certificate's validity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientCertificate {
    /// `kubelet-client-<YYYY-MM-DD-HH-MM-SS>.pem`.
    pub file: String,
    /// The CertificateSigningRequest it was issued for.
    pub csr: String,
    pub not_before: super::time::WallTime,
    pub not_after: super::time::WallTime,
}

/// The kubelet's directory of certificates (`--cert-dir`'s default).
pub const KUBELET_PKI_DIR: &str = "/var/lib/kubelet/pki";
/// The kubeconfig the kubelet bootstraps with (kubeadm's `--bootstrap-kubeconfig`).
pub const BOOTSTRAP_KUBECONFIG: &str = "/etc/kubernetes/bootstrap-kubelet.conf";
/// The kubeconfig the kubelet writes once it has its certificate (kubeadm's `--kubeconfig`).
pub const KUBECONFIG: &str = "/etc/kubernetes/kubelet.conf";

/// The kubelet's graceful node shutdown settings, as the reader sets them for every machine
/// (`KubeletConfiguration` `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShutdownPeriods {
    pub grace: std::time::Duration,
    pub critical: std::time::Duration,
}

impl ShutdownPeriods {
    /// Checks the pair as the kubelet validates its configuration (`ValidateKubeletConfiguration`,
    /// with `GracefulNodeShutdown` on); the error is the kubelet's first complaint, word for word.
    pub fn validate(&self) -> Result<(), String> {
        let (g, c) = (format_go_duration(self.grace), format_go_duration(self.critical));
        let second = std::time::Duration::from_secs(1);
        if self.critical > self.grace {
            return Err(format!(
                "invalid configuration: shutdownGracePeriodCriticalPods {c} must be <= shutdownGracePeriod {g}"
            ));
        }
        if !self.grace.is_zero() && self.grace < second {
            return Err(format!(
                "invalid configuration: shutdownGracePeriod {g} must be either zero or otherwise >= 1 sec"
            ));
        }
        if !self.critical.is_zero() && self.critical < second {
            return Err(format!(
                "invalid configuration: shutdownGracePeriodCriticalPods {c} must be either zero or otherwise >= 1 sec"
            ));
        }
        Ok(())
    }

    /// `spec` with these settings.
    pub fn apply(&self, spec: &MachineSpec) -> MachineSpec {
        MachineSpec {
            shutdown_grace_period: self.grace,
            shutdown_grace_period_critical_pods: self.critical,
            ..spec.clone()
        }
    }
}

/// A container running on a machine, owned by containerd (it survives the kubelet and containerd
/// restarts: the shim keeps it running). Its texts are shared (the Pod's own names and uid): the
/// machine's list is copied whenever it changes after a recorded view or a checkpoint shared it,
/// and a copy then copies no string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningContainer {
    pub pod_uid: Text,
    pub namespace: Text,
    pub pod: Text,
    pub name: Text,
    pub id: Text,
    pub started_at: SimTime,
}

/// A container that leaks memory (the reader's `leak-memory`): from `since` (until `until`, when
/// the reader stopped it) its working set grows at `memory::LEAK_RATE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leak {
    pub pod_uid: Text,
    pub since: SimTime,
    pub until: Option<SimTime>,
}

impl Leak {
    /// Whether the leak still grows.
    pub fn active(&self) -> bool {
        self.until.is_none()
    }
}

/// What can be seen of a machine at one moment (the stage draws it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineView {
    /// Its texts are the host's own, shared (a fleet records thousands of views).
    pub name: Text,
    pub hostname: Text,
    pub ip: Text,
    pub kubelet: KubeletState,
    pub runtime_up: bool,
    pub cni_ready: bool,
    pub network_cut: bool,
    /// Shared with the machine's host (and so between the views recorded while the containers do
    /// not change).
    pub containers: crate::shared::Shared<Vec<RunningContainer>>,
    /// The machine is off (a shutdown or power-off, until its kubelet is started again).
    pub powered_off: bool,
    /// The containers that leak memory (`memory::working_sets` reads their usage at any
    /// instant), shared with the host.
    pub leaks: crate::shared::Shared<Vec<Leak>>,
    /// The `topology.kubernetes.io/zone` label the kubelet registers its Node with (empty
    /// without one): what the zone actions aim at.
    pub zone: String,
    /// The machine started with only a bootstrap kubeconfig ([`BOOTSTRAP_KUBECONFIG`]).
    pub bootstrap: bool,
    /// The client certificate its kubelet's bootstrap wrote (`None` until then, and for a
    /// machine that started with its credentials).
    pub client_certificate: Option<std::sync::Arc<ClientCertificate>>,
    /// The serving certificate its kubelet's certificate manager wrote (`serverTLSBootstrap`):
    /// `kubelet-server-<time>.pem`, with the symlink `kubelet-server-current.pem`.
    pub serving_certificate: Option<std::sync::Arc<ClientCertificate>>,
}

/// The zone label a cloud provider sets on its machines' Nodes.
pub const ZONE_LABEL: &str = "topology.kubernetes.io/zone";
/// The region label a cloud provider sets on its machines' Nodes.
pub const REGION_LABEL: &str = "topology.kubernetes.io/region";

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
