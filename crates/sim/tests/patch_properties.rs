//! The kubelet's status patch (`patch::node_status_bytes`) written straight from the conditions
//! when only they differ is, byte for byte, the patch made over the two Nodes' whole JSON
//! (`patch::node_status`): random condition lists (types missing, added, reordered, repeated;
//! times within one second and across seconds; text that JSON and Go escape), and a Node that
//! differs elsewhere too.
//!
//! The run is reproducible: the case generator is seeded with a fixed value unless
//! `PROPTEST_RNG_SEED` is set; `PROPTEST_CASES` raises the number of cases (default 256).
#![cfg(not(target_arch = "wasm32"))]

mod props;

use std::sync::Arc;

use nodeline_sim::WallTime;
use nodeline_sim::objects::{ContainerImage, Node, NodeCondition, Time};
use nodeline_sim::patch::{html_escaped, node_status, node_status_bytes};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    props::config(256, 0x7061_7463)
}

/// The patch made over the whole Nodes' JSON.
fn over_json(base: &Node, wanted: &Node) -> String {
    let json = |n: &Node| serde_json::to_value(n).expect("a Node serialises");
    html_escaped(&node_status(&json(base), &json(wanted)).to_string())
}

const TYPES: [&str; 5] = ["MemoryPressure", "DiskPressure", "PIDPressure", "Ready", "Odd<&>\u{2028}"];
const TEXTS: [&str; 5] = ["", "KubeletReady", "kubelet is posting ready status", "say \"hi\" \\ <b>&</b>", "über\n"];

/// A condition: its type, status, times (0.4 s apart: some within one second of each other,
/// alike in JSON) and text.
fn arb_condition() -> impl Strategy<Value = NodeCondition> {
    (0..TYPES.len(), 0..3usize, 0..4i64, 0..4i64, 0..TEXTS.len(), 0..TEXTS.len()).prop_map(
        |(ty, status, heartbeat, transition, reason, message)| {
            let at = |n: i64| Time(WallTime(1_700_000_000_000_000 + n * 400_000));
            NodeCondition::new(
                TYPES[ty],
                ["True", "False", "Unknown"][status],
                at(heartbeat),
                at(transition),
                TEXTS[reason],
                TEXTS[message],
            )
        },
    )
}

fn node(conditions: Vec<NodeCondition>, images: bool) -> Node {
    let mut n = Node::new("node-1");
    n.status.conditions = conditions.into_iter().collect();
    if images {
        n.status.images = Arc::new(vec![ContainerImage { names: vec!["pause".into()], size_bytes: 1 }]);
    }
    n
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_patch_written_from_the_conditions_is_the_patch_over_the_json(
        base in prop::collection::vec(arb_condition(), 0..6),
        wanted in prop::collection::vec(arb_condition(), 0..6),
        base_images in any::<bool>(),
        wanted_images in any::<bool>(),
    ) {
        let (base, wanted) = (node(base, base_images), node(wanted, wanted_images));
        prop_assert_eq!(node_status_bytes(&base, &wanted), over_json(&base, &wanted));
    }
}

/// The cases the property must meet, so that it is not met by never reaching them: a heartbeat
/// alone, a status change, a condition gone, the same conditions reordered.
#[test]
fn the_property_reaches_the_cases_that_matter() {
    let at = |s: i64| Time(WallTime(1_700_000_000_000_000 + s * 1_000_000));
    let c = |ty: &str, status: &str, hb: i64| {
        NodeCondition::new(ty.to_string(), status.to_string(), at(hb), at(0), "R", "m")
    };
    let base = node(vec![c("MemoryPressure", "False", 0), c("Ready", "True", 0)], false);
    let cases = [
        (vec![c("MemoryPressure", "False", 10), c("Ready", "True", 10)], "lastHeartbeatTime"),
        (vec![c("MemoryPressure", "False", 0), c("Ready", "False", 0)], "\"status\":\"False\""),
        (vec![c("Ready", "True", 0)], "$patch"),
        (vec![c("Ready", "True", 0), c("MemoryPressure", "False", 0)], "$setElementOrder"),
    ];
    for (conditions, shows) in cases {
        let wanted = node(conditions, false);
        let patch = node_status_bytes(&base, &wanted);
        assert_eq!(patch, over_json(&base, &wanted));
        assert!(patch.contains(shows), "{patch} shows {shows}");
    }
    assert_eq!(node_status_bytes(&base, &base), "{}");
}
