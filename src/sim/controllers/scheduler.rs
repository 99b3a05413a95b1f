//! kube-scheduler, reduced to what decides where the simulation's Pods go: the
//! `NodeUnschedulable` and `TaintToleration` filters (taints, never conditions), the
//! `FailedScheduling` message built as `FitError.Error()` builds it, the unschedulable queue with
//! its 5-minute flush, and binding through `pods/NAME/binding`.

use crate::sim::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::sim::apiserver::{ApiOp, set_pod_condition};
use crate::sim::events::{Source, pod_ref};
use crate::sim::kubelet::order_pod_conditions;
use crate::sim::objects::{Node, Object, Pod, Time};
use crate::sim::profile::Profile;
use crate::sim::record::{Actor, Log};
use crate::sim::time::{SimTime, secs};
use crate::sim::world::{Reply, Timer, World};

/// `podMaxInUnschedulablePodsDuration`.
const MAX_IN_UNSCHEDULABLE: Duration = secs(300);
/// How often the unschedulable pool is checked for leftovers.
const FLUSH_PERIOD: Duration = secs(30);
/// `podInitialBackoffDuration`.
const INITIAL_BACKOFF: Duration = secs(1);

/// The scheduler's queue state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scheduler {
    /// Unschedulable Pods (by uid) and when they last failed.
    unschedulable: VecMap<String, SimTime>,
    flush_scheduled: bool,
}

/// Why one node does not fit a Pod, as the first failing filter words it.
fn filter(pod: &Pod, node: &Node, profile: Profile) -> Result<(), String> {
    if node.spec.unschedulable
        && !pod.spec.tolerations.iter().any(|t| t.tolerates("node.kubernetes.io/unschedulable", "", "NoSchedule"))
    {
        return Err("node(s) were unschedulable".into());
    }
    for taint in &node.spec.taints {
        if taint.effect != "NoSchedule" && taint.effect != "NoExecute" {
            continue;
        }
        if !pod.spec.tolerations.iter().any(|t| t.tolerates(&taint.key, &taint.value, &taint.effect)) {
            return Err(match profile {
                Profile::V1_34 | Profile::V1_31 => {
                    format!("node(s) had untolerated taint {{{}: {}}}", taint.key, taint.value)
                }
            });
        }
    }
    Ok(())
}

/// The `FailedScheduling` message: `FitError.Error()` plus the PostFilter plugins' reasons.
pub(crate) fn fit_error(reasons: &[String], profile: Profile) -> String {
    let n = reasons.len();
    if n == 0 {
        return "no nodes available to schedule pods".into();
    }
    let mut counts: VecMap<&str, usize> = VecMap::new();
    for r in reasons {
        *counts.get_or_insert_with(r, || 0) += 1;
    }
    let mut items: Vec<String> = counts.iter().map(|(r, c)| format!("{c} {r}")).collect();
    items.sort_unstable();
    let preemption = format!("preemption: 0/{n} nodes are available: {n} Preemption is not helpful for scheduling.");
    let post = match profile {
        // DynamicResources is on by default from 1.34 and runs its PostFilter before preemption.
        Profile::V1_34 => format!("no new claims to deallocate, {preemption}"),
        Profile::V1_31 => preemption,
    };
    format!("0/{n} nodes are available: {}. {post}", items.join(", "))
}

const ACTOR: Actor = Actor::Scheduler;

impl World {
    /// Tries to place every Pod without a node.
    pub(crate) fn schedule_pending(&mut self, log: &mut Log) {
        let mut pending: Vec<Arc<Pod>> =
            self.api.pods().filter(|p| p.spec.node_name.is_empty() && !p.is_terminating()).cloned().collect();
        // Names are unique, so an unstable sort is deterministic.
        pending.sort_unstable_by(|a, b| {
            (a.metadata.creation_timestamp, &a.metadata.name).cmp(&(b.metadata.creation_timestamp, &b.metadata.name))
        });
        let live: Vec<String> = pending.iter().map(|p| p.metadata.uid.clone()).collect();
        self.scheduler.unschedulable.retain(|uid, _| live.contains(uid));
        for pod in pending {
            let uid = pod.metadata.uid.clone();
            if let Some(&failed_at) = self.scheduler.unschedulable.get(&uid) {
                // Queueing hints: retry only when a cluster change makes the Pod schedulable,
                // and not before its backoff has passed (or after the 5-minute flush).
                let due = self.now >= failed_at + MAX_IN_UNSCHEDULABLE;
                if !due && (self.feasible_nodes(&pod).is_empty() || self.now < failed_at + INITIAL_BACKOFF) {
                    continue;
                }
            }
            self.schedule_one(&pod, log);
        }
    }

    fn feasible_nodes(&self, pod: &Pod) -> Vec<Arc<Node>> {
        self.api.nodes.values().filter(|n| filter(pod, n, self.config.profile).is_ok()).cloned().collect()
    }

    fn schedule_one(&mut self, pod: &Arc<Pod>, log: &mut Log) {
        let uid = pod.metadata.uid.clone();
        let profile = self.config.profile;
        let mut reasons = Vec::new();
        let mut feasible = Vec::new();
        for node in self.api.nodes.values() {
            match filter(pod, node, profile) {
                Ok(()) => feasible.push(node.clone()),
                Err(r) => reasons.push(r),
            }
        }
        if feasible.is_empty() {
            let message = fit_error(&reasons, profile);
            self.scheduler.unschedulable.insert(uid, self.now);
            self.event(
                log,
                Source::Scheduler { action: "Scheduling" },
                pod_ref(pod, None),
                "Warning",
                "FailedScheduling",
                message.clone(),
            );
            let mut status = pod.status.clone();
            set_pod_condition(&mut status, "PodScheduled", "False", "Unschedulable", &message, Time::at(self.wall()));
            order_pod_conditions(&mut status, pod.metadata.generation);
            if status != pod.status {
                self.call(
                    log,
                    ACTOR,
                    None,
                    ApiOp::PatchPodStatus {
                        namespace: pod.metadata.namespace.clone(),
                        name: pod.metadata.name.clone(),
                        status,
                    },
                );
            }
            if !self.scheduler.flush_scheduled {
                self.scheduler.flush_scheduled = true;
                self.after(FLUSH_PERIOD, Timer::SchedulerFlush);
            }
            return;
        }
        // Score: fewest Pods first (NodeResourcesFit's least-allocated, in effect); ties are broken
        // at random, as selectHost does.
        let load = |n: &Node| self.api.pods_on(&n.metadata.name).count();
        let best = feasible.iter().map(|n| load(n)).min().expect("non-empty");
        let top: Vec<&Arc<Node>> = feasible.iter().filter(|n| load(n) == best).collect();
        let pick = top[self.rng.below(top.len() as u64) as usize].metadata.name.clone();
        let op = ApiOp::BindPod {
            namespace: pod.metadata.namespace.clone(),
            name: pod.metadata.name.clone(),
            uid: uid.clone(),
            node: pick.clone(),
        };
        if let Reply::Ok(Object::Pod(bound)) = self.call(log, ACTOR, None, op) {
            self.scheduler.unschedulable.remove(&uid);
            let ns = &bound.metadata.namespace;
            let name = &bound.metadata.name;
            self.event(
                log,
                Source::Scheduler { action: "Binding" },
                pod_ref(pod, None),
                "Normal",
                "Scheduled",
                format!("Successfully assigned {ns}/{name} to {pick}"),
            );
        }
    }

    /// `flushUnschedulablePodsLeftover`.
    pub(crate) fn scheduler_flush(&mut self, log: &mut Log) {
        self.scheduler.flush_scheduled = false;
        if self.scheduler.unschedulable.is_empty() {
            return;
        }
        self.schedule_pending(log);
        if !self.scheduler.unschedulable.is_empty() && !self.scheduler.flush_scheduled {
            self.scheduler.flush_scheduled = true;
            self.after(FLUSH_PERIOD, Timer::SchedulerFlush);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_errors_read_like_the_real_scheduler() {
        let nr = "node(s) had untolerated taint {node.kubernetes.io/not-ready: }".to_string();
        let ur = "node(s) had untolerated taint {node.kubernetes.io/unreachable: }".to_string();
        assert_eq!(
            fit_error(std::slice::from_ref(&nr), Profile::V1_31),
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
        assert_eq!(
            fit_error(std::slice::from_ref(&nr), Profile::V1_34),
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
        assert_eq!(
            fit_error(&[ur, nr], Profile::V1_31),
            "0/2 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        );
    }
}
