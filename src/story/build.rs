//! From a story file to a [`Story`]: every value checked where it stands, then the story run
//! once, to hold its actions and steps to its own timeline.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_saphyr::{Location, Spanned};

use super::file::{self, StoryFile, Values, When};
use super::question::{Ask, DEFAULT_TOLERANCE, Labelled, StoryQuestion};
use super::{Problem, StepWords, Story, Words};
use crate::i18n::{Segment, TARGETS, segments};
use crate::link::is_dns_label;
use crate::sim::scenario::{Anchor, StepSpec};
use crate::sim::settings::{Component, SettingError, Settings};
use crate::sim::{
    ActionKind, Chapter, Config, MAX_FLEET, MIN_FLEET, MachineSpec, Method, Profile, ReplicaSetSpec, Scenario, SimTime,
    Timeline, parse_action, parse_go_duration,
};

/// The longest story, and the longest time the command line runs (`--until`, `--at`).
pub const MAX_DURATION: Duration = Duration::from_secs(24 * 3600);

/// When a Deployment is created unless the story says.
const DEFAULT_CREATED_AFTER: Duration = Duration::from_secs(5);

/// `kubeletStart: never`: the kubelet waits for a `start-kubelet` action.
const NEVER: &str = "never";

/// The kubelet settings a machine may set for itself, with what they set.
const MACHINE_KUBELET: [&str; 2] = ["shutdownGracePeriod", "shutdownGracePeriodCriticalPods"];

/// The problems found so far.
#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    fn add(&mut self, at: Location, message: impl Into<String>) {
        self.0.push(Problem::at(at, message));
    }

    /// A duration in Go's notation, or a problem at its place.
    fn duration(&mut self, value: &Spanned<String>, what: &str) -> Option<Duration> {
        match parse_go_duration(&value.value) {
            Ok(d) => Some(d),
            Err(e) => {
                self.add(value.referenced, format!("{what}: {e}"));
                None
            }
        }
    }

    fn optional_duration(&mut self, value: &Option<Spanned<String>>, what: &str, default: Duration) -> Duration {
        value.as_ref().and_then(|v| self.duration(v, what)).unwrap_or(default)
    }
}

/// Checks `file` and builds the story; `id` is the one its file name gives.
pub(super) fn build(file: StoryFile, id: Option<&str>) -> Result<Story, Vec<Problem>> {
    let mut problems = Problems::default();
    if !is_dns_label(&file.id.value) {
        problems.add(
            file.id.referenced,
            "id: lowercase letters, digits and dashes, starting and ending with a letter or digit, at most 63",
        );
    } else if let Some(expected) = id.filter(|expected| *expected != file.id.value) {
        problems.add(
            file.id.referenced,
            format!(
                "id: \"{}\" is not the file's name: name the file {}.yaml, or the id \"{expected}\"",
                file.id.value, file.id.value
            ),
        );
    }
    let profile = match &file.k8s {
        None => Profile::default(),
        Some(v) => Profile::parse(&v.value).unwrap_or_else(|| {
            let accepted: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
            problems.add(
                v.referenced,
                format!("k8s: \"{}\" is not a version nodeline simulates; accepted: {}", v.value, accepted.join(", ")),
            );
            Profile::default()
        }),
    };
    let languages = Languages::of(&file);
    let title = languages.words(&mut problems, &file.title, "title");
    let summary = languages.words(&mut problems, &file.summary, "summary");
    let list_before = file.list_before.as_ref().and_then(|before| {
        let chapter = Chapter::from_id(&before.value);
        if chapter.is_none() {
            let ids: Vec<&str> = Chapter::ALL.iter().map(|c| c.id()).collect();
            problems.add(
                before.referenced,
                format!("listBefore: there is no chapter \"{}\"; the chapters are {}", before.value, ids.join(", ")),
            );
        }
        chapter
    });
    let machines = machines(&mut problems, &file.cluster);
    let names: BTreeSet<&str> = machines.iter().map(|m| m.name.as_str()).collect();
    let replicasets = deployments(&mut problems, &file.cluster.deployments);
    let mut settings = Settings::default();
    if let Some(written) = &file.settings {
        for (component, entries) in &written.value {
            if Component::from_name(component).is_none() {
                let e = SettingError::UnknownComponent { component: component.clone() };
                problems.add(entries.referenced, format!("settings: {e}"));
                continue;
            }
            for (name, value) in &entries.value {
                if let Err(e) = settings.set(component, name, &value.value.0) {
                    problems.add(value.referenced, format!("settings: {e}"));
                }
            }
        }
        if let Err(e) = settings.check() {
            // At the value the kubelet refuses, when the story wrote it.
            let at = match &e {
                SettingError::Refused { component, name, .. } => written
                    .value
                    .get(component.name())
                    .and_then(|entries| entries.value.get(*name))
                    .map(|v| v.referenced),
                _ => None,
            };
            problems.add(at.unwrap_or(written.referenced), format!("settings: {e}"));
        }
    }
    let duration = problems.duration(&file.duration, "duration").unwrap_or(Duration::ZERO);
    if duration > MAX_DURATION {
        problems.add(file.duration.referenced, "duration: at most 24h");
    }
    let mut script = Vec::new();
    let mut places = Vec::new();
    for text in &file.actions {
        match parse_action(&text.value) {
            Ok(action) => {
                if let Some(machine) = action.machine.as_deref().filter(|_| action.kind.targets_machine())
                    && !names.contains(machine)
                {
                    problems.add(
                        text.referenced,
                        format!(
                            "actions: there is no machine \"{machine}\" in the cluster; it has {}",
                            names.iter().copied().collect::<Vec<_>>().join(", ")
                        ),
                    );
                } else if action.at.since_start() > duration {
                    problems.add(text.referenced, "actions: after the story's end (its duration)");
                } else {
                    script.push(action);
                    places.push(text.referenced);
                }
            }
            Err(e) => problems.add(text.referenced, format!("actions: {e}")),
        }
    }
    if file.steps.value.is_empty() {
        problems.add(file.steps.referenced, "steps: a story has at least one step");
    }
    let mut steps = Vec::new();
    let mut words = Vec::new();
    for (i, step) in file.steps.value.iter().enumerate() {
        let what = format!("step {}", i + 1);
        let anchor = anchor_of(&mut problems, &step.when, &what);
        let shows = step.shows.as_ref().and_then(|s| anchor_of(&mut problems, s, &what));
        let lead = problems.optional_duration(&step.lead, &format!("{what}: lead"), Duration::ZERO);
        let after = problems.optional_duration(&step.after, &format!("{what}: after"), Duration::ZERO);
        if let Some(anchor) = anchor {
            steps.push(StepSpec { anchor, lead, shows, after });
        }
        words.push(StepWords {
            title: languages.words(&mut problems, &step.title, &format!("{what}: title")),
            en: step.text.value.en.clone(),
            ja: languages.paragraphs(&mut problems, &step.text, &what),
        });
    }
    let questions = questions(&mut problems, &languages, &file.questions, file.steps.value.len());
    if !problems.0.is_empty() {
        problems.0.sort();
        return Err(problems.0);
    }
    let mut sorted = script.clone();
    crate::sim::action::sort_by_time(&mut sorted);
    let fleet = file.cluster.fleet.is_some();
    let scenario = Scenario { chapter: None, fleet, machines, replicasets, script: sorted, steps, duration };
    let config = Config { profile, settings, ..Config::default() };
    let story =
        Story { id: file.id.value.clone(), title, summary, list_before, scenario, config, steps: words, questions };
    held_to_its_timeline(&story, &script, &places, &file)?;
    Ok(story)
}

/// Runs the story and holds its actions (none refused) and steps (each happens) to what happens.
fn held_to_its_timeline(
    story: &Story,
    script: &[crate::sim::Action],
    places: &[Location],
    file: &StoryFile,
) -> Result<(), Vec<Problem>> {
    let steps = &file.steps.value;
    let mut problems = Problems::default();
    let mut timeline = Timeline::from_scenario(story.scenario.clone(), story.config.clone(), &[]);
    timeline.run_until(SimTime::ZERO + story.scenario.duration);
    let log = timeline.log();
    for input in log.inputs.iter().filter(|i| i.scripted) {
        if let Some(refusal) = &input.rejected {
            let at = script.iter().position(|a| *a == input.action).map_or(Location::UNKNOWN, |i| places[i]);
            problems.add(at, format!("actions: {} is refused at that moment: {refusal}", input.action));
        }
    }
    let times = crate::sim::scenario::resolve_steps(&story.scenario, log);
    for (i, (time, step)) in times.iter().zip(steps).enumerate() {
        if time.is_none() {
            let from = if i == 0 { "the start".to_string() } else { format!("step {}'s mark", i) };
            problems.add(
                step.when.referenced,
                format!(
                    "step {}: its mark never happens in the story's timeline (searched from {from} to the story's end)",
                    i + 1
                ),
            );
        }
    }
    // Two steps at one moment show one picture: the reader's "next step" would change nothing
    // on the stage, and the timeline marks them as one place.
    for (i, pair) in times.windows(2).enumerate() {
        if let [Some(before), Some(this)] = pair
            && this.moment == before.moment
        {
            problems.add(
                steps[i + 1].when.referenced,
                format!(
                    "step {}: its moment is step {}'s ({}): the two would show the same picture; mark it by what happens next, or move it with `after`",
                    i + 2,
                    i + 1,
                    this.moment.clock_label()
                ),
            );
        }
    }
    for (q, written) in story.questions.iter().zip(&file.questions) {
        if q.derive(&timeline).is_none() {
            problems.add(written.id.referenced, format!("question {}: its answer cannot be derived from the story's timeline (a moment it names never happens after step {}'s start, or the answer shows before it)", q.id, q.stop));
        }
    }
    problems.0.sort();
    if problems.0.is_empty() { Ok(()) } else { Err(problems.0) }
}

/// The questions, checked where they stand.
fn questions(
    problems: &mut Problems,
    languages: &Languages,
    written: &[file::Question],
    steps: usize,
) -> Vec<StoryQuestion> {
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    for q in written {
        let id = q.id.value.clone();
        let what = format!("question {id}");
        if !is_dns_label(&id) {
            problems.add(q.id.referenced, "question: id: lowercase letters, digits and dashes");
        } else if !ids.insert(id.clone()) {
            problems.add(q.id.referenced, format!("{what}: the id is used twice"));
        }
        if !(1..=steps).contains(&q.stop.value) {
            problems.add(q.stop.referenced, format!("{what}: stop: a step from 1 to {steps}"));
        }
        let prompt = languages.words(problems, &q.prompt, &format!("{what}: prompt"));
        let why = languages.words(problems, &q.why, &format!("{what}: why"));
        // What the words quote of the configuration must be there to quote.
        let texts = [Some(why.en.as_str()), why.ja.as_deref()];
        let names: BTreeSet<&str> = texts.into_iter().flatten().flat_map(super::question::quoted_names).collect();
        for name in names {
            if let Some(Err(e)) = name.split_once(':').map(|(c, n)| Settings::default().get(c, n)) {
                problems.add(q.why.referenced, format!("{what}: why: {{{name}}}: {e}"));
            }
        }
        let mut labelled = |options: &[file::Choice], kind: &str, min: usize, max: usize| -> Vec<Labelled> {
            if !(min..=max).contains(&options.len()) {
                problems.add(q.id.referenced, format!("{what}: {kind}: {min} to {max} options"));
            }
            options
                .iter()
                .filter_map(|o| {
                    let label = languages.words(problems, &o.label, &format!("{what}: label"));
                    anchor_of(problems, &o.when, &what).map(|when| Labelled { when, label })
                })
                .collect()
        };
        let asks: Vec<Ask> = [
            q.choice.as_deref().map(|o| Ask::Choice(labelled(o, "choice", 2, 4))),
            q.order.as_deref().map(|o| Ask::Order(labelled(o, "order", 2, 5))),
            q.time.as_ref().map(|t| Ask::Time {
                from: anchor_of(problems, &t.from, &what).unwrap_or(Anchor::At(Duration::ZERO)),
                to: anchor_of(problems, &t.to, &what).unwrap_or(Anchor::At(Duration::ZERO)),
                tolerance: problems.optional_duration(&t.tolerance, &format!("{what}: tolerance"), DEFAULT_TOLERANCE),
            }),
            q.node.as_ref().map(|_| Ask::Node),
        ]
        .into_iter()
        .flatten()
        .collect();
        match <[Ask; 1]>::try_from(asks) {
            Ok([ask]) => out.push(StoryQuestion { id, stop: q.stop.value, prompt, ask, why }),
            Err(_) => problems.add(q.id.referenced, format!("{what}: give exactly one of choice, order, time, node")),
        }
    }
    out
}

/// The languages a story speaks: English always; Japanese when any of its texts has it, and then
/// every text must.
struct Languages {
    ja: bool,
}

impl Languages {
    fn of(file: &StoryFile) -> Languages {
        let ja = file.title.value.ja.is_some()
            || file.summary.value.ja.is_some()
            || file.steps.value.iter().any(|s| s.title.value.ja.is_some() || s.text.value.ja.is_some());
        Languages { ja }
    }

    fn words(&self, problems: &mut Problems, texts: &Spanned<file::Texts>, what: &str) -> Words {
        if self.ja && texts.value.ja.is_none() {
            problems.add(texts.referenced, format!("{what}: no ja, while the story speaks Japanese elsewhere"));
        }
        Words { en: texts.value.en.clone(), ja: texts.value.ja.clone() }
    }

    fn paragraphs(&self, problems: &mut Problems, text: &Spanned<file::Paragraphs>, what: &str) -> Option<Vec<String>> {
        let all = text.value.en.iter().chain(text.value.ja.iter().flatten());
        for paragraph in all {
            for segment in segments(paragraph) {
                if let Segment::Term { target, .. } = segment
                    && !TARGETS.contains(&target)
                {
                    problems.add(
                        text.referenced,
                        format!(
                            "{what}: text: [[{target}|…]] points at no part of the stage; accepted: {}",
                            TARGETS.join(", ")
                        ),
                    );
                }
            }
        }
        if text.value.en.is_empty() {
            problems.add(text.referenced, format!("{what}: text: en has no paragraph"));
        }
        match &text.value.ja {
            None if self.ja => {
                problems.add(text.referenced, format!("{what}: text: no ja, while the story speaks Japanese elsewhere"))
            }
            Some(ja) if ja.is_empty() => problems.add(text.referenced, format!("{what}: text: ja has no paragraph")),
            _ => {}
        }
        text.value.ja.clone()
    }
}

/// The machines: as listed, or a fleet.
fn machines(problems: &mut Problems, cluster: &file::Cluster) -> Vec<MachineSpec> {
    if let Some(fleet) = &cluster.fleet {
        if !cluster.machines.is_empty() {
            problems.add(fleet.referenced, "cluster: either machines or fleet, not both");
        }
        if !(MIN_FLEET..=MAX_FLEET).contains(&fleet.value) {
            problems.add(fleet.referenced, format!("cluster: fleet: {MIN_FLEET} to {MAX_FLEET} machines"));
            return Vec::new();
        }
        return crate::sim::scenario::fleet(fleet.value);
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for m in &cluster.machines {
        let name = &m.name.value;
        if !is_dns_label(name) {
            problems.add(m.name.referenced, format!("cluster: machine \"{name}\": a name is a DNS label (lowercase letters, digits and dashes, at most 63)"));
            continue;
        }
        if !seen.insert(name.clone()) {
            problems.add(m.name.referenced, format!("cluster: machine \"{name}\" is listed twice"));
            continue;
        }
        let mut spec = MachineSpec::new(name);
        spec.kubelet_start = match &m.kubelet_start {
            None => spec.kubelet_start,
            Some(never) if never.value == NEVER => None,
            Some(d) => problems.duration(d, "kubeletStart"),
        };
        spec.cni_ready_after = m.cni_ready_after.as_ref().and_then(|d| problems.duration(d, "cniReadyAfter"));
        spec.labels = m.labels.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        spec.bootstrap = m.bootstrap;
        spec.server_tls_bootstrap = m.server_tls_bootstrap;
        if let Some(kubelet) = &m.kubelet {
            machine_kubelet(problems, &mut spec, kubelet);
        }
        out.push(spec);
    }
    if out.is_empty() && problems.0.is_empty() {
        problems.0.push(Problem {
            line: 0,
            column: 0,
            message: "cluster: no machines: list machines, or give a fleet size".into(),
        });
    }
    out
}

/// A machine's own kubelet settings, read by the table of settings (over the story's, for this
/// machine only).
fn machine_kubelet(problems: &mut Problems, spec: &mut MachineSpec, written: &Spanned<Values>) {
    let mut own = Settings::default();
    for (name, value) in &written.value {
        if !MACHINE_KUBELET.contains(&name.as_str()) {
            problems.add(
                value.referenced,
                format!(
                    "kubelet: {name} is not a setting a machine sets for itself; accepted: {}",
                    MACHINE_KUBELET.join(", ")
                ),
            );
        } else if let Err(e) = own.set("kubelet", name, &value.value.0) {
            problems.add(value.referenced, format!("kubelet: {e}"));
        }
    }
    if let Err(e) = own.check() {
        problems.add(written.referenced, format!("kubelet: {e}"));
    }
    *spec = own.machine(spec);
}

/// The Deployments, as ReplicaSets the simulation starts.
fn deployments(problems: &mut Problems, deployments: &[file::Deployment]) -> Vec<ReplicaSetSpec> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for d in deployments {
        let name = &d.name.value;
        if !is_dns_label(name) || name.len() > 47 {
            problems.add(d.name.referenced, format!("cluster: deployment \"{name}\": a name is a DNS label of at most 47 characters (its Pods' names add 16)"));
            continue;
        }
        if !seen.insert(name.clone()) {
            problems.add(d.name.referenced, format!("cluster: deployment \"{name}\" is listed twice"));
            continue;
        }
        if !(0..=10_000).contains(&d.replicas.value) {
            problems.add(d.replicas.referenced, "cluster: replicas: 0 to 10000");
            continue;
        }
        let created_after = problems.optional_duration(&d.created_after, "createdAfter", DEFAULT_CREATED_AFTER);
        out.push(ReplicaSetSpec { deployment: name.clone(), replicas: d.replicas.value, created_after });
    }
    out
}

/// The anchor a `when` (or `shows`) names.
fn anchor_of(problems: &mut Problems, when: &Spanned<When>, what: &str) -> Option<Anchor> {
    let at = when.referenced;
    let mut refuse = |message: String| {
        problems.add(at, format!("{what}: {message}"));
        None
    };
    match &when.value {
        When::At(text) => match parse_go_duration(text) {
            Ok(d) => Some(Anchor::At(d)),
            Err(e) => refuse(format!("at: {e}")),
        },
        When::Input(name) => match ActionKind::from_name(name) {
            Some(kind) => Some(Anchor::Input(kind)),
            None => refuse(format!(
                "input: \"{name}\" is not an action; accepted: {}",
                crate::sim::ACTIONS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
            )),
        },
        When::Event { reason, contains } if !reason.is_empty() => Some(Anchor::event(reason.clone(), contains.clone())),
        When::Event { .. } => refuse("event: reason is empty".into()),
        When::Request { method, path_ends } => {
            let methods = [Method::Get, Method::Post, Method::Put, Method::Patch, Method::Delete];
            match methods.into_iter().find(|m| m.as_str() == method) {
                Some(m) if !path_ends.is_empty() => Some(Anchor::request(m, path_ends.clone())),
                Some(_) => refuse("request: pathEnds is empty".into()),
                None => refuse(format!("request: method \"{method}\": accepted: GET, POST, PUT, PATCH, DELETE")),
            }
        }
        When::Taint { node, key, effect } => {
            if ["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect.as_str()) {
                Some(Anchor::taint(node.clone(), key.clone(), effect.clone()))
            } else {
                refuse(format!("taint: effect \"{effect}\": accepted: NoSchedule, PreferNoSchedule, NoExecute"))
            }
        }
        When::Kubectl(text) if !text.is_empty() => Some(Anchor::kubectl(text.clone())),
        When::LogLine(text) if !text.is_empty() => Some(Anchor::log_line(text.clone())),
        When::Kubectl(_) | When::LogLine(_) => refuse("the text to look for is empty".into()),
    }
}
