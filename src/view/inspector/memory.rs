//! The Node tab's memory section, where the timeline models memory usage (a container leaks):
//! the Node's memory capacity and allocatable, `memory.available` as the kubelet's eviction
//! manager computes it (capacity less the node's working set), its thresholds, and each running
//! container's working set beside its request (and limit), so a reader sees which Pods use more
//! than they request: what the eviction manager ranks first.

use super::markup::{headers, state};
use crate::i18n::{Key, Lang};
use crate::sim::{ActionKind, SimTime, Thresholds, Timeline, format_go_duration, memory};
use crate::view::html::{cat, escape};

/// One running container's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerMemory {
    /// `namespace/name` of its Pod.
    pub pod: String,
    pub container: String,
    /// Its working set, as `resource.Quantity` prints bytes.
    pub usage: String,
    /// `requests.memory`, `0` without one.
    pub request: String,
    /// `limits.memory`, if any.
    pub limit: Option<String>,
    /// Whether its usage exceeds its request (`exceedMemoryRequests`).
    pub above: bool,
}

/// The memory section of one machine at one instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryView {
    /// The Node's `status.capacity.memory` and `status.allocatable.memory`.
    pub capacity: String,
    pub allocatable: String,
    /// `memory.available`, as a quantity.
    pub available: String,
    /// `evictionHard`'s quantity, if any.
    pub hard: Option<String>,
    /// `evictionSoft`'s quantity and grace period, if any.
    pub soft: Option<(String, String)>,
    pub containers: Vec<ContainerMemory>,
}

/// Whether the timeline models memory usage: some container leaks, by the story's script or the
/// reader's action. Elsewhere every container rests at a few megabytes and the section is not
/// shown.
pub fn models_memory(timeline: &Timeline) -> bool {
    timeline.inputs().iter().any(|i| i.action.kind == ActionKind::LeakMemory)
}

/// The memory of the machine whose Node is `node`, at `t`, when the timeline models memory
/// usage and its Node exists.
pub fn memory_view(timeline: &Timeline, node: &str, t: SimTime) -> Option<MemoryView> {
    if !models_memory(timeline) {
        return None;
    }
    let snap = timeline.at(t);
    let n = snap.node(node)?;
    let machine = snap.machines().into_iter().find(|m| *m.hostname == *node)?;
    let quantity = |q: &crate::sim::objects::Quantities| q.get("memory").cloned().unwrap_or_default();
    let sets = memory::working_sets(&machine.containers, &machine.leaks, t);
    // The Pods by namespace and name, each running container of theirs.
    let mut containers = Vec::new();
    for pod in snap.pods_on(node) {
        for (c, usage) in machine.containers.iter().zip(&sets).filter(|(c, _)| c.pod_uid == pod.metadata.uid) {
            let request = memory::memory_request(&pod, &c.name);
            let spec = pod.spec.containers.iter().find(|s| s.name == *c.name);
            containers.push(ContainerMemory {
                pod: cat_key(&pod.metadata.namespace, &pod.metadata.name),
                container: c.name.to_string(),
                usage: memory::format_bytes(*usage),
                request: memory::format_bytes(request),
                limit: spec.and_then(|s| s.resources.limits.get("memory").cloned()),
                above: *usage > request,
            });
        }
    }
    let thresholds = Thresholds::of(&timeline.config().settings());
    Some(MemoryView {
        capacity: quantity(&n.status.capacity),
        allocatable: quantity(&n.status.allocatable),
        available: memory::format_bytes(memory::available(&machine.containers, &machine.leaks, t)),
        hard: thresholds.hard.map(|q| q.text()),
        soft: thresholds.soft.map(|(q, grace)| (q.text(), format_go_duration(grace))),
        containers,
    })
}

fn cat_key(namespace: &str, name: &str) -> String {
    let mut key = String::with_capacity(namespace.len() + name.len() + 1);
    cat(&mut key, &[namespace, "/", name]);
    key
}

/// The section: a table of the machine's memory, then one of its containers.
pub fn memory_markup(v: &MemoryView, lang: Lang) -> String {
    let t = |k: Key| escape(lang.text(k)).into_owned();
    let e = |s: &str| escape(s).into_owned();
    let none = t(Key::NoTaints);
    let soft = match &v.soft {
        Some((q, grace)) => e(&lang.fill(Key::MemorySoftValue, &[q, grace])),
        None => none.clone(),
    };
    let mut o = String::with_capacity(2048);
    cat(&mut o, &[r#"<h3>"#, &t(Key::Memory), r#"</h3><div class="table-scroll"><table class="memory"><tbody>"#]);
    for (label, value) in [
        (t(Key::MemoryCapacity), e(&v.capacity)),
        (t(Key::MemoryAllocatable), e(&v.allocatable)),
        ("<code>memory.available</code>".to_string(), e(&v.available)),
        (t(Key::MemoryHard), v.hard.as_deref().map_or(none.clone(), e)),
        (t(Key::MemorySoft), soft),
    ] {
        cat(&mut o, &[r#"<tr><th scope="row">"#, &label, "</th><td>", &value, "</td></tr>"]);
    }
    o.push_str(
        r#"</tbody></table></div><div class="table-scroll"><table class="containers-memory"><tbody><tr class="head">"#,
    );
    headers(&mut o, lang, &[Key::ColName, Key::ColContainer, Key::ColUsage, Key::ColRequest, Key::ColLimit], false);
    o.push_str("</tr>");
    for c in &v.containers {
        cat(&mut o, &[r#"<tr><th scope="row">"#, &escape(&c.pod), "</th><td>", &escape(&c.container), "</td><td>"]);
        let above = if c.above { Key::MemoryAboveRequest } else { Key::MemoryWithinRequest };
        state(&mut o, if c.above { "bad" } else { "ok" }, &lang.fill(above, &[&c.usage]));
        cat(
            &mut o,
            &["</td><td>", &escape(&c.request), "</td><td>", &c.limit.as_deref().map_or(none.clone(), e), "</td></tr>"],
        );
    }
    o.push_str("</tbody></table></div>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config};

    #[cfg(not(target_arch = "wasm32"))]
    fn story(name: &str) -> Timeline {
        let path = format!("{}/stories/{name}.yaml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the story file");
        let story = crate::story::load(&text, None).expect("a good story");
        let mut tl = Timeline::from_scenario(story.scenario.clone(), story.config.clone(), &[]);
        tl.run_until(SimTime::from_secs(400));
        tl
    }

    /// In the node-pressure story, node-1's memory at 2 min: two Pods leak above their request,
    /// the BestEffort Pod is above its request of zero, `web`'s others are within theirs; the
    /// default hard threshold and no soft one.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_node_pressure_story_shows_who_is_above_its_request() {
        let tl = story("node-pressure");
        let at = SimTime::from_secs(120);
        let v = memory_view(&tl, "node-1", at).expect("node-1's memory");
        assert_eq!((v.capacity.as_str(), v.allocatable.as_str()), ("16374584Ki", "16272184Ki"));
        assert_eq!(v.hard.as_deref(), Some("100Mi"));
        assert_eq!(v.soft, None);
        let above: Vec<&str> = v.containers.iter().filter(|c| c.above).map(|c| c.pod.as_str()).collect();
        assert_eq!(above, ["default/besteffort-dvndt", "default/priority-d7qfs", "default/web-74fb665767-7slr6"]);
        assert!(v.containers.iter().filter(|c| !c.above).all(|c| c.request == "64Mi"), "{v:?}");
        let html = memory_markup(&v, Lang::En);
        assert!(html.contains("<code>memory.available</code></th><td>"), "{html}");
        assert!(html.contains(">above its request: "), "{html}");
        assert!(html.contains("<th scope=\"row\">default/web-74fb665767-7slr6</th><td>nginx</td>"), "{html}");
        let ja = memory_markup(&v, Lang::Ja);
        assert!(ja.contains("要求超過"), "{ja}");
        // Once a round evicts the first leaking Pod its container is gone from the table.
        let later = memory_view(&tl, "node-1", SimTime::from_secs(360)).expect("node-1's memory");
        assert!(!later.containers.iter().any(|c| c.pod == "default/web-74fb665767-7slr6"), "{later:?}");
    }

    /// A chapter with no memory usage modelled shows no memory section.
    #[test]
    fn chapters_without_a_leak_show_none() {
        let mut tl = Timeline::new(Chapter::NodeFailure, Config::default());
        tl.run_until(SimTime::from_secs(90));
        assert!(!models_memory(&tl));
        assert_eq!(memory_view(&tl, "node-1", SimTime::from_secs(90)), None);
    }
}
