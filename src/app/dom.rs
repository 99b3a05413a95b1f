//! Writing markup into the page without rebuilding it: the stage and the inspector produce HTML
//! and SVG as strings ([`crate::view`]), many times a second while playing; patching the live
//! nodes instead of replacing them keeps style and layout work to what actually changed.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// Makes `target`'s content equal to `html` while keeping every node that already matches: the
/// markup is parsed into a detached element, then the two trees are walked together; a node of
/// the same type and tag is kept (its attributes and text brought up to date, its children
/// patched the same way), any other is replaced. The result is what `innerHTML` would give,
/// except for the `style` attribute, which the page sets through the CSSOM (never in markup).
/// The markup is parsed in a bare copy of `target`, so SVG stays SVG.
pub(super) fn morph(target: &web_sys::Element, html: &str) {
    // Nothing to keep (the first write): the parser alone is fastest.
    if target.first_child().is_none() {
        target.set_inner_html(html);
        return;
    }
    match target.clone_node().map(|n| n.unchecked_into::<web_sys::Element>()) {
        Ok(scratch) => {
            scratch.set_inner_html(html);
            morph_children(target, &scratch);
        }
        Err(_) => target.set_inner_html(html),
    }
}

fn morph_children(old: &web_sys::Node, new: &web_sys::Node) {
    let mut kept = old.first_child();
    let mut next = new.first_child();
    while let Some(n) = next {
        next = n.next_sibling();
        match kept {
            // The node name tells elements by tag and text from comments (`#text`, `#comment`).
            Some(o) if o.node_name() == n.node_name() => {
                morph_node(&o, &n);
                kept = o.next_sibling();
            }
            Some(o) => {
                let _ = old.replace_child(&n, &o);
                kept = n.next_sibling();
            }
            None => {
                let _ = old.append_child(&n);
            }
        }
    }
    while let Some(o) = kept {
        kept = o.next_sibling();
        let _ = old.remove_child(&o);
    }
}

fn morph_node(old: &web_sys::Node, new: &web_sys::Node) {
    // Most rows are the same from one frame to the next: one native deep comparison skips them.
    if old.is_equal_node(Some(new)) {
        return;
    }
    if old.node_name().starts_with('#') {
        old.set_node_value(new.node_value().as_deref());
        return;
    }
    let (o, n) = (old.unchecked_ref::<web_sys::Element>(), new.unchecked_ref::<web_sys::Element>());
    for name in n.get_attribute_names().iter().filter_map(|v| v.as_string()) {
        let value = n.get_attribute(&name);
        if o.get_attribute(&name) != value {
            let _ = o.set_attribute(&name, value.as_deref().unwrap_or_default());
        }
    }
    for name in o.get_attribute_names().iter().filter_map(|v| v.as_string()) {
        if name != "style" && n.get_attribute(&name).is_none() {
            let _ = o.remove_attribute(&name);
        }
    }
    morph_children(old, new);
}

/// Calls `f` whenever the element's size changes (and once at the start), through a
/// `ResizeObserver`; window resizes where there is none.
pub(super) fn on_resize(target: &web_sys::Element, f: impl Fn() + Clone + 'static) {
    let callback = Closure::<dyn FnMut()>::new(f.clone());
    match web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        Ok(observer) => {
            observer.observe(target);
            // The page lives as long as the observer.
            callback.forget();
        }
        Err(_) => {
            f();
            let handle = window_event_listener(ev::resize, move |_| f());
            on_cleanup(move || handle.remove());
        }
    }
}

/// How many options a picker lists before the reader reaches it. A fleet's thousand Nodes, in
/// the sandbox's and the inspector's pickers, and its Pods are thousands of elements to build
/// and style as the page starts, for lists a reader may never open: a longer list holds only
/// its chosen option until the picker takes the focus or a pointer presses it, and then lists
/// them all (before the browser opens it).
const LISTED_BEFORE_REACHED: usize = 64;

/// The property of a picker that holds its whole list while it shows only its chosen option.
const WAITING: &str = "nodelineOptions";
/// The property of a picker that holds its chosen option's value meanwhile.
const WAITING_CHOICE: &str = "nodelineChoice";

/// Writes a picker's options: `all` (markup, `count` options), `chosen` the chosen one's value
/// and label (`None`: none chosen). A list longer than [`LISTED_BEFORE_REACHED`] is written
/// whole once the reader reaches the picker.
pub(super) fn fill_picker(select: &web_sys::HtmlSelectElement, all: &str, count: usize, chosen: Option<(&str, &str)>) {
    // Undefined: never waited; a string: waiting; null: reached.
    let state = js_sys::Reflect::get(select, &WAITING.into()).unwrap_or_default();
    let value = chosen.map(|c| c.0);
    if count <= LISTED_BEFORE_REACHED || state.is_null() {
        if state.is_string() {
            // A long list waited, a short one is written: nothing waits any more.
            let _ = js_sys::Reflect::set(select, &WAITING.into(), &wasm_bindgen::JsValue::NULL);
        }
        select.set_inner_html(all);
        choose(select, value);
        return;
    }
    let first = state.is_undefined();
    let _ = js_sys::Reflect::set(select, &WAITING.into(), &all.into());
    pick(select, chosen);
    if first {
        let picker = select.clone();
        let reach = Closure::<dyn FnMut()>::new(move || {
            let Some(all) = js_sys::Reflect::get(&picker, &WAITING.into()).ok().and_then(|v| v.as_string()) else {
                return;
            };
            let value = js_sys::Reflect::get(&picker, &WAITING_CHOICE.into()).ok().and_then(|v| v.as_string());
            // Reached: from now on the whole list is written at once.
            let _ = js_sys::Reflect::set(&picker, &WAITING.into(), &wasm_bindgen::JsValue::NULL);
            picker.set_inner_html(&all);
            choose(&picker, value.as_deref());
        });
        for event in ["focus", "pointerdown"] {
            let _ = select.add_event_listener_with_callback(event, reach.as_ref().unchecked_ref());
        }
        // The picker lives as long as the page.
        reach.forget();
    }
}

/// Chooses `chosen` (value and label; `None`: no option) in a picker [`fill_picker`] wrote: the
/// one option it shows, while it waits to be reached.
pub(super) fn pick(select: &web_sys::HtmlSelectElement, chosen: Option<(&str, &str)>) {
    let waiting = js_sys::Reflect::get(select, &WAITING.into()).is_ok_and(|v| v.is_string());
    if !waiting {
        choose(select, chosen.map(|c| c.0));
        return;
    }
    let mut one = String::new();
    if let Some((value, label)) = chosen {
        crate::view::controls::option(&mut one, value, label, true);
    }
    select.set_inner_html(&one);
    choose(select, chosen.map(|c| c.0));
    let value = chosen.map_or(wasm_bindgen::JsValue::NULL, |c| c.0.into());
    let _ = js_sys::Reflect::set(select, &WAITING_CHOICE.into(), &value);
}

/// Chooses the option of value `value` (none: no option).
fn choose(select: &web_sys::HtmlSelectElement, value: Option<&str>) {
    match value {
        Some(v) => select.set_value(v),
        None => select.set_selected_index(-1),
    }
}
