//! Browser smoke test: the app mounts into the real DOM and the Play button toggles.
//!
//! Run by `cargo xtask test` (wasm stage) through wasm-bindgen-test-runner and chromedriver.
#![cfg(target_arch = "wasm32")]

use nodeline::app::{App, play_button_label};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

#[wasm_bindgen_test]
fn play_label_follows_state() {
    assert_eq!(play_button_label(false), "Play");
    assert_eq!(play_button_label(true), "Pause");
}

/// Waits (polling, up to about 2 s) until `el`'s text is `expected`: Leptos applies signal
/// changes to the DOM from its async executor, not synchronously inside `click()`.
async fn wait_for_text(el: &web_sys::Element, expected: &str) {
    for _ in 0..200 {
        if el.text_content().as_deref() == Some(expected) {
            return;
        }
        leptos::task::tick().await;
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!("timed out waiting for text {expected:?}; it is {:?}", el.text_content());
}

#[wasm_bindgen_test]
async fn app_mounts_a_main_landmark_with_a_working_toggle() {
    let document = document();
    let host: web_sys::HtmlElement =
        document.create_element("div").expect("create div").dyn_into().expect("div is an HtmlElement");
    document.body().expect("body").append_child(&host).expect("append host");

    let handle = leptos::mount::mount_to(host.clone(), App);

    let main = host.query_selector("main").expect("query main");
    assert!(main.is_some(), "the app renders a <main> landmark");
    let h1 = host.query_selector("main h1").expect("query h1").expect("an h1");
    assert_eq!(h1.text_content().as_deref(), Some("nodeline"));

    let button: web_sys::HtmlElement = host
        .query_selector("main button")
        .expect("query button")
        .expect("a button")
        .dyn_into()
        .expect("button is an HtmlElement");
    wait_for_text(&button, "Play").await;
    button.click();
    wait_for_text(&button, "Pause").await;
    button.click();
    wait_for_text(&button, "Play").await;

    drop(handle);
    host.remove();
}
