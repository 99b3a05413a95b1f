//! Parity with the real kubectl: a small HTTP server on 127.0.0.1 serves the simulation's objects
//! at the API paths kubectl asks for (discovery, Nodes, Pods by field selector, Events, Leases,
//! server-side Tables), and the test runs the installed `kubectl` against it and compares its
//! output with nodeline's renderers for the same objects, for every step of every chapter and a
//! set of failure moments.
//!
//! Clocks: each moment is simulated with its epoch chosen so that the moment's wall-clock time is
//! the real time now (whole seconds earlier at most), so the ages kubectl computes from the real
//! clock are the ages at the moment. kubectl counts `describe` ages itself, at an instant between
//! the process's start and exit: nodeline's rendering must equal its rendering at one of the
//! instants in that span where an age changes. `get` ages come from the server's Table (as with a
//! real API server), computed at the instant the server answers, which the server records.
//!
//! kubectl prints times in its local zone; it runs with `TZ=UTC`. If `kubectl` is not installed
//! the test says so and passes, unless `NODELINE_REQUIRE_KUBECTL=1` (CI), where it fails.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use nodeline::render::json;
use nodeline::render::kubectl_printer::get::Table;
use nodeline::render::kubectl_printer::{Cluster, command, describe};
use nodeline::sim::objects::{Kind, Node, Object};
use nodeline::sim::{Action, Chapter, Config, SimTime, Timeline, WallTime, parse_actions};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Finding kubectl

fn kubectl_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NODELINE_KUBECTL") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join("kubectl")).find(|p| p.is_file())
}

fn require_kubectl() -> Option<PathBuf> {
    let found = kubectl_path();
    if found.is_none() {
        if std::env::var("NODELINE_REQUIRE_KUBECTL").is_ok_and(|v| v == "1") {
            panic!("NODELINE_REQUIRE_KUBECTL=1 but no kubectl on PATH (or NODELINE_KUBECTL): the parity test must run");
        }
        // Straight to the process's stderr, past the test harness's capture, so the skip is seen.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED kubectl_parity: no kubectl on PATH or in NODELINE_KUBECTL (install kubectl 1.32; set \
             NODELINE_REQUIRE_KUBECTL=1 to make this a failure)"
        );
    }
    found
}

// ---------------------------------------------------------------------------------------------
// Time

fn real_now() -> WallTime {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970");
    WallTime(d.as_micros() as i64)
}

/// Every timestamp in the objects (RFC 3339 strings anywhere in their JSON).
fn timestamps(cluster: &Cluster) -> Vec<WallTime> {
    fn walk(v: &Value, out: &mut Vec<WallTime>) {
        match v {
            Value::String(s) => {
                if let Some(t) = WallTime::parse_rfc3339(s) {
                    out.push(t);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for o in cluster.objects() {
        walk(&o.to_json(), &mut out);
    }
    out
}

/// The instants in `(from, to]` where an age counted from one of `stamps` ticks over, and `from`.
fn tick_instants(stamps: &[WallTime], from: WallTime, to: WallTime) -> Vec<WallTime> {
    let mut out = vec![from];
    for s in stamps {
        let rem = (from.0 - s.0).rem_euclid(1_000_000);
        let mut b = from.0 + (1_000_000 - rem);
        while b <= to.0 {
            out.push(WallTime(b));
            b += 1_000_000;
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

// ---------------------------------------------------------------------------------------------
// The API server

struct Served {
    cluster: Cluster,
    /// The instant the server's Tables count AGE to while a command runs (a real API server
    /// uses its clock at each response; one instant per command keeps a command's several
    /// Tables consistent with nodeline's single rendering).
    table_now: Mutex<Option<WallTime>>,
    /// For a changing command (`cordon`, `drain`): the answers the simulation's kubectl got, in
    /// order, by method and path, replayed to the real kubectl; and what it asked for.
    replay: Option<Mutex<Vec<(String, u16, Value)>>>,
    /// What the command asked for: method, path and query.
    asked: Mutex<Vec<String>>,
    /// The resourceVersion a paged list's `continue` tokens carry (the simulation's store's).
    list_rv: u64,
}

impl Served {
    fn new(cluster: Cluster) -> Served {
        Served { cluster, table_now: Mutex::new(None), replay: None, asked: Mutex::new(Vec::new()), list_rv: 0 }
    }
}

#[derive(Default)]
struct State {
    moments: Mutex<HashMap<usize, Arc<Served>>>,
    /// Requests nobody could answer, for the failure message.
    unknown: Mutex<Vec<String>>,
    user_agents: Mutex<Vec<String>>,
}

struct Server {
    port: u16,
    state: Arc<State>,
}

impl Server {
    fn start() -> Server {
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
fn decode_continue(token: &str) -> Option<(String, u64)> {
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

fn unescape(s: &str) -> String {
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
                          "groups": [group("coordination.k8s.io"), group("events.k8s.io"), group("storage.k8s.io"), group("policy"), group("apps")]}),
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

// ---------------------------------------------------------------------------------------------
// Running kubectl

struct Kubectl {
    path: PathBuf,
    dir: PathBuf,
    port: u16,
}

struct Ran {
    stdout: String,
    stderr: String,
    code: i32,
    started: WallTime,
    ended: WallTime,
}

impl Kubectl {
    fn kubeconfig(&self, id: usize) -> PathBuf {
        let path = self.dir.join(format!("kubeconfig-{id}"));
        if !path.exists() {
            let text = format!(
                "apiVersion: v1\nkind: Config\nclusters:\n- name: sim\n  cluster:\n    server: http://127.0.0.1:{}/m/{id}\n\
                 contexts:\n- name: sim\n  context:\n    cluster: sim\n    user: sim\ncurrent-context: sim\nusers:\n\
                 - name: sim\n  user: {{}}\n",
                self.port
            );
            std::fs::write(&path, text).unwrap();
        }
        path
    }

    fn run(&self, id: usize, args: &[String]) -> Ran {
        let started = real_now();
        // The global flags go last: kubectl refuses flags before an unknown command's name.
        let child = Command::new(&self.path)
            .args(args)
            .arg(format!("--kubeconfig={}", self.kubeconfig(id).display()))
            .arg(format!("--cache-dir={}", self.dir.join("cache").display()))
            .arg("--request-timeout=10s")
            .env("TZ", "UTC")
            .env("HOME", &self.dir)
            .env_remove("KUBECONFIG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kubectl runs");
        let out = wait_bounded(child, args);
        let ended = real_now();
        Ran {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
            started,
            ended,
        }
    }
}

/// How long one kubectl command may take: `--request-timeout` bounds each request, but not a
/// watch the test server does not serve, which would otherwise hang the test.
const KUBECTL_TIMEOUT: Duration = Duration::from_secs(60);

/// Waits for `child` (reading its output as it comes, so a long output cannot fill the pipe),
/// killing it and failing the test with the command line after [`KUBECTL_TIMEOUT`].
fn wait_bounded(child: std::process::Child, args: &[String]) -> std::process::Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(KUBECTL_TIMEOUT) {
        Ok(out) => out.expect("kubectl's output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            let out = rx.recv().expect("kubectl ends once killed").expect("kubectl's output");
            panic!(
                "kubectl {} did not finish within {KUBECTL_TIMEOUT:?} (a request the test server does not answer?)\n\
                 stdout: {}\nstderr: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Moments

/// The fleet chapter's size here: every step happens with four nodes a zone, and kubectl's
/// output for a few nodes is as telling as for 150 (and a debug build runs it in a second).
const PARITY_FLEET: usize = 12;

struct Moment {
    label: String,
    chapter: Chapter,
    actions: Vec<Action>,
    t: SimTime,
}

fn moment(label: &str, chapter: Chapter, actions: &str, t: SimTime) -> Moment {
    let actions = if actions.is_empty() { Vec::new() } else { parse_actions(actions).expect("actions parse") };
    Moment { label: label.into(), chapter, actions, t }
}

fn moments() -> Vec<Moment> {
    let mut out = Vec::new();
    for chapter in Chapter::ALL {
        let mut tl = Timeline::new(chapter, Config { nodes: PARITY_FLEET, ..Config::default() });
        tl.run_until(SimTime::ZERO + chapter.scenario().duration);
        for (i, step) in tl.steps().into_iter().enumerate() {
            let t = step.unwrap_or_else(|| panic!("{chapter} step {} happens", i + 1));
            out.push(moment(&format!("{chapter} step {}", i + 1), chapter, "", t.moment));
        }
        out.push(moment(&format!("{chapter} end"), chapter, "", SimTime::ZERO + chapter.scenario().duration));
    }
    let s = SimTime::from_secs;
    let killed = s(120);
    for (label, after) in [("30s", 30), ("60s", 60), ("6m", 360)] {
        out.push(moment(
            &format!("kubelet dead {label}"),
            Chapter::NodeFailure,
            "",
            killed + Duration::from_secs(after),
        ));
    }
    out.push(moment("runtime down", Chapter::Registration, "stop-runtime@2m", s(150)));
    out.push(moment("runtime back", Chapter::Registration, "stop-runtime@2m,start-runtime@3m", s(200)));
    out.push(moment("network cut", Chapter::NodeFailure, "cut-network:node-1@2m", s(230)));
    out.push(moment("network cut 6m", Chapter::NodeFailure, "cut-network:node-1@2m", s(520)));
    out.push(moment("after restart", Chapter::KubeletRestart, "", s(300)));
    // A Pod with an emptyDir (and a required node affinity), for `describe pod` and `-o yaml`.
    out.push(moment("node-local cache", Chapter::Maintenance, "create-cache:node-1@30s", s(60)));
    // The returning kubelet has written the Terminating Pod's terminal status (541.7 s) and not
    // yet deleted it: `get pods` says Completed.
    out.push(moment(
        "terminal status before delete",
        Chapter::NodeFailure,
        "kill-kubelet:node-1@120s,start-kubelet:node-1@9m",
        s(541) + Duration::from_millis(750),
    ));
    out
}

/// The cluster at `m`, with an epoch that puts the moment at (just before) the real time now.
fn cluster_at(m: &Moment) -> Cluster {
    let now = real_now();
    let epoch_secs = (now.0 - m.t.as_micros() as i64).div_euclid(1_000_000);
    let config = Config { epoch: WallTime(epoch_secs * 1_000_000), nodes: PARITY_FLEET, ..Config::default() };
    let mut tl = Timeline::with_actions(m.chapter, config, &m.actions);
    tl.run_until(m.t + Duration::from_micros(1));
    Cluster::from_snapshot(&tl.at(m.t), real_now())
}

fn with_now(c: &Cluster, now: WallTime) -> Cluster {
    let mut c = c.clone();
    c.now = now;
    c
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `kubectl describe` output cut before each Node's `Name:` line.
fn per_node(text: &str) -> Vec<String> {
    let mut chunks = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.starts_with("Name:") && !chunks.last().is_some_and(String::is_empty) {
            chunks.push(String::new());
        }
        if let Some(last) = chunks.last_mut() {
            last.push_str(line);
        }
    }
    chunks
}

/// The first differing line of two texts.
fn first_difference(want: &str, got: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)).unwrap_or(0);
    format!(
        "line {}:\n  nodeline: {:?}\n  kubectl:  {:?}",
        i + 1,
        a.get(i).unwrap_or(&"<end>"),
        b.get(i).unwrap_or(&"<end>")
    )
}

/// What kind of comparison a command needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// kubectl counts ages itself, somewhere between start and exit.
    ClientAges,
    /// Ages come from the server's Table (or there are none).
    ServerAges,
    /// `-o json`: the same JSON value.
    Json,
}

fn check_one(k: &Kubectl, id: usize, served: &Served, args: &str, check: Check, failures: &mut Vec<String>) -> usize {
    let table_now = real_now();
    *served.table_now.lock().unwrap() = Some(table_now);
    let argv = words(args);
    let ran = k.run(id, &argv);
    let cluster = &served.cluster;
    let ours_at = |now: WallTime| command::run(&argv, &with_now(cluster, now));
    let ok = match check {
        Check::ClientAges => {
            // kubectl describes one Node after another, each at its own instant: every Node's
            // text must match nodeline's at one instant, the instants in order.
            let stamps = timestamps(cluster);
            let candidates: Vec<Vec<String>> = tick_instants(&stamps, ran.started, ran.ended)
                .into_iter()
                .map(|now| {
                    let o = ours_at(now);
                    let mut chunks = per_node(&o.stdout);
                    chunks.push(format!("{}\u{0}{}", o.stderr, o.code));
                    chunks
                })
                .collect();
            let mut theirs = per_node(&ran.stdout);
            theirs.push(format!("{}\u{0}{}", ran.stderr, ran.code));
            let mut from = 0;
            theirs.iter().enumerate().all(|(i, chunk)| {
                match (from..candidates.len())
                    .find(|&c| candidates[c].len() == theirs.len() && &candidates[c][i] == chunk)
                {
                    Some(c) => {
                        from = c;
                        true
                    }
                    None => false,
                }
            })
        }
        Check::ServerAges => {
            let o = ours_at(table_now);
            o.stdout == ran.stdout && o.stderr == ran.stderr && o.code == ran.code
        }
        Check::Json => {
            let o = ours_at(ran.started);
            let parsed: Result<Value, _> = serde_json::from_str(&ran.stdout);
            match (parsed, serde_json::from_str::<Value>(&o.stdout)) {
                (Ok(a), Ok(b)) => a == b && o.code == ran.code && json::to_string_pretty(&a) == ran.stdout,
                _ => false,
            }
        }
    };
    if !ok {
        let ours = ours_at(ran.started);
        if let Some(dump) = std::env::var_os("NODELINE_PARITY_DUMP") {
            let name = args.replace(['/', ' '], "_");
            let _ = std::fs::create_dir_all(&dump);
            let _ = std::fs::write(Path::new(&dump).join(format!("{id}-{name}.kubectl")), &ran.stdout);
            let _ = std::fs::write(Path::new(&dump).join(format!("{id}-{name}.nodeline")), &ours.stdout);
        }
        failures.push(format!(
            "kubectl {args}: exit {} (nodeline {})\n{}\nstderr kubectl: {:?}\nstderr nodeline: {:?}",
            ran.code,
            ours.code,
            first_difference(&ours.stdout, &ran.stdout),
            ran.stderr,
            ours.stderr,
        ));
    }
    1
}

fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "nodeline-kubectl-parity-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cleanup(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

/// The commands run at every moment: `describe node`, the tables, and every object as YAML and
/// JSON (one List, as `kubectl get nodes,leases,pods,events -A` prints it), and the CSINodes.
const PER_MOMENT: &[(&str, Check)] = &[
    ("describe node", Check::ClientAges),
    ("describe pod", Check::ClientAges),
    ("get nodes -o wide", Check::ServerAges),
    ("get pods -o wide", Check::ServerAges),
    ("get events", Check::ServerAges),
    ("get nodes,leases,pods,events -A -o yaml", Check::ServerAges),
    ("get nodes,leases,pods,events -A -o json", Check::Json),
    ("get csinodes", Check::ServerAges),
    ("get csinodes -o wide", Check::ServerAges),
    ("get csinode node-1 -o yaml", Check::ServerAges),
    ("describe csinode", Check::ClientAges),
];

/// Commands run once, at a moment with two Nodes, Pods and Events: names, errors, options.
const ONCE: &[(&str, Check)] = &[
    ("get nodes", Check::ServerAges),
    ("get lease -n kube-node-lease", Check::ServerAges),
    ("get lease -n kube-node-lease -o yaml", Check::ServerAges),
    ("get pods -o yaml", Check::ServerAges),
    ("describe node node-1", Check::ClientAges),
    ("describe node node", Check::ClientAges),
    ("describe node nope", Check::ClientAges),
    ("describe nodes/node-2 --show-events=false", Check::ClientAges),
    ("describe pod nope", Check::ClientAges),
    ("describe pod web --show-events=false", Check::ClientAges),
    ("describe pods -A", Check::ClientAges),
    ("get node node-1 -o yaml", Check::ServerAges),
    ("get node node-2 -o json", Check::Json),
    ("get node node-1 nope", Check::ServerAges),
    ("get node/node-2", Check::ServerAges),
    ("get nodes,leases -A", Check::ServerAges),
    ("get no,po --no-headers", Check::ServerAges),
    ("get pods -A -o wide", Check::ServerAges),
    ("get events -A -o wide", Check::ServerAges),
    ("get leases.coordination.k8s.io -n kube-node-lease -o name", Check::ServerAges),
    ("get nodes -o name", Check::ServerAges),
    ("get lease", Check::ServerAges),
    ("get pods -n kube-system", Check::ServerAges),
    ("get nodes --show-kind", Check::ServerAges),
    ("get foo", Check::ServerAges),
    ("get", Check::ServerAges),
    ("describe", Check::ServerAges),
    ("get nodes -o yml", Check::ServerAges),
    ("get nodes --bogus", Check::ServerAges),
    ("get nodes -x", Check::ServerAges),
    ("get csinodes.storage.k8s.io -o name", Check::ServerAges),
    ("get csinode node-2 -o json", Check::Json),
    ("get csinodes -A --show-kind", Check::ServerAges),
    ("get nodes,csinodes", Check::ServerAges),
    ("get csinode nope", Check::ServerAges),
    ("describe csinode node-2 --show-events=false", Check::ClientAges),
    ("describe csinode nope", Check::ClientAges),
    ("foo", Check::ServerAges),
    ("gett nodes", Check::ServerAges),
    ("descrbe node", Check::ServerAges),
];

/// Commands run at every moment of chapter 5: the budget and the DaemonSet.
const MAINTENANCE: &[(&str, Check)] = &[
    ("get pdb", Check::ServerAges),
    ("get pdb -o yaml", Check::ServerAges),
    ("get pdb -o json", Check::Json),
    ("describe pdb", Check::ClientAges),
    ("describe pdb web --show-events=false", Check::ClientAges),
    ("get ds -n kube-system -o wide", Check::ServerAges),
    ("get daemonsets.apps -A -o yaml", Check::ServerAges),
    ("get pods -A -o wide", Check::ServerAges),
];

/// Commands run at every moment of chapter 6: the StatefulSet, its claim and volume, and the
/// volume's attachment, listed and described (by name, by name prefix, every one, by short,
/// plural and qualified names).
const GOES_AWAY: &[(&str, Check)] = &[
    ("get sts", Check::ServerAges),
    ("get statefulsets -o wide", Check::ServerAges),
    ("get sts db -o yaml", Check::ServerAges),
    ("get statefulsets.apps -A -o json", Check::Json),
    ("get controllerrevisions", Check::ServerAges),
    ("get controllerrevision -o wide", Check::ServerAges),
    ("get controllerrevisions.apps -o yaml", Check::ServerAges),
    ("get controllerrevisions -A -o json", Check::Json),
    ("get pvc", Check::ServerAges),
    ("get pvc -o wide", Check::ServerAges),
    ("get persistentvolumeclaims -A -o yaml", Check::ServerAges),
    ("get pv", Check::ServerAges),
    ("get pv -o wide", Check::ServerAges),
    ("get pv -o json", Check::Json),
    ("get volumeattachments", Check::ServerAges),
    ("get volumeattachments.storage.k8s.io -o wide", Check::ServerAges),
    ("get volumeattachments -o yaml", Check::ServerAges),
    ("get sts,pvc,pv", Check::ServerAges),
    ("get pvc nope", Check::ServerAges),
    ("describe sts", Check::ClientAges),
    ("describe statefulset db", Check::ClientAges),
    ("describe statefulsets.apps/db --show-events=false", Check::ClientAges),
    ("describe sts -A", Check::ClientAges),
    ("describe pvc", Check::ClientAges),
    ("describe persistentvolumeclaim data-db-0", Check::ClientAges),
    ("describe pvc data --show-events=false", Check::ClientAges),
    ("describe pvc nope", Check::ClientAges),
    ("describe pv", Check::ClientAges),
    ("describe persistentvolumes pvc", Check::ClientAges),
    ("describe pv nope", Check::ClientAges),
    ("describe volumeattachments", Check::ClientAges),
    ("describe volumeattachment.storage.k8s.io csi", Check::ClientAges),
    ("describe volumeattachments --show-events=false", Check::ClientAges),
    ("describe volumeattachment nope", Check::ClientAges),
    ("describe sts,pvc,pv,volumeattachments", Check::ClientAges),
    ("describe controllerrevisions", Check::ClientAges),
    ("describe controllerrevision db", Check::ClientAges),
    ("describe controllerrevisions.apps --show-events=false", Check::ClientAges),
    ("describe controllerrevision nope", Check::ClientAges),
];

#[test]
fn kubectl_prints_what_nodeline_prints() {
    let Some(path) = require_kubectl() else { return };
    let started = Instant::now();
    let dir = temp_dir();
    let server = Server::start();
    let k = Arc::new(Kubectl { path, dir: dir.clone(), port: server.port });
    let moments = moments();
    let jobs: Vec<(usize, Moment)> = moments.into_iter().enumerate().collect();
    let queue = Arc::new(Mutex::new(jobs));
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let runs = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..3)
        .map(|_| {
            let (queue, failures, runs, k, state) =
                (queue.clone(), failures.clone(), runs.clone(), k.clone(), server.state.clone());
            std::thread::spawn(move || {
                loop {
                    let Some((id, m)) = queue.lock().unwrap().pop() else { break };
                    let served = Arc::new(Served::new(cluster_at(&m)));
                    state.moments.lock().unwrap().insert(id, served.clone());
                    let mut local = Vec::new();
                    let mut n = 0;
                    for (args, check) in PER_MOMENT {
                        n += check_one(&k, id, &served, args, *check, &mut local);
                    }
                    if m.chapter == Chapter::Maintenance {
                        for (args, check) in MAINTENANCE {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    if m.chapter == Chapter::NodeGoesAway {
                        for (args, check) in GOES_AWAY {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    if m.label == "node-failure end" {
                        for (args, check) in ONCE {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    runs.fetch_add(n, Ordering::Relaxed);
                    failures.lock().unwrap().extend(local.into_iter().map(|f| format!("[{}] {f}", m.label)));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a worker panicked");
    }
    let failures = failures.lock().unwrap();
    let unknown = server.state.unknown.lock().unwrap();
    let agents = server.state.user_agents.lock().unwrap();
    // The gcloud SDK's kubectl is a dispatcher that asks /version first with its own agent.
    let agent = agents.iter().find(|a| a.starts_with("kubectl/")).cloned().unwrap_or_default();
    cleanup(&dir);
    let _ = writeln!(
        std::io::stderr(),
        "kubectl_parity: {} kubectl runs against {agent} in {:.1}s",
        runs.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{} differences from kubectl:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(agent.starts_with("kubectl/v1.32"), "the parity test ran kubectl {agent}; it is written against 1.32");
}

#[test]
fn describe_output_is_deterministic_and_complete() {
    // Independent of kubectl: the pieces the parity test relies on.
    let m = moment("x", Chapter::NodeFailure, "", SimTime::from_secs(200));
    let c = cluster_at(&m);
    let node = c.all::<Node>().next().expect("a Node");
    let text = describe::describe_node(node, &c);
    for section in [
        "Name:",
        "Lease:",
        "Conditions:",
        "Addresses:",
        "Capacity:",
        "Allocatable:",
        "System Info:",
        "Non-terminated Pods:",
        "Allocated resources:",
        "Events:",
    ] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
    assert_eq!(text, describe::describe_node(node, &c));
    let stamps = timestamps(&c);
    assert!(!stamps.is_empty());
    let ticks = tick_instants(&stamps, c.now, c.now + Duration::from_millis(1500));
    assert!(ticks.len() >= 2 && ticks[0] == c.now && ticks.windows(2).all(|w| w[0] < w[1]));
}

/// Runs the real kubectl for a changing command (`drain`, `cordon`, `taint`, `delete node`,
/// `delete pod`) at `t` of `chapter` (with `actions`), against the test server answering each
/// request as the simulation answered nodeline's kubectl (the cordon PATCH, the Pod list, the
/// DaemonSet GET, every eviction's 201 or 429, the polls, the DELETE, the wait's GET, list and
/// watch), and compares: stdout and stderr (goroutines print in any order, so each stream is
/// compared as a sorted set of lines, with its first and last line in place), the exit status,
/// and the requests with their queries, content types and JSON bodies (a watch's random
/// `timeoutSeconds` apart). A command nodeline answers without simulating (a bad command line, a
/// missing Node) is compared by its output alone. The difference, if any.
fn check_change(
    k: &Kubectl,
    server: &Server,
    id: usize,
    chapter: Chapter,
    actions: &str,
    t: SimTime,
    line: &str,
) -> Option<String> {
    use nodeline::render::kubectl_printer::change;
    use nodeline::render::kubectl_printer::entry::{CommandLine, Ran};
    use nodeline::sim::Response;
    let m = moment(line, chapter, actions, t);
    let argv = words(line);
    let cluster = cluster_at(&m);
    let mut tl = Timeline::with_actions(chapter, Config::default(), &m.actions);
    tl.run_until(m.t);
    // The simulation: the command at the moment, run until kubectl exits.
    let ran = CommandLine::parse(&argv, &tl.at(m.t)).run(m.t, |c| {
        tl.fork(c.action(m.t)).expect("accepted");
        Ok(())
    });
    assert!(!matches!(ran, Ran::Read(_)), "{line}: a change");
    let simulated = matches!(ran, Ran::Acted { .. });
    let end = m.t + Duration::from_secs(120);
    tl.run_until(end);
    if let Ran::Acted { at, kind } = ran {
        assert!(change::transcript(tl.log(), at, kind).1, "{line}: the simulated command ends");
    }
    let ours = ran.output(tl.log(), &tl.at(end));
    let recorded: Vec<_> = if simulated {
        tl.log().requests.iter().filter(|r| r.t >= m.t && r.actor == nodeline::sim::Actor::Kubectl).collect()
    } else {
        Vec::new()
    };
    let replay = recorded
        .iter()
        .map(|r| {
            let body = match &r.response {
                Some(Response::Object(o)) => o.to_json(),
                Some(Response::Status(s)) => serde_json::to_value(s).expect("a Status"),
                Some(renewal @ Response::Renewal(_)) => renewal.object().expect("a Lease").to_json(),
                None => Value::Null,
            };
            (format!("{} {}", r.method.as_str(), r.path), r.outcome.code().unwrap_or(0), body)
        })
        .collect();
    // The store's resourceVersion at the list: in a continue token, or where a watch starts.
    let list_rv = recorded
        .iter()
        .find_map(|r| {
            r.query.split('&').find_map(|kv| match kv.split_once('=') {
                Some(("continue", t)) => decode_continue(&unescape(t)).map(|(_, rv)| rv),
                Some(("resourceVersion", rv)) => rv.parse().ok().filter(|rv| *rv > 0),
                _ => None,
            })
        })
        .unwrap_or(0);
    let served = Arc::new(Served { replay: Some(Mutex::new(replay)), list_rv, ..Served::new(cluster) });
    server.state.moments.lock().unwrap().insert(id, served.clone());
    let ran = k.run(id, &argv);
    let sorted = |s: &str| {
        let mut v: Vec<&str> = s.lines().collect();
        v.sort_unstable();
        v.join("\n")
    };
    let ends = |s: &str| (s.lines().next().map(str::to_owned), s.lines().last().map(str::to_owned));
    let same_out = sorted(&ours.stdout) == sorted(&ran.stdout) && ends(&ours.stdout) == ends(&ran.stdout);
    let same_err = sorted(&ours.stderr) == sorted(&ran.stderr) && ends(&ours.stderr) == ends(&ran.stderr);
    let untimed = |q: &str| q.split('&').filter(|kv| !kv.starts_with("timeoutSeconds=")).collect::<Vec<_>>().join("&");
    let mut ours_asked: Vec<String> = recorded
        .iter()
        .map(|r| {
            let body = match &r.body {
                Some(nodeline::sim::Body::Json(v)) => {
                    format!(" [{}] {}", r.content_type.map_or("", |c| c.as_str()), v.as_str())
                }
                _ => String::new(),
            };
            format!("{} {}?{}{body}", r.method.as_str(), r.path, untimed(&r.query))
        })
        .collect();
    let mut theirs_asked: Vec<String> = served
        .asked
        .lock()
        .unwrap()
        .iter()
        .map(|a| match a.split_once('?') {
            Some((head, rest)) => {
                let (q, body) = rest.split_once(' ').map_or((rest, ""), |(q, b)| (q, b));
                let body = if body.is_empty() { String::new() } else { format!(" {body}") };
                format!("{head}?{}{body}", untimed(q))
            }
            None => a.clone(),
        })
        .collect();
    ours_asked.retain(|a| a != "GET /api/v1?");
    theirs_asked.retain(|a| a != "GET /api/v1?");
    ours_asked.sort();
    theirs_asked.sort();
    let same_requests = !simulated || ours_asked == theirs_asked;
    if same_out && same_err && ours.code == ran.code && same_requests {
        return None;
    }
    Some(format!(
        "kubectl {line}: exit {} (nodeline {})\nstdout kubectl:\n{}\nstdout nodeline:\n{}\nstderr kubectl:\n{}\nstderr nodeline:\n{}\nrequests kubectl: {theirs_asked:#?}\nrequests nodeline: {ours_asked:#?}",
        ran.code, ours.code, ran.stdout, ours.stdout, ran.stderr, ours.stderr
    ))
}

/// The real `kubectl drain` (and `cordon`, `delete pod`) in chapter 5 against the test server
/// answering as the simulation answered nodeline's kubectl ([`check_change`]). `{web}` and
/// `{agent}` in a line stand for a web Pod on node-2 and the node agent's Pod there. The drains
/// take the real 5 s of kubectl's retry.
#[test]
fn real_kubectl_drain_prints_what_nodeline_prints() {
    use nodeline::render::kubectl_printer::entry::CommandLine;
    let Some(path) = require_kubectl() else { return };
    let dir = temp_dir();
    let server = Server::start();
    let k = Kubectl { path, dir: dir.clone(), port: server.port };
    let mut failures = Vec::new();
    const CACHE: &str = "create-cache:node-1@30s";
    let t = SimTime::from_secs(100);
    for (id, actions, line) in [
        (900, "", "drain node-1 --ignore-daemonsets"),
        (901, "", "drain node-1"),
        (902, "", "cordon node-2"),
        (903, "", "uncordon node-1"),
        (904, "", "drain node-1 --ignore-daemonsets --chunk-size=2"),
        (905, "", "drain node-1 --ignore-daemonsets --pod-selector=app=web --chunk-size=1"),
        (906, "", "drain node-1 --pod-selector=app!=web"),
        (907, CACHE, "drain node-1 --ignore-daemonsets"),
        (908, CACHE, "drain node-1 --ignore-daemonsets --delete-emptydir-data"),
        (910, "", "delete pod {web}"),
        (911, "", "delete pod {web} --wait=false"),
        (912, "", "delete pods {web} --force"),
        (913, "", "delete pod {web} --now"),
        (914, "", "delete pod web-nosuch"),
        (915, "", "delete pod web-nosuch --force"),
        (916, "", "-n kube-system delete pod/{agent} --grace-period=0 --force --wait=false"),
    ] {
        let m = moment(line, Chapter::Maintenance, actions, t);
        let mut before = Timeline::with_actions(Chapter::Maintenance, Config::default(), &m.actions);
        before.run_until(m.t);
        let pods = before.at(m.t).pods();
        let pod_on_node_2 = |prefix: &str| {
            pods.iter()
                .find(|p| p.spec.node_name == "node-2" && p.metadata.name.starts_with(prefix))
                .map(|p| p.metadata.name.clone())
                .expect("a Pod on node-2")
        };
        let line = line.replace("{web}", &pod_on_node_2("web-")).replace("{agent}", &pod_on_node_2("node-agent-"));
        failures.extend(check_change(&k, &server, id, Chapter::Maintenance, actions, t, &line));
    }
    // Command lines kubectl refuses, before it changes anything: the same error, the same exit.
    let m = moment("refusals", Chapter::Maintenance, "", SimTime::from_secs(100));
    let mut refused_at = Timeline::with_actions(Chapter::Maintenance, Config::default(), &m.actions);
    refused_at.run_until(m.t);
    server.state.moments.lock().unwrap().insert(930, Arc::new(Served::new(cluster_at(&m))));
    for line in [
        "delete pod",
        "delete pod web-1 --force --grace-period=5",
        "delete pod web-1 --now --grace-period=5",
        "delete pod web-1 --wait=maybe",
        "drain node-1 --pod-selector=app=(web",
        "drain node-1 --chunk-size=x",
    ] {
        let argv = words(line);
        let CommandLine::Error(ours) = CommandLine::parse(&argv, &refused_at.at(m.t)) else {
            panic!("{line}: refused")
        };
        let ran = k.run(930, &argv);
        if (ours.stdout.as_str(), ours.stderr.as_str(), ours.code)
            != (ran.stdout.as_str(), ran.stderr.as_str(), ran.code)
        {
            failures.push(format!(
                "kubectl {line}: kubectl {:?} {:?} {}\nnodeline {ours:?}",
                ran.stdout, ran.stderr, ran.code
            ));
        }
    }
    cleanup(&dir);
    let unknown = server.state.unknown.lock().unwrap();
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The real `kubectl taint` and `kubectl delete node` in chapter 6: the out-of-service taint on
/// the powered-off node-2 and its removal, another taint added, refused without `--overwrite`,
/// replaced with it, removed (the last one: a `null` list), kubectl's argument errors, and the
/// Node deleted; each against the test server replaying the simulation's answers
/// ([`check_change`]).
#[test]
fn real_kubectl_taint_and_delete_node_print_what_nodeline_prints() {
    let Some(path) = require_kubectl() else { return };
    let dir = temp_dir();
    let server = Server::start();
    let k = Kubectl { path, dir: dir.clone(), port: server.port };
    let s = SimTime::from_secs;
    let dedicated = "taint:node-3/dedicated=db:NoSchedule@60s";
    let mut failures = Vec::new();
    for (id, actions, t, line) in [
        (950, "", s(400), "taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"),
        (951, "", s(720), "taint nodes node-2 node.kubernetes.io/out-of-service:NoExecute-"),
        (952, "", s(720), "taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"),
        (953, "", s(720), "taint node node-2 node.kubernetes.io/out-of-service=later:NoExecute --overwrite"),
        (954, "", s(100), "taint nodes node-3 dedicated=db:NoSchedule"),
        (955, "", s(100), "taint nodes node-3 dedicated-"),
        (956, dedicated, s(100), "taint no node-3 dedicated:NoSchedule-"),
        (957, dedicated, s(100), "taint nodes node-3 dedicated=web:NoSchedule"),
        (958, "", s(100), "taint nodes node-3 dedicated=db:Sometimes"),
        (959, "", s(100), "taint nodes node-3 dedicated"),
        (960, "", s(100), "taint nodes node-3 Bad_Key=x:NoSchedule"),
        (961, "", s(100), "taint nodes node-9 dedicated=db:NoSchedule"),
        (962, "", s(100), "taint pods web-1 dedicated=db:NoSchedule"),
        (963, "", s(100), "taint nodes dedicated=db:NoSchedule"),
        (964, "", s(100), "taint nodes node-3 a=b:NoSchedule node-2"),
        (965, "", s(100), "delete node node-3"),
        (966, "", s(100), "delete nodes/node-2"),
        (967, "", s(100), "delete node nope"),
        (968, "", s(100), "delete node nope --ignore-not-found"),
    ] {
        failures.extend(check_change(&k, &server, id, Chapter::NodeGoesAway, actions, t, line));
    }
    cleanup(&dir);
    let unknown = server.state.unknown.lock().unwrap();
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{} differences:\n\n{}", failures.len(), failures.join("\n\n"));
}
