//! The narration: the current step's text, its words linked to the stage, a "Play from this
//! step" link, and a compact list of every step of the chapter.
//!
//! Step changes are announced by the page's one live region (`chrome::LiveRegion`), so this panel
//! is not a live region itself.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::state::AppCtx;
use crate::i18n::{Key, Lang};
use crate::view::account;
use crate::view::pages::{Words, paragraphs};

/// Whether a click is a plain left click (not one that opens a new tab or window).
fn plain_click(ev: &leptos::ev::MouseEvent) -> bool {
    ev.button() == 0 && !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && !ev.alt_key()
}

/// Seeks to step `n` and plays; copies the step's full link to the clipboard when the browser
/// allows it, and says so.
fn play_from(ctx: AppCtx, n: usize) {
    if !ctx.play_step(n) {
        return;
    }
    let link = ctx.step_link(n);
    let location = window().location();
    let url = format!("{}{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default(), link);
    copy_to_clipboard(ctx, url);
}

/// Writes `url` to the clipboard (only in secure contexts, where `navigator.clipboard` exists)
/// and shows a notice once it is there.
fn copy_to_clipboard(ctx: AppCtx, url: String) {
    let navigator = window().navigator();
    let available = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !available {
        return;
    }
    let promise = navigator.clipboard().write_text(&url);
    let lang = ctx.lang.get_untracked();
    let done = Closure::once(move |_: JsValue| ctx.notify(lang.fill(Key::LinkCopied, &[&url])));
    // A refused write (no permission, no focus) is not an error worth a notice: the link is on
    // the page for the reader to copy.
    let refused = Closure::once(|_: JsValue| {});
    let _ = promise.then2(&done, &refused);
    done.forget();
    refused.forget();
}

/// The stage element a term names (`data-term`) at or above an event's target in the narration.
fn term_at(ev: &web_sys::Event) -> Option<&'static str> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let name = target.closest("[data-term]").ok()??.get_attribute("data-term")?;
    crate::i18n::TARGETS.iter().copied().find(|t| *t == name)
}

/// The narration panel.
#[component]
pub fn Narration() -> impl IntoView {
    let ctx = AppCtx::get();
    // Before step 1's moment, step 1 is shown.
    let step = Memo::new(move |_| ctx.current_step().max(1));
    // Which steps happen in this timeline.
    let reached = Memo::new(move |_| {
        ctx.with_session(|s| (0..s.steps.len()).map(|i| s.step_reachable(i)).collect::<Vec<bool>>())
    });
    let text = move || ctx.texts(ctx.lang.get());
    let link = move |n: usize| {
        ctx.chapter.track();
        ctx.story.track();
        ctx.lang.track();
        ctx.step_link(n)
    };
    let step_reached = move |n: usize| reached.with(|r| r.get(n - 1).copied().unwrap_or(false));
    // Whether the reader's actions changed the story by the playhead: the panel then gives the
    // account of the reader's story (`view::account`), derived once per simulated second.
    let departed = Memo::new(move |_| ctx.departed());
    let second = Memo::new(move |_| ctx.t().as_millis() / 1000);
    let lines = super::fleet::FleetNow::get().lines;
    let account_html = Memo::new(move |_| {
        if !departed.get() {
            return String::new();
        }
        second.track();
        let (t, lang) = (ctx.playback.with_untracked(|p| p.t), ctx.lang.get());
        // The fleet's index of the controller's lines (read as is: what it has not indexed yet is
        // read from the log).
        lines.with_untracked(|lines| {
            ctx.with_session(|s| {
                account::account(&s.timeline, t, lang, lines).map(|a| a.markup(lang)).unwrap_or_default()
            })
        })
    });
    // A term that leaves the page while hovered or focused never gets its mouseleave or blur:
    // a new step (or language) clears the highlight.
    Effect::new(move |prev: Option<()>| {
        step.track();
        ctx.lang.track();
        ctx.chapter.track();
        ctx.story.track();
        if prev.is_some() {
            ctx.highlight.set(None);
        }
    });

    let step_of = move || {
        let total = text().steps.len();
        ctx.lang.get().fill(Key::StepOf, &[&step.get().to_string(), &total.to_string()])
    };
    let title = move || {
        if departed.get() {
            return ctx.lang.get().text(Key::AccountTitle);
        }
        text().steps.get(step.get() - 1).map(|s| s.title).unwrap_or_default()
    };
    // The step's paragraphs, written as markup (`pages::paragraphs`) and made anew each step
    // (text nodes kept from one step to the next would count as shifted when their words move);
    // a term highlights what it names while hovered or focused (one listener each for the block).
    let body = move || {
        if departed.get() {
            return account_html.get();
        }
        let mut html = String::new();
        let body = text().steps.get(step.get() - 1).map(|s| s.body).unwrap_or_default();
        paragraphs(&mut html, body, Words::Narration);
        html
    };

    let title_sizers = move || {
        let titles = text().steps.iter().map(|s| view! { <p class="narration-sizer sizer-title">{s.title}</p> });
        titles.collect_view()
    };
    let body_sizers = move || {
        text()
            .steps
            .iter()
            .map(|s| {
                let mut html = String::new();
                paragraphs(&mut html, s.body, Words::Unseen);
                view! { <div class="narration-sizer step-body" inner_html=html></div> }
            })
            .collect_view()
    };

    let list = move || {
        let lang = ctx.lang.get();
        let steps = text().steps;
        steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let n = i + 1;
                let current = move || step.get() == n;
                let entry = if step_reached(n) {
                    view! {
                        // The accessible name says what the link does and contains the
                        // visible title (WCAG 2.5.3).
                        <a
                            href=move || link(n)
                            aria-label=format!("{} {}", lang.fill(Key::PlayFromStep, &[&n.to_string()]), s.title)
                            aria-current=move || current().then_some("step")
                            on:click=move |ev: leptos::ev::MouseEvent| {
                                if plain_click(&ev) {
                                    ev.prevent_default();
                                    play_from(ctx, n);
                                }
                            }
                        >
                            {s.title}
                        </a>
                    }
                    .into_any()
                } else {
                    // Once the reader departed from the story, the list is the chapter's story as
                    // told, not a list of contradictions.
                    view! {
                        <span class="not-reached">
                            {s.title}
                            <span class="why">
                                {move || (!departed.get()).then(|| ctx.not_reached(lang))}
                            </span>
                        </span>
                    }
                    .into_any()
                };
                view! { <li class:current=current>{entry}</li> }
            })
            .collect_view()
    };

    // On narrow screens the step's text is a tap away (style/panels.css shows the button there
    // only; wide screens show the text whatever it says).
    let open = RwSignal::new(false);
    // A story of the site's written in English only, told in the Japanese page: its words are
    // English, and a line says so.
    let english_only = move || ctx.lang.get() == Lang::Ja && ctx.story.get().is_some_and(|l| l.english_only());

    view! {
        <section
            class="narration panel"
            class:departed=move || departed.get()
            class:open=move || open.get()
            aria-labelledby="narration-title"
            lang=move || english_only().then_some(Lang::En.code())
        >
            <p class="step-of" hidden=move || departed.get()>
                {step_of}
            </p>
            // A story of the site's written in English only, in the Japanese page.
            <Show when=english_only>
                <p class="story-language" lang=Lang::Ja.code()>{move || ctx.lang.get().text(Key::StoryEnglishOnly)}</p>
            </Show>
            // The room of the chapter's longest title and longest text: every step's title and
            // text laid out, unseen, in the same grid cells as the current one's, so moving
            // between steps (and the app replacing the still view) moves nothing.
            <div class="narration-room">
                <h2 id="narration-title">{title}</h2>
                {title_sizers}
            </div>
            <button
                type="button"
                class="secondary narration-toggle"
                aria-expanded=move || open.get().to_string()
                aria-controls="narration-more"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {move || ctx.lang.get().text(Key::ReadStep)}
            </button>
            <div id="narration-more" class="narration-more">
                <div class="narration-room">
                    <div
                        class="step-body narration-body"
                        inner_html=body
                        on:mouseover=move |ev: leptos::ev::MouseEvent| ctx.highlight.set(term_at(&ev))
                        on:focusin=move |ev: leptos::ev::FocusEvent| ctx.highlight.set(term_at(&ev))
                        on:mouseout=move |_| ctx.highlight.set(None)
                        on:focusout=move |_| ctx.highlight.set(None)
                    ></div>
                    {body_sizers}
                </div>
                <Show
                    when=move || step_reached(step.get()) || departed.get()
                    fallback=move || view! { <p class="not-reached">{move || ctx.not_reached(ctx.lang.get())}</p> }
                >
                    <p class="play-from" hidden=move || departed.get()>
                        <a
                            href=move || link(step.get())
                            on:click=move |ev: leptos::ev::MouseEvent| {
                                if plain_click(&ev) {
                                    ev.prevent_default();
                                    play_from(ctx, step.get_untracked());
                                }
                            }
                        >
                            <span aria-hidden="true" class="play-glyph">
                                "▶"
                            </span>
                            {move || ctx.lang.get().text(Key::PlayFromThisStep)}
                        </a>
                    </p>
                </Show>
                <nav class="step-list" class:story=move || departed.get() aria-label=move || ctx.lang.get().text(ctx.told().says(Key::StepsNav))>
                    <h3 class="story-head" hidden=move || !departed.get()>
                        {move || ctx.lang.get().text(ctx.told().says(Key::AccountStory))}
                    </h3>
                    <p class="story-help" hidden=move || !departed.get()>
                        {move || ctx.lang.get().text(ctx.told().says(Key::AccountStoryHelp))}
                    </p>
                    <ol>{list}</ol>
                </nav>
            </div>
        </section>
    }
}
