//! Every step of every chapter, paused at its moment, shows what its title names: the facts of
//! `tests/e2e/pages/step-facts.json` (which the browser suites check on the page too) hold in the
//! snapshot at the step's moment and on the stage's model, at both Kubernetes profiles.

use std::time::Duration;

use nodeline::i18n::Lang;
use nodeline::render::kubectl_printer::get;
use nodeline::sim::{
    Chapter, Config, KubeletState, Profile, Settings, SimTime, StepTime, Timeline, ZoneState, compute_zone_state,
};
use nodeline::view::fleet::{ControllerLines, Fleet, FleetIndex};
use nodeline::view::inspector::story_node;
use nodeline::view::session::Session;
use nodeline::view::stage::{Layout, StageModel};
use nodeline::view::zonechart::values_text;
use serde_json::Value;

fn table() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/pages/step-facts.json"))
        .expect("the table of step facts");
    serde_json::from_str(&text).expect("the table is JSON")
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn list<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    v.get(key).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

/// A session of `chapter`, computed to its end.
fn session(chapter: Chapter, profile: Profile) -> Session {
    let mut s = Session::new(Timeline::new(chapter, Config { profile, ..Config::default() }));
    s.ensure(SimTime::ZERO);
    s
}

/// Checks one fact at `t`; what failed, if anything.
fn check(s: &Session, stage: &StageModel, t: SimTime, fact: &Value) -> Result<(), String> {
    let snap = s.at(t);
    if let Some(name) = text(fact, "node") {
        let node = snap.node(name);
        let card = stage.scene.store.nodes.iter().find(|c| c.title.ends_with(name));
        if fact.get("exists") == Some(&Value::Bool(false)) {
            return match (node, card) {
                (None, None) => Ok(()),
                _ => Err(format!("Node {name} exists")),
            };
        }
        let node = node.ok_or(format!("no Node {name}"))?;
        let card = card.ok_or(format!("no card for Node {name} on the stage"))?;
        if let Some(want) = text(fact, "status") {
            let status = get::node_status(&node);
            if status != want || card.status != want {
                return Err(format!("{name}: STATUS {status}, on the stage {}, not {want}", card.status));
            }
        }
        if let Some(want) = text(fact, "ready") {
            let ready = node.ready_status().unwrap_or_default();
            if ready != want {
                return Err(format!("{name}: Ready {ready}, not {want}"));
            }
        }
        let taints: Vec<String> = node.spec.taints.iter().map(|t| t.display()).collect();
        for want in list(fact, "taints") {
            if !taints.iter().any(|t| t == want) || !card.label.contains(want) {
                return Err(format!("{name}: no taint {want} (taints {taints:?}, stage: {})", card.label));
            }
        }
        for unwanted in list(fact, "noTaints") {
            if taints.iter().any(|t| t == unwanted) || card.label.contains(unwanted) {
                return Err(format!("{name}: taint {unwanted} still on"));
            }
        }
    }
    if let Some(name) = text(fact, "kubelet") {
        let want = fact.get("running").and_then(Value::as_bool).expect("a kubelet fact says running or not");
        let machine = snap.machines().into_iter().find(|m| &*m.name == name).ok_or(format!("no machine {name}"))?;
        let running = machine.kubelet == KubeletState::Running && !machine.powered_off;
        let chip = stage.scene.machines.iter().find(|m| m.name == name).map(|m| m.kubelet.label.clone());
        if running != want {
            return Err(format!("{name}: kubelet {:?}, stage {chip:?}", machine.kubelet));
        }
    }
    if let Some(name) = text(fact, "pod") {
        // A name ending in `-`: any Pod of that ReplicaSet on the node.
        let named = |n: &str| if name.ends_with('-') { n.starts_with(name) } else { n == name };
        let on = text(fact, "on");
        let pod = snap
            .pods()
            .into_iter()
            .find(|p| named(&p.metadata.name) && on.is_none_or(|on| p.spec.node_name.as_str() == on));
        let row = pod.as_ref().and_then(|p| stage.scene.store.pods.iter().find(|r| r.name == p.metadata.name.as_str()));
        if fact.get("exists") == Some(&Value::Bool(false)) {
            return match (pod, row) {
                (None, None) => Ok(()),
                _ => Err(format!("Pod {name} exists")),
            };
        }
        let pod = pod.ok_or(format!("no Pod {name}"))?;
        let (_, status, _) = get::pod_state(&pod, snap.wall());
        if let Some(want) = text(fact, "status")
            && status != want
        {
            return Err(format!("Pod {name}: {status}, not {want}"));
        }
        if let Some(want) = text(fact, "on")
            && pod.spec.node_name.as_str() != want
        {
            return Err(format!("Pod {name} on {:?}, not {want}", pod.spec.node_name));
        }
        let shown = fact.get("stage") != Some(&Value::Bool(false));
        match row {
            Some(row) if shown && !row.detail.contains(&status) => {
                return Err(format!("Pod {name}: the stage says {}", row.detail));
            }
            None if shown => return Err(format!("Pod {name} is not on the stage")),
            Some(_) if !shown => return Err(format!("Pod {name} is on the stage: drop `stage: false`")),
            _ => {}
        }
    }
    if let Some(name) = text(fact, "pdb") {
        let want = fact.get("allowed").and_then(Value::as_i64).expect("a budget fact says allowed");
        let pdb = snap.pdbs().into_iter().find(|p| p.metadata.name == name).ok_or(format!("no budget {name}"))?;
        if i64::from(pdb.status.disruptions_allowed) != want {
            return Err(format!("budget {name}: {} allowed, not {want}", pdb.status.disruptions_allowed));
        }
    }
    Ok(())
}

/// Checks a fleet step's zone facts on the fleet's view at `t`.
fn check_fleet(s: &Session, t: SimTime, step: &Value) -> Result<(), String> {
    let log = s.timeline.log();
    let fleet = Fleet::build(&FleetIndex::of(log), log, &ControllerLines::of(log), t, 1200.0, s.timeline.settings());
    let master = step.get("master").and_then(Value::as_bool).expect("a fleet step says master or not");
    if fleet.master_disruption != master {
        return Err(format!("master disruption mode: {}", fleet.master_disruption));
    }
    // Every label agrees with the counts beside it: a zone's state is what its counts make it
    // (in master disruption mode every zone FullDisruption with no node Ready), and the chart's
    // summary says the cards' counts.
    let summary = values_text(&fleet, Lang::En);
    for z in &fleet.zones {
        let from_counts = if fleet.master_disruption {
            ZoneState::FullDisruption
        } else {
            compute_zone_state(&Settings::default(), z.ready, z.not_ready)
        };
        // Master disruption mode is the controller finding every node not Ready.
        if z.state != from_counts || (fleet.master_disruption && z.ready > 0) {
            return Err(format!("{}: {} above {} Ready, {} not Ready", z.name, z.state.as_str(), z.ready, z.not_ready));
        }
        let said = format!("{}: {} not Ready, {} NoExecute", z.name, z.not_ready, z.no_execute);
        if !summary.contains(&said) {
            return Err(format!("the chart's summary {summary:?} does not say {said:?}"));
        }
    }
    for fact in step["facts"].as_array().expect("facts") {
        let name = text(fact, "zone").expect("a zone fact");
        let zone = fleet.zones.iter().find(|z| z.name == name).ok_or(format!("no zone {name}"))?;
        if let Some(want) = text(fact, "state")
            && zone.state.as_str() != want
        {
            return Err(format!("{name}: {}, not {want}", zone.state.as_str()));
        }
        if fact.get("notReady") == Some(&Value::Bool(true)) && zone.not_ready == 0 {
            return Err(format!("{name}: every node Ready"));
        }
        if fact.get("noExecute") == Some(&Value::Bool(true)) && zone.no_execute == 0 {
            return Err(format!("{name}: no NoExecute taint"));
        }
    }
    Ok(())
}

#[test]
fn every_step_shows_its_facts_at_its_moment_and_not_yet_at_its_start() {
    let table = table();
    let chapters = table["chapters"].as_object().expect("chapters");
    assert_eq!(chapters.len(), Chapter::ALL.len());
    let mut failures = Vec::new();
    for chapter in Chapter::ALL {
        let steps = chapters[chapter.id()].as_array().expect("the chapter's steps");
        assert_eq!(steps.len(), chapter.scenario().steps.len(), "{chapter}: one entry a step");
        for profile in Profile::ALL {
            let s = session(chapter, profile);
            for (i, (step, at)) in steps.iter().zip(&s.steps).enumerate() {
                assert_eq!(step["step"].as_u64(), Some(i as u64 + 1), "{chapter}: steps in order");
                let at: StepTime = at.unwrap_or_else(|| panic!("{chapter} step {} happens", i + 1));
                let t = at.moment;
                let failed = if chapter.is_fleet() {
                    check_fleet(&s, t, step).err()
                } else {
                    let stage = StageModel::build(&s, t, 1.0, false, Layout::Wide, Lang::En);
                    let mut failed =
                        step["facts"].as_array().expect("facts").iter().find_map(|f| check(&s, &stage, t, f).err());
                    if let Some(want) = text(step, "inspector") {
                        // The Node the story is about, else the sandbox's first machine's.
                        let first = s.at(t).machines().first().map(|m| m.name.to_string());
                        let node = story_node(s.timeline.log(), t).or(first);
                        if node.as_deref() != Some(want) {
                            failed.get_or_insert(format!("the inspector shows {node:?}, not {want}"));
                        }
                    }
                    failed
                };
                if let Some(f) = failed {
                    failures.push(format!("{chapter} ({profile}) step {} at {t}: {f}", i + 1));
                }
                // The moment is what the reader sees paused: past the step's start, and the step
                // is the current one there.
                assert!(at.start <= t, "{chapter} step {}", i + 1);
                assert_eq!(nodeline::sim::scenario::current_step(&s.steps, t), i + 1, "{chapter} ({profile})");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_moments_are_after_what_was_shown_before_as_lead_ins() {
    // The old frames: node-failure step 3 opened on node-1 still Ready. Its moment shows Unknown,
    // and its lead-in still starts before it (so playing from the step shows it happen).
    let s = session(Chapter::NodeFailure, Profile::ALL[0]);
    let at = s.steps[2].expect("step 3");
    assert_eq!(
        s.at(at.start).node("node-1").and_then(|n| n.ready_status().map(str::to_owned)).as_deref(),
        Some("True")
    );
    assert_eq!(
        s.at(at.moment).node("node-1").and_then(|n| n.ready_status().map(str::to_owned)).as_deref(),
        Some("Unknown")
    );
    assert!(at.moment - at.start >= Duration::from_secs(2));
}

#[test]
fn a_lead_in_frame_of_the_zone_chapter_is_caught_contradicting_itself() {
    // Step 6's lead-in, 2 s before the controller's pass leaves master disruption mode: nodes
    // already report Ready, the controller has not counted them yet. Its moment agrees.
    let s = session(Chapter::ZoneOutage, Profile::ALL[0]);
    let at = s.steps[5].expect("step 6");
    let step = &table()["chapters"]["zone-outage"][5];
    assert!(check_fleet(&s, at.start, step).is_err());
    assert_eq!(check_fleet(&s, at.moment, step), Ok(()));
}
