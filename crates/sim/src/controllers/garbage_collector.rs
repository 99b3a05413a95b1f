//! The garbage collector (`pkg/controller/garbagecollector`), for the dependents this cluster
//! has: a node's Lease and its CSINode, owned by their Node through `ownerReferences`. When the
//! graph builder sees the Node deleted, `attemptToDeleteItem` reads each dependent, finds its
//! owner dangling (a live GET of the Node answers 404) and deletes it with its uid as a
//! precondition and background propagation.

use crate::apiserver::{ApiOp, NODE_LEASE_NAMESPACE};
use crate::ctx::{Ctx, Reply};
use crate::objects::ObjectMeta;
use crate::record::Actor;

const ACTOR: Actor = Actor::GarbageCollector;

/// The garbage collector holds no state of its own here.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GarbageCollector;

impl GarbageCollector {
    /// Input: a Node was added, changed or deleted. A deleted Node's dependents are collected:
    /// its Lease, then its CSINode (both name the Node in `ownerReferences`).
    pub(crate) fn on_node_change<T>(&mut self, name: &str, ctx: &mut Ctx<'_, T>) {
        if ctx.store().node(name).is_some() {
            return;
        }
        // The Lease's metadata (namespace, owners, uid) is the same in every version of it.
        let lease = ctx.store().leases.get(name).map(|v| v.base.clone());
        if let Some(lease) = lease
            && lease.metadata.namespace == NODE_LEASE_NAMESPACE
            && owned_by_node(&lease.metadata, name)
        {
            let uid = lease.metadata.uid.clone();
            attempt_to_delete(ctx, name, ApiOp::GetLease(name.to_string()), || ApiOp::DeleteLease {
                name: name.to_string(),
                precondition_uid: uid.to_string(),
            });
        }
        let csinode = ctx.store().csinodes.get(name).cloned();
        if let Some(csinode) = csinode
            && owned_by_node(&csinode.metadata, name)
        {
            let uid = csinode.metadata.uid.clone();
            attempt_to_delete(ctx, name, ApiOp::GetCsiNode(name.to_string()), || ApiOp::DeleteCsiNode {
                name: name.to_string(),
                precondition_uid: uid.to_string(),
            });
        }
    }
}

fn owned_by_node(meta: &ObjectMeta, node: &str) -> bool {
    meta.owner_references.iter().any(|o| o.kind == "Node" && o.name == node)
}

/// `attemptToDeleteItem`: the dependent as it is now, then its owner; a 404 for the owner means
/// it is gone, and the dependent is deleted with its uid as the precondition.
fn attempt_to_delete<T>(ctx: &mut Ctx<'_, T>, node: &str, read: ApiOp, delete: impl FnOnce() -> ApiOp) {
    let Reply::Ok(_) = ctx.call(ACTOR, None, read) else { return };
    let Reply::Err(status) = ctx.call(ACTOR, None, ApiOp::GetNode(node.to_string())) else { return };
    if status.code != 404 {
        return;
    }
    ctx.call(ACTOR, None, delete());
}
