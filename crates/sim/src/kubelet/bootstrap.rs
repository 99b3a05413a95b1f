//! The kubelet's TLS bootstrap (`pkg/kubelet/certificate/bootstrap/bootstrap.go`
//! `LoadClientCert`, with `rotateCertificates` off): with only a bootstrap kubeconfig, before
//! anything else of the kubelet starts, it waits for the API server (`GET /healthz`), sends a
//! CertificateSigningRequest named from its key (`node-csr-…`), and list-and-watches it by name
//! until it carries a certificate; then it writes the certificate and its key
//! (`kubelet-client-<time>.pem`, the symlink `kubelet-client-current.pem`) and its kubeconfig,
//! and goes on as a kubelet that started with its credentials. Everything it sends authenticates
//! with the bootstrap token. Strings and timings: docs/kubernetes-notes/core.md, "TLS bootstrap".

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Client, Ctx, Reply};
use crate::machine::{BOOTSTRAP_TOKEN_ID, ClientCertificate, KUBECONFIG, KUBELET_PKI_DIR};
use crate::objects::{CertificateSigningRequest, Kind, SIGNER_KUBELET_CLIENT, base64, base64_raw_url, pem};
use crate::record::{Actor, Method};
use crate::rng::Rng;
use crate::shared::Shared;
use crate::time::{SimTime, WallTime, secs};

use super::{Host, Kubelet, KubeletTimer, MachineTimer};

/// `waitForServer`'s period (`wait.JitterUntil(…, 2*time.Second, 0.2, true, …)`).
const HEALTHZ_PERIOD: Duration = secs(2);
/// `waitForServer`'s jitter factor.
const HEALTHZ_JITTER: f64 = 0.2;
/// `waitForServer`'s client timeout (`cfg.Timeout = 1 * time.Second`).
const HEALTHZ_TIMEOUT: Duration = secs(1);
/// How long `LoadClientCert` lets `waitForServer` wait (`1*time.Minute`), then sends its CSR
/// anyway.
const HEALTHZ_DEADLINE: Duration = secs(60);
/// The usages of a client certificate for an ECDSA key (`requestNodeCertificate`: no
/// `key encipherment`, which only an RSA key adds).
pub(crate) const CLIENT_USAGES: [&str; 2] = ["digital signature", "client auth"];

/// Where a kubelet's bootstrap is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bootstrap {
    /// `waitForServer`, since this instant: polling `/healthz` (for a minute at most).
    WaitingForServer(SimTime),
    /// `WaitForCertificate`: watching the CSR named here.
    Watching(String),
    /// `rotateCertificates`: the client certificate manager asks for the certificate; the rest
    /// of the kubelet waits for it.
    InBackground,
}

/// A kubelet bootstrap timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BootstrapStep {
    /// A `GET /healthz` of `waitForServer`.
    Healthz,
    /// `waitForServer`'s minute is over without an answer: the CSR is sent anyway.
    GiveUpWaiting,
}

/// The CSR name `digestedName` gives a key: `node-csr-` and the unpadded URL-safe base64 of a
/// SHA-512/256 digest of the public key, the subject and the usages. The simulation has no key:
/// the 32 bytes of the digest are drawn from a generator keyed by the host and the key's
/// generation, so the same key gives the same name, as it does on a real machine.
pub(crate) fn csr_name(hostname: &str, key: u32) -> String {
    let mut rng = Rng::keyed(&["kubelet-client-key", hostname, &key.to_string()]);
    let digest: Vec<u8> = (0..32).map(|_| rng.below(256) as u8).collect();
    format!("node-csr-{}", base64_raw_url(&digest))
}

/// The PEM `CERTIFICATE REQUEST` (`certutil.MakeCSR`) for the key, base64 as in JSON, with the
/// subject `CN=system:node:<hostname>`, `O=system:nodes` (its signature's bytes drawn from a
/// generator keyed like the name).
fn csr_request(hostname: &str, key: u32) -> String {
    let mut rng = Rng::keyed(&["kubelet-client-csr", hostname, &key.to_string()]);
    let mut signature = [0u8; 64];
    signature.iter_mut().for_each(|b| *b = rng.below(256) as u8);
    let der = crate::objects::certificate_request(&format!("system:node:{hostname}"), &["system:nodes"], &signature);
    base64(pem("CERTIFICATE REQUEST", &der).as_bytes())
}

/// `2006-01-02-15-04-05`, the layout of `certificate_store.go`'s file names.
pub(super) fn file_stamp(t: WallTime) -> String {
    t.rfc3339().trim_end_matches('Z').replace(['T', ':'], "-")
}

impl Kubelet {
    /// The bootstrap's start, at the kubelet process's start.
    pub(super) fn start_bootstrap(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        h.log(ctx, "\"Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file\"".into());
        self.cold.bootstrap = Some(Bootstrap::WaitingForServer(ctx.now));
        self.after(ctx, Duration::ZERO, KubeletTimer::Bootstrap(BootstrapStep::Healthz));
    }

    /// The start with `rotateCertificates` (`cmd/kubelet/app/server.go`
    /// `buildKubeletClientConfig`): `LoadClientConfig` writes the kubeconfig pointing at the
    /// certificate store (when it has no valid certificate yet), then the client certificate
    /// manager starts. The rest of the kubelet starts once the manager has a certificate.
    pub(super) fn start_client_rotation(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        h.log(ctx, "\"Client rotation is on, will bootstrap in background\"".into());
        let current = format!("{KUBELET_PKI_DIR}/kubelet-client-current.pem");
        if h.client_certificate.is_some() {
            h.log(ctx, format!("\"Loading cert/key pair from a file\" filePath=\"{current}\""));
        } else {
            h.log(ctx, format!("{KUBECONFIG} written (user default-auth, client-certificate {current})"));
            self.cold.bootstrap = Some(Bootstrap::InBackground);
        }
        h.log(ctx, "\"Starting client certificate rotation\"".into());
        self.start_manager(h, ctx, super::cert_manager::Managed::Client);
        if h.client_certificate.is_some() {
            self.start_loops(h, ctx);
        }
    }

    /// One `GET /healthz` of `waitForServer`; once it answers, the CSR.
    pub(super) fn bootstrap_step(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        step: BootstrapStep,
    ) {
        match step {
            BootstrapStep::Healthz => {
                if h.network_cut {
                    // The 1 s client timeout runs out; the next try is a jittered period after.
                    let err = Client::Heartbeat(HEALTHZ_TIMEOUT).error(Method::Get, "/healthz", "timeout=1s");
                    let line = format!("\"Failed to connect to apiserver\" err=\"{}\"", err.replace('"', "\\\""));
                    let next = HEALTHZ_TIMEOUT + ctx.rng.jitter(HEALTHZ_PERIOD, HEALTHZ_JITTER);
                    self.timed_out(
                        ctx,
                        HEALTHZ_TIMEOUT,
                        vec![line],
                        Some((next - HEALTHZ_TIMEOUT, KubeletTimer::Bootstrap(BootstrapStep::Healthz))),
                    );
                    return;
                }
                let actor = Actor::KubeletBootstrap(h.name.as_str().into());
                // A token the authenticator does not accept fails every request, `/healthz`
                // included (401), until the wait's minute is over; the CSR is sent anyway.
                if ctx.store().bootstrap_token_valid(BOOTSTRAP_TOKEN_ID) {
                    ctx.log_answer(actor, "/healthz", "timeout=1s", 200);
                    self.request_certificate(h, ctx);
                    return;
                }
                ctx.log_answer(actor, "/healthz", "timeout=1s", 401);
                h.log(ctx, "\"Failed to connect to apiserver\" err=\"Unauthorized\"".into());
                let Some(Bootstrap::WaitingForServer(since)) = self.cold.bootstrap else { return };
                let next = ctx.rng.jitter(HEALTHZ_PERIOD, HEALTHZ_JITTER);
                if ctx.now + next - since >= HEALTHZ_DEADLINE {
                    let wait = (since + HEALTHZ_DEADLINE).max(ctx.now) - ctx.now;
                    self.after(ctx, wait, KubeletTimer::Bootstrap(BootstrapStep::GiveUpWaiting));
                } else {
                    self.after(ctx, next, KubeletTimer::Bootstrap(BootstrapStep::Healthz));
                }
            }
            BootstrapStep::GiveUpWaiting => {
                h.log(
                    ctx,
                    "\"Error waiting for apiserver to come up\" err=\"timed out waiting to connect to apiserver\""
                        .into(),
                );
                self.request_certificate(h, ctx);
            }
        }
    }

    /// `requestNodeCertificate`: the CSR's POST (or, when it exists, its reuse), then the
    /// list-and-watch of it by name.
    fn request_certificate(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let host = h.hostname.to_string();
        let name = csr_name(&host, h.bootstrap_key);
        let csr = CertificateSigningRequest::new(
            &name,
            csr_request(&host, h.bootstrap_key),
            SIGNER_KUBELET_CLIENT,
            CLIENT_USAGES.to_vec(),
        );
        let mut fail = None;
        match h.call_bootstrap(ctx, ApiOp::Create(csr.into()), "") {
            Reply::Ok(_) => {}
            Reply::Err(status) if status.reason == "AlreadyExists" => {
                h.log(ctx, "csr for this node already exists, reusing".into());
                match h.call_bootstrap(ctx, ApiOp::GetCsr(name.clone()), "") {
                    Reply::Ok(_) => h.log(ctx, "csr for this node is still valid".into()),
                    Reply::Err(status) => {
                        fail = Some(format!("cannot retrieve certificate signing request: {}", status.message))
                    }
                    Reply::Timeout => fail = Some(dial_error(Method::Get, &name)),
                }
            }
            Reply::Err(status) => fail = Some(format!("cannot create certificate signing request: {}", status.message)),
            Reply::Timeout => fail = Some(dial_error(Method::Post, "")),
        }
        if let Some(why) = fail {
            self.bootstrap_failed(h, ctx, &why);
            return;
        }
        h.log(ctx, "\"Waiting for client certificate to be issued\"".into());
        // `WaitForCertificate`: `ListWatchUntil` with `fieldSelector=metadata.name=<name>`.
        super::cert_manager::list_and_watch(ctx, Actor::KubeletBootstrap(h.name.as_str().into()), &name);
        self.cold.bootstrap = Some(Bootstrap::Watching(name));
        self.bootstrap_watch(h, ctx);
    }

    /// The watch delivers the CSR: denied or failed, the bootstrap fails; approved, the kubelet
    /// waits for its certificate; issued, it writes its files and goes on.
    pub(super) fn bootstrap_watch(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let Some(Bootstrap::Watching(name)) = self.cold.bootstrap.clone() else { return };
        if h.network_cut {
            return;
        }
        let Some(csr) = ctx.store().csrs.get(name.as_str()).cloned() else { return };
        if let Some(why) = csr.refusal() {
            self.bootstrap_failed(h, ctx, &why);
            return;
        }
        if csr.condition("Approved").is_none() {
            return;
        }
        if csr.status.certificate.is_empty() {
            if self.cold.bootstrap_approved_seen.as_deref() != Some(name.as_str()) {
                self.cold.bootstrap_approved_seen = Some(name.clone());
                h.log(ctx, format!("certificate signing request {name} is approved, waiting to be issued"));
            }
            return;
        }
        h.log(ctx, format!("certificate signing request {name} is issued"));
        let Some((not_before, not_after)) = crate::objects::certificate_validity(&csr.status.certificate) else {
            return;
        };
        let file = format!("kubelet-client-{}.pem", file_stamp(ctx.wall()));
        h.log(
            ctx,
            format!(
                "{KUBELET_PKI_DIR}/{file} written (certificate and key), {KUBELET_PKI_DIR}/kubelet-client-current.pem \
                 points at it; {KUBECONFIG} written (user default-auth, client-certificate {KUBELET_PKI_DIR}/kubelet-client-current.pem)"
            ),
        );
        h.client_certificate = Some(Arc::new(ClientCertificate { file, csr: name, not_before, not_after }));
        h.bootstrap_key += 1;
        h.touch();
        self.cold.bootstrap = None;
        self.start_loops(h, ctx);
    }

    /// The bootstrap failed: `run` returns the error, the process exits, systemd starts it
    /// again (the key file stays, and with it the CSR's name).
    fn bootstrap_failed(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, why: &str) {
        h.log(ctx, format!("\"command failed\" err=\"{}\"", why.replace('"', "\\\"")));
        self.cold.bootstrap = None;
        self.exit = Some(why.to_string());
    }
}

/// A request to an unreachable API server, as the main client's error words it.
fn dial_error(method: Method, name: &str) -> String {
    let mut path = String::new();
    Kind::CertificateSigningRequest.push_path(&mut path, "", name, "");
    Client::Main.error(method, &path, "")
}
