//! The ReplicaSet controller (`pkg/controller/replicaset`), which replaces Pods that are deleted
//! or terminating, at once. A node-local workload's template pins its Pods to one node and keeps
//! scratch data in an `emptyDir` (what drain's local-storage filter acts on).
//!
//! Its client is its own (`ClientOrDie("replicaset-controller")`: 20 requests a second, burst
//! 30), and its Events go through it (`StartRecordingToSink` with `rsc.kubeClient`): a sync that
//! has more Pods to create than tokens stops at the first create without one and goes on when
//! the next token comes; the `SuccessfulCreate` Events wait behind the creates.

use crate::apiserver::{ApiOp, controller_ref};
use crate::client::{ClientWake, Throttled};
use crate::ctx::Ctx;
use crate::events::Recorder;
use crate::objects::{
    EmptyObject, Object, ObjectMeta, ObjectReference, OwnerReference, StringMap, Volume, VolumeMount, pinned_to,
};
use crate::record::Actor;
use crate::rng::Rng;
use crate::scenario::ReplicaSetSpec;
use crate::shared::Shared;
use crate::time::SimTime;
use crate::workload::new_pod;

/// One ReplicaSet the controller manages.
#[derive(Clone, Debug)]
struct ReplicaSet {
    name: String,
    uid: String,
    deployment: String,
    replicas: i32,
    active_from: SimTime,
    /// The node a node-local workload's Pods are pinned to.
    node_local: Option<String>,
    /// The template's labels and the owner reference, the same for every Pod: one copy shared
    /// by all (a map and a list of four strings were 3,000 of each in the 1,000-node hour).
    pod_labels: StringMap,
    owner: Shared<Vec<OwnerReference>>,
}

/// The node-local workload's scratch volume and where its container mounts it.
pub(crate) const CACHE_VOLUME: &str = "cache";
const CACHE_PATH: &str = "/cache";

/// The controller's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReplicaSetController {
    sets: Vec<ReplicaSet>,
    recorder: Recorder,
    client: Throttled,
}

/// The Events' source component.
const COMPONENT: &str = "replicaset-controller";
const ACTOR: Actor = Actor::ReplicaSetController;

/// A pod-template-hash: the decimal digits of an FNV-32a hash mapped through `SafeEncodeString`,
/// so only `4 5 6 7 8 9 b c d f` appear.
fn template_hash(seed: u64) -> String {
    const MAP: [char; 10] = ['4', '5', '6', '7', '8', '9', 'b', 'c', 'd', 'f'];
    let n = 1_000_000_000 + (seed % 3_294_967_295);
    n.to_string().chars().map(|c| MAP[c.to_digit(10).expect("digit") as usize]).collect()
}

impl ReplicaSetController {
    /// Adds a scenario's ReplicaSet (the router resyncs every controller when it becomes active);
    /// with `node_local`, its Pods are pinned to that node and mount an `emptyDir`. Returns the
    /// ReplicaSet's uid.
    pub(crate) fn add(&mut self, spec: &ReplicaSetSpec, node_local: Option<&str>, rng: &mut Rng) -> String {
        let hash = template_hash(rng.next_u64());
        let uid = rng.uuid();
        let name = format!("{}-{hash}", spec.deployment);
        let pod_labels =
            [("app".to_string(), spec.deployment.clone()), ("pod-template-hash".to_string(), hash.clone())]
                .into_iter()
                .collect();
        let owner = vec![controller_ref("apps/v1", "ReplicaSet", &name, &uid)].into();
        self.sets.push(ReplicaSet {
            name,
            uid: uid.clone(),
            deployment: spec.deployment.clone(),
            replicas: spec.replicas,
            active_from: SimTime::ZERO + spec.created_after,
            node_local: node_local.map(str::to_string),
            pod_labels,
            owner,
        });
        uid
    }

    /// Whether a ReplicaSet of the Deployment `deployment` exists.
    pub(crate) fn has(&self, deployment: &str) -> bool {
        self.sets.iter().any(|s| s.deployment == deployment)
    }

    /// Input: the client has a token again: the sync goes on, then the Events waiting.
    pub(crate) fn on_wake(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        if self.client.woken(ctx.now) {
            self.on_change(ctx);
        }
    }

    /// Input: Pods changed: `syncReplicaSet`, creating Pods until enough are active (not
    /// terminating), each when the client has a token for it.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        let mut missing = 0;
        for i in 0..self.sets.len() {
            let rs = self.sets[i].clone();
            if ctx.now < rs.active_from {
                continue;
            }
            let active = ctx.store().active_pods_of(&rs.uid);
            for left in (active..rs.replicas).rev() {
                if self.client.is_stopped() || !self.client.admit(ctx, || ClientWake) {
                    missing += left + 1 - active;
                    break;
                }
                let meta = ObjectMeta {
                    generate_name: format!("{}-", rs.name).into(),
                    namespace: "default".into(),
                    labels: rs.pod_labels.clone(),
                    owner_references: rs.owner.clone(),
                    ..ObjectMeta::default()
                };
                let mut pod = new_pod(meta, Vec::new(), ctx.profile);
                if let Some(node) = &rs.node_local {
                    pod.spec.affinity = Some(pinned_to(node));
                    pod.spec.volumes.push(Volume {
                        name: CACHE_VOLUME.into(),
                        empty_dir: Some(EmptyObject {}),
                        ..Volume::default()
                    });
                    for c in &mut pod.spec.containers {
                        c.volume_mounts.push(VolumeMount {
                            name: CACHE_VOLUME.into(),
                            read_only: false,
                            mount_path: CACHE_PATH.into(),
                        });
                    }
                }
                if let Some(Object::Pod(created)) = ctx.call(ACTOR, None, ApiOp::CreatePod(pod)).ok() {
                    let reference = ObjectReference {
                        kind: "ReplicaSet".into(),
                        namespace: "default".into(),
                        name: rs.name.as_str().into(),
                        uid: rs.uid.as_str().into(),
                        api_version: "apps/v1".into(),
                        ..ObjectReference::default()
                    };
                    self.client.event(
                        &mut self.recorder,
                        ctx,
                        COMPONENT,
                        reference,
                        "Normal",
                        "SuccessfulCreate",
                        format!("Created pod: {}", created.metadata.name),
                        || ClientWake,
                    );
                }
            }
        }
        self.client.write_events(&mut self.recorder, ctx, COMPONENT, || ClientWake);
        self.client.note(ACTOR, missing as u32, ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The controller creates the missing replicas with the template's labels and owner, one copy
    /// of each shared by all its Pods.
    #[test]
    fn replicas_are_created_with_the_templates_labels_and_owner_shared() {
        let mut probe = crate::testkit::Probe::new();
        let mut rsc = ReplicaSetController::default();
        let spec = ReplicaSetSpec { deployment: "web".into(), replicas: 3, created_after: std::time::Duration::ZERO };
        let uid = rsc.add(&spec, None, probe.rng());
        let out = probe.input::<ClientWake>(|ctx| rsc.on_change(ctx));
        let posts = out.iter().filter(|l| *l == "POST /api/v1/namespaces/default/pods -> 201").count();
        assert_eq!(posts, 3, "{out:?}");
        let pods: Vec<_> = probe.store().pods.values().collect();
        assert_eq!(pods.len(), 3);
        let rs = &rsc.sets[0];
        for pod in &pods {
            let meta = &pod.metadata;
            assert_eq!(meta.labels.get("app").map(String::as_str), Some("web"));
            assert_eq!(meta.labels.get("pod-template-hash"), Some(&rs.name["web-".len()..].to_string()));
            assert_eq!((&*meta.owner_references[0].name, &*meta.owner_references[0].uid), (&*rs.name, &*uid));
            assert!(Shared::ptr_eq(&meta.labels, &pods[0].metadata.labels), "one labels map");
            assert!(Shared::ptr_eq(&meta.owner_references, &pods[0].metadata.owner_references), "one owner list");
        }
        // Enough are active: nothing more.
        let again = probe.input::<ClientWake>(|ctx| rsc.on_change(ctx));
        assert!(again.iter().all(|l| !l.starts_with("POST")), "{again:?}");
    }

    /// A ReplicaSet with more Pods to create than its client has tokens: the creates and their
    /// Events share the burst of 30, then a create goes every 50 ms (20 a second) and the
    /// Events that waited follow the last create.
    #[test]
    fn creates_wait_for_the_client_after_its_burst() {
        let mut probe = crate::testkit::Probe::new();
        let mut rsc = ReplicaSetController::default();
        let spec = ReplicaSetSpec { deployment: "web".into(), replicas: 100, created_after: std::time::Duration::ZERO };
        rsc.add(&spec, None, probe.rng());
        let first = probe.input::<ClientWake>(|ctx| rsc.on_change(ctx));
        let (posts, events) = (first.iter().filter(|l| l.starts_with("POST")).count(), probe.log().events.len());
        assert_eq!((posts, events), (15, 15), "a create and its Event take a token each: {first:?}");
        assert_eq!(probe.log().backlog_at(&ACTOR, SimTime::ZERO), 85, "the creates still to send");
        let sent = probe.run_timers::<ClientWake>(SimTime::MAX, |ctx| rsc.on_wake(ctx));
        let at_50ms = probe.log().backlog_at(&ACTOR, SimTime::ZERO + std::time::Duration::from_millis(50));
        assert_eq!(at_50ms, 85, "84 creates, and the Event of the one the first wake-up sent");
        let creates: Vec<u64> = sent.iter().map(|(t, _)| *t).collect();
        let want: Vec<u64> = (0..100).map(|i| if i < 15 { 0 } else { (i - 14) * 50 }).collect();
        assert_eq!(creates, want);
        assert_eq!(probe.store().pods.len(), 100);
        // The spam filter passes 25 of the 100 Events (`defaultSpamBurst`); the ten after the
        // burst were written after the last create, one token each.
        let written: Vec<u64> = probe.log().events.iter().map(|e| e.t.as_millis()).collect();
        assert_eq!(written.len(), 25);
        assert_eq!(written[15..], [4_300, 4_350, 4_400, 4_450, 4_500, 4_550, 4_600, 4_650, 4_700, 4_750]);
    }

    #[test]
    fn template_hashes_use_the_safe_alphabet() {
        for seed in [0, 1, 42, u64::MAX] {
            let h = template_hash(seed);
            assert_eq!(h.len(), 10);
            assert!(h.chars().all(|c| "456789bcdf".contains(c)), "{h}");
        }
    }
}
