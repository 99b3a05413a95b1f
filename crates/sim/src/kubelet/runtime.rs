//! The kubelet's runtime checks: `updateRuntimeUp` (containerd and its network status) and PLEG
//! health, and the errors they leave for the Ready condition.

use crate::ctx::Ctx;
use crate::shared::Shared;
use crate::time::format_go_duration;

use std::time::Duration;

use crate::time::SimTime;

use super::{
    CNI_NOT_READY, Host, IMAGE_CACHE_REFRESH_PERIOD, Kubelet, KubeletTimer, MAX_WAIT_FOR_CONTAINER_RUNTIME,
    MachineTimer, PLEG_RELIST_THRESHOLD, RUNTIME_CHECK_PERIOD,
};

/// Of a loop that ran at `last` and every `period` after, the last run strictly before `now` (a
/// run due now comes after what happens now).
fn last_on_grid(last: SimTime, period: Duration, now: SimTime) -> SimTime {
    if now <= last {
        return last;
    }
    let period = period.as_micros() as u64;
    let runs = (now.as_micros() - last.as_micros() - 1) / period;
    last + Duration::from_micros(runs * period)
}

impl Kubelet {
    /// `updateRuntimeUp`, every 5 s from the process's start: a good check clears the runtime
    /// error and reads the network status.
    ///
    /// While containerd is up and its network status does not change, a check changes nothing
    /// but the time of the last good check. So after a good check the loop goes quiet: no timer
    /// is queued, and the checks that would have run are counted on the same 5 s grid
    /// ([`Kubelet::runtime_synced_at`]). What can change a check's outcome (containerd stopping,
    /// the CNI configuration arriving) wakes the loop ([`Kubelet::wake_runtime_check`]) at the
    /// next instant of the grid, where the check would have run anyway. In a fleet of 1,000 that
    /// is 200 timers a second fewer.
    pub(super) fn runtime_check(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let now = ctx.now;
        let up = h.runtime_up;
        let cni = h.cni_ready;
        if !up {
            h.log(ctx, "\"Container runtime sanity check failed\" err=\"rpc error: code = Unavailable desc = connection error: desc = \\\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused\\\"\"".into());
            self.after(ctx, RUNTIME_CHECK_PERIOD, KubeletTimer::RuntimeCheck);
            return;
        }
        let k = &mut *self;
        let was_network = k.cold.network_error.clone();
        let was_down = k.runtime_synced_at.is_none_or(|t| t + MAX_WAIT_FOR_CONTAINER_RUNTIME <= now);
        k.runtime_synced_at = Some(now);
        k.runtime_quiet = true;
        // (Written only when it changes: a write copies what a checkpoint still shares.)
        let network_error = (!cni).then(|| CNI_NOT_READY.to_string());
        if k.cold.network_error != network_error {
            k.cold.network_error = network_error;
        }
        let network_back = was_network.is_some() && k.cold.network_error.is_none();
        if was_down || network_back {
            self.sync_pods(h, ctx);
        }
    }

    /// When the last runtime check ran, as of now: while the loop is quiet, the last instant of
    /// its grid at or before now (a check due now runs after what happens now).
    pub(super) fn runtime_synced_at(&self, now: SimTime) -> Option<SimTime> {
        let last = self.runtime_synced_at?;
        if !self.runtime_quiet || now <= last {
            return Some(last);
        }
        Some(last_on_grid(last, RUNTIME_CHECK_PERIOD, now))
    }

    /// The image manager's cache refresh (every 30 s from the process's start) goes quiet the
    /// same way: a refresh that finds the machine's image list unchanged changes nothing, so
    /// after a refresh no timer is queued until an image is pulled
    /// ([`Kubelet::wake_image_cache`]).
    pub(super) fn refresh_image_cache(&mut self, h: &Host, ctx: &Ctx<'_, MachineTimer>) {
        self.image_cache = h.images.clone();
        self.image_cache_at = Some(ctx.now);
    }

    /// An image was pulled: a quiet image cache refreshes where its grid says.
    pub(super) fn wake_image_cache(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        if let Some(last) = self.image_cache_at.take() {
            let next = last_on_grid(last, IMAGE_CACHE_REFRESH_PERIOD, ctx.now) + IMAGE_CACHE_REFRESH_PERIOD;
            ctx.at(next, MachineTimer::Kubelet { generation: self.generation, timer: KubeletTimer::ImageCache });
        }
    }

    /// Something a runtime check reads changed: a quiet loop runs its next check where its grid
    /// says.
    pub(crate) fn wake_runtime_check(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        if !self.runtime_quiet {
            return;
        }
        let last = self.runtime_synced_at(ctx.now).expect("a quiet loop has checked");
        self.runtime_synced_at = Some(last);
        self.runtime_quiet = false;
        let next = last + RUNTIME_CHECK_PERIOD;
        ctx.at(next, MachineTimer::Kubelet { generation: self.generation, timer: KubeletTimer::RuntimeCheck });
    }

    /// The errors that keep Ready False, in the order the Ready setter combines them: runtime,
    /// network, storage, node shutdown.
    pub(super) fn ready_errors(&self, h: &Host, ctx: &Ctx<'_, MachineTimer>) -> Vec<String> {
        let mut errs = self.runtime_errors(h, ctx);
        if let Some(e) = self.cold.network_error.as_ref() {
            errs.push(e.clone());
        }
        if let Some(e) = self.cold.storage_error.as_ref() {
            errs.push(e.clone());
        }
        if self.cold.shutdown.is_some() {
            errs.push(super::shutdown::NODE_SHUTTING_DOWN.into());
        }
        errs
    }

    /// `runtimeErrors()`: the runtime status check and PLEG health. While there are any, the
    /// kubelet's sync loop skips pod synchronization.
    pub(super) fn runtime_errors(&self, h: &Host, ctx: &Ctx<'_, MachineTimer>) -> Vec<String> {
        let k = self;
        let mut errs = Vec::new();
        match k.runtime_synced_at(ctx.now) {
            None => errs.push("container runtime status check may not have completed yet".to_string()),
            Some(t) if t + MAX_WAIT_FOR_CONTAINER_RUNTIME <= ctx.now => errs.push("container runtime is down".into()),
            Some(_) => {}
        }
        if !k.pleg_relisted {
            errs.push("PLEG is not healthy: pleg has yet to be successful".into());
        } else if let Some(down) = h.runtime_down_since {
            let since = ctx.now - down;
            if since > PLEG_RELIST_THRESHOLD {
                errs.push(format!(
                    "PLEG is not healthy: pleg was last seen active {} ago; threshold is 3m0s",
                    format_go_duration(since)
                ));
            }
        }
        errs
    }
}
