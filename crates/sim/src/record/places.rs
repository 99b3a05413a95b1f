//! The log's table of where each object's versions are, found by a hash of the object's key.
//!
//! The log finds an object's history (its place in `Log::history`) by the object's key tens of
//! thousands of times an hour (every version recorded, every Event's first occurrence). A tree of
//! keys walked comparing names is slow for keys with long common prefixes, and a map from each
//! key's 64-bit hash to its place takes sixteen bytes a key. [`PlaceTable`] holds the places
//! alone, four bytes each: the caller gives the
//! hash of the key it looks for and tells whether a place holds that key, and when the table
//! grows it gives each place's hash again from the key the place holds.

/// An empty bucket.
const EMPTY: u32 = u32::MAX;

/// Places (`u32`, never `u32::MAX`) in a table of open addressing: a place goes in the first
/// empty bucket from its hash's on, and the table is at most three quarters full, doubled when
/// it would be fuller. Nothing is ever removed (the log forgets no key).
#[derive(Clone, Debug, Default)]
pub(super) struct PlaceTable {
    buckets: Vec<u32>,
    len: usize,
}

impl PlaceTable {
    /// The place with this `hash` for which `is` is true, if any.
    pub(super) fn find(&self, hash: u64, mut is: impl FnMut(u32) -> bool) -> Option<u32> {
        if self.buckets.is_empty() {
            return None;
        }
        let mask = self.buckets.len() - 1;
        let mut i = bucket(hash, mask);
        loop {
            match self.buckets[i] {
                EMPTY => return None,
                place if is(place) => return Some(place),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `place`, whose key has `hash` (and is not in the table yet); `hash_of` gives the hash
    /// of any place's key, for the places moved when the table grows.
    pub(super) fn insert(&mut self, hash: u64, place: u32, hash_of: impl Fn(u32) -> u64) {
        assert!(place != EMPTY, "a place below u32::MAX");
        if (self.len + 1) * 4 > self.buckets.len() * 3 {
            let size = (self.buckets.len() * 2).max(16);
            let old = std::mem::replace(&mut self.buckets, vec![EMPTY; size]);
            for p in old.into_iter().filter(|&p| p != EMPTY) {
                self.put(hash_of(p), p);
            }
        }
        self.put(hash, place);
        self.len += 1;
    }

    fn put(&mut self, hash: u64, place: u32) {
        let mask = self.buckets.len() - 1;
        let mut i = bucket(hash, mask);
        while self.buckets[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.buckets[i] = place;
    }
}

/// The first bucket of `hash` in a table of `mask + 1` buckets: from the hash's bits mixed by a
/// multiplication (the Fx hash of short keys differs mostly in its high bits).
fn bucket(hash: u64, mask: usize) -> usize {
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_is_found_by_its_hash_as_the_table_grows_and_past_equal_hashes() {
        // Place `p`'s key hashes to `p / 3`: three places share every hash.
        let hash_of = |p: u32| u64::from(p / 3);
        let mut table = PlaceTable::default();
        assert_eq!(table.find(0, |_| true), None, "an empty table");
        for p in 0..5_000 {
            table.insert(hash_of(p), p, hash_of);
            assert!(table.buckets.len() * 3 >= table.len * 4, "at most three quarters full");
        }
        assert_eq!(table.buckets.len(), 8192);
        for p in 0..5_000 {
            assert_eq!(table.find(hash_of(p), |q| q == p), Some(p), "place {p}");
        }
        assert_eq!(table.find(hash_of(4_999), |q| q == 5_000), None, "not there: its hash's places all read");
        assert_eq!(table.find(9_999, |q| hash_of(q) == 9_999), None, "a hash no place has");
    }

    #[test]
    #[should_panic(expected = "a place below u32::MAX")]
    fn the_empty_mark_is_no_place() {
        PlaceTable::default().insert(0, u32::MAX, |_| 0);
    }
}
