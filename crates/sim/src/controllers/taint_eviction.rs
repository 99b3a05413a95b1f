//! The taint eviction controller (`pkg/controller/tainteviction/taint_eviction.go`): when a
//! Node carries NoExecute taints, each of its Pods is deleted once its tolerations run out
//! (the 300 s DefaultTolerationSeconds ones, usually), and the deletion is cancelled if the
//! taints go away first.

use crate::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::Ctx;
use crate::events::{Recorder, Source, pod_ref_by_name};
use crate::objects::{Pod, Taint, Time, order_pod_conditions, set_pod_condition};
use crate::record::Actor;
use crate::time::SimTime;

/// A Pod's pending deletion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ScheduledEviction {
    pub(crate) uid: String,
    pub(crate) created_at: SimTime,
    pub(crate) fire_at: SimTime,
}

/// The controller's timer: one Pod's deletion is due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TaintEvictionTimer {
    namespace: String,
    name: String,
    uid: String,
}

/// The controller's work queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct TaintEviction {
    recorder: Recorder,
    scheduled: VecMap<(String, String), ScheduledEviction>,
}

/// `getMinTolerationTime` over the tolerations that match the taints: `None` if not every taint
/// is tolerated (evict now), `Some(None)` if tolerated forever, else the shortest time.
fn toleration_time(pod: &Pod, taints: &[&Taint]) -> Option<Option<Duration>> {
    let mut used = Vec::new();
    for taint in taints {
        let matching: Vec<_> =
            pod.spec.tolerations.iter().filter(|t| t.tolerates(&taint.key, &taint.value, &taint.effect)).collect();
        if matching.is_empty() {
            return None;
        }
        used.extend(matching);
    }
    let mut min: Option<i64> = None;
    for t in used {
        if let Some(s) = t.toleration_seconds {
            if s <= 0 {
                return Some(Some(Duration::ZERO));
            }
            min = Some(min.map_or(s, |m| m.min(s)));
        }
    }
    Some(min.map(|s| Duration::from_secs(s as u64)))
}

const COMPONENT: &str = "taint-eviction-controller";

impl TaintEviction {
    /// Input: a Pod's eviction timer fired.
    pub(crate) fn on_timer(&mut self, timer: TaintEvictionTimer, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let TaintEvictionTimer { namespace, name, uid } = timer;
        self.evict(&namespace, &name, &uid, ctx);
    }

    /// Input: Pods or Nodes changed: `processPodOnNode` for every bound Pod.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let pods: Vec<Arc<Pod>> =
            ctx.store().pods().filter(|p| !p.spec.node_name.is_empty() && !p.is_terminating()).cloned().collect();
        let live: Vec<(String, String)> =
            pods.iter().map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())).collect();
        self.scheduled.retain(|k, _| live.contains(k));
        for pod in pods {
            let key = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
            let taints: Vec<Taint> = ctx
                .store()
                .node(&pod.spec.node_name)
                .map(|n| n.spec.taints.iter().filter(|t| t.effect == "NoExecute").cloned().collect())
                .unwrap_or_default();
            if taints.is_empty() {
                self.cancel_eviction(&key, ctx);
                continue;
            }
            let refs: Vec<&Taint> = taints.iter().collect();
            let now = ctx.now;
            let (start, fire) = match toleration_time(&pod, &refs) {
                None => (now, now),
                Some(None) => {
                    self.cancel_eviction(&key, ctx);
                    continue;
                }
                Some(Some(d)) => (now, now + d),
            };
            let (start, fire) = match self.scheduled.get(&key) {
                Some(s) => {
                    let existing_fire = s.created_at + (fire - start);
                    if existing_fire <= fire {
                        continue;
                    }
                    (s.created_at, existing_fire)
                }
                None => (start, fire),
            };
            self.scheduled.insert(
                key.clone(),
                ScheduledEviction { uid: pod.metadata.uid.clone(), created_at: start, fire_at: fire },
            );
            ctx.at(fire, TaintEvictionTimer { namespace: key.0, name: key.1, uid: pod.metadata.uid.clone() });
        }
    }

    fn cancel_eviction(&mut self, key: &(String, String), ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        if self.scheduled.remove(key).is_some() {
            self.recorder.event(
                ctx,
                Source::Controller(COMPONENT),
                pod_ref_by_name(&key.0, &key.1),
                "Normal",
                "TaintManagerEviction",
                format!("Cancelling deletion of Pod {}/{}", key.0, key.1),
            );
        }
    }

    /// The eviction timer fired: mark the Pod and delete it.
    fn evict(&mut self, namespace: &str, name: &str, uid: &str, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let key = (namespace.to_string(), name.to_string());
        match self.scheduled.get(&key) {
            Some(s) if s.uid == uid && s.fire_at <= ctx.now => {}
            _ => return,
        }
        self.scheduled.remove(&key);
        let Some(pod) = ctx.store().pods.get(&key).cloned() else { return };
        self.recorder.event(
            ctx,
            Source::Controller(COMPONENT),
            pod_ref_by_name(namespace, name),
            "Normal",
            "TaintManagerEviction",
            format!("Marking for deletion Pod {namespace}/{name}"),
        );
        // addConditionAndDeletePod reads the Pod live before changing it.
        ctx.call(
            Actor::TaintEvictionController,
            None,
            ApiOp::GetPod { namespace: namespace.into(), name: name.into() },
        );
        let mut status = pod.status.clone();
        set_pod_condition(
            &mut status,
            "DisruptionTarget",
            "True",
            "DeletionByTaintManager",
            "Taint manager: deleting due to NoExecute taint",
            Time::at(ctx.wall()),
        );
        order_pod_conditions(&mut status, pod.metadata.generation);
        ctx.call(
            Actor::TaintEvictionController,
            None,
            ApiOp::PatchPodStatus { namespace: namespace.into(), name: name.into(), uid: String::new(), status },
        );
        ctx.call(
            Actor::TaintEvictionController,
            None,
            ApiOp::DeletePod {
                namespace: namespace.into(),
                name: name.into(),
                grace_seconds: None,
                precondition_uid: None,
            },
        );
    }
}
