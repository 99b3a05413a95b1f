//! kube-controller-manager's controllers and kube-scheduler, each a component that owns its state
//! and its timers and acts only through its [`crate::ctx::Ctx`].

pub(crate) mod attach_detach;
pub(crate) mod certificates;
pub(crate) mod daemonset;
pub(crate) mod disruption;
pub(crate) mod garbage_collector;
pub(crate) mod node_ipam;
pub(crate) mod node_lifecycle;
pub(crate) mod persistent_volume;
pub(crate) mod podgc;
pub(crate) mod replicaset;
pub(crate) mod scheduler;
pub(crate) mod statefulset;
pub(crate) mod taint_eviction;
pub(crate) mod ttl;
