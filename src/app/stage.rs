//! The stage: the machines, the control plane and the objects the API server stores, drawn as
//! one SVG, with every request travelling along its arrow.
//!
//! Everything is derived by [`crate::view::stage`], which also writes the SVG markup (typed view
//! trees for a drawing this size would cost tens of kilobytes of wasm). The drawing is three
//! layers, each patched in place only when its markup changes: the scene (when the cluster
//! changes), the Lease cards (their "renewed … ago" ticks every second) and the packets (every
//! frame while requests are on their way).

use leptos::ev;
use leptos::prelude::*;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::view::stage::{self as vm, Layout, Scene, Timing};

/// The stage.
#[component]
pub fn Stage() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);

    // The layout follows the stage's own width, and the window's (a phone gets the narrow one).
    // Until the stage is laid out, the window's width stands for both: no layout is forced, and a
    // phone gets the narrow drawing from the start.
    let section = NodeRef::<leptos::html::Section>::new();
    let window_width = || window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(0.0);
    let width = RwSignal::new((window_width(), window_width()));
    section.on_load(move |el| {
        super::dom::on_resize(&el.clone(), move || {
            // A stage taken out of the layout has no width: keep the last one.
            if el.client_width() > 0 {
                width.set((f64::from(el.client_width()), window_width()));
            }
            focusable_if_scrolling(&el);
        });
    });
    let resize = window_event_listener(ev::resize, move |_| {
        if let Some(el) = section.get_untracked() {
            width.set((f64::from(el.client_width()), window_width()));
        }
    });
    on_cleanup(move || resize.remove());
    let layout = Memo::new(move |_| {
        let (px, window) = width.get();
        Layout::for_width(px, window)
    });

    // Packets last 0.6 s of real time at the rate playback runs at; when paused, at the chosen
    // speed (the last frame's rate could be a fast-forward's).
    let timing = Memo::new(move |_| {
        let rate = if ctx.playback.with(|p| p.playing) {
            ctx.rate.with(|r| r.0)
        } else {
            ctx.playback.with(|p| p.speed_factor())
        };
        Timing::new(rate, ctx.reduced_motion.get())
    });
    // Every Pod's row, or the first few and a button that shows them all.
    let all_pods = RwSignal::new(false);
    // The button moves as rows come and go, and the patch may make it anew: it gets the focus
    // back once the scene is patched.
    let refocus = StoredValue::new(false);
    let scene = Memo::new(move |_| {
        let (at, lang, timing, layout) = (ctx.t(), ctx.lang.get(), timing.get(), layout.get());
        let all = all_pods.get();
        ctx.with_session(|s| Scene::build_with(s, at, timing, layout, lang, all))
    });
    // The Pods list's button (`data-expand`), by delegation: a click, Enter or Space.
    let toggle = move |ev: &web_sys::Event| {
        use wasm_bindgen::JsCast;
        let on_toggle = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("[data-expand=pods]").ok().flatten())
            .is_some();
        if on_toggle {
            ev.prevent_default();
            refocus.set_value(true);
            all_pods.update(|a| *a = !*a);
        }
    };
    let drawing = Memo::new(move |_| scene.with(|s| vm::scene_markup(s, t(Key::LinkCut))));
    let leases = Memo::new(move |_| scene.with(|s| vm::leases_markup(&s.store.leases)));
    let packets = Memo::new(move |_| {
        let (at, lang, timing) = (ctx.t(), ctx.lang.get(), timing.get());
        scene.with(|sc| ctx.with_session(|s| vm::packets_markup(&vm::packets(s.timeline.log(), at, timing, sc, lang))))
    });
    let caption = Memo::new(move |_| {
        let (at, lang, timing) = (ctx.t(), ctx.lang.get(), timing.get());
        ctx.with_session(|s| vm::caption(s.timeline.log(), at, timing, lang))
    });

    // The machine picked for a "which node" question (question mode, `super::quiz`).
    let picked = Memo::new(move |_| ctx.quiz.with(|q| q.picked.clone()));

    // Each layer is patched in place when its markup changes (see `super::dom`): the packets
    // move every frame while requests are on their way. The patch drops the picked machine's
    // mark, so the scene's puts it back after.
    let [scene_layer, lease_layer, packet_layer] =
        [(drawing, true), (leases, false), (packets, false)].map(|(markup, machines)| {
            let layer = NodeRef::<leptos::svg::G>::new();
            Effect::new(move |_| {
                let html = markup.get();
                let picked = if machines { picked.get() } else { None };
                if let Some(layer) = layer.get() {
                    super::dom::morph(&layer, &html);
                    if let Some(name) = picked {
                        mark_picked(&layer, &name);
                    }
                    if machines && refocus.get_value() {
                        refocus.set_value(false);
                        focus_toggle(&layer);
                    }
                }
                if machines && let Some(el) = section.get_untracked() {
                    focusable_if_scrolling(&el);
                }
            });
            layer
        });

    view! {
        <section class="stage" node_ref=section aria-labelledby="stage-title" aria-describedby="stage-desc">
            <h2 id="stage-title" class="sr-only">
                {move || t(Key::Stage)}
            </h2>
            <p id="stage-desc" class="sr-only">
                {move || t(Key::StageDescription)}
            </p>
            <svg
                class=move || {
                    if scene.with(|s| s.layout) == Layout::Narrow { "stage-svg narrow" } else { "stage-svg wide" }
                }
                viewBox=move || scene.with(Scene::view_box)
                data-highlight=move || ctx.highlight.get()
                on:click=move |ev: ev::MouseEvent| toggle(&ev)
                on:keydown=move |ev: ev::KeyboardEvent| {
                    if ev.key() == "Enter" || ev.key() == " " {
                        toggle(&ev)
                    }
                }
            >
                <g class="scene" node_ref=scene_layer></g>
                <g class="lease-cards" node_ref=lease_layer></g>
                <g class="packets" aria-hidden="true" node_ref=packet_layer></g>
            </svg>
            <p class="stage-caption">{caption}</p>
        </section>
    }
}

/// Where the stage is a window onto a taller drawing (narrow screens, an embed: style/layout.css),
/// the keyboard can reach it to scroll it; elsewhere it is no stop on the way.
pub(super) fn focusable_if_scrolling(el: &web_sys::HtmlElement) {
    if el.scroll_height() > el.client_height() + 1 {
        if !el.has_attribute("tabindex") {
            let _ = el.set_attribute("tabindex", "0");
        }
    } else if el.has_attribute("tabindex") {
        let _ = el.remove_attribute("tabindex");
    }
}

/// Marks the machine of node `name` (`data-picked`; the style sheet draws it). A node's name is
/// a DNS subdomain name (no quotes), so it goes into the selector as it is.
fn mark_picked(layer: &web_sys::Element, name: &str) {
    if let Ok(Some(machine)) = layer.query_selector(&format!(r#"[data-node="{name}"]"#)) {
        let _ = machine.set_attribute("data-picked", "");
    }
}

/// Focuses the Pods list's button (an SVG element: `focus` is called by name, as web-sys's
/// `SvgElement` is not in the build).
fn focus_toggle(layer: &web_sys::Element) {
    if let Ok(Some(button)) = layer.query_selector("[data-expand=pods]")
        && let Ok(focus) = js_sys::Reflect::get(&button, &"focus".into())
        && let Some(focus) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&focus)
    {
        let _ = focus.call0(&button);
    }
}
