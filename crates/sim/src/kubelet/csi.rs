//! The CSI volume plugin's start-up (`pkg/volume/csi/csi_plugin.go` `initializeCSINode`, and
//! `nodeinfomanager.go`): until the node's CSINode exists, the kubelet's storage error keeps
//! Ready False. A goroutine first waits for the API server (`waitForAPIServerForever`: a GET of
//! the CSINode from the watch cache, `?resourceVersion=0`, every second until it answers 200 or
//! 404), then makes up to 6 calls of `InitializeCSINodeWithAnnotation`, 15 ms × 6ⁿ apart, each of
//! up to 4 tries, 10 ms × 5ⁿ apart (both with 10 % jitter). A try GETs the CSINode; when it is
//! missing, GETs the Node for its uid and POSTs the CSINode with an owner reference. Before the
//! Node is registered the tries fail with `nodes "NAME" not found`. Six failed calls are fatal:
//! the kubelet exits and systemd starts it again (`docs/kubernetes-notes.md` §9.3).

use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::ctx::{Client, Ctx, DIAL_TIMEOUT, Reply};
use crate::objects::{CsiNode, Object};
use crate::record::Method;
use crate::rng::Rng;
use crate::shared::Shared;
use crate::time::{millis, secs};

use super::{Host, Kubelet, KubeletTimer, MachineTimer};

/// What the storage error says from the plugin's start until the first call succeeds or fails.
pub(crate) const CSINODE_NOT_INITIALIZED: &str = "CSINode is not yet initialized";
/// The query of `waitForAPIServerForever`'s GET (`util.FromApiserverCache`).
const FROM_CACHE_QUERY: &str = "resourceVersion=0";
/// `waitForAPIServerForever`'s poll interval.
const WAIT_POLL: Duration = secs(1);
/// `initBackoff`: the sleeps between the 6 calls (15 ms, factor 6).
const CALL_SLEEPS: [Duration; 5] = [millis(15), millis(90), millis(540), millis(3240), millis(19_440)];
/// `updateBackoff`: the sleeps between the 4 tries of one call (10 ms, factor 5).
const TRY_SLEEPS: [Duration; 3] = [millis(10), millis(50), millis(250)];
/// The jitter of both backoffs.
const JITTER: f64 = 0.1;
/// `wait.ErrWaitTimeout`.
const WAIT_TIMEOUT: &str = "timed out waiting for the condition";

/// Where the CSINode initialisation stands.
#[derive(Clone, Debug)]
pub(crate) struct CsiInit {
    /// The backoffs' jitter: a generator of the kubelet process's own (keyed by its machine's
    /// boot id and the process's start), so this loop does not move the seeded stream's draws.
    rng: Rng,
}

impl CsiInit {
    pub(crate) fn new(boot_id: &str, generation: u32) -> CsiInit {
        CsiInit { rng: Rng::keyed(&["csi-init", boot_id, &generation.to_string()]) }
    }
}

/// How one try ended.
enum TryOutcome {
    Done,
    Failed { error: String, timed_out: bool },
}

impl Kubelet {
    /// `waitForAPIServerForever`: one GET of the CSINode from the API server's cache.
    pub(super) fn csi_wait(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let host = h.hostname.clone();
        match self.call_with_query(h, ctx, ApiOp::GetCsiNode(host.to_string()), FROM_CACHE_QUERY) {
            Reply::Ok(_) => self.csi_try(h, ctx, 0, 0),
            Reply::Err(status) if status.code == 404 => self.csi_try(h, ctx, 0, 0),
            // The poll's next tick is already due when a GET waited for the dial timeout.
            Reply::Timeout => self.after(ctx, DIAL_TIMEOUT, KubeletTimer::CsiWait),
            Reply::Err(_) => self.after(ctx, WAIT_POLL, KubeletTimer::CsiWait),
        }
    }

    /// Try `attempt` (0–3) of call `call` (0–5) of `InitializeCSINodeWithAnnotation`.
    pub(super) fn csi_try(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, call: u8, attempt: u8) {
        let (error, timed_out) = match self.csi_try_once(h, ctx) {
            TryOutcome::Done => {
                self.cold.storage_error = None;
                return;
            }
            TryOutcome::Failed { error, timed_out } => (error, timed_out),
        };
        // A timed-out request already took the dial timeout.
        let waited = if timed_out { DIAL_TIMEOUT } else { Duration::ZERO };
        if let Some(&sleep) = TRY_SLEEPS.get(attempt as usize) {
            let d = waited + self.cold.csi.rng.jitter(sleep, JITTER);
            return self.after(ctx, d, KubeletTimer::CsiTry { call, attempt: attempt + 1 });
        }
        let err = format!("error updating CSINode annotation: {WAIT_TIMEOUT}; caused by: {error}");
        self.cold.storage_error = Some(format!("failed to initialize CSINode: {err}"));
        h.log(ctx, format!("Failed to initialize CSINode: {err}"));
        match CALL_SLEEPS.get(call as usize) {
            Some(&sleep) => {
                let d = waited + self.cold.csi.rng.jitter(sleep, JITTER);
                self.after(ctx, d, KubeletTimer::CsiTry { call: call + 1, attempt: 0 });
            }
            None => {
                h.log(ctx, format!("Failed to initialize CSINode after retrying: {WAIT_TIMEOUT}"));
                self.exit = Some("failed to initialize CSINode".into());
            }
        }
    }

    /// `tryInitializeCSINodeWithAnnotation`: GET the CSINode; if it is missing, GET the Node and
    /// POST the CSINode. An existing CSINode needs no write: both profiles migrate the same
    /// plugins, so its annotation is already the one the kubelet would set.
    fn csi_try_once(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) -> TryOutcome {
        let host = h.hostname.clone();
        let failed = |method: Method, path: &str| TryOutcome::Failed {
            error: Client::Main.error(method, path, ""),
            timed_out: true,
        };
        match self.call(h, ctx, ApiOp::GetCsiNode(host.to_string())) {
            Reply::Ok(_) => return TryOutcome::Done,
            Reply::Timeout => return failed(Method::Get, &format!("/apis/storage.k8s.io/v1/csinodes/{host}")),
            Reply::Err(status) if status.code != 404 => {
                return TryOutcome::Failed { error: status.message, timed_out: false };
            }
            Reply::Err(_) => {}
        }
        let node = match self.call(h, ctx, ApiOp::GetNode(host.to_string())) {
            Reply::Ok(Object::Node(node)) => node,
            Reply::Timeout => return failed(Method::Get, &format!("/api/v1/nodes/{host}")),
            Reply::Err(status) => return TryOutcome::Failed { error: status.message, timed_out: false },
            Reply::Ok(_) => unreachable!("GET node returns a Node"),
        };
        match self.call(h, ctx, ApiOp::Create(CsiNode::for_node(&host, &node.metadata.uid).into())) {
            Reply::Ok(_) => TryOutcome::Done,
            Reply::Timeout => failed(Method::Post, "/apis/storage.k8s.io/v1/csinodes"),
            Reply::Err(status) => TryOutcome::Failed { error: status.message, timed_out: false },
        }
    }
}
