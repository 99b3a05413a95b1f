//! The taint eviction controller (`pkg/controller/tainteviction/taint_eviction.go`): when a
//! Node carries NoExecute taints, each of its Pods is deleted once its tolerations run out
//! (the 300 s DefaultTolerationSeconds ones, usually), and the deletion is cancelled if the
//! taints go away first.

use crate::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Changes, Ctx};
use crate::events::{Recorder, Source, pod_ref_by_name};
use crate::flowcontrol::TokenBucket;
use crate::objects::{Node, Pod, Taint, Time, order_pod_conditions, set_pod_condition};
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

/// The requests one eviction makes (`addConditionAndDeletePod`: GET, PATCH status, DELETE).
const REQUESTS_PER_EVICTION: usize = 3;

/// The controller's work queue.
#[derive(Clone, Debug, Default)]
pub(crate) struct TaintEviction {
    recorder: Recorder,
    scheduled: VecMap<(String, String), ScheduledEviction>,
    /// Evictions whose timer fired and whose requests wait for the client's tokens: the Pod's
    /// uid and when the last of its requests may go.
    waiting: VecMap<(String, String), (String, SimTime)>,
    /// Its client's token bucket (kube-controller-manager's rate: a request that finds no
    /// token waits for one).
    client: TokenBucket,
    /// Pods whose deletion this controller sent, with their uid and the Node's NoExecute taints
    /// then (the queue's finished work, kept so that the same Pod is not queued again: client-go's
    /// `TimedWorkerQueue` keeps a done key as `nil`). A taint the Pod does not tolerate, added
    /// later, still deletes it again at once (`processPodOnNode` cancels the finished work and
    /// adds new work due now), as the out-of-service taint does to a Pod stuck `Terminating`.
    evicted: VecMap<(String, String), (String, Vec<Taint>)>,
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

/// The NoExecute taints of Node `node` (`getNoExecuteTaints`), none if it is gone.
fn no_execute_taints<T>(ctx: &Ctx<'_, T>, node: &str) -> Vec<Taint> {
    ctx.store()
        .node(node)
        .map(|n| n.spec.taints.iter().filter(|t| t.effect == "NoExecute").cloned().collect())
        .unwrap_or_default()
}

impl TaintEviction {
    /// Input: a Pod's eviction timer fired.
    pub(crate) fn on_timer(&mut self, timer: TaintEvictionTimer, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let TaintEvictionTimer { namespace, name, uid } = timer;
        let key = (namespace, name);
        match self.waiting.get(&key) {
            Some((u, go)) if *u == uid && *go <= ctx.now => {
                self.waiting.remove(&key);
                self.delete(&key.0, &key.1, ctx);
            }
            _ => self.evict(&key.0, &key.1, &uid, ctx),
        }
    }

    /// Input: Pods or Nodes changed: `processPodOnNode` for every bound Pod that changed or whose
    /// Node changed (for the others nothing has moved, so the pass would change nothing), and a
    /// Pod no longer bound and running is forgotten.
    pub(crate) fn on_change(&mut self, changes: &Changes<'_>, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let mut keys: VecMap<(String, String), ()> = changes.pods.clone();
        if changes.all {
            keys.extend(ctx.store().pods.keys().map(|k| (k.clone(), ())));
            keys.extend(self.scheduled.keys().map(|k| (k.clone(), ())));
        }
        // `NodeUpdated` acts only when the Node's NoExecute taints change. Without any, and with
        // no eviction scheduled anywhere, every Pod of the Node would come out as it went in (the
        // status updates of healthy Nodes).
        let untainted = |n: &Arc<Node>| !n.spec.taints.iter().any(|t| t.effect == "NoExecute");
        for node in changes.nodes.keys() {
            if self.scheduled.is_empty() && ctx.store().node(node).is_none_or(untainted) {
                continue;
            }
            keys.extend(
                ctx.store()
                    .pods_on(node)
                    .map(|p| ((p.metadata.namespace.to_string(), p.metadata.name.to_string()), ())),
            );
        }
        for key in keys.into_keys() {
            match ctx.store().pods.get(&key) {
                Some(pod) if !pod.spec.node_name.is_empty() && !pod.is_terminating() => {
                    let pod = pod.clone();
                    self.process(key, &pod, ctx);
                }
                // A Terminating Pod is still in the informer's index of its Node's Pods (only
                // Failed and Succeeded ones leave it, `AddPodNodeNameIndexer`).
                Some(pod)
                    if !pod.spec.node_name.is_empty() && !matches!(&*pod.status.phase, "Failed" | "Succeeded") =>
                {
                    let pod = pod.clone();
                    self.scheduled.remove(&key);
                    self.process_terminating(key, &pod, ctx);
                }
                None => {
                    self.scheduled.remove(&key);
                    self.evicted.remove(&key);
                }
                _ => {
                    self.scheduled.remove(&key);
                }
            }
        }
    }

    /// `processPodOnNode` for a Pod already Terminating: tolerated taints change nothing (its
    /// finished work stays in the queue), but when the Node's NoExecute taints have changed and
    /// the Pod does not tolerate one of them, it is deleted again at once.
    fn process_terminating(&mut self, key: (String, String), pod: &Pod, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let taints = no_execute_taints(ctx, &pod.spec.node_name);
        let refs: Vec<&Taint> = taints.iter().collect();
        if taints.is_empty() || toleration_time(pod, &refs).is_some() {
            return;
        }
        let uid = pod.metadata.uid.to_string();
        if self.evicted.get(&key).is_some_and(|(u, t)| *u == uid && *t == taints) {
            return;
        }
        let now = ctx.now;
        self.evicted.insert(key.clone(), (uid.clone(), taints));
        self.scheduled.insert(key.clone(), ScheduledEviction { uid: uid.clone(), created_at: now, fire_at: now });
        ctx.at(now, TaintEvictionTimer { namespace: key.0, name: key.1, uid });
    }

    /// `processPodOnNode`: schedules, keeps or cancels one Pod's deletion.
    fn process(&mut self, key: (String, String), pod: &Pod, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        {
            let taints = no_execute_taints(ctx, &pod.spec.node_name);
            if taints.is_empty() {
                self.cancel_eviction(&key, ctx);
                return;
            }
            let refs: Vec<&Taint> = taints.iter().collect();
            let now = ctx.now;
            let (start, fire) = match toleration_time(pod, &refs) {
                None => (now, now),
                Some(None) => {
                    self.cancel_eviction(&key, ctx);
                    return;
                }
                Some(Some(d)) => (now, now + d),
            };
            let (start, fire) = match self.scheduled.get(&key) {
                Some(s) => {
                    let existing_fire = s.created_at + (fire - start);
                    if existing_fire <= fire {
                        return;
                    }
                    (s.created_at, existing_fire)
                }
                None => (start, fire),
            };
            self.scheduled.insert(
                key.clone(),
                ScheduledEviction { uid: pod.metadata.uid.to_string(), created_at: start, fire_at: fire },
            );
            ctx.at(fire, TaintEvictionTimer { namespace: key.0, name: key.1, uid: pod.metadata.uid.to_string() });
        }
    }

    fn cancel_eviction(&mut self, key: &(String, String), ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        if self.scheduled.remove(key).is_some() {
            // The Event goes through the controller's client too (`StartRecordingToSink` with its
            // clientset): written now, its token taken from the bucket.
            self.client.reserve(ctx.now);
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
        let Some(pod) = ctx.store().pods.get(&key) else { return };
        let node = pod.spec.node_name.clone();
        self.evicted.insert(key.clone(), (uid.to_string(), no_execute_taints(ctx, &node)));
        ctx.log_line(
            Actor::TaintEvictionController,
            format!("\"Deleting pod\" controller=\"{COMPONENT}\" pod=\"{namespace}/{name}\""),
        );
        // The Event takes a token of the client's bucket as well (written now; the requests
        // after it wait for theirs).
        self.client.reserve(ctx.now);
        self.recorder.event(
            ctx,
            Source::Controller(COMPONENT),
            pod_ref_by_name(namespace, name),
            "Normal",
            "TaintManagerEviction",
            format!("Marking for deletion Pod {namespace}/{name}"),
        );
        // The eviction's requests share the controller manager's client bucket: with many Pods
        // due at once they wait their turn (all three sent when the last token is there).
        let now = ctx.now;
        let go = (0..REQUESTS_PER_EVICTION).map(|_| self.client.reserve(now)).max().unwrap_or(now);
        if go > now {
            self.waiting.insert(key.clone(), (uid.to_string(), go));
            ctx.at(go, TaintEvictionTimer { namespace: key.0, name: key.1, uid: uid.to_string() });
            return;
        }
        self.delete(namespace, name, ctx);
    }

    /// `addConditionAndDeletePod`: the Pod gets `DisruptionTarget` and is deleted.
    fn delete(&mut self, namespace: &str, name: &str, ctx: &mut Ctx<'_, TaintEvictionTimer>) {
        let key = (namespace.to_string(), name.to_string());
        let Some(pod) = ctx.store().pods.get(&key).cloned() else { return };
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
        // The condition carries the Pod's generation (`CalculatePodConditionObservedGeneration`);
        // the rest of the status, the kubelet's, is left as it is.
        order_pod_conditions(&mut status, None);
        if let Some(g) = pod.metadata.generation
            && let Some(c) =
                status.conditions.iter_mut().find(|c| c.type_ == "DisruptionTarget" && c.observed_generation != g)
        {
            c.observed_generation = g;
        }
        // `UpdatePodCondition` says whether the condition changed; only then is the status patched.
        if status != pod.status {
            ctx.call(
                Actor::TaintEvictionController,
                None,
                ApiOp::PatchPodStatus { namespace: namespace.into(), name: name.into(), uid: String::new(), status },
            );
        }
        ctx.call(
            Actor::TaintEvictionController,
            None,
            ApiOp::DeletePod {
                namespace: namespace.into(),
                name: name.into(),
                grace_seconds: None,
                precondition_uid: None,
                background: false,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::TAINT_UNREACHABLE;
    use crate::objects::{ObjectMeta, Toleration};
    use crate::profile::Profile;
    use crate::testkit::{Probe, matches};
    use crate::time::secs;
    use crate::vecmap::VecMap;
    use crate::workload::new_pod;

    #[test]
    fn a_pod_on_an_unreachable_node_goes_when_its_toleration_runs_out() {
        let forever = Toleration {
            key: TAINT_UNREACHABLE.into(),
            operator: "Exists".into(),
            value: "".into(),
            effect: "NoExecute".into(),
            toleration_seconds: None,
        };
        // (the node tainted unreachable:NoExecute, the Pod's own tolerations), then what the
        // change does, and what the timer does 300 s later.
        let timer = "timer +5m0s TaintEvictionTimer { namespace: \"default\", name: \"web-1\", uid: *\" }";
        type Case = (bool, Vec<Toleration>, Vec<&'static str>, Vec<&'static str>);
        let cases: Vec<Case> = vec![
            (false, vec![], vec![], vec![]),
            (true, vec![forever], vec![], vec![]),
            (
                true,
                vec![],
                vec![timer],
                vec![
                    "GET /api/v1/namespaces/default/pods/web-1 -> 200",
                    "PATCH /api/v1/namespaces/default/pods/web-1/status -> 200",
                    "DELETE /api/v1/namespaces/default/pods/web-1 -> 200",
                    "event TaintManagerEviction: Marking for deletion Pod default/web-1",
                ],
            ),
        ];
        for (tainted, tolerations, on_change, on_timer) in cases {
            let mut probe = Probe::new();
            let taints = if tainted { vec![Taint::new(TAINT_UNREACHABLE, "NoExecute", None)] } else { Vec::new() };
            probe.given_node("node-a", taints);
            let meta = ObjectMeta { name: "web-1".into(), namespace: "default".into(), ..ObjectMeta::default() };
            let pod = probe.given(ApiOp::CreatePod(new_pod(meta, tolerations.clone(), Profile::V1_34)));
            let uid = pod.meta().uid.clone();
            probe.given(ApiOp::BindPod {
                namespace: "default".into(),
                name: "web-1".into(),
                uid: uid.to_string(),
                node: "node-a".into(),
            });
            let mut eviction = TaintEviction::default();
            let pods: VecMap<(String, String), ()> =
                [(("default".to_string(), "web-1".to_string()), ())].into_iter().collect();
            let changes = Changes { nodes: &VecMap::new(), pods: &pods, all: false };
            let got = probe.input(|ctx| eviction.on_change(&changes, ctx));
            assert!(matches(&got, &on_change), "tolerations {tolerations:?}: {got:#?}");
            probe.now = probe.now + secs(300);
            let timer = TaintEvictionTimer { namespace: "default".into(), name: "web-1".into(), uid: uid.to_string() };
            assert_eq!(probe.input(|ctx| eviction.on_timer(timer, ctx)), on_timer, "tolerations {tolerations:?}");
        }
    }

    /// The controller lists every Pod bound to the Node, finished or not (no phase check in
    /// `handleNodeUpdate`/`processPodOnNode`), so a Pod the kubelet's graceful shutdown left
    /// `Failed` is marked and deleted too; being finished, it goes at once (`CheckGracefulDelete`).
    #[test]
    fn a_failed_pod_on_a_tainted_node_is_marked_and_deleted_at_once() {
        let mut probe = Probe::new();
        probe.given_node("node-a", vec![Taint::new(TAINT_UNREACHABLE, "NoExecute", None)]);
        let meta = ObjectMeta { name: "web-1".into(), namespace: "default".into(), ..ObjectMeta::default() };
        let pod = probe.given(ApiOp::CreatePod(new_pod(meta, Vec::new(), Profile::V1_34)));
        let uid = pod.meta().uid.clone();
        let bound = probe.given(ApiOp::BindPod {
            namespace: "default".into(),
            name: "web-1".into(),
            uid: uid.to_string(),
            node: "node-a".into(),
        });
        let crate::objects::Object::Pod(bound) = bound else { panic!("a Pod") };
        let mut status = bound.status.clone();
        status.phase = "Failed".into();
        set_pod_condition(
            &mut status,
            "DisruptionTarget",
            "True",
            "TerminationByKubelet",
            "",
            Time::at(crate::time::WallTime(0)),
        );
        probe.given(ApiOp::PatchPodStatus {
            namespace: "default".into(),
            name: "web-1".into(),
            uid: uid.to_string(),
            status,
        });
        let mut eviction = TaintEviction::default();
        let pods: VecMap<(String, String), ()> =
            [(("default".to_string(), "web-1".to_string()), ())].into_iter().collect();
        let changes = Changes { nodes: &VecMap::new(), pods: &pods, all: false };
        probe.input(|ctx| eviction.on_change(&changes, ctx));
        probe.now = probe.now + secs(300);
        let timer = TaintEvictionTimer { namespace: "default".into(), name: "web-1".into(), uid: uid.to_string() };
        let got = probe.input(|ctx| eviction.on_timer(timer, ctx));
        assert_eq!(
            got,
            [
                "GET /api/v1/namespaces/default/pods/web-1 -> 200",
                "PATCH /api/v1/namespaces/default/pods/web-1/status -> 200",
                "DELETE /api/v1/namespaces/default/pods/web-1 -> 200",
                "event TaintManagerEviction: Marking for deletion Pod default/web-1",
            ]
        );
        assert!(probe.store().pods.is_empty(), "a finished Pod is deleted without a grace period");
    }
}
