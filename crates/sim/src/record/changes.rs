//! The log's object versions, with a Lease renewal's version kept by its request's row and an
//! Event's by its occurrence.
//!
//! A renewal makes one new version of one Lease (360,000 of the 1,000-node hour's 400,000
//! versions), and everything that version is, its time, its resourceVersion, its `renewTime` and
//! the Lease it renews, is in the renewal's row among the requests ([`super::Requests`]). So a
//! renewal kept as a row keeps its version as two bits and its request's place in a set of
//! requests ([`ChangeList`]), not as a [`Change`] of 64 bytes repeating the row, and [`Changes`]
//! builds the [`Change`] when something reads it:
//! the same value, field for field, that was recorded (a debug build checks each one as it is
//! kept). An Event's version is kept the same way by the occurrence that wrote it
//! ([`super::EventRecord`], recorded next: the version, its time, and its sequence number less
//! one; 23,000 of the hour's versions). Every other version is kept whole. Reading returns a
//! [`Cow`], as reading the requests does: borrowed for a version kept whole, owned for the
//! others.

use std::borrow::Cow;

use super::bits::{RankBits, SelectBits};
use super::requests::partition_index;
use super::{Change, EventRecord, Requests, Version};
use crate::chunked::{self, Chunked};
use crate::objects::ChangeType;
use crate::time::SimTime;

/// The storage of the log's object versions (see the module's documentation); read through
/// [`Changes`], which also sees the requests.
///
/// Where each version is kept is said by two bits (kept whole; kept by an Event's occurrence;
/// neither: kept by its request) with their counts ([`RankBits`]), and which request or
/// occurrence keeps it by a set of their indices ([`SelectBits`]): the `k`-th version kept by a
/// request is kept by the `k`-th request of the set: about four bits a version, where a place
/// for each would take four bytes.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChangeList {
    /// A bit a version, set for those kept whole.
    kept_whole: RankBits,
    /// A bit a version, set for those kept by an Event's occurrence.
    by_event: RankBits,
    whole: Chunked<Change>,
    /// The requests (renewals) keeping the versions kept by a request, in order.
    requests: SelectBits,
    /// The occurrences (indices into [`super::Log::events`]) keeping the versions kept by one.
    occurrences: SelectBits,
}

/// Where a version is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// An index into [`ChangeList::whole`].
    Whole(usize),
    /// The index of the request (a renewal) that made it.
    Request(usize),
    /// The index of the Event occurrence that wrote it.
    Occurrence(usize),
}

impl ChangeList {
    /// How many versions.
    pub(crate) fn len(&self) -> usize {
        self.kept_whole.len()
    }

    fn push_bits(&mut self, whole: bool, event: bool) {
        self.kept_whole.push(whole);
        self.by_event.push(event);
    }

    /// Adds a version kept whole.
    pub(crate) fn push(&mut self, change: Change) {
        self.push_bits(true, false);
        self.whole.push(change);
    }

    /// Where version `index` (which must exist) is kept.
    fn kept(&self, index: usize) -> Kept {
        let (kept_whole, whole) = self.kept_whole.get_and_before(index);
        if kept_whole {
            return Kept::Whole(whole);
        }
        let (by_event, events) = self.by_event.get_and_before(index);
        if by_event {
            Kept::Occurrence(self.occurrences.select(events))
        } else {
            Kept::Request(self.requests.select(index - whole - events))
        }
    }

    /// The version at `index` if it is kept whole (a renewal's never is a Pod's, say).
    pub(crate) fn whole(&self, index: usize) -> Option<&Change> {
        if index >= self.len() {
            return None;
        }
        let (whole, i) = self.kept_whole.get_and_before(index);
        whole.then(|| &self.whole[i])
    }

    /// Adds the version that request `request`, a Lease renewal, made: kept by the request (the
    /// row it is kept as, or its answer). Requests come in order: `request` is after the last.
    pub(crate) fn push_by_request(&mut self, request: u32) {
        self.push_bits(false, false);
        self.requests.push(request as usize);
    }

    /// Adds an Event's version, kept by the occurrence `occurrence` (an index into
    /// [`super::Log::events`]) that is recorded next, and builds it ([`event_change`]).
    pub(crate) fn push_by_event(&mut self, occurrence: u32) {
        self.push_bits(false, true);
        self.occurrences.push(occurrence as usize);
    }

    /// Keeps the first `len` versions.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        let (whole, events) = (self.kept_whole.before(len), self.by_event.before(len));
        self.requests.truncate(len - whole - events);
        self.occurrences.truncate(events);
        self.whole.truncate(whole);
        self.kept_whole.truncate(len);
        self.by_event.truncate(len);
    }

    /// Replaces the version at `index`, if it is kept whole (for tests that alter a log).
    pub(crate) fn replace(&mut self, index: usize, change: Change) -> bool {
        if index < self.len()
            && let Kept::Whole(i) = self.kept(index)
        {
            self.whole[i] = change;
            return true;
        }
        false
    }
}

/// The log's object versions, in order: it reads like the list it replaces (`len`,
/// [`Changes::at`] for an index, `iter`, `iter_from`), each giving a
/// `Cow<Change>`. A copy is a pair of references.
#[derive(Clone, Copy, Debug)]
pub struct Changes<'a> {
    list: &'a ChangeList,
    requests: &'a Requests,
    events: &'a Chunked<EventRecord>,
}

/// The version an Event's occurrence wrote, as [`ChangeList::push_by_event`] keeps it: recorded
/// just before the occurrence, at its time, `Added` at the first count and `Modified` after.
pub(crate) fn event_change(occurrence: &EventRecord) -> Change {
    let change = if occurrence.version.count == 1 { ChangeType::Added } else { ChangeType::Modified };
    Change {
        seq: occurrence.seq - 1,
        t: occurrence.t,
        change,
        version: Version::Event(occurrence.version.clone()),
        request: None,
    }
}

impl<'a> Changes<'a> {
    pub(crate) fn new(list: &'a ChangeList, requests: &'a Requests, events: &'a Chunked<EventRecord>) -> Changes<'a> {
        Changes { list, requests, events }
    }

    /// How many versions.
    pub fn len(self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.list.len() == 0
    }

    fn read(self, index: usize) -> Cow<'a, Change> {
        match self.list.kept(index) {
            Kept::Whole(i) => Cow::Borrowed(&self.list.whole[i]),
            Kept::Request(r) => Cow::Owned(self.requests.renewal_change(r as u32)),
            Kept::Occurrence(o) => Cow::Owned(event_change(&self.events[o])),
        }
    }

    /// The version at `index`, if there is one.
    pub fn get(self, index: usize) -> Option<Cow<'a, Change>> {
        (index < self.len()).then(|| self.read(index))
    }

    /// The version at `index` (as `list[index]`: panics past the end).
    pub fn at(self, index: usize) -> Cow<'a, Change> {
        assert!(index < self.len(), "version {index} of {}", self.len());
        self.read(index)
    }

    /// When version `index` was made, without building it (panics past the end).
    pub fn t(self, index: usize) -> SimTime {
        assert!(index < self.len(), "version {index} of {}", self.len());
        match self.list.kept(index) {
            Kept::Whole(i) => self.list.whole[i].t,
            Kept::Request(r) => self.requests.t(r),
            Kept::Occurrence(o) => self.events[o].t,
        }
    }

    /// The versions in order.
    pub fn iter(self) -> Iter<'a> {
        self.iter_from(0)
    }

    /// The versions from index `start` on, in order (empty if there are not so many).
    pub fn iter_from(self, start: usize) -> Iter<'a> {
        Iter { changes: self, front: start.min(self.len()), back: self.len() }
    }

    /// The versions kept whole, in order: every version but a renewed Lease's and an Event's (for
    /// readers that look for other kinds: nothing is built).
    pub fn kept_whole(self) -> chunked::Iter<'a, Change> {
        self.list.whole.iter()
    }

    /// Each version from index `start` on, in order, if it is kept whole: `None` for a renewed
    /// Lease's, kept by its request, and an Event's, kept by its occurrence. For readers that look
    /// for other kinds (Nodes, Pods): nothing is built, and the items stay aligned with the
    /// indices.
    pub fn whole_from(self, start: usize) -> impl Iterator<Item = Option<&'a Change>> + 'a {
        let list = self.list;
        let start = start.min(list.len());
        let mut whole = list.kept_whole.before(start);
        (start..list.len()).map(move |i| {
            list.kept_whole.get(i).then(|| {
                whole += 1;
                &list.whole[whole - 1]
            })
        })
    }

    /// The index of the first version made at or after `t` (a binary search that builds nothing).
    pub fn first_from(self, t: SimTime) -> usize {
        partition_index(self.len(), |i| self.t(i) < t)
    }
}

impl<'a> IntoIterator for Changes<'a> {
    type Item = Cow<'a, Change>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The versions of a [`Changes`] list, in order (from either end): the indices `front..back`.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    changes: Changes<'a>,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, Change>;

    fn next(&mut self) -> Option<Cow<'a, Change>> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.changes.read(self.front - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }

    /// Skips `n` versions without building them.
    fn nth(&mut self, n: usize) -> Option<Cow<'a, Change>> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.changes.read(self.back)
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{ChangeType, Node, Object};
    use std::sync::Arc;

    fn node(seq: u64) -> Change {
        let object = Object::Node(Arc::new(Node::new(&format!("node-{seq}"))));
        Change::new(seq, SimTime::from_secs(seq), ChangeType::Added, object, None)
    }

    fn names(list: &ChangeList) -> Vec<Option<String>> {
        (0..list.len()).map(|i| list.whole(i).map(|c| c.name().to_string())).collect()
    }

    #[test]
    fn a_cut_keeps_the_versions_kept_whole_that_the_kept_slots_name() {
        // Whole, by request, whole, by request, whole.
        let mut full = ChangeList::default();
        full.push(node(1));
        full.push_by_request(7);
        full.push(node(3));
        full.push_by_request(9);
        full.push(node(5));
        let named = |v: &[Option<&str>]| v.iter().map(|s| s.map(str::to_string)).collect::<Vec<_>>();
        assert_eq!(names(&full), named(&[Some("node-1"), None, Some("node-3"), None, Some("node-5")]));
        let (requests, events) = (Requests::default(), Chunked::default());
        let kept: Vec<&str> = Changes::new(&full, &requests, &events).kept_whole().map(Change::name).collect();
        assert_eq!(kept, ["node-1", "node-3", "node-5"]);
        for (keep, whole) in [(5, 3), (4, 2), (3, 2), (2, 1), (1, 1), (0, 0)] {
            let mut list = full.clone();
            list.truncate(keep);
            assert_eq!((list.len(), list.whole.len()), (keep, whole), "keep {keep}");
            assert_eq!(names(&list), names(&full)[..keep], "keep {keep}");
            // It grows again from there: the next version kept whole is found at its place.
            list.push(node(6));
            assert_eq!(list.whole(keep).map(Change::name), Some("node-6"), "keep {keep}");
        }
    }

    #[test]
    fn every_version_is_found_where_it_is_kept_across_words_and_cuts() {
        // Whole, by request and by occurrence in a pattern with no period of 64; the requests and
        // occurrences keeping them come in order, with gaps (other requests, other occurrences).
        let (mut list, mut expected) = (ChangeList::default(), Vec::new());
        let (mut request, mut occurrence) = (0, 0);
        for i in 0..400u64 {
            let kept = match (i * 5 + i / 7) % 4 {
                0 => Kept::Whole(list.whole.len()),
                1 | 2 => {
                    request += 1 + (i % 3) as usize * 40;
                    Kept::Request(request)
                }
                _ => {
                    occurrence += 1 + (i % 2) as usize;
                    Kept::Occurrence(occurrence)
                }
            };
            match kept {
                Kept::Whole(_) => list.push(node(i)),
                Kept::Request(r) => list.push_by_request(r as u32),
                Kept::Occurrence(o) => list.push_by_event(o as u32),
            }
            expected.push(kept);
        }
        let found = |list: &ChangeList| (0..list.len()).map(|i| list.kept(i)).collect::<Vec<_>>();
        assert_eq!(found(&list), expected);
        for keep in [0, 1, 63, 64, 65, 200, 399] {
            let mut cut = list.clone();
            cut.truncate(keep);
            assert_eq!(found(&cut), expected[..keep], "keep {keep}");
            // It grows again from there, each kind found at its place.
            let next_request = expected[..keep].iter().rev().find_map(|k| match k {
                Kept::Request(r) => Some(r + 1),
                _ => None,
            });
            cut.push_by_request(next_request.unwrap_or(0) as u32);
            cut.push(node(1000));
            let whole = cut.whole.len() - 1;
            assert_eq!(found(&cut)[keep..], [Kept::Request(next_request.unwrap_or(0)), Kept::Whole(whole)]);
            assert_eq!(cut.whole(keep + 1).map(Change::name), Some("node-1000"), "keep {keep}");
        }
    }
}
