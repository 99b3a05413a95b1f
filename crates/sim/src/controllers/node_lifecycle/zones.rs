//! Zone states and tainting rates (`handleDisruption`, `ComputeZoneState`, `setLimiterInZone`),
//! and the per-zone token buckets that pace NoExecute tainting (`RateLimitedTimedQueue`).

use super::*;

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

#[derive(Clone, Debug)]
pub(super) struct Limiter {
    pub(super) qps: f64,
    pub(super) tokens: f64,
    pub(super) at: SimTime,
}

impl Limiter {
    pub(super) fn new(qps: f64, now: SimTime) -> Limiter {
        Limiter { qps, tokens: 1.0, at: now }
    }

    pub(super) fn refill(&mut self, now: SimTime) {
        if self.qps > 0.0 {
            let dt = (now - self.at).as_secs_f64();
            self.tokens = (self.tokens + dt * self.qps).min(1.0);
        }
        self.at = now;
    }

    pub(super) fn try_accept(&mut self, now: SimTime) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// When the next token will be there, if ever.
    pub(super) fn next_token(&self) -> Option<SimTime> {
        (self.qps > 0.0).then(|| {
            let missing = (1.0 - self.tokens).max(0.0);
            self.at + Duration::from_secs_f64(missing / self.qps)
        })
    }
}

/// One zone's NoExecute tainting queue (`RateLimitedTimedQueue`).
#[derive(Clone, Debug)]
pub(super) struct TaintQueue {
    pub(super) queue: Vec<String>,
    pub(super) set: VecMap<String, ()>,
    pub(super) limiter: Limiter,
}

impl TaintQueue {
    pub(super) fn add(&mut self, node: &str) -> bool {
        if self.set.add(node.to_string()) {
            self.queue.push(node.to_string());
            true
        } else {
            false
        }
    }

    pub(super) fn remove(&mut self, node: &str) {
        self.set.remove(node);
        self.queue.retain(|n| n != node);
    }

    /// `SwapLimiter`: a fresh bucket, drained if the old one had no token.
    pub(super) fn swap_limiter(&mut self, qps: f64, now: SimTime) {
        if (self.limiter.qps - qps).abs() < f64::EPSILON {
            return;
        }
        let mut fresh = Limiter::new(qps, now);
        if !self.limiter.try_accept(now) {
            fresh.tokens = 0.0;
        }
        self.limiter = fresh;
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
pub fn zone_qps(state: ZoneState, size: usize) -> f64 {
    match state {
        ZoneState::Normal | ZoneState::FullDisruption | ZoneState::Initial => EVICTION_QPS,
        ZoneState::PartialDisruption if size > LARGE_CLUSTER_THRESHOLD => SECONDARY_EVICTION_QPS,
        ZoneState::PartialDisruption => 0.0,
    }
}

/// `ComputeZoneState`.
pub fn compute_zone_state(ready: usize, not_ready: usize) -> ZoneState {
    if not_ready > 0 && ready == 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2 && not_ready as f64 / (ready + not_ready) as f64 >= UNHEALTHY_ZONE_THRESHOLD {
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
            zone_conditions.iter().map(|(z, c)| (z, compute_zone_state(c.ready, c.not_ready))).collect();
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
                let names: Vec<String> = ctx.store().nodes.keys().cloned().collect();
                for name in names {
                    self.mark_node_as_reachable(&name, ctx);
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
                    self.set_limiter_in_zone(zone, size, *state, now);
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
                self.set_limiter_in_zone(zone, size, *state, now);
                self.zone_states.insert(zone.clone(), *state);
            }
        }
    }

    pub(super) fn set_limiter_in_zone(&mut self, zone: &str, size: usize, state: ZoneState, now: SimTime) {
        let qps = zone_qps(state, size);
        if let Some(q) = self.tainters.get_mut(zone) {
            q.swap_limiter(qps, now);
        }
    }
}
