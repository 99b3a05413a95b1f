//! kube-scheduler, reduced to what decides where the simulation's Pods go: the
//! `NodeUnschedulable` and `TaintToleration` filters (taints, never conditions), the
//! `FailedScheduling` message built as `FitError.Error()` builds it, the unschedulable queue with
//! its 5-minute flush, and binding through `pods/NAME/binding`. A Pod whose claim is not bound
//! yet (the class binds `WaitForFirstConsumer`) goes through the VolumeBinding plugin's PreBind:
//! the node picked is written on the claim (`volume.kubernetes.io/selected-node`), and the Pod is
//! bound once the claim is, polled every second (`BindPodVolumes`).

use crate::vecmap::VecMap;
use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, Reply};
use crate::events::{Recorder, Source, pod_ref};
use crate::flowcontrol::TokenBucket;
use crate::objects::{BIND_COMPLETED, SELECTED_NODE};
use crate::objects::{Node, Object, PersistentVolumeClaim, Pod, Time, order_pod_conditions, set_pod_condition};
use crate::profile::Profile;
use crate::record::Actor;
use crate::settings::Settings;
use crate::time::{SimTime, secs};

/// `podMaxInUnschedulablePodsDuration`.
const MAX_IN_UNSCHEDULABLE: Duration = secs(300);
/// How often the unschedulable pool is checked for leftovers.
const FLUSH_PERIOD: Duration = secs(30);
/// `podInitialBackoffDuration`.
const INITIAL_BACKOFF: Duration = secs(1);

/// The scheduler's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SchedulerTimer {
    /// Pods left unschedulable for 5 minutes are retried.
    Flush,
    /// `BindPodVolumes` polls the claims of the Pod (uid) waiting in PreBind.
    VolumeBinding(String),
    /// The client has a token again for the Pods waiting to be placed.
    Client,
}

/// `BindPodVolumes`' poll interval.
const VOLUME_BINDING_POLL: Duration = secs(1);

/// The scheduler's queue state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scheduler {
    recorder: Recorder,
    /// Unschedulable Pods (by uid) and when they last failed.
    unschedulable: VecMap<String, SimTime>,
    flush_scheduled: bool,
    /// Pods (uid) in PreBind, waiting for their claims, and the node picked for them.
    binding: VecMap<String, String>,
    /// Its client (`clientConnection`: 50 requests a second, burst 100): placing a Pod (its
    /// binding, or its `PodScheduled=False` status) waits for a token. (Its Events go through a
    /// client of their own at the same rate, which they never outrun: one a placement.) Made,
    /// full, at the settings' rate when first used.
    client: Option<TokenBucket>,
    /// When a `Client` timer is asked for.
    client_wake: Option<SimTime>,
}

/// Whether a node fits a Pod (the filters of [`filter`], without wording why not); `pinned` is
/// the node the Pod's affinity pins it to ([`Pod::pinned_node`], read once for all the nodes).
fn fits(pod: &Pod, pinned: Option<&str>, node: &Node) -> bool {
    let tolerated =
        |key: &str, value: &str, effect: &str| pod.spec.tolerations.iter().any(|t| t.tolerates(key, value, effect));
    (!node.spec.unschedulable || tolerated("node.kubernetes.io/unschedulable", "", "NoSchedule"))
        && node
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
            .all(|t| tolerated(&t.key, &t.value, &t.effect))
        && pinned.is_none_or(|n| n == node.metadata.name)
}

/// Why one node does not fit a Pod, as the first failing filter words it.
fn filter(pod: &Pod, node: &Node, profile: Profile) -> Result<(), String> {
    if node.spec.unschedulable
        && !pod.spec.tolerations.iter().any(|t| t.tolerates("node.kubernetes.io/unschedulable", "", "NoSchedule"))
    {
        return Err("node(s) were unschedulable".into());
    }
    for taint in &node.spec.taints {
        if taint.effect != "NoSchedule" && taint.effect != "NoExecute" {
            continue;
        }
        if !pod.spec.tolerations.iter().any(|t| t.tolerates(&taint.key, &taint.value, &taint.effect)) {
            return Err(match profile {
                Profile::V1_34 | Profile::V1_31 => {
                    format!("node(s) had untolerated taint {{{}: {}}}", taint.key, taint.value)
                }
            });
        }
    }
    // NodeAffinity (after TaintToleration in the default profile's filter order).
    if pod.pinned_node().is_some_and(|n| n != node.metadata.name) {
        return Err("node(s) didn't match Pod's node affinity/selector".into());
    }
    Ok(())
}

/// The `FailedScheduling` message: `FitError.Error()` plus the PostFilter plugins' reasons.
pub(crate) fn fit_error(reasons: &[String], profile: Profile) -> String {
    let n = reasons.len();
    if n == 0 {
        return "no nodes available to schedule pods".into();
    }
    let mut counts: VecMap<&str, usize> = VecMap::new();
    for r in reasons {
        *counts.get_or_insert_with(r, || 0) += 1;
    }
    let mut items: Vec<String> = counts.iter().map(|(r, c)| format!("{c} {r}")).collect();
    items.sort_unstable();
    let preemption = format!("preemption: 0/{n} nodes are available: {n} Preemption is not helpful for scheduling.");
    let post = match profile {
        // DynamicResources is on by default from 1.34 and runs its PostFilter before preemption.
        Profile::V1_34 => format!("no new claims to deallocate, {preemption}"),
        Profile::V1_31 => preemption,
    };
    format!("0/{n} nodes are available: {}. {post}", items.join(", "))
}

const ACTOR: Actor = Actor::Scheduler;

impl Scheduler {
    /// The client's bucket, at kube-scheduler's `--kube-api-qps` and `--kube-api-burst`.
    fn client(&mut self, settings: &Settings) -> &mut TokenBucket {
        self.client.get_or_insert_with(|| TokenBucket::client(settings.scheduler_client))
    }

    /// Input: one of the scheduler's timers fired.
    pub(crate) fn on_timer(&mut self, timer: SchedulerTimer, ctx: &mut Ctx<'_, SchedulerTimer>) {
        match timer {
            SchedulerTimer::Flush => self.flush(ctx),
            SchedulerTimer::VolumeBinding(uid) => self.poll_volume_binding(uid, ctx),
            SchedulerTimer::Client => {
                if self.client_wake == Some(ctx.now) {
                    self.client_wake = None;
                    self.schedule_pending(ctx);
                }
            }
        }
    }

    /// Input: Pods or Nodes changed: try to place every Pod without a node.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, SchedulerTimer>) {
        self.schedule_pending(ctx);
    }

    /// Tries to place every Pod without a node.
    fn schedule_pending(&mut self, ctx: &mut Ctx<'_, SchedulerTimer>) {
        let mut pending: Vec<Arc<Pod>> = ctx.store().unbound_pods().filter(|p| !p.is_terminating()).cloned().collect();
        // Names are unique, so an unstable sort is deterministic.
        pending.sort_unstable_by(|a, b| {
            (a.metadata.creation_timestamp, &a.metadata.name).cmp(&(b.metadata.creation_timestamp, &b.metadata.name))
        });
        let live: VecMap<&str, ()> = pending.iter().map(|p| (p.metadata.uid.as_str(), ())).collect();
        self.unschedulable.retain(|uid, _| live.contains_key(uid.as_str()));
        self.binding.retain(|uid, _| live.contains_key(uid.as_str()));
        // Each node's load (bound Pods), by the node's place in name order: read from the store
        // once for the pass and kept up to date by each placement (only the scheduler binds, and
        // the nodes do not change while it runs).
        let mut loads: Vec<usize> = Vec::new();
        for pod in pending {
            let uid = pod.metadata.uid.clone();
            if self.binding.contains_key(&*uid) {
                continue;
            }
            if let Some(&failed_at) = self.unschedulable.get(&*uid) {
                // Queueing hints: retry only when a cluster change makes the Pod schedulable,
                // and not before its backoff has passed (or after the 5-minute flush).
                let due = ctx.now >= failed_at + MAX_IN_UNSCHEDULABLE;
                if !due && (ctx.now < failed_at + INITIAL_BACKOFF || !Self::fits_somewhere(&pod, ctx)) {
                    continue;
                }
            }
            // The rest wait for the client's next token.
            if !self.client(ctx.settings).has_token(ctx.now) {
                let at = self.client(ctx.settings).ready_at(ctx.now).expect("a client bucket refills");
                if self.client_wake.is_none_or(|w| w > at) {
                    self.client_wake = Some(at);
                    ctx.at(at, SchedulerTimer::Client);
                }
                break;
            }
            if loads.is_empty() {
                loads = ctx.store().nodes_with_pod_counts().map(|(_, count)| count).collect();
            }
            self.schedule_one(&pod, ctx, &mut loads);
        }
    }

    fn fits_somewhere(pod: &Pod, ctx: &Ctx<'_, SchedulerTimer>) -> bool {
        let pinned = pod.pinned_node();
        ctx.store().nodes.values().any(|n| fits(pod, pinned, n))
    }

    fn schedule_one(&mut self, pod: &Arc<Pod>, ctx: &mut Ctx<'_, SchedulerTimer>, loads: &mut [usize]) {
        let uid = pod.metadata.uid.clone();
        let profile = ctx.profile;
        // Score: fewest Pods first (NodeResourcesFit's least-allocated, in effect); ties are broken
        // at random, as selectHost does, among the feasible nodes in name order.
        let nodes = &ctx.store().nodes;
        debug_assert_eq!(nodes.len(), loads.len(), "the nodes do not change during a pass");
        let mut best = usize::MAX;
        let mut tied: Vec<usize> = Vec::new();
        let pinned = pod.pinned_node();
        for (i, (_, node)) in nodes.iter().enumerate() {
            if loads[i] > best || !fits(pod, pinned, node) {
                continue;
            }
            if loads[i] < best {
                best = loads[i];
                tied.clear();
            }
            tied.push(i);
        }
        let ties = tied.len() as u64;
        if ties == 0 {
            let reasons: Vec<String> =
                ctx.store().nodes.values().filter_map(|n| filter(pod, n, profile).err()).collect();
            let message = fit_error(&reasons, profile);
            self.unschedulable.insert(uid.to_string(), ctx.now);
            self.recorder.event(
                ctx,
                Source::Scheduler { action: "Scheduling" },
                pod_ref(pod, None),
                "Warning",
                "FailedScheduling",
                message.clone(),
            );
            let mut status = pod.status.clone();
            set_pod_condition(
                &mut status,
                "PodScheduled",
                "False",
                "Unschedulable",
                message.clone(),
                Time::at(ctx.wall()),
            );
            order_pod_conditions(&mut status, pod.metadata.generation);
            if status != pod.status {
                self.client(ctx.settings).reserve(ctx.now);
                ctx.call(
                    ACTOR,
                    None,
                    ApiOp::PatchPodStatus {
                        namespace: pod.metadata.namespace.to_string(),
                        name: pod.metadata.name.to_string(),
                        uid: String::new(),
                        status,
                    },
                );
            }
            if !self.flush_scheduled {
                self.flush_scheduled = true;
                ctx.after(FLUSH_PERIOD, SchedulerTimer::Flush);
            }
            return;
        }
        let place = tied[ctx.rng.below(ties) as usize];
        let pick = ctx.store().nodes.entry_at(place).0.clone();
        if self.prebind_volumes(pod, &pick, ctx) {
            self.bind(pod, pick.to_string(), ctx);
            loads[place] = ctx.store().pod_count_on(ctx.store().nodes.entry_at(place).0);
        }
    }

    /// The VolumeBinding plugin's PreBind: true when every claim the Pod names is bound; otherwise
    /// the node picked is written on each unbound claim and the Pod waits for the poll.
    fn prebind_volumes(&mut self, pod: &Pod, pick: &str, ctx: &mut Ctx<'_, SchedulerTimer>) -> bool {
        let unbound: Vec<_> = pod
            .claim_names()
            .filter_map(|c| ctx.store().claims.get(&(pod.metadata.namespace.to_string(), c.to_string())).cloned())
            .filter(|c| c.spec.volume_name.is_empty())
            .collect();
        if unbound.is_empty() {
            return true;
        }
        for claim in unbound {
            if claim.metadata.annotations.get(SELECTED_NODE).is_some_and(|n| n == pick) {
                continue;
            }
            let mut wanted = PersistentVolumeClaim::clone(&claim);
            wanted.metadata.annotations.insert(SELECTED_NODE.into(), pick.to_string());
            self.client(ctx.settings).reserve(ctx.now);
            ctx.call(ACTOR, None, ApiOp::UpdateClaim(wanted));
        }
        self.unschedulable.remove(&*pod.metadata.uid);
        self.binding.insert(pod.metadata.uid.to_string(), pick.to_string());
        ctx.after(VOLUME_BINDING_POLL, SchedulerTimer::VolumeBinding(pod.metadata.uid.to_string()));
        false
    }

    /// `checkBindings`: the Pod is bound once each of its claims is fully bound (`spec.volumeName`
    /// and `pv.kubernetes.io/bind-completed`); until then, polled again a second later.
    fn poll_volume_binding(&mut self, uid: String, ctx: &mut Ctx<'_, SchedulerTimer>) {
        let Some(pick) = self.binding.get(&uid).cloned() else { return };
        let pod = ctx.store().pod_by_uid(&uid).cloned();
        let Some(pod) = pod.filter(|p| p.spec.node_name.is_empty() && !p.is_terminating()) else {
            self.binding.remove(&uid);
            return;
        };
        let store = ctx.store();
        let bound = pod.claim_names().all(|c| {
            store.claims.get(&(pod.metadata.namespace.to_string(), c.to_string())).is_some_and(|claim| {
                !claim.spec.volume_name.is_empty() && claim.metadata.annotations.contains_key(BIND_COMPLETED)
            })
        });
        if !bound {
            ctx.after(VOLUME_BINDING_POLL, SchedulerTimer::VolumeBinding(uid));
            return;
        }
        self.binding.remove(&uid);
        self.bind(&pod, pick, ctx);
    }

    /// Binds the Pod to the node picked (`pods/NAME/binding`) and says so.
    fn bind(&mut self, pod: &Arc<Pod>, pick: String, ctx: &mut Ctx<'_, SchedulerTimer>) {
        let uid = pod.metadata.uid.clone();
        let op = ApiOp::BindPod {
            namespace: pod.metadata.namespace.to_string(),
            name: pod.metadata.name.to_string(),
            uid: uid.to_string(),
            node: pick.clone(),
        };
        self.client(ctx.settings).reserve(ctx.now);
        if let Reply::Ok(Object::Pod(bound)) = ctx.call(ACTOR, None, op) {
            self.unschedulable.remove(&*uid);
            let ns = &bound.metadata.namespace;
            let name = &bound.metadata.name;
            self.recorder.event(
                ctx,
                Source::Scheduler { action: "Binding" },
                pod_ref(pod, None),
                "Normal",
                "Scheduled",
                format!("Successfully assigned {ns}/{name} to {pick}"),
            );
        }
    }

    /// `flushUnschedulablePodsLeftover`.
    fn flush(&mut self, ctx: &mut Ctx<'_, SchedulerTimer>) {
        self.flush_scheduled = false;
        if self.unschedulable.is_empty() {
            return;
        }
        self.schedule_pending(ctx);
        if !self.unschedulable.is_empty() && !self.flush_scheduled {
            self.flush_scheduled = true;
            ctx.after(FLUSH_PERIOD, SchedulerTimer::Flush);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::TAINT_NOT_READY;
    use crate::objects::{ObjectMeta, Taint};
    use crate::testkit::Probe;
    use crate::workload::new_pod;

    #[test]
    fn a_new_pod_goes_where_the_taints_allow() {
        let not_ready = || vec![Taint::new(TAINT_NOT_READY, "NoSchedule", None)];
        // The nodes (name, tainted not-ready), then what one pass does with one new Pod.
        type Case = (Vec<(&'static str, bool)>, Vec<&'static str>);
        let cases: Vec<Case> = vec![
            (
                vec![],
                vec![
                    "PATCH /api/v1/namespaces/default/pods/web-1/status -> 200",
                    "event FailedScheduling: no nodes available to schedule pods",
                    "timer +30s Flush",
                ],
            ),
            (
                vec![("node-a", true)],
                vec![
                    "PATCH /api/v1/namespaces/default/pods/web-1/status -> 200",
                    "event FailedScheduling: 0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
                    "timer +30s Flush",
                ],
            ),
            (
                vec![("node-a", false)],
                vec![
                    "POST /api/v1/namespaces/default/pods/web-1/binding -> 201",
                    "event Scheduled: Successfully assigned default/web-1 to node-a",
                ],
            ),
            (
                vec![("node-a", true), ("node-b", false)],
                vec![
                    "POST /api/v1/namespaces/default/pods/web-1/binding -> 201",
                    "event Scheduled: Successfully assigned default/web-1 to node-b",
                ],
            ),
        ];
        for (nodes, want) in cases {
            let mut probe = Probe::new();
            for (name, tainted) in &nodes {
                probe.given_node(name, if *tainted { not_ready() } else { Vec::new() });
            }
            let meta = ObjectMeta { name: "web-1".into(), namespace: "default".into(), ..ObjectMeta::default() };
            probe.given(ApiOp::CreatePod(new_pod(meta, Vec::new(), Profile::V1_34)));
            let mut scheduler = Scheduler::default();
            assert_eq!(probe.input(|ctx| scheduler.on_change(ctx)), want, "nodes {nodes:?}");
        }
    }

    #[test]
    fn fit_errors_read_like_the_real_scheduler() {
        let nr = "node(s) had untolerated taint {node.kubernetes.io/not-ready: }".to_string();
        let ur = "node(s) had untolerated taint {node.kubernetes.io/unreachable: }".to_string();
        assert_eq!(
            fit_error(std::slice::from_ref(&nr), Profile::V1_31),
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
        assert_eq!(
            fit_error(std::slice::from_ref(&nr), Profile::V1_34),
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
        );
        assert_eq!(
            fit_error(&[ur, nr], Profile::V1_31),
            "0/2 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        );
    }
}
