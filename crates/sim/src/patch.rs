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

/// The bytes `nodeutil.PatchNodeStatus` sends from `base` to `wanted`: [`node_status`] as Go's
/// `json.Marshal` writes it (compact, keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped).
/// The kubelet's `"failed to patch status %q …"` error quotes them.
pub fn node_status_bytes(base: &crate::objects::Node, wanted: &crate::objects::Node) -> String {
    let json = |n: &crate::objects::Node| serde_json::to_value(n).unwrap_or(Value::Null);
    let patch = node_status(&json(base), &json(wanted));
    html_escaped(&patch.to_string())
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
