//! The kubelet's eviction manager (`pkg/kubelet/eviction`, `eviction_manager.go` and
//! `helpers.go`), for the one signal the simulation's memory model feeds: `memory.available`
//! against `evictionHard` (by default `memory.available<100Mi`) and `evictionSoft`, when set.
//!
//! Its loop (`Start`) runs `synchronize` every `evictionMonitoringPeriod` (10 s). A round that
//! finds a threshold met, hard or soft, reports the `MemoryPressure` node condition at once (the
//! status setter reads it at the next node status sync). A hard threshold acts in that round; a
//! soft one only once it has been met for its `evictionSoftGracePeriod`, counted from the first
//! round that found it met (`thresholdsFirstObservedAt`; a round that finds it clear starts the
//! count again). Acting, the round records `EvictionThresholdMet` ("Attempting to reclaim
//! memory"), ranks the active Pods as `rankMemoryPressure` does (usage above request first, then
//! lower priority, then larger usage above request) and evicts the first that is not critical:
//! its `Evicted` Event (with the threshold's quantity), a kill with the threshold's grace period
//! (1 s for a hard one, `evictionMaxPodGracePeriod` bounded as the kubelet bounds it for a soft
//! one), and the status the kubelet writes (`Failed`, `Evicted`, the message, `DisruptionTarget`
//! with `TerminationByKubelet`). One Pod a round: the loop then polls every second (up to 30 s)
//! until the Pod's resources are reclaimed, and runs again at once. The condition stays True
//! until every threshold has been clear for `evictionPressureTransitionPeriod` (5 min).
//!
//! A round that would find nothing (no leak, no pressure, no Pod being evicted) is not run: the
//! loop sleeps until the memory model says the threshold will be crossed, and wakes on its
//! 10 s grid then, so the rounds that do run fall where the real loop's would.

use std::time::Duration;

use crate::ctx::Ctx;
use crate::events::{kubelet_node_ref, pod_ref};
use crate::memory::{self, MI};
use crate::objects::Pod;
use crate::profile::Profile;
use crate::settings::{DEFAULT_EVICTION_HARD, Quantity, Settings, soft_eviction_grace_period};
use crate::shared::Shared;
use crate::strings::cat;
use crate::time::{SimTime, millis, secs};

use super::pods::{CONTAINER_STOP, SYSTEM_CRITICAL_PRIORITY};
use super::{Host, Kubelet, KubeletTimer, MachineTimer};

/// `evictionHard`'s default for `memory.available`, as written in the configuration (and as
/// the eviction message prints the threshold quantity).
pub const EVICTION_HARD_MEMORY_AVAILABLE: &str = "100Mi";
/// [`EVICTION_HARD_MEMORY_AVAILABLE`] in bytes.
pub const EVICTION_HARD_MEMORY_AVAILABLE_BYTES: u64 = DEFAULT_EVICTION_HARD.bytes;
const _: () = assert!(EVICTION_HARD_MEMORY_AVAILABLE_BYTES == 100 * MI);
/// `evictionPressureTransitionPeriod` by default; the kubelet reads the setting's value.
pub const EVICTION_PRESSURE_TRANSITION_PERIOD: Duration = crate::settings::EVICTION_PRESSURE_TRANSITION_PERIOD;
/// `evictionMonitoringPeriod` (`pkg/kubelet/kubelet.go`), the loop's `monitoringInterval`.
pub const EVICTION_MONITORING_PERIOD: Duration = secs(10);
/// `immediateEvictionGracePeriodSeconds`: the grace period of a Pod evicted for a hard
/// threshold (1.31 and later, #124063; the 1.30–1.31 profile runs a 1.31 kubelet).
pub(crate) const IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS: i64 = 1;
/// `nodeConditionMessageFmt` with the one condition the simulation reports.
const NODE_CONDITION_MESSAGE: &str = "The node had condition: [MemoryPressure]. ";
/// The taint a BestEffort Pod must tolerate to be admitted under memory pressure.
const TAINT_MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
/// `podCleanupTimeout`.
const POD_CLEANUP_TIMEOUT: Duration = secs(30);
/// `podCleanupPollFreq`.
const POD_CLEANUP_POLL_FREQ: Duration = secs(1);
/// `Reason`: the evicted Pod's status reason and its Event's.
pub(crate) const REASON: &str = "Evicted";
/// When the loop first runs after the kubelet starts (`initializeRuntimeDependentModules`, at
/// the first good runtime check).
const LOOP_START: Duration = millis(400);

/// A step of the eviction manager's loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EvictionStep {
    /// `synchronize`.
    Synchronize,
    /// The evicted Pod's container has stopped (`TerminatePodAbnormallyAndWait` returns).
    Killed,
    /// `waitForPodsCleanup`'s poll.
    CleanupPoll,
}

/// The eviction manager's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct EvictionManager {
    /// The instant the loop's rounds are counted from (its start, or its last restart after a
    /// cleanup).
    phase: SimTime,
    /// The next round queued, if any.
    next: Option<SimTime>,
    /// `nodeConditionsLastObservedAt[MemoryPressure]`: the last round that found a threshold met.
    last_met: Option<SimTime>,
    /// `thresholdsFirstObservedAt` of the soft threshold: the first round of the run of rounds
    /// that have found it met.
    soft_since: Option<SimTime>,
    /// The grace period, in seconds, the last evicted Pod was killed with.
    pub(crate) grace_period: i64,
    /// `nodeConditions` holds `MemoryPressure` (what the status setter reports).
    pub(crate) memory_pressure: bool,
    /// The Pod evicted last (uid, `namespace/name`) and when the wait for its cleanup began.
    evicted: Option<(String, String, Option<SimTime>)>,
}

/// What the ranking reads of one active Pod (`statsFunc` and the Pod's spec).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) key: String,
    pub(crate) priority: i32,
    /// The working set of its container, and its memory request.
    pub(crate) usage: u64,
    pub(crate) request: u64,
}

/// `rankMemoryPressure`: `exceedMemoryRequests` (usage above request first), then `priority`
/// (lower first), then `memory` (larger usage above request first). Go's `sort.Sort` is not
/// stable and the kubelet's active Pods come in no set order; ties keep the order given here
/// (namespace and name).
pub(crate) fn rank_memory_pressure(pods: &mut [Candidate]) {
    pods.sort_by(|a, b| {
        let exceeds = |c: &Candidate| c.usage > c.request;
        let above = |c: &Candidate| c.usage as i128 - c.request as i128;
        exceeds(b).cmp(&exceeds(a)).then(a.priority.cmp(&b.priority)).then(above(b).cmp(&above(a)))
    });
}

/// The thresholds a kubelet's eviction manager watches, from its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// `evictionHard`'s `memory.available`.
    pub hard: Option<Quantity>,
    /// `evictionSoft`'s `memory.available`, with its `evictionSoftGracePeriod`.
    pub soft: Option<(Quantity, Duration)>,
}

impl Thresholds {
    /// The thresholds `settings` configure (a soft threshold without a grace period is refused
    /// before a run starts; here it would be none).
    pub fn of(settings: &Settings) -> Thresholds {
        let soft = settings.eviction_soft.zip(settings.eviction_soft_grace_period);
        Thresholds { hard: settings.eviction_hard, soft }
    }

    /// The highest threshold, in bytes: the memory available under which a round finds one met.
    pub fn highest(&self) -> Option<u64> {
        let soft = self.soft.map(|(q, _)| q.bytes);
        self.hard.map(|q| q.bytes).max(soft)
    }
}

/// `evictionMessage` for memory: `nodeLowMessageFmt`, `thresholdMetMessageFmt` (with the
/// threshold's quantity as configured), and `containerMessageFmt` for each container using more
/// than its request.
pub(crate) fn eviction_message(threshold: Quantity, available: u64, containers: &[(&str, u64, u64)]) -> String {
    let mut message = cat!(
        "The node was low on resource: memory. Threshold quantity: ",
        &threshold.text(),
        ", available: ",
        memory::format_bytes(available),
        ". "
    );
    for (name, usage, request) in containers {
        if usage > request {
            message.push_str(&cat!(
                "Container ",
                name,
                " was using ",
                memory::format_bytes(*usage),
                ", request is ",
                memory::format_bytes(*request),
                ", has larger consumption of memory. "
            ));
        }
    }
    message
}

/// `IsCriticalPod`: a static or mirror Pod, or one of system-critical priority.
fn is_critical(pod: &Pod) -> bool {
    pod.spec.priority >= SYSTEM_CRITICAL_PRIORITY
        || pod.metadata.annotations.contains_key("kubernetes.io/config.mirror")
        || pod.metadata.annotations.get("kubernetes.io/config.source").is_some_and(|s| s != "api")
}

/// `v1qos.GetPodQOS(pod) == BestEffort`: no container requests or limits anything.
fn is_best_effort(pod: &Pod) -> bool {
    pod.spec.containers.iter().all(|c| c.resources.requests.is_empty() && c.resources.limits.is_empty())
}

/// klog's `KObjSlice` in a text line: `["ns/a","ns/b"]`.
fn kobj_slice(keys: &[&str]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| cat!("\"", k, "\"")).collect();
    cat!("[", quoted.join(","), "]")
}

impl Kubelet {
    /// The eviction manager's `Admit`: under memory pressure alone, a BestEffort Pod is turned
    /// away unless it is critical or tolerates the `memory-pressure:NoSchedule` taint.
    pub(super) fn admits_under_pressure(&self, pod: &Pod) -> bool {
        !self.cold.eviction.memory_pressure
            || is_critical(pod)
            || !is_best_effort(pod)
            || pod.spec.tolerations.iter().any(|t| t.tolerates(TAINT_MEMORY_PRESSURE, "", "NoSchedule"))
    }

    /// A Pod the eviction manager's admission turned away: `Failed`, `Evicted`, with
    /// `nodeConditionMessageFmt` (`The node had condition: [MemoryPressure]. `).
    pub(super) fn reject_for_pressure(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, pod: &Pod) {
        let key = cat!(&pod.metadata.namespace, "/", &pod.metadata.name);
        h.log(ctx, cat!("\"Failed to admit pod to node\" pod=\"", &key, "\" nodeCondition=[MemoryPressure]"));
        self.reject_pod(h, ctx, pod, REASON, NODE_CONDITION_MESSAGE.into());
    }

    /// Asks for the loop's round `at` (at once if `at` is now), unless one is queued sooner.
    fn eviction_at(&mut self, ctx: &mut Ctx<'_, MachineTimer>, at: SimTime) {
        let m = &self.cold.eviction;
        if m.next.is_some_and(|n| n <= at && n >= ctx.now) {
            return;
        }
        self.cold.eviction.next = Some(at);
        self.after(ctx, at - ctx.now, KubeletTimer::Eviction(EvictionStep::Synchronize));
    }

    /// The loop's first round at or after `t`.
    fn eviction_round_from(&self, t: SimTime) -> SimTime {
        let phase = self.cold.eviction.phase;
        if t <= phase {
            return phase;
        }
        let period = EVICTION_MONITORING_PERIOD.as_micros() as u64;
        let n = (t.as_micros() - phase.as_micros()).div_ceil(period);
        SimTime::from_micros(phase.as_micros() + n * period)
    }

    /// Input: the memory the machine's containers use may now reach the threshold sooner (a leak
    /// began, a container started beside a leak): the loop wakes at its round then.
    pub(super) fn wake_eviction(&mut self, h: &Host, ctx: &mut Ctx<'_, MachineTimer>) {
        if self.cold.eviction.phase == SimTime::ZERO {
            self.cold.eviction.phase = self.cold.started_at + LOOP_START;
        }
        if self.cold.eviction.evicted.is_some() {
            return;
        }
        let from = ctx.now.max(self.cold.eviction.phase);
        let Some(highest) = Thresholds::of(ctx.settings).highest() else { return };
        let at = memory::crosses_at(&h.containers, &h.leaks, from, highest);
        if let Some(at) = at {
            let round = self.eviction_round_from(at);
            self.eviction_at(ctx, round);
        }
    }

    /// Input: one of the eviction manager's steps.
    pub(super) fn on_eviction_step(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        step: EvictionStep,
    ) {
        match step {
            EvictionStep::Synchronize => {
                if self.cold.eviction.next != Some(ctx.now) {
                    return;
                }
                self.cold.eviction.next = None;
                self.synchronize(h, ctx);
            }
            EvictionStep::Killed => self.evicted_pod_killed(h, ctx),
            EvictionStep::CleanupPoll => self.cleanup_poll(h, ctx),
        }
    }

    /// `synchronize`: observe, update the condition (from every threshold met, whatever its
    /// grace period), and evict one Pod if a threshold has been met for its grace period: the
    /// hard one at once, the soft one once met for `evictionSoftGracePeriod`. (When both are,
    /// the kubelet reclaims for whichever its map of first observations gives first, in Go's
    /// random map order; nodeline takes the hard one.)
    fn synchronize(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let now = ctx.now;
        let available = memory::available(&h.containers, &h.leaks, now);
        let thresholds = Thresholds::of(ctx.settings);
        let hard_met = thresholds.hard.filter(|q| available < q.bytes);
        let soft_met = thresholds.soft.filter(|(q, _)| available < q.bytes);
        self.cold.eviction.soft_since = soft_met.map(|_| self.cold.eviction.soft_since.unwrap_or(now));
        let met = hard_met.is_some() || soft_met.is_some();
        if met {
            self.cold.eviction.last_met = Some(now);
        }
        let period = ctx.settings.eviction_pressure_transition_period;
        let pressure = self.cold.eviction.last_met.is_some_and(|t| now - t < period);
        if pressure != self.cold.eviction.memory_pressure {
            self.cold.eviction.memory_pressure = pressure;
        }
        let soft_due = soft_met.filter(|(_, grace)| self.cold.eviction.soft_since.is_some_and(|t| now - t >= *grace));
        let reclaim = hard_met.map(|q| (q, false)).or(soft_due.map(|(q, _)| (q, true)));
        if let Some((threshold, soft)) = reclaim
            && self.evict_one(h, ctx, available, threshold, soft)
        {
            return;
        }
        // The next round: every 10 s while there is pressure to clear or a leak grows; else
        // asleep until the memory model says the threshold will be crossed.
        let leaking = h.leaks.iter().any(|l| l.active() && h.containers.iter().any(|c| c.pod_uid == l.pod_uid));
        if pressure || met || leaking {
            let next = self.eviction_round_from(now + Duration::from_micros(1));
            self.eviction_at(ctx, next);
        } else {
            self.wake_eviction(h, ctx);
        }
    }

    /// The part of `synchronize` past the thresholds: the Event, the ranking, one eviction.
    /// Returns whether a Pod was evicted.
    fn evict_one(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        available: u64,
        threshold: Quantity,
        soft: bool,
    ) -> bool {
        h.log(ctx, "\"Eviction manager: attempting to reclaim\" resourceName=\"memory\"".into());
        let node = h.hostname.clone();
        self.event(
            h,
            ctx,
            kubelet_node_ref(&node),
            "Warning",
            "EvictionThresholdMet",
            "Attempting to reclaim memory".into(),
        );
        h.log(ctx, "\"Eviction manager: must evict pod(s) to reclaim\" resourceName=\"memory\"".into());
        let sets = memory::working_sets(&h.containers, &h.leaks, ctx.now);
        let pods: Vec<std::sync::Arc<Pod>> = ctx.store().pods_on(&node).cloned().collect();
        let mut ranked: Vec<(Candidate, std::sync::Arc<Pod>, String)> = Vec::new();
        for pod in pods {
            if pod.is_terminating() || matches!(&*pod.status.phase, "Succeeded" | "Failed") {
                continue;
            }
            // Only Pods with a running container have stats.
            let Some(i) = h.containers.iter().position(|c| c.pod_uid == pod.metadata.uid) else { continue };
            let container = h.containers[i].name.to_string();
            let candidate = Candidate {
                key: cat!(&pod.metadata.namespace, "/", &pod.metadata.name),
                priority: pod.spec.priority,
                usage: sets[i],
                request: memory::memory_request(&pod, &container),
            };
            ranked.push((candidate, pod, container));
        }
        if ranked.is_empty() {
            h.log(
                ctx,
                "\"Eviction manager: eviction thresholds have been met, but no pods are active to evict\"".into(),
            );
            return false;
        }
        let mut order: Vec<Candidate> = ranked.iter().map(|(c, _, _)| c.clone()).collect();
        rank_memory_pressure(&mut order);
        let keys: Vec<&str> = order.iter().map(|c| c.key.as_str()).collect();
        h.log(ctx, cat!("\"Eviction manager: pods ranked for eviction\" pods=", kobj_slice(&keys)));
        for c in &order {
            let (_, pod, container) = ranked.iter().find(|(r, _, _)| r.key == c.key).expect("ranked");
            if is_critical(pod) {
                h.log(ctx, cat!("\"Eviction manager: cannot evict a critical pod\" pod=\"", &c.key, "\""));
                continue;
            }
            let message = eviction_message(threshold, available, &[(container, c.usage, c.request)]);
            let grace = if soft {
                // From 1.32 the override is at most the Pod's own (`AllowOverwriteTerminationGracePeriodSeconds`
                // off by default); the 1.30–1.31 profile's kubelet passes evictionMaxPodGracePeriod as it is.
                let capped = ctx.profile != Profile::V1_31;
                let max = ctx.settings.eviction_max_pod_grace_period;
                soft_eviction_grace_period(max, pod.spec.termination_grace_period_seconds, capped)
            } else {
                IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS
            };
            self.evict_pod(h, ctx, pod, message, grace);
            return true;
        }
        h.log(ctx, "\"Eviction manager: unable to evict any pods from the node\"".into());
        false
    }

    /// `evictPod`: the `Evicted` Event, then the kill with `grace` seconds (which nginx, leaving
    /// on its stop signal in [`CONTAINER_STOP`], never needs in full).
    fn evict_pod(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        pod: &Pod,
        message: String,
        grace: i64,
    ) {
        self.event(h, ctx, pod_ref(pod, None), "Warning", REASON, message.clone());
        self.kill_abnormally(h, ctx, pod, &message);
        let key = cat!(&pod.metadata.namespace, "/", &pod.metadata.name);
        self.cold.eviction.evicted = Some((pod.metadata.uid.to_string(), key, None));
        self.cold.eviction.grace_period = grace;
        let grace = secs(grace.max(1) as u64);
        self.after(ctx, CONTAINER_STOP.min(grace), KubeletTimer::Eviction(EvictionStep::Killed));
    }

    /// The evicted Pod's container has stopped: its memory is released, and the status manager
    /// writes the terminal status (`Failed`, `Evicted`, the message). Then the wait for its
    /// cleanup begins.
    fn evicted_pod_killed(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let Some((uid, key, _)) = self.cold.eviction.evicted.clone() else { return };
        let pod = ctx.store().pod_by_uid(&uid).cloned();
        let message = pod.as_ref().and_then(|p| p.condition("DisruptionTarget")).map(|c| c.message.to_string());
        self.killed_abnormally(h, ctx, &uid, REASON, &message.unwrap_or_default());
        if h.leaks.iter().any(|l| l.pod_uid == uid) {
            h.leaks.retain(|l| l.pod_uid != uid);
        }
        h.log(ctx, cat!("\"Eviction manager: pod is evicted successfully\" pod=\"", &key, "\""));
        h.log(
            ctx,
            cat!("\"Eviction manager: pods evicted, waiting for pod to be cleaned up\" pods=", kobj_slice(&[&key])),
        );
        self.cold.eviction.evicted = Some((uid, key, Some(ctx.now)));
        self.after(ctx, POD_CLEANUP_POLL_FREQ, KubeletTimer::Eviction(EvictionStep::CleanupPoll));
    }

    /// `waitForPodsCleanup`'s poll: once the Pod's resources are reclaimed (its container gone),
    /// the loop runs again at once; after 30 s it gives up waiting.
    fn cleanup_poll(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let Some((uid, key, Some(since))) = self.cold.eviction.evicted.clone() else { return };
        let cleaned = !h.containers.iter().any(|c| c.pod_uid == uid);
        if !cleaned && ctx.now - since < POD_CLEANUP_TIMEOUT {
            self.after(ctx, POD_CLEANUP_POLL_FREQ, KubeletTimer::Eviction(EvictionStep::CleanupPoll));
            return;
        }
        let line = if cleaned {
            "\"Eviction manager: pods successfully cleaned up\" pods="
        } else {
            "\"Eviction manager: timed out waiting for pods to be cleaned up\" pods="
        };
        h.log(ctx, cat!(line, kobj_slice(&[&key])));
        self.cold.eviction.evicted = None;
        self.cold.eviction.phase = ctx.now;
        self.cold.eviction.next = None;
        self.synchronize(h, ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::ApiOp;
    use crate::machine::{Leak, MachineSpec, RunningContainer};
    use crate::objects::{Node, Object, ObjectMeta};
    use crate::profile::Profile;
    use crate::testkit::{Probe, matches};
    use crate::workload::new_pod;

    /// A node under memory pressure that no eviction relieves: a critical Pod leaks to the floor.
    /// Each round evicts one Pod (the ranking's first that is not critical), waits for it to be
    /// cleaned up, and runs again at once; the critical Pod is never evicted, and once it is
    /// alone the loop says so and goes back to its 10 s rounds.
    #[test]
    fn one_pod_a_round_never_a_critical_one() {
        let mut probe = Probe::new();
        // (name, priority, container id: its resting set grows with the first three digits)
        let pods = [("agent", SYSTEM_CRITICAL_PRIORITY, "000"), ("web-a", 0, "800"), ("web-b", 0, "fff")];
        let (mut host, mut kubelet) = node_with(&mut probe, &pods, "agent");
        let mut step = |probe: &mut Probe, at_ms: u64, step: EvictionStep| {
            probe.now = SimTime::from_millis(at_ms);
            if step == EvictionStep::Synchronize {
                kubelet.cold.eviction.next = Some(probe.now);
            }
            let lines = probe.line_count();
            let mut got = probe.input(|ctx| kubelet.on_eviction_step(&mut host, ctx, step));
            got.extend(probe.lines_from(lines));
            (got, kubelet.cold.eviction.memory_pressure)
        };
        let ranked = "log \"Eviction manager: pods ranked for eviction\" pods=[\"default/agent\",\"default/web-b\",\"default/web-a\"]";
        let (got, pressure) = step(&mut probe, 1_000_000, EvictionStep::Synchronize);
        assert!(pressure, "the condition is reported at the round that finds the threshold met");
        let want = [
            "PATCH /api/v1/namespaces/default/pods/web-b/status -> 200",
            "event EvictionThresholdMet: Attempting to reclaim memory",
            "event Evicted: The node was low on resource: memory. Threshold quantity: 100Mi, available: 48Mi. ",
            "event Killing: Stopping container nginx",
            "timer +300ms Kubelet { generation: 1, timer: Eviction(Killed) }",
            "log \"Eviction manager: attempting to reclaim\" resourceName=\"memory\"",
            "log \"Eviction manager: must evict pod(s) to reclaim\" resourceName=\"memory\"",
            ranked,
            "log \"Eviction manager: cannot evict a critical pod\" pod=\"default/agent\"",
        ];
        assert!(matches(&got, &want), "{got:#?}");
        let (got, _) = step(&mut probe, 1_000_300, EvictionStep::Killed);
        let want = [
            "PATCH /api/v1/namespaces/default/pods/web-b/status -> 200",
            "timer +1s Kubelet { generation: 1, timer: Eviction(CleanupPoll) }",
            "log \"Eviction manager: pod is evicted successfully\" pod=\"default/web-b\"",
            "log \"Eviction manager: pods evicted, waiting for pod to be cleaned up\" pods=[\"default/web-b\"]",
        ];
        assert!(matches(&got, &want), "{got:#?}");
        let evicted = probe.store().pods.get(&("default".to_string(), "web-b".to_string())).unwrap().clone();
        assert_eq!((&*evicted.status.phase, &*evicted.status.reason), ("Failed", "Evicted"));
        let message = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 48Mi. ";
        assert_eq!(&*evicted.status.message, message);
        let dt = evicted.condition("DisruptionTarget").expect("DisruptionTarget");
        assert_eq!((dt.status, &*dt.reason, &*dt.message), ("True", "TerminationByKubelet", message));
        // The wait ends at the first poll: the round after it runs at once, and evicts the next.
        let (got, _) = step(&mut probe, 1_001_300, EvictionStep::CleanupPoll);
        assert!(
            got.iter().any(|l| l
                == "event Evicted: The node was low on resource: memory. Threshold quantity: 100Mi, available: 48Mi. "),
            "{got:#?}"
        );
        assert!(got.iter().any(|l| l.contains("successfully cleaned up\" pods=[\"default/web-b\"]")), "{got:#?}");
        assert!(got.iter().any(|l| l.contains("PATCH /api/v1/namespaces/default/pods/web-a/status")), "{got:#?}");
        step(&mut probe, 1_001_600, EvictionStep::Killed);
        let (got, pressure) = step(&mut probe, 1_002_600, EvictionStep::CleanupPoll);
        assert!(pressure);
        assert!(got.iter().any(|l| l.contains("unable to evict any pods from the node")), "{got:#?}");
        assert!(
            got.iter().any(|l| l == "timer +10s Kubelet { generation: 1, timer: Eviction(Synchronize) }"),
            "{got:#?}"
        );
        let agent = probe.store().pods.get(&("default".to_string(), "agent".to_string())).unwrap().clone();
        assert_eq!(&*agent.status.phase, "Running", "a critical Pod is never evicted");
    }

    /// node-1 with two Pods of priority 0, `web-a` leaking to the floor (48Mi available), and a
    /// kubelet whose loop runs its rounds when told.
    fn leaking_node(probe: &mut Probe) -> (Shared<Host>, Kubelet) {
        node_with(probe, &[("web-a", 0, "800"), ("web-b", 0, "fff")], "web-a")
    }

    /// node-1 running `pods` (name, priority, container id: its resting set grows with the id's
    /// first three digits), the Pod `leaking` leaking since the start, and a kubelet whose loop
    /// runs its rounds when told.
    fn node_with(probe: &mut Probe, pods: &[(&str, i32, &str)], leaking: &str) -> (Shared<Host>, Kubelet) {
        probe.given(ApiOp::CreateNode(Node::new("node-1")));
        let mut host = Shared::new(Host::new(&MachineSpec::new("node-1"), 0, Profile::V1_34, probe.rng()));
        for &(name, priority, id) in pods {
            let meta = ObjectMeta { name: name.into(), namespace: "default".into(), ..ObjectMeta::default() };
            let mut pod = new_pod(meta, Vec::new(), Profile::V1_34);
            pod.spec.node_name = "node-1".into();
            pod.spec.priority = priority;
            pod.status.phase = "Running".into();
            let Object::Pod(pod) = probe.given(ApiOp::CreatePod(pod)) else { panic!("a Pod") };
            host.containers.push(RunningContainer {
                pod_uid: pod.metadata.uid.clone(),
                namespace: "default".into(),
                pod: name.into(),
                name: "nginx".into(),
                id: id.into(),
                started_at: SimTime::ZERO,
            });
            if name == leaking {
                host.leaks.push(Leak { pod_uid: pod.metadata.uid.clone(), since: SimTime::ZERO, until: None });
            }
        }
        let mut kubelet = Kubelet::new(SimTime::ZERO, 1, crate::flowcontrol::KUBELET);
        kubelet.cold.eviction.phase = SimTime::from_secs(1000);
        (host, kubelet)
    }

    /// One round at `at_s` seconds: what it gave, and whether MemoryPressure is reported.
    fn round(probe: &mut Probe, host: &mut Shared<Host>, kubelet: &mut Kubelet, at_s: u64) -> (Vec<String>, bool) {
        probe.now = SimTime::from_secs(at_s);
        kubelet.cold.eviction.next = Some(probe.now);
        let lines = probe.line_count();
        let mut got = probe.input(|ctx| kubelet.on_eviction_step(host, ctx, EvictionStep::Synchronize));
        got.extend(probe.lines_from(lines));
        (got, kubelet.cold.eviction.memory_pressure)
    }

    /// A soft threshold alone (`evictionHard: {}`): the condition as soon as a round finds it
    /// met (`nodeConditions` is computed before the grace periods), no eviction until it has
    /// been met for its grace period, then one with its quantity in the message and the Pod's
    /// grace period bounded by `evictionMaxPodGracePeriod`.
    #[test]
    fn a_soft_threshold_acts_once_met_for_its_grace_period() {
        for (max, grace) in [("10", 10), ("0", 30), ("120", 30), ("-5", 1)] {
            let mut probe = Probe::new();
            let settings = probe.settings_mut();
            settings.set("kubelet", "evictionHard", "{}").unwrap();
            settings.set("kubelet", "evictionSoft", "memory.available<1Gi").unwrap();
            settings.set("kubelet", "evictionSoftGracePeriod", "memory.available=1m").unwrap();
            settings.set("kubelet", "evictionMaxPodGracePeriod", max).unwrap();
            let (mut host, mut kubelet) = leaking_node(&mut probe);
            let next = "timer +10s Kubelet { generation: 1, timer: Eviction(Synchronize) }";
            for at in [1000, 1010, 1030, 1050] {
                let (got, pressure) = round(&mut probe, &mut host, &mut kubelet, at);
                assert!(pressure, "at {at}: the condition is reported from the first round that finds it met");
                assert_eq!(got, [next], "at {at}: no eviction before the grace period");
            }
            let (got, _) = round(&mut probe, &mut host, &mut kubelet, 1060);
            let evicted = "event Evicted: The node was low on resource: memory. Threshold quantity: 1Gi, available: \
                           48Mi. Container nginx was using ";
            assert!(got.iter().any(|l| l.starts_with(evicted)), "{got:#?}");
            assert!(got.iter().any(|l| l == "event EvictionThresholdMet: Attempting to reclaim memory"), "{got:#?}");
            assert_eq!(kubelet.cold.eviction.grace_period, grace, "evictionMaxPodGracePeriod {max}");
        }
    }

    /// A round that finds the soft threshold clear starts its grace period again; a hard
    /// threshold beside it acts at once, with its own quantity and 1 s.
    #[test]
    fn the_grace_period_counts_from_the_last_clear_round_and_a_hard_threshold_does_not_wait() {
        let mut probe = Probe::new();
        let settings = probe.settings_mut();
        settings.set("kubelet", "evictionSoft", "memory.available<1Gi").unwrap();
        settings.set("kubelet", "evictionSoftGracePeriod", "memory.available=1m").unwrap();
        let (mut host, mut kubelet) = leaking_node(&mut probe);
        // The hard threshold (100Mi, the default) is met too at the floor: it acts at once.
        let (got, _) = round(&mut probe, &mut host, &mut kubelet, 1000);
        let hard = "event Evicted: The node was low on resource: memory. Threshold quantity: 100Mi, available: 48Mi. ";
        assert!(got.iter().any(|l| l.starts_with(hard)), "{got:#?}");
        assert_eq!(kubelet.cold.eviction.grace_period, IMMEDIATE_EVICTION_GRACE_PERIOD_SECONDS);
        // Without the hard one, and the leak's memory back for one round: the count starts again.
        let mut probe = Probe::new();
        let settings = probe.settings_mut();
        settings.set("kubelet", "evictionHard", "{}").unwrap();
        settings.set("kubelet", "evictionSoft", "memory.available<1Gi").unwrap();
        settings.set("kubelet", "evictionSoftGracePeriod", "memory.available=1m").unwrap();
        let (mut host, mut kubelet) = leaking_node(&mut probe);
        round(&mut probe, &mut host, &mut kubelet, 1000);
        round(&mut probe, &mut host, &mut kubelet, 1040);
        let leaks = std::mem::take(&mut host.leaks);
        round(&mut probe, &mut host, &mut kubelet, 1050);
        host.leaks = leaks;
        let (got, _) = round(&mut probe, &mut host, &mut kubelet, 1060);
        assert!(!got.iter().any(|l| l.starts_with("event Evicted")), "{got:#?}");
        let (got, _) = round(&mut probe, &mut host, &mut kubelet, 1120);
        assert!(got.iter().any(|l| l.starts_with("event Evicted")), "{got:#?}");
    }

    fn c(key: &str, priority: i32, usage_mi: u64, request_mi: u64) -> Candidate {
        Candidate { key: key.into(), priority, usage: usage_mi * MI, request: request_mi * MI }
    }

    /// Usage above request first, whatever the priority; then lower priority; then the larger
    /// usage above request; ties keep their order.
    #[test]
    fn pods_rank_as_rank_memory_pressure_ranks_them() {
        let mut pods = vec![
            c("a/under-low", 0, 10, 64),
            c("a/over-high", 1000, 70, 64),
            c("a/besteffort", 0, 9, 0),
            c("a/leaking", 0, 900, 64),
            c("a/under-lower", -5, 60, 64),
            c("a/under-low-2", 0, 10, 64),
        ];
        rank_memory_pressure(&mut pods);
        let keys: Vec<&str> = pods.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["a/leaking", "a/besteffort", "a/over-high", "a/under-lower", "a/under-low", "a/under-low-2"]);
    }

    #[test]
    fn the_message_is_helpers_go_format() {
        let m = eviction_message(DEFAULT_EVICTION_HARD, 91_240 * memory::KI, &[("app", 1200 * MI, 128 * MI)]);
        assert_eq!(
            m,
            "The node was low on resource: memory. Threshold quantity: 100Mi, available: 91240Ki. \
             Container app was using 1200Mi, request is 128Mi, has larger consumption of memory. "
        );
        // A container under its request is not named.
        let m = eviction_message(DEFAULT_EVICTION_HARD, 51_196 * memory::KI, &[("nginx", 9 * MI, 64 * MI)]);
        assert_eq!(m, "The node was low on resource: memory. Threshold quantity: 100Mi, available: 51196Ki. ");
        // A BestEffort container's request is 0: any usage is above it.
        let m = eviction_message(DEFAULT_EVICTION_HARD, 48 * MI, &[("nginx", 9 * MI, 0)]);
        assert!(m.ends_with("Container nginx was using 9Mi, request is 0, has larger consumption of memory. "), "{m}");
        assert_eq!(kobj_slice(&["default/a", "kube-system/b"]), "[\"default/a\",\"kube-system/b\"]");
    }
}
