//! The disruption controller (`pkg/controller/disruption`): every PodDisruptionBudget's status,
//! from the Pods its selector matches and the scale of their controllers.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::Ctx;
use crate::events::{Recorder, Source};
use crate::objects::{
    IntOrPercent, ObjectReference, PdbStatus, Pod, PodDisruptionBudget, Time, set_disruption_allowed,
};
use crate::record::Actor;
use crate::vecmap::VecMap;

/// `DeletionTimeout`: how long an entry in `disruptedPods` keeps its Pod out of `currentHealthy`.
pub(crate) const DELETION_TIMEOUT: Duration = Duration::from_secs(120);

const ACTOR: Actor = Actor::DisruptionController;

/// The controller's state: the scale of each workload controller it can read (by uid), and its
/// event recorder.
#[derive(Clone, Debug, Default)]
pub(crate) struct DisruptionController {
    scales: VecMap<String, i32>,
    recorder: Recorder,
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
    pub(crate) fn on_change<T>(&mut self, ctx: &mut Ctx<'_, T>) {
        let pdbs: Vec<Arc<PodDisruptionBudget>> = ctx.store().pdbs.values().cloned().collect();
        for pdb in pdbs {
            self.sync(&pdb, ctx);
        }
    }

    fn sync<T>(&mut self, pdb: &PodDisruptionBudget, ctx: &mut Ctx<'_, T>) {
        let now = Time::at(ctx.wall());
        let pods: Vec<Arc<Pod>> = ctx
            .store()
            .pods
            .values()
            .filter(|p| p.metadata.namespace == pdb.metadata.namespace && pdb.spec.selector.matches(&p.metadata.labels))
            .cloned()
            .collect();
        if pods.is_empty() {
            let reference = ObjectReference {
                kind: "PodDisruptionBudget".into(),
                namespace: pdb.metadata.namespace.clone(),
                name: pdb.metadata.name.clone(),
                uid: pdb.metadata.uid.clone(),
                api_version: "policy/v1".into(),
                resource_version: pdb.metadata.resource_version.to_string(),
                ..ObjectReference::default()
            };
            self.recorder.event(
                ctx,
                Source::Controller("controllermanager"),
                reference,
                "Normal",
                "NoPods",
                "No matching pods found".into(),
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
        // are younger than the deletion timeout.
        let mut disrupted = pdb.status.disrupted_pods.clone();
        disrupted.retain(|name, at| {
            pods.iter().any(|p| &p.metadata.name == name && p.metadata.deletion_timestamp.is_none())
                && at.0 + DELETION_TIMEOUT > now.0
        });
        let healthy = pods
            .iter()
            .filter(|p| {
                p.metadata.deletion_timestamp.is_none() && !disrupted.contains_key(&p.metadata.name) && p.is_ready()
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
        if status == pdb.status {
            return;
        }
        let mut next = pdb.clone();
        next.status = status;
        ctx.call(ACTOR, None, ApiOp::UpdatePdbStatus(next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{LabelSelector, PdbSpec};

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
