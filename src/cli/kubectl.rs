//! `nodeline kubectl`: what the page's kubectl panel shows for `kubectl ARGS...` at one moment.

use crate::render::kubectl::{Cluster, command};

use super::args::KubectlArgs;
use super::{Output, end_of_millisecond};

/// Runs the chapter past `--at` and answers the kubectl command for the cluster at the end of
/// that millisecond, with ages counted to the same instant.
pub(super) fn run(args: &KubectlArgs) -> Output {
    let (timeline, warnings) = args.sim.timeline_through(args.at.0);
    let t = end_of_millisecond(args.at.0);
    let snapshot = timeline.at(t);
    let cluster = Cluster::from_snapshot(&snapshot, snapshot.wall());
    let out = command::run(&args.args, &cluster);
    let mut stderr: String = warnings.into_iter().map(|w| format!("nodeline: warning: {w}\n")).collect();
    stderr.push_str(&out.stderr);
    Output { stdout: out.stdout, stderr, code: u8::try_from(out.code).unwrap_or(1) }
}
