//! Helpers shared by the simulation's tests (`sim_objects`, `sim_properties`, `sim_determinism`
//! here, and, through the root `tests/common/`, the root tests `sim_timings` and `sim_schema`). Each
//! test crate uses only some of them.
#![allow(dead_code)]

use std::borrow::Cow;
use std::sync::Arc;

use nodeline_sim::objects::{Kind, Node, Object, ObjectKey};
use nodeline_sim::record::{Body, Change, Request, Response};
use nodeline_sim::{Action, ActionKind, Chapter, Config, Log, MachineView, SimTime, Timeline};
use serde_json::Value;

/// A chapter's timeline computed to the end of its story.
pub(crate) fn chapter_timeline(chapter: Chapter, config: Config) -> Timeline {
    let mut timeline = Timeline::new(chapter, config);
    timeline.run_until(end_of(chapter));
    timeline
}

/// The end of a chapter's story.
pub(crate) fn end_of(chapter: Chapter) -> SimTime {
    SimTime::ZERO + chapter.scenario().duration
}

/// A sandbox run (on top of the registration chapter) that uses every action at least once:
/// kill/start kubelet, stop/start runtime, cut/restore network, both kinds of Pod, a new machine,
/// a duplicate machine, the forbidden node-role label, a memory leak started and stopped, a StatefulSet, a shutdown, a power-off, a
/// Node deleted, the out-of-service taint added and removed, another taint added (`kubectl taint`).
pub(crate) fn sandbox_actions() -> Vec<Action> {
    let s = SimTime::from_secs;
    vec![
        Action::new(ActionKind::AddMachine, s(45)),
        Action::new(ActionKind::CreatePod, s(60)),
        Action::new(ActionKind::CreateStatefulSet, s(64)),
        Action::new(ActionKind::CreateToleratingPod, s(62)),
        Action::on(ActionKind::AddDuplicateMachine, "node-1", s(70)),
        Action::on(ActionKind::LabelNodeRole, "node-2", s(90)),
        // The memory model: db-0 leaks for ten seconds (far from the threshold).
        Action::on(ActionKind::LeakMemory, "default/db-0", s(95)),
        Action::on(ActionKind::StopLeak, "default/db-0", s(105)),
        Action::on(ActionKind::CreateBestEffortPod, "node-1", s(110)),
        // A PriorityClass and a Pod naming it (the Priority admission plugin's value).
        Action::on(ActionKind::CreatePriorityPod, "node-1", s(112)),
        Action::on(ActionKind::StopRuntime, "node-2", s(100)),
        Action::on(ActionKind::StartRuntime, "node-2", s(150)),
        Action::on(ActionKind::CutNetwork, "node-1", s(160)),
        Action::new(ActionKind::CreatePod, s(170)),
        Action::on(ActionKind::RestoreNetwork, "node-1", s(260)),
        Action::on(ActionKind::KillKubelet, "node-2", s(280)),
        Action::on(ActionKind::StopRuntime, "node-2", s(300)),
        Action::on(ActionKind::StartKubelet, "node-2", s(310)),
        Action::on(ActionKind::StartRuntime, "node-2", s(330)),
        Action::on(ActionKind::KillKubelet, "node-1-dup", s(400)),
        // Chapter 5's actions: a DaemonSet, a budget (over no Pods here), cordon, a node-local
        // cache, uncordon, kubectl delete pod, and a drain the filters refuse (bare Pods, DaemonSet
        // Pods, the cache's emptyDir).
        Action::new(ActionKind::CreateDaemonSet, s(420)),
        Action::new(ActionKind::CreatePdb(nodeline_sim::Budget::ONE), s(425)),
        Action::on(ActionKind::Cordon, "node-2", s(430)),
        Action::on(ActionKind::CreateCache, "node-2", s(435)),
        Action::on(ActionKind::Uncordon, "node-2", s(440)),
        Action { at: s(445), kind: ActionKind::DeletePod(Default::default()), machine: Some("default/db-0".into()) },
        Action::on(ActionKind::Drain(nodeline_sim::DrainFlags::NONE), "node-1", s(450)),
        Action::on(ActionKind::Shutdown, "node-2", s(480)),
        Action::on(ActionKind::PowerOff, "node-1", s(540)),
        Action::on(ActionKind::DeleteNode, "node-2", s(560)),
        Action::on(ActionKind::TaintOutOfService, "node-1", s(600)),
        Action::on(ActionKind::Taint { overwrite: false }, "node-1/example.com/dedicated=db:NoSchedule", s(620)),
        Action::on(ActionKind::UntaintOutOfService, "node-1", s(660)),
        // The TLS bootstrap's commands, in a cluster whose machines have their credentials: no
        // token, no CSR (the API server's NotFound; `sim_bootstrap` runs them where they act).
        Action::new(ActionKind::DeleteBootstrapToken, s(670)),
        Action::on(ActionKind::ApproveCsr, "node-csr-missing", s(675)),
        Action::on(ActionKind::DenyCsr, "node-csr-missing", s(680)),
        Action::new(ActionKind::DeleteAutoApproveBinding, s(685)),
        // `kubectl logs` and `exec` read: a Pod that is not there, one whose container name is wrong.
        Action::on(ActionKind::Logs, "default/db-missing", s(690)),
        Action::on(ActionKind::Exec, "default/db-0/nosuch", s(695)),
    ]
}

/// How far the sandbox run is computed.
pub(crate) const SANDBOX_END: SimTime = SimTime::from_secs(12 * 60);

/// The sandbox timeline, computed to [`SANDBOX_END`].
pub(crate) fn sandbox_timeline(config: Config) -> Timeline {
    let mut timeline = Timeline::with_actions(Chapter::Registration, config, &sandbox_actions());
    timeline.run_until(SANDBOX_END);
    timeline
}

/// `value` with every `null` removed, recursively (object members whose value is `null`, and
/// `null` array elements).
pub(crate) fn strip_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), strip_nulls(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().filter(|v| !v.is_null()).map(strip_nulls).collect()),
        other => other.clone(),
    }
}

/// Sends `value` through the k8s-openapi type `T` and back.
///
/// k8s-openapi ignores fields its types do not have, so a misspelt or invented field is missing
/// from the result; a field of the wrong type fails to deserialize.
pub(crate) fn through<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(value.clone()).map_err(|e| format!("does not deserialize: {e}"))?;
    serde_json::to_value(&typed).map_err(|e| format!("does not serialize again: {e}"))
}

/// Round-trips `value` through `T` and compares, after removing `null`s on both sides: Go
/// serializes unset timestamps such as `eventTime`, `firstTimestamp`, `lastProbeTime` or a
/// Binding's `creationTimestamp` as `null` (its `metav1.Time` has no `omitempty` effect on a
/// struct), while k8s-openapi's `Option::None` is left out. Returns the first difference.
///
/// A `null` list the other way round: Go serves a nil slice without `omitempty` as `null` (a
/// CSINode's `spec.drivers`), and k8s-openapi, which has no nil list, writes `[]`; the two are
/// the same Go value, so such a `[]` is dropped too.
pub(crate) fn round_trip_diff<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> Option<String> {
    let mut back = match through::<T>(value) {
        Ok(v) => v,
        Err(e) => return Some(e),
    };
    drop_nil_lists(value, &mut back);
    first_difference(&strip_nulls(value), &strip_nulls(&back), "")
}

/// Sets to `null` every empty list in `back` where `sent` had `null`.
fn drop_nil_lists(sent: &Value, back: &mut Value) {
    match (sent, back) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, w) in y.iter_mut() {
                match x.get(k) {
                    Some(Value::Null) if w.as_array().is_some_and(Vec::is_empty) => *w = Value::Null,
                    Some(v) => drop_nil_lists(v, w),
                    None => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => x.iter().zip(y.iter_mut()).for_each(|(v, w)| drop_nil_lists(v, w)),
        _ => {}
    }
}

/// The first place where `a` and `b` differ, as a JSON path with both values.
pub(crate) fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let p = format!("{path}.{k}");
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_difference(v, w, &p) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{p}: emitted {v}, but k8s-openapi has no such field")),
                }
            }
            y.iter()
                .find(|(k, _)| !x.contains_key(*k))
                .map(|(k, w)| format!("{path}.{k}: not emitted, but k8s-openapi writes {w}"))
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: {} items emitted, {} after the round trip", x.len(), y.len()));
            }
            x.iter().zip(y).enumerate().find_map(|(i, (v, w))| first_difference(v, w, &format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!("{path}: emitted {a}, k8s-openapi gives {b}")),
    }
}

/// Round-trips one object through the k8s-openapi type of its kind.
pub(crate) fn object_round_trip_diff(object: &Object) -> Option<String> {
    let value = object.to_json();
    match object {
        Object::Node(_) => round_trip_diff::<k8s_openapi::api::core::v1::Node>(&value),
        Object::CsiNode(_) => round_trip_diff::<k8s_openapi::api::storage::v1::CSINode>(&value),
        Object::Lease(_) => round_trip_diff::<k8s_openapi::api::coordination::v1::Lease>(&value),
        Object::Pod(_) => round_trip_diff::<k8s_openapi::api::core::v1::Pod>(&value),
        Object::Event(_) => round_trip_diff::<k8s_openapi::api::core::v1::Event>(&value),
        Object::PodDisruptionBudget(_) => round_trip_diff::<k8s_openapi::api::policy::v1::PodDisruptionBudget>(&value),
        Object::DaemonSet(_) => round_trip_diff::<k8s_openapi::api::apps::v1::DaemonSet>(&value),
        Object::VolumeAttachment(_) => round_trip_diff::<k8s_openapi::api::storage::v1::VolumeAttachment>(&value),
        Object::StatefulSet(_) => round_trip_diff::<k8s_openapi::api::apps::v1::StatefulSet>(&value),
        Object::PersistentVolumeClaim(_) => {
            round_trip_diff::<k8s_openapi::api::core::v1::PersistentVolumeClaim>(&value)
        }
        Object::PersistentVolume(_) => round_trip_diff::<k8s_openapi::api::core::v1::PersistentVolume>(&value),
        Object::ControllerRevision(_) => round_trip_diff::<k8s_openapi::api::apps::v1::ControllerRevision>(&value),
        Object::PriorityClass(_) => round_trip_diff::<k8s_openapi::api::scheduling::v1::PriorityClass>(&value),
        Object::CertificateSigningRequest(_) => {
            round_trip_diff::<k8s_openapi::api::certificates::v1::CertificateSigningRequest>(&value)
        }
        Object::Secret(_) => round_trip_diff::<k8s_openapi::api::core::v1::Secret>(&value),
    }
}

/// A request body as JSON.
pub(crate) fn body_json(request: &Request) -> Value {
    let Some(body) = &request.body else { return Value::Null };
    match body {
        Body::Object(o) => o.to_json(),
        Body::StatusPatch { .. } => {
            let (base, wanted) = request.status_patch().expect("a status patch's Nodes");
            serde_json::json!({ "base": base.to_json(), "wanted": wanted.to_json() })
        }
        Body::Json(_) | Body::PodStatus { .. } | Body::Binding(_) => body.json().unwrap_or(Value::Null),
        Body::Renewal { .. } => body.object().map(|o| o.to_json()).unwrap_or(Value::Null),
    }
}

/// A response as JSON.
pub(crate) fn response_json(response: &Response) -> Value {
    match response {
        Response::Object(o) => o.to_json(),
        Response::Status(s) => serde_json::to_value(s).expect("a Status serializes"),
        Response::Renewal(_) => response.object().map(|o| o.to_json()).unwrap_or(Value::Null),
    }
}

/// One entry of a [`canonical`] rendering: sequence number, time, and the entry as text.
pub(crate) type Entry = (u64, SimTime, String);

/// Everything in `log`, one line per entry in `seq` order: requests (time, end, actor, method,
/// path, query, outcome, error, body and response as JSON, changes made), object changes (the
/// object as JSON), Events, log lines, applied inputs and machine states. Two logs with equal
/// renderings are the same log.
pub(crate) fn canonical(log: &Log) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for r in &log.requests {
        let body = body_json(&r);
        let response = r.response.as_ref().map(response_json).unwrap_or(Value::Null);
        out.push((
            r.seq,
            r.t,
            format!(
                "request t={:?} end={:?} {} {} {}?{} {:?} error={:?} node={:?} content-type={:?} body={} response={} changes={:?}",
                r.t,
                r.end,
                r.actor,
                r.method.as_str(),
                r.path,
                r.query.as_ref(),
                r.outcome,
                r.error(),
                r.node,
                r.content_type,
                body,
                response,
                r.changes.iter().collect::<Vec<_>>()
            ),
        ));
    }
    for c in log.changes() {
        out.push((
            c.seq,
            c.t,
            format!("change t={:?} {:?} request={:?} {}", c.t, c.change, c.request, c.object().to_json()),
        ));
    }
    for e in &log.events {
        out.push((e.seq, e.t, format!("event {e:?}")));
    }
    for l in &log.lines {
        out.push((l.seq, l.t, format!("line {l:?}")));
    }
    for i in &log.inputs {
        out.push((i.seq, i.t, format!("input {i:?}")));
    }
    for m in &log.machines {
        out.push((m.seq, m.t, format!("machine {m:?}")));
    }
    out.sort_by_key(|e| e.0);
    out
}

/// Where two canonical renderings differ: the first entry that differs, or the lengths.
pub(crate) fn rendering_difference(a: &[Entry], b: &[Entry]) -> Option<String> {
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
        return Some(format!("entry {i} differs\n  left:  {}\n  right: {}", a[i].2, b[i].2));
    }
    (a.len() != b.len()).then(|| format!("one rendering is a prefix of the other ({} vs {} entries)", a.len(), b.len()))
}

/// Asserts two canonical renderings are equal, naming the first entry that differs.
pub(crate) fn assert_same_rendering(a: &[Entry], b: &[Entry], what: &str) {
    if let Some(d) = rendering_difference(a, b) {
        panic!("{what}: {d}");
    }
}

/// The version of `key` current just before the entry numbered `seq` (changes made at the same
/// instant but later in the log are not seen). `None` if the object did not exist then.
pub(crate) fn version_before<'a>(log: &'a Log, key: &ObjectKey, seq: u64) -> Option<Cow<'a, Change>> {
    let versions = log.versions(key);
    let n = versions.partition_point(|&i| log.changes().at(i as usize).seq < seq);
    let change = log.changes().at(versions[n.checked_sub(1)?] as usize);
    (change.change != nodeline_sim::ChangeType::Deleted).then_some(change)
}

/// The Node named `name` just before entry `seq`.
pub(crate) fn node_before(log: &Log, name: &str, seq: u64) -> Option<Arc<Node>> {
    match version_before(log, &ObjectKey::cluster(Kind::Node, name), seq).map(|c| c.object()) {
        Some(Object::Node(n)) => Some(n),
        _ => None,
    }
}

/// The recorded state of the machine named `machine` just before entry `seq`.
pub(crate) fn machine_before(log: &Log, machine: &str, seq: u64) -> Option<Arc<MachineView>> {
    log.machines.iter().rev().find(|r| r.seq < seq && r.view.name == machine).map(|r| r.view.clone())
}
