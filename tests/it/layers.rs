//! The top crate's modules sit in layers over the simulation (sim ← render ← view ← app / cli),
//! and each names only the modules its layer may use: the renderers never reach the page's view
//! models, the command line never reaches page code, and nothing below the app names it. A module
//! that reaches up, or a new module missing from the table, fails this test.

use std::collections::BTreeSet;
use std::path::Path;

#[path = "../../crates/sim/tests/common/sources.rs"]
mod sources;
use sources::rust_sources;

/// Each top-level module of `src/` and the crate modules it may name (`sim` is the simulation,
/// re-exported; every module may name it). A module may always name itself.
const ALLOWED: &[(&str, &[&str])] = &[
    ("embed", &[]),
    ("playback", &[]),
    ("render", &[]),
    ("i18n", &[]),
    ("quiz", &["i18n"]),
    ("link", &["i18n", "playback", "quiz"]),
    ("story", &["i18n", "link", "quiz"]),
    ("view", &["embed", "i18n", "link", "playback", "quiz", "render", "story"]),
    ("cli", &["i18n", "link", "quiz", "render", "story"]),
    ("app", &["embed", "i18n", "link", "playback", "quiz", "render", "story", "view"]),
];

/// The top-level crate modules a source text names as `crate::m` or in `crate::{m, …}`, comments
/// (whole-line and trailing) aside.
fn named_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            if code[..at].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[at + "crate::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![rest],
            };
            for name in names {
                let top: String = name.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !top.is_empty() {
                    out.insert(top);
                }
            }
        }
    }
    out
}

#[test]
fn modules_only_name_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_sources(&src);
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let top = rel.iter().next().expect("a path").to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let Some((_, allowed)) = ALLOWED.iter().find(|(m, _)| *m == top) else {
            wrong.push(format!("{}: module `{top}` is in no layer (add it to ALLOWED)", file.display()));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a source file");
        for named in named_modules(&text) {
            if named != top && named != "sim" && !allowed.contains(&named.as_str()) {
                wrong.push(format!("{}: `{top}` names `crate::{named}`, which its layer may not use", file.display()));
            }
        }
    }
    for (m, _) in ALLOWED {
        assert!(lib.contains(&format!("mod {m};")), "lib.rs declares no module `{m}`");
    }
    assert!(wrong.is_empty(), "imports that break the layers:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_what_a_file_names() {
    let text =
        "use crate::{view::stage, render::kubectl_printer};\nuse crate::sim::Timeline; // crate::app\n// crate::cli\n";
    assert_eq!(named_modules(text), ["render", "sim", "view"].map(String::from).into_iter().collect());
    assert!(named_modules("let x = mycrate::view::f();").is_empty());
}
