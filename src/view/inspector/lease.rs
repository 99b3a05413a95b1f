//! The Lease tab: the node's Lease and the node monitor grace period counting down, as the node
//! lifecycle controller counts it.

use std::time::Duration;

use super::CHANGE_WINDOW;
use super::markup::state;
use crate::i18n::{Key, Lang};
use crate::render::kubectl_printer::human_duration;
use crate::sim::objects::{Lease, Node};
use crate::sim::record::Log;
use crate::sim::{NODE_MONITOR_PERIOD, SimTime, Snapshot, Timeline};
use crate::view::html::{cat, escape};

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
    let e = log.events.iter().find(|e| e.reason() == "RegisteredNode" && e.source() == "node-controller")?;
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

/// The Lease tab for `lease` at the instant of `now` (only its clock is read), with the Node it
/// belongs to (for its Ready heartbeat).
pub fn lease_view(
    lease: &Lease,
    before: Option<&Lease>,
    node: Option<&Node>,
    now: &Snapshot<'_>,
    phase: Option<Duration>,
    grace: Duration,
) -> LeaseView {
    let (t, wall) = (now.time(), now.wall());
    let renew = lease.spec.renew_time.map(|m| m.0);
    let heartbeat = node.and_then(|n| n.condition("Ready")).map(|c| c.last_heartbeat_time.0);
    // The newest heartbeat, as a simulated instant: as long before `t` as it is before the wall
    // clock (clamped at the start).
    let last = renew
        .into_iter()
        .chain(heartbeat)
        .max()
        .map(|w| t.saturating_sub(Duration::from_micros((wall.0 - w.0).max(0) as u64)));
    let state = match last {
        Some(last) => grace_state(last, phase, grace, t),
        None => GraceState::Passed,
    };
    LeaseView {
        name: lease.metadata.name.to_string(),
        namespace: lease.metadata.namespace.to_string(),
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
pub fn inspect_lease(timeline: &Timeline, name: &str, t: SimTime, grace: Duration) -> Option<LeaseView> {
    let now = timeline.at(t);
    let lease = now.lease(name)?;
    let before = timeline.at(t.saturating_sub(CHANGE_WINDOW)).lease(name);
    let phase = monitor_phase(timeline.log());
    Some(lease_view(&lease, before.as_deref(), now.node(name).as_deref(), &now, phase, grace))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::objects::Time;
    use crate::sim::{Action, ActionKind, Chapter, Config};
    use crate::view::inspector::fixtures::{lease, node, secs, w};
    use crate::view::inspector::inspect_node;

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

    #[test]
    fn lease_view_counts_from_the_newest_heartbeat() {
        // Only the clock of the snapshot is read: 100 s past an epoch of 09:00:00.
        let clock = Timeline::new(Chapter::Registration, Config::default());
        let now = clock.at(SimTime::from_secs(100));
        assert_eq!(now.wall(), w("2026-03-02T09:01:40Z"));
        let l = lease("2026-03-02T09:01:33.250000Z");
        let n = node(Some("True"));
        let v = lease_view(&l, Some(&lease("2026-03-02T09:01:23.250000Z")), Some(&n), &now, None, secs(50));
        assert_eq!(v.renew_time.as_deref(), Some("2026-03-02T09:01:33.250000Z"));
        assert_eq!(v.renewed_ago.as_deref(), Some("6s"));
        assert!(v.renew_changed);
        assert_eq!(v.state, GraceState::Left(Duration::from_millis(43_250)));
        assert!(!v.node_unknown);
        // The Ready heartbeat can be the newer one.
        let mut fresh = n.clone();
        fresh.status.conditions[1].last_heartbeat_time = Time(w("2026-03-02T09:01:38Z"));
        let v = lease_view(&l, Some(&l), Some(&fresh), &now, None, secs(50));
        assert_eq!(v.state, GraceState::Left(secs(48)));
        assert!(!v.renew_changed);
        let later = clock.at(SimTime::from_secs(200));
        let v = lease_view(&l, Some(&l), Some(&node(Some("Unknown"))), &later, None, secs(50));
        assert_eq!(v.state, GraceState::Passed);
        assert!(v.node_unknown);
    }

    #[test]
    fn a_killed_kubelet_runs_out_the_grace_period_and_the_node_goes_unknown() {
        let config = Config::default();
        let grace = config.settings().node_monitor_grace_period;
        let kill = SimTime::from_secs(90);
        let mut tl =
            Timeline::with_actions(Chapter::Registration, config, &[Action::new(ActionKind::KillKubelet, kill)]);
        tl.run_until(SimTime::from_secs(200));
        // Find when the Node went Unknown, and check the countdown had just passed then.
        let unknown = (90..200)
            .map(SimTime::from_secs)
            .find(|&t| inspect_node(&tl, "node-1", t).unwrap().line.status == "NotReady")
            .expect("the node goes NotReady");
        assert!(unknown <= kill + grace + secs(15), "NotReady at {unknown}");
        let v = inspect_node(&tl, "node-1", unknown).unwrap();
        let ready = v.conditions.iter().find(|c| c.type_.text == "Ready").unwrap();
        assert_eq!(ready.status.text, "Unknown");
        assert_eq!(ready.reason.text, "NodeStatusUnknown");
        assert_eq!(ready.message.text, "Kubelet stopped posting node status.");
        assert!(ready.status.changed);
        let l = inspect_lease(&tl, "node-1", unknown, grace).unwrap();
        assert_eq!(l.state, GraceState::Passed);
        assert!(l.node_unknown);
        // The deadline falls on a pass, but the controller needs `now > probe + grace`: it acts at
        // the next pass, 5 s later. In between the countdown says the grace period has passed.
        let between = inspect_lease(&tl, "node-1", unknown.saturating_sub(secs(1)), grace).unwrap();
        assert_eq!(between.state, GraceState::Passed);
        assert!(!between.node_unknown);
        let early = inspect_lease(&tl, "node-1", unknown.saturating_sub(secs(11)), grace).unwrap();
        assert!(matches!(early.state, GraceState::Left(d) if d <= secs(11)), "{:?}", early.state);
    }
}
