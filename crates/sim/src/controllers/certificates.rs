//! kube-controller-manager's certificate controllers, both with the `certificate-controller`
//! client: `csrapproving` (`pkg/controller/certificates/approver/sarapprove.go`), which
//! recognizes a kubelet's client CSR, asks the API server whether its requester may have it
//! approved (a SubjectAccessReview of `create certificatesigningrequests/nodeclient`, or
//! `/selfnodeclient` for a node renewing its own), and approves it (`PUT …/approval`, reason
//! `AutoApproved`); it never denies, and never approves a serving CSR. And `csrsigning`
//! (`pkg/controller/certificates/signer/signer.go`), which signs an approved CSR of its signers
//! (`PUT …/status` with the certificate): valid from 5 minutes before now
//! (`Backdate: 5 * time.Minute`) for `--cluster-signing-duration`, or the request's
//! `expirationSeconds` when shorter (at least 10 minutes).

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::Ctx;
use crate::objects::{
    CertificateSigningRequest, CsrCondition, SIGNER_KUBELET_CLIENT, SIGNER_KUBELET_SERVING, issued_certificate,
    request_subject,
};
use crate::record::Actor;
use crate::rng::Rng;
use crate::time::{WallTime, secs};

/// The approver's messages (`recognizers`).
pub(crate) const SELF_NODE_CLIENT_MESSAGE: &str =
    "Auto approving self kubelet client certificate after SubjectAccessReview.";
pub(crate) const NODE_CLIENT_MESSAGE: &str = "Auto approving kubelet client certificate after SubjectAccessReview.";
/// `PermissiveSigningPolicy`'s `Backdate` and `Short`.
const BACKDATE: Duration = secs(5 * 60);
const SHORT: Duration = secs(8 * 3600);
/// The shortest `expirationSeconds` the signer honours.
const MIN_DURATION: Duration = secs(10 * 60);

/// The path SubjectAccessReviews are created at.
const SAR_PATH: &str = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

/// Both controllers. They keep no state of their own: each pass reads the CSRs from the
/// informer's cache (the store) and acts on those it has work for.
#[derive(Clone, Debug, Default)]
pub(crate) struct CertificateControllers;

impl CertificateControllers {
    /// Input: CertificateSigningRequests changed. The approver's pass, then the signer's, each
    /// over the CSRs as the informer delivered them: the signer sees an approval the approver
    /// writes now in its next pass, when the watch delivers it.
    pub(crate) fn on_change<T>(&mut self, ctx: &mut Ctx<'_, T>) {
        let csrs: Vec<Arc<CertificateSigningRequest>> = ctx.store().csrs.values().cloned().collect();
        for csr in &csrs {
            approve(csr, ctx);
        }
        for csr in &csrs {
            sign(csr, ctx);
        }
    }
}

/// `IsKubeletClientCSR`: `O=system:nodes` only, a `system:node:` common name, and only the
/// usages a client certificate may have.
fn is_kubelet_client(csr: &CertificateSigningRequest, cn: &str, orgs: &[String]) -> bool {
    let allowed = ["key encipherment", "digital signature", "client auth"];
    orgs == ["system:nodes"]
        && cn.starts_with("system:node:")
        && csr.spec.usages.iter().all(|u| allowed.contains(u))
        && csr.spec.usages.contains(&"client auth")
}

/// `sarApprover.handle` for one CSR.
fn approve<T>(csr: &CertificateSigningRequest, ctx: &mut Ctx<'_, T>) {
    if !csr.status.certificate.is_empty() {
        return;
    }
    let (approved, denied) = csr.approved_or_denied();
    if approved || denied {
        return;
    }
    let Some((cn, orgs)) = request_subject(&csr.spec.request) else { return };
    if csr.spec.signer_name != SIGNER_KUBELET_CLIENT || !is_kubelet_client(csr, &cn, &orgs) {
        return;
    }
    let mut tried = Vec::new();
    // isSelfNodeClientCert, then isNodeClientCert.
    let recognizers = [
        (csr.spec.username == cn, "selfnodeclient", SELF_NODE_CLIENT_MESSAGE),
        (true, "nodeclient", NODE_CLIENT_MESSAGE),
    ];
    for (recognized, subresource, message) in recognizers {
        if !recognized {
            continue;
        }
        tried.push(subresource);
        let allowed = ctx.store().allows_csr_subresource(&csr.spec.groups, subresource);
        let review = serde_json::json!({
            "kind": "SubjectAccessReview",
            "apiVersion": "authorization.k8s.io/v1",
            "metadata": { "creationTimestamp": null },
            "spec": {
                "resourceAttributes": {
                    "verb": "create",
                    "group": "certificates.k8s.io",
                    "resource": "certificatesigningrequests",
                    "subresource": subresource,
                },
                "user": csr.spec.username,
                "groups": csr.spec.groups,
            },
            "status": { "allowed": false },
        });
        ctx.log_create(Actor::CsrApprovingController, SAR_PATH, review);
        if allowed {
            let mut next = csr.clone();
            next.status.conditions.push(CsrCondition {
                type_: "Approved",
                status: "True",
                reason: "AutoApproved",
                message: message.into(),
                last_update_time: None,
                last_transition_time: None,
            });
            ctx.call(Actor::CsrApprovingController, None, ApiOp::UpdateCsrApproval(next));
            return;
        }
    }
    // An `IgnorableError`: the workqueue's `processNextWorkItem` logs it at V(4) (and queues
    // the CSR again, rate-limited: those retries are not modelled).
    let tried = tried.join(" ");
    let name = &csr.metadata.name;
    ctx.log_line(
        Actor::CsrApprovingController,
        format!(
            "\"sync certificate request failed\" csr=\"{name}\" err=\"recognized csr \\\"{name}\\\" as [{tried}] but subject access review was not approved\""
        ),
    );
}

/// The signer's pass for one CSR (`signer.handle`): approved, not failed, not yet issued, of a
/// signer it runs a loop for.
fn sign<T>(csr: &CertificateSigningRequest, ctx: &mut Ctx<'_, T>) {
    if !csr.status.certificate.is_empty() || csr.condition("Approved").is_none() || csr.condition("Failed").is_some() {
        return;
    }
    if csr.spec.signer_name != SIGNER_KUBELET_CLIENT && csr.spec.signer_name != SIGNER_KUBELET_SERVING {
        return;
    }
    let ttl = signing_duration(ctx.settings.cluster_signing_duration, csr.spec.expiration_seconds);
    let now = ctx.wall();
    let (not_before, not_after) = validity(now, ttl);
    let mut rng = Rng::keyed(&["certificate", &csr.metadata.name, &csr.metadata.uid]);
    let filler: Vec<u8> = (0..420).map(|_| rng.below(256) as u8).collect();
    let mut next = csr.clone();
    next.status.certificate = issued_certificate(not_before, not_after, &filler);
    ctx.call(Actor::CsrSigningController, None, ApiOp::UpdateCsrStatus(next));
}

/// `signer.duration`: the signing duration, or the request's `expirationSeconds` when shorter,
/// at least 10 minutes.
pub(crate) fn signing_duration(cluster: Duration, expiration_seconds: Option<i32>) -> Duration {
    match expiration_seconds {
        None => cluster,
        Some(s) => {
            let requested = secs(s.max(0) as u64);
            if requested > cluster {
                cluster
            } else if requested < MIN_DURATION {
                MIN_DURATION
            } else {
                requested
            }
        }
    }
}

/// `PermissiveSigningPolicy.apply`: `notBefore` is now less the backdate; `notAfter` is now plus
/// the TTL, less the backdate unless the TTL is shorter than 8 h.
pub(crate) fn validity(now: WallTime, ttl: Duration) -> (WallTime, WallTime) {
    let not_before = WallTime(now.0 - BACKDATE.as_micros() as i64);
    let not_after = if ttl < SHORT { now + ttl } else { WallTime((now + ttl).0 - BACKDATE.as_micros() as i64) };
    (WallTime(not_before.truncate_secs().0), not_after.truncate_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_is_backdated_five_minutes() {
        let now = WallTime(1_772_442_000_000_000);
        let year = secs(365 * 24 * 3600);
        let (nb, na) = validity(now, year);
        assert_eq!(nb.rfc3339(), "2026-03-02T08:55:00Z");
        assert_eq!(na.rfc3339(), "2027-03-02T08:55:00Z");
        // A short certificate's end is not backdated.
        let (nb, na) = validity(now, secs(3600));
        assert_eq!((nb.rfc3339().as_str(), na.rfc3339().as_str()), ("2026-03-02T08:55:00Z", "2026-03-02T10:00:00Z"));
        assert_eq!(signing_duration(year, None), year);
        assert_eq!(signing_duration(year, Some(60)), secs(600));
        assert_eq!(signing_duration(secs(3600), Some(7200)), secs(3600));
    }
}
