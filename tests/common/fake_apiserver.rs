//! The fake API server of the kubectl parity test (`tests/it/kubectl_parity.rs`): a small HTTP
//! server on 127.0.0.1 that serves the simulation's objects, one moment per `/m/ID/` prefix, at the
//! API paths kubectl asks for (discovery, Nodes, Pods by field selector, Events, Leases,
//! server-side Tables), and replays a changing command's answers.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use nodeline::render::kubectl_printer::Cluster;
use nodeline::render::kubectl_printer::get::Table;
use nodeline::sim::WallTime;
use nodeline::sim::objects::{Kind, Object};
use serde_json::{Value, json};

/// The real clock now, as the simulation's wall time.
pub(crate) fn real_now() -> WallTime {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970");
    WallTime(d.as_micros() as i64)
}

pub(crate) struct Served {
    pub(crate) cluster: Cluster,
    /// The instant the server's Tables count AGE to while a command runs (a real API server
    /// uses its clock at each response; one instant per command keeps a command's several
    /// Tables consistent with nodeline's single rendering).
    pub(crate) table_now: Mutex<Option<WallTime>>,
    /// For a changing command (`cordon`, `drain`): the answers the simulation's kubectl got, in
    /// order, by method and path, replayed to the real kubectl; and what it asked for.
    pub(crate) replay: Option<Mutex<Vec<(String, u16, Value)>>>,
    /// What the command asked for: method, path and query.
    pub(crate) asked: Mutex<Vec<String>>,
    /// The resourceVersion a paged list's `continue` tokens carry (the simulation's store's).
    pub(crate) list_rv: u64,
}

impl Served {
    pub(crate) fn new(cluster: Cluster) -> Served {
        Served { cluster, table_now: Mutex::new(None), replay: None, asked: Mutex::new(Vec::new()), list_rv: 0 }
    }
}

#[derive(Default)]
pub(crate) struct State {
    pub(crate) moments: Mutex<HashMap<usize, Arc<Served>>>,
    /// Requests nobody could answer, for the failure message.
    pub(crate) unknown: Mutex<Vec<String>>,
    pub(crate) user_agents: Mutex<Vec<String>>,
}

pub(crate) struct Server {
    pub(crate) port: u16,
    pub(crate) state: Arc<State>,
}

impl Server {
    pub(crate) fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(State::default());
        let s = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = handle(stream, &s);
                });
            }
        });
        Server { port, state }
    }
}

fn status(code: u16, reason: &str, message: String, details: Option<Value>) -> (u16, Value) {
    let mut v = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": reason, "code": code,
    });
    if let Some(d) = details {
        v["details"] = d;
    }
    (code, v)
}

fn handle(stream: TcpStream, state: &State) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut accept = String::new();
    let mut length = 0;
    let mut content_type = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            match k.to_ascii_lowercase().as_str() {
                "accept" => accept = v.trim().to_string(),
                "user-agent" => state.user_agents.lock().unwrap().push(v.trim().to_string()),
                "content-type" => content_type = v.trim().to_string(),
                "content-length" => length = v.trim().parse().unwrap_or(0),
                _ => {}
            }
        }
    }
    let mut sent = vec![0; length];
    reader.read_exact(&mut sent)?;
    let sent: Option<Value> = serde_json::from_slice(&sent).ok();
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let sent = sent.as_ref().map(|body| (content_type.as_str(), body));
    let (code, body) = route(state, method, target, &accept, sent);
    let body = body.to_string();
    let mut out = stream;
    if target.contains("watch=true") && code == 200 {
        // A watch stays open after its event, as the API server's does, until the client goes.
        write!(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{body}\n")?;
        out.flush()?;
        let mut rest = Vec::new();
        let _ = reader.read_to_end(&mut rest);
        return Ok(());
    }
    write!(
        out,
        "HTTP/1.1 {code} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        if code == 200 { "OK" } else { "Error" },
        body.len()
    )?;
    out.flush()
}

/// `/m/ID/rest?query` → the moment, `/rest` and the decoded query.
/// `sent` is the request's JSON body, if any, with its content type.
fn route(state: &State, method: &str, target: &str, accept: &str, sent: Option<(&str, &Value)>) -> (u16, Value) {
    let unknown = |why: &str| {
        state.unknown.lock().unwrap().push(format!("{method} {target} ({why})"));
        status(404, "NotFound", "the server could not find the requested resource".into(), None)
    };
    let Some(rest) = target.strip_prefix("/m/") else { return unknown("no moment prefix") };
    let (id, rest) = rest.split_once('/').unwrap_or((rest, ""));
    let Some(served) = id.parse().ok().and_then(|id: usize| state.moments.lock().unwrap().get(&id).cloned()) else {
        return unknown("unknown moment");
    };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let path = format!("/{path}");
    let params: HashMap<String, String> =
        query.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_string(), unescape(v))).collect();
    if let Some(replay) = &served.replay
        && discovery(&path).is_none()
        && path != "/version"
    {
        let key = format!("{method} {path}");
        // `timeout=10s` is the test's `--request-timeout`, which nodeline's kubectl does not send.
        let query: Vec<&str> = query.split('&').filter(|kv| !kv.is_empty() && *kv != "timeout=10s").collect();
        let body = sent.map(|(ct, b)| format!(" [{ct}] {b}")).unwrap_or_default();
        served.asked.lock().unwrap().push(format!("{method} {}?{}{body}", path.trim_end_matches('/'), query.join("&")));
        let mut answers = replay.lock().unwrap();
        // The next answer recorded for this request; the last one again once they run out (a
        // poll that came once more than in the simulation).
        let next = answers.iter().position(|(k, _, _)| *k == key);
        let last = answers.iter().rposition(|(k, _, _)| k.starts_with('#') && k[1..] == key);
        match (next, last) {
            (Some(i), _) => {
                let (_, code, body) = answers[i].clone();
                answers[i].0.insert(0, '#');
                if !body.is_null() {
                    return (code, body);
                }
            }
            (None, Some(i)) if !answers[i].2.is_null() => return (answers[i].1, answers[i].2.clone()),
            _ => {}
        }
    }
    // A DELETE the simulation did not answer: only of an object that does not exist (below).
    if method != "GET" && method != "DELETE" {
        return unknown("not a GET");
    }
    let table = accept.contains("as=Table");
    match discovery(&path) {
        Some(v) => return (200, v),
        None if path == "/version" => {
            return (200, json!({"major": "1", "minor": "32", "gitVersion": "v1.32.4", "platform": "linux/amd64"}));
        }
        None => {}
    }
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    // /api/v1/[namespaces/NS/]RESOURCE[/NAME] or /apis/coordination.k8s.io/v1/...
    let (rest, group_ok): (&[&str], bool) = match segs.as_slice() {
        ["api", "v1", rest @ ..] => (rest, true),
        ["apis", group, "v1", rest @ ..] if Kind::ALL.iter().any(|k| k.group() == *group) => (rest, true),
        _ => (&[][..], false),
    };
    if !group_ok || rest.is_empty() {
        return unknown("no such path");
    }
    let (namespace, rest) = match rest {
        ["namespaces", ns, rest @ ..] => (Some(*ns), rest),
        _ => (None, rest),
    };
    let Some(resource) = rest.first().and_then(|r| Kind::ALL.iter().copied().find(|x| x.plural() == *r)) else {
        return unknown("no such resource");
    };
    let group_of_path = if segs[0] == "apis" { segs[1] } else { "" };
    if resource.group() != group_of_path {
        return unknown("resource in the wrong group");
    }
    let cluster = &served.cluster;
    let now = served.table_now.lock().unwrap().unwrap_or_else(real_now);
    let all: Vec<Object> = cluster
        .objects()
        .into_iter()
        .filter(|o| o.kind() == resource)
        .filter(|o| namespace.is_none_or(|ns| o.meta().namespace == ns))
        .collect();
    match rest {
        [_, name] => match all.into_iter().find(|o| o.meta().name == *name) {
            Some(_) if method == "DELETE" => unknown("a DELETE the simulation did not answer"),
            Some(o) if table => (200, table_json(resource, &[o], now)),
            Some(o) => (200, o.to_json()),
            None => status(
                404,
                "NotFound",
                format!("{} \"{name}\" not found", resource.group_resource()),
                Some(json!({"name": name, "group": resource.group(), "kind": resource.plural()})),
            ),
        },
        [_] if method == "DELETE" => unknown("a DELETE of a collection"),
        [_] => {
            let fields = match params.get("fieldSelector").map(|s| field_filter(s)) {
                None => Vec::new(),
                Some(Ok(terms)) => terms,
                Some(Err(e)) => return status(400, "BadRequest", e, None),
            };
            let labels = match params.get("labelSelector").map(|s| nodeline::sim::selector::Selector::parse(s)) {
                None => nodeline::sim::selector::Selector::default(),
                Some(Ok(s)) => s,
                Some(Err(e)) => return status(400, "BadRequest", e, None),
            };
            if params.get("watch").is_some_and(|w| w == "true") {
                // A watch by name: the Pod's DELETED event, then the end of the stream.
                return match selected_one(all, &fields) {
                    Some(o) => (200, json!({"type": "DELETED", "object": o.to_json()})),
                    None => unknown("a watch of nothing"),
                };
            }
            let limit: usize = params.get("limit").and_then(|l| l.parse().ok()).unwrap_or(0);
            let start = params.get("continue").map(|t| continue_start(t)).unwrap_or_default();
            let (selected, next) = page(all, &fields, &labels, limit, &start);
            let selected: Vec<Object> = selected;
            if table {
                (200, table_json(resource, &selected, now))
            } else {
                let items: Vec<Value> = selected
                    .iter()
                    .map(|o| {
                        // A list's items carry no kind or apiVersion on the wire.
                        let mut v = o.to_json();
                        if let Some(m) = v.as_object_mut() {
                            m.remove("kind");
                            m.remove("apiVersion");
                        }
                        v
                    })
                    .collect();
                let api_version =
                    if resource.group().is_empty() { "v1".to_string() } else { format!("{}/v1", resource.group()) };
                let rv = if served.list_rv > 0 { served.list_rv.to_string() } else { "9999".into() };
                let mut metadata = json!({"resourceVersion": rv});
                if let Some(last) = next {
                    metadata["continue"] = json!(continue_token(served.list_rv, &last));
                }
                (
                    200,
                    json!({"kind": format!("{}List", resource.as_str()), "apiVersion": api_version,
                           "metadata": metadata, "items": items}),
                )
            }
        }
        _ => unknown("no such path"),
    }
}

/// The one object a watch's field selector names.
fn selected_one(all: Vec<Object>, fields: &[Term]) -> Option<Object> {
    all.into_iter().find(|o| fields.iter().all(|t| t.matches(&o.to_json())))
}

/// One page of a list, as etcd3's `GetList` reads it: keys `namespace/name` in byte order from
/// `start`, at most `limit` selected (0: all); while a key remains after a full page, the last key
/// read, for the next page's token.
fn page(
    all: Vec<Object>,
    fields: &[Term],
    labels: &nodeline::sim::selector::Selector,
    limit: usize,
    start: &str,
) -> (Vec<Object>, Option<String>) {
    let mut keyed: Vec<(String, Object)> =
        all.into_iter().map(|o| (format!("{}/{}", o.meta().namespace, o.meta().name), o)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    let mut last = None;
    for (key, o) in keyed.into_iter().filter(|(k, _)| k.as_str() >= start) {
        if limit > 0 && out.len() >= limit {
            return (out, last);
        }
        let json = o.to_json();
        if fields.iter().all(|t| t.matches(&json)) && labels.matches(&o.meta().labels) {
            out.push(o);
        }
        last = Some(key);
    }
    (out, None)
}

const BASE64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `storage.EncodeContinue(last + "\x00", prefix, rv)`.
fn continue_token(rv: u64, last: &str) -> String {
    // Go's field order (`v`, `rv`, `start`), which a `json!` map would sort.
    let start = serde_json::to_string(&format!("{last}\u{0}")).unwrap();
    let json = format!(r#"{{"v":"meta.k8s.io/v1","rv":{rv},"start":{start}}}"#).into_bytes();
    let mut out = String::new();
    for chunk in json.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(BASE64URL[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// The start key and resourceVersion of a token `continue_token` made.
pub(crate) fn decode_continue(token: &str) -> Option<(String, u64)> {
    let mut bytes = Vec::new();
    for chunk in token.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= (BASE64URL.iter().position(|b| b == c)? as u32) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            bytes.push((n >> (16 - 8 * i)) as u8);
        }
    }
    let v: Value = serde_json::from_slice(&bytes).ok()?;
    Some((v["start"].as_str()?.to_string(), v["rv"].as_u64()?))
}

fn continue_start(token: &str) -> String {
    decode_continue(token).map(|(start, _)| start).unwrap_or_default()
}

pub(crate) fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One field selector term.
struct Term {
    path: Vec<String>,
    value: String,
    equal: bool,
}

impl Term {
    fn matches(&self, v: &Value) -> bool {
        let mut cur = v;
        for p in &self.path {
            cur = &cur[p.as_str()];
        }
        let actual = cur.as_str().unwrap_or("");
        (actual == self.value) == self.equal
    }
}

fn field_filter(selector: &str) -> Result<Vec<Term>, String> {
    let known = [
        "metadata.name",
        "metadata.namespace",
        "spec.nodeName",
        "status.phase",
        "involvedObject.kind",
        "involvedObject.name",
        "involvedObject.namespace",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.fieldPath",
        "reason",
        "type",
    ];
    selector
        .split(',')
        .filter(|t| !t.is_empty())
        .map(|term| {
            let (key, value, equal) = if let Some((k, v)) = term.split_once("!=") {
                (k, v, false)
            } else if let Some((k, v)) = term.split_once("==") {
                (k, v, true)
            } else if let Some((k, v)) = term.split_once('=') {
                (k, v, true)
            } else {
                return Err(format!("invalid selector: '{selector}'"));
            };
            if !known.contains(&key) {
                return Err(format!("field label not supported: {key}"));
            }
            Ok(Term { path: key.split('.').map(String::from).collect(), value: value.replace('\\', ""), equal })
        })
        .collect()
}

fn discovery(path: &str) -> Option<Value> {
    let res = |r: Kind| {
        json!({
            "name": r.plural(), "singularName": r.singular(), "namespaced": r.namespaced(), "kind": r.as_str(),
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
            "shortNames": r.short_names(),
        })
    };
    // The kinds of the table served at a group version, in the table's order.
    let kinds_of = |group_version: &str| -> Vec<Value> {
        Kind::ALL.iter().filter(|k| k.info().api_version == group_version).map(|k| res(*k)).collect()
    };
    let group = |name: &str| {
        json!({"name": name, "versions": [{"groupVersion": format!("{name}/v1"), "version": "v1"}],
               "preferredVersion": {"groupVersion": format!("{name}/v1"), "version": "v1"}})
    };
    Some(match path {
        "/api" => json!({"kind": "APIVersions", "versions": ["v1"],
                         "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]}),
        "/apis" => json!({"kind": "APIGroupList", "apiVersion": "v1",
                          "groups": [group("coordination.k8s.io"), group("events.k8s.io"), group("storage.k8s.io"), group("policy"), group("apps"), group("scheduling.k8s.io"), group("certificates.k8s.io")]}),
        "/api/v1" => {
            let mut resources = kinds_of("v1");
            resources.push(json!({"name": "pods/eviction", "singularName": "", "namespaced": true,
                                  "group": "policy", "version": "v1", "kind": "Eviction", "verbs": ["create"]}));
            json!({"kind": "APIResourceList", "groupVersion": "v1", "resources": resources})
        }
        "/apis/events.k8s.io/v1" => json!({"kind": "APIResourceList", "apiVersion": "v1",
                            "groupVersion": "events.k8s.io/v1", "resources": [res(Kind::Event)]}),
        _ => {
            let group_version = path.strip_prefix("/apis/")?;
            let resources = kinds_of(group_version);
            if resources.is_empty() {
                return None;
            }
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": resources})
        }
    })
}

/// The Table the API server sends for `objects`.
fn table_json(resource: Kind, objects: &[Object], now: WallTime) -> Value {
    let table = Table::of(resource, objects, now);
    let columns: Vec<Value> = table
        .columns
        .iter()
        .map(|c| {
            json!({"name": c.name, "type": c.type_, "format": if c.is_name { "name" } else { "" },
                   "description": "", "priority": c.priority})
        })
        .collect();
    let rows: Vec<Value> = table
        .rows
        .iter()
        .zip(objects)
        .map(|(r, o)| {
            // Cells are JSON of the column's type: integers are numbers (a CSINode's DRIVERS).
            let cells: Vec<Value> = r
                .cells
                .iter()
                .zip(table.columns)
                .map(|(cell, c)| match (c.type_, cell.parse::<i64>()) {
                    ("integer", Ok(n)) => json!(n),
                    _ => json!(cell),
                })
                .collect();
            json!({"cells": cells, "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                                              "metadata": o.to_json()["metadata"].clone()}})
        })
        .collect();
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {"resourceVersion": "9999"},
           "columnDefinitions": columns, "rows": rows})
}
