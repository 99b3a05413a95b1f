//! Graceful node shutdown: the kubelet's node shutdown manager (`pkg/kubelet/nodeshutdown`,
//! `nodeshutdown_manager_linux.go`), and the machine powering off.
//!
//! With `shutdownGracePeriod` set, the kubelet holds a systemd inhibitor lock. When logind
//! signals `PrepareForShutdown`, the manager records the node event `Shutdown`, marks the node
//! as shutting down (the Ready setter then reports `node is shutting down`, and admission turns
//! new Pods away with `NodeShutdown`), syncs the node status at once, and kills the active Pods
//! group by group (`migrateConfig`: ordinary Pods get `shutdownGracePeriod −
//! shutdownGracePeriodCriticalPods`, then system-critical ones get the rest). Killed Pods end
//! `Failed` with reason `Terminated` and a `DisruptionTarget` condition; they are not deleted.
//! Then the lock is released and the machine powers off. With both periods zero (the default)
//! the manager is a stub and the machine powers off at once, its kubelet with it.

use std::time::Duration;

use crate::ctx::Ctx;
use crate::events::kubelet_node_ref;
use crate::objects::Pod;
use crate::shared::Shared;
use crate::time::{millis, secs};

use super::pods::{CONTAINER_STOP, SYSTEM_CRITICAL_PRIORITY};
use super::{Host, Kubelet, KubeletProcess, KubeletTimer, Machine, MachineTimer};

/// `nodeShutdownReason`: the Pod status reason of a Pod killed for a node shutdown.
pub(crate) const NODE_SHUTDOWN_REASON: &str = "Terminated";
/// `nodeShutdownMessage`.
pub(crate) const NODE_SHUTDOWN_MESSAGE: &str = "Pod was terminated in response to imminent node shutdown.";
/// `nodeShutdownNotAdmittedReason`: admission's reason while the node shuts down.
pub(crate) const NODE_SHUTDOWN_NOT_ADMITTED_REASON: &str = "NodeShutdown";
/// `nodeShutdownNotAdmittedMessage`.
pub(crate) const NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE: &str = "Pod was rejected as the node is shutting down.";
/// `ShutdownStatus()`'s error, which the Ready setter reports.
pub(crate) const NODE_SHUTTING_DOWN: &str = "node is shutting down";
/// How long after the inhibitor lock is released systemd powers the machine off (inference: the
/// rest of the shutdown transaction, stopping the kubelet unit among others).
const POWER_OFF_AFTER_RELEASE: Duration = secs(2);

/// The shutdown manager's groups (`migrateConfig`), lowest priority first, each with its period
/// in whole seconds; `None` when the feature is off (both zero, or critical above the total).
pub(crate) fn priority_groups(grace: Duration, critical: Duration) -> Option<[(i32, i64); 2]> {
    if grace.is_zero() || critical > grace {
        return None;
    }
    let ordinary = (grace - critical).as_secs() as i64;
    Some([(0, ordinary), (SYSTEM_CRITICAL_PRIORITY, critical.as_secs() as i64)])
}

/// A step of the shutdown manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShutdownTimer {
    /// A killed Pod's container has stopped.
    PodStopped { uid: String, group: usize },
    /// Every Pod of the group has stopped and its volumes are unmounted.
    GroupDone(usize),
    /// The group's period ran out.
    GroupTimeout(usize),
}

/// The shutdown manager while it processes a shutdown event.
#[derive(Clone, Debug)]
pub(crate) struct ShutdownState {
    groups: [(i32, i64); 2],
    /// The active Pods (uid) of each group, taken when the event came.
    members: [Vec<String>; 2],
    /// The group being killed.
    group: usize,
    /// Pods of the current group still stopping.
    waiting: Vec<String>,
}

impl Machine {
    /// Action: `systemctl poweroff` on the machine. With graceful node shutdown configured and a
    /// running kubelet, logind delays the shutdown until the kubelet releases its lock;
    /// otherwise the machine goes off at once.
    pub(crate) fn shutdown(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        self.touched_by_reader = true;
        self.host.touch();
        let (grace, critical) = self.host.shutdown_periods;
        let groups = priority_groups(grace, critical);
        match (&mut self.process, groups) {
            (KubeletProcess::Running(k), Some(groups)) => {
                if k.cold.shutdown.is_none() {
                    k.begin_shutdown(&mut self.host, ctx, groups);
                }
            }
            _ => self.power_off(),
        }
    }

    /// Action (and the end of a graceful shutdown): the machine loses power. The kubelet and
    /// every container stop; nothing tells the API server.
    pub(crate) fn power_off(&mut self) {
        self.touched_by_reader = true;
        self.enabled = false;
        self.host.touch();
        self.process = KubeletProcess::Stopped;
        self.host.containers.clear();
        self.host.leaks.clear();
        // (A machine that loses power writes nothing: no kubelet line, and systemd's own
        // "systemd-shutdown: Powering off." of a graceful shutdown goes to the console, not to
        // the kubelet's log.)
        self.host.powered_off = true;
    }
}

impl Kubelet {
    /// `PrepareForShutdown(true)`: the event, the status sync, then the first group.
    fn begin_shutdown(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, groups: [(i32, i64); 2]) {
        h.log(ctx, "\"Shutdown manager detected new shutdown event, isNodeShuttingDownNow\" event=true".into());
        h.log(ctx, "\"Shutdown manager detected new shutdown event\" event=\"shutdown\"".into());
        let node = h.hostname.clone();
        self.event(
            h,
            ctx,
            kubelet_node_ref(&node),
            "Normal",
            "Shutdown",
            "Shutdown manager detected shutdown event".into(),
        );
        let mut members: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for pod in ctx.store().pods_on(&node) {
            if pod.is_terminating() || matches!(&*pod.status.phase, "Succeeded" | "Failed") {
                continue;
            }
            // groupByPriority: the highest group whose priority is at most the Pod's.
            let g = if pod.spec.priority >= groups[1].0 { 1 } else { 0 };
            members[g].push(pod.metadata.uid.to_string());
        }
        self.cold.shutdown = Some(Box::new(ShutdownState { groups, members, group: 0, waiting: Vec::new() }));
        // `go m.syncNodeStatus()`: at once, besides the periodic loop.
        if self.cold.registered {
            self.status_out_of_band = true;
            self.status_try(h, ctx, 0);
        }
        h.log(ctx, "\"Shutdown manager processing shutdown event\"".into());
        self.shutdown_group(h, ctx, 0);
    }

    /// Kills the Pods of group `g`, or moves on when it has none; after the last group, releases
    /// the lock.
    fn shutdown_group(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, g: usize) {
        let Some(state) = self.cold.shutdown.as_mut() else { return };
        state.group = g;
        if g >= state.groups.len() {
            h.log(ctx, "\"Shutdown manager completed processing shutdown event, node will shutdown shortly\"".into());
            ctx.after(POWER_OFF_AFTER_RELEASE, MachineTimer::PowerOff);
            return;
        }
        let (_, period) = state.groups[g];
        let members = state.members[g].clone();
        state.waiting = members.clone();
        if members.is_empty() {
            return self.shutdown_group(h, ctx, g + 1);
        }
        for uid in &members {
            let Some(pod) = ctx.store().pod_by_uid(uid).cloned() else { continue };
            let grace = period.min(pod.spec.termination_grace_period_seconds);
            let key = format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
            h.log(ctx, format!("\"Shutdown manager killing pod with gracePeriod\" pod=\"{key}\" gracePeriod={grace}"));
            self.kill_abnormally(h, ctx, &pod, NODE_SHUTDOWN_MESSAGE);
            let stop = CONTAINER_STOP.min(secs(grace.max(0) as u64));
            self.after(
                ctx,
                stop,
                KubeletTimer::Shutdown(Box::new(ShutdownTimer::PodStopped { uid: uid.clone(), group: g })),
            );
        }
        self.after(ctx, secs(period.max(0) as u64), KubeletTimer::Shutdown(Box::new(ShutdownTimer::GroupTimeout(g))));
    }

    /// Input: one of the shutdown manager's timers.
    pub(super) fn on_shutdown_timer(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        timer: ShutdownTimer,
    ) {
        let Some(state) = self.cold.shutdown.as_ref() else { return };
        let current = state.group;
        let period = state.groups.get(current).map_or(0, |g| g.1);
        let priority = state.groups.get(current).map_or(0, |g| g.0);
        match timer {
            ShutdownTimer::PodStopped { uid, group } => {
                self.shutdown_pod_stopped(h, ctx, &uid);
                let Some(state) = self.cold.shutdown.as_mut() else { return };
                state.waiting.retain(|u| *u != uid);
                if group == current && state.waiting.is_empty() {
                    // WaitForAllPodsUnmount polls every 300 ms.
                    let d = ctx.rng.between(millis(300), millis(600));
                    self.after(ctx, d, KubeletTimer::Shutdown(Box::new(ShutdownTimer::GroupDone(group))));
                }
            }
            ShutdownTimer::GroupDone(g) if g == current => {
                h.log(
                    ctx,
                    format!(
                        "\"Done waiting for all pods in group to terminate\" gracePeriod={period} priority={priority}"
                    ),
                );
                self.shutdown_group(h, ctx, g + 1);
            }
            ShutdownTimer::GroupTimeout(g) if g == current => {
                h.log(
                    ctx,
                    format!("\"Shutdown manager pod killing time out\" gracePeriod={period} priority={priority}"),
                );
                self.shutdown_group(h, ctx, g + 1);
            }
            ShutdownTimer::GroupDone(_) | ShutdownTimer::GroupTimeout(_) => {}
        }
    }

    /// A killed Pod's container has stopped: its terminal status, `Failed` with the shutdown's
    /// reason and message (the Pod is not deleted).
    fn shutdown_pod_stopped(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, uid: &str) {
        let Some(key) = self.killed_abnormally(h, ctx, uid, NODE_SHUTDOWN_REASON, NODE_SHUTDOWN_MESSAGE) else {
            return;
        };
        h.log(ctx, format!("\"Shutdown manager finished killing pod\" pod=\"{key}\""));
    }

    /// Admission while the node shuts down: the Pod is rejected (`Failed`, `NodeShutdown`).
    pub(super) fn reject_for_shutdown(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, pod: &Pod) {
        let message = NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE;
        self.reject_pod(h, ctx, pod, NODE_SHUTDOWN_NOT_ADMITTED_REASON, message.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrate_config_splits_the_periods_into_two_groups() {
        assert_eq!(priority_groups(Duration::ZERO, Duration::ZERO), None, "off by default");
        assert_eq!(priority_groups(secs(30), secs(10)), Some([(0, 20), (2_000_000_000, 10)]));
        assert_eq!(priority_groups(secs(30), Duration::ZERO), Some([(0, 30), (2_000_000_000, 0)]));
        assert_eq!(priority_groups(secs(10), secs(30)), None, "critical above the total is off");
    }
}
