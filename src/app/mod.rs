//! The Leptos page (wasm32 only). It renders what the simulation says at the playhead and holds
//! no cluster state of its own: see [`state::AppCtx`].
//!
//! Layout, wide screen first: the header with the chapters; then two columns, the stage, timeline
//! and sandbox on the left, narration and inspector on the right, the timeline held at the
//! window's foot. Below 1,270 px (where two columns would shrink the stage's text under 12 px)
//! the parts stack in one column: the step, the stage, the timeline, then the rest; up to 960 px
//! the step's text is a tap away and the stage is a window onto its drawing. An embed in a docs column fills its frame: the stage and
//! the story side by side, the timeline across the foot (style/layout.css, style/embed.css).

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
pub mod stories;
pub mod timeline;

use leptos::prelude::*;

use crate::i18n::Key;
use crate::link::{self, Link, Notice};
use crate::sim::SimTime;
use crate::view::notice::{StoryFailure, story_failure_texts};
use crate::view::session::Session;
use crate::view::stories::Loaded;
use state::AppCtx;

/// Starts the app. The start is cut into tasks short enough for a phone's main thread (a task
/// over 50 ms at a 4x CPU slowdown holds up input), so that what the reader sees first comes
/// first: the scenario and its world are made in a task each ([`Session::plan`]), the chapter
/// is computed in slices ([`compute_to`]; a fleet only to where the link
/// points, the rest by [`compute`] once every part is mounted); the header, narration and stage
/// are mounted in the same task as the still view ([`crate::view::still`]) gives its place over,
/// so nothing is shown or announced twice; then each further part
/// of the page is added below what is shown, after the browser has painted the last (its style
/// and layout in a frame of their own); a linked step starts playing once the controls are
/// there. Should the start fail, the story stays readable.
pub fn start() {
    chrome::install_panic_hook();
    mark("nodeline-wasm-started");
    wasm_bindgen_futures::spawn_local(boot());
}

async fn boot() {
    let location = window().location();
    let address = || (location.search().unwrap_or_default(), location.hash().unwrap_or_default());
    // The still view's script keeps the address in step with the step the reader chose while
    // the app was on its way: the app starts where the reader is when it is ready, not where
    // the page was opened.
    let mut read = address();
    let (link, notices, story, failure, session, missed) = loop {
        let (mut link, mut notices) = link::parse(&read.0, &read.1);
        let (story, failure) = open_story(&mut link, &mut notices).await;
        // The scenario, then its world, each in a task of its own (a thousand machines each).
        yield_to_browser().await;
        let plan = Session::plan(&link, story);
        yield_to_browser().await;
        let mut session = plan.session();
        yield_to_browser().await;
        compute_to(&mut session, SimTime::ZERO).await;
        if link.t.is_none() {
            compute_step(&mut session, link.step.unwrap_or(1)).await;
        }
        let start = state::start_time(&link, &mut session);
        compute_to(&mut session, start).await;
        // A linked step that does not happen in this timeline: the story starts from the
        // beginning, and the reader is told why.
        let missed = link.step.filter(|&n| link.t.is_none() && matches!(session.steps.get(n - 1), Some(None)));
        mark("nodeline-timeline-built");
        yield_to_browser().await;
        let now = address();
        if now == read {
            break (link, notices, story, failure, session, missed);
        }
        read = now;
    };
    let lang = link.lang.unwrap_or_else(chrome::browser_lang);

    let ctx = AppCtx::from_session(&link, story, lang, chrome::prefers_reduced_motion(), session);
    for text in
        failure.map(|(id, f)| story_failure_texts(lang, &id, &crate::view::stories::path(&id), &f)).unwrap_or_default()
    {
        ctx.notify(text);
    }
    if let Some(n) = missed {
        ctx.notify(lang.fill(Key::NoticeStepMissing, &[&n.to_string(), &ctx.not_reached(lang)]));
    }
    let (playing, busy) = (RwSignal::new(false), RwSignal::new(true));
    leptos::mount::mount_to_body(move || page(ctx, notices, playing.into(), busy.into(), false));
    // The still view (`crate::view::still`) gives its place to the page in the same task: its
    // script sees the page's `<main>` arrive, keeps its timeline bar in place until the page's
    // own is mounted below, and gives the focus to the same control.
    mark("nodeline-first-part");
    // Each part below what is shown: the timeline and controls under the stage, the inspector
    // under the narration (on a phone, both under the stage: style/layout.css).
    after_next_paint().await;
    mount_part(ctx, "#story > .col-main", || view! { <timeline::TimelineBar /> });
    if !ctx.embed {
        after_next_paint().await;
        mount_part(ctx, "#story > .col-main", || view! { <controls::Controls /> });
    }
    after_next_paint().await;
    playing.set(true);
    if !ctx.embed {
        after_next_paint().await;
        mount_part(ctx, "#story > .col-side", || view! { <inspector::Inspector /> });
    }
    after_next_paint().await;
    mount_part(ctx, "body", || view! { <timeline::ShortcutSheet /> });
    // Whatever is left of the still view (its script gives its place over as the page arrives).
    while let Some(still) = document().query_selector("[data-still]").ok().flatten() {
        still.remove();
    }
    busy.set(false);
    // The moment the page is interactive: the story is simulated and every control is mounted
    // (`cargo xtask bench` measures navigation to this mark).
    mark("nodeline-interactive");
}

/// Reads the story the link names, if any. A story read sets the link's Kubernetes version to
/// its own and clamps the link's step to its steps; one that cannot be read leaves the link to
/// its chapter, and gives why (its id and the failure).
async fn open_story(
    link: &mut Link,
    notices: &mut Vec<Notice>,
) -> (Option<&'static Loaded>, Option<(String, StoryFailure)>) {
    let Some(id) = link.story.clone() else { return (None, None) };
    match stories::open(&id).await {
        Ok(loaded) => {
            link.profile = loaded.story.config.profile;
            if !loaded.story.scenario.fleet
                && let Some(n) = link.nodes.take()
            {
                notices.push(Notice {
                    param: "nodes".into(),
                    value: n.to_string(),
                    problem: link::Problem::NodesNotAFleet,
                });
            }
            let count = loaded.story.steps.len();
            if let Some(n) = link.step.filter(|n| *n > count) {
                link.step = Some(count);
                notices.push(Notice {
                    param: "step".into(),
                    value: n.to_string(),
                    problem: link::Problem::StepOutOfRange { used: count },
                });
            }
            if let Some(progress) = link.progress.take() {
                let text = progress.to_param().unwrap_or_default();
                let (progress, ok) = progress.fit(loaded.story.questions.len());
                if !ok {
                    notices.push(Notice { param: "progress".into(), value: text, problem: link::Problem::BadProgress });
                }
                link.progress = progress.to_param().is_some().then_some(progress);
            }
            (Some(loaded), None)
        }
        Err(failure) => {
            link.story = None;
            link.progress = None;
            (None, Some((id, failure)))
        }
    }
}

/// Mounts a part of the page at the end of the element `parent` names, for the page's lifetime
/// (a reactive root of its own, given the page's context). Mounted once, a part needs no code to
/// be taken out and put back, as it would behind a `<Show>`.
fn mount_part<N: IntoView + 'static>(ctx: AppCtx, parent: &str, part: impl FnOnce() -> N + 'static) {
    use wasm_bindgen::JsCast;
    let Some(parent) = document().query_selector(parent).ok().flatten() else { return };
    let Ok(parent) = parent.dyn_into::<web_sys::HtmlElement>() else { return };
    leptos::mount::mount_to(parent, move || {
        provide_context(ctx);
        part()
    })
    .forget();
}

/// Calls `more` until it says there is no more, letting the browser in whenever a
/// [`compute::Slice`] is over: each call computes a piece of at most [`compute::PIECE`] records,
/// ended sooner by the slice, so no task is much longer than the slice.
async fn in_slices(session: &mut Session, mut more: impl FnMut(&mut Session, &mut dyn FnMut() -> bool) -> bool) {
    let mut slice = compute::Slice::new();
    while more(session, &mut || slice.more()) {
        if slice.over() {
            yield_to_browser().await;
            slice = compute::Slice::new();
        }
    }
}

/// What [`Session::ensure`] does for `t`, in slices with the browser let in between (the same
/// timeline: computing it in pieces is how playback and the background compute it too).
async fn compute_to(session: &mut Session, t: SimTime) {
    let Some(to) = session.target(t) else { return };
    in_slices(session, |s, more| !s.compute_within(to, compute::PIECE, more)).await;
    yield_to_browser().await;
    session.refresh();
}

/// Computes a progressive timeline (a fleet) in slices until step `n` (1-based) is found, so
/// that [`state::start_time`] finds it computed ([`Session::step_time`] would compute the
/// stretch to it in one task: the 1,000-node fleet's first step is 170 simulated seconds in).
async fn compute_step(session: &mut Session, n: usize) {
    const BY: std::time::Duration = std::time::Duration::from_secs(60);
    in_slices(session, |s, more| !s.step_settled(n) && !s.advance_within(BY, compute::PIECE, more).0).await;
}

/// The page's clock (`performance.now()`, ms). The `Performance` object is fetched once: the
/// background computation reads the clock after every simulated second.
pub(crate) fn now_ms() -> f64 {
    thread_local! {
        static PERFORMANCE: Option<web_sys::Performance> = window().performance();
    }
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, |p| p.now()))
}

/// Lets the browser run what waits (input, other tasks) before the start goes on:
/// `scheduler.yield()` where the browser has it, else a zero-delay timeout.
async fn yield_to_browser() {
    use wasm_bindgen::JsCast;
    let window = window();
    let scheduled = js_sys::Reflect::get(&window, &"scheduler".into()).ok().and_then(|scheduler| {
        let f = js_sys::Reflect::get(&scheduler, &"yield".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
        f.call0(&scheduler).ok()?.dyn_into::<js_sys::Promise>().ok()
    });
    let promise = scheduled.unwrap_or_else(|| {
        js_sys::Promise::new(&mut |resolve, _| {
            let _ = window.set_timeout_with_callback(&resolve);
        })
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits for a task of its own, queued behind what the browser already has (input, timers, a
/// frame to render): a message posted to itself, which browsers do not hold back as they do a
/// zero-delay timeout nested in another (4 ms each), nor put ahead of other tasks as they do
/// `scheduler.yield()`'s continuation. A zero-delay timeout where there is no `MessageChannel`.
pub(crate) async fn next_task() {
    use wasm_bindgen::{JsCast, JsValue};
    let promise = js_sys::Promise::new(&mut |resolve, _| match web_sys::MessageChannel::new() {
        Ok(channel) => {
            let (receiver, sender) = (channel.port1(), channel.port2());
            // The closure holds the channel until its message arrives.
            let arrived = wasm_bindgen::closure::Closure::once_into_js(move |_: JsValue| {
                channel.port1().set_onmessage(None);
                let _ = resolve.call0(&JsValue::UNDEFINED);
            });
            receiver.set_onmessage(Some(arrived.unchecked_ref()));
            if sender.post_message(&JsValue::UNDEFINED).is_err() {
                let _ = window().set_timeout_with_callback(arrived.unchecked_ref());
            }
        }
        Err(_) => {
            let _ = window().set_timeout_with_callback(&resolve);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits until the browser has rendered a frame (a task after the next animation frame), or
/// [`FRAME_WAIT_MS`] where it renders none (a hidden tab, an iframe out of view).
async fn after_next_paint() {
    use wasm_bindgen::JsCast;
    let window = window();
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let after_frame = {
            let (window, resolve) = (window.clone(), resolve.clone());
            wasm_bindgen::closure::Closure::once_into_js(move || {
                let _ = window.set_timeout_with_callback(&resolve);
            })
        };
        let _ = window.request_animation_frame(after_frame.unchecked_ref());
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, FRAME_WAIT_MS);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// How long [`after_next_paint`] waits for a frame.
const FRAME_WAIT_MS: i32 = 100;

/// A User Timing mark (read by the benchmark and in a browser's performance trace).
fn mark(name: &str) {
    if let Some(p) = window().performance() {
        let _ = p.mark(name);
    }
}

/// Panics on purpose: the browser tests call it (`window.wasmBindings.nodelineSelfTestPanic()`)
/// to check that a Rust panic leaves a visible error panel with a reload button, not a blank
/// page. No link, message or control of the page reaches it.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = nodelineSelfTestPanic)]
pub fn self_test_panic() {
    panic!("nodeline self-test: a deliberate panic");
}

/// The whole page at once, the chapter computed in one go (the browser tests' smoke test mounts
/// it; the page itself starts through [`start`]).
#[component]
pub fn App() -> impl IntoView {
    let location = window().location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let (link, notices) = link::parse(&search, &hash);
    let lang = link.lang.unwrap_or_else(chrome::browser_lang);
    let ctx = AppCtx::new(&link, lang, chrome::prefers_reduced_motion());
    page(ctx, notices, Signal::stored(true), Signal::stored(false), true)
}

/// The page: whole, or (`whole` false) its first part, the rest mounted by [`boot`] (the page
/// plays only while `playing`, and `<main>` is `aria-busy` while `busy`).
fn page(ctx: AppCtx, notices: Vec<Notice>, playing: Signal<bool>, busy: Signal<bool>, whole: bool) -> impl IntoView {
    provide_context(ctx);
    fleet::FleetNow::provide(ctx);
    ctx.notify_link(&notices);
    chrome::notify_rejected_inputs(ctx);
    chrome::sync_document(ctx);
    chrome::sync_url(ctx);
    playloop::run(ctx, playing);
    compute::run(ctx, busy);
    playloop::pause_when_hidden(ctx);
    chrome::reload_on_hash_change();
    embed::install(ctx);
    quiz::install(ctx);

    let t = move |k: Key| ctx.lang.get().text(k);
    let panels = whole && !ctx.embed;
    view! {
        <a class="skip" href="#story">{move || t(Key::SkipToContent)}</a>
        <Show when=move || !ctx.embed>
            <chrome::Header />
        </Show>
        <chrome::Notices />
        // Busy until its last part is mounted (assistive technologies wait; so do the tests).
        <main
            id="story"
            class="layout"
            class:embed=ctx.embed
            tabindex="-1"
            aria-busy=move || busy.get().then_some("true")
        >
            // Without the header, the page's one h1 names the chapter (for screen readers).
            <Show when=move || ctx.embed>
                <h1 class="sr-only">
                    {move || {
                        let lang = ctx.lang.get();
                        format!("{} — {}", ctx.texts(lang).title, lang.text(Key::AppTitle))
                    }}
                </h1>
            </Show>
            <div class="col-main">
                <Show when=move || ctx.is_fleet() fallback=|| view! { <stage::Stage /> }>
                    <fleet::FleetStage />
                </Show>
                {whole.then(|| view! { <timeline::TimelineBar /> })}
                {panels.then(|| view! { <controls::Controls /> })}
            </div>
            <div class="col-side">
                <quiz::QuizPanel />
                <narration::Narration />
                {panels.then(|| view! { <inspector::Inspector /> })}
            </div>
        </main>
        {whole.then(|| view! { <timeline::ShortcutSheet /> })}
        <chrome::LiveRegion />
    }
}
