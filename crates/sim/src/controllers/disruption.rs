//! The disruption controller (`pkg/controller/disruption`): every PodDisruptionBudget's status,
//! from the Pods its selector matches and the scale of their controllers, and the recheck of a
//! budget whose `disruptedPods` entries are still waiting for their Pod's deletion
//! (`buildDisruptedPodMap`: an entry older than the deletion timeout whose Pod is not being deleted
//! is dropped with a `NotDeleted` Event, and the budget is queued again for when the next entry
//! runs out).

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::client::{Keys, Throttled};
use crate::ctx::Ctx;
use crate::events::{Recorder, pod_ref};
use crate::objects::{
    IntOrPercent, ObjectReference, PdbStatus, Pod, PodDisruptionBudget, Time, set_disruption_allowed,
};
use crate::record::Actor;
use crate::time::{SimTime, WallTime};
use crate::vecmap::VecMap;

/// `DeletionTimeout`: how long an entry in `disruptedPods` keeps its Pod out of `currentHealthy`.
pub(crate) const DELETION_TIMEOUT: Duration = Duration::from_secs(120);

const ACTOR: Actor = Actor::DisruptionController;

/// The controller's timers: a budget queued again (`enqueuePdbForRecheck`), and its client's
/// token come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DisruptionTimer {
    Recheck,
    Client,
}

/// The Events' source component.
const COMPONENT: &str = "controllermanager";

/// The controller's state: the scale of each workload controller it can read (by uid), the
/// budgets queued for a recheck and when, its event recorder, and its client (its own:
/// `ClientOrDie("disruption-controller")`, 20 requests a second, burst 30, its Events through it).
#[derive(Clone, Debug, Default)]
pub(crate) struct DisruptionController {
    scales: VecMap<String, i32>,
    /// At most one recheck a budget, the earliest asked for (the work queue keeps one entry a key).
    rechecks: VecMap<(String, String), SimTime>,
    recorder: Recorder,
    client: Throttled,
    /// The budgets (`namespace/name`) whose status write waits for the client's next token.
    waiting: Keys,
}

/// A budget's numbers (`getExpectedPodCount`, `countHealthyPods`): expected, desired healthy,
/// current healthy. `scale` is the sum of the matching Pods' controllers' `spec.replicas`
/// (`None`: some Pod has no controller whose scale is known).
pub(crate) fn budget_numbers(spec: &crate::objects::PdbSpec, pods: usize, scale: Option<i32>) -> Option<(i32, i32)> {
    match (spec.max_unavailable, spec.min_available) {
        (Some(max), _) => {
            let expected = scale?;
            let unavailable = max.scaled(expected, true);
            Some((expected, (expected - unavailable).max(0)))
        }
        (None, Some(IntOrPercent::Int(n))) => Some((pods as i32, n)),
        (None, Some(p @ IntOrPercent::Percent(_))) => {
            let expected = scale?;
            Some((expected, p.scaled(expected, true)))
        }
        (None, None) => Some((pods as i32, 0)),
    }
}

impl DisruptionController {
    /// The router tells the controller a workload's scale (its informers on Deployments).
    pub(crate) fn add_scale(&mut self, uid: &str, replicas: i32) {
        self.scales.insert(uid.to_string(), replicas);
    }

    /// Input: Pods or budgets changed: `sync` every budget.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, DisruptionTimer>) {
        let pdbs: Vec<Arc<PodDisruptionBudget>> = ctx.store().pdbs.values().cloned().collect();
        for pdb in pdbs {
            self.sync(&pdb, true, ctx);
        }
    }

    /// Input: a recheck is due: `sync` the budgets whose time has come; or the client has a
    /// token again: the budgets whose status write waited for it are synced again.
    pub(crate) fn on_timer(&mut self, timer: DisruptionTimer, ctx: &mut Ctx<'_, DisruptionTimer>) {
        if timer == DisruptionTimer::Client {
            if self.client.woken(ctx.now) {
                let keys: Vec<String> = std::iter::from_fn(|| self.waiting.pop()).collect();
                for key in keys {
                    let Some((namespace, name)) = key.split_once('/') else { continue };
                    if let Some(pdb) = ctx.store().pdbs.get(&(namespace.to_string(), name.to_string())).cloned() {
                        // The sync goes on where it waited: its Events are recorded already.
                        self.sync(&pdb, false, ctx);
                    }
                }
                self.client.write_events(&mut self.recorder, ctx, COMPONENT, || DisruptionTimer::Client);
            }
            return;
        }
        let due: Vec<(String, String)> =
            self.rechecks.iter().filter(|(_, at)| **at <= ctx.now).map(|(k, _)| k.clone()).collect();
        for key in due {
            self.rechecks.remove(&key);
            if let Some(pdb) = ctx.store().pdbs.get(&key).cloned() {
                self.sync(&pdb, true, ctx);
            }
        }
    }

    /// `enqueuePdbForRecheck`: queue the budget for `at` (wall time), unless it already waits for
    /// an earlier moment.
    fn recheck(&mut self, pdb: &PodDisruptionBudget, at: WallTime, ctx: &mut Ctx<'_, DisruptionTimer>) {
        let when = ctx.now + std::time::Duration::from_micros((at.0 - ctx.wall().0).max(0) as u64);
        let key = (pdb.metadata.namespace.to_string(), pdb.metadata.name.to_string());
        if self.rechecks.get(&key).is_some_and(|queued| *queued <= when) {
            return;
        }
        self.rechecks.insert(key, when);
        ctx.at(when, DisruptionTimer::Recheck);
    }

    /// `sync`; `events`: whether it records its Events (not when it goes on after waiting for
    /// the client, having recorded them before it waited).
    fn sync(&mut self, pdb: &PodDisruptionBudget, events: bool, ctx: &mut Ctx<'_, DisruptionTimer>) {
        let now = Time::at(ctx.wall());
        let pods: Vec<Arc<Pod>> = ctx
            .store()
            .pods
            .values()
            .filter(|p| p.metadata.namespace == pdb.metadata.namespace && pdb.spec.selector.matches(&p.metadata.labels))
            .cloned()
            .collect();
        if pods.is_empty() && events {
            let reference = ObjectReference {
                kind: "PodDisruptionBudget".into(),
                namespace: pdb.metadata.namespace.clone(),
                name: pdb.metadata.name.clone(),
                uid: pdb.metadata.uid.clone(),
                api_version: "policy/v1".into(),
                resource_version: pdb.metadata.resource_version.to_string(),
                ..ObjectReference::default()
            };
            self.client.event(
                &mut self.recorder,
                ctx,
                COMPONENT,
                reference,
                "Normal",
                "NoPods",
                "No matching pods found".into(),
                || DisruptionTimer::Client,
            );
        }
        // Each controller's scale, counted once.
        let mut owners: Vec<&str> = Vec::new();
        let mut known = true;
        for p in &pods {
            match p.controller() {
                Some(c) if self.scales.contains_key(&c.uid) => {
                    if !owners.contains(&c.uid.as_str()) {
                        owners.push(&c.uid);
                    }
                }
                _ => known = false,
            }
        }
        let scale = known.then(|| owners.iter().map(|uid| self.scales[*uid]).sum());
        let Some((expected, desired)) = budget_numbers(&pdb.spec, pods.len(), scale) else { return };
        // `buildDisruptedPodMap`: entries for Pods that still exist, are not being deleted, and
        // are younger than the deletion timeout; an older one is dropped with a `NotDeleted` Event
        // on its Pod, and the budget is checked again when the first kept one runs out.
        let wall = ctx.wall();
        let mut disrupted = std::collections::BTreeMap::new();
        let mut recheck: Option<WallTime> = None;
        for pod in pods.iter().filter(|p| p.metadata.deletion_timestamp.is_none()) {
            let Some(at) = pdb.status.disrupted_pods.get(&*pod.metadata.name) else { continue };
            let expected = at.0 + DELETION_TIMEOUT;
            if expected <= wall {
                if !events {
                    continue;
                }
                // Sic: the source passes the budget's namespace twice.
                let message = format!(
                    "Pod was expected by PDB {ns}/{ns} to be deleted but it wasn't",
                    ns = pdb.metadata.namespace
                );
                let reference = pod_ref(pod, None);
                self.client.event(
                    &mut self.recorder,
                    ctx,
                    COMPONENT,
                    reference,
                    "Warning",
                    "NotDeleted",
                    message,
                    || DisruptionTimer::Client,
                );
            } else {
                recheck = Some(recheck.map_or(expected, |r| r.min(expected)));
                disrupted.insert(pod.metadata.name.to_string(), *at);
            }
        }
        let healthy = pods
            .iter()
            .filter(|p| {
                p.metadata.deletion_timestamp.is_none() && !disrupted.contains_key(&*p.metadata.name) && p.is_ready()
            })
            .count() as i32;
        let allowed = if expected <= 0 { 0 } else { (healthy - desired).max(0) };
        let mut status = PdbStatus {
            observed_generation: pdb.metadata.generation,
            disrupted_pods: disrupted,
            disruptions_allowed: allowed,
            current_healthy: healthy,
            desired_healthy: desired,
            expected_pods: expected,
            conditions: pdb.status.conditions.clone(),
        };
        set_disruption_allowed(&mut status, allowed > 0, pdb.metadata.generation, now);
        if status != pdb.status {
            if !self.client.admit(ctx, || DisruptionTimer::Client) {
                self.waiting.add(&format!("{}/{}", pdb.metadata.namespace, pdb.metadata.name));
                return;
            }
            let mut next = pdb.clone();
            next.status = status;
            if ctx.call(ACTOR, None, ApiOp::UpdatePdbStatus(next)).ok().is_none() {
                return;
            }
        }
        if let Some(at) = recheck {
            self.recheck(pdb, at, ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{LabelSelector, Object, ObjectMeta, PdbSpec, set_pod_condition};
    use crate::testkit::Probe;
    use crate::time::secs;
    use crate::workload::new_pod;

    /// Two Ready Pods `web-1` and `web-2` under `minAvailable: 1`, and `web-1` in `disruptedPods` since
    /// `T+0` (an eviction whose delete never happened): the controller keeps it out of
    /// `currentHealthy` for the deletion timeout, queues the budget for that moment, then drops the
    /// entry with a `NotDeleted` Event and counts the Pod again.
    #[test]
    fn an_entry_whose_pod_was_not_deleted_is_dropped_after_the_timeout() {
        let mut probe = Probe::new();
        let labels: std::collections::BTreeMap<String, String> =
            [("app".to_string(), "web".to_string())].into_iter().collect();
        for name in ["web-1", "web-2"] {
            let meta = ObjectMeta {
                name: name.into(),
                namespace: "default".into(),
                labels: labels.clone().into(),
                ..ObjectMeta::default()
            };
            let Object::Pod(pod) =
                probe.given(ApiOp::CreatePod(new_pod(meta, Vec::new(), crate::profile::Profile::V1_34)))
            else {
                panic!("a Pod")
            };
            let mut ready = (*pod).clone();
            set_pod_condition(&mut ready.status, "Ready", "True", "", "", Time::at(WallTime(0)));
            probe.given(ApiOp::UpdatePodStatus(ready));
        }
        let spec = PdbSpec {
            min_available: Some(IntOrPercent::Int(1)),
            selector: LabelSelector { match_labels: labels },
            max_unavailable: None,
        };
        let Object::PodDisruptionBudget(pdb) =
            probe.given(ApiOp::Create(PodDisruptionBudget::new("default", "web", spec).into()))
        else {
            panic!("a budget")
        };
        let mut evicted = (*pdb).clone();
        evicted.status.disrupted_pods.insert("web-1".into(), Time::at(WallTime(0)));
        probe.given(ApiOp::UpdatePdbStatus(evicted));
        let mut dc = DisruptionController::default();
        probe.now = probe.now + secs(10);
        let got = probe.input(|ctx| dc.on_change(ctx));
        assert_eq!(
            got,
            ["PUT /apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status -> 200", "timer +1m50s Recheck",]
        );
        let status = |probe: &mut Probe| {
            let mut out = None;
            probe.input::<DisruptionTimer>(|ctx| out = ctx.store().pdbs.values().next().map(|p| p.status.clone()));
            out.expect("the budget")
        };
        let s = status(&mut probe);
        assert_eq!((s.current_healthy, s.disruptions_allowed, s.disrupted_pods.len()), (1, 0, 1));
        // A change before the timeout queues nothing new: the budget already waits for then.
        probe.now = probe.now + secs(60);
        assert_eq!(probe.input(|ctx| dc.on_change(ctx)), Vec::<String>::new());
        probe.now = probe.now + secs(50);
        let got = probe.input(|ctx| dc.on_timer(DisruptionTimer::Recheck, ctx));
        assert_eq!(
            got,
            [
                "PUT /apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status -> 200",
                "event NotDeleted: Pod was expected by PDB default/default to be deleted but it wasn't",
            ]
        );
        let s = status(&mut probe);
        assert_eq!((s.current_healthy, s.disruptions_allowed, s.disrupted_pods.len()), (2, 1, 0));
    }

    fn spec(min: Option<IntOrPercent>, max: Option<IntOrPercent>) -> PdbSpec {
        PdbSpec { min_available: min, selector: LabelSelector::default(), max_unavailable: max }
    }

    #[test]
    fn budgets_count_as_the_controller_does() {
        use IntOrPercent::{Int, Percent};
        // minAvailable as a number: expected is the number of Pods, the scale is not needed.
        assert_eq!(budget_numbers(&spec(Some(Int(3)), None), 4, None), Some((4, 3)));
        // minAvailable as a percentage: of the scale, rounded up.
        assert_eq!(budget_numbers(&spec(Some(Percent(50)), None), 4, Some(5)), Some((5, 3)));
        assert_eq!(budget_numbers(&spec(Some(Percent(50)), None), 4, None), None);
        // maxUnavailable: the scale less the (rounded up) unavailable, never below zero.
        assert_eq!(budget_numbers(&spec(None, Some(Int(1))), 4, Some(4)), Some((4, 3)));
        assert_eq!(budget_numbers(&spec(None, Some(Percent(30))), 4, Some(4)), Some((4, 2)));
        assert_eq!(budget_numbers(&spec(None, Some(Int(9))), 4, Some(4)), Some((4, 0)));
    }
}

#[cfg(test)]
mod client_tests {
    use super::*;
    use crate::objects::{LabelSelector, PdbSpec};
    use crate::testkit::Probe;

    /// Forty budgets that select no Pod: each sync records `NoPods` and writes the status, a
    /// token each; past the burst of 30 the writes wait and go one every 50 ms, the Events that
    /// waited after them.
    #[test]
    fn status_writes_wait_for_the_client_after_its_burst() {
        let mut probe = Probe::new();
        for i in 0..40 {
            let selector = LabelSelector { match_labels: [("app".to_string(), format!("none-{i}"))].into() };
            let spec = PdbSpec { min_available: None, selector, max_unavailable: None };
            probe.given(ApiOp::Create(PodDisruptionBudget::new("default", &format!("pdb-{i}"), spec).into()));
        }
        let from = probe.log().requests.len();
        let mut dc = DisruptionController::default();
        probe.input::<DisruptionTimer>(|ctx| dc.on_change(ctx));
        let sent = probe.run_timers::<DisruptionTimer>(SimTime::MAX, |ctx| dc.on_timer(DisruptionTimer::Client, ctx));
        let writes: Vec<u64> = sent[from..].iter().map(|(t, _)| *t).collect();
        let want: Vec<u64> = (0..40).map(|i| if i < 15 { 0 } else { (i - 14) * 50 }).collect();
        assert_eq!(writes, want);
        assert!(probe.store().pdbs.values().all(|p| p.status.observed_generation == p.metadata.generation));
        let events = probe.log().events.iter().filter(|e| e.t.as_millis() > 1_250).count();
        assert_eq!(events, 25, "the 25 Events that waited follow the last write, one each");
    }
}
