//! The reader at a terminal: the Pods "Create Pod" makes with `kubectl create`, and
//! `kubectl delete node`.

use crate::apiserver::{ApiOp, TAINT_NOT_READY};
use crate::ctx::Ctx;
use crate::objects::{ObjectMeta, Toleration};
use crate::record::Actor;
use crate::workload::new_pod;

/// The reader's "Create Pod" actions: a bare Pod, optionally tolerating the not-ready taint.
pub(crate) fn create_pod<T>(tolerating: bool, ctx: &mut Ctx<'_, T>) {
    let (prefix, tolerations) = if tolerating {
        (
            "tolerant-",
            vec![Toleration {
                key: TAINT_NOT_READY.into(),
                operator: "Exists".into(),
                value: String::new(),
                effect: "NoSchedule".into(),
                toleration_seconds: None,
            }],
        )
    } else {
        ("demo-", Vec::new())
    };
    let meta = ObjectMeta {
        generate_name: prefix.into(),
        namespace: "default".into(),
        labels: [("app".to_string(), prefix.trim_end_matches('-').to_string())].into_iter().collect(),
        ..ObjectMeta::default()
    };
    let pod = new_pod(meta, tolerations, ctx.profile);
    ctx.call(Actor::Kubectl, None, ApiOp::CreatePod(pod));
}

/// `kubectl delete node NAME`: the resource builder GETs the Node, then kubectl DELETEs it
/// (`--cascade=background`) and prints `node "NAME" deleted`.
pub(crate) fn delete_node<T>(name: &str, ctx: &mut Ctx<'_, T>) {
    if ctx.call(Actor::Kubectl, None, ApiOp::GetNode(name.to_string())).ok().is_none() {
        return;
    }
    if ctx.call(Actor::Kubectl, None, ApiOp::DeleteNode(name.to_string())).ok().is_some() {
        ctx.log_line(Actor::Kubectl, format!("node \"{name}\" deleted"));
    }
}
