//! Object shapes: every object the simulation emits must survive a round trip through
//! k8s-openapi's types (Kubernetes 1.34) unchanged, so a misspelt or invented field, or a value
//! of the wrong type, fails here.
//!
//! The comparison drops `null`s on both sides first: Go writes unset `metav1.Time` fields such
//! as `eventTime`, `firstTimestamp`, `lastProbeTime` or a Binding's `creationTimestamp` as
//! `null`, and k8s-openapi leaves an unset `Option` out.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeSet;

use common::{object_round_trip_diff, round_trip_diff, strip_nulls, through};
use k8s_openapi::api::core::v1::Binding;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{DeleteOptions, Status};
use nodeline_sim::objects::Kind;
use nodeline_sim::record::{Body, Response};
use nodeline_sim::{Chapter, Config, Profile, SimTime, Timeline};
use serde_json::{Value, json};

/// What one timeline produced, checked.
#[derive(Default)]
struct Tally {
    kinds: BTreeSet<&'static str>,
    objects: usize,
    bodies: usize,
    bindings: usize,
    statuses: usize,
    failed: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, what: String, diff: Option<String>) {
        if let Some(d) = diff {
            self.failed += 1;
            if self.failures.len() < 20 {
                self.failures.push(format!("{what}: {d}"));
            }
        }
    }
}

fn check_timeline(name: &str, timeline: &Timeline, tally: &mut Tally) {
    let log = timeline.log();
    for change in log.changes() {
        tally.objects += 1;
        tally.kinds.insert(change.object().kind().as_str());
        let what = format!("{name}: {:?} of {} at {}", change.change, change.object().key(), change.t);
        tally.check(what, object_round_trip_diff(&change.object()));
    }
    for (i, r) in log.requests.iter().enumerate() {
        let what = format!("{name}: request #{i} {} {} at {}", r.method.as_str(), r.path, r.t);
        match &r.body {
            Some(body @ (Body::Object(_) | Body::Renewal { .. })) => {
                tally.bodies += 1;
                let o = body.object().expect("a whole object");
                tally.check(format!("{what} (body)"), object_round_trip_diff(&o));
            }
            Some(binding @ Body::Binding(_)) => {
                tally.bindings += 1;
                let v = binding.json().expect("a Binding's document");
                tally.check(format!("{what} (Binding)"), round_trip_diff::<Binding>(&v));
            }
            Some(Body::Json(text)) if text.value().get("kind") == Some(&json!("DeleteOptions")) => {
                tally.check(format!("{what} (DeleteOptions)"), round_trip_diff::<DeleteOptions>(&text.value()));
            }
            _ => {}
        }
        match &r.response {
            Some(Response::Object(o)) => tally.check(format!("{what} (response)"), object_round_trip_diff(o)),
            Some(response @ Response::Renewal(_)) => {
                let o = response.object().expect("a renewed Lease");
                tally.check(format!("{what} (response)"), object_round_trip_diff(&o));
            }
            Some(Response::Status(s)) => {
                tally.statuses += 1;
                let v = serde_json::to_value(s).expect("a Status serializes");
                tally.check(format!("{what} (Status)"), round_trip_diff::<Status>(&v));
            }
            None => {}
        }
    }
}

fn assert_clean(tally: &Tally) {
    assert!(
        tally.failures.is_empty(),
        "{} objects do not round-trip; the first ones:\n{}",
        tally.failed,
        tally.failures.join("\n")
    );
}

#[test]
fn every_chapter_object_round_trips_through_k8s_openapi() {
    for profile in Profile::ALL {
        let mut tally = Tally::default();
        for chapter in Chapter::ALL {
            let timeline = common::chapter_timeline(chapter, Config { profile, ..Config::default() });
            check_timeline(&format!("{chapter} ({profile})"), &timeline, &mut tally);
        }
        assert_clean(&tally);
        // Every kind was seen, and the scheduler's Bindings and some error answers were checked.
        for kind in [Kind::Node, Kind::CsiNode, Kind::Lease, Kind::Pod, Kind::Event] {
            assert!(tally.kinds.contains(kind.as_str()), "no {} was emitted ({profile})", kind.as_str());
        }
        assert!(tally.objects > 100 && tally.bindings > 0 && tally.bodies > 0, "too little checked ({profile})");
        assert!(tally.statuses > 0, "no error answer was checked ({profile})");
    }
}

#[test]
fn every_sandbox_object_round_trips_through_k8s_openapi() {
    let timeline = common::sandbox_timeline(Config::default());
    let rejected: Vec<String> = timeline
        .log()
        .inputs
        .iter()
        .filter_map(|i| i.rejected.as_ref().map(|why| format!("{} at {}: {why}", i.action, i.t)))
        .collect();
    assert!(rejected.is_empty(), "the sandbox run must apply every action: {rejected:?}");
    let used: BTreeSet<_> = timeline.log().inputs.iter().map(|i| i.action.kind).collect();
    // The fleet's actions (zones, the control plane) are exercised by the zone-outage chapter's
    // script, whose objects the test above checks.
    use nodeline_sim::ActionKind::{CutControlPlane, CutNodes, CutZone, RestoreControlPlane, RestoreZone};
    let fleet = [CutNodes, CutZone, RestoreZone, CutControlPlane, RestoreControlPlane];
    let machine_actions = nodeline_sim::ActionKind::ALL.iter().filter(|k| !fleet.contains(k)).count();
    assert_eq!(used.len(), machine_actions, "every action is exercised: {used:?}");
    let mut tally = Tally::default();
    check_timeline("sandbox", &timeline, &mut tally);
    assert_clean(&tally);
    assert!(tally.bindings > 0);
}

/// A machine's TLS bootstrap, approved and signed, and another denied by the reader: the token's
/// Secret, every CSR version and body, round-trip.
#[test]
fn every_bootstrap_object_round_trips_through_k8s_openapi() {
    let mut tally = Tally::default();
    for actions in ["", "deny-csr:node-csr-lYzdjsM0t4oaGEjgiigRY8gkoaguPuQcJ4FM0nXSme8@500us"] {
        let mut scenario = Chapter::Registration.scenario();
        scenario.chapter = None;
        scenario.machines[0].bootstrap = true;
        let actions = nodeline_sim::parse_actions(actions).expect("actions parse");
        let mut timeline = Timeline::from_scenario(scenario, Config::default(), &actions);
        timeline.run_until(SimTime::from_secs(30));
        check_timeline("bootstrap", &timeline, &mut tally);
    }
    assert_clean(&tally);
    assert!(tally.kinds.contains("CertificateSigningRequest") && tally.kinds.contains("Secret"), "{:?}", tally.kinds);
}

#[test]
fn the_comparison_catches_an_invented_field() {
    let timeline = common::chapter_timeline(Chapter::Registration, Config::default());
    let node = timeline.at(common::end_of(Chapter::Registration)).node("node-1").expect("node-1 registered");
    let good = serde_json::to_value(&*node).expect("serializes");
    assert_eq!(round_trip_diff::<k8s_openapi::api::core::v1::Node>(&good), None);

    // An invented field, and a misspelt one, both vanish in the round trip.
    for (path, key) in [("status", "heartbeatInterval"), ("spec", "podCidr")] {
        let mut bad = good.clone();
        bad[path].as_object_mut().expect("an object").insert(key.into(), json!("10s"));
        let back = through::<k8s_openapi::api::core::v1::Node>(&bad).expect("unknown fields are ignored");
        assert_ne!(strip_nulls(&bad), strip_nulls(&back), "{path}.{key} must not survive the round trip");
        let diff = round_trip_diff::<k8s_openapi::api::core::v1::Node>(&bad).expect("a difference");
        assert!(diff.contains(&format!(".{path}.{key}")), "the difference names the field: {diff}");
    }

    // A value of the wrong type does not even deserialize.
    let mut bad = good.clone();
    bad["status"]["daemonEndpoints"]["kubeletEndpoint"]["Port"] = json!("10250");
    assert!(round_trip_diff::<k8s_openapi::api::core::v1::Node>(&bad).expect("a difference").contains("deserialize"));

    // A null, as Go writes an unset timestamp, is not a difference.
    let mut with_null = good;
    with_null["metadata"]["deletionTimestamp"] = Value::Null;
    assert_eq!(round_trip_diff::<k8s_openapi::api::core::v1::Node>(&with_null), None);

    // A nil list (`drivers: null`) is k8s-openapi's `[]`; a list that is not empty is not nil.
    let csinode = timeline.at(SimTime::from_secs(60)).csinodes().pop().expect("node-1's CSINode");
    let served = serde_json::to_value(&*csinode).expect("serializes");
    assert_eq!(served["spec"]["drivers"], Value::Null);
    assert_eq!(round_trip_diff::<k8s_openapi::api::storage::v1::CSINode>(&served), None);
    // Left out instead (not `null`), the required list is a difference.
    let mut missing = served.clone();
    missing["spec"].as_object_mut().expect("an object").remove("drivers");
    let diff = round_trip_diff::<k8s_openapi::api::storage::v1::CSINode>(&missing).expect("a difference");
    assert!(diff.contains(".spec.drivers"), "{diff}");
    let mut listed = served;
    listed["spec"]["drivers"] = json!([{ "name": "ebs.csi.aws.com", "nodeID": "i-1", "topologyKeys": null }]);
    assert_eq!(round_trip_diff::<k8s_openapi::api::storage::v1::CSINode>(&listed), None);
}
