//! What the simulation produces: a log of requests, object changes, Kubernetes Events, kubelet
//! log lines and applied inputs, each stamped with simulated time and a global sequence number.
//!
//! Every list is in time order, and `seq` orders entries across lists. The log also indexes every
//! object's versions by key, so the state of the cluster at any instant can be read without
//! running the simulation again (see [`crate::Snapshot`]).

use std::borrow::{Borrow, Cow};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use super::action::{Action, Refusal};
use super::chunked::Chunked;
use super::machine::MachineView;
pub use super::objects::ChangeType;
use super::objects::{EventVersion, Kind, Object, ObjectKey, ObjectReference, Status, Text};
use super::time::SimTime;

mod actor;
mod backlog;
mod bits;
mod changes;
mod log_line;
mod places;
mod request;
mod requests;
pub use actor::Actor;
pub use backlog::Backlog;
use changes::ChangeList;
pub use changes::{Changes, Iter as ChangesIter};
pub use log_line::{LogLine, Severity};
pub use request::{
    BindingParts, Body, ContentType, Head, JsonText, LeaseVersion, Method, NoAnswer, Outcome, Request, Response,
};
pub use requests::Requests;

/// The API server's address, as kubelets and log lines name it.
pub const API_SERVER: &str = "https://10.0.0.10:6443";

/// The object changes one request made: consecutive entries of [`Log::changes`] (the API server
/// records a request's changes while it answers it, before anything else can), kept as their
/// first index and count rather than a vector apiece: a request record holds no allocation for
/// them, and 409,000 requests of the 1,000-node hour save their vectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChangeRange {
    start: u32,
    len: u32,
}

impl ChangeRange {
    /// The changes from index `start` (inclusive) to `end` (exclusive).
    pub fn new(start: u32, end: u32) -> ChangeRange {
        ChangeRange { start, len: end.saturating_sub(start) }
    }

    /// How many changes.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the request changed nothing.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The indices into [`Log::changes`], in order.
    pub fn iter(self) -> std::ops::Range<u32> {
        self.start..self.start + self.len
    }
}

/// One new version of one object (or its deletion).
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub seq: u64,
    pub t: SimTime,
    pub change: ChangeType,
    /// The object after the change; for deletions, its last version ([`Change::object`]).
    version: Version,
    /// The request that made the change, an index into [`Log::requests`].
    pub request: Option<u32>,
}

/// How a change keeps its version of the object.
#[derive(Clone, Debug, PartialEq)]
enum Version {
    Object(Object),
    /// A renewed Lease, built when read.
    Lease(LeaseVersion),
    /// An Event, built when read.
    Event(Arc<EventVersion>),
}

impl Change {
    /// A change that keeps `object` whole.
    pub fn new(seq: u64, t: SimTime, change: ChangeType, object: Object, request: Option<u32>) -> Change {
        Change { seq, t, change, version: Version::Object(object), request }
    }

    /// The object after the change; for deletions, its last version. (A renewed Lease is built
    /// here: the log keeps renewals compactly.)
    pub fn object(&self) -> Object {
        match &self.version {
            Version::Object(o) => o.clone(),
            Version::Lease(v) => Object::Lease(v.lease()),
            Version::Event(v) => Object::Event(v.shared()),
        }
    }

    /// The Event version this change keeps, if it is one.
    pub(crate) fn event_version(&self) -> Option<&Arc<EventVersion>> {
        match &self.version {
            Version::Event(v) => Some(v),
            _ => None,
        }
    }

    /// The object's kind.
    pub fn kind(&self) -> Kind {
        match &self.version {
            Version::Object(o) => o.kind(),
            Version::Lease(_) => Kind::Lease,
            Version::Event(_) => Kind::Event,
        }
    }

    /// The object's namespace and name (the same in every version).
    pub fn names(&self) -> (&str, &str) {
        let (namespace, name) = self.texts();
        (namespace, name)
    }

    /// The object's namespace and name, shared.
    fn texts(&self) -> (&Text, &Text) {
        let meta = match &self.version {
            Version::Object(o) => o.meta(),
            Version::Lease(v) => &v.base.metadata,
            Version::Event(v) => return (&v.namespace, &v.name),
        };
        (&meta.namespace, &meta.name)
    }

    /// The object's name.
    pub fn name(&self) -> &str {
        self.names().1
    }

    /// The key the object is stored under.
    pub fn key(&self) -> ObjectKey {
        // (Sharing the names with the version's metadata.)
        let (namespace, name) = self.texts();
        ObjectKey { kind: self.kind(), namespace: namespace.clone(), name: name.clone() }
    }

    /// The object's resourceVersion in this version.
    pub fn resource_version(&self) -> u64 {
        match &self.version {
            Version::Object(o) => o.meta().resource_version,
            Version::Lease(v) => v.resource_version,
            Version::Event(v) => v.resource_version,
        }
    }
}

/// A Kubernetes Event being recorded (created, or counted again). Kept small, as thousands are
/// (23,000 in the 1,000-node hour): it points at the Event's version, which holds the reason,
/// type, message and source.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRecord {
    pub seq: u64,
    pub t: SimTime,
    /// The involved object, as this occurrence named it.
    pub object: Arc<ObjectReference>,
    /// The Event after this occurrence: the version written, or for the scheduler's third and
    /// later occurrences (which its recorder does not write) the one stored.
    pub version: Arc<EventVersion>,
    /// The Event's `count` after this occurrence.
    pub count: i32,
}

impl EventRecord {
    /// The Event's reason (`Scheduled`, `NodeNotReady`, ...).
    pub fn reason(&self) -> &'static str {
        self.version.reason
    }

    /// `Normal` or `Warning`.
    pub fn type_(&self) -> &'static str {
        self.version.type_
    }

    /// The Event's message.
    pub fn message(&self) -> &str {
        &self.version.message
    }

    /// The component that reported it (`kubelet`, `node-controller`, ...).
    pub fn source(&self) -> &'static str {
        self.version.recorder.component()
    }

    /// The key of the Event object.
    pub fn key(&self) -> ObjectKey {
        ObjectKey { kind: Kind::Event, namespace: self.version.namespace.clone(), name: self.version.name.clone() }
    }
}

/// An input applied to the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedInput {
    pub seq: u64,
    pub t: SimTime,
    pub action: Action,
    /// Whether the input came from the chapter's script (rather than the reader).
    pub scripted: bool,
    /// Why the input changed nothing, if it made no sense at that moment.
    pub rejected: Option<Refusal>,
}

/// A machine's visible state from `t` on.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineRecord {
    pub seq: u64,
    pub t: SimTime,
    /// The machine's index (machines are never removed).
    pub index: usize,
    pub view: Arc<MachineView>,
}

/// Everything the simulation has produced so far.
#[derive(Clone, Debug, Default)]
pub struct Log {
    /// In chunks, as the object versions: the two lists that grow to 400,000 records an hour; a
    /// Lease renewal kept as a row of numbers ([`Requests`]).
    pub requests: Requests,
    /// The object versions, read through [`Log::changes`]: a renewal's is kept by its row.
    changes: ChangeList,
    /// The Event version last recorded by its occurrence, until the occurrence is (debug builds
    /// check that it builds the version).
    #[cfg(debug_assertions)]
    pending_event: Option<Change>,
    pub events: Chunked<EventRecord>,
    pub lines: Chunked<LogLine>,
    pub inputs: Vec<AppliedInput>,
    pub machines: Vec<MachineRecord>,
    /// How many requests a client has waiting for its rate limiter, each time that changes.
    pub backlogs: Vec<Backlog>,
    next_seq: u64,
    /// Each key's place in `history`. (A tree, not a sorted vector: thousands of Events get new
    /// keys all over the order.)
    keys: BTreeMap<Arc<ObjectKey>, usize>,
    /// Each key's place in `history` again, found by a hash of the key ([`key_hash`]): a lookup
    /// by hash instead of a walk down the tree comparing names (see [`places`]).
    by_hash: places::PlaceTable,
    /// Each object's key (one allocation, shared with `keys`) and versions.
    history: Vec<(Arc<ObjectKey>, Versions)>,
    /// The indices into `machines` of each machine's records, oldest first (a seek reads every
    /// machine: a binary search each, not a scan of every record).
    machine_history: Vec<Vec<u32>>,
    /// The places in `history` of the Pods ever bound to each node, in key order (a seek reads
    /// one node's Pods without reading every Pod). A Pod is listed under a node from the version
    /// that binds it there; its version at an instant says whether it was bound then.
    pods_by_node: BTreeMap<String, Vec<usize>>,
    /// Every path and node name a request has carried, each kept once (hashed: the paths of a
    /// fleet share long prefixes, which an ordered set compares again at every level).
    interned: rustc_hash::FxHashSet<Text>,
    /// Every Status answered, each kept once ([`Log::share_status`]).
    statuses: rustc_hash::FxHashSet<Arc<Status>>,
    /// Every Event's involved object and message, each kept once ([`Log::share_reference`],
    /// [`Log::share_message`]).
    references: rustc_hash::FxHashSet<Arc<ObjectReference>>,
    messages: rustc_hash::FxHashSet<Arc<str>>,
    /// How many times the log was cut back ([`Log::truncations`]).
    truncations: u64,
}

/// One object's versions, as indices into the log's changes, in order: kept without an allocation
/// while there is one (most of a fleet's 23,000 Events an hour are written once).
#[derive(Clone, Debug, Default)]
enum Versions {
    #[default]
    None,
    One(u32),
    Many(Vec<u32>),
}

impl Versions {
    fn push(&mut self, index: u32) {
        *self = match std::mem::take(self) {
            Versions::None => Versions::One(index),
            Versions::One(first) => Versions::Many(vec![first, index]),
            Versions::Many(mut all) => {
                all.push(index);
                Versions::Many(all)
            }
        };
    }

    /// Drops the versions from change `cut` on.
    fn cut(&mut self, cut: u32) {
        match self {
            Versions::None => {}
            Versions::One(first) if *first >= cut => *self = Versions::None,
            Versions::One(_) => {}
            Versions::Many(all) => {
                let keep = all.partition_point(|&i| i < cut);
                all.truncate(keep);
            }
        }
    }
}

impl std::ops::Deref for Versions {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        match self {
            Versions::None => &[],
            Versions::One(first) => std::slice::from_ref(first),
            Versions::Many(all) => all,
        }
    }
}

/// The lengths of a log's lists at one moment: enough to cut it back to that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LogMark {
    requests: usize,
    changes: usize,
    events: usize,
    lines: usize,
    inputs: usize,
    machines: usize,
    backlogs: usize,
    next_seq: u64,
}

impl Log {
    /// Every object version (or deletion), in order.
    pub fn changes(&self) -> Changes<'_> {
        Changes::new(&self.changes, &self.requests, &self.events)
    }

    /// Replaces version `index` with `change`, if it is kept whole (not a renewal's): for tests
    /// that check what a checker makes of an altered log.
    #[doc(hidden)]
    pub fn replace_change(&mut self, index: usize, change: Change) -> bool {
        self.changes.replace(index, change)
    }

    /// Version `index` if it is kept whole (a Node's or a Pod's always is; a renewed Lease's is
    /// kept by its request, and may be read only once the request is).
    pub(crate) fn whole_change(&self, index: usize) -> Option<&Change> {
        self.changes.whole(index)
    }

    /// `s`, kept once however many records carry it.
    pub(crate) fn intern(&mut self, s: &str) -> Text {
        if let Some(kept) = self.interned.get(s) {
            return kept.clone();
        }
        let kept = Text::from(s);
        self.interned.insert(kept.clone());
        kept
    }

    /// `status`, kept once however many answers carry it: a fleet's kubelets GET their CSINode,
    /// Node and Lease before creating them, and the same 404 comes back at every try (19,000 of
    /// the 1,000-node hour's answers are 3,000 Statuses).
    pub(crate) fn share_status(&mut self, status: &Status) -> Arc<Status> {
        if let Some(kept) = self.statuses.get(status) {
            return kept.clone();
        }
        let kept = Arc::new(status.clone());
        self.statuses.insert(kept.clone());
        kept
    }

    /// `object`, kept once however many Events name it: a kubelet's Events about one Pod's
    /// container (`Pulled`, `Created`, `Started`) or about its Node (`Starting`, the three
    /// `NodeHas…`, `NodeAllocatableEnforced`, `NodeReady`) name the same one. (15,000 of the
    /// 1,000-node hour's 23,000 Events name a reference an earlier one named; each is 200 bytes
    /// and more.)
    pub(crate) fn share_reference(&mut self, object: ObjectReference) -> Arc<ObjectReference> {
        if let Some(kept) = self.references.get(&object) {
            return kept.clone();
        }
        let kept = Arc::new(object);
        self.references.insert(kept.clone());
        kept
    }

    /// `message`, kept once however many Events carry it (`Created container: nginx`, the image's
    /// `already present on machine`).
    pub(crate) fn share_message(&mut self, message: String) -> Arc<str> {
        if let Some(kept) = self.messages.get(message.as_str()) {
            return kept.clone();
        }
        let kept: Arc<str> = message.into();
        self.messages.insert(kept.clone());
        kept
    }

    /// The next sequence number.
    pub(crate) fn seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    pub(crate) fn mark(&self) -> LogMark {
        LogMark {
            requests: self.requests.len(),
            changes: self.changes.len(),
            events: self.events.len(),
            lines: self.lines.len(),
            inputs: self.inputs.len(),
            machines: self.machines.len(),
            backlogs: self.backlogs.len(),
            next_seq: self.next_seq,
        }
    }

    /// How many times the log has been cut back (forks): what was read from it before a cut may
    /// not be in it any more.
    pub fn truncations(&self) -> u64 {
        self.truncations
    }

    /// Cuts the log back to `mark`.
    pub(crate) fn truncate(&mut self, mark: LogMark) {
        self.truncations += 1;
        self.requests.truncate(mark.requests);
        self.events.truncate(mark.events);
        self.lines.truncate(mark.lines);
        self.inputs.truncate(mark.inputs);
        self.backlogs.truncate(mark.backlogs);
        if self.machines.len() > mark.machines {
            let cut = mark.machines as u32;
            self.machines.truncate(mark.machines);
            for records in &mut self.machine_history {
                let keep = records.partition_point(|&i| i < cut);
                records.truncate(keep);
            }
        }
        self.next_seq = mark.next_seq;
        if self.changes.len() > mark.changes {
            let cut = mark.changes as u32;
            self.changes.truncate(mark.changes);
            for (_, versions) in &mut self.history {
                versions.cut(cut);
            }
        }
    }

    pub(crate) fn push_change(&mut self, t: SimTime, change: ChangeType, object: Object, request: Option<u32>) -> u32 {
        self.push_version(t, change, Version::Object(object), request)
    }

    /// Records a version of an Event (no request writes Events in the log), kept by the occurrence
    /// the caller records next ([`Log::push_event_record`]) when that can build it (see
    /// [`changes::event_change`]: `Added` exactly at the first count), whole otherwise.
    pub(crate) fn push_event(&mut self, t: SimTime, change: ChangeType, version: Arc<EventVersion>) -> u32 {
        if (change == ChangeType::Added) != (version.count == 1) || change == ChangeType::Deleted {
            return self.push_version(t, change, Version::Event(version), None);
        }
        let seq = self.seq();
        let idx = self.changes.len() as u32;
        let record = Change { seq, t, change, version: Version::Event(version), request: None };
        let slot = self.slot_of(&record);
        self.history[slot].1.push(idx);
        self.changes.push_by_event(self.events.len() as u32);
        #[cfg(debug_assertions)]
        {
            self.pending_event = Some(record);
        }
        idx
    }

    /// Records an occurrence of an Event, which wrote the version [`Log::push_event`] recorded
    /// just before, if any.
    pub(crate) fn push_event_record(&mut self, make: impl FnOnce(u64) -> EventRecord) {
        let seq = self.seq();
        let occurrence = make(seq);
        #[cfg(debug_assertions)]
        if let Some(recorded) = self.pending_event.take() {
            assert_eq!(changes::event_change(&occurrence), recorded, "an occurrence builds the version it keeps");
        }
        self.events.push(occurrence);
    }

    /// Records a renewed Lease, compactly. The Lease's place in `history` is found once for each
    /// Lease version written whole and kept with its renewal entry ([`Requests`]): a renewal
    /// (100 a second at 1,000 nodes) looks up no key.
    ///
    /// With `by_request`, the version is kept by its request, `request`, which the caller keeps
    /// next (its renewal row, or its answer if it is kept whole): 4 bytes instead of a [`Change`].
    pub(crate) fn push_renewal(
        &mut self,
        t: SimTime,
        version: LeaseVersion,
        request: Option<u32>,
        by_request: bool,
    ) -> u32 {
        let hint = self.requests.renewal_slot(&version.base);
        let seq = self.seq();
        let idx = self.changes.len() as u32;
        let record = Change { seq, t, change: ChangeType::Modified, version: Version::Lease(version), request };
        let slot = match hint {
            Some(slot) => slot,
            None => {
                let slot = self.slot_of(&record);
                if let Version::Lease(v) = &record.version {
                    self.requests.note_renewal_slot(&v.base, slot);
                }
                slot
            }
        };
        debug_assert_eq!(slot, self.slot_of(&record), "a renewal's slot is its Lease's");
        self.history[slot].1.push(idx);
        match request {
            Some(request) if by_request => self.changes.push_by_request(request),
            _ => self.changes.push(record),
        }
        idx
    }

    /// The place in `history` of the object `record` is a version of, made if it has none.
    fn slot_of(&mut self, record: &Change) -> usize {
        let kind = record.kind();
        let (namespace, name) = record.names();
        let hash = key_hash(kind, namespace, name);
        if let Some(slot) = self.find_slot(hash, kind, namespace, name) {
            return slot;
        }
        let key = Arc::new(record.key());
        let slot = self.history.len();
        self.keys.insert(key.clone(), slot);
        self.history.push((key, Versions::default()));
        let history = &self.history;
        self.by_hash.insert(hash, slot as u32, |s| {
            let key = &history[s as usize].0;
            key_hash(key.kind, &key.namespace, &key.name)
        });
        slot
    }

    /// The log's own key of an object it holds versions of: one allocation, however many records
    /// name the object.
    pub(crate) fn shared_key(&self, kind: Kind, namespace: &str, name: &str) -> Option<Arc<ObjectKey>> {
        let slot = self.find_slot(key_hash(kind, namespace, name), kind, namespace, name)?;
        Some(self.history[slot].0.clone())
    }

    /// The place in `history` of a key, given its [`key_hash`].
    fn find_slot(&self, hash: u64, kind: Kind, namespace: &str, name: &str) -> Option<usize> {
        let found = self.by_hash.find(hash, |slot| {
            let key = &self.history[slot as usize].0;
            key.kind == kind && key.name == name && key.namespace == namespace
        });
        found.map(|slot| slot as usize)
    }

    fn push_version(&mut self, t: SimTime, change: ChangeType, version: Version, request: Option<u32>) -> u32 {
        let seq = self.seq();
        let idx = self.changes.len() as u32;
        let record = Change { seq, t, change, version, request };
        let slot = self.slot_of(&record);
        if let Version::Object(Object::Pod(pod)) = &record.version
            && !pod.spec.node_name.is_empty()
        {
            let bound_before = self.history[slot].1.last().is_some_and(|&last| {
                matches!(self.changes.whole(last as usize).map(|c| &c.version),
                    Some(Version::Object(Object::Pod(p))) if p.spec.node_name == pod.spec.node_name)
            });
            if !bound_before {
                self.index_pod(slot, &pod.spec.node_name);
            }
        }
        self.history[slot].1.push(idx);
        self.changes.push(record);
        idx
    }

    /// Lists the Pod at `slot` of `history` under `node` (once, in key order).
    fn index_pod(&mut self, slot: usize, node: &str) {
        let slots = match self.pods_by_node.get_mut(node) {
            Some(slots) => slots,
            None => self.pods_by_node.entry(node.to_string()).or_default(),
        };
        let history = &self.history;
        if let Err(at) = slots.binary_search_by(|&s| history[s].0.cmp(&history[slot].0)) {
            slots.insert(at, slot);
        }
    }

    /// The visible state of machine `index` at `t`.
    pub fn machine_at(&self, index: usize, t: SimTime) -> Option<&Arc<MachineView>> {
        let records = self.machine_history.get(index)?;
        let n = records.partition_point(|&i| self.machines[i as usize].t <= t);
        Some(&self.machines[*records.get(n.checked_sub(1)?)? as usize].view)
    }

    /// Records machine `index`'s visible state from `t` on.
    pub(crate) fn push_machine(&mut self, t: SimTime, index: usize, view: Arc<MachineView>) {
        let seq = self.seq();
        if self.machine_history.len() <= index {
            self.machine_history.resize(index + 1, Vec::new());
        }
        self.machine_history[index].push(self.machines.len() as u32);
        self.machines.push(MachineRecord { seq, t, index, view });
    }

    /// The number of machines that exist at `t`.
    pub fn machine_count_at(&self, t: SimTime) -> usize {
        let recorded_by = |records: &Vec<u32>| records.first().is_some_and(|&i| self.machines[i as usize].t <= t);
        self.machine_history.iter().rposition(recorded_by).map_or(0, |i| i + 1)
    }

    /// Every object key that has ever existed, in key order.
    pub fn keys(&self) -> impl Iterator<Item = &ObjectKey> {
        self.keys.keys().map(|k| &**k)
    }

    /// Keys of one kind, in key order.
    pub fn keys_of(&self, kind: Kind) -> impl Iterator<Item = &ObjectKey> {
        self.slots_of(kind).map(|(k, _)| k)
    }

    /// Keys of one kind with their places in `history`, in key order.
    fn slots_of(&self, kind: Kind) -> impl Iterator<Item = (&ObjectKey, usize)> {
        let first: &dyn KeyParts = &(kind, "", "");
        self.keys
            .range::<dyn KeyParts, _>((Bound::Included(first), Bound::Unbounded))
            .take_while(move |(k, _)| k.kind == kind)
            .map(|(k, &slot)| (&**k, slot))
    }

    /// The changes that made the versions current at `t` of every object of one kind that
    /// existed then, in key order (a snapshot's list of one kind).
    pub fn versions_of_kind_at(&self, kind: Kind, t: SimTime) -> impl Iterator<Item = Cow<'_, Change>> {
        self.slots_of(kind).filter_map(move |(_, slot)| self.current_at(&self.history[slot].1, t))
    }

    /// The changes that made the versions current at `t` of every Pod bound to `node` then, in
    /// key order.
    pub fn pods_on_at(&self, node: &str, t: SimTime) -> impl Iterator<Item = &Change> {
        let slots = self.pods_by_node.get(node).map_or(&[][..], Vec::as_slice);
        slots.iter().filter_map(move |&slot| self.whole_at(&self.history[slot].1, t)).filter(
            move |change| matches!(&change.version, Version::Object(Object::Pod(p)) if p.spec.node_name == node),
        )
    }

    /// Of the versions `versions` of one object, the index of the one current at `t`, if it
    /// existed then.
    fn index_at(&self, versions: &[u32], t: SimTime) -> Option<u32> {
        let changes = self.changes();
        let n = versions.partition_point(|&i| changes.t(i as usize) <= t);
        let i = *versions.get(n.checked_sub(1)?)?;
        Some(i)
    }

    /// Of the versions `versions` of one object, the one current at `t`, if it existed then.
    fn current_at(&self, versions: &[u32], t: SimTime) -> Option<Cow<'_, Change>> {
        let change = self.changes().at(self.index_at(versions, t)? as usize);
        (change.change != ChangeType::Deleted).then_some(change)
    }

    /// [`Log::current_at`] for an object whose versions are kept whole (not a Lease's).
    fn whole_at(&self, versions: &[u32], t: SimTime) -> Option<&Change> {
        let change = self.changes.whole(self.index_at(versions, t)? as usize)?;
        (change.change != ChangeType::Deleted).then_some(change)
    }

    /// The indices into [`Log::changes`] of every version of `key`, oldest first.
    pub fn versions(&self, key: &ObjectKey) -> &[u32] {
        self.versions_of(key.kind, &key.namespace, &key.name)
    }

    /// [`Log::versions`] without building a key.
    pub fn versions_of(&self, kind: Kind, namespace: &str, name: &str) -> &[u32] {
        match self.find_slot(key_hash(kind, namespace, name), kind, namespace, name) {
            Some(slot) => &self.history[slot].1,
            None => &[],
        }
    }

    /// The change that produced the version of `key` current at `t`, if the object existed then.
    pub fn version_at(&self, key: &ObjectKey, t: SimTime) -> Option<Cow<'_, Change>> {
        self.version_of_at(key.kind, &key.namespace, &key.name, t)
    }

    /// [`Log::version_at`] without building a key.
    pub fn version_of_at(&self, kind: Kind, namespace: &str, name: &str, t: SimTime) -> Option<Cow<'_, Change>> {
        self.current_at(self.versions_of(kind, namespace, name), t)
    }

    /// The version of `key` before the one made by change `idx`, if any.
    pub fn previous_version(&self, idx: u32) -> Option<Cow<'_, Change>> {
        let change = self.changes().at(idx as usize);
        let (namespace, name) = change.names();
        let versions = self.versions_of(change.kind(), namespace, name);
        let n = versions.partition_point(|&i| i < idx);
        n.checked_sub(1).map(|p| self.changes().at(versions[p] as usize))
    }

    /// The number of entries (requests, events, changes, log lines, inputs) so far.
    pub fn len(&self) -> usize {
        self.requests.len()
            + self.events.len()
            + self.changes.len()
            + self.lines.len()
            + self.inputs.len()
            + self.machines.len()
    }

    /// Whether nothing has happened yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A short account of what request `idx` did, e.g. `Ready: False → True`, `403 Forbidden: …`,
    /// or `no answer` for a timeout.
    pub fn summary(&self, idx: usize) -> String {
        let r = self.requests.at(idx);
        match (&r.outcome, &r.response) {
            (Outcome::Timeout, _) => return "no answer: the network to the API server is cut".into(),
            (_, Some(Response::Status(s))) if s.status == "Failure" => {
                return format!("{} {}: {}", s.code, s.reason, s.message);
            }
            _ => {}
        }
        let parts: Vec<String> = r
            .changes
            .iter()
            .map(|c| {
                let change = self.changes().at(c as usize);
                let prev = self.previous_version(c).map(|p| p.object());
                super::diff::summarize(prev.as_ref(), &change.object(), change.change)
            })
            .filter(|s| !s.is_empty())
            .collect();
        if parts.is_empty() {
            return if r.method == Method::Get { "read".into() } else { "no change".into() };
        }
        parts.join("; ")
    }

    /// Index of the first request at or after `t`.
    pub fn first_request_from(&self, t: SimTime) -> usize {
        self.requests.first_from(t)
    }

    /// Index of the first event at or after `t`.
    pub fn first_event_from(&self, t: SimTime) -> usize {
        self.events.partition_point(|e| e.t < t)
    }
}

/// A key as its parts, so that the key index is searched without building an [`ObjectKey`]
/// (ordered as `ObjectKey` is).
/// The hash [`Log`] finds an object's versions by.
fn key_hash(kind: Kind, namespace: &str, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    (kind, namespace, name).hash(&mut h);
    h.finish()
}

trait KeyParts {
    fn parts(&self) -> (Kind, &str, &str);
}

impl KeyParts for ObjectKey {
    fn parts(&self) -> (Kind, &str, &str) {
        (self.kind, &self.namespace, &self.name)
    }
}

impl KeyParts for (Kind, &str, &str) {
    fn parts(&self) -> (Kind, &str, &str) {
        *self
    }
}

impl<'a> Borrow<dyn KeyParts + 'a> for Arc<ObjectKey> {
    fn borrow(&self) -> &(dyn KeyParts + 'a) {
        &**self
    }
}

impl PartialEq for dyn KeyParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn KeyParts + '_ {}

impl PartialOrd for dyn KeyParts + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for dyn KeyParts + '_ {
    fn cmp(&self, other: &Self) -> Ordering {
        self.parts().cmp(&other.parts())
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;
    use crate::objects::Node;
    use crate::time::WallTime;

    fn node(name: &str) -> Object {
        Object::Node(Arc::new(Node::new(name)))
    }

    /// An object's versions: none, one without an allocation, then a list; cut back by change.
    #[test]
    fn versions_are_kept_inline_while_there_is_one() {
        assert!(std::mem::size_of::<Versions>() <= std::mem::size_of::<Vec<u32>>());
        let mut v = Versions::default();
        assert!(v.is_empty());
        v.push(7);
        assert!(matches!(v, Versions::One(7)) && *v == [7]);
        v.push(9);
        v.push(12);
        assert_eq!(*v, [7, 9, 12]);
        v.cut(10);
        assert_eq!(*v, [7, 9]);
        v.cut(7);
        assert!(v.is_empty());
        let mut one = Versions::default();
        one.push(3);
        one.cut(4);
        assert_eq!(*one, [3]);
        one.cut(3);
        assert!(matches!(one, Versions::None));
    }

    /// An Event's versions are kept by the occurrences that wrote them: read back as recorded,
    /// in the object's history, not among the versions kept whole, and cut back with the log.
    #[test]
    fn an_events_versions_are_kept_by_its_occurrences() {
        let mut log = Log::default();
        let object =
            log.share_reference(ObjectReference { kind: "Node".into(), name: "node-1".into(), ..Default::default() });
        let mut version = EventVersion {
            name: "node-1.17a".into(),
            namespace: "default".into(),
            uid: crate::rng::Rng::new(1).uuid_value(),
            resource_version: 5,
            created: WallTime(1),
            involved_object: object.clone(),
            reason: "NodeReady",
            type_: "Normal",
            message: log.share_message("Node node-1 status is now: NodeReady".to_string()),
            recorder: Arc::new(crate::objects::EventRecorder::Legacy { component: "kubelet", host: "node-1".into() }),
            first: WallTime(1),
            last: WallTime(1),
            count: 1,
            built: Default::default(),
        };
        let occur = |log: &mut Log, t: u64, change: ChangeType, version: &EventVersion| {
            let version = Arc::new(version.clone());
            let idx = log.push_event(SimTime::from_secs(t), change, version.clone());
            let count = version.count;
            log.push_event_record(|seq| EventRecord {
                seq,
                t: SimTime::from_secs(t),
                object: object.clone(),
                version,
                count,
            });
            idx as usize
        };
        let added = occur(&mut log, 1, ChangeType::Added, &version);
        log.push_change(SimTime::from_secs(2), ChangeType::Added, node("node-1"), None);
        let mark = log.mark();
        version.count = 2;
        version.last = WallTime(3);
        let modified = occur(&mut log, 3, ChangeType::Modified, &version);
        let changes = log.changes();
        let first = changes.at(added);
        assert!(matches!(first, Cow::Owned(_)), "built from its occurrence");
        assert_eq!(
            (first.seq, first.t, first.change),
            (log.events[0].seq - 1, SimTime::from_secs(1), ChangeType::Added)
        );
        let second = changes.at(modified);
        assert_eq!((second.seq, second.change), (log.events[1].seq - 1, ChangeType::Modified));
        assert_eq!(second.event_version().map(|v| v.count), Some(2));
        assert_eq!(changes.t(modified), SimTime::from_secs(3));
        let kept: Vec<Kind> = changes.kept_whole().map(Change::kind).collect();
        assert_eq!(kept, [Kind::Node], "only the Node's version is kept whole");
        let now = log.version_of_at(Kind::Event, "default", "node-1.17a", SimTime::from_secs(9)).expect("stored");
        assert_eq!(now.event_version().map(|v| v.count), Some(2));
        log.truncate(mark);
        assert_eq!((log.changes().len(), log.events.len()), (2, 1));
        let then = log.version_of_at(Kind::Event, "default", "node-1.17a", SimTime::from_secs(9)).expect("stored");
        assert_eq!(then.event_version().map(|v| v.count), Some(1), "the first version again");
        // A Deleted version (or any the occurrence cannot build) is kept whole.
        version.count = 1;
        let deleted = log.push_event(SimTime::from_secs(4), ChangeType::Deleted, Arc::new(version.clone()));
        assert!(matches!(log.changes().at(deleted as usize), Cow::Borrowed(c) if c.change == ChangeType::Deleted));
    }

    #[test]
    fn equal_statuses_are_kept_once() {
        let mut log = Log::default();
        let missing =
            |name: &str| Status::failure(404, "NotFound", format!("nodes \"{name}\" not found"), "", "nodes", name);
        let first = log.share_status(&missing("node-1"));
        let again = log.share_status(&missing("node-1"));
        let other = log.share_status(&missing("node-2"));
        assert!(Arc::ptr_eq(&first, &again), "the same 404 twice is one Status");
        assert!(!Arc::ptr_eq(&first, &other), "another object's 404 is another Status");
        assert_eq!(first.message, "nodes \"node-1\" not found");
        assert_eq!(other.details.as_ref().map(|d| d.name.as_str()), Some("node-2"));
    }

    #[test]
    fn equal_references_and_messages_are_kept_once() {
        let mut log = Log::default();
        let container = |field_path: &str| ObjectReference {
            kind: "Pod".into(),
            namespace: "default".into(),
            name: "web-1".into(),
            uid: "0d1f".into(),
            api_version: "v1".into(),
            field_path: field_path.into(),
            ..ObjectReference::default()
        };
        let first = log.share_reference(container("spec.containers{app}"));
        let again = log.share_reference(container("spec.containers{app}"));
        let pod = log.share_reference(container(""));
        assert!(Arc::ptr_eq(&first, &again), "the same container twice is one reference");
        assert!(!Arc::ptr_eq(&first, &pod), "the Pod itself is another reference");
        assert_eq!((first.field_path.as_str(), pod.field_path.as_str()), ("spec.containers{app}", ""));
        let created = log.share_message("Created container: app".to_string());
        let again = log.share_message("Created container: app".to_string());
        let started = log.share_message("Started container app".to_string());
        assert!(Arc::ptr_eq(&created, &again), "the same message twice is kept once");
        assert_eq!((&*created, &*started), ("Created container: app", "Started container app"));
    }

    #[test]
    fn versions_are_found_by_hash_as_the_table_grows() {
        let mut log = Log::default();
        let a = log.push_change(SimTime::from_secs(1), ChangeType::Added, node("a"), None);
        let b = log.push_change(SimTime::from_secs(2), ChangeType::Added, node("b"), None);
        let a2 = log.push_change(SimTime::from_secs(3), ChangeType::Modified, node("a"), None);
        assert_eq!(log.versions_of(Kind::Node, "", "a"), [a, a2]);
        assert_eq!(log.versions_of(Kind::Node, "", "b"), [b]);
        assert_eq!(log.versions_of(Kind::Node, "", "c"), [] as [u32; 0]);
        assert_eq!(log.versions_of(Kind::Pod, "", "a"), [] as [u32; 0]);
        // Thousands of keys (the table grows several times, each place hashed again from its
        // key), then a version of each of the first ones again: each goes to its own history.
        let names: Vec<String> = (0..3000).map(|i| format!("node-{i}")).collect();
        let first: Vec<u32> = names
            .iter()
            .enumerate()
            .map(|(i, n)| log.push_change(SimTime::from_secs(4 + i as u64), ChangeType::Added, node(n), None))
            .collect();
        for (name, &v) in names.iter().zip(&first).take(100) {
            let again = log.push_change(SimTime::from_secs(4000), ChangeType::Modified, node(name), None);
            assert_eq!(log.versions_of(Kind::Node, "", name), [v, again], "{name}");
        }
        for (name, &v) in names.iter().zip(&first).skip(100) {
            assert_eq!(log.versions_of(Kind::Node, "", name), [v], "{name}");
        }
        assert_eq!(log.versions_of(Kind::Node, "", "a"), [a, a2]);
        assert_eq!(log.keys_of(Kind::Node).count(), 3002);
    }
}
