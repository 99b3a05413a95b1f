//! The one way in: a kubectl command line, classified as a read (answered from the objects at
//! one instant), a change (the reader's action, whose output is read back from the log as the
//! timeline runs on) or kubectl's own error, then run. The page's kubectl panel, `nodeline
//! kubectl` and the tests all go through [`CommandLine`].

use std::time::Duration;

use super::change::{self, Change};
use super::command;
use super::logs::Note;
use super::{Cluster, Output};
use crate::sim::{ActionKind, Log, SimTime, Snapshot, Timeline};

/// How long past its instant a change is followed, at most, before its transcript is cut.
pub const FOLLOW: Duration = Duration::from_secs(3600);

/// How far the timeline runs on at a time while a change is followed.
const FOLLOW_STEP: Duration = Duration::from_secs(30);

/// A kubectl command line, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLine {
    /// A command answered from the objects at one instant: `get`, `describe`, and every command
    /// nodeline does not simulate (answered with kubectl's error, or nodeline's own).
    Read(Vec<String>),
    /// A command that changes the cluster (`cordon`, `uncordon`, `drain`, `taint`, `delete node`,
    /// `delete pod`): the reader's action.
    Change(Change),
    /// kubectl's own error, before anything is read or sent: a line a shell cannot split, a bad
    /// flag or argument of a change, a Node the cluster does not have.
    Error(Output),
}

impl CommandLine {
    /// Classifies kubectl's arguments (without the program name) for the cluster at the
    /// snapshot's instant.
    pub fn parse(args: &[String], snapshot: &Snapshot<'_>) -> CommandLine {
        match change::parse(args) {
            None => CommandLine::Read(args.to_vec()),
            Some(Err(out)) => CommandLine::Error(out),
            // A Pod that is not there is the API server's to refuse.
            Some(Ok(c)) if c.names_node() && snapshot.node(&c.node).is_none() => CommandLine::Error(c.missing_node()),
            Some(Ok(c)) => CommandLine::Change(c),
        }
    }

    /// Classifies a typed line (`kubectl get nodes -o wide`; the leading `kubectl` is optional),
    /// split into words as a shell splits it.
    pub fn parse_typed(line: &str, snapshot: &Snapshot<'_>) -> CommandLine {
        match command::split_line(line) {
            Ok(words) => CommandLine::parse(&words, snapshot),
            Err(e) => CommandLine::Error(command::fail(format!("error: {e}"))),
        }
    }

    /// Runs the command at `at`. A change is handed to `act`, which adds its action (built with
    /// [`Change::action`]) to the timeline, or refuses it with what to print instead; what a
    /// command prints is then read from [`Ran`].
    pub fn run(self, at: SimTime, act: impl FnOnce(&Change) -> Result<(), Output>) -> Ran {
        match self {
            CommandLine::Read(args) => Ran::Read(args),
            CommandLine::Error(out) => Ran::Printed(out),
            CommandLine::Change(c) => match act(&c) {
                Ok(()) => Ran::Acted { at, kind: c.kind },
                Err(out) => Ran::Printed(out),
            },
        }
    }
}

/// A command once run: what the panel keeps while the playhead moves, and what the command line
/// prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// A read, answered for whichever instant is shown (as `watch kubectl` would).
    Read(Vec<String>),
    /// A change that became the reader's action at `at`: what kubectl printed is in the log.
    Acted { at: SimTime, kind: ActionKind },
    /// What kubectl printed at once: its own error, or why the action was refused.
    Printed(Output),
}

impl Ran {
    /// What the command has printed by the snapshot's instant (`log` is the snapshot's): a read
    /// answered for the cluster then, ages counted to it; a change's lines printed by then.
    pub fn output(&self, log: &Log, snapshot: &Snapshot<'_>) -> Output {
        match self {
            Ran::Read(args) => command::run(args, &Cluster::from_snapshot(snapshot, snapshot.wall())),
            Ran::Printed(out) => out.clone(),
            Ran::Acted { at, kind } => {
                let (mut lines, _) = change::transcript(log, *at, *kind);
                lines.retain(|l| l.t <= snapshot.time());
                change::output(&lines)
            }
        }
    }

    /// nodeline's note after a `logs` or `exec` a real kubelet would have answered with output
    /// (`log` is the timeline's, run past the command's instant): not kubectl's, shown apart.
    pub fn note(&self, log: &Log) -> Option<Note> {
        match self {
            Ran::Acted { at, kind } => super::logs::note(log, *at, *kind),
            _ => None,
        }
    }

    /// Everything the command prints: a read answered for the cluster at `t`; a change followed
    /// as `timeline` runs on from its instant until kubectl exits (at most [`FOLLOW`] later).
    pub fn output_to_end(&self, timeline: &mut Timeline, t: SimTime) -> Output {
        let &Ran::Acted { at, kind } = self else {
            return self.output(timeline.log(), &timeline.at(t));
        };
        let mut until = at;
        loop {
            until = until + FOLLOW_STEP;
            timeline.run_until(until);
            let (lines, ended) = change::transcript(timeline.log(), at, kind);
            if ended || until >= at + FOLLOW {
                return change::output(&lines);
            }
        }
    }
}

/// `nodeline kubectl`'s way, and the tests': classifies `args` for the cluster at `t`, runs a
/// change at `at` on `timeline` (a refusal printed as nodeline's error), and returns everything
/// the command prints, a change followed to its end.
pub fn run_to_end(timeline: &mut Timeline, args: &[String], at: SimTime, t: SimTime) -> Output {
    run_to_end_noted(timeline, args, at, t).0
}

/// [`run_to_end`], with nodeline's note after a `logs` or `exec` ([`Ran::note`]).
pub fn run_to_end_noted(timeline: &mut Timeline, args: &[String], at: SimTime, t: SimTime) -> (Output, Option<Note>) {
    let ran = CommandLine::parse(args, &timeline.at(t))
        .run(at, |c| timeline.fork(c.action(at)).map_err(|why| command::fail(format!("nodeline: {why}"))));
    let out = ran.output_to_end(timeline, t);
    (out, ran.note(timeline.log()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Action, Chapter, Config};

    /// Runs `line` at `at` on `tl`, forking it for a change.
    fn run_at(tl: &mut Timeline, line: &str, at: SimTime) -> Ran {
        let command = CommandLine::parse_typed(line, &tl.at(at));
        command.run(at, |c| {
            tl.fork(c.action(at)).expect("accepted");
            Ok(())
        })
    }

    #[test]
    fn lines_are_reads_changes_or_kubectls_errors() {
        let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
        let at = SimTime::from_secs(100);
        tl.run_until(at);
        let snap = tl.at(at);
        let words = |line: &str| line.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(CommandLine::parse_typed("kubectl get nodes", &snap), CommandLine::Read(words("get nodes")));
        assert_eq!(CommandLine::parse_typed("gett nodes", &snap), CommandLine::Read(words("gett nodes")));
        let CommandLine::Change(c) = CommandLine::parse_typed("kubectl cordon node-2", &snap) else {
            panic!("a change")
        };
        assert_eq!((c.kind, c.node.as_str()), (ActionKind::Cordon, "node-2"));
        let error = |line: &str| match CommandLine::parse_typed(line, &snap) {
            CommandLine::Error(out) => out.stderr,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(error("kubectl cordon node-9"), "Error from server (NotFound): nodes \"node-9\" not found\n");
        assert!(error("drain").starts_with("error: USAGE: drain NODE [flags]"));
        assert_eq!(error("get 'nodes"), "error: unexpected end of line: a ' quote is not closed\n");
        // A read is answered for whichever instant is shown; an error stays as it was printed.
        let ran = CommandLine::parse_typed("get nodes", &snap).run(at, |_| unreachable!("a read acts on nothing"));
        assert!(ran.output(tl.log(), &snap).stdout.contains("node-1   Ready"));
        let refused = CommandLine::parse_typed("uncordon node-1", &snap)
            .run(at, |c| Err(change::no_such_node(&format!("{}-refused", c.node))));
        assert_eq!(
            refused.output(tl.log(), &snap).stderr,
            "Error from server (NotFound): nodes \"node-1-refused\" not found\n"
        );
    }

    #[test]
    fn a_drain_typed_at_the_playhead_prints_as_time_plays() {
        let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
        let at = SimTime::from_secs(100);
        tl.run_until(at);
        let ran = run_at(&mut tl, "kubectl drain node-1 --ignore-daemonsets", at);
        assert!(matches!(ran, Ran::Acted { kind: ActionKind::Drain(_), .. }), "{ran:?}");
        tl.run_until(SimTime::from_secs(200));
        let now = ran.output(tl.log(), &tl.at(at));
        assert!(now.stdout.starts_with("node/node-1 already cordoned\nevicting pod default/web-"), "{}", now.stdout);
        assert!(now.stderr.contains("(will retry after 5s)"), "{}", now.stderr);
        assert!(!now.stdout.contains("drained"));
        let later = ran.output(tl.log(), &tl.at(SimTime::from_secs(200)));
        assert!(later.stdout.ends_with("node/node-1 drained\n"), "{}", later.stdout);
        assert_eq!(ran.output_to_end(&mut tl, at), later, "followed to its end");
    }

    #[test]
    fn two_commands_at_one_instant_print_apart() {
        let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
        let at = SimTime::from_secs(100);
        tl.run_until(at);
        let name = tl.at(at).pods().iter().find(|p| p.metadata.name.starts_with("web-")).unwrap().metadata.name.clone();
        run_at(&mut tl, &format!("kubectl delete pod {name}"), at);
        let ran = run_at(&mut tl, "kubectl delete pod web-nosuch", at);
        tl.run_until(SimTime::from_secs(110));
        let out = ran.output(tl.log(), &tl.at(at));
        assert_eq!(
            (out.stdout.as_str(), out.stderr.as_str()),
            ("", "Error from server (NotFound): pods \"web-nosuch\" not found\n")
        );
        assert!(tl.actions().iter().all(|a: &Action| a.at == at));
    }
}
