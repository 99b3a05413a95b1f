//! The table: one row a modelled Kubernetes setting, with its name as Kubernetes spells it, its
//! type and range, what it means and where the simulation uses it.

use super::{Component, Range, Settings, Type, Value};
use crate::profile::Profile;

/// Which of [`Settings`]' fields a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    NodeMonitorPeriod,
    NodeMonitorGracePeriod,
    NodeStartupGracePeriod,
    NodeEvictionRate,
    SecondaryNodeEvictionRate,
    UnhealthyZoneThreshold,
    LargeClusterSizeThreshold,
    ControllerManagerQps,
    ControllerManagerBurst,
    ClusterSigningDuration,
    NotReadyTolerationSeconds,
    UnreachableTolerationSeconds,
    SchedulerQps,
    SchedulerBurst,
    NodeStatusUpdateFrequency,
    NodeStatusReportFrequency,
    NodeLeaseDurationSeconds,
    ShutdownGracePeriod,
    ShutdownGracePeriodCriticalPods,
    KubeletQps,
    KubeletBurst,
    EvictionPressureTransitionPeriod,
    RotateCertificates,
    EvictionHard,
    EvictionSoft,
    EvictionSoftGracePeriod,
    EvictionMaxPodGracePeriod,
}

/// One modelled Kubernetes setting.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub component: Component,
    /// The flag's name without its dashes, or the `KubeletConfiguration` field's.
    pub name: &'static str,
    pub type_: Type,
    pub range: Range,
    pub(super) field: Field,
}

impl Row {
    /// The setting's default in a Kubernetes release.
    pub fn default(&self, profile: Profile) -> Value {
        Settings::defaults(profile).value(self.field)
    }

    /// `component:name`, as the command line's `--set` takes it.
    pub fn key(&self) -> String {
        format!("{}:{}", self.component.name(), self.name)
    }

    /// What it means, in Kubernetes' terms.
    pub fn meaning(&self) -> &'static str {
        ABOUT[self.field as usize].0
    }

    /// Where the simulation uses the value.
    pub fn used_by(&self) -> &'static str {
        ABOUT[self.field as usize].1
    }
}

/// The table, written one row a setting: its rows (what the simulation reads) and their words
/// (what the help and the documents read, kept apart so that the page, which never prints
/// them, does not carry them).
macro_rules! table {
    ($(($component:expr, $name:expr, $type_:expr, $range:expr, $field:expr, $meaning:expr, $used_by:expr $(,)?)),* $(,)?) => {
        /// Every setting the simulation models, by component (in [`Field`]'s order).
        pub const ROWS: [Row; 27] =
            [$(Row { component: $component, name: $name, type_: $type_, range: $range, field: $field }),*];
        /// Each row's meaning and user, by [`Field`].
        const ABOUT: [(&str, &str); 27] = [$(($meaning, $used_by)),*];
    };
}

use Component::{KubeApiserver as Apiserver, KubeControllerManager as Kcm, KubeScheduler as Scheduler, Kubelet};

table! {
    (
        Kcm,
        "node-monitor-period",
        Type::Duration,
        Range::Period,
        Field::NodeMonitorPeriod,
        "how often the node lifecycle controller checks each Node's health (monitorNodeHealth)",
        "the node lifecycle controller's monitor pass",
    ),
    (
        Kcm,
        "node-monitor-grace-period",
        Type::Duration,
        Range::Positive,
        Field::NodeMonitorGracePeriod,
        "how long a running Node may go without a heartbeat before its conditions are set to Unknown",
        "the node lifecycle controller: NodeNotReady, the unreachable taint",
    ),
    (
        Kcm,
        "node-startup-grace-period",
        Type::Duration,
        Range::Positive,
        Field::NodeStartupGracePeriod,
        "how long a starting Node (no Ready condition yet) may be unresponsive before it is marked unhealthy",
        "the node lifecycle controller, for a Node without a Ready condition",
    ),
    (
        Kcm,
        "node-eviction-rate",
        Type::Float,
        Range::Rate,
        Field::NodeEvictionRate,
        "Nodes a second tainted NoExecute when their zone is healthy (or fully disrupted)",
        "each zone's tainting queue",
    ),
    (
        Kcm,
        "secondary-node-eviction-rate",
        Type::Float,
        Range::Rate,
        Field::SecondaryNodeEvictionRate,
        "Nodes a second tainted NoExecute in a partially disrupted zone larger than large-cluster-size-threshold",
        "each zone's tainting queue",
    ),
    (
        Kcm,
        "unhealthy-zone-threshold",
        Type::Float,
        Range::Fraction,
        Field::UnhealthyZoneThreshold,
        "the fraction of a zone's Nodes not Ready (at least 3) from which the zone is PartialDisruption",
        "the zone states (ComputeZoneState)",
    ),
    (
        Kcm,
        "large-cluster-size-threshold",
        Type::Integer,
        Range::NonNegative,
        Field::LargeClusterSizeThreshold,
        "a partially disrupted zone of this many Nodes or fewer is tainted at rate 0 (not at all)",
        "each zone's tainting rate",
    ),
    (
        Kcm,
        "kube-api-qps",
        Type::Float,
        Range::Qps,
        Field::ControllerManagerQps,
        "requests a second each controller's client may send (the garbage collector's metadata client twice that)",
        "every controller's client",
    ),
    (
        Kcm,
        "kube-api-burst",
        Type::Integer,
        Range::Positive,
        Field::ControllerManagerBurst,
        "requests each controller's client may send at once",
        "every controller's client",
    ),
    (
        Kcm,
        "cluster-signing-duration",
        Type::Duration,
        Range::Validity,
        Field::ClusterSigningDuration,
        "how long the certificates csrsigning issues are valid (a request's expirationSeconds may shorten it)",
        "csrsigning: the certificate a bootstrapping kubelet gets (its notAfter)",
    ),
    (
        Apiserver,
        "default-not-ready-toleration-seconds",
        Type::Integer,
        Range::NonNegative,
        Field::NotReadyTolerationSeconds,
        "tolerationSeconds of the not-ready:NoExecute toleration DefaultTolerationSeconds adds to every Pod",
        "admission of new Pods",
    ),
    (
        Apiserver,
        "default-unreachable-toleration-seconds",
        Type::Integer,
        Range::NonNegative,
        Field::UnreachableTolerationSeconds,
        "tolerationSeconds of the unreachable:NoExecute toleration DefaultTolerationSeconds adds to every Pod",
        "admission of new Pods",
    ),
    (
        Scheduler,
        "kube-api-qps",
        Type::Float,
        Range::Qps,
        Field::SchedulerQps,
        "requests a second kube-scheduler's client may send (clientConnection.qps)",
        "the scheduler's client",
    ),
    (
        Scheduler,
        "kube-api-burst",
        Type::Integer,
        Range::Positive,
        Field::SchedulerBurst,
        "requests kube-scheduler's client may send at once (clientConnection.burst)",
        "the scheduler's client",
    ),
    (
        Kubelet,
        "nodeStatusUpdateFrequency",
        Type::Duration,
        Range::Period,
        Field::NodeStatusUpdateFrequency,
        "how often the kubelet computes its Node's status (and PATCHes it when it changed); its heartbeat client's timeout (at most the Lease's duration)",
        "every kubelet's status loop",
    ),
    (
        Kubelet,
        "nodeStatusReportFrequency",
        Type::Duration,
        Range::Period,
        Field::NodeStatusReportFrequency,
        "how often the kubelet PATCHes its Node's status when nothing changed (when not set: nodeStatusUpdateFrequency if that is set)",
        "every kubelet's status loop",
    ),
    (
        Kubelet,
        "nodeLeaseDurationSeconds",
        Type::Integer,
        Range::Positive,
        Field::NodeLeaseDurationSeconds,
        "the Lease's leaseDurationSeconds; the kubelet renews it every quarter of that",
        "every kubelet's Lease loop",
    ),
    (
        Kubelet,
        "shutdownGracePeriod",
        Type::Duration,
        Range::NonNegative,
        Field::ShutdownGracePeriod,
        "how long a graceful node shutdown delays the machine's power-off (0s: no graceful shutdown)",
        "every kubelet's shutdown manager (instead of each chapter's)",
    ),
    (
        Kubelet,
        "shutdownGracePeriodCriticalPods",
        Type::Duration,
        Range::NonNegative,
        Field::ShutdownGracePeriodCriticalPods,
        "the part of shutdownGracePeriod kept for critical Pods",
        "every kubelet's shutdown manager (instead of each chapter's)",
    ),
    (
        Kubelet,
        "kubeAPIQPS",
        Type::Float,
        Range::Qps,
        Field::KubeletQps,
        "requests a second the kubelet's main client may send (its heartbeats are not limited)",
        "every kubelet's client",
    ),
    (
        Kubelet,
        "kubeAPIBurst",
        Type::Integer,
        Range::Positive,
        Field::KubeletBurst,
        "requests the kubelet's main client may send at once",
        "every kubelet's client",
    ),
    (
        Kubelet,
        "evictionPressureTransitionPeriod",
        Type::Duration,
        Range::Period,
        Field::EvictionPressureTransitionPeriod,
        "how long the kubelet keeps reporting a pressure condition after the last eviction round that found its \
         threshold met (the kubelet turns 0s into its default; set the default instead)",
        "every kubelet's eviction manager (MemoryPressure)",
    ),
    (
        Kubelet,
        "rotateCertificates",
        Type::Boolean,
        Range::Either,
        Field::RotateCertificates,
        "the kubelet's client certificate goes through its certificate manager: requested (csr-…) and renewed \
         at 70 to 90 % of its life (not defaulted, so false; kubeadm sets true)",
        "the kubelet of a machine with a bootstrap kubeconfig (instead of its one-off TLS bootstrap)",
    ),
    (
        Kubelet,
        "evictionHard",
        Type::Thresholds,
        Range::MemoryAvailable,
        Field::EvictionHard,
        "the thresholds that, once met, make the kubelet evict a Pod at once, with a grace period of 1 s (other \
         signals are refused: the memory model feeds memory.available only)",
        "every kubelet's eviction manager",
    ),
    (
        Kubelet,
        "evictionSoft",
        Type::Thresholds,
        Range::MemoryAvailable,
        Field::EvictionSoft,
        "the thresholds that make the kubelet evict a Pod once met for their evictionSoftGracePeriod (each needs one); \
         MemoryPressure is reported as soon as one is met",
        "every kubelet's eviction manager",
    ),
    (
        Kubelet,
        "evictionSoftGracePeriod",
        Type::GracePeriods,
        Range::MemoryAvailable,
        Field::EvictionSoftGracePeriod,
        "how long each soft threshold must be met before the kubelet evicts for it",
        "every kubelet's eviction manager",
    ),
    (
        Kubelet,
        "evictionMaxPodGracePeriod",
        Type::Integer,
        Range::Int32,
        Field::EvictionMaxPodGracePeriod,
        "the grace period (seconds) of a Pod evicted for a soft threshold: at most the Pod's own from 1.32 (0: the \
         Pod's own; negative: 1 s)",
        "every kubelet's eviction manager (soft thresholds)",
    ),
}

/// The row of a setting.
pub fn row_of(component: Component, name: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.component == component && r.name == name)
}
