//! The inspector's frame: the heading, the Node picker, the WAI-ARIA tab list and the panels the
//! tabs' bodies go into.

use crate::i18n::{Key, Lang};
use crate::view::html::{cat, escape};

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
    let t = |k: Key| escape(lang.text(k));
    let mut o = String::with_capacity(4096);
    cat(
        &mut o,
        &[
            r#"<div class="inspector-head"><h2 id="inspector-title">"#,
            &t(Key::Inspector),
            r#"</h2><div class="node-pick" id="inspector-pick" hidden><label for="inspector-node">"#,
            &t(Key::InspectNode),
            r#"</label><select id="inspector-node"></select></div></div><div role="tablist" class="tabs" aria-labelledby="inspector-title">"#,
        ],
    );
    for (i, (id, label)) in TABS.iter().enumerate() {
        let first = i == 0;
        cat(
            &mut o,
            &[
                r#"<button type="button" role="tab" id="inspector-tab-"#,
                id,
                r#"" aria-controls="inspector-panel-"#,
                id,
                r#"" aria-selected=""#,
                if first { "true" } else { "false" },
                r#"" tabindex=""#,
                if first { "0" } else { "-1" },
                r#"">"#,
                &t(*label),
                "</button>",
            ],
        );
    }
    o.push_str("</div>");
    for (i, (id, _)) in TABS.iter().enumerate() {
        cat(
            &mut o,
            &[
                r#"<div role="tabpanel" id="inspector-panel-"#,
                id,
                r#"" aria-labelledby="inspector-tab-"#,
                id,
                r#"" tabindex="0" class="tabpanel""#,
                if i == 0 { "" } else { " hidden" },
                ">",
            ],
        );
        match *id {
            "yaml" => cat(
                &mut o,
                &[
                    r#"<div class="yaml-controls"><label><span>"#,
                    &t(Key::YamlObject),
                    r#"</span><select id="yaml-object"></select></label><label><span>"#,
                    &t(Key::YamlCompareWith),
                    r#"</span><select id="yaml-compare"></select></label></div>"#,
                ],
            ),
            "kubectl" => {
                let try_ = t(Key::KubectlSuggestions);
                cat(
                    &mut o,
                    &[
                        r#"<p class="help" id="kubectl-help">"#,
                        &t(Key::KubectlHelp),
                        r#"</p><form class="kubectl-prompt" id="kubectl-form"><label for="kubectl-input" class="prompt-sign"><span aria-hidden="true">$</span><span class="sr-only">"#,
                        &t(Key::KubectlPromptLabel),
                        r#"</span></label><input id="kubectl-input" type="text" spellcheck="false" autocomplete="off" autocapitalize="off" aria-describedby="kubectl-help" placeholder="kubectl get nodes"><button type="submit">"#,
                        &t(Key::KubectlRun),
                        r#"</button></form><div class="suggestions" role="group" aria-label=""#,
                        &try_,
                        r#""><span class="suggestions-label" aria-hidden="true">"#,
                        &try_,
                        r#"</span><span id="kubectl-suggestions"></span></div>"#,
                    ],
                );
            }
            _ => {}
        }
        cat(&mut o, &[r#"<div class="panel-body" id="inspector-body-"#, id, r#""></div></div>"#]);
    }
    o
}

/// The Node picker's options, `selected` marked.
pub fn picker_markup(names: &[String], selected: Option<&str>) -> String {
    let mut o = String::new();
    for n in names {
        crate::view::controls::option(&mut o, n, n, selected == Some(n.as_str()));
    }
    o
}
