//! A list kept in chunks of a fixed size, for the log's long lists (requests and object versions,
//! 400,000 each in the 1,000-node hour; Event occurrences and log lines).
//!
//! A `Vec` that grows to that size doubles its buffer about twenty times; each time it copies
//! everything into a new buffer twice as large and frees the old one. At its end it holds up to
//! twice what it needs, and on the way the old buffers
//! are left as holes that the wasm build's memory, which never shrinks, keeps. A [`Chunked`] list
//! never moves what it holds: its first chunk grows as a `Vec` does (a short log stays small),
//! and every further chunk is allocated once at [`Chunked::CHUNK`] entries (64 KB). It reads
//! like a slice: an index, `iter`, `len`, `last`, `partition_point`.

use std::ops::{Index, IndexMut};

/// Bytes per chunk: a list holds at most this much room it does not use (its last chunk's), so a
/// chunk is a size in bytes, not a count of entries (large entries would leave large chunks
/// unused).
pub const CHUNK_BYTES: usize = 64 * 1024;

/// A list kept in chunks of [`CHUNK_BYTES`] (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Chunked<T> {
    /// Every chunk but the last holds exactly [`Chunked::CHUNK`] entries.
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Chunked<T> {
        Chunked { chunks: Vec::new(), len: 0 }
    }
}

impl<T> Chunked<T> {
    /// Entries per chunk: as many as [`CHUNK_BYTES`] holds.
    pub const CHUNK: usize = match size_of::<T>() {
        0 => CHUNK_BYTES,
        size if size >= CHUNK_BYTES => 1,
        size => CHUNK_BYTES / size,
    };

    /// How many entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `value` at the end.
    pub fn push(&mut self, value: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < Self::CHUNK => last.push(value),
            _ => {
                // The first chunk grows as a vector does; the next ones are allocated whole.
                let mut chunk = if self.chunks.is_empty() { Vec::new() } else { Vec::with_capacity(Self::CHUNK) };
                chunk.push(value);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
    }

    /// The entry at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<&T> {
        self.chunks.get(index / Self::CHUNK)?.get(index % Self::CHUNK)
    }

    /// The entry at `index`, for writing, if there is one.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.chunks.get_mut(index / Self::CHUNK)?.get_mut(index % Self::CHUNK)
    }

    /// The last entry.
    pub fn last(&self) -> Option<&T> {
        self.chunks.last()?.last()
    }

    /// Keeps the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        self.chunks.truncate(len.div_ceil(Self::CHUNK));
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(len - (len.div_ceil(Self::CHUNK) - 1) * Self::CHUNK);
        }
        self.len = len;
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_, T> {
        Iter { chunks: self.chunks.iter().flatten(), remaining: self.len }
    }

    /// The entries from index `start` on, in order (empty if there are not so many).
    pub fn iter_from(&self, start: usize) -> Iter<'_, T> {
        let start = start.min(self.len);
        let first = start / Self::CHUNK;
        let mut iter =
            Iter { chunks: self.chunks[first..].iter().flatten(), remaining: self.len - first * Self::CHUNK };
        if let Some(skip) = (start % Self::CHUNK).checked_sub(1) {
            iter.nth(skip);
        }
        iter
    }

    /// The entries at the indices `range` (those there are), in order (from either end).
    pub fn range(&self, range: std::ops::Range<usize>) -> std::iter::Take<Iter<'_, T>> {
        let end = range.end.min(self.len);
        let start = range.start.min(end);
        self.iter_from(start).take(end - start)
    }

    /// The index of the first entry for which `pred` is false, the entries being those for which
    /// it is true followed by those for which it is false (as `slice::partition_point`).
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let full = self.chunks.partition_point(|c| c.last().is_some_and(&mut pred));
        match self.chunks.get(full) {
            Some(chunk) => full * Self::CHUNK + chunk.partition_point(pred),
            None => self.len,
        }
    }

    /// Binary search for the entry whose key `f` gives is `key`, the entries being sorted by it
    /// (as `slice::binary_search_by_key`; of several equal ones, the first).
    pub fn binary_search_by_key<B: Ord>(&self, key: &B, mut f: impl FnMut(&T) -> B) -> Result<usize, usize> {
        let at = self.partition_point(|e| f(e) < *key);
        match self.get(at) {
            Some(e) if f(e) == *key => Ok(at),
            _ => Err(at),
        }
    }
}

impl<T> Index<usize> for Chunked<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        &self.chunks[index / Self::CHUNK][index % Self::CHUNK]
    }
}

impl<T> IndexMut<usize> for Chunked<T> {
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.chunks[index / Self::CHUNK][index % Self::CHUNK]
    }
}

impl<'a, T> IntoIterator for &'a Chunked<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T> FromIterator<T> for Chunked<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Chunked<T> {
        let mut list = Chunked::default();
        for value in iter {
            list.push(value);
        }
        list
    }
}

/// The entries of a [`Chunked`] list, in order (from either end).
#[derive(Clone, Debug)]
pub struct Iter<'a, T> {
    chunks: std::iter::Flatten<std::slice::Iter<'a, Vec<T>>>,
    remaining: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        let next = self.chunks.next()?;
        self.remaining -= 1;
        Some(next)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    /// Skips `n` entries a chunk at a time, not one by one.
    fn nth(&mut self, n: usize) -> Option<&'a T> {
        let skipped = n.min(self.remaining);
        self.remaining -= skipped;
        let next = self.chunks.nth(n)?;
        self.remaining -= 1;
        Some(next)
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let next = self.chunks.next_back()?;
        self.remaining -= 1;
        Some(next)
    }

    /// Skips `n` entries from the back a chunk at a time (a `take(k).rev()` skips what is past
    /// `k` so).
    fn nth_back(&mut self, n: usize) -> Option<Self::Item> {
        let skipped = n.min(self.remaining);
        self.remaining -= skipped;
        let next = self.chunks.nth_back(n)?;
        self.remaining -= 1;
        Some(next)
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries per chunk of the lists of `usize` these tests make.
    const CHUNK: usize = Chunked::<usize>::CHUNK;

    #[test]
    fn it_reads_as_the_vector_it_replaces() {
        for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
            let list: Chunked<usize> = (0..n).map(|i| i * 2).collect();
            let vec: Vec<usize> = (0..n).map(|i| i * 2).collect();
            assert_eq!(list.len(), n);
            assert!(list.iter().eq(vec.iter()), "{n}");
            assert!(list.iter().rev().eq(vec.iter().rev()), "{n}");
            for from in [0, 1, CHUNK, CHUNK + 1, n, n + 1] {
                assert!(list.iter_from(from).eq(vec.iter().skip(from)), "{n} {from}");
                let to = (from + CHUNK / 2).min(n);
                let slice = vec.get(from..to).unwrap_or_default();
                assert!(list.range(from..to).eq(slice.iter()) && list.range(from..to).rev().eq(slice.iter().rev()));
                for skip in [0, 1, CHUNK - 1, CHUNK, n] {
                    let (mut a, mut b) = (list.iter_from(from), vec.iter().skip(from));
                    assert_eq!((a.nth(skip), a.len()), (b.nth(skip), b.len()), "{n} {from} nth {skip}");
                    let (mut a, mut b) = (list.iter_from(from), vec.iter().skip(from));
                    assert_eq!((a.nth_back(skip), a.len()), (b.nth_back(skip), b.len()), "{n} {from} nth_back {skip}");
                }
                assert_eq!(list.iter_from(from).len(), n.saturating_sub(from), "{n} {from}");
            }
            assert_eq!(list.iter().len(), n);
            assert_eq!(list.last(), vec.last());
            for probe in [0, 1, n, n + 1, (2 * n).saturating_sub(1), 2 * CHUNK, 2 * CHUNK + 1] {
                assert_eq!(list.partition_point(|&x| x < probe), vec.partition_point(|&x| x < probe), "{n} {probe}");
                assert_eq!(list.binary_search_by_key(&probe, |&x| x), vec.binary_search(&probe), "{n} {probe}");
            }
            if n > 0 {
                assert_eq!(list[n - 1], vec[n - 1]);
                assert_eq!(list.get(n), None);
            }
        }
    }

    #[test]
    fn a_cut_keeps_the_first_entries_and_the_list_grows_again_from_there() {
        for (n, keep) in [(3 * CHUNK + 5, 2 * CHUNK), (3 * CHUNK + 5, 2 * CHUNK + 1), (CHUNK + 1, 3), (10, 0)] {
            let mut list: Chunked<usize> = (0..n).collect();
            list.truncate(keep);
            assert!(list.iter().eq((0..keep).collect::<Vec<_>>().iter()), "{n} {keep}");
            list.push(keep);
            list.push(keep + 1);
            assert!(list.iter().copied().eq(0..keep + 2), "{n} {keep}");
            assert_eq!(list[keep + 1], keep + 1);
        }
    }

    #[test]
    fn only_the_first_chunk_grows_later_ones_are_allocated_whole() {
        let list: Chunked<u8> = (0..3).map(|i| i as u8).collect();
        assert!(list.chunks[0].capacity() < CHUNK, "a short list stays small");
        let list: Chunked<u64> = (0..CHUNK as u64 + 1).collect();
        assert_eq!(list.chunks[1].capacity(), CHUNK);
        assert_eq!(CHUNK * size_of::<usize>(), CHUNK_BYTES, "a chunk of 64 KB");
        assert_eq!(Chunked::<[u8; 100]>::CHUNK, 655, "as many as fit");
        assert_eq!(Chunked::<[u8; 100_000]>::CHUNK, 1, "one at least");
    }
}
