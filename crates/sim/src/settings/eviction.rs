//! The kubelet's eviction thresholds as `KubeletConfiguration` writes them: `evictionHard` and
//! `evictionSoft` map an eviction signal to a quantity, `evictionSoftGracePeriod` a signal to a
//! duration (`pkg/kubelet/eviction/helpers.go`, `ParseThresholdConfig`). The simulation's memory
//! model feeds one signal, `memory.available`; every other signal the kubelet knows is refused by
//! name, and one it does not know with the kubelet's own words.
//!
//! The text form is the kubelet's flags': `memory.available<500Mi` (`--eviction-hard`,
//! `--eviction-soft`; `memory.available=500Mi` is read the same) and `memory.available=1m30s`
//! (`--eviction-soft-grace-period`), entries separated by commas; `{}` (or nothing) is the
//! empty map.

use std::time::Duration;

use crate::memory::{KI, MI, format_bytes};
use crate::strings::{cat, decimal};
use crate::time::{format_go_duration, parse_go_duration};

/// The one signal the simulation models.
pub const MEMORY_AVAILABLE: &str = "memory.available";

/// The signals the kubelet knows besides `memory.available` (`signalToResource`).
const OTHER_SIGNALS: [&str; 8] = [
    "allocatableMemory.available",
    "nodefs.available",
    "nodefs.inodesFree",
    "imagefs.available",
    "imagefs.inodesFree",
    "containerfs.available",
    "containerfs.inodesFree",
    "pid.available",
];

/// A threshold's quantity as configured: its bytes, and whether it was written with a binary
/// suffix (`Mi`) or a decimal one (`M`, or none), which is how `resource.Quantity` prints it
/// back (the eviction message's `Threshold quantity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity {
    pub bytes: u64,
    pub binary: bool,
}

impl Quantity {
    /// `bytes` written with a binary suffix.
    pub const fn binary(bytes: u64) -> Quantity {
        Quantity { bytes, binary: true }
    }

    /// A quantity as `resource.ParseQuantity` reads the forms the simulation takes: a whole
    /// number, plain or with a binary (`Ki` … `Ei`) or decimal (`k` … `E`) suffix.
    pub fn parse(text: &str) -> Option<Quantity> {
        let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
        let (n, suffix) = text.split_at(split);
        let n: u64 = n.parse().ok()?;
        let binary = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
        let decimal = ["k", "M", "G", "T", "P", "E"];
        let (unit, is_binary) = if suffix.is_empty() {
            (1, false)
        } else if let Some(i) = binary.iter().position(|s| *s == suffix) {
            (KI.pow(i as u32 + 1), true)
        } else if let Some(i) = decimal.iter().position(|s| *s == suffix) {
            (1000u64.pow(i as u32 + 1), false)
        } else {
            return None;
        };
        Some(Quantity { bytes: n.checked_mul(unit)?, binary: is_binary })
    }
}

impl Quantity {
    /// As `Quantity.String()` prints it: the largest suffix of its kind that divides it.
    pub fn text(&self) -> String {
        if self.binary {
            return format_bytes(self.bytes);
        }
        let (mut v, mut exp) = (self.bytes, 0);
        while v != 0 && v.is_multiple_of(1000) && exp < 6 {
            v /= 1000;
            exp += 1;
        }
        cat!(decimal(v), ["", "k", "M", "G", "T", "P", "E"][exp])
    }
}

/// `evictionHard`'s default for the signal modelled (`DefaultEvictionHard`).
pub const DEFAULT_EVICTION_HARD: Quantity = Quantity::binary(100 * MI);

/// Why an eviction map was refused: the message, ready to print.
pub(super) type Refusal = String;

/// The entries of a map's text: `(signal, value)` in order, split at `<` (a threshold map's, or
/// `=`) or `=` (a grace period map's).
fn entries<'a>(text: &'a str, field: &str, thresholds: bool) -> Result<Vec<(&'a str, &'a str)>, Refusal> {
    let t = text.trim();
    let mut out = Vec::new();
    if t.is_empty() || t == "{}" {
        return Ok(out);
    }
    for entry in t.split(',') {
        let entry = entry.trim();
        let at = if thresholds { entry.find(['<', '=']) } else { entry.find('=') };
        let Some(at) = at else {
            let form = if thresholds {
                "SIGNAL<QUANTITY, such as memory.available<500Mi"
            } else {
                "SIGNAL=DURATION, such as memory.available=1m30s"
            };
            return Err(cat!(
                "kubelet ",
                field,
                ": expected entries ",
                form,
                ", separated by commas, not \"",
                entry,
                "\""
            ));
        };
        out.push((entry[..at].trim(), entry[at + 1..].trim()));
    }
    Ok(out)
}

/// Refuses a signal the simulation does not model: by name when the kubelet knows it, with the
/// kubelet's `unsupported eviction signal` otherwise.
fn signal(field: &str, name: &str) -> Result<(), Refusal> {
    if name == MEMORY_AVAILABLE {
        Ok(())
    } else if OTHER_SIGNALS.contains(&name) {
        Err(cat!(
            "kubelet ",
            field,
            ": the simulation models the eviction signal memory.available only, not \"",
            name,
            "\" (its memory model feeds no other)"
        ))
    } else {
        Err(cat!("kubelet ", field, ": unsupported eviction signal ", name))
    }
}

/// `evictionHard` or `evictionSoft` from its text: the `memory.available` threshold, if any
/// (`parseThresholdStatement`, with the kubelet's words for a quantity that is not positive).
pub(super) fn parse_thresholds(field: &str, text: &str) -> Result<Option<Quantity>, Refusal> {
    let mut out = None;
    for (name, value) in entries(text, field, true)? {
        signal(field, name)?;
        let Some(q) = Quantity::parse(value) else {
            return Err(cat!(
                "kubelet ",
                field,
                ": expected a whole quantity such as 500Mi, 1Gi or 524288000 for ",
                name,
                " (percentages are not modelled), not \"",
                value,
                "\""
            ));
        };
        if q.bytes == 0 {
            return Err(cat!("eviction threshold ", name, " must be positive: ", &q.text()));
        }
        out = Some(q);
    }
    Ok(out)
}

/// `evictionSoftGracePeriod` from its text: the grace period of `memory.available`, if any
/// (`parseGracePeriods`, with the kubelet's words for a negative one).
pub(super) fn parse_grace_periods(field: &str, text: &str) -> Result<Option<Duration>, Refusal> {
    let mut out = None;
    for (name, value) in entries(text, field, false)? {
        signal(field, name)?;
        if value.strip_prefix('-').is_some_and(|v| parse_go_duration(v).is_ok()) {
            return Err(cat!("invalid eviction grace period specified: ", value, ", must be a positive value"));
        }
        let d = match parse_go_duration(value) {
            Ok(d) if d.subsec_nanos() % 1_000 == 0 => d,
            _ => {
                return Err(cat!(
                    "kubelet ",
                    field,
                    ": expected a duration such as 1m30s (whole microseconds) for ",
                    name,
                    ", not \"",
                    value,
                    "\""
                ));
            }
        };
        out = Some(d);
    }
    Ok(out)
}

/// A threshold map's text, as `--eviction-hard` writes it.
pub(super) fn threshold_text(q: Option<Quantity>) -> String {
    match q {
        Some(q) => cat!(MEMORY_AVAILABLE, "<", &q.text()),
        None => "{}".into(),
    }
}

/// A grace period map's text, as `--eviction-soft-grace-period` writes it.
pub(super) fn grace_period_text(d: Option<Duration>) -> String {
    match d {
        Some(d) => cat!(MEMORY_AVAILABLE, "=", &format_go_duration(d)),
        None => "{}".into(),
    }
}

/// The Pod grace period the kubelet kills a Pod evicted for a soft threshold with, in seconds:
/// `synchronize` passes `evictionMaxPodGracePeriod` as the override (1.32 and later, with the
/// deprecated `AllowOverwriteTerminationGracePeriodSeconds` off by default: at most the Pod's
/// own `terminationGracePeriodSeconds`), and the pod workers' `calculateEffectiveGracePeriod`
/// reads an override of 0 as none (the Pod's own grace period) and never goes below 1 s.
pub fn soft_eviction_grace_period(max_pod_grace_period: i64, pod_grace_period: i64, capped_by_pod: bool) -> i64 {
    let override_ = if capped_by_pod { max_pod_grace_period.min(pod_grace_period) } else { max_pod_grace_period };
    let grace = if override_ == 0 { pod_grace_period } else { override_ };
    grace.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_read_as_the_kubelet_reads_them() {
        assert_eq!(parse_thresholds("evictionSoft", "memory.available<500Mi"), Ok(Some(Quantity::binary(500 * MI))));
        assert_eq!(parse_thresholds("evictionSoft", " memory.available=1Gi "), Ok(Some(Quantity::binary(1024 * MI))));
        assert_eq!(parse_thresholds("evictionHard", "{}"), Ok(None));
        assert_eq!(parse_thresholds("evictionHard", ""), Ok(None));
        let e = parse_thresholds("evictionSoft", "memory.available<500Mi,nodefs.available<10%").unwrap_err();
        assert_eq!(
            e,
            "kubelet evictionSoft: the simulation models the eviction signal memory.available only, not \
             \"nodefs.available\" (its memory model feeds no other)"
        );
        let e = parse_thresholds("evictionHard", "memory.free<1Gi").unwrap_err();
        assert_eq!(e, "kubelet evictionHard: unsupported eviction signal memory.free");
        let e = parse_thresholds("evictionHard", "memory.available<0").unwrap_err();
        assert_eq!(e, "eviction threshold memory.available must be positive: 0");
        assert!(parse_thresholds("evictionHard", "memory.available<1.5Gi").unwrap_err().contains("a whole quantity"));
        assert!(parse_thresholds("evictionHard", "memory.available<10%").unwrap_err().contains("percentages"));
        assert!(parse_thresholds("evictionHard", "memory.available").unwrap_err().contains("SIGNAL<QUANTITY"));
        assert_eq!(
            parse_grace_periods("evictionSoftGracePeriod", "memory.available=1m30s"),
            Ok(Some(Duration::from_secs(90)))
        );
        let e = parse_grace_periods("evictionSoftGracePeriod", "memory.available=-1s").unwrap_err();
        assert_eq!(e, "invalid eviction grace period specified: -1s, must be a positive value");
        assert!(parse_grace_periods("evictionSoftGracePeriod", "memory.available=soon").is_err());
    }

    #[test]
    fn quantities_print_as_resource_quantity_prints_them() {
        for (text, printed) in [
            ("500Mi", "500Mi"),
            ("1024Mi", "1Gi"),
            ("500M", "500M"),
            ("1000M", "1G"),
            ("524288000", "524288k"),
            ("1500", "1500"),
        ] {
            assert_eq!(Quantity::parse(text).map(|q| q.text()).as_deref(), Some(printed), "{text}");
        }
        assert_eq!(threshold_text(Some(DEFAULT_EVICTION_HARD)), "memory.available<100Mi");
        assert_eq!(grace_period_text(Some(Duration::from_secs(90))), "memory.available=1m30s");
        assert_eq!(threshold_text(None), "{}");
    }

    /// 0 is no override (the Pod's own period); 1.32 and later cap the override at the Pod's own.
    #[test]
    fn the_soft_eviction_grace_period_is_the_kubelets() {
        assert_eq!(soft_eviction_grace_period(0, 30, true), 30);
        assert_eq!(soft_eviction_grace_period(0, 30, false), 30);
        assert_eq!(soft_eviction_grace_period(10, 30, true), 10);
        assert_eq!(soft_eviction_grace_period(60, 30, true), 30);
        assert_eq!(soft_eviction_grace_period(60, 30, false), 60);
        assert_eq!(soft_eviction_grace_period(-1, 30, true), 1);
        assert_eq!(soft_eviction_grace_period(5, 0, true), 1);
    }
}
