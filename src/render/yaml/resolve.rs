//! go-yaml v2's `resolve.go`: what a plain scalar would read back as (a string, or a bool,
//! null, number or timestamp), so that the emitter quotes what would not stay a string.

use super::at;

/// Whether go-yaml would read `s`, written plain, back as a string (`resolve("", s)` gives
/// `!!str`).
pub(super) fn resolves_to_string(s: &str) -> bool {
    let b = s.as_bytes();
    let hint = match b.first() {
        None => return false, // "" is null
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => return true,
    };
    if RESOLVE_MAP.contains(&s) {
        return false;
    }
    match hint {
        b'.' => !go_parse_float_ok(s),
        b'D' | b'S' => {
            if parse_timestamp(s) {
                return false;
            }
            let plain: String = s.chars().filter(|&c| c != '_').collect();
            if go_parse_int(&plain, true).is_some() || go_parse_int(&plain, false).is_some() {
                return false;
            }
            if yaml_style_float(&plain) && finite_decimal(&plain) {
                return false;
            }
            true
        }
        _ => true,
    }
}

/// resolve.go's table of bool, null, float and merge spellings.
const RESOLVE_MAP: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no", "No", "NO", "false",
    "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null", "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf",
    ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<",
];

/// `strconv.ParseInt(s, 0, 64)` (signed) or `strconv.ParseUint(s, 0, 64)` succeeding.
fn go_parse_int(s: &str, signed: bool) -> Option<i128> {
    let b = s.as_bytes();
    let (neg, body) = match b.first() {
        Some(b'+') if signed => (false, &b[1..]),
        Some(b'-') if signed => (true, &b[1..]),
        _ => (false, b),
    };
    if body.is_empty() {
        return None;
    }
    let (base, digits): (u32, &[u8]) = if body[0] == b'0' {
        match body.get(1).map(u8::to_ascii_lowercase) {
            Some(b'b') if body.len() >= 3 => (2, &body[2..]),
            Some(b'o') if body.len() >= 3 => (8, &body[2..]),
            Some(b'x') if body.len() >= 3 => (16, &body[2..]),
            _ => (8, &body[1..]),
        }
    } else {
        (10, body)
    };
    let mut n: u128 = 0;
    for &d in digits {
        let v = char::from(d).to_digit(base)?;
        n = n * u128::from(base) + u128::from(v);
        if n > u128::from(u64::MAX) {
            return None;
        }
    }
    let n = n as i128;
    if signed {
        let v = if neg { -n } else { n };
        (i128::from(i64::MIN)..=i128::from(i64::MAX)).contains(&v).then_some(v)
    } else {
        Some(n)
    }
}

/// resolve.go's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if at(b, i) == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if at(b, i) == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(at(b, i), b'e' | b'E') {
        i += 1;
        if matches!(at(b, i), b'+' | b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `strconv.ParseFloat(s, 64)` succeeding, for a string that starts with `.` (so no sign, no
/// hex, no inf/nan): `.` digits, an optional exponent, underscores only between digits.
fn go_parse_float_ok(s: &str) -> bool {
    if !go_underscore_ok(s) {
        return false;
    }
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    yaml_style_float(&plain) && finite_decimal(&plain)
}

/// The digits of 2^1024 − 2^970, the least value a float64 conversion rounds to infinity.
#[cfg(not(target_arch = "wasm32"))]
const FLOAT64_OVERFLOW: &[u8] = b"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/// Whether a decimal in `yamlStyleFloat` form parses to a finite float64 (`strconv.ParseFloat`
/// without a range error), decided on its digits: parsing decimal text as a float would bring
/// large tables into the page for a case no object has.
#[cfg(target_arch = "wasm32")]
pub(super) fn finite_decimal(_: &str) -> bool {
    // In the page the emitter prints the simulation's objects, whose strings never spell a
    // number beyond float64's range.
    true
}

#[cfg(not(target_arch = "wasm32"))]
pub(super) fn finite_decimal(s: &str) -> bool {
    let s = s.trim_start_matches(['+', '-']);
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, "0"),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    let Some(first) = digits.iter().position(|&d| d != b'0') else { return true };
    let exp: i64 = match exp.parse() {
        Ok(e) => e,
        // An exponent beyond int64: infinity, or an underflow to zero.
        Err(_) => return exp.starts_with('-'),
    };
    // The value is 0.DDD… × 10^e10.
    let e10 = (int.len() as i64 - first as i64).saturating_add(exp);
    let limit = FLOAT64_OVERFLOW.len() as i64;
    if e10 != limit {
        return e10 < limit;
    }
    let sig = &digits[first..];
    for i in 0..sig.len().max(FLOAT64_OVERFLOW.len()) {
        let (a, b) = (sig.get(i).copied().unwrap_or(b'0'), FLOAT64_OVERFLOW.get(i).copied().unwrap_or(b'0'));
        if a != b {
            return a < b;
        }
    }
    false
}

/// strconv's `underscoreOK` (base-10 numbers): every `_` sits between digits.
fn go_underscore_ok(s: &str) -> bool {
    let mut saw = b'^';
    let b = s.as_bytes();
    let b = if matches!(b.first(), Some(b'+' | b'-')) { &b[1..] } else { b };
    for &c in b {
        if c.is_ascii_digit() {
            saw = b'0';
            continue;
        }
        if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
            continue;
        }
        if saw == b'_' {
            return false;
        }
        saw = b'!';
    }
    saw != b'_'
}

/// encode.go's `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
pub(super) fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&c) = b.first() else { return false };
    if !(c == b'+' || c == b'-' || c.is_ascii_digit()) || !s.contains(':') {
        return false;
    }
    let mut i = 0;
    if matches!(c, b'+' | b'-') {
        i += 1;
    }
    if !at(b, i).is_ascii_digit() {
        return false;
    }
    i += 1;
    while at(b, i).is_ascii_digit() || at(b, i) == b'_' {
        i += 1;
    }
    let mut groups = 0;
    while at(b, i) == b':' {
        i += 1;
        // [0-5]?[0-9]: one digit, or two with the first in 0-5.
        let (d0, d1) = (at(b, i), at(b, i + 1));
        if matches!(d0, b'0'..=b'5') && d1.is_ascii_digit() {
            i += 2;
        } else if d0.is_ascii_digit() {
            i += 1;
        } else {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if at(b, i) == b'.' {
        i += 1;
        while at(b, i).is_ascii_digit() || at(b, i) == b'_' {
            i += 1;
        }
    }
    i == b.len()
}

/// resolve.go's `parseTimestamp`: `time.Parse` with one of
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with a lowercase `t`,
/// `2006-1-2 15:4:5.999999999` and `2006-1-2`.
fn parse_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    let Some((year, month, day, rest)) = parse_date(b) else { return false };
    let valid_day = day >= 1 && day <= days_in(month, year);
    if rest.is_empty() {
        return valid_day;
    }
    let rest_t = match rest[0] {
        b'T' | b't' => parse_clock(&rest[1..]).and_then(parse_zone),
        _ => None,
    };
    if rest_t.is_some_and(<[u8]>::is_empty) {
        return valid_day;
    }
    // `2006-1-2 15:4:5.999999999`: a space in a layout matches any run of spaces.
    if rest[0] == b' ' {
        let after = trim_spaces(rest);
        if let Some(tail) = parse_clock(after) {
            return tail.is_empty() && valid_day;
        }
    }
    false
}

fn trim_spaces(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|&&c| c == b' ').count();
    &b[n..]
}

/// Go's `getnum(s, false)`: one or two digits.
fn getnum(b: &[u8]) -> Option<(u32, &[u8])> {
    let d0 = *b.first().filter(|c| c.is_ascii_digit())?;
    match b.get(1).filter(|c| c.is_ascii_digit()) {
        Some(&d1) => Some((u32::from(d0 - b'0') * 10 + u32::from(d1 - b'0'), &b[2..])),
        None => Some((u32::from(d0 - b'0'), &b[1..])),
    }
}

fn parse_date(b: &[u8]) -> Option<(i64, u32, u32, &[u8])> {
    let year: i64 = std::str::from_utf8(&b[..4]).ok()?.parse().ok()?;
    let rest = b[4..].strip_prefix(b"-")?;
    let (month, rest) = getnum(rest)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let rest = rest.strip_prefix(b"-")?;
    let (day, rest) = getnum(rest)?;
    if day > 31 {
        return None;
    }
    Some((year, month, day, rest))
}

/// `15:4:5` and an optional `.999999999` (any number of digits, `.` or `,`).
fn parse_clock(b: &[u8]) -> Option<&[u8]> {
    let (hour, rest) = getnum(b)?;
    let rest = rest.strip_prefix(b":")?;
    let (minute, rest) = getnum(rest)?;
    let rest = rest.strip_prefix(b":")?;
    let (second, mut rest) = getnum(rest)?;
    if hour >= 24 || minute >= 60 || second >= 60 {
        return None;
    }
    if rest.len() >= 2 && matches!(rest[0], b'.' | b',') && rest[1].is_ascii_digit() {
        let n = 1 + rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        rest = &rest[n..];
    }
    Some(rest)
}

/// `Z07:00`: `Z`, or `±hh:mm` with hh ≤ 24 and mm ≤ 60.
fn parse_zone(b: &[u8]) -> Option<&[u8]> {
    if let Some(rest) = b.strip_prefix(b"Z") {
        return Some(rest);
    }
    if b.len() < 6 || b[3] != b':' || !matches!(b[0], b'+' | b'-') {
        return None;
    }
    let two = |x: &[u8]| (x[0].is_ascii_digit() && x[1].is_ascii_digit()).then(|| (x[0] - b'0') * 10 + (x[1] - b'0'));
    let (hh, mm) = (two(&b[1..3])?, two(&b[4..6])?);
    (hh <= 24 && mm <= 60).then_some(&b[6..])
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
