//! CertificateSigningRequests and the bootstrap token: the create that fills in who asked
//! (`certificates/strategy.go` `PrepareForCreate`: `username`, `uid`, `groups` from the
//! authenticated user, the status cleared), the `approval` and `status` subresources (each
//! takes only its own part of the object sent, and stamps the conditions' times), and the
//! bootstrap token authenticator's answer once the token's Secret is gone.

use super::{ApiServer, Caller, Exec};
use crate::objects::{CertificateSigningRequest, CsrStatus, Object, Status, Time};
use crate::record::ChangeType;

/// kubeadm's ClusterRoleBinding that lets its bootstrap tokens' CSRs be auto-approved
/// (`nodeclient`).
pub const NODE_AUTOAPPROVE_BINDING: &str = "kubeadm:node-autoapprove-bootstrap";

/// The namespace bootstrap tokens' Secrets live in.
pub(crate) const BOOTSTRAP_TOKEN_NAMESPACE: &str = "kube-system";

/// The user a caller authenticates as, and its groups (the authenticator's union adds
/// `system:authenticated`).
fn user_info(caller: Caller<'_>) -> (String, Vec<String>) {
    match caller {
        Caller::Node(name) => {
            (format!("system:node:{name}"), vec!["system:nodes".into(), "system:authenticated".into()])
        }
        Caller::Bootstrap(id) => (
            format!("system:bootstrap:{id}"),
            vec![
                "system:bootstrappers".into(),
                "system:bootstrappers:kubeadm:default-node-token".into(),
                "system:authenticated".into(),
            ],
        ),
        Caller::Trusted => {
            ("kubernetes-admin".into(), vec!["kubeadm:cluster-admins".into(), "system:authenticated".into()])
        }
    }
}

/// The 401 every request gets whose credentials no authenticator accepts.
pub(crate) fn unauthorized() -> Box<Status> {
    Box::new(Status::plain_failure(401, "Unauthorized", "Unauthorized".into()))
}

impl ApiServer {
    /// RBAC's answer to a SubjectAccessReview of `create certificatesigningrequests/<subresource>`
    /// for a user in `groups`, with kubeadm's bindings: `kubeadm:node-autoapprove-bootstrap` gives
    /// `nodeclient` to `system:bootstrappers:kubeadm:default-node-token` (unless the reader took it
    /// away), `kubeadm:node-autoapprove-certificate-rotation` gives `selfnodeclient` to
    /// `system:nodes`.
    pub(crate) fn allows_csr_subresource(&self, groups: &[String], subresource: &str) -> bool {
        let member = |g: &str| groups.iter().any(|x| x == g);
        match subresource {
            "nodeclient" => !self.nodeclient_unbound && member("system:bootstrappers:kubeadm:default-node-token"),
            "selfnodeclient" => member("system:nodes"),
            _ => false,
        }
    }

    /// Whether the bootstrap token `id` authenticates: its Secret exists in `kube-system`.
    pub(crate) fn bootstrap_token_valid(&self, id: &str) -> bool {
        let key = (BOOTSTRAP_TOKEN_NAMESPACE.to_string(), format!("bootstrap-token-{id}"));
        self.secrets.contains_key(&key)
    }

    /// `POST certificatesigningrequests`: the requester is the caller, the status is cleared.
    pub(super) fn create_csr(
        &mut self,
        ctx: &mut Exec<'_>,
        caller: Caller<'_>,
        mut csr: CertificateSigningRequest,
    ) -> Result<Object, Box<Status>> {
        let (username, groups) = user_info(caller);
        csr.spec.username = username;
        csr.spec.uid = String::new();
        csr.spec.groups = groups;
        csr.status = CsrStatus::default();
        self.create(ctx, csr.into())
    }

    /// `PUT certificatesigningrequests/NAME/approval` (`approve` true) or `…/status`: the stored
    /// spec kept, the approval subresource taking the conditions sent, the status one the
    /// certificate (and the conditions but Approved and Denied); new conditions stamped now
    /// (`populateConditionTimestamps`).
    pub(super) fn update_csr(
        &mut self,
        ctx: &mut Exec<'_>,
        wanted: CertificateSigningRequest,
        approval: bool,
    ) -> Result<Object, Box<Status>> {
        let name = wanted.metadata.name.to_string();
        let (current, mut next) = self.edit::<CertificateSigningRequest, str>(&name, &name)?;
        ApiServer::check_rv(&*current, &wanted.metadata)?;
        if approval {
            next.status.conditions = wanted.status.conditions;
        } else {
            next.status.certificate = wanted.status.certificate;
            let keep = |t: &str| t == "Approved" || t == "Denied";
            let mut conditions: Vec<_> = current.status.conditions.iter().filter(|c| keep(c.type_)).cloned().collect();
            conditions.extend(wanted.status.conditions.into_iter().filter(|c| !keep(c.type_)));
            next.status.conditions = conditions;
        }
        let now = Some(Time::at(ctx.wall));
        for c in &mut next.status.conditions {
            if c.last_update_time.is_none() {
                c.last_update_time = now;
            }
            if c.last_transition_time.is_none() {
                c.last_transition_time = now;
            }
        }
        Ok(self.store(ctx, next, ChangeType::Modified))
    }
}
