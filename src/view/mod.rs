//! View models: what the page shows, derived from the simulation by plain functions that are
//! tested natively. The Leptos components in `app` only render these.

pub mod account;
pub mod announce;
pub mod controls;
pub mod fleet;
pub mod fleet_index;
pub mod html;
pub mod inspector;
pub mod notice;
pub mod pages;
pub mod quiz;
pub mod session;
pub mod stage;
pub mod still;
pub mod stories;
pub mod told;
pub mod track;
pub mod zonechart;
