//! The inspector's frame: the heading, the Node picker, the WAI-ARIA tab list and the panels the
//! tabs' bodies go into.

use crate::i18n::{Key, Lang};
use crate::view::html::escape;

/// The inspector's tabs, in order (Events stays last), with the ids their elements use
/// (`inspector-tab-<id>`, `inspector-panel-<id>`, `inspector-body-<id>`) and their labels.
pub const TABS: [(&str, Key); 7] = [
    ("node", Key::TabNode),
    ("lease", Key::TabLease),
    ("pods", Key::TabPods),
    ("yaml", Key::TabYaml),
    ("kubectl", Key::TabKubectl),
    ("requests", Key::TabRequests),
    ("events", Key::TabEvents),
];

/// The tab the arrow keys, Home and End move to from tab `i`.
pub fn tab_moved(i: usize, key: &str) -> Option<usize> {
    let n = TABS.len();
    match key {
        "ArrowRight" => Some((i + 1) % n),
        "ArrowLeft" => Some((i + n - 1) % n),
        "Home" => Some(0),
        "End" => Some(n - 1),
        _ => None,
    }
}

/// The inspector's frame, written once per language: the heading and Node picker, the WAI-ARIA
/// tab list, and every panel with the element its content goes into (the first tab selected;
/// the component keeps `aria-selected`, `tabindex` and `hidden` in step with the open tab). The
/// YAML panel holds its two pickers and the kubectl panel its prompt: they persist while the
/// content beside them changes.
pub fn frame_markup(lang: Lang) -> String {
    let t = |k: Key| escape(lang.text(k)).into_owned();
    let mut o = format!(
        r#"<div class="inspector-head"><h2 id="inspector-title">{}</h2><div class="node-pick" id="inspector-pick" hidden><label for="inspector-node">{}</label><select id="inspector-node"></select></div></div><div role="tablist" class="tabs" aria-labelledby="inspector-title">"#,
        t(Key::Inspector),
        t(Key::InspectNode)
    );
    for (i, (id, label)) in TABS.iter().enumerate() {
        o.push_str(&format!(
            r#"<button type="button" role="tab" id="inspector-tab-{id}" aria-controls="inspector-panel-{id}" aria-selected="{}" tabindex="{}">{}</button>"#,
            i == 0,
            if i == 0 { 0 } else { -1 },
            t(*label)
        ));
    }
    o.push_str("</div>");
    for (i, (id, _)) in TABS.iter().enumerate() {
        o.push_str(&format!(
            r#"<div role="tabpanel" id="inspector-panel-{id}" aria-labelledby="inspector-tab-{id}" tabindex="0" class="tabpanel"{}>"#,
            if i == 0 { "" } else { " hidden" }
        ));
        match *id {
            "yaml" => o.push_str(&format!(
                r#"<div class="yaml-controls"><label><span>{}</span><select id="yaml-object"></select></label><label><span>{}</span><select id="yaml-compare"></select></label></div>"#,
                t(Key::YamlObject),
                t(Key::YamlCompareWith)
            )),
            "kubectl" => o.push_str(&format!(
                r#"<p class="help" id="kubectl-help">{help}</p><form class="kubectl-prompt" id="kubectl-form"><label for="kubectl-input" class="prompt-sign"><span aria-hidden="true">$</span><span class="sr-only">{label}</span></label><input id="kubectl-input" type="text" spellcheck="false" autocomplete="off" autocapitalize="off" aria-describedby="kubectl-help" placeholder="kubectl get nodes"><button type="submit">{run}</button></form><div class="suggestions" role="group" aria-label="{try_}"><span class="suggestions-label" aria-hidden="true">{try_}</span><span id="kubectl-suggestions"></span></div>"#,
                help = t(Key::KubectlHelp),
                label = t(Key::KubectlPromptLabel),
                run = t(Key::KubectlRun),
                try_ = t(Key::KubectlSuggestions),
            )),
            _ => {}
        }
        o.push_str(&format!(r#"<div class="panel-body" id="inspector-body-{id}"></div></div>"#));
    }
    o
}

/// The Node picker's options, `selected` marked.
pub fn picker_markup(names: &[String], selected: Option<&str>) -> String {
    names
        .iter()
        .map(|n| {
            format!(
                r#"<option value="{0}"{1}>{0}</option>"#,
                escape(n),
                if selected == Some(n.as_str()) { " selected" } else { "" }
            )
        })
        .collect()
}
