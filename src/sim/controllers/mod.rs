//! kube-controller-manager's controllers and kube-scheduler.

pub(crate) mod node_lifecycle;
pub(crate) mod replicaset;
pub(crate) mod scheduler;
pub(crate) mod taint_eviction;
