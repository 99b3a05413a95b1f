//! The stage's view model: what the SVG stage draws at one instant, and where.
//!
//! Everything here is a plain function of the session, the playhead, the effective playback rate
//! and the reader's motion preference; the component in `app::stage` only renders the result.
//! Geometry is in the user units of a view box whose width is fixed per [`Layout`] (the SVG scales
//! to its container), so it can be tested natively.
//!
//! Requests are drawn as packets travelling along the arrow from their sender to the API server.
//! A packet is on screen for [`PACKET_REAL_SECS`] of *real* time, i.e. that many seconds times the
//! playback rate of simulated time: its position is a function of `playhead − request.t` and the
//! rate only, so scrubbing, pausing and replaying all agree. Requests sent together are staggered
//! by [`STAGGER_REAL_SECS`] (real time) so a burst reads as a sequence; at most [`MAX_PACKETS`] are
//! drawn (the oldest go first). A request that timed out (the network is cut) stops at the cut,
//! waits there for its client timeout, and then says so.
//!
//! Per frame the work is bounded: requests are found by binary search around the playhead
//! ([`Log::first_request_from`]), never by scanning the whole log.

mod geometry;
mod layout;
mod packets;
mod scene;
mod store;
mod svg;

#[cfg(test)]
mod fixtures;

pub use geometry::{Pt, Rect, Route};
pub use layout::Layout;
pub use packets::{
    MAX_PACKETS, PACKET_REAL_SECS, Packet, STAGGER_REAL_SECS, Timing, Tone, caption, packets, short_path,
};
pub use scene::{
    ActorBox, BudgetCard, Chip, ContainerList, ControlPlane, Health, LeaseCard, Line, MachineBox, NodeCard, PodRow,
    PodsToggle, RuntimeBox, Scene, Sender, StateChip, Store,
};
pub use svg::{
    control_plane_markup, leases_markup, lines_markup, machines_markup, packets_markup, scene_markup, store_markup,
};

use crate::i18n::Lang;
use crate::sim::SimTime;
use crate::view::session::Session;

/// The whole stage at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct StageModel {
    pub scene: Scene,
    pub packets: Vec<Packet>,
    /// The last request, for the caption under the stage.
    pub caption: String,
}

impl StageModel {
    /// The stage at `t`, playing at `rate` × real time.
    pub fn build(
        session: &Session,
        t: SimTime,
        rate: f64,
        reduced_motion: bool,
        layout: Layout,
        lang: Lang,
    ) -> StageModel {
        let timing = Timing::new(rate, reduced_motion);
        let scene = Scene::build(session, t, timing, layout, lang);
        let log = session.timeline.log();
        StageModel { packets: packets(log, t, timing, &scene, lang), caption: caption(log, t, timing, lang), scene }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::session;
    use super::*;
    use crate::sim::Chapter;

    #[test]
    fn the_model_is_built_from_a_real_timeline() {
        let t = SimTime::from_millis(1_000);
        let s = session(Chapter::Registration, "", t);
        let m = StageModel::build(&s, t, 1.0, false, Layout::Wide, Lang::En);
        // The registration burst at 420–451 ms: some packets are on their way.
        assert!(!m.packets.is_empty());
        assert!(m.caption.starts_with("Last request, from "), "{}", m.caption);
        // Same inputs, same model.
        assert_eq!(m, StageModel::build(&s, t, 1.0, false, Layout::Wide, Lang::En));
    }
}
