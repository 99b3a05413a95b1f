//! kubectl's generic describer (`pkg/describe/describe.go`, `genericDescriber`,
//! `printUnstructuredContent`, `smartLabelFor`), which kubectl 1.32 uses for a kind without a
//! describer of its own, such as `storage.k8s.io` `VolumeAttachment`: name, namespace, labels
//! and annotations, then every other field of the object as the API serves it, keys in byte
//! order, names turned into words (`persistentVolumeName` → `Persistent Volume Name`), then the
//! Events about the object.

use serde_json::{Map, Value};

use super::Cluster;
use super::describe::{Prefix, annotations, describe_events, label_lines, multiline, search_events};
use super::tabwriter::TabWriter;
use crate::sim::objects::ObjectMeta;

/// The fields printed above the rest, or never.
const SKIPPED: &[&str] =
    &[".metadata.managedFields", ".metadata.name", ".metadata.namespace", ".metadata.labels", ".metadata.annotations"];

/// `kubectl describe KIND NAME` for an object of `kind` with `meta`, served as `json`.
pub fn describe_generic(kind: &str, meta: &ObjectMeta, json: &Value, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Namespace:\t", &meta.namespace, "\n"]);
    multiline(&mut w, "Labels", label_lines(&meta.labels));
    annotations(&mut w, &meta.annotations);
    if let Some(content) = json.as_object() {
        content_lines(&mut w, 0, content, "");
    }
    if show_events {
        let mut events = search_events(cluster, kind, meta);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}

/// `printUnstructuredContent`.
fn content_lines(w: &mut Prefix, level: usize, content: &Map<String, Value>, skip_prefix: &str) {
    // `sort.Strings`: serde_json's map (without `preserve_order`) already iterates its keys in
    // byte order.
    for field in content.keys() {
        let path = [skip_prefix, ".", field].concat();
        if SKIPPED.contains(&path.as_str()) {
            continue;
        }
        let label = smart_label(field);
        match &content[field] {
            Value::Object(m) => {
                w.put(level, &[&label, ":\n"]);
                content_lines(w, level + 1, m, &path);
            }
            Value::Array(items) => {
                w.put(level, &[&label, ":\n"]);
                for item in items {
                    match item {
                        Value::Object(m) => content_lines(w, level + 1, m, &path),
                        other => w.put(level + 1, &[&go_value(other), "\n"]),
                    }
                }
            }
            other => w.put(level, &[&label, ":\t", &go_value(other), "\n"]),
        }
    }
}

/// Go's `%v` of a decoded JSON scalar.
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        // Maps and lists are printed field by field, never as a scalar.
        Value::Array(_) | Value::Object(_) => String::new(),
    }
}

/// `smartLabelFor`: a field of letters and dashes split into words at case changes
/// (`camelcase.Split`), each capitalised, API/URL/UID/OSB/GUID in capitals; any other field
/// as it is.
///
/// The API's field names are ASCII; letters are taken as ASCII letters (Go's `unicode.IsLetter`
/// would also take other scripts' letters), which keeps Unicode's tables out of the page.
pub fn smart_label(field: &str) -> String {
    if field.bytes().any(|c| !c.is_ascii_alphabetic() && c != b'-') {
        return field.to_string();
    }
    camel_split(field)
        .into_iter()
        .filter(|part| part != "_")
        .map(|mut part| {
            let upper = part.to_ascii_uppercase();
            if ["API", "URL", "UID", "OSB", "GUID"].contains(&upper.as_str()) {
                upper
            } else {
                part[..1].make_ascii_uppercase();
                part
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `github.com/fatih/camelcase.Split`: runs of lower case, upper case, digits and other
/// characters, an upper-case run's last letter moved to a lower-case run that follows it
/// (`PDFLoader` → `PDF`, `Loader`).
fn camel_split(s: &str) -> Vec<String> {
    let class = |c: u8| {
        if c.is_ascii_lowercase() {
            1
        } else if c.is_ascii_uppercase() {
            2
        } else if c.is_ascii_digit() {
            3
        } else {
            4
        }
    };
    // Bytes: [`smart_label`] calls this only on ASCII.
    let mut runs: Vec<Vec<u8>> = Vec::new();
    let mut last = 0;
    for c in s.bytes() {
        let k = class(c);
        match runs.last_mut() {
            Some(run) if k == last => run.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        if runs[i][0].is_ascii_uppercase()
            && runs[i + 1][0].is_ascii_lowercase()
            && let Some(moved) = runs[i].pop()
        {
            runs[i + 1].insert(0, moved);
        }
    }
    runs.into_iter().filter(|r| !r.is_empty()).map(|r| String::from_utf8_lossy(&r).into_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_labels_split_camel_case_like_kubectl() {
        assert_eq!(smart_label("apiVersion"), "API Version");
        assert_eq!(smart_label("uid"), "UID");
        assert_eq!(smart_label("persistentVolumeName"), "Persistent Volume Name");
        assert_eq!(smart_label("PDFLoader"), "PDF Loader");
        assert_eq!(smart_label("kubernetes.io/x"), "kubernetes.io/x");
        assert_eq!(smart_label("ipv6"), "ipv6");
        assert_eq!(smart_label("a-b"), "A - B");
    }

    #[test]
    fn nested_fields_indent_and_lists_print_their_items() {
        let meta = ObjectMeta { name: "va".into(), ..ObjectMeta::default() };
        let json = serde_json::json!({
            "kind": "VolumeAttachment",
            "Zed": null,
            "metadata": {"name": "va", "finalizers": ["f1"], "resourceVersion": "7"},
            "spec": {"nodeName": "node-1", "source": {"persistentVolumeName": "pv"}},
            "status": {"attached": true},
        });
        let text = describe_generic("VolumeAttachment", &meta, &json, &Cluster::default(), false);
        assert_eq!(
            text,
            "Name:         va\nNamespace:    \nLabels:       <none>\nAnnotations:  <none>\nZed:          <nil>\nKind:         \
             VolumeAttachment\nMetadata:\n  Finalizers:\n    f1\n  Resource Version:  7\nSpec:\n  Node Name:  \
             node-1\n  Source:\n    Persistent Volume Name:  pv\nStatus:\n  Attached:  true\n"
        );
    }
}
