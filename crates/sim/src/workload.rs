//! The workload every simulated Pod runs: one nginx container, as a client submits it.

use crate::shared::Shared;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::objects::{Container, EmptyObject, ObjectMeta, Pod, PodSpec, PodStatus, ResourceRequirements, Toleration};
use super::profile::Profile;

/// The image the simulation's workload runs.
pub(crate) const WORKLOAD_IMAGE: &str = "nginx:1.27.5";
/// Its repo digest (the index digest of `nginx:1.27.5`), as containerd reports it after the pull.
pub(crate) const WORKLOAD_IMAGE_DIGEST: &str =
    "docker.io/library/nginx@sha256:6784fb0834aa7dbbe12e3d7471e69c290df3e6ba810dc38b34ae33d3c1c05f7d";
/// Its size, as containerd reports it after the pull.
pub(crate) const WORKLOAD_IMAGE_SIZE: i64 = 72_195_292;

/// The container every simulated Pod runs: its resources made once and shared by every Pod's.
fn container() -> Container {
    static RESOURCES: LazyLock<Shared<ResourceRequirements>> = LazyLock::new(|| {
        let requests: BTreeMap<String, String> =
            [("cpu".to_string(), "100m".to_string()), ("memory".to_string(), "64Mi".to_string())].into_iter().collect();
        Shared::new(ResourceRequirements { limits: BTreeMap::new(), requests })
    });
    Container {
        name: "nginx".into(),
        image: WORKLOAD_IMAGE.into(),
        resources: RESOURCES.clone(),
        volume_mounts: Vec::new(),
        termination_message_path: "/dev/termination-log".into(),
        termination_message_policy: "File".into(),
        image_pull_policy: "IfNotPresent".into(),
    }
}

/// A Pod as a client submits it, with the defaults the API server fills in. Its spec (without
/// tolerations of its own) and its status are the same for every new Pod, so every new Pod
/// shares one of each until something writes them (admission copies the spec as it mounts the
/// token volume): a fleet's Pods, each kept in the log as its POST sent it, hold one.
pub(crate) fn new_pod(meta: ObjectMeta, tolerations: Vec<Toleration>, profile: Profile) -> Pod {
    static SPEC: LazyLock<Shared<PodSpec>> = LazyLock::new(|| Shared::new(pod_spec(Vec::new())));
    static STATUS: LazyLock<Shared<PodStatus>> = LazyLock::new(|| {
        Shared::new(PodStatus { phase: "Pending".into(), qos_class: "Burstable".into(), ..PodStatus::default() })
    });
    let mut meta = meta;
    if profile == Profile::V1_34 {
        meta.generation = Some(1);
    }
    Pod {
        kind: "Pod",
        api_version: "v1",
        metadata: meta,
        spec: if tolerations.is_empty() { SPEC.clone() } else { Shared::new(pod_spec(tolerations)) },
        status: STATUS.clone(),
    }
}

/// A Pod with no resource requests (QoS class BestEffort), pinned to `node` by a required node
/// affinity on `metadata.name` (as the DaemonSet controller pins its Pods).
pub(crate) fn new_besteffort_pod(meta: ObjectMeta, node: &str, profile: Profile) -> Pod {
    let mut pod = new_pod(meta, Vec::new(), profile);
    for c in pod.spec.containers.iter_mut() {
        c.resources = Shared::new(ResourceRequirements::default());
    }
    pod.spec.affinity = Some(crate::objects::pinned_to(node));
    pod.status.qos_class = "BestEffort".into();
    pod
}

/// A new Pod's spec, with `tolerations`.
fn pod_spec(tolerations: Vec<Toleration>) -> PodSpec {
    PodSpec {
        volumes: Vec::new().into(),
        containers: vec![container()].into(),
        restart_policy: "Always".into(),
        termination_grace_period_seconds: 30,
        dns_policy: "ClusterFirst".into(),
        service_account_name: String::new(),
        service_account: String::new(),
        node_name: String::new(),
        host_network: false,
        security_context: EmptyObject {},
        affinity: None,
        scheduler_name: "default-scheduler".into(),
        tolerations: tolerations.into(),
        priority_class_name: String::new(),
        priority: 0,
        enable_service_links: true,
        preemption_policy: "PreemptLowerPriority".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// New Pods share one spec and one status until one is written; the writer gets its own.
    #[test]
    fn new_pods_share_their_spec_and_status_until_written() {
        let named = |name: &str| ObjectMeta { name: name.into(), ..ObjectMeta::default() };
        let a = new_pod(named("a"), Vec::new(), Profile::V1_34);
        let mut b = new_pod(named("b"), Vec::new(), Profile::V1_31);
        assert!(Shared::ptr_eq(&a.spec, &b.spec) && Shared::ptr_eq(&a.status, &b.status));
        assert_eq!((a.metadata.generation, b.metadata.generation), (Some(1), None));
        assert_eq!((&*a.status.phase, &*a.spec.containers[0].image), ("Pending", WORKLOAD_IMAGE));
        b.spec.node_name = "node-1".into();
        assert!(!Shared::ptr_eq(&a.spec, &b.spec), "the writer copies");
        assert_eq!((a.spec.node_name.as_str(), b.spec.node_name.as_str()), ("", "node-1"));
        let tolerating = new_pod(
            named("c"),
            vec![Toleration {
                key: "k".into(),
                operator: "Exists".into(),
                value: "".into(),
                effect: "".into(),
                toleration_seconds: None,
            }],
            Profile::V1_34,
        );
        assert_eq!(tolerating.spec.tolerations.len(), 1);
        assert!(a.spec.tolerations.is_empty());
    }
}
