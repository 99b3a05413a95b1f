//! The context a component acts through: its only way to reach the rest of the world.
//!
//! A component (a machine's kubelet, a controller, the scheduler) is driven by the router
//! ([`crate::world::World`]) through a small set of inputs (`on_timer`, `on_change`, the
//! reader's actions), and everything it does goes through a [`Ctx`]: requests to the API server
//! (answered at once, and logged), reads of the API server's store (its informer cache), Events,
//! log lines, and new timers of its own type `T`. The timers are an out-buffer: the router files
//! them into its queue after the input has been handled, under the sequence numbers they were
//! given when asked for, so their order is the order they were asked in.
//!
//! Nothing here knows which components exist.

use std::sync::Arc;
use std::time::Duration;

use super::apiserver::{Answer, ApiOp, ApiServer, Caller, Exec};
use super::objects::{ContainerImage, EventVersion, Kind, Object, ObjectReference, Status, Text};
use super::profile::Profile;
use super::record::{
    Actor, ChangeRange, ChangeType, EventRecord, Log, LogLine, Method, NoAnswer, Outcome, Request, Response, Severity,
};
use super::rng::Rng;
use super::settings::Settings;
use super::time::{SimTime, WallTime, millis};
use super::vecmap::VecMap;

pub use super::record::API_SERVER;

/// The answer a component got.
#[derive(Clone, Debug)]
pub(crate) enum Reply {
    Ok(Object),
    Err(Status),
    /// No answer: the network is cut; the sender waited its whole timeout.
    Timeout,
}

impl Reply {
    pub(crate) fn ok(self) -> Option<Object> {
        match self {
            Reply::Ok(o) => Some(o),
            _ => None,
        }
    }
}

/// A kubelet sending from its machine: it authenticates as its node, and its network may be cut.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sender<'a> {
    pub(crate) hostname: &'a str,
    pub(crate) network_cut: bool,
    pub(crate) client: Client,
    /// The bootstrap token's id, while the kubelet has only its bootstrap kubeconfig.
    pub(crate) bootstrap: Option<&'a str>,
}

/// Which of the kubelet's two API clients sends a request: what a cut network does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Client {
    /// The heartbeat client (node status, Lease): a request deadline of this long
    /// (`context deadline exceeded`).
    Heartbeat(Duration),
    /// The main client: no request deadline; a cut network fails the TCP dial after
    /// `net.Dialer`'s 30 s (`dial tcp …: i/o timeout`).
    Main,
}

/// The dial timeout of the kubelet's main client (`net.Dialer{Timeout: 30 * time.Second}`).
pub(crate) const DIAL_TIMEOUT: Duration = Duration::from_secs(30);

impl Client {
    /// How long a request to an unreachable API server waits before it fails.
    pub(crate) fn timeout(self) -> Duration {
        match self {
            Client::Heartbeat(d) => d,
            Client::Main => DIAL_TIMEOUT,
        }
    }

    /// Why a request to an unreachable API server fails.
    pub(crate) fn no_answer(self) -> NoAnswer {
        match self {
            Client::Heartbeat(_) => NoAnswer::Deadline,
            Client::Main => NoAnswer::Dial,
        }
    }

    /// The error of a request to an unreachable API server, as client-go words it.
    pub(crate) fn error(self, method: Method, path: &str, query: &str) -> String {
        self.no_answer().error(method, path, query)
    }
}

/// What the router learns from the requests of one input: which Nodes and Pods changed (the
/// watch events its reconcile pass delivers), and the timer sequence shared by every component.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bus {
    /// The last timer sequence number handed out.
    pub(crate) timer_seq: u64,
    /// Nodes changed since the last reconcile pass.
    pub(crate) dirty_nodes: VecMap<String, ()>,
    /// Whether a Pod changed since the last reconcile pass.
    pub(crate) dirty_pods: bool,
    /// The Pods changed since the last reconcile pass.
    pub(crate) changed_pods: VecMap<(String, String), ()>,
    /// Whether a CertificateSigningRequest changed since the last reconcile pass.
    pub(crate) dirty_csrs: bool,
    /// The nodes whose bound Pods changed since the last reconcile pass.
    pub(crate) pod_nodes: VecMap<String, ()>,
    /// Whether the next reconcile pass is a resync (every object counts as changed).
    pub(crate) resync: bool,
    /// Whether a reconcile pass is already due.
    pub(crate) reconcile_pending: bool,
    /// A reconcile pass asked for by this input: when, and its timer sequence number.
    pub(crate) reconcile_at: Option<(SimTime, u64)>,
    /// The Unix nanoseconds in the name of the last Event created.
    pub(crate) last_event_nanos: i64,
    /// A request's path as it is built ([`ApiOp::route_into`]), kept to be reused.
    pub(crate) path: String,
    /// The image list a pull last made ([`Io::share_images`]).
    images: Option<Arc<Vec<ContainerImage>>>,
}

impl Bus {
    /// The next timer sequence number.
    pub(crate) fn next_seq(&mut self) -> u64 {
        self.timer_seq += 1;
        self.timer_seq
    }
}

/// The timer type of a component that asks for no timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoTimer {}

/// What a reconcile pass delivers: the Nodes and Pods that changed since the last one (as watch
/// events would), or everything (a resync).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Changes<'a> {
    pub(crate) nodes: &'a VecMap<String, ()>,
    pub(crate) pods: &'a VecMap<(String, String), ()>,
    /// A resync: every object counts as changed.
    pub(crate) all: bool,
}

/// A timer a component asked for: when, its sequence number, and the component's own timer.
pub(crate) type Wake<T> = (SimTime, u64, T);

/// One component's view of the world while it handles one input: everything in [`Io`] (through
/// `Deref`), and the timers of its own type `T` it asks for.
pub(crate) struct Ctx<'a, T> {
    io: Io<'a>,
    timers: Timers<T>,
}

/// The timers one input asks for, in the order asked. Most inputs ask for one (a loop's next
/// round), which is kept without allocating.
pub(crate) struct Timers<T> {
    first: Option<Wake<T>>,
    rest: Vec<Wake<T>>,
}

impl<T> Timers<T> {
    fn push(&mut self, wake: Wake<T>) {
        if self.first.is_none() {
            self.first = Some(wake);
        } else {
            self.rest.push(wake);
        }
    }
}

impl<T> IntoIterator for Timers<T> {
    type Item = Wake<T>;
    type IntoIter = std::iter::Chain<std::option::IntoIter<Wake<T>>, std::vec::IntoIter<Wake<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.first.into_iter().chain(self.rest)
    }
}

/// The part of a [`Ctx`] that does not depend on the component's timer type: requests, reads,
/// Events, log lines. Kept apart so that its code is compiled once, not once per component.
pub(crate) struct Io<'a> {
    /// The instant the input happens at.
    pub(crate) now: SimTime,
    /// The wall-clock instant `T+00:00` stands for.
    pub(crate) epoch: WallTime,
    pub(crate) profile: Profile,
    /// The Kubernetes settings the cluster runs with.
    pub(crate) settings: &'a Settings,
    /// The seeded generator (every draw is part of the output's determinism).
    pub(crate) rng: &'a mut Rng,
    api: &'a mut ApiServer,
    log: &'a mut Log,
    bus: &'a mut Bus,
}

impl<'a, T> std::ops::Deref for Ctx<'a, T> {
    type Target = Io<'a>;
    fn deref(&self) -> &Io<'a> {
        &self.io
    }
}

impl<'a, T> std::ops::DerefMut for Ctx<'a, T> {
    fn deref_mut(&mut self) -> &mut Io<'a> {
        &mut self.io
    }
}

impl<'a, T> Ctx<'a, T> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        now: SimTime,
        epoch: WallTime,
        profile: Profile,
        settings: &'a Settings,
        rng: &'a mut Rng,
        api: &'a mut ApiServer,
        log: &'a mut Log,
        bus: &'a mut Bus,
    ) -> Ctx<'a, T> {
        Ctx {
            io: Io { now, epoch, profile, settings, rng, api, log, bus },
            timers: Timers { first: None, rest: Vec::new() },
        }
    }

    /// The timers asked for, in the order they were asked for.
    pub(crate) fn finish(self) -> Timers<T> {
        self.timers
    }

    /// Asks for `timer` at `at` (never before now).
    pub(crate) fn at(&mut self, at: SimTime, timer: T) {
        let seq = self.io.bus.next_seq();
        let now = self.io.now;
        self.timers.push((at.max(now), seq, timer));
    }

    /// Asks for `timer` after `d`.
    pub(crate) fn after(&mut self, d: Duration, timer: T) {
        let now = self.io.now;
        self.at(now + d, timer);
    }
}

impl Io<'_> {
    /// `images`, or the equal list a machine's pull made before (a fleet's machines pull the same
    /// image onto the same list): one list for them all.
    pub(crate) fn share_images(&mut self, images: Arc<Vec<ContainerImage>>) -> Arc<Vec<ContainerImage>> {
        match &self.bus.images {
            Some(kept) if **kept == *images => kept.clone(),
            _ => self.bus.images.insert(images).clone(),
        }
    }

    /// The wall-clock time now.
    pub(crate) fn wall(&self) -> WallTime {
        self.wall_at(self.now)
    }

    /// The wall-clock time of instant `t`.
    pub(crate) fn wall_at(&self, t: SimTime) -> WallTime {
        self.epoch + t.since_start()
    }

    /// The API server's store, read as an informer cache reads it.
    pub(crate) fn store(&self) -> &ApiServer {
        self.api
    }

    /// The Unix nanoseconds a new Event at `at` is named by (`<object>.<hex nanos>`): random
    /// below the microsecond, but increasing in write order within one instant, as the real
    /// clock read at each `makeEvent` is.
    pub(crate) fn event_nanos(&mut self, at: WallTime) -> i64 {
        let mut nanos = at.0 * 1000 + self.rng.below(1000) as i64;
        let last = self.bus.last_event_nanos;
        if last >= nanos && last / 1_000_000 == at.0 / 1000 {
            // A few nanoseconds on from the last, from the same draw (no extra draw: the rest of
            // the run stays as it was).
            nanos = last + 1 + nanos % 50;
        }
        self.bus.last_event_nanos = nanos;
        nanos
    }

    /// Records a log line at Info severity.
    pub(crate) fn log_line(&mut self, actor: Actor, message: String) {
        self.log_line_at(actor, Severity::Info, message);
    }

    /// Records how many requests `actor` has waiting for its client's tokens from now on.
    pub(crate) fn note_backlog(&mut self, actor: Actor, waiting: u32) {
        let t = self.now;
        self.log.backlogs.push(super::record::Backlog { t, actor, waiting });
    }

    /// Records a log line at `severity`.
    pub(crate) fn log_line_at(&mut self, actor: Actor, severity: Severity, message: String) {
        let seq = self.log.seq();
        self.log.lines.push(LogLine { seq, t: self.now, actor, severity, message: message.into_boxed_str() });
    }

    /// The stored Event object `namespace/name`, if any. Events live in the log only (the store
    /// does not keep them): its latest version is the stored one.
    pub(crate) fn stored_event(&self, namespace: &str, name: &str) -> Option<Arc<EventVersion>> {
        let change = self.log.version_of_at(Kind::Event, namespace, name, self.now)?;
        change.event_version().cloned()
    }

    /// The key of an object the log holds versions of, shared with the log.
    pub(crate) fn object_key(&self, kind: Kind, namespace: &str, name: &str) -> Arc<super::objects::ObjectKey> {
        let key = self.log.shared_key(kind, namespace, name);
        key.unwrap_or_else(|| Arc::new(super::objects::ObjectKey::namespaced(kind, namespace, name)))
    }

    /// Stores an Event object (events are written by a recorder, not through [`ApiOp`]).
    pub(crate) fn store_event(&mut self, event: EventVersion, change: ChangeType) -> Arc<EventVersion> {
        let wall = self.wall();
        let mut exec = Exec { now: self.now, wall, log: self.log, rng: self.rng, request: None, renewal: false };
        self.api.store_event(&mut exec, event, change)
    }

    /// An Event's involved object, kept once in the log however many Events name it.
    pub(crate) fn share_reference(&mut self, object: ObjectReference) -> Arc<ObjectReference> {
        self.log.share_reference(object)
    }

    /// An Event's message, kept once in the log however many Events carry it.
    pub(crate) fn share_message(&mut self, message: String) -> Arc<str> {
        self.log.share_message(message)
    }

    /// Records that an Event was written (the timeline's Events track).
    pub(crate) fn push_event_record(&mut self, make: impl FnOnce(u64) -> EventRecord) {
        self.log.push_event_record(make);
    }

    /// Sends one request to the API server, records it, and returns the answer.
    ///
    /// `from` is the kubelet that sends it (its network may be cut); control-plane components
    /// pass `None`.
    pub(crate) fn call(&mut self, actor: Actor, from: Option<Sender<'_>>, op: ApiOp) -> Reply {
        self.call_with(actor, from, op, "")
    }

    /// [`Ctx::call`] with a query string (the heartbeat client adds `timeout=10s`).
    pub(crate) fn call_with(
        &mut self,
        actor: Actor,
        from: Option<Sender<'_>>,
        op: ApiOp,
        query: &'static str,
    ) -> Reply {
        match self.send(actor, from, op, query) {
            Ok(Answer::Object(o)) => Reply::Ok(o),
            Ok(Answer::Renewed(version, _)) => Reply::Ok(Object::Lease(version.lease())),
            Err(reply) => reply,
        }
    }

    /// [`Ctx::call_with`], with the answer as the API server gave it: a Lease renewal's compactly,
    /// so that renewing builds no Lease. A failure is the [`Reply`] to act on.
    // The failure is the `Reply` that `call_with` returns by value anyway.
    #[allow(clippy::result_large_err)]
    pub(crate) fn send(
        &mut self,
        actor: Actor,
        from: Option<Sender<'_>>,
        op: ApiOp,
        query: &'static str,
    ) -> Result<Answer, Reply> {
        if let ApiOp::RenewLease { read, renew_time, slot } = &op
            && let Some(s) = from
            && !s.network_cut
            && let Some(entry) = self.log.requests.renewal_entry(&read.base, &actor, query)
        {
            let (read, renew_time, slot) = (read.clone(), *renew_time, *slot);
            return self.renew(actor, s, (read, renew_time, slot), query, entry);
        }
        let seq = self.log.seq();
        let mut request = self.request(seq, actor, from, &op, query);
        if let Some(s) = from
            && s.network_cut
        {
            request.end = self.now + s.client.timeout();
            request.outcome = Outcome::Timeout;
            request.no_answer = Some(s.client.no_answer());
            self.log.requests.push(request);
            return Err(Reply::Timeout);
        }
        let first_change = self.log.changes().len();
        // Subresources that answer 201 with a `Success` Status (binding, eviction).
        let is_bind = matches!(op, ApiOp::BindPod { .. } | ApiOp::EvictPod { .. });
        // Every POST answers 201: a create, or one of those subresources.
        let created = request.method == Method::Post;
        let result = self.execute(from, op);
        self.finish(request, first_change, result, created, is_bind)
    }

    /// A Lease renewal whose request is kept as a row of entry `entry` of the log's requests
    /// (the kubelet's renewals but the first of each Lease version written whole): answered and
    /// kept without building its path or its [`Request`]. Anything but a plain success is kept
    /// whole, as [`Ctx::send`] keeps every other request.
    #[allow(clippy::result_large_err)]
    fn renew(
        &mut self,
        actor: Actor,
        from: Sender<'_>,
        (read, renew_time, slot): (super::record::LeaseVersion, super::objects::MicroTime, u32),
        query: &'static str,
        entry: u32,
    ) -> Result<Answer, Reply> {
        let seq = self.log.seq();
        let first_change = self.log.changes().len();
        let t = self.now;
        let result = self.execute(Some(from), ApiOp::RenewLease { read: read.clone(), renew_time, slot });
        match result {
            Ok(Answer::Renewed(stored, found))
                if self.log.changes().len() == first_change + 1
                    && Arc::ptr_eq(&stored.base, &read.base)
                    && stored.renew_time == Some(renew_time)
                    // Kept as a row if it fits one (else whole, below).
                    && self.log.requests.push_renewal(
                        seq,
                        t,
                        read.resource_version,
                        &stored,
                        entry,
                        first_change as u32,
                    ) =>
            {
                #[cfg(debug_assertions)]
                {
                    let mut whole =
                        self.request(seq, actor, Some(from), &ApiOp::RenewLease { read, renew_time, slot }, query);
                    whole.outcome = Outcome::Code(200);
                    whole.response = Some(Response::Renewal(Box::new(stored.clone())));
                    whole.changes = ChangeRange::new(first_change as u32, first_change as u32 + 1);
                    assert_eq!(self.log.requests.last_renewal(), Some(whole), "a renewal row keeps its request");
                    let version = self.log.changes().at(first_change);
                    assert_eq!(
                        (version.seq, version.t, version.request),
                        (seq + 1, t, Some(self.log.requests.len() as u32 - 1))
                    );
                    assert_eq!(version.object(), Object::Lease(stored.lease()), "the row keeps the renewal's version");
                }
                Ok(Answer::Renewed(stored, found))
            }
            result => {
                let request =
                    self.request(seq, actor, Some(from), &ApiOp::RenewLease { read, renew_time, slot }, query);
                self.finish(request, first_change, result, false, false)
            }
        }
    }

    /// The request `actor` makes with `op`, before it is answered: its route, its body, the node
    /// it is for.
    fn request(
        &mut self,
        seq: u64,
        actor: Actor,
        from: Option<Sender<'_>>,
        op: &ApiOp,
        query: &'static str,
    ) -> Request {
        let method = op.route_into(&mut self.bus.path);
        let (body, content_type) = match op.body() {
            Some((b, c)) => (Some(b), Some(c)),
            None => (None, None),
        };
        let node: Option<&str> = match op {
            ApiOp::CreateNode(n) | ApiOp::UpdateNodeStatus(n) => Some(&n.metadata.name),
            ApiOp::PatchNodeStatus { wanted, .. } => Some(&wanted.metadata.name),
            ApiOp::GetNode(n)
            | ApiOp::PatchNodeLabels { name: n, .. }
            | ApiOp::PatchNodeTaints { name: n, .. }
            | ApiOp::PatchNodeUnschedulable { name: n, .. } => Some(n),
            ApiOp::GetLease(n)
            | ApiOp::DeleteNode(n)
            | ApiOp::DeleteLease { name: n, .. }
            | ApiOp::DeleteCsiNode { name: n, .. } => Some(n),
            ApiOp::CreateLease(l) => Some(&l.metadata.name),
            ApiOp::UpdateLease { lease: l, .. } => Some(&l.metadata.name),
            ApiOp::RenewLease { read, .. } => Some(&read.base.metadata.name),
            ApiOp::BindPod { node, .. } => Some(node),
            _ => from.map(|s| s.hostname),
        };
        let node = node.map_or_else(Text::default, |n| self.log.intern(n));
        let path = self.log.intern(&self.bus.path);
        Request {
            seq,
            t: self.now,
            end: self.now,
            actor,
            node,
            method,
            path,
            query: query.into(),
            content_type,
            outcome: Outcome::Code(0),
            no_answer: None,
            body,
            response: None,
            changes: ChangeRange::default(),
        }
    }

    /// Runs `op` through the API server, as sent by `from` (a kubelet) or by the control plane.
    fn execute(&mut self, from: Option<Sender<'_>>, op: ApiOp) -> super::apiserver::ApiResult {
        let idx = self.log.requests.len() as u32;
        let caller = match from {
            Some(Sender { bootstrap: Some(id), .. }) => Caller::Bootstrap(id),
            Some(s) => Caller::Node(s.hostname),
            None => Caller::Trusted,
        };
        let wall = self.wall();
        // A renewal's request is kept as soon as it is answered (`Io::renew`, `Io::finish`).
        let renewal = matches!(op, ApiOp::RenewLease { .. });
        let mut exec = Exec { now: self.now, wall, log: self.log, rng: self.rng, request: Some(idx), renewal };
        self.api.execute(&mut exec, caller, op)
    }

    /// Notes what the answered `request` changed (the watched kinds call for a reconcile pass),
    /// records its answer, and keeps it.
    #[allow(clippy::result_large_err)]
    fn finish(
        &mut self,
        mut request: Request,
        first_change: usize,
        result: super::apiserver::ApiResult,
        created: bool,
        is_bind: bool,
    ) -> Result<Answer, Reply> {
        let changes = ChangeRange::new(first_change as u32, self.log.changes().len() as u32);
        let mut watched = false;
        for c in changes.iter() {
            // (A renewal's version is kept by its request, kept below; it is not watched.)
            let Some(change) = self.log.whole_change(c as usize) else { continue };
            match change.kind() {
                Kind::Node => {
                    watched = true;
                    self.bus.dirty_nodes.add(change.name().to_string());
                }
                Kind::CertificateSigningRequest => {
                    watched = true;
                    self.bus.dirty_csrs = true;
                }
                Kind::Pod => {
                    watched = true;
                    self.bus.dirty_pods = true;
                    if let Object::Pod(pod) = change.object() {
                        let meta = &pod.metadata;
                        self.bus.changed_pods.add((meta.namespace.to_string(), meta.name.to_string()));
                        if !pod.spec.node_name.is_empty() {
                            self.bus.pod_nodes.add(pod.spec.node_name.clone());
                        }
                    }
                }
                _ => {}
            }
        }
        // Only Node and Pod changes are watched (the node lifecycle controller reads Leases in its
        // monitor pass).
        if watched {
            self.reconcile_soon();
        }
        request.changes = changes;
        let reply = match result {
            Ok(Answer::Object(obj)) => {
                request.outcome = Outcome::Code(if created { 201 } else { 200 });
                request.response = Some(if is_bind {
                    Response::Status(self.log.share_status(&Status::success(201)))
                } else {
                    Response::Object(obj.clone())
                });
                Ok(Answer::Object(obj))
            }
            Ok(Answer::Renewed(version, slot)) => {
                request.outcome = Outcome::Code(200);
                request.response = Some(Response::Renewal(Box::new(version.clone())));
                Ok(Answer::Renewed(version, slot))
            }
            Err(status) => {
                request.outcome = Outcome::Code(status.code);
                request.response = Some(Response::Status(self.log.share_status(&status)));
                Err(Reply::Err(*status))
            }
        };
        if let (Some(body), Some(response)) = (&mut request.body, &request.response) {
            body.forget_rebuildable(response);
        }
        self.log.requests.push(request);
        reply
    }

    /// Logs a read the API server answers with a list or a discovery document, which the log does
    /// not keep (`GET /api/v1/pods?fieldSelector=…`, `GET /api/v1`): a 200 with no body. The
    /// reader reads the same store through [`Ctx::store`] at the same instant.
    pub(crate) fn log_read(&mut self, actor: Actor, path: String, query: impl Into<std::borrow::Cow<'static, str>>) {
        self.log_answer(actor, &path, query, 200);
    }

    /// `DELETE` of a ClusterRoleBinding (only kubeadm's `nodeclient` binding exists here, as a
    /// flag of the API server's RBAC), and the wait's GET after it (404): `Err` with the
    /// NotFound message when there is no such binding.
    pub(crate) fn delete_cluster_role_binding(&mut self, actor: Actor, name: &str) -> Result<(), String> {
        let path = format!("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/{name}");
        let exists = name == super::apiserver::NODE_AUTOAPPROVE_BINDING && !self.api.nodeclient_unbound;
        let body = serde_json::json!({ "propagationPolicy": "Background" });
        let code = if exists { 200 } else { 404 };
        self.log_unstored(actor.clone(), Method::Delete, &path, "".into(), Some(body), code, None);
        let not_found = format!("clusterrolebindings.rbac.authorization.k8s.io \"{name}\" not found");
        if !exists {
            return Err(not_found);
        }
        self.api.nodeclient_unbound = true;
        self.log_answer(actor, &path, "", 404);
        Ok(())
    }

    /// Logs a `GET` of a path that is no object's (`/healthz`) and its answer's code.
    pub(crate) fn log_answer(
        &mut self,
        actor: Actor,
        path: &str,
        query: impl Into<std::borrow::Cow<'static, str>>,
        code: u16,
    ) {
        self.log_unstored(actor, Method::Get, path, query.into(), None, code, None);
    }

    /// Logs a `GET` of a subresource that is no stored object (`pods/log`), answered with the
    /// failure `status`.
    pub(crate) fn log_failed_read(&mut self, actor: Actor, path: &str, query: String, status: Status) {
        self.log_failed(actor, Method::Get, path, query, status);
    }

    /// Logs a `POST` to a subresource that is no stored object (`pods/exec`, SPDY's upgrade),
    /// answered with the failure `status`.
    pub(crate) fn log_failed_call(&mut self, actor: Actor, path: &str, query: String, status: Status) {
        self.log_failed(actor, Method::Post, path, query, status);
    }

    fn log_failed(&mut self, actor: Actor, method: Method, path: &str, query: String, status: Status) {
        let response = super::record::Response::Status(self.log.share_status(&status));
        self.log_unstored(actor, method, path, query.into(), None, status.code, Some(response));
    }

    /// Logs a create the API server answers with an object that is not stored, which the log
    /// does not keep (a SubjectAccessReview: `POST` with its body, a 201 whose answer is the
    /// review with `status.allowed`).
    pub(crate) fn log_create(&mut self, actor: Actor, path: &str, body: serde_json::Value) {
        self.log_unstored(actor, Method::Post, path, "".into(), Some(body), 201, None);
    }

    /// Logs a request that changes no stored object, with its JSON body if it has one, its
    /// answer's code, and the answer's body when the log keeps one (a failure's status).
    #[allow(clippy::too_many_arguments)]
    fn log_unstored(
        &mut self,
        actor: Actor,
        method: Method,
        path: &str,
        query: std::borrow::Cow<'static, str>,
        body: Option<serde_json::Value>,
        code: u16,
        response: Option<super::record::Response>,
    ) {
        let seq = self.log.seq();
        let path = self.log.intern(path);
        self.log.requests.push(Request {
            seq,
            t: self.now,
            end: self.now,
            actor,
            node: Text::default(),
            method,
            path,
            query,
            content_type: body.is_some().then_some(super::record::ContentType::Json),
            outcome: Outcome::Code(code),
            no_answer: None,
            body: body.map(|b| super::record::Body::Json(b.into())),
            response,
            changes: ChangeRange::default(),
        });
    }

    /// Asks for a reconcile pass, as a watch event would.
    fn reconcile_soon(&mut self) {
        if !self.bus.reconcile_pending {
            self.bus.reconcile_pending = true;
            let seq = self.bus.next_seq();
            self.bus.reconcile_at = Some((self.now + millis(1), seq));
        }
    }
}
