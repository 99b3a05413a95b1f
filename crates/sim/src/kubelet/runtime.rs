//! The kubelet's runtime checks: `updateRuntimeUp` (containerd and its network status) and PLEG
//! health, and the errors they leave for the Ready condition.

use crate::ctx::Ctx;
use crate::shared::Shared;
use crate::time::format_go_duration;

use super::{CNI_NOT_READY, Host, Kubelet, MAX_WAIT_FOR_CONTAINER_RUNTIME, MachineTimer, PLEG_RELIST_THRESHOLD};

impl Kubelet {
    /// `updateRuntimeUp`: a good check clears the runtime error and reads the network status.
    pub(super) fn runtime_check(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let now = ctx.now;
        let up = h.runtime_up;
        let cni = h.cni_ready;
        if !up {
            h.log(ctx, "\"Container runtime sanity check failed\" err=\"rpc error: code = Unavailable desc = connection error: desc = \\\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused\\\"\"".into());
            return;
        }
        let k = &mut *self;
        let was_network = k.cold.network_error.clone();
        let was_down = k.runtime_synced_at.is_none_or(|t| t + MAX_WAIT_FOR_CONTAINER_RUNTIME <= now);
        k.runtime_synced_at = Some(now);
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
        match k.runtime_synced_at {
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
