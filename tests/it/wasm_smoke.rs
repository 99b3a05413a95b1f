//! Browser smoke test: the app mounts into the real DOM, shows the first chapter, and its Play
//! button toggles playback.
//!
//! Run by `cargo xtask test` (wasm stage) through wasm-bindgen-test-runner and chromedriver.

use nodeline::app::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

/// Waits (polling, up to about 2 s) until `check` holds: Leptos applies signal changes to the
/// DOM from its async executor, not synchronously inside `click()`.
async fn wait_for(what: &str, check: impl Fn() -> bool) {
    for _ in 0..200 {
        if check() {
            return;
        }
        leptos::task::tick().await;
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out waiting for {what}");
}

#[wasm_bindgen_test]
async fn app_mounts_the_story_and_play_toggles() {
    let document = document();
    let host: web_sys::HtmlElement =
        document.create_element("div").expect("create div").dyn_into().expect("div is an HtmlElement");
    document.body().expect("body").append_child(&host).expect("append host");

    let handle = leptos::mount::mount_to(host.clone(), App);

    assert!(host.query_selector("main").expect("query main").is_some(), "a <main> landmark");
    assert_eq!(
        host.query_selector("h1").expect("query h1").and_then(|h| h.text_content()).as_deref(),
        Some("nodeline")
    );
    // The first chapter's first step is the current one.
    let narration = host.query_selector(".narration").expect("query").expect("a narration section");
    wait_for("the first step's title", || {
        narration.text_content().unwrap_or_default().contains("A machine with a kubelet, and no Node yet")
    })
    .await;

    let play: web_sys::HtmlElement =
        host.query_selector(".tl-play").expect("query").expect("a play button").dyn_into().expect("an HtmlElement");
    wait_for("Play", || play.text_content().unwrap_or_default().contains("Play")).await;
    play.click();
    wait_for("Pause", || play.text_content().unwrap_or_default().contains("Pause")).await;
    play.click();
    wait_for("Play again", || play.text_content().unwrap_or_default().contains("Play")).await;

    drop(handle);
    host.remove();
}
