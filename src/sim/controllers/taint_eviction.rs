//! The taint eviction controller (`pkg/controller/tainteviction/taint_eviction.go`): when a
//! Node carries NoExecute taints, each of its Pods is deleted once its tolerations run out
//! (the 300 s DefaultTolerationSeconds ones, usually), and the deletion is cancelled if the
//! taints go away first.

use crate::sim::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::sim::apiserver::{ApiOp, set_pod_condition};
use crate::sim::events::{Source, pod_ref};
use crate::sim::kubelet::order_pod_conditions;
use crate::sim::objects::{Pod, Taint, Time};
use crate::sim::record::{Actor, Log};
use crate::sim::time::SimTime;
use crate::sim::world::{Timer, World};

/// A Pod's pending deletion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ScheduledEviction {
    pub(crate) uid: String,
    pub(crate) created_at: SimTime,
    pub(crate) fire_at: SimTime,
}

/// The controller's work queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct TaintEviction {
    pub(crate) scheduled: VecMap<(String, String), ScheduledEviction>,
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

impl World {
    /// `processPodOnNode` for every bound Pod.
    pub(crate) fn taint_eviction_reconcile(&mut self, log: &mut Log) {
        let pods: Vec<Arc<Pod>> =
            self.api.pods().filter(|p| !p.spec.node_name.is_empty() && !p.is_terminating()).cloned().collect();
        let live: Vec<(String, String)> =
            pods.iter().map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())).collect();
        self.eviction.scheduled.retain(|k, _| live.contains(k));
        for pod in pods {
            let key = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
            let taints: Vec<Taint> = self
                .api
                .node(&pod.spec.node_name)
                .map(|n| n.spec.taints.iter().filter(|t| t.effect == "NoExecute").cloned().collect())
                .unwrap_or_default();
            if taints.is_empty() {
                self.cancel_eviction(&key, &pod, log);
                continue;
            }
            let refs: Vec<&Taint> = taints.iter().collect();
            let now = self.now;
            let (start, fire) = match toleration_time(&pod, &refs) {
                None => (now, now),
                Some(None) => {
                    self.cancel_eviction(&key, &pod, log);
                    continue;
                }
                Some(Some(d)) => (now, now + d),
            };
            let (start, fire) = match self.eviction.scheduled.get(&key) {
                Some(s) => {
                    let existing_fire = s.created_at + (fire - start);
                    if existing_fire <= fire {
                        continue;
                    }
                    (s.created_at, existing_fire)
                }
                None => (start, fire),
            };
            self.eviction.scheduled.insert(
                key.clone(),
                ScheduledEviction { uid: pod.metadata.uid.clone(), created_at: start, fire_at: fire },
            );
            self.at(fire, Timer::Eviction { namespace: key.0, name: key.1, uid: pod.metadata.uid.clone() });
        }
    }

    fn cancel_eviction(&mut self, key: &(String, String), pod: &Pod, log: &mut Log) {
        if self.eviction.scheduled.remove(key).is_some() {
            self.event(
                log,
                Source::Controller(COMPONENT),
                pod_ref(pod, None),
                "Normal",
                "TaintManagerEviction",
                format!("Cancelling deletion of Pod {}/{}", key.0, key.1),
            );
        }
    }

    /// The eviction timer fired: mark the Pod and delete it.
    pub(crate) fn eviction_fire(&mut self, namespace: &str, name: &str, uid: &str, log: &mut Log) {
        let key = (namespace.to_string(), name.to_string());
        match self.eviction.scheduled.get(&key) {
            Some(s) if s.uid == uid && s.fire_at <= self.now => {}
            _ => return,
        }
        self.eviction.scheduled.remove(&key);
        let Some(pod) = self.api.pods.get(&key).cloned() else { return };
        self.event(
            log,
            Source::Controller(COMPONENT),
            pod_ref(&pod, None),
            "Normal",
            "TaintManagerEviction",
            format!("Marking for deletion Pod {namespace}/{name}"),
        );
        // addConditionAndDeletePod reads the Pod live before changing it.
        self.call(
            log,
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
            Time::at(self.wall()),
        );
        order_pod_conditions(&mut status, pod.metadata.generation);
        self.call(
            log,
            Actor::TaintEvictionController,
            None,
            ApiOp::PatchPodStatus { namespace: namespace.into(), name: name.into(), status },
        );
        self.call(
            log,
            Actor::TaintEvictionController,
            None,
            ApiOp::DeletePod { namespace: namespace.into(), name: name.into(), grace_seconds: None },
        );
    }
}
