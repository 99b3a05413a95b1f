//! What the one polite live region says: the step the reader reached, a Node whose status
//! changed, a Pod the taint eviction controller evicted. One sentence at a time, only for what
//! changed since the last moment (so playback does not flood a screen reader).

use crate::i18n::{Key, Lang};
use crate::render::kubectl_printer::get::node_status;
use crate::sim::Snapshot;
use crate::sim::objects::Kind;

/// The facts the live region watches at a moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watched {
    /// The step reached (1-based; 0 before the first).
    pub step: usize,
    /// Each Node's `kubectl get nodes` STATUS, by name.
    pub nodes: Vec<(String, String)>,
    /// Pods evicted so far (`TaintManagerEviction` events), by name.
    pub evicted: Vec<String>,
    /// The fleet chapter: each zone's state (instead of every Node's and Pod's news).
    pub zones: Vec<(String, String)>,
    /// The reader's actions changed the story (the narration then tells theirs, and the steps
    /// are the chapter's story as told, not news).
    pub departed: bool,
}

impl Watched {
    /// The facts at a snapshot.
    pub fn at(snapshot: &Snapshot<'_>, step: usize) -> Watched {
        let mut nodes: Vec<(String, String)> =
            snapshot.nodes().iter().map(|n| (n.metadata.name.to_string(), node_status(n))).collect();
        nodes.sort_unstable();
        let mut evicted: Vec<String> = snapshot
            .events()
            .iter()
            .filter(|e| e.reason == "TaintManagerEviction" && e.involved_object.kind == Kind::Pod.as_str())
            .map(|e| e.involved_object.name.to_string())
            .collect();
        evicted.sort_unstable();
        evicted.dedup();
        Watched { step, nodes, evicted, ..Watched::default() }
    }

    /// The facts of a fleet: the step and each zone's state, so that a thousand Nodes do not
    /// flood the live region.
    pub fn fleet(fleet: &crate::view::fleet::Fleet, step: usize) -> Watched {
        let zones = fleet.zones.iter().map(|z| (z.name.clone(), z.state.as_str().to_string())).collect();
        Watched { step, zones, ..Watched::default() }
    }
}

/// The sentence for what changed from `before` to `now`, if anything worth saying did.
/// `step_title` names step `now.step` of `steps`.
pub fn announcement(lang: Lang, before: &Watched, now: &Watched, step_title: &str, steps: usize) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    if now.departed && !before.departed {
        parts.push(lang.text(Key::AnnounceDeparted).to_string());
    }
    if now.step != before.step && now.step > 0 && !now.departed {
        parts.push(format!("{}: {step_title}", lang.fill(Key::StepOf, &[&now.step.to_string(), &steps.to_string()])));
    }
    for (name, status) in &now.nodes {
        let was = before.nodes.iter().find(|(n, _)| n == name).map(|(_, s)| s);
        if was.is_some_and(|w| w != status) {
            parts.push(lang.fill(Key::AnnounceNodeStatus, &[name, status]));
        }
    }
    for (zone, state) in &now.zones {
        let was = before.zones.iter().find(|(z, _)| z == zone).map(|(_, s)| s);
        if was.is_some_and(|w| w != state) {
            parts.push(lang.fill(Key::AnnounceZoneState, &[zone, state]));
        }
    }
    for pod in &now.evicted {
        if !before.evicted.contains(pod) {
            parts.push(lang.fill(Key::AnnouncePodEvicted, &[pod]));
        }
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, SimTime, Timeline};

    fn watched(step: usize, nodes: &[(&str, &str)], evicted: &[&str]) -> Watched {
        Watched {
            step,
            nodes: nodes.iter().map(|(n, s)| (n.to_string(), s.to_string())).collect(),
            evicted: evicted.iter().map(|p| p.to_string()).collect(),
            ..Watched::default()
        }
    }

    #[test]
    fn says_only_what_changed() {
        let a = watched(2, &[("node-1", "Ready"), ("node-2", "Ready")], &[]);
        assert_eq!(announcement(Lang::En, &a, &a, "x", 6), None);
        let b = watched(2, &[("node-1", "NotReady"), ("node-2", "Ready")], &[]);
        assert_eq!(announcement(Lang::En, &a, &b, "x", 6).as_deref(), Some("node-1 is now NotReady."));
        let c = watched(3, &[("node-1", "NotReady"), ("node-2", "Ready")], &["web-1"]);
        assert_eq!(
            announcement(Lang::En, &b, &c, "The grace period runs out", 6).as_deref(),
            Some("Step 3 of 6: The grace period runs out Pod web-1 was evicted by the taint eviction controller.")
        );
        // A Node that appears is not a status change (its registration is the step's news).
        let d = watched(3, &[("node-1", "NotReady"), ("node-2", "Ready"), ("node-3", "NotReady")], &["web-1"]);
        assert_eq!(announcement(Lang::En, &c, &d, "x", 6), None);
    }

    #[test]
    fn says_when_the_reader_changes_the_story_and_then_no_steps() {
        let a = watched(2, &[("node-1", "Ready")], &[]);
        let b = Watched { departed: true, ..watched(2, &[("node-1", "Ready")], &[]) };
        assert_eq!(
            announcement(Lang::En, &a, &b, "x", 6).as_deref(),
            Some("Your actions changed the story: the narration now tells what they cause.")
        );
        assert_eq!(announcement(Lang::En, &b, &b, "x", 6), None);
        // A step of the chapter's story is not news once the reader departed; a Node's is.
        let c = Watched { departed: true, ..watched(3, &[("node-1", "NotReady")], &[]) };
        assert_eq!(announcement(Lang::En, &b, &c, "x", 6).as_deref(), Some("node-1 is now NotReady."));
        assert!(announcement(Lang::Ja, &a, &b, "x", 6).is_some_and(|s| s.contains("ナレーション")));
    }

    #[test]
    fn watches_the_failure_chapter() {
        let mut tl = Timeline::new(Chapter::NodeFailure, Config::default());
        tl.run_until(SimTime::from_secs(900));
        let start = Watched::at(&tl.at(SimTime::from_secs(30)), 1);
        assert!(start.nodes.iter().all(|(_, s)| s == "Ready"), "{start:?}");
        let end = Watched::at(&tl.at(SimTime::from_secs(900)), 6);
        assert!(end.nodes.iter().any(|(n, s)| n == "node-1" && s == "NotReady"), "{end:?}");
        assert_eq!(end.evicted.len(), 1, "{end:?}");
        let said = announcement(Lang::En, &start, &end, "A replacement runs on node-2", 6).unwrap();
        assert!(said.contains("node-1 is now NotReady.") && said.contains("was evicted"), "{said}");
    }

    #[test]
    fn a_fleet_says_zone_states_not_nodes() {
        let zone = |s: &str| Watched { step: 3, zones: vec![("eu-west-1b".into(), s.into())], ..Watched::default() };
        assert_eq!(
            announcement(Lang::En, &zone("Normal"), &zone("PartialDisruption"), "x", 6).as_deref(),
            Some("Zone eu-west-1b is now PartialDisruption.")
        );
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 9, ..Config::default() });
        tl.run_until(SimTime::from_secs(100));
        let index = crate::view::fleet::FleetIndex::of(tl.log());
        let lines = crate::view::fleet::ControllerLines::default();
        let f = crate::view::fleet::Fleet::build(
            &index,
            tl.log(),
            &lines,
            SimTime::from_secs(90),
            crate::view::fleet::VIEW_W,
            tl.settings(),
        );
        let w = Watched::fleet(&f, 1);
        assert!(w.nodes.is_empty() && w.zones.len() == 3);
    }
}
