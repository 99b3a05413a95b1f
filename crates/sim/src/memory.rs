//! The memory model: how much memory each running container uses, and what the kubelet's summary
//! makes of a machine's memory (`memory.available = capacity − working set`,
//! `makeMemoryAvailableSignalObservation`). The kubelet's eviction manager reads it
//! (`kubelet/eviction.rs`); the reader's `leak-memory` and `stop-leak` change it.
//!
//! Simplified, and said so (`docs/kubernetes-notes/kubelet-and-maintenance.md` §16): the host's
//! own working set (kernel, systemd, containerd, the kubelet) is a constant; a container's working
//! set at rest is a small constant of its workload, varied per container; a leak grows it at a
//! fixed rate, in whole 4 KiB pages, until the machine's available memory is down to
//! [`LEAK_FLOOR`] (where the kernel's reclaim holds the leaking process back; the kernel's OOM
//! killer is not simulated). Usage is a function of time, computed when read: nothing ticks.

use crate::machine::{Leak, RunningContainer};
use crate::objects::Pod;
use crate::time::SimTime;

/// One kibibyte.
pub const KI: u64 = 1024;
/// One mebibyte.
pub const MI: u64 = 1024 * KI;
/// A memory page: cgroup usage grows in pages.
const PAGE: u64 = 4 * KI;

/// Every machine's memory capacity (`status.capacity.memory`, `16374584Ki`).
pub const CAPACITY: u64 = 16_374_584 * KI;
/// The host's own working set, outside the Pods' cgroups (kernel, systemd, containerd, the
/// kubelet).
pub const SYSTEM_WORKING_SET: u64 = 1_200 * MI;
/// The simulated nginx container's working set at rest, before its per-container part.
pub const WORKLOAD_WORKING_SET: u64 = 8 * MI;
/// How fast a leaking container's working set grows, per second.
pub const LEAK_RATE: u64 = 64 * MI;
/// How low a leak can push the machine's available memory: below it the leaking process stalls
/// in the kernel's reclaim (its OOM killer is not simulated). Under `evictionHard`'s 100Mi, so a
/// leak always reaches the threshold before it stops.
pub const LEAK_FLOOR: u64 = 48 * MI;

/// What `leak` has leaked by `at`, in whole pages, before the floor holds it back.
fn leaked(leak: &Leak, at: SimTime) -> u64 {
    let end = leak.until.map_or(at, |u| u.min(at));
    let micros = end.as_micros().saturating_sub(leak.since.as_micros());
    let bytes = (LEAK_RATE as u128 * micros as u128 / 1_000_000) as u64;
    bytes / PAGE * PAGE
}

/// A container's working set at rest: the workload's, plus up to 4Mi of its own (whole pages,
/// read from its id, so that two containers seldom tie).
pub fn resting_working_set(c: &RunningContainer) -> u64 {
    let own = c.id.get(..3).and_then(|h| u64::from_str_radix(h, 16).ok()).unwrap_or(0);
    WORKLOAD_WORKING_SET + own / 4 * PAGE
}

/// The working set of each running container at `at` (in the host's order), with the leaks held
/// back so that the machine keeps [`LEAK_FLOOR`] available (leaks in the order they began).
pub fn working_sets(containers: &[RunningContainer], leaks: &[Leak], at: SimTime) -> Vec<u64> {
    let mut sets: Vec<u64> = containers.iter().map(resting_working_set).collect();
    let mut room = CAPACITY.saturating_sub(LEAK_FLOOR + SYSTEM_WORKING_SET + sets.iter().sum::<u64>());
    for leak in leaks {
        if let Some(i) = containers.iter().position(|c| c.pod_uid == leak.pod_uid) {
            let grown = leaked(leak, at).min(room);
            room -= grown;
            sets[i] += grown;
        }
    }
    sets
}

/// The machine's `memory.available` at `at`: capacity less the node's working set.
pub fn available(containers: &[RunningContainer], leaks: &[Leak], at: SimTime) -> u64 {
    let used = SYSTEM_WORKING_SET + working_sets(containers, leaks, at).iter().sum::<u64>();
    CAPACITY.saturating_sub(used)
}

/// When the machine's available memory first falls below `threshold` under the leaks now
/// active, if it ever does (the eviction manager sleeps until then).
pub fn crosses_at(containers: &[RunningContainer], leaks: &[Leak], now: SimTime, threshold: u64) -> Option<SimTime> {
    if available(containers, leaks, now) < threshold {
        return Some(now);
    }
    if !leaks.iter().any(|l| l.active() && containers.iter().any(|c| c.pod_uid == l.pod_uid)) {
        return None;
    }
    // Available memory only falls while leaks grow: bisect on whole milliseconds.
    let (mut lo, mut hi) = (now.as_micros() / 1000, now.as_micros() / 1000 + 1);
    while available(containers, leaks, SimTime::from_millis(hi)) >= threshold {
        if hi - lo > 7 * 24 * 3_600_000 {
            return None;
        }
        lo = hi;
        hi += (hi - now.as_micros() / 1000).max(1) * 2;
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if available(containers, leaks, SimTime::from_millis(mid)) < threshold {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(SimTime::from_millis(hi))
}

/// A container's memory request in bytes (`requests.memory`; 0 without one).
pub fn memory_request(pod: &Pod, container: &str) -> u64 {
    pod.spec
        .containers
        .iter()
        .find(|c| c.name == container)
        .and_then(|c| c.resources.requests.get("memory"))
        .and_then(|q| parse_quantity(q))
        .unwrap_or(0)
}

/// A memory quantity as `resource.ParseQuantity` reads the forms the simulation writes: a plain
/// number of bytes, or a binary (`Ki`, `Mi`, `Gi`, `Ti`) or decimal (`k`, `M`, `G`, `T`) suffix
/// on a whole number.
pub fn parse_quantity(q: &str) -> Option<u64> {
    let split = q.find(|c: char| !c.is_ascii_digit()).unwrap_or(q.len());
    let (n, suffix) = q.split_at(split);
    let n: u64 = n.parse().ok()?;
    let unit = match suffix {
        "" => 1,
        "Ki" => KI,
        "Mi" => MI,
        "Gi" => 1024 * MI,
        "Ti" => 1024 * 1024 * MI,
        "k" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        _ => return None,
    };
    n.checked_mul(unit)
}

/// A number of bytes as `resource.NewQuantity(n, resource.BinarySI).String()` prints it: the
/// largest binary suffix that divides it exactly (`100Mi`, `91240Ki`), plain digits below 1024 or
/// when no suffix divides it.
pub fn format_bytes(n: u64) -> String {
    if n < 1024 {
        return n.to_string();
    }
    let mut v = n;
    let mut exp = 0;
    while v.is_multiple_of(1024) && exp < 6 {
        v /= 1024;
        exp += 1;
    }
    let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][exp];
    format!("{v}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(uid: &str, id: &str) -> RunningContainer {
        RunningContainer {
            pod_uid: uid.into(),
            namespace: "default".into(),
            pod: uid.into(),
            name: "nginx".into(),
            id: id.into(),
            started_at: SimTime::ZERO,
        }
    }

    #[test]
    fn quantities_read_and_print_as_resource_quantity_does() {
        assert_eq!(parse_quantity("64Mi"), Some(64 * MI));
        assert_eq!(parse_quantity("100Mi"), Some(100 * MI));
        assert_eq!(parse_quantity("129M"), Some(129_000_000));
        assert_eq!(parse_quantity("1.5Gi"), None);
        assert_eq!(format_bytes(100 * MI), "100Mi");
        assert_eq!(format_bytes(91_240 * KI), "91240Ki");
        assert_eq!(format_bytes(1200 * MI), "1200Mi");
        assert_eq!(format_bytes(2 * 1024 * MI), "2Gi");
        assert_eq!(format_bytes(1000), "1000");
        assert_eq!(format_bytes(1025), "1025");
        assert_eq!(format_bytes(0), "0");
        assert_eq!(format_bytes(CAPACITY), "16374584Ki");
    }

    /// A leak grows at its rate in whole pages, stops where it was stopped, and never pushes the
    /// machine below the floor; without one, the machine's memory is all but its own and the
    /// containers' resting sets.
    #[test]
    fn leaks_grow_in_pages_until_the_floor() {
        let cs = vec![container("a", "000aaa"), container("b", "fffbbb")];
        assert_eq!(resting_working_set(&cs[0]), WORKLOAD_WORKING_SET);
        assert_eq!(resting_working_set(&cs[1]), WORKLOAD_WORKING_SET + 4095 / 4 * PAGE);
        let rest = CAPACITY - SYSTEM_WORKING_SET - resting_working_set(&cs[0]) - resting_working_set(&cs[1]);
        assert_eq!(available(&cs, &[], SimTime::from_secs(99)), rest);
        let leak = Leak { pod_uid: "a".into(), since: SimTime::from_secs(10), until: None };
        let sets = working_sets(&cs, std::slice::from_ref(&leak), SimTime::from_millis(10_500));
        assert_eq!(sets[0], WORKLOAD_WORKING_SET + 32 * MI);
        assert_eq!(available(&cs, std::slice::from_ref(&leak), SimTime::from_secs(100_000)), LEAK_FLOOR);
        let stopped = Leak { until: Some(SimTime::from_secs(12)), ..leak.clone() };
        assert_eq!(working_sets(&cs, &[stopped], SimTime::from_secs(500))[0], WORKLOAD_WORKING_SET + 128 * MI);
        // The threshold is crossed once (rest − 100Mi) has leaked.
        let at = crosses_at(&cs, std::slice::from_ref(&leak), SimTime::from_secs(10), 100 * MI).unwrap();
        assert!(available(&cs, std::slice::from_ref(&leak), at) < 100 * MI);
        assert!(
            available(&cs, std::slice::from_ref(&leak), at.saturating_sub(std::time::Duration::from_millis(1)))
                >= 100 * MI
        );
        assert_eq!(crosses_at(&cs, &[], SimTime::ZERO, 100 * MI), None);
    }
}
