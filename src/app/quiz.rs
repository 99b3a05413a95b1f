//! Question mode (`&quiz=1`, or the switch in the header): the playhead stops before a moment
//! that matters and a question asks what will happen; the reader answers, the page says whether
//! it was right and why and waits there until the reader presses Continue, which plays on to
//! show it. The questions, their stops and answers are [`crate::quiz`]'s; what is due, said and
//! summed up is [`crate::view::quiz`]'s.
//!
//! While a question waits for its answer, `<html data-quiz-conceal="…">` names the parts of the
//! page that would give it away (the narration, the timeline's marks, the inspector); the style
//! sheet hides them, and the live region says nothing of the story until the answer is given.
//!
//! While a "which node" question waits, a click on a machine on the stage picks that node, as its
//! radio button does: one listener on the stage, by delegation, only for as long as the question
//! waits (`<html data-quiz-pick>` then says the machines can be clicked), and the stage marks the
//! picked machine ([`crate::view::quiz::QuizState::picked`]).

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use super::state::AppCtx;
use crate::i18n::{Key, Segment, segments};
use crate::link::{self, Link};
use crate::playback::Playback;
use crate::quiz::{self, Answer, Derived, Kind, Response};
use crate::sim::SimTime;
use crate::story::Asked;
use crate::view::quiz::{self as vm, Open};

/// The attribute on `<html>` naming what is hidden while a question is asked.
const CONCEAL_ATTRIBUTE: &str = "data-quiz-conceal";
const PANEL_ID: &str = "quiz-panel";
const PROMPT_ID: &str = "quiz-prompt";
/// The button under an answer's explanation that plays on.
const CONTINUE_ID: &str = "quiz-continue";
/// The attribute on `<html>` while the stage's machines pick a node.
const PICK_ATTRIBUTE: &str = "data-quiz-pick";

thread_local! {
    /// What had the focus when the question opened: it gets it back when the question closes.
    static OPENER: std::cell::RefCell<Option<web_sys::HtmlElement>> = const { std::cell::RefCell::new(None) };
    /// The stage and its click listener while a "which node" question waits.
    static STAGE_LISTENER: std::cell::RefCell<Option<(web_sys::Element, Listener)>> =
        const { std::cell::RefCell::new(None) };
}

type Listener = Closure<dyn FnMut(web_sys::Event)>;

/// Listens for clicks on the stage's machines (by delegation, on the stage) and gives `pick` the
/// clicked machine's node name. The page's own stage: a question can open as the page mounts,
/// while the still view (`[data-still]`, its stage first in the document) is still giving its
/// place over.
fn listen_on_stage(pick: impl Fn(String) + 'static) {
    stop_listening_on_stage();
    let Some(stage) = document().query_selector("main:not([data-still]) section.stage").ok().flatten() else {
        return;
    };
    let handler = Listener::new(move |ev: web_sys::Event| {
        let machine = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("[data-node]").ok().flatten());
        if let Some(name) = machine.and_then(|m| m.get_attribute("data-node")) {
            pick(name);
        }
    });
    if stage.add_event_listener_with_callback("click", handler.as_ref().unchecked_ref()).is_ok() {
        if let Some(html) = document().document_element() {
            let _ = html.set_attribute(PICK_ATTRIBUTE, "");
        }
        STAGE_LISTENER.with(|l| *l.borrow_mut() = Some((stage, handler)));
    }
}

fn stop_listening_on_stage() {
    if let Some((stage, handler)) = STAGE_LISTENER.with(|l| l.borrow_mut().take()) {
        let _ = stage.remove_event_listener_with_callback("click", handler.as_ref().unchecked_ref());
    }
    if let Some(html) = document().document_element() {
        let _ = html.remove_attribute(PICK_ATTRIBUTE);
    }
}

/// The open question and what the timeline says of it.
fn current(ctx: AppCtx) -> Option<(Open, Asked<'static>, Derived)> {
    let open = ctx.quiz.with(|q| q.open.clone())?;
    let q = ctx.questions().get(open.index)?;
    let d = ctx.with_session(|s| s.quiz.get(open.index).cloned().flatten())?;
    Some((open, q, d))
}

/// Opens the question whose stop is where a link starts playing (a step's moment), before the
/// first frame shows the story.
fn open_at_start(ctx: AppCtx) {
    let mut playback = ctx.playback.get_untracked();
    if playback.playing {
        let from = playback.t;
        playback.t = from + std::time::Duration::from_micros(1);
        intercept(ctx, from, &mut playback);
        if !playback.playing {
            ctx.playback.set(playback);
        }
    }
}

/// Called by the animation-frame loop after each frame moved the playhead from `from`: stops
/// playback at a question that is due and opens it. Playing on while a question waits skips it.
pub(super) fn intercept(ctx: AppCtx, from: SimTime, playback: &mut Playback) {
    let questions = ctx.questions_untracked();
    let (enabled, asking) = ctx.quiz.with_untracked(|q| (q.enabled, q.asking()));
    if !enabled {
        return;
    }
    if asking {
        ctx.quiz.update(|q| {
            if let Some(open) = q.open.take() {
                q.skipped.push(open.index);
            }
        });
    }
    let due = ctx.session.with_value(|s| {
        let from = vm::asked_from(&s.steps, from);
        ctx.quiz.with_untracked(|q| {
            vm::due(&s.quiz, &q.progress(questions), &q.skipped, from, playback.t)
                .and_then(|i| s.quiz[i].as_ref().map(|d| (i, d.stop)))
        })
    });
    if let Some((index, stop)) = due {
        playback.seek(stop);
        playback.pause();
        remember_opener();
        ctx.quiz.update(|q| q.open = Some(Open { index, result: None }));
    }
}

fn remember_opener() {
    let body = document().body();
    let active = document()
        .active_element()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|e| body.as_ref() != Some(e));
    let inside = active.as_ref().is_some_and(|e| e.closest(&format!("#{PANEL_ID}")).ok().flatten().is_some());
    if !inside {
        OPENER.with(|o| *o.borrow_mut() = active);
    }
}

/// Gives the focus back to what had it when the question opened (or the Play button).
fn return_focus() {
    let opener = OPENER.with(|o| o.borrow_mut().take()).filter(|e| e.is_connected());
    let fallback = || document().query_selector(".tl-play").ok().flatten().and_then(|e| e.dyn_into().ok());
    if let Some(el) = opener.or_else(fallback) {
        let _ = el.focus();
    }
}

/// Focuses the element with this id once it is on the page.
fn focus_soon(id: &'static str) {
    request_animation_frame(move || {
        if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

/// Narration markup as text and code.
fn rich(text: &str) -> AnyView {
    segments(text)
        .into_iter()
        .map(|s| match s {
            Segment::Text(t) => t.to_string().into_any(),
            Segment::Code(c) => view! { <code>{c.to_string()}</code> }.into_any(),
            Segment::Term { words, .. } => words.to_string().into_any(),
        })
        .collect_view()
        .into_any()
}

/// Keeps `<html data-quiz-conceal>` in step with the question waiting for an answer, and starts
/// a new pass over the questions when what is told changes (another chapter or story).
pub(super) fn install(ctx: AppCtx) {
    open_at_start(ctx);
    Effect::new(move |_| {
        let conceal = ctx.quiz.with(|q| {
            let open = q.open.as_ref().filter(|o| o.result.is_none())?;
            ctx.questions().get(open.index).map(vm::conceal)
        });
        let Some(html) = document().document_element() else { return };
        match conceal {
            Some(c) => {
                let _ = html.set_attribute(CONCEAL_ATTRIBUTE, &c);
            }
            None => {
                let _ = html.remove_attribute(CONCEAL_ATTRIBUTE);
            }
        }
    });
    Effect::new(move |prev: Option<String>| {
        let told = ctx.questions().key();
        if prev.is_some_and(|p| p != told) {
            ctx.quiz.update(vm::QuizState::new_pass);
        }
        told
    });
    // Going back before a skipped question's stop asks it again.
    Effect::new(move |_| {
        let t = ctx.t();
        let skipped = ctx.quiz.with(|q| q.skipped.clone());
        if skipped.is_empty() {
            return;
        }
        let keep: Vec<usize> = ctx.session.with_value(|s| {
            skipped.iter().copied().filter(|i| s.quiz.get(*i).cloned().flatten().is_some_and(|d| d.stop <= t)).collect()
        });
        if keep != skipped {
            ctx.quiz.update(|q| q.skipped = keep);
        }
    });
}

/// The switch in the header: question mode on or off (the URL keeps it).
#[component]
pub fn QuizSwitch() -> impl IntoView {
    let ctx = AppCtx::get();
    let on = move || ctx.quiz.with(|q| q.enabled);
    // A story of the site's without questions is told without question mode.
    view! {
        <button
            type="button"
            class="secondary quiz-switch"
            hidden=move || ctx.questions().is_empty()
            aria-pressed=move || if on() { "true" } else { "false" }
            on:click=move |_| {
                ctx.quiz.update(|q| {
                    q.enabled = !q.enabled;
                    q.new_pass();
                })
            }
        >
            {move || ctx.lang.get().text(Key::QuizSwitch)}
        </button>
    }
}

/// The question on screen, the progress line, and the summary at the story's end.
#[component]
pub fn QuizPanel() -> impl IntoView {
    let ctx = AppCtx::get();
    // Question mode asks the session for its questions (a fleet, computed a stretch at a time,
    // derives them only then). Derived now: what reads them reads again.
    Effect::new(move |_| {
        ctx.track_timeline();
        let on = ctx.quiz.with(|q| q.enabled);
        if ctx.session.try_update_value(|s| s.ask(on)).unwrap_or(false) {
            ctx.grown.update(|r| *r += 1);
        }
    });
    let t = move |k: Key| ctx.lang.get().text(k);
    let enabled = move || ctx.quiz.with(|q| q.enabled);
    let open = Memo::new(move |_| current(ctx));
    // The reader's answer in the making.
    let choice = RwSignal::new(None::<usize>);
    let order = RwSignal::new(Vec::<usize>::new());
    let seconds = RwSignal::new(String::new());
    let bad_seconds = RwSignal::new(false);
    // A new question: a fresh answer, and the focus on the question.
    Effect::new(move |prev: Option<Option<(usize, bool)>>| {
        let now = open.with(|o| o.as_ref().map(|(open, q, _)| (open.index, open.result.is_some(), q.option_count())));
        let key = now.map(|(i, answered, _)| (i, answered));
        if let Some((_, false, options)) = now
            && prev.flatten() != key
        {
            choice.set(None);
            order.set((0..options).collect());
            seconds.set(String::new());
            bad_seconds.set(false);
            focus_soon(PANEL_ID);
        }
        key
    });
    // A "which node" question: the stage's machines pick its answer too, and the stage marks
    // the node picked.
    let picking = Memo::new(move |_| ctx.quiz.with(|q| q.picking_node(ctx.questions())));
    Effect::new(move |_| {
        let picked = picking
            .get()
            .then(|| {
                let i = choice.get()?;
                open.with(|o| match &o.as_ref()?.2.answer {
                    Answer::Node { nodes, .. } => nodes.get(i).cloned(),
                    _ => None,
                })
            })
            .flatten();
        if ctx.quiz.with_untracked(|q| q.picked != picked) {
            ctx.quiz.update(|q| q.picked = picked);
        }
    });
    Effect::new(move |_| {
        if picking.get() {
            listen_on_stage(move |name| {
                let at = open.with_untracked(|o| o.as_ref().and_then(|(_, _, d)| vm::node_choice(d, &name)));
                if at.is_some() {
                    choice.set(at);
                }
            });
        } else {
            stop_listening_on_stage();
        }
    });
    on_cleanup(stop_listening_on_stage);
    let total = move || ctx.with_session(|s| s.quiz.iter().filter(|d| d.is_some()).count());
    let progress_line = move || {
        let lang = ctx.lang.get();
        let progress = ctx.quiz.with(|q| q.progress(ctx.questions()));
        vm::progress_text(lang, &progress, total())
    };

    let submit = move || {
        let Some((open, q, d)) = open.get_untracked() else { return };
        let response = match q.kind() {
            Kind::Choice => choice.get_untracked().map(Response::Choice),
            Kind::Node => choice.get_untracked().map(Response::Node),
            Kind::Order => Some(Response::Order(order.get_untracked())),
            Kind::Time => {
                let parsed = vm::parse_seconds(&seconds.get_untracked());
                bad_seconds.set(parsed.is_none());
                parsed.map(Response::Seconds)
            }
        };
        let Some(response) = response else {
            if q.kind() == Kind::Time {
                focus_soon("quiz-seconds");
            }
            return;
        };
        let questions = ctx.questions_untracked();
        let lang = ctx.lang.get_untracked();
        ctx.quiz.update(|s| {
            let right = s.answer(questions, open.index, &d, response);
            // What the live region says.
            let seq = s.said.as_ref().map_or(0, |(n, _)| n + 1);
            s.said = Some((seq, vm::result_text(lang, q, &d, right)));
        });
        // The story waits while the reader reads why; the Continue button takes the focus from
        // the Check button it replaces, and plays on to show it.
        focus_soon(CONTINUE_ID);
    };
    let skip = move || {
        ctx.quiz.update(|q| {
            if let Some(open) = q.open.take() {
                q.skipped.push(open.index);
            }
        });
        ctx.playback.update(|p| {
            let at = p.t;
            p.play(at);
        });
        return_focus();
    };
    let go_on = move || {
        ctx.quiz.update(|q| q.open = None);
        ctx.playback.update(|p| {
            let at = p.t;
            p.play(at);
        });
        return_focus();
    };

    let inputs = move || {
        let Some((open, q, d)) = open.get() else { return ().into_any() };
        if open.result.is_some() {
            return ().into_any();
        }
        let lang = ctx.lang.get();
        let labels = q.labels(lang);
        match (q.kind(), &d.answer) {
            (Kind::Choice, _) | (Kind::Node, Answer::Node { .. }) => {
                let names: Vec<String> = match &d.answer {
                    Answer::Node { nodes, .. } => nodes.clone(),
                    _ => Vec::new(),
                };
                let items: Vec<(usize, AnyView)> = if q.kind() == Kind::Node {
                    names.into_iter().enumerate().map(|(i, n)| (i, n.into_any())).collect()
                } else {
                    labels.iter().enumerate().map(|(i, l)| (i, rich(l).into_any())).collect()
                };
                let node = q.kind() == Kind::Node;
                let legend = if node { t(Key::QuizNodes) } else { t(Key::QuizRegion) };
                let described = if node { "quiz-prompt quiz-pick-help" } else { PROMPT_ID };
                view! {
                    {node.then(|| view! { <p class="quiz-hint" id="quiz-pick-help">{t(Key::QuizPickOnStage)}</p> })}
                    <fieldset
                        class="quiz-options"
                        aria-describedby=described
                    >
                        <legend class="sr-only">{legend}</legend>
                        {items
                            .into_iter()
                            .map(|(i, label)| {
                                view! {
                                    <label class="quiz-option">
                                        <input
                                            type="radio"
                                            name="quiz-option"
                                            prop:checked=move || choice.get() == Some(i)
                                            on:change=move |_| choice.set(Some(i))
                                        />
                                        <span>{label}</span>
                                    </label>
                                }
                            })
                            .collect_view()}
                    </fieldset>
                }
                .into_any()
            }
            (Kind::Order, _) => {
                let count = q.option_count();
                let row = move |pos: usize| {
                    let item = move || order.with(|o| o.get(pos).copied().unwrap_or(0));
                    let label = move || {
                        let labels = q.labels(ctx.lang.get());
                        labels.get(item()).map(|l| rich(l)).into_any()
                    };
                    let plain_label =
                        move || q.labels(ctx.lang.get()).get(item()).map(|l| crate::i18n::plain(l)).unwrap_or_default();
                    let mover = move |up: bool| {
                        move |_| {
                            order.update(|o| vm::move_item(o, pos, up));
                            let to = if up { pos.saturating_sub(1) } else { (pos + 1).min(count - 1) };
                            focus_soon(if up { UP_IDS[to] } else { DOWN_IDS[to] });
                        }
                    };
                    view! {
                        <li class="quiz-order-item">
                            <span class="quiz-order-label">{label}</span>
                            <span class="quiz-order-moves">
                                <button
                                    type="button"
                                    class="secondary"
                                    id=UP_IDS[pos]
                                    aria-disabled=(pos == 0).then_some("true")
                                    aria-label=move || ctx.lang.get().fill(Key::QuizMoveUp, &[&plain_label()])
                                    on:click=mover(true)
                                >
                                    "↑"
                                </button>
                                <button
                                    type="button"
                                    class="secondary"
                                    id=DOWN_IDS[pos]
                                    aria-disabled=(pos + 1 == count).then_some("true")
                                    aria-label=move || ctx.lang.get().fill(Key::QuizMoveDown, &[&plain_label()])
                                    on:click=mover(false)
                                >
                                    "↓"
                                </button>
                            </span>
                        </li>
                    }
                };
                view! {
                    <p class="quiz-hint" id="quiz-order-help">{t(Key::QuizOrderHelp)}</p>
                    <ol class="quiz-order" aria-describedby="quiz-order-help">
                        {(0..count.min(UP_IDS.len())).map(row).collect_view()}
                    </ol>
                }
                .into_any()
            }
            (Kind::Time, Answer::Time { tolerance, .. }) => {
                let hint = lang.fill(Key::QuizTolerance, &[&quiz::seconds_label(*tolerance)]);
                view! {
                    <p class="quiz-seconds">
                        <label for="quiz-seconds">{t(Key::QuizSeconds)}</label>
                        <input
                            id="quiz-seconds"
                            type="text"
                            inputmode="decimal"
                            autocomplete="off"
                            aria-describedby="quiz-seconds-hint quiz-seconds-error"
                            aria-invalid=move || bad_seconds.get().then_some("true")
                            prop:value=move || seconds.get()
                            on:input=move |ev| seconds.set(event_target_value(&ev))
                        />
                        <span class="quiz-hint" id="quiz-seconds-hint">{hint}</span>
                    </p>
                    <p class="quiz-error" id="quiz-seconds-error">
                        {move || bad_seconds.get().then(|| t(Key::QuizEnterSeconds))}
                    </p>
                }
                .into_any()
            }
            _ => ().into_any(),
        }
    };

    let result = move || {
        let (open, q, d) = open.get()?;
        let (_, right) = open.result?;
        let lang = ctx.lang.get();
        let verdict = lang.text(if right { Key::QuizRight } else { Key::QuizWrong });
        let answer =
            (!right || q.kind() == Kind::Time).then(|| lang.fill(Key::QuizAnswerWas, &[&q.answer_text(lang, &d)]));
        Some(view! {
            <div class="quiz-result" class:right=right class:wrong=!right>
                <p class="quiz-verdict">
                    <strong>{verdict}</strong>
                    " "
                    {answer}
                </p>
                <p>{rich(&q.why(lang, &d))}</p>
                <button type="button" id=CONTINUE_ID on:click=move |_| go_on()>
                    {t(Key::QuizContinue)}
                </button>
            </div>
        })
    };

    let question = move || {
        let (open, q, d) = open.get()?;
        let lang = ctx.lang.get();
        let n = open.index + 1;
        let of = lang.fill(Key::QuizQuestionOf, &[&n.to_string(), &ctx.questions().len().to_string()]);
        let asking = open.result.is_none();
        Some(view! {
            <h2 id="quiz-title">{of}</h2>
            <p id=PROMPT_ID class="quiz-prompt">{rich(&q.prompt(lang, &d))}</p>
            <form
                class="quiz-form"
                on:submit=move |ev: ev::SubmitEvent| {
                    ev.prevent_default();
                    submit();
                }
            >
                {inputs}
                <Show when=move || asking>
                    <p class="quiz-buttons">
                        <button
                            type="submit"
                            disabled=move || {
                                matches!(q.kind(), Kind::Choice | Kind::Node) && choice.get().is_none()
                            }
                        >
                            {t(Key::QuizCheck)}
                        </button>
                        <button type="button" class="secondary" on:click=move |_| skip()>
                            {t(Key::QuizSkip)}
                        </button>
                    </p>
                </Show>
            </form>
            {result}
        })
    };

    let summary = move || {
        let at_end = ctx.playback.with(|p| p.at_end());
        if !at_end || open.with(Option::is_some) {
            return None;
        }
        let lang = ctx.lang.get();
        let questions = ctx.questions();
        let progress = ctx.quiz.with(|q| q.progress(questions));
        let s = ctx.with_session(|s| vm::summary(lang, questions, &s.quiz, &s.steps, &progress));
        let titles = ctx.texts(lang).steps;
        let step_title = |n: usize| {
            let title = titles.get(n.wrapping_sub(1)).map(|s| s.title).unwrap_or_default();
            format!("{} {title}", lang.fill(Key::PlayFromStep, &[&n.to_string()]))
        };
        let lines = s
            .missed
            .into_iter()
            .map(|m| {
                let href = {
                    let base = ctx.link();
                    let link = Link {
                        chapter: base.chapter,
                        story: base.story,
                        step: Some(m.step),
                        lang: Some(lang),
                        profile: base.profile,
                        embed: base.embed,
                        origin: base.origin,
                        theme: base.theme,
                        quiz: true,
                        progress: Some(progress.reopened(m.index)),
                        ..Link::default()
                    };
                    format!("?{}", link::to_query(&link))
                };
                view! {
                    <li>
                        <span class="quiz-missed-prompt">{m.prompt}</span>
                        " "
                        <a href=href>{step_title(m.step)}</a>
                    </li>
                }
            })
            .collect_view();
        let all_right = s.total > 0 && s.right == s.total;
        Some(view! {
            <div class="quiz-summary">
                <h2>{t(ctx.told().says(Key::QuizSummaryTitle))}</h2>
                <Show when=move || all_right fallback=move || view! { <p>{t(Key::QuizMissed)}</p> }>
                    <p>{t(Key::QuizAllRight)}</p>
                </Show>
                <ul>{lines}</ul>
            </div>
        })
    };

    view! {
        <Show when=enabled>
            <section
                id=PANEL_ID
                class="quiz panel"
                tabindex="-1"
                aria-label=move || t(Key::QuizRegion)
                aria-describedby=move || open.with(|o| o.is_some()).then_some(PROMPT_ID)
            >
                <p class="quiz-progress">{progress_line}</p>
                {question}
                {summary}
            </section>
        </Show>
    }
}

/// Ids of the order questions' move buttons, by position (an order has at most this many items).
const UP_IDS: [&str; 6] = ["quiz-up-0", "quiz-up-1", "quiz-up-2", "quiz-up-3", "quiz-up-4", "quiz-up-5"];
const DOWN_IDS: [&str; 6] = ["quiz-down-0", "quiz-down-1", "quiz-down-2", "quiz-down-3", "quiz-down-4", "quiz-down-5"];
