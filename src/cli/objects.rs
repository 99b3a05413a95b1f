//! `nodeline objects`: every object at one moment, as `kubectl get -o json|yaml` prints a List.

use crate::render;

use super::args::{Format, ObjectsArgs};
use super::{Output, end_of_millisecond};

/// Runs the chapter past `--at` and prints the Nodes, CSINodes, Leases, Pods and Events of that
/// moment (everything up to the end of that millisecond has happened).
pub(super) fn run(args: &ObjectsArgs) -> Output {
    let (timeline, warnings, _) = match args.sim.timeline_through(Some(args.at.0)) {
        Ok(run) => run,
        Err(out) => return out,
    };
    let list = render::list::snapshot_list(&timeline.at(end_of_millisecond(args.at.0)));
    let text = match args.output {
        Format::Json => render::json::to_string_pretty(&list),
        Format::Yaml => render::yaml::to_string(&list),
    };
    Output::ok(text, warnings)
}
