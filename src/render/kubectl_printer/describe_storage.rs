//! `kubectl describe statefulset|pvc|pv`, as kubectl 1.32 prints them (`pkg/describe/describe.go`:
//! `StatefulSetDescriber` / `describeStatefulSet` with `DescribePodTemplate` and
//! `describeVolumeClaimTemplates`; `PersistentVolumeClaimDescriber` / `getPodsForPVC` /
//! `describePersistentVolumeClaim`; `PersistentVolumeDescriber` / `describePersistentVolume` with
//! `printCSIPersistentVolumeSource`), each with the Events `searchEvents` finds (kind, name,
//! namespace and uid of the object). A VolumeAttachment has no describer of its own in kubectl:
//! it goes through the generic one ([`super::describe_generic`]).

use std::collections::BTreeMap;

use serde_json::Value;

use super::describe::{
    Prefix, annotations, describe_events, label_lines, multiline, multiline_indented, search_events,
};
use super::describe_pod::{containers, tolerations, volumes};
use super::get_storage::access_modes;
use super::quantity::Quantity;
use super::tabwriter::TabWriter;
use super::{Cluster, rfc1123z, since};
use crate::sim::objects::{ObjectMeta, PersistentVolume, PersistentVolumeClaim, Pod, StatefulSet};

/// The annotation that, when set, names a claim's or volume's class instead of
/// `storageClassName` (`storageutil.GetPersistentVolumeClaimClass`, `GetPersistentVolumeClass`).
const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";

fn storage_class<'a>(meta: &'a ObjectMeta, spec_class: &'a str) -> &'a str {
    meta.annotations.get(BETA_STORAGE_CLASS).map_or(spec_class, String::as_str)
}

/// Go's `%v` of a `[]string`: `[a b]`.
fn go_list(items: &[String]) -> String {
    ["[", &items.join(" "), "]"].concat()
}

/// A quantity as `Quantity.String()` prints it (`0` when absent).
fn quantity(value: Option<&str>) -> String {
    value.and_then(Quantity::parse).map_or_else(|| "0".to_string(), |q| q.canonical())
}

/// `Status:`: `Terminating (lasts AGE)` once deleted, else the phase.
fn status_line(w: &mut Prefix, meta: &ObjectMeta, phase: &str, cluster: &Cluster) {
    match meta.deletion_timestamp {
        Some(t) => w.put(0, &["Status:\tTerminating (lasts ", &since(cluster.now, Some(t.0)), ")\n"]),
        None => w.put(0, &["Status:\t", phase, "\n"]),
    }
}

/// The Pods `getPodStatusForController` counts for a StatefulSet: those in its namespace its
/// selector matches whose controller is the StatefulSet (by uid).
fn controlled_pods<'a>(cluster: &'a Cluster, set: &StatefulSet) -> impl Iterator<Item = &'a Pod> {
    let (namespace, uid) = (set.metadata.namespace.clone(), set.metadata.uid.clone());
    let selector = set.spec.selector.clone();
    cluster.all::<Pod>().map(|p| &**p).filter(move |p| {
        p.metadata.namespace == namespace
            && selector.matches(&p.metadata.labels)
            && p.metadata.owner_references.iter().any(|o| o.controller == Some(true) && o.uid == uid)
    })
}

/// `kubectl describe statefulset NAME` for `set`; the Pods and Events read from `cluster`.
pub fn describe_statefulset(set: &StatefulSet, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let (meta, spec) = (&set.metadata, &set.spec);
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Namespace:\t", &meta.namespace, "\n"]);
    w.put(0, &["CreationTimestamp:\t", &rfc1123z(meta.creation_timestamp.map(|t| t.0)), "\n"]);
    w.put(0, &["Selector:\t", &spec.selector.to_string(), "\n"]);
    multiline(&mut w, "Labels", label_lines(&meta.labels));
    annotations(&mut w, &meta.annotations);
    let (desired, total) = (spec.replicas.to_string(), set.status.replicas.to_string());
    w.put(0, &["Replicas:\t", &desired, " desired | ", &total, " total\n"]);
    let strategy = &spec.update_strategy;
    w.put(0, &["Update Strategy:\t", strategy["type"].as_str().unwrap_or_default(), "\n"]);
    if let Some(partition) = strategy["rollingUpdate"]["partition"].as_i64() {
        w.put(1, &["Partition:\t", &partition.to_string(), "\n"]);
        // An IntOrString.
        let max = &strategy["rollingUpdate"]["maxUnavailable"];
        let max = max.as_str().map(str::to_string).or_else(|| max.as_i64().map(|n| n.to_string()));
        if let Some(max) = max {
            w.put(1, &["MaxUnavailable:\t", &max, "\n"]);
        }
    }
    let mut counts = [0usize; 4];
    for pod in controlled_pods(cluster, set) {
        let at = ["Running", "Pending", "Succeeded", "Failed"].iter().position(|p| *p == pod.status.phase);
        if let Some(i) = at {
            counts[i] += 1;
        }
    }
    let [running, waiting, succeeded, failed] = counts.map(|n| n.to_string());
    w.put(
        0,
        &[
            "Pods Status:\t",
            &running,
            " Running / ",
            &waiting,
            " Waiting / ",
            &succeeded,
            " Succeeded / ",
            &failed,
            " Failed\n",
        ],
    );
    // DescribePodTemplate.
    let template = &spec.template;
    w.put(0, &["Pod Template:\n"]);
    multiline(&mut w, "  Labels", label_lines(&template.metadata.labels));
    if !template.spec.service_account_name.is_empty() {
        w.put(1, &["Service Account:\t", &template.spec.service_account_name, "\n"]);
    }
    containers(&mut w, "  ", &template.spec.containers, &[]);
    volumes(&mut w, "  ", &template.spec.volumes);
    multiline(&mut w, "  Node-Selectors", Vec::new());
    tolerations(&mut w, "  Tolerations", &template.spec.tolerations);
    claim_templates(&mut w, &spec.volume_claim_templates);
    if show_events {
        let mut events = search_events(cluster, "StatefulSet", meta);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}

/// `describeVolumeClaimTemplates`, from the templates as the API serves them.
fn claim_templates(w: &mut Prefix, templates: &[Value]) {
    if templates.is_empty() {
        w.put(0, &["Volume Claims:\t<none>\n"]);
        return;
    }
    w.put(0, &["Volume Claims:\n"]);
    let map = |v: &Value| -> BTreeMap<String, String> {
        v.as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
            .unwrap_or_default()
    };
    for t in templates {
        let (labels, notes) = (map(&t["metadata"]["labels"]), map(&t["metadata"]["annotations"]));
        let spec_class = t["spec"]["storageClassName"].as_str().unwrap_or_default();
        let class = notes.get(BETA_STORAGE_CLASS).map_or(spec_class, String::as_str);
        w.put(1, &["Name:\t", t["metadata"]["name"].as_str().unwrap_or_default(), "\n"]);
        w.put(1, &["StorageClass:\t", class, "\n"]);
        multiline_indented(w, "  ", "Labels", label_lines(&labels));
        multiline_indented(w, "  ", "Annotations", label_lines(&notes));
        let capacity = match t["spec"]["resources"]["requests"]["storage"].as_str() {
            Some(q) => quantity(Some(q)),
            None => "<default>".into(),
        };
        w.put(1, &["Capacity:\t", &capacity, "\n"]);
        let modes: Vec<String> = t["spec"]["accessModes"]
            .as_array()
            .map(|a| a.iter().filter_map(|m| m.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        w.put(1, &["Access Modes:\t", &go_list(&modes), "\n"]);
    }
}

/// How many of `pod`'s volumes come from the claim `name` (as `getPodsForPVC` looks, once per
/// such volume).
fn claim_volumes(pod: &Pod, name: &str) -> usize {
    pod.claim_names().filter(|c| *c == name).count()
}

/// `getPodsForPVC`: the names of the Pods of the claim's namespace that mount it (once per
/// volume), then of the Pods that own it not already listed; by name (`printPodsMultiline`'s
/// `sort.Slice`), each followed by a newline.
pub fn pods_for_claim(cluster: &Cluster, claim: &PersistentVolumeClaim) -> Vec<String> {
    let in_namespace: Vec<&Pod> =
        cluster.all::<Pod>().map(|p| &**p).filter(|p| p.metadata.namespace == claim.metadata.namespace).collect();
    let mut pods: Vec<&Pod> = Vec::new();
    for pod in &in_namespace {
        for _ in 0..claim_volumes(pod, &claim.metadata.name) {
            pods.push(pod);
        }
    }
    for owner in claim.metadata.owner_references.iter().filter(|o| o.kind == "Pod") {
        let Some(pod) = in_namespace.iter().find(|p| p.metadata.uid == owner.uid) else { continue };
        if !pods.iter().any(|p| p.metadata.uid == pod.metadata.uid) {
            pods.push(pod);
        }
    }
    // (name, line) pairs: the instantiation of Go's sort the taints already use.
    let mut names: Vec<(String, String)> =
        pods.iter().map(|p| (p.metadata.name.to_string(), [p.metadata.name.as_str(), "\n"].concat())).collect();
    super::gosort::sort(&mut names, &|a, b| a.0 < b.0);
    names.into_iter().map(|(_, line)| line).collect()
}

/// `kubectl describe pvc NAME` for `claim`; the Pods using it and the Events read from `cluster`.
pub fn describe_claim(claim: &PersistentVolumeClaim, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let (meta, spec, status) = (&claim.metadata, &claim.spec, &claim.status);
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Namespace:\t", &meta.namespace, "\n"]);
    w.put(0, &["StorageClass:\t", storage_class(meta, &spec.storage_class_name), "\n"]);
    status_line(&mut w, meta, &status.phase, cluster);
    w.put(0, &["Volume:\t", &spec.volume_name, "\n"]);
    multiline(&mut w, "Labels", label_lines(&meta.labels));
    annotations(&mut w, &meta.annotations);
    w.put(0, &["Finalizers:\t", &go_list(&meta.finalizers), "\n"]);
    let bound = !spec.volume_name.is_empty();
    let capacity = if bound { quantity(status.capacity.get("storage").map(String::as_str)) } else { String::new() };
    let modes = if bound { access_modes(&status.access_modes) } else { String::new() };
    w.put(0, &["Capacity:\t", &capacity, "\n"]);
    w.put(0, &["Access Modes:\t", &modes, "\n"]);
    if !spec.volume_mode.is_empty() {
        w.put(0, &["VolumeMode:\t", &spec.volume_mode, "\n"]);
    }
    multiline(&mut w, "Used By", pods_for_claim(cluster, claim));
    if show_events {
        let mut events = search_events(cluster, "PersistentVolumeClaim", meta);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}

/// `kubectl describe pv NAME` for `pv` (a CSI volume); the Events read from `cluster`.
pub fn describe_volume(pv: &PersistentVolume, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let (meta, spec) = (&pv.metadata, &pv.spec);
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    multiline(&mut w, "Labels", label_lines(&meta.labels));
    annotations(&mut w, &meta.annotations);
    w.put(0, &["Finalizers:\t", &go_list(&meta.finalizers), "\n"]);
    w.put(0, &["StorageClass:\t", storage_class(meta, &spec.storage_class_name), "\n"]);
    status_line(&mut w, meta, &pv.status.phase, cluster);
    w.put(0, &["Claim:\t", &pv.claim(), "\n"]);
    w.put(0, &["Reclaim Policy:\t", &spec.persistent_volume_reclaim_policy, "\n"]);
    w.put(0, &["Access Modes:\t", &access_modes(&spec.access_modes), "\n"]);
    if !spec.volume_mode.is_empty() {
        w.put(0, &["VolumeMode:\t", &spec.volume_mode, "\n"]);
    }
    w.put(0, &["Capacity:\t", &quantity(spec.capacity.get("storage").map(String::as_str)), "\n"]);
    let spec_json = serde_json::to_value(spec).unwrap_or_default();
    node_affinity(&mut w, &spec_json["nodeAffinity"]);
    w.put(0, &["Message:\t\n"]);
    w.put(0, &["Source:\n"]);
    let csi = &spec.csi;
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    w.put(
        2,
        &[
            "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t",
            &text(&csi["driver"]),
            "\n    FSType:\t",
            &text(&csi["fsType"]),
            "\n    VolumeHandle:\t",
            &text(&csi["volumeHandle"]),
            "\n    ReadOnly:\t",
            &csi["readOnly"].as_bool().unwrap_or(false).to_string(),
            "\n",
        ],
    );
    volume_attributes(&mut w, &csi["volumeAttributes"]);
    if show_events {
        let mut events = search_events(cluster, "PersistentVolume", meta);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}

/// `printVolumeNodeAffinity` with `printNodeSelectorTermsMultilineWithIndent`, from the volume's
/// `nodeAffinity` as the API serves it (`null` when the volume has none).
fn node_affinity(w: &mut Prefix, affinity: &Value) {
    w.put(0, &["Node Affinity:\t"]);
    let Some(required) = affinity.get("required") else {
        w.put(0, &["<none>\n"]);
        return;
    };
    w.put(0, &["\n"]);
    w.put(1, &["Required Terms:\t"]);
    let terms = required["nodeSelectorTerms"].as_array().map_or(&[][..], Vec::as_slice);
    if terms.is_empty() {
        w.put(0, &["<none>\n"]);
        return;
    }
    w.put(0, &["\n"]);
    for (i, term) in terms.iter().enumerate() {
        w.put(2, &["Term ", &i.to_string(), ":\t"]);
        let reqs = term["matchExpressions"].as_array().map_or(&[][..], Vec::as_slice);
        if reqs.is_empty() {
            w.put(0, &["<none>\n"]);
            continue;
        }
        for (j, req) in reqs.iter().enumerate() {
            if j != 0 {
                w.put(2, &["\t"]);
            }
            let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
            let mut expr = [text(&req["key"]), " ".into(), text(&req["operator"]).to_ascii_lowercase()].concat();
            let values: Vec<String> = req["values"].as_array().map_or_else(Vec::new, |a| a.iter().map(text).collect());
            if !values.is_empty() {
                expr = [expr, " [".into(), values.join(", "), "]".into()].concat();
            }
            w.put(0, &[&expr, "\n"]);
        }
    }
}

/// `printCSIPersistentVolumeAttributesMultiline`: `key=value` lines in key order, cut to 140
/// bytes, each further line indented twice at level 2 before its tab (as kubectl writes it).
fn volume_attributes(w: &mut Prefix, attributes: &Value) {
    w.put(2, &["VolumeAttributes:\t"]);
    let Some(map) = attributes.as_object().filter(|m| !m.is_empty()) else {
        w.put(0, &["<none>\n"]);
        return;
    };
    // In key order, as serde_json's map keeps them (`sort.Strings`).
    for (i, key) in map.keys().enumerate() {
        if i != 0 {
            w.put(2, &[]);
            w.put(2, &["\t"]);
        }
        let line = [key.as_str(), "=", map[key].as_str().unwrap_or_default()].concat();
        if line.len() > 140 {
            let mut cut = 140;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            w.put(2, &[&line[..cut], "...\n"]);
        } else {
            w.put(2, &[&line, "\n"]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::objects::PersistentVolumeClaim;

    #[test]
    fn a_pending_claim_has_no_capacity_and_is_used_by_no_pod() {
        let claim = PersistentVolumeClaim::for_pod("db-0", Default::default());
        let text = describe_claim(&claim, &Cluster::default(), true);
        assert!(text.contains("\nStatus:        Pending\nVolume:        \n"), "{text}");
        assert!(text.contains("\nFinalizers:    []\nCapacity:      \nAccess Modes:  \n"), "{text}");
        assert!(text.ends_with("Used By:       <none>\nEvents:        <none>\n"), "{text}");
        assert!(!describe_claim(&claim, &Cluster::default(), false).contains("Events"));
    }

    #[test]
    fn a_zonal_node_affinity_prints_its_terms() {
        let mut w = Prefix { w: TabWriter::describe() };
        let affinity = serde_json::json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "topology.gke.io/zone", "operator": "In", "values": ["us-central1-a", "us-central1-b"]},
            {"key": "x", "operator": "Exists"},
        ]}]}});
        node_affinity(&mut w, &affinity);
        assert_eq!(
            w.w.finish(),
            "Node Affinity:     \n  Required Terms:  \n    Term 0:        topology.gke.io/zone in [us-central1-a, \
             us-central1-b]\n                   x exists\n"
        );
        let mut w = Prefix { w: TabWriter::describe() };
        node_affinity(&mut w, &Value::Null);
        assert_eq!(w.w.finish(), "Node Affinity:  <none>\n");
    }

    #[test]
    fn used_by_lists_the_pods_that_own_the_claim_once_by_name() {
        use crate::sim::objects::OwnerReference;
        use crate::sim::{Chapter, Config, SimTime, Timeline};
        let t = SimTime::from_secs(20 * 60);
        let mut tl = Timeline::new(Chapter::NodeGoesAway, Config::default());
        tl.run_until(t);
        let cluster = Cluster::from_snapshot(&tl.at(t), crate::sim::WallTime(0));
        let mut claim = (**cluster.all::<PersistentVolumeClaim>().next().expect("a claim")).clone();
        let owner = |pod: &Pod| OwnerReference {
            api_version: "v1".into(),
            kind: "Pod".into(),
            name: pod.metadata.name.to_string(),
            uid: pod.metadata.uid.to_string(),
            controller: None,
            block_owner_deletion: None,
        };
        // Three Pods of the claim's namespace own it, one of them twice; a Pod that is gone is left
        // out.
        let pods: Vec<&Pod> =
            cluster.all::<Pod>().map(|p| &**p).filter(|p| p.metadata.namespace == "default").collect();
        assert!(pods.len() >= 3, "db-0 and two web Pods");
        for pod in [pods[2], pods[1], pods[2], pods[0]] {
            claim.metadata.owner_references.push(owner(pod));
        }
        let mut gone = owner(pods[0]);
        gone.uid = "gone".into();
        claim.metadata.owner_references.push(gone);
        let mut names: Vec<String> = pods[..3].iter().map(|p| [p.metadata.name.as_str(), "\n"].concat()).collect();
        names.sort();
        assert_eq!(pods_for_claim(&cluster, &claim), names);
    }

    #[test]
    fn a_csi_volume_prints_its_source() {
        let mut claim = PersistentVolumeClaim::for_pod("db-0", Default::default());
        claim.metadata.uid = "u1".into();
        let pv = PersistentVolume::provisioned_for(&claim, "pd.csi.storage.gke.io");
        let text = describe_volume(&pv, &Cluster::default(), false);
        assert!(text.contains("Claim:           default/data-db-0\n"), "{text}");
        assert!(text.contains("Finalizers:      [external-provisioner.volume.kubernetes.io/finalizer]\n"), "{text}");
        assert!(text.contains("    Driver:            pd.csi.storage.gke.io\n"), "{text}");
        assert!(text.ends_with("    ReadOnly:          false\n    VolumeAttributes:  <none>\n"), "{text}");
    }
}
