//! The strategic-merge patch a kubelet sends with `PATCH /api/v1/nodes/NAME/status`: what
//! `nodeutil.PatchNodeStatus` builds from the Node it read and the Node it wants
//! (`strategicpatch.CreateTwoWayMergePatch` over `v1.Node`, `spec` left out, addresses replaced
//! whole when they changed).
//!
//! Only the parts of the strategy a Node needs are modelled: maps are diffed key by key (`null`
//! deletes a key); `status.conditions` and `status.addresses` are lists merged by `type` and
//! `metadata.ownerReferences` by `uid` (changed items carry their key and the fields that changed,
//! removed ones `{"$patch": "delete"}`, and the new order is given by `$setElementOrder/<list>`);
//! every other list is replaced whole.

use serde_json::{Map, Value};

use crate::objects::{Node, NodeStatus};

/// The bytes `nodeutil.PatchNodeStatus` sends from `base` to `wanted`: [`node_status`] as Go's
/// `json.Marshal` writes it (compact, keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped).
/// The kubelet's `"failed to patch status %q …"` error quotes them.
pub fn node_status_bytes(base: &Node, wanted: &Node) -> String {
    let (base, wanted) = without_common(base, wanted);
    if let Some(patch) = conditions_alone(&base, &wanted) {
        return html_escaped(&patch);
    }
    let json = |n: &Node| serde_json::to_value(n).unwrap_or(Value::Null);
    let patch = node_status(&json(&base), &json(&wanted));
    html_escaped(&patch.to_string())
}

/// The compact text of [`node_status`]'s patch when the Nodes (as [`without_common`] left them)
/// differ in their conditions alone, both having some: written from the conditions as the merge
/// of `status.conditions` by `type` writes them (changed items with their key and the fields
/// whose JSON changed, new ones whole, removed ones `{"$patch":"delete"}`, then the order),
/// keys sorted. A kubelet's failed heartbeat is such a patch; building it through
/// `serde_json::Value` was most of the cost of a zone cut at a thousand nodes.
fn conditions_alone(base: &Node, wanted: &Node) -> Option<String> {
    use crate::objects::NodeCondition;
    let (o, m) = (&base.status.conditions, &wanted.status.conditions);
    let rest = |n: &Node| NodeStatus { conditions: Default::default(), ..n.status.clone() };
    if o.is_empty() || m.is_empty() || base.metadata != wanted.metadata || rest(base) != rest(wanted) {
        return None;
    }
    // A condition's fields but its type, in key order, as their JSON strings hold them.
    const KEYS: [&str; 5] = ["lastHeartbeatTime", "lastTransitionTime", "message", "reason", "status"];
    let texts = |c: &NodeCondition| {
        [
            c.last_heartbeat_time.0.rfc3339(),
            c.last_transition_time.0.rfc3339(),
            c.message.to_string(),
            c.reason.to_string(),
            c.status.to_string(),
        ]
    };
    // `"key":"value"` after the object's fields so far.
    let field = |object: &mut String, key: &str, value: &str| {
        object.push_str(if object.is_empty() { "{\"" } else { ",\"" });
        object.push_str(key);
        object.push_str("\":");
        object.push_str(&serde_json::to_string(value).unwrap_or_default());
    };
    let (mut list, mut order) = (Vec::new(), Vec::new());
    for mv in m.iter() {
        let new = texts(mv);
        let old = o.iter().find(|ov| ov.type_ == mv.type_).map(texts);
        let mut item = String::new();
        for (i, key) in KEYS.iter().enumerate() {
            if old.as_ref().is_none_or(|old| old[i] != new[i]) {
                field(&mut item, key, &new[i]);
            }
        }
        if !item.is_empty() {
            field(&mut item, "type", &mv.type_);
            list.push(item + "}");
        }
        let mut only = String::new();
        field(&mut only, "type", &mv.type_);
        order.push(only + "}");
    }
    for ov in o.iter().filter(|ov| !m.iter().any(|mv| mv.type_ == ov.type_)) {
        let mut deleted = String::new();
        field(&mut deleted, "$patch", "delete");
        field(&mut deleted, "type", &ov.type_);
        list.push(deleted + "}");
    }
    let kept = o.iter().filter(|ov| m.iter().any(|mv| mv.type_ == ov.type_)).map(|c| &c.type_);
    if list.is_empty() && kept.eq(m.iter().map(|c| &c.type_)) {
        return Some("{}".into());
    }
    let mut patch = String::from("{\"status\":{\"$setElementOrder/conditions\":[");
    patch.push_str(&order.join(","));
    patch.push_str("],\"conditions\":[");
    patch.push_str(&list.join(","));
    patch.push_str("]}}");
    Some(patch)
}

/// `base` and `wanted` with every part they have equal emptied in both, and the spec (which
/// [`node_status`] takes from `base`) in neither: the patch is made key by key, and a key equal
/// on both sides (or absent from both) adds nothing to it, so the patch is the same while only
/// what differs is serialised (usually the conditions: a kubelet whose status updates fail
/// during a zone cut quotes one every ten seconds).
fn without_common(base: &Node, wanted: &Node) -> (Node, Node) {
    fn pick<T: PartialEq + Default + Clone>(b: &T, w: &T) -> (T, T) {
        if b == w { (T::default(), T::default()) } else { (b.clone(), w.clone()) }
    }
    let w = &wanted.status;
    // Every field named, so that a new one cannot be left out.
    let NodeStatus {
        capacity,
        allocatable,
        conditions,
        addresses,
        daemon_endpoints,
        node_info,
        images,
        volumes_attached,
        runtime_handlers,
        features,
    } = &base.status;
    let capacity = pick(capacity, &w.capacity);
    let allocatable = pick(allocatable, &w.allocatable);
    let conditions = pick(conditions, &w.conditions);
    let addresses = pick(addresses, &w.addresses);
    let daemon_endpoints = pick(daemon_endpoints, &w.daemon_endpoints);
    let node_info = pick(node_info, &w.node_info);
    let images = pick(images, &w.images);
    let volumes_attached = pick(volumes_attached, &w.volumes_attached);
    let runtime_handlers = pick(runtime_handlers, &w.runtime_handlers);
    let features = pick(features, &w.features);
    let metadata = pick(&base.metadata, &wanted.metadata);
    let node = |of: &Node, metadata, status| Node {
        kind: of.kind,
        api_version: of.api_version,
        metadata,
        spec: Default::default(),
        status,
    };
    let base = node(
        base,
        metadata.0,
        NodeStatus {
            capacity: capacity.0,
            allocatable: allocatable.0,
            conditions: conditions.0,
            addresses: addresses.0,
            daemon_endpoints: daemon_endpoints.0,
            node_info: node_info.0,
            images: images.0,
            volumes_attached: volumes_attached.0,
            runtime_handlers: runtime_handlers.0,
            features: features.0,
        },
    );
    let wanted = node(
        wanted,
        metadata.1,
        NodeStatus {
            capacity: capacity.1,
            allocatable: allocatable.1,
            conditions: conditions.1,
            addresses: addresses.1,
            daemon_endpoints: daemon_endpoints.1,
            node_info: node_info.1,
            images: images.1,
            volumes_attached: volumes_attached.1,
            runtime_handlers: runtime_handlers.1,
            features: features.1,
        },
    );
    (base, wanted)
}

/// `serde_json`'s compact text of a document (without floats) as Go's `encoding/json` writes
/// it: the same but for the characters Go escapes for HTML (`<`, `>`, `&`, U+2028, U+2029),
/// which can only stand inside strings.
pub fn html_escaped(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len());
    for c in compact.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out
}

/// The merge key of the list at `path` (dotted), if it is merged rather than replaced.
fn merge_key(path: &str) -> Option<&'static str> {
    match path {
        "status.conditions" | "status.addresses" => Some("type"),
        "metadata.ownerReferences" => Some("uid"),
        _ => None,
    }
}

/// The patch from `original` to `modified` (two JSON objects), as a JSON object; empty when they
/// are equal.
pub fn two_way(original: &Value, modified: &Value) -> Value {
    match (original, modified) {
        (Value::Object(o), Value::Object(m)) => Value::Object(diff_maps(o, m, "")),
        _ => modified.clone(),
    }
}

fn diff_maps(o: &Map<String, Value>, m: &Map<String, Value>, path: &str) -> Map<String, Value> {
    let mut patch = Map::new();
    for (key, mv) in m {
        let here = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        match o.get(key) {
            None => {
                patch.insert(key.clone(), mv.clone());
            }
            Some(ov) if ov == mv => {}
            Some(Value::Object(oo)) if mv.is_object() => {
                let sub = diff_maps(oo, mv.as_object().unwrap_or(&Map::new()), &here);
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            Some(Value::Array(oa)) if mv.is_array() && merge_key(&here).is_some() => {
                let ma = mv.as_array().map(Vec::as_slice).unwrap_or(&[]);
                let k = merge_key(&here).unwrap_or("name");
                let (list, order) = diff_merge_list(oa, ma, k);
                if !list.is_empty() || order.is_some() {
                    patch.insert(key.clone(), Value::Array(list));
                }
                if let Some(order) = order {
                    patch.insert(format!("$setElementOrder/{key}"), Value::Array(order));
                }
            }
            Some(_) => {
                patch.insert(key.clone(), mv.clone());
            }
        }
    }
    for key in o.keys() {
        if !m.contains_key(key) {
            patch.insert(key.clone(), Value::Null);
        }
    }
    patch
}

/// The patch of a merged list: changed and added items (in the new order), then deletions; and
/// the `$setElementOrder` list when anything changed or the order did.
fn diff_merge_list(o: &[Value], m: &[Value], key: &str) -> (Vec<Value>, Option<Vec<Value>>) {
    let key_of = |v: &Value| v.get(key).cloned().unwrap_or(Value::Null);
    let mut list = Vec::new();
    for mv in m {
        let k = key_of(mv);
        match o.iter().find(|ov| key_of(ov) == k) {
            None => list.push(mv.clone()),
            Some(ov) if ov == mv => {}
            Some(ov) => {
                let mut sub = match (ov, mv) {
                    (Value::Object(a), Value::Object(b)) => diff_maps(a, b, ""),
                    _ => Map::new(),
                };
                if !sub.is_empty() {
                    sub.insert(key.to_string(), k);
                    list.push(Value::Object(sub));
                }
            }
        }
    }
    for ov in o {
        let k = key_of(ov);
        if !m.iter().any(|mv| key_of(mv) == k) {
            let mut del = Map::new();
            del.insert("$patch".into(), Value::from("delete"));
            del.insert(key.to_string(), k);
            list.push(Value::Object(del));
        }
    }
    let same_order = o.iter().map(key_of).filter(|k| m.iter().any(|mv| key_of(mv) == *k)).eq(m.iter().map(key_of));
    let order = (!list.is_empty() || !same_order).then(|| {
        m.iter()
            .map(|mv| {
                let mut only = Map::new();
                only.insert(key.to_string(), key_of(mv));
                Value::Object(only)
            })
            .collect()
    });
    (list, order)
}

/// The kubelet's node status patch from the Node it read (`base`) to the one it wants.
pub fn node_status(base: &Value, wanted: &Value) -> Value {
    let mut diff = wanted.clone();
    // The spec is never patched through status.
    if let (Some(d), Some(spec)) = (diff.as_object_mut(), base.get("spec")) {
        d.insert("spec".into(), spec.clone());
    }
    // Addresses are replaced whole (`fixupPatchForNodeStatusAddresses`) when they changed.
    let addresses = |v: &Value| v.get("status").and_then(|s| s.get("addresses")).cloned();
    let (old_addresses, new_addresses) = (addresses(base), addresses(wanted));
    let replace = match (&old_addresses, &new_addresses) {
        (Some(Value::Array(a)), n) => !a.is_empty() && Some(&Value::Array(a.clone())) != n.as_ref(),
        _ => false,
    };
    if replace && let Some(status) = diff.get_mut("status").and_then(Value::as_object_mut) {
        status.insert("addresses".into(), old_addresses.clone().unwrap_or(Value::Null));
    }
    let mut patch = two_way(base, &diff);
    if replace && let Some(p) = patch.as_object_mut() {
        let mut list = new_addresses.and_then(|v| v.as_array().cloned()).unwrap_or_default();
        let mut directive = Map::new();
        directive.insert("$patch".into(), Value::from("replace"));
        list.push(Value::Object(directive));
        if !p.contains_key("status") {
            p.insert("status".into(), Value::Object(Map::new()));
        }
        if let Some(s) = p.get_mut("status").and_then(Value::as_object_mut) {
            s.insert("addresses".into(), Value::Array(list));
        }
    }
    patch
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cond(ty: &str, status: &str, hb: &str) -> Value {
        json!({"type": ty, "status": status, "lastHeartbeatTime": hb, "reason": "r", "message": "m"})
    }

    #[test]
    fn a_heartbeat_patch_names_every_condition_it_touches() {
        let base = json!({"spec": {"podCIDR": "a"}, "status": {"conditions": [cond("Memory", "False", "t1"), cond("Ready", "False", "t1")], "images": [1]}});
        let wanted = json!({"spec": {"podCIDR": "b"}, "status": {"conditions": [cond("Memory", "False", "t2"), cond("Ready", "True", "t2")], "images": [1]}});
        assert_eq!(
            node_status(&base, &wanted),
            json!({"status": {
                "$setElementOrder/conditions": [{"type": "Memory"}, {"type": "Ready"}],
                "conditions": [{"type": "Memory", "lastHeartbeatTime": "t2"}, {"type": "Ready", "lastHeartbeatTime": "t2", "status": "True"}],
            }})
        );
        assert_eq!(node_status(&base, &base), json!({}));
    }

    #[test]
    fn removed_items_and_keys_and_replaced_lists() {
        let base = json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "status": {"conditions": [cond("A", "x", "t"), cond("B", "x", "t")], "images": [1, 2]}});
        let wanted = json!({"metadata": {"labels": {"a": "1", "c": "3"}}, "status": {"conditions": [cond("A", "x", "t")], "images": [2]}});
        assert_eq!(
            two_way(&base, &wanted),
            json!({
                "metadata": {"labels": {"b": null, "c": "3"}},
                "status": {
                    "$setElementOrder/conditions": [{"type": "A"}],
                    "conditions": [{"$patch": "delete", "type": "B"}],
                    "images": [2],
                },
            })
        );
    }

    /// The patch as made from the whole Nodes, every part serialised.
    fn from_whole(base: &Node, wanted: &Node) -> String {
        let json = |n: &Node| serde_json::to_value(n).unwrap();
        html_escaped(&node_status(&json(base), &json(wanted)).to_string())
    }

    #[test]
    fn the_bytes_leave_out_only_what_both_nodes_have_alike() {
        use crate::objects::{ContainerImage, NodeAddress, NodeCondition, Time};
        use crate::time::WallTime;
        use std::sync::Arc;
        let at = |s: i64| Time::at(WallTime(s * 1000));
        let mut base = Node::new("node-1");
        base.metadata.labels.insert("kubernetes.io/hostname".into(), "node-1".into());
        base.spec = crate::shared::Shared::new(Default::default());
        base.status.capacity = Arc::new([("cpu".to_string(), "2".to_string())].into());
        base.status.allocatable = base.status.capacity.clone();
        base.status.addresses.push(NodeAddress { type_: "InternalIP".into(), address: "10.0.0.1".into() });
        base.status.images = Arc::new(vec![ContainerImage { names: vec!["pause<3.10>".into()], size_bytes: 1 }]);
        for ty in ["MemoryPressure", "Ready"] {
            base.status.conditions.push(NodeCondition::new(ty, "False", at(1), at(1), "R", "m"));
        }
        let heartbeat = |n: &Node| {
            let mut n = n.clone();
            for c in &mut n.status.conditions {
                c.last_heartbeat_time = at(11);
            }
            n
        };
        let mut changes: Vec<(&str, Node)> = vec![("nothing", base.clone()), ("heartbeats", heartbeat(&base))];
        let mut n = heartbeat(&base);
        n.status.conditions[1].set("True", "KubeletReady", "kubelet is posting ready status", at(11));
        changes.push(("a condition", n));
        let mut n = base.clone();
        n.status.addresses[0].address = "10.0.0.2".into();
        changes.push(("addresses", n));
        let mut n = base.clone();
        n.status.images = Arc::new(vec![]);
        changes.push(("images gone", n));
        let mut n = base.clone();
        n.metadata.labels.insert("a".into(), "b".into());
        changes.push(("a label", n));
        let mut n = base.clone();
        n.spec = crate::shared::Shared::new(crate::objects::NodeSpec { unschedulable: true, ..Default::default() });
        changes.push(("the spec", n));
        let mut n = heartbeat(&base);
        n.status.node_info = Arc::new(crate::objects::NodeSystemInfo { boot_id: "b".into(), ..Default::default() });
        n.status.conditions.pop();
        changes.push(("boot and a condition gone", n));
        for (what, wanted) in &changes {
            for (b, w) in [(&base, wanted), (wanted, &base)] {
                assert_eq!(node_status_bytes(b, w), from_whole(b, w), "{what}");
            }
        }
        assert_eq!(node_status_bytes(&base, &base), "{}");
        assert!(node_status_bytes(&base, &changes[3].1).contains("10.0.0.2"));
    }

    #[test]
    fn changed_addresses_are_replaced_whole() {
        let base = json!({"status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.1"}]}});
        let wanted = json!({"status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.2"}]}});
        assert_eq!(
            node_status(&base, &wanted),
            json!({"status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.2"}, {"$patch": "replace"}]}})
        );
    }
}
