//! A request to the API server as the log keeps it: its method, outcome, body and answer, with
//! the compact forms the frequent ones take (a renewed Lease as a [`LeaseVersion`], a Node status
//! patch without the Node it wanted when the answer gives it back, a JSON body as its text).

use std::borrow::Cow;
use std::sync::Arc;

use super::{API_SERVER, Actor, ChangeRange};
use serde::Serialize;

use crate::objects::{Lease, LeaseSpec, MicroTime, Node, Object, PodStatus, Status, Text};
use crate::shared::Shared;
use crate::time::SimTime;

/// An HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    /// The method as sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The API server answered with this HTTP status code.
    Code(u16),
    /// No answer before the client's timeout: the network to the API server is cut.
    Timeout,
}

impl Outcome {
    /// The HTTP code, if there was an answer.
    pub fn code(self) -> Option<u16> {
        match self {
            Outcome::Code(c) => Some(c),
            Outcome::Timeout => None,
        }
    }

    /// Whether the request succeeded (2xx).
    pub fn is_success(self) -> bool {
        matches!(self, Outcome::Code(200..=299))
    }
}

/// One version of a Lease, kept compactly: the last version written whole (`base`) and, when it
/// has been renewed since, the resourceVersion and `spec.renewTime` the renewal gave it. A Lease
/// renewal (100 a second in a fleet of 1,000 nodes) is stored, sent and answered as one of these,
/// so it allocates nothing; the Lease is built only when something reads it ([`LeaseVersion::lease`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LeaseVersion {
    pub base: Arc<Lease>,
    pub resource_version: u64,
    pub renew_time: Option<MicroTime>,
}

impl LeaseVersion {
    /// A version written whole.
    pub fn whole(lease: Arc<Lease>) -> LeaseVersion {
        LeaseVersion {
            resource_version: lease.metadata.resource_version,
            renew_time: lease.spec.renew_time,
            base: lease,
        }
    }

    /// `base` renewed: a new resourceVersion and renewTime, nothing else changed.
    pub fn renewed(base: Arc<Lease>, resource_version: u64, renew_time: MicroTime) -> LeaseVersion {
        LeaseVersion { base, resource_version, renew_time: Some(renew_time) }
    }

    /// The Lease (built, unless it is the version written whole).
    pub fn lease(&self) -> Arc<Lease> {
        if self.resource_version == self.base.metadata.resource_version && self.renew_time == self.base.spec.renew_time
        {
            return self.base.clone();
        }
        let mut lease = Lease::clone(&self.base);
        lease.metadata.resource_version = self.resource_version;
        lease.spec.renew_time = self.renew_time;
        Arc::new(lease)
    }
}

/// A binding's parts: the Pod's namespace, name and uid, and the node it is bound to.
#[derive(Clone, Debug, PartialEq)]
pub struct BindingParts {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub node: String,
}

/// The body a request carried.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A whole object (POST, PUT).
    Object(Object),
    /// A strategic-merge patch of a Node's status, from the version the sender read to the one it
    /// wants; the patch document is computed from the two when it is shown. `wanted` is `None`
    /// when it is `base` with the status the API server answered, as it nearly always is (nothing
    /// else wrote the Node's status between the sender's read and its patch): the log then keeps
    /// one Node a patch, not two (14,000 patches in the 1,000-node hour), and
    /// [`Request::status_patch`] builds the wanted one.
    StatusPatch { base: Object, wanted: Option<Object> },
    /// Any other JSON document (label, annotation, podCIDR and taint patches, evictions, delete
    /// options), kept as its text ([`JsonText`]).
    Json(JsonText),
    /// A strategic-merge patch of a Pod's status (the kubelet's status manager, the scheduler's
    /// and controllers' conditions): the status sent, with the uid precondition when the sender
    /// sets one (empty otherwise). The JSON document is built when it is shown ([`Body::json`]),
    /// so the log holds the status, not a JSON tree of it.
    PodStatus { uid: String, status: Shared<PodStatus> },
    /// A Pod's binding (`POST …/pods/NAME/binding`, the scheduler's): the Binding's parts, its
    /// JSON document built when it is shown ([`Body::json`]; a `serde_json` tree of it is large).
    /// (Boxed: the four names would make every request's body 56 bytes longer.)
    Binding(Box<BindingParts>),
    /// A Lease renewal (a PUT, 100 a second in a fleet of 1,000 nodes): the Lease the sender read
    /// (`base` at `resource_version`) with a new `spec.renewTime` and nothing else changed. The
    /// Lease sent is built when it is shown ([`Body::object`]), so the log holds no copy of it.
    Renewal { base: Arc<Lease>, resource_version: u64, renew_time: MicroTime },
}

/// The Node a status patch wanted, when it is the Node it read with the status answered.
fn wanted_node(read: &Node, answered: &Node) -> Node {
    Node { status: answered.status.clone(), ..Node::clone(read) }
}

impl Body {
    /// Forgets a status patch's wanted Node when `response` gives it back (see
    /// [`Body::StatusPatch`]): [`Request::status_patch`] builds the same Node from the two.
    pub(crate) fn forget_rebuildable(&mut self, response: &Response) {
        let Body::StatusPatch { base: Object::Node(read), wanted } = self else { return };
        let (Some(Object::Node(sent)), Response::Object(Object::Node(answered))) = (&*wanted, response) else {
            return;
        };
        // (Compared field by field: building the Node to compare it costs a copy a patch.)
        let rebuilt = (sent.kind, sent.api_version, &sent.metadata, &sent.spec, &sent.status)
            == (read.kind, read.api_version, &read.metadata, &read.spec, &answered.status);
        debug_assert_eq!(rebuilt, **sent == wanted_node(read, answered));
        if rebuilt {
            *wanted = None;
        }
    }

    /// The body for sending `sent`, read as `base`: a [`Body::Renewal`] when the two differ in
    /// `spec.renewTime` alone.
    pub(crate) fn renewal(base: &Arc<Lease>, sent: &Lease) -> Option<Body> {
        let renew_time = sent.spec.renew_time?;
        let same_but_renewal = sent.kind == base.kind
            && sent.api_version == base.api_version
            && sent.metadata == base.metadata
            && LeaseSpec { renew_time: base.spec.renew_time, ..sent.spec.clone() } == base.spec;
        same_but_renewal.then(|| Body::Renewal {
            base: base.clone(),
            resource_version: base.metadata.resource_version,
            renew_time,
        })
    }

    /// The whole object the body carries (POST, PUT), built for a [`Body::Renewal`].
    pub fn object(&self) -> Option<Object> {
        match self {
            Body::Object(o) => Some(o.clone()),
            Body::Renewal { base, resource_version, renew_time } => {
                let sent = LeaseVersion::renewed(base.clone(), *resource_version, *renew_time);
                Some(Object::Lease(sent.lease()))
            }
            Body::StatusPatch { .. } | Body::Json(_) | Body::PodStatus { .. } | Body::Binding(_) => None,
        }
    }

    /// The JSON document the body is, for the bodies sent as one (patches, bindings, delete
    /// options): built for a [`Body::PodStatus`] and a [`Body::Binding`] ([`Body::built_json`]),
    /// parsed from its text for a [`Body::Json`].
    pub fn json(&self) -> Option<serde_json::Value> {
        match self {
            Body::Json(text) => Some(text.value()),
            _ => self.built_json(),
        }
    }

    /// The JSON document of a [`Body::PodStatus`] or a [`Body::Binding`], built from its parts.
    /// (The page shows a [`Body::Json`] from its text, [`JsonText::as_str`], and never parses
    /// one: that keeps `serde_json`'s parser out of the wasm.)
    pub fn built_json(&self) -> Option<serde_json::Value> {
        match self {
            Body::PodStatus { uid, status } if uid.is_empty() => Some(serde_json::json!({ "status": status })),
            Body::PodStatus { uid, status } => {
                Some(serde_json::json!({ "metadata": { "uid": uid }, "status": status }))
            }
            Body::Binding(parts) => Some(serde_json::json!({
                "kind": "Binding",
                "apiVersion": "v1",
                "metadata": {
                    "name": parts.name,
                    "namespace": parts.namespace,
                    "uid": parts.uid,
                    "creationTimestamp": null,
                },
                "target": { "kind": "Node", "name": parts.node },
            })),
            Body::Object(_) | Body::StatusPatch { .. } | Body::Renewal { .. } | Body::Json(_) => None,
        }
    }
}

/// A JSON document kept as its compact text, parsed again when it is shown
/// ([`JsonText::value`]): a `serde_json::Value` of a patch like `{"spec":{"podCIDR":…}}` is a
/// tree of maps, 1,200 bytes where its text is 60 (the 1,000-node hour sends 3,000 of them).
/// The round trip is exact: the documents hold strings, integers, booleans, nulls, arrays and
/// maps, whose keys `serde_json` keeps sorted either way. The text is `serde_json`'s compact
/// form, which differs from Go's `encoding/json` only in the characters Go escapes for HTML
/// (`<`, `>`, `&`, U+2028, U+2029) and in floats, which these documents do not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonText(Box<str>);

impl JsonText {
    /// The document.
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_str(&self.0).expect("a JSON text written from a value")
    }

    /// The compact text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<serde_json::Value> for JsonText {
    fn from(value: serde_json::Value) -> JsonText {
        JsonText(value.to_string().into_boxed_str())
    }
}

/// What the API server answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// The object as stored.
    Object(Object),
    /// An error, or the `Success` of a binding or an eviction: one allocation for every answer
    /// alike (a kubelet's GETs of objects not there yet answer the same 404 again and again; see
    /// [`Log::share_status`]).
    Status(Arc<Status>),
    /// A renewed Lease as stored, kept compactly (see [`LeaseVersion`]); [`Response::object`]
    /// builds it. (Boxed: kept whole, only a few renewals carry it, and it made every answer of
    /// the 58,000 requests the 1,000-node hour keeps whole 16 bytes longer.)
    Renewal(Box<LeaseVersion>),
}

impl Response {
    /// The object answered, if any (built for a [`Response::Renewal`]).
    pub fn object(&self) -> Option<Object> {
        match self {
            Response::Object(o) => Some(o.clone()),
            Response::Renewal(version) => Some(Object::Lease(version.lease())),
            Response::Status(_) => None,
        }
    }
}

/// One request to the API server.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub seq: u64,
    /// When it was sent.
    pub t: SimTime,
    /// When its answer (or its timeout) arrived.
    pub end: SimTime,
    pub actor: Actor,
    /// The node name the sender acts for (kubelets) or about (controllers); empty if none.
    pub node: Text,
    pub method: Method,
    /// The path, without query.
    pub path: Text,
    /// The query string, without `?`, possibly empty: a constant for every frequent request (no
    /// allocation), built only for the few that carry a name or a selector (a Pod list).
    pub query: std::borrow::Cow<'static, str>,
    /// `Content-Type` of the body, if there is one.
    pub content_type: Option<ContentType>,
    pub outcome: Outcome,
    /// For failures without an answer, why the client gave up ([`Request::error`] words it).
    pub no_answer: Option<NoAnswer>,
    pub body: Option<Body>,
    pub response: Option<Response>,
    /// Indices into [`Log::changes`] of the object changes this request made.
    pub changes: ChangeRange,
}

/// A request body's `Content-Type`: one byte in the log, where a `&str` took sixteen (58,000
/// requests are kept whole in the 1,000-node hour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentType {
    Json,
    StrategicMergePatch,
    MergePatch,
}

impl ContentType {
    /// The header's value.
    pub fn as_str(self) -> &'static str {
        match self {
            ContentType::Json => "application/json",
            ContentType::StrategicMergePatch => "application/strategic-merge-patch+json",
            ContentType::MergePatch => "application/merge-patch+json",
        }
    }
}

/// What a request is at a glance: when it was sent, by whom, its method, path and outcome. The log's
/// compact rows give it without building the request ([`Requests::heads_from`]): the page asks
/// it of every request the log gains (routine or not, `view::session::is_routine`; its class on
/// the timeline's track).
///
/// [`Requests::heads_from`]: super::Requests::heads_from
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head<'a> {
    pub t: SimTime,
    pub actor: &'a Actor,
    pub method: Method,
    pub path: &'a str,
    pub outcome: Outcome,
}

impl Request {
    /// The request at a glance.
    pub fn head(&self) -> Head<'_> {
        Head { t: self.t, actor: &self.actor, method: self.method, path: &self.path, outcome: self.outcome }
    }

    /// A Node status patch's base and wanted Nodes (see [`Body::StatusPatch`]).
    pub fn status_patch(&self) -> Option<(&Object, Cow<'_, Object>)> {
        let Some(Body::StatusPatch { base, wanted }) = &self.body else { return None };
        if let Some(wanted) = wanted {
            return Some((base, Cow::Borrowed(wanted)));
        }
        match (base, &self.response) {
            (Object::Node(read), Some(Response::Object(Object::Node(answered)))) => {
                Some((base, Cow::Owned(Object::Node(Arc::new(wanted_node(read, answered))))))
            }
            _ => None,
        }
    }

    /// For a failure without an answer, the client-side error text, as client-go words it.
    pub fn error(&self) -> Option<String> {
        self.no_answer.map(|why| why.error(self.method, &self.path, &self.query))
    }
}

/// Why a request got no answer: the API server could not be reached, and the client gave up.
/// The log keeps the reason, not the text (a dark zone's kubelets fail 90,000 requests in
/// twenty minutes), and [`NoAnswer::error`] words it when it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoAnswer {
    /// The request's deadline passed (the kubelet's heartbeat client): `context deadline
    /// exceeded`.
    Deadline,
    /// The TCP dial timed out (the kubelet's main client): `dial tcp …: i/o timeout`.
    Dial,
}

impl NoAnswer {
    /// The error of a request to an unreachable API server, as client-go words it.
    pub fn error(self, method: Method, path: &str, query: &str) -> String {
        let verb = match method {
            Method::Get => "Get",
            Method::Post => "Post",
            Method::Put => "Put",
            Method::Patch => "Patch",
            Method::Delete => "Delete",
        };
        let q = if query.is_empty() { "" } else { "?" };
        let server = API_SERVER;
        match self {
            NoAnswer::Deadline => format!("{verb} \"{server}{path}{q}{query}\": context deadline exceeded"),
            NoAnswer::Dial => {
                let host = server.trim_start_matches("https://");
                format!("{verb} \"{server}{path}{q}{query}\": dial tcp {host}: i/o timeout")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::NodeAddress;
    use crate::time::WallTime;

    fn read_lease() -> Arc<Lease> {
        let mut lease = Lease::new("kube-node-lease", "node-1");
        lease.metadata.resource_version = 1_234;
        lease.spec.holder_identity = Some("node-1".into());
        lease.spec.lease_duration_seconds = Some(40);
        lease.spec.renew_time = Some(MicroTime(WallTime(1_000_000)));
        Arc::new(lease)
    }

    #[test]
    fn a_renewal_is_recorded_compactly_and_builds_the_lease_sent() {
        let base = read_lease();
        let mut sent = Lease::clone(&base);
        sent.spec.renew_time = Some(MicroTime(WallTime(11_000_123)));
        let body = Body::renewal(&base, &sent).expect("only renewTime differs");
        assert!(
            matches!(&body, Body::Renewal { renew_time, resource_version: 1_234, .. } if *renew_time == MicroTime(WallTime(11_000_123)))
        );
        assert_eq!(body.object(), Some(Object::Lease(Arc::new(sent))));
    }

    #[test]
    fn a_put_changing_more_than_renew_time_is_not_a_renewal() {
        let base = read_lease();
        let mut duration = Lease::clone(&base);
        duration.spec.renew_time = Some(MicroTime(WallTime(11_000_000)));
        duration.spec.lease_duration_seconds = Some(50);
        assert_eq!(Body::renewal(&base, &duration), None);
        let mut owned = Lease::clone(&base);
        owned.spec.renew_time = Some(MicroTime(WallTime(11_000_000)));
        owned.metadata.owner_references = vec![crate::objects::OwnerReference {
            api_version: "v1".into(),
            kind: "Node".into(),
            name: "node-1".into(),
            uid: "u".into(),
            controller: None,
            block_owner_deletion: None,
        }]
        .into();
        assert_eq!(Body::renewal(&base, &owned), None);
        let mut cleared = Lease::clone(&base);
        cleared.spec.renew_time = None;
        assert_eq!(Body::renewal(&base, &cleared), None);
    }

    /// A status patch keeps the Node it wanted only when the answer does not give it back.
    #[test]
    fn a_status_patch_keeps_its_wanted_node_only_when_the_answer_does_not_rebuild_it() {
        let address = |ip: &str| NodeAddress { type_: "InternalIP".into(), address: ip.into() };
        let read = Node::new("node-1");
        let mut wanted = read.clone();
        wanted.status.addresses = Shared::new(vec![address("10.0.0.7")]);
        let request = |answered: &Node| {
            let mut body = Body::StatusPatch {
                base: Object::Node(Arc::new(read.clone())),
                wanted: Some(Object::Node(Arc::new(wanted.clone()))),
            };
            let response = Response::Object(Object::Node(Arc::new(answered.clone())));
            body.forget_rebuildable(&response);
            Request {
                seq: 1,
                t: SimTime::ZERO,
                end: SimTime::ZERO,
                actor: Actor::Kubelet("node-1".into()),
                node: Text::default(),
                method: Method::Patch,
                path: "/api/v1/nodes/node-1/status".into(),
                query: "".into(),
                content_type: Some(ContentType::StrategicMergePatch),
                outcome: Outcome::Code(200),
                no_answer: None,
                body: Some(body),
                response: Some(response),
                changes: ChangeRange::default(),
            }
        };
        // Stored as sent, with a new resourceVersion and a label another writer added meanwhile.
        let mut stored = wanted.clone();
        stored.metadata.resource_version += 1;
        stored.metadata.labels.insert("team".into(), "a".into());
        let r = request(&stored);
        assert!(matches!(&r.body, Some(Body::StatusPatch { wanted: None, .. })), "rebuilt from the answer");
        let (base, rebuilt) = r.status_patch().expect("a status patch");
        assert_eq!((base, &*rebuilt), (&Object::Node(Arc::new(read.clone())), &Object::Node(Arc::new(wanted.clone()))));
        // Another writer changed the status meanwhile: the answer is not what was sent.
        let mut merged = stored.clone();
        merged.status.addresses = Shared::new(vec![address("10.0.0.7"), address("10.0.0.8")]);
        let r = request(&merged);
        assert!(matches!(&r.body, Some(Body::StatusPatch { wanted: Some(_), .. })), "kept");
        assert_eq!(r.status_patch().expect("a status patch").1.into_owned(), Object::Node(Arc::new(wanted.clone())));
    }

    #[test]
    fn a_json_body_is_kept_as_its_text_and_read_back_the_same() {
        let patch = serde_json::json!({
            "spec": { "taints": [{ "key": "node.kubernetes.io/unreachable", "effect": "NoExecute",
                                    "timeAdded": "2026-03-02T09:00:00Z" }], "podCIDRs": ["10.244.1.0/24"] },
            "metadata": { "labels": { "b": "2", "a": null } },
            "gracePeriodSeconds": 30,
            "unschedulable": true
        });
        let text = JsonText::from(patch.clone());
        assert_eq!(text.value(), patch);
        assert!(
            text.as_str().starts_with("{\"gracePeriodSeconds\":30,\"metadata\":{\"labels\":{\"a\":null"),
            "{}",
            text.as_str()
        );
        assert_eq!(Body::Json(text).json(), Some(patch));
    }
}
