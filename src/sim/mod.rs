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

pub mod action;
mod apiserver;
mod controllers;
pub mod diff;
mod events;
mod kubelet;
pub mod machine;
pub mod objects;
pub mod profile;
pub mod record;
pub mod rng;
pub mod scenario;
pub mod time;
pub mod timeline;
pub mod vecmap;
mod world;

pub use action::{Action, ActionKind, ActionParseError, Refusal, format_actions, parse_action, parse_actions};
pub use apiserver::{NODE_LEASE_NAMESPACE, TAINT_NOT_READY, TAINT_UNREACHABLE, kubelet_may_set_label};
pub use controllers::node_lifecycle::{NODE_MONITOR_PERIOD, ZoneState};
pub use controllers::replicaset::ReplicaSetSpec;
pub use kubelet::{
    CNI_NOT_READY, HEARTBEAT_TIMEOUT, LEASE_DURATION_SECONDS, LEASE_RENEW_INTERVAL, NODE_STATUS_REPORT_FREQUENCY,
    NODE_STATUS_UPDATE_FREQUENCY,
};
pub use machine::{KubeletState, MachineSpec, MachineView, RunningContainer};
pub use profile::Profile;
pub use record::{Actor, Body, ChangeType, Log, Method, Outcome, Request, Response};
pub use scenario::{Chapter, Scenario};
pub use time::{SimTime, WallTime, format_go_duration, parse_go_duration};
pub use timeline::{ForkError, Input, Snapshot, Timeline};
pub use world::{API_SERVER, Config, DEFAULT_EPOCH, DEFAULT_SEED};
