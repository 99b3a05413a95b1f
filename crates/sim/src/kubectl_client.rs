//! The reader at a terminal: the Pods "Create Pod" makes with `kubectl create`, the budget
//! `kubectl create pdb` makes, `kubectl delete node`, `kubectl taint nodes …
//! KEY[=VALUE]:EFFECT` (in `taint.rs`), (in `drain.rs`) `kubectl cordon`, `uncordon` and
//! `drain`, (in `delete.rs`) `kubectl delete pod`, and (in `logs.rs`) `kubectl logs` and `exec`.

mod delete;
mod drain;
mod logs;
mod taint;

pub(crate) use delete::delete_pod;
pub(crate) use drain::{Kubectl, KubectlTimer, cordon};
pub(crate) use logs::{KubeletServer, logs};
pub(crate) use taint::taint;

use crate::action::TaintEdit;
use crate::apiserver::{ApiOp, TAINT_NOT_READY, TAINT_OUT_OF_SERVICE};
use crate::ctx::{Ctx, Reply};
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
                value: "".into(),
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

/// `kubeadm token create` on the control plane, before any machine joins (it runs as
/// `kubernetes-admin`): the bootstrap token's Secret in `kube-system`, valid 24 h (`--ttl`'s
/// default), for authentication and signing, with kubeadm's extra group; kubeadm prints the token.
pub(crate) fn create_bootstrap_token<T>(ctx: &mut Ctx<'_, T>) {
    use crate::machine::{BOOTSTRAP_TOKEN_ID, BOOTSTRAP_TOKEN_SECRET};
    use crate::objects::{BOOTSTRAP_TOKEN_TYPE, ObjectMeta, Secret, base64};
    let expiration = (ctx.wall() + std::time::Duration::from_secs(24 * 3600)).rfc3339();
    let data = [
        ("auth-extra-groups", "system:bootstrappers:kubeadm:default-node-token"),
        ("expiration", expiration.as_str()),
        ("token-id", BOOTSTRAP_TOKEN_ID),
        ("token-secret", BOOTSTRAP_TOKEN_SECRET),
        ("usage-bootstrap-authentication", "true"),
        ("usage-bootstrap-signing", "true"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), base64(v.as_bytes())))
    .collect();
    let secret = Secret {
        kind: "Secret",
        api_version: "v1",
        metadata: ObjectMeta {
            name: format!("bootstrap-token-{BOOTSTRAP_TOKEN_ID}").into(),
            namespace: crate::apiserver::BOOTSTRAP_TOKEN_NAMESPACE.into(),
            ..ObjectMeta::default()
        },
        data,
        type_: BOOTSTRAP_TOKEN_TYPE,
    };
    if let Reply::Ok(_) = ctx.call(Actor::Kubectl, None, ApiOp::Create(secret.into())) {
        ctx.log_line(Actor::Kubectl, format!("{BOOTSTRAP_TOKEN_ID}.{BOOTSTRAP_TOKEN_SECRET}"));
    }
}

/// `kubectl certificate approve NAME` (`approve`) or `deny NAME`: the resource builder's GET and
/// the typed client's,
/// the condition added unless it is there (`addConditionIfNeeded`, with kubectl's reason and
/// message and `lastUpdateTime` now), the approval PUT, and the line it prints. A CSR with the
/// opposite condition is kubectl's error.
pub(crate) fn certificate<T>(name: &str, approve: bool, ctx: &mut Ctx<'_, T>) {
    use crate::objects::{CsrCondition, Time};
    let (verb, kind, opposite, reason, message) = if approve {
        ("approved", "Approved", "Denied", "KubectlApprove", "This CSR was approved by kubectl certificate approve.")
    } else {
        ("denied", "Denied", "Approved", "KubectlDeny", "This CSR was denied by kubectl certificate deny.")
    };
    // The resource builder's GET, then the typed client's own GET of what it found.
    for _ in 0..2 {
        if let Reply::Err(status) = ctx.call(Actor::Kubectl, None, ApiOp::GetCsr(name.to_string())) {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message));
            return;
        }
    }
    let Some(csr) = ctx.store().csrs.get(name).cloned() else { return };
    if csr.condition(opposite).is_some() {
        ctx.log_line(
            Actor::KubectlStderr,
            format!("error: certificate signing request \"{name}\" is already {opposite}"),
        );
        return;
    }
    if csr.condition(kind).is_none() {
        let mut next = crate::objects::CertificateSigningRequest::clone(&csr);
        next.status.conditions.push(CsrCondition {
            type_: kind,
            status: "True",
            reason,
            message: message.into(),
            last_update_time: Some(Time::at(ctx.wall())),
            last_transition_time: None,
        });
        if let Reply::Err(status) = ctx.call(Actor::Kubectl, None, ApiOp::UpdateCsrApproval(next)) {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message));
            return;
        }
    }
    ctx.log_line(Actor::Kubectl, format!("certificatesigningrequest.certificates.k8s.io/{name} {verb}"));
}

/// `kubectl -n kube-system delete secret bootstrap-token-<id>`: the bootstrap token's Secret
/// deleted (the bootstrap token authenticator then accepts the token no more), then kubectl's wait
/// (`--wait`): a GET, and a Secret without finalizers is already gone.
pub(crate) fn delete_bootstrap_token<T>(ctx: &mut Ctx<'_, T>) {
    let name = format!("bootstrap-token-{}", crate::machine::BOOTSTRAP_TOKEN_ID);
    let namespace = crate::apiserver::BOOTSTRAP_TOKEN_NAMESPACE.to_string();
    let op = ApiOp::DeleteSecret { namespace: namespace.clone(), name: name.clone() };
    match ctx.call(Actor::Kubectl, None, op) {
        Reply::Ok(_) => ctx.log_line(Actor::Kubectl, format!("secret \"{name}\" deleted")),
        Reply::Err(status) => {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message));
            return;
        }
        Reply::Timeout => return,
    }
    ctx.call(Actor::Kubectl, None, ApiOp::GetSecret { namespace, name });
}

/// `kubectl delete clusterrolebinding kubeadm:node-autoapprove-bootstrap`: kubeadm's binding of
/// `system:certificates.k8s.io:certificatesigningrequests:nodeclient` to its bootstrap tokens'
/// group deleted (ClusterRoleBindings are not stored objects here: the API server keeps only
/// whether this one exists), then kubectl's wait (a GET, 404).
pub(crate) fn delete_autoapprove_binding<T>(ctx: &mut Ctx<'_, T>) {
    let name = crate::apiserver::NODE_AUTOAPPROVE_BINDING;
    match ctx.delete_cluster_role_binding(Actor::Kubectl, name) {
        Ok(()) => {
            ctx.log_line(Actor::Kubectl, format!("clusterrolebinding.rbac.authorization.k8s.io \"{name}\" deleted"))
        }
        Err(message) => ctx.log_line(Actor::KubectlStderr, format!("Error from server (NotFound): {message}")),
    }
}

/// A Pod with no resource requests (BestEffort) pinned to `node`, as a client submits it
/// (`besteffort-` and a random suffix, label `app=besteffort`).
pub(crate) fn create_besteffort_pod<T>(node: &str, ctx: &mut Ctx<'_, T>) {
    let meta = ObjectMeta {
        generate_name: "besteffort-".into(),
        namespace: "default".into(),
        labels: [("app".to_string(), "besteffort".to_string())].into_iter().collect(),
        ..ObjectMeta::default()
    };
    let pod = crate::workload::new_besteffort_pod(meta, node, ctx.profile);
    ctx.call(Actor::Kubectl, None, ApiOp::CreatePod(pod));
}

/// The PriorityClass the reader's high-priority Pods name.
pub(crate) const HIGH_PRIORITY_CLASS: &str = "high-priority";
/// Its value: above every Pod of the default priority (0), far below the system-critical
/// classes (2000000000 and more), so a Pod of it can still be evicted.
pub(crate) const HIGH_PRIORITY_VALUE: i32 = 1_000_000;

/// `kubectl apply` of the PriorityClass [`HIGH_PRIORITY_CLASS`] when the cluster has none, then
/// a Pod of that class pinned to `node` (`priority-` and a random suffix, label `app=priority`,
/// the workload's requests): the Priority admission plugin gives it the class's value. A Pod's
/// priority cannot be changed once it exists; a higher one is a new Pod naming a class.
pub(crate) fn create_priority_pod<T>(node: &str, ctx: &mut Ctx<'_, T>) {
    if !ctx.store().priority_classes.contains_key(HIGH_PRIORITY_CLASS) {
        let class = crate::objects::PriorityClass::new(
            HIGH_PRIORITY_CLASS,
            HIGH_PRIORITY_VALUE,
            "Pods that other Pods are evicted before under node pressure.",
        );
        ctx.call(Actor::Kubectl, None, ApiOp::Create(class.into()));
    }
    let meta = ObjectMeta {
        generate_name: "priority-".into(),
        namespace: "default".into(),
        labels: [("app".to_string(), "priority".to_string())].into_iter().collect(),
        ..ObjectMeta::default()
    };
    let mut pod = new_pod(meta, Vec::new(), ctx.profile);
    pod.spec.priority_class_name = HIGH_PRIORITY_CLASS.into();
    pod.spec.affinity = Some(crate::objects::pinned_to(node));
    ctx.call(Actor::Kubectl, None, ApiOp::CreatePod(pod));
}

/// `kubectl create poddisruptionbudget web --selector=app=web --min-available=N` (or
/// `--max-unavailable=N`) over the chapter's Deployment, and what kubectl prints.
pub(crate) fn create_pdb<T>(budget: crate::action::Budget, ctx: &mut Ctx<'_, T>) {
    use crate::action::Budget;
    use crate::objects::{LabelSelector, PdbSpec, PodDisruptionBudget};
    let (min_available, max_unavailable) = match budget {
        Budget::MinAvailable(v) => (Some(v), None),
        Budget::MaxUnavailable(v) => (None, Some(v)),
    };
    let selector = LabelSelector { match_labels: [("app".to_string(), "web".to_string())].into_iter().collect() };
    let pdb = PodDisruptionBudget::new("default", "web", PdbSpec { min_available, selector, max_unavailable });
    match ctx.call(Actor::Kubectl, None, ApiOp::Create(pdb.into())) {
        crate::ctx::Reply::Ok(_) => ctx.log_line(Actor::Kubectl, "poddisruptionbudget.policy/web created".into()),
        crate::ctx::Reply::Err(status) => ctx
            .log_line(Actor::KubectlStderr, format!("error: failed to create poddisruptionbudget: {}", status.message)),
        crate::ctx::Reply::Timeout => {}
    }
}

/// `kubectl delete node NAME`: kubectl DELETEs the Node (`--cascade=background`; the resource
/// builder reads nothing first), prints `node "NAME" deleted`, then waits for it to be gone
/// (`--wait`, the default: `IsDeleted` GETs it, and a Node without finalizers is already gone).
pub(crate) fn delete_node<T>(name: &str, ctx: &mut Ctx<'_, T>) {
    match ctx.call(Actor::Kubectl, None, ApiOp::DeleteNode(name.to_string())) {
        Reply::Ok(_) => ctx.log_line(Actor::Kubectl, format!("node \"{name}\" deleted")),
        Reply::Err(status) => {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message));
            return;
        }
        Reply::Timeout => return,
    }
    ctx.call(Actor::Kubectl, None, ApiOp::GetNode(name.to_string()));
}

/// `kubectl taint nodes NAME node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` (or, with
/// `add` false, `node.kubernetes.io/out-of-service-`), the sandbox's buttons.
pub(crate) fn taint_out_of_service<T>(name: &str, add: bool, ctx: &mut Ctx<'_, T>) {
    let edit = TaintEdit {
        key: TAINT_OUT_OF_SERVICE.into(),
        value: if add { "nodeshutdown".into() } else { String::new() },
        effect: if add { "NoExecute".into() } else { String::new() },
        remove: !add,
    };
    taint(name, &edit, false, ctx);
}
