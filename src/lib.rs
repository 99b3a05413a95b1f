//! nodeline: an interactive, deterministic explainer of the Kubernetes node lifecycle.
//!
//! The crate is layered; each layer only looks down:
//!
//! * [`sim`]: the cluster simulation. Pure and deterministic: inputs (user actions, time) in,
//!   a log of requests, object changes and events out. No browser, no clock, no unseeded
//!   randomness.
//! * `app` (wasm32 only): the Leptos page. It renders what the simulation says at the playhead
//!   and holds no cluster state of its own.
//! * `cli` (native only): the `nodeline` command-line face used by docs authors and tests.

pub mod embed;
pub mod i18n;
pub mod link;
pub mod playback;
pub mod quiz;
pub mod render;
pub mod story;
pub mod view;

/// The simulation is its own crate (`crates/sim`), so the compiler holds it to knowing no browser.
pub use nodeline_sim as sim;

#[cfg(target_arch = "wasm32")]
pub mod app;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
