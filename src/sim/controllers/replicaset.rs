//! Workloads: the ReplicaSet controller (which replaces Pods that are deleted or terminating, at
//! once) and the Pods a reader creates with kubectl.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::sim::apiserver::{ApiOp, TAINT_NOT_READY, controller_ref};
use crate::sim::events::Source;
use crate::sim::machine::WORKLOAD_IMAGE;
use crate::sim::objects::{
    Container, EmptyObject, ObjectMeta, ObjectReference, Pod, PodSpec, PodStatus, ResourceRequirements, Toleration,
};
use crate::sim::profile::Profile;
use crate::sim::record::{Actor, Log};
use crate::sim::time::SimTime;
use crate::sim::world::World;

/// A ReplicaSet a scenario starts with (owned by a Deployment, as `kubectl create deployment`
/// would make it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaSetSpec {
    /// The Deployment's name; the ReplicaSet is `<name>-<pod-template-hash>`.
    pub deployment: String,
    pub replicas: i32,
    /// When the Deployment is created.
    pub created_after: Duration,
}

/// One ReplicaSet the controller manages.
#[derive(Clone, Debug)]
pub(crate) struct ReplicaSet {
    pub(crate) name: String,
    pub(crate) uid: String,
    pub(crate) hash: String,
    pub(crate) deployment: String,
    pub(crate) replicas: i32,
    pub(crate) active_from: SimTime,
}

/// The controller's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReplicaSetController {
    pub(crate) sets: Vec<ReplicaSet>,
}

/// The container every simulated Pod runs.
fn container() -> Container {
    let requests: BTreeMap<String, String> =
        [("cpu".to_string(), "100m".to_string()), ("memory".to_string(), "64Mi".to_string())].into_iter().collect();
    Container {
        name: "nginx".into(),
        image: WORKLOAD_IMAGE.into(),
        resources: ResourceRequirements { limits: BTreeMap::new(), requests },
        volume_mounts: Vec::new(),
        termination_message_path: "/dev/termination-log".into(),
        termination_message_policy: "File".into(),
        image_pull_policy: "IfNotPresent".into(),
    }
}

/// A Pod as a client submits it, with the defaults the API server fills in.
pub(crate) fn new_pod(meta: ObjectMeta, tolerations: Vec<Toleration>, profile: Profile) -> Pod {
    let mut meta = meta;
    if profile == Profile::V1_34 {
        meta.generation = Some(1);
    }
    Pod {
        kind: "Pod",
        api_version: "v1",
        metadata: meta,
        spec: PodSpec {
            volumes: Vec::new(),
            containers: vec![container()],
            restart_policy: "Always".into(),
            termination_grace_period_seconds: 30,
            dns_policy: "ClusterFirst".into(),
            service_account_name: String::new(),
            service_account: String::new(),
            node_name: String::new(),
            host_network: false,
            security_context: EmptyObject {},
            scheduler_name: "default-scheduler".into(),
            tolerations,
            priority: 0,
            enable_service_links: true,
            preemption_policy: "PreemptLowerPriority".into(),
        },
        status: PodStatus { phase: "Pending".into(), qos_class: "Burstable".into(), ..PodStatus::default() },
    }
}

/// A pod-template-hash: the decimal digits of an FNV-32a hash mapped through `SafeEncodeString`,
/// so only `4 5 6 7 8 9 b c d f` appear.
fn template_hash(seed: u64) -> String {
    const MAP: [char; 10] = ['4', '5', '6', '7', '8', '9', 'b', 'c', 'd', 'f'];
    let n = 1_000_000_000 + (seed % 3_294_967_295);
    n.to_string().chars().map(|c| MAP[c.to_digit(10).expect("digit") as usize]).collect()
}

impl World {
    /// Adds a scenario's ReplicaSet.
    pub(crate) fn add_replicaset(&mut self, spec: &ReplicaSetSpec) {
        let hash = template_hash(self.rng.next_u64());
        let uid = self.rng.uuid();
        self.replicasets.sets.push(ReplicaSet {
            name: format!("{}-{hash}", spec.deployment),
            uid,
            hash,
            deployment: spec.deployment.clone(),
            replicas: spec.replicas,
            active_from: SimTime::ZERO + spec.created_after,
        });
        self.after(spec.created_after, crate::sim::world::Timer::Resync);
    }

    /// `syncReplicaSet`: create Pods until enough are active (not terminating).
    pub(crate) fn replicaset_reconcile(&mut self, log: &mut Log) {
        for i in 0..self.replicasets.sets.len() {
            let rs = self.replicasets.sets[i].clone();
            if self.now < rs.active_from {
                continue;
            }
            let active = self
                .api
                .pods()
                .filter(|p| {
                    p.metadata.owner_references.iter().any(|o| o.uid == rs.uid)
                        && !p.is_terminating()
                        && !matches!(p.status.phase.as_str(), "Succeeded" | "Failed")
                })
                .count() as i32;
            for _ in active..rs.replicas {
                let meta = ObjectMeta {
                    generate_name: format!("{}-", rs.name),
                    namespace: "default".into(),
                    labels: [
                        ("app".to_string(), rs.deployment.clone()),
                        ("pod-template-hash".to_string(), rs.hash.clone()),
                    ]
                    .into_iter()
                    .collect(),
                    owner_references: vec![controller_ref("apps/v1", "ReplicaSet", &rs.name, &rs.uid)],
                    ..ObjectMeta::default()
                };
                let pod = new_pod(meta, Vec::new(), self.config.profile);
                if let Some(crate::sim::objects::Object::Pod(created)) =
                    self.call(log, Actor::ReplicaSetController, None, ApiOp::CreatePod(pod)).ok()
                {
                    let reference = ObjectReference {
                        kind: "ReplicaSet".into(),
                        namespace: "default".into(),
                        name: rs.name.clone(),
                        uid: rs.uid.clone(),
                        api_version: "apps/v1".into(),
                        ..ObjectReference::default()
                    };
                    self.event(
                        log,
                        Source::Controller("replicaset-controller"),
                        reference,
                        "Normal",
                        "SuccessfulCreate",
                        format!("Created pod: {}", created.metadata.name),
                    );
                }
            }
        }
    }

    /// The reader's "Create Pod" actions: a bare Pod, optionally tolerating the not-ready taint.
    pub(crate) fn kubectl_create_pod(&mut self, tolerating: bool, log: &mut Log) {
        let (prefix, tolerations) = if tolerating {
            (
                "tolerant-",
                vec![Toleration {
                    key: TAINT_NOT_READY.into(),
                    operator: "Exists".into(),
                    value: String::new(),
                    effect: "NoSchedule".into(),
                    toleration_seconds: None,
                }],
            )
        } else {
            ("demo-", Vec::new())
        };
        let meta = ObjectMeta {
            generate_name: prefix.into(),
            namespace: "default".into(),
            labels: [("app".to_string(), prefix.trim_end_matches('-').to_string())].into_iter().collect(),
            ..ObjectMeta::default()
        };
        let pod = new_pod(meta, tolerations, self.config.profile);
        self.call(log, Actor::Kubectl, None, ApiOp::CreatePod(pod));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_hashes_use_the_safe_alphabet() {
        for seed in [0, 1, 42, u64::MAX] {
            let h = template_hash(seed);
            assert_eq!(h.len(), 10);
            assert!(h.chars().all(|c| "456789bcdf".contains(c)), "{h}");
        }
    }
}
