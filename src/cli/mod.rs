//! The `nodeline` command line: the simulation's output as text, for docs authors and tests.
//!
//! ```text
//! nodeline timeline --chapter CHAPTER [--actions LIST] [--until DURATION] [--k8s 1.34|1.31] [--seed N]
//! nodeline objects  --chapter CHAPTER [--actions LIST] --at DURATION [-o json|yaml] [--k8s ..] [--seed N]
//! nodeline kubectl  --chapter CHAPTER [--actions LIST] --at DURATION [--k8s ..] [--seed N] -- ARGS...
//! nodeline quiz     --chapter CHAPTER [--actions LIST] [--k8s ..] [--lang en|ja] [-o text|json]
//! ```
//!
//! Each also takes `--set COMPONENT:NAME=VALUE` (repeatable): a Kubernetes setting from the
//! simulation's table (`sim::settings`).
//!
//! Everything is computed by [`run`], which takes the arguments and returns what to print and
//! the exit status without touching the process, so tests can call it in-process; [`main`] only
//! does the I/O. Exit status: 0 on success, 2 for bad arguments (with one line on stderr naming
//! the bad value and what is accepted), 1 when the output cannot be written, or when the
//! simulated kubectl fails (as kubectl exits 1).
//!
//! Adding a subcommand: a variant in [`args::Command`] built from [`args::SimArgs`] (and
//! [`args::At`] for a moment), a module with its `run`, and a line in [`run`]'s dispatch.

pub mod args;
mod kubectl_command;
mod objects;
mod quiz;
mod story;
mod timeline;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};

use crate::sim::settings::Settings;
use crate::sim::{Action, Config, Scenario, SimTime, Timeline};

use args::{Cli, Command, SimArgs};

/// Exit status for bad arguments.
pub const EXIT_USAGE: u8 = 2;
/// Exit status when the output cannot be written.
pub const EXIT_FAILURE: u8 = 1;

/// What one invocation prints, and how it exits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

impl Output {
    fn ok(stdout: String, warnings: Vec<String>) -> Output {
        let stderr = warnings.into_iter().map(|w| format!("nodeline: warning: {w}\n")).collect();
        Output { stdout, stderr, code: 0 }
    }

    fn usage(message: &str) -> Output {
        Output { stdout: String::new(), stderr: format!("{message}\n"), code: EXIT_USAGE }
    }
}

/// Runs the command line with the process's arguments and does the I/O.
pub fn main() -> ExitCode {
    let out = run(std::env::args_os());
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(out.stderr.as_bytes());
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(out.stdout.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::from(out.code),
        // The reader went away (`nodeline timeline ... | head`): nothing more to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(out.code),
        Err(e) => {
            let _ = writeln!(stderr, "nodeline: error: cannot write the output: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Runs the command line on `args` (the first one is the program name) and returns what to
/// print. Never panics on any input.
pub fn run<I, T>(args: I) -> Output
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return from_clap_error(&e, &args),
    };
    let sim = match &cli.command {
        Command::Timeline(a) => Some(("timeline", &a.sim)),
        Command::Objects(a) => Some(("objects", &a.sim)),
        Command::Kubectl(a) => Some(("kubectl", &a.sim)),
        Command::Quiz(a) => Some(("quiz", &a.sim)),
        Command::Story(_) => None,
    };
    // Each --set was checked as it was read; what only the settings together can break (the
    // kubelet's shutdown pair) is checked here (and again over a story's own settings).
    if let Some((name, sim)) = sim
        && let Err(e) = sim.settings()
    {
        return Output::usage(&format!("error: invalid value for '--set': {e} (see 'nodeline {name} --help')"));
    }
    match cli.command {
        Command::Timeline(a) => timeline::run(&a),
        Command::Objects(a) => objects::run(&a),
        Command::Kubectl(a) => kubectl_command::run(&a),
        Command::Quiz(a) => quiz::run(&a),
        Command::Story(c) => story::run(&c),
    }
}

impl SimArgs {
    /// What to run: the chapter's scenario, or the story file's (a fleet at `--nodes`),
    /// with the configuration: `--k8s` over the story's version, `--set` over the story's
    /// settings, the seed, the default epoch. A story file that cannot be read or has problems
    /// gives its report, status 2; settings that do not go together, one line, status 2.
    pub fn scenario(&self) -> Result<(Scenario, Config), Output> {
        let (scenario, profile, mut settings) = match (&self.story, self.chapter) {
            (Some(path), _) => {
                let story = story::read(path)?;
                let scenario = match self.nodes {
                    Some(n) => story.scenario.resized(n),
                    None => story.scenario,
                };
                (scenario, self.k8s.unwrap_or(story.config.profile), story.config.settings)
            }
            (None, Some(chapter)) => {
                (chapter.scenario_for(self.fleet_size()), self.k8s.unwrap_or_default(), Settings::default())
            }
            (None, None) => return Err(Output::usage("error: give --chapter or --story")),
        };
        let set = self.set.iter().try_for_each(|s| settings.set(&s.component, &s.name, &s.value));
        if let Err(e) = set.and_then(|()| settings.check()) {
            return Err(Output::usage(&format!("error: invalid value for '--set': {e}")));
        }
        let nodes = self.fleet_size();
        Ok((scenario, Config { profile, seed: self.seed, nodes, settings, ..Config::default() }))
    }

    /// The fleet chapter's size: `--nodes`, else its default.
    fn fleet_size(&self) -> usize {
        self.nodes.unwrap_or(crate::sim::DEFAULT_FLEET)
    }

    /// The reader's actions, in time order.
    pub fn actions(&self) -> &[Action] {
        self.actions.as_ref().map(|a| a.0.as_slice()).unwrap_or(&[])
    }

    /// The timeline, computed far enough that everything up to the end of the millisecond `t`
    /// falls in is final, and a warning for each of the reader's actions up to then that the
    /// simulation ignored (an action that makes no sense at its moment, such as starting a
    /// running kubelet). `t` is the story's length when `None`.
    pub fn timeline_through(&self, t: Option<Duration>) -> Result<(Timeline, Vec<String>, Duration), Output> {
        let (scenario, config) = self.scenario()?;
        // Only a fleet's size can be set.
        let ignored_nodes = self.nodes.filter(|_| !scenario.fleet).map(|n| {
            let what = match (&self.story, self.chapter) {
                (Some(path), _) => format!("story {}", path.display()),
                (None, Some(chapter)) => format!("chapter {}", chapter.id()),
                (None, None) => String::new(),
            };
            format!("--nodes {n} was ignored: {what} is not a fleet (its machines are as written)")
        });
        let t = t.unwrap_or(scenario.duration);
        let mut timeline = Timeline::from_scenario(scenario, config, self.actions());
        let end = end_of_millisecond(t);
        timeline.run_until(end + Duration::from_micros(1));
        let warnings = ignored_nodes
            .into_iter()
            .chain(
                timeline
                    .log()
                    .inputs
                    .iter()
                    .filter(|i| !i.scripted && i.t <= end)
                    .filter_map(|i| i.rejected.as_ref().map(|why| format!("{} was ignored: {why}", i.action))),
            )
            .collect();
        Ok((timeline, warnings, t))
    }
}

/// The last instant of the millisecond `t` falls in. Times on the command line are inclusive
/// at the precision the timeline prints (`t_ms`): `--until 2m51.052s` includes an event at
/// 2m51.052743s, and `--at 2m51.052s` shows its effect.
pub fn end_of_millisecond(t: Duration) -> SimTime {
    SimTime::from_micros((t.as_micros() as u64 / 1000) * 1000 + 999)
}

/// Turns a clap error into its output: help and version go to stdout with status 0; anything
/// else becomes one line on stderr with status 2.
fn from_clap_error(e: &clap::Error, args: &[OsString]) -> Output {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            Output { stdout: e.to_string(), stderr: String::new(), code: 0 }
        }
        _ => Output::usage(&usage_error(e, args)),
    }
}

/// One line describing a clap error: the bad value and what is accepted.
fn usage_error(e: &clap::Error, args: &[OsString]) -> String {
    let cmd = Cli::command();
    let sub = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| !a.starts_with('-'))
        .and_then(|name| cmd.find_subcommand(name));
    let subcommands = || cmd.get_subcommands().map(|s| s.get_name().to_string()).collect::<Vec<_>>().join(", ");
    let help = match sub {
        Some(s) => format!("nodeline {} --help", s.get_name()),
        None => "nodeline --help".to_string(),
    };
    let first_line = e.to_string().lines().next().unwrap_or("error: invalid arguments").trim_end().to_string();
    let context = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => Vec::new(),
    };
    let message = match e.kind() {
        ErrorKind::UnknownArgument => {
            let flags: Vec<String> = match sub {
                Some(s) => s
                    .get_arguments()
                    .filter_map(|a| {
                        let long = a.get_long().map(|l| format!("--{l}"));
                        match a.get_short() {
                            Some(short) => Some(format!("-{short}/{}", long.unwrap_or_default())),
                            None => long,
                        }
                    })
                    .chain(["--help".to_string()])
                    .collect(),
                None => vec!["--help".into(), "--version".into(), format!("a subcommand ({})", subcommands())],
            };
            format!("{first_line}; accepted: {}", flags.join(", "))
        }
        ErrorKind::InvalidSubcommand => format!("{first_line}; accepted: {}", subcommands()),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            format!("error: missing subcommand; accepted: {}", subcommands())
        }
        ErrorKind::MissingRequiredArgument => {
            format!("error: missing required argument: {}", context(ContextKind::InvalidArg).join(", "))
        }
        _ => first_line,
    };
    format!("{message} (see '{help}')")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(args: &[&str]) -> Output {
        run(std::iter::once("nodeline").chain(args.iter().copied()))
    }

    #[test]
    fn bad_arguments_give_one_line_and_status_2() {
        for args in [
            &["timeline", "--chapter", "nope"][..],
            &["timeline"],
            &[],
            &["frobnicate"],
            &["timeline", "--chapter", "registration", "--bogus"],
            &["objects", "--chapter", "registration"],
            &["objects", "--chapter", "registration", "--at", "25h"],
            &["timeline", "--chapter", "registration", "--set", "kube-controller-manager:node-monitor-grace-perod=20s"],
            &["timeline", "--chapter", "registration", "--set", "kubelet:nodeStatusUpdateFrequency=abc"],
            &["timeline", "--chapter", "registration", "--set", "kube-proxy:x=1"],
            &["timeline", "--chapter", "registration", "--set", "node-monitor-grace-period=20s"],
            &["quiz", "--chapter", "registration", "--set", "kubelet:shutdownGracePeriodCriticalPods=30s"],
        ] {
            let out = run_args(args);
            assert_eq!(out.code, EXIT_USAGE, "{args:?}: {out:?}");
            assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
            assert!(out.stdout.is_empty());
        }
    }

    /// `--set` names a setting as Kubernetes does; a wrong one is refused by name, with the
    /// closest known name, and a value with what was expected; a pair the kubelet would refuse,
    /// with the kubelet's words.
    #[test]
    fn set_is_checked_against_the_table() {
        let err = |args: &[&str]| run_args(&[&["timeline", "--chapter", "node-failure"][..], args].concat()).stderr;
        assert_eq!(
            err(&["--set", "kube-controller-manager:node-monitor-grace-perod=20s"]),
            "error: invalid value 'kube-controller-manager:node-monitor-grace-perod=20s' for '--set \
             <COMPONENT:NAME=VALUE>': kube-controller-manager has no flag \"node-monitor-grace-perod\" that the \
             simulation models (did you mean \"node-monitor-grace-period\"?) (see 'nodeline timeline --help')\n"
        );
        assert!(
            err(&["--set", "kube-controller-manager:large-cluster-size-threshold=1.5"])
                .contains("large-cluster-size-threshold: expected a whole number such as 30, 0 or more, not \"1.5\"")
        );
        assert_eq!(
            err(&["--set", "kubelet:shutdownGracePeriod=10s", "--set", "kubelet:shutdownGracePeriodCriticalPods=30s"]),
            "error: invalid value for '--set': invalid configuration: shutdownGracePeriodCriticalPods 30s must be <= \
             shutdownGracePeriod 10s (see 'nodeline timeline --help')\n"
        );
        // Set together the other way round, the pair is fine.
        let out = run_args(&[
            "timeline",
            "--chapter",
            "registration",
            "--until",
            "1s",
            "--set",
            "kubelet:shutdownGracePeriodCriticalPods=10s",
            "--set",
            "kubelet:shutdownGracePeriod=30s",
        ]);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    }
}
