//! `nodeline quiz`: a chapter's questions as the page asks them in question mode, with their
//! answers computed from the timeline, as text for paper or JSON for reuse.

use serde_json::{Value, json};

use crate::i18n::{Key, Lang, plain};
use crate::link::{self, Link};
use crate::quiz::{self, Answer, Derived, Question};
use crate::sim::SimTime;

use super::Output;
use super::args::{QuizArgs, QuizFormat};

/// How long after the story the timeline is computed (as the page does: some answers are read
/// at the story's end).
const AFTER: std::time::Duration = std::time::Duration::from_secs(180);

/// Runs the chapter and prints its questions.
pub(super) fn run(args: &QuizArgs) -> Output {
    let chapter = args.sim.chapter;
    let (timeline, warnings) = args.sim.timeline_through(chapter.scenario_for(args.sim.nodes).duration + AFTER);
    let steps = timeline.steps();
    let asked: Vec<(usize, &Question, Derived)> = quiz::questions(chapter)
        .iter()
        .enumerate()
        .filter_map(|(i, q)| q.derive(&timeline).map(|d| (i, q, d)))
        .collect();
    let lang = args.lang;
    let link = |stop: SimTime| {
        let l = Link {
            chapter,
            step: Some(quiz::step_at(&steps, stop)),
            lang: Some(lang),
            profile: args.sim.k8s,
            quiz: true,
            actions: args.sim.actions().to_vec(),
            ..Link::default()
        };
        format!("?{}", link::to_query(&l))
    };
    let stdout = match args.output {
        QuizFormat::Json => {
            let questions: Vec<Value> = asked
                .iter()
                .map(|(_, q, d)| {
                    json!({
                        "id": q.id,
                        "kind": q.kind.id(),
                        "stop_ms": d.stop.as_millis(),
                        "step": quiz::step_at(&steps, d.stop),
                        "link": link(d.stop),
                        "prompt": plain(&quiz::prompt(lang, q, d)),
                        "options": options(lang, q, d),
                        "answer": answer_value(q, d),
                        "why": plain(&quiz::why(lang, q, d)),
                    })
                })
                .collect();
            let doc = json!({
                "chapter": chapter.id(),
                "k8s": args.sim.k8s.as_str(),
                "lang": lang.code(),
                "questions": questions,
            });
            format!("{}\n", serde_json::to_string_pretty(&doc).unwrap_or_default())
        }
        QuizFormat::Text => {
            let total = quiz::questions(chapter).len();
            let mut out = format!("{} (Kubernetes {})\n", lang.chapter(chapter).title, args.sim.k8s.as_str());
            for (i, q, d) in &asked {
                let step = lang.fill(Key::StepLabel, &[&quiz::step_at(&steps, d.stop).to_string()]);
                out.push_str(&format!(
                    "\n{} · {} · {}\n{}\n",
                    lang.fill(Key::QuizQuestionOf, &[&(i + 1).to_string(), &total.to_string()]),
                    d.stop.clock_label(),
                    step,
                    plain(&quiz::prompt(lang, q, d))
                ));
                for (n, option) in options(lang, q, d).iter().enumerate() {
                    out.push_str(&format!("  {}) {option}\n", letter(n)));
                }
                if let Answer::Time { tolerance, .. } = d.answer {
                    out.push_str(&format!(
                        "  ({})\n",
                        lang.fill(Key::QuizTolerance, &[&quiz::seconds_label(tolerance)])
                    ));
                }
                out.push_str(&format!(
                    "{}\n{}\n{}\n",
                    lang.fill(Key::QuizAnswerWas, &[&answer_words(lang, q, d)]),
                    plain(&quiz::why(lang, q, d)),
                    link(d.stop)
                ));
            }
            out
        }
    };
    Output::ok(stdout, warnings)
}

fn letter(n: usize) -> char {
    char::from(b'a' + (n % 26) as u8)
}

/// The options as shown: labels for choice and order questions, node names for node questions.
fn options(lang: Lang, q: &Question, d: &Derived) -> Vec<String> {
    match &d.answer {
        Answer::Node { nodes, .. } => nodes.clone(),
        _ => quiz::options(lang, q).iter().map(|o| plain(o)).collect(),
    }
}

/// The answer in words, with the options' letters for choice, order and node questions.
fn answer_words(lang: Lang, q: &Question, d: &Derived) -> String {
    let words = quiz::answer_text(lang, q, d);
    match &d.answer {
        Answer::Choice(i) | Answer::Node { right: i, .. } => format!("{}) {words}", letter(*i)),
        Answer::Order(order) => {
            format!("{} ({words})", order.iter().map(|i| letter(*i).to_string()).collect::<Vec<_>>().join(", "))
        }
        Answer::Time { .. } => words,
    }
}

/// The answer as JSON: an option's value, the options' values in order, seconds, or a node.
fn answer_value(q: &Question, d: &Derived) -> Value {
    match &d.answer {
        Answer::Choice(i) => json!(q.options[*i]),
        Answer::Order(order) => json!(order.iter().map(|i| q.options[*i]).collect::<Vec<_>>()),
        Answer::Time { seconds, tolerance } => json!({ "seconds": seconds, "tolerance": tolerance }),
        Answer::Node { nodes, right } => json!(nodes[*right]),
    }
}

#[cfg(test)]
mod tests {
    use super::super::run;

    fn run_args(args: &[&str]) -> super::Output {
        run(std::iter::once("nodeline").chain(args.iter().copied()))
    }

    #[test]
    fn prints_every_question_with_its_answer() {
        let out = run_args(&["quiz", "--chapter", "node-failure"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.starts_with("Node failure and Pod recovery (Kubernetes 1.34)\n"), "{}", out.stdout);
        assert_eq!(out.stdout.matches("The answer: ").count(), 5, "{}", out.stdout);
        assert!(out.stdout.contains("The answer: c) Unknown."), "{}", out.stdout);
        assert!(out.stdout.contains("?chapter=node-failure&step=2&lang=en&quiz=1"), "{}", out.stdout);
        let ja = run_args(&["quiz", "--chapter", "node-failure", "--lang", "ja", "--k8s", "1.31"]);
        assert!(ja.stdout.contains("答え: c) Unknown。"), "{}", ja.stdout);
        assert!(ja.stdout.contains("Kubernetes 1.31 では 40 秒"), "{}", ja.stdout);
    }

    #[test]
    fn prints_json_for_reuse() {
        let out = run_args(&["quiz", "--chapter", "kubelet-restart", "-o", "json"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(doc["chapter"], "kubelet-restart");
        let qs = doc["questions"].as_array().unwrap();
        assert_eq!(qs.len(), 3);
        assert_eq!(qs[0]["answer"], "409");
        assert_eq!(qs[1]["kind"], "node");
        assert_eq!(qs[1]["answer"], "node-1");
        assert_eq!(qs[2]["answer"][0], "lease-renewed");
    }

    #[test]
    fn bad_values_give_one_line() {
        for args in [
            &["quiz", "--chapter", "node-failure", "--lang", "fr"][..],
            &["quiz", "--chapter", "x"],
            &["quiz", "--chapter", "registration", "-o", "yaml"],
        ] {
            let out = run_args(args);
            assert_eq!(out.code, super::super::EXIT_USAGE, "{args:?}");
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        }
    }
}
