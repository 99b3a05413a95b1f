//! The root crate's integration tests, one test binary (one link of the crate and its
//! dependencies): each module is what was once its own test target, so a test's name is
//! `MODULE::TEST` (`cargo test --test it cli::`). The simulation's own tests are in
//! `crates/sim/tests/`; the helpers shared here are in `tests/common/`.
//!
//! Native modules run under `cargo test`; the `wasm_*` modules run in a browser through
//! wasm-bindgen-test-runner (`cargo test --target wasm32-unknown-unknown --tests`).

#[cfg(not(target_arch = "wasm32"))]
#[path = "../common/mod.rs"]
mod common;

#[cfg(not(target_arch = "wasm32"))]
mod chapters;
#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod i18n_catalogue;
#[cfg(not(target_arch = "wasm32"))]
mod kubectl_cli;
#[cfg(not(target_arch = "wasm32"))]
mod kubectl_drain;
#[cfg(not(target_arch = "wasm32"))]
mod kubectl_logs;
#[cfg(not(target_arch = "wasm32"))]
mod kubectl_parity;
#[cfg(not(target_arch = "wasm32"))]
mod layers;
#[cfg(not(target_arch = "wasm32"))]
mod quiz;
#[cfg(not(target_arch = "wasm32"))]
mod readme;
#[cfg(not(target_arch = "wasm32"))]
mod sim_schema;
#[cfg(not(target_arch = "wasm32"))]
mod sim_shutdown;
#[cfg(not(target_arch = "wasm32"))]
mod sim_timings;
#[cfg(not(target_arch = "wasm32"))]
mod step_facts;
#[cfg(not(target_arch = "wasm32"))]
mod story;
#[cfg(not(target_arch = "wasm32"))]
mod yaml;

#[cfg(target_arch = "wasm32")]
mod wasm_determinism;
#[cfg(target_arch = "wasm32")]
mod wasm_smoke;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
