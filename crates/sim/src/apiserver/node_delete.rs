//! The API server's handlers for a Node's deletion (`kubectl delete node`) and for what the
//! garbage collector deletes after it through owner references: the Node's Lease and CSINode,
//! each deleted with the owner's uid as a precondition.

use std::sync::Arc;

use super::errors::{conflict, not_found};
use super::{ApiServer, Exec};
use crate::objects::{CsiNode, Kind, Lease, Node, Object, Status};
use crate::record::ChangeType;

impl ApiServer {
    /// `DELETE /api/v1/nodes/NAME`.
    pub(super) fn delete_node(&mut self, ctx: &mut Exec<'_>, name: &str) -> Result<Object, Box<Status>> {
        self.delete::<Node, str>(ctx, name, name, None)
    }

    /// The garbage collector's `DELETE` of a node Lease, with its uid as a precondition.
    pub(super) fn delete_lease(
        &mut self,
        ctx: &mut Exec<'_>,
        name: &str,
        precondition_uid: &str,
    ) -> Result<Object, Box<Status>> {
        let Some(current) = self.leases.get(name) else {
            return Err(not_found(Kind::Lease, name));
        };
        if current.base.metadata.uid != precondition_uid {
            return Err(conflict(Kind::Lease, name));
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
        self.delete::<CsiNode, str>(ctx, name, name, Some(precondition_uid))
    }
}
