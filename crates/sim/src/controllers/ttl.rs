//! kube-controller-manager's TTL controller (`pkg/controller/ttl`): every Node gets the
//! `node.alpha.kubernetes.io/ttl` annotation (0 s in a cluster this small). Its client is its own
//! (`ClientOrDie("ttl-controller")`, 20 requests a second, burst 30): a fleet's Nodes, all new at
//! once, wait their turn in its workqueue.

use crate::apiserver::ApiOp;
use crate::client::{ClientWake, Keys, Throttled};
use crate::ctx::Ctx;
use crate::record::Actor;

/// The annotation the controller keeps on every Node.
const TTL_ANNOTATION: &str = "node.alpha.kubernetes.io/ttl";

const ACTOR: Actor = Actor::TtlController;

/// The TTL controller: its client and the Nodes waiting for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct TtlController {
    client: Throttled,
    queue: Keys,
}

impl TtlController {
    /// Input: a Node was added or changed: queued if it lacks the annotation.
    pub(crate) fn on_node_change(&mut self, name: &str, ctx: &mut Ctx<'_, ClientWake>) {
        if ctx.store().node(name).is_some_and(|n| !n.metadata.annotations.contains_key(TTL_ANNOTATION)) {
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

    /// `updateNodeIfNeeded` for each queued Node while the client has tokens.
    fn work(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        while let Some(name) = self.queue.front() {
            let Some(node) = ctx.store().node(name) else {
                self.queue.pop();
                continue;
            };
            if node.metadata.annotations.contains_key(TTL_ANNOTATION) {
                self.queue.pop();
                continue;
            }
            let mut annotations = std::collections::BTreeMap::clone(&node.metadata.annotations);
            if !self.client.admit(ctx, || ClientWake) {
                break;
            }
            let name = self.queue.pop().expect("a queued Node");
            annotations.insert(TTL_ANNOTATION.into(), "0".into());
            ctx.call(ACTOR, None, ApiOp::PatchNodeAnnotations { name, annotations });
        }
        self.client.note(ACTOR, self.queue.len(), ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{nodes_through, paced};

    /// A fleet's Nodes, all new at once, get their annotation at kube-controller-manager's rate:
    /// 30 at once, then 20 a second.
    #[test]
    fn annotations_wait_for_the_client_after_its_burst() {
        let mut ttl = TtlController::default();
        let (probe, sent) = nodes_through(100, &mut ttl, |c, n, ctx| c.on_node_change(n, ctx), |c, ctx| c.on_wake(ctx));
        assert_eq!(sent, paced(0, 100, 30, 20.0));
        assert!(probe.store().nodes.values().all(|n| n.metadata.annotations.contains_key(TTL_ANNOTATION)));
    }
}
