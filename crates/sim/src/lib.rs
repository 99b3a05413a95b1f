//! The cluster simulation: a deterministic discrete-event model of one small Kubernetes cluster
//! (machines with kubelets and containerd, an API server, the node lifecycle controller, the
//! scheduler, the taint eviction controller and a ReplicaSet).
//!
//! **The promise.** This module is pure. Inputs (the reader's actions, and how far to run) go in;
//! a [`Log`] of requests, object changes, Kubernetes Events, log lines and machine states comes
//! out. It knows nothing of the browser, reads no clock (time is [`SimTime`], starting at zero),
//! draws randomness only from a seeded generator ([`rng::Rng`]) and iterates only ordered maps,
//! so the same inputs give the same output, byte for byte, on every platform.
//!
//! Start with [`Timeline`]: a chapter's timeline, which can be run forward, read at any instant
//! through a [`Snapshot`], and forked with a new [`Action`].

// The modules in layers: each one only imports from the layers below it (the test
// `sim_layers` in this crate fails on an import that looks up, and so on any import cycle).
//
// 1. values: time, randomness, maps, versions, object shapes, actions, machines' plain states
pub mod action;
pub mod chunked;
pub mod flowcontrol;
pub mod machine;
pub mod memory;
pub mod objects;
pub mod patch;
pub mod profile;
mod queue;
pub mod rng;
pub mod selector;
pub mod settings;
mod shared;
mod strings;
pub mod time;
pub mod vecmap;
mod workload;
// 2. what the simulation produces and how it is set up: the log, change summaries, chapters
pub mod diff;
pub mod record;
pub mod scenario;
// 3. the API server: store and admission
mod apiserver;
// 4. the context components act through, the event recorders they write with, and their
//    rate-limited clients
mod client;
mod ctx;
mod events;
#[cfg(test)]
mod testkit;
// 5. the components
mod controllers;
mod kubectl_client;
mod kubelet;
// 6. the router, and the timeline built on it
pub mod timeline;
mod world;

pub use action::{
    ACTIONS, Action, ActionKind, ActionParseError, Budget, DeleteFlags, DrainFlags, Flags, Group, Refusal, Spec,
    TaintEdit, Target, format_actions, parse_action, parse_actions, split_pod, split_pod_container, split_taint_target,
};
pub use apiserver::{
    EVICTION_429, NODE_AUTOAPPROVE_BINDING, NODE_LEASE_NAMESPACE, TAINT_NOT_READY, TAINT_OUT_OF_SERVICE,
    TAINT_UNREACHABLE, kubelet_may_set_label,
};
pub use controllers::node_lifecycle::{ZoneState, carries_no_execute, compute_zone_state, zone_qps};
pub use controllers::persistent_volume::{PROVISION_MAX, PROVISION_MIN, PROVISIONER_COMPONENT, provision_time};
pub use controllers::podgc::{GC_CHECK_PERIOD, QUARANTINE_TIME};
pub use ctx::API_SERVER;
pub use kubelet::{
    CNI_NOT_READY, EVICTION_HARD_MEMORY_AVAILABLE, EVICTION_HARD_MEMORY_AVAILABLE_BYTES, EVICTION_MONITORING_PERIOD,
    EVICTION_PRESSURE_TRANSITION_PERIOD, Thresholds,
};
pub use machine::{
    KubeletState, Leak, MachineSpec, MachineView, REGION_LABEL, RunningContainer, ShutdownPeriods, ZONE_LABEL,
};
pub use profile::Profile;
pub use record::{
    Actor, Backlog, Body, ChangeRange, ChangeType, Head, LeaseVersion, Log, LogLine, Method, NoAnswer, Outcome,
    Request, Requests, Response, Severity,
};
pub use scenario::{
    Chapter, DARK_ZONE, DEFAULT_FLEET, MAX_FLEET, MIN_FLEET, ReplicaSetSpec, Scenario, StepSearch, StepTime, ZONES,
};
pub use settings::{
    Component, HEARTBEAT_TIMEOUT, LEASE_DURATION_SECONDS, LEASE_RENEW_INTERVAL, NODE_MONITOR_PERIOD,
    NODE_STATUS_REPORT_FREQUENCY, NODE_STATUS_UPDATE_FREQUENCY, ROWS as SETTINGS, Row as SettingRow, SettingError,
    Settings, Value as SettingValue,
};
pub use shared::Shared;
pub use strings::contains;
pub use time::{SimTime, WallTime, format_go_duration, parse_go_duration};
pub use timeline::{ActionChecker, ForkError, Input, Snapshot, Timeline};
pub use world::{Config, DEFAULT_EPOCH, DEFAULT_SEED};
