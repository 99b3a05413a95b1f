//! JSON exactly as `kubectl get -o json` prints it.
//!
//! kubectl's `JSONPrinter` (k8s.io/cli-runtime `pkg/printers/json.go`) calls
//! `json.MarshalIndent(obj, "", "    ")` on unstructured maps and appends a newline. So:
//!
//! * four spaces of indentation, `"key": value`, empty objects and arrays as `{}` and `[]`;
//! * object keys sorted bytewise (Go sorts map keys), whatever order the value holds them in;
//! * strings escaped as `encoding/json` does with HTML escaping on: `"`, `\`, `\b`, `\f`, `\n`,
//!   `\r`, `\t` by name, other control characters as `\u00XX` (lowercase hex), `<`, `>`, `&` as
//!   `\u003c`, `\u003e`, `\u0026`, and U+2028, U+2029 as `\u2028`, `\u2029`;
//! * integers that fit an `int64` as integers; anything else as Go prints a `float64`.

use serde_json::Value;

use super::gofmt;

const INDENT: &str = "    ";

/// `value` as `kubectl -o json` prints it, with the final newline.
pub fn to_string_pretty(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    out.push('\n');
    out
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str(INDENT);
    }
}

fn write_value(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&gofmt::json_number(n)),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (key, item)) in sorted(map).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_string(out, key);
                out.push_str(": ");
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// A map's entries with the keys in byte order, as Go sorts map keys: serde_json's `Map` (a
/// `BTreeMap` of `String`s without the `preserve_order` feature) already iterates so.
fn sorted(map: &serde_json::Map<String, Value>) -> serde_json::map::Iter<'_> {
    map.iter()
}

/// `value` as Go's `json.Marshal` writes a map: no spaces, keys sorted, HTML escaping on (the
/// request bodies clients build from maps, such as patches).
pub fn to_string_compact(value: &Value) -> String {
    let mut out = String::new();
    write_compact(&mut out, value);
    out
}

fn write_compact(out: &mut String, value: &Value) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in sorted(map).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_compact(out, item);
            }
            out.push('}');
        }
        scalar => write_value(out, scalar, 0),
    }
}

/// `serde_json`'s compact text of a document as Go's `encoding/json` writes it (the simulation's
/// [`crate::sim::patch::html_escaped`]; a request's JSON body is kept as `serde_json`'s text, and
/// this shows it without parsing it).
pub use crate::sim::patch::html_escaped;

/// A JSON string literal as Go's `encoding/json` writes it (HTML escaping on).
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\0'..='\u{1f}' => {
                let b = c as u32 as u8;
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `serde_json`'s compact text, HTML-escaped, is what Go writes: every escape, key order,
    /// integers.
    #[test]
    fn serde_json_compact_text_html_escaped_is_gos() {
        let v = json!({
            "z": "<a href=\"x\">&</a> \u{2028}\u{2029} é \\ \u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f}",
            "b": [1, -2, 9_007_199_254_740_993_i64, true, null, {}, []],
            "a": { "y": [{ "k": "v" }], "x": null },
            "spec": { "taints": [{ "key": "node.kubernetes.io/unreachable", "effect": "NoExecute" }] }
        });
        let text = serde_json::to_string(&v).expect("serializes");
        assert_eq!(html_escaped(&text), to_string_compact(&v));
        assert!(html_escaped(&text).contains("\\u003ca href=\\\"x\\\"\\u003e\\u0026"), "{}", html_escaped(&text));
    }

    #[test]
    fn indents_four_spaces_and_sorts_keys() {
        let v = json!({"b": [1, {}], "a": {"y": [], "x": null}});
        assert_eq!(
            to_string_pretty(&v),
            "{\n    \"a\": {\n        \"x\": null,\n        \"y\": []\n    },\n    \"b\": [\n        1,\n        {}\n    ]\n}\n"
        );
    }

    #[test]
    fn maps_iterate_in_byte_order() {
        let mut m = serde_json::Map::new();
        for k in ["b", "a", "B", "_", "a1", "a10", "a9", "é"] {
            m.insert(k.into(), Value::Null);
        }
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        let mut sorted = keys.clone();
        sorted.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        assert_eq!(keys, sorted, "the JSON printers rely on it");
    }

    #[test]
    fn compact_is_go_marshal_of_a_map() {
        let v = json!({"status": {"b": [1, "<x>"], "a": null}, "$setElementOrder/c": []});
        assert_eq!(to_string_compact(&v), r#"{"$setElementOrder/c":[],"status":{"a":null,"b":[1,"\u003cx\u003e"]}}"#);
    }

    #[test]
    fn escapes_like_go() {
        let mut s = String::new();
        write_string(&mut s, "<a&b>\u{8}\u{c}\u{1}\u{7f}\u{2028}é\"\\");
        assert_eq!(s, r#""\u003ca\u0026b\u003e\b\f\u0001\u{7f}\u2028é\"\\""#.replace("\\u{7f}", "\u{7f}"));
    }
}
