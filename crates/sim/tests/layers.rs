//! The simulation's modules sit in layers, and each imports only from the layers below it: a
//! module that reaches up (and so any import cycle between modules) fails this test. Components
//! (the kubelet, each controller, kubectl) import nothing from one another: they meet only in the
//! API server's store, through their context.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::Path;

#[path = "common/sources.rs"]
mod sources;
use sources::rust_sources;

/// The crate's top-level modules, lowest first. A module may import from modules before it.
const LAYERS: &[&str] = &[
    // values
    "strings",
    "time",
    "flowcontrol",
    "rng",
    "vecmap",
    "queue",
    "shared",
    "chunked",
    "profile",
    "objects",
    "patch",
    "selector",
    "action",
    "machine",
    "memory",
    "settings",
    "workload",
    // what the simulation produces, and how it is set up
    "diff",
    "record",
    "scenario",
    // the API server
    "apiserver",
    // the context components act through, and the event recorders
    "ctx",
    "events",
    // driving one component alone (unit tests)
    "testkit",
    // the components' rate-limited clients
    "client",
    // the components
    "controllers",
    "kubectl_client",
    "kubelet",
    // the router and the timeline
    "world",
    "timeline",
];

/// Modules that are components: none may import another.
const COMPONENTS: &[&str] = &[
    "controllers::daemonset",
    "controllers::disruption",
    "controllers::attach_detach",
    "controllers::certificates",
    "controllers::garbage_collector",
    "controllers::node_ipam",
    "controllers::node_lifecycle",
    "controllers::persistent_volume",
    "controllers::podgc",
    "controllers::replicaset",
    "controllers::scheduler",
    "controllers::statefulset",
    "controllers::taint_eviction",
    "controllers::ttl",
    "kubectl_client",
    "kubelet",
];

/// The module path of a source file, e.g. `kubelet::status` for `src/kubelet/status.rs`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The crate paths a file refers to (`crate::a::b`, and `super::` resolved), comments aside.
fn references(module: &[String], is_mod_file: bool, text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        for (prefix, base) in [("crate::", 0usize), ("super::", 1usize)] {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().last();
                let after = &rest[at + prefix.len()..];
                rest = after;
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                // `super` from `a/b.rs` (module a::b) is `a`; from `a/mod.rs` (module a) it is the root.
                let parent: Vec<String> = if base == 0 {
                    Vec::new()
                } else {
                    let depth = if is_mod_file { module.len().saturating_sub(1) } else { module.len() - 1 };
                    module[..depth.min(module.len())].to_vec()
                };
                let names: Vec<String> = if let Some(group) = after.strip_prefix('{') {
                    let inner = group.split('}').next().unwrap_or("");
                    inner
                        .split(',')
                        .map(|s| s.trim().split("::").take(2).collect::<Vec<_>>().join("::"))
                        .filter(|s| !s.is_empty())
                        .collect()
                } else {
                    let path: String =
                        after.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
                    vec![path.split("::").take(2).collect::<Vec<_>>().join("::")]
                };
                for name in names {
                    let mut full = parent.clone();
                    full.extend(name.split("::").filter(|s| !s.is_empty()).map(str::to_string));
                    out.push(full);
                }
            }
        }
    }
    out
}

fn layer(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == name)
}

fn component_of(module: &[String]) -> Option<&'static str> {
    let joined = module.join("::");
    COMPONENTS.iter().copied().find(|c| joined == *c || joined.starts_with(&format!("{c}::")))
}

#[test]
fn modules_only_import_from_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_sources(&src);
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut seen = BTreeSet::new();
    let mut wrong = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        let Some(top) = module.first() else { continue };
        let Some(own) = layer(top) else {
            wrong.push(format!("{}: module `{top}` is in no layer (add it to LAYERS)", file.display()));
            continue;
        };
        seen.insert(top.clone());
        let is_mod_file = file.file_name().is_some_and(|n| n == "mod.rs");
        let text = std::fs::read_to_string(file).expect("a source file");
        for target in references(&module, is_mod_file, &text) {
            let Some(target_top) = target.first() else { continue };
            let Some(theirs) = layer(target_top) else { continue };
            if theirs > own {
                wrong.push(format!("{}: `{top}` imports `{}` from a layer above", file.display(), target.join("::")));
            }
            if let (Some(mine), Some(other)) = (component_of(&module), component_of(&target))
                && mine != other
            {
                wrong.push(format!("{}: component `{mine}` imports component `{other}`", file.display()));
            }
        }
    }
    for l in LAYERS {
        assert!(lib.contains(&format!("mod {l};")), "lib.rs declares no module `{l}`");
        assert!(seen.contains(*l), "no source file for module `{l}`");
    }
    assert!(wrong.is_empty(), "imports that break the layers:\n{}", wrong.join("\n"));
}

#[test]
fn every_controller_is_a_component() {
    // A controller added without its line above would be free to import the others.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/controllers");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable controllers folder") {
        let name = entry.expect("an entry").file_name().to_string_lossy().trim_end_matches(".rs").to_string();
        let module = format!("controllers::{name}");
        if name != "mod" && !COMPONENTS.contains(&module.as_str()) {
            missing.push(module);
        }
    }
    assert!(missing.is_empty(), "not in COMPONENTS: {missing:?}");
}

#[test]
fn the_check_sees_an_import_that_reaches_up() {
    let module = vec!["record".to_string()];
    let refs = references(&module, false, "use super::world::World;\nuse crate::{time::SimTime, kubelet::Host};");
    assert_eq!(refs, [vec!["world", "World"], vec!["time", "SimTime"], vec!["kubelet", "Host"]]);
    let nested = vec!["kubelet".to_string(), "status".to_string()];
    assert_eq!(
        references(&nested, false, "use super::{Host, Kubelet};"),
        [vec!["kubelet", "Host"], vec!["kubelet", "Kubelet"]]
    );
    assert!(layer("world") > layer("record"));
    assert_eq!(component_of(&["controllers".into(), "scheduler".into()]), Some("controllers::scheduler"));
}

#[test]
fn the_simulation_names_no_browser_crate_and_reads_no_clock() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_sources(&src);
    let banned =
        ["leptos", "web_sys", "js_sys", "wasm_bindgen", "Instant::now", "SystemTime::now", "HashMap", "thread_rng"];
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            // `FxHashMap` is allowed: its hasher has no random seed, so it is the same on every
            // run (the std `HashMap`'s is not).
            let line = line.replace("FxHashMap", "");
            for b in banned {
                if line.contains(b) {
                    found.push(format!("{}:{}: {b}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "the simulation must stay pure:\n{}", found.join("\n"));
}
