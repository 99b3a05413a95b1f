//! kube-controller-manager's node IPAM controller (range allocator): every new Node gets its
//! `spec.podCIDR`, a /24 of 10.244.0.0/16 in the order Nodes first appear.

use crate::apiserver::ApiOp;
use crate::ctx::Ctx;
use crate::record::Actor;
use crate::shared::Shared;
use crate::vecmap::VecMap;

/// The allocator's memory: the Pod CIDR index handed to each Node name (shared with the
/// checkpoints: it changes only when a Node first appears, and a fleet's is 1,000 names).
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeIpam {
    allocated: Shared<VecMap<String, u32>>,
}

impl NodeIpam {
    /// Input: a Node was added or changed.
    pub(crate) fn on_node_change<T>(&mut self, name: &str, ctx: &mut Ctx<'_, T>) {
        let Some(node) = ctx.store().node(name) else { return };
        if node.spec.pod_cidr.is_empty() {
            let next = self.allocated.len() as u32;
            let index = *self.allocated.get_or_insert_with(name.to_string(), || next);
            let cidr = format!("10.244.{index}.0/24");
            ctx.call(Actor::NodeIpamController, None, ApiOp::PatchNodePodCidr { name: name.into(), cidr });
        }
    }
}
