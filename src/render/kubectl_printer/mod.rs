//! kubectl's own output for the simulated cluster: `kubectl get` tables, `kubectl describe node`,
//! `-o yaml|json|name`, and kubectl's errors, to the character.
//!
//! The pieces follow how kubectl and the API server split the work:
//!
//! * [`get`]: the API server's table conversion (`pkg/printers/internalversion`: the columns and
//!   cells of Nodes, Pods, Leases, Events and CSINodes, AGE computed at `now`) and kubectl's table printer
//!   (cli-runtime `HumanReadablePrinter`: headers, `-o wide`, `NAMESPACE` and `kind/` prefixes).
//! * [`describe`]: `kubectl describe node` (kubectl `pkg/describe`), with the Lease, the
//!   non-terminated Pods and the Events it asks the API server for; [`describe_pod`]:
//!   `kubectl describe pod`, with the Events about the Pod's uid; [`describe_csinode`]:
//!   `kubectl describe csinode`; [`describe_pdb`]: `kubectl describe pdb`; [`describe_storage`]:
//!   `kubectl describe statefulset|pvc|pv`; [`describe_generic`]: kubectl's generic describer,
//!   which prints a VolumeAttachment.
//! * [`command`]: the command line a reader types (`kubectl get nodes -o wide`), parsed as
//!   cobra/pflag parse it, with kubectl's error messages.
//! * [`change`]: the commands that change the cluster (`cordon`, `uncordon`, `drain`): parsed
//!   into the simulation's actions, and their output read back from the timeline's log.
//! * [`entry`]: the one way in, [`entry::CommandLine`]: a command line classified as a read, a
//!   change or kubectl's own error, and run.
//! * [`tabwriter`], [`gosort`], [`quantity`]: Go's `text/tabwriter`, `sort.Sort` and
//!   apimachinery's `resource.Quantity`, whose exact behaviour shows in the output.
//!
//! Everything is a pure function of a [`Cluster`] (the objects at one moment and the wall-clock
//! `now` that ages are measured from), so the page, the command line and the tests print the
//! same bytes.

pub mod certificate;
pub mod change;
pub mod command;
pub mod delete_pod;
pub mod describe;
pub mod describe_csinode;
pub mod describe_csr;
pub mod describe_generic;
pub mod describe_pdb;
pub mod describe_pod;
pub mod describe_storage;
pub mod entry;
pub mod get;
pub mod get_storage;
pub mod gosort;
pub mod logs;
pub mod quantity;
pub mod tabwriter;

use std::sync::Arc;

use crate::sim::objects::{Kind, Object, ObjectMeta, Stored};
use crate::sim::{Snapshot, WallTime};

/// The objects the API server holds at one moment, kind by kind, each kind in the order it lists
/// them (by namespace, then name, as etcd keys sort), and the wall-clock instant ages are
/// computed at.
#[derive(Clone, Debug, Default)]
pub struct Cluster {
    /// Every object, by kind (a [`Kind`]'s place in [`Kind::ALL`]).
    by_kind: Vec<Vec<Object>>,
    /// The instant AGE columns count to.
    pub now: WallTime,
}

impl Cluster {
    /// Every object of `kind`, in list order.
    pub fn objects_of(&self, kind: Kind) -> &[Object] {
        self.by_kind.get(kind as usize).map_or(&[], Vec::as_slice)
    }

    /// Every object of kind `T`, in list order.
    pub fn all<T: Stored>(&self) -> impl Iterator<Item = &Arc<T>> {
        self.objects_of(T::KIND).iter().filter_map(T::of)
    }

    /// Every object, kind by kind.
    pub fn objects(&self) -> Vec<Object> {
        self.by_kind.concat()
    }

    /// The cluster in `snapshot`, seen at `now`. The snapshot lists objects by namespace, then
    /// name, which for the simulation's namespaces (`default`, `kube-node-lease`) is the order of
    /// their etcd keys (see [`etcd_order`]).
    pub fn from_snapshot(snapshot: &Snapshot<'_>, now: WallTime) -> Cluster {
        Cluster { by_kind: Kind::ALL.iter().map(|k| snapshot.objects_of(*k).collect()).collect(), now }
    }
}

/// The order of `/registry/<resource>/<namespace>/<name>` keys: bytewise on `namespace/name`.
pub fn etcd_order(a: &ObjectMeta, b: &ObjectMeta) -> std::cmp::Ordering {
    fn key(m: &ObjectMeta) -> impl Iterator<Item = u8> + '_ {
        m.namespace.bytes().chain(std::iter::once(b'/')).chain(m.name.bytes())
    }
    key(a).cmp(key(b))
}

/// What a kubectl command printed and how it exited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// The exit status (0 or 1, as kubectl's).
    pub code: i32,
}

/// `duration.HumanDuration` from k8s.io/apimachinery, the AGE format of `kubectl get` and
/// `kubectl describe`, for a signed span in microseconds.
pub fn human_duration(micros: i64) -> String {
    // Go's `int(d.Seconds())` truncates toward zero.
    let seconds = micros / 1_000_000;
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    // `a` in unit `ua`, then `b` in unit `ub` unless it is zero (no `format!`: this runs in the
    // page for every AGE cell).
    let two = |a: i64, ua: &str, b: i64, ub: &str| {
        let mut s = a.to_string();
        s.push_str(ua);
        if b != 0 {
            s.push_str(&b.to_string());
            s.push_str(ub);
        }
        s
    };
    let minutes = seconds / 60;
    let hours = seconds / 3600;
    let days = hours / 24;
    if seconds < 60 * 2 {
        two(seconds, "s", 0, "")
    } else if minutes < 10 {
        two(minutes, "m", seconds % 60, "s")
    } else if minutes < 60 * 3 {
        two(minutes, "m", 0, "")
    } else if hours < 8 {
        two(hours, "h", minutes % 60, "m")
    } else if hours < 48 {
        two(hours, "h", 0, "")
    } else if hours < 24 * 8 {
        two(days, "d", hours % 24, "h")
    } else if hours < 24 * 365 * 2 {
        two(days, "d", 0, "")
    } else if hours < 24 * 365 * 8 {
        two(days / 365, "y", days % 365, "d")
    } else {
        two(days / 365, "y", 0, "")
    }
}

/// kubectl's `translateTimestampSince`: the age of `then` at `now`, `<unknown>` when unset.
pub fn since(now: WallTime, then: Option<WallTime>) -> String {
    match then {
        Some(then) => human_duration(now.0 - then.0),
        None => "<unknown>".into(),
    }
}

/// `time.Time.Format(time.RFC1123Z)` in UTC; Go's zero time for an unset one.
pub fn rfc1123z(t: Option<WallTime>) -> String {
    match t {
        Some(t) => t.rfc1123z(),
        None => "Mon, 01 Jan 0001 00:00:00 +0000".into(),
    }
}

/// kubectl's `WriteEscaped`: terminal escapes and carriage returns made visible.
pub fn escape_terminal(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['\x1b', '\r']) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        match c {
            '\x1b' => out.push_str("^["),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, SimTime, Timeline};

    #[test]
    fn snapshots_list_objects_in_etcd_key_order() {
        for chapter in Chapter::ALL {
            let mut tl = Timeline::new(chapter, Config::default());
            tl.run_until(SimTime::from_secs(400));
            let c = Cluster::from_snapshot(&tl.at(SimTime::from_secs(400)), WallTime(0));
            let in_order = |kind| c.objects_of(kind).windows(2).all(|w| etcd_order(w[0].meta(), w[1].meta()).is_lt());
            assert!(c.objects_of(Kind::Node).windows(2).all(|w| w[0].meta().name < w[1].meta().name));
            assert!(in_order(Kind::Pod));
            assert!(in_order(Kind::Lease));
            assert!(in_order(Kind::Event));
            assert!(!c.objects_of(Kind::Event).is_empty());
        }
    }

    #[test]
    fn etcd_order_is_by_namespace_slash_name_bytes() {
        let m = |ns: &str, name: &str| ObjectMeta { namespace: ns.into(), name: name.into(), ..ObjectMeta::default() };
        // "default-x/a" sorts before "default/a": '-' is below '/'.
        assert!(etcd_order(&m("default-x", "a"), &m("default", "a")).is_lt());
        assert!(etcd_order(&m("default", "a"), &m("default", "b")).is_lt());
    }
}
