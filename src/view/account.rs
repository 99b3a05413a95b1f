//! The reader's story: once the reader's actions depart from the chapter's story, the narration
//! gives an account of what they caused, read from the timeline at the playhead.
//!
//! What happened ([`Account::lines`]) comes from the log up to the playhead only: the inputs
//! (the reader's and the script's), the Nodes' `Ready` changes and taints, the Pods the
//! controllers mark for deletion, schedule or fail to schedule, and what the reader's kubectl
//! printed (a 429 retried every 5 s is one line with its count). What comes next
//! ([`Account::next`]) is predicted from the state at the playhead and the known rules (the
//! profile's grace period, the Pods' `tolerationSeconds`, kubectl's retries), never read from
//! the log beyond the playhead. The fleet chapter's account is concise: the inputs, the zones'
//! states and master disruption mode.
//!
//! The text is narration markup (`` `code` ``), in the reader's language, from the catalogue.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::i18n::{Key, Lang};
use crate::sim::objects::{ChangeType, Node, Object, Pod};
use crate::sim::{Action, ActionKind, Actor, KubeletState, SimTime, Snapshot, Timeline, format_go_duration, memory};
use crate::view::fleet::ControllerLines;
use crate::view::html::cat;
use crate::view::notice::refusal_text;
use crate::view::pages::{Words, paragraphs};

/// The most lines of what happened an account shows (the earliest are counted, not shown).
pub const MAX_LINES: usize = 12;

/// The taint the node lifecycle controller puts on a Node it stopped hearing from.
const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
/// The taint it puts on a Node whose kubelet reports it not ready.
const NOT_READY: &str = "node.kubernetes.io/not-ready";

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub t: SimTime,
    /// What happened, as narration markup.
    pub text: String,
    /// The reader did it.
    pub yours: bool,
}

/// The account at one instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// When the reader first changed the story.
    pub departed: SimTime,
    /// `You changed the story at 1:30: node-2's kubelet stopped.`
    pub headline: String,
    /// What happened since, oldest first (at most [`MAX_LINES`]).
    pub lines: Vec<Line>,
    /// How many earlier lines are left out.
    pub earlier: usize,
    /// What is expected next, from the state at the playhead and the known rules.
    pub next: Vec<String>,
}

impl Account {
    /// The account as the narration panel shows it: the headline, what happened (each line with
    /// its moment) and what comes next, as HTML (`` `code` `` as `<code>`).
    pub fn markup(&self, lang: Lang) -> String {
        let mut o = String::with_capacity(2048);
        let para = |o: &mut String, text: &str| paragraphs(o, &[text], Words::Plain);
        o.push_str("<p class=\"account-headline\">");
        para(&mut o, &self.headline);
        cat(&mut o, &["</p><h3 class=\"account-head\">", lang.text(Key::AccountHappened), "</h3>"]);
        if self.earlier > 0 {
            cat(
                &mut o,
                &[
                    "<p class=\"account-earlier\">",
                    &lang.fill(Key::AccountEarlier, &[&self.earlier.to_string()]),
                    "</p>",
                ],
            );
        }
        o.push_str("<ol class=\"account-lines\">");
        for l in &self.lines {
            cat(
                &mut o,
                &[
                    if l.yours { "<li class=\"yours\">" } else { "<li>" },
                    "<span class=\"account-t\">",
                    &clock(l.t),
                    "</span> ",
                ],
            );
            para(&mut o, &l.text);
            o.push_str("</li>");
        }
        cat(
            &mut o,
            &["</ol><h3 class=\"account-head\">", lang.text(Key::AccountNext), "</h3><ul class=\"account-next\">"],
        );
        for n in &self.next {
            o.push_str("<li>");
            para(&mut o, n);
            o.push_str("</li>");
        }
        o.push_str("</ul>");
        o
    }
}

/// `1:30`, `12:05`, `1:02:03`: a moment of the timeline as the account says it.
pub fn clock(t: SimTime) -> String {
    let s = t.since_start().as_secs();
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// The moment of the reader's first applied action, if it is at or before `t` (a read, `kubectl
/// logs` or `exec`, changes nothing: the story goes on).
pub fn departure(timeline: &Timeline, t: SimTime) -> Option<SimTime> {
    timeline.log().inputs.iter().find(|i| !i.scripted && !i.action.kind.reads() && i.t <= t).map(|i| i.t)
}

/// The reader's story at `t`, or `None` while the playhead is before their first action.
///
/// `index` is an index of the node lifecycle controller's lines (possibly empty, or covering only
/// part of the log), which the fleet's account reads its zone states from.
pub fn account(timeline: &Timeline, t: SimTime, lang: Lang, index: &ControllerLines) -> Option<Account> {
    let departed = departure(timeline, t)?;
    let log = timeline.log();
    let before = timeline.at(departed.saturating_sub(Duration::from_micros(1)));
    let first_machine = before.machines().first().map(|m| m.name.to_string()).unwrap_or_default();
    let mut facts = Facts::default();

    // The inputs.
    let mut headline = None;
    facts.run();
    for i in log.inputs.iter().filter(|i| i.t >= departed && i.t <= t && !i.action.kind.reads()) {
        let what = action_words(lang, &i.action, &first_machine);
        let text = match &i.rejected {
            Some(why) => lang.fill(Key::AccountRefused, &[&what, &refusal_text(lang, why)]),
            None => what.clone(),
        };
        if !i.scripted && headline.is_none() {
            headline = Some(lang.fill(Key::AccountDeparted, &[&clock(i.t), &text]));
        }
        let key = if i.scripted { Key::AccountByStory } else { Key::AccountByYou };
        facts.push(i.seq, i.t, lang.fill(key, &[&text]), !i.scripted);
    }

    if timeline.scenario().fleet {
        fleet_facts(timeline, departed, t, lang, &mut facts);
    } else {
        node_facts(timeline, &before, departed, t, lang, &mut facts);
    }

    let mut lines = facts.into_lines(lang);
    let earlier = lines.len().saturating_sub(MAX_LINES);
    lines.drain(..earlier);
    let now = timeline.at(t);
    let next = if timeline.scenario().fleet {
        fleet_predictions(timeline, &now, t, lang, index)
    } else {
        predictions(timeline, &now, t, lang)
    };
    Some(Account { departed, headline: headline.unwrap_or_default(), lines, earlier, next })
}

/// Facts as they are found, each with the log's sequence number (the log's order, which is its
/// time order), in runs each read in that order from one part of the log (the inputs, the object
/// versions, the Events, the log lines); a repeated one is counted on its first line.
#[derive(Default)]
struct Facts {
    /// Sequence number, the line, how many times, the last time.
    found: Vec<(u64, Line, usize, SimTime)>,
    /// Where each run starts in `found`.
    runs: Vec<usize>,
    /// Where each repeatable fact is (its text), so a repeat counts on it.
    repeats: BTreeMap<String, usize>,
}

impl Facts {
    /// The facts pushed from now on are a run of their own.
    fn run(&mut self) {
        self.runs.push(self.found.len());
    }

    fn push(&mut self, seq: u64, t: SimTime, text: String, yours: bool) {
        self.found.push((seq, Line { t, text, yours }, 1, t));
    }

    /// A fact that repeats (a retried eviction, a Pod that still does not fit): one line, counted.
    fn push_counted(&mut self, seq: u64, t: SimTime, text: String) {
        match self.repeats.get(&text) {
            Some(&i) => {
                let f = &mut self.found[i];
                f.2 += 1;
                f.3 = t;
            }
            None => {
                self.repeats.insert(text.clone(), self.found.len());
                self.push(seq, t, text, false);
            }
        }
    }

    /// The lines in the log's order: the runs merged (a merge of a few sorted runs, not a sort).
    fn into_lines(self, lang: Lang) -> Vec<Line> {
        let mut ends: Vec<usize> = self.runs.iter().skip(1).copied().collect();
        ends.push(self.found.len());
        let mut at = self.runs;
        let mut found: Vec<Option<(u64, Line, usize, SimTime)>> = self.found.into_iter().map(Some).collect();
        let mut lines = Vec::with_capacity(found.len());
        loop {
            let next = (0..at.len())
                .filter(|&r| at[r] < ends[r])
                .min_by_key(|&r| found[at[r]].as_ref().map_or(u64::MAX, |f| f.0));
            let Some(r) = next else { break };
            let Some((_, mut line, count, last)) = found[at[r]].take() else { break };
            at[r] += 1;
            if count > 1 {
                line.text = lang.fill(Key::AccountRepeated, &[&line.text, &count.to_string(), &clock(last)]);
            }
            lines.push(line);
        }
        lines
    }
}

/// The kubectl command line an action is, for the actions the kubectl panel types.
fn kubectl_line(action: &Action, node: &str) -> Option<String> {
    let target = action.machine.as_deref().unwrap_or(node);
    Some(match action.kind {
        ActionKind::Cordon => format!("kubectl cordon {target}"),
        ActionKind::Uncordon => format!("kubectl uncordon {target}"),
        ActionKind::Drain(flags) => {
            let mut line = format!("kubectl drain {target}");
            for arg in flags.args() {
                line.push(' ');
                line.push_str(&arg);
            }
            line
        }
        ActionKind::DeleteNode => format!("kubectl delete node {target}"),
        ActionKind::TaintOutOfService => {
            format!("kubectl taint nodes {target} node.kubernetes.io/out-of-service=nodeshutdown:NoExecute")
        }
        ActionKind::UntaintOutOfService => format!("kubectl taint nodes {target} node.kubernetes.io/out-of-service-"),
        ActionKind::Taint { overwrite } => {
            let (node, spec) = target.split_once('/').unwrap_or((target, ""));
            format!("kubectl taint nodes {node} {spec}{}", if overwrite { " --overwrite" } else { "" })
        }
        ActionKind::DeletePod(_) => {
            let (ns, name) = target.split_once('/').unwrap_or(("default", target));
            format!("kubectl delete pod {name} -n {ns}")
        }
        ActionKind::ApproveCsr => format!("kubectl certificate approve {target}"),
        ActionKind::DenyCsr => format!("kubectl certificate deny {target}"),
        ActionKind::Logs | ActionKind::Exec => {
            let (ns, name, container) = crate::sim::split_pod_container(target).unwrap_or(("default", target, None));
            let verb = if action.kind == ActionKind::Logs { "logs" } else { "exec" };
            let container = container.map(|c| format!(" -c {c}")).unwrap_or_default();
            let command = if action.kind == ActionKind::Exec { " -- …" } else { "" };
            format!("kubectl {verb} {name} -n {ns}{container}{command}")
        }
        ActionKind::DeleteBootstrapToken => {
            format!("kubectl -n kube-system delete secret bootstrap-token-{}", crate::sim::machine::BOOTSTRAP_TOKEN_ID)
        }
        ActionKind::DeleteAutoApproveBinding => {
            "kubectl delete clusterrolebinding kubeadm:node-autoapprove-bootstrap".to_string()
        }
        ActionKind::CreatePdb(budget) => {
            let flag = match budget {
                crate::sim::Budget::MinAvailable(v) => format!("--min-available={v}"),
                crate::sim::Budget::MaxUnavailable(v) => format!("--max-unavailable={v}"),
            };
            format!("kubectl create pdb web --selector=app=web {flag}")
        }
        _ => return None,
    })
}

/// What an action did, in words (`node-2's kubelet stopped`, ``ran `kubectl drain node-2` ``).
pub fn action_words(lang: Lang, action: &Action, first_machine: &str) -> String {
    let machine = action.machine.as_deref().unwrap_or(first_machine);
    if let Some(line) = kubectl_line(action, first_machine) {
        return lang.fill(Key::AccountRan, &[&line]);
    }
    let key = match action.kind {
        ActionKind::KillKubelet => Key::AccountKubeletStopped,
        ActionKind::StartKubelet => Key::AccountKubeletStarted,
        ActionKind::StopRuntime => Key::AccountRuntimeStopped,
        ActionKind::StartRuntime => Key::AccountRuntimeStarted,
        ActionKind::CutNetwork => Key::AccountNetworkCut,
        ActionKind::RestoreNetwork => Key::AccountNetworkRestored,
        ActionKind::CreatePod | ActionKind::CreateToleratingPod => Key::AccountPodCreated,
        ActionKind::CreateBestEffortPod => Key::AccountBestEffortCreated,
        ActionKind::CreatePriorityPod => Key::AccountPriorityPodCreated,
        ActionKind::LeakMemory => Key::AccountMemoryLeaking,
        ActionKind::StopLeak => Key::AccountLeakStopped,
        ActionKind::Shutdown => Key::AccountShutdown,
        ActionKind::PowerOff => Key::AccountPoweredOff,
        ActionKind::CutZone => Key::AccountZoneCut,
        ActionKind::RestoreZone => Key::AccountZoneRestored,
        ActionKind::CutNodes => {
            let (zone, k) = machine.split_once('/').unwrap_or((machine, "?"));
            return lang.fill(Key::AccountNodesCut, &[k, zone]);
        }
        ActionKind::CutControlPlane => Key::AccountControlPlaneCut,
        ActionKind::RestoreControlPlane => Key::AccountControlPlaneRestored,
        other => {
            let label = lang.text(crate::view::controls::label(other));
            return if other.target() == crate::sim::Target::None {
                label.to_string()
            } else {
                lang.fill(Key::AccountOther, &[label, machine])
            };
        }
    };
    lang.fill(key, &[machine])
}

/// What a Node's version says, as the account compares it with the one before.
#[derive(Clone, Default, PartialEq, Eq)]
struct NodeState {
    ready: Option<String>,
    reason: String,
    taints: Vec<String>,
}

impl NodeState {
    fn of(node: &Node) -> NodeState {
        let ready = node.condition("Ready");
        NodeState {
            ready: ready.map(|c| c.status.to_string()),
            reason: ready.map(|c| c.reason.to_string()).unwrap_or_default(),
            taints: node.spec.taints.iter().map(|t| t.display()).collect(),
        }
    }
}

/// The small chapters' facts: Nodes' conditions and taints, Pods failed and gone, the
/// controllers' Events, and what the reader's kubectl printed.
fn node_facts(timeline: &Timeline, before: &Snapshot<'_>, from: SimTime, t: SimTime, lang: Lang, facts: &mut Facts) {
    let log = timeline.log();
    // A few Nodes and Pods: lists, searched by name.
    let mut nodes: Vec<(String, NodeState)> =
        before.nodes().iter().map(|n| (n.metadata.name.to_string(), NodeState::of(n))).collect();
    let mut failed: Vec<String> =
        before.pods().iter().filter(|p| p.status.phase == "Failed").map(|p| p.metadata.name.to_string()).collect();
    let changes = log.changes();
    facts.run();
    for c in changes.whole_from(changes.first_from(from)).flatten() {
        if c.t > t {
            break;
        }
        match (&c.object(), c.change) {
            (Object::Node(n), ChangeType::Deleted) => {
                let name = n.metadata.name.to_string();
                nodes.retain(|(n, _)| *n != name);
                facts.push(c.seq, c.t, lang.fill(Key::AccountNodeDeleted, &[&name]), false);
            }
            (Object::Node(n), _) => {
                let name = n.metadata.name.to_string();
                let now = NodeState::of(n);
                let was = match nodes.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, state)) => std::mem::replace(state, now.clone()),
                    None => {
                        nodes.push((name.clone(), now.clone()));
                        NodeState::default()
                    }
                };
                if now.ready != was.ready
                    && let Some(status) = &now.ready
                {
                    let key = match status.as_str() {
                        "True" => Key::AccountNodeReady,
                        "Unknown" => Key::AccountNodeUnknown,
                        _ => Key::AccountNodeNotReady,
                    };
                    facts.push(c.seq, c.t, lang.fill(key, &[&name, &now.reason]), false);
                }
                for taint in now.taints.iter().filter(|x| !was.taints.contains(x)) {
                    facts.push(c.seq, c.t, lang.fill(Key::AccountTaintAdded, &[&name, taint]), false);
                }
                for taint in was.taints.iter().filter(|x| !now.taints.contains(x)) {
                    facts.push(c.seq, c.t, lang.fill(Key::AccountTaintRemoved, &[&name, taint]), false);
                }
            }
            (Object::Pod(p), ChangeType::Deleted) => {
                facts.push(c.seq, c.t, lang.fill(Key::AccountPodGone, &[&p.metadata.name]), false);
            }
            (Object::Pod(p), _) if p.status.phase == "Failed" && !failed.iter().any(|f| **f == *p.metadata.name) => {
                failed.push(p.metadata.name.to_string());
                facts.push(c.seq, c.t, lang.fill(Key::AccountPodFailed, &[&p.metadata.name, &p.status.reason]), false);
            }
            _ => {}
        }
    }
    let events = log.events.partition_point(|e| e.t < from);
    facts.run();
    for e in log.events.iter_from(events).take_while(|e| e.t <= t) {
        let pod = &e.object.name;
        match e.reason() {
            "TaintManagerEviction" => {
                let key = if e.message().starts_with("Cancelling") {
                    Key::AccountDeletionCancelled
                } else {
                    Key::AccountMarkedForDeletion
                };
                facts.push(e.seq, e.t, lang.fill(key, &[pod]), false);
            }
            "Scheduled" => {
                let node = e.message().rsplit(" to ").next().unwrap_or_default();
                facts.push(e.seq, e.t, lang.fill(Key::AccountScheduled, &[pod, node]), false);
            }
            "FailedScheduling" => {
                facts.push_counted(e.seq, e.t, lang.fill(Key::AccountFailedScheduling, &[pod, e.message()]));
            }
            _ => {}
        }
    }
    let lines = log.lines.partition_point(|l| l.t < from);
    facts.run();
    for l in log.lines.iter_from(lines).take_while(|l| l.t <= t) {
        if matches!(l.actor, Actor::Kubectl | Actor::KubectlStderr) {
            facts.push_counted(l.seq, l.t, lang.fill(Key::AccountKubectlPrinted, &[&l.message]));
        }
    }
}

/// The fleet's facts: each zone's state as the node lifecycle controller logs it, and master
/// disruption mode.
fn fleet_facts(timeline: &Timeline, from: SimTime, t: SimTime, lang: Lang, facts: &mut Facts) {
    let log = timeline.log();
    let start = log.lines.partition_point(|l| l.t < from);
    facts.run();
    for l in log.lines.iter_from(start).take_while(|l| l.t <= t) {
        if l.actor != Actor::NodeLifecycleController {
            continue;
        }
        let m = &*l.message;
        if m.contains("zone is now in new state") {
            let value = |key: &str| {
                let at = m.find(key)? + key.len();
                m[at..].split('"').next()
            };
            let zone = value("zone=\"").unwrap_or_default();
            // The zone's key is region, a NUL written as `\x00`, and zone: the reader knows the zone.
            let zone = zone.rsplit(':').next().unwrap_or(zone);
            let state = value("newState=\"").unwrap_or_default();
            facts.push(l.seq, l.t, lang.fill(Key::AccountZoneState, &[zone, state]), false);
        } else if m.contains("Entering master disruption mode") {
            facts.push(l.seq, l.t, lang.text(Key::AccountMasterDisruption).to_string(), false);
        } else if m.contains("Exiting master disruption mode") {
            facts.push(l.seq, l.t, lang.text(Key::AccountMasterDisruptionOver).to_string(), false);
        }
    }
}

/// One zone's Nodes at the playhead, as the fleet's account predicts from them.
#[derive(Default)]
struct ZoneNow {
    ready: usize,
    not_ready: usize,
    /// `Ready` Nodes whose kubelet no longer reports, and the earliest moment the controller
    /// marks one of them `Unknown`.
    silent: usize,
    first_unknown: Option<SimTime>,
    /// Not-Ready Nodes without their `NoExecute` taint yet: the zone's tainting queue.
    queued: usize,
    /// Not-Ready Nodes whose kubelet reports again.
    reviving: usize,
    /// Pods on `NoExecute`-tainted Nodes still running, and the earliest moment one of them is
    /// due for eviction.
    doomed: usize,
    first_eviction: Option<SimTime>,
}

/// What the fleet is expected to do next, zone by zone, from the Nodes at `t`, the controller's
/// zone states as it logged them, and the rules (grace period, the zone's tainting rate, the
/// Pods' `tolerationSeconds`, master disruption mode).
fn fleet_predictions(
    timeline: &Timeline,
    now: &Snapshot<'_>,
    t: SimTime,
    lang: Lang,
    lines: &ControllerLines,
) -> Vec<String> {
    use crate::view::fleet::{Lag, ZoneLog, rate_text};
    let now_us = now.wall().0;
    let settings = timeline.settings();
    let (grace, period) = (settings.node_monitor_grace_period, settings.node_monitor_period);
    let machines = now.machines();
    // A thousand Nodes, each looked up by its hostname.
    let machines: BTreeMap<&str, &crate::sim::MachineView> = machines.iter().map(|m| (&*m.hostname, &**m)).collect();
    let mut zones: BTreeMap<String, ZoneNow> = BTreeMap::new();
    for node in now.nodes() {
        let name = &*node.metadata.name;
        let zone = node.metadata.labels.get(crate::sim::ZONE_LABEL).cloned().unwrap_or_default();
        let z = zones.entry(zone).or_default();
        let ready = node.ready_status() == Some("True");
        let no_execute = node.has_taint(UNREACHABLE, "NoExecute") || node.has_taint(NOT_READY, "NoExecute");
        let silent =
            machines.get(name).is_none_or(|m| m.kubelet != KubeletState::Running || m.network_cut || m.powered_off);
        if ready {
            z.ready += 1;
            let renewed = now.lease(name).and_then(|l| l.spec.renew_time).map(|r| r.0.0);
            let reported = node.condition("Ready").map(|c| c.last_heartbeat_time.0.0);
            if silent && let Some(heard) = renewed.max(reported) {
                z.silent += 1;
                let when = (moment_of(heard, now_us, t) + grace + period).max(t);
                z.first_unknown = Some(z.first_unknown.map_or(when, |w| w.min(when)));
            }
        } else {
            z.not_ready += 1;
            z.queued += usize::from(!no_execute);
            z.reviving += usize::from(!silent);
        }
        for taint in node.spec.taints.iter().filter(|x| x.effect == "NoExecute") {
            let Some(added) = taint.time_added else { continue };
            let added = moment_of(added.0.0, now_us, t);
            for pod in now.pods_on(name).iter().filter(|p| !p.is_terminating()) {
                if let Some(secs) = toleration_seconds(pod, &taint.key) {
                    z.doomed += 1;
                    let when = (added + Duration::from_secs(secs.max(0) as u64)).max(t);
                    z.first_eviction = Some(z.first_eviction.map_or(when, |w| w.min(when)));
                }
            }
        }
    }
    let states = ZoneLog::at(timeline.log(), lines, t);
    let writing = Lag::writing(timeline.log(), t);
    let mut next = Vec::new();
    if states.master {
        next.push(lang.text(Key::AccountNextMaster).to_string());
    }
    for (zone, z) in &zones {
        if let Some(when) = z.first_unknown {
            next.push(lang.fill(
                Key::AccountNextZoneUnknown,
                &[&z.silent.to_string(), zone, &format_go_duration(grace), &clock(when)],
            ));
        }
        let state = states.state(settings, zone, z.ready, z.not_ready);
        match Lag::of(settings, state, z.ready, z.not_ready, writing) {
            Lag::NextPass(to) => next.push(lang.fill(Key::AccountNextZoneState, &[zone, to.as_str()])),
            Lag::Writing => next.push(lang.fill(Key::AccountNextZoneWriting, &[zone])),
            Lag::None => {}
        }
        if z.reviving > 0 {
            next.push(lang.fill(Key::AccountNextZoneReviving, &[&z.reviving.to_string(), zone]));
        }
        if z.queued > 0 {
            let rate = states.rate(settings, state, z.ready + z.not_ready);
            let line = if rate > 0.0 {
                let last = t + Duration::from_secs_f64(z.queued as f64 / rate);
                lang.fill(
                    Key::AccountNextZoneTaints,
                    &[&z.queued.to_string(), zone, &rate_text(lang, rate), &clock(last)],
                )
            } else {
                let why = if states.master { "master disruption" } else { state.as_str() };
                lang.fill(Key::AccountNextZoneNoTaints, &[&z.queued.to_string(), zone, why])
            };
            next.push(line);
        }
        if let Some(when) = z.first_eviction {
            next.push(lang.fill(Key::AccountNextZoneEvictions, &[&z.doomed.to_string(), zone, &clock(when)]));
        }
    }
    if next.is_empty() {
        next.push(lang.text(Key::AccountNextNothing).to_string());
    }
    next
}

/// The moment of a wall-clock instant (microseconds) on the timeline, seen from `t`.
fn moment_of(wall_us: i64, now_us: i64, t: SimTime) -> SimTime {
    let ago = Duration::from_micros((now_us - wall_us).max(0) as u64);
    t.saturating_sub(ago)
}

/// The `tolerationSeconds` of the Pod's toleration of a NoExecute taint `key` (`None`: it does
/// not tolerate it, or tolerates it for ever).
fn toleration_seconds(pod: &Pod, key: &str) -> Option<i64> {
    pod.spec
        .tolerations
        .iter()
        .find(|x| {
            (x.key == key || (x.key.is_empty() && x.operator == "Exists"))
                && (x.effect.is_empty() || x.effect == "NoExecute")
        })
        .and_then(|x| x.toleration_seconds)
}

/// What is expected next, from the state at `t` and the known rules.
fn predictions(timeline: &Timeline, now: &Snapshot<'_>, t: SimTime, lang: Lang) -> Vec<String> {
    let mut next = Vec::new();
    let now_us = now.wall().0;
    let settings = timeline.config().settings();
    let (grace, period) = (settings.node_monitor_grace_period, settings.node_monitor_period);
    let nodes = now.nodes();
    for m in now.machines().iter() {
        let Some(node) = nodes.iter().find(|n| *n.metadata.name == *m.hostname) else { continue };
        let name = &*node.metadata.name;
        let ready = node.ready_status();
        let silent = m.kubelet != KubeletState::Running || m.network_cut || m.powered_off;
        if silent && ready == Some("True") {
            // The controller's last heartbeat from the node: the Lease's renewal or the Ready
            // condition's heartbeat, whichever is later.
            let renewed = now.lease(name).and_then(|l| l.spec.renew_time).map(|r| r.0.0);
            let reported = node.condition("Ready").map(|c| c.last_heartbeat_time.0.0);
            if let Some(heard) = renewed.max(reported) {
                let last = moment_of(heard, now_us, t);
                // It notes the heartbeat at its next pass and marks the node at the first pass
                // past the grace period: within a monitor period either side of this.
                let when = last + grace + period;
                next.push(lang.fill(
                    Key::AccountNextUnknown,
                    &[name, &clock(last), &format_go_duration(grace), &clock(when.max(t))],
                ));
            }
        } else if !silent && !m.runtime_up && ready == Some("True") {
            next.push(lang.fill(Key::AccountNextRuntimeDown, &[name]));
        } else if !silent && m.runtime_up && ready.is_some_and(|r| r != "True") {
            next.push(lang.fill(Key::AccountNextReadyAgain, &[name]));
        }
    }
    for node in &nodes {
        let name = &*node.metadata.name;
        if node.spec.unschedulable {
            next.push(lang.fill(Key::AccountNextCordoned, &[name]));
        }
        // Pods on a NoExecute-tainted Node are evicted once their toleration runs out.
        for taint in
            node.spec.taints.iter().filter(|x| x.effect == "NoExecute" && (x.key == UNREACHABLE || x.key == NOT_READY))
        {
            let Some(added) = taint.time_added else { continue };
            let added = moment_of(added.0.0, now_us, t);
            // The Pods due at the same moment, together.
            let mut due: Vec<(i64, Vec<String>)> = Vec::new();
            for pod in now.pods_on(name).iter().filter(|p| !p.is_terminating()) {
                if let Some(secs) = toleration_seconds(pod, &taint.key) {
                    let name = pod.metadata.name.to_string();
                    match due.iter_mut().find(|(s, _)| *s == secs) {
                        Some((_, pods)) => pods.push(name),
                        None => due.push((secs, vec![name])),
                    }
                }
            }
            for (secs, pods) in due {
                let when = added + Duration::from_secs(secs.max(0) as u64);
                next.push(
                    lang.fill(
                        Key::AccountNextEviction,
                        &[&pods.join(", "), name, &clock(when.max(t)), &secs.to_string()],
                    ),
                );
            }
        }
        // A Pod being deleted on a Node that cannot answer stays Terminating.
        let unreachable = node.has_taint(UNREACHABLE, "NoExecute");
        for pod in now.pods_on(name).iter().filter(|p| unreachable && p.is_terminating()) {
            next.push(lang.fill(Key::AccountNextStuck, &[&pod.metadata.name, name]));
        }
    }
    memory_predictions(timeline, now, t, lang, &mut next);
    for pod in now.pods().iter().filter(|p| p.spec.node_name.is_empty() && !p.is_terminating()) {
        next.push(lang.fill(Key::AccountNextPending, &[&pod.metadata.name]));
    }
    if let Some(drain) = drain_next(timeline, now, t, lang) {
        next.push(drain);
    }
    if next.is_empty() {
        next.push(lang.text(Key::AccountNextNothing).to_string());
    }
    next
}

/// What each running kubelet's eviction manager does next, from the machine's memory at `t` and
/// the rules of `pkg/kubelet/eviction`: under the hard threshold it evicts one Pod a round; a
/// growing leak takes the machine there at a moment the memory model gives; under a soft
/// threshold it reports the condition and evicts once the threshold has held for its grace
/// period; once the threshold
/// is clear, `MemoryPressure` stays until `evictionPressureTransitionPeriod` has passed since the
/// last round that found it met (its `EvictionThresholdMet` Event), and the controller's taint
/// with it.
fn memory_predictions(timeline: &Timeline, now: &Snapshot<'_>, t: SimTime, lang: Lang, next: &mut Vec<String>) {
    let events = &timeline.log().events;
    let settings = timeline.config().settings();
    let transition = settings.eviction_pressure_transition_period;
    let nodes = now.nodes();
    for m in now.machines().iter().filter(|m| m.kubelet == KubeletState::Running && !m.powered_off) {
        let name = &*m.hostname;
        let available = memory::available(&m.containers, &m.leaks, t);
        if let Some(hard) = settings.eviction_hard {
            let threshold = &hard.text();
            if available < hard.bytes {
                next.push(lang.fill(Key::AccountNextPressureEvict, &[name, threshold]));
                continue;
            }
        }
        if let (Some(soft), Some(grace)) = (settings.eviction_soft, settings.eviction_soft_grace_period)
            && available < soft.bytes
        {
            let (threshold, grace) = (soft.text(), format_go_duration(grace));
            next.push(lang.fill(Key::AccountNextPressureSoft, &[name, &threshold, &grace]));
            continue;
        }
        if let Some(hard) = settings.eviction_hard {
            let threshold = &hard.text();
            if let Some(at) = memory::crosses_at(&m.containers, &m.leaks, t, hard.bytes) {
                next.push(lang.fill(Key::AccountNextPressureLeak, &[name, threshold, &clock(at)]));
                continue;
            }
        }
        let met = events
            .iter()
            .take_while(|e| e.t <= t)
            .filter(|e| e.reason() == "EvictionThresholdMet" && e.object.kind == "Node" && *e.object.name == *name)
            .map(|e| e.t)
            .last();
        let reported = nodes.iter().find(|n| *n.metadata.name == *name).and_then(|n| n.condition("MemoryPressure"));
        let Some(met) = met else { continue };
        let clears = met + transition;
        if clears > t || reported.is_some_and(|c| c.status == "True") {
            let period = format_go_duration(transition);
            next.push(lang.fill(Key::AccountNextPressureClears, &[name, &clock(met), &clock(clears.max(t)), &period]));
        }
    }
}

/// A drain still running at `t`: kubectl retrying a refused eviction, or waiting for the Pods
/// it evicted to be gone.
fn drain_next(timeline: &Timeline, now: &Snapshot<'_>, t: SimTime, lang: Lang) -> Option<String> {
    let log = timeline.log();
    let drain = log
        .inputs
        .iter()
        .rfind(|i| i.t <= t && matches!(i.action.kind, ActionKind::Drain(_)) && i.rejected.is_none())?;
    let (lines, ended) = crate::render::kubectl_printer::change::transcript(log, drain.t, drain.action.kind);
    let seen: Vec<_> = lines.iter().filter(|l| l.t <= t).collect();
    if ended && seen.len() == lines.len() {
        return None;
    }
    let last = seen.last()?;
    if last.text.contains("will retry after 5s") {
        let pdbs = now.pdbs();
        let pdb = pdbs.first()?;
        let s = &pdb.status;
        Some(lang.fill(
            Key::AccountNextRetry,
            &[
                &pdb.metadata.name,
                &s.disruptions_allowed.to_string(),
                &s.current_healthy.to_string(),
                &s.desired_healthy.to_string(),
            ],
        ))
    } else {
        Some(lang.text(Key::AccountNextDrainWaits).to_string())
    }
}

#[cfg(test)]
mod tests;
