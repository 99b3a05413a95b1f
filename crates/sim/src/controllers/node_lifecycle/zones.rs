//! Zone states and tainting rates (`handleDisruption`, `ComputeZoneState`, `setLimiterInZone`),
//! and the per-zone token buckets that pace NoExecute tainting (`RateLimitedTimedQueue`).

use super::*;
use crate::flowcontrol::TokenBucket;
use crate::objects::Text;
use crate::settings::Settings;
use rustc_hash::FxHashMap;

/// A zone's health, as `ComputeZoneState` classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneState {
    Initial,
    Normal,
    PartialDisruption,
    FullDisruption,
}

impl ZoneState {
    /// The state's name as the controller logs it.
    pub fn as_str(self) -> &'static str {
        match self {
            ZoneState::Initial => "Initial",
            ZoneState::Normal => "Normal",
            ZoneState::PartialDisruption => "PartialDisruption",
            ZoneState::FullDisruption => "FullDisruption",
        }
    }
}

/// One zone's NoExecute tainting queue (`RateLimitedTimedQueue`).
#[derive(Clone, Debug)]
pub(super) struct TaintQueue {
    /// The nodes waiting, in the order they were added, as (place number, node) records from
    /// `start` on. A record is live while its node's entry in `set` holds its place number;
    /// removing a node leaves its record behind, stale, to be skipped (a dark zone's nodes are
    /// removed and queued again at every monitor pass, hundreds of them: no search, no shift).
    /// (A record's name is its set entry's: queueing a node again allocates nothing.)
    queue: Vec<(u64, Arc<str>)>,
    start: usize,
    /// `UniqueQueue.set`, and where each member waits: every node ever queued, with whether it
    /// is in the set now and its live place number while it waits (a node the tainting pass has
    /// taken off the queue stays in the set, `RemoveFromQueue`, so it is not queued again).
    /// Entries are never removed, only marked. Hashed, not ordered: a dark zone's hundreds of
    /// nodes are removed and queued again at every monitor pass, and a search by name would
    /// compare their long common prefixes many times for each; the set is only looked up, never
    /// listed.
    set: FxHashMap<Arc<str>, Slot>,
    /// How many nodes the set holds.
    members: usize,
    /// The next place number.
    next: u64,
    pub(super) limiter: TokenBucket,
}

/// A node's entry in a [`TaintQueue`]'s set.
#[derive(Clone, Copy, Debug)]
struct Slot {
    member: bool,
    place: Option<u64>,
}

impl TaintQueue {
    pub(super) fn new(limiter: TokenBucket) -> TaintQueue {
        TaintQueue { queue: Vec::new(), start: 0, set: FxHashMap::default(), members: 0, next: 0, limiter }
    }

    /// Adds `node` at the back, unless the set holds it (`UniqueQueue.Add`).
    pub(super) fn add(&mut self, node: &str) -> bool {
        let place = Some(self.next);
        let name = match self.set.get_mut(node) {
            Some(slot) if slot.member => return false,
            Some(slot) => {
                *slot = Slot { member: true, place };
                self.set.get_key_value(node).map(|(name, _)| name.clone()).expect("just found")
            }
            None => {
                let name: Arc<str> = node.into();
                self.set.insert(name.clone(), Slot { member: true, place });
                name
            }
        };
        self.members += 1;
        self.queue.push((self.next, name));
        self.next += 1;
        // Stale records are dropped once they outnumber the live ones.
        if self.queue.len() - self.start > 2 * self.members + 64 {
            let set = &self.set;
            let live: Vec<(u64, Arc<str>)> = self.queue[self.start..]
                .iter()
                .filter(|(p, n)| set.get(&**n).is_some_and(|s| s.place == Some(*p)))
                .cloned()
                .collect();
            self.queue = live;
            self.start = 0;
        }
        true
    }

    /// Forgets `node`: off the queue and out of the set (`UniqueQueue.Remove`). Returns whether
    /// the set held it.
    pub(super) fn remove(&mut self, node: &str) -> bool {
        match self.set.get_mut(node) {
            Some(slot) if slot.member => {
                *slot = Slot { member: false, place: None };
                self.members -= 1;
                true
            }
            _ => false,
        }
    }

    /// Whether the set holds `node`.
    pub(super) fn holds(&self, node: &str) -> bool {
        self.set.get(node).is_some_and(|s| s.member)
    }

    /// Whether the set holds no node.
    pub(super) fn is_empty(&self) -> bool {
        self.members == 0
    }

    /// The node at the head of the queue (stale records before it are dropped).
    pub(super) fn head(&mut self) -> Option<&str> {
        while let Some((place, node)) = self.queue.get(self.start) {
            if self.set.get(&**node).is_some_and(|s| s.place == Some(*place)) {
                break;
            }
            self.start += 1;
        }
        if self.start == self.queue.len() {
            self.queue.clear();
            self.start = 0;
        }
        self.queue.get(self.start).map(|(_, n)| &**n)
    }

    /// Takes the head off the queue, keeping it in the set (`RemoveFromQueue`).
    pub(super) fn pop_head(&mut self) {
        if self.head().is_none() {
            return;
        }
        let (_, node) = &self.queue[self.start];
        if let Some(slot) = self.set.get_mut(&**node) {
            slot.place = None;
        }
        self.start += 1;
    }

    /// `SwapLimiter`: a fresh bucket at the new rate (full, burst 1), drained if the old one had
    /// no token (`if q.limiter.TryAccept() == false { newLimiter.TryAccept() }`). Returns whether
    /// the rate changed.
    pub(super) fn swap_limiter(&mut self, qps: f64, now: SimTime) -> bool {
        if (self.limiter.qps() - qps).abs() < f64::EPSILON {
            return false;
        }
        let mut fresh = TokenBucket::new(qps, EVICTION_BURST, now);
        if !self.limiter.try_accept(now) {
            fresh.try_accept(now);
        }
        self.limiter = fresh;
        true
    }
}

/// How many nodes of a zone are Ready and not.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ZoneCount {
    pub(super) ready: usize,
    pub(super) not_ready: usize,
}

impl ZoneCount {
    pub(super) fn total(self) -> usize {
        self.ready + self.not_ready
    }
}

/// `setLimiterInZone`: the tainting rate of a zone of `size` nodes in `state` (`HealthyQPSFunc`,
/// `ReducedQPSFunc`; master disruption mode sets 0 on its own).
pub fn zone_qps(settings: &Settings, state: ZoneState, size: usize) -> f64 {
    match state {
        ZoneState::Normal | ZoneState::FullDisruption | ZoneState::Initial => settings.node_eviction_rate,
        ZoneState::PartialDisruption if size as i64 > settings.large_cluster_size_threshold => {
            settings.secondary_node_eviction_rate
        }
        ZoneState::PartialDisruption => 0.0,
    }
}

/// `ComputeZoneState`.
pub fn compute_zone_state(settings: &Settings, ready: usize, not_ready: usize) -> ZoneState {
    if not_ready > 0 && ready == 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2 && not_ready as f64 / (ready + not_ready) as f64 >= settings.unhealthy_zone_threshold {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    }
}

impl NodeLifecycle {
    /// `handleDisruption`: zone states, master disruption mode, and the tainting rates.
    pub(super) fn handle_disruption(
        &mut self,
        zone_conditions: VecMap<Zone, ZoneCount>,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) {
        let now = ctx.now;
        let new_states: Vec<(&Zone, ZoneState)> =
            zone_conditions.iter().map(|(z, c)| (z, compute_zone_state(ctx.settings, c.ready, c.not_ready))).collect();
        let all_are = !new_states.is_empty() && new_states.iter().all(|(_, s)| *s == ZoneState::FullDisruption);
        for (zone, _) in &new_states {
            if !self.zone_states.contains_key(*zone) {
                ctx.log_line_at(
                    ACTOR,
                    Severity::Error,
                    format!("\"Setting initial state for unseen zone\" zone=\"{}\"", klog_escape(zone)),
                );
                self.zone_states.insert((*zone).clone(), ZoneState::Initial);
            }
        }
        if all_are == self.all_disrupted
            && new_states.iter().all(|(z, s)| self.zone_states.get(*z) == Some(s))
            && self.zone_states.len() == new_states.len()
        {
            return;
        }
        self.all_disrupted = all_are;
        let new_states: Vec<(Zone, ZoneState)> = new_states.into_iter().map(|(z, s)| (z.clone(), s)).collect();
        self.zone_states.retain(|z, _| zone_conditions.contains_key(z));
        let all_were = self.zone_states.values().all(|s| *s == ZoneState::FullDisruption);
        if !all_are || !all_were {
            if all_are {
                ctx.log_line(
                    ACTOR,
                    "\"Controller detected that all Nodes are not-Ready. Entering master disruption mode\"".into(),
                );
                let names: Vec<Text> = ctx.store().nodes.keys().cloned().collect();
                for name in &names {
                    self.mark_reachable_soon(name, ctx);
                }
                for q in self.tainters.values_mut() {
                    q.swap_limiter(0.0, now);
                }
                for s in self.zone_states.values_mut() {
                    *s = ZoneState::FullDisruption;
                }
                return;
            }
            if all_were {
                ctx.log_line(
                    ACTOR,
                    "\"Controller detected that some Nodes are Ready. Exiting master disruption mode\"".into(),
                );
                for h in self.nodes.values_mut().filter_map(|t| t.health.as_mut()) {
                    h.probe = now;
                    h.ready_transition = now;
                }
                for (zone, state) in &new_states {
                    let size = zone_conditions[zone].total();
                    self.set_limiter_in_zone(zone, size, *state, ctx);
                    self.zone_states.insert(zone.clone(), *state);
                }
                self.schedule_tainting(ctx);
                return;
            }
        }
        for (zone, state) in &new_states {
            if self.zone_states.get(zone) != Some(state) {
                let size = zone_conditions[zone].total();
                ctx.log_line(
                    ACTOR,
                    format!(
                        "\"Controller detected that zone is now in new state\" zone=\"{}\" newState=\"{}\"",
                        klog_escape(zone),
                        state.as_str()
                    ),
                );
                self.set_limiter_in_zone(zone, size, *state, ctx);
                self.zone_states.insert(zone.clone(), *state);
            }
        }
    }

    /// `setLimiterInZone`: the zone's queue gets a fresh bucket at its state's rate. The tainting
    /// loop runs every 100 ms, so a node waiting in the queue goes when the new bucket has a token,
    /// not when the old one would have had.
    pub(super) fn set_limiter_in_zone(
        &mut self,
        zone: &str,
        size: usize,
        state: ZoneState,
        ctx: &mut Ctx<'_, NodeLifecycleTimer>,
    ) {
        let qps = zone_qps(ctx.settings, state, size);
        let now = ctx.now;
        let Some(q) = self.tainters.get_mut(zone) else { return };
        if q.swap_limiter(qps, now)
            && !q.is_empty()
            && let Some(t) = q.limiter.ready_at(now)
        {
            self.tainting_from(t, ctx);
        }
    }
}

#[cfg(test)]
mod queue_tests {
    use super::*;

    fn queue() -> TaintQueue {
        TaintQueue::new(TokenBucket::new(0.1, 1, SimTime::ZERO))
    }

    /// Takes every waiting node off the queue, in order.
    fn drain(q: &mut TaintQueue) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(head) = q.head().map(str::to_string) {
            q.pop_head();
            out.push(head);
        }
        out
    }

    #[test]
    fn a_node_removed_and_added_again_goes_to_the_back() {
        let mut q = queue();
        for n in ["a", "b", "c"] {
            assert!(q.add(n));
        }
        assert!(!q.add("b"), "the set holds b");
        q.remove("a");
        assert!(q.add("a"));
        assert_eq!(drain(&mut q), ["b", "c", "a"]);
    }

    #[test]
    fn a_node_taken_off_the_queue_stays_in_the_set_until_removed() {
        let mut q = queue();
        q.add("a");
        q.add("b");
        assert_eq!(q.head(), Some("a"));
        q.pop_head();
        assert!(q.holds("a") && !q.add("a"), "RemoveFromQueue keeps it in the set");
        assert_eq!(drain(&mut q), ["b"]);
        q.remove("a");
        assert!(!q.holds("a") && !q.is_empty(), "b is still in the set");
        q.remove("b");
        assert!(q.is_empty());
        assert!(q.add("a"));
        assert_eq!(drain(&mut q), ["a"]);
    }

    #[test]
    fn requeueing_many_times_keeps_the_order_and_the_queue_small() {
        let mut q = queue();
        let names: Vec<String> = (0..100).map(|i| format!("node-{i}")).collect();
        for n in &names {
            q.add(n);
        }
        // A monitor pass after another: every node removed and queued again, in name order.
        for _ in 0..50 {
            for n in &names {
                q.remove(n);
                q.add(n);
            }
            assert!(q.queue.len() - q.start <= 2 * names.len() + 64 + 1, "stale records are dropped");
        }
        q.remove("node-3");
        assert_eq!(drain(&mut q), names.iter().filter(|n| *n != "node-3").cloned().collect::<Vec<_>>());
    }
}
