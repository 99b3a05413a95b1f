//! Building the strings the simulation writes by the tens of thousands (log lines, Event
//! messages and names, error messages) without `format!`.
//!
//! `format!` goes through `core::fmt` for every piece: a dispatch and a padding check per
//! argument and a buffer grown as it goes, for each of the hundreds of thousands of lines a
//! 1,000-node fleet writes. [`cat!`] measures its pieces, allocates once and copies them.

/// The pieces joined, in one allocation of the right size.
pub(crate) fn concat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

/// Joins its arguments (anything that derefs to `str`) into a new `String`, as
/// `format!("{}{}…")` would (see the module's documentation).
macro_rules! cat {
    ($($part:expr),+ $(,)?) => {
        $crate::strings::concat(&[$(&$part),+])
    };
}
pub(crate) use cat;

/// `n` in decimal, on the stack.
pub(crate) fn decimal(n: u64) -> Digits {
    digits(n, 10)
}

/// `n` in lowercase hexadecimal, on the stack (`{:x}`).
pub(crate) fn hex(n: u64) -> Digits {
    digits(n, 16)
}

/// `n`'s digits in `base` (at most 16), most significant first.
fn digits(mut n: u64, base: u64) -> Digits {
    let mut d = Digits { buf: [0; 20], start: 20 };
    loop {
        d.start -= 1;
        d.buf[d.start] = b"0123456789abcdef"[(n % base) as usize];
        n /= base;
        if n == 0 {
            return d;
        }
    }
}

/// Whether `needle` occurs in `hay`: `str::contains`'s answer, for the searches that test one
/// short pattern against every record of a list (a step's anchor against 100,000 log lines, the
/// page's routine requests). `str::contains` prepares a two-way searcher for every call, which
/// costs more than the search of a line; this looks for the needle's first byte and compares
/// the rest there.
pub fn contains(hay: &str, needle: &str) -> bool {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else { return true };
    let Some(last) = hay.len().checked_sub(needle.len()) else { return false };
    let mut from = 0;
    while let Some(i) = hay[from..=last].iter().position(|&b| b == first) {
        let at = from + i;
        if &hay[at + 1..at + needle.len()] == rest {
            return true;
        }
        from = at + 1;
        if from > last {
            return false;
        }
    }
    false
}

/// A number's digits, read as a `&str`.
pub(crate) struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl std::ops::Deref for Digits {
    type Target = str;

    fn deref(&self) -> &str {
        std::str::from_utf8(&self.buf[self.start..]).expect("ASCII digits")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cat_joins_what_format_would() {
        let name = String::from("node-7");
        let text: std::sync::Arc<str> = "eu-west-1a".into();
        let s = cat!("\"Node is unresponsive\" node=\"", name, "\" zone=", text, "");
        assert_eq!(s, format!("\"Node is unresponsive\" node=\"{name}\" zone={text}"));
        assert_eq!(s.capacity(), s.len());
    }

    #[test]
    fn contains_answers_as_str_contains() {
        let hays = [
            "",
            "a",
            "ab",
            "aab",
            "abab",
            "newState=\"PartialDisruption\" zone=\"x\"",
            "/leases/",
            "leases",
            "日本語/leases/ノード",
        ];
        let needles =
            ["", "a", "b", "ab", "aab", "ba", "abc", "newState=\"PartialDisruption\"", "/leases/", "ノード", "x\""];
        for hay in hays {
            for needle in needles {
                assert_eq!(contains(hay, needle), hay.contains(needle), "{hay:?} {needle:?}");
            }
        }
        assert!(contains("xxxxxabcabd", "abd"));
        assert!(!contains("xxxxxabcabc", "abd"));
    }

    #[test]
    fn numbers_read_as_format_writes_them() {
        for n in [0, 7, 10, 255, 1_000_000, 1_733_400_000_123_456_789, u64::MAX] {
            assert_eq!(&*decimal(n), n.to_string());
            assert_eq!(&*hex(n), format!("{n:x}"));
        }
    }
}
