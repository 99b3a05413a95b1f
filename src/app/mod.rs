//! The Leptos page (wasm32 only). It renders what the simulation says at the playhead and holds
//! no cluster state of its own: see [`state::AppCtx`].
//!
//! Layout, wide screen first: the header with the chapters; then two columns, the stage, timeline
//! and sandbox on the left, narration and inspector on the right. Below 960 px the columns stack.

pub mod chrome;
mod compute;
pub mod controls;
mod dom;
pub mod embed;
pub mod fleet;
pub mod inspector;
pub mod narration;
pub mod playloop;
pub mod quiz;
pub mod shutdown;
pub mod stage;
pub mod state;
pub mod timeline;

use leptos::prelude::*;

use crate::i18n::Key;
use crate::link;
use state::AppCtx;

/// Starts the app: installs the panic hook, mounts [`App`] on `<body>`, then takes the poster
/// (the story as static text, see [`crate::view::poster`]) out of the page, in the same task, so
/// nothing is shown or announced twice. Should the mount fail, the story stays readable.
pub fn start() {
    chrome::install_panic_hook();
    leptos::mount::mount_to_body(App);
    if let Some(poster) = document().get_element_by_id(crate::view::poster::POSTER_ID) {
        poster.remove();
    }
    // The moment the page is interactive: the story is simulated and every control is mounted
    // (`cargo xtask bench` measures navigation to this mark).
    if let Some(p) = window().performance() {
        let _ = p.mark("nodeline-interactive");
    }
}

/// Panics on purpose: the browser tests call it (`window.wasmBindings.nodelineSelfTestPanic()`)
/// to check that a Rust panic leaves a visible error panel with a reload button, not a blank
/// page. No link, message or control of the page reaches it.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = nodelineSelfTestPanic)]
pub fn self_test_panic() {
    panic!("nodeline self-test: a deliberate panic");
}

/// The page.
#[component]
pub fn App() -> impl IntoView {
    let location = window().location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let (link, notices) = link::parse(&search, &hash);
    let lang = link.lang.unwrap_or_else(chrome::browser_lang);
    let ctx = AppCtx::new(&link, lang, chrome::prefers_reduced_motion());
    provide_context(ctx);
    fleet::FleetNow::provide(ctx);
    ctx.notify_link(&notices);
    chrome::notify_rejected_inputs(ctx);
    chrome::sync_document(ctx);
    chrome::sync_url(ctx);
    playloop::run(ctx);
    compute::run(ctx);
    playloop::pause_when_hidden(ctx);
    chrome::reload_on_hash_change();
    embed::install(ctx);
    quiz::install(ctx);

    let t = move |k: Key| ctx.lang.get().text(k);
    view! {
        <a class="skip" href="#story">{move || t(Key::SkipToContent)}</a>
        <Show when=move || !ctx.embed>
            <chrome::Header />
        </Show>
        <chrome::Notices />
        <main id="story" class="layout" class:embed=ctx.embed tabindex="-1">
            // Without the header, the page's one h1 names the chapter (for screen readers).
            <Show when=move || ctx.embed>
                <h1 class="sr-only">
                    {move || {
                        let lang = ctx.lang.get();
                        format!("{} — {}", lang.chapter(ctx.chapter.get()).title, lang.text(Key::AppTitle))
                    }}
                </h1>
            </Show>
            <div class="col-main">
                <Show when=move || ctx.chapter.get().is_fleet() fallback=|| view! { <stage::Stage /> }>
                    <fleet::FleetStage />
                </Show>
                <timeline::TimelineBar />
                <Show when=move || !ctx.embed>
                    <controls::Controls />
                </Show>
            </div>
            <div class="col-side">
                <quiz::QuizPanel />
                <narration::Narration />
                <Show when=move || !ctx.embed>
                    <inspector::Inspector />
                </Show>
            </div>
        </main>
        <timeline::ShortcutSheet />
        <chrome::LiveRegion />
    }
}
