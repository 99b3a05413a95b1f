//! The Node tab: the `kubectl get node` line, the Conditions table (cells that just changed
//! marked) and the taints.

use std::time::Duration;

use super::CHANGE_WINDOW;
use super::markup::{break_after_slash, changed_attrs, headers, state};
use crate::i18n::{Key, Lang};
use crate::render::kubectl_printer::get::{node_roles, node_status};
use crate::render::kubectl_printer::since;
use crate::sim::action::Target;
use crate::sim::objects::{Node, NodeCondition, Taint};
use crate::sim::{Log, SimTime, Timeline, WallTime};
use crate::view::html::{cat, escape};

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
        name: node.metadata.name.to_string(),
        status: node_status(node),
        roles: node_roles(node),
        age: since(now, node.metadata.creation_timestamp.map(|t| t.0)),
        version: node.status.node_info.kubelet_version.clone(),
    }
}

/// Whether a condition's status is good news, bad news, or unknown (for colour and shape; the
/// text always says True, False or Unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConditionHealth {
    Good,
    Bad,
    #[default]
    Unknown,
}

impl ConditionHealth {
    /// A class name for styling.
    pub fn class(self) -> &'static str {
        match self {
            ConditionHealth::Good => "ok",
            ConditionHealth::Bad => "bad",
            ConditionHealth::Unknown => "unknown",
        }
    }
}

/// Whether a node condition's status is healthy: `Ready` wants True, every pressure (and
/// `NetworkUnavailable`) wants False.
pub fn condition_health(type_: &str, status: &str) -> ConditionHealth {
    match (type_ == "Ready", status) {
        (_, "Unknown") => ConditionHealth::Unknown,
        (true, "True") | (false, "False") => ConditionHealth::Good,
        (true, "False") | (false, "True") => ConditionHealth::Bad,
        _ => ConditionHealth::Unknown,
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
    pub health: ConditionHealth,
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

/// The Node tab for the Node `name` at `t` (`None`: no such Node at `t`).
pub fn inspect_node(timeline: &Timeline, name: &str, t: SimTime) -> Option<NodeView> {
    let now = timeline.at(t);
    let node = now.node(name)?;
    let before = timeline.at(t.saturating_sub(CHANGE_WINDOW)).node(name);
    Some(node_view(&node, before.as_deref(), now.wall()))
}

/// How far ahead of the playhead an input already decides the Node the story is about: a step
/// opens up to 2 s before its moment, and shows the Node its moment is about.
const STORY_AHEAD: Duration = Duration::from_secs(2);

/// The Node the story is about at `t`: the one the last applied input up to `t` (or up to 2 s
/// later) aimed at (a machine's action, or `kubectl taint`'s Node), scripted or the reader's.
/// `None` before any such input. The name is the machine's hostname, whether or not its Node
/// exists at `t`.
pub fn story_node(log: &Log, t: SimTime) -> Option<String> {
    let upto = log.inputs.partition_point(|i| i.t <= t + STORY_AHEAD);
    let input = log.inputs[..upto]
        .iter()
        .rev()
        .find(|i| i.rejected.is_none() && matches!(i.action.kind.target(), Target::Machine | Target::NodeTaint))?;
    let machine = match (input.action.kind.target(), input.action.machine.as_deref()) {
        (Target::NodeTaint, Some(arg)) => arg.split('/').next().unwrap_or(arg),
        (_, Some(name)) => name,
        (_, None) => return machine_node(log, 0, t),
    };
    (0..log.machine_count_at(t))
        .filter_map(|i| log.machine_at(i, t))
        .find(|m| m.name == machine || m.hostname == machine)
        .map(|m| m.hostname.to_string())
}

/// The Node machine `index` registers at `t` (its hostname; the first machine's if there is no
/// such machine): the inspector's default Node.
pub fn machine_node(log: &Log, index: usize, t: SimTime) -> Option<String> {
    log.machine_at(index, t).or_else(|| log.machine_at(0, t)).map(|m| m.hostname.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::objects::Time;
    use crate::view::inspector::fixtures::{node, w};

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
        assert_eq!(condition_health("Ready", "True"), ConditionHealth::Good);
        assert_eq!(condition_health("Ready", "False"), ConditionHealth::Bad);
        assert_eq!(condition_health("MemoryPressure", "False"), ConditionHealth::Good);
        assert_eq!(condition_health("DiskPressure", "True"), ConditionHealth::Bad);
        assert_eq!(condition_health("PIDPressure", "Unknown"), ConditionHealth::Unknown);
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
        assert_eq!(r.health, ConditionHealth::Unknown);
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
}
