//! The inspector's view models: what the Node, Lease, Pods and Events tabs show at the playhead,
//! formatted the way kubectl formats it.
//!
//! Everything here is a plain function over simulation objects and the log, tested natively.
//! Times are shown relative to the playhead's wall-clock instant (the timeline's epoch plus the
//! playhead), never the reader's clock. The models are built to grow: the Node view will gain
//! YAML and `kubectl describe` renderings next to its tables.

use std::time::Duration;

use crate::i18n::{Key, Lang};
use crate::sim::objects::{Event, Kind, Lease, Node, NodeCondition, ObjectKey, Pod, Taint};
use crate::sim::record::{ChangeType, Log};
use crate::sim::{MachineView, NODE_MONITOR_PERIOD, SimTime, Snapshot, WallTime};
use crate::view::stage::escape;

/// Cells that changed within this much simulated time before the playhead are marked.
pub const CHANGE_WINDOW: Duration = Duration::from_secs(2);

/// At most this many events are listed (the most recent ones).
pub const EVENT_CAP: usize = 50;

// ----------------------------------------------------------------------------------------------
// Time

/// The wall-clock instant a simulated instant stands for.
pub fn wall_at(epoch: WallTime, t: SimTime) -> WallTime {
    epoch + t.since_start()
}

/// The simulated instant a wall-clock instant stands for (clamped at the start).
pub fn sim_at(epoch: WallTime, w: WallTime) -> SimTime {
    SimTime::from_micros((w.0 - epoch.0).max(0) as u64)
}

/// `duration.HumanDuration` from k8s.io/apimachinery, the AGE format of `kubectl get` and
/// `kubectl describe`, for a signed span in microseconds.
pub fn human_duration(micros: i64) -> String {
    crate::render::kubectl::human_duration(micros)
}

/// kubectl's `translateTimestampSince`: the age of `then` at `now`, `<unknown>` when unset.
pub fn since(now: WallTime, then: Option<WallTime>) -> String {
    crate::render::kubectl::since(now, then)
}

// ----------------------------------------------------------------------------------------------
// Node

/// `kubectl get nodes` STATUS: from the Ready condition only (True → `Ready`, False or Unknown →
/// `NotReady`, absent → `Unknown`), plus `,SchedulingDisabled` for a cordoned node.
pub fn node_status(node: &Node) -> String {
    crate::render::kubectl::get::node_status(node)
}

/// `kubectl get nodes` ROLES: the sorted roles from `node-role.kubernetes.io/<role>` label keys
/// and the value of a `kubernetes.io/role` label, or `<none>`.
pub fn node_roles(node: &Node) -> String {
    crate::render::kubectl::get::node_roles(node)
}

/// One row of `kubectl get nodes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLine {
    pub name: String,
    pub status: String,
    pub roles: String,
    pub age: String,
    pub version: String,
}

/// The `kubectl get nodes` row of `node` at `now`.
pub fn node_line(node: &Node, now: WallTime) -> NodeLine {
    NodeLine {
        name: node.metadata.name.clone(),
        status: node_status(node),
        roles: node_roles(node),
        age: since(now, node.metadata.creation_timestamp.map(|t| t.0)),
        version: node.status.node_info.kubelet_version.clone(),
    }
}

/// Whether a condition's status is good news, bad news, or unknown (for colour and shape; the
/// text always says True, False or Unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Health {
    Good,
    Bad,
    #[default]
    Unknown,
}

impl Health {
    /// A class name for styling.
    pub fn class(self) -> &'static str {
        match self {
            Health::Good => "ok",
            Health::Bad => "bad",
            Health::Unknown => "unknown",
        }
    }
}

/// Whether a node condition's status is healthy: `Ready` wants True, every pressure (and
/// `NetworkUnavailable`) wants False.
pub fn condition_health(type_: &str, status: &str) -> Health {
    match (type_ == "Ready", status) {
        (_, "Unknown") => Health::Unknown,
        (true, "True") | (false, "False") => Health::Good,
        (true, "False") | (false, "True") => Health::Bad,
        _ => Health::Unknown,
    }
}

/// A table cell, and whether it changed shortly before the playhead.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cell {
    pub text: String,
    pub changed: bool,
}

impl Cell {
    fn new(text: String, changed: bool) -> Cell {
        Cell { text, changed }
    }
}

/// One row of the Conditions table (`kubectl describe node`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConditionRow {
    pub type_: Cell,
    pub status: Cell,
    pub health: Health,
    pub last_heartbeat: Cell,
    pub last_transition: Cell,
    pub reason: Cell,
    pub message: Cell,
}

fn condition_row(c: &NodeCondition, before: Option<&NodeCondition>, all_new: bool) -> ConditionRow {
    let changed = |f: &dyn Fn(&NodeCondition) -> bool| all_new || before.is_none_or(|b| !f(b));
    ConditionRow {
        type_: Cell::new(c.type_.to_string(), all_new || before.is_none()),
        status: Cell::new(c.status.to_string(), changed(&|b| b.status == c.status)),
        health: condition_health(&c.type_, &c.status),
        last_heartbeat: Cell::new(
            c.last_heartbeat_time.0.rfc1123z(),
            changed(&|b| b.last_heartbeat_time == c.last_heartbeat_time),
        ),
        last_transition: Cell::new(
            c.last_transition_time.0.rfc1123z(),
            changed(&|b| b.last_transition_time == c.last_transition_time),
        ),
        reason: Cell::new(c.reason.to_string(), changed(&|b| b.reason == c.reason)),
        message: Cell::new(c.message.to_string(), changed(&|b| b.message == c.message)),
    }
}

/// One taint of the Node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TaintRow {
    /// `key` or `key=value`.
    pub key: String,
    pub effect: String,
    /// `timeAdded` as stored (RFC 3339), if set.
    pub time_added: Option<String>,
    /// Whether the taint appeared shortly before the playhead.
    pub changed: bool,
}

fn taint_row(t: &Taint, before: Option<&Node>) -> TaintRow {
    let key = if t.value.is_empty() { t.key.clone() } else { format!("{}={}", t.key, t.value) };
    TaintRow {
        key,
        effect: t.effect.clone(),
        time_added: t.time_added.map(|w| w.0.rfc3339()),
        changed: before.is_none_or(|b| !b.spec.taints.contains(t)),
    }
}

/// The Node tab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    pub line: NodeLine,
    /// Whether the STATUS column changed shortly before the playhead.
    pub status_changed: bool,
    pub conditions: Vec<ConditionRow>,
    pub taints: Vec<TaintRow>,
}

/// The Node tab for `node` at `now`; `before` is the same Node shortly before (`None` if it did
/// not exist then: everything counts as changed).
pub fn node_view(node: &Node, before: Option<&Node>, now: WallTime) -> NodeView {
    let all_new = before.is_none();
    let line = node_line(node, now);
    let status_changed = before.is_none_or(|b| node_status(b) != line.status);
    let conditions = node
        .status
        .conditions
        .iter()
        .map(|c| condition_row(c, before.and_then(|b| b.condition(&c.type_)), all_new))
        .collect();
    let taints = node.spec.taints.iter().map(|t| taint_row(t, before)).collect();
    NodeView { line, status_changed, conditions, taints }
}

fn node_at<'a>(log: &'a Log, name: &str, t: SimTime) -> Option<&'a Node> {
    match log.version_of_at(Kind::Node, "", name, t).map(|c| &c.object) {
        Some(crate::sim::objects::Object::Node(n)) => Some(n),
        _ => None,
    }
}

fn lease_at<'a>(log: &'a Log, name: &str, t: SimTime) -> Option<&'a Lease> {
    match log.version_of_at(Kind::Lease, crate::sim::NODE_LEASE_NAMESPACE, name, t).map(|c| &c.object) {
        Some(crate::sim::objects::Object::Lease(l)) => Some(l),
        _ => None,
    }
}

/// The Node tab for the Node `name` at `t` (`None`: no such Node at `t`).
pub fn inspect_node(log: &Log, epoch: WallTime, name: &str, t: SimTime) -> Option<NodeView> {
    let node = node_at(log, name, t)?;
    let before = node_at(log, name, t.saturating_sub(CHANGE_WINDOW));
    Some(node_view(node, before, wall_at(epoch, t)))
}

/// The names of the Nodes that exist in `snapshot`.
pub fn node_names(snapshot: &Snapshot<'_>) -> Vec<String> {
    snapshot.nodes().iter().map(|n| n.metadata.name.clone()).collect()
}

/// The Node a machine registers (its hostname): the inspector's default Node.
pub fn machine_node(machines: &[std::sync::Arc<MachineView>], index: usize) -> Option<String> {
    machines.get(index).or_else(|| machines.first()).map(|m| m.hostname.clone())
}

// ----------------------------------------------------------------------------------------------
// Lease and the grace period

/// The first node-monitor pass at or after `at`, given the passes' phase (their offset within a
/// 5 s period).
pub fn next_pass(at: SimTime, phase: Duration) -> SimTime {
    let period = NODE_MONITOR_PERIOD.as_micros() as u64;
    let phase = phase.as_micros() as u64 % period;
    let at = at.as_micros();
    if at <= phase {
        return SimTime::from_micros(phase);
    }
    let k = (at - phase).div_ceil(period);
    SimTime::from_micros(phase + k * period)
}

/// When the node lifecycle controller's 5 s passes run, within their period, read off the log:
/// its `RegisteredNode` events are recorded during a pass. `None` before its first such event.
pub fn monitor_phase(log: &Log) -> Option<Duration> {
    let e = log.events.iter().find(|e| e.reason == "RegisteredNode" && e.source == "node-controller")?;
    let period = NODE_MONITOR_PERIOD.as_micros() as u64;
    Some(Duration::from_micros(e.t.as_micros() % period))
}

/// How far the grace period has run, as the controller counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraceState {
    /// Time left until `now > probe + grace` holds (the controller acts at its next pass after).
    Left(Duration),
    /// The grace period has run out since the last heartbeat the controller saw.
    Passed,
}

/// The grace countdown. The controller resets its `probeTimestamp` to its own clock at the first
/// pass that sees a new heartbeat (`last_heartbeat`: a newer Lease `renewTime` or Ready
/// `lastHeartbeatTime`), and marks the node Unknown at the first pass with
/// `now > probeTimestamp + grace`. `leaseDurationSeconds` plays no part. Without a known pass
/// phase, the heartbeat itself stands in for the probe time.
pub fn grace_state(last_heartbeat: SimTime, phase: Option<Duration>, grace: Duration, now: SimTime) -> GraceState {
    let probe = match phase {
        Some(p) => next_pass(last_heartbeat, p),
        None => last_heartbeat,
    };
    let deadline = probe + grace;
    if now < deadline { GraceState::Left(deadline - now) } else { GraceState::Passed }
}

/// A countdown as the page shows it: whole seconds, rounded up, in kubectl's duration style.
pub fn countdown(d: Duration) -> String {
    human_duration((d.as_micros() as i64 + 999_999) / 1_000_000 * 1_000_000)
}

/// The Lease tab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseView {
    pub name: String,
    pub namespace: String,
    pub holder: Option<String>,
    pub duration_seconds: Option<i32>,
    /// `renewTime` as stored (RFC 3339 with microseconds).
    pub renew_time: Option<String>,
    /// How long ago `renewTime` was, in kubectl's duration style.
    pub renewed_ago: Option<String>,
    /// Whether `renewTime` moved shortly before the playhead.
    pub renew_changed: bool,
    /// `--node-monitor-grace-period`.
    pub grace: Duration,
    pub state: GraceState,
    /// Whether the controller has already marked the Node Unknown.
    pub node_unknown: bool,
}

/// The Lease tab for `lease` at `now`, with the Node it belongs to (for its Ready heartbeat).
pub fn lease_view(
    lease: &Lease,
    before: Option<&Lease>,
    node: Option<&Node>,
    epoch: WallTime,
    now: SimTime,
    phase: Option<Duration>,
    grace: Duration,
) -> LeaseView {
    let wall = wall_at(epoch, now);
    let renew = lease.spec.renew_time.map(|m| m.0);
    let heartbeat = node.and_then(|n| n.condition("Ready")).map(|c| c.last_heartbeat_time.0);
    let last = renew.into_iter().chain(heartbeat).max().map(|w| sim_at(epoch, w));
    let state = match last {
        Some(last) => grace_state(last, phase, grace, now),
        None => GraceState::Passed,
    };
    LeaseView {
        name: lease.metadata.name.clone(),
        namespace: lease.metadata.namespace.clone(),
        holder: lease.spec.holder_identity.clone(),
        duration_seconds: lease.spec.lease_duration_seconds,
        renew_time: renew.map(|w| w.rfc3339_micros()),
        renewed_ago: renew.map(|w| human_duration(wall.0 - w.0)),
        renew_changed: before.is_none_or(|b| b.spec.renew_time != lease.spec.renew_time),
        grace,
        state,
        node_unknown: node.and_then(Node::ready_status) == Some("Unknown"),
    }
}

/// The Lease tab for node `name` at `t` (`None`: no Lease yet).
pub fn inspect_lease(log: &Log, epoch: WallTime, name: &str, t: SimTime, grace: Duration) -> Option<LeaseView> {
    let lease = lease_at(log, name, t)?;
    let before = lease_at(log, name, t.saturating_sub(CHANGE_WINDOW));
    Some(lease_view(lease, before, node_at(log, name, t), epoch, t, monitor_phase(log), grace))
}

// ----------------------------------------------------------------------------------------------
// Pods

/// The STATUS column of `kubectl get pods` (`printPod` in kubectl's printers): the phase, or the
/// last container's waiting or terminated reason, `Terminating` once `deletionTimestamp` is set
/// (unless the phase is terminal).
pub fn pod_status(pod: &Pod) -> String {
    crate::render::kubectl::get::pod_state(pod, WallTime(0)).1
}

/// The READY column of `kubectl get pods`: containers ready and running, of all containers.
pub fn pod_ready(pod: &Pod) -> String {
    crate::render::kubectl::get::pod_state(pod, WallTime(0)).0
}

/// One row of the Pods tab.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PodRow {
    pub namespace: String,
    pub name: String,
    pub status: String,
    pub ready: String,
    /// `spec.nodeName`, or `<none>`.
    pub node: String,
    pub age: String,
}

/// The Pods tab row of `pod` at `now`: cells of `kubectl get pods -o wide`.
pub fn pod_row(pod: &Pod, now: WallTime) -> PodRow {
    let mut cells = crate::render::kubectl::get::pod_row(pod, now).cells.into_iter();
    let mut next = || cells.next().unwrap_or_default();
    let (name, ready, status, _restarts, age, _ip, node) = (next(), next(), next(), next(), next(), next(), next());
    PodRow { namespace: pod.metadata.namespace.clone(), name, status, ready, node, age }
}

/// Every Pod at the snapshot's instant, by namespace and name.
pub fn pod_rows(snapshot: &Snapshot<'_>, epoch: WallTime) -> Vec<PodRow> {
    let now = wall_at(epoch, snapshot.time());
    snapshot.pods().iter().map(|p| pod_row(p, now)).collect()
}

// ----------------------------------------------------------------------------------------------
// Events

/// One row of the Events tab, like `kubectl get events` (LAST SEEN, TYPE, REASON, OBJECT,
/// MESSAGE), with a repeated event's count and span in the form `kubectl describe` uses:
/// `5s (x2 over 45s)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EventRow {
    /// The Event object's namespace and name (unique).
    pub id: String,
    pub last_seen: String,
    pub type_: String,
    pub reason: String,
    /// `kind/name`, kind in lower case (`node/node-1`).
    pub object: String,
    pub message: String,
}

/// The Events tab row of `e` at `now`, following kubectl's `printEvent`: the legacy
/// `firstTimestamp`/`lastTimestamp`/`count`, or `eventTime` and `series` from the
/// events.k8s.io recorder.
pub fn event_row(e: &Event, now: WallTime) -> EventRow {
    // The cells of `kubectl get events -o wide`: LAST SEEN, TYPE, REASON, OBJECT, SUBOBJECT,
    // SOURCE, MESSAGE, FIRST SEEN, COUNT, NAME.
    let mut cells = crate::render::kubectl::get::event_row(e, now).cells.into_iter();
    let mut next = || cells.next().unwrap_or_default();
    let (last, type_, reason, object, _sub, _source, message, first, count) =
        (next(), next(), next(), next(), next(), next(), next(), next(), next());
    let last_seen = if count != "1" && count != "0" {
        [last, " (x".into(), count, " over ".into(), first, ")".into()].concat()
    } else {
        last
    };
    EventRow {
        id: [e.metadata.namespace.as_str(), "/", &e.metadata.name].concat(),
        last_seen,
        type_,
        reason,
        object,
        message,
    }
}

/// The Events tab.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventList {
    /// Oldest first (by the last time each was recorded).
    pub rows: Vec<EventRow>,
    /// Whether older events were left out.
    pub capped: bool,
}

/// The events at `t`, the `cap` most recently recorded ones, oldest first. Reads the log's event
/// records backwards from `t`, so the work does not grow with the timeline's length.
pub fn event_list(log: &Log, epoch: WallTime, t: SimTime, cap: usize) -> EventList {
    let now = wall_at(epoch, t);
    let end = log.events.partition_point(|e| e.t <= t);
    let mut keys: Vec<&ObjectKey> = Vec::new();
    let mut capped = false;
    for record in log.events[..end].iter().rev() {
        if keys.contains(&&record.key) {
            continue;
        }
        if keys.len() == cap {
            capped = true;
            break;
        }
        keys.push(&record.key);
    }
    let rows = keys
        .iter()
        .rev()
        .filter_map(|k| match log.version_at(k, t) {
            Some(c) if c.change != ChangeType::Deleted => match &c.object {
                crate::sim::objects::Object::Event(e) => Some(event_row(e, now)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    EventList { rows, capped }
}

// ----------------------------------------------------------------------------------------------
// Markup. The tabs are written as HTML strings (set with `innerHTML` by the component): string
// writers cost a fraction of the code size of typed view trees, and are checked natively. The
// structure, roles and classes are the page's contract with its styles and browser tests.

/// Appends the parts: plain concatenation, which costs far less code than `format!`.
pub fn cat(o: &mut String, parts: &[&str]) {
    for p in parts {
        o.push_str(p);
    }
}

fn changed_attrs(changed: bool) -> &'static str {
    if changed { " changed\" data-changed=\"true" } else { "" }
}

/// A status with its shape (the text never relies on colour alone).
fn state(o: &mut String, class: &str, text: &str) {
    cat(
        o,
        &[
            r#"<span class="state state-"#,
            class,
            r#""><span class="shape" aria-hidden="true"></span>"#,
            &escape(text),
            "</span>",
        ],
    );
}

/// `prefix/name` with a line-break opportunity after the slash.
fn break_after_slash(o: &mut String, key: &str) {
    match key.split_once('/') {
        Some((prefix, rest)) => cat(o, &[&escape(prefix), "/<wbr>", &escape(rest)]),
        None => o.push_str(&escape(key)),
    }
}

/// `<th scope="col">` headers for `keys`, for a table's first row (`<tr class="head">`).
///
/// The tables have no `<thead>`: the inspector rewrites its tables as often as every frame while
/// playing, and Chromium keeps a media query set alive for every `<thead>` element it ever parsed
/// (measured: one more `blink::MediaQuerySet` in the heap per `<thead>`, never collected), so a
/// long play grew memory without bound. Column headers are the `scope="col"` cells either way.
fn headers(o: &mut String, lang: Lang, keys: &[Key], roles: bool) {
    for k in keys {
        cat(
            o,
            &[
                if roles { r#"<th scope="col" role="columnheader">"# } else { r#"<th scope="col">"# },
                &escape(lang.text(*k)),
                "</th>",
            ],
        );
    }
}

/// The Node tab: the `kubectl get node` line, the Conditions table and the taints.
pub fn node_markup(v: &NodeView, lang: Lang) -> String {
    let t = |k: Key| escape(lang.text(k));
    let l = &v.line;
    let name = escape(&l.name);
    let mut o = String::with_capacity(4096);
    cat(
        &mut o,
        &[
            r#"<div class="kubectl"><p class="command"><code>kubectl get node "#,
            &name,
            r#"</code></p><div class="table-scroll"><table class="get-nodes"><tbody><tr class="head"><th scope="col">NAME</th><th scope="col">STATUS</th><th scope="col">ROLES</th><th scope="col">AGE</th><th scope="col">VERSION</th></tr><tr><td>"#,
            &name,
            r#"</td><td class=""#,
            changed_attrs(v.status_changed),
            r#"" data-col="status">"#,
        ],
    );
    state(&mut o, if l.status.starts_with("Ready") { "ok" } else { "bad" }, &l.status);
    cat(
        &mut o,
        &[
            "</td><td>",
            &escape(&l.roles),
            "</td><td>",
            &escape(&l.age),
            "</td><td>",
            &escape(&l.version),
            "</td></tr></tbody></table></div></div><h3>",
            &t(Key::Conditions),
            r#"</h3><div class="table-scroll"><table class="conditions stack" role="table"><tbody role="rowgroup"><tr role="row" class="head">"#,
        ],
    );
    headers(
        &mut o,
        lang,
        &[
            Key::ColType,
            Key::ColStatus,
            Key::ColLastHeartbeatTime,
            Key::ColLastTransitionTime,
            Key::ColReason,
            Key::ColMessage,
        ],
        true,
    );
    o.push_str("</tr>");
    for r in &v.conditions {
        let ty = escape(&r.type_.text);
        cat(
            &mut o,
            &[
                r#"<tr role="row" data-type=""#,
                &ty,
                r#""><th scope="row" role="rowheader" class="c-type"#,
                if r.type_.changed { " changed" } else { "" },
                r#"">"#,
                &ty,
                r#"</th><td role="cell" class="c-status"#,
                changed_attrs(r.status.changed),
                r#"">"#,
            ],
        );
        state(&mut o, r.health.class(), &r.status.text);
        o.push_str("</td>");
        for (cell, class, label) in [
            (&r.last_heartbeat, "c-time c-heartbeat", Key::ColLastHeartbeatTime),
            (&r.last_transition, "c-time c-transition", Key::ColLastTransitionTime),
            (&r.reason, "c-reason", Key::ColReason),
            (&r.message, "c-message", Key::ColMessage),
        ] {
            cat(
                &mut o,
                &[
                    r#"<td role="cell" class=""#,
                    class,
                    changed_attrs(cell.changed),
                    r#"" data-label=""#,
                    &t(label),
                    r#"">"#,
                    &escape(&cell.text),
                    "</td>",
                ],
            );
        }
        o.push_str("</tr>");
    }
    cat(
        &mut o,
        &[
            r#"</tbody></table></div><p class="legend"><span class="legend-mark" aria-hidden="true"></span>"#,
            &t(Key::ChangedLegend),
            "</p><h3>",
            &t(Key::Taints),
            "</h3>",
        ],
    );
    if v.taints.is_empty() {
        cat(&mut o, &[r#"<p class="empty">"#, &t(Key::NoTaints), "</p>"]);
    } else {
        o.push_str(r#"<div class="table-scroll"><table class="taints"><tbody><tr class="head">"#);
        headers(&mut o, lang, &[Key::ColKey, Key::ColEffect, Key::ColTimeAdded], false);
        o.push_str("</tr>");
        for r in &v.taints {
            cat(&mut o, &[r#"<tr class=""#, changed_attrs(r.changed), r#""><td><code>"#]);
            break_after_slash(&mut o, &r.key);
            cat(
                &mut o,
                &[
                    "</code></td><td>",
                    &escape(&r.effect),
                    "</td><td>",
                    &escape(r.time_added.as_deref().unwrap_or("—")),
                    "</td></tr>",
                ],
            );
        }
        o.push_str("</tbody></table></div>");
    }
    o
}

/// A paragraph saying there is no such object yet: `node-1: no Node object yet`.
pub fn empty_markup(name: Option<&str>, text: &str) -> String {
    let mut o = String::from(r#"<p class="empty">"#);
    if let Some(n) = name {
        cat(&mut o, &[&escape(n), ": "]);
    }
    cat(&mut o, &[&escape(text), "</p>"]);
    o
}

/// The share of the grace period that has run, in tenths of a percent (0 to 1000).
pub fn grace_permille(v: &LeaseView) -> u32 {
    match v.state {
        GraceState::Passed => 1000,
        GraceState::Left(left) => {
            let total = v.grace.as_micros().max(1);
            (1000 - (left.as_micros().min(total) * 1000 / total)) as u32
        }
    }
}

/// The Lease tab: holder, duration, renewTime, and the grace countdown.
pub fn lease_markup(v: &LeaseView, lang: Lang) -> String {
    let t = |k: Key| escape(lang.text(k));
    let grace = crate::sim::format_go_duration(v.grace);
    let (text, then) = match v.state {
        GraceState::Left(left) => (lang.fill(Key::GraceCountdown, &[&countdown(left), &grace]), ""),
        GraceState::Passed => {
            let then = if v.node_unknown { Key::GraceNodeUnknown } else { Key::GraceNextCheck };
            (lang.fill(Key::GracePassed, &[&grace]), lang.text(then))
        }
    };
    let permille = grace_permille(v);
    let unset = |s: &Option<String>| escape(s.as_deref().unwrap_or("<unset>")).into_owned();
    let mut o = String::with_capacity(1500);
    cat(
        &mut o,
        &[
            r#"<div class="lease"><p class="object-name">"#,
            &t(Key::TabLease),
            " <code>",
            &escape(&v.namespace),
            "/",
            &escape(&v.name),
            r#"</code></p><dl class="fields"><dt>"#,
            &t(Key::HolderIdentity),
            "</dt><dd><code>",
            &unset(&v.holder),
            "</code></dd><dt>",
            &t(Key::LeaseDuration),
            "</dt><dd><code>",
            &unset(&v.duration_seconds.map(|d| d.to_string())),
            "</code></dd><dt>",
            &t(Key::RenewTime),
            "</dt><dd",
            if v.renew_changed { r#" class="changed" data-changed="true""# } else { "" },
            "><code>",
            &unset(&v.renew_time),
            "</code>",
        ],
    );
    if let Some(a) = &v.renewed_ago {
        cat(&mut o, &[r#" <span class="ago">"#, &escape(&lang.fill(Key::RenewedAgo, &[a])), "</span>"]);
    }
    cat(
        &mut o,
        &[
            "</dd></dl><h3>",
            &t(Key::GracePeriodTitle),
            r#"</h3><div class="grace"><div class="grace-bar" aria-hidden="true"><div class="grace-fill"#,
            if permille >= 1000 { " passed" } else { "" },
            r#"" data-width=""#,
            &(permille / 10).to_string(),
            ".",
            &(permille % 10).to_string(),
            r#"%"></div></div><p class="grace-text">"#,
        ],
    );
    state(&mut o, if matches!(v.state, GraceState::Left(_)) { "ok" } else { "unknown" }, &text);
    if !then.is_empty() {
        cat(&mut o, &[" ", &escape(then)]);
    }
    cat(&mut o, &[r#"</p><p class="explain">"#, &t(Key::GraceExplain), "</p></div></div>"]);
    o
}

/// The Pods tab.
pub fn pods_markup(rows: &[PodRow], lang: Lang) -> String {
    if rows.is_empty() {
        return empty_markup(None, lang.text(Key::NoPods));
    }
    let mut o = String::from(r#"<div class="table-scroll"><table class="pods"><tbody><tr class="head">"#);
    headers(&mut o, lang, &[Key::ColName, Key::ColPhase, Key::ColReady, Key::ColNode, Key::ColAge], false);
    o.push_str("</tr>");
    for r in rows {
        let class = match r.status.as_str() {
            "Running" => "ok",
            "Terminating" | "Failed" | "Unknown" => "bad",
            _ => "unknown",
        };
        cat(&mut o, &[r#"<tr><th scope="row">"#, &escape(&r.name), "</th><td>"]);
        state(&mut o, class, &r.status);
        cat(
            &mut o,
            &[
                "</td><td>",
                &escape(&r.ready),
                "</td><td>",
                &escape(&r.node),
                "</td><td>",
                &escape(&r.age),
                "</td></tr>",
            ],
        );
    }
    o.push_str("</tbody></table></div>");
    o
}

/// The Events tab, oldest first.
pub fn events_markup(list: &EventList, lang: Lang) -> String {
    if list.rows.is_empty() {
        return empty_markup(None, lang.text(Key::NoEvents));
    }
    let mut o = String::new();
    if list.capped {
        cat(
            &mut o,
            &[r#"<p class="legend">"#, &escape(&lang.fill(Key::EventsCapped, &[&EVENT_CAP.to_string()])), "</p>"],
        );
    }
    o.push_str(
        r#"<div class="table-scroll"><table class="events stack" role="table"><tbody role="rowgroup"><tr role="row" class="head">"#,
    );
    headers(&mut o, lang, &[Key::ColLastSeen, Key::ColType, Key::ColReason, Key::ColObject, Key::ColMessage], true);
    o.push_str("</tr>");
    let seen = escape(lang.text(Key::ColLastSeen));
    for r in &list.rows {
        let warning = r.type_ == "Warning";
        cat(
            &mut o,
            &[
                r#"<tr role="row""#,
                if warning { r#" class="warning""# } else { "" },
                r#"><td role="cell" class="c-seen nowrap" data-label=""#,
                &seen,
                r#"">"#,
                &escape(&r.last_seen),
                r#"</td><td role="cell" class="c-type">"#,
            ],
        );
        state(&mut o, if warning { "bad" } else { "neutral" }, &r.type_);
        cat(
            &mut o,
            &[
                r#"</td><td role="cell" class="c-reason">"#,
                &escape(&r.reason),
                r#"</td><td role="cell" class="c-object nowrap">"#,
                &escape(&r.object),
                r#"</td><td role="cell" class="c-message">"#,
                &escape(&r.message),
                "</td></tr>",
            ],
        );
    }
    o.push_str("</tbody></table></div>");
    o
}

/// The inspector's tabs, in order (Events stays last), with the ids their elements use
/// (`inspector-tab-<id>`, `inspector-panel-<id>`, `inspector-body-<id>`) and their labels.
pub const TABS: [(&str, Key); 7] = [
    ("node", Key::TabNode),
    ("lease", Key::TabLease),
    ("pods", Key::TabPods),
    ("yaml", Key::TabYaml),
    ("kubectl", Key::TabKubectl),
    ("requests", Key::TabRequests),
    ("events", Key::TabEvents),
];

/// The tab the arrow keys, Home and End move to from tab `i`.
pub fn tab_moved(i: usize, key: &str) -> Option<usize> {
    let n = TABS.len();
    match key {
        "ArrowRight" => Some((i + 1) % n),
        "ArrowLeft" => Some((i + n - 1) % n),
        "Home" => Some(0),
        "End" => Some(n - 1),
        _ => None,
    }
}

/// The inspector's frame, written once per language: the heading and Node picker, the WAI-ARIA
/// tab list, and every panel with the element its content goes into (the first tab selected;
/// the component keeps `aria-selected`, `tabindex` and `hidden` in step with the open tab). The
/// YAML panel holds its two pickers and the kubectl panel its prompt: they persist while the
/// content beside them changes.
pub fn frame_markup(lang: Lang) -> String {
    let t = |k: Key| escape(lang.text(k)).into_owned();
    let mut o = format!(
        r#"<div class="inspector-head"><h2 id="inspector-title">{}</h2><div class="node-pick" id="inspector-pick" hidden><label for="inspector-node">{}</label><select id="inspector-node"></select></div></div><div role="tablist" class="tabs" aria-labelledby="inspector-title">"#,
        t(Key::Inspector),
        t(Key::InspectNode)
    );
    for (i, (id, label)) in TABS.iter().enumerate() {
        o.push_str(&format!(
            r#"<button type="button" role="tab" id="inspector-tab-{id}" aria-controls="inspector-panel-{id}" aria-selected="{}" tabindex="{}">{}</button>"#,
            i == 0,
            if i == 0 { 0 } else { -1 },
            t(*label)
        ));
    }
    o.push_str("</div>");
    for (i, (id, _)) in TABS.iter().enumerate() {
        o.push_str(&format!(
            r#"<div role="tabpanel" id="inspector-panel-{id}" aria-labelledby="inspector-tab-{id}" tabindex="0" class="tabpanel"{}>"#,
            if i == 0 { "" } else { " hidden" }
        ));
        match *id {
            "yaml" => o.push_str(&format!(
                r#"<div class="yaml-controls"><label><span>{}</span><select id="yaml-object"></select></label><label><span>{}</span><select id="yaml-compare"></select></label></div>"#,
                t(Key::YamlObject),
                t(Key::YamlCompareWith)
            )),
            "kubectl" => o.push_str(&format!(
                r#"<p class="help" id="kubectl-help">{help}</p><form class="kubectl-prompt" id="kubectl-form"><label for="kubectl-input" class="prompt-sign"><span aria-hidden="true">$</span><span class="sr-only">{label}</span></label><input id="kubectl-input" type="text" spellcheck="false" autocomplete="off" autocapitalize="off" aria-describedby="kubectl-help" placeholder="kubectl get nodes"><button type="submit">{run}</button></form><div class="suggestions" role="group" aria-label="{try_}"><span class="suggestions-label" aria-hidden="true">{try_}</span><span id="kubectl-suggestions"></span></div>"#,
                help = t(Key::KubectlHelp),
                label = t(Key::KubectlPromptLabel),
                run = t(Key::KubectlRun),
                try_ = t(Key::KubectlSuggestions),
            )),
            _ => {}
        }
        o.push_str(&format!(r#"<div class="panel-body" id="inspector-body-{id}"></div></div>"#));
    }
    o
}

/// The Node picker's options, `selected` marked.
pub fn picker_markup(names: &[String], selected: Option<&str>) -> String {
    names
        .iter()
        .map(|n| {
            format!(
                r#"<option value="{0}"{1}>{0}</option>"#,
                escape(n),
                if selected == Some(n.as_str()) { " selected" } else { "" }
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::sim::objects::{
        Container, ContainerState, ContainerStateRunning, ContainerStateWaiting, ContainerStatus, EventSeries,
        EventSource, MicroTime, ObjectMeta, ObjectReference, PodSpec, PodStatus, Time,
    };
    use crate::sim::{Action, ActionKind, Chapter, Config, DEFAULT_EPOCH, Timeline};

    fn w(s: &str) -> WallTime {
        WallTime::parse_rfc3339(s).unwrap()
    }

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn human_duration_matches_kubectl() {
        let s = |n: i64| human_duration(n * 1_000_000);
        for (secs, want) in [
            (-5, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (59, "59s"),
            (90, "90s"),
            (119, "119s"),
            (120, "2m"),
            (150, "2m30s"),
            (300, "5m"),
            (599, "9m59s"),
            (600, "10m"),
            (179 * 60 + 59, "179m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 12 * 60 + 30, "3h12m"),
            (8 * 3600, "8h"),
            (10 * 3600 + 59 * 60, "10h"),
            (47 * 3600 + 3599, "47h"),
            (48 * 3600, "2d"),
            (51 * 3600, "2d3h"),
            (7 * 86_400 + 23 * 3600, "7d23h"),
            (8 * 86_400, "8d"),
            (45 * 86_400, "45d"),
            (729 * 86_400, "729d"),
            (730 * 86_400, "2y"),
            (731 * 86_400, "2y1d"),
            (9 * 365 * 86_400, "9y"),
        ] {
            assert_eq!(s(secs), want, "{secs}s");
        }
        // Fractions truncate, as Go's int(d.Seconds()) does.
        assert_eq!(human_duration(1_999_999), "1s");
        assert_eq!(human_duration(-1_500_000), "0s");
        assert_eq!(since(WallTime(0), None), "<unknown>");
    }

    fn condition(ty: &'static str, status: &'static str, reason: &'static str, hb: &str, tr: &str) -> NodeCondition {
        NodeCondition {
            type_: Cow::Borrowed(ty),
            status: Cow::Borrowed(status),
            last_heartbeat_time: Time(w(hb)),
            last_transition_time: Time(w(tr)),
            reason: Cow::Borrowed(reason),
            message: Cow::Borrowed("m"),
        }
    }

    fn node(ready: Option<&'static str>) -> Node {
        let mut n = Node::new("node-1");
        n.metadata.creation_timestamp = Some(Time(w("2026-03-02T09:00:00Z")));
        n.status.conditions.push(condition(
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "2026-03-02T09:00:00Z",
            "2026-03-02T09:00:00Z",
        ));
        if let Some(s) = ready {
            n.status.conditions.push(condition(
                "Ready",
                s,
                "KubeletReady",
                "2026-03-02T09:00:40Z",
                "2026-03-02T09:00:40Z",
            ));
        }
        n
    }

    #[test]
    fn node_status_follows_the_ready_condition_only() {
        assert_eq!(node_status(&node(Some("True"))), "Ready");
        assert_eq!(node_status(&node(Some("False"))), "NotReady");
        assert_eq!(node_status(&node(Some("Unknown"))), "NotReady");
        assert_eq!(node_status(&node(None)), "Unknown");
        let mut cordoned = node(Some("True"));
        cordoned.spec.unschedulable = true;
        assert_eq!(node_status(&cordoned), "Ready,SchedulingDisabled");
    }

    #[test]
    fn roles_come_from_labels() {
        let mut n = node(Some("True"));
        assert_eq!(node_roles(&n), "<none>");
        n.metadata.labels.insert("node-role.kubernetes.io/worker".into(), String::new());
        n.metadata.labels.insert("node-role.kubernetes.io/control-plane".into(), String::new());
        n.metadata.labels.insert("node-role.kubernetes.io/".into(), String::new());
        n.metadata.labels.insert("kubernetes.io/role".into(), "infra".into());
        assert_eq!(node_roles(&n), "control-plane,infra,worker");
    }

    #[test]
    fn node_line_is_a_kubectl_get_nodes_row() {
        let mut n = node(Some("True"));
        n.status.node_info = std::sync::Arc::new(crate::sim::objects::NodeSystemInfo {
            kubelet_version: "v1.34.1".into(),
            ..Default::default()
        });
        let line = node_line(&n, w("2026-03-02T09:02:30Z"));
        assert_eq!(
            line,
            NodeLine {
                name: "node-1".into(),
                status: "Ready".into(),
                roles: "<none>".into(),
                age: "2m30s".into(),
                version: "v1.34.1".into(),
            }
        );
    }

    #[test]
    fn condition_health_pairs_type_and_status() {
        assert_eq!(condition_health("Ready", "True"), Health::Good);
        assert_eq!(condition_health("Ready", "False"), Health::Bad);
        assert_eq!(condition_health("MemoryPressure", "False"), Health::Good);
        assert_eq!(condition_health("DiskPressure", "True"), Health::Bad);
        assert_eq!(condition_health("PIDPressure", "Unknown"), Health::Unknown);
    }

    #[test]
    fn marks_the_cells_that_changed() {
        let before = node(Some("True"));
        let mut after = before.clone();
        let ready = after.status.conditions.iter_mut().find(|c| c.type_ == "Ready").unwrap();
        ready.status = "Unknown".into();
        ready.reason = "NodeStatusUnknown".into();
        ready.message = "Kubelet stopped posting node status.".into();
        ready.last_transition_time = Time(w("2026-03-02T09:02:00Z"));
        after.spec.taints.push(Taint::new(
            "node.kubernetes.io/unreachable",
            "NoSchedule",
            Some(Time(w("2026-03-02T09:02:00Z"))),
        ));
        let v = node_view(&after, Some(&before), w("2026-03-02T09:02:01Z"));
        assert!(v.status_changed);
        assert_eq!(v.line.status, "NotReady");
        let mem = &v.conditions[0];
        assert!(!mem.type_.changed && !mem.status.changed && !mem.last_heartbeat.changed && !mem.message.changed);
        let r = &v.conditions[1];
        assert_eq!(r.status.text, "Unknown");
        assert_eq!(r.health, Health::Unknown);
        assert!(r.status.changed && r.reason.changed && r.message.changed && r.last_transition.changed);
        assert!(!r.type_.changed && !r.last_heartbeat.changed);
        assert_eq!(r.last_transition.text, "Mon, 02 Mar 2026 09:02:00 +0000");
        assert_eq!(
            v.taints,
            vec![TaintRow {
                key: "node.kubernetes.io/unreachable".into(),
                effect: "NoSchedule".into(),
                time_added: Some("2026-03-02T09:02:00Z".into()),
                changed: true,
            }]
        );
        // Nothing changed: nothing marked. A Node that did not exist before: everything marked.
        let same = node_view(&before, Some(&before), w("2026-03-02T09:02:01Z"));
        assert!(!same.status_changed);
        assert!(same.conditions.iter().all(|c| !c.status.changed && !c.type_.changed && !c.reason.changed));
        let new = node_view(&before, None, w("2026-03-02T09:00:01Z"));
        assert!(new.status_changed && new.conditions.iter().all(|c| c.type_.changed && c.last_heartbeat.changed));
    }

    #[test]
    fn passes_and_grace_countdown() {
        let phase = Duration::from_millis(1_200);
        assert_eq!(next_pass(SimTime::ZERO, phase), SimTime::from_millis(1_200));
        assert_eq!(next_pass(SimTime::from_millis(1_200), phase), SimTime::from_millis(1_200));
        assert_eq!(next_pass(SimTime::from_millis(1_201), phase), SimTime::from_millis(6_200));
        assert_eq!(next_pass(SimTime::from_secs(93), phase), SimTime::from_millis(96_200));
        // Renewed at 93 s, seen at the 96.2 s pass: 50 s of grace run out at 146.2 s.
        let grace = secs(50);
        let hb = SimTime::from_secs(93);
        assert_eq!(
            grace_state(hb, Some(phase), grace, SimTime::from_secs(100)),
            GraceState::Left(Duration::from_millis(46_200))
        );
        assert_eq!(
            grace_state(hb, Some(phase), grace, SimTime::from_millis(146_199)),
            GraceState::Left(Duration::from_millis(1))
        );
        assert_eq!(grace_state(hb, Some(phase), grace, SimTime::from_millis(146_200)), GraceState::Passed);
        // No pass seen yet: the heartbeat stands in for the probe.
        assert_eq!(grace_state(hb, None, secs(40), SimTime::from_secs(100)), GraceState::Left(secs(33)));
        assert_eq!(countdown(Duration::from_millis(46_200)), "47s");
        assert_eq!(countdown(Duration::from_millis(1)), "1s");
        assert_eq!(countdown(secs(130)), "2m10s");
    }

    fn lease(renew: &str) -> Lease {
        let mut l = Lease::new("kube-node-lease", "node-1");
        l.spec.holder_identity = Some("node-1".into());
        l.spec.lease_duration_seconds = Some(40);
        l.spec.renew_time = Some(MicroTime(w(renew)));
        l
    }

    #[test]
    fn lease_view_counts_from_the_newest_heartbeat() {
        let epoch = w("2026-03-02T09:00:00Z");
        let l = lease("2026-03-02T09:01:33.250000Z");
        let n = node(Some("True"));
        let now = SimTime::from_secs(100);
        let v = lease_view(&l, Some(&lease("2026-03-02T09:01:23.250000Z")), Some(&n), epoch, now, None, secs(50));
        assert_eq!(v.renew_time.as_deref(), Some("2026-03-02T09:01:33.250000Z"));
        assert_eq!(v.renewed_ago.as_deref(), Some("6s"));
        assert!(v.renew_changed);
        assert_eq!(v.state, GraceState::Left(Duration::from_millis(43_250)));
        assert!(!v.node_unknown);
        // The Ready heartbeat can be the newer one.
        let mut fresh = n.clone();
        fresh.status.conditions[1].last_heartbeat_time = Time(w("2026-03-02T09:01:38Z"));
        let v = lease_view(&l, Some(&l), Some(&fresh), epoch, now, None, secs(50));
        assert_eq!(v.state, GraceState::Left(secs(48)));
        assert!(!v.renew_changed);
        let v = lease_view(&l, Some(&l), Some(&node(Some("Unknown"))), epoch, SimTime::from_secs(200), None, secs(50));
        assert_eq!(v.state, GraceState::Passed);
        assert!(v.node_unknown);
    }

    fn pod(phase: &str, statuses: Vec<ContainerStatus>) -> Pod {
        Pod {
            kind: "Pod",
            api_version: "v1",
            metadata: ObjectMeta {
                name: "web-1".into(),
                namespace: "default".into(),
                creation_timestamp: Some(Time(w("2026-03-02T09:00:00Z"))),
                ..ObjectMeta::default()
            },
            spec: PodSpec {
                containers: vec![Container {
                    name: "web".into(),
                    image: "nginx".into(),
                    resources: Default::default(),
                    volume_mounts: Vec::new(),
                    termination_message_path: String::new(),
                    termination_message_policy: String::new(),
                    image_pull_policy: String::new(),
                }],
                ..PodSpec::default()
            },
            status: PodStatus { phase: phase.into(), container_statuses: statuses, ..PodStatus::default() },
        }
    }

    fn status(waiting: Option<&str>, running: bool, ready: bool) -> ContainerStatus {
        ContainerStatus {
            name: "web".into(),
            state: ContainerState {
                waiting: waiting.map(|r| ContainerStateWaiting { reason: r.into(), message: String::new() }),
                running: running.then(|| ContainerStateRunning { started_at: Time(w("2026-03-02T09:00:05Z")) }),
                terminated: None,
            },
            last_state: ContainerState::default(),
            ready,
            restart_count: 0,
            image: "nginx".into(),
            image_id: String::new(),
            container_id: String::new(),
            started: running,
        }
    }

    #[test]
    fn pod_status_and_ready_follow_kubectl() {
        let pending = pod("Pending", vec![]);
        assert_eq!((pod_status(&pending), pod_ready(&pending)), ("Pending".into(), "0/1".into()));
        let creating = pod("Pending", vec![status(Some("ContainerCreating"), false, false)]);
        assert_eq!(pod_status(&creating), "ContainerCreating");
        let running = pod("Running", vec![status(None, true, true)]);
        assert_eq!((pod_status(&running), pod_ready(&running)), ("Running".into(), "1/1".into()));
        // Running but not ready (a probe failing): READY counts only ready containers.
        let unready = pod("Running", vec![status(None, true, false)]);
        assert_eq!((pod_status(&unready), pod_ready(&unready)), ("Running".into(), "0/1".into()));
        let mut deleted = running.clone();
        deleted.metadata.deletion_timestamp = Some(Time(w("2026-03-02T09:06:00Z")));
        assert_eq!(pod_status(&deleted), "Terminating");
        let mut done = pod("Succeeded", vec![]);
        done.metadata.deletion_timestamp = Some(Time(w("2026-03-02T09:06:00Z")));
        assert_eq!(pod_status(&done), "Succeeded");
        let row = pod_row(&pending, w("2026-03-02T09:01:30Z"));
        assert_eq!(row.node, "<none>");
        assert_eq!(row.age, "90s");
    }

    fn event(count: Option<i32>, first: &str, last: &str) -> Event {
        Event {
            kind: "Event",
            api_version: "v1",
            metadata: ObjectMeta { name: "node-1.1".into(), namespace: "default".into(), ..ObjectMeta::default() },
            involved_object: ObjectReference { kind: "Node".into(), name: "node-1".into(), ..Default::default() },
            reason: "NodeHasSufficientMemory".into(),
            message: "Node node-1 status is now: NodeHasSufficientMemory".into(),
            source: EventSource { component: "kubelet".into(), host: "node-1".into() },
            first_timestamp: Some(Time(w(first))),
            last_timestamp: Some(Time(w(last))),
            count,
            type_: "Normal".into(),
            event_time: None,
            series: None,
            action: String::new(),
            reporting_component: "kubelet".into(),
            reporting_instance: "node-1".into(),
        }
    }

    #[test]
    fn event_rows_follow_kubectl() {
        let now = w("2026-03-02T09:01:00Z");
        let once = event_row(&event(Some(1), "2026-03-02T09:00:50Z", "2026-03-02T09:00:50Z"), now);
        assert_eq!(once.last_seen, "10s");
        assert_eq!(once.object, "node/node-1");
        assert_eq!(once.type_, "Normal");
        let twice = event_row(&event(Some(2), "2026-03-02T09:00:15Z", "2026-03-02T09:00:55Z"), now);
        assert_eq!(twice.last_seen, "5s (x2 over 45s)");
        // The events.k8s.io shape: eventTime, no count, maybe a series.
        let mut scheduler = event(None, "2026-03-02T09:00:00Z", "2026-03-02T09:00:00Z");
        scheduler.first_timestamp = None;
        scheduler.last_timestamp = None;
        scheduler.event_time = Some(MicroTime(w("2026-03-02T09:00:30.500000Z")));
        scheduler.involved_object = ObjectReference { kind: "Pod".into(), name: "web-1".into(), ..Default::default() };
        assert_eq!(event_row(&scheduler, now).last_seen, "29s");
        assert_eq!(event_row(&scheduler, now).object, "pod/web-1");
        scheduler.series = Some(EventSeries { count: 3, last_observed_time: MicroTime(w("2026-03-02T09:00:58Z")) });
        assert_eq!(event_row(&scheduler, now).last_seen, "2s (x3 over 29s)");
    }

    fn registration() -> Timeline {
        let mut tl = Timeline::new(Chapter::Registration, Config::default());
        tl.run_until(SimTime::from_secs(400));
        tl
    }

    #[test]
    fn inspects_the_registration_chapter() {
        let tl = registration();
        let log = tl.log();
        assert!(inspect_node(log, DEFAULT_EPOCH, "node-1", SimTime::ZERO).is_none());
        let t = SimTime::from_secs(90);
        let v = inspect_node(log, DEFAULT_EPOCH, "node-1", t).unwrap();
        assert_eq!(v.line.status, "Ready");
        assert_eq!(v.line.roles, "<none>");
        assert_eq!(
            v.conditions.iter().map(|c| c.type_.text.as_str()).collect::<Vec<_>>(),
            ["MemoryPressure", "DiskPressure", "PIDPressure", "Ready"]
        );
        let ready = &v.conditions[3];
        assert_eq!((ready.status.text.as_str(), ready.reason.text.as_str()), ("True", "KubeletReady"));
        assert!(
            ready.last_heartbeat.text.ends_with(" +0000")
                && ready.last_heartbeat.text.starts_with("Mon, 02 Mar 2026 09:0")
        );
        assert!(v.taints.is_empty(), "the not-ready taint is gone once Ready");
        // Right after registration (step 2 is shown just before the POST) the new Node is marked
        // as changed, and not-ready tainted.
        let step2 = tl.steps()[1].unwrap();
        assert!(inspect_node(log, DEFAULT_EPOCH, "node-1", step2).is_none());
        let v = inspect_node(log, DEFAULT_EPOCH, "node-1", step2 + secs(1)).unwrap();
        assert!(v.status_changed);
        assert_eq!(v.line.status, "NotReady");
        assert!(v.taints.iter().any(|t| t.key == "node.kubernetes.io/not-ready" && t.effect == "NoSchedule"));
        // The Lease renews every 10 s: the countdown never gets near zero.
        let phase = monitor_phase(log).expect("the controller has registered the node");
        assert!(phase < NODE_MONITOR_PERIOD);
        let l = inspect_lease(log, DEFAULT_EPOCH, "node-1", t, secs(50)).unwrap();
        assert_eq!(l.holder.as_deref(), Some("node-1"));
        assert_eq!(l.duration_seconds, Some(40));
        match l.state {
            GraceState::Left(d) => assert!(d > secs(35) && d <= secs(60), "{d:?}"),
            GraceState::Passed => panic!("a healthy node's grace period never passes"),
        }
        // Pods: the ordinary Pod and the tolerating one both run by the end.
        let rows = pod_rows(&tl.at(SimTime::from_secs(120)), DEFAULT_EPOCH);
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.status == "Running" && r.ready == "1/1" && r.node == "node-1"), "{rows:?}");
        // Events: oldest first, capped.
        let events = event_list(log, DEFAULT_EPOCH, t, EVENT_CAP);
        assert!(!events.rows.is_empty() && !events.capped);
        assert!(events.rows.iter().any(|r| r.reason == "NodeReady" && r.object == "node/node-1"));
        let few = event_list(log, DEFAULT_EPOCH, t, 3);
        assert!(few.capped);
        assert_eq!(few.rows.len(), 3);
        assert_eq!(few.rows[2], events.rows[events.rows.len() - 1]);
    }

    #[test]
    fn a_killed_kubelet_runs_out_the_grace_period_and_the_node_goes_unknown() {
        let config = Config::default();
        let grace = config.profile.node_monitor_grace_period();
        let kill = SimTime::from_secs(90);
        let mut tl =
            Timeline::with_actions(Chapter::Registration, config, &[Action::new(ActionKind::KillKubelet, kill)]);
        tl.run_until(SimTime::from_secs(200));
        let log = tl.log();
        // Find when the Node went Unknown, and check the countdown had just passed then.
        let unknown = (90..200)
            .map(SimTime::from_secs)
            .find(|&t| inspect_node(log, DEFAULT_EPOCH, "node-1", t).unwrap().line.status == "NotReady")
            .expect("the node goes NotReady");
        assert!(unknown <= kill + grace + secs(15), "NotReady at {unknown}");
        let v = inspect_node(log, DEFAULT_EPOCH, "node-1", unknown).unwrap();
        let ready = v.conditions.iter().find(|c| c.type_.text == "Ready").unwrap();
        assert_eq!(ready.status.text, "Unknown");
        assert_eq!(ready.reason.text, "NodeStatusUnknown");
        assert_eq!(ready.message.text, "Kubelet stopped posting node status.");
        assert!(ready.status.changed);
        let l = inspect_lease(log, DEFAULT_EPOCH, "node-1", unknown, grace).unwrap();
        assert_eq!(l.state, GraceState::Passed);
        assert!(l.node_unknown);
        // The deadline falls on a pass, but the controller needs `now > probe + grace`: it acts at
        // the next pass, 5 s later. In between the countdown says the grace period has passed.
        let between = inspect_lease(log, DEFAULT_EPOCH, "node-1", unknown.saturating_sub(secs(1)), grace).unwrap();
        assert_eq!(between.state, GraceState::Passed);
        assert!(!between.node_unknown);
        let early = inspect_lease(log, DEFAULT_EPOCH, "node-1", unknown.saturating_sub(secs(11)), grace).unwrap();
        assert!(matches!(early.state, GraceState::Left(d) if d <= secs(11)), "{:?}", early.state);
    }
}
