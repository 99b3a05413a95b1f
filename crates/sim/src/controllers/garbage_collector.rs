//! The garbage collector (`pkg/controller/garbagecollector`), for the one dependent this cluster
//! has: a node's Lease, owned by its Node through `ownerReferences`. When the graph builder sees
//! the Node deleted, `attemptToDeleteItem` reads the Lease, finds its owner dangling (a live GET
//! of the Node answers 404) and deletes it with the Lease's uid as a precondition and background
//! propagation.

use crate::apiserver::{ApiOp, NODE_LEASE_NAMESPACE};
use crate::ctx::{Ctx, Reply};
use crate::record::Actor;

const ACTOR: Actor = Actor::GarbageCollector;

/// The garbage collector holds no state of its own here.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GarbageCollector;

impl GarbageCollector {
    /// Input: a Node was added, changed or deleted. A deleted Node's Lease is collected.
    pub(crate) fn on_node_change<T>(&mut self, name: &str, ctx: &mut Ctx<'_, T>) {
        if ctx.store().node(name).is_some() {
            return;
        }
        let Some(lease) = ctx.store().lease(name).cloned() else { return };
        if lease.metadata.namespace != NODE_LEASE_NAMESPACE
            || !lease.metadata.owner_references.iter().any(|o| o.kind == "Node" && o.name == name)
        {
            return;
        }
        // attemptToDeleteItem: the dependent as it is now, then its owner.
        let Reply::Ok(_) = ctx.call(ACTOR, None, ApiOp::GetLease(name.to_string())) else { return };
        let Reply::Err(status) = ctx.call(ACTOR, None, ApiOp::GetNode(name.to_string())) else { return };
        if status.code != 404 {
            return;
        }
        ctx.call(
            ACTOR,
            None,
            ApiOp::DeleteLease { name: name.to_string(), precondition_uid: lease.metadata.uid.clone() },
        );
    }
}
