//! The log's object versions, with a Lease renewal's version kept by its request's row and an
//! Event's by its occurrence.
//!
//! A renewal makes one new version of one Lease (360,000 of the 1,000-node hour's 400,000
//! versions), and everything that version is, its time, its resourceVersion, its `renewTime` and
//! the Lease it renews, is in the renewal's row among the requests ([`super::Requests`]). So a
//! renewal kept as a row keeps its version as the row's place (four bytes), not as a [`Change`]
//! of 64 bytes repeating the row, and [`Changes`] builds the [`Change`] when something reads it:
//! the same value, field for field, that was recorded (a debug build checks each one as it is
//! kept). An Event's version is kept the same way by the occurrence that wrote it
//! ([`super::EventRecord`], recorded next: the version, its time, and its sequence number less
//! one; 23,000 of the hour's versions). Every other version is kept whole. Reading returns a
//! [`Cow`], as reading the requests does: borrowed for a version kept whole, owned for the
//! others.

use std::borrow::Cow;

use super::{Change, EventRecord, Requests, Version};
use crate::chunked::{self, Chunked};
use crate::objects::ChangeType;
use crate::time::SimTime;

/// In [`ChangeList::slots`], the bit that marks a version kept by its request.
const RENEWAL: u32 = 1 << 31;

/// In [`ChangeList::slots`], the bit that marks an Event's version kept by its occurrence.
const EVENT: u32 = 1 << 30;

/// The bits that mark a version not kept whole.
const NOT_WHOLE: u32 = RENEWAL | EVENT;

/// The storage of the log's object versions (see the module's documentation); read through
/// [`Changes`], which also sees the requests.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChangeList {
    /// Each version's place: an index into `whole`; with [`RENEWAL`] set, the index of the
    /// request (a renewal) that made it; with [`EVENT`] set, the index of the Event's occurrence.
    slots: Chunked<u32>,
    whole: Chunked<Change>,
}

impl ChangeList {
    /// How many versions.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Adds a version kept whole.
    pub(crate) fn push(&mut self, change: Change) {
        self.slots.push(self.whole.len() as u32);
        self.whole.push(change);
    }

    /// The version at `index` if it is kept whole (a renewal's never is a Pod's, say).
    pub(crate) fn whole(&self, index: usize) -> Option<&Change> {
        let slot = *self.slots.get(index)?;
        (slot & NOT_WHOLE == 0).then(|| &self.whole[slot as usize])
    }

    /// Adds the version that request `request`, a Lease renewal, made: kept by the request (the
    /// row it is kept as, or its answer).
    pub(crate) fn push_by_request(&mut self, request: u32) {
        assert!(request & NOT_WHOLE == 0, "fewer than 2^30 requests");
        self.slots.push(RENEWAL | request);
    }

    /// Adds an Event's version, kept by the occurrence `occurrence` (an index into
    /// [`super::Log::events`]) that is recorded next, and builds it ([`event_change`]).
    pub(crate) fn push_by_event(&mut self, occurrence: u32) {
        assert!(occurrence & NOT_WHOLE == 0, "fewer than 2^30 Event occurrences");
        self.slots.push(EVENT | occurrence);
    }

    /// Keeps the first `len` versions.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        // The whole versions kept are those the kept slots name: the first ones.
        let whole =
            self.slots.iter_from(len).find(|&&slot| slot & NOT_WHOLE == 0).map_or(self.whole.len(), |&s| s as usize);
        self.slots.truncate(len);
        self.whole.truncate(whole);
    }

    /// Replaces the version at `index`, if it is kept whole (for tests that alter a log).
    pub(crate) fn replace(&mut self, index: usize, change: Change) -> bool {
        match self.slots.get(index) {
            Some(&slot) if slot & NOT_WHOLE == 0 => {
                self.whole[slot as usize] = change;
                true
            }
            _ => false,
        }
    }
}

/// The log's object versions, in order: it reads like the list it replaces (`len`,
/// [`Changes::at`] for an index, `iter`, `iter_from`), each giving a
/// `Cow<Change>`. A copy is a pair of references.
#[derive(Clone, Copy, Debug)]
pub struct Changes<'a> {
    list: &'a ChangeList,
    requests: &'a Requests,
    events: &'a [EventRecord],
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
    pub(crate) fn new(list: &'a ChangeList, requests: &'a Requests, events: &'a [EventRecord]) -> Changes<'a> {
        Changes { list, requests, events }
    }

    /// How many versions.
    pub fn len(self) -> usize {
        self.list.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.list.slots.is_empty()
    }

    fn read(self, slot: u32) -> Cow<'a, Change> {
        if slot & RENEWAL != 0 {
            Cow::Owned(self.requests.renewal_change(slot & !RENEWAL))
        } else if slot & EVENT != 0 {
            Cow::Owned(event_change(&self.events[(slot & !EVENT) as usize]))
        } else {
            Cow::Borrowed(&self.list.whole[slot as usize])
        }
    }

    /// The version at `index`, if there is one.
    pub fn get(self, index: usize) -> Option<Cow<'a, Change>> {
        self.list.slots.get(index).map(|&slot| self.read(slot))
    }

    /// The version at `index` (as `list[index]`: panics past the end).
    pub fn at(self, index: usize) -> Cow<'a, Change> {
        self.read(self.list.slots[index])
    }

    /// When version `index` was made, without building it (panics past the end).
    pub fn t(self, index: usize) -> SimTime {
        self.t_of(self.list.slots[index])
    }

    fn t_of(self, slot: u32) -> SimTime {
        if slot & RENEWAL != 0 {
            self.requests.t((slot & !RENEWAL) as usize)
        } else if slot & EVENT != 0 {
            self.events[(slot & !EVENT) as usize].t
        } else {
            self.list.whole[slot as usize].t
        }
    }

    /// The versions in order.
    pub fn iter(self) -> Iter<'a> {
        Iter { changes: self, slots: self.list.slots.iter() }
    }

    /// The versions from index `start` on, in order (empty if there are not so many).
    pub fn iter_from(self, start: usize) -> Iter<'a> {
        Iter { changes: self, slots: self.list.slots.iter_from(start) }
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
        let whole = &self.list.whole;
        self.list.slots.iter_from(start).map(move |&slot| (slot & NOT_WHOLE == 0).then(|| &whole[slot as usize]))
    }

    /// The index of the first version made at or after `t` (a binary search that builds nothing).
    pub fn first_from(self, t: SimTime) -> usize {
        self.list.slots.partition_point(|&slot| self.t_of(slot) < t)
    }
}

impl<'a> IntoIterator for Changes<'a> {
    type Item = Cow<'a, Change>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The versions of a [`Changes`] list, in order (from either end).
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    changes: Changes<'a>,
    slots: chunked::Iter<'a, u32>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, Change>;

    fn next(&mut self) -> Option<Cow<'a, Change>> {
        self.slots.next().map(|&slot| self.changes.read(slot))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.slots.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.slots.next_back().map(|&slot| self.changes.read(slot))
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
        let requests = Requests::default();
        let kept: Vec<&str> = Changes::new(&full, &requests, &[]).kept_whole().map(Change::name).collect();
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
}
