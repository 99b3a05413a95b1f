//! `kubectl describe node`, as kubectl 1.32 prints it (`pkg/describe/describe.go`,
//! `describeNode`, `describeNodeLease`, `describeNodeResource`, `DescribeEvents`).
//!
//! kubectl builds the text from four API answers, and so does this module, from the same
//! objects: the Node; its Lease in `kube-node-lease` (or the error getting it); the Pods from
//! `spec.nodeName=NAME,status.phase!=Succeeded,status.phase!=Failed` over all namespaces, in list
//! order; and the Events about the Node, asked for twice (once with `involvedObject.uid` the
//! Node's uid, as the node controller records them, once with the Node's name, as the kubelet
//! does), appended, then put in order of `lastTimestamp` by Go's unstable `sort.Sort`.
//!
//! Times print in UTC (kubectl prints them in its local time zone; run it with `TZ=UTC` to
//! compare).

use std::collections::BTreeMap;

use super::gosort;
use super::quantity::{Quantity, percent};
use super::tabwriter::TabWriter;
use super::{Cluster, escape_terminal, rfc1123z, since};
use crate::sim::objects::{Event, Lease, Node, ObjectMeta, Pod};
use crate::sim::{NODE_LEASE_NAMESPACE, WallTime};

/// `prefixWriter`: indentation by level, terminal escaping, into the tab writer.
pub(super) struct Prefix {
    pub(super) w: TabWriter,
}

impl Prefix {
    /// `Write(level, …)` of the concatenated parts.
    pub(super) fn put(&mut self, level: usize, parts: &[&str]) {
        let mut s = String::new();
        for _ in 0..level {
            s.push_str("  ");
        }
        for p in parts {
            s.push_str(p);
        }
        self.w.write(&escape_terminal(&s));
    }
}

/// The Pods `kubectl describe node` lists: bound to the Node, not Succeeded or Failed, in list
/// order.
pub fn non_terminated_pods<'a>(cluster: &'a Cluster, node: &str) -> Vec<&'a Pod> {
    cluster
        .all::<Pod>()
        .filter(|p| p.spec.node_name == node && p.status.phase != "Succeeded" && p.status.phase != "Failed")
        .map(|p| &**p)
        .collect()
}

/// The Events `kubectl describe node` shows, before sorting: those whose involved object is the
/// Node (kind, name, empty namespace) with the Node's uid, then those with its name as uid.
pub fn node_events<'a>(cluster: &'a Cluster, node: &Node) -> Vec<&'a Event> {
    let about = |e: &Event, uid: &str| {
        let o = &e.involved_object;
        o.kind == "Node" && o.name == node.metadata.name && o.namespace.is_empty() && o.uid == uid
    };
    let by_uid = cluster.all::<Event>().filter(|e| about(e, &node.metadata.uid));
    let by_name = cluster.all::<Event>().filter(|e| about(e, &node.metadata.name));
    by_uid.chain(by_name).map(|e| &**e).collect()
}

/// `kubectl describe node NAME` for `node`, the rest read from `cluster`.
pub fn describe_node(node: &Node, cluster: &Cluster) -> String {
    describe_node_with(node, cluster, true)
}

/// [`describe_node`], without the Events (`--show-events=false`: kubectl does not ask for them,
/// so the section is not there).
pub fn describe_node_with(node: &Node, cluster: &Cluster, show_events: bool) -> String {
    let lease = cluster
        .all::<Lease>()
        .find(|l| l.metadata.namespace == NODE_LEASE_NAMESPACE && l.metadata.name == node.metadata.name);
    let pods = non_terminated_pods(cluster, &node.metadata.name);
    let events = show_events.then(|| node_events(cluster, node));
    render(node, lease.map(|l| &**l), &pods, events, cluster.now)
}

fn render(node: &Node, lease: Option<&Lease>, pods: &[&Pod], events: Option<Vec<&Event>>, now: WallTime) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let meta = &node.metadata;
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Roles:\t", &super::get::node_roles(node), "\n"]);
    multiline(&mut w, "Labels", meta.labels.iter().map(|(k, v)| [k.as_str(), "=", v, "\n"].concat()).collect());
    annotations(&mut w, &meta.annotations);
    w.put(0, &["CreationTimestamp:\t", &rfc1123z(meta.creation_timestamp.map(|t| t.0)), "\n"]);
    // sort.Slice (unstable), by "Effect,Key".
    let mut taints: Vec<(String, String)> =
        node.spec.taints.iter().map(|t| ([t.effect.as_str(), ",", &t.key].concat(), t.display() + "\n")).collect();
    gosort::sort(&mut taints, &|a, b| a.0 < b.0);
    multiline(&mut w, "Taints", taints.into_iter().map(|t| t.1).collect());
    w.put(0, &["Unschedulable:\t", if node.spec.unschedulable { "true" } else { "false" }, "\n"]);
    match lease {
        Some(l) => {
            let at = |t: Option<crate::sim::objects::MicroTime>| t.map_or("<unset>".into(), |t| t.0.rfc1123z());
            w.put(0, &["Lease:\n"]);
            w.put(1, &["HolderIdentity:\t", l.spec.holder_identity.as_deref().unwrap_or("<unset>"), "\n"]);
            w.put(1, &["AcquireTime:\t", &at(l.spec.acquire_time), "\n"]);
            w.put(1, &["RenewTime:\t", &at(l.spec.renew_time), "\n"]);
        }
        None => w.put(0, &["Lease:\tFailed to get lease: leases.coordination.k8s.io \"", &meta.name, "\" not found\n"]),
    }
    if !node.status.conditions.is_empty() {
        w.put(0, &["Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n"]);
        w.put(1, &["----\t------\t-----------------\t------------------\t------\t-------\n"]);
        for c in &node.status.conditions {
            let (hb, tr) = (c.last_heartbeat_time.0.rfc1123z(), c.last_transition_time.0.rfc1123z());
            w.put(1, &[&c.type_, " \t", &c.status, " \t", &hb, " \t", &tr, " \t", &c.reason, " \t", &c.message, "\n"]);
        }
    }
    w.put(0, &["Addresses:\n"]);
    for a in &node.status.addresses {
        w.put(1, &[&a.type_, ":\t", &a.address, "\n"]);
    }
    for (title, list) in [("Capacity:\n", &node.status.capacity), ("Allocatable:\n", &node.status.allocatable)] {
        if list.is_empty() {
            continue;
        }
        w.put(0, &[title]);
        for (name, value) in list.iter() {
            let shown = Quantity::parse(value).map_or_else(|| value.clone(), |q| q.canonical());
            w.put(0, &["  ", name, ":\t", &shown, "\n"]);
        }
    }
    let info = &node.status.node_info;
    w.put(0, &["System Info:\n"]);
    for (label, value) in [
        ("Machine ID", &info.machine_id),
        ("System UUID", &info.system_uuid),
        ("Boot ID", &info.boot_id),
        ("Kernel Version", &info.kernel_version),
        ("OS Image", &info.os_image),
        ("Operating System", &info.operating_system),
        ("Architecture", &info.architecture),
        ("Container Runtime Version", &info.container_runtime_version),
        ("Kubelet Version", &info.kubelet_version),
        ("Kube-Proxy Version", &info.kube_proxy_version),
    ] {
        w.put(0, &["  ", label, ":\t", value, "\n"]);
    }
    if !node.spec.pod_cidr.is_empty() {
        w.put(0, &["PodCIDR:\t", &node.spec.pod_cidr, "\n"]);
    }
    if !node.spec.pod_cidrs.is_empty() {
        w.put(0, &["PodCIDRs:\t", &node.spec.pod_cidrs.join(","), "\n"]);
    }
    if !node.spec.provider_id.is_empty() {
        w.put(0, &["ProviderID:\t", &node.spec.provider_id, "\n"]);
    }
    node_resources(&mut w, node, pods, now);
    if let Some(mut events) = events {
        describe_events(&mut w, &mut events, now);
    }
    w.w.finish()
}

/// `printLabelsMultiline` / `printNodeTaintsMultiline`: the title, then one entry per line
/// (continuation lines start with a tab), or `<none>`.
pub(super) fn multiline(w: &mut Prefix, title: &str, entries: Vec<String>) {
    multiline_indented(w, "", title, entries);
}

/// `printLabelsMultilineWithIndent(w, indent, title, "\t", …)`: as [`multiline`], with `indent`
/// before the title and before each continuation line's tab.
pub(super) fn multiline_indented(w: &mut Prefix, indent: &str, title: &str, entries: Vec<String>) {
    w.put(0, &[indent, title, ":\t"]);
    if entries.is_empty() {
        w.put(0, &["<none>\n"]);
        return;
    }
    for (i, e) in entries.iter().enumerate() {
        if i != 0 {
            w.put(0, &[indent, "\t"]);
        }
        w.put(0, &[e]);
    }
}

/// `key=value\n` lines of a map, in key order (what `printLabelsMultiline` prints).
pub(super) fn label_lines(labels: &BTreeMap<String, String>) -> Vec<String> {
    labels.iter().map(|(k, v)| [k.as_str(), "=", v, "\n"].concat()).collect()
}

/// `searchEvents`: the Events whose involved object has `kind`, the object's name, namespace
/// and uid, in list order (before sorting). For a namespaced object kubectl lists the Events
/// of its namespace; for a cluster-scoped one, of every namespace.
pub fn search_events<'a>(cluster: &'a Cluster, kind: &str, m: &ObjectMeta) -> Vec<&'a Event> {
    cluster
        .all::<Event>()
        .filter(|e| {
            let o = &e.involved_object;
            (m.namespace.is_empty() || e.metadata.namespace == m.namespace)
                && o.kind == kind
                && o.name == m.name
                && o.namespace == m.namespace
                && o.uid == m.uid
        })
        .map(|e| &**e)
        .collect()
}

/// `printAnnotationsMultiline`: `key: value`, long or multi-line values on their own lines,
/// shortened to 138 bytes; `kubectl.kubernetes.io/last-applied-configuration` left out.
pub(super) fn annotations(w: &mut Prefix, annotations: &BTreeMap<String, String>) {
    const MAX: usize = 140;
    w.put(0, &["Annotations:\t"]);
    let keys: Vec<&String> =
        annotations.keys().filter(|k| *k != "kubectl.kubernetes.io/last-applied-configuration").collect();
    if keys.is_empty() {
        w.put(0, &["<none>\n"]);
        return;
    }
    for (i, key) in keys.into_iter().enumerate() {
        if i != 0 {
            w.put(0, &["\t"]);
        }
        let value = annotations[key].strip_suffix('\n').unwrap_or(&annotations[key]);
        if value.len() + key.len() + 2 > MAX || value.contains('\n') {
            w.put(0, &[key, ":\n"]);
            for s in value.split('\n') {
                w.put(0, &["\t  ", &shorten(s, MAX - 2), "\n"]);
            }
        } else {
            w.put(0, &[key, ": ", value, "\n"]);
        }
    }
}

/// Go's `s[:n] + "..."` when longer than `n` bytes. (Go cuts bytes, which can split a character
/// of a non-ASCII value; this cuts before that character.)
fn shorten(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut cut = n;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    [&s[..cut], "..."].concat()
}

/// Quantities by resource name (a `ResourceList`; a handful of entries).
type Resources = Vec<(String, Quantity)>;

/// A Pod's requests and limits: the sum over its containers (`PodRequestsAndLimits`).
fn pod_requests_and_limits(pod: &Pod) -> (Resources, Resources) {
    let mut reqs = Resources::new();
    let mut limits = Resources::new();
    for c in &pod.spec.containers {
        for (into, list) in [(&mut reqs, &c.resources.requests), (&mut limits, &c.resources.limits)] {
            for (name, value) in list {
                if let Some(q) = Quantity::parse(value) {
                    add(into, name, &q);
                }
            }
        }
    }
    (reqs, limits)
}

fn add(into: &mut Resources, name: &str, q: &Quantity) {
    match into.iter_mut().find(|(n, _)| n == name) {
        Some((_, total)) => total.add(q),
        None => into.push((name.to_string(), *q)),
    }
}

fn quantity(list: &Resources, name: &str) -> Quantity {
    list.iter().find(|(n, _)| n == name).map(|(_, q)| *q).unwrap_or_default()
}

/// `q (p%)`.
fn with_percent(q: &Quantity, percent: i64) -> String {
    [q.canonical(), " (".into(), percent.to_string(), "%)".into()].concat()
}

/// `describeNodeResource`.
fn node_resources(w: &mut Prefix, node: &Node, pods: &[&Pod], now: WallTime) {
    w.put(0, &["Non-terminated Pods:\t(", &pods.len().to_string(), " in total)\n"]);
    w.put(1, &["Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n"]);
    w.put(1, &["---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n"]);
    let source = if node.status.allocatable.is_empty() { &node.status.capacity } else { &node.status.allocatable };
    // In name order, as the map holds them.
    let allocatable: Vec<(&str, Quantity)> =
        source.iter().filter_map(|(k, v)| Some((k.as_str(), Quantity::parse(v)?))).collect();
    let alloc = |name: &str| allocatable.iter().find(|(k, _)| *k == name).map(|(_, q)| *q).unwrap_or_default();
    let alloc_cpu = alloc("cpu").milli_value();
    let alloc_mem = alloc("memory").value();
    let mut reqs = Resources::new();
    let mut limits = Resources::new();
    for pod in pods {
        let (req, limit) = pod_requests_and_limits(pod);
        let (cr, cl) = (quantity(&req, "cpu"), quantity(&limit, "cpu"));
        let (mr, ml) = (quantity(&req, "memory"), quantity(&limit, "memory"));
        w.put(
            1,
            &[
                &pod.metadata.namespace,
                "\t",
                &pod.metadata.name,
                "\t\t",
                &with_percent(&cr, percent(cr.milli_value(), alloc_cpu)),
                "\t",
                &with_percent(&cl, percent(cl.milli_value(), alloc_cpu)),
                "\t",
                &with_percent(&mr, percent(mr.value(), alloc_mem)),
                "\t",
                &with_percent(&ml, percent(ml.value(), alloc_mem)),
                "\t",
                &since(now, pod.metadata.creation_timestamp.map(|t| t.0)),
                "\n",
            ],
        );
        for (into, from) in [(&mut reqs, req), (&mut limits, limit)] {
            for (name, q) in &from {
                add(into, name, q);
            }
        }
    }
    w.put(0, &["Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n"]);
    w.put(1, &["Resource\tRequests\tLimits\n"]);
    w.put(1, &["--------\t--------\t------\n"]);
    // Guarded fractions: zero when the node has none of the resource.
    let frac = |part: i64, whole: i64| if whole != 0 { percent(part, whole) } else { 0 };
    let row = |w: &mut Prefix, name: &str, milli: bool| {
        let (r, l, a) = (quantity(&reqs, name), quantity(&limits, name), alloc(name));
        let v = |q: &Quantity| if milli { q.milli_value() } else { q.value() };
        w.put(
            1,
            &[name, "\t", &with_percent(&r, frac(v(&r), v(&a))), "\t", &with_percent(&l, frac(v(&l), v(&a))), "\n"],
        );
    };
    row(w, "cpu", true);
    row(w, "memory", false);
    row(w, "ephemeral-storage", false);
    for (name, _) in allocatable.iter().filter(|(k, _)| k.starts_with("hugepages-")) {
        row(w, name, false);
    }
    let standard =
        |k: &str| matches!(k, "cpu" | "memory" | "ephemeral-storage" | "pods") || k.starts_with("hugepages-");
    for (name, _) in allocatable.iter().filter(|(k, _)| !standard(k)) {
        w.put(1, &[name, "\t", &quantity(&reqs, name).canonical(), "\t", &quantity(&limits, name).canonical(), "\n"]);
    }
}

/// `DescribeEvents`.
pub(super) fn describe_events(w: &mut Prefix, events: &mut [&Event], now: WallTime) {
    if events.is_empty() {
        w.put(0, &["Events:\t<none>\n"]);
        return;
    }
    w.w.flush();
    let last = |e: &Event| e.last_timestamp.map(|t| t.0);
    // SortableEvents: lastTimestamp, an unset one (zero time) first.
    gosort::sort(events, &|a, b| match (last(a), last(b)) {
        (Some(x), Some(y)) => x < y,
        (None, Some(_)) => true,
        _ => false,
    });
    w.put(0, &["Events:\n  Type\tReason\tAge\tFrom\tMessage\n"]);
    w.put(1, &["----\t------\t----\t----\t-------\n"]);
    for e in events.iter() {
        let first = match e.event_time {
            Some(t) => since(now, Some(t.0)),
            None => since(now, e.first_timestamp.map(|t| t.0)),
        };
        let repeated = |last: String, count: i32| {
            [last, " (x".into(), count.to_string(), " over ".into(), first.clone(), ")".into()].concat()
        };
        let interval = match (&e.series, e.count.unwrap_or(0)) {
            (Some(s), _) => repeated(since(now, Some(s.last_observed_time.0)), s.count),
            (None, count) if count > 1 => repeated(since(now, last(e)), count),
            _ => first.clone(),
        };
        let source = if e.source.component.is_empty() { &e.reporting_component } else { &e.source.component };
        w.put(1, &[e.type_, "\t", e.reason, "\t", &interval, "\t", source, "\t", e.message.trim(), "\n"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortens_like_go() {
        assert_eq!(shorten("abcdef", 4), "abcd...");
        assert_eq!(shorten("abc", 4), "abc");
    }
}
