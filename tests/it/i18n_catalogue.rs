//! The message catalogue, checked across languages: every key is used by the page, every
//! language fills the same placeholders, and narration keeps the same Kubernetes identifiers
//! and the same links to the stage in every language.

use std::collections::BTreeSet;
use std::path::Path;

use nodeline::i18n::{Key, Lang, Segment, segments};
use nodeline::sim::Chapter;

fn sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            // The catalogues themselves do not count as uses.
            let in_i18n = path.parent().is_some_and(|p| p.ends_with("i18n"));
            if !in_i18n {
                out.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
}

#[test]
fn every_key_is_used_outside_the_catalogue() {
    let mut code = String::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut code);
    let unused: Vec<&str> = Key::ALL
        .iter()
        .map(|k| k.name())
        .filter(|name| {
            let pattern = format!("Key::{name}");
            // A use is `Key::Name` not followed by more of an identifier.
            !code.match_indices(&pattern).any(|(i, _)| {
                code[i + pattern.len()..].chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            })
        })
        .collect();
    assert!(unused.is_empty(), "keys no code uses (remove them from the catalogue): {unused:?}");
}

fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if after[..close].parse::<usize>().is_ok() => {
                out.insert(after[..close].to_string());
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

#[test]
fn every_language_fills_the_same_placeholders() {
    for key in Key::ALL {
        let english = placeholders(Lang::En.text(*key));
        for lang in Lang::ALL {
            assert_eq!(placeholders(lang.text(*key)), english, "{lang} {}", key.name());
        }
    }
}

fn identifiers_and_targets(paragraphs: &[&str]) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut code, mut targets) = (BTreeSet::new(), BTreeSet::new());
    for p in paragraphs {
        for s in segments(p) {
            match s {
                Segment::Code(c) => {
                    code.insert(c.to_string());
                }
                Segment::Term { target, .. } => {
                    targets.insert(target.to_string());
                }
                Segment::Text(_) => {}
            }
        }
    }
    (code, targets)
}

#[test]
fn narration_keeps_kubernetes_identifiers_and_stage_links_in_every_language() {
    for chapter in Chapter::ALL {
        let english = Lang::En.chapter(chapter);
        for lang in Lang::ALL {
            let text = lang.chapter(chapter);
            assert_eq!(text.steps.len(), english.steps.len(), "{lang} {chapter}");
            for (n, (ours, theirs)) in text.steps.iter().zip(english.steps).enumerate() {
                assert_eq!(
                    identifiers_and_targets(ours.body),
                    identifiers_and_targets(theirs.body),
                    "{lang} {chapter} step {}: the `code` identifiers or [[stage links]] differ from English",
                    n + 1
                );
            }
        }
    }
}

#[test]
fn japanese_is_japanese() {
    // Every Japanese step title and paragraph contains kana or kanji, so none was left in English.
    let japanese =
        |s: &str| s.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c));
    for chapter in Chapter::ALL {
        let text = Lang::Ja.chapter(chapter);
        assert!(japanese(text.title) && japanese(text.summary), "{chapter}");
        for step in text.steps {
            assert!(japanese(step.title), "{chapter}: {}", step.title);
            for p in step.body {
                assert!(japanese(p), "{chapter}: {p}");
            }
        }
    }
}
