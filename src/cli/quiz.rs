//! `nodeline quiz`: a chapter's questions as the page asks them in question mode, with their
//! answers computed from the timeline, as text for paper or JSON for reuse.

use serde_json::{Value, json};

use crate::i18n::{Key, plain};
use crate::link::{self, Link};
use crate::quiz::{self, Answer, Derived, Kind};
use crate::sim::{Profile, SimTime};
use crate::story::Questions;

use super::Output;
use super::args::{QuizArgs, QuizFormat};

/// How long after the story the timeline is computed (as the page does: some answers are read
/// at the story's end).
const AFTER: std::time::Duration = std::time::Duration::from_secs(180);

/// One question as printed: its words in the language asked, and what the timeline says.
struct Asked {
    /// 1-based, in the chapter's or story's list.
    number: usize,
    id: String,
    kind: Kind,
    prompt: String,
    /// Choice and order questions: each option's value (JSON) and label (narration markup).
    values: Vec<String>,
    labels: Vec<String>,
    why: String,
    derived: Derived,
}

/// Runs the chapter (or the story file) and prints its questions.
pub(super) fn run(args: &QuizArgs) -> Output {
    let lang = args.lang;
    let story = match &args.sim.story {
        Some(path) => match super::story::read(path) {
            Ok(story) => Some(story),
            Err(out) => return out,
        },
        None => None,
    };
    let (scenario, _) = match args.sim.scenario() {
        Ok(run) => run,
        Err(out) => return out,
    };
    let (timeline, warnings, _) = match args.sim.timeline_through(Some(scenario.duration + AFTER)) {
        Ok(run) => run,
        Err(out) => return out,
    };
    let profile = timeline.config().profile;
    let steps = timeline.steps();
    let (title, questions) = match (&story, args.sim.chapter) {
        (Some(story), _) => (story.title.get(lang).to_string(), Questions::Story(&story.id, &story.questions)),
        (None, Some(chapter)) => (lang.chapter(chapter).title.to_string(), Questions::Chapter(chapter)),
        (None, None) => return Output::usage("error: give --chapter or --story"),
    };
    let total = questions.len();
    let asked: Vec<Asked> = questions
        .iter()
        .enumerate()
        .filter_map(|(i, q)| {
            let derived = q.derive(&timeline)?;
            Some(Asked {
                number: i + 1,
                id: q.id().to_string(),
                kind: q.kind(),
                prompt: q.prompt(lang, &derived),
                values: q.values(),
                labels: q.labels(lang).iter().map(|l| l.to_string()).collect(),
                why: q.why(lang, &derived),
                derived,
            })
        })
        .collect();
    // Each question links to its stop in the page: a chapter's, or a story's as the site that
    // holds the story in its `stories/` folder opens it (`?story=ID`).
    let link = |stop: SimTime| {
        let l = Link {
            chapter: args.sim.chapter.unwrap_or_default(),
            story: story.as_ref().map(|s| s.id.clone()),
            step: Some(quiz::step_at(&steps, stop)),
            lang: Some(lang),
            profile: if story.is_some() { Profile::default() } else { profile },
            quiz: true,
            actions: args.sim.actions().to_vec(),
            nodes: args.sim.nodes,
            ..Link::default()
        };
        format!("?{}", link::to_query(&l))
    };
    let stdout = match args.output {
        QuizFormat::Json => {
            let questions: Vec<Value> = asked
                .iter()
                .map(|q| {
                    let d = &q.derived;
                    json!({
                        "id": q.id,
                        "kind": q.kind.id(),
                        "stop_ms": d.stop.as_millis(),
                        "step": quiz::step_at(&steps, d.stop),
                        "link": link(d.stop),
                        "prompt": plain(&q.prompt),
                        "options": options(q),
                        "answer": answer_value(q),
                        "why": plain(&q.why),
                    })
                })
                .collect();
            let source = match &story {
                Some(story) => json!({ "story": story.id }),
                None => json!({ "chapter": args.sim.chapter.map(|c| c.id()) }),
            };
            let mut doc = json!({ "k8s": profile.as_str(), "lang": lang.code(), "questions": questions });
            if let (Some(doc), Value::Object(source)) = (doc.as_object_mut(), source) {
                doc.extend(source);
            }
            format!("{}\n", serde_json::to_string_pretty(&doc).unwrap_or_default())
        }
        QuizFormat::Text => {
            let mut out = format!("{title} (Kubernetes {})\n", profile.as_str());
            for q in &asked {
                let d = &q.derived;
                let step = lang.fill(Key::StepLabel, &[&quiz::step_at(&steps, d.stop).to_string()]);
                out.push_str(&format!(
                    "\n{} · {} · {}\n{}\n",
                    lang.fill(Key::QuizQuestionOf, &[&q.number.to_string(), &total.to_string()]),
                    d.stop.clock_label(),
                    step,
                    plain(&q.prompt)
                ));
                for (n, option) in options(q).iter().enumerate() {
                    out.push_str(&format!("  {}) {option}\n", letter(n)));
                }
                if let Answer::Time { tolerance, .. } = d.answer {
                    out.push_str(&format!(
                        "  ({})\n",
                        lang.fill(Key::QuizTolerance, &[&quiz::seconds_label(tolerance)])
                    ));
                }
                out.push_str(&format!("{}\n{}\n", lang.fill(Key::QuizAnswerWas, &[&answer_words(q)]), plain(&q.why),));
                out.push_str(&link(d.stop));
                out.push('\n');
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
fn options(q: &Asked) -> Vec<String> {
    match &q.derived.answer {
        Answer::Node { nodes, .. } => nodes.clone(),
        _ => q.labels.iter().map(|o| plain(o)).collect(),
    }
}

/// The answer in words, with the options' letters for choice, order and node questions.
fn answer_words(q: &Asked) -> String {
    let label = |i: usize| q.labels.get(i).map(|l| plain(l)).unwrap_or_default();
    match &q.derived.answer {
        Answer::Choice(i) => format!("{}) {}", letter(*i), label(*i)),
        Answer::Node { nodes, right } => format!("{}) {}", letter(*right), nodes[*right]),
        Answer::Order(order) => format!(
            "{} ({})",
            order.iter().map(|i| letter(*i).to_string()).collect::<Vec<_>>().join(", "),
            order.iter().map(|i| label(*i)).collect::<Vec<_>>().join(" → ")
        ),
        Answer::Time { seconds, .. } => format!("{} s", quiz::seconds_label(*seconds)),
    }
}

/// The answer as JSON: an option's value, the options' values in order, seconds, or a node.
fn answer_value(q: &Asked) -> Value {
    match &q.derived.answer {
        Answer::Choice(i) => json!(q.values[*i]),
        Answer::Order(order) => json!(order.iter().map(|i| &q.values[*i]).collect::<Vec<_>>()),
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
