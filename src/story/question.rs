//! A story file's questions: what the reader predicts, and how the answer is found in the
//! story's timeline from moments written as the steps' are (the [`Anchor`] vocabulary), so no
//! answer is ever typed in.

use std::time::Duration;

use crate::i18n::Lang;
use crate::quiz::{self, Answer, Derived, Kind};
use crate::sim::scenario::{Anchor, first_from};
use crate::sim::{SimTime, Timeline};

use super::Words;

/// One question of a story.
#[derive(Clone, Debug, PartialEq)]
pub struct StoryQuestion {
    pub id: String,
    /// The step (1-based) at whose start the story stops to ask.
    pub stop: usize,
    pub prompt: Words,
    pub ask: Ask,
    /// Why, with `{0}` for the answer.
    pub why: Words,
}

/// What is asked.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// The right option is the first of them to happen after the stop.
    Choice(Vec<Labelled>),
    /// The options in the order they happen after the stop.
    Order(Vec<Labelled>),
    /// Seconds from the first `from` to the first `to` after both it and the stop.
    Time { from: Anchor, to: Anchor, tolerance: Duration },
    /// The node the first Pod created after the stop is placed on.
    Node,
}

/// A moment of the story as an option, with its words.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    pub when: Anchor,
    pub label: Words,
}

/// The default tolerance of a time question: the node monitor's period.
pub(super) const DEFAULT_TOLERANCE: Duration = Duration::from_secs(5);

impl StoryQuestion {
    /// How the reader answers.
    pub fn kind(&self) -> Kind {
        match self.ask {
            Ask::Choice(_) => Kind::Choice,
            Ask::Order(_) => Kind::Order,
            Ask::Time { .. } => Kind::Time,
            Ask::Node => Kind::Node,
        }
    }

    /// The options of a choice or order question, in the order written.
    pub fn options(&self) -> &[Labelled] {
        match &self.ask {
            Ask::Choice(options) | Ask::Order(options) => options,
            Ask::Time { .. } | Ask::Node => &[],
        }
    }

    /// The stop, the answer and its fact (the seconds, the node), from a timeline computed past
    /// the answer; `None` when the timeline does not hold the question's story.
    pub fn derive(&self, timeline: &Timeline) -> Option<Derived> {
        let log = timeline.log();
        let stop = timeline.steps().get(self.stop.checked_sub(1)?).copied().flatten()?.start;
        let derived = match &self.ask {
            Ask::Choice(options) => {
                let (right, reveal) = options
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| first_from(&o.when, log, stop).map(|t| (i, t)))
                    .min_by_key(|(i, t)| (*t, *i))?;
                Derived { stop, reveal, answer: Answer::Choice(right), facts: Vec::new() }
            }
            Ask::Order(options) => {
                let moments: Vec<SimTime> =
                    options.iter().map(|o| first_from(&o.when, log, stop)).collect::<Option<_>>()?;
                let mut order: Vec<usize> = (0..moments.len()).collect();
                order.sort_by_key(|i| (moments[*i], *i));
                let reveal = moments.iter().copied().min()?;
                Derived { stop, reveal, answer: Answer::Order(order), facts: Vec::new() }
            }
            Ask::Time { from, to, tolerance } => {
                let from_t = first_from(from, log, SimTime::ZERO)?;
                let to_t = first_from(to, log, from_t.max(stop))?;
                let seconds = to_t.saturating_since(from_t).as_secs_f64();
                Derived {
                    stop,
                    reveal: to_t,
                    answer: Answer::Time { seconds, tolerance: tolerance.as_secs_f64() },
                    facts: vec![quiz::seconds_label(seconds)],
                }
            }
            Ask::Node => {
                let nodes: Vec<String> =
                    timeline.at(stop).nodes().iter().map(|n| n.metadata.name.to_string()).collect();
                let (reveal, node) = quiz::new_pod_bound(timeline, stop)?;
                let right = nodes.iter().position(|n| *n == node)?;
                Derived { stop, reveal, answer: Answer::Node { nodes, right }, facts: vec![node] }
            }
        };
        // The configuration the words quote, after the answer's own facts (the page's form has
        // them written in already: see `quoting`).
        #[cfg(not(target_arch = "wasm32"))]
        let derived = {
            let mut derived = derived;
            let config = timeline.config();
            derived.facts.extend(self.named().into_iter().map(|name| configured(name, config)));
            derived
        };
        derived.holds(self.options().len()).then_some(derived)
    }

    /// This question with the configuration its `why` quotes written in, as `config` gives it
    /// (the page's form: the page runs a story with the configuration its file gives).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn quoting(&self, config: &crate::sim::Config) -> StoryQuestion {
        let fill = |text: &str| {
            let mut text = text.to_string();
            for name in self.named() {
                text = text.replace(&format!("{{{name}}}"), &configured(name, config));
            }
            text
        };
        let why = Words { en: fill(&self.why.en), ja: self.why.ja.as_deref().map(fill) };
        StoryQuestion { why, ..self.clone() }
    }

    /// The names of the configuration the question's words quote (`{k8s}`,
    /// `{COMPONENT:SETTING}`), in the order they first appear in its English, then its Japanese.
    #[cfg(not(target_arch = "wasm32"))]
    fn named(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for text in [Some(self.why.en.as_str()), self.why.ja.as_deref()].into_iter().flatten() {
            for name in quoted_names(text) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }

    /// The prompt in `lang` (English where the story has no Japanese).
    pub fn prompt(&self, lang: Lang) -> &str {
        self.prompt.get(lang)
    }

    /// Why, in `lang`, with the answer and the configuration it quotes filled in (in the page's
    /// form the configuration is written in already).
    pub fn why(&self, lang: Lang, derived: &Derived) -> String {
        let facts: Vec<&str> = derived.facts.iter().map(String::as_str).collect();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let names = self.named();
            // The quoted names' values are the last facts, in the order of `named`.
            let first = facts.len().saturating_sub(names.len());
            let mut text = self.why.get(lang).to_string();
            for (i, name) in names.iter().enumerate() {
                text = text.replace(&format!("{{{name}}}"), &format!("{{{}}}", first + i));
            }
            crate::i18n::fill(&text, &facts)
        }
        #[cfg(target_arch = "wasm32")]
        crate::i18n::fill(self.why.get(lang), &facts)
    }

    /// The options' labels in `lang`, in the order written.
    pub fn labels(&self, lang: Lang) -> Vec<&str> {
        self.options().iter().map(|o| o.label.get(lang)).collect()
    }
}

/// The configuration names `text` quotes in braces, in order: `k8s` (the Kubernetes version) and
/// `COMPONENT:SETTING` (a setting's value as Kubernetes prints it). A story file's check holds
/// each to a setting the simulation models.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn quoted_names(text: &str) -> impl Iterator<Item = &str> {
    text.split('{').skip(1).filter_map(|rest| {
        let name = &rest[..rest.find('}')?];
        let setting = name.split_once(':').is_some_and(|(c, n)| {
            !c.is_empty()
                && !n.is_empty()
                && c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-')
                && n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '.')
        });
        (name == "k8s" || setting).then_some(name)
    })
}

/// The value a quoted name stands for in a configuration (empty for one that names nothing: the
/// story's check refuses those).
#[cfg(not(target_arch = "wasm32"))]
fn configured(name: &str, config: &crate::sim::Config) -> String {
    match name.split_once(':') {
        None => config.profile.as_str().to_string(),
        Some((component, setting)) => {
            config.settings().get(component, setting).map(|v| v.to_string()).unwrap_or_default()
        }
    }
}

impl Words {
    /// The text in `lang`: English where the story has no Japanese.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ja => self.ja.as_deref().unwrap_or(&self.en),
            Lang::En => &self.en,
        }
    }
}
