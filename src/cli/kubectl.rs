//! `nodeline kubectl`: what the page's kubectl panel shows for `kubectl ARGS...` at one moment.

use std::time::Duration;

use crate::render::kubectl::{Cluster, Output as KubectlOutput, change, command};
use crate::sim::SimTime;

use super::args::KubectlArgs;
use super::{Output, end_of_millisecond};

/// How long past `--at` a changing command (a drain) is followed before its transcript is cut.
const FOLLOW: Duration = Duration::from_secs(3600);

/// Runs the chapter past `--at` and answers the kubectl command for the cluster at the end of
/// that millisecond, with ages counted to the same instant. `cordon`, `uncordon`, `drain`, `taint`,
/// `delete node` and `delete pod` become the reader's action at `--at`, and print what kubectl
/// prints as the timeline runs on.
pub(super) fn run(args: &KubectlArgs) -> Output {
    let (mut timeline, warnings) = args.sim.timeline_through(args.at.0);
    let t = end_of_millisecond(args.at.0);
    let out = match change::parse(&args.args) {
        None => {
            let snapshot = timeline.at(t);
            command::run(&args.args, &Cluster::from_snapshot(&snapshot, snapshot.wall()))
        }
        Some(Err(out)) => out,
        Some(Ok(c)) if c.names_node() && timeline.at(t).node(&c.node).is_none() => c.missing_node(),
        Some(Ok(c)) => {
            let at = SimTime::from_micros(args.at.0.as_micros() as u64);
            match timeline.fork(c.action(at)) {
                Err(why) => KubectlOutput { stdout: String::new(), stderr: format!("nodeline: {why}\n"), code: 1 },
                Ok(()) => follow(&mut timeline, at, c.kind),
            }
        }
    };
    let mut stderr: String = warnings.into_iter().map(|w| format!("nodeline: warning: {w}\n")).collect();
    stderr.push_str(&out.stderr);
    Output { stdout: out.stdout, stderr, code: u8::try_from(out.code).unwrap_or(1) }
}

/// Runs the timeline on from `at` until the command's transcript ends (or an hour has passed).
fn follow(timeline: &mut crate::sim::Timeline, at: SimTime, kind: crate::sim::ActionKind) -> KubectlOutput {
    let mut until = at;
    loop {
        until = until + Duration::from_secs(30);
        timeline.run_until(until);
        let (lines, ended) = change::transcript(timeline.log(), at, kind);
        if ended || until >= at + FOLLOW {
            return change::output(&lines);
        }
    }
}
