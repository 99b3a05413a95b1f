//! The Leptos page (wasm32 only). It renders what the simulation says at the playhead and
//! holds no cluster state of its own.
//!
//! For now this is the minimal shell that keeps the build and test pipeline honest: a `<main>`
//! landmark, the title and a Play/Pause toggle.

use leptos::prelude::*;

/// Starts the app: installs the panic hook and mounts [`App`] on `<body>`.
pub fn start() {
    install_panic_hook();
    leptos::mount::mount_to_body(App);
}

/// Sends Rust panics to the browser console as errors (the default hook writes to a stderr the
/// browser does not have). The release build aborts after the hook runs.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        leptos::logging::error!("nodeline panicked: {info}");
    }));
}

/// The accessible name of the play/pause button in each state.
#[must_use]
pub fn play_button_label(playing: bool) -> &'static str {
    if playing { "Pause" } else { "Play" }
}

/// The page.
#[component]
pub fn App() -> impl IntoView {
    let (playing, set_playing) = signal(false);

    view! {
        <main>
            <h1>"nodeline"</h1>
            <button
                type="button"
                on:click=move |_| set_playing.update(|p| *p = !*p)
            >
                {move || play_button_label(playing.get())}
            </button>
        </main>
    }
}
