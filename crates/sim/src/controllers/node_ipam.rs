//! kube-controller-manager's node IPAM controller (range allocator): every new Node gets its
//! `spec.podCIDR`, a /24 of 10.244.0.0/16 in the order Nodes first appear. Its client is its own
//! (`ClientOrDie("node-controller")`: the same name as the node lifecycle controller's, but a
//! clientset, and so a token bucket, of its own at 20 requests a second, burst 30).

use crate::apiserver::ApiOp;
use crate::client::{ClientWake, Keys, Throttled};
use crate::ctx::Ctx;
use crate::record::Actor;
use crate::shared::Shared;
use crate::vecmap::VecMap;

const ACTOR: Actor = Actor::NodeIpamController;

/// The allocator's memory: the Pod CIDR index handed to each Node name (shared with the
/// checkpoints: it changes only when a Node first appears, and a fleet's is 1,000 names), and
/// the Nodes whose CIDR waits for the client.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeIpam {
    allocated: Shared<VecMap<String, u32>>,
    client: Throttled,
    queue: Keys,
}

impl NodeIpam {
    /// Input: a Node was added or changed: a Node without a CIDR gets one (allocated now, in the
    /// order Nodes appear) and waits for the client to write it.
    pub(crate) fn on_node_change(&mut self, name: &str, ctx: &mut Ctx<'_, ClientWake>) {
        if ctx.store().node(name).is_some_and(|n| n.spec.pod_cidr.is_empty()) {
            let next = self.allocated.len() as u32;
            self.allocated.get_or_insert_with(name.to_string(), || next);
            self.queue.add(name);
        }
        self.work(ctx);
    }

    /// Input: the client has a token again.
    pub(crate) fn on_wake(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        if self.client.woken(ctx.now) {
            self.work(ctx);
        }
    }

    /// `updateCIDRsAllocation` for each queued Node while the client has tokens.
    fn work(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        while let Some(name) = self.queue.front() {
            if !ctx.store().node(name).is_some_and(|n| n.spec.pod_cidr.is_empty()) {
                self.queue.pop();
                continue;
            }
            if !self.client.admit(ctx, || ClientWake) {
                break;
            }
            let name = self.queue.pop().expect("a queued Node");
            let index = self.allocated.get(&name).copied().unwrap_or_default();
            let cidr = format!("10.244.{index}.0/24");
            ctx.call(ACTOR, None, ApiOp::PatchNodePodCidr { name, cidr });
        }
        self.client.note(ACTOR, self.queue.len(), ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{nodes_through, paced};

    /// Every new Node's CIDR is allocated at once, in the order they appear, and written at the
    /// client's rate: 30 at once, then 20 a second.
    #[test]
    fn cidrs_are_written_at_the_clients_rate() {
        let mut ipam = NodeIpam::default();
        let (probe, sent) = nodes_through(60, &mut ipam, |c, n, ctx| c.on_node_change(n, ctx), |c, ctx| c.on_wake(ctx));
        assert_eq!(sent, paced(0, 60, 30, 20.0));
        assert_eq!(probe.store().node("node-59").map(|n| n.spec.pod_cidr.clone()).as_deref(), Some("10.244.59.0/24"));
    }
}
