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
//!
//! Its client is its own (`ClientOrDie("pod-garbage-collector")`, 20 requests a second, burst
//! 30): a Pod's status PATCH and DELETE go together when the first has its token, and the Pods
//! after it wait their turn (their lines are logged when it comes).

use std::sync::Arc;
use std::time::Duration;

use std::collections::VecDeque;

use crate::apiserver::{ApiOp, TAINT_OUT_OF_SERVICE};
use crate::client::Throttled;
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

/// The controller's timers: its loop, and its client's token come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PodGcTimer {
    Gc,
    Client,
}

/// A Pod a pass chose to force-delete, waiting for the client: orphaned (its Node is gone), or
/// terminating on an out-of-service Node.
#[derive(Clone, Debug)]
struct Doomed {
    pod: Arc<Pod>,
    orphaned: bool,
}

/// The controller's state: the delaying queue of node names in quarantine, its client and the
/// Pods waiting for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PodGc {
    /// Node name → when it leaves quarantine (`nodeQueue.AddAfter`: an earlier time wins).
    quarantine: VecMap<String, SimTime>,
    client: Throttled,
    doomed: VecDeque<Doomed>,
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
            PodGcTimer::Client => {
                if self.client.woken(ctx.now) {
                    self.delete_doomed(ctx);
                }
            }
        }
    }

    /// Queues `pod` for deletion unless it waits already.
    fn doom(&mut self, pod: &Arc<Pod>, orphaned: bool) {
        if !self.doomed.iter().any(|d| d.pod.metadata.uid == pod.metadata.uid) {
            self.doomed.push_back(Doomed { pod: pod.clone(), orphaned });
        }
    }

    /// Force-deletes the Pods waiting, each when the client has a token for it.
    fn delete_doomed(&mut self, ctx: &mut Ctx<'_, PodGcTimer>) {
        while let Some(d) = self.doomed.front() {
            // The Pod as the informer has it when its turn comes.
            let key = (d.pod.metadata.namespace.to_string(), d.pod.metadata.name.to_string());
            let Some(pod) = ctx.store().pods.get(&key).filter(|p| p.metadata.uid == d.pod.metadata.uid).cloned() else {
                self.doomed.pop_front();
                continue;
            };
            if !self.client.admit(ctx, || PodGcTimer::Client) {
                break;
            }
            self.client.also(1, ctx);
            let orphaned = self.doomed.pop_front().expect("a Pod waits").orphaned;
            if !orphaned {
                mark_failed_and_delete(&pod, None, ctx);
                continue;
            }
            let key = format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
            let node = &pod.spec.node_name;
            ctx.log_line(
                ACTOR,
                format!("\"Found orphaned Pod assigned to the Node, deleting\" pod=\"{key}\" node=\"{node}\""),
            );
            if mark_failed_and_delete(&pod, Some(("DeletionByPodGC", "PodGC: node no longer exists")), ctx) {
                ctx.log_line(ACTOR, format!("\"Forced deletion of orphaned Pod succeeded\" pod=\"{key}\""));
            }
        }
        self.client.note(ACTOR, 2 * self.doomed.len() as u32, ctx);
    }

    /// One pass over the informers' Pods and Nodes. Only the Pods a pass may act on are copied
    /// out of the informer: the terminating ones, and those bound to a Node it does not know (a
    /// pass never changes a Node, so which Nodes are known holds for the whole pass).
    fn gc(&mut self, ctx: &mut Ctx<'_, PodGcTimer>) {
        let store = ctx.store();
        let terminating = store.terminating_pods();
        let unknown_node: Vec<Arc<Pod>> = store.pods_on_missing_nodes().into_iter().cloned().collect();
        self.gc_terminating(&terminating, ctx);
        self.gc_orphaned(&unknown_node, ctx);
        self.delete_doomed(ctx);
    }

    fn gc_terminating(&mut self, pods: &[Arc<Pod>], ctx: &mut Ctx<'_, PodGcTimer>) {
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
            self.doom(pod, false);
        }
    }

    /// `pods`: those bound to a Node the informer does not know.
    fn gc_orphaned(&mut self, pods: &[Arc<Pod>], ctx: &mut Ctx<'_, PodGcTimer>) {
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
            // The live GET takes a token too (sent now; the deletions after it wait for theirs).
            self.client.also(1, ctx);
            if let Reply::Err(status) = ctx.call(ACTOR, None, ApiOp::GetNode(name.clone()))
                && status.code == 404
            {
                deleted.push(name);
            }
        }
        for pod in pods {
            if deleted.contains(&pod.spec.node_name) {
                self.doom(pod, true);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::ObjectMeta;
    use crate::testkit::Probe;
    use crate::workload::new_pod;

    /// Forty Pods orphaned by a deleted Node: after the quarantine the live GET and fourteen
    /// Pods' PATCH and DELETE go at once, the fifteenth's when its first token is there (the
    /// bucket owing its second), and each one after 100 ms later (two tokens at 20 a second).
    #[test]
    fn orphans_are_deleted_at_the_clients_rate() {
        let mut probe = Probe::new();
        for i in 0..40 {
            let meta =
                ObjectMeta { name: format!("web-{i}").into(), namespace: "default".into(), ..ObjectMeta::default() };
            let mut pod = new_pod(meta, Vec::new(), crate::profile::Profile::V1_34);
            pod.spec.node_name = "node-gone".into();
            probe.given(ApiOp::CreatePod(pod));
        }
        let from = probe.log().requests.len();
        let mut gc = PodGc::default();
        probe.input::<PodGcTimer>(|ctx| gc.on_timer(PodGcTimer::Gc, ctx));
        probe.now = SimTime::ZERO + QUARANTINE_TIME;
        probe.input::<PodGcTimer>(|ctx| gc.on_timer(PodGcTimer::Gc, ctx));
        let until = SimTime::ZERO + QUARANTINE_TIME + secs(19);
        let sent = probe.run_timers::<PodGcTimer>(until, |ctx| gc.on_timer(PodGcTimer::Client, ctx));
        let deletes: Vec<u64> = sent[from..].iter().filter(|(_, m)| m == "DELETE").map(|(t, _)| *t - 40_000).collect();
        let want: Vec<u64> = (0..40).map(|i| if i < 15 { 0 } else { (i - 14) * 100 }).collect();
        assert_eq!(deletes, want);
        assert!(probe.store().pods.is_empty());
    }
}
