//! The documents' lists that the code holds: the README's chapters (`Chapter::ALL`) and table of
//! actions (the registry, `sim::ACTIONS`), and `docs/settings.md`'s table of settings
//! (`sim::SETTINGS`), each between marker comments. When a chapter, an action or a setting is
//! added, rewrite them with `NODELINE_BLESS=1 cargo test --test it readme::` and review the diff.

use std::path::PathBuf;

use nodeline::sim::{ACTIONS, Chapter, Flags, Group, Profile, SETTINGS, Target};

fn readme() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

fn settings_doc() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/settings.md")
}

/// The table of settings: each as Kubernetes names it, its type, its default in each release,
/// its range, what it means and where the simulation uses it.
fn settings() -> String {
    let releases: Vec<String> = Profile::ALL.iter().map(|p| format!("{p}")).collect();
    let mut out = format!(
        "\n| component | setting | type | {} | accepted | what it means | used by |\n|---|---|---|{}---|---|---|\n",
        releases.join(" | "),
        "---|".repeat(releases.len())
    );
    for r in &SETTINGS {
        let defaults: Vec<String> = Profile::ALL.iter().map(|p| format!("`{}`", r.default(*p))).collect();
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} |\n",
            r.component,
            r.name,
            r.type_.name(),
            defaults.join(" | "),
            r.range.describe(),
            r.meaning(),
            r.used_by()
        ));
    }
    out.push('\n');
    out
}

/// The chapters' ids, as the README's sentence lists them.
fn chapters() -> String {
    Chapter::ALL.iter().map(|c| format!("`{}`", c.id())).collect::<Vec<_>>().join(", ")
}

/// The table of actions: the notation, where the page takes it, and what it does.
fn actions() -> String {
    let mut out = String::from("\n| action | in the page | what it does |\n|---|---|---|\n");
    for s in &ACTIONS {
        let target = match s.target {
            Target::None => String::new(),
            Target::Machine => "[:MACHINE]".into(),
            t => format!(":{}", t.placeholder()),
        };
        let flags = match s.flags {
            Flags::None => "",
            f => f.syntax(),
        };
        let page = match (s.typed, s.group) {
            (true, _) => "typed",
            (false, Group::Fleet) => "fleet button",
            (false, _) => "button",
        };
        let notation = format!("`{}{flags}{target}`", s.name).replace('|', "\\|");
        out.push_str(&format!("| {notation} | {page} | {} |\n", s.about));
    }
    out.push('\n');
    let mut targets: Vec<Target> = Vec::new();
    for s in ACTIONS.iter().filter(|s| s.target != Target::None) {
        if !targets.contains(&s.target) {
            targets.push(s.target);
        }
    }
    for t in targets {
        out.push_str(&format!("- `{}`: {}\n", t.placeholder(), t.about()));
    }
    for s in ACTIONS.iter().filter(|s| s.flags != Flags::None) {
        out.push_str(&format!("- `{}`'s flags: {}\n", s.name, s.flags.known()));
    }
    out
}

/// The text between `<!-- name -->` and `<!-- /name -->`, and where it is.
fn between(text: &str, name: &str) -> std::ops::Range<usize> {
    let open = format!("<!-- {name} -->");
    let start = text.find(&open).unwrap_or_else(|| panic!("no {open}")) + open.len();
    let end = start + text[start..].find(&format!("<!-- /{name} -->")).expect("a closing marker");
    start..end
}

/// Rewrites (blessing) or checks the generated parts of one document.
fn hold(path: PathBuf, parts: &[(&str, String)]) {
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bless = std::env::var("NODELINE_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, want) in parts {
        let at = between(&text, name);
        if text[at.clone()] != *want {
            stale.push(*name);
            text.replace_range(at, want);
        }
    }
    if bless {
        std::fs::write(&path, &text).expect("a writable document");
        return;
    }
    assert!(
        stale.is_empty(),
        "{}'s {} differ from the code's (run `NODELINE_BLESS=1 cargo test --test it readme::` and review the diff)",
        path.display(),
        stale.join(" and ")
    );
}

#[test]
fn the_readme_lists_every_chapter_and_action() {
    hold(readme(), &[("chapters", chapters()), ("actions", actions())]);
}

#[test]
fn the_settings_document_lists_every_setting() {
    hold(settings_doc(), &[("settings", settings())]);
    let table = settings();
    assert_eq!(table.lines().filter(|l| l.starts_with("| kube")).count(), SETTINGS.len());
}

#[test]
fn every_chapter_and_action_is_in_the_generated_text() {
    let (chapters, actions) = (chapters(), actions());
    assert_eq!(chapters.matches('`').count(), 2 * Chapter::ALL.len());
    for s in &ACTIONS {
        assert!(actions.contains(&format!("| `{}", s.name)), "{}", s.name);
    }
    assert_eq!(actions.lines().filter(|l| l.starts_with("| `")).count(), ACTIONS.len());
}
