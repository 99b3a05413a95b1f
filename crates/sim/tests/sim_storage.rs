//! The StatefulSet's storage as real Kubernetes makes it (chapter 6): the Pod's `data` volume
//! naming its claim, the `WaitForFirstConsumer` binding through the scheduler's selected node,
//! the external provisioner's delay, and the Events with their sources. Sources:
//! `docs/kubernetes-notes.md` §12.
#![cfg(not(target_arch = "wasm32"))]

use nodeline_sim::objects::Object;
use nodeline_sim::record::EventRecord;
use nodeline_sim::{
    Action, ActionKind, Actor, Chapter, Config, DEFAULT_SEED, PROVISION_MAX, PROVISION_MIN, PROVISIONER_COMPONENT,
    SimTime, Timeline, provision_time,
};

fn s(secs: u64) -> SimTime {
    SimTime::from_secs(secs)
}

/// Chapter 2's two nodes with a StatefulSet created at 30 s, run for a minute.
fn with_statefulset(seed: u64) -> Timeline {
    let mut scenario = Chapter::NodeFailure.scenario();
    scenario.script.clear();
    let config = Config { seed, ..Config::default() };
    let mut timeline = Timeline::from_scenario(scenario, config, &[Action::new(ActionKind::CreateStatefulSet, s(30))]);
    timeline.run_until(s(60));
    timeline
}

fn event<'a>(timeline: &'a Timeline, reason: &str, object: &str) -> &'a EventRecord {
    let log = timeline.log();
    log.events
        .iter()
        .find(|e| e.reason() == reason && e.object.name == object)
        .unwrap_or_else(|| panic!("no {reason} event on {object}"))
}

#[test]
fn the_pod_names_its_claim_and_mounts_it() {
    let timeline = with_statefulset(DEFAULT_SEED);
    let now = timeline.at(s(60));
    let pods = now.pods();
    let db = pods.iter().find(|p| p.metadata.name == "db-0").expect("db-0");
    // `updateStorage`: the claim template's volume first, then the token volume admission adds.
    let names: Vec<&str> = db.spec.volumes.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names[0], "data");
    assert!(names[1].starts_with("kube-api-access-"), "{names:?}");
    let claim = db.spec.volumes[0].persistent_volume_claim.as_ref().expect("a persistentVolumeClaim volume");
    assert_eq!(claim.claim_name, "data-db-0");
    assert_eq!(db.claim_names().collect::<Vec<_>>(), ["data-db-0"]);
    let mounts: Vec<(&str, &str)> =
        db.spec.containers[0].volume_mounts.iter().map(|m| (m.name.as_str(), &*m.mount_path)).collect();
    assert_eq!(mounts[0], ("data", "/data"));
    assert_eq!(mounts[1].1, "/var/run/secrets/kubernetes.io/serviceaccount");
    // The template mounts the volume but does not list it: the controller adds it.
    let set = now
        .objects()
        .into_iter()
        .find_map(|o| match o {
            Object::StatefulSet(set) => Some(set),
            _ => None,
        })
        .expect("the StatefulSet");
    assert!(set.spec.template.spec.volumes.is_empty());
    assert_eq!(set.spec.template.spec.containers[0].volume_mounts[0].name, "data");
    // The scheduler's selected node is the node the Pod is bound to, and the claim is bound.
    let claims = now.claims();
    let claim = claims.iter().find(|c| c.metadata.name == "data-db-0").expect("data-db-0");
    assert_eq!(claim.metadata.annotations.get("volume.kubernetes.io/selected-node"), Some(&db.spec.node_name));
    assert_eq!(claim.status.phase, "Bound");
    assert_eq!(claim.spec.volume_name, format!("pvc-{}", claim.metadata.uid));
}

#[test]
fn the_claim_waits_for_its_consumer_then_the_provisioner_and_the_pod_is_bound_after() {
    let timeline = with_statefulset(DEFAULT_SEED);
    let claim_created = event(&timeline, "SuccessfulCreate", "db");
    assert_eq!(claim_created.message(), "create Claim data-db-0 Pod db-0 in StatefulSet db success");
    assert_eq!(claim_created.source(), "statefulset-controller");
    let wait = event(&timeline, "WaitForFirstConsumer", "data-db-0");
    assert_eq!(wait.message(), "waiting for first consumer to be created before binding");
    assert_eq!(wait.source(), "persistentvolume-controller");
    let external = event(&timeline, "ExternalProvisioning", "data-db-0");
    assert_eq!(
        external.message(),
        "Waiting for a volume to be created either by the external provisioner 'pd.csi.storage.gke.io' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."
    );
    assert_eq!(external.source(), "persistentvolume-controller");
    let log = timeline.log();
    // Once for the scheduler's write, once for the controller's own: `x2`, as clusters show.
    let external_count = log.events.iter().filter(|e| e.reason() == "ExternalProvisioning").map(|e| e.count).max();
    assert_eq!(external_count, Some(2));
    let provisioning = event(&timeline, "Provisioning", "data-db-0");
    assert_eq!(provisioning.message(), "External provisioner is provisioning volume for claim \"default/data-db-0\"");
    assert_eq!(provisioning.source(), PROVISIONER_COMPONENT);
    assert!(PROVISIONER_COMPONENT.starts_with("pd.csi.storage.gke.io_"));
    let succeeded = event(&timeline, "ProvisioningSucceeded", "data-db-0");
    let claims = timeline.at(s(60)).claims();
    let claim = claims.iter().find(|c| c.metadata.name == "data-db-0").expect("data-db-0");
    assert_eq!(succeeded.message(), format!("Successfully provisioned volume pvc-{}", claim.metadata.uid));
    assert_eq!(succeeded.source(), PROVISIONER_COMPONENT);

    // The order, and the delay: CreateVolume takes what the keyed generator says.
    assert!(claim_created.seq < wait.seq && wait.seq < external.seq && external.seq < provisioning.seq);
    let took = succeeded.t - provisioning.t;
    assert_eq!(took, provision_time(DEFAULT_SEED, &claim.metadata.uid));
    assert!((PROVISION_MIN..=PROVISION_MAX).contains(&took), "{took:?}");
    // The Pod is bound at the scheduler's next poll (every second) after the bind, and only then
    // attached.
    let scheduled = event(&timeline, "Scheduled", "db-0");
    assert!(scheduled.t > succeeded.t && scheduled.t - succeeded.t <= std::time::Duration::from_secs(1));
    let attached = event(&timeline, "SuccessfulAttachVolume", "db-0");
    assert!(attached.t > scheduled.t);
    assert!(attached.message().contains(&claim.spec.volume_name));
    // The kubelet's `WaitForAttachAndMount`: no sandbox, no pull before the volume is attached,
    // then at its next 300 ms poll.
    let pulling = event(&timeline, "Pulling", "db-0");
    assert!(pulling.t > attached.t, "{:?} before {:?}", pulling.t, attached.t);
    let db = timeline.at(attached.t).pods().into_iter().find(|p| p.metadata.name == "db-0").expect("db-0");
    assert!(db.status.pod_ips.is_empty(), "no sandbox before the attach");
}

#[test]
fn the_provision_time_is_seeded() {
    let uid = "0b9e4a52-7a1c-4f0e-9a53-2f6d1c8e4b17";
    let times: Vec<_> = (1..=8).map(|seed| provision_time(seed, uid)).collect();
    assert!(times.iter().all(|t| (PROVISION_MIN..=PROVISION_MAX).contains(t)));
    assert!(times.windows(2).any(|w| w[0] != w[1]), "{times:?}");
    assert_eq!(provision_time(3, uid), provision_time(3, uid));
}

#[test]
fn the_requests_say_what_they_changed_on_the_storage_objects() {
    let timeline = with_statefulset(DEFAULT_SEED);
    let log = timeline.log();
    let summaries = |actor: Actor, path_end: &str| -> Vec<String> {
        (0..log.requests.len())
            .filter(|&i| log.requests.at(i).actor == actor && log.requests.at(i).path.as_str().ends_with(path_end))
            .map(|i| log.summary(i))
            .collect()
    };
    let node =
        timeline.at(s(60)).pods().iter().find(|p| p.metadata.name == "db-0").expect("db-0").spec.node_name.clone();
    assert_eq!(
        summaries(Actor::Scheduler, "/persistentvolumeclaims/data-db-0"),
        [format!("+annotation volume.kubernetes.io/selected-node={node}")]
    );
    let binder = summaries(Actor::PersistentVolumeController, "/persistentvolumeclaims/data-db-0");
    assert!(binder[0].contains("+annotation volume.kubernetes.io/storage-provisioner=pd.csi.storage.gke.io"));
    assert!(binder[1].contains("+annotation pv.kubernetes.io/bind-completed=yes"));
    assert!(binder[1].contains("spec.volumeName pvc-"));
    assert_eq!(summaries(Actor::PersistentVolumeController, "/data-db-0/status"), ["phase Pending → Bound"]);
    assert_eq!(summaries(Actor::PersistentVolumeController, "/status").len(), 2, "the volume's and the claim's");
    assert!(summaries(Actor::CsiAttacher, "/status").iter().all(|s| s == "attached false → true"));
    let set = summaries(Actor::StatefulSetController, "/statefulsets/db/status");
    assert!(set[0].contains("replicas 0 → 1"), "{set:?}");
    assert!(set.iter().any(|s| s == "availableReplicas 0 → 1, readyReplicas 0 → 1"), "{set:?}");
}

#[test]
fn the_statefulset_stores_its_revision_before_its_first_pod() {
    let timeline = with_statefulset(DEFAULT_SEED);
    let log = timeline.log();
    let position = |path: &str| {
        log.requests
            .iter()
            .position(|r| r.actor == Actor::StatefulSetController && r.method.as_str() == "POST" && r.path == *path)
            .unwrap_or_else(|| panic!("no POST {path}"))
    };
    assert!(
        position("/apis/apps/v1/namespaces/default/controllerrevisions") < position("/api/v1/namespaces/default/pods"),
        "the revision comes before the Pod"
    );
    let now = timeline.at(s(60));
    let objects = now.objects();
    let revision = objects
        .iter()
        .find_map(|o| match o {
            Object::ControllerRevision(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the ControllerRevision");
    let set = objects
        .iter()
        .find_map(|o| match o {
            Object::StatefulSet(s) => Some(s.clone()),
            _ => None,
        })
        .expect("the StatefulSet");
    // `NewControllerRevision`: the template's labels plus the hash; the set as controller.
    let hash = revision.metadata.labels.get("controller.kubernetes.io/hash").expect("the hash label").clone();
    assert_eq!(revision.metadata.name, format!("db-{hash}"));
    assert_eq!(revision.metadata.labels.get("app").map(String::as_str), Some("db"));
    let owner = &revision.metadata.owner_references[0];
    assert_eq!(&*owner.kind, "StatefulSet");
    assert_eq!(&*owner.name, "db");
    assert_eq!(&*owner.uid, &*set.metadata.uid);
    assert_eq!((owner.controller, owner.block_owner_deletion), (Some(true), Some(true)));
    assert_eq!(revision.revision, 1);
    // `getPatch`: the template as stored, replaced whole.
    let mut template = serde_json::to_value(&set.spec.template).expect("json");
    template["$patch"] = "replace".into();
    assert_eq!(revision.data, serde_json::json!({ "spec": { "template": template } }));
    // The Pod and the set's status name it.
    let pods = now.pods();
    let db = pods.iter().find(|p| p.metadata.name == "db-0").expect("db-0");
    assert_eq!(
        db.metadata.labels.get("controller-revision-hash").map(String::as_str),
        Some(revision.metadata.name.as_str())
    );
    assert_eq!(set.status.current_revision, revision.metadata.name);
    assert_eq!(set.status.update_revision, revision.metadata.name);
    // A hash of the data, not a draw: another seed names it the same.
    let other = with_statefulset(DEFAULT_SEED + 1);
    let other_name = other.at(s(60)).objects().into_iter().find_map(|o| match o {
        Object::ControllerRevision(r) => Some(r.metadata.name.clone()),
        _ => None,
    });
    assert_eq!(other_name.as_deref(), Some(revision.metadata.name.as_str()));
}
