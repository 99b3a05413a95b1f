//! The API server's own tests: preconditions, NodeRestriction, CSINodes as served.

use super::*;
use crate::objects::Toleration;

#[test]
fn delete_with_a_wrong_uid_precondition_is_a_conflict() {
    let mut api = ApiServer::default();
    let mut log = Log::default();
    let mut rng = Rng::new(1);
    let mut exec =
        Exec { now: SimTime::ZERO, wall: WallTime(0), log: &mut log, rng: &mut rng, request: None, renewal: false };
    let meta =
        super::super::objects::ObjectMeta { name: "web".into(), namespace: "default".into(), ..Default::default() };
    let pod = super::super::workload::new_pod(meta, Vec::new(), super::super::profile::Profile::default());
    let Ok(Answer::Object(Object::Pod(stored))) = api.execute(&mut exec, Caller::Trusted, ApiOp::CreatePod(pod)) else {
        panic!("created")
    };
    let delete = |uid: &str| ApiOp::DeletePod {
        namespace: "default".into(),
        name: "web".into(),
        grace_seconds: Some(0),
        precondition_uid: Some(uid.into()),
        background: false,
    };
    let err = api.execute(&mut exec, Caller::Trusted, delete("not-the-uid")).expect_err("a conflict");
    assert_eq!((err.code, err.reason), (409, "Conflict"));
    assert_eq!(
        err.message,
        format!(
            "Operation cannot be fulfilled on pods \"web\": StorageError: invalid object, Code: 4, Key: /registry/pods/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-uid, UID in object meta: {}",
            stored.metadata.uid
        )
    );
    assert!(api.pods.contains_key(&("default".to_string(), "web".to_string())), "the Pod stays");
    api.execute(&mut exec, Caller::Trusted, delete(&stored.metadata.uid)).expect("the right uid deletes");
    assert!(api.pods.is_empty());
}

#[test]
fn a_kubelet_creates_only_its_own_csinode_once_and_it_is_served_without_drivers() {
    let mut api = ApiServer::default();
    let mut log = Log::default();
    let mut rng = Rng::new(1);
    let mut exec =
        Exec { now: SimTime::ZERO, wall: WallTime(0), log: &mut log, rng: &mut rng, request: None, renewal: false };
    let other = CsiNode::for_node("node-2", "uid-2");
    let err = api.execute(&mut exec, Caller::Node("node-1"), ApiOp::Create(other.into())).expect_err("forbidden");
    assert_eq!((err.code, err.reason), (403, "Forbidden"));
    assert_eq!(
        err.message,
        "csinodes.storage.k8s.io \"node-2\" is forbidden: can only access CSINode with the same name as the requesting node"
    );
    let mine = CsiNode::for_node("node-1", "uid-1");
    let Ok(Answer::Object(Object::CsiNode(stored))) =
        api.execute(&mut exec, Caller::Node("node-1"), ApiOp::Create(mine.clone().into()))
    else {
        panic!("created")
    };
    assert_eq!(stored.spec.drivers, None);
    assert_eq!(stored.metadata.uid.len(), 36);
    let again = api.execute(&mut exec, Caller::Node("node-1"), ApiOp::Create(mine.into())).expect_err("exists");
    assert_eq!((again.code, again.reason), (409, "AlreadyExists"));
    let got = api.execute(&mut exec, Caller::Node("node-1"), ApiOp::GetCsiNode("node-1".into()));
    assert!(matches!(got, Ok(Answer::Object(Object::CsiNode(c))) if c == stored));
    let missing = api.execute(&mut exec, Caller::Node("node-1"), ApiOp::GetCsiNode("node-3".into()));
    assert_eq!(missing.expect_err("404").message, "csinodes.storage.k8s.io \"node-3\" not found");
}

#[test]
fn kubelet_label_rules_follow_node_restriction() {
    for ok in [
        "kubernetes.io/hostname",
        "kubernetes.io/os",
        "topology.kubernetes.io/zone",
        "node.kubernetes.io/instance-type",
        "node.kubernetes.io/exclude-disruption",
        "kubelet.kubernetes.io/anything",
        "foo.node.kubernetes.io/bar",
        "example.com/team",
        "plain",
    ] {
        assert!(kubelet_may_set_label(ok), "{ok} should be allowed");
    }
    for bad in [
        "node-role.kubernetes.io/worker",
        "node-role.kubernetes.io/control-plane",
        "kubernetes.io/role",
        "example.k8s.io/x",
        "node-restriction.kubernetes.io/secure",
        "a.node-restriction.kubernetes.io/b",
    ] {
        assert!(!kubelet_may_set_label(bad), "{bad} should be forbidden");
    }
}

#[test]
fn a_status_patch_makes_a_version_that_shares_the_senders_conditions_and_the_nodes_spec() {
    use super::super::objects::{Node, NodeCondition, Time};
    let mut api = ApiServer::default();
    let mut log = Log::default();
    let mut rng = Rng::new(1);
    let mut exec =
        Exec { now: SimTime::ZERO, wall: WallTime(0), log: &mut log, rng: &mut rng, request: None, renewal: false };
    let condition = |heartbeat: i64| {
        NodeCondition::new(
            "Ready",
            "True",
            Time::at(WallTime(heartbeat)),
            Time::at(WallTime(0)),
            "KubeletReady",
            "kubelet is posting ready status",
        )
    };
    let mut node = Node::new("node-1");
    node.status.conditions = vec![condition(0)].into();
    let Ok(Answer::Object(Object::Node(created))) =
        api.execute(&mut exec, Caller::Node("node-1"), ApiOp::CreateNode(node))
    else {
        panic!("created")
    };
    let mut wanted = Node::clone(&created);
    wanted.status.conditions[0].last_heartbeat_time = Time::at(WallTime(10_000_000));
    let wanted = Arc::new(wanted);
    let patch = ApiOp::PatchNodeStatus { base: created.clone(), wanted: wanted.clone() };
    let Ok(Answer::Object(Object::Node(stored))) = api.execute(&mut exec, Caller::Node("node-1"), patch) else {
        panic!("patched")
    };
    assert_eq!(stored.status.conditions[0].last_heartbeat_time, Time::at(WallTime(10_000_000)));
    assert!(std::ptr::eq(&*stored.status.conditions, &*wanted.status.conditions), "the sender's list, not a copy");
    assert!(std::ptr::eq(&*stored.spec, &*created.spec), "the spec of the version before");
    assert!(!std::ptr::eq(&*stored.status.conditions, &*created.status.conditions));
}

#[test]
fn admission_adds_the_default_tolerations_shared_or_after_the_pods_own() {
    let mut api = ApiServer::default();
    let mut log = Log::default();
    let mut rng = Rng::new(1);
    let mut exec =
        Exec { now: SimTime::ZERO, wall: WallTime(0), log: &mut log, rng: &mut rng, request: None, renewal: false };
    let mut create = |name: &str, own: Vec<Toleration>| {
        let meta =
            super::super::objects::ObjectMeta { name: name.into(), namespace: "default".into(), ..Default::default() };
        let mut pod = super::super::workload::new_pod(meta, Vec::new(), super::super::profile::Profile::default());
        pod.spec.tolerations = own.into();
        let Ok(Answer::Object(Object::Pod(stored))) = api.execute(&mut exec, Caller::Trusted, ApiOp::CreatePod(pod))
        else {
            panic!("created")
        };
        stored
    };
    let (a, b) = (create("a", Vec::new()), create("b", Vec::new()));
    let keys: Vec<(&str, &str, Option<i64>)> =
        a.spec.tolerations.iter().map(|t| (&*t.key, &*t.effect, t.toleration_seconds)).collect();
    assert_eq!(
        keys,
        [(TAINT_NOT_READY, "NoExecute", Some(300)), (TAINT_UNREACHABLE, "NoExecute", Some(300))],
        "DefaultTolerationSeconds"
    );
    assert!(Shared::ptr_eq(&a.spec.tolerations, &b.spec.tolerations), "one list for every Pod without its own");
    // A Pod that tolerates not-ready itself keeps its own and gets unreachable's after it.
    let own = Toleration {
        key: TAINT_NOT_READY.into(),
        operator: "Exists".into(),
        value: "".into(),
        effect: "NoExecute".into(),
        toleration_seconds: Some(60),
    };
    let c = create("c", vec![own]);
    let keys: Vec<(&str, Option<i64>)> = c.spec.tolerations.iter().map(|t| (&*t.key, t.toleration_seconds)).collect();
    assert_eq!(keys, [(TAINT_NOT_READY, Some(60)), (TAINT_UNREACHABLE, Some(300))]);
}

#[test]
fn equal_annotations_are_kept_once() {
    let mut api = ApiServer::default();
    let mut log = Log::default();
    let mut rng = Rng::new(1);
    let mut exec =
        Exec { now: SimTime::ZERO, wall: WallTime(0), log: &mut log, rng: &mut rng, request: None, renewal: false };
    let mut annotated = Vec::new();
    for name in ["node-1", "node-2"] {
        api.execute(&mut exec, Caller::Trusted, ApiOp::CreateNode(Node::new(name))).expect("created");
        let annotations: std::collections::BTreeMap<String, String> =
            [("node.alpha.kubernetes.io/ttl".to_string(), "0".to_string())].into_iter().collect();
        let op = ApiOp::PatchNodeAnnotations { name: name.into(), annotations };
        let Ok(Answer::Object(Object::Node(node))) = api.execute(&mut exec, Caller::Trusted, op) else {
            panic!("patched")
        };
        assert_eq!(node.metadata.annotations.get("node.alpha.kubernetes.io/ttl").map(String::as_str), Some("0"));
        annotated.push(node);
    }
    assert!(Shared::ptr_eq(&annotated[0].metadata.annotations, &annotated[1].metadata.annotations));
    let (a, b) = (CsiNode::for_node("node-1", "uid-1"), CsiNode::for_node("node-2", "uid-2"));
    assert!(Shared::ptr_eq(&a.metadata.annotations, &b.metadata.annotations), "one map for every CSINode");
    let migrated = crate::objects::MIGRATED_PLUGINS_ANNOTATION;
    assert_eq!(a.metadata.annotations.get(migrated).map(String::as_str), Some(crate::objects::MIGRATED_PLUGINS));
}
