//! The reader's `kubectl logs POD [-c CONTAINER]` and `kubectl exec POD [-c CONTAINER] -- CMD`,
//! as kubectl 1.32 and the API server answer them in each case the simulation can tell
//! (`docs/kubernetes-notes/kubelet-and-maintenance.md` §17):
//!
//! * kubectl's GET of the Pod (the resource builder's for `logs`, `exec`'s own), answered
//!   `NotFound` for a Pod that is not there (which `logs` prints in its own words);
//! * `exec` of a Pod in phase `Succeeded` or `Failed`: kubectl's own error;
//! * the container: kubectl defaults it to the first (the simulation's Pods have one); a name the Pod does not have is `logs`' own error, and the API
//!   server's `validateContainer`'s (`400 BadRequest`) for `exec`; a Pod with no Node is an empty answer for `logs` (`LogLocation`'s
//!   nil location: `204 No Content`) and a `400 BadRequest` for `exec` (`streamLocation`);
//! * the API server's connection to the kubelet on port 10250 at the Node's address: refused
//!   while the kubelet is not running, a TLS `internal_error` alert while a kubelet with
//!   `serverTLSBootstrap` has no serving certificate (both `500` for `logs`, the error's text as
//!   the Status's message, no reason: `Error from server: …`; `exec` goes through the stream
//!   translator, which reports the failure inside the upgraded stream: not simulated);
//! * the kubelet's answer for `logs` (`validateContainerLogStatus`): a container it has no status
//!   for, or one waiting to start, is its `400`; otherwise the log, `200`, whose content the
//!   simulation does not have (the page and `nodeline kubectl` say so apart from kubectl's
//!   output).
//!
//! Cases the simulation cannot tell (a cut network, a powered-off machine, a stopped container
//! runtime, `exec` into a container that is not running, a Node that is gone) print nodeline's
//! own error, not an invented one.

use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, Reply};
use crate::objects::{Object, Status};
use crate::record::Actor;

/// What the API server meets when it connects to a Node's kubelet (port 10250).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum KubeletServer {
    /// The kubelet serves: the handshake succeeds.
    Serving,
    /// `serverTLSBootstrap` and no serving certificate yet: the handshake fails.
    NoServingCertificate,
    /// The kubelet is not running on a machine that is up: nothing listens on the port.
    NotListening,
    /// A case the simulation does not model, in words.
    NotModelled(&'static str),
}

/// The kubelet's port.
const KUBELET_PORT: u16 = 10250;

/// `ErrorToAPIStatus` of an error that is no API status: `500`, no reason.
fn internal(message: String) -> Status {
    Status::plain_failure(500, "", message)
}

/// `errors.NewBadRequest`.
fn bad_request(message: String) -> Status {
    Status::plain_failure(400, "BadRequest", message)
}

/// What kubectl prints for an API status (`cmdutil.CheckErr` of a `StatusError`).
fn printed(status: &Status) -> String {
    if status.reason.is_empty() {
        format!("Error from server: {}", status.message)
    } else {
        format!("Error from server ({}): {}", status.reason, status.message)
    }
}

/// `kubectl logs` (`exec` false) or `kubectl exec` of the Pod `namespace/name`, `container` if
/// named; `server` tells what the API server meets at a Node's kubelet.
pub(crate) fn logs<T>(
    namespace: &str,
    name: &str,
    container: Option<&str>,
    exec: bool,
    server: impl Fn(&str) -> KubeletServer,
    ctx: &mut Ctx<'_, T>,
) {
    let get = ApiOp::GetPod { namespace: namespace.to_string(), name: name.to_string() };
    let pod = match ctx.call(Actor::Kubectl, None, get) {
        Reply::Ok(Object::Pod(p)) => p,
        // `logs` wraps the builder's NotFound (`logs.go`: `error from server (NotFound): %w in
        // namespace %q`).
        Reply::Err(status) if !exec && status.reason == "NotFound" => {
            let line = format!("error: error from server (NotFound): {} in namespace \"{namespace}\"", status.message);
            ctx.log_line(Actor::KubectlStderr, line);
            return;
        }
        Reply::Err(status) => {
            ctx.log_line(Actor::KubectlStderr, printed(&status));
            return;
        }
        Reply::Ok(_) | Reply::Timeout => return,
    };
    if exec && matches!(&*pod.status.phase, "Succeeded" | "Failed") {
        ctx.log_line(
            Actor::KubectlStderr,
            format!("error: cannot exec into a container in a completed pod; current phase is {}", pod.status.phase),
        );
        return;
    }
    let containers: Vec<&str> = pod.spec.containers.iter().map(|c| &*c.name).collect();
    // Without a name, the first (every Pod of the simulation has one container, so kubectl's
    // `Defaulted container … out of: …` for several is not modelled).
    let container = match container {
        Some(c) => c.to_string(),
        None => {
            let Some(first) = containers.first() else { return };
            first.to_string()
        }
    };
    let path = format!("/api/v1/namespaces/{namespace}/pods/{name}/{}", if exec { "exec" } else { "log" });
    // `logs`: one GET. `exec`: the WebSocket upgrade (a GET); refused before any upgrade, kubectl
    // falls back to SPDY (a POST) and prints that answer. (The command's `command=` parameters
    // are not kept: nodeline does not keep the command.)
    let query =
        if exec { format!("container={container}&stderr=true&stdout=true") } else { format!("container={container}") };
    let answer = |ctx: &mut Ctx<'_, T>, status: Status| {
        let line = printed(&status);
        if exec {
            ctx.log_failed_read(Actor::Kubectl, &path, query.clone(), status.clone());
            ctx.log_failed_call(Actor::Kubectl, &path, query.clone(), status);
        } else {
            ctx.log_failed_read(Actor::Kubectl, &path, query.clone(), status);
        }
        ctx.log_line(Actor::KubectlStderr, line);
    };
    // `logs` checks the name itself (`logsForObjectWithClient`); for `exec` the API server's
    // `validateContainer` does.
    if !containers.contains(&container.as_str()) {
        let message = format!("container {container} is not valid for pod {name}");
        if exec {
            answer(ctx, bad_request(message));
        } else {
            ctx.log_line(Actor::KubectlStderr, format!("error: {message}"));
        }
        return;
    }
    let node = pod.spec.node_name.clone();
    if node.is_empty() {
        if exec {
            answer(ctx, bad_request(format!("pod {name} does not have a host assigned")));
        } else {
            ctx.log_answer(Actor::Kubectl, &path, query.clone(), 204);
        }
        return;
    }
    let not_modelled = |ctx: &mut Ctx<'_, T>, why: &str| {
        let command = if exec { "exec" } else { "logs" };
        ctx.log_line(Actor::KubectlStderr, format!("nodeline: kubectl {command} on {why} is not simulated"));
    };
    // kube-apiserver's `--kubelet-preferred-address-types` (kubeadm: InternalIP first).
    let address = ctx.store().nodes.get(node.as_str()).and_then(|n| {
        let addresses = &n.status.addresses;
        ["InternalIP", "ExternalIP", "Hostname"]
            .iter()
            .find_map(|t| addresses.iter().find(|a| a.type_ == *t).map(|a| a.address.clone()))
    });
    let Some(ip) = address else {
        not_modelled(ctx, "a Pod whose Node is gone or has no address");
        return;
    };
    let url = format!("https://{ip}:{KUBELET_PORT}/containerLogs/{namespace}/{name}/{container}");
    let dial_error = match server(&node) {
        // `exec` through kube-apiserver's stream translator (WebSocket to SPDY, on by default
        // since 1.30) reports a failed dial inside the upgraded stream, in words not pinned down
        // here.
        KubeletServer::NoServingCertificate | KubeletServer::NotListening if exec => {
            not_modelled(ctx, "a kubelet the API server cannot reach");
            return;
        }
        KubeletServer::Serving => None,
        KubeletServer::NoServingCertificate => Some("remote error: tls: internal error".to_string()),
        KubeletServer::NotListening => Some(format!("dial tcp {ip}:{KUBELET_PORT}: connect: connection refused")),
        KubeletServer::NotModelled(why) => {
            not_modelled(ctx, why);
            return;
        }
    };
    if let Some(e) = dial_error {
        // `LocationStreamer.InputStream`'s `client.Do` error (a `url.Error`); the upgrade-aware
        // proxy's `error dialing backend`.
        let message = if exec { format!("error dialing backend: {e}") } else { format!("Get \"{url}\": {e}") };
        answer(ctx, internal(message));
        return;
    }
    let status = pod.status.container_statuses.iter().find(|s| *s.name == *container).cloned();
    if exec {
        if status.as_ref().is_none_or(|s| s.state.running.is_none()) {
            not_modelled(ctx, "a container that is not running");
            return;
        }
        // Upgraded (`101`, the stream translator's WebSocket): the command would run; nodeline
        // runs nothing in a container.
        ctx.log_answer(Actor::Kubectl, &path, query, 101);
        return;
    }
    // The kubelet's `validateContainerLogStatus` (its `400` passed on as `BadRequest`).
    let refusal = match &status {
        None => Some(format!("container \"{container}\" in pod \"{name}\" is not available")),
        Some(s)
            if s.state.running.is_none()
                && s.state.terminated.is_none()
                && s.last_state.terminated.is_none()
                && s.state.waiting.is_some() =>
        {
            let reason = s.state.waiting.as_ref().map(|w| w.reason.to_string()).unwrap_or_default();
            Some(format!("container \"{container}\" in pod \"{name}\" is waiting to start: {reason}"))
        }
        Some(_) => None,
    };
    match refusal {
        Some(message) => answer(ctx, bad_request(message)),
        None => ctx.log_answer(Actor::Kubectl, &path, query, 200),
    }
}
