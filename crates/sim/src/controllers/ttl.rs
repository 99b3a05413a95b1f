//! kube-controller-manager's TTL controller (`pkg/controller/ttl`): every Node gets the
//! `node.alpha.kubernetes.io/ttl` annotation (0 s in a cluster this small).

use crate::apiserver::ApiOp;
use crate::ctx::Ctx;
use crate::record::Actor;

/// The annotation the controller keeps on every Node.
const TTL_ANNOTATION: &str = "node.alpha.kubernetes.io/ttl";

/// The TTL controller. It keeps no state: the annotation is all it needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct TtlController;

impl TtlController {
    /// Input: a Node was added or changed.
    pub(crate) fn on_node_change<T>(&mut self, name: &str, ctx: &mut Ctx<'_, T>) {
        let Some(node) = ctx.store().node(name) else { return };
        if !node.metadata.annotations.contains_key(TTL_ANNOTATION) {
            let mut annotations = std::collections::BTreeMap::clone(&node.metadata.annotations);
            annotations.insert(TTL_ANNOTATION.into(), "0".into());
            ctx.call(Actor::TtlController, None, ApiOp::PatchNodeAnnotations { name: name.into(), annotations });
        }
    }
}
