//! The simulation's budget in the page (the 1,000-node hour built in wasm within twice the
//! native time, its log and checkpoints within 64 MB): a page with nothing but the
//! simulation, built like the app (trunk, the release profile, wasm-opt), that builds the hour
//! of [`nodeline_sim::scenario::benchmark`] once as it loads and writes what it measured into
//! `#result` as JSON: the time (`performance.now()`), the growth of the wasm memory (which never
//! shrinks: the high-water mark of the heap) and the log's records. `cargo xtask bench` opens it
//! in headless Chromium and prints the figures beside the native ones. The app's own page is
//! untouched: this is a page of its own.

#[cfg(target_arch = "wasm32")]
fn main() {
    use nodeline_sim::{Config, SimTime, Timeline, scenario::benchmark};
    use wasm_bindgen::JsCast;

    let window = web_sys::window().expect("a window");
    let performance = window.performance().expect("window.performance");
    let memory = || {
        let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length()
    };
    let (before, started) = (memory(), performance.now());
    let mut timeline = Timeline::from_scenario(benchmark(1000), Config::default(), &[]);
    timeline.run_until(SimTime::from_secs(3600));
    let (built, after) = (performance.now() - started, memory());
    let log = timeline.log();
    let result = format!(
        "{{\"build_ms\":{built:.0},\"memory_bytes\":{},\"records\":{},\"requests\":{},\"versions\":{},\"events\":{}}}",
        after - before,
        log.len(),
        log.requests.len(),
        log.changes().len(),
        log.events.len()
    );
    let document = window.document().expect("a document");
    let pre = document.create_element("pre").expect("an element");
    pre.set_id("result");
    pre.set_text_content(Some(&result));
    document.body().expect("a body").append_child(&pre).expect("appended");
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("nodeline-simwasm is a web page: `cargo xtask bench` builds it for wasm32 with trunk");
}
