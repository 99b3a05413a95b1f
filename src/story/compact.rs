//! A checked story in the form the page reads (`stories/ID.story`): one `key=value` line each,
//! read with the link's own decoder and no YAML reader; a value is written as it is, but for `%`,
//! `+` and control characters, which are percent-encoded. `nodeline story build` and `cargo xtask
//! build` write it from a story file that passed its checks; [`read`] gives the same [`Story`]
//! back.
//!
//! ```text
//! nodeline-story=1                    the format's version, the first line
//! id=two-nodes-fail
//! title=Two nodes fail at once
//! title.ja=...                        a text's Japanese, when the story has it
//! summary=... summary.ja=...
//! list-before=registration          the chapter the chapter list shows the story before
//! k8s=1.34
//! fleet=150                           or, a machine each:
//! machine=node-1                      starts a machine; the keys below are the last machine's
//! machine.kubelet-start=2m|never  machine.cni-ready-after=12s  machine.label=KEY%3DVALUE
//! machine.shutdown=30s,10s            shutdownGracePeriod, shutdownGracePeriodCriticalPods
//! machine.bootstrap=true  machine.server-tls-bootstrap=true   the kubelet's TLS bootstrap
//! deployment=web,3,5s                 name, replicas, created after
//! set=kube-controller-manager:node-monitor-grace-period=20s
//! action=kill-kubelet:node-1@2m       the link notation
//! duration=10m
//! step=event:NodeNotReady:            starts a step (a moment: below); the keys below its own
//! step.shows=... step.lead=2s step.after=500ms step.title=... step.title.ja=...
//! step.text=... step.text.ja=...      a paragraph each
//! question=second-taint,3,time        id, stop, kind (choice, order, time, node)
//! question.prompt=... question.why=...
//! question.option=taint:... question.label=... question.label.ja=...
//! question.from=... question.to=... question.tolerance=5s
//! ```
//!
//! A moment: `at:DUR`, `input:ACTION`, `event:REASON:CONTAINS`, `request:METHOD:PATH-ENDS`,
//! `taint:NODE:KEY:EFFECT`, `kubectl:TEXT`, `log:TEXT`.

use std::time::Duration;

use super::question::{Ask, Labelled, StoryQuestion};
use super::{Problem, StepWords, Story, Words};
use crate::link::decode;
use crate::sim::scenario::{Anchor, StepSpec};
use crate::sim::{
    ActionKind, Chapter, Config, MAX_FLEET, MIN_FLEET, MachineSpec, Method, Profile, ReplicaSetSpec, Scenario,
    Settings, parse_action, parse_go_duration,
};

/// The first line of the form, with its version.
pub const HEADER: &str = "nodeline-story=1";

/// The file name extension of the form.
pub const EXTENSION: &str = "story";

/// Reads a story in the page's form. A problem names the line (column 1) it is on.
pub fn read(text: &str) -> Result<Story, Vec<Problem>> {
    read_as(text, None)
}

/// Reads a story in the page's form that must have the id `id` when one is given (the name it
/// was fetched by: `stories/ID.story`).
pub fn read_as(text: &str, id: Option<&str>) -> Result<Story, Vec<Problem>> {
    let mut r = Reader { expected: id.map(String::from), ..Reader::default() };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i as u64 + 1, l.trim_end_matches('\r')));
    match lines.next() {
        Some((_, HEADER)) => {}
        _ => {
            return Err(vec![Problem {
                line: 1,
                column: 1,
                message: format!("not a story in the page's form: the first line is not {HEADER}"),
            }]);
        }
    }
    for (n, line) in lines {
        if line.is_empty() {
            continue;
        }
        r.line = n;
        match line.split_once('=') {
            Some((key, value)) => r.entry(key, &decode(value)),
            None => r.problem(format!("\"{}\": not KEY=VALUE", shorten(line))),
        }
    }
    r.finish()
}

/// The story in the page's form.
pub fn write(story: &Story) -> String {
    let mut o = Writer(String::new());
    o.0.push_str(HEADER);
    o.0.push('\n');
    o.line("id", &story.id);
    o.words("title", &story.title);
    o.words("summary", &story.summary);
    if let Some(chapter) = story.list_before {
        o.line("list-before", chapter.id());
    }
    if story.config.profile != Profile::default() {
        o.line("k8s", story.config.profile.as_str());
    }
    let machines = &story.scenario.machines;
    if story.scenario.fleet {
        o.line("fleet", &machines.len().to_string());
    } else {
        for m in machines {
            o.line("machine", &m.name);
            match m.kubelet_start {
                Some(d) if d.is_zero() => {}
                Some(d) => o.line("machine.kubelet-start", &duration(d)),
                None => o.line("machine.kubelet-start", "never"),
            }
            if let Some(d) = m.cni_ready_after {
                o.line("machine.cni-ready-after", &duration(d));
            }
            for (k, v) in &m.labels {
                o.line("machine.label", &format!("{k}={v}"));
            }
            if m.bootstrap {
                o.line("machine.bootstrap", "true");
            }
            if m.server_tls_bootstrap {
                o.line("machine.server-tls-bootstrap", "true");
            }
            if !m.shutdown_grace_period.is_zero() || !m.shutdown_grace_period_critical_pods.is_zero() {
                let pair = format!(
                    "{},{}",
                    duration(m.shutdown_grace_period),
                    duration(m.shutdown_grace_period_critical_pods)
                );
                o.line("machine.shutdown", &pair);
            }
        }
    }
    for rs in &story.scenario.replicasets {
        o.line("deployment", &format!("{},{},{}", rs.deployment, rs.replicas, duration(rs.created_after)));
    }
    for (row, value) in story.config.settings.set_rows() {
        o.line("set", &format!("{}:{}={value}", row.component.name(), row.name));
    }
    for action in &story.scenario.script {
        o.line("action", &action.to_string());
    }
    o.line("duration", &duration(story.scenario.duration));
    for (spec, words) in story.scenario.steps.iter().zip(&story.steps) {
        o.line("step", &moment(&spec.anchor));
        if let Some(shows) = &spec.shows {
            o.line("step.shows", &moment(shows));
        }
        if !spec.lead.is_zero() {
            o.line("step.lead", &duration(spec.lead));
        }
        if !spec.after.is_zero() {
            o.line("step.after", &duration(spec.after));
        }
        o.words("step.title", &words.title);
        for p in &words.en {
            o.line("step.text", p);
        }
        for p in words.ja.iter().flatten() {
            o.line("step.text.ja", p);
        }
    }
    for q in &story.questions {
        let kind = match q.ask {
            Ask::Choice(_) => "choice",
            Ask::Order(_) => "order",
            Ask::Time { .. } => "time",
            Ask::Node => "node",
        };
        o.line("question", &format!("{},{},{kind}", q.id, q.stop));
        o.words("question.prompt", &q.prompt);
        for option in q.options() {
            o.line("question.option", &moment(&option.when));
            o.words("question.label", &option.label);
        }
        if let Ask::Time { from, to, tolerance } = &q.ask {
            o.line("question.from", &moment(from));
            o.line("question.to", &moment(to));
            o.line("question.tolerance", &duration(*tolerance));
        }
        // The configuration `why` quotes, written in: the page tells the story as its file sets it.
        #[cfg(not(target_arch = "wasm32"))]
        let q = &q.quoting(&story.config);
        o.words("question.why", &q.why);
    }
    o.0
}

struct Writer(String);

impl Writer {
    fn line(&mut self, key: &str, value: &str) {
        self.0.push_str(key);
        self.0.push('=');
        // Only what the link's decoder would read otherwise (`%`, `+`) and what would end or
        // blur the line (control characters) are escaped: the text stays readable and small.
        for c in value.chars() {
            match c {
                '%' | '+' => self.0.push_str(if c == '%' { "%25" } else { "%2B" }),
                c if c.is_control() => {
                    let mut utf8 = [0; 4];
                    for b in c.encode_utf8(&mut utf8).bytes() {
                        self.0.push_str(&format!("%{b:02X}"));
                    }
                }
                c => self.0.push(c),
            }
        }
        self.0.push('\n');
    }

    fn words(&mut self, key: &str, words: &Words) {
        self.line(key, &words.en);
        if let Some(ja) = &words.ja {
            self.line(&format!("{key}.ja"), ja);
        }
    }
}

fn duration(d: Duration) -> String {
    crate::sim::format_go_duration(d)
}

/// A moment in the form's notation.
fn moment(anchor: &Anchor) -> String {
    match anchor {
        Anchor::At(d) => format!("at:{}", duration(*d)),
        Anchor::Input(kind) => format!("input:{}", kind.name()),
        Anchor::Event { reason, contains } => format!("event:{reason}:{contains}"),
        Anchor::Request { method, path_ends } => format!("request:{}:{path_ends}", method.as_str()),
        Anchor::Taint { node, key, effect } => format!("taint:{node}:{key}:{effect}"),
        Anchor::Kubectl { contains } => format!("kubectl:{contains}"),
        Anchor::LogLine { contains } => format!("log:{contains}"),
    }
}

/// A moment read back; `None` when it is not one.
fn parse_moment(text: &str) -> Result<Anchor, String> {
    let (tag, rest) = text.split_once(':').ok_or_else(|| format!("\"{}\": not TAG:VALUE", shorten(text)))?;
    let two = || rest.split_once(':').ok_or_else(|| format!("{tag}: \"{}\": two parts expected", shorten(rest)));
    Ok(match tag {
        "at" => Anchor::At(parse_go_duration(rest).map_err(|e| format!("at: {e}"))?),
        "input" => {
            Anchor::Input(ActionKind::from_name(rest).ok_or_else(|| format!("input: \"{rest}\" is not an action"))?)
        }
        "event" => {
            let (reason, contains) = two()?;
            Anchor::event(reason.to_string(), contains.to_string())
        }
        "request" => {
            let (method, path) = two()?;
            let methods = [Method::Get, Method::Post, Method::Put, Method::Patch, Method::Delete];
            let method = methods
                .into_iter()
                .find(|m| m.as_str() == method)
                .ok_or_else(|| format!("request: \"{method}\" is not a method"))?;
            Anchor::request(method, path.to_string())
        }
        "taint" => {
            let (node, rest) = two()?;
            let (key, effect) = rest.rsplit_once(':').ok_or_else(|| "taint: NODE:KEY:EFFECT expected".to_string())?;
            Anchor::taint(node.to_string(), key.to_string(), effect.to_string())
        }
        "kubectl" => Anchor::kubectl(rest.to_string()),
        "log" => Anchor::log_line(rest.to_string()),
        _ => return Err(format!("\"{tag}\" is not a kind of moment")),
    })
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// What a question is being read as.
struct QuestionDraft {
    id: String,
    stop: usize,
    kind: String,
    prompt: Option<Words>,
    why: Option<Words>,
    options: Vec<Labelled>,
    from: Option<Anchor>,
    to: Option<Anchor>,
    tolerance: Duration,
    line: u64,
}

#[derive(Default)]
struct Reader {
    /// The id the story must have, if any.
    expected: Option<String>,
    line: u64,
    problems: Vec<Problem>,
    id: Option<String>,
    title: Option<Words>,
    summary: Option<Words>,
    profile: Profile,
    list_before: Option<Chapter>,
    fleet: Option<usize>,
    machines: Vec<MachineSpec>,
    replicasets: Vec<ReplicaSetSpec>,
    settings: Settings,
    script: Vec<crate::sim::Action>,
    duration: Option<Duration>,
    steps: Vec<StepSpec>,
    words: Vec<StepWords>,
    questions: Vec<QuestionDraft>,
}

impl Reader {
    fn problem(&mut self, message: impl Into<String>) {
        self.problems.push(Problem { line: self.line, column: 1, message: message.into() });
    }

    fn duration(&mut self, key: &str, value: &str) -> Option<Duration> {
        parse_go_duration(value).map_err(|e| self.problem(format!("{key}: {e}"))).ok()
    }

    fn moment(&mut self, key: &str, value: &str) -> Option<Anchor> {
        parse_moment(value).map_err(|e| self.problem(format!("{key}: {e}"))).ok()
    }

    /// The last machine, step or question, for the keys that belong to it.
    fn last<'a, T>(list: &'a mut [T], problems: &mut Vec<Problem>, line: u64, key: &str) -> Option<&'a mut T> {
        let last = list.last_mut();
        if last.is_none() {
            let owner = key.split('.').next().unwrap_or(key);
            problems.push(Problem { line, column: 1, message: format!("{key}: before any {owner}") });
        }
        last
    }

    fn entry(&mut self, key: &str, value: &str) {
        let (line, ja) = (self.line, key.ends_with(".ja"));
        match key {
            "id" => {
                if let Some(expected) = self.expected.as_deref().filter(|e| *e != value) {
                    self.problem(format!("id: \"{}\" is not the file's name ({expected})", shorten(value)));
                }
                self.id = Some(value.to_string());
            }
            "title" | "title.ja" => set_words(&mut self.title, value, ja),
            "summary" | "summary.ja" => set_words(&mut self.summary, value, ja),
            "list-before" => match Chapter::from_id(value) {
                Some(c) => self.list_before = Some(c),
                None => self.problem(format!("list-before: there is no chapter \"{}\"", shorten(value))),
            },
            "k8s" => match Profile::parse(value) {
                Some(p) => self.profile = p,
                None => self.problem(format!("k8s: \"{}\" is not a version nodeline simulates", shorten(value))),
            },
            "fleet" => match value.parse::<usize>() {
                Ok(n) if (MIN_FLEET..=MAX_FLEET).contains(&n) => self.fleet = Some(n),
                _ => self.problem(format!("fleet: a number of nodes from {MIN_FLEET} to {MAX_FLEET}")),
            },
            "machine" => self.machines.push(MachineSpec::new(value)),
            "machine.kubelet-start" => {
                let start = if value == "never" { Some(None) } else { self.duration(key, value).map(Some) };
                if let (Some(start), Some(m)) = (start, Self::last(&mut self.machines, &mut self.problems, line, key)) {
                    m.kubelet_start = start;
                }
            }
            "machine.cni-ready-after" => {
                let d = self.duration(key, value);
                if let (Some(d), Some(m)) = (d, Self::last(&mut self.machines, &mut self.problems, line, key)) {
                    m.cni_ready_after = Some(d);
                }
            }
            "machine.label" => match value.split_once('=') {
                Some((k, v)) => {
                    if let Some(m) = Self::last(&mut self.machines, &mut self.problems, line, key) {
                        m.labels.push((k.to_string(), v.to_string()));
                    }
                }
                None => self.problem("machine.label: KEY=VALUE expected"),
            },
            "machine.bootstrap" | "machine.server-tls-bootstrap" => match value {
                "true" | "false" => {
                    if let Some(m) = Self::last(&mut self.machines, &mut self.problems, line, key) {
                        if key == "machine.bootstrap" {
                            m.bootstrap = value == "true";
                        } else {
                            m.server_tls_bootstrap = value == "true";
                        }
                    }
                }
                _ => self.problem(format!("{key}: true or false")),
            },
            "machine.shutdown" => {
                let pair = value.split_once(',');
                let grace = pair.and_then(|(g, c)| Some((parse_go_duration(g).ok()?, parse_go_duration(c).ok()?)));
                match grace {
                    Some((g, c)) => {
                        if let Some(m) = Self::last(&mut self.machines, &mut self.problems, line, key) {
                            (m.shutdown_grace_period, m.shutdown_grace_period_critical_pods) = (g, c);
                        }
                    }
                    None => self.problem("machine.shutdown: GRACE,CRITICAL durations expected"),
                }
            }
            "deployment" => {
                let parts: Vec<&str> = value.split(',').collect();
                let parsed = match parts[..] {
                    [name, replicas, created] => {
                        replicas.parse::<i32>().ok().filter(|r| *r >= 0).zip(parse_go_duration(created).ok()).map(
                            |(replicas, created_after)| ReplicaSetSpec {
                                deployment: name.to_string(),
                                replicas,
                                created_after,
                            },
                        )
                    }
                    _ => None,
                };
                match parsed {
                    Some(rs) => self.replicasets.push(rs),
                    None => self.problem("deployment: NAME,REPLICAS,CREATED-AFTER expected"),
                }
            }
            "set" => {
                let parsed = value.split_once(':').and_then(|(c, rest)| Some((c, rest.split_once('=')?)));
                match parsed {
                    Some((component, (name, v))) => {
                        if let Err(e) = self.settings.set(component, name, v) {
                            self.problem(format!("set: {e}"));
                        }
                    }
                    None => self.problem("set: COMPONENT:NAME=VALUE expected"),
                }
            }
            "action" => match parse_action(value) {
                Ok(a) => self.script.push(a),
                Err(e) => self.problem(format!("action: {e}")),
            },
            // A duration that cannot be read is a problem here, not also a missing one.
            "duration" => self.duration = Some(self.duration(key, value).unwrap_or_default()),
            "step" => {
                // A step whose moment cannot be read still counts, so later steps keep their
                // numbers; the problem stops the story.
                let anchor = self.moment(key, value).unwrap_or(Anchor::At(Duration::ZERO));
                self.steps.push(StepSpec { anchor, lead: Duration::ZERO, shows: None, after: Duration::ZERO });
                self.words.push(StepWords { title: Words { en: String::new(), ja: None }, en: Vec::new(), ja: None });
            }
            "step.shows" => {
                let shows = self.moment(key, value);
                if let Some(step) = Self::last(&mut self.steps, &mut self.problems, line, key) {
                    step.shows = shows;
                }
            }
            "step.lead" | "step.after" => {
                let d = self.duration(key, value);
                if let (Some(d), Some(step)) = (d, Self::last(&mut self.steps, &mut self.problems, line, key)) {
                    if key == "step.lead" {
                        step.lead = d;
                    } else {
                        step.after = d;
                    }
                }
            }
            "step.title" | "step.title.ja" => {
                if let Some(w) = Self::last(&mut self.words, &mut self.problems, line, key) {
                    if ja {
                        w.title.ja = Some(value.to_string());
                    } else {
                        w.title.en = value.to_string();
                    }
                }
            }
            "step.text" | "step.text.ja" => {
                if let Some(w) = Self::last(&mut self.words, &mut self.problems, line, key) {
                    if ja {
                        w.ja.get_or_insert_with(Vec::new).push(value.to_string());
                    } else {
                        w.en.push(value.to_string());
                    }
                }
            }
            "question" => {
                let parts: Vec<&str> = value.split(',').collect();
                match parts[..] {
                    [id, stop, kind] if stop.parse::<usize>().is_ok() => self.questions.push(QuestionDraft {
                        id: id.to_string(),
                        stop: stop.parse().unwrap_or(1),
                        kind: kind.to_string(),
                        prompt: None,
                        why: None,
                        options: Vec::new(),
                        from: None,
                        to: None,
                        tolerance: super::question::DEFAULT_TOLERANCE,
                        line,
                    }),
                    _ => self.problem("question: ID,STOP,KIND expected"),
                }
            }
            "question.option" => {
                let when = self.moment(key, value);
                if let (Some(when), Some(q)) = (when, Self::last(&mut self.questions, &mut self.problems, line, key)) {
                    q.options.push(Labelled { when, label: Words { en: String::new(), ja: None } });
                }
            }
            "question.label" | "question.label.ja" => {
                let option =
                    Self::last(&mut self.questions, &mut self.problems, line, key).and_then(|q| q.options.last_mut());
                match option {
                    Some(o) if ja => o.label.ja = Some(value.to_string()),
                    Some(o) => o.label.en = value.to_string(),
                    None => self.problem(format!("{key}: before any question.option")),
                }
            }
            "question.prompt" | "question.prompt.ja" | "question.why" | "question.why.ja" => {
                if let Some(q) = Self::last(&mut self.questions, &mut self.problems, line, key) {
                    let words = if key.starts_with("question.prompt") { &mut q.prompt } else { &mut q.why };
                    set_words(words, value, ja);
                }
            }
            "question.from" | "question.to" => {
                let when = self.moment(key, value);
                if let (Some(when), Some(q)) = (when, Self::last(&mut self.questions, &mut self.problems, line, key)) {
                    if key == "question.from" {
                        q.from = Some(when);
                    } else {
                        q.to = Some(when);
                    }
                }
            }
            "question.tolerance" => {
                let d = self.duration(key, value);
                if let (Some(d), Some(q)) = (d, Self::last(&mut self.questions, &mut self.problems, line, key)) {
                    q.tolerance = d;
                }
            }
            _ => self.problem(format!("\"{}\" is not a key of the page's form", shorten(key))),
        }
    }

    fn finish(mut self) -> Result<Story, Vec<Problem>> {
        self.line = 0;
        let missing = |what: &str| Problem { line: 1, column: 1, message: format!("{what}: missing") };
        let mut problems = std::mem::take(&mut self.problems);
        let questions: Vec<StoryQuestion> = std::mem::take(&mut self.questions)
            .into_iter()
            .filter_map(|q| {
                let at = |message: String| Problem { line: q.line, column: 1, message };
                let ask = match (q.kind.as_str(), q.from, q.to) {
                    ("choice", ..) => Ask::Choice(q.options),
                    ("order", ..) => Ask::Order(q.options),
                    ("time", Some(from), Some(to)) => Ask::Time { from, to, tolerance: q.tolerance },
                    ("node", ..) => Ask::Node,
                    ("time", ..) => {
                        problems.push(at(format!("question {}: a time question needs from and to", q.id)));
                        return None;
                    }
                    (kind, ..) => {
                        problems.push(at(format!(
                            "question {}: \"{}\" is not a kind of question",
                            q.id,
                            shorten(kind)
                        )));
                        return None;
                    }
                };
                match (q.prompt, q.why) {
                    (Some(prompt), Some(why)) => Some(StoryQuestion { id: q.id, stop: q.stop, prompt, ask, why }),
                    _ => {
                        problems.push(at(format!("question {}: its prompt or why is missing", q.id)));
                        None
                    }
                }
            })
            .collect();
        for (what, absent) in [
            ("id", self.id.is_none()),
            ("title", self.title.is_none()),
            ("summary", self.summary.is_none()),
            ("duration", self.duration.is_none()),
            ("step", self.steps.is_empty()),
        ] {
            if absent {
                problems.push(missing(what));
            }
        }
        if self.fleet.is_some() && !self.machines.is_empty() {
            problems.push(Problem {
                line: 1,
                column: 1,
                message: "fleet and machine: a story has one or the other".into(),
            });
        }
        if let Err(e) = self.settings.check() {
            problems.push(Problem { line: 1, column: 1, message: format!("set: {e}") });
        }
        if !problems.is_empty() {
            problems.sort();
            return Err(problems);
        }
        let machines = match self.fleet {
            Some(n) => crate::sim::scenario::fleet(n),
            None => self.machines,
        };
        crate::sim::action::sort_by_time(&mut self.script);
        Ok(Story {
            id: self.id.unwrap_or_default(),
            title: self.title.unwrap_or_else(|| Words { en: String::new(), ja: None }),
            summary: self.summary.unwrap_or_else(|| Words { en: String::new(), ja: None }),
            list_before: self.list_before,
            scenario: Scenario {
                chapter: None,
                fleet: self.fleet.is_some(),
                machines,
                replicasets: self.replicasets,
                script: self.script,
                steps: self.steps,
                duration: self.duration.unwrap_or_default(),
            },
            config: Config { profile: self.profile, settings: self.settings, ..Config::default() },
            steps: self.words,
            questions,
        })
    }
}

fn set_words(words: &mut Option<Words>, value: &str, ja: bool) {
    let w = words.get_or_insert_with(|| Words { en: String::new(), ja: None });
    if ja {
        w.ja = Some(value.to_string());
    } else {
        w.en = value.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_read_back_as_written() {
        for anchor in [
            Anchor::At(Duration::from_millis(1500)),
            Anchor::Input(ActionKind::KillKubelet),
            Anchor::event("NodeNotReady", ""),
            Anchor::event("TaintManagerEviction", "Marking for deletion: a:b"),
            Anchor::request(Method::Post, "/api/v1/nodes"),
            Anchor::taint("node-1", "node.kubernetes.io/unreachable", "NoExecute"),
            Anchor::kubectl("evicting pod default/web"),
            Anchor::log_line("newState=\"PartialDisruption\""),
        ] {
            assert_eq!(parse_moment(&moment(&anchor)), Ok(anchor.clone()), "{anchor:?}");
        }
        assert!(parse_moment("soon").is_err());
        assert!(parse_moment("input:explode").unwrap_err().contains("not an action"));
    }

    #[test]
    fn values_are_written_as_they_are_but_what_the_decoder_or_a_line_would_take() {
        let mut w = Writer(String::new());
        let value = "50% + 1 = 51, \"two\"\tnext\r\nline 日本語 \u{7f}";
        w.line("title", value);
        assert_eq!(w.0, "title=50%25 %2B 1 = 51, \"two\"%09next%0D%0Aline 日本語 %7F\n");
        let (key, written) = w.0.trim_end_matches('\n').split_once('=').unwrap();
        assert_eq!((key, decode(written).as_str()), ("title", value));
    }

    #[test]
    fn a_broken_form_is_answered_line_by_line() {
        assert_eq!(read("id=x\n").unwrap_err()[0].line, 1);
        let text = format!("{HEADER}\nid=x\ntitle=T\nsummary=S\nduration=soon\nstep.lead=1s\nstep=at:1s\nbogus\n");
        let problems = read(&text).unwrap_err();
        let lines: Vec<(u64, &str)> = problems.iter().map(|p| (p.line, p.message.as_str())).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().any(|(n, m)| *n == 5 && m.starts_with("duration: ")), "{lines:?}");
        assert!(lines.iter().any(|(n, m)| *n == 6 && *m == "step.lead: before any step"), "{lines:?}");
        assert!(lines.iter().any(|(n, m)| *n == 8 && m.contains("not KEY=VALUE")), "{lines:?}");
        let other = read_as(&text.replace("duration=soon", "duration=1m"), Some("y")).unwrap_err();
        assert_eq!((other[0].line, other[0].message.as_str()), (2, "id: \"x\" is not the file's name (y)"));
    }
}
