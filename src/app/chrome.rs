//! The page around the story: header and chapter navigation, notices, the polite live region,
//! the error panel a panic leaves, and keeping `<html>` and the URL in step with the state.

use std::cell::Cell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::AppCtx;
use crate::i18n::{Key, Lang};
use crate::link::{self, Theme};
use crate::sim::{Chapter, Refusal};
use crate::view::announce::{Watched, announcement};
use crate::view::notice::refusal_text;
use crate::view::stories::{self, Listed};

thread_local! {
    /// The language the error panel speaks (a panic cannot read signals).
    static PANIC_LANG: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// Replaces the page with an error panel and a reload button when Rust panics (the release
/// build aborts right after), instead of leaving a frozen or blank page.
pub(super) fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        leptos::logging::error!("nodeline panicked: {info}");
        let lang = PANIC_LANG.with(Cell::get);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(body) = doc.body() else { return };
        if doc.get_element_by_id("nodeline-error").is_some() {
            return;
        }
        let Ok(panel) = doc.create_element("div") else { return };
        panel.set_id("nodeline-error");
        let _ = panel.set_attribute("role", "alert");
        let _ = panel.set_attribute("class", "error-panel");
        let parts = [("h2", lang.text(Key::ErrorTitle)), ("p", lang.text(Key::ErrorBody))];
        for (tag, text) in parts {
            if let Ok(el) = doc.create_element(tag) {
                el.set_text_content(Some(text));
                let _ = panel.append_child(&el);
            }
        }
        if let Ok(button) = doc.create_element("button") {
            let _ = button.set_attribute("type", "button");
            button.set_text_content(Some(lang.text(Key::Reload)));
            let reload = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            });
            let _ = button.add_event_listener_with_callback("click", reload.as_ref().unchecked_ref());
            reload.forget();
            let _ = panel.append_child(&button);
            let _ = body.append_child(&panel);
            if let Some(b) = button.dyn_ref::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        }
    }));
}

/// The reader's preferred language, from the browser.
pub(super) fn browser_lang() -> Lang {
    let nav = window().navigator();
    let list: Vec<String> = nav.languages().iter().filter_map(|v| v.as_string()).collect();
    let mut prefs: Vec<&str> = list.iter().map(String::as_str).collect();
    let single = nav.language();
    if let Some(l) = single.as_deref() {
        prefs.push(l);
    }
    Lang::negotiate(prefs)
}

/// Reads the link again when only its fragment changes (`#step=4` typed into the address bar,
/// or a "Play from step" link in the same document): the page's state comes from the link, so a
/// reload is the one way to honour it exactly, notices included.
pub(super) fn reload_on_hash_change() {
    let on_change = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
        let _ = window().location().reload();
    });
    let _ = window().add_event_listener_with_callback("hashchange", on_change.as_ref().unchecked_ref());
    on_change.forget();
}

/// Whether the reader asked for reduced motion.
pub(super) fn prefers_reduced_motion() -> bool {
    window().match_media("(prefers-reduced-motion: reduce)").ok().flatten().is_some_and(|m| m.matches())
}

/// Shows why an action from the link had no effect.
pub(super) fn notify_rejected_inputs(ctx: AppCtx) {
    let rejected: Vec<(String, Refusal)> = ctx.session.with_value(|s| {
        s.timeline
            .log()
            .inputs
            .iter()
            .filter(|i| !i.scripted)
            .filter_map(|i| i.rejected.as_ref().map(|why| (i.action.to_string(), why.clone())))
            .collect()
    });
    let lang = ctx.lang.get_untracked();
    for (action, why) in rejected {
        ctx.notify(lang.fill(Key::NoticeActionRejected, &[&action, &refusal_text(lang, &why)]));
    }
}

/// Keeps `<html lang>`, the theme attribute and the document title in step with the state.
pub(super) fn sync_document(ctx: AppCtx) {
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        PANIC_LANG.with(|c| c.set(lang));
        let Some(html) = document().document_element() else { return };
        let _ = html.set_attribute("lang", lang.code());
        match ctx.theme.get() {
            Some(Theme::Light) => {
                let _ = html.set_attribute("data-theme", "light");
            }
            Some(Theme::Dark) => {
                let _ = html.set_attribute("data-theme", "dark");
            }
            None => {
                let _ = html.remove_attribute("data-theme");
            }
        }
        let title = ctx.texts(lang).title;
        document().set_title(&format!("{title} — {}", lang.text(Key::AppTitle)));
    });
}

/// Keeps the address bar a link to what the reader sees: chapter, actions, and (when paused)
/// the playhead.
pub(super) fn sync_url(ctx: AppCtx) {
    let written = StoredValue::new(window().location().search().unwrap_or_default());
    Effect::new(move |answers_before: Option<Option<String>>| {
        ctx.track_timeline();
        ctx.chapter.track();
        ctx.story.track();
        ctx.lang.track();
        // Question mode's answers are written at once, playing or not.
        let answers =
            ctx.quiz.with(|q| q.enabled.then(|| q.progress(ctx.questions_untracked())).and_then(|p| p.to_param()));
        let playing = ctx.playback.with(|p| p.playing);
        if playing && answers_before.as_ref().is_none_or(|b| *b == answers) {
            // The playhead moves every frame; the URL catches up when playback stops.
            return answers;
        }
        ctx.playback.track();
        let query = format!("?{}", link::to_query(&ctx.link()));
        // The timeline's revision moves with every stretch the background computes: the
        // address is written only when it says something new.
        if written.with_value(|w| *w != query) {
            if let Ok(history) = window().history() {
                let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&query));
            }
            written.set_value(query);
        }
        answers
    });
}

/// On a phone the chapters are one row that scrolls sideways (`style/phone.css`): brings the
/// current chapter to the middle of it. Elsewhere the row does not scroll, and nothing moves.
fn show_current_chapter() {
    let Some(row) = document().query_selector(".chapters ol").ok().flatten() else { return };
    if row.scroll_width() <= row.client_width() {
        return;
    }
    let Some(current) = row.query_selector("a.current").ok().flatten() else { return };
    let (r, at) = (row.get_bounding_client_rect(), current.get_bounding_client_rect());
    let left = f64::from(row.scroll_left()) + at.left() - r.left() - (r.width() - at.width()) / 2.0;
    row.set_scroll_left(left.max(0.0).round() as i32);
}

/// The header: title, tagline, chapter navigation.
#[component]
pub fn Header() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    Effect::new(move |_| {
        ctx.chapter.track();
        ctx.story.track();
        request_animation_frame(show_current_chapter);
    });
    // The site's stories, listed once, by the build: each before the chapter it names, the rest
    // after the chapters ("more stories").
    let listed = super::stories::listed();
    let link = |s: &Listed| {
        let (id, title) = (s.id.clone(), s.title.clone());
        view! { <StoryLink id title /> }
    };
    let more: Vec<_> = stories::after_chapters(&listed).map(link).collect();
    let more_stories = (!more.is_empty()).then(|| {
        let label = view! { <li class="more-stories">{move || t(Key::MoreStories)}</li> };
        (label, more.collect_view())
    });
    view! {
        <header class="site-header">
            <div class="brand">
                <h1>{move || t(Key::AppTitle)}</h1>
                <p class="tagline">{move || t(Key::Tagline)}</p>
            </div>
            <nav class="chapters" aria-label=move || t(Key::ChapterNav)>
                <ol>
                    {Chapter::ALL
                        .into_iter()
                        .map(|chapter| {
                            let current = move || ctx.story.get().is_none() && ctx.chapter.get() == chapter;
                            let first: Vec<_> = stories::before(&listed, chapter).map(link).collect();
                            view! {
                                {first}
                                <li>
                                    <a
                                        href=move || format!("?chapter={}&lang={}", chapter.id(), ctx.lang.get().code())
                                        aria-current=move || current().then_some("page")
                                        class:current=current
                                        on:click=move |ev| {
                                            ev.prevent_default();
                                            ctx.load(chapter, &[]);
                                        }
                                    >
                                        <span class="chapter-number">
                                            {move || ctx.lang.get().fill(Key::ChapterLabel, &[&chapter.number().to_string()])}
                                        </span>
                                        <span class="chapter-title">{move || ctx.lang.get().chapter(chapter).title}</span>
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()}
                    {more_stories}
                </ol>
            </nav>
            <div class="header-tools">
                <super::quiz::QuizSwitch />
                <LanguageSwitch />
                <span class="k8s-version" title=move || t(Key::KubernetesVersion)>
                    {format!("Kubernetes {}", ctx.profile.as_str())}
                </span>
            </div>
        </header>
    }
}

/// A story of the site's in the chapter list: followed, it is told in place.
#[component]
fn StoryLink(id: String, title: crate::story::Words) -> impl IntoView {
    let ctx = AppCtx::get();
    let id = StoredValue::new(id);
    let current = move || ctx.story.get().is_some_and(|l| id.with_value(|id| l.story.id == *id));
    view! {
        <li>
            <a
                href=move || format!("?story={}&lang={}", id.get_value(), ctx.lang.get().code())
                aria-current=move || current().then_some("page")
                class:current=current
                on:click=move |ev| {
                    ev.prevent_default();
                    super::stories::open_in_place(ctx, id.get_value());
                }
            >
                <span class="chapter-number">{move || ctx.lang.get().text(Key::StoryLabel)}</span>
                <span class="chapter-title">{move || title.get(ctx.lang.get()).to_string()}</span>
            </a>
        </li>
    }
}

/// The language switch: one link per language, each to what the reader sees now (chapter,
/// actions, playhead) in that language. Following it switches in place; the URL keeps the choice.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let ctx = AppCtx::get();
    view! {
        <nav class="lang-switch" aria-label=move || ctx.lang.get().text(Key::Language)>
            <ul>
                {Lang::ALL
                    .into_iter()
                    .map(|lang| {
                        let current = move || ctx.lang.get() == lang;
                        let href = move || {
                            ctx.track_timeline();
                            ctx.chapter.track();
                            ctx.lang.track();
                            let link = link::Link { lang: Some(lang), ..ctx.link() };
                            format!("?{}", link::to_query(&link))
                        };
                        view! {
                            <li>
                                <a
                                    href=href
                                    lang=lang.code()
                                    hreflang=lang.code()
                                    aria-current=move || current().then_some("true")
                                    class:current=current
                                    title=move || lang.fill(Key::LanguageSwitch, &[lang.endonym()])
                                    on:click=move |ev| {
                                        ev.prevent_default();
                                        ctx.lang.set(lang);
                                    }
                                >
                                    {lang.endonym()}
                                </a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </nav>
    }
}

/// Notices about the link, the reader's actions, and the page itself.
#[component]
pub fn Notices() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    view! {
        <section class="notices" aria-label=move || t(Key::NotesTitle) hidden=move || ctx.notices.with(Vec::is_empty) && !ctx.reduced_motion.get()>
            <ul>
                <For each=move || ctx.notices.get() key=|n| n.id let:notice>
                    <li class="notice">
                        <span class="notice-text">{notice.text.clone()}</span>
                        <button
                            type="button"
                            class="notice-dismiss"
                            aria-label=move || t(Key::Dismiss)
                            on:click=move |_| ctx.notices.update(|n| n.retain(|x| x.id != notice.id))
                        >
                            "×"
                        </button>
                    </li>
                </For>
                <Show when=move || ctx.reduced_motion.get()>
                    <li class="notice quiet">{move || t(Key::ReducedMotion)}</li>
                </Show>
            </ul>
        </section>
    }
}

/// The one polite live region: the step reached, a Node whose status changed, a Pod evicted;
/// one sentence for what changed since the last moment (see [`crate::view::announce`]).
#[component]
pub fn LiveRegion() -> impl IntoView {
    let ctx = AppCtx::get();
    let fleet = super::fleet::FleetNow::get().fleet;
    let watched = Memo::new(move |_| {
        let step = ctx.current_step();
        let t = ctx.t();
        let watched = if ctx.is_fleet() {
            fleet.with(|f| Watched::fleet(f, step))
        } else {
            ctx.with_session(|s| Watched::at(&s.at(t), step))
        };
        Watched { departed: ctx.departed(), ..watched }
    });
    // What was last watched, and in which language it was said.
    let previous = StoredValue::new((None::<Lang>, Watched::default()));
    let text = Memo::new(move |last: Option<&String>| {
        let now = watched.get();
        let lang = ctx.lang.get();
        let chapter = untrack(|| ctx.texts(lang));
        let title = chapter.steps.get(now.step.wrapping_sub(1)).map(|s| s.title).unwrap_or_default();
        let (said_in, mut before) = previous.get_value();
        previous.set_value((Some(lang), now.clone()));
        let switched = said_in.is_some_and(|l| l != lang);
        if switched {
            // The reader changed language: say where they are, in the new one, and never leave
            // the last sentence standing in the old one.
            before = Watched { step: 0, ..now.clone() };
        }
        let kept = if switched { None } else { last.cloned() };
        announcement(lang, &before, &now, title, chapter.steps.len()).or(kept).unwrap_or_default()
    });
    // An answer's result is said when it is given; while a question waits for its answer, the
    // story says nothing (a step's title could give the answer away).
    let spoken = Memo::new(move |last: Option<&(String, Option<u64>, String)>| {
        let story = text.get();
        let (asking, said) = ctx.quiz.with(|q| (q.asking(), q.said.clone()));
        let said_seq = said.as_ref().map(|(n, _)| *n);
        let shown = match (last, said) {
            _ if asking => String::new(),
            (Some((_, last_seq, _)), Some((_, s))) if *last_seq != said_seq => s,
            (Some((last_story, _, shown)), _) if *last_story == story => shown.clone(),
            _ => story.clone(),
        };
        (story, said_seq, shown)
    });
    view! { <div class="sr-only" role="status" aria-live="polite">{move || spoken.with(|s| s.2.clone())}</div> }
}
