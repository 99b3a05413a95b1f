//! Story files: a chapter written as YAML (`stories/ID.yaml`) by a course author, an SRE or a
//! docs author, without Rust. [`load`] reads one and checks it, and gives the [`Story`] (the
//! simulation's [`Scenario`] with its configuration, and its words) or every problem, each with
//! its line and column; `nodeline story check` prints them, and `--story PATH` runs one.
//!
//! The file's shape is [`file::StoryFile`]; `stories/story.schema.json` is its JSON Schema,
//! derived from those types ([`schema`]), so an editor with a YAML language server completes and
//! checks a story as it is typed.

mod asked;
#[cfg(not(target_arch = "wasm32"))]
mod build;
pub mod compact;
#[cfg(not(target_arch = "wasm32"))]
mod export;
#[cfg(not(target_arch = "wasm32"))]
pub mod file;
#[cfg(not(target_arch = "wasm32"))]
pub mod generate;
mod question;

use std::fmt;

use crate::sim::{Chapter, Config, Scenario};

pub use asked::{Asked, Questions};
#[cfg(not(target_arch = "wasm32"))]
pub use build::MAX_DURATION;
#[cfg(not(target_arch = "wasm32"))]
pub use export::{SCHEMA_LINE, export};
pub use question::{Ask, Labelled, StoryQuestion};

/// A story, checked: what to simulate, and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    pub id: String,
    pub title: Words,
    pub summary: Words,
    /// The chapter the page's chapter list shows the story before (`listBefore`); `None`: after
    /// the chapters, among "more stories".
    pub list_before: Option<Chapter>,
    /// The cluster and its script. `scenario.chapter` is `None`.
    pub scenario: Scenario,
    /// The configuration the story sets (its Kubernetes version); seed and epoch as by default.
    pub config: Config,
    /// Each step's words, in step order.
    pub steps: Vec<StepWords>,
    /// Question mode's questions.
    pub questions: Vec<StoryQuestion>,
}

/// A text in English and, where the story gives it, Japanese.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    pub en: String,
    pub ja: Option<String>,
}

/// A step's title and paragraphs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepWords {
    pub title: Words,
    pub en: Vec<String>,
    pub ja: Option<Vec<String>>,
}

/// Something wrong in a story file, where it is (1-based; 0 when the place is not known).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

#[cfg(not(target_arch = "wasm32"))]
impl Problem {
    /// A problem at `at` (a value's place as the YAML reader found it).
    pub(crate) fn at(at: serde_saphyr::Location, message: impl Into<String>) -> Problem {
        Problem { line: at.line(), column: at.column(), message: message.into() }
    }
}

/// Every problem of one file, in the form compilers use: `FILE:LINE:COLUMN: MESSAGE`, a line each,
/// in the order of the file.
pub struct Report<'a> {
    pub file: &'a str,
    pub problems: &'a [Problem],
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in self.problems {
            match (p.line, p.column) {
                (0, _) => writeln!(f, "{}: {}", self.file, p.message)?,
                (line, column) => writeln!(f, "{}:{line}:{column}: {}", self.file, p.message)?,
            }
        }
        Ok(())
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Reads and checks a story file's text. `id` is the id its file name gives (`NAME.yaml`), when
/// it has one: the story's `id` must be the same.
pub fn load(text: &str, id: Option<&str>) -> Result<Story, Vec<Problem>> {
    let file: file::StoryFile = match serde_saphyr::from_str(text) {
        Ok(file) => file,
        Err(e) => return Err(vec![yaml_problem(&e)]),
    };
    build::build(file, id)
}

#[cfg(not(target_arch = "wasm32"))]
/// The YAML reader's error as a problem: its place, and its message without the place (which the
/// report prints in front) and without the quoted source it adds.
fn yaml_problem(e: &serde_saphyr::Error) -> Problem {
    let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
    let rendered = e.without_snippet().to_string();
    let first = rendered.lines().next().unwrap_or_default().trim();
    // The reader ends its message with " at line L column C": the report says that already.
    let message = match first.rfind(" at line ") {
        Some(i) if line > 0 => &first[..i],
        _ => first,
    };
    Problem { line, column, message: message.to_string() }
}

#[cfg(not(target_arch = "wasm32"))]
/// The JSON Schema of story files, as `stories/story.schema.json` holds it. The values that
/// come from nodeline's own lists (Kubernetes versions, action names) are enumerated from them.
pub fn schema() -> String {
    let mut schema = serde_json::to_value(schemars::schema_for!(file::StoryFile)).expect("a schema is JSON");
    let versions: Vec<&str> = crate::sim::Profile::ALL.iter().map(|p| p.as_str()).collect();
    let actions: Vec<&str> = crate::sim::ACTIONS.iter().map(|s| s.name).collect();
    if let Some(k8s) = schema.pointer_mut("/properties/k8s") {
        k8s["enum"] = serde_json::json!(versions);
    }
    if let Some(settings) = schema.pointer_mut("/properties/settings") {
        *settings = settings_schema();
    }
    let whens = schema.pointer_mut("/$defs/When/oneOf").and_then(|w| w.as_array_mut());
    for when in whens.into_iter().flatten() {
        if let Some(input) = when.pointer_mut("/properties/input") {
            input["enum"] = serde_json::json!(actions);
        }
    }
    let mut out = serde_json::to_string_pretty(&schema).expect("a schema is JSON");
    out.push('\n');
    out
}

#[cfg(not(target_arch = "wasm32"))]
/// The `settings` key's schema, from the table of settings: each component, each setting it
/// models with its meaning, type and 1.34 default, and nothing else.
fn settings_schema() -> serde_json::Value {
    use crate::sim::settings::{Component, ROWS, Type};
    use serde_json::{Map, Value, json};
    let mut components = Map::new();
    for component in Component::ALL {
        let mut names = Map::new();
        for row in ROWS.iter().filter(|r| r.component == component) {
            let default = row.default(crate::sim::Profile::default());
            let (kind, pattern) = match row.type_ {
                Type::Duration => (json!("string"), Some(r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$|^0$")),
                Type::Float => (json!(["number", "string"]), None),
                Type::Integer => (json!(["integer", "string"]), None),
                Type::Boolean => (json!(["boolean", "string"]), None),
                Type::Thresholds | Type::GracePeriods => (json!(["object", "string"]), None),
            };
            let mut schema = json!({
                "description": format!("{} ({}; default {default})", row.meaning(), row.type_.name()),
                "type": kind,
            });
            if matches!(row.type_, Type::Thresholds | Type::GracePeriods) {
                let signal = crate::sim::settings::MEMORY_AVAILABLE;
                schema["properties"] = json!({ signal: { "type": "string" } });
                schema["additionalProperties"] = json!(false);
            }
            if let Some(pattern) = pattern {
                schema["pattern"] = json!(pattern);
            }
            names.insert(row.name.to_string(), schema);
        }
        components.insert(
            component.name().to_string(),
            json!({ "type": "object", "properties": Value::Object(names), "additionalProperties": false }),
        );
    }
    json!({
        "description": "Settings of the cluster's components, by component and by the name Kubernetes gives them: \
                        kube-controller-manager's, kube-apiserver's and kube-scheduler's flags without their dashes, \
                        the kubelet's KubeletConfiguration fields. A setting the simulation does not model is refused.",
        "type": "object",
        "properties": Value::Object(components),
        "additionalProperties": false,
    })
}
