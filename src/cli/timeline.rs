//! `nodeline timeline`: a chapter's requests and events as JSON Lines
//! (the format is described in [`crate::render::timeline`]).

use crate::render;

use super::args::TimelineArgs;
use super::{Output, end_of_millisecond};

/// Runs the chapter to `--until` (default: the chapter's length) and prints every request and
/// event up to it (inclusive, to the millisecond).
pub(super) fn run(args: &TimelineArgs) -> Output {
    let until = args.until.map(|a| a.0).unwrap_or_else(|| args.sim.chapter.scenario_for(args.sim.nodes).duration);
    let (timeline, warnings) = args.sim.timeline_through(until);
    Output::ok(render::timeline::jsonl(timeline.log(), end_of_millisecond(until), timeline.config().epoch), warnings)
}
