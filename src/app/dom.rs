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
