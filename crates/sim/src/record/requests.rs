//! The log's requests, with a Lease renewal kept as a row of numbers.
//!
//! A renewal is most of what a fleet sends (1,000 kubelets, one every ten seconds: 360,000 of the
//! 1,000-node hour's 409,000 requests), and every one is the same PUT but for its time, the
//! Lease's resourceVersion before and after, and the new `spec.renewTime`. So [`Requests`] keeps
//! a successful renewal as a [`RenewalRow`] (20 bytes, no allocation) beside a table of what its
//! renewals share ([`RenewedLease`]: the sender, the node, the path, the Lease last written whole),
//! and builds the [`Request`] when something reads it: the same value, field for field, that
//! was pushed (a debug build checks each one as it is stored).
//!
//! A GET that reads one object (a kubelet's of its Node, Lease and CSINode before it creates them,
//! answered 404 again and again while it registers: 23,000 of the hour's requests) is the same
//! request but for its time, sequence number and answer, so it is kept as a [`GetRow`] beside a
//! table of what it asks ([`GetTarget`]: the sender, the node, the path). Every other request is
//! kept whole. Reading returns a [`Cow`]: borrowed for a request kept whole, owned for the
//! others.

use std::borrow::Cow;
use std::sync::Arc;

use super::bits::RankBits;
use super::{
    Actor, Body, Change, ChangeRange, ChangeType, ContentType, Head, LeaseVersion, Method, Outcome, Request, Response,
    Version,
};
use crate::chunked::Chunked;
use crate::objects::{Lease, MicroTime, Text};
use crate::time::{SimTime, WallTime};

/// Where a request is kept: its index into [`Requests::whole`], [`Requests::renewals`] or
/// [`Requests::gets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Whole(usize),
    Row(usize),
    Get(usize),
}

/// The requests of a log, in order (see the module's documentation). It reads like the list it
/// replaces: `len`, [`Requests::at`] for an index, `iter`, `iter_from`, `partition_point`,
/// `binary_search_by_key`, each giving a `Cow<Request>`.
#[derive(Clone, Debug, Default)]
pub struct Requests {
    /// Which requests are not renewal rows (the others are, in order): request `i` is row
    /// `i - k` if its bit is clear, `k` being how many set bits come before it; if it is set, it
    /// is the `k`-th of the others, and [`Requests::get_rows`] says which. (Not a place for each
    /// request, four bytes each; nor a sorted list of those kept whole, which would put a binary
    /// search in every read of a renewed Lease's version, read for every node at every pass of
    /// the node lifecycle controller.)
    not_rows: RankBits,
    /// Of the requests that are not renewal rows, which are GET rows: the `k`-th is GET row `g`
    /// if its bit is set, or the `(k - g)`-th kept whole, `g` being how many set bits come before.
    get_rows: RankBits,
    whole: Chunked<Request>,
    gets: Chunked<GetRow>,
    /// What GET rows ask, and where to find each entry by its path and node.
    targets: Vec<GetTarget>,
    by_target: rustc_hash::FxHashMap<(u64, u64), u32>,
    renewals: Chunked<RenewalRow>,
    /// The bases the rows count from, by their first row (one for the 1,000-node hour; one for
    /// every 71 minutes of a small cluster, whose rows are far apart).
    bases: Vec<RowBase>,
    /// What renewals share; one entry for each Lease version written whole and renewed since.
    leases: Vec<RenewedLease>,
    /// The entry of `leases` last made for each Lease version written whole, by the address of
    /// that version (which the entry holds, so no other version can have it while it is here).
    /// Looked up only (hashed; the entries do not depend on the order of the addresses).
    by_base: rustc_hash::FxHashMap<u64, u32>,
}

/// A successful Lease renewal, read back from its row: a PUT answered 200, sent at `t` and
/// answered at once, carrying the Lease read at resourceVersion `rv - rv_step` with a `renewTime`
/// of `t` on the sender's wall clock (its entry's [`RenewedLease::clock`]), stored as `rv`, its one
/// change `change`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Renewal {
    t: SimTime,
    seq: u64,
    rv: u64,
    rv_step: u16,
    /// Index into [`Requests::leases`].
    lease: u16,
    /// Index into [`super::Log::changes`].
    change: u32,
}

impl Renewal {
    /// The renewal of entry `lease` (whose clock is `clock`), if a row can keep it.
    #[allow(clippy::too_many_arguments)]
    fn new(
        seq: u64,
        t: SimTime,
        read_rv: u64,
        rv: u64,
        renew_time: MicroTime,
        lease: u32,
        clock: i64,
        change: u32,
    ) -> Option<Renewal> {
        let on_clock = renew_time.0.0.checked_sub(t.as_micros() as i64) == Some(clock);
        let rv_step = u16::try_from(rv.checked_sub(read_rv)?).ok()?;
        let lease = u16::try_from(lease).ok()?;
        on_clock.then_some(Renewal { t, seq, rv, rv_step, lease, change })
    }

    fn renew_time(&self, clock: i64) -> MicroTime {
        MicroTime(WallTime(self.t.as_micros() as i64 + clock))
    }
}

/// A [`Renewal`] as kept: 14 bytes (packed), its time, sequence number, resourceVersion and
/// change as differences from the [`RowBase`] it follows (every row names the same four
/// counters, which grow together). A renewal that does not fit (a step of resourceVersions past
/// `u16`, more than 65,536 Lease entries, another clock) is kept whole; one whose differences do
/// not fit (`u32` microseconds, `u16` for the counters) starts a new base: at 1,000 nodes, one
/// every four minutes or so, where a row of `u32` differences took 20 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, packed)]
struct RenewalRow {
    /// Microseconds after the base's `t`.
    dt: u32,
    dseq: u16,
    drv: u16,
    dchange: u16,
    rv_step: u16,
    lease: u16,
}

/// Where the differences of the rows from `first` on are counted from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RowBase {
    first: u32,
    t: SimTime,
    seq: u64,
    rv: u64,
    change: u32,
}

impl RowBase {
    /// `r` as a row after this base, if its differences fit.
    fn row(&self, r: &Renewal) -> Option<RenewalRow> {
        let dt = r.t.as_micros().checked_sub(self.t.as_micros())?;
        Some(RenewalRow {
            dt: u32::try_from(dt).ok()?,
            dseq: u16::try_from(r.seq.checked_sub(self.seq)?).ok()?,
            drv: u16::try_from(r.rv.checked_sub(self.rv)?).ok()?,
            dchange: u16::try_from(r.change.checked_sub(self.change)?).ok()?,
            rv_step: r.rv_step,
            lease: r.lease,
        })
    }

    fn renewal(&self, row: RenewalRow) -> Renewal {
        Renewal {
            t: SimTime::from_micros(self.t.as_micros() + row.dt as u64),
            seq: self.seq + row.dseq as u64,
            rv: self.rv + row.drv as u64,
            rv_step: row.rv_step,
            lease: row.lease,
            change: self.change + row.dchange as u32,
        }
    }
}

/// A GET of one object answered at once (see the module's documentation): 40 bytes in wasm,
/// where the request kept whole took 112.
#[derive(Clone, Debug, PartialEq)]
struct GetRow {
    seq: u64,
    t: SimTime,
    response: Option<Response>,
    /// Index into [`Requests::targets`].
    target: u32,
    /// The log's count of object versions when it was answered (its empty [`ChangeRange`]).
    changes_at: u32,
    code: u16,
}

/// What a GET row asks: the same for every GET of one object by one sender.
#[derive(Clone, Debug)]
struct GetTarget {
    actor: Actor,
    node: Text,
    path: Text,
    query: &'static str,
}

impl GetTarget {
    fn asks(&self, r: &Request) -> bool {
        self.actor == r.actor
            && self.node == r.node
            && self.path == r.path
            && matches!(r.query, Cow::Borrowed(q) if q == self.query)
    }
}

/// What the renewals of one Lease version share.
#[derive(Clone, Debug)]
struct RenewedLease {
    actor: Actor,
    node: Text,
    path: Text,
    query: &'static str,
    content_type: Option<ContentType>,
    /// The Lease as last written whole (the renewals' `base`).
    base: Arc<Lease>,
    /// The sender's wall clock: a renewal's `renewTime` less the instant it was sent, in
    /// microseconds (the simulation's epoch: every kubelet renews with its time of sending).
    clock: i64,
    /// The Lease's place in the log's object history, once a renewal has looked it up.
    slot: Option<usize>,
}

impl RenewedLease {
    fn fits(&self, r: &Request, base: &Arc<Lease>) -> bool {
        Arc::ptr_eq(&self.base, base)
            && self.actor == r.actor
            && self.node == r.node
            && self.path == r.path
            && matches!(r.query, Cow::Borrowed(q) if q == self.query)
            && self.content_type == r.content_type
    }
}

impl Requests {
    /// How many requests.
    pub fn len(&self) -> usize {
        self.not_rows.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where request `index` (which must exist) is kept.
    fn slot(&self, index: usize) -> Slot {
        match self.not_rows.get_and_before(index) {
            (false, k) => Slot::Row(index - k),
            (true, k) => match self.get_rows.get_and_before(k) {
                (true, g) => Slot::Get(g),
                (false, g) => Slot::Whole(k - g),
            },
        }
    }

    /// How many are kept as renewal rows (the rest are GET rows or kept whole).
    pub fn renewals(&self) -> usize {
        self.renewals.len()
    }

    /// Adds `request` at the end: as a renewal row if it is a successful renewal.
    pub fn push(&mut self, request: Request) {
        match self.compact(&request) {
            Some(renewal) => {
                debug_assert_eq!(self.build(&renewal), request, "a renewal row builds the request it keeps");
                self.push_row(&renewal);
            }
            None => {
                self.not_rows.push(true);
                match self.get_row(&request) {
                    Some(row) => {
                        self.get_rows.push(true);
                        debug_assert_eq!(self.build_get(&row), request, "a GET row builds the request it keeps");
                        self.gets.push(row);
                    }
                    None => {
                        self.get_rows.push(false);
                        self.whole.push(request);
                    }
                }
            }
        }
    }

    /// The entry for renewals of `base` sent by `actor` with `query`, if one was made: a renewal
    /// that has one is kept with [`Requests::push_renewal`], without building its [`Request`]
    /// (its node and path are its Lease's, so the same for every renewal of `base`).
    pub(crate) fn renewal_entry(&self, base: &Arc<Lease>, actor: &Actor, query: &'static str) -> Option<u32> {
        let i = self.entry_of(base)?;
        let lease = &self.leases[i];
        let same_actor = match (&lease.actor, actor) {
            (Actor::Kubelet(a), Actor::Kubelet(b)) => Arc::ptr_eq(a, b) || a == b,
            (a, b) => a == b,
        };
        (same_actor && lease.query == query).then_some(i as u32)
    }

    /// Adds a successful renewal at the end, as a row of entry `lease` (from
    /// [`Requests::renewal_entry`]): sent at `t` with the version read at `read_rv`, stored as
    /// `stored`, its one change `change`. Returns whether it fits in a row (if not, nothing was
    /// added: the caller keeps the request whole).
    #[must_use]
    pub(crate) fn push_renewal(
        &mut self,
        seq: u64,
        t: SimTime,
        read_rv: u64,
        stored: &LeaseVersion,
        lease: u32,
        change: u32,
    ) -> bool {
        let renew_time = stored.renew_time.expect("a renewal sets renewTime");
        let clock = self.leases[lease as usize].clock;
        let Some(renewal) = Renewal::new(seq, t, read_rv, stored.resource_version, renew_time, lease, clock, change)
        else {
            return false;
        };
        self.push_row(&renewal);
        true
    }

    /// Keeps `r` as a row after the last base, or after a new one if it is too far from it.
    fn push_row(&mut self, r: &Renewal) {
        let at = self.renewals.len() as u32;
        let row = match self.bases.last().and_then(|b| b.row(r)) {
            Some(row) => row,
            None => {
                let base = RowBase { first: at, t: r.t, seq: r.seq, rv: r.rv, change: r.change };
                self.bases.push(base);
                base.row(r).expect("a renewal is a row of its own base")
            }
        };
        self.not_rows.push(false);
        self.renewals.push(row);
    }

    /// Row `i`, read back.
    fn renewal(&self, i: usize) -> Renewal {
        let base = self.bases.partition_point(|b| b.first as usize <= i) - 1;
        self.bases[base].renewal(self.renewals[i])
    }

    /// The request the last row keeps (debug builds check a row against the request it stands
    /// for).
    #[cfg(debug_assertions)]
    pub(crate) fn last_renewal(&self) -> Option<Request> {
        (!self.renewals.is_empty()).then(|| self.build(&self.renewal(self.renewals.len() - 1)))
    }

    /// The entry made for renewals of `base`, if any.
    fn entry_of(&self, base: &Arc<Lease>) -> Option<usize> {
        let &i = self.by_base.get(&(Arc::as_ptr(base) as usize as u64))?;
        Arc::ptr_eq(&self.leases[i as usize].base, base).then_some(i as usize)
    }

    /// The place in the log's object history of the Lease that `base` is a version of, if a
    /// renewal of `base` noted it.
    pub(crate) fn renewal_slot(&self, base: &Arc<Lease>) -> Option<usize> {
        self.entry_of(base).and_then(|i| self.leases[i].slot)
    }

    /// Notes the place in the log's object history of the Lease that `base` is a version of.
    pub(crate) fn note_renewal_slot(&mut self, base: &Arc<Lease>, slot: usize) {
        if let Some(i) = self.entry_of(base) {
            self.leases[i].slot = Some(slot);
        }
    }

    /// The row for `r`, if it is a successful renewal (adding an entry to `leases` if needed).
    fn compact(&mut self, r: &Request) -> Option<Renewal> {
        let (Some(Body::Renewal { base, resource_version, renew_time }), Some(Response::Renewal(stored))) =
            (&r.body, &r.response)
        else {
            return None;
        };
        let Cow::Borrowed(query) = r.query else { return None };
        let simple = r.method == Method::Put
            && r.outcome == Outcome::Code(200)
            && r.no_answer.is_none()
            && r.end == r.t
            && r.changes.len() == 1
            && Arc::ptr_eq(base, &stored.base)
            && stored.renew_time == Some(*renew_time);
        if !simple {
            return None;
        }
        let address = Arc::as_ptr(base) as usize as u64;
        let clock = renew_time.0.0.wrapping_sub(r.t.as_micros() as i64);
        let lease = match self.by_base.get(&address) {
            Some(&i) if self.leases[i as usize].fits(r, base) && self.leases[i as usize].clock == clock => i,
            _ => {
                let i = self.leases.len() as u32;
                self.leases.push(RenewedLease {
                    actor: r.actor.clone(),
                    node: r.node.clone(),
                    path: r.path.clone(),
                    query,
                    content_type: r.content_type,
                    base: base.clone(),
                    clock,
                    slot: None,
                });
                self.by_base.insert(address, i);
                i
            }
        };
        Renewal::new(
            r.seq,
            r.t,
            *resource_version,
            stored.resource_version,
            *renew_time,
            lease,
            clock,
            r.changes.iter().start,
        )
    }

    /// The row for `r`, if it is a GET of one object answered at once (adding an entry to
    /// `targets` if needed).
    fn get_row(&mut self, r: &Request) -> Option<GetRow> {
        let Outcome::Code(code) = r.outcome else { return None };
        let Cow::Borrowed(query) = r.query else { return None };
        let simple = r.method == Method::Get
            && r.end == r.t
            && r.no_answer.is_none()
            && r.content_type.is_none()
            && r.body.is_none()
            && r.changes.is_empty()
            && !matches!(r.response, Some(Response::Renewal(_)));
        if !simple {
            return None;
        }
        // By the addresses of the path and node (interned by the log, and held by the entry, so
        // no other text can have them while it is here); looked up only.
        let address = (r.path.as_str().as_ptr() as usize as u64, r.node.as_str().as_ptr() as usize as u64);
        let target = match self.by_target.get(&address) {
            Some(&i) if self.targets[i as usize].asks(r) => i,
            _ => {
                let i = u32::try_from(self.targets.len()).expect("fewer than 2^32 GET targets");
                self.targets.push(GetTarget {
                    actor: r.actor.clone(),
                    node: r.node.clone(),
                    path: r.path.clone(),
                    query,
                });
                self.by_target.insert(address, i);
                i
            }
        };
        Some(GetRow {
            seq: r.seq,
            t: r.t,
            response: r.response.clone(),
            target,
            changes_at: r.changes.iter().start,
            code,
        })
    }

    /// The request a GET row keeps.
    fn build_get(&self, row: &GetRow) -> Request {
        let target = &self.targets[row.target as usize];
        Request {
            seq: row.seq,
            t: row.t,
            end: row.t,
            actor: target.actor.clone(),
            node: target.node.clone(),
            method: Method::Get,
            path: target.path.clone(),
            query: Cow::Borrowed(target.query),
            content_type: None,
            outcome: Outcome::Code(row.code),
            no_answer: None,
            body: None,
            response: row.response.clone(),
            changes: ChangeRange::new(row.changes_at, row.changes_at),
        }
    }

    /// The object version that renewal `index` made: a renewal kept as a row, or kept whole and
    /// answered with the renewed Lease (panics otherwise). Its sequence number follows the
    /// request's: the API server records the version while it answers.
    pub(crate) fn renewal_change(&self, index: u32) -> Change {
        let (seq, t, version) = match self.slot(index as usize) {
            Slot::Row(i) => {
                let row = self.renewal(i);
                let lease = &self.leases[row.lease as usize];
                (row.seq, row.t, LeaseVersion::renewed(lease.base.clone(), row.rv, row.renew_time(lease.clock)))
            }
            Slot::Whole(i) => {
                let r = &self.whole[i];
                let Some(Response::Renewal(version)) = &r.response else {
                    panic!("request {index} renewed a Lease");
                };
                (r.seq, r.t, LeaseVersion::clone(version))
            }
            Slot::Get(_) => panic!("request {index} renewed a Lease"),
        };
        Change { seq: seq + 1, t, change: ChangeType::Modified, version: Version::Lease(version), request: Some(index) }
    }

    /// The request a row keeps.
    fn build(&self, row: &Renewal) -> Request {
        let lease = &self.leases[row.lease as usize];
        let renew_time = row.renew_time(lease.clock);
        Request {
            seq: row.seq,
            t: row.t,
            end: row.t,
            actor: lease.actor.clone(),
            node: lease.node.clone(),
            method: Method::Put,
            path: lease.path.clone(),
            query: Cow::Borrowed(lease.query),
            content_type: lease.content_type,
            outcome: Outcome::Code(200),
            no_answer: None,
            body: Some(Body::Renewal {
                base: lease.base.clone(),
                resource_version: row.rv - row.rv_step as u64,
                renew_time,
            }),
            response: Some(Response::Renewal(Box::new(LeaseVersion::renewed(lease.base.clone(), row.rv, renew_time)))),
            changes: ChangeRange::new(row.change, row.change + 1),
        }
    }

    fn read(&self, slot: Slot) -> Cow<'_, Request> {
        match slot {
            Slot::Row(i) => Cow::Owned(self.build(&self.renewal(i))),
            Slot::Whole(i) => Cow::Borrowed(&self.whole[i]),
            Slot::Get(i) => Cow::Owned(self.build_get(&self.gets[i])),
        }
    }

    /// The request at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<Cow<'_, Request>> {
        (index < self.len()).then(|| self.read(self.slot(index)))
    }

    /// The request at `index` (as `list[index]`: panics past the end).
    pub fn at(&self, index: usize) -> Cow<'_, Request> {
        assert!(index < self.len(), "request {index} of {}", self.len());
        self.read(self.slot(index))
    }

    /// When request `index` was sent, without building it (panics past the end).
    pub fn t(&self, index: usize) -> SimTime {
        assert!(index < self.len(), "request {index} of {}", self.len());
        self.t_of(self.slot(index))
    }

    fn t_of(&self, slot: Slot) -> SimTime {
        match slot {
            Slot::Row(i) => self.renewal(i).t,
            Slot::Whole(i) => self.whole[i].t,
            Slot::Get(i) => self.gets[i].t,
        }
    }

    /// Request `index` at a glance (which must exist), read without building it.
    pub fn head(&self, index: usize) -> Head<'_> {
        match self.slot(index) {
            Slot::Row(i) => {
                let row = self.renewal(i);
                let lease = &self.leases[row.lease as usize];
                Head {
                    t: row.t,
                    actor: &lease.actor,
                    method: Method::Put,
                    path: &lease.path,
                    outcome: Outcome::Code(200),
                }
            }
            Slot::Whole(i) => self.whole[i].head(),
            Slot::Get(i) => {
                let row = &self.gets[i];
                let target = &self.targets[row.target as usize];
                Head {
                    t: row.t,
                    actor: &target.actor,
                    method: Method::Get,
                    path: &target.path,
                    outcome: Outcome::Code(row.code),
                }
            }
        }
    }

    /// The requests from `start` on at a glance ([`Requests::head`]).
    pub fn heads_from(&self, start: usize) -> impl Iterator<Item = Head<'_>> {
        (start.min(self.len())..self.len()).map(|i| self.head(i))
    }

    /// The last request.
    pub fn last(&self) -> Option<Cow<'_, Request>> {
        self.len().checked_sub(1).map(|i| self.at(i))
    }

    /// Keeps the first `len` requests.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        // The first `len` requests: the renewal rows, GET rows and requests kept whole before
        // `len`.
        let others = self.not_rows.before(len);
        let gets = self.get_rows.before(others);
        let renewals = len - others;
        self.not_rows.truncate(len);
        self.get_rows.truncate(others);
        self.whole.truncate(others - gets);
        self.gets.truncate(gets);
        self.renewals.truncate(renewals);
        let bases = self.bases.partition_point(|b| (b.first as usize) < renewals);
        self.bases.truncate(bases);
    }

    /// The requests in order.
    pub fn iter(&self) -> Iter<'_> {
        self.iter_from(0)
    }

    /// The requests from index `start` on, in order (empty if there are not so many).
    pub fn iter_from(&self, start: usize) -> Iter<'_> {
        Iter { requests: self, front: start.min(self.len()), back: self.len() }
    }

    /// The index of the first request for which `pred` is false, the requests being those for
    /// which it is true followed by those for which it is false (as `slice::partition_point`).
    pub fn partition_point(&self, mut pred: impl FnMut(&Request) -> bool) -> usize {
        partition_index(self.len(), |i| pred(&self.read(self.slot(i))))
    }

    /// The index of the first request sent at or after `t` (a binary search that builds nothing).
    pub fn first_from(&self, t: SimTime) -> usize {
        partition_index(self.len(), |i| self.t_of(self.slot(i)) < t)
    }

    /// The index of the first request sent after `t`.
    pub fn first_after(&self, t: SimTime) -> usize {
        partition_index(self.len(), |i| self.t_of(self.slot(i)) <= t)
    }

    /// Binary search for the request whose key `f` gives is `key`, the requests being sorted by
    /// it (as `slice::binary_search_by_key`; of several equal ones, the first).
    pub fn binary_search_by_key<B: Ord>(&self, key: &B, mut f: impl FnMut(&Request) -> B) -> Result<usize, usize> {
        let at = self.partition_point(|r| f(r) < *key);
        match self.get(at) {
            Some(r) if f(&r) == *key => Ok(at),
            _ => Err(at),
        }
    }
}

/// The first index below `len` for which `pred` is false, the indices being those for which it
/// is true followed by those for which it is false (as `slice::partition_point`, for the lists
/// whose entries are built when read).
pub(super) fn partition_index(len: usize, mut pred: impl FnMut(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

impl<'a> IntoIterator for &'a Requests {
    type Item = Cow<'a, Request>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<Request> for Requests {
    fn from_iter<I: IntoIterator<Item = Request>>(iter: I) -> Requests {
        let mut list = Requests::default();
        for r in iter {
            list.push(r);
        }
        list
    }
}

/// The requests of a [`Requests`] list, in order (from either end): the indices `front..back`.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    requests: &'a Requests,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, Request>;

    fn next(&mut self) -> Option<Cow<'a, Request>> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.requests.read(self.requests.slot(self.front - 1))
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }

    /// Skips `n` requests without building them.
    fn nth(&mut self, n: usize) -> Option<Cow<'a, Request>> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.requests.read(self.requests.slot(self.back))
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::WallTime;

    fn lease(rv: u64) -> Arc<Lease> {
        let mut lease = Lease::new("kube-node-lease", "node-1");
        lease.metadata.resource_version = rv;
        lease.spec.renew_time = Some(MicroTime(WallTime(1_000_000)));
        Arc::new(lease)
    }

    fn get(seq: u64) -> Request {
        Request {
            seq,
            t: SimTime::from_millis(seq * 100),
            end: SimTime::from_millis(seq * 100),
            actor: Actor::Kubelet("node-1".into()),
            node: "node-1".into(),
            method: Method::Get,
            path: "/api/v1/nodes/node-1".into(),
            query: Cow::Borrowed(""),
            content_type: None,
            outcome: Outcome::Code(200),
            no_answer: None,
            body: None,
            response: None,
            changes: ChangeRange::default(),
        }
    }

    /// The wall clock's epoch: a renewal's `renewTime` is its time of sending on that clock.
    const EPOCH: i64 = 1_772_442_000_000_000;

    fn renewal(seq: u64, base: &Arc<Lease>, read_rv: u64, change: u32) -> Request {
        let renew_time = MicroTime(WallTime(EPOCH + SimTime::from_millis(seq * 100).as_micros() as i64));
        Request {
            method: Method::Put,
            path: "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1".into(),
            content_type: Some(ContentType::Json),
            body: Some(Body::Renewal { base: base.clone(), resource_version: read_rv, renew_time }),
            response: Some(Response::Renewal(Box::new(LeaseVersion::renewed(base.clone(), read_rv + 1, renew_time)))),
            changes: ChangeRange::new(change, change + 1),
            ..get(seq)
        }
    }

    /// Requests kept whole and as rows, interleaved, with a second Lease version written whole.
    fn sample() -> Vec<Request> {
        let (first, second) = (lease(10), lease(20));
        let mut conflict = renewal(4, &first, 9, 0);
        conflict.outcome = Outcome::Code(409);
        vec![
            get(1),
            renewal(2, &first, 10, 0),
            renewal(3, &first, 11, 1),
            conflict,
            get(5),
            renewal(6, &second, 20, 2),
            renewal(7, &first, 12, 3),
            get(8),
            // Too far from the first base (a sequence number and a time more than `u32` after
            // it): rows after a new base.
            renewal(u32::MAX as u64 + 9, &first, 13, 4),
            renewal(u32::MAX as u64 + 10, &first, 14, 5),
            // Another clock: a row of another entry.
            Request {
                body: Some(Body::Renewal {
                    base: first.clone(),
                    resource_version: 15,
                    renew_time: MicroTime(WallTime(7)),
                }),
                response: Some(Response::Renewal(Box::new(LeaseVersion::renewed(
                    first.clone(),
                    16,
                    MicroTime(WallTime(7)),
                )))),
                ..renewal(u32::MAX as u64 + 11, &first, 15, 6)
            },
        ]
    }

    #[test]
    fn a_row_is_14_bytes_and_a_renewal_that_does_not_fit_one_is_kept_whole() {
        assert_eq!(std::mem::size_of::<RenewalRow>(), 14);
        let base = lease(10);
        let mut list = Requests::default();
        list.push(renewal(2, &base, 10, 0));
        assert_eq!(list.renewals(), 1);
        let mut far = renewal(3, &base, 11, 1);
        if let Some(Body::Renewal { resource_version, .. }) = &mut far.body {
            *resource_version = 1;
        }
        if let Some(Response::Renewal(stored)) = &mut far.response {
            stored.resource_version = u16::MAX as u64 + 2;
        }
        list.push(far.clone());
        assert_eq!(list.renewals(), 1, "a step of resourceVersions past u16 is kept whole");
        assert_eq!(*list.at(1), far);
        let stored = LeaseVersion::renewed(base.clone(), 13, MicroTime(WallTime(EPOCH + 400_000)));
        assert!(list.push_renewal(4, SimTime::from_millis(400), 12, &stored, 0, 2));
        assert_eq!(list.bases.len(), 1);
        // A sequence number more than `u16` after the base's.
        let next = LeaseVersion::renewed(base.clone(), 13, MicroTime(WallTime(EPOCH + 450_000)));
        assert!(list.push_renewal(2 + 65_536, SimTime::from_millis(450), 12, &next, 0, 2));
        assert_eq!(list.bases.len(), 2, "a counter past u16 from the base starts another");
        assert_eq!((list.at(3).seq, list.at(3).t), (65_538, SimTime::from_millis(450)));
        list.truncate(3);
        assert_eq!(list.bases.len(), 1);
        let later = LeaseVersion::renewed(base.clone(), 14, MicroTime(WallTime(EPOCH + 3 * 3_600_000_000)));
        assert!(list.push_renewal(u32::MAX as u64 + 1, SimTime::from_secs(3 * 3_600), 13, &later, 0, 3));
        assert_eq!(list.bases.len(), 2, "a row too far from the base starts another");
        let elsewhen = LeaseVersion::renewed(base.clone(), 15, MicroTime(WallTime(EPOCH)));
        assert!(!list.push_renewal(5, SimTime::from_millis(500), 14, &elsewhen, 0, 4), "another clock");
        let renew_time = MicroTime(WallTime(EPOCH + 600_000));
        let entry = |lease| Renewal::new(6, SimTime::from_millis(600), 14, 15, renew_time, lease, EPOCH, 4);
        assert!(entry(7).is_some() && entry(u16::MAX as u32 + 1).is_none(), "an entry past u16 is kept whole");
        assert_eq!((list.len(), list.renewals()), (4, 3));
        assert_eq!((list.at(2).seq, list.at(2).t), (4, SimTime::from_millis(400)));
        let last = list.at(3);
        assert_eq!(
            (last.seq, last.t, last.changes),
            (u32::MAX as u64 + 1, SimTime::from_secs(10_800), ChangeRange::new(3, 4))
        );
        assert_eq!(last.response, Some(Response::Renewal(Box::new(later))));
        list.truncate(3);
        assert_eq!((list.renewals(), list.bases.len()), (2, 1), "a cut drops the bases of the rows it drops");
    }

    #[test]
    fn it_reads_back_every_request_as_pushed_and_keeps_only_successful_renewals_as_rows() {
        let all = sample();
        let list: Requests = all.iter().cloned().collect();
        assert_eq!(list.len(), all.len());
        assert_eq!(list.renewals(), 7, "the 409 is kept whole");
        assert_eq!(list.bases.len(), 2);
        assert_eq!(list.leases.len(), 3, "one entry a Lease version written whole and a clock");
        assert!(list.iter().map(Cow::into_owned).eq(all.iter().cloned()));
        assert!(list.iter().rev().map(Cow::into_owned).eq(all.iter().rev().cloned()));
        for (i, r) in all.iter().enumerate() {
            assert_eq!(*list.at(i), *r);
            assert_eq!(list.t(i), r.t);
            assert_eq!(list.binary_search_by_key(&r.seq, |r| r.seq), Ok(i));
            assert_eq!(list.first_from(r.t), i);
            assert_eq!(list.first_after(r.t), i + 1);
            assert!(list.iter_from(i).map(Cow::into_owned).eq(all[i..].iter().cloned()));
        }
        assert!(matches!(list.at(1), Cow::Owned(_)) && matches!(list.at(3), Cow::Borrowed(_)));
        assert!(matches!(list.at(0), Cow::Owned(_)), "a GET is kept as a row");
        assert_eq!(list.get(all.len()), None);
    }

    /// Over several 64-request words of the rank index: every request found where it is, from
    /// either end, after cuts on and off the words' bounds.
    #[test]
    fn requests_are_found_across_the_words_of_the_rank_index() {
        let base = lease(10);
        // GET rows, requests kept whole (a GET answered late) and renewal rows.
        let all: Vec<Request> = (0..200u64)
            .map(|i| match i {
                _ if i % 3 == 0 || i == 64 => get(i + 1),
                _ if i % 5 == 0 => Request { end: SimTime::from_millis((i + 1) * 100 + 5), ..get(i + 1) },
                _ => renewal(i + 1, &base, 10 + i, i as u32),
            })
            .collect();
        for keep in [200, 193, 129, 128, 127, 65, 64, 63, 1, 0] {
            let mut list: Requests = all.iter().cloned().collect();
            assert_eq!((list.gets.len(), list.whole.len(), list.renewals()), (68, 26, 106));
            list.truncate(keep);
            assert_eq!(list.len(), keep);
            assert_eq!(list.renewals() + list.whole.len() + list.gets.len(), keep);
            for (i, r) in all[..keep].iter().enumerate() {
                assert_eq!(*list.at(i), *r, "{i} of {keep}");
            }
            assert!(list.iter().rev().map(Cow::into_owned).eq(all[..keep].iter().rev().cloned()), "{keep}");
            for r in &all[keep..] {
                list.push(r.clone());
            }
            assert!(list.iter_from(keep / 2).map(Cow::into_owned).eq(all[keep / 2..].iter().cloned()), "{keep}");
        }
    }

    #[test]
    fn a_get_of_one_object_answered_at_once_is_a_row_of_its_target() {
        let path = Text::from("/api/v1/nodes/node-1");
        let node = Text::from("node-1");
        let kubelet = Actor::Kubelet("node-1".into());
        let message = "nodes \"node-1\" not found".to_string();
        let status = Arc::new(crate::objects::Status::failure(404, "NotFound", message, "", "nodes", "node-1"));
        let asked = |seq: u64| Request {
            actor: kubelet.clone(),
            node: node.clone(),
            path: path.clone(),
            outcome: Outcome::Code(404),
            response: Some(Response::Status(status.clone())),
            changes: ChangeRange::new(seq as u32 * 2, seq as u32 * 2),
            ..get(seq)
        };
        let all = vec![
            asked(1),
            asked(2),
            // Another sender asks the same: another target (and the kubelet's next GET a third: the
            // entry last made for a path is the one looked up).
            Request { actor: Actor::NodeLifecycleController, ..asked(3) },
            asked(4),
            asked(9),
            // Kept whole: no answer in time; answered later; a query built for it; a body.
            Request {
                outcome: Outcome::Timeout,
                no_answer: Some(super::super::NoAnswer::Dial),
                response: None,
                ..asked(5)
            },
            Request { end: SimTime::from_secs(60), ..asked(6) },
            Request { query: Cow::Owned("resourceVersion=0".into()), ..asked(7) },
            Request { method: Method::Delete, ..asked(8) },
        ];
        let list: Requests = all.iter().cloned().collect();
        assert_eq!((list.gets.len(), list.whole.len(), list.targets.len()), (5, 4, 3));
        assert!(list.iter().map(Cow::into_owned).eq(all.iter().cloned()), "read back as pushed");
        let Some(Response::Status(answer)) = &list.at(3).response else { panic!("a 404") };
        assert!(Arc::ptr_eq(answer, &status), "the answer is kept, not copied");
        assert!(std::mem::size_of::<GetRow>() < std::mem::size_of::<Request>() / 2);
    }

    #[test]
    fn a_cut_keeps_the_first_requests_and_the_list_grows_again_from_there() {
        let all = sample();
        for keep in 0..=all.len() {
            let mut list: Requests = all.iter().cloned().collect();
            list.truncate(keep);
            assert!(list.iter().map(Cow::into_owned).eq(all[..keep].iter().cloned()), "{keep}");
            for r in &all[keep..] {
                list.push(r.clone());
            }
            assert!(list.iter().map(Cow::into_owned).eq(all.iter().cloned()), "{keep}");
        }
    }

    #[test]
    fn a_request_at_a_glance_is_the_built_one_s_whatever_keeps_it() {
        let all = sample();
        let list: Requests = all.iter().cloned().collect();
        assert!(list.renewals() > 0 && !list.gets.is_empty() && !list.whole.is_empty(), "every kind of slot");
        for (i, r) in all.iter().enumerate() {
            assert_eq!(list.head(i), r.head(), "{i}");
        }
        for start in [0, all.len() / 2, all.len(), all.len() + 3] {
            let heads: Vec<Head<'_>> = list.heads_from(start).collect();
            assert_eq!(
                heads,
                all.get(start..).unwrap_or_default().iter().map(Request::head).collect::<Vec<_>>(),
                "{start}"
            );
        }
    }
}
