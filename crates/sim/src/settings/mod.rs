//! The Kubernetes settings the simulation models, named as Kubernetes names them: one table
//! ([`ROWS`]), one row a setting, and the typed values the components read ([`Settings`]).
//!
//! kube-controller-manager's, kube-apiserver's and kube-scheduler's settings go by their flag
//! names (`node-monitor-grace-period`), the kubelet's by their `KubeletConfiguration` field names
//! (`nodeStatusUpdateFrequency`). A setting the simulation does not model is refused by name,
//! never ignored. The defaults are each Kubernetes release's ([`Settings::defaults`]); the
//! schema, the checker, the command line's `--set`, the link's kubelet shutdown parameters and
//! `docs/settings.md` all come from the table. Each row's source is in
//! `docs/kubernetes-notes/settings.md`.

use std::fmt;
use std::time::Duration;

use super::flowcontrol::{self, ClientRate};
use super::machine::{MachineSpec, ShutdownPeriods};
use super::profile::Profile;
use super::time::{format_go_duration, parse_go_duration, parse_validity};

mod eviction;
mod rows;
pub use eviction::{DEFAULT_EVICTION_HARD, MEMORY_AVAILABLE, Quantity, soft_eviction_grace_period};
use rows::Field;
pub use rows::{ROWS, Row, row_of};

/// The component a setting belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    KubeControllerManager,
    KubeApiserver,
    KubeScheduler,
    Kubelet,
}

impl Component {
    /// Every component with a setting, in the table's order.
    pub const ALL: [Component; 4] =
        [Component::KubeControllerManager, Component::KubeApiserver, Component::KubeScheduler, Component::Kubelet];

    /// The component's name (its binary's).
    pub fn name(self) -> &'static str {
        match self {
            Component::KubeControllerManager => "kube-controller-manager",
            Component::KubeApiserver => "kube-apiserver",
            Component::KubeScheduler => "kube-scheduler",
            Component::Kubelet => "kubelet",
        }
    }

    /// The component of that name.
    pub fn from_name(name: &str) -> Option<Component> {
        Component::ALL.into_iter().find(|c| c.name() == name)
    }

    /// How its settings are named: flags, or `KubeletConfiguration` fields.
    pub fn naming(self) -> &'static str {
        match self {
            Component::Kubelet => "KubeletConfiguration field",
            _ => "flag",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A setting's type, as Kubernetes declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// `time.Duration` / `metav1.Duration`, in Go's notation (`40s`, `5m0s`, `1h`).
    Duration,
    /// `float32`.
    Float,
    /// `int32` (`int64` for the toleration seconds).
    Integer,
    /// `bool`.
    Boolean,
    /// `map[string]string` from an eviction signal to a threshold (`evictionHard`, `evictionSoft`).
    Thresholds,
    /// `map[string]string` from an eviction signal to a grace period (`evictionSoftGracePeriod`).
    GracePeriods,
}

impl Type {
    /// The type's name in the docs and the schema.
    pub fn name(self) -> &'static str {
        match self {
            Type::Duration => "duration",
            Type::Float => "float",
            Type::Integer => "integer",
            Type::Boolean => "boolean",
            Type::Thresholds => "threshold map",
            Type::GracePeriods => "duration map",
        }
    }

    /// What a value of the type looks like, for a message.
    fn expected(self) -> &'static str {
        match self {
            Type::Duration => "a duration in Go notation such as 40s, 5m0s or 1h (whole microseconds)",
            Type::Float => "a number such as 0.1",
            Type::Integer => "a whole number such as 30",
            Type::Boolean => "true or false",
            Type::Thresholds => "SIGNAL<QUANTITY entries such as memory.available<500Mi",
            Type::GracePeriods => "SIGNAL=DURATION entries such as memory.available=1m30s",
        }
    }
}

/// A setting's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Duration(Duration),
    Float(f64),
    Integer(i64),
    Boolean(bool),
    /// A threshold map: the `memory.available` threshold, or none.
    Threshold(Option<Quantity>),
    /// A grace period map: the `memory.available` grace period, or none.
    GracePeriod(Option<Duration>),
}

impl fmt::Display for Value {
    /// As Kubernetes prints it: a duration as Go's `Duration.String()`, numbers plainly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Duration(d) => f.write_str(&format_go_duration(*d)),
            Value::Float(x) => write!(f, "{x}"),
            Value::Integer(n) => write!(f, "{n}"),
            Value::Boolean(b) => write!(f, "{b}"),
            Value::Threshold(q) => f.write_str(&eviction::threshold_text(*q)),
            Value::GracePeriod(d) => f.write_str(&eviction::grace_period_text(*d)),
        }
    }
}

/// The values a setting takes, beyond its type: Kubernetes' own limits, and the simulation's
/// where it needs one (a loop it runs, a rate it waits on, its clock's microseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// Above zero (a grace period, a burst, a Lease's duration).
    Positive,
    /// Zero or more.
    NonNegative,
    /// From 0 to 1.
    Fraction,
    /// A certificate's validity: above zero, at most ten years (`time::MAX_VALIDITY`).
    Validity,
    /// A loop's period: at least [`MIN_PERIOD`].
    Period,
    /// A rate that may stop: 0 (never), or at least [`MIN_RATE`] a second.
    Rate,
    /// A client's rate: at least [`MIN_RATE`] a second.
    Qps,
    /// Either value (a boolean).
    Either,
    /// Any `int32`.
    Int32,
    /// An eviction map: the signal `memory.available` only (checked as it is read).
    MemoryAvailable,
}

/// The shortest period the simulation runs a loop at.
pub const MIN_PERIOD: Duration = Duration::from_millis(100);
/// The slowest rate the simulation waits on, a second (one token in 1,000 s).
pub const MIN_RATE: f64 = 0.001;

impl Range {
    /// The range in words, for a message.
    pub fn describe(self) -> &'static str {
        match self {
            Range::Positive => "greater than 0",
            Range::NonNegative => "0 or more",
            Range::Fraction => "from 0 to 1",
            Range::Validity => "greater than 0, at most 87600h",
            Range::Period => "at least 100ms",
            Range::Rate => "0 or at least 0.001",
            Range::Qps => "at least 0.001",
            Range::Either => "true or false",
            Range::Int32 => "a whole number from -2147483648 to 2147483647",
            Range::MemoryAvailable => "the signal memory.available only; {} for none",
        }
    }

    fn holds(self, v: Value) -> bool {
        let x = match v {
            // The simulation's clock counts microseconds: a finer period is not one it can keep.
            // (The kubelet's shutdown periods, the only durations that may be 0, are checked
            // together, and refused under a second but 0, in the kubelet's words.)
            Value::Duration(d) if d.subsec_nanos() % 1_000 != 0 && self != Range::NonNegative => return false,
            Value::Duration(d) => d.as_secs_f64(),
            Value::Float(x) if !x.is_finite() => return false,
            Value::Float(x) => x,
            Value::Integer(n) => n as f64,
            Value::Boolean(_) => return self == Range::Either,
            Value::Threshold(q) => return self == Range::MemoryAvailable && q.is_none_or(|q| q.bytes > 0),
            Value::GracePeriod(d) => {
                return self == Range::MemoryAvailable && d.is_none_or(|d| d.subsec_nanos() % 1_000 == 0);
            }
        };
        match self {
            Range::Positive | Range::Validity => x > 0.0,
            Range::NonNegative => x >= 0.0,
            Range::Fraction => (0.0..=1.0).contains(&x),
            Range::Period => x >= MIN_PERIOD.as_secs_f64(),
            Range::Rate => x == 0.0 || x >= MIN_RATE,
            Range::Qps => x >= MIN_RATE,
            Range::Either => false,
            Range::Int32 => (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&x),
            Range::MemoryAvailable => false,
        }
    }
}

/// Why a setting was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// No component of that name has settings here.
    UnknownComponent { component: String },
    /// The component has no modelled setting of that name.
    UnknownSetting { component: Component, name: String },
    /// The value is not of the setting's type, or out of its range; `detail` is the duration
    /// parser's own complaint, when it had one.
    BadValue { component: Component, name: &'static str, expected: String, given: String, detail: Option<String> },
    /// The kubelet would refuse the configuration (its message, word for word).
    Refused { component: Component, name: &'static str, given: String, why: String },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::UnknownComponent { component } => {
                let known: Vec<&str> = Component::ALL.iter().map(|c| c.name()).collect();
                write!(f, "unknown component \"{component}\"; components with settings: {}", known.join(", "))?;
                if let Some(near) = closest(component, Component::ALL.iter().map(|c| c.name())) {
                    write!(f, " (did you mean \"{near}\"?)")?;
                }
                Ok(())
            }
            SettingError::UnknownSetting { component, name } => {
                write!(f, "{component} has no {} \"{name}\" that the simulation models", component.naming())?;
                match self.suggestion() {
                    Some(near) => write!(f, " (did you mean \"{near}\"?)"),
                    None => {
                        let known: Vec<&str> =
                            ROWS.iter().filter(|r| r.component == *component).map(|r| r.name).collect();
                        write!(f, "; modelled: {}", known.join(", "))
                    }
                }
            }
            SettingError::BadValue { component, name, expected, given, .. } => {
                write!(f, "{component} {name}: expected {expected}, not \"{given}\"")
            }
            SettingError::Refused { why, .. } => f.write_str(why),
        }
    }
}

impl std::error::Error for SettingError {}

impl SettingError {
    /// For an unknown setting, the closest modelled name of its component, if it is close
    /// enough to be a slip.
    pub fn suggestion(&self) -> Option<&'static str> {
        match self {
            SettingError::UnknownSetting { component, name } => {
                closest(name, ROWS.iter().filter(|r| r.component == *component).map(|r| r.name))
            }
            _ => None,
        }
    }
}

/// The closest of `known` to `name` (by edit distance, ignoring case and dashes), if it is close
/// enough to be a slip.
fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let fold =
        |s: &str| s.chars().filter(|c| *c != '-' && *c != '_').map(|c| c.to_ascii_lowercase()).collect::<Vec<_>>();
    let wanted = fold(name);
    known
        .map(|k| (edit_distance(&wanted, &fold(k)), k))
        .filter(|(d, k)| *d <= (k.len() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The settings a simulation runs with: every modelled setting's value, each the profile's
/// default unless set. Components read them through their context.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// kube-controller-manager `--node-monitor-period`.
    pub node_monitor_period: Duration,
    /// kube-controller-manager `--node-monitor-grace-period`.
    pub node_monitor_grace_period: Duration,
    /// kube-controller-manager `--node-startup-grace-period`.
    pub node_startup_grace_period: Duration,
    /// kube-controller-manager `--node-eviction-rate`.
    pub node_eviction_rate: f64,
    /// kube-controller-manager `--secondary-node-eviction-rate`.
    pub secondary_node_eviction_rate: f64,
    /// kube-controller-manager `--unhealthy-zone-threshold`.
    pub unhealthy_zone_threshold: f64,
    /// kube-controller-manager `--large-cluster-size-threshold`.
    pub large_cluster_size_threshold: i64,
    /// kube-controller-manager `--kube-api-qps` and `--kube-api-burst`.
    pub controller_manager_client: ClientRate,
    /// kube-controller-manager `--cluster-signing-duration`.
    pub cluster_signing_duration: Duration,
    /// kube-apiserver `--default-not-ready-toleration-seconds`.
    pub not_ready_toleration_seconds: i64,
    /// kube-apiserver `--default-unreachable-toleration-seconds`.
    pub unreachable_toleration_seconds: i64,
    /// kube-scheduler `--kube-api-qps` and `--kube-api-burst`.
    pub scheduler_client: ClientRate,
    /// KubeletConfiguration `nodeStatusUpdateFrequency`.
    pub node_status_update_frequency: Duration,
    /// KubeletConfiguration `nodeStatusReportFrequency`.
    pub node_status_report_frequency: Duration,
    /// KubeletConfiguration `nodeLeaseDurationSeconds`.
    pub node_lease_duration_seconds: i64,
    /// KubeletConfiguration `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods`.
    pub shutdown: ShutdownPeriods,
    /// KubeletConfiguration `kubeAPIQPS` and `kubeAPIBurst`.
    pub kubelet_client: ClientRate,
    /// KubeletConfiguration `evictionPressureTransitionPeriod`.
    pub eviction_pressure_transition_period: Duration,
    /// KubeletConfiguration `rotateCertificates`.
    pub rotate_certificates: bool,
    /// KubeletConfiguration `evictionHard`: its `memory.available` threshold, if any.
    pub eviction_hard: Option<Quantity>,
    /// KubeletConfiguration `evictionSoft`: its `memory.available` threshold, if any.
    pub eviction_soft: Option<Quantity>,
    /// KubeletConfiguration `evictionSoftGracePeriod`: its `memory.available` grace period.
    pub eviction_soft_grace_period: Option<Duration>,
    /// KubeletConfiguration `evictionMaxPodGracePeriod`, in seconds.
    pub eviction_max_pod_grace_period: i64,
    /// Which rows were set (bit `i` for `ROWS[i]`); the others follow the profile.
    set: u32,
}

impl Eq for Settings {}

impl Default for Settings {
    /// The default profile's.
    fn default() -> Settings {
        Settings::defaults(Profile::default())
    }
}

impl Settings {
    /// Every setting at its default in `profile`: the one place the defaults are declared.
    pub fn defaults(profile: Profile) -> Settings {
        Settings {
            node_monitor_period: NODE_MONITOR_PERIOD,
            node_monitor_grace_period: profile.node_monitor_grace_period(),
            node_startup_grace_period: Duration::from_secs(60),
            node_eviction_rate: 0.1,
            secondary_node_eviction_rate: 0.01,
            unhealthy_zone_threshold: 0.55,
            large_cluster_size_threshold: 50,
            controller_manager_client: flowcontrol::KUBE_CONTROLLER_MANAGER,
            // 8760h (`csrsigningconfig` `RecommendedDefaultCSRSigningControllerConfiguration`).
            cluster_signing_duration: Duration::from_secs(365 * 24 * 3600),
            not_ready_toleration_seconds: 300,
            unreachable_toleration_seconds: 300,
            scheduler_client: flowcontrol::KUBE_SCHEDULER,
            node_status_update_frequency: NODE_STATUS_UPDATE_FREQUENCY,
            node_status_report_frequency: NODE_STATUS_REPORT_FREQUENCY,
            node_lease_duration_seconds: LEASE_DURATION_SECONDS as i64,
            shutdown: ShutdownPeriods { grace: Duration::ZERO, critical: Duration::ZERO },
            kubelet_client: flowcontrol::KUBELET,
            eviction_pressure_transition_period: EVICTION_PRESSURE_TRANSITION_PERIOD,
            // Not defaulted by `SetDefaults_KubeletConfiguration`: Go's `false` (kubeadm writes
            // `true`).
            rotate_certificates: false,
            eviction_hard: Some(DEFAULT_EVICTION_HARD),
            eviction_soft: None,
            eviction_soft_grace_period: None,
            eviction_max_pod_grace_period: 0,
            set: 0,
        }
    }

    /// Every row, with this value.
    pub fn rows(&self) -> impl Iterator<Item = (&'static Row, Value)> + '_ {
        ROWS.iter().map(|r| (r, self.value(r.field)))
    }

    /// The rows set, with their values.
    pub fn set_rows(&self) -> impl Iterator<Item = (&'static Row, Value)> + '_ {
        self.rows().enumerate().filter(|(i, _)| self.set & (1 << i) != 0).map(|(_, rv)| rv)
    }

    /// A setting's value, or why there is none (an unknown component or setting).
    pub fn get(&self, component: &str, name: &str) -> Result<Value, SettingError> {
        let row = find(component, name)?;
        Ok(self.value(row.field))
    }

    /// Whether the setting was set (rather than left at the profile's default).
    pub fn is_set(&self, component: Component, name: &str) -> bool {
        ROWS.iter().position(|r| r.component == component && r.name == name).is_some_and(|i| self.set & (1 << i) != 0)
    }

    /// Sets a setting from its text, as a story, a link or the command line writes it: checked
    /// against the setting's type and range. A component or setting the simulation does not
    /// model is refused by name, with the closest known name when there is one.
    pub fn set(&mut self, component: &str, name: &str, text: &str) -> Result<(), SettingError> {
        let row = find(component, name)?;
        let value = parse(row, text)?;
        self.put(row, value);
        Ok(())
    }

    /// Sets a setting to a value of its type (checked as [`Settings::set`] checks it).
    pub fn set_value(&mut self, component: Component, name: &str, value: Value) -> Result<(), SettingError> {
        let row = find(component.name(), name)?;
        let given = value.to_string();
        let typed = matches!(
            (row.type_, value),
            (Type::Duration, Value::Duration(_))
                | (Type::Float, Value::Float(_))
                | (Type::Integer, Value::Integer(_))
                | (Type::Boolean, Value::Boolean(_))
                | (Type::Thresholds, Value::Threshold(_))
                | (Type::GracePeriods, Value::GracePeriod(_))
        );
        if !typed || !row.range.holds(value) {
            return Err(bad_value(row, &given));
        }
        self.put(row, value);
        Ok(())
    }

    /// The kubelet's shutdown periods for every machine, set together (the link's and the
    /// page's pair).
    pub fn set_shutdown(&mut self, periods: ShutdownPeriods) {
        for (name, d) in [("shutdownGracePeriod", periods.grace), ("shutdownGracePeriodCriticalPods", periods.critical)]
        {
            let row = row_of(Component::Kubelet, name).expect("a row");
            self.put(row, Value::Duration(d));
        }
    }

    /// The kubelet's shutdown periods, when either was set (every machine then has them instead
    /// of its chapter's).
    pub fn shutdown(&self) -> Option<ShutdownPeriods> {
        let set = self.is_set(Component::Kubelet, "shutdownGracePeriod")
            || self.is_set(Component::Kubelet, "shutdownGracePeriodCriticalPods");
        set.then_some(self.shutdown)
    }

    /// Checks what one setting alone cannot: the kubelet's shutdown pair, as the kubelet
    /// validates it (`ValidateKubeletConfiguration`), and a soft eviction threshold's grace
    /// period (`ParseThresholdConfig`); the messages are the kubelet's.
    pub fn check(&self) -> Result<(), SettingError> {
        if self.eviction_soft.is_some() && self.eviction_soft_grace_period.is_none() {
            return Err(SettingError::Refused {
                component: Component::Kubelet,
                name: "evictionSoft",
                given: Value::Threshold(self.eviction_soft).to_string(),
                why: "grace period must be specified for the soft eviction threshold memory.available".into(),
            });
        }
        self.shutdown.validate().map_err(|why| {
            let name = if why.contains("shutdownGracePeriodCriticalPods") {
                "shutdownGracePeriodCriticalPods"
            } else {
                "shutdownGracePeriod"
            };
            let row = row_of(Component::Kubelet, name).expect("a row");
            SettingError::Refused {
                component: Component::Kubelet,
                name: row.name,
                given: self.value(row.field).to_string(),
                why,
            }
        })
    }

    /// These settings in `profile`: the ones set keep their values, the others take the
    /// profile's defaults, as Kubernetes defaults them: the kubelet's `nodeStatusReportFrequency`,
    /// when not set, is its `nodeStatusUpdateFrequency` if that is set
    /// (`SetDefaults_KubeletConfiguration`, "for backward compatibility").
    pub fn resolved(&self, profile: Profile) -> Settings {
        let mut out = Settings::defaults(profile);
        for (row, value) in self.set_rows() {
            out.put(row, value);
        }
        let kubelet = Component::Kubelet;
        if self.is_set(kubelet, "nodeStatusUpdateFrequency") && !self.is_set(kubelet, "nodeStatusReportFrequency") {
            out.node_status_report_frequency = out.node_status_update_frequency;
        }
        out
    }

    /// A machine as these settings start it: with the kubelet's shutdown periods when they were
    /// set, else with its chapter's.
    pub fn machine(&self, spec: &MachineSpec) -> MachineSpec {
        match self.shutdown() {
            Some(periods) => periods.apply(spec),
            None => spec.clone(),
        }
    }

    /// The Lease's renew interval: a quarter of its duration (`renewIntervalFraction`, 0.25).
    pub fn lease_renew_interval(&self) -> Duration {
        Duration::from_secs(self.node_lease_duration_seconds as u64) / 4
    }

    /// The heartbeat client's timeout: `nodeStatusUpdateFrequency`, at most the Lease's duration.
    pub fn heartbeat_timeout(&self) -> Duration {
        self.node_status_update_frequency.min(Duration::from_secs(self.node_lease_duration_seconds as u64))
    }

    /// The garbage collector's metadata client, through which it reads and deletes dependents:
    /// kube-controller-manager's config with `QPS *= 2` ("each object deletion takes two API
    /// calls", `startGarbageCollectorController`), the burst left as it is (40 and 30 by default).
    pub fn garbage_collector_client(&self) -> ClientRate {
        ClientRate { qps: self.controller_manager_client.qps * 2.0, burst: self.controller_manager_client.burst }
    }

    fn value(&self, field: Field) -> Value {
        let d = Value::Duration;
        match field {
            Field::NodeMonitorPeriod => d(self.node_monitor_period),
            Field::NodeMonitorGracePeriod => d(self.node_monitor_grace_period),
            Field::NodeStartupGracePeriod => d(self.node_startup_grace_period),
            Field::NodeEvictionRate => Value::Float(self.node_eviction_rate),
            Field::SecondaryNodeEvictionRate => Value::Float(self.secondary_node_eviction_rate),
            Field::UnhealthyZoneThreshold => Value::Float(self.unhealthy_zone_threshold),
            Field::LargeClusterSizeThreshold => Value::Integer(self.large_cluster_size_threshold),
            Field::ControllerManagerQps => Value::Float(self.controller_manager_client.qps),
            Field::ControllerManagerBurst => Value::Integer(self.controller_manager_client.burst.into()),
            Field::ClusterSigningDuration => d(self.cluster_signing_duration),
            Field::NotReadyTolerationSeconds => Value::Integer(self.not_ready_toleration_seconds),
            Field::UnreachableTolerationSeconds => Value::Integer(self.unreachable_toleration_seconds),
            Field::SchedulerQps => Value::Float(self.scheduler_client.qps),
            Field::SchedulerBurst => Value::Integer(self.scheduler_client.burst.into()),
            Field::NodeStatusUpdateFrequency => d(self.node_status_update_frequency),
            Field::NodeStatusReportFrequency => d(self.node_status_report_frequency),
            Field::NodeLeaseDurationSeconds => Value::Integer(self.node_lease_duration_seconds),
            Field::ShutdownGracePeriod => d(self.shutdown.grace),
            Field::ShutdownGracePeriodCriticalPods => d(self.shutdown.critical),
            Field::KubeletQps => Value::Float(self.kubelet_client.qps),
            Field::KubeletBurst => Value::Integer(self.kubelet_client.burst.into()),
            Field::EvictionPressureTransitionPeriod => d(self.eviction_pressure_transition_period),
            Field::RotateCertificates => Value::Boolean(self.rotate_certificates),
            Field::EvictionHard => Value::Threshold(self.eviction_hard),
            Field::EvictionSoft => Value::Threshold(self.eviction_soft),
            Field::EvictionSoftGracePeriod => Value::GracePeriod(self.eviction_soft_grace_period),
            Field::EvictionMaxPodGracePeriod => Value::Integer(self.eviction_max_pod_grace_period),
        }
    }

    /// Stores a value of the row's type (checked before) and marks the row set.
    fn put(&mut self, row: &Row, value: Value) {
        let index = ROWS.iter().position(|r| r.field == row.field).expect("a row of the table");
        self.set |= 1 << index;
        let (d, x, n) = match value {
            Value::Duration(d) => (d, 0.0, 0),
            Value::Float(x) => (Duration::ZERO, x, 0),
            Value::Integer(n) => (Duration::ZERO, 0.0, n),
            Value::Boolean(b) => (Duration::ZERO, 0.0, i64::from(b)),
            Value::Threshold(_) | Value::GracePeriod(_) => (Duration::ZERO, 0.0, 0),
        };
        let (threshold, grace) = match value {
            Value::Threshold(q) => (q, None),
            Value::GracePeriod(g) => (None, g),
            _ => (None, None),
        };
        let burst = u32::try_from(n).unwrap_or(u32::MAX);
        match row.field {
            Field::NodeMonitorPeriod => self.node_monitor_period = d,
            Field::NodeMonitorGracePeriod => self.node_monitor_grace_period = d,
            Field::NodeStartupGracePeriod => self.node_startup_grace_period = d,
            Field::NodeEvictionRate => self.node_eviction_rate = x,
            Field::SecondaryNodeEvictionRate => self.secondary_node_eviction_rate = x,
            Field::UnhealthyZoneThreshold => self.unhealthy_zone_threshold = x,
            Field::LargeClusterSizeThreshold => self.large_cluster_size_threshold = n,
            Field::ControllerManagerQps => self.controller_manager_client.qps = x,
            Field::ControllerManagerBurst => self.controller_manager_client.burst = burst,
            Field::ClusterSigningDuration => self.cluster_signing_duration = d,
            Field::NotReadyTolerationSeconds => self.not_ready_toleration_seconds = n,
            Field::UnreachableTolerationSeconds => self.unreachable_toleration_seconds = n,
            Field::SchedulerQps => self.scheduler_client.qps = x,
            Field::SchedulerBurst => self.scheduler_client.burst = burst,
            Field::NodeStatusUpdateFrequency => self.node_status_update_frequency = d,
            Field::NodeStatusReportFrequency => self.node_status_report_frequency = d,
            Field::NodeLeaseDurationSeconds => self.node_lease_duration_seconds = n,
            Field::ShutdownGracePeriod => self.shutdown.grace = d,
            Field::ShutdownGracePeriodCriticalPods => self.shutdown.critical = d,
            Field::KubeletQps => self.kubelet_client.qps = x,
            Field::KubeletBurst => self.kubelet_client.burst = burst,
            Field::EvictionPressureTransitionPeriod => self.eviction_pressure_transition_period = d,
            Field::RotateCertificates => self.rotate_certificates = n != 0,
            Field::EvictionHard => self.eviction_hard = threshold,
            Field::EvictionSoft => self.eviction_soft = threshold,
            Field::EvictionSoftGracePeriod => self.eviction_soft_grace_period = grace,
            Field::EvictionMaxPodGracePeriod => self.eviction_max_pod_grace_period = n,
        }
    }
}

/// kube-controller-manager's `--node-monitor-period` by default (the page's inspector and the
/// questions time the monitor pass by it).
pub const NODE_MONITOR_PERIOD: Duration = Duration::from_secs(5);
/// The kubelet's `nodeStatusUpdateFrequency` by default.
pub const NODE_STATUS_UPDATE_FREQUENCY: Duration = Duration::from_secs(10);
/// The kubelet's `nodeStatusReportFrequency` by default.
pub const NODE_STATUS_REPORT_FREQUENCY: Duration = Duration::from_secs(300);
/// The kubelet's `evictionPressureTransitionPeriod` by default (`SetDefaults_KubeletConfiguration`
/// turns an unset, zero, period into it).
pub const EVICTION_PRESSURE_TRANSITION_PERIOD: Duration = Duration::from_secs(300);
/// The kubelet's `nodeLeaseDurationSeconds` by default.
pub const LEASE_DURATION_SECONDS: i32 = 40;
/// The Lease's renew interval by default: 40 s × 0.25.
pub const LEASE_RENEW_INTERVAL: Duration = Duration::from_secs(10);
/// The heartbeat client's timeout by default: min(`nodeStatusUpdateFrequency`, Lease duration).
pub const HEARTBEAT_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest whole number a setting takes: an `int32`'s, and more than enough seconds.
const MAX_INTEGER: i64 = i32::MAX as i64;

/// The row of `component`'s setting `name`, or why there is none.
fn find(component: &str, name: &str) -> Result<&'static Row, SettingError> {
    let Some(c) = Component::from_name(component.trim()) else {
        return Err(SettingError::UnknownComponent { component: component.to_string() });
    };
    let name = name.trim();
    row_of(c, name).ok_or_else(|| SettingError::UnknownSetting { component: c, name: name.to_string() })
}

fn bad_value(row: &Row, given: &str) -> SettingError {
    SettingError::BadValue {
        component: row.component,
        name: row.name,
        expected: match row.range {
            Range::Either => row.type_.expected().to_string(),
            range => format!("{}, {}", row.type_.expected(), range.describe()),
        },
        given: given.to_string(),
        detail: None,
    }
}

/// A value the kubelet (or the simulation, for a signal it does not model) refuses, with why.
fn refused(row: &Row, given: &str, why: String) -> SettingError {
    SettingError::Refused { component: row.component, name: row.name, given: given.to_string(), why }
}

/// A row's value from its text.
fn parse(row: &Row, text: &str) -> Result<Value, SettingError> {
    let t = text.trim();
    let bad = || bad_value(row, text);
    let value = match row.type_ {
        Type::Duration if row.range == Range::Validity => {
            Value::Duration(parse_validity(t).map_err(|e| match bad() {
                SettingError::BadValue { component, name, expected, given, .. } => {
                    SettingError::BadValue { component, name, expected, given, detail: Some(e.0) }
                }
                other => other,
            })?)
        }
        Type::Duration => Value::Duration(parse_go_duration(t).map_err(|e| match bad() {
            SettingError::BadValue { component, name, expected, given, .. } => {
                SettingError::BadValue { component, name, expected, given, detail: Some(e.0) }
            }
            other => other,
        })?),
        Type::Float => Value::Float(parse_decimal(t).ok_or_else(bad)?),
        Type::Integer => {
            let n: i64 = t.parse().map_err(|_| bad())?;
            if !(-MAX_INTEGER - 1..=MAX_INTEGER).contains(&n) {
                return Err(bad());
            }
            Value::Integer(n)
        }
        // A `bool` field of the KubeletConfiguration's YAML or JSON: `true` or `false`.
        Type::Boolean => match t {
            "true" => Value::Boolean(true),
            "false" => Value::Boolean(false),
            _ => return Err(bad()),
        },
        Type::Thresholds => {
            Value::Threshold(eviction::parse_thresholds(row.name, t).map_err(|why| refused(row, text, why))?)
        }
        Type::GracePeriods => {
            Value::GracePeriod(eviction::parse_grace_periods(row.name, t).map_err(|why| refused(row, text, why))?)
        }
    };
    if row.range.holds(value) { Ok(value) } else { Err(bad()) }
}

/// A decimal number (`0.1`, `20`, `1e9`, `-2.5E-3`), as `str::parse::<f64>` reads it, for those
/// of up to 15 significant digits and a power of ten within ±22, which it reads exactly
/// (Clinger's fast path: one correctly rounded multiplication or division of exact values).
/// Others are refused. (The page's WebAssembly carries no general float parser for it.)
fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = || whole.bytes().chain(fraction.bytes());
    if whole.len() + fraction.len() == 0 || !digits().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut significant = 0;
    for d in digits().skip_while(|d| *d == b'0') {
        significant += 1;
        if significant > 15 {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(d - b'0');
    }
    let exponent: i32 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            e.parse().ok()?
        }
    };
    let power = exponent - fraction.len() as i32;
    let magnitude = if mantissa == 0 {
        0.0
    } else {
        if power.abs() > 22 {
            return None;
        }
        let scale = (0..power.abs()).fold(1.0_f64, |p, _| p * 10.0);
        if power < 0 { mantissa as f64 / scale } else { mantissa as f64 * scale }
    };
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests;
