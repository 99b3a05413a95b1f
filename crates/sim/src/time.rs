//! Simulated time: instants on the simulation's own clock, Go-style durations, and the
//! calendar formats Kubernetes prints (RFC 3339 for objects, RFC 1123Z for `kubectl describe`).
//!
//! Nothing here reads a clock. The simulation starts at [`SimTime::ZERO`] ("T+00:00"); the
//! wall-clock date that instant stands for is an input (the epoch), so timestamps in objects
//! are plain strings computed from the two.

use crate::strings::{cat, decimal};
use std::fmt;
use std::ops::{Add, Sub};
use std::time::Duration;

/// An instant on the simulated clock, in microseconds since the start of the timeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(u64);

impl SimTime {
    /// The start of every timeline.
    pub const ZERO: SimTime = SimTime(0);
    /// The largest representable instant; used as "never".
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// An instant `us` microseconds after the start.
    pub const fn from_micros(us: u64) -> SimTime {
        SimTime(us)
    }

    /// An instant `ms` milliseconds after the start.
    pub const fn from_millis(ms: u64) -> SimTime {
        SimTime(ms * 1_000)
    }

    /// An instant `s` seconds after the start.
    pub const fn from_secs(s: u64) -> SimTime {
        SimTime(s * 1_000_000)
    }

    /// Microseconds since the start.
    pub const fn as_micros(self) -> u64 {
        self.0
    }

    /// Whole milliseconds since the start.
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000
    }

    /// The time since the start as a [`Duration`].
    pub const fn since_start(self) -> Duration {
        Duration::from_micros(self.0)
    }

    /// The time from `earlier` to `self`, zero if `earlier` is later.
    pub fn saturating_since(self, earlier: SimTime) -> Duration {
        Duration::from_micros(self.0.saturating_sub(earlier.0))
    }

    /// `self - d`, clamped at the start of the timeline.
    pub fn saturating_sub(self, d: Duration) -> SimTime {
        SimTime(self.0.saturating_sub(d.as_micros() as u64))
    }

    /// The clock as the page shows it: `T+MM:SS`, or `T+H:MM:SS` past the first hour.
    pub fn clock_label(self) -> String {
        let s = self.0 / 1_000_000;
        let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
        if h > 0 { format!("T+{h}:{m:02}:{s:02}") } else { format!("T+{m:02}:{s:02}") }
    }
}

impl Add<Duration> for SimTime {
    type Output = SimTime;
    fn add(self, d: Duration) -> SimTime {
        SimTime(self.0.saturating_add(d.as_micros() as u64))
    }
}

impl Sub for SimTime {
    type Output = Duration;
    fn sub(self, earlier: SimTime) -> Duration {
        self.saturating_since(earlier)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_go_duration(self.since_start()))
    }
}

/// Shorthand for a whole number of seconds.
pub const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Shorthand for a whole number of milliseconds.
pub const fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

/// Why a duration string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurationError(pub String);

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DurationError {}

/// Longest duration accepted anywhere (a week of simulated time).
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// Parses a duration in Go's notation (`1500ms`, `90s`, `2m30s`, `1.5h`, `1h2m3.5s`), the way
/// `time.ParseDuration` does, limited to non-negative values up to [`MAX_DURATION`]. A bare
/// `0` is accepted, as in Go.
pub fn parse_go_duration(text: &str) -> Result<Duration, DurationError> {
    parse_go_duration_up_to(text, MAX_DURATION, "longer than a week")
}

/// The longest certificate validity a setting takes (`--cluster-signing-duration`): ten years.
pub const MAX_VALIDITY: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// [`parse_go_duration`] up to [`MAX_VALIDITY`] (a certificate's validity, a year by default).
pub fn parse_validity(text: &str) -> Result<Duration, DurationError> {
    parse_go_duration_up_to(text, MAX_VALIDITY, "longer than ten years")
}

fn parse_go_duration_up_to(text: &str, max: Duration, too_long: &str) -> Result<Duration, DurationError> {
    let err = |why: &str| DurationError(format!("invalid duration \"{text}\": {why}"));
    let s = text.trim();
    if s.is_empty() {
        return Err(err("empty"));
    }
    if s == "0" {
        return Ok(Duration::ZERO);
    }
    if s.starts_with('-') {
        return Err(err("negative durations are not allowed"));
    }
    let s = s.strip_prefix('+').unwrap_or(s);
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut total_ns: u128 = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let number = &s[start..i];
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return Err(err("expected a number"));
        }
        let unit_start = i;
        while i < bytes.len() && !(bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let unit_ns: u128 = match &s[unit_start..i] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "" => return Err(err("missing unit (use ms, s, m or h)")),
            _ => return Err(err("unknown unit (use ms, s, m or h)")),
        };
        let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
        if whole.len() > 12 {
            return Err(err("too large"));
        }
        let whole: u128 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| err("expected a number"))? };
        let mut part = whole * unit_ns;
        let mut scale = unit_ns;
        for d in frac.bytes().take(18) {
            scale /= 10;
            part += u128::from(d - b'0') * scale;
        }
        total_ns += part;
        if total_ns > max.as_nanos() {
            return Err(err(too_long));
        }
    }
    Ok(Duration::from_nanos(total_ns as u64))
}

/// Formats a duration the way Go's `time.Duration.String()` does for the values the simulation
/// uses: `0s`, `1.5s`, `250ms`, `2m30s`, `1h0m0s`.
pub fn format_go_duration(d: Duration) -> String {
    let us = d.as_micros() as u64;
    if us == 0 {
        return "0s".into();
    }
    if us < 1_000_000 {
        if us.is_multiple_of(1_000) {
            return cat!(decimal(us / 1_000), "ms");
        }
        return cat!(decimal(us), "µs");
    }
    let h = us / 3_600_000_000;
    let m = (us / 60_000_000) % 60;
    let s_us = us % 60_000_000;
    // Hours and minutes once there are any (`1h0m5s`), then the seconds with their fraction
    // (no trailing zeros).
    let mut out = String::with_capacity(24);
    if h > 0 {
        out.push_str(&decimal(h));
        out.push('h');
    }
    if h > 0 || m > 0 {
        out.push_str(&decimal(m));
        out.push('m');
    }
    out.push_str(&decimal(s_us / 1_000_000));
    let frac = s_us % 1_000_000;
    if frac != 0 {
        out.push('.');
        out.push_str(decimal(1_000_000 + frac)[1..].trim_end_matches('0'));
    }
    out.push('s');
    out
}

/// A wall-clock instant, in microseconds since the Unix epoch. Objects carry these; they
/// serialize as RFC 3339 strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WallTime(pub i64);

impl WallTime {
    /// Whole seconds since the Unix epoch.
    pub fn unix_secs(self) -> i64 {
        self.0.div_euclid(1_000_000)
    }

    /// The instant truncated to whole seconds, as `metav1.Time` stores it.
    pub fn truncate_secs(self) -> WallTime {
        WallTime(self.unix_secs() * 1_000_000)
    }

    /// `2006-01-02T15:04:05Z`, the format of `metav1.Time`.
    pub fn rfc3339(self) -> String {
        let c = Civil::from_unix(self.unix_secs());
        format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// `2006-01-02T15:04:05.000000Z`, the format of `metav1.MicroTime`.
    pub fn rfc3339_micros(self) -> String {
        let c = Civil::from_unix(self.unix_secs());
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
            c.year,
            c.month,
            c.day,
            c.hour,
            c.minute,
            c.second,
            self.0.rem_euclid(1_000_000)
        )
    }

    /// Go's `time.Time.String()` of a `time.Now()` reading in UTC, as klog prints a time value:
    /// `2006-01-02 15:04:05.999999999 +0000 UTC` (the fraction without its trailing zeros) and
    /// the monotonic reading `m=+S.NNNNNNNNN`, the time since the process started (`since_start`).
    pub fn go_string(self, since_start: Duration) -> String {
        let c = Civil::from_unix(self.unix_secs());
        let mut out =
            format!("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", c.year, c.month, c.day, c.hour, c.minute, c.second);
        let frac = self.0.rem_euclid(1_000_000);
        if frac != 0 {
            out.push('.');
            out.push_str(format!("{frac:06}").trim_end_matches('0'));
        }
        let nanos = since_start.as_nanos();
        out.push_str(&format!(" +0000 UTC m=+{}.{:09}", nanos / 1_000_000_000, nanos % 1_000_000_000));
        out
    }

    /// `Mon, 02 Jan 2006 15:04:05 -0700` in UTC, the format `kubectl describe` prints.
    pub fn rfc1123z(self) -> String {
        const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let secs = self.unix_secs();
        let c = Civil::from_unix(secs);
        let weekday = DAYS[secs.div_euclid(86_400).rem_euclid(7) as usize];
        format!(
            "{weekday}, {:02} {} {:04} {:02}:{:02}:{:02} +0000",
            c.day,
            MONTHS[(c.month - 1) as usize],
            c.year,
            c.hour,
            c.minute,
            c.second
        )
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`; used for command-line epochs and tests.
    pub fn parse_rfc3339(s: &str) -> Option<WallTime> {
        let b = s.as_bytes();
        if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
        let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
            return None;
        }
        let rest = &s[19..];
        let micros = if let Some(frac) = rest.strip_prefix('.') {
            let digits = frac.strip_suffix('Z')?;
            if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let padded = format!("{digits:0<9}");
            padded[..6].parse::<i64>().ok()?
        } else if rest == "Z" {
            0
        } else {
            return None;
        };
        let days = days_from_civil(y, mo as u32, d as u32);
        Some(WallTime((days * 86_400 + h * 3600 + mi * 60 + se) * 1_000_000 + micros))
    }
}

impl Add<Duration> for WallTime {
    type Output = WallTime;
    fn add(self, d: Duration) -> WallTime {
        WallTime(self.0 + d.as_micros() as i64)
    }
}

struct Civil {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
}

impl Civil {
    fn from_unix(secs: i64) -> Civil {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let y = yoe + era * 400;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        Civil {
            year: if m <= 2 { y + 1 } else { y },
            month: m,
            day: d,
            hour: (rem / 3600) as u32,
            minute: ((rem / 60) % 60) as u32,
            second: (rem % 60) as u32,
        }
    }
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_prints_as_go_prints_a_monotonic_reading() {
        let t = WallTime::parse_rfc3339("2026-12-06T10:07:58.712300Z").unwrap();
        assert_eq!(
            t.go_string(Duration::from_micros(478_712_300)),
            "2026-12-06 10:07:58.7123 +0000 UTC m=+478.712300000"
        );
        let whole = WallTime::parse_rfc3339("2026-12-06T10:07:58Z").unwrap();
        assert_eq!(whole.go_string(Duration::from_secs(5)), "2026-12-06 10:07:58 +0000 UTC m=+5.000000000");
    }

    #[test]
    fn go_durations_parse_like_go() {
        let cases = [
            ("1500ms", 1_500_000),
            ("90s", 90_000_000),
            ("2m30s", 150_000_000),
            ("1h", 3_600_000_000),
            ("1.5s", 1_500_000),
            ("0", 0),
            ("9m30s", 570_000_000),
            ("250us", 250),
            ("1h2m3.5s", 3_723_500_000),
        ];
        for (text, us) in cases {
            assert_eq!(parse_go_duration(text).unwrap().as_micros() as u64, us, "{text}");
        }
        for bad in ["", "5", "-1s", "1x", "s", "1..5s", "99999999999999h", "8d"] {
            assert!(parse_go_duration(bad).is_err(), "{bad} should fail");
        }
    }

    #[test]
    fn go_durations_format_like_go() {
        assert_eq!(format_go_duration(secs(0)), "0s");
        assert_eq!(format_go_duration(millis(250)), "250ms");
        assert_eq!(format_go_duration(millis(1500)), "1.5s");
        assert_eq!(format_go_duration(secs(150)), "2m30s");
        assert_eq!(format_go_duration(secs(3600)), "1h0m0s");
        assert_eq!(format_go_duration(Duration::from_micros(1_000_001)), "1.000001s");
        assert_eq!(format_go_duration(millis(61_250)), "1m1.25s");
        assert_eq!(format_go_duration(Duration::from_micros(5)), "5µs");
        assert_eq!(format_go_duration(secs(7_384)), "2h3m4s");
        for text in ["250ms", "1.5s", "2m30s", "1h0m0s", "40s"] {
            assert_eq!(format_go_duration(parse_go_duration(text).unwrap()), text);
        }
    }

    #[test]
    fn calendar_formats_match_go() {
        // 2025-06-02T10:00:00Z was a Monday.
        let t = WallTime::parse_rfc3339("2025-06-02T10:00:00Z").unwrap();
        assert_eq!(t.rfc3339(), "2025-06-02T10:00:00Z");
        assert_eq!(t.rfc1123z(), "Mon, 02 Jun 2025 10:00:00 +0000");
        let m = WallTime::parse_rfc3339("2024-02-29T23:59:59.123456Z").unwrap();
        assert_eq!(m.rfc3339_micros(), "2024-02-29T23:59:59.123456Z");
        assert_eq!((m + millis(1)).rfc3339_micros(), "2024-02-29T23:59:59.124456Z");
        assert_eq!(WallTime(0).rfc3339(), "1970-01-01T00:00:00Z");
        assert_eq!(WallTime(0).rfc1123z(), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert!(WallTime::parse_rfc3339("2025-13-01T00:00:00Z").is_none());
    }

    #[test]
    fn clock_labels() {
        assert_eq!(SimTime::from_secs(43).clock_label(), "T+00:43");
        assert_eq!(SimTime::from_secs(5 * 60 + 7).clock_label(), "T+05:07");
        assert_eq!(SimTime::from_secs(3600 + 61).clock_label(), "T+1:01:01");
    }
}
