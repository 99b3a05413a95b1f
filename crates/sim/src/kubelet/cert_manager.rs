//! The kubelet's certificate managers (client-go `util/certificate/certificate_manager.go`, one
//! manager a certificate, `pkg/kubelet/certificate/kubelet.go` their templates): the client
//! certificate's with `rotateCertificates: true` (`NewKubeletClientCertificateManager`, signer
//! `kubernetes.io/kube-apiserver-client-kubelet`, store `kubelet-client`), and the serving
//! certificate's with `serverTLSBootstrap: true` (`NewKubeletServerCertificateManager`, signer
//! `kubernetes.io/kubelet-serving`, store `kubelet-server`).
//!
//! Both run the same loop. Without a certificate (or at the rotation deadline of the one it has)
//! it makes a new key and sends a CertificateSigningRequest under a name the API server generates
//! (`csr-…`), then watches it. The client manager asks for `CN=system:node:<name>`,
//! `O=system:nodes`, with the bootstrap kubeconfig's token while it has no certificate and with
//! the certificate it has after that (`buildClientCertificateManager`'s `newClientsetFn`), so
//! `csrapproving` approves its first request through `nodeclient` and its renewals through
//! `selfnodeclient`. The serving manager waits for its template, the Node's addresses with at
//! least one IP, and adds them as subject alternative names; nothing approves its requests. The
//! manager waits 15 minutes for a request, then tries again with a new one after its backoff
//! (2 s doubling, jitter 0.1, five steps, then every 32 s). Once issued, it writes
//! `<store>-<time>.pem` and moves the symlink `<store>-current.pem`, and rotates at a deadline
//! drawn between 70 % and 90 % of the certificate's life. Its lines are V(2) `Info`s with the
//! logger's name, the signer.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Client, Ctx, Reply};
use crate::machine::{ClientCertificate, KUBELET_PKI_DIR};
use crate::objects::{
    CertificateSigningRequest, Kind, Object, SIGNER_KUBELET_CLIENT, SIGNER_KUBELET_SERVING, base64,
    certificate_request_with_sans, certificate_validity, pem,
};
use crate::record::{Actor, Method, Severity};
use crate::rng::Rng;
use crate::shared::Shared;
use crate::time::{WallTime, format_go_duration, secs};

use super::{Host, Kubelet, KubeletTimer, MachineTimer};

/// `certificateWaitTimeout`: how long `rotateCerts` waits for its request to be signed.
const WAIT_TIMEOUT: Duration = secs(15 * 60);
/// The manager's loop period (`wait.UntilWithContext(m.ctx, rotate, time.Second)`).
const LOOP_PERIOD: Duration = secs(1);

/// Which certificate a manager keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Managed {
    /// The client certificate (`rotateCertificates`).
    Client,
    /// The serving certificate (`serverTLSBootstrap`).
    Serving,
}

impl Managed {
    /// The manager's signer, which is also its logger's name.
    fn signer(self) -> &'static str {
        match self {
            Managed::Client => SIGNER_KUBELET_CLIENT,
            Managed::Serving => SIGNER_KUBELET_SERVING,
        }
    }

    /// The usages for an ECDSA key (`DefaultKubeletClientGetUsages`,
    /// `DefaultKubeletServingGetUsages`: `key encipherment` only for an RSA key).
    fn usages(self) -> [&'static str; 2] {
        match self {
            Managed::Client => super::bootstrap::CLIENT_USAGES,
            Managed::Serving => ["digital signature", "server auth"],
        }
    }

    /// The file store's name (`certificate.NewFileStore`'s pair prefix).
    fn store(self) -> &'static str {
        match self {
            Managed::Client => "kubelet-client",
            Managed::Serving => "kubelet-server",
        }
    }

    /// `logger="<signer>"`, as `klog.LoggerWithName` prints it.
    fn logger(self) -> String {
        format!("logger=\"{}\"", self.signer())
    }
}

/// Where a certificate manager is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Manager {
    /// Its loop runs: each second until it has a template (the serving certificate's Node
    /// addresses), or until the rotation deadline of the certificate it has.
    Idle,
    /// `WaitForCertificate` of the request named here, which is attempt `attempt` of the backoff.
    Watching { name: String, attempt: u32 },
}

/// A certificate manager's timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ManagerStep {
    /// A round of the manager's loop (or a retry of its backoff, `attempt` > 0).
    Rotate { attempt: u32 },
    /// The 15 minutes' wait for the request named here are over.
    WaitExpired(String),
    /// The request of attempt `attempt` failed (its error known once the client's dial timeout
    /// has run out).
    RequestFailed { attempt: u32, why: String },
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

/// `nextRotationDeadline`: `NotBefore + jitteryDuration(total)`, where `jitteryDuration` is
/// `wait.Jitter(total, 0.2) - 0.3 × total`, a point between 70 % and 90 % of the life.
pub(crate) fn rotation_deadline(not_before: WallTime, not_after: WallTime, uniform: f64) -> WallTime {
    let total = (not_after.0 - not_before.0).max(0) as f64;
    WallTime(not_before.0 + (total * (0.7 + 0.2 * uniform)) as i64)
}

impl Kubelet {
    fn manager(&self, which: Managed) -> Option<&Manager> {
        match which {
            Managed::Client => self.cold.client_manager.as_ref(),
            Managed::Serving => self.cold.serving.as_ref(),
        }
    }

    fn set_manager(&mut self, which: Managed, state: Manager) {
        match which {
            Managed::Client => self.cold.client_manager = Some(state),
            Managed::Serving => self.cold.serving = Some(state),
        }
    }

    fn manager_after(&mut self, ctx: &mut Ctx<'_, MachineTimer>, after: Duration, which: Managed, step: ManagerStep) {
        self.after(ctx, after, KubeletTimer::Certificate(Box::new((which, step))));
    }

    /// The manager's start (`Start`): with a certificate that has not reached its deadline, it
    /// waits for the deadline; else its first round at once.
    pub(super) fn start_manager(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, which: Managed) {
        h.log(ctx, format!("\"Certificate rotation is enabled\" {}", which.logger()));
        self.set_manager(which, Manager::Idle);
        match current(h, which) {
            Some(cert) => self.wait_for_deadline(h, ctx, which, &cert),
            None => self.manager_after(ctx, Duration::ZERO, which, ManagerStep::Rotate { attempt: 0 }),
        }
    }

    /// The serving certificate's template: the Node's addresses as the kubelet last saw them, if
    /// it has an IP.
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

    pub(super) fn manager_step(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        which: Managed,
        step: ManagerStep,
    ) {
        match step {
            ManagerStep::Rotate { attempt } => {
                if self.manager(which) != Some(&Manager::Idle) {
                    return;
                }
                let sans = match which {
                    Managed::Client => (Vec::new(), Vec::new()),
                    Managed::Serving => match self.serving_template() {
                        Some(sans) => sans,
                        None => {
                            // No template yet: nothing is requested, the loop comes round again.
                            self.manager_after(ctx, LOOP_PERIOD, which, ManagerStep::Rotate { attempt: 0 });
                            return;
                        }
                    },
                };
                self.request_certificate_of(h, ctx, which, attempt, &sans.0, &sans.1);
            }
            ManagerStep::WaitExpired(name) => {
                let Some(Manager::Watching { name: watching, attempt }) = self.manager(which).cloned() else {
                    return;
                };
                if watching != name {
                    return;
                }
                self.manager_failed(h, ctx, which, attempt, "timed out waiting for the condition");
            }
            ManagerStep::RequestFailed { attempt, why } => self.request_failed(h, ctx, which, attempt, &why),
        }
    }

    /// `rotateCerts`: a new key, its CSR, then the wait for its certificate. The client manager
    /// without a certificate sends with the bootstrap kubeconfig.
    fn request_certificate_of(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        which: Managed,
        attempt: u32,
        dns: &[String],
        ips: &[[u8; 4]],
    ) {
        let logger = which.logger();
        h.log(ctx, format!("\"Rotating certificates\" {logger}"));
        let host = h.hostname.to_string();
        let (seed, key) = match which {
            Managed::Client => {
                h.bootstrap_key += 1;
                ("kubelet-client-rotation-csr", h.bootstrap_key)
            }
            Managed::Serving => {
                h.serving_key += 1;
                ("kubelet-serving-csr", h.serving_key)
            }
        };
        let mut rng = Rng::keyed(&[seed, &host, &key.to_string()]);
        let mut signature = [0u8; 64];
        signature.iter_mut().for_each(|b| *b = rng.below(256) as u8);
        let dns: Vec<&str> = dns.iter().map(String::as_str).collect();
        let der =
            certificate_request_with_sans(&format!("system:node:{host}"), &["system:nodes"], &dns, ips, &signature);
        let mut csr = CertificateSigningRequest::new(
            "",
            base64(pem("CERTIFICATE REQUEST", &der).as_bytes()),
            which.signer(),
            which.usages().to_vec(),
        );
        csr.metadata.generate_name = "csr-".into();
        let bootstrapping = which == Managed::Client && h.client_certificate.is_none();
        let reply = if bootstrapping {
            h.call_bootstrap(ctx, ApiOp::Create(csr.into()), "")
        } else {
            self.call(h, ctx, ApiOp::Create(csr.into()))
        };
        let name = match reply {
            Reply::Ok(Object::CertificateSigningRequest(created)) => created.metadata.name.to_string(),
            Reply::Err(status) => {
                let why = format!("cannot create certificate signing request: {}", status.message);
                self.request_failed(h, ctx, which, attempt, &why);
                return;
            }
            Reply::Timeout => {
                let mut path = String::new();
                Kind::CertificateSigningRequest.push_path(&mut path, "", "", "");
                let why = Client::Main.error(Method::Post, &path, "");
                let step = ManagerStep::RequestFailed { attempt, why };
                let then = KubeletTimer::Certificate(Box::new((which, step)));
                self.timed_out(ctx, Client::Main.timeout(), Vec::new(), Some((Duration::ZERO, then)));
                return;
            }
            _ => return,
        };
        // `WaitForCertificate`: a list and a watch by name.
        let actor = if bootstrapping { Actor::KubeletBootstrap(h.name.as_str().into()) } else { h.actor.clone() };
        list_and_watch(ctx, actor, &name);
        self.set_manager(which, Manager::Watching { name: name.clone(), attempt });
        self.manager_after(ctx, WAIT_TIMEOUT, which, ManagerStep::WaitExpired(name));
    }

    /// The request could not be sent: `Failed while requesting a signed certificate from the
    /// control plane`, and the backoff's next attempt.
    fn request_failed(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        which: Managed,
        attempt: u32,
        why: &str,
    ) {
        let line = format!(
            "\"Failed while requesting a signed certificate from the control plane\" err=\"{}\" {}",
            why.replace('"', "\\\""),
            which.logger()
        );
        ctx.log_line_at(h.actor.clone(), Severity::Error, line);
        let next = attempt + 1;
        let wait = backoff(next, ctx.rng);
        self.manager_after(ctx, wait, which, ManagerStep::Rotate { attempt: next });
    }

    /// The request was not signed (denied, or not in 15 minutes): the backoff's next attempt.
    fn manager_failed(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        which: Managed,
        attempt: u32,
        err: &str,
    ) {
        let logger = which.logger();
        let line = format!("\"Certificate request was not signed\" err=\"{}\" {logger}", err.replace('"', "\\\""));
        ctx.log_line_at(h.actor.clone(), Severity::Error, line);
        let next = attempt + 1;
        if next == 6 {
            ctx.log_line_at(
                h.actor.clone(),
                Severity::Error,
                format!("\"Reached backoff limit, still unable to rotate certs\" err=\"timed out waiting for the condition\" {logger}"),
            );
        }
        self.set_manager(which, Manager::Idle);
        let wait = backoff(next, ctx.rng);
        self.manager_after(ctx, wait, which, ManagerStep::Rotate { attempt: next });
    }

    /// The watch delivers the request: denied or failed, the attempt fails; issued, the
    /// certificate is written and the next rotation is set. The client manager's first
    /// certificate lets the rest of the kubelet start.
    pub(super) fn manager_watch(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, which: Managed) {
        let Some(Manager::Watching { name, attempt }) = self.manager(which).cloned() else { return };
        if h.network_cut {
            return;
        }
        let Some(csr) = ctx.store().csrs.get(name.as_str()).cloned() else { return };
        if let Some(why) = csr.refusal() {
            self.manager_failed(h, ctx, which, attempt, &why);
            return;
        }
        if csr.condition("Approved").is_none() || csr.status.certificate.is_empty() {
            return;
        }
        h.log(ctx, format!("certificate signing request {name} is issued"));
        let Some((not_before, not_after)) = certificate_validity(&csr.status.certificate) else { return };
        let store = which.store();
        let file = format!("{store}-{}.pem", super::bootstrap::file_stamp(ctx.wall()));
        h.log(
            ctx,
            format!(
                "{KUBELET_PKI_DIR}/{file} written (certificate and key), {KUBELET_PKI_DIR}/{store}-current.pem points at it"
            ),
        );
        let cert = Arc::new(ClientCertificate { file, csr: name, not_before, not_after });
        match which {
            Managed::Client => h.client_certificate = Some(cert.clone()),
            Managed::Serving => h.serving_certificate = Some(cert.clone()),
        }
        h.touch();
        self.set_manager(which, Manager::Idle);
        self.wait_for_deadline(h, ctx, which, &cert);
        if which == Managed::Client && self.cold.bootstrap == Some(super::bootstrap::Bootstrap::InBackground) {
            self.cold.bootstrap = None;
            self.start_loops(h, ctx);
        }
    }

    /// `nextRotationDeadline` for the certificate it has, its two lines, and the loop's sleep
    /// until then.
    fn wait_for_deadline(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        which: Managed,
        cert: &ClientCertificate,
    ) {
        let logger = which.logger();
        let deadline = rotation_deadline(cert.not_before, cert.not_after, ctx.rng.next_f64());
        h.log(
            ctx,
            format!(
                "\"Certificate rotation deadline determined\" expiration=\"{}\" deadline=\"{}\" {logger}",
                go_time(cert.not_after),
                go_time(deadline)
            ),
        );
        let now = ctx.wall();
        let sleep = Duration::from_micros((deadline.0 - now.0).max(0) as u64);
        h.log(
            ctx,
            format!("\"Waiting for next certificate rotation\" sleep=\"{}\" {logger}", format_go_duration(sleep)),
        );
        self.manager_after(ctx, sleep, which, ManagerStep::Rotate { attempt: 0 });
    }
}

/// The certificate a manager has.
fn current(h: &Host, which: Managed) -> Option<Arc<ClientCertificate>> {
    match which {
        Managed::Client => h.client_certificate.clone(),
        Managed::Serving => h.serving_certificate.clone(),
    }
}

/// client-go's `WaitForCertificate`: the reflector's first list of the CSR named `name`
/// (`fieldSelector=metadata.name=<name>`, `limit=500&resourceVersion=0`), then its watch from the
/// store's resource version, with a timeout between 5 and 10 minutes.
pub(super) fn list_and_watch(ctx: &mut Ctx<'_, MachineTimer>, actor: Actor, name: &str) {
    let mut path = String::new();
    Kind::CertificateSigningRequest.push_path(&mut path, "", "", "");
    let selector = format!("fieldSelector=metadata.name%3D{name}");
    ctx.log_read(actor.clone(), path.clone(), format!("{selector}&limit=500&resourceVersion=0"));
    let rv = ctx.store().resource_version();
    let timeout = 300 + ctx.rng.below(300);
    ctx.log_read(
        actor,
        path,
        format!("allowWatchBookmarks=true&{selector}&resourceVersion={rv}&timeoutSeconds={timeout}&watch=true"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deadline is 70 % of the life at the generator's 0, 90 % (to the microsecond) at its 1,
    /// and between them for any draw.
    #[test]
    fn the_deadline_is_between_70_and_90_percent_of_the_life() {
        let nb = WallTime(1_000_000_000);
        let na = WallTime(nb.0 + 1_000_000);
        assert_eq!(rotation_deadline(nb, na, 0.0), WallTime(nb.0 + 700_000));
        assert!((nb.0 + 899_999..=nb.0 + 900_000).contains(&rotation_deadline(nb, na, 1.0).0));
        for u in [0.1, 0.25, 0.5, 0.75, 0.999] {
            let d = rotation_deadline(nb, na, u).0 - nb.0;
            assert!((700_000..=900_000).contains(&d), "{u}: {d}");
        }
    }
}
