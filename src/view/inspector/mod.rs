//! The inspector's view models: each tab at the playhead, formatted the way kubectl formats it,
//! as HTML strings the component writes into its elements.
//!
//! Everything here is a plain function over the timeline at the playhead, tested natively. Times
//! are shown relative to the playhead's wall-clock instant (the timeline's epoch plus the
//! playhead), never the reader's clock. One file per tab: `node` (the `kubectl get node` line,
//! Conditions, taints; with `memory`, the machine's memory where usage is modelled), `lease` (the Lease and the grace period), `pods`, `yaml` (objects
//! as `kubectl -o yaml` prints them, and their changes), `kubectl` (a prompt),
//! `requests` and `events`; `frame` is the tab list and panels they go into, `markup`
//! the pieces the tabs share.

mod events;
mod frame;
pub mod kubectl_panel;
mod lease;
mod markup;
mod memory;
mod node;
mod pods;
pub mod requests;
mod volumes;
pub mod yaml;

#[cfg(test)]
mod fixtures;

use std::time::Duration;

pub use events::{EVENT_CAP, EventList, EventRow, event_list, event_row, events_markup};
pub use frame::{TABS, frame_markup, picker_markup, tab_moved};
pub use lease::{
    GraceState, LeaseView, countdown, grace_permille, grace_state, inspect_lease, lease_markup, lease_view,
    monitor_phase, next_pass,
};
pub use markup::empty_markup;
pub use memory::{ContainerMemory, MemoryView, memory_markup, memory_view, models_memory};
pub use node::{
    Cell, ConditionHealth, ConditionRow, NodeLine, NodeView, TaintRow, condition_health, inspect_node, machine_node,
    node_line, node_markup, node_view, story_node,
};
pub use pods::{PodRow, pod_row, pod_rows, pods_markup};
pub use volumes::{AttachmentRow, attachment_rows, attachments_markup};

/// Cells that changed within this much simulated time before the playhead are marked.
pub const CHANGE_WINDOW: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::fixtures::{registration, secs};
    use super::*;
    use crate::render::kubectl_printer::{human_duration, since};
    use crate::sim::{NODE_MONITOR_PERIOD, SimTime, WallTime};

    #[test]
    fn human_duration_matches_kubectl() {
        let s = |n: i64| human_duration(n * 1_000_000);
        for (secs, want) in [
            (-5, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (59, "59s"),
            (90, "90s"),
            (119, "119s"),
            (120, "2m"),
            (150, "2m30s"),
            (300, "5m"),
            (599, "9m59s"),
            (600, "10m"),
            (179 * 60 + 59, "179m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 12 * 60 + 30, "3h12m"),
            (8 * 3600, "8h"),
            (10 * 3600 + 59 * 60, "10h"),
            (47 * 3600 + 3599, "47h"),
            (48 * 3600, "2d"),
            (51 * 3600, "2d3h"),
            (7 * 86_400 + 23 * 3600, "7d23h"),
            (8 * 86_400, "8d"),
            (45 * 86_400, "45d"),
            (729 * 86_400, "729d"),
            (730 * 86_400, "2y"),
            (731 * 86_400, "2y1d"),
            (9 * 365 * 86_400, "9y"),
        ] {
            assert_eq!(s(secs), want, "{secs}s");
        }
        // Fractions truncate, as Go's int(d.Seconds()) does.
        assert_eq!(human_duration(1_999_999), "1s");
        assert_eq!(human_duration(-1_500_000), "0s");
        assert_eq!(since(WallTime(0), None), "<unknown>");
    }

    #[test]
    fn the_inspector_follows_the_node_the_story_is_about() {
        use crate::sim::{Chapter, Config, Timeline};
        let mut tl = Timeline::new(Chapter::NodeGoesAway, Config::default());
        tl.run_until(SimTime::from_secs(760));
        let log = tl.log();
        let steps = tl.steps();
        let at = |n: usize| steps[n - 1].expect("the step's moment").start;
        // Before any input aimed at a machine, no Node in particular.
        assert_eq!(story_node(log, SimTime::from_secs(75)), None);
        // Step 2 opens before node-1's shutdown: the story is about node-1.
        assert_eq!(story_node(log, at(2)).as_deref(), Some("node-1"));
        // node-3's Node is deleted while its machine stays: still the machine the story is about
        // (the inspector, which lists the Nodes of the moment, falls back to the sandbox's).
        assert_eq!(story_node(log, SimTime::from_secs(160)).as_deref(), Some("node-3"));
        // Steps 7 to 10 are about node-2, powered off and then tainted out of service.
        for n in 7..=10 {
            assert_eq!(story_node(log, at(n)).as_deref(), Some("node-2"), "step {n}");
        }
    }

    #[test]
    fn inspects_the_registration_chapter() {
        let tl = registration();
        let log = tl.log();
        assert!(inspect_node(&tl, "node-1", SimTime::ZERO).is_none());
        let t = SimTime::from_secs(90);
        let v = inspect_node(&tl, "node-1", t).unwrap();
        assert_eq!(v.line.status, "Ready");
        assert_eq!(v.line.roles, "<none>");
        assert_eq!(
            v.conditions.iter().map(|c| c.type_.text.as_str()).collect::<Vec<_>>(),
            ["MemoryPressure", "DiskPressure", "PIDPressure", "Ready"]
        );
        let ready = &v.conditions[3];
        assert_eq!((ready.status.text.as_str(), ready.reason.text.as_str()), ("True", "KubeletReady"));
        assert!(
            ready.last_heartbeat.text.ends_with(" +0000")
                && ready.last_heartbeat.text.starts_with("Mon, 02 Mar 2026 09:0")
        );
        assert!(v.taints.is_empty(), "the not-ready taint is gone once Ready");
        // Right after registration (step 2's lead-in starts just before the POST) the new Node is
        // marked as changed, and not-ready tainted.
        let step2 = tl.steps()[1].unwrap().start;
        assert!(inspect_node(&tl, "node-1", step2).is_none());
        let v = inspect_node(&tl, "node-1", step2 + secs(1)).unwrap();
        assert!(v.status_changed);
        assert_eq!(v.line.status, "NotReady");
        assert!(v.taints.iter().any(|t| t.key == "node.kubernetes.io/not-ready" && t.effect == "NoSchedule"));
        // The Lease renews every 10 s: the countdown never gets near zero.
        let phase = monitor_phase(log).expect("the controller has registered the node");
        assert!(phase < NODE_MONITOR_PERIOD);
        let l = inspect_lease(&tl, "node-1", t, secs(50)).unwrap();
        assert_eq!(l.holder.as_deref(), Some("node-1"));
        assert_eq!(l.duration_seconds, Some(40));
        match l.state {
            GraceState::Left(d) => assert!(d > secs(35) && d <= secs(60), "{d:?}"),
            GraceState::Passed => panic!("a healthy node's grace period never passes"),
        }
        // Pods: the ordinary Pod and the tolerating one both run by the end.
        let rows = pod_rows(&tl.at(SimTime::from_secs(120)));
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.status == "Running" && r.ready == "1/1" && r.node == "node-1"), "{rows:?}");
        // Events: oldest first, capped.
        let events = event_list(&tl, t, EVENT_CAP);
        assert!(!events.rows.is_empty() && !events.capped);
        assert!(events.rows.iter().any(|r| r.reason == "NodeReady" && r.object == "node/node-1"));
        let few = event_list(&tl, t, 3);
        assert!(few.capped);
        assert_eq!(few.rows.len(), 3);
        assert_eq!(few.rows[2], events.rows[events.rows.len() - 1]);
    }
}
