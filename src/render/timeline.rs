//! `nodeline timeline`: a timeline's requests, Kubernetes Events and components' log lines as
//! JSON Lines.
//!
//! One compact JSON object per line, one line per request, event or log line, in log order (by `seq`,
//! which also orders them in time). Keys always come in this order:
//!
//! * a request: `t_ms`, `seq`, `kind` (`"request"`), `actor` (`kubelet/node-1`,
//!   `node-lifecycle-controller`, ...), `method`, `path` (without query), `query` (only when the
//!   request had one, without `?`), `code` (the HTTP status code, or `null` when no answer came
//!   before the client's timeout), `error` (only when `code` is `null`: the client-side error),
//!   `summary` (what the request did, e.g. `Ready: False → True`).
//! * an event: `t_ms`, `seq`, `kind` (`"event"`), `reason`, `type` (`Normal` or `Warning`),
//!   `message`, `object` (the involved object as `Kind/name` or `Kind/namespace/name`), `source`
//!   (the reporting component), `count` (the Event's count after this occurrence).
//! * a log line: `t_ms`, `seq`, `kind` (`"log"`), `component` (as `actor`), `severity` (`info`,
//!   `warning`, `error`), `line` (the line as klog prints it, [`super::klog`]).
//!
//! `t_ms` is whole milliseconds since the start of the timeline (`T+00:00`).

use crate::sim::objects::ObjectReference;
use crate::sim::record::EventRecord;
use crate::sim::record::LogLine;
use crate::sim::time::SimTime;
use crate::sim::{Log, WallTime};

/// Every request, event and log line at or before `until`, one JSON object per line (each line
/// ends with a newline); `epoch` is the wall-clock instant of `T+00:00` (for the log lines' klog
/// headers).
pub fn jsonl(log: &Log, until: SimTime, epoch: WallTime) -> String {
    let mut lines: Vec<(u64, String)> = Vec::new();
    for (idx, r) in log.requests.iter().enumerate() {
        if r.t <= until {
            lines.push((r.seq, request_line(log, idx)));
        }
    }
    for e in &log.events {
        if e.t <= until {
            lines.push((e.seq, event_line(e)));
        }
    }
    for l in &log.lines {
        if l.t <= until {
            lines.push((l.seq, log_line(l, epoch)));
        }
    }
    lines.sort_by_key(|(seq, _)| *seq);
    let mut out = String::with_capacity(lines.iter().map(|(_, l)| l.len() + 1).sum());
    for (_, line) in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The line for request `idx` of `log` (without newline).
pub fn request_line(log: &Log, idx: usize) -> String {
    let r = log.requests.at(idx);
    let mut line = Line::new(r.t, r.seq, "request");
    line.string("actor", &r.actor.to_string());
    line.string("method", r.method.as_str());
    line.string("path", &r.path);
    if !r.query.is_empty() {
        line.string("query", &r.query);
    }
    match r.outcome.code() {
        Some(code) => line.raw("code", &code.to_string()),
        None => {
            line.raw("code", "null");
            line.string("error", r.error().as_deref().unwrap_or("no answer before the client's timeout"));
        }
    }
    line.string("summary", &log.summary(idx));
    line.finish()
}

/// The line for one event occurrence (without newline).
pub fn event_line(e: &EventRecord) -> String {
    let mut line = Line::new(e.t, e.seq, "event");
    line.string("reason", e.reason());
    line.string("type", e.type_());
    line.string("message", e.message());
    line.string("object", &object_ref(&e.object));
    line.string("source", e.source());
    line.raw("count", &e.count.to_string());
    line.finish()
}

/// The record for one log line (without newline).
pub fn log_line(l: &LogLine, epoch: WallTime) -> String {
    let mut line = Line::new(l.t, l.seq, "log");
    line.string("component", &l.actor.to_string());
    line.string("severity", l.severity.as_str());
    line.string("line", &super::klog::klog_line(l, epoch));
    line.finish()
}

/// `Kind/name`, or `Kind/namespace/name` for a namespaced object.
pub fn object_ref(o: &ObjectReference) -> String {
    if o.namespace.is_empty() {
        format!("{}/{}", o.kind, o.name)
    } else {
        format!("{}/{}/{}", o.kind, o.namespace, o.name)
    }
}

/// A JSON object written key by key, so the key order is fixed whatever serde_json's map does.
struct Line(String);

impl Line {
    fn new(t: SimTime, seq: u64, kind: &str) -> Line {
        let mut line = Line(format!("{{\"t_ms\":{},\"seq\":{seq}", t.as_millis()));
        line.string("kind", kind);
        line
    }

    fn key(&mut self, key: &str) {
        self.0.push(',');
        self.0.push_str(&quote(key));
        self.0.push(':');
    }

    fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        self.0.push_str(&quote(value));
    }

    fn raw(&mut self, key: &str, value: &str) {
        self.key(key);
        self.0.push_str(value);
    }

    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

fn quote(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}
