//! The YAML tab: the selected object as `kubectl get -o yaml` prints it, with the lines the last
//! request changed marked and that request named, and a diff between the object at any earlier
//! version and at the playhead.
//!
//! The text only changes when the object does, so the component keys its memos on the version
//! (the index of the change that made it), not on the playhead.

use crate::i18n::{Key, Lang};
use crate::render::linediff::{self, Line};
use crate::render::yaml;
use crate::sim::objects::{Kind, Object, ObjectKey};
use crate::sim::record::{ChangeType, Log};
use crate::sim::{NODE_LEASE_NAMESPACE, SimTime, Snapshot};
use crate::view::html::{cat, escape};
use crate::view::inspector::empty_markup;

/// Lines of context kept around each change in a diff.
const CONTEXT: usize = 3;

/// `T+MM:SS.mmm` (or `T+H:MM:SS.mmm`): versions a few milliseconds apart stay apart.
pub fn clock_ms(t: SimTime) -> String {
    format!("{}.{:03}", t.clock_label(), t.as_millis() % 1000)
}

/// An object the tab can show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub key: ObjectKey,
    /// `Node node-1`, `CSINode node-1`, `Lease kube-node-lease/node-1`, `Pod default/web-1`.
    pub label: String,
    /// The value of its `<option>`: `Node//node-1`.
    pub value: String,
}

impl Choice {
    fn of(key: ObjectKey) -> Choice {
        let label = if key.namespace.is_empty() {
            format!("{} {}", key.kind.as_str(), key.name)
        } else {
            format!("{} {}/{}", key.kind.as_str(), key.namespace, key.name)
        };
        let value = format!("{}/{}/{}", key.kind.as_str(), key.namespace, key.name);
        Choice { key, label, value }
    }
}

/// The key an `<option>` value names.
pub fn parse_value(value: &str) -> Option<ObjectKey> {
    let mut parts = value.splitn(3, '/');
    let kind = Kind::from_name(parts.next()?)?;
    let (namespace, name) = (parts.next()?, parts.next()?);
    (!name.is_empty()).then(|| ObjectKey::namespaced(kind, namespace, name))
}

/// The Nodes, each followed by the CSINode it owns, then the Leases and Pods at the snapshot's
/// instant, then (chapter 6) the StatefulSets, their ControllerRevisions, PersistentVolumeClaims, PersistentVolumes and
/// VolumeAttachments, then (a machine's TLS bootstrap) the CertificateSigningRequests and the
/// bootstrap token's Secret.
pub fn choices(snapshot: &Snapshot<'_>) -> Vec<Choice> {
    let csinodes = snapshot.csinodes();
    let mut out: Vec<Choice> = Vec::new();
    for n in snapshot.nodes() {
        out.push(Choice::of(ObjectKey::cluster(Kind::Node, &n.metadata.name)));
        let owned = |c: &&std::sync::Arc<crate::sim::objects::CsiNode>| {
            c.metadata.owner_references.iter().any(|o| o.kind == "Node" && o.uid == n.metadata.uid)
        };
        out.extend(
            csinodes.iter().filter(owned).map(|c| Choice::of(ObjectKey::cluster(Kind::CsiNode, &c.metadata.name))),
        );
    }
    out.extend(
        snapshot
            .leases()
            .iter()
            .map(|l| Choice::of(ObjectKey::namespaced(Kind::Lease, &l.metadata.namespace, &l.metadata.name))),
    );
    out.extend(
        snapshot
            .pods()
            .iter()
            .map(|p| Choice::of(ObjectKey::namespaced(Kind::Pod, &p.metadata.namespace, &p.metadata.name))),
    );
    let namespaced = |kind: Kind, m: &crate::sim::objects::ObjectMeta| {
        Choice::of(ObjectKey::namespaced(kind, &m.namespace, &m.name))
    };
    out.extend(snapshot.statefulsets().iter().map(|s| namespaced(Kind::StatefulSet, &s.metadata)));
    out.extend(snapshot.revisions().iter().map(|r| namespaced(Kind::ControllerRevision, &r.metadata)));
    out.extend(snapshot.claims().iter().map(|c| namespaced(Kind::PersistentVolumeClaim, &c.metadata)));
    out.extend(
        snapshot
            .persistent_volumes()
            .iter()
            .map(|v| Choice::of(ObjectKey::cluster(Kind::PersistentVolume, &v.metadata.name))),
    );
    out.extend(
        snapshot
            .volume_attachments()
            .iter()
            .map(|v| Choice::of(ObjectKey::cluster(Kind::VolumeAttachment, &v.metadata.name))),
    );
    // A bootstrapping machine's CertificateSigningRequests, and the bootstrap token's Secret.
    out.extend(
        snapshot
            .all::<crate::sim::objects::CertificateSigningRequest>()
            .iter()
            .map(|c| Choice::of(ObjectKey::cluster(Kind::CertificateSigningRequest, &c.metadata.name))),
    );
    out.extend(snapshot.all::<crate::sim::objects::Secret>().iter().map(|s| namespaced(Kind::Secret, &s.metadata)));
    out
}

/// The key of a Node's object of `kind` (the Node itself, its CSINode or its Lease).
pub fn node_key(kind: Kind, node: &str) -> ObjectKey {
    match kind {
        Kind::Lease => ObjectKey::namespaced(Kind::Lease, NODE_LEASE_NAMESPACE, node),
        Kind::CsiNode => ObjectKey::cluster(Kind::CsiNode, node),
        _ => ObjectKey::cluster(Kind::Node, node),
    }
}

/// `<option>` elements for the choices, `selected` marked.
pub fn choices_markup(choices: &[Choice], selected: &ObjectKey) -> String {
    let mut o = String::new();
    for c in choices {
        let mark = if &c.key == selected { " selected" } else { "" };
        cat(&mut o, &[r#"<option value=""#, &escape(&c.value), "\"", mark, ">", &escape(&c.label), "</option>"]);
    }
    o
}

/// The change that made the object's version at `t`, if it exists then.
pub fn version_at(log: &Log, key: &ObjectKey, t: SimTime) -> Option<u32> {
    let versions = log.versions(key);
    let n = versions.partition_point(|&i| log.changes().at(i as usize).t <= t);
    let idx = *versions.get(n.checked_sub(1)?)?;
    (log.changes().at(idx as usize).change != ChangeType::Deleted).then_some(idx)
}

/// What made change `idx`: `PATCH /api/v1/nodes/node-1/status`, its sender and its answer.
fn made_by(log: &Log, idx: u32) -> Option<(String, String, String)> {
    let r = log.requests.at(log.changes().at(idx as usize).request? as usize);
    let answer = match r.outcome.code() {
        Some(c) => c.to_string(),
        None => "timeout".into(),
    };
    Some((format!("{} {}", r.method.as_str(), r.path), r.actor.to_string(), answer))
}

/// A version's label in the compare list: `T+02:51.052 PUT /api/v1/nodes/node-1/status`.
fn version_label(log: &Log, idx: u32) -> String {
    let c = &log.changes().at(idx as usize);
    match made_by(log, idx) {
        Some((request, _, _)) => format!("{} {request}", clock_ms(c.t)),
        None => clock_ms(c.t),
    }
}

/// `<option>`s for every version of the object up to `t` (newest first), `selected` marked; the
/// first option (value `""`) means no comparison.
pub fn versions_markup(log: &Log, key: &ObjectKey, t: SimTime, selected: Option<u32>, none: &str) -> String {
    let versions = log.versions(key);
    let n = versions.partition_point(|&i| log.changes().at(i as usize).t <= t);
    let mut o = String::new();
    let mark = if selected.is_none() { " selected" } else { "" };
    cat(&mut o, &[r#"<option value="""#, mark, ">", &escape(none), "</option>"]);
    for &idx in versions[..n].iter().rev() {
        if log.changes().at(idx as usize).change == ChangeType::Deleted {
            continue;
        }
        let mark = if selected == Some(idx) { " selected" } else { "" };
        let (value, label) = (idx.to_string(), version_label(log, idx));
        cat(&mut o, &[r#"<option value=""#, &value, "\"", mark, ">", &escape(&label), "</option>"]);
    }
    o
}

/// The object of change `idx` as `kubectl get -o yaml` prints it.
pub fn yaml_of(log: &Log, idx: u32) -> String {
    yaml::to_string(&Object::to_json(&log.changes().at(idx as usize).object()))
}

/// The live YAML of the version made by change `idx`: a line naming what made it, then the YAML
/// with the lines that change touched marked (every line, for a new object).
pub fn live_markup(log: &Log, idx: u32, lang: Lang) -> String {
    let change = &log.changes().at(idx as usize);
    let text = yaml_of(log, idx);
    let before = log
        .previous_version(idx)
        .filter(|p| p.change != ChangeType::Deleted)
        .map(|p| yaml::to_string(&p.object().to_json()));
    let marks = match &before {
        Some(b) => linediff::changed_lines(b, &text),
        None => vec![true; text.lines().count()],
    };
    let when = clock_ms(change.t);
    let head = match (made_by(log, idx), change.change) {
        (Some((request, actor, answer)), ChangeType::Added) => {
            lang.fill(Key::YamlCreatedBy, &[&when, &request, &actor, &answer])
        }
        (Some((request, actor, answer)), _) => lang.fill(Key::YamlChangedBy, &[&when, &request, &actor, &answer]),
        (None, _) => lang.fill(Key::YamlChangedAt, &[&when]),
    };
    let mut o = String::with_capacity(text.len() + 512);
    cat(
        &mut o,
        &[
            r#"<p class="yaml-change">"#,
            &escape(&head),
            r#"</p><p class="legend"><span class="legend-mark" aria-hidden="true"></span>"#,
            &escape(lang.text(Key::YamlChangedLegend)),
            r#"</p><pre class="yaml" tabindex="0"><code>"#,
        ],
    );
    for (line, marked) in text.lines().zip(marks.into_iter().chain(std::iter::repeat(false))) {
        if marked {
            cat(&mut o, &[r#"<mark class="chg">"#, &escape(line), "</mark>\n"]);
        } else {
            cat(&mut o, &[&escape(line), "\n"]);
        }
    }
    o.push_str("</code></pre>");
    o
}

/// A unified diff of the object from version `from` to version `to`, with three lines of context
/// around each change.
pub fn diff_markup(log: &Log, from: u32, to: u32, lang: Lang) -> String {
    let (a, b) = (yaml_of(log, from), yaml_of(log, to));
    let (al, bl): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let lines = linediff::diff(&al, &bl);
    let title = lang.fill(
        Key::YamlDiffTitle,
        &[&clock_ms(log.changes().at(from as usize).t), &clock_ms(log.changes().at(to as usize).t)],
    );
    let mut o = String::new();
    cat(&mut o, &[r#"<p class="yaml-change">"#, &escape(&title), "</p>"]);
    if lines.iter().all(|l| matches!(l, Line::Same(_))) {
        o.push_str(&empty_markup(None, lang.text(Key::YamlNoChanges)));
        return o;
    }
    // Keep lines within CONTEXT of a change.
    let near: Vec<bool> = (0..lines.len())
        .map(|i| {
            let lo = i.saturating_sub(CONTEXT);
            let hi = (i + CONTEXT + 1).min(lines.len());
            lines[lo..hi].iter().any(|l| !matches!(l, Line::Same(_)))
        })
        .collect();
    o.push_str(r#"<pre class="yaml-diff" tabindex="0"><code>"#);
    let mut skipped = false;
    for (line, keep) in lines.iter().zip(near) {
        if !keep {
            skipped = true;
            continue;
        }
        if skipped {
            o.push_str("<span class=\"skip\">⋯</span>\n");
            skipped = false;
        }
        match line {
            Line::Same(l) => cat(&mut o, &["  ", &escape(l), "\n"]),
            Line::Removed(l) => cat(&mut o, &["<del>- ", &escape(l), "</del>\n"]),
            Line::Added(l) => cat(&mut o, &["<ins>+ ", &escape(l), "</ins>\n"]),
        }
    }
    if skipped {
        o.push_str("<span class=\"skip\">⋯</span>\n");
    }
    o.push_str("</code></pre>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, Timeline};

    fn failure() -> Timeline {
        let mut tl = Timeline::new(Chapter::NodeFailure, Config::default());
        tl.run_until(SimTime::from_secs(400));
        tl
    }

    #[test]
    fn choices_and_values_round_trip() {
        let tl = failure();
        let c = choices(&tl.at(SimTime::from_secs(60)));
        let labels: Vec<&str> = c.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels[..6],
            [
                "Node node-1",
                "CSINode node-1",
                "Node node-2",
                "CSINode node-2",
                "Lease kube-node-lease/node-1",
                "Lease kube-node-lease/node-2"
            ]
        );
        assert!(labels[6].starts_with("Pod default/web-"));
        // Before node-1's CSINode exists (its POST at ~0.66 s), node-1 stands alone.
        let early: Vec<String> = choices(&tl.at(SimTime::from_millis(500))).into_iter().map(|c| c.label).collect();
        assert_eq!(early, ["Node node-1"]);
        for choice in &c {
            assert_eq!(parse_value(&choice.value).as_ref(), Some(&choice.key));
        }
        assert_eq!(parse_value("ConfigMap//x"), None);
        assert_eq!(parse_value("Node//"), None);
        let markup = choices_markup(&c, &c[2].key);
        assert!(markup.contains(r#"<option value="Node//node-2" selected>Node node-2</option>"#), "{markup}");
        assert_eq!(markup.matches(" selected").count(), 1);
    }

    /// The keys of the mapping under `parent` (`""`: the document), in the order printed.
    fn keys_under(yaml: &str, parent: &str) -> Vec<String> {
        let (mut inside, mut out) = (parent.is_empty(), Vec::new());
        let indent = if parent.is_empty() { "" } else { "  " };
        for line in yaml.lines() {
            if !line.starts_with(' ') {
                inside = parent.is_empty() || line == [parent, ":"].concat();
                if !parent.is_empty() {
                    continue;
                }
            }
            if let Some(rest) = line.strip_prefix(indent).filter(|_| inside)
                && !rest.starts_with([' ', '-'])
                && let Some((key, _)) = rest.split_once(':')
            {
                out.push(key.to_string());
            }
        }
        out
    }

    #[test]
    fn fields_come_in_kubectls_order() {
        let tl = failure();
        let log = tl.log();
        let t = SimTime::from_secs(60);
        let yaml = |key: &ObjectKey| yaml_of(log, version_at(log, key, t).expect("exists at 60 s"));
        // kubectl prints an object through a map, so its keys come in go-yaml's sort order (for
        // these keys the same as bytewise: `podCIDR` before `podCIDRs`), not the API's field
        // order (`status.nodeInfo` is declared before `images` in Go).
        let node = yaml(&node_key(Kind::Node, "node-1"));
        assert_eq!(keys_under(&node, ""), ["apiVersion", "kind", "metadata", "spec", "status"]);
        assert_eq!(
            keys_under(&node, "metadata"),
            ["annotations", "creationTimestamp", "labels", "name", "resourceVersion", "uid"]
        );
        assert_eq!(keys_under(&node, "spec"), ["podCIDR", "podCIDRs"]);
        assert_eq!(
            keys_under(&node, "status"),
            [
                "addresses",
                "allocatable",
                "capacity",
                "conditions",
                "daemonEndpoints",
                "features",
                "images",
                "nodeInfo",
                "runtimeHandlers"
            ]
        );
        let lease = yaml(&node_key(Kind::Lease, "node-1"));
        assert_eq!(keys_under(&lease, ""), ["apiVersion", "kind", "metadata", "spec"]);
        assert_eq!(keys_under(&lease, "spec"), ["holderIdentity", "leaseDurationSeconds", "renewTime"]);
        let csinode = yaml(&node_key(Kind::CsiNode, "node-1"));
        assert_eq!(keys_under(&csinode, ""), ["apiVersion", "kind", "metadata", "spec"]);
        assert_eq!(
            keys_under(&csinode, "metadata"),
            ["annotations", "creationTimestamp", "name", "ownerReferences", "resourceVersion", "uid"]
        );
        assert!(csinode.contains("\nspec:\n  drivers: null\n"), "{csinode}");
        assert!(
            csinode.contains("\n    storage.alpha.kubernetes.io/migrated-plugins: kubernetes.io/aws-ebs,"),
            "{csinode}"
        );
        let pod_key = choices(&tl.at(t)).into_iter().find(|c| c.key.kind == Kind::Pod).expect("a Pod").key;
        let pod = yaml(&pod_key);
        assert_eq!(keys_under(&pod, ""), ["apiVersion", "kind", "metadata", "spec", "status"]);
        let spec = keys_under(&pod, "spec");
        assert_eq!(spec.first().map(String::as_str), Some("containers"));
        let mut sorted = spec.clone();
        sorted.sort_unstable();
        assert_eq!(spec, sorted, "a Pod's spec keys sort bytewise");
    }

    #[test]
    fn the_unknown_write_is_named_and_its_lines_marked() {
        let tl = failure();
        let log = tl.log();
        let key = node_key(Kind::Node, "node-1");
        // The controller's PUT that set Ready to Unknown.
        let idx = *log
            .versions(&key)
            .iter()
            .find(|&&i| {
                let c = &log.changes().at(i as usize);
                c.request.is_some_and(|r| log.requests.at(r as usize).method == crate::sim::Method::Put)
            })
            .expect("the controller writes node-1's status");
        assert_eq!(version_at(log, &key, log.changes().at(idx as usize).t), Some(idx));
        let html = live_markup(log, idx, Lang::En);
        assert!(html.starts_with(r#"<p class="yaml-change">Changed at T+02:5"#), "{html}");
        assert!(html.contains("by PUT /api/v1/nodes/node-1/status from node-lifecycle-controller (200)"), "{html}");
        // Every condition's status and reason changed; the heartbeat did not.
        assert_eq!(html.matches(r#"<mark class="chg">    status: Unknown</mark>"#).count(), 4, "{html}");
        assert!(html.contains(r#"<mark class="chg">    reason: NodeStatusUnknown</mark>"#));
        assert!(!html.contains(r#"<mark class="chg">  - lastHeartbeatTime"#));
        assert!(html.contains("\n  name: node-1\n"), "unchanged lines are plain");
        // The YAML is kubectl's.
        let text = yaml_of(log, idx);
        assert!(text.starts_with("apiVersion: v1\nkind: Node\nmetadata:\n"));
    }

    #[test]
    fn a_new_object_is_marked_whole_and_credited_to_its_post() {
        let tl = failure();
        let log = tl.log();
        let key = node_key(Kind::Lease, "node-2");
        let first = log.versions(&key)[0];
        let html = live_markup(log, first, Lang::En);
        assert!(html.contains("Created at T+00:"), "{html}");
        assert!(
            html.contains(
                "by POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases from kubelet/node-2 (201)"
            ),
            "{html}"
        );
        assert!(!html.contains("\napiVersion"), "every line is marked");
    }

    #[test]
    fn diffs_between_two_versions() {
        let tl = failure();
        let log = tl.log();
        let key = node_key(Kind::Lease, "node-1");
        let versions = log.versions(&key);
        let html = diff_markup(log, versions[1], versions[3], Lang::En);
        assert!(html.contains("<del>-   renewTime:"), "{html}");
        assert!(html.contains("<ins>+   renewTime:"), "{html}");
        assert!(html.contains("<del>-   resourceVersion:"), "{html}");
        assert!(!html.contains("creationTimestamp"), "unchanged lines far from a change are left out: {html}");
        assert!(html.contains("<span class=\"skip\">⋯</span>"), "{html}");
        let same = diff_markup(log, versions[2], versions[2], Lang::En);
        assert!(same.contains("No differences."), "{same}");
        let opts = versions_markup(log, &key, SimTime::from_secs(60), Some(versions[1]), "none");
        assert!(opts.starts_with(r#"<option value="">none</option>"#));
        assert_eq!(
            opts.matches("<option").count(),
            1 + versions.iter().filter(|&&i| log.changes().at(i as usize).t <= SimTime::from_secs(60)).count()
        );
        assert!(opts.contains(&format!(r#"<option value="{}" selected>T+00:"#, versions[1])));
    }

    #[test]
    fn chapter_six_offers_the_statefulset_claim_volume_and_attachment() {
        let mut tl = Timeline::new(Chapter::NodeGoesAway, crate::sim::Config::default());
        let t = SimTime::from_secs(60);
        tl.run_until(t);
        let c = choices(&tl.at(t));
        let labels: Vec<&str> = c.iter().map(|c| c.label.as_str()).collect();
        assert!(labels.contains(&"StatefulSet default/db"), "{labels:?}");
        let revision = c.iter().find(|c| c.key.kind == Kind::ControllerRevision).expect("a ControllerRevision");
        assert!(revision.label.starts_with("ControllerRevision default/db-"), "{}", revision.label);
        let revision_yaml = yaml_of(tl.log(), version_at(tl.log(), &revision.key, t).expect("stored"));
        assert!(revision_yaml.contains("revision: 1"), "{revision_yaml}");
        assert!(revision_yaml.contains("$patch: replace"), "{revision_yaml}");
        assert!(labels.contains(&"PersistentVolumeClaim default/data-db-0"), "{labels:?}");
        let pv = c.iter().find(|c| c.key.kind == Kind::PersistentVolume).expect("a PersistentVolume");
        assert!(pv.label.starts_with("PersistentVolume pvc-"), "{}", pv.label);
        let va = c.iter().find(|c| c.key.kind == Kind::VolumeAttachment).expect("a VolumeAttachment");
        for choice in &c {
            assert_eq!(parse_value(&choice.value).as_ref(), Some(&choice.key));
        }
        let log = tl.log();
        let claim = version_at(log, &c.iter().find(|c| c.key.kind == Kind::PersistentVolumeClaim).unwrap().key, t)
            .expect("the claim exists");
        let text = yaml_of(log, claim);
        assert!(text.contains("  phase: Bound"), "{text}");
        assert!(text.contains(&format!("volumeName: {}", pv.key.name)), "{text}");
        let attachment = yaml_of(log, version_at(log, &va.key, t).expect("attached"));
        assert!(attachment.contains("attached: true"), "{attachment}");
    }
}
