//! The StatefulSet controller (`pkg/controller/statefulset`), for one StatefulSet of ordered,
//! named Pods: `NAME-0` … Its identity is the point: a Pod that is still there (even stuck
//! `Terminating` on a dead node) is never replaced, because its replacement would have the same
//! name; a `Failed` Pod is deleted and created again; a missing one is created.

use crate::apiserver::{ApiOp, controller_ref};
use crate::ctx::Ctx;
use crate::events::{Recorder, Source};
use crate::objects::{Object, ObjectMeta, ObjectReference};
use crate::record::Actor;
use crate::rng::Rng;
use crate::workload::new_pod;

const ACTOR: Actor = Actor::StatefulSetController;

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
}

impl StatefulSetController {
    /// The reader's StatefulSet (`kubectl apply`): `db`, one replica. Returns false when it
    /// already exists.
    pub(crate) fn add(&mut self, rng: &mut Rng) -> bool {
        if !self.sets.is_empty() {
            return false;
        }
        let uid = rng.uuid();
        let revision = format!("db-{}", rng.name_suffix(10));
        self.sets.push(StatefulSet { name: "db".into(), uid, revision, replicas: 1 });
        true
    }

    /// Input: Pods changed (or the set was created): `syncStatefulSet`, one replica at a time.
    pub(crate) fn on_change<T>(&mut self, ctx: &mut Ctx<'_, T>) {
        for i in 0..self.sets.len() {
            let set = self.sets[i].clone();
            for ordinal in 0..set.replicas {
                let name = format!("{}-{ordinal}", set.name);
                let key = ("default".to_string(), name.clone());
                let existing = ctx.store().pods.get(&key).cloned();
                match existing {
                    // Terminating: wait for it to be gone ("waiting for Pod to be terminated").
                    Some(pod) if pod.is_terminating() => break,
                    Some(pod) if matches!(pod.status.phase.as_str(), "Failed" | "Succeeded") => {
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
                        self.create(ctx, &set, ordinal, &name);
                        // OrderedReady: one Pod at a time.
                        break;
                    }
                }
            }
        }
    }

    fn create<T>(&mut self, ctx: &mut Ctx<'_, T>, set: &StatefulSet, ordinal: i32, name: &str) {
        let meta = ObjectMeta {
            name: name.to_string(),
            namespace: "default".into(),
            labels: [
                ("app".to_string(), set.name.clone()),
                ("apps.kubernetes.io/pod-index".to_string(), ordinal.to_string()),
                ("controller-revision-hash".to_string(), set.revision.clone()),
                ("statefulset.kubernetes.io/pod-name".to_string(), name.to_string()),
            ]
            .into_iter()
            .collect(),
            owner_references: vec![controller_ref("apps/v1", "StatefulSet", &set.name, &set.uid)],
            ..ObjectMeta::default()
        };
        let pod = new_pod(meta, Vec::new(), ctx.profile);
        if let Some(Object::Pod(_)) = ctx.call(ACTOR, None, ApiOp::CreatePod(pod)).ok() {
            self.event(
                ctx,
                set,
                "SuccessfulCreate",
                format!("create Pod {name} in StatefulSet {} successful", set.name),
            );
        }
    }

    fn event<T>(&mut self, ctx: &mut Ctx<'_, T>, set: &StatefulSet, reason: &'static str, message: String) {
        let reference = ObjectReference {
            kind: "StatefulSet".into(),
            namespace: "default".into(),
            name: set.name.clone(),
            uid: set.uid.clone(),
            api_version: "apps/v1".into(),
            ..ObjectReference::default()
        };
        self.recorder.event(ctx, Source::Controller("statefulset-controller"), reference, "Normal", reason, message);
    }
}
