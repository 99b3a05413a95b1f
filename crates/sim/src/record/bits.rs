//! Lists of bits that say where the log keeps a record, read in constant time.
//!
//! The log keeps most of its records compactly: a Lease renewal as a row of numbers, its version
//! as nothing but its request, an Event's version as its occurrence (see [`super::Requests`] and
//! [`super::changes`]). Where a record is kept is then a matter of counting: request `i` is the
//! `k`-th kept whole if `k` requests kept whole come before it. [`RankBits`] answers "how many
//! set bits come before `i`" (rank) with a count kept every 64 bits, and [`SelectBits`] answers
//! "where is the `k`-th set bit" (select) with the place of every 64th set bit kept: one and a
//! half bits a record, where a place for each would take four bytes.

/// A list of bits with how many are set before every 64 (a rank index): 1.5 bits an entry.
#[derive(Clone, Debug, Default)]
pub(super) struct RankBits {
    words: Vec<u64>,
    /// How many bits are set in the words before each.
    ranks: Vec<u32>,
    len: usize,
}

impl RankBits {
    /// How many bits.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds `bit` at the end.
    pub(super) fn push(&mut self, bit: bool) {
        let index = self.len;
        if index.is_multiple_of(64) {
            let before = self.ones();
            self.ranks.push(u32::try_from(before).expect("fewer than 2^32 set bits"));
            self.words.push(0);
        }
        if bit {
            self.words[index / 64] |= 1 << (index % 64);
        }
        self.len += 1;
    }

    /// Bit `index` (false past the end).
    pub(super) fn get(&self, index: usize) -> bool {
        index < self.len && self.words[index / 64] >> (index % 64) & 1 == 1
    }

    /// Bit `index` (which must exist) and how many bits before it are set.
    pub(super) fn get_and_before(&self, index: usize) -> (bool, usize) {
        let (word, bit) = (index / 64, index % 64);
        let bits = self.words[word];
        (bits >> bit & 1 == 1, self.ranks[word] as usize + (bits & ((1u64 << bit) - 1)).count_ones() as usize)
    }

    /// How many bits before `index` are set (`index` at most [`RankBits::len`]).
    pub(super) fn before(&self, index: usize) -> usize {
        debug_assert!(index <= self.len, "bit {index} of {}", self.len);
        match index / 64 < self.words.len() {
            true => self.get_and_before(index).1,
            // Just past the last word.
            false => self.ones(),
        }
    }

    /// How many bits are set.
    pub(super) fn ones(&self) -> usize {
        match (self.ranks.last(), self.words.last()) {
            (Some(&r), Some(w)) => r as usize + w.count_ones() as usize,
            _ => 0,
        }
    }

    /// The word of bits `64 * word ..` (zero past the end).
    fn word(&self, word: usize) -> u64 {
        self.words.get(word).copied().unwrap_or(0)
    }

    /// Keeps the first `len` bits.
    pub(super) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let words = len.div_ceil(64);
        self.words.truncate(words);
        self.ranks.truncate(words);
        if let Some(last) = self.words.last_mut()
            && !len.is_multiple_of(64)
        {
            *last &= (1u64 << (len % 64)) - 1;
        }
        self.len = len;
    }
}

/// A set of indices, added in increasing order, found by their order (select): the `k`-th
/// index is found from the place of every 64th ([`SelectBits::samples`]) by counting the set
/// bits after it.
#[derive(Clone, Debug, Default)]
pub(super) struct SelectBits {
    /// Bit `i` set for each index `i` in the set.
    bits: RankBits,
    /// The index of every 64th in the set (the 0th, the 64th...).
    samples: Vec<u32>,
}

impl SelectBits {
    /// How many indices.
    pub(super) fn len(&self) -> usize {
        self.bits.ones()
    }

    /// Adds `index`, greater than every index added before.
    pub(super) fn push(&mut self, index: usize) {
        assert!(index >= self.bits.len(), "{index} added after {}", self.bits.len());
        let k = self.len();
        if k.is_multiple_of(64) {
            self.samples.push(u32::try_from(index).expect("indices below 2^32"));
        }
        while self.bits.len() < index {
            self.bits.push(false);
        }
        self.bits.push(true);
    }

    /// The `k`-th index (from 0; panics if there are not so many).
    pub(super) fn select(&self, k: usize) -> usize {
        assert!(k < self.len(), "index {k} of {}", self.len());
        let from = self.samples[k / 64] as usize;
        let mut k = k % 64;
        let mut word = from / 64;
        // The sample itself and the set bits after it.
        let mut bits = self.bits.word(word) & !((1u64 << (from % 64)) - 1);
        loop {
            let ones = bits.count_ones() as usize;
            if k < ones {
                return word * 64 + nth_one(bits, k);
            }
            k -= ones;
            word += 1;
            bits = self.bits.word(word);
        }
    }

    /// Keeps the first `k` indices.
    pub(super) fn truncate(&mut self, k: usize) {
        if k >= self.len() {
            return;
        }
        let len = match k {
            0 => 0,
            _ => self.select(k - 1) + 1,
        };
        self.bits.truncate(len);
        self.samples.truncate(k.div_ceil(64));
    }
}

/// The position of the `k`-th set bit of `word` (from 0, from the lowest; `k` below its count).
fn nth_one(mut word: u64, mut k: usize) -> usize {
    let mut at = 0;
    // A byte at a time, then a bit at a time: at most eight steps of each.
    loop {
        let ones = (word & 0xff).count_ones() as usize;
        if k < ones {
            break;
        }
        k -= ones;
        word >>= 8;
        at += 8;
    }
    for _ in 0..k {
        word &= word - 1;
    }
    at + word.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits from a pattern that repeats with no period of 64 (so the words differ), as a list and
    /// as pushed to a [`RankBits`].
    fn pattern(len: usize) -> (Vec<bool>, RankBits) {
        let expected: Vec<bool> = (0..len).map(|i| (i * 7 + i / 5) % 3 != 0 || i % 61 == 0).collect();
        let mut bits = RankBits::default();
        for &b in &expected {
            bits.push(b);
        }
        (expected, bits)
    }

    #[test]
    fn rank_counts_the_set_bits_before_every_index_across_words() {
        let (expected, bits) = pattern(300);
        assert_eq!(bits.len(), 300);
        let mut before = 0;
        for (i, &b) in expected.iter().enumerate() {
            assert_eq!((bits.get(i), bits.before(i)), (b, before), "bit {i}");
            before += usize::from(b);
        }
        assert_eq!((bits.before(300), bits.ones(), bits.get(300)), (before, before, false));
    }

    #[test]
    fn a_cut_keeps_the_first_bits_and_the_list_grows_again_from_there() {
        let (expected, full) = pattern(200);
        for keep in [0, 1, 63, 64, 65, 128, 150, 199] {
            let mut bits = full.clone();
            bits.truncate(keep);
            assert_eq!(bits.ones(), expected[..keep].iter().filter(|&&b| b).count(), "keep {keep}");
            // Cleared past the cut: set bits pushed after it are counted once.
            bits.push(true);
            bits.push(false);
            assert_eq!(bits.len(), keep + 2);
            assert_eq!(bits.before(keep + 2), expected[..keep].iter().filter(|&&b| b).count() + 1, "keep {keep}");
            assert!(bits.get(keep) && !bits.get(keep + 1), "keep {keep}");
        }
    }

    #[test]
    fn select_finds_every_index_dense_or_sparse() {
        // Dense runs, single gaps and gaps of several words.
        let mut indices = Vec::new();
        let mut i = 3;
        while indices.len() < 700 {
            indices.push(i);
            i += match indices.len() % 97 {
                0 => 500,
                n if n % 5 == 0 => 2,
                _ => 1,
            };
        }
        let mut set = SelectBits::default();
        for &i in &indices {
            set.push(i);
        }
        assert_eq!(set.len(), 700);
        for (k, &i) in indices.iter().enumerate() {
            assert_eq!(set.select(k), i, "the {k}-th");
        }
        for keep in [0, 1, 64, 65, 128, 400, 699] {
            let mut cut = set.clone();
            cut.truncate(keep);
            assert_eq!(cut.len(), keep);
            // Growing again after the cut (past the last kept index, before the first cut one).
            let next = if keep == 0 { 0 } else { indices[keep - 1] + 1 };
            cut.push(next);
            assert_eq!((cut.len(), cut.select(keep)), (keep + 1, next), "keep {keep}");
            for (k, &i) in indices[..keep].iter().enumerate() {
                assert_eq!(cut.select(k), i, "keep {keep}, the {k}-th");
            }
        }
    }

    #[test]
    fn the_nth_set_bit_of_a_word() {
        let word: u64 = 0b1011_0000_0000_0001 | 1 << 40 | 1 << 63;
        let positions: Vec<usize> = (0..word.count_ones() as usize).map(|k| nth_one(word, k)).collect();
        assert_eq!(positions, [0, 12, 13, 15, 40, 63]);
        assert_eq!(nth_one(u64::MAX, 63), 63);
    }

    #[test]
    #[should_panic(expected = "added after")]
    fn indices_must_increase() {
        let mut set = SelectBits::default();
        set.push(5);
        set.push(5);
    }
}
