//! A chapter written out as a story file (`nodeline story export CHAPTER`): where an author
//! starts a story of their own, with every key a chapter uses, its steps and its words in both
//! languages.

use std::fmt::Write;
use std::time::Duration;

use crate::i18n::Lang;
use crate::sim::scenario::{Anchor, StepSpec};
use crate::sim::{Chapter, MachineSpec, Profile, format_go_duration};

/// The first line of every story file: it names the schema an editor checks it against.
pub const SCHEMA_LINE: &str = "# yaml-language-server: $schema=story.schema.json";

/// `chapter` (a fleet chapter with `nodes` nodes) as a story file, for `profile`.
pub fn export(chapter: Chapter, nodes: usize, profile: Profile) -> String {
    let scenario = chapter.scenario_for(nodes);
    let (en, ja) = (Lang::En.chapter(chapter), Lang::Ja.chapter(chapter));
    let mut o = String::new();
    let _ = writeln!(o, "{SCHEMA_LINE}");
    let _ = writeln!(o, "id: {}", scalar(chapter.id()));
    texts(&mut o, 0, "title", en.title, ja.title);
    texts(&mut o, 0, "summary", en.summary, ja.summary);
    if profile != Profile::default() {
        let _ = writeln!(o, "k8s: {}", quoted(profile.as_str()));
    }
    o.push_str("cluster:\n");
    if scenario.fleet {
        let _ = writeln!(o, "  fleet: {}", scenario.machines.len());
    } else {
        o.push_str("  machines:\n");
        for m in &scenario.machines {
            machine(&mut o, m);
        }
    }
    if !scenario.replicasets.is_empty() {
        o.push_str("  deployments:\n");
        for rs in &scenario.replicasets {
            let _ = writeln!(
                o,
                "    - {{name: {}, replicas: {}, createdAfter: {}}}",
                scalar(&rs.deployment),
                rs.replicas,
                duration(rs.created_after)
            );
        }
    }
    if !scenario.script.is_empty() {
        o.push_str("actions:\n");
        for action in &scenario.script {
            // The chapter's actions name their machine: a story's have no "first machine".
            let mut action = action.clone();
            if action.kind.targets_machine() && action.machine.is_none() {
                action.machine = scenario.machines.first().map(|m| m.name.clone());
            }
            let _ = writeln!(o, "  - {}", scalar(&action.to_string()));
        }
    }
    let _ = writeln!(o, "duration: {}", duration(scenario.duration));
    o.push_str("steps:\n");
    for (i, step) in scenario.steps.iter().enumerate() {
        let (en, ja) = (&en.steps[i], &ja.steps[i]);
        step_spec(&mut o, step);
        texts(&mut o, 4, "title", en.title, ja.title);
        o.push_str("    text:\n");
        for (code, body) in [("en", en.body), ("ja", ja.body)] {
            let _ = writeln!(o, "      {code}:");
            for paragraph in body {
                let _ = writeln!(o, "        - {}", scalar(paragraph));
            }
        }
    }
    o
}

fn machine(o: &mut String, m: &MachineSpec) {
    let _ = writeln!(o, "    - name: {}", scalar(&m.name));
    match m.kubelet_start {
        Some(d) if d.is_zero() => {}
        Some(d) => {
            let _ = writeln!(o, "      kubeletStart: {}", duration(d));
        }
        None => o.push_str("      kubeletStart: never\n"),
    }
    if let Some(d) = m.cni_ready_after {
        let _ = writeln!(o, "      cniReadyAfter: {}", duration(d));
    }
    if m.bootstrap {
        o.push_str("      bootstrap: true\n");
    }
    if m.server_tls_bootstrap {
        o.push_str("      serverTLSBootstrap: true\n");
    }
    if !m.labels.is_empty() {
        o.push_str("      labels:\n");
        for (k, v) in &m.labels {
            let _ = writeln!(o, "        {}: {}", scalar(k), scalar(v));
        }
    }
    if !m.shutdown_grace_period.is_zero() || !m.shutdown_grace_period_critical_pods.is_zero() {
        let _ = writeln!(
            o,
            "      kubelet: {{shutdownGracePeriod: {}, shutdownGracePeriodCriticalPods: {}}}",
            duration(m.shutdown_grace_period),
            duration(m.shutdown_grace_period_critical_pods)
        );
    }
}

fn step_spec(o: &mut String, step: &StepSpec) {
    let _ = writeln!(o, "  - when: {}", when(&step.anchor));
    if let Some(shows) = &step.shows {
        let _ = writeln!(o, "    shows: {}", when(shows));
    }
    if !step.lead.is_zero() {
        let _ = writeln!(o, "    lead: {}", duration(step.lead));
    }
    if !step.after.is_zero() {
        let _ = writeln!(o, "    after: {}", duration(step.after));
    }
}

/// An anchor as a `when:` value, in flow style.
fn when(anchor: &Anchor) -> String {
    match anchor {
        Anchor::At(d) => format!("{{at: {}}}", duration(*d)),
        Anchor::Input(kind) => format!("{{input: {}}}", kind.name()),
        Anchor::Event { reason, contains } if contains.is_empty() => {
            format!("{{event: {{reason: {}}}}}", scalar(reason))
        }
        Anchor::Event { reason, contains } => {
            format!("{{event: {{reason: {}, contains: {}}}}}", scalar(reason), quoted(contains))
        }
        Anchor::Request { method, path_ends } => {
            format!("{{request: {{method: {}, pathEnds: {}}}}}", method.as_str(), quoted(path_ends))
        }
        Anchor::Taint { node, key, effect } => {
            format!("{{taint: {{node: {}, key: {}, effect: {}}}}}", scalar(node), scalar(key), scalar(effect))
        }
        Anchor::Kubectl { contains } => format!("{{kubectl: {}}}", quoted(contains)),
        Anchor::LogLine { contains } => format!("{{logLine: {}}}", quoted(contains)),
    }
}

fn texts(o: &mut String, indent: usize, key: &str, en: &str, ja: &str) {
    let pad = " ".repeat(indent);
    let _ = writeln!(o, "{pad}{key}:\n{pad}  en: {}\n{pad}  ja: {}", scalar(en), scalar(ja));
}

/// A duration in Go's notation, shortened as people write it (`2m`, not `2m0s`).
fn duration(d: Duration) -> String {
    let text = format_go_duration(d);
    let text = text.strip_suffix("m0s").map_or(text.clone(), |t| format!("{t}m"));
    text.strip_suffix("h0m").map_or(text.clone(), |t| format!("{t}h"))
}

/// `s` as a YAML scalar: plain where YAML reads it back as the same string, else double-quoted.
fn scalar(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_alphanumeric())
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains(['"', '\'', '`', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '\n', '\t'])
        && !["true", "false", "null", "yes", "no", "on", "off", "~"].contains(&s.to_ascii_lowercase().as_str())
        && s.parse::<f64>().is_err();
    if plain { s.to_string() } else { quoted(s) }
}

/// `s` double-quoted (JSON's quoting is YAML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string is JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::DEFAULT_FLEET;

    /// Every chapter, written out and read back, is the same scenario: the story format says
    /// everything a chapter says.
    #[test]
    fn every_chapter_reads_back_as_itself() {
        for chapter in Chapter::ALL {
            for nodes in [DEFAULT_FLEET, 30] {
                let text = export(chapter, nodes, Profile::default());
                let story = super::super::load(&text, Some(chapter.id()))
                    .unwrap_or_else(|p| panic!("{chapter}: {p:?}\n{text}"));
                let mut expected = chapter.scenario_for(nodes);
                expected.chapter = None;
                for a in &mut expected.script {
                    if a.kind.targets_machine() && a.machine.is_none() {
                        a.machine = expected.machines.first().map(|m| m.name.clone());
                    }
                }
                assert_eq!(story.scenario, expected, "{chapter}");
                let en = Lang::En.chapter(chapter);
                assert_eq!(story.title.en, en.title);
                assert_eq!(story.steps.len(), en.steps.len());
                assert_eq!(story.steps[1].en, en.steps[1].body);
                assert_eq!(story.steps[1].ja.clone().unwrap_or_default(), Lang::Ja.chapter(chapter).steps[1].body);
            }
        }
    }

    #[test]
    fn scalars_read_back_as_written() {
        for s in ["node-1", "true", "1.34", "a: b", "`code`", "x #y", "[[kubelet|kubelet]] runs", "日本語", "50 s"] {
            let yaml = format!("v: {}\n", scalar(s));
            #[derive(serde::Deserialize)]
            struct V {
                v: String,
            }
            let v: V = serde_saphyr::from_str(&yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
            assert_eq!(v.v, s, "{yaml}");
        }
        assert_eq!(scalar("node-1"), "node-1");
        assert_eq!(scalar("true"), "\"true\"");
        assert_eq!(duration(Duration::from_secs(120)), "2m");
        assert_eq!(duration(Duration::from_secs(3600)), "1h");
        assert_eq!(duration(Duration::from_millis(1500)), "1.5s");
    }
}
