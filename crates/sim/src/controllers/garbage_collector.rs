//! The garbage collector (`pkg/controller/garbagecollector`), for the dependents this cluster
//! has: a node's Lease and its CSINode, owned by their Node through `ownerReferences`. When the
//! graph builder sees the Node deleted, `attemptToDeleteItem` reads each dependent, finds its
//! owner dangling (a live GET of the Node answers 404) and deletes it with its uid as a
//! precondition and background propagation. Its requests go through its metadata client, at
//! twice kube-controller-manager's rate (`Settings::garbage_collector_client`); a dependent's three requests
//! are sent together when the first has its token.

use crate::apiserver::{ApiOp, NODE_LEASE_NAMESPACE};
use crate::client::{ClientWake, Keys, Rate, Throttled};
use crate::ctx::{Ctx, Reply};
use crate::objects::ObjectMeta;
use crate::record::Actor;

const ACTOR: Actor = Actor::GarbageCollector;

/// The prefixes of the queue's keys: which dependent of the Node named after it.
const LEASE: &str = "Lease/";
const CSINODE: &str = "CSINode/";

/// The garbage collector's client and the deleted Nodes whose dependents wait for it.
#[derive(Clone, Debug)]
pub(crate) struct GarbageCollector {
    client: Throttled,
    queue: Keys,
}

impl Default for GarbageCollector {
    fn default() -> GarbageCollector {
        GarbageCollector { client: Throttled::new(Rate::GarbageCollector), queue: Keys::default() }
    }
}

impl GarbageCollector {
    /// Input: a Node was added, changed or deleted. A deleted Node's dependents are collected:
    /// its Lease, then its CSINode (both name the Node in `ownerReferences`).
    pub(crate) fn on_node_change(&mut self, name: &str, ctx: &mut Ctx<'_, ClientWake>) {
        if ctx.store().node(name).is_none() {
            if lease_of(ctx, name).is_some() {
                self.queue.add(&format!("{LEASE}{name}"));
            }
            if csinode_of(ctx, name).is_some() {
                self.queue.add(&format!("{CSINODE}{name}"));
            }
        }
        self.work(ctx);
    }

    /// Input: the client has a token again.
    pub(crate) fn on_wake(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        if self.client.woken(ctx.now) {
            self.work(ctx);
        }
    }

    /// `attemptToDeleteItem` for each queued dependent while the client has tokens.
    fn work(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        while let Some(key) = self.queue.front() {
            let (lease, node) = match (key.strip_prefix(LEASE), key.strip_prefix(CSINODE)) {
                (Some(node), _) => (true, node.to_string()),
                (_, Some(node)) => (false, node.to_string()),
                _ => unreachable!("a dependent's key"),
            };
            let uid = if lease { lease_of(ctx, &node) } else { csinode_of(ctx, &node) };
            let Some(uid) = uid.filter(|_| ctx.store().node(&node).is_none()) else {
                self.queue.pop();
                continue;
            };
            if !self.admit(ctx) {
                break;
            }
            self.queue.pop();
            if lease {
                let delete = || ApiOp::DeleteLease { name: node.clone(), precondition_uid: uid };
                attempt_to_delete(ctx, &node, ApiOp::GetLease(node.clone()), delete);
            } else {
                let delete = || ApiOp::DeleteCsiNode { name: node.clone(), precondition_uid: uid };
                attempt_to_delete(ctx, &node, ApiOp::GetCsiNode(node.clone()), delete);
            }
        }
        self.client.note(ACTOR, self.queue.len(), ctx);
    }

    /// A token for a dependent's GET, its owner's GET and its DELETE, sent together.
    fn admit(&mut self, ctx: &mut Ctx<'_, ClientWake>) -> bool {
        let admitted = self.client.admit(ctx, || ClientWake);
        if admitted {
            self.client.also(2, ctx);
        }
        admitted
    }
}

/// The uid of the Node's Lease, if it has one that names the Node its owner.
fn lease_of(ctx: &Ctx<'_, ClientWake>, node: &str) -> Option<String> {
    // The Lease's metadata (namespace, owners, uid) is the same in every version of it.
    let lease = ctx.store().leases.get(node)?;
    let meta = &lease.base.metadata;
    (meta.namespace == NODE_LEASE_NAMESPACE && owned_by_node(meta, node)).then(|| meta.uid.to_string())
}

/// The uid of the Node's CSINode, if it names the Node its owner.
fn csinode_of(ctx: &Ctx<'_, ClientWake>, node: &str) -> Option<String> {
    let csinode = ctx.store().csinodes.get(node)?;
    owned_by_node(&csinode.metadata, node).then(|| csinode.metadata.uid.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::CsiNode;
    use crate::testkit::Probe;
    use crate::time::SimTime;

    /// The metadata client runs at 40 requests a second, burst 30: ten dependents' three
    /// requests each go at once; the eleventh's when a token comes (25 ms), the bucket owing the
    /// other two, and each one after 75 ms later (three tokens).
    #[test]
    fn dependents_are_collected_at_the_metadata_clients_rate() {
        let mut probe = Probe::new();
        for i in 0..14 {
            let name = format!("node-{i}");
            probe.given_node(&name, Vec::new());
            let uid = probe.store().node(&name).map(|n| n.metadata.uid.to_string()).expect("the Node");
            probe.given(ApiOp::Create(CsiNode::for_node(&name, &uid).into()));
            probe.given(ApiOp::DeleteNode(name));
        }
        let from = probe.log().requests.len();
        let mut gc = GarbageCollector::default();
        probe.input::<ClientWake>(|ctx| {
            for i in 0..14 {
                gc.on_node_change(&format!("node-{i}"), ctx);
            }
        });
        let sent = probe.run_timers::<ClientWake>(SimTime::MAX, |ctx| gc.on_wake(ctx));
        let deletes: Vec<u64> = sent[from..].iter().filter(|(_, m)| m == "DELETE").map(|(t, _)| *t).collect();
        assert_eq!(deletes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25, 100, 175, 250]);
        assert!(probe.store().csinodes.is_empty());
    }
}
