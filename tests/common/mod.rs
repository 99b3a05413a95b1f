//! Helpers shared by the root integration tests: the simulation's test helpers (declared once, in
//! `crates/sim/tests/common/`).
#![allow(dead_code, unused_imports)]

#[path = "../../crates/sim/tests/common/mod.rs"]
mod sim;
pub(crate) use sim::*;

pub(crate) mod binary;
pub(crate) mod fake_apiserver;
