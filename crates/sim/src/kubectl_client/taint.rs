//! The reader's `kubectl taint nodes NODE SPEC [--overwrite]`: kubectl GETs the Node, checks the
//! change against it, computes the new list (`reorganizeTaints`: the added taint first, then the
//! old ones it does not replace) and sends it as a strategic merge patch
//! (`CreateTwoWayMergePatch`: `spec.taints` has no merge key, so the patch carries the whole list,
//! or `null` when none is left) with `fieldManager=kubectl-taint&fieldValidation=Strict`
//! (`--validate` defaults to strict).

use crate::action::TaintEdit;
use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, Reply};
use crate::objects::{Object, Taint};
use crate::record::Actor;

/// What `updateTaints` makes of the Node's taints: the operation kubectl prints, and the new
/// list; or its error.
pub(crate) fn reorganize(
    old: &[Taint],
    edit: &TaintEdit,
    overwrite: bool,
    node: &str,
) -> Result<(&'static str, Vec<Taint>), String> {
    let same = |t: &Taint| t.key == edit.key && t.effect == edit.effect;
    if edit.remove {
        let kept: Vec<Taint> = old
            .iter()
            .filter(|t| !(t.key == edit.key && (edit.effect.is_empty() || t.effect == edit.effect)))
            .cloned()
            .collect();
        if kept.len() == old.len() {
            return Err(format!("taint \"{}\" not found", edit.removed_text()));
        }
        return Ok((if overwrite { "modified" } else { "untainted" }, kept));
    }
    if !overwrite && old.iter().any(same) {
        return Err(format!(
            "node {node} already has {} taint(s) with same effect(s) and --overwrite is false",
            edit.key
        ));
    }
    let mut taints =
        vec![Taint { key: edit.key.clone(), value: edit.value.clone(), effect: edit.effect.clone(), time_added: None }];
    taints.extend(old.iter().filter(|t| !same(t)).cloned());
    let added = taints.len() != old.len();
    Ok((
        if overwrite {
            "modified"
        } else if added {
            "tainted"
        } else {
            "untainted"
        },
        taints,
    ))
}

/// `kubectl taint nodes NAME SPEC`: GET the Node, then PATCH its taints (`fieldManager=kubectl-taint`)
/// and print `node/NAME tainted` (`untainted`, `modified`), or kubectl's error.
pub(crate) fn taint<T>(name: &str, edit: &TaintEdit, overwrite: bool, ctx: &mut Ctx<'_, T>) {
    let node = match ctx.call(Actor::Kubectl, None, ApiOp::GetNode(name.to_string())) {
        Reply::Ok(Object::Node(n)) => n,
        Reply::Err(status) => {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message));
            return;
        }
        _ => return,
    };
    let (operation, taints) = match reorganize(&node.spec.taints, edit, overwrite, name) {
        Ok(r) => r,
        Err(why) => {
            ctx.log_line(Actor::KubectlStderr, format!("error: {why}"));
            return;
        }
    };
    let patch = ApiOp::PatchNodeTaints { name: name.to_string(), taints };
    match ctx.call_with(Actor::Kubectl, None, patch, "fieldManager=kubectl-taint&fieldValidation=Strict") {
        Reply::Ok(_) => ctx.log_line(Actor::Kubectl, format!("node/{name} {operation}")),
        Reply::Err(status) => {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message))
        }
        Reply::Timeout => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_taints_come_first_and_conflicts_are_errors() {
        let old = vec![Taint::new("node.kubernetes.io/unreachable", "NoExecute", None)];
        let add = TaintEdit::parse("node.kubernetes.io/out-of-service=nodeshutdown:NoExecute").unwrap();
        let (op, taints) = reorganize(&old, &add, false, "node-1").unwrap();
        assert_eq!(op, "tainted");
        assert_eq!(taints[0].key, "node.kubernetes.io/out-of-service");
        assert_eq!(taints[1], old[0]);
        let again = reorganize(&taints, &add, false, "node-1").unwrap_err();
        assert_eq!(
            again,
            "node node-1 already has node.kubernetes.io/out-of-service taint(s) with same effect(s) and --overwrite is false"
        );
        assert_eq!(reorganize(&taints, &add, true, "node-1").unwrap().0, "modified");
        let rm = TaintEdit::parse("node.kubernetes.io/out-of-service:NoExecute-").unwrap();
        assert_eq!(reorganize(&taints, &rm, false, "node-1").unwrap(), ("untainted", old.clone()));
        assert_eq!(
            reorganize(&old, &rm, false, "node-1").unwrap_err(),
            "taint \"node.kubernetes.io/out-of-service:NoExecute\" not found"
        );
    }
}
