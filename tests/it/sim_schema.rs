//! Every object the chapters show validates against Kubernetes' published 1.34 JSON schemas
//! (strict: unknown fields are errors), through `tests/validate/validate.py` and the PyPI package
//! `kubernetes-validate` (`python3 -m pip install -r tests/validate/requirements.txt`).
//!
//! Without that package the tests print why they are skipped and pass, unless
//! `NODELINE_REQUIRE_SCHEMA=1` (CI sets it), which makes them fail. `NODELINE_PYTHON` names the
//! interpreter (default `python3`).

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use nodeline::sim::{Chapter, Config, SimTime, Timeline};
use serde_json::{Value, json};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/validate/validate.py");
const INSTALL: &str = "python3 -m pip install -r tests/validate/requirements.txt";

fn python() -> String {
    std::env::var("NODELINE_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Whether the validator can run; if not, fails (CI) or says why the test is skipped.
fn validator_available(test: &str) -> bool {
    let python = python();
    let ok = Command::new(&python)
        .args(["-c", "import kubernetes_validate"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        return true;
    }
    let why = format!("`{python} -c \"import kubernetes_validate\"` fails; install it with `{INSTALL}`");
    if std::env::var("NODELINE_REQUIRE_SCHEMA").as_deref() == Ok("1") {
        panic!("{test}: NODELINE_REQUIRE_SCHEMA=1 but {why}");
    }
    // Straight to the process's stderr, past the test harness's capture, so the skip is seen.
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why} (set NODELINE_REQUIRE_SCHEMA=1 to make this a failure)");
    false
}

/// Runs the validator on `list`; returns whether it passed, and what it printed.
fn validate(list: &Value, name: &str) -> (bool, String) {
    let path: PathBuf = std::env::temp_dir().join(format!("nodeline-schema-{}-{name}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_vec(list).expect("serializes")).expect("write the List");
    let out = Command::new(python()).arg(SCRIPT).arg("--quiet").arg(&path).output().expect("run validate.py");
    let _ = std::fs::remove_file(&path);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn list(items: Vec<Value>) -> Value {
    json!({ "apiVersion": "v1", "kind": "List", "items": items })
}

/// The moments of a chapter to look at: early, the middle and the end of its story.
fn moments(chapter: Chapter) -> Vec<SimTime> {
    let end = crate::common::end_of(chapter);
    let mid = SimTime::from_micros(end.as_micros() / 2);
    vec![SimTime::from_secs(15), SimTime::from_secs(45), mid, end]
}

/// Every object of `timeline` at each moment, appended to `items`, with a legend line per moment.
fn add_objects(items: &mut Vec<Value>, legend: &mut Vec<String>, name: &str, timeline: &Timeline, at: &[SimTime]) {
    for &t in at {
        let objects = timeline.at(t).objects();
        legend.push(format!("items {}..{}: {name} at {t}", items.len(), items.len() + objects.len()));
        items.extend(objects.iter().map(|o| as_schema_sees_it(o.to_json())));
    }
}

/// The object with the one `null` the API server serves where the published schemas, derived from
/// OpenAPI, only allow an array: a CSINode without drivers has `spec.drivers: null` (a Go nil
/// slice in a required field without `omitempty`, as protobuf storage gives it back). A client
/// reads it as an empty list, so it is validated as one.
fn as_schema_sees_it(mut object: Value) -> Value {
    if object["kind"] == "CSINode" && object["spec"]["drivers"].is_null() {
        object["spec"]["drivers"] = json!([]);
    }
    object
}

#[test]
fn chapter_objects_match_the_published_schemas() {
    if !validator_available("chapter_objects_match_the_published_schemas") {
        return;
    }
    // One List for everything: the interpreter starts once.
    let (mut items, mut legend) = (Vec::new(), Vec::new());
    for chapter in Chapter::ALL {
        let timeline = crate::common::chapter_timeline(chapter, Config::default());
        add_objects(&mut items, &mut legend, chapter.id(), &timeline, &moments(chapter));
    }
    let sandbox = crate::common::sandbox_timeline(Config::default());
    let at: Vec<SimTime> = (1..=4).map(|i| SimTime::ZERO + Duration::from_secs(i * 180)).collect();
    add_objects(&mut items, &mut legend, "sandbox", &sandbox, &at);
    // A machine's TLS bootstrap: the token's Secret, the CSR pending, approved, issued.
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    let mut bootstrap = Timeline::from_scenario(scenario, Config::default(), &[]);
    bootstrap.run_until(SimTime::from_secs(60));
    let at: Vec<SimTime> = [0, 1, 2, 60_000].map(|ms| SimTime::ZERO + Duration::from_micros(ms * 1000 + 500)).into();
    add_objects(&mut items, &mut legend, "bootstrap", &bootstrap, &at);
    // The story files': the evicted Pods and the PriorityClass of node-pressure, the rotated
    // certificates of tls-bootstrap, each at moments through its story.
    for id in ["node-pressure", "tls-bootstrap"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("stories").join(format!("{id}.yaml"));
        let story = nodeline::story::load(&std::fs::read_to_string(path).unwrap(), None).unwrap();
        let end = story.scenario.duration;
        let mut timeline = Timeline::from_scenario(story.scenario, story.config, &[]);
        timeline.run_until(SimTime::ZERO + end);
        let at: Vec<SimTime> = (1..=4).map(|i| SimTime::ZERO + end * i / 4).collect();
        add_objects(&mut items, &mut legend, id, &timeline, &at);
    }
    assert!(
        items.iter().any(|i| i["kind"] == "Pod" && i["status"]["reason"] == "Evicted"),
        "no evicted Pod to validate"
    );
    for kind in ["Node", "CSINode", "Lease", "Pod", "Event", "CertificateSigningRequest", "Secret", "PriorityClass"] {
        assert!(items.iter().any(|i| i["kind"] == kind), "no {kind} to validate");
    }
    let (ok, output) = validate(&list(items), "chapters");
    assert!(ok, "objects fail the 1.34 schemas:\n{output}\nwhere the items come from:\n{}", legend.join("\n"));
}

#[test]
fn the_validator_rejects_an_invented_field() {
    if !validator_available("the_validator_rejects_an_invented_field") {
        return;
    }
    let timeline = crate::common::chapter_timeline(Chapter::Registration, Config::default());
    let node = timeline.at(SimTime::from_secs(60)).node("node-1").expect("node-1");
    let mut bad = serde_json::to_value(&*node).expect("serializes");
    bad["status"]["heartbeatInterval"] = json!("10s");
    let (ok, output) = validate(&list(vec![bad]), "bad");
    assert!(!ok, "an invented field must fail validation:\n{output}");
    assert!(output.contains("heartbeatInterval"), "the error names the field:\n{output}");
}
