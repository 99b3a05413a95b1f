//! Who sent a request or wrote a log line.

use std::fmt;
use std::sync::Arc;

/// Who sent a request or wrote a log line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Actor {
    /// The kubelet on a machine, named by the machine.
    Kubelet(Arc<str>),
    /// The kubelet on a machine (named by the machine) with only its bootstrap kubeconfig: it
    /// authenticates with the bootstrap token, as `system:bootstrap:<id>`.
    KubeletBootstrap(Arc<str>),
    /// kube-controller-manager's `csrapproving` controller.
    CsrApprovingController,
    /// kube-controller-manager's `csrsigning` controller (its `csrsigning-kubelet-client` and
    /// `csrsigning-kubelet-serving` loops).
    CsrSigningController,
    /// kube-controller-manager's node lifecycle controller.
    NodeLifecycleController,
    /// kube-controller-manager's taint eviction controller.
    TaintEvictionController,
    /// kube-controller-manager's ReplicaSet controller.
    ReplicaSetController,
    /// kube-controller-manager's node IPAM controller (hands out `spec.podCIDR`).
    NodeIpamController,
    /// kube-controller-manager's TTL controller (the `node.alpha.kubernetes.io/ttl` annotation).
    TtlController,
    /// kube-scheduler.
    Scheduler,
    /// A person with kubectl (the reader's own actions that create Pods).
    Kubectl,
    /// A person on a machine running kubectl with the kubelet's kubeconfig: authenticated as
    /// the node named here, so NodeRestriction applies.
    KubectlAsNode(Arc<str>),
    /// kube-controller-manager's DaemonSet controller.
    DaemonSetController,
    /// kube-controller-manager's disruption controller (PodDisruptionBudget status).
    DisruptionController,
    /// What the reader's kubectl prints on stderr (its log lines; stdout lines are `Kubectl`'s).
    KubectlStderr,
    /// kube-controller-manager's PodGC controller.
    PodGcController,
    /// kube-controller-manager's garbage collector (owner references).
    GarbageCollector,
    /// kube-controller-manager's StatefulSet controller.
    StatefulSetController,
    /// kube-controller-manager's attach-detach controller.
    AttachDetachController,
    /// The CSI driver's external-attacher sidecar.
    CsiAttacher,
    /// kube-controller-manager's PersistentVolume controller (binds claims and volumes).
    PersistentVolumeController,
    /// The CSI driver's external-provisioner sidecar.
    CsiProvisioner,
}

impl Actor {
    /// The user the actor authenticates as.
    pub fn user(&self, node_name: &str) -> String {
        match self {
            Actor::Kubelet(_) => format!("system:node:{node_name}"),
            Actor::KubeletBootstrap(_) => format!("system:bootstrap:{}", crate::machine::BOOTSTRAP_TOKEN_ID),
            Actor::CsrApprovingController | Actor::CsrSigningController => {
                "system:serviceaccount:kube-system:certificate-controller".into()
            }
            Actor::NodeLifecycleController => "system:serviceaccount:kube-system:node-controller".into(),
            Actor::TaintEvictionController => "system:kube-controller-manager".into(),
            Actor::ReplicaSetController => "system:serviceaccount:kube-system:replicaset-controller".into(),
            Actor::NodeIpamController => "system:serviceaccount:kube-system:node-controller".into(),
            Actor::TtlController => "system:serviceaccount:kube-system:ttl-controller".into(),
            Actor::Scheduler => "system:kube-scheduler".into(),
            Actor::Kubectl => "kubernetes-admin".into(),
            Actor::KubectlAsNode(node) => format!("system:node:{node}"),
            Actor::DaemonSetController => "system:serviceaccount:kube-system:daemon-set-controller".into(),
            Actor::DisruptionController => "system:serviceaccount:kube-system:disruption-controller".into(),
            Actor::KubectlStderr => "kubernetes-admin".into(),
            Actor::PodGcController => "system:serviceaccount:kube-system:pod-garbage-collector".into(),
            Actor::GarbageCollector => "system:serviceaccount:kube-system:generic-garbage-collector".into(),
            Actor::StatefulSetController => "system:serviceaccount:kube-system:statefulset-controller".into(),
            Actor::AttachDetachController => "system:serviceaccount:kube-system:attachdetach-controller".into(),
            Actor::CsiAttacher => "system:serviceaccount:kube-system:csi-attacher".into(),
            Actor::PersistentVolumeController => "system:serviceaccount:kube-system:persistent-volume-binder".into(),
            Actor::CsiProvisioner => "system:serviceaccount:kube-system:csi-provisioner".into(),
        }
    }

    /// The machine a kubelet runs on.
    pub fn machine(&self) -> Option<&str> {
        match self {
            Actor::Kubelet(m) | Actor::KubeletBootstrap(m) => Some(&**m),
            _ => None,
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Kubelet(m) => write!(f, "kubelet/{m}"),
            Actor::KubeletBootstrap(m) => {
                write!(f, "kubelet/{m} (system:bootstrap:{})", crate::machine::BOOTSTRAP_TOKEN_ID)
            }
            Actor::CsrApprovingController => f.write_str("csrapproving"),
            Actor::CsrSigningController => f.write_str("csrsigning"),
            Actor::NodeLifecycleController => f.write_str("node-lifecycle-controller"),
            Actor::TaintEvictionController => f.write_str("taint-eviction-controller"),
            Actor::ReplicaSetController => f.write_str("replicaset-controller"),
            Actor::NodeIpamController => f.write_str("node-ipam-controller"),
            Actor::TtlController => f.write_str("ttl-controller"),
            Actor::Scheduler => f.write_str("kube-scheduler"),
            Actor::Kubectl => f.write_str("kubectl"),
            Actor::KubectlAsNode(node) => write!(f, "kubectl (system:node:{node})"),
            Actor::DaemonSetController => f.write_str("daemonset-controller"),
            Actor::DisruptionController => f.write_str("disruption-controller"),
            Actor::KubectlStderr => f.write_str("kubectl (stderr)"),
            Actor::PodGcController => f.write_str("pod-garbage-collector"),
            Actor::GarbageCollector => f.write_str("garbage-collector"),
            Actor::StatefulSetController => f.write_str("statefulset-controller"),
            Actor::AttachDetachController => f.write_str("attachdetach-controller"),
            Actor::CsiAttacher => f.write_str("csi-attacher"),
            Actor::PersistentVolumeController => f.write_str("persistent-volume-binder"),
            Actor::CsiProvisioner => f.write_str("csi-provisioner"),
        }
    }
}
