//! The command line's grammar (clap) and the parsers for its values.
//!
//! Every value parser returns a one-line message that names what is accepted, so that a bad
//! argument always ends in a single line on stderr (see `super::usage_error`).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::i18n::Lang;
use crate::sim::{
    ACTIONS, Action, Chapter, Component, DEFAULT_FLEET, DEFAULT_SEED, Flags, MAX_FLEET, MIN_FLEET, Profile, SETTINGS,
    SettingError, Settings, Target, format_go_duration, parse_actions, parse_go_duration,
};

/// The longest simulated time the command line runs (`--until`, `--at`).
pub const MAX_TIME: Duration = crate::story::MAX_DURATION;

/// How wide the help's lists are wrapped.
const HELP_WIDTH: usize = 100;

/// The notation every subcommand's help ends with: the chapters and the actions, from the
/// simulation's lists of them (the registry of actions).
pub fn notation_help() -> String {
    const INDENT: &str = "            ";
    let chapters: Vec<&str> = Chapter::ALL.iter().map(|c| c.id()).collect();
    let (last, rest) = chapters.split_last().expect("chapters");
    let mut out = format!(
        "Notation:\n  CHAPTER   {} or {last}\n  DURATION  Go notation: 1500ms, 90s, 2m30s, 1h (from the start of the \
         chapter, at most 24h)\n  LIST      ACTION[:TARGET]@DURATION, comma-separated: \
         kill-kubelet@2m,start-kubelet:node-1@9m30s\n  ACTION    by the TARGET it takes:\n",
        rest.join(", ")
    );
    // The targets in the order the registry first names them.
    let mut targets: Vec<Target> = Vec::new();
    for s in &ACTIONS {
        if !targets.contains(&s.target) {
            targets.push(s.target);
        }
    }
    for target in targets {
        let names: Vec<String> =
            ACTIONS.iter().filter(|s| s.target == target).map(|s| format!("{}{}", s.name, s.flags.syntax())).collect();
        let head = match target {
            Target::None => format!("{INDENT}no TARGET: "),
            _ => format!("{INDENT}{}, {}: ", target.placeholder(), target.about()),
        };
        wrap(&mut out, &head, &names, &format!("{INDENT}  "));
    }
    out.push_str("  FLAG      ");
    let mut first = true;
    for s in ACTIONS.iter().filter(|s| !matches!(s.flags, Flags::None | Flags::Budget | Flags::Overwrite)) {
        let head = format!("{}{}: ", if first { "" } else { INDENT }, s.name);
        let known: Vec<String> = s.flags.known().split(", ").map(String::from).collect();
        wrap(&mut out, &head, &known, &format!("{INDENT}  "));
        first = false;
    }
    out.push_str(
        "  SETTING   COMPONENT:NAME=VALUE (--set), as Kubernetes names it: a flag, or a KubeletConfiguration\n",
    );
    out.push_str("            field; VALUE a DURATION, a number or a whole number. Each is the --k8s release's\n");
    out.push_str("            default unless set; the kubelet's shutdown periods, set, are every machine's instead\n");
    // The defaults shown are the default release's; the others' differences follow.
    let (shown, mut others) = (Profile::default(), Vec::new());
    for p in Profile::ALL.into_iter().filter(|p| *p != shown) {
        let differ: Vec<String> = SETTINGS
            .iter()
            .filter(|r| r.default(p) != r.default(shown))
            .map(|r| format!("{}={}", r.name, r.default(p)))
            .collect();
        others.push(format!("{p}: {}", differ.join(", ")));
    }
    out.push_str(&format!("            of the chapter's. Defaults ({shown}; {}):\n", others.join("; ")));
    for component in Component::ALL {
        let names: Vec<String> = SETTINGS
            .iter()
            .filter(|r| r.component == component)
            .map(|r| format!("{}={}", r.name, r.default(Profile::default())))
            .collect();
        wrap(&mut out, &format!("{INDENT}{component}: "), &names, &format!("{INDENT}  "));
    }
    out.push_str("\nThe same arguments always print the same bytes. Bad arguments exit with status 2.");
    out
}

/// Writes `head` and `items`, comma-separated, wrapped at [`HELP_WIDTH`] with `indent`.
fn wrap(out: &mut String, head: &str, items: &[String], indent: &str) {
    let mut line = head.to_string();
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        if line.len() + item.len() + sep.len() > HELP_WIDTH && !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
        }
        line.push_str(item);
        line.push_str(sep);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The whole command line.
#[derive(Debug, Parser)]
#[command(
    name = "nodeline",
    version,
    about = "The Kubernetes node lifecycle, simulated: what the kubelet, the API server and the \
             controllers do when a machine joins, fails and comes back.",
    long_about = None,
    after_help = notation_help(),
    subcommand_required = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

const TIMELINE_HELP: &str = "\
Output: one JSON object per line, in log order, keys in this order:
  request  t_ms, seq, kind (\"request\"), actor, method, path, query (only if any), code (null when no
           answer came before the client's timeout), error (only when code is null), summary
  event    t_ms, seq, kind (\"event\"), reason, type, message, object (Kind/name or Kind/namespace/name),
           source, count
  log      t_ms, seq, kind (\"log\"), component, severity (info|warning|error), line (as klog prints it;
           kubectl's output as kubectl prints it)
t_ms is whole milliseconds since the start of the chapter; --until includes that millisecond.";

const OBJECTS_HELP: &str = "\
Output: a List (apiVersion v1, kind List, metadata.resourceVersion \"\") of every Node, CSINode, Lease,
Pod and Event at the end of the millisecond given by --at, printed exactly as kubectl get -o json|yaml prints.";

const KUBECTL_HELP: &str = "\
Output: exactly what the page's kubectl panel shows for `kubectl ARGS...` at the end of the
millisecond given by --at: kubectl's own output on stdout, its errors on stderr, its exit status
(0, or 1 when kubectl would fail). Ages are counted to that moment; times print in UTC.
Answered: get nodes|pods|leases|events|csinodes|pdb|ds|sts|pvc|pv|volumeattachments|csr|secrets
[NAME...] [-n NS|-A] [-o wide|yaml|json|name] [--no-headers] [--show-kind] [--ignore-not-found],
describe node|pod|csinode|pdb|sts|pvc|pv|volumeattachment|csr [NAME] [--show-events=false], and
the commands that change the cluster (cordon, uncordon, drain, taint, delete node, delete pod,
certificate approve|deny, delete secret bootstrap-token-07401b -n kube-system, delete
clusterrolebinding kubeadm:node-autoapprove-bootstrap), and logs POD [-c CONTAINER] and exec POD
[-c CONTAINER] -- CMD (the API server's and kubelet's answers; where a real kubelet would answer
with output, nodeline says on stderr that it simulates none, with status 0).
Example: nodeline kubectl --chapter node-failure --at 3m -- describe node node-1";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a chapter's API requests and Kubernetes Events as JSON Lines, in order.
    #[command(after_help = format!("{TIMELINE_HELP}\n\n{}", notation_help()))]
    Timeline(TimelineArgs),
    /// Print every Node, CSINode, Lease, Pod and Event at one moment as a kubectl-style List.
    #[command(after_help = format!("{OBJECTS_HELP}\n\n{}", notation_help()))]
    Objects(ObjectsArgs),
    /// Print what kubectl prints for the cluster at one moment (`-- get nodes -o wide`).
    #[command(after_help = format!("{KUBECTL_HELP}\n\n{}", notation_help()))]
    Kubectl(KubectlArgs),
    /// Print a chapter's questions (the page's question mode) with their answers, for paper.
    #[command(after_help = format!("{QUIZ_HELP}\n\n{}", notation_help()))]
    Quiz(QuizArgs),
    /// Check story files, or print their JSON Schema.
    #[command(subcommand, after_help = STORY_HELP)]
    Story(StoryCommand),
}

const STORY_HELP: &str = "\
A story is a chapter written as a YAML file (stories/ID.yaml): its cluster, its settings, what
happens (actions in the link notation), its steps and their words. docs/stories.md describes every
key; stories/story.schema.json is its JSON Schema. Run one with --story PATH wherever --chapter is
taken.";

/// `nodeline story`.
#[derive(Debug, Subcommand)]
pub enum StoryCommand {
    /// Check story files: every problem with its file, line and column (exit status 2 if any).
    Check {
        /// The story files
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
    },
    /// Check story files and write each in the form the page reads (ID.story), for a site's stories/ folder.
    Build {
        /// The story files
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
        /// The folder to write into [default: each file's own folder]
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Print the JSON Schema of story files (as stories/story.schema.json holds it).
    Schema,
    /// Print a chapter as a story file: a start for a story of your own.
    Export {
        /// The chapter
        #[arg(value_name = "CHAPTER", value_parser = parse_chapter)]
        chapter: Chapter,
        /// How many nodes the fleet chapter (zone-outage) runs: 3 to 1000
        #[arg(long, value_name = "N", value_parser = parse_nodes, default_value_t = DEFAULT_FLEET, allow_hyphen_values = true)]
        nodes: usize,
        /// Kubernetes version of the simulated cluster: 1.34 or 1.31
        #[arg(long = "k8s", value_name = "VERSION", value_parser = parse_profile, default_value = "1.34")]
        k8s: Profile,
    },
}

const QUIZ_HELP: &str = "\
Output: the chapter's questions as the page asks them in question mode (&quiz=1): where the story
stops (time and step), the question, its options, the answer and why, each answer computed from the
simulated timeline. -o text (default) for reading and printing; -o json for reuse:
{chapter, k8s, lang, questions: [{id, kind (choice|order|time|node), stop_ms, step, link, prompt,
options, answer, why}]}; answer is the right option's value, the options' values in the order they
happen, {seconds, tolerance}, or a node's name. Questions whose moment the --actions took out of the
story are left out.";

/// `nodeline quiz`.
#[derive(Debug, Args)]
pub struct QuizArgs {
    #[command(flatten)]
    pub sim: SimArgs,
    /// The language of the questions: en or ja
    #[arg(long, value_name = "LANG", value_parser = parse_lang, default_value = "en")]
    pub lang: Lang,
    /// Output format: text or json
    #[arg(short = 'o', long = "output", value_name = "FORMAT", value_parser = parse_quiz_format, default_value = "text")]
    pub output: QuizFormat,
}

/// `nodeline quiz -o`: text for people, JSON for programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuizFormat {
    Text,
    Json,
}

/// What to simulate: shared by every subcommand.
#[derive(Debug, Args)]
pub struct SimArgs {
    /// The chapter to run
    #[arg(long, value_name = "CHAPTER", value_parser = parse_chapter, required_unless_present = "story", conflicts_with = "story")]
    pub chapter: Option<Chapter>,
    /// A story file to run instead of a chapter (see `nodeline story --help`)
    #[arg(long, value_name = "PATH")]
    pub story: Option<PathBuf>,
    /// Your actions (the chapter's own script stops at the first of them)
    #[arg(long, value_name = "LIST", value_parser = parse_action_list)]
    pub actions: Option<ActionList>,
    /// Kubernetes version of the simulated cluster: 1.34 or 1.31 [default: the story's, else 1.34]
    #[arg(long = "k8s", value_name = "VERSION", value_parser = parse_profile)]
    pub k8s: Option<Profile>,
    /// Seed for jitter, uids and generated names
    #[arg(long, value_name = "N", value_parser = parse_seed, default_value_t = DEFAULT_SEED, allow_hyphen_values = true)]
    pub seed: u64,
    /// How many nodes a fleet runs, spread evenly over three zones: 3 to 1000 [default: 150 in the
    /// fleet chapter (zone-outage), a story's fleet as its file writes]
    #[arg(long, value_name = "N", value_parser = parse_nodes, allow_hyphen_values = true)]
    pub nodes: Option<usize>,
    /// A Kubernetes setting as Kubernetes names it; repeatable (see SETTING)
    #[arg(long = "set", value_name = "COMPONENT:NAME=VALUE", value_parser = parse_setting, action = clap::ArgAction::Append)]
    pub set: Vec<SettingArg>,
}

/// One `--set COMPONENT:NAME=VALUE`, checked against the table of settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingArg {
    pub component: String,
    pub name: String,
    pub value: String,
}

impl SimArgs {
    /// The settings `--set` gives, checked together (the kubelet's shutdown pair), over the
    /// profile's defaults.
    pub fn settings(&self) -> Result<Settings, SettingError> {
        let mut settings = Settings::defaults(self.k8s.unwrap_or_default());
        for s in &self.set {
            settings.set(&s.component, &s.name, &s.value)?;
        }
        settings.check()?;
        Ok(settings)
    }
}

/// `nodeline timeline`.
#[derive(Debug, Args)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub sim: SimArgs,
    /// Print what happens up to and including this time [default: the chapter's length]
    #[arg(long, value_name = "DURATION", value_parser = parse_time, allow_hyphen_values = true)]
    pub until: Option<At>,
}

/// `nodeline objects`.
#[derive(Debug, Args)]
pub struct ObjectsArgs {
    #[command(flatten)]
    pub sim: SimArgs,
    /// The moment to show
    #[arg(long, value_name = "DURATION", value_parser = parse_time, allow_hyphen_values = true)]
    pub at: At,
    /// Output format, as kubectl prints it: json or yaml
    #[arg(short = 'o', long = "output", value_name = "FORMAT", value_parser = parse_format, default_value = "json")]
    pub output: Format,
}

/// `nodeline kubectl`.
#[derive(Debug, Args)]
pub struct KubectlArgs {
    #[command(flatten)]
    pub sim: SimArgs,
    /// The moment to show
    #[arg(long, value_name = "DURATION", value_parser = parse_time, allow_hyphen_values = true)]
    pub at: At,
    /// kubectl's arguments, after `--` (e.g. `-- describe node node-1`)
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// An instant on the simulated clock, given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At(pub Duration);

/// A parsed `--actions` list (a newtype, so that clap takes it as one value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionList(pub Vec<Action>);

/// `-o`: how objects are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Yaml,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
        })
    }
}

fn chapter_names() -> String {
    Chapter::ALL.iter().map(|c| c.id()).collect::<Vec<_>>().join(", ")
}

fn parse_chapter(s: &str) -> Result<Chapter, String> {
    Chapter::from_id(s).ok_or_else(|| format!("unknown chapter; accepted: {}", chapter_names()))
}

fn parse_action_list(s: &str) -> Result<ActionList, String> {
    parse_actions(s).map(ActionList).map_err(|e| e.to_string())
}

fn parse_setting(s: &str) -> Result<SettingArg, String> {
    let form = "expected COMPONENT:NAME=VALUE, e.g. kube-controller-manager:node-monitor-grace-period=20s";
    let (key, value) = s.split_once('=').ok_or(form)?;
    let (component, name) = key.split_once(':').ok_or(form)?;
    let arg = SettingArg { component: component.into(), name: name.into(), value: value.into() };
    Settings::default().set(component, name, value).map_err(|e| e.to_string())?;
    Ok(arg)
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::parse(s).ok_or_else(|| {
        let known: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
        format!("unknown Kubernetes version; accepted: {}", known.join(", "))
    })
}

fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| format!("expected a whole number from 0 to {}", u64::MAX))
}

fn parse_nodes(s: &str) -> Result<usize, String> {
    let bad = || format!("expected a whole number of nodes from {MIN_FLEET} to {MAX_FLEET}");
    let n: usize = s.trim().parse().map_err(|_| bad())?;
    if (MIN_FLEET..=MAX_FLEET).contains(&n) { Ok(n) } else { Err(bad()) }
}

fn parse_time(s: &str) -> Result<At, String> {
    let limit = format_go_duration(MAX_TIME);
    let limit = limit.trim_end_matches("0m0s");
    if s.starts_with("--") {
        return Err("expected a duration such as 90s, 2m30s or 1h, not an option".into());
    }
    let d = parse_go_duration(s).map_err(|e| {
        if e.0.contains("longer than") {
            format!("past the limit of {limit}")
        } else {
            format!("{e}; use Go notation such as 90s, 2m30s or 1h")
        }
    })?;
    if d > MAX_TIME {
        return Err(format!("past the limit of {limit}"));
    }
    Ok(At(d))
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    Lang::from_code(s).ok_or_else(|| {
        let known: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        format!("unknown language; accepted: {}", known.join(", "))
    })
}

fn parse_quiz_format(s: &str) -> Result<QuizFormat, String> {
    match s {
        "text" => Ok(QuizFormat::Text),
        "json" => Ok(QuizFormat::Json),
        _ => Err("unknown output format; accepted: text, json".into()),
    }
}

fn parse_format(s: &str) -> Result<Format, String> {
    match s {
        "json" => Ok(Format::Json),
        "yaml" => Ok(Format::Yaml),
        _ => Err("unknown output format; accepted: json, yaml".into()),
    }
}
