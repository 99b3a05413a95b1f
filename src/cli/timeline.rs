//! `nodeline timeline`: a chapter's requests and events as JSON Lines
//! (the format is described in [`crate::render::timeline`]).

use crate::render;

use super::args::TimelineArgs;
use super::{Output, end_of_millisecond};

/// Runs the chapter to `--until` (default: the chapter's length) and prints every request and
/// event up to it (inclusive, to the millisecond).
pub(super) fn run(args: &TimelineArgs) -> Output {
    let (timeline, warnings, until) = match args.sim.timeline_through(args.until.map(|a| a.0)) {
        Ok(run) => run,
        Err(out) => return out,
    };
    Output::ok(render::timeline::jsonl(timeline.log(), end_of_millisecond(until), timeline.config().epoch), warnings)
}
