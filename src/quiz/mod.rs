//! Questions that pause the story before the moments that matter ("predict, then see").
//!
//! A question is a kind of answer (pick an option, order events, give a time, pick a node), a
//! stable id, and a derivation: a query on a chapter's [`Timeline`] that finds the moment to stop
//! at, the moment the answer becomes visible, and the answer itself. Nothing here is typed in as
//! a number: the same question stays right in the 1.31 profile, or when the simulation changes
//! (a question whose moment a timeline lacks, because the reader's actions changed the story, is
//! simply not asked). The words (prompt, options, why) are in the catalogue
//! ([`crate::i18n::Lang::question`]); this module is pure and shared by the page and the CLI.

mod catalogue;
pub mod progress;
mod query;

use std::time::Duration;

use crate::i18n::{Lang, fill, plain};
use crate::sim::{Chapter, SimTime, StepTime, Timeline};

pub use catalogue::questions;
pub use progress::{Mark, Progress};

/// How a question is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Pick one of three or four options.
    Choice,
    /// Put several events in the order they happen.
    Order,
    /// Give a time in seconds, within a tolerance.
    Time,
    /// Pick a node on the stage.
    Node,
}

impl Kind {
    /// The kind's name in the command line's JSON.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Choice => "choice",
            Kind::Order => "order",
            Kind::Time => "time",
            Kind::Node => "node",
        }
    }
}

/// A part of the page that could give an answer away while its question is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// The narration: the current step's text and the titles of the steps to come.
    Narration,
    /// The timeline's marks (step markers, request and event ticks, which show the future).
    Track,
    /// The inspector (its grace period countdown, a Pod's tolerations).
    Inspector,
    /// The fleet stage's tainting rates and its chart, which is drawn to the end of the story.
    Fleet,
}

impl Region {
    /// The region's name in the page's `data-quiz-conceal` attribute.
    pub fn id(self) -> &'static str {
        match self {
            Region::Narration => "narration",
            Region::Track => "track",
            Region::Inspector => "inspector",
            Region::Fleet => "fleet",
        }
    }
}

/// One question of a chapter.
#[derive(Debug)]
pub struct Question {
    /// Stable id (in embed messages and the command line's JSON).
    pub id: &'static str,
    pub chapter: Chapter,
    pub kind: Kind,
    /// [`Kind::Choice`]: the options' values; [`Kind::Order`]: the events' ids, in the order
    /// shown (not the order they happen); otherwise empty. The catalogue has a label for each.
    pub options: &'static [&'static str],
    /// What is hidden while the question is open (the stage, which shows only the present,
    /// always stays).
    pub conceal: &'static [Region],
    derive: fn(&Timeline) -> Option<Derived>,
}

/// Questions are the same when their ids are.
impl PartialEq for Question {
    fn eq(&self, other: &Question) -> bool {
        self.id == other.id
    }
}

impl Question {
    /// The stop, the answer and the facts for the explanation, from a timeline computed past the
    /// answer's moment; `None` when this timeline does not contain the question's story.
    pub fn derive(&self, timeline: &Timeline) -> Option<Derived> {
        (self.derive)(timeline).filter(|d| d.holds(self.options.len()))
    }
}

impl Derived {
    /// Whether the derivation is one a reader can be asked: an answer among `options` options
    /// (for choice and order questions), a finite time, a node on the stage, and a stop before
    /// the answer shows.
    pub fn holds(&self, options: usize) -> bool {
        let valid = match &self.answer {
            Answer::Choice(i) => *i < options,
            Answer::Order(order) => {
                let mut sorted = order.clone();
                sorted.sort_unstable();
                sorted == (0..options).collect::<Vec<_>>()
            }
            Answer::Time { seconds, tolerance } => seconds.is_finite() && *tolerance > 0.0,
            Answer::Node { nodes, right } => *right < nodes.len(),
        };
        valid && self.stop < self.reveal
    }
}

/// The first moment from `from` on that a Pod which did not exist before `from` is bound to a
/// node, and that node.
pub fn new_pod_bound(timeline: &Timeline, from: SimTime) -> Option<(SimTime, String)> {
    query::new_pod_bound(timeline.log(), from).map(|(at, node)| (at.t, node))
}

/// What a question's derivation finds in a timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    /// Where playback stops to ask.
    pub stop: SimTime,
    /// The first moment the answer can be seen.
    pub reveal: SimTime,
    pub answer: Answer,
    /// Values for the explanation's `{0}`, `{1}`, … (seconds, a node's name, a version).
    pub facts: Vec<String>,
}

/// The right answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The index of the right option.
    Choice(usize),
    /// The options' indices in the order the events happen.
    Order(Vec<usize>),
    /// Seconds, and how far off an answer may be.
    Time { seconds: f64, tolerance: f64 },
    /// The Nodes on the stage at the stop, by name, and the right one.
    Node { nodes: Vec<String>, right: usize },
}

/// A reader's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    Choice(usize),
    Order(Vec<usize>),
    Seconds(f64),
    Node(usize),
}

impl Answer {
    /// Whether `response` is right.
    pub fn accepts(&self, response: &Response) -> bool {
        match (self, response) {
            (Answer::Choice(a), Response::Choice(b)) => a == b,
            (Answer::Order(a), Response::Order(b)) => a == b,
            (Answer::Time { seconds, tolerance }, Response::Seconds(s)) => {
                s.is_finite() && (s - seconds).abs() <= *tolerance
            }
            (Answer::Node { right, .. }, Response::Node(n)) => right == n,
            _ => false,
        }
    }
}

/// Seconds as the page and the command line print them: whole seconds, or tenths below ten.
pub fn seconds_label(seconds: f64) -> String {
    let tenths = (seconds * 10.0).round() / 10.0;
    if seconds.abs() >= 10.0 || tenths.fract() == 0.0 {
        format!("{}", seconds.round() as i64)
    } else {
        format!("{tenths:.1}")
    }
}

/// Seconds between two moments.
fn seconds_between(from: SimTime, to: SimTime) -> f64 {
    to.saturating_since(from).as_secs_f64()
}

/// Seconds of a duration, as an explanation prints them.
fn whole_seconds(d: Duration) -> String {
    seconds_label(d.as_secs_f64())
}

/// The 1-based step the playhead is in at `t` (the step a reader plays again from its lead-in
/// to see the moment again), or 1.
pub fn step_at(steps: &[Option<StepTime>], t: SimTime) -> usize {
    crate::sim::scenario::current_step(steps, t).max(1)
}

/// A question's prompt or explanation with its facts filled in (narration markup kept).
fn filled(text: &str, derived: &Derived) -> String {
    let facts: Vec<&str> = derived.facts.iter().map(String::as_str).collect();
    fill(text, &facts)
}

/// The question's prompt, as narration markup.
pub fn prompt(lang: Lang, q: &Question, derived: &Derived) -> String {
    lang.question(q.id).map(|t| filled(t.prompt, derived)).unwrap_or_default()
}

/// Why the answer is what it is, as narration markup.
pub fn why(lang: Lang, q: &Question, derived: &Derived) -> String {
    lang.question(q.id).map(|t| filled(t.why, derived)).unwrap_or_default()
}

/// The labels of a choice or order question's options (narration markup), in the order shown.
pub fn options(lang: Lang, q: &Question) -> Vec<&'static str> {
    lang.question(q.id).map(|t| t.options.to_vec()).unwrap_or_default()
}

/// The right answer in words (plain text), given the options' labels in the order shown.
pub fn answer_words(labels: &[&str], derived: &Derived) -> String {
    let label = |i: usize| labels.get(i).map(|l| plain(l)).unwrap_or_default();
    match &derived.answer {
        Answer::Choice(i) => label(*i),
        Answer::Order(order) => order.iter().map(|i| label(*i)).collect::<Vec<_>>().join(" → "),
        Answer::Time { seconds, .. } => format!("{} s", seconds_label(*seconds)),
        Answer::Node { nodes, right } => nodes.get(*right).cloned().unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked_by_kind() {
        assert!(Answer::Choice(1).accepts(&Response::Choice(1)));
        assert!(!Answer::Choice(1).accepts(&Response::Choice(2)));
        assert!(!Answer::Choice(1).accepts(&Response::Node(1)));
        assert!(Answer::Order(vec![2, 0, 1]).accepts(&Response::Order(vec![2, 0, 1])));
        assert!(!Answer::Order(vec![2, 0, 1]).accepts(&Response::Order(vec![0, 2, 1])));
        let time = Answer::Time { seconds: 57.9, tolerance: 5.0 };
        assert!(time.accepts(&Response::Seconds(55.0)));
        assert!(time.accepts(&Response::Seconds(62.9)));
        assert!(!time.accepts(&Response::Seconds(50.0)));
        assert!(!time.accepts(&Response::Seconds(f64::NAN)));
        let node = Answer::Node { nodes: vec!["node-1".into(), "node-2".into()], right: 1 };
        assert!(node.accepts(&Response::Node(1)) && !node.accepts(&Response::Node(0)));
    }

    #[test]
    fn labels_seconds() {
        assert_eq!(seconds_label(57.86), "58");
        assert_eq!(seconds_label(300.001), "300");
        assert_eq!(seconds_label(1.4), "1.4");
        assert_eq!(seconds_label(5.0), "5");
    }

    #[test]
    fn finds_the_step_of_a_moment() {
        let at = |start: u64, moment: u64| {
            Some(StepTime { start: SimTime::from_secs(start), moment: SimTime::from_secs(moment) })
        };
        let steps = [at(0, 0), at(9, 10), None, at(30, 30)];
        assert_eq!(step_at(&steps, SimTime::from_millis(8_999)), 1);
        // In step 2's lead-in: step 2, played again from there.
        assert_eq!(step_at(&steps, SimTime::from_secs(9)), 2);
        assert_eq!(step_at(&steps, SimTime::from_secs(10)), 2);
        assert_eq!(step_at(&steps, SimTime::from_secs(40)), 4);
        assert_eq!(step_at(&[], SimTime::from_secs(40)), 1);
    }
}
