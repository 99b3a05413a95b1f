//! Embed mode's conversation with the page around the iframe, by `postMessage` (the contract and
//! its rules are in [`crate::embed`]): the content height whenever it changes, the chapter, step
//! and play state whenever they change, and play, pause, go-to-step and query from the parent.
//! Messages are read with `js_sys::Reflect` (no JSON parsing in the page).

use std::cell::Cell;
use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::state::AppCtx;
use crate::embed::{self, Command};
use crate::view::quiz::Value;

/// The attribute on `<html>` that tells the style sheets the page is embedded.
const EMBED_ATTRIBUTE: &str = "data-embed";

/// Whether two values are the same object (JavaScript's `===`).
fn same(a: &JsValue, b: &JsValue) -> bool {
    a == b
}

/// The parent window, when the page is in a frame.
fn parent_window() -> Option<web_sys::Window> {
    let me = window();
    me.parent().ok().flatten().filter(|p| !same(p.as_ref(), me.as_ref()))
}

/// Sends `{type, ...fields}` to the parent.
fn post(parent: &web_sys::Window, origin: Option<&str>, kind: &str, fields: &[(&str, JsValue)]) {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &kind.into());
    for (name, value) in fields {
        let _ = js_sys::Reflect::set(&message, &(*name).into(), value);
    }
    // A parent of another origin than the named one: the browser drops the message.
    let _ = parent.post_message(&message, embed::target_origin(origin));
}

/// The field `name` of a message, if the message is an object.
fn field(data: &JsValue, name: &str) -> JsValue {
    if data.is_object() {
        js_sys::Reflect::get(data, &name.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// The other end of the conversation.
struct Parent {
    window: web_sys::Window,
    /// The origin named by `&origin=`, if any.
    origin: Option<&'static str>,
    /// The last height sent.
    height: Cell<u32>,
}

impl Parent {
    fn post(&self, kind: &str, fields: &[(&str, JsValue)]) {
        post(&self.window, self.origin, kind, fields);
    }

    /// Sends the document's height (the root element's box: it does not stretch to the iframe's
    /// height, so the page can shrink as well as grow) if it changed, or if `force`.
    fn send_height(&self, force: bool) {
        let Some(root) = document().document_element() else { return };
        let height = root.get_bounding_client_rect().height().ceil().max(0.0) as u32;
        if force || height != self.height.get() {
            self.height.set(height);
            self.post(embed::RESIZE, &[("height", height.into())]);
        }
    }
}

/// Starts embed mode's side of the conversation (nothing outside embed mode, and no messages
/// when the page is not in a frame).
pub(super) fn install(ctx: AppCtx) {
    if !ctx.embed {
        return;
    }
    if let Some(html) = document().document_element() {
        let _ = html.set_attribute(EMBED_ATTRIBUTE, "");
    }
    let Some(window) = parent_window() else { return };
    let parent = Rc::new(Parent { window, origin: ctx.origin, height: Cell::new(0) });

    if let Some(root) = document().document_element() {
        let p = Rc::clone(&parent);
        super::dom::on_resize(&root, move || p.send_height(false));
    }

    // The state as the narration shows it (step 1 before step 1's moment); sent when it changes.
    let state = move || {
        ctx.chapter.track();
        ctx.story.track();
        (ctx.told_id(), ctx.current_step().max(1), ctx.playback.with(|p| p.playing))
    };
    let send_state = {
        let parent = Rc::clone(&parent);
        move |(told, step, playing): (&'static str, usize, bool)| {
            parent.post(
                embed::STATE,
                &[
                    (told_key(ctx), JsValue::from(told)),
                    ("step", step.into()),
                    ("steps", ctx.session.with_value(|s| s.steps.len()).into()),
                    ("playing", playing.into()),
                ],
            );
        }
    };
    let sent = send_state.clone();
    Effect::new(move |last: Option<(&'static str, usize, bool)>| {
        let now = state();
        if last != Some(now) {
            sent(now);
        }
        now
    });

    install_quiz(ctx, Rc::clone(&parent));

    let handle = window_event_listener(ev::message, move |ev: web_sys::MessageEvent| {
        let from_parent = ev.source().is_some_and(|s| same(s.as_ref(), parent.window.as_ref()));
        if !embed::accepts(parent.origin, from_parent, &ev.origin()) {
            return;
        }
        let data = ev.data();
        let steps = ctx.session.with_value(|s| s.steps.len());
        let command =
            Command::decode(field(&data, "type").as_string().as_deref(), field(&data, "step").as_f64(), steps);
        match command {
            Some(Command::Goto(n)) => {
                // A step the reader's actions took out of the story is not there to go to.
                ctx.seek_step(n);
            }
            Some(Command::Query) => {
                parent.send_height(true);
                send_state(untrack(state));
            }
            Some(play_or_pause) => {
                // Play at the end starts again from step 1, as the Play button does.
                let restart = ctx.restart_point();
                let play = play_or_pause == Command::Play;
                if play && ctx.playback.with_untracked(|p| !p.playing && p.at_end()) {
                    ctx.seek(restart);
                }
                ctx.playback.update(|p| if play { p.play(restart) } else { p.pause() });
            }
            None => {}
        }
    });
    on_cleanup(move || handle.remove());
}

/// The key that names what is told in a message: `story` for a story of the site's, else
/// `chapter`.
fn told_key(ctx: AppCtx) -> &'static str {
    if ctx.story.get_untracked().is_some() { "story" } else { "chapter" }
}

/// An answer as a JavaScript value: a string, an array of strings, or a number.
fn js_value(value: &Value) -> JsValue {
    match value {
        Value::Text(s) => JsValue::from_str(s),
        Value::Number(n) => JsValue::from_f64(*n),
        Value::List(items) => items.iter().map(|s| JsValue::from_str(s)).collect::<js_sys::Array>().into(),
    }
}

/// Question mode's messages: each answer as it is given, and the chapter's totals when playback
/// reaches its end.
fn install_quiz(ctx: AppCtx, parent: Rc<Parent>) {
    let p = Rc::clone(&parent);
    Effect::new(move |last: Option<Option<u64>>| {
        let answered = ctx.quiz.with(|q| q.answered.clone());
        let seq = answered.as_ref().map(|a| a.seq);
        if let Some(a) = answered
            && last.is_some_and(|l| l != seq)
        {
            p.post(
                embed::ANSWER,
                &[
                    (told_key(ctx), JsValue::from(ctx.told_id())),
                    ("question", JsValue::from(a.id)),
                    ("answer", js_value(&a.value)),
                    ("correct", a.right.into()),
                ],
            );
        }
        seq
    });
    Effect::new(move |was_done: Option<bool>| {
        let done = ctx.quiz.with(|q| q.enabled) && ctx.playback.with(|p| p.at_end() && !p.playing);
        if done && was_done == Some(false) {
            let progress = ctx.quiz.with_untracked(|q| q.progress(ctx.questions_untracked()));
            let total = ctx.session.with_value(|s| s.quiz.iter().filter(|d| d.is_some()).count());
            parent.post(
                embed::QUIZ_DONE,
                &[
                    (told_key(ctx), JsValue::from(ctx.told_id())),
                    ("answered", progress.answered().into()),
                    ("correct", progress.right().into()),
                    ("total", total.into()),
                ],
            );
        }
        done
    });
}
