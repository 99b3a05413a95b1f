//! Question mode's view model: which question is due as the playhead moves, what the page says
//! after an answer, the reader's progress and the chapter's summary. The questions and their
//! answers are [`crate::quiz`]'s; this adds the reader.

use crate::i18n::{Key, Lang, plain};
use crate::link::Link;
use crate::quiz::{self, Answer, Derived, Kind, Mark, Progress, Response};
use crate::sim::{SimTime, StepTime};
use crate::story::{Asked, Questions};

/// The question on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Open {
    /// The question's index among the questions of what is told.
    pub index: usize,
    /// The reader's answer and whether it was right, once given.
    pub result: Option<(Response, bool)>,
}

/// An answer, for the embed's `nodeline:answer` message.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    /// Counts answers, so that two equal answers are two messages.
    pub seq: u64,
    pub id: String,
    pub value: Value,
    pub right: bool,
}

/// An answer as a plain value: an option's value, the events' ids in the reader's order, seconds,
/// or a node's name.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    List(Vec<String>),
    Number(f64),
}

/// The reader's side of question mode.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuizState {
    pub enabled: bool,
    /// Each chapter's or story's progress, by [`Questions::key`] (the URL keeps the current
    /// one's).
    pub progress: Vec<(String, Progress)>,
    pub open: Option<Open>,
    /// Questions passed over with Skip: not asked again until the playhead goes back before
    /// them.
    pub skipped: Vec<usize>,
    /// The last answer.
    pub answered: Option<Answered>,
    /// What the live region last said of an answer, numbered so a repeat is said again.
    pub said: Option<(u64, String)>,
    /// The node picked so far for a "which node" question waiting for its answer (its radio
    /// button or its machine on the stage): the stage highlights that machine.
    pub picked: Option<String>,
}

impl QuizState {
    /// The state a link asks for, whose questions are `questions`.
    pub fn from_link(link: &Link, questions: Questions) -> QuizState {
        QuizState {
            enabled: link.quiz,
            progress: link.progress.clone().map(|p| vec![(questions.key(), p)]).unwrap_or_default(),
            ..QuizState::default()
        }
    }

    /// The progress through `questions`.
    pub fn progress(&self, questions: Questions) -> Progress {
        let key = questions.key();
        self.progress
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, p)| p.clone())
            .unwrap_or_else(|| Progress::new(questions.len()))
    }

    /// Records an answer to question `index` of `questions`.
    pub fn answer(&mut self, questions: Questions, index: usize, derived: &Derived, response: Response) -> bool {
        let Some(q) = questions.get(index) else { return false };
        let right = derived.answer.accepts(&response);
        let mut progress = self.progress(questions);
        progress.set(index, right);
        let key = questions.key();
        self.progress.retain(|(k, _)| *k != key);
        self.progress.push((key, progress));
        let seq = self.answered.as_ref().map_or(0, |a| a.seq + 1);
        self.answered = Some(Answered { seq, id: q.id().to_string(), value: value(q, derived, &response), right });
        self.open = Some(Open { index, result: Some((response, right)) });
        right
    }

    /// Forgets what was skipped or on screen (another chapter, the story started again).
    pub fn new_pass(&mut self) {
        self.open = None;
        self.skipped.clear();
    }

    /// Whether a question waits for an answer (the page then hides what would give it away).
    pub fn asking(&self) -> bool {
        self.open.as_ref().is_some_and(|o| o.result.is_none())
    }

    /// Whether a "which node" question of `questions` waits for its answer: a click on a machine
    /// on the stage then picks that node.
    pub fn picking_node(&self, questions: Questions) -> bool {
        self.open
            .as_ref()
            .filter(|o| o.result.is_none())
            .and_then(|o| questions.get(o.index))
            .is_some_and(|q| q.kind() == Kind::Node)
    }
}

/// The position of node `name` among a "which node" question's choices (`None`: not one of
/// them, or not such a question).
pub fn node_choice(derived: &Derived, name: &str) -> Option<usize> {
    match &derived.answer {
        Answer::Node { nodes, .. } => nodes.iter().position(|n| n == name),
        _ => None,
    }
}

/// Where playing from `from` looks for a question's stop: the start of the step whose lead-in
/// `from` lies in (a step's stop is its lead-in's start, before the moment a paused step shows),
/// so a reader who turns question mode on at a step's moment, or pauses there, is still asked
/// that step's question when playback goes on.
pub fn asked_from(steps: &[Option<StepTime>], from: SimTime) -> SimTime {
    steps.iter().flatten().find(|s| s.start <= from && from <= s.moment).map_or(from, |s| s.start)
}

/// The question due when the playhead moves from `from` to `to`: the first one not answered
/// or skipped whose stop lies in between (a stop right at `from` counts, so that playing from a
/// step whose moment is a stop asks at once).
pub fn due(
    derived: &[Option<Derived>],
    progress: &Progress,
    skipped: &[usize],
    from: SimTime,
    to: SimTime,
) -> Option<usize> {
    if to <= from {
        return None;
    }
    derived.iter().enumerate().find_map(|(i, d)| {
        let d = d.as_ref()?;
        (progress.mark(i) == Mark::Open && !skipped.contains(&i) && from <= d.stop && d.stop <= to).then_some(i)
    })
}

/// What the page says after an answer: right or not, the answer when it was not, and why.
pub fn result_text(lang: Lang, q: Asked, derived: &Derived, right: bool) -> String {
    let mut parts = vec![lang.text(if right { Key::QuizRight } else { Key::QuizWrong }).to_string()];
    if !right || matches!(derived.answer, Answer::Time { .. }) {
        parts.push(lang.fill(Key::QuizAnswerWas, &[&q.answer_text(lang, derived)]));
    }
    parts.push(plain(&q.why(lang, derived)));
    parts.join(" ")
}

/// An answer as the embed reports it.
pub fn value(q: Asked, derived: &Derived, response: &Response) -> Value {
    let values = q.values();
    match response {
        Response::Choice(i) => Value::Text(values.get(*i).cloned().unwrap_or_default()),
        Response::Order(order) => Value::List(order.iter().filter_map(|i| values.get(*i)).cloned().collect()),
        Response::Seconds(s) => Value::Number(*s),
        Response::Node(i) => match &derived.answer {
            Answer::Node { nodes, .. } => Value::Text(nodes.get(*i).cloned().unwrap_or_default()),
            _ => Value::Text(String::new()),
        },
    }
}

/// Reads a number of seconds as a reader types it (`58`, `57.5`, `57,5`, ` 58 s`).
pub fn parse_seconds(text: &str) -> Option<f64> {
    let t = text.trim().trim_end_matches(['s', '秒']).trim().replace(',', ".");
    let full: String = t
        .chars()
        .map(|c| if ('０'..='９').contains(&c) { char::from_u32(c as u32 - 0xFEE0).unwrap_or(c) } else { c })
        .collect();
    full.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)
}

/// Moves item `at` of an order one place up (`up`) or down; nothing at the ends.
pub fn move_item(order: &mut [usize], at: usize, up: bool) {
    let other = if up { at.checked_sub(1) } else { Some(at + 1) };
    if let Some(o) = other.filter(|o| *o < order.len()) {
        order.swap(at, o);
    }
}

/// The `data-quiz-conceal` value for an open question: the regions it hides.
pub fn conceal(q: Asked) -> String {
    q.conceal().iter().map(|r| r.id()).collect::<Vec<_>>().join(" ")
}

/// One line of the chapter's summary: a question answered wrong, and the step to replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Missed {
    pub index: usize,
    pub step: usize,
    /// The question's prompt, plain.
    pub prompt: String,
}

/// The chapter's summary: answered, right, of how many (the questions this timeline asks), and
/// each question answered wrong with the step to play it again from.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub answered: usize,
    pub right: usize,
    pub total: usize,
    pub missed: Vec<Missed>,
}

/// The summary of `questions` for a timeline that says `derived` of them and whose steps are
/// `steps`.
pub fn summary(
    lang: Lang,
    questions: Questions,
    derived: &[Option<Derived>],
    steps: &[Option<StepTime>],
    progress: &Progress,
) -> Summary {
    let missed = derived
        .iter()
        .enumerate()
        .filter(|(i, _)| progress.mark(*i) == Mark::Wrong)
        .filter_map(|(i, d)| {
            let d = d.as_ref()?;
            Some(Missed {
                index: i,
                step: quiz::step_at(steps, d.stop),
                prompt: plain(&questions.get(i)?.prompt(lang, d)),
            })
        })
        .collect();
    Summary {
        answered: progress.answered(),
        right: progress.right(),
        total: derived.iter().filter(|d| d.is_some()).count(),
        missed,
    }
}

/// The progress line ("Questions: 2 of 5 answered, 1 right").
pub fn progress_text(lang: Lang, progress: &Progress, total: usize) -> String {
    lang.fill(Key::QuizProgress, &[&progress.answered().to_string(), &total.to_string(), &progress.right().to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, Timeline};

    const NODE_FAILURE: Questions = Questions::Chapter(Chapter::NodeFailure);

    fn node_failure() -> (Timeline, Vec<Option<Derived>>) {
        let mut tl = Timeline::new(Chapter::NodeFailure, Config::default());
        tl.run_until(SimTime::from_secs(800));
        let derived = NODE_FAILURE.derive_all(&tl);
        (tl, derived)
    }

    #[test]
    fn a_question_is_due_when_the_playhead_crosses_its_stop() {
        let (_, derived) = node_failure();
        let stop = derived[0].as_ref().unwrap().stop;
        let open = Progress::new(derived.len());
        let before = stop.saturating_sub(std::time::Duration::from_millis(100));
        assert_eq!(due(&derived, &open, &[], before, stop + std::time::Duration::from_secs(30)), Some(0));
        assert_eq!(due(&derived, &open, &[], stop, stop + std::time::Duration::from_millis(16)), Some(0));
        assert_eq!(due(&derived, &open, &[], SimTime::ZERO, before), None);
        assert_eq!(due(&derived, &open, &[], stop, stop), None, "paused");
        let mut answered = open.clone();
        answered.set(0, false);
        assert_eq!(due(&derived, &answered, &[], before, stop), None);
        assert_eq!(due(&derived, &open, &[0], before, stop), None, "skipped");
    }

    #[test]
    fn playing_on_from_a_steps_moment_asks_its_question() {
        let (tl, derived) = node_failure();
        let open = Progress::new(derived.len());
        let steps = tl.steps();
        // Every question whose stop is a step's lead-in is due when playback goes on from that
        // step's moment (a paused link, Next step, a mark), not only from before its stop.
        let mut asked = 0;
        for (i, d) in derived.iter().enumerate() {
            let Some(d) = d else { continue };
            let Some(step) = steps.iter().flatten().find(|s| s.start == d.stop && s.moment > s.start) else { continue };
            let from = asked_from(&steps, step.moment);
            assert_eq!(from, step.start);
            assert_eq!(
                due(&derived, &open, &[], step.moment, step.moment + std::time::Duration::from_millis(16)),
                None
            );
            let found = due(&derived, &open, &[], from, step.moment + std::time::Duration::from_millis(16));
            assert_eq!(found.map(|f| derived[f].as_ref().unwrap().stop), Some(d.stop), "question {i}");
            asked += 1;
        }
        assert!(asked >= 2, "{asked}");
        // Between steps, from is from.
        let after = steps[0].unwrap().moment + std::time::Duration::from_millis(1);
        if steps[1].unwrap().start > after {
            assert_eq!(asked_from(&steps, after), after);
        }
    }

    #[test]
    fn answers_are_recorded_and_explained() {
        let (_, derived) = node_failure();
        let mut state = QuizState { enabled: true, ..QuizState::default() };
        let d = derived[0].as_ref().unwrap();
        let q = NODE_FAILURE.get(0).unwrap();
        assert!(!state.answer(NODE_FAILURE, 0, d, Response::Choice(1)));
        assert_eq!(state.progress(NODE_FAILURE).to_param().as_deref(), Some("w----"));
        let said = result_text(Lang::En, q, d, false);
        assert!(said.starts_with("Not quite. The answer: Unknown. "), "{said}");
        assert!(said.contains("--node-monitor-grace-period (50 s in Kubernetes 1.34)"), "{said}");
        let a = state.answered.clone().unwrap();
        assert_eq!((a.id.as_str(), a.value, a.right), ("node-failure-ready", Value::Text("False".into()), false));
        assert!(!state.asking());
        let said = result_text(Lang::Ja, q, d, true);
        assert!(said.starts_with("正解です。"), "{said}");
    }

    #[test]
    fn the_summary_points_at_the_step_to_play_again() {
        let (tl, derived) = node_failure();
        let (progress, _) = Progress::parse("rw-wr", derived.len());
        let s = summary(Lang::En, NODE_FAILURE, &derived, &tl.steps(), &progress);
        assert_eq!((s.answered, s.right, s.total), (4, 2, 5));
        let steps: Vec<(usize, usize)> = s.missed.iter().map(|m| (m.index, m.step)).collect();
        assert_eq!(steps, [(1, 2), (3, 4)]);
        assert_eq!(progress_text(Lang::En, &progress, s.total), "Questions: 4 of 5 answered, 2 right");
    }

    #[test]
    fn only_an_open_node_question_picks_from_the_stage() {
        let (_, derived) = node_failure();
        let node = NODE_FAILURE.iter().position(|q| q.kind() == Kind::Node).unwrap();
        let mut state = QuizState { enabled: true, ..QuizState::default() };
        assert!(!state.picking_node(NODE_FAILURE), "no question open");
        state.open = Some(Open { index: 0, result: None });
        assert!(!state.picking_node(NODE_FAILURE), "a choice question");
        state.open = Some(Open { index: node, result: None });
        assert!(state.picking_node(NODE_FAILURE));
        assert!(!state.picking_node(Questions::Chapter(Chapter::KubeletRestart)), "another chapter's question");
        let d = derived[node].as_ref().unwrap();
        assert_eq!(node_choice(d, "node-1"), Some(0));
        assert_eq!(node_choice(d, "node-2"), Some(1));
        assert_eq!(node_choice(d, "node-9"), None);
        assert_eq!(node_choice(derived[0].as_ref().unwrap(), "node-1"), None, "not a node question");
        state.answer(NODE_FAILURE, node, d, Response::Node(1));
        assert!(!state.picking_node(NODE_FAILURE), "answered");
    }

    #[test]
    fn reads_seconds_as_typed() {
        assert_eq!(parse_seconds("58"), Some(58.0));
        assert_eq!(parse_seconds(" 57,5 s"), Some(57.5));
        assert_eq!(parse_seconds("５８秒"), Some(58.0));
        assert_eq!(parse_seconds("soon"), None);
        assert_eq!(parse_seconds("-3"), None);
        assert_eq!(parse_seconds("inf"), None);
    }

    #[test]
    fn moves_order_items_within_bounds() {
        let mut order = vec![0, 1, 2];
        move_item(&mut order, 0, true);
        assert_eq!(order, [0, 1, 2]);
        move_item(&mut order, 2, true);
        assert_eq!(order, [0, 2, 1]);
        move_item(&mut order, 2, false);
        assert_eq!(order, [0, 2, 1]);
        move_item(&mut order, 0, false);
        assert_eq!(order, [2, 0, 1]);
    }
}
