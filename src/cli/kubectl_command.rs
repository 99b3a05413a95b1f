//! `nodeline kubectl`: what the page's kubectl panel shows for `kubectl ARGS...` at one moment.

use crate::render::kubectl_printer::entry;
use crate::sim::SimTime;

use super::args::KubectlArgs;
use super::{Output, end_of_millisecond};

/// Runs the chapter past `--at` and answers the kubectl command for the cluster at the end of
/// that millisecond, with ages counted to the same instant. `cordon`, `uncordon`, `drain`, `taint`,
/// `delete node` and `delete pod` become the reader's action at `--at`, and print what kubectl
/// prints as the timeline runs on.
pub(super) fn run(args: &KubectlArgs) -> Output {
    let (mut timeline, warnings, _) = match args.sim.timeline_through(Some(args.at.0)) {
        Ok(run) => run,
        Err(out) => return out,
    };
    let t = end_of_millisecond(args.at.0);
    let at = SimTime::from_micros(args.at.0.as_micros() as u64);
    let (out, note) = entry::run_to_end_noted(&mut timeline, &args.args, at, t);
    let mut stderr: String = warnings.into_iter().map(|w| format!("nodeline: warning: {w}\n")).collect();
    stderr.push_str(&out.stderr);
    // nodeline's own note, after what kubectl printed (its exit status stays kubectl's).
    if let Some(note) = note {
        use crate::i18n::Key;
        use crate::render::kubectl_printer::logs::Note;
        let key = match note {
            Note::NoContainerOutput => Key::KubectlNoContainerOutput,
            Note::NoCommandRun => Key::KubectlNoCommandRun,
        };
        stderr.push_str(crate::i18n::Lang::En.text(key));
        stderr.push('\n');
    }
    Output { stdout: out.stdout, stderr, code: u8::try_from(out.code).unwrap_or(1) }
}
