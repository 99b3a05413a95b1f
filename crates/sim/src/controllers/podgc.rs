//! The PodGC controller (`pkg/controller/podgc/gc_controller.go`): every `gcCheckPeriod` (20 s)
//! it force-deletes Pods that can never finish on their own.
//!
//! - `gcTerminating`: Pods with a `deletionTimestamp` on a node that is not Ready and carries the
//!   `node.kubernetes.io/out-of-service` taint (any effect): marked `Failed`, deleted with grace 0.
//! - `gcOrphaned`: Pods bound to a Node that no longer exists. The node name is quarantined for
//!   `quarantineTime` (40 s) first; a later pass confirms with a live GET that the Node is gone,
//!   then marks each Pod `Failed` with `DisruptionTarget` / `DeletionByPodGC` and deletes it.
//! - `gcUnscheduledTerminating`: terminating Pods bound to no node (the simulated API server
//!   deletes those at once, so there are none).
//!
//! `gcTerminated` (over `--terminated-pod-gc-threshold`, 12,500 Pods) never applies to a cluster
//! this small.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::{ApiOp, TAINT_OUT_OF_SERVICE};
use crate::ctx::{Ctx, Reply};
use crate::objects::{Pod, Time, set_pod_condition};
use crate::record::Actor;
use crate::time::{SimTime, secs};
use crate::vecmap::VecMap;

/// `gcCheckPeriod`.
pub const GC_CHECK_PERIOD: Duration = secs(20);
/// `quarantineTime`.
pub const QUARANTINE_TIME: Duration = secs(40);

const ACTOR: Actor = Actor::PodGcController;

/// The controller's timer: its loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PodGcTimer {
    Gc,
}

/// The controller's state: the delaying queue of node names in quarantine.
#[derive(Clone, Debug, Default)]
pub(crate) struct PodGc {
    /// Node name → when it leaves quarantine (`nodeQueue.AddAfter`: an earlier time wins).
    quarantine: VecMap<String, SimTime>,
}

impl PodGc {
    /// `wait.UntilWithContext(ctx, gcc.gc, gcCheckPeriod)`: a pass at start, then every period.
    pub(crate) fn start(ctx: &mut Ctx<'_, PodGcTimer>) {
        ctx.at(SimTime::ZERO, PodGcTimer::Gc);
    }

    /// Input: the loop's timer.
    pub(crate) fn on_timer(&mut self, timer: PodGcTimer, ctx: &mut Ctx<'_, PodGcTimer>) {
        match timer {
            PodGcTimer::Gc => {
                self.gc(ctx);
                ctx.after(GC_CHECK_PERIOD, PodGcTimer::Gc);
            }
        }
    }

    /// One pass over the informers' Pods and Nodes. Only the Pods a pass may act on are copied
    /// out of the informer: the terminating ones, and those bound to a Node it does not know (a
    /// pass never changes a Node, so which Nodes are known holds for the whole pass).
    fn gc<T>(&mut self, ctx: &mut Ctx<'_, T>) {
        let store = ctx.store();
        let terminating = store.terminating_pods();
        let unknown_node: Vec<Arc<Pod>> = store.pods_on_missing_nodes().into_iter().cloned().collect();
        self.gc_terminating(&terminating, ctx);
        self.gc_orphaned(&unknown_node, ctx);
    }

    fn gc_terminating<T>(&mut self, pods: &[Arc<Pod>], ctx: &mut Ctx<'_, T>) {
        let mut doomed: Vec<&Arc<Pod>> = pods
            .iter()
            .filter(|p| p.is_terminating())
            .filter(|p| {
                ctx.store().node(&p.spec.node_name).is_some_and(|n| {
                    n.ready_status() != Some("True") && n.spec.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE)
                })
            })
            .collect();
        if doomed.is_empty() {
            return;
        }
        // ("Garbage collecting pods that are terminating on node tainted with
        // node.kubernetes.io/out-of-service" is a `V(4)` line: not printed at the default
        // verbosity.)
        // byEvictionAndCreationTimestamp (no Pod here is evicted): oldest first, then by name.
        doomed.sort_by(|a, b| {
            (a.metadata.creation_timestamp, &a.metadata.name).cmp(&(b.metadata.creation_timestamp, &b.metadata.name))
        });
        for pod in doomed {
            mark_failed_and_delete(pod, None, ctx);
        }
    }

    /// `pods`: those bound to a Node the informer does not know.
    fn gc_orphaned<T>(&mut self, pods: &[Arc<Pod>], ctx: &mut Ctx<'_, T>) {
        let now = ctx.now;
        // Newly found unknown nodes go into quarantine.
        for pod in pods {
            let node = &pod.spec.node_name;
            if !self.quarantine.contains_key(node) {
                self.quarantine.insert(node.clone(), now + QUARANTINE_TIME);
            }
        }
        // discoverDeletedNodes: the names whose quarantine is over, checked with a live GET.
        let due: Vec<String> = self.quarantine.iter().filter(|(_, t)| **t <= now).map(|(n, _)| n.clone()).collect();
        let mut deleted: Vec<String> = Vec::new();
        for name in due {
            self.quarantine.remove(&name);
            if ctx.store().node(&name).is_some() {
                continue;
            }
            if let Reply::Err(status) = ctx.call(ACTOR, None, ApiOp::GetNode(name.clone()))
                && status.code == 404
            {
                deleted.push(name);
            }
        }
        for pod in pods {
            if !deleted.contains(&pod.spec.node_name) {
                continue;
            }
            let key = format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
            let node = &pod.spec.node_name;
            ctx.log_line(
                ACTOR,
                format!("\"Found orphaned Pod assigned to the Node, deleting\" pod=\"{key}\" node=\"{node}\""),
            );
            if mark_failed_and_delete(pod, Some(("DeletionByPodGC", "PodGC: node no longer exists")), ctx) {
                ctx.log_line(ACTOR, format!("\"Forced deletion of orphaned Pod succeeded\" pod=\"{key}\""));
            }
        }
    }
}

/// `markFailedAndDeletePodWithCondition`: a status patch to `Failed` (with the condition, unless
/// already terminal), then a delete with grace 0. Returns whether the delete succeeded.
fn mark_failed_and_delete<T>(pod: &Pod, condition: Option<(&'static str, &'static str)>, ctx: &mut Ctx<'_, T>) -> bool {
    let key = format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
    ctx.log_line(ACTOR, format!("\"PodGC is force deleting Pod\" pod=\"{key}\""));
    if !matches!(&*pod.status.phase, "Succeeded" | "Failed") {
        let mut status = pod.status.clone();
        status.phase = "Failed".into();
        if let Some((reason, message)) = condition {
            set_pod_condition(&mut status, "DisruptionTarget", "True", reason, message, Time::at(ctx.wall()));
        }
        let patch = ApiOp::PatchPodStatus {
            namespace: pod.metadata.namespace.to_string(),
            name: pod.metadata.name.to_string(),
            uid: pod.metadata.uid.to_string(),
            status,
        };
        if !matches!(ctx.call(ACTOR, None, patch), Reply::Ok(_)) {
            return false;
        }
    }
    let delete = ApiOp::DeletePod {
        namespace: pod.metadata.namespace.to_string(),
        name: pod.metadata.name.to_string(),
        grace_seconds: Some(0),
        precondition_uid: None,
        background: false,
    };
    matches!(ctx.call(ACTOR, None, delete), Reply::Ok(_))
}
