//! The API server's handlers for a Node's deletion (`kubectl delete node`) and for what the
//! garbage collector deletes after it through owner references: the Node's Lease and CSINode,
//! each deleted with the owner's uid as a precondition.

use std::sync::Arc;

use super::{ApiServer, Exec, conflict, not_found};
use crate::objects::{CsiNode, Lease, Node, Object, Status};
use crate::record::ChangeType;

const LEASE_GROUP: &str = "coordination.k8s.io";

impl ApiServer {
    /// `DELETE /api/v1/nodes/NAME`.
    pub(super) fn delete_node(&mut self, ctx: &mut Exec<'_>, name: &str) -> Result<Object, Box<Status>> {
        let Some(current) = self.nodes.remove(name) else { return Err(not_found("", "nodes", name)) };
        self.membership += 1;
        // The watch's DELETED event carries the delete's revision.
        let mut node = Node::clone(&current);
        node.metadata.resource_version = self.next_rv();
        let obj = Object::Node(Arc::new(node));
        ctx.log.push_change(ctx.now, ChangeType::Deleted, obj.clone(), ctx.request);
        Ok(obj)
    }

    /// The garbage collector's `DELETE` of a node Lease, with its uid as a precondition.
    pub(super) fn delete_lease(
        &mut self,
        ctx: &mut Exec<'_>,
        name: &str,
        precondition_uid: &str,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.leases.get(name) else {
            return Err(not_found(LEASE_GROUP, "leases", name));
        };
        if current.base.metadata.uid != precondition_uid {
            return Err(conflict(LEASE_GROUP, "leases", name));
        }
        let mut lease = Lease::clone(&self.leases.remove(name).expect("present").lease());
        self.membership += 1;
        lease.metadata.resource_version = self.next_rv();
        let obj = Object::Lease(Arc::new(lease));
        ctx.log.push_change(ctx.now, ChangeType::Deleted, obj.clone(), ctx.request);
        Ok(obj)
    }

    /// The garbage collector's `DELETE` of a CSINode, with its uid as a precondition.
    pub(super) fn delete_csinode(
        &mut self,
        ctx: &mut Exec<'_>,
        name: &str,
        precondition_uid: &str,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.csinodes.get(name) else {
            return Err(not_found("storage.k8s.io", "csinodes", name));
        };
        if current.metadata.uid != precondition_uid {
            return Err(conflict("storage.k8s.io", "csinodes", name));
        }
        let mut csinode = CsiNode::clone(&self.csinodes.remove(name).expect("present"));
        csinode.metadata.resource_version = self.next_rv();
        let obj = Object::CsiNode(Arc::new(csinode));
        ctx.log.push_change(ctx.now, ChangeType::Deleted, obj.clone(), ctx.request);
        Ok(obj)
    }
}
