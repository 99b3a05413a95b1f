//! The built-in chapters, compiled from their story files. Each chapter is `stories/ID.yaml`, a
//! story file like any other; this writes what the page and the CLI compile in: the chapters'
//! scenarios (`crates/sim/src/scenario/chapters.rs`) and their words in both languages
//! (`src/i18n/chapters.rs`). Every `cargo xtask` command writes them when a chapter's file changes,
//! and the tests hold them to the files.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use super::{Report, Story, Words};
use crate::sim::scenario::{Anchor, StepSpec, fleet};
use crate::sim::{Action, Chapter, Config, MachineSpec, ReplicaSetSpec, Scenario};

/// Where the chapters' scenarios are written, from the repository's root.
pub const SCENARIOS: &str = "crates/sim/src/scenario/chapters.rs";
/// Where the chapters' words are written, from the repository's root.
pub const WORDS: &str = "src/i18n/chapters.rs";

/// The two sources, as compiled from the chapters' story files.
#[derive(Debug, PartialEq, Eq)]
pub struct Compiled {
    /// [`SCENARIOS`]' text.
    pub scenarios: String,
    /// [`WORDS`]' text.
    pub words: String,
}

/// Reads every chapter's story file from `dir` (`dir/ID.yaml`, in the chapters' order) and
/// compiles them; or every problem, each with its file, line and column.
pub fn chapters(dir: &Path) -> Result<Compiled, String> {
    let mut stories = Vec::new();
    let mut report = String::new();
    for chapter in Chapter::ALL {
        let path = dir.join(format!("{}.yaml", chapter.id()));
        let shown = path.display().to_string();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                let _ = writeln!(report, "{shown}: the chapter's story file cannot be read: {e}");
                continue;
            }
        };
        match super::load(&text, Some(chapter.id())) {
            Ok(story) => match held_to_a_chapter(&story) {
                Ok(()) => stories.push((chapter, story)),
                Err(why) => {
                    let _ = writeln!(report, "{shown}: {why}");
                }
            },
            Err(problems) => report.push_str(&Report { file: &shown, problems: &problems }.to_string()),
        }
    }
    if !report.is_empty() {
        return Err(report);
    }
    Ok(Compiled { scenarios: scenarios(&stories), words: words(&stories) })
}

/// What a chapter's story cannot hold, that a story file may: a chapter runs with the reader's
/// Kubernetes version and settings, its questions are derived in `src/quiz/catalogue.rs`, its
/// place is its own, and its words are in both languages.
pub fn held_to_a_chapter(story: &Story) -> Result<(), String> {
    // The script is compiled in the link notation: each action must read back as itself.
    for a in &story.scenario.script {
        if crate::sim::parse_action(&a.to_string()).as_ref() != Ok(a) {
            return Err(format!("actions: {a} does not read back as itself in the link notation"));
        }
    }
    let config = Config::default();
    if story.config.profile != config.profile || story.config.settings != config.settings {
        return Err("a chapter sets no k8s version and no settings: the reader chooses them".into());
    }
    if !story.questions.is_empty() {
        return Err("a chapter's questions are derived in src/quiz/catalogue.rs, not written in its file".into());
    }
    if story.list_before.is_some() {
        return Err("a chapter has its place in the chapter list: listBefore is a story's".into());
    }
    let missing = |w: &Words| w.ja.is_none();
    if missing(&story.title)
        || missing(&story.summary)
        || story.steps.iter().any(|s| missing(&s.title) || s.ja.is_none())
    {
        return Err("a chapter is told in English and Japanese: every title, summary and text needs `ja`".into());
    }
    Ok(())
}

/// The header both files start with.
fn header(what: &str) -> String {
    format!(
        "//! {what}, compiled from their story files (`stories/ID.yaml`) by\n\
         //! `nodeline::story::generate`: every `cargo xtask` command writes this file when a chapter's\n\
         //! file changes (so does `NODELINE_BLESS=1 cargo test --test it chapters::`). Edit the story\n\
         //! file, not this one.\n\n"
    )
}

fn scenarios(stories: &[(Chapter, Story)]) -> String {
    let mut body = String::new();
    let mut uses = BTreeSet::from(["super::Chapter", "super::Scenario"]);
    body.push_str("/// The chapter's scenario as its story file writes it (a fleet at the size written).\n");
    body.push_str("pub(super) fn written(chapter: Chapter) -> Scenario {\n    match chapter {\n");
    for (chapter, _) in stories {
        let _ = writeln!(body, "        Chapter::{chapter:?} => {}(),", function(*chapter));
    }
    body.push_str("    }\n}\n\n");
    body.push_str("/// Whether the chapter is told as a fleet (its size set by `--nodes` / `&nodes=`).\n");
    body.push_str("pub(super) fn is_fleet(chapter: Chapter) -> bool {\n    match chapter {\n");
    for (chapter, story) in stories {
        let _ = writeln!(body, "        Chapter::{chapter:?} => {},", story.scenario.fleet);
    }
    body.push_str("    }\n}\n");
    for (chapter, story) in stories {
        let _ = write!(body, "\nfn {}() -> Scenario {{\n", function(*chapter));
        scenario(&mut body, &mut uses, *chapter, &story.scenario);
        body.push_str("}\n");
    }
    let mut out = header("The chapters' scenarios");
    out.push_str(&use_lines(&uses));
    out.push_str(&body);
    out
}

/// `use` lines for `paths`, one a module, as rustfmt groups them.
fn use_lines(paths: &BTreeSet<&str>) -> String {
    let mut modules: Vec<(&str, Vec<&str>)> = Vec::new();
    for path in paths {
        let (module, name) = path.rsplit_once("::").expect("a path in a module");
        match modules.iter_mut().find(|(m, _)| *m == module) {
            Some((_, names)) => names.push(name),
            None => modules.push((module, vec![name])),
        }
    }
    // `super::` after `crate::`, each module's names as rustfmt sorts them.
    modules.sort_by_key(|(m, _)| (m.starts_with("super"), *m));
    let mut out = String::new();
    for (module, mut names) in modules {
        names.sort_by_key(|n| (n.starts_with(char::is_lowercase), *n));
        match names.as_slice() {
            [one] => {
                let _ = writeln!(out, "use {module}::{one};");
            }
            _ => {
                let _ = writeln!(out, "use {module}::{{{}}};", names.join(", "));
            }
        }
    }
    out.push('\n');
    out
}

fn function(chapter: Chapter) -> String {
    chapter.id().replace('-', "_")
}

fn scenario(o: &mut String, uses: &mut BTreeSet<&'static str>, chapter: Chapter, s: &Scenario) {
    let _ = writeln!(o, "    Scenario {{\n        chapter: Some(Chapter::{chapter:?}),\n        fleet: {},", s.fleet);
    if s.fleet && s.machines == fleet(s.machines.len()) {
        uses.insert("super::fleet");
        let _ = writeln!(o, "        machines: fleet({}),", s.machines.len());
    } else {
        o.push_str("        machines: vec![\n");
        for m in &s.machines {
            machine(o, uses, m);
        }
        o.push_str("        ],\n");
    }
    list(o, "replicasets", &s.replicasets, |o, rs| replicaset(o, uses, rs));
    list(o, "script", &s.script, |o, a| action(o, uses, a));
    o.push_str("        steps: vec![\n");
    for step in &s.steps {
        step_spec(o, uses, step);
    }
    let _ = writeln!(o, "        ],\n        duration: {},\n    }}", millis(uses, s.duration));
}

/// `        NAME: vec![...],` with an item a line, or `vec![]`.
fn list<T>(o: &mut String, name: &str, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    if items.is_empty() {
        let _ = writeln!(o, "        {name}: vec![],");
        return;
    }
    let _ = writeln!(o, "        {name}: vec![");
    for i in items {
        item(o, i);
    }
    o.push_str("        ],\n");
}

fn millis(uses: &mut BTreeSet<&'static str>, d: Duration) -> String {
    uses.insert("super::millis");
    format!("millis({})", d.as_millis())
}

fn machine(o: &mut String, uses: &mut BTreeSet<&'static str>, m: &MachineSpec) {
    uses.insert("super::MachineSpec");
    let plain = MachineSpec::new(&m.name);
    if *m == plain {
        let _ = writeln!(o, "            MachineSpec::new({:?}),", m.name);
        return;
    }
    let _ = writeln!(o, "            {{\n                let mut m = MachineSpec::new({:?});", m.name);
    let mut set = |field: &str, value: String| {
        let _ = writeln!(o, "                m.{field} = {value};");
    };
    if m.hostname != plain.hostname {
        set("hostname", format!("{:?}.into()", m.hostname));
    }
    if m.kubelet_start != plain.kubelet_start {
        set("kubelet_start", m.kubelet_start.map_or("None".into(), |d| format!("Some({})", millis(uses, d))));
    }
    if m.cni_ready_after != plain.cni_ready_after {
        set("cni_ready_after", m.cni_ready_after.map_or("None".into(), |d| format!("Some({})", millis(uses, d))));
    }
    if m.labels != plain.labels {
        let labels: Vec<String> = m.labels.iter().map(|(k, v)| format!("({k:?}.into(), {v:?}.into())")).collect();
        set("labels", format!("vec![{}]", labels.join(", ")));
    }
    if m.shutdown_grace_period != plain.shutdown_grace_period {
        set("shutdown_grace_period", millis(uses, m.shutdown_grace_period));
    }
    if m.shutdown_grace_period_critical_pods != plain.shutdown_grace_period_critical_pods {
        set("shutdown_grace_period_critical_pods", millis(uses, m.shutdown_grace_period_critical_pods));
    }
    if m.bootstrap != plain.bootstrap {
        set("bootstrap", m.bootstrap.to_string());
    }
    if m.server_tls_bootstrap != plain.server_tls_bootstrap {
        set("server_tls_bootstrap", m.server_tls_bootstrap.to_string());
    }
    o.push_str("                m\n            },\n");
}

fn replicaset(o: &mut String, uses: &mut BTreeSet<&'static str>, rs: &ReplicaSetSpec) {
    uses.insert("super::ReplicaSetSpec");
    let _ = writeln!(
        o,
        "            ReplicaSetSpec {{ deployment: {:?}.into(), replicas: {}, created_after: {} }},",
        rs.deployment,
        rs.replicas,
        millis(uses, rs.created_after)
    );
}

fn action(o: &mut String, uses: &mut BTreeSet<&'static str>, a: &Action) {
    uses.insert("super::scripted");
    let _ = writeln!(o, "            scripted({:?}),", a.to_string());
}

fn step_spec(o: &mut String, uses: &mut BTreeSet<&'static str>, step: &StepSpec) {
    uses.insert("super::StepSpec");
    let shows = step.shows.as_ref().map_or("None".into(), |a| format!("Some({})", anchor(uses, a)));
    let _ = writeln!(
        o,
        "            StepSpec {{\n                anchor: {},\n                lead: {},\n                shows: {shows},\n                after: {},\n            }},",
        anchor(uses, &step.anchor),
        millis(uses, step.lead),
        millis(uses, step.after)
    );
}

fn anchor(uses: &mut BTreeSet<&'static str>, a: &Anchor) -> String {
    uses.insert("super::Anchor");
    match a {
        Anchor::At(d) => format!("Anchor::At({})", millis(uses, *d)),
        Anchor::Input(kind) => {
            uses.insert("super::input");
            format!("input({:?})", kind.name())
        }
        Anchor::Event { reason, contains } => format!("Anchor::event({reason:?}, {contains:?})"),
        Anchor::Request { method, path_ends } => {
            uses.insert("super::Method");
            format!("Anchor::request(Method::{method:?}, {path_ends:?})")
        }
        Anchor::Taint { node, key, effect } => format!("Anchor::taint({node:?}, {key:?}, {effect:?})"),
        Anchor::Kubectl { contains } => format!("Anchor::kubectl({contains:?})"),
        Anchor::LogLine { contains } => format!("Anchor::log_line({contains:?})"),
    }
}

fn words(stories: &[(Chapter, Story)]) -> String {
    let mut o = header("The chapters' words in English and Japanese");
    o.push_str("use super::{ChapterText, Lang, StepText};\nuse crate::sim::Chapter;\n\n");
    o.push_str("/// The chapter's title, summary and steps in `lang`.\n");
    o.push_str("pub(super) fn chapter(lang: Lang, chapter: Chapter) -> &'static ChapterText {\n");
    o.push_str("    match (lang, chapter) {\n");
    for (chapter, _) in stories {
        for lang in ["En", "Ja"] {
            let _ = writeln!(o, "        (Lang::{lang}, Chapter::{chapter:?}) => &{},", text_name(*chapter, lang));
        }
    }
    o.push_str("    }\n}\n");
    for (chapter, story) in stories {
        for lang in ["En", "Ja"] {
            let pick = |w: &Words| if lang == "En" { w.en.clone() } else { w.ja.clone().unwrap_or_default() };
            let _ = write!(
                o,
                "\nstatic {}: ChapterText = ChapterText {{\n    title: {:?},\n    summary: {:?},\n    steps: &[\n",
                text_name(*chapter, lang),
                pick(&story.title),
                pick(&story.summary)
            );
            for step in &story.steps {
                let body = if lang == "En" { &step.en } else { step.ja.as_ref().unwrap_or(&step.en) };
                let _ = writeln!(
                    o,
                    "        StepText {{\n            title: {:?},\n            body: &[",
                    pick(&step.title)
                );
                for paragraph in body {
                    let _ = writeln!(o, "                {paragraph:?},");
                }
                o.push_str("            ],\n        },\n");
            }
            o.push_str("    ],\n};\n");
        }
    }
    o
}

fn text_name(chapter: Chapter, lang: &str) -> String {
    format!("{}_{}", function(chapter).to_uppercase(), lang.to_uppercase())
}
