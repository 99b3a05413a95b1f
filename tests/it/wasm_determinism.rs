//! The simulation gives the same bytes in the browser as natively: each chapter's timeline,
//! computed in WebAssembly, equals the golden file the native tests check (`tests/golden/`).
//!
//! Run by `cargo xtask test` (wasm stage) through wasm-bindgen-test-runner and chromedriver.

use nodeline::render;
use nodeline::sim::{Chapter, Config, SimTime, Timeline};
use wasm_bindgen_test::wasm_bindgen_test;

fn jsonl(chapter: Chapter) -> String {
    let duration = chapter.scenario().duration;
    // As `nodeline timeline` does: up to and including the chapter's last millisecond.
    let until = SimTime::from_micros((duration.as_micros() as u64 / 1000) * 1000 + 999);
    let mut timeline = Timeline::new(chapter, Config::default());
    timeline.run_until(SimTime::from_micros(until.as_micros() + 1));
    render::timeline::jsonl(timeline.log(), until, timeline.config().epoch)
}

fn assert_same(chapter: Chapter, golden: &str) {
    let ours = jsonl(chapter);
    if ours != golden {
        let line = ours.lines().zip(golden.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{chapter}: the wasm timeline differs from tests/golden at line {}:\n  wasm:   {}\n  golden: {}",
            line + 1,
            ours.lines().nth(line).unwrap_or("<end>"),
            golden.lines().nth(line).unwrap_or("<end>")
        );
    }
}

#[wasm_bindgen_test]
fn registration_matches_the_native_golden() {
    assert_same(Chapter::Registration, include_str!("../golden/registration.jsonl"));
}

#[wasm_bindgen_test]
fn node_failure_matches_the_native_golden() {
    assert_same(Chapter::NodeFailure, include_str!("../golden/node-failure.jsonl"));
}

#[wasm_bindgen_test]
fn kubelet_restart_matches_the_native_golden() {
    assert_same(Chapter::KubeletRestart, include_str!("../golden/kubelet-restart.jsonl"));
}

#[wasm_bindgen_test]
fn maintenance_matches_the_native_golden() {
    assert_same(Chapter::Maintenance, include_str!("../golden/maintenance.jsonl"));
}
