//! The `nodeline` command line: golden timelines (in-process, through `nodeline::cli::run`, the
//! function the binary calls) and the built binary's behaviour (output shapes, determinism,
//! `--seed`, `--k8s`, and every kind of bad argument).
//!
//! The goldens in `tests/golden/<chapter>.jsonl` are `nodeline timeline --chapter <chapter>` with
//! the default configuration. When the simulation changes on purpose, regenerate them with
//! `NODELINE_BLESS=1 cargo test --test it cli::` and review the diff.

use std::path::PathBuf;
use std::process::Command;

use nodeline::cli;
use nodeline::render;
use nodeline::sim::Chapter;
use serde_json::Value;

use crate::common::binary::nodeline;

fn golden_path(chapter: Chapter) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{}.jsonl", chapter.id()))
}

#[test]
fn golden_timelines() {
    let bless = std::env::var("NODELINE_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    // The fleet chapter's timelines are megabytes: its goldens are in `fleet_goldens`.
    for chapter in Chapter::ALL.into_iter().filter(|c| !c.is_fleet()) {
        let out = cli::run(["nodeline", "timeline", "--chapter", chapter.id()]);
        assert_eq!(out.code, 0, "{chapter}: {}", out.stderr);
        assert!(out.stderr.is_empty(), "{chapter}: {}", out.stderr);
        let path = golden_path(chapter);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &out.stdout).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; create it with NODELINE_BLESS=1", path.display()));
        if expected != out.stdout {
            let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), out.stdout.lines().collect());
            let line = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)).unwrap_or(0);
            stale.push(format!(
                "{}: first difference at line {}\n  golden: {}\n  now:    {}",
                path.display(),
                line + 1,
                a.get(line).unwrap_or(&"<end>"),
                b.get(line).unwrap_or(&"<end>")
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "timelines differ from the goldens (if the change is intended, run \
         `NODELINE_BLESS=1 cargo test --test it cli::` and review the diff):\n{}",
        stale.join("\n")
    );
}

/// The fleet chapter's records that tell the controllers' story: everything but the kubelets'
/// own records, the controllers' GETs, Kubernetes Events (their Node and Pod names are in the
/// requests) and the per-node "Adding it to the Taint queue" lines (every 5 s for every node).
fn controller_story(jsonl: &str) -> String {
    jsonl
        .lines()
        .filter(|l| {
            !l.contains("\"kubelet/")
                && !l.contains("Taint queue")
                && !l.contains("\"method\":\"GET\"")
                && !l.contains("\"kind\":\"event\"")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn fleet_goldens() {
    let bless = std::env::var("NODELINE_BLESS").is_ok_and(|v| v == "1");
    for nodes in ["30", "150"] {
        let out = cli::run(["nodeline", "timeline", "--chapter", "zone-outage", "--nodes", nodes]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let story = controller_story(&out.stdout);
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/zone-outage-{nodes}.jsonl"));
        if bless {
            std::fs::write(&path, &story).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; create it with NODELINE_BLESS=1", path.display()));
        let line = expected.lines().zip(story.lines()).position(|(a, b)| a != b);
        assert!(
            expected == story,
            "{} differs at line {} (run `NODELINE_BLESS=1 cargo test --test it cli::` if intended):\n  golden: {}\n  now:    {}",
            path.display(),
            line.map_or(expected.lines().count().min(story.lines().count()), |l| l) + 1,
            line.and_then(|l| expected.lines().nth(l)).unwrap_or("<end>"),
            line.and_then(|l| story.lines().nth(l)).unwrap_or("<end>"),
        );
        // The story's landmarks are in it.
        for needle in [
            "newState=\\\"PartialDisruption\\\"",
            "newState=\\\"FullDisruption\\\"",
            "Entering master disruption mode",
            "Exiting master disruption mode",
        ] {
            assert!(story.contains(needle), "{nodes} nodes: {needle} missing");
        }
    }
}

#[test]
fn until_cuts_the_same_timeline() {
    // A shorter run prints exactly the lines of the full run up to that moment.
    let full = cli::run(["nodeline", "timeline", "--chapter", "node-failure"]).stdout;
    let short = cli::run(["nodeline", "timeline", "--chapter", "node-failure", "--until", "2m51.052s"]).stdout;
    let expected: String = full
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).unwrap()["t_ms"].as_u64().unwrap() <= 171_052)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(short, expected);
    assert!(short.contains("\"reason\":\"NodeNotReady\""), "the cut is inclusive");
}

// ---------------------------------------------------------------------------------------------
// The binary.
// ---------------------------------------------------------------------------------------------

fn ok(args: &[&str]) -> String {
    let r = nodeline(args);
    assert_eq!(r.code, 0, "nodeline {args:?} failed: {}", r.stderr);
    assert!(r.stderr.is_empty(), "nodeline {args:?} warned: {}", r.stderr);
    r.stdout
}

fn objects_json(args: &[&str]) -> Value {
    let mut all = vec!["objects"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).expect("objects -o json prints JSON")
}

fn items<'a>(list: &'a Value, kind: &str) -> Vec<&'a Value> {
    list["items"].as_array().expect("items").iter().filter(|i| i["kind"] == kind).collect()
}

#[test]
fn timeline_prints_json_lines_with_the_documented_keys() {
    for chapter in Chapter::ALL {
        // The fleet at 9 nodes (only a fleet's size can be set).
        let nodes: &[&str] = if chapter.is_fleet() { &["--nodes", "9"] } else { &[] };
        let out = ok(&[&["timeline", "--chapter", chapter.id()][..], nodes].concat());
        assert!(out.ends_with('\n'));
        let (mut last_seq, mut last_t) = (0, 0);
        let (mut requests, mut events) = (0, 0);
        for line in out.lines() {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let o = v.as_object().expect("one object per line");
            let t = v["t_ms"].as_u64().expect("t_ms is an integer");
            let seq = v["seq"].as_u64().expect("seq is an integer");
            assert!(seq > last_seq && t >= last_t, "log order: {line}");
            (last_seq, last_t) = (seq, t);
            // Keys in the documented order (serde_json's map may sort them, so check the text).
            assert!(line.starts_with("{\"t_ms\":") && line.contains(",\"seq\":") && line.contains(",\"kind\":"));
            match v["kind"].as_str() {
                Some("request") => {
                    requests += 1;
                    for k in ["actor", "method", "path", "code", "summary"] {
                        assert!(o.contains_key(k), "{k} missing: {line}");
                    }
                    assert!(v["actor"].as_str().unwrap().contains(['/', '-']) || v["actor"] == "kubectl");
                    assert!(["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&v["method"].as_str().unwrap()));
                    assert!(v["path"].as_str().unwrap().starts_with('/'));
                    match &v["code"] {
                        Value::Number(n) => assert!((100..600).contains(&n.as_u64().unwrap())),
                        Value::Null => assert!(v["error"].is_string(), "a timeout says why: {line}"),
                        other => panic!("code {other}: {line}"),
                    }
                    let pos = |k: &str| line.find(&format!("\"{k}\":")).unwrap();
                    assert!(pos("actor") < pos("method") && pos("method") < pos("path"));
                    assert!(pos("path") < pos("code") && pos("code") < pos("summary"));
                }
                Some("event") => {
                    events += 1;
                    let pos = |k: &str| line.find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("{k}: {line}"));
                    let expected = ["reason", "type", "message", "object", "source", "count"];
                    assert!(expected.windows(2).all(|w| pos(w[0]) < pos(w[1])), "key order: {line}");
                    assert!(["Normal", "Warning"].contains(&v["type"].as_str().unwrap()));
                    assert!(v["object"].as_str().unwrap().split('/').count() >= 2);
                    assert!(v["count"].as_u64().unwrap() >= 1);
                }
                Some("log") => {
                    let pos = |k: &str| line.find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("{k}: {line}"));
                    assert!(pos("component") < pos("severity") && pos("severity") < pos("line"), "key order: {line}");
                    assert!(["info", "warning", "error"].contains(&v["severity"].as_str().unwrap()));
                    let klog = v["line"].as_str().unwrap();
                    // kubectl prints its output; it does not log it through klog.
                    let kubectl = v["component"].as_str().is_some_and(|c| c.starts_with("kubectl"));
                    assert!(
                        kubectl || (klog.starts_with(['I', 'W', 'E']) && klog.contains(".go] ")),
                        "klog line: {line}"
                    );
                    assert!(!kubectl || !klog.contains(".go] "), "kubectl's output with a klog header: {line}");
                }
                other => panic!("kind {other:?}: {line}"),
            }
        }
        assert!(requests > 10 && events > 5, "{chapter}: {requests} requests, {events} events");
    }
}

#[test]
fn objects_prints_a_kubectl_list() {
    let list = objects_json(&["--chapter", "node-failure", "--at", "1m"]);
    assert_eq!(list["apiVersion"], "v1");
    assert_eq!(list["kind"], "List");
    assert_eq!(list["metadata"], serde_json::json!({"resourceVersion": ""}));
    let nodes = items(&list, "Node");
    assert!(nodes.iter().any(|n| n["metadata"]["name"] == "node-1"), "node-1 is listed");
    assert_eq!(nodes.len(), 2);
    assert_eq!(items(&list, "CSINode").len(), 2);
    assert_eq!(items(&list, "Lease").len(), 2);
    assert_eq!(items(&list, "Pod").len(), 1);
    assert!(!items(&list, "Event").is_empty());
    // Nodes, CSINodes, Leases, Pods, then Events.
    let kinds: Vec<&str> = list["items"].as_array().unwrap().iter().map(|i| i["kind"].as_str().unwrap()).collect();
    let rank = |k: &str| ["Node", "CSINode", "Lease", "Pod", "Event"].iter().position(|x| *x == k).unwrap();
    assert!(kinds.windows(2).all(|w| rank(w[0]) <= rank(w[1])), "{kinds:?}");

    // kubectl's JSON layout: four spaces, sorted keys, a final newline.
    let text = ok(&["objects", "--chapter", "node-failure", "--at", "1m"]);
    assert!(text.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n"), "{}", &text[..80]);
    assert!(
        text.ends_with("    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
    );
    assert_eq!(text, render::json::to_string_pretty(&list), "-o json is kubectl's JSON of the same List");
}

#[test]
fn objects_prints_kubectl_yaml() {
    let yaml = ok(&["objects", "--chapter", "node-failure", "--at", "1m", "-o", "yaml"]);
    assert!(yaml.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n"), "{yaml}");
    assert!(yaml.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\"\n"));
    assert!(yaml.contains("\n    name: node-1\n"));
    assert!(yaml.contains("\n    creationTimestamp: \"2026-03-02T09:00:00Z\"\n"), "timestamps are quoted");
    assert!(yaml.contains("\n      pods: \"110\"\n"), "number-like strings are quoted");
    assert!(
        yaml.contains("\n  kind: Lease\n") && yaml.contains("\n  kind: Pod\n") && yaml.contains("\n  kind: Event\n")
    );
    assert!(
        yaml.contains("\n    addresses:\n    - address: 10.0.0.11\n      type: InternalIP\n"),
        "sequences sit under their key"
    );
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        assert!(indent % 2 == 0 && !line.contains('\t') && !line.ends_with(' '), "{line:?}");
    }
    // The same List as -o json, printed as kubectl prints YAML.
    let list = objects_json(&["--chapter", "node-failure", "--at", "1m"]);
    assert_eq!(yaml, render::yaml::to_string(&list));
    assert_eq!(yaml.matches("\n- apiVersion: ").count() + 1, list["items"].as_array().unwrap().len());
}

#[test]
fn output_is_byte_identical_run_to_run() {
    for args in [
        &["timeline", "--chapter", "kubelet-restart"][..],
        &[
            "timeline",
            "--chapter",
            "registration",
            "--actions",
            "add-machine@30s,kill-kubelet:node-2@2m",
            "--seed",
            "42",
        ],
        &["objects", "--chapter", "node-failure", "--at", "8m30s", "-o", "yaml"],
        &["objects", "--chapter", "registration", "--at", "45s", "--k8s", "1.31"],
    ] {
        let (a, b) = (nodeline(args), nodeline(args));
        assert_eq!(a.code, 0, "{args:?}: {}", a.stderr);
        assert!(!a.stdout.is_empty());
        assert!(a.stdout == b.stdout && a.stderr == b.stderr, "{args:?} printed different bytes");
    }
}

fn uids(list: &Value) -> Vec<String> {
    list["items"].as_array().unwrap().iter().map(|i| i["metadata"]["uid"].as_str().unwrap().to_string()).collect()
}

#[test]
fn seed_changes_uids() {
    let default = objects_json(&["--chapter", "node-failure", "--at", "1m"]);
    let seeded = objects_json(&["--chapter", "node-failure", "--at", "1m", "--seed", "7"]);
    let same = objects_json(&["--chapter", "node-failure", "--at", "1m", "--seed", "1"]);
    assert_eq!(default, same, "the default seed is 1");
    let (a, b) = (uids(&default), uids(&seeded));
    assert_eq!(a.len(), b.len());
    assert!(a.iter().all(|u| !b.contains(u)), "every uid changes with the seed:\n{a:?}\n{b:?}");
    for u in &b {
        assert!(u.len() == 36 && u.matches('-').count() == 4, "uid shape: {u}");
    }
}

fn kubelet_versions(list: &Value) -> Vec<String> {
    items(list, "Node")
        .iter()
        .map(|n| n["status"]["nodeInfo"]["kubeletVersion"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn k8s_version_changes_the_nodes() {
    let v134 = objects_json(&["--chapter", "node-failure", "--at", "1m"]);
    let v131 = objects_json(&["--chapter", "node-failure", "--at", "1m", "--k8s", "1.31"]);
    assert!(kubelet_versions(&v134).iter().all(|v| v.starts_with("v1.34.")), "{:?}", kubelet_versions(&v134));
    let old = kubelet_versions(&v131);
    assert!(!old.is_empty() && old.iter().all(|v| v.starts_with("v1.31.")), "{old:?}");
    // And the shorter grace period (40 s instead of 50 s) moves NodeNotReady earlier.
    let first_not_ready = |args: &[&str]| {
        ok(args)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| v["reason"] == "NodeNotReady")
            .map(|v| v["t_ms"].as_u64().unwrap())
            .expect("NodeNotReady happens")
    };
    let t134 = first_not_ready(&["timeline", "--chapter", "node-failure"]);
    let t131 = first_not_ready(&["timeline", "--chapter", "node-failure", "--k8s", "1.31"]);
    assert!(t131 < t134, "1.31: {t131} ms, 1.34: {t134} ms");
}

#[test]
fn actions_change_the_story() {
    let out =
        ok(&["timeline", "--chapter", "node-failure", "--actions", "kill-kubelet:node-2@1m,start-kubelet:node-2@3m"]);
    let events: Vec<Value> =
        out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).filter(|v| v["kind"] == "event").collect();
    assert!(events.iter().any(|e| e["reason"] == "NodeNotReady" && e["object"] == "Node/node-2"));
    assert!(
        events
            .iter()
            .any(|e| e["reason"] == "Starting" && e["object"] == "Node/node-2" && e["t_ms"].as_u64() > Some(180_000))
    );
    assert!(
        !events.iter().any(|e| e["reason"] == "NodeNotReady" && e["object"] == "Node/node-1"),
        "the script's kill is replaced"
    );
}

#[test]
fn ignored_actions_are_warned_about() {
    let r =
        nodeline(&["timeline", "--chapter", "registration", "--actions", "start-kubelet@30s,kill-kubelet:node-7@1m"]);
    assert_eq!(r.code, 0);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stderr);
    assert!(
        lines[0].starts_with("nodeline: warning: start-kubelet@30s was ignored: ")
            && lines[0].contains("already running")
    );
    assert!(lines[1].contains("kill-kubelet:node-7@1m0s was ignored") && lines[1].contains("node-7"));
}

#[test]
fn a_fleet_size_for_what_is_not_a_fleet_is_warned_about() {
    for (args, what) in [
        (&["timeline", "--chapter", "registration", "--nodes", "30", "--until", "1m"][..], "chapter registration"),
        (
            &["objects", "--story", "stories/two-nodes-fail.yaml", "--nodes", "30", "--at", "1m"],
            "story stories/two-nodes-fail.yaml",
        ),
    ] {
        let r = nodeline(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(!r.stdout.is_empty());
        assert_eq!(
            r.stderr.trim_end(),
            format!("nodeline: warning: --nodes 30 was ignored: {what} is not a fleet (its machines are as written)"),
            "{args:?}"
        );
    }
    // A fleet takes it without a word.
    let r = nodeline(&["timeline", "--chapter", "zone-outage", "--nodes", "30", "--until", "1m"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
}

#[test]
fn help_and_version() {
    for args in [&["--help"][..], &["timeline", "--help"], &["objects", "-h"]] {
        let out = ok(args);
        assert!(out.contains("Usage: nodeline"), "{out}");
        assert!(out.contains("kill-kubelet@2m"), "the notation is explained");
    }
    assert_eq!(ok(&["--version"]), format!("nodeline {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn the_help_names_every_action_and_chapter() {
    for args in [&["--help"][..], &["kubectl", "--help"]] {
        let out = ok(args);
        let words: Vec<&str> = out.split(|c: char| !(c.is_ascii_lowercase() || c == '-')).collect();
        for spec in &nodeline::sim::ACTIONS {
            assert!(words.contains(&spec.name), "{args:?}: {} is not in the help:\n{out}", spec.name);
        }
        for chapter in Chapter::ALL {
            assert!(words.contains(&chapter.id()), "{args:?}: {chapter} is not in the help");
        }
        let notation = out.split_once("Notation:").expect("the notation").1;
        assert!(notation.lines().all(|l| l.len() <= 100), "{notation}");
    }
}

#[test]
fn bad_arguments_exit_2_with_one_useful_line() {
    // (arguments, text the message must contain)
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &["missing subcommand", "timeline, objects"]),
        (&["frobnicate"], &["'frobnicate'", "timeline, objects"]),
        (&["timeline"], &["--chapter"]),
        (&["timeline", "--chapter", "nope"], &["'nope'", "registration, node-failure, kubelet-restart"]),
        (&["objects", "--chapter", "node-falure", "--at", "1m"], &["'node-falure'", "node-failure"]),
        (&["timeline", "--chapter", "registration", "--until", "5x"], &["'5x'", "unknown unit", "2m30s"]),
        (&["timeline", "--chapter", "registration", "--until", "-5s"], &["'-5s'", "negative"]),
        (&["timeline", "--chapter", "registration", "--until", "soon"], &["'soon'", "90s"]),
        (
            &["timeline", "--chapter", "registration", "--actions", "explode@1m"],
            &["explode", "kill-kubelet, start-kubelet"],
        ),
        (&["timeline", "--chapter", "registration", "--actions", "kill-kubelet"], &["'kill-kubelet'", "ACTION@TIME"]),
        (&["timeline", "--chapter", "registration", "--actions", "kill-kubelet@later"], &["later", "invalid duration"]),
        (&["timeline", "--chapter", "registration", "--actions", "create-pod:node-1@1m"], &["does not take a machine"]),
        (&["timeline", "--chapter", "registration", "--bogus"], &["'--bogus'", "--chapter", "--until", "--seed"]),
        (&["timeline", "--chapter", "registration", "stray"], &["'stray'", "--chapter"]),
        (&["timeline", "--chapter", "registration", "--k8s", "1.29"], &["'1.29'", "1.34, 1.31"]),
        (&["timeline", "--chapter", "registration", "--seed", "abc"], &["'abc'", "whole number"]),
        (&["timeline", "--chapter", "registration", "--seed", "-1"], &["'-1'", "whole number"]),
        (&["objects", "--chapter", "registration"], &["--at"]),
        (&["objects", "--chapter", "registration", "--at", "25h"], &["'25h'", "24h"]),
        (&["objects", "--chapter", "registration", "--at", "99999h"], &["'99999h'", "24h"]),
        (&["objects", "--chapter", "registration", "--at", "1m", "-o", "xml"], &["'xml'", "json, yaml"]),
        (&["objects", "--chapter", "registration", "--at", "1m", "-o", "wide"], &["'wide'", "json, yaml"]),
        (&["objects", "--chapter", "registration", "--at", "1m", "--at", "2m"], &["--at"]),
        (&["objects", "--chapter", "registration", "--at"], &["--at"]),
        (&["objects", "--chapter", "registration", "--at", "1m", "--until", "2m"], &["'--until'", "--at", "--output"]),
        (&["timeline", "--chapter", "registration", "--until", "--seed"], &["'--seed'", "duration"]),
        (&["timeline", "--chapter", "zone-outage", "--nodes", "2"], &["'2'", "from 3 to 1000"]),
        (&["timeline", "--chapter", "zone-outage", "--nodes", "1001"], &["'1001'", "from 3 to 1000"]),
        (&["timeline", "--chapter", "zone-outage", "--nodes", "many"], &["'many'", "from 3 to 1000"]),
        (&["timeline", "--chapter", "zone-outage", "--actions", "cut-zone@1m"], &["needs a zone"]),
        (&["timeline", "--chapter", "zone-outage", "--actions", "cut-nodes:eu-west-1b@1m"], &["ZONE/K"]),
    ];
    for (args, needles) in cases {
        let r = nodeline(args);
        assert_eq!(r.code, 2, "nodeline {args:?} should exit 2: {}", r.stderr);
        assert!(r.stdout.is_empty(), "nodeline {args:?} printed to stdout: {}", r.stdout);
        assert_eq!(r.stderr.lines().count(), 1, "nodeline {args:?}: one line, got:\n{}", r.stderr);
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        for needle in *needles {
            assert!(r.stderr.contains(needle), "nodeline {args:?}: {needle:?} not in: {}", r.stderr);
        }
    }
}

#[test]
fn closed_stdout_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    // Read one byte, then close the pipe: the binary must not panic on the broken pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_nodeline"))
        .args(["timeline", "--chapter", "node-failure", "--until", "3h"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Every setting `--set` to its default prints each chapter's golden timeline, byte for byte (the
/// kubelet's shutdown periods, set, are every machine's: a chapter whose machines have their own
/// is run without them), in both releases.
#[test]
fn every_setting_at_its_default_prints_the_golden() {
    use nodeline::sim::{Profile, SETTINGS};
    for profile in Profile::ALL {
        for chapter in Chapter::ALL.into_iter().filter(|c| !c.is_fleet()) {
            let own_shutdown = chapter.scenario().machines.iter().any(|m| !m.shutdown_grace_period.is_zero());
            let mut args: Vec<String> =
                ["nodeline", "timeline", "--chapter", chapter.id(), "--k8s", profile.as_str()].map(String::from).into();
            for row in SETTINGS.iter().filter(|r| !(own_shutdown && r.name.starts_with("shutdownGracePeriod"))) {
                args.extend(["--set".into(), format!("{}={}", row.key(), row.default(profile))]);
            }
            let with = cli::run(&args);
            let plain = cli::run(["nodeline", "timeline", "--chapter", chapter.id(), "--k8s", profile.as_str()]);
            assert_eq!((with.code, with.stderr.as_str()), (0, ""), "{chapter}");
            assert!(
                with.stdout == plain.stdout,
                "{chapter} ({profile}): the timeline differs with every setting at its default"
            );
            if profile == Profile::default() {
                assert_eq!(with.stdout, std::fs::read_to_string(golden_path(chapter)).unwrap(), "{chapter}");
            }
        }
    }
}

/// `--set kube-controller-manager:node-monitor-grace-period=20s`: node-1 is `NodeNotReady` 30 s
/// sooner (within one monitor period) than with 1.34's 50 s.
#[test]
fn a_shorter_grace_period_moves_node_not_ready_earlier() {
    let not_ready = |extra: &[&str]| {
        let out = cli::run([&["nodeline", "timeline", "--chapter", "node-failure"][..], extra].concat());
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| {
                v["reason"] == "NodeNotReady" && v["source"].as_str().is_some_and(|s| s.contains("node-controller"))
            })
            .and_then(|v| v["t_ms"].as_i64())
            .expect("NodeNotReady")
    };
    let sooner = not_ready(&[]) - not_ready(&["--set", "kube-controller-manager:node-monitor-grace-period=20s"]);
    assert!((25_000..=35_000).contains(&sooner), "{sooner} ms sooner");
}

/// `nodeline quiz --set`: the questions' answers come from the timeline with the setting, and
/// their explanations cite the value set.
#[test]
fn the_quiz_cites_the_settings_it_ran_with() {
    let out = cli::run([
        "nodeline",
        "quiz",
        "--chapter",
        "node-failure",
        "-o",
        "json",
        "--set",
        "kube-controller-manager:node-monitor-grace-period=20s",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let quiz: Value = serde_json::from_str(&out.stdout).unwrap();
    let unknown = quiz["questions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["id"] == "node-failure-unknown-after")
        .expect("the question");
    let seconds = unknown["answer"]["seconds"].as_f64().unwrap();
    // Counted from the pass that saw the last renewal, written at the first pass after it: up
    // to two monitor periods more.
    assert!((20.0..=30.0).contains(&seconds), "{seconds}");
    assert!(unknown["why"].as_str().unwrap().contains("(20 s in Kubernetes 1.34)"), "{}", unknown["why"]);
}

/// The kubelet's eviction maps on the command line, in its flags' notation: a soft threshold
/// with its grace period runs; one without is refused in the kubelet's words; a signal the
/// simulation does not model is refused by name, status 2.
#[test]
fn eviction_thresholds_are_set_as_the_kubelets_flags_write_them() {
    let run = |set: &[&str]| {
        let mut args = vec!["nodeline", "timeline", "--chapter", "registration"];
        for s in set {
            args.extend(["--set", s]);
        }
        cli::run(args)
    };
    let ok = run(&[
        "kubelet:evictionSoft=memory.available<500Mi",
        "kubelet:evictionSoftGracePeriod=memory.available=1m30s",
        "kubelet:evictionMaxPodGracePeriod=10",
    ]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let alone = run(&["kubelet:evictionSoft=memory.available<500Mi"]);
    assert_eq!(alone.code, 2);
    assert!(alone.stderr.contains("grace period must be specified for the soft eviction threshold memory.available"));
    let disk = run(&["kubelet:evictionHard=memory.available<100Mi,nodefs.available<10%"]);
    assert_eq!(disk.code, 2);
    assert!(
        disk.stderr
            .contains("the simulation models the eviction signal memory.available only, not \"nodefs.available\""),
        "{}",
        disk.stderr
    );
    let zero = run(&["kubelet:evictionHard=memory.available<0"]);
    assert!(zero.stderr.contains("eviction threshold memory.available must be positive: 0"), "{}", zero.stderr);
}
