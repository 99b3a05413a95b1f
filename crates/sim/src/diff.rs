//! Short, field-naming accounts of what one change did to an object ("Ready: False → True",
//! "+taint node.kubernetes.io/unreachable:NoExecute"), for the timeline and the request list.

use super::objects::{ChangeType, Lease, Node, Object, PersistentVolumeClaim, Pod};

/// Describes the change from `prev` to `next`.
pub fn summarize(prev: Option<&Object>, next: &Object, change: ChangeType) -> String {
    let name = next.meta().name.as_str();
    match change {
        ChangeType::Added => return format!("created {} {name}", next.kind().as_str()),
        ChangeType::Deleted => return format!("deleted {} {name}", next.kind().as_str()),
        ChangeType::Modified => {}
    }
    let mut parts = Vec::new();
    match (prev, next) {
        (Some(Object::Node(a)), Object::Node(b)) => node_changes(a, b, &mut parts),
        (Some(Object::Lease(a)), Object::Lease(b)) => lease_changes(a, b, &mut parts),
        (Some(Object::Pod(a)), Object::Pod(b)) => pod_changes(a, b, &mut parts),
        (_, Object::Event(e)) => parts.push(format!("count {}", e.occurrences())),
        (Some(Object::PersistentVolumeClaim(a)), Object::PersistentVolumeClaim(b)) => claim_changes(a, b, &mut parts),
        (Some(Object::PersistentVolume(a)), Object::PersistentVolume(b)) => {
            changed(&mut parts, "phase", &a.status.phase, &b.status.phase);
        }
        (Some(Object::StatefulSet(a)), Object::StatefulSet(b)) => {
            // The status fields in JSON key order (an omitted count is 0).
            let (a, b) = (&a.status, &b.status);
            let counts = [
                ("availableReplicas", a.available_replicas, b.available_replicas),
                ("currentReplicas", a.current_replicas, b.current_replicas),
            ];
            for (field, old, new) in counts {
                changed(&mut parts, field, &old.to_string(), &new.to_string());
            }
            changed(&mut parts, "currentRevision", &a.current_revision, &b.current_revision);
            let generation = |g: Option<i64>| g.unwrap_or_default().to_string();
            changed(
                &mut parts,
                "observedGeneration",
                &generation(a.observed_generation),
                &generation(b.observed_generation),
            );
            let counts = [("readyReplicas", a.ready_replicas, b.ready_replicas), ("replicas", a.replicas, b.replicas)];
            for (field, old, new) in counts {
                changed(&mut parts, field, &old.to_string(), &new.to_string());
            }
            changed(&mut parts, "updateRevision", &a.update_revision, &b.update_revision);
            let (old, new) = (a.updated_replicas.to_string(), b.updated_replicas.to_string());
            changed(&mut parts, "updatedReplicas", &old, &new);
        }
        (Some(Object::VolumeAttachment(a)), Object::VolumeAttachment(b)) => {
            let attached = |v: &crate::objects::VolumeAttachment| v.status.as_ref().is_some_and(|s| s.attached);
            changed(&mut parts, "attached", &attached(a).to_string(), &attached(b).to_string());
            if a.metadata.finalizers != b.metadata.finalizers {
                parts.push(format!("finalizers [{}]", b.metadata.finalizers.join(" ")));
            }
            if a.metadata.deletion_timestamp.is_none() && b.metadata.deletion_timestamp.is_some() {
                parts.push("deletionTimestamp set (its finalizer holds it)".into());
            }
        }
        // A PodDisruptionBudget's and a DaemonSet's status: each field that moved.
        (Some(a @ Object::PodDisruptionBudget(_)), Object::PodDisruptionBudget(_))
        | (Some(a @ Object::DaemonSet(_)), Object::DaemonSet(_)) => {
            json_changes(&a.to_json()["status"], &next.to_json()["status"], &mut parts);
        }
        _ => {}
    }
    // A change the accounts above do not name is still a change: name its fields.
    if parts.is_empty()
        && let Some(prev) = prev
    {
        let (a, b) = (prev.to_json(), next.to_json());
        for part in ["spec", "status"] {
            if a[part] != b[part] {
                let (a, b) = (a[part].as_object(), b[part].as_object());
                let keys = a.into_iter().chain(b).flat_map(|m| m.keys()).collect::<std::collections::BTreeSet<_>>();
                for key in keys {
                    if a.and_then(|m| m.get(key)) != b.and_then(|m| m.get(key)) {
                        parts.push(format!("{part}.{key}"));
                    }
                }
            }
        }
    }
    parts.join(", ")
}

/// Each field of two JSON objects that differs: `field OLD → NEW` for a number, a string or a
/// boolean (an absent one `<none>`), the field's name for a list or a map.
fn json_changes(a: &serde_json::Value, b: &serde_json::Value, parts: &mut Vec<String>) {
    use serde_json::Value;
    let empty = serde_json::Map::new();
    let (am, bm) = (a.as_object().unwrap_or(&empty), b.as_object().unwrap_or(&empty));
    let scalar = |v: Option<&Value>| match v {
        None | Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) => Some(s.clone()),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => Some(v.to_string()),
        Some(_) => None,
    };
    // In the order of the keys (the new object's, then those it lost).
    let keys = bm.keys().chain(am.keys().filter(|k| !bm.contains_key(*k)));
    for key in keys {
        let (old, new) = (am.get(key), bm.get(key));
        if old == new {
            continue;
        }
        match (scalar(old), scalar(new)) {
            (Some(old), Some(new)) => changed(parts, key, &old, &new),
            _ => parts.push(key.clone()),
        }
    }
}

fn node_changes(a: &Node, b: &Node, parts: &mut Vec<String>) {
    let mut heartbeat_only = true;
    for c in &b.status.conditions {
        match a.condition(&c.type_) {
            Some(old) if old.status != c.status => {
                parts.push(format!("{}: {} → {}", c.type_, old.status, c.status));
                heartbeat_only = false;
            }
            Some(old) if old.message != c.message || old.reason != c.reason => {
                parts.push(format!("{} message", c.type_));
                heartbeat_only = false;
            }
            Some(old) if old.last_heartbeat_time != c.last_heartbeat_time => {}
            Some(_) => {}
            None => {
                parts.push(format!("{}: {}", c.type_, c.status));
                heartbeat_only = false;
            }
        }
    }
    for t in &b.spec.taints {
        if !a.spec.taints.iter().any(|o| o.key == t.key && o.effect == t.effect) {
            parts.push(format!("+taint {}", t.display()));
        }
    }
    for t in &a.spec.taints {
        if !b.spec.taints.iter().any(|o| o.key == t.key && o.effect == t.effect) {
            parts.push(format!("−taint {}", t.display()));
        }
    }
    if a.spec.unschedulable != b.spec.unschedulable {
        // (`kubectl cordon` and `uncordon`.)
        parts.push(format!("spec.unschedulable {} → {}", a.spec.unschedulable, b.spec.unschedulable));
    }
    if a.spec.pod_cidr != b.spec.pod_cidr {
        parts.push(format!("podCIDR {}", b.spec.pod_cidr));
    }
    for (k, v) in &b.metadata.labels {
        if a.metadata.labels.get(k) != Some(v) {
            parts.push(format!("label {k}={v}"));
        }
    }
    for (k, v) in &b.metadata.annotations {
        if a.metadata.annotations.get(k) != Some(v) {
            parts.push(format!("annotation {k}: {v}"));
        }
    }
    let (sa, sb) = (&a.status, &b.status);
    for (field, changed) in [
        ("addresses", sa.addresses != sb.addresses),
        ("nodeInfo", sa.node_info != sb.node_info),
        ("images", sa.images != sb.images),
        ("capacity", sa.capacity != sb.capacity),
        ("runtimeHandlers", sa.runtime_handlers != sb.runtime_handlers),
    ] {
        if changed {
            parts.push(field.to_string());
        }
    }
    if parts.is_empty() && heartbeat_only && a.status.conditions != b.status.conditions {
        parts.push("lastHeartbeatTime".into());
    }
}

fn lease_changes(a: &Lease, b: &Lease, parts: &mut Vec<String>) {
    if a.spec.renew_time != b.spec.renew_time
        && let Some(t) = b.spec.renew_time
    {
        let s = t.0.rfc3339_micros();
        parts.push(format!("renewTime {}", &s[11..23]));
    }
    if a.spec.holder_identity != b.spec.holder_identity {
        parts.push(format!("holderIdentity {}", b.spec.holder_identity.clone().unwrap_or_default()));
    }
    if a.metadata.owner_references != b.metadata.owner_references {
        parts.push("ownerReferences".into());
    }
}

fn pod_changes(a: &Pod, b: &Pod, parts: &mut Vec<String>) {
    if a.spec.node_name != b.spec.node_name {
        parts.push(format!("spec.nodeName {}", b.spec.node_name));
    }
    if a.metadata.deletion_timestamp.is_none() && b.metadata.deletion_timestamp.is_some() {
        parts.push("deletionTimestamp set (Terminating)".into());
    }
    if a.status.phase != b.status.phase {
        parts.push(format!("phase {} → {}", a.status.phase, b.status.phase));
    }
    for c in &b.status.conditions {
        match a.condition(c.type_) {
            Some(old) if old.status != c.status => parts.push(format!("{}: {} → {}", c.type_, old.status, c.status)),
            Some(old) if old.reason != c.reason => parts.push(format!("{} reason {}", c.type_, c.reason)),
            None => parts.push(format!("{}: {}", c.type_, c.status)),
            _ => {}
        }
    }
    if a.status.pod_ip != b.status.pod_ip && !b.status.pod_ip.is_empty() {
        parts.push(format!("podIP {}", b.status.pod_ip));
    }
}

/// `FIELD OLD → NEW` when the value changed (an empty string is `<none>`).
fn changed(parts: &mut Vec<String>, field: &str, old: &str, new: &str) {
    if old != new {
        let none = |s: &str| if s.is_empty() { "<none>".to_string() } else { s.to_string() };
        parts.push(format!("{field} {} → {}", none(old), none(new)));
    }
}

/// A claim: annotations added, `spec.volumeName` set, its phase.
fn claim_changes(a: &PersistentVolumeClaim, b: &PersistentVolumeClaim, parts: &mut Vec<String>) {
    for (key, value) in &b.metadata.annotations {
        if a.metadata.annotations.get(key) != Some(value) {
            parts.push(format!("+annotation {key}={value}"));
        }
    }
    if a.spec.volume_name != b.spec.volume_name {
        parts.push(format!("spec.volumeName {}", b.spec.volume_name));
    }
    changed(parts, "phase", &a.status.phase, &b.status.phase);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{LabelSelector, Node, PdbSpec, PodDisruptionBudget};
    use std::sync::Arc;

    fn modified(a: Object, b: Object) -> String {
        summarize(Some(&a), &b, ChangeType::Modified)
    }

    /// A write that changes a field is never summarised as nothing: cordon's and uncordon's
    /// `spec.unschedulable`, a budget's status, and any field the accounts do not name.
    #[test]
    fn every_change_is_named() {
        let node = Node::new("node-1");
        let mut cordoned = node.clone();
        cordoned.spec.unschedulable = true;
        let (n, c) = (Object::Node(Arc::new(node.clone())), Object::Node(Arc::new(cordoned.clone())));
        assert_eq!(modified(n.clone(), c.clone()), "spec.unschedulable false → true");
        assert_eq!(modified(c, n.clone()), "spec.unschedulable true → false");

        let spec = PdbSpec { min_available: None, selector: LabelSelector::default(), max_unavailable: None };
        let pdb = PodDisruptionBudget::new("default", "web", spec);
        let mut moved = pdb.clone();
        moved.status.disruptions_allowed = 1;
        moved.status.current_healthy = 6;
        assert_eq!(
            modified(Object::PodDisruptionBudget(Arc::new(pdb)), Object::PodDisruptionBudget(Arc::new(moved))),
            "currentHealthy 0 → 6, disruptionsAllowed 0 → 1"
        );

        let mut allocatable = node.clone();
        Arc::make_mut(&mut allocatable.status.allocatable).insert("pods".into(), "110".into());
        assert_eq!(modified(n, Object::Node(Arc::new(allocatable))), "status.allocatable");
    }
}
