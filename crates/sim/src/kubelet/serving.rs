//! The kubelet's serving certificate with `serverTLSBootstrap: true`
//! (`pkg/kubelet/certificate/kubelet.go` `NewKubeletServerCertificateManager`, client-go
//! `util/certificate/certificate_manager.go`): once the kubelet has seen its Node's addresses (at
//! least one IP), its certificate manager asks for a certificate of the signer
//! `kubernetes.io/kubelet-serving` for `CN=system:node:<name>`, `O=system:nodes`, with the Node's
//! hostname and IP as subject alternative names, as `system:node:<name>`, under a name the API
//! server generates (`csr-…`). No controller approves such a request: it stays `Pending` until
//! someone approves it (`kubectl certificate approve`). The manager waits 15 minutes for it, then
//! tries again with a new request after its backoff (2 s doubling, jitter 0.1, five steps, then
//! every 32 s). Once issued, it writes `kubelet-server-<time>.pem` and the symlink
//! `kubelet-server-current.pem`, and rotates at a deadline drawn between 70 % and 90 % of the
//! certificate's life. Its lines are V(2) `Info`s with the logger's name, the signer.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, Reply};
use crate::machine::{ClientCertificate, KUBELET_PKI_DIR};
use crate::objects::{
    CertificateSigningRequest, Kind, Object, SIGNER_KUBELET_SERVING, base64, certificate_request_with_sans,
    certificate_validity, pem,
};
use crate::record::Severity;
use crate::rng::Rng;
use crate::shared::Shared;
use crate::time::{WallTime, format_go_duration, secs};

use super::{Host, Kubelet, KubeletTimer, MachineTimer};

/// `certificateWaitTimeout`: how long `rotateCerts` waits for its request to be signed.
const WAIT_TIMEOUT: Duration = secs(15 * 60);
/// The manager's loop period (`wait.UntilWithContext(m.ctx, rotate, time.Second)`).
const LOOP_PERIOD: Duration = secs(1);
/// The usages of a serving certificate for an ECDSA key (`DefaultKubeletServingGetUsages`).
const SERVING_USAGES: [&str; 2] = ["digital signature", "server auth"];
/// The logger's name: the manager's signer.
const LOGGER: &str = "logger=\"kubernetes.io/kubelet-serving\"";

/// Where the serving certificate manager is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Serving {
    /// Its loop runs, each second, until it has a template (the Node's addresses) or, with a
    /// certificate, until the rotation deadline.
    Idle,
    /// `WaitForCertificate` of the request named here, which is attempt `attempt` of the backoff.
    Watching { name: String, attempt: u32 },
}

/// A serving certificate manager's timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ServingStep {
    /// A round of the manager's loop (or a retry of its backoff, `attempt` > 0).
    Rotate { attempt: u32 },
    /// The 15 minutes' wait for the request named here is over.
    WaitExpired(String),
}

/// The backoff before attempt `attempt` (1-based, after a failed one): 2 s doubling with jitter
/// 0.1 for five steps, then every 32 s (`PollInfiniteWithContext`).
fn backoff(attempt: u32, rng: &mut Rng) -> Duration {
    if attempt <= 5 { rng.jitter(secs(2) * 2u32.pow(attempt - 1), 0.1) } else { secs(32) }
}

/// `2006-01-02 15:04:05 -0700 MST`, as klog prints a `time.Time` value (whole seconds here).
fn go_time(t: WallTime) -> String {
    let s = t.rfc3339();
    format!("{} {} +0000 UTC", &s[..10], &s[11..19])
}

impl Kubelet {
    /// The manager's start (`Run`): its first round at once.
    pub(super) fn start_serving(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        h.log(ctx, format!("\"Certificate rotation is enabled\" {LOGGER}"));
        self.cold.serving = Some(Serving::Idle);
        self.after(ctx, Duration::ZERO, KubeletTimer::Serving(Box::new(ServingStep::Rotate { attempt: 0 })));
    }

    /// The Node's addresses as the kubelet last saw them, if it has an IP (the template's
    /// condition).
    fn serving_template(&self) -> Option<(Vec<String>, Vec<[u8; 4]>)> {
        let node = self.node_cache.as_ref()?;
        let mut dns = Vec::new();
        let mut ips = Vec::new();
        for a in node.status.addresses.iter() {
            match a.type_.as_str() {
                "Hostname" => dns.push(a.address.clone()),
                "InternalIP" | "ExternalIP" => {
                    let parts: Vec<u8> = a.address.split('.').filter_map(|p| p.parse().ok()).collect();
                    if let Ok(ip) = <[u8; 4]>::try_from(parts) {
                        ips.push(ip);
                    }
                }
                _ => {}
            }
        }
        (!ips.is_empty()).then_some((dns, ips))
    }

    pub(super) fn serving_step(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, step: ServingStep) {
        match step {
            ServingStep::Rotate { attempt } => {
                if self.cold.serving != Some(Serving::Idle) {
                    return;
                }
                let Some((dns, ips)) = self.serving_template() else {
                    // No template yet: nothing is requested, the loop comes round again.
                    self.after(ctx, LOOP_PERIOD, KubeletTimer::Serving(Box::new(ServingStep::Rotate { attempt: 0 })));
                    return;
                };
                self.request_serving(h, ctx, attempt, &dns, &ips);
            }
            ServingStep::WaitExpired(name) => {
                let Some(Serving::Watching { name: watching, attempt }) = self.cold.serving.clone() else { return };
                if watching != name {
                    return;
                }
                self.serving_failed(h, ctx, attempt, "timed out waiting for the condition");
            }
        }
    }

    /// `rotateCerts`: a new key, its CSR, then the wait for its certificate.
    fn request_serving(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        attempt: u32,
        dns: &[String],
        ips: &[[u8; 4]],
    ) {
        h.log(ctx, format!("\"Rotating certificates\" {LOGGER}"));
        let host = h.hostname.to_string();
        h.serving_key += 1;
        let mut rng = Rng::keyed(&["kubelet-serving-csr", &host, &h.serving_key.to_string()]);
        let mut signature = [0u8; 64];
        signature.iter_mut().for_each(|b| *b = rng.below(256) as u8);
        let dns: Vec<&str> = dns.iter().map(String::as_str).collect();
        let der =
            certificate_request_with_sans(&format!("system:node:{host}"), &["system:nodes"], &dns, ips, &signature);
        let mut csr = CertificateSigningRequest::new(
            "",
            base64(pem("CERTIFICATE REQUEST", &der).as_bytes()),
            SIGNER_KUBELET_SERVING,
            SERVING_USAGES.to_vec(),
        );
        csr.metadata.generate_name = "csr-".into();
        let name = match self.call(h, ctx, ApiOp::Create(csr.into())) {
            Reply::Ok(Object::CertificateSigningRequest(created)) => created.metadata.name.to_string(),
            Reply::Err(status) => {
                let line = format!(
                    "\"Failed while requesting a signed certificate from the control plane\" err=\"cannot create certificate signing request: {}\" {LOGGER}",
                    status.message.replace('"', "\\\"")
                );
                ctx.log_line_at(h.actor.clone(), Severity::Error, line);
                let next = attempt + 1;
                let wait = backoff(next, ctx.rng);
                self.after(ctx, wait, KubeletTimer::Serving(Box::new(ServingStep::Rotate { attempt: next })));
                return;
            }
            _ => return,
        };
        // `WaitForCertificate`: a list and a watch by name.
        let mut path = String::new();
        Kind::CertificateSigningRequest.push_path(&mut path, "", "", "");
        let selector = format!("fieldSelector=metadata.name%3D{name}");
        ctx.log_read(h.actor.clone(), path.clone(), format!("{selector}&limit=500&resourceVersion=0"));
        let rv = ctx.store().resource_version();
        let timeout = 300 + ctx.rng.below(300);
        ctx.log_read(
            h.actor.clone(),
            path,
            format!("allowWatchBookmarks=true&{selector}&resourceVersion={rv}&timeoutSeconds={timeout}&watch=true"),
        );
        self.cold.serving = Some(Serving::Watching { name: name.clone(), attempt });
        self.after(ctx, WAIT_TIMEOUT, KubeletTimer::Serving(Box::new(ServingStep::WaitExpired(name))));
    }

    /// The request was not signed (denied, or not in 15 minutes): the backoff's next attempt.
    fn serving_failed(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, attempt: u32, err: &str) {
        let line = format!("\"Certificate request was not signed\" err=\"{}\" {LOGGER}", err.replace('"', "\\\""));
        ctx.log_line_at(h.actor.clone(), Severity::Error, line);
        let next = attempt + 1;
        if next == 6 {
            ctx.log_line_at(
                h.actor.clone(),
                Severity::Error,
                format!("\"Reached backoff limit, still unable to rotate certs\" err=\"timed out waiting for the condition\" {LOGGER}"),
            );
        }
        self.cold.serving = Some(Serving::Idle);
        let wait = backoff(next, ctx.rng);
        self.after(ctx, wait, KubeletTimer::Serving(Box::new(ServingStep::Rotate { attempt: next })));
    }

    /// The watch delivers the request: denied or failed, the attempt fails; issued, the
    /// certificate is written and the next rotation is set.
    pub(super) fn serving_watch(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let Some(Serving::Watching { name, attempt }) = self.cold.serving.clone() else { return };
        if h.network_cut {
            return;
        }
        let Some(csr) = ctx.store().csrs.get(name.as_str()).cloned() else { return };
        if let Some(why) = csr.refusal() {
            self.serving_failed(h, ctx, attempt, &why);
            return;
        }
        if csr.condition("Approved").is_none() || csr.status.certificate.is_empty() {
            return;
        }
        h.log(ctx, format!("certificate signing request {name} is issued"));
        let Some((not_before, not_after)) = certificate_validity(&csr.status.certificate) else { return };
        let file = format!("kubelet-server-{}.pem", super::bootstrap::file_stamp(ctx.wall()));
        h.log(
            ctx,
            format!(
                "{KUBELET_PKI_DIR}/{file} written (certificate and key), {KUBELET_PKI_DIR}/kubelet-server-current.pem points at it"
            ),
        );
        h.serving_certificate = Some(Arc::new(ClientCertificate { file, csr: name, not_before, not_after }));
        h.touch();
        // `nextRotationDeadline`: `jitteryDuration`, a point between 70 % and 90 % of the life.
        let total = (not_after.0 - not_before.0).max(0) as f64;
        let deadline = WallTime(not_before.0 + (total * (0.7 + 0.2 * ctx.rng.next_f64())) as i64);
        h.log(
            ctx,
            format!(
                "\"Certificate rotation deadline determined\" expiration=\"{}\" deadline=\"{}\" {LOGGER}",
                go_time(not_after),
                go_time(deadline)
            ),
        );
        let now = ctx.wall();
        let sleep = Duration::from_micros((deadline.0 - now.0).max(0) as u64);
        h.log(
            ctx,
            format!("\"Waiting for next certificate rotation\" sleep=\"{}\" {LOGGER}", format_go_duration(sleep)),
        );
        self.cold.serving = Some(Serving::Idle);
        self.after(ctx, sleep, KubeletTimer::Serving(Box::new(ServingStep::Rotate { attempt: 0 })));
    }
}
