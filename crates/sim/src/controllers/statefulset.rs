//! The StatefulSet controller (`pkg/controller/statefulset`), for one StatefulSet of ordered,
//! named Pods: `NAME-0` … Its identity is the point: a Pod that is still there (even stuck
//! `Terminating` on a dead node) is never replaced, because its replacement would have the same
//! name; a `Failed` Pod is deleted and created again; a missing one is created, after its claim
//! `data-NAME-N` (`createPersistentVolumeClaims`). The StatefulSet is a stored object (`kubectl
//! apply` creates it) whose status the controller writes back (`updateStatefulSetStatus`).
//! Its client is its own (`ClientOrDie("statefulset-controller")`, 20 requests a second, burst
//! 30, its Events through it): a sync stops at a request without a token and goes on when the
//! next comes (a claim's Event is written with its claim).

use std::collections::BTreeMap;

use crate::apiserver::{ApiOp, controller_ref};
use crate::client::{ClientWake, Throttled};
use crate::ctx::Ctx;
use crate::events::{Recorder, Source};
use crate::objects::{
    ClaimVolumeSource, LabelSelector, Object, ObjectMeta, ObjectReference, PersistentVolumeClaim, PodSpec,
    PodTemplateSpec, StatefulSetSpec, StatefulSetStatus, TemplateMeta, Volume, VolumeMount,
};
use crate::record::Actor;
use crate::workload::new_pod;

const ACTOR: Actor = Actor::StatefulSetController;
/// The Events' source component.
const COMPONENT: &str = "statefulset-controller";
/// The set's one `volumeClaimTemplates` entry, and the volume its Pods mount from it.
pub(crate) const CLAIM_TEMPLATE: &str = "data";
/// Where the template's container mounts it.
const MOUNT_PATH: &str = "/data";

/// The set's Pod template spec: the workload's container, mounting the claim template's volume
/// (the reader's manifest names it in `volumeMounts`; the controller adds the volume itself).
fn template_spec(profile: crate::profile::Profile) -> PodSpec {
    let mut spec = PodSpec::clone(&*new_pod(ObjectMeta::default(), Vec::new(), profile).spec);
    for c in &mut spec.containers {
        c.volume_mounts.push(VolumeMount {
            name: CLAIM_TEMPLATE.into(),
            read_only: false,
            mount_path: MOUNT_PATH.into(),
        });
    }
    spec
}

/// One StatefulSet the controller manages.
#[derive(Clone, Debug)]
pub(crate) struct StatefulSet {
    pub(crate) name: String,
    pub(crate) uid: String,
    revision: String,
    pub(crate) replicas: i32,
}

/// The controller's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct StatefulSetController {
    pub(crate) sets: Vec<StatefulSet>,
    recorder: Recorder,
    client: Throttled,
}

impl StatefulSetController {
    /// The reader's StatefulSet (`kubectl apply`): `db`, one replica, one claim template
    /// `data`. Returns false when it already exists.
    pub(crate) fn add<T>(&mut self, ctx: &mut Ctx<'_, T>) -> bool {
        if !self.sets.is_empty() {
            return false;
        }
        let labels = || -> BTreeMap<String, String> { [("app".to_string(), "db".to_string())].into_iter().collect() };
        let set = crate::objects::StatefulSet {
            kind: "StatefulSet",
            api_version: "apps/v1",
            metadata: ObjectMeta { name: "db".into(), namespace: "default".into(), ..ObjectMeta::default() },
            spec: StatefulSetSpec {
                replicas: 1,
                selector: LabelSelector { match_labels: labels() },
                template: PodTemplateSpec {
                    metadata: TemplateMeta { creation_timestamp: None, labels: labels() },
                    spec: template_spec(ctx.profile).into(),
                },
                volume_claim_templates: vec![serde_json::json!({
                    "apiVersion": "v1",
                    "kind": "PersistentVolumeClaim",
                    "metadata": { "name": "data", "creationTimestamp": null },
                    "spec": {
                        "accessModes": ["ReadWriteOnce"],
                        "resources": { "requests": { "storage": crate::objects::CLAIM_SIZE } },
                        "volumeMode": "Filesystem",
                    },
                    "status": { "phase": "Pending" },
                })],
                service_name: "db".into(),
                pod_management_policy: "OrderedReady",
                update_strategy: serde_json::json!({ "type": "RollingUpdate", "rollingUpdate": { "partition": 0 } }),
                revision_history_limit: 10,
                persistent_volume_claim_retention_policy: serde_json::json!({ "whenDeleted": "Retain", "whenScaled": "Retain" }),
            },
            status: StatefulSetStatus::default(),
        };
        let Some(Object::StatefulSet(created)) = ctx.call(Actor::Kubectl, None, ApiOp::Create(set.into())).ok() else {
            return false;
        };
        let revision = new_revision(&created);
        self.sets.push(StatefulSet {
            name: "db".into(),
            uid: created.metadata.uid.to_string(),
            revision: revision.metadata.name.to_string(),
            replicas: created.spec.replicas,
        });
        // `getStatefulSetRevisions`: the set's first sync stores its revision before any Pod (a
        // fresh client has the token).
        self.client.also(1, ctx);
        ctx.call(ACTOR, None, ApiOp::Create(revision.into()));
        true
    }

    /// Input: the client has a token again: the sync goes on.
    pub(crate) fn on_wake(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        if self.client.woken(ctx.now) {
            self.on_change(ctx);
        }
    }

    /// Whether the client has a token for the next request (else the sync stops there).
    fn admit(&mut self, ctx: &mut Ctx<'_, ClientWake>) -> bool {
        !self.client.is_stopped() && self.client.admit(ctx, || ClientWake)
    }

    /// Input: Pods changed (or the set was created): `syncStatefulSet`, one replica at a time.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        for i in 0..self.sets.len() {
            let set = self.sets[i].clone();
            for ordinal in 0..set.replicas {
                let name = format!("{}-{ordinal}", set.name);
                let key = ("default".to_string(), name.clone());
                let existing = ctx.store().pods.get(&key).cloned();
                match existing {
                    // Terminating: wait for it to be gone ("waiting for Pod to be terminated").
                    Some(pod) if pod.is_terminating() => break,
                    Some(pod) if matches!(&*pod.status.phase, "Failed" | "Succeeded") => {
                        if !self.admit(ctx) {
                            break;
                        }
                        let delete = ApiOp::DeletePod {
                            namespace: "default".into(),
                            name: name.clone(),
                            grace_seconds: None,
                            precondition_uid: None,
                            background: false,
                        };
                        if ctx.call(ACTOR, None, delete).ok().is_some() {
                            self.event(
                                ctx,
                                &set,
                                "SuccessfulDelete",
                                format!("delete Pod {name} in StatefulSet {} successful", set.name),
                            );
                        }
                        break;
                    }
                    Some(_) => {}
                    None => {
                        if !self.create_claim(ctx, &set, &name) || !self.admit(ctx) {
                            break;
                        }
                        self.create(ctx, &set, ordinal, &name);
                        // OrderedReady: one Pod at a time.
                        break;
                    }
                }
            }
            if !self.client.is_stopped() {
                self.update_status(ctx, &set);
            }
        }
        self.client.write_events(&mut self.recorder, ctx, COMPONENT, || ClientWake);
        self.client.note(ACTOR, u32::from(self.client.is_stopped()), ctx);
    }

    /// `createPersistentVolumeClaims`: the Pod's claim from the `data` template, unless it exists.
    /// Returns whether the claim is there (false: the client had no token for it).
    fn create_claim(&mut self, ctx: &mut Ctx<'_, ClientWake>, set: &StatefulSet, pod: &str) -> bool {
        let labels = [("app".to_string(), set.name.clone())].into_iter().collect();
        let claim = PersistentVolumeClaim::for_pod(pod, labels);
        if ctx.store().claims.contains_key(&(claim.metadata.namespace.to_string(), claim.metadata.name.to_string())) {
            return true;
        }
        if !self.admit(ctx) {
            return false;
        }
        let name = claim.metadata.name.clone();
        if let Some(Object::PersistentVolumeClaim(_)) = ctx.call(ACTOR, None, ApiOp::Create(claim.into())).ok() {
            // `recordClaimEvent`; keyed, so that the seeded stream's draws stay where they were.
            let message = format!("create Claim {name} Pod {pod} in StatefulSet {} success", set.name);
            let reference = set_ref(set);
            let source = Source::Controller(COMPONENT);
            self.client.also(1, ctx);
            self.recorder.event_keyed(ctx, source, reference, "Normal", "SuccessfulCreate", message);
        }
        true
    }

    /// `updateStatefulSetStatus`: the counts over the set's Pods (`replicas`: created, i.e. with a
    /// phase; `readyReplicas`/`availableReplicas`: Running and Ready, `minReadySeconds` 0;
    /// `currentReplicas`/`updatedReplicas`: created, not terminating, of the one revision), sent
    /// only when it changed.
    fn update_status(&mut self, ctx: &mut Ctx<'_, ClientWake>, set: &StatefulSet) {
        let Some(stored) = ctx.store().statefulsets.get(&("default".to_string(), set.name.clone())).cloned() else {
            return;
        };
        let mut status = StatefulSetStatus {
            observed_generation: stored.metadata.generation,
            current_revision: set.revision.clone(),
            update_revision: set.revision.clone(),
            collision_count: Some(0),
            ..StatefulSetStatus::default()
        };
        for pod in ctx.store().pods.values() {
            if pod.controller().is_none_or(|c| c.uid != set.uid) || pod.status.phase.is_empty() {
                continue;
            }
            status.replicas += 1;
            if pod.status.phase == "Running" && pod.is_ready() {
                status.ready_replicas += 1;
                status.available_replicas += 1;
            }
            if !pod.is_terminating() {
                status.current_replicas += 1;
                status.updated_replicas += 1;
            }
        }
        if status == stored.status || !self.admit(ctx) {
            return;
        }
        let mut wanted = crate::objects::StatefulSet::clone(&stored);
        wanted.status = status;
        ctx.call(ACTOR, None, ApiOp::UpdateStatefulSetStatus(wanted));
    }

    fn create(&mut self, ctx: &mut Ctx<'_, ClientWake>, set: &StatefulSet, ordinal: i32, name: &str) {
        let meta = ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            labels: [
                ("app".to_string(), set.name.clone()),
                ("apps.kubernetes.io/pod-index".to_string(), ordinal.to_string()),
                ("controller-revision-hash".to_string(), set.revision.clone()),
                ("statefulset.kubernetes.io/pod-name".to_string(), name.to_string()),
            ]
            .into_iter()
            .collect(),
            owner_references: vec![controller_ref("apps/v1", "StatefulSet", &set.name, &set.uid)].into(),
            ..ObjectMeta::default()
        };
        let mut pod = new_pod(meta, Vec::new(), ctx.profile);
        // `updateStorage`: the claim template's volume first, naming the Pod's claim.
        let spec = &mut *pod.spec;
        *spec = template_spec(ctx.profile);
        spec.volumes.insert(
            0,
            Volume {
                name: CLAIM_TEMPLATE.into(),
                persistent_volume_claim: Some(ClaimVolumeSource { claim_name: format!("{CLAIM_TEMPLATE}-{name}") }),
                ..Volume::default()
            },
        );
        if let Some(Object::Pod(_)) = ctx.call(ACTOR, None, ApiOp::CreatePod(pod)).ok() {
            self.event(
                ctx,
                set,
                "SuccessfulCreate",
                format!("create Pod {name} in StatefulSet {} successful", set.name),
            );
        }
    }

    fn event(&mut self, ctx: &mut Ctx<'_, ClientWake>, set: &StatefulSet, reason: &'static str, message: String) {
        let reference = set_ref(set);
        self.client.event(&mut self.recorder, ctx, COMPONENT, reference, "Normal", reason, message, || ClientWake);
    }
}

/// `newRevision` + `history.NewControllerRevision`: revision 1 of the set's template. `data` is
/// `getPatch`: the template as stored, with `"$patch": "replace"`, under `spec.template` (Go's
/// `json.Marshal` of a map: keys sorted, compact, as `serde_json` writes a `Value`). The name is
/// `SET-HASH`, `HashControllerRevision`: FNV-1 32 over the raw data, then the collision count
/// (`0`) in decimal, the sum in decimal through `rand.SafeEncodeString`. The hash is also the
/// `controller.kubernetes.io/hash` label, after the template's labels.
fn new_revision(set: &crate::objects::StatefulSet) -> crate::objects::ControllerRevision {
    let mut template = serde_json::to_value(&set.spec.template).unwrap_or_default();
    if let Some(map) = template.as_object_mut() {
        map.insert("$patch".into(), "replace".into());
    }
    let data = serde_json::json!({ "spec": { "template": template } });
    let raw = serde_json::to_vec(&data).unwrap_or_default();
    let hash = revision_hash(&raw, 0);
    let mut labels = set.spec.template.metadata.labels.clone();
    labels.insert("controller.kubernetes.io/hash".into(), hash.clone());
    let owner = controller_ref("apps/v1", "StatefulSet", &set.metadata.name, &set.metadata.uid);
    crate::objects::ControllerRevision {
        kind: "ControllerRevision",
        api_version: "apps/v1",
        metadata: ObjectMeta {
            name: format!("{}-{hash}", set.metadata.name).into(),
            namespace: set.metadata.namespace.clone(),
            labels: labels.into(),
            owner_references: vec![owner].into(),
            ..ObjectMeta::default()
        },
        data,
        revision: 1,
    }
}

/// `HashControllerRevision` (`pkg/controller/history`): `fnv.New32()` (FNV-1, not 1a) over the
/// raw data and the probe in decimal, `rand.SafeEncodeString(fmt.Sprint(sum))`.
fn revision_hash(raw: &[u8], probe: i32) -> String {
    const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut h: u32 = 0x811c_9dc5;
    for &b in raw.iter().chain(probe.to_string().as_bytes()) {
        h = h.wrapping_mul(0x0100_0193);
        h ^= u32::from(b);
    }
    h.to_string().bytes().map(|b| ALPHANUMS[usize::from(b) % ALPHANUMS.len()] as char).collect()
}

/// The reference the controller's Events name the set by.
fn set_ref(set: &StatefulSet) -> ObjectReference {
    ObjectReference {
        kind: "StatefulSet".into(),
        namespace: "default".into(),
        name: set.name.as_str().into(),
        uid: set.uid.as_str().into(),
        api_version: "apps/v1".into(),
        ..ObjectReference::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::Probe;
    use crate::time::SimTime;

    /// A sync that finds its client's bucket spent (40 requests owed past the burst of 30, as
    /// after a burst of other work) sends nothing and goes on when the next token comes: the
    /// claim's POST at 600 ms, the Pod's after it.
    #[test]
    fn a_sync_without_a_token_waits_for_it() {
        let mut probe = Probe::new();
        let mut sets = StatefulSetController::default();
        probe.input::<ClientWake>(|ctx| assert!(sets.add(ctx)));
        probe.input::<ClientWake>(|ctx| sets.client.also(40, ctx));
        let from = probe.log().requests.len();
        let out = probe.input::<ClientWake>(|ctx| sets.on_change(ctx));
        assert_eq!(out, ["timer +600ms ClientWake"]);
        let sent = probe.run_timers::<ClientWake>(SimTime::MAX, |ctx| sets.on_wake(ctx));
        let posts: Vec<u64> = sent[from..].iter().filter(|(_, m)| m == "POST").map(|(t, _)| *t).collect();
        assert_eq!(posts.first(), Some(&600), "{sent:?}");
        assert_eq!(posts.len(), 2, "the claim, then the Pod: {sent:?}");
        assert!(probe.store().pods.contains_key(&("default".to_string(), format!("{}-0", sets.sets[0].name))));
    }
}
