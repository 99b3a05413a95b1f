//! The inspector: the live Node, its Lease, the Pods, the objects as YAML, a kubectl prompt, the
//! requests and the Events at the playhead, as WAI-ARIA tabs.
//!
//! Everything it shows is HTML written by the view models ([`crate::view::inspector`],
//! [`crate::view::inspector::yaml`], [`crate::view::inspector::kubectl_panel`],
//! [`crate::view::inspector::requests`]): the frame once
//! per language, then each part into its element by id, from a memo (so only what changed is
//! written, and only the open tab computes anything). A tab's body is patched in place
//! ([`super::dom::morph`]): it changes every frame while playing, and the element the reader
//! focused in it (a request's summary) stays. Events are handled by one delegated listener per
//! kind on the section. Typed view trees for all of this would cost many times the code.

use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::render::kubectl_printer::change;
use crate::render::kubectl_printer::entry::{CommandLine, Ran};
use crate::sim::SimTime;
use crate::sim::objects::{Kind, ObjectKey};
use crate::view::inspector::kubectl_panel::{self as kvm, History};
use crate::view::inspector::{self as vm, TABS, requests, yaml};

const NODE: usize = 0;
const LEASE: usize = 1;
const PODS: usize = 2;
const YAML: usize = 3;
const KUBECTL: usize = 4;
const REQUESTS: usize = 5;

fn element(id: &str) -> Option<web_sys::Element> {
    document().get_element_by_id(id)
}

/// Writes `html` into element `id`: patched in place (`patch`) or replaced whole.
fn set_html(id: &str, html: &str, patch: bool) {
    if let Some(e) = element(id) {
        if patch {
            super::dom::morph(&e, html);
        } else {
            e.set_inner_html(html);
        }
        // The page's Content-Security-Policy refuses style attributes: a width the markup
        // carries in `data-width` (the grace bar's) is set through the CSSOM.
        if let Ok(Some(bar)) = e.query_selector("[data-width]")
            && let (Some(width), Ok(style)) =
                (bar.get_attribute("data-width"), js_sys::Reflect::get(&bar, &"style".into()))
        {
            let _ = js_sys::Reflect::set(&style, &"width".into(), &width.into());
        }
    }
}

/// The event's target, or its closest ancestor matching `selector`.
fn closest(ev: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    ev.target()?.dyn_into::<web_sys::Element>().ok()?.closest(selector).ok().flatten()
}

fn target_value(ev: &web_sys::Event) -> Option<(String, String)> {
    let el = ev.target()?.dyn_into::<web_sys::HtmlInputElement>().ok();
    if let Some(input) = el {
        return Some((input.id(), input.value()));
    }
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let value = js_sys::Reflect::get(&el, &"value".into()).ok()?.as_string()?;
    Some((el.id(), value))
}

fn kubectl_input() -> Option<web_sys::HtmlInputElement> {
    element("kubectl-input")?.dyn_into().ok()
}

/// What the effect last wrote, so it writes only what changed and recomputes the costly parts
/// only when their inputs change.
#[derive(Default)]
struct Written {
    frame: u32,
    tab: Option<usize>,
    /// The last HTML written into each element, by id.
    html: Vec<(String, String)>,
    /// The inputs of the YAML tab's texts and of the Requests list when last computed.
    yaml: Option<(ObjectKey, u32, Option<u32>, crate::i18n::Lang)>,
    requests: Option<(usize, Option<u64>, crate::i18n::Lang)>,
    /// The Nodes' names, and what they were read for: the session's revision and how many
    /// times Nodes were created or deleted by the playhead (the names change only with those).
    names: (Option<(u64, usize)>, Rc<Vec<String>>),
    /// The Node picker's inputs when last written: those names, and the Node selected.
    picker: Option<((u64, usize), Option<String>)>,
}

impl Written {
    /// Writes `html` into element `id` unless it is already there, replacing what it held: for
    /// the pickers' option lists (a patch would not carry their selection) and the suggestions.
    fn put(&mut self, id: &str, html: String) {
        self.write(id, html, false);
    }

    /// The same, patching the element in place ([`super::dom::morph`]): for a tab's body.
    fn patch(&mut self, id: &str, html: String) {
        self.write(id, html, true);
    }

    fn write(&mut self, id: &str, html: String, patch: bool) {
        match self.html.iter_mut().find(|(i, _)| i == id) {
            Some((_, old)) if *old == html => {}
            Some((_, old)) => {
                set_html(id, &html, patch);
                *old = html;
            }
            None => {
                set_html(id, &html, patch);
                self.html.push((id.to_string(), html));
            }
        }
    }
}

fn show(id: &str, shown: bool) {
    if let Some(e) = element(id) {
        let _ = if shown { e.remove_attribute("hidden") } else { e.set_attribute("hidden", "") };
    }
}

/// The inspector panel.
#[component]
pub fn Inspector() -> impl IntoView {
    let ctx = AppCtx::get();
    let tab = RwSignal::new(NODE);
    // The Node the reader picked (`None`: the machine the sandbox acts on), the object and the
    // version the YAML tab shows, the request opened, the kubectl command shown.
    let chosen = RwSignal::new(None::<String>);
    let yaml_chosen = RwSignal::new(None::<ObjectKey>);
    let compare = RwSignal::new(None::<u32>);
    let open_request = RwSignal::new(None::<u64>);
    // The kubectl command shown, as typed, and what running it did (a change became the
    // reader's action at the playhead; its output is what kubectl has printed by the playhead).
    let command = RwSignal::new(None::<(String, Ran)>);
    let history = StoredValue::new(History::default());

    // The frame is written here, then `frame` moves on, so the effect that fills it runs after.
    let frame = RwSignal::new(0u32);
    Effect::new(move |_| {
        let html = vm::frame_markup(ctx.lang.get());
        if let Some(el) = element("inspector") {
            el.set_inner_html(&html);
            frame.update(|f| *f += 1);
        }
    });

    // Everything else, in one pass over the session at the playhead.
    Effect::new(move |prev: Option<Written>| {
        let mut w = prev.unwrap_or_default();
        let f = frame.get();
        if f == 0 {
            return w;
        }
        if w.frame != f {
            w = Written { frame: f, ..Written::default() };
        }
        let (t, lang, machine, open) = (ctx.t(), ctx.lang.get(), ctx.machine.get(), tab.get());
        let picked = ctx.machine_picked.get();
        let (chosen, yaml_chosen, compare, open_request, command) =
            (chosen.get(), yaml_chosen.get(), compare.get(), open_request.get(), command.get());
        if w.tab != Some(open) {
            for (i, (id, _)) in TABS.iter().enumerate() {
                if let Some(b) = element(&format!("inspector-tab-{id}")) {
                    let _ = b.set_attribute("aria-selected", if i == open { "true" } else { "false" });
                    let _ = b.set_attribute("tabindex", if i == open { "0" } else { "-1" });
                }
                show(&format!("inspector-panel-{id}"), i == open);
            }
            w.tab = Some(open);
        }
        let text = |k: Key| lang.text(k);
        ctx.with_session(|s| {
            let log = s.timeline.log();
            let snap = s.at(t);
            // Read again only when the Nodes' list may have changed (a thousand in a fleet).
            let names_key = (ctx.rev.get_untracked(), s.fleet.node_set_revision(t));
            if w.names.0 != Some(names_key) {
                w.names = (Some(names_key), Rc::new(s.fleet.node_names(t)));
            }
            let names = Rc::clone(&w.names.1);
            let selected = chosen
                .filter(|c| names.contains(c))
                .or_else(|| if picked { None } else { vm::story_node(log, t).filter(|n| names.contains(n)) })
                .or_else(|| vm::machine_node(log, machine, t))
                .or_else(|| names.first().cloned());
            let name = selected.as_deref();
            // The Node picker, with more than one Node, on the Node and Lease tabs.
            let picking = names.len() > 1 && matches!(open, NODE | LEASE);
            show("inspector-pick", picking);
            let picker = Some((names_key, selected.clone()));
            if picking
                && w.picker != picker
                && let Some(select) =
                    element("inspector-node").and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
            {
                let one = name.map(|n| (n, n));
                // The same Nodes: only the choice moves.
                if w.picker.as_ref().is_some_and(|(key, _)| *key == names_key) {
                    super::dom::pick(&select, one);
                } else {
                    super::dom::fill_picker(&select, &vm::picker_markup(&names, name), names.len(), one);
                }
                w.picker = picker;
            }
            let body = format!("inspector-body-{}", TABS[open].0);
            match open {
                YAML => {
                    let choices = yaml::choices(&snap);
                    let key = yaml_chosen
                        .filter(|k| choices.iter().any(|c| &c.key == k))
                        .or_else(|| name.map(|n| yaml::node_key(Kind::Node, n)));
                    let Some(key) = key else {
                        w.patch(&body, vm::empty_markup(None, text(Key::NoNodeYet)));
                        return;
                    };
                    w.put("yaml-object", yaml::choices_markup(&choices, &key));
                    let Some(now) = yaml::version_at(log, &key, t) else {
                        w.patch(&body, vm::empty_markup(Some(&key.name), text(Key::NoNodeYet)));
                        return;
                    };
                    let from = compare.filter(|&f| f <= now && log.versions(&key).contains(&f));
                    let inputs = Some((key.clone(), now, from, lang));
                    if w.yaml != inputs {
                        let options = yaml::versions_markup(
                            log,
                            &key,
                            log.changes().at(now as usize).t,
                            from,
                            text(Key::YamlNoCompare),
                        );
                        w.put("yaml-compare", options);
                        let html = match from {
                            Some(f) => yaml::diff_markup(log, f, now, lang),
                            None => yaml::live_markup(log, now, lang),
                        };
                        w.patch(&body, html);
                        w.yaml = inputs;
                    }
                }
                KUBECTL => {
                    w.put("kubectl-suggestions", kvm::suggestions_markup(name.unwrap_or("node-1")));
                    let html = match &command {
                        None => vm::empty_markup(None, text(Key::KubectlEmpty)),
                        Some((line, ran)) => {
                            let out = ran.output(log, &snap);
                            // nodeline's note once the command has run by the playhead.
                            let note = ran.note(log).filter(|_| matches!(ran, Ran::Acted { at, .. } if *at <= t));
                            format!(
                                r#"<pre class="kubectl-out" tabindex="0">{}</pre>{}"#,
                                kvm::output_markup(line, &out),
                                kvm::note_markup(note, lang)
                            )
                        }
                    };
                    w.patch(&body, html);
                }
                REQUESTS => {
                    let sent = log.requests.first_after(t);
                    let inputs = Some((sent, open_request, lang));
                    if w.requests != inputs {
                        w.patch(&body, requests::markup(log, t, open_request, lang));
                        w.requests = inputs;
                    }
                }
                NODE => {
                    let mut html = match name.and_then(|n| vm::inspect_node(&s.timeline, n, t)) {
                        Some(v) => vm::node_markup(&v, lang),
                        None => vm::empty_markup(name, text(Key::NoNodeYet)),
                    };
                    // Its machine's memory, where the story models memory usage.
                    if let Some(m) = name.and_then(|n| vm::memory_view(&s.timeline, n, t)) {
                        html.push_str(&vm::memory_markup(&m, lang));
                    }
                    w.patch(&body, html)
                }
                LEASE => {
                    let grace = s.timeline.config().settings().node_monitor_grace_period;
                    w.patch(
                        &body,
                        match name.and_then(|n| vm::inspect_lease(&s.timeline, n, t, grace)) {
                            Some(v) => vm::lease_markup(&v, lang),
                            None => vm::empty_markup(name, text(Key::NoLease)),
                        },
                    );
                }
                PODS => {
                    let pods = vm::pods_markup(&vm::pod_rows(&snap), lang);
                    let attachments = vm::attachments_markup(&vm::attachment_rows(&snap), lang);
                    w.patch(&body, pods + &attachments)
                }
                _ => w.patch(&body, vm::events_markup(&vm::event_list(&s.timeline, t, vm::EVENT_CAP), lang)),
            }
        });
        w
    });

    // A request on the stage opens in the Requests tab.
    let packet_click = window_event_listener(ev::click, move |ev| {
        let Some(packet) = closest(&ev, "[data-packet]") else { return };
        if let Some(seq) = packet.get_attribute("data-packet").and_then(|s| s.parse().ok()) {
            open_request.set(Some(seq));
            tab.set(REQUESTS);
        }
    });
    on_cleanup(move || packet_click.remove());

    // A volume or a StatefulSet identity on the stage opens its object in the YAML tab.
    let object_click = window_event_listener(ev::click, move |ev| {
        let Some(el) = closest(&ev, "[data-object]") else { return };
        if let Some(key) = el.get_attribute("data-object").and_then(|v| yaml::parse_value(&v)) {
            yaml_chosen.set(Some(key));
            tab.set(YAML);
        }
    });
    on_cleanup(move || object_click.remove());

    let run = move |line: String| {
        let line = kvm::normalize(&line);
        history.update_value(|h| h.push(&line));
        // A changing command is the reader's action at the playhead (whole milliseconds, as
        // the sandbox's buttons act).
        let at = SimTime::from_millis(ctx.playback.get_untracked().t.as_millis());
        let typed = ctx.with_session(|s| CommandLine::parse_typed(&line, &s.at(at)));
        let ran = typed.run(at, |c| {
            let action = c.action(at);
            ctx.act(action.kind, action.machine).map_err(|_| change::no_such_node(&c.node))
        });
        command.set(Some((line, ran)));
        if let Some(input) = kubectl_input() {
            input.set_value("");
        }
    };
    let on_click = move |ev: ev::MouseEvent| {
        if let Some(b) = closest(&ev, "[role=tab]") {
            if let Some(i) = TABS.iter().position(|(id, _)| b.id() == format!("inspector-tab-{id}")) {
                tab.set(i);
            }
        } else if let Some(cmd) = closest(&ev, "button[data-cmd]").and_then(|b| b.get_attribute("data-cmd")) {
            run(cmd);
        } else if let Some(summary) = closest(&ev, "summary[data-seq]") {
            ev.prevent_default();
            let seq = summary.get_attribute("data-seq").and_then(|s| s.parse::<u64>().ok());
            open_request.update(|o| *o = if *o == seq { None } else { seq });
        }
    };
    let on_keydown = move |ev: ev::KeyboardEvent| {
        let key = ev.key();
        if let Some(b) = closest(&ev, "[role=tab]") {
            let current = TABS.iter().position(|(id, _)| b.id() == format!("inspector-tab-{id}"));
            if let Some(next) = current.and_then(|i| vm::tab_moved(i, &key)) {
                ev.prevent_default();
                tab.set(next);
                if let Some(el) = element(&format!("inspector-tab-{}", TABS[next].0))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = el.focus();
                }
            }
        } else if let Some(input) = kubectl_input().filter(|_| closest(&ev, "#kubectl-input").is_some()) {
            let recalled = match key.as_str() {
                "ArrowUp" => history.try_update_value(|h| h.up(&input.value())).flatten(),
                "ArrowDown" => history.try_update_value(|h| h.down()).flatten(),
                _ => return,
            };
            ev.prevent_default();
            if let Some(line) = recalled {
                input.set_value(&line);
            }
        }
    };
    let on_change = move |ev: ev::Event| {
        let Some((id, value)) = target_value(&ev) else { return };
        match id.as_str() {
            "inspector-node" => chosen.set(Some(value)),
            "yaml-object" => {
                yaml_chosen.set(yaml::parse_value(&value));
                compare.set(None);
            }
            "yaml-compare" => compare.set(value.parse().ok()),
            _ => {}
        }
    };
    let on_submit = move |ev: ev::SubmitEvent| {
        ev.prevent_default();
        if let Some(input) = kubectl_input() {
            run(input.value());
        }
    };
    view! {
        <section
            id="inspector"
            class="inspector panel"
            aria-labelledby="inspector-title"
            on:click=on_click
            on:keydown=on_keydown
            on:change=on_change
            on:submit=on_submit
        ></section>
    }
}
