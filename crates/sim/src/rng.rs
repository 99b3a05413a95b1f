//! The simulation's only source of randomness: a seeded SplitMix64 generator.
//!
//! Every draw comes from here, so the same seed and inputs give the same timeline, byte for
//! byte, on every platform.

use std::time::Duration;

/// A small, fast, seedable generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

/// The alphabet Kubernetes uses for generated name suffixes (`k8s.io/apimachinery/pkg/util/rand`):
/// consonants and digits without vowels or look-alikes, so no words are spelt by accident.
const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6e6f_6465_6c69_6e65)
    }

    /// A generator of its own for a key (FNV-1a of the parts), drawing nothing from any other:
    /// for values added to the simulation later that must not move the seeded stream's draws.
    pub fn keyed(parts: &[&str]) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for part in parts {
            for b in part.bytes().chain(std::iter::once(0)) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        Rng::new(h)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform value in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform integer in `[0, n)`; `n` must be positive.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// `base` stretched by up to `factor` of itself, as `wait.Jitter` does.
    pub fn jitter(&mut self, base: Duration, factor: f64) -> Duration {
        let extra = base.as_micros() as f64 * factor * self.next_f64();
        base + Duration::from_micros(extra as u64)
    }

    /// A duration uniformly between `lo` and `hi`.
    pub fn between(&mut self, lo: Duration, hi: Duration) -> Duration {
        let span = hi.saturating_sub(lo).as_micros() as u64;
        lo + Duration::from_micros(self.below(span + 1))
    }

    /// A random RFC 4122 version-4 UUID, as the API server assigns to `metadata.uid`.
    pub fn uuid(&mut self) -> String {
        self.uuid_value().text().to_string()
    }

    /// [`Rng::uuid`] as its two draws, written out when read (an Event's uid: 23,000 Events are
    /// written in an hour of 1,000 nodes).
    pub fn uuid_value(&mut self) -> Uuid {
        let a = self.next_u64();
        let b = self.next_u64();
        Uuid(a, b)
    }

    /// `n` characters from the Kubernetes name-suffix alphabet.
    pub fn name_suffix(&mut self, n: usize) -> String {
        (0..n).map(|_| NAME_ALPHABET[self.below(NAME_ALPHABET.len() as u64) as usize] as char).collect()
    }

    /// `n` lowercase hex digits (machine IDs, boot IDs).
    pub fn hex(&mut self, n: usize) -> String {
        use std::fmt::Write;
        let mut s = String::with_capacity(n + 16);
        while s.len() < n {
            let _ = write!(s, "{:016x}", self.next_u64());
        }
        s.truncate(n);
        s
    }
}

/// A version-4 UUID as the two 64-bit draws it is made of (see [`Rng::uuid_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uuid(u64, u64);

impl Uuid {
    /// The 32 hex digits of the first draw then the second, written as 8-4-4-4-12 with the
    /// version digit (the 13th) set to 4 and the variant digit (the 17th) to 8, 9, a or b.
    /// (Written by hand, not with `format!`: an hour of 1,000 nodes draws 60,000 of them.)
    pub fn text(self) -> UuidText {
        let Uuid(a, b) = self;
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let digit = |i: usize| {
            let word = if i < 16 { a } else { b };
            DIGITS[((word >> (60 - 4 * (i % 16))) & 0xf) as usize]
        };
        let mut out = [0u8; 36];
        let mut at = 0;
        for i in 0..32 {
            if matches!(i, 8 | 12 | 16 | 20) {
                out[at] = b'-';
                at += 1;
            }
            out[at] = match i {
                12 => b'4',
                16 => b"89ab"[(b >> 62) as usize],
                _ => digit(i),
            };
            at += 1;
        }
        UuidText(out)
    }
}

/// A [`Uuid`] written out, on the stack.
pub struct UuidText([u8; 36]);

impl std::ops::Deref for UuidText {
    type Target = str;

    fn deref(&self) -> &str {
        std::str::from_utf8(&self.0).expect("hex digits and dashes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut c = Rng::new(8);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..5).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn uuids_are_version_4() {
        let mut r = Rng::new(1);
        for _ in 0..100 {
            let u = r.uuid();
            assert_eq!(u.len(), 36);
            assert_eq!(&u[14..15], "4");
            assert!("89ab".contains(&u[19..20]), "{u}");
        }
    }

    #[test]
    fn uuids_are_the_two_draws_in_hex() {
        let mut r = Rng::new(1);
        let mut copy = r.clone();
        let (a, b) = (copy.next_u64(), copy.next_u64());
        let hex = format!("{a:016x}{b:016x}");
        let variant = ['8', '9', 'a', 'b'][(b >> 62) as usize];
        let want =
            format!("{}-{}-4{}-{}{}-{}", &hex[0..8], &hex[8..12], &hex[13..16], variant, &hex[17..20], &hex[20..32]);
        assert_eq!(r.uuid(), want);
    }

    #[test]
    fn jitter_stays_in_range() {
        let mut r = Rng::new(3);
        for _ in 0..1000 {
            let d = r.jitter(Duration::from_secs(10), 0.04);
            assert!(d >= Duration::from_secs(10) && d <= Duration::from_millis(10_400));
        }
    }

    #[test]
    fn name_suffixes_use_the_kubernetes_alphabet() {
        let mut r = Rng::new(9);
        let s = r.name_suffix(5);
        assert_eq!(s.len(), 5);
        assert!(s.bytes().all(|c| NAME_ALPHABET.contains(&c)));
    }
}
