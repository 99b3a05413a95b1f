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
use crate::sim::objects::{Event, Lease, Node, Pod};
use crate::sim::{NODE_LEASE_NAMESPACE, WallTime};

/// `prefixWriter`: indentation by level, terminal escaping, into the tab writer.
struct Prefix {
    w: TabWriter,
}

impl Prefix {
    fn line(&mut self, level: usize, text: &str) {
        let mut s = String::with_capacity(text.len() + 2 * level);
        for _ in 0..level {
            s.push_str("  ");
        }
        s.push_str(text);
        self.w.write(&escape_terminal(&s));
    }
}

/// The Pods `kubectl describe node` lists: bound to the Node, not Succeeded or Failed, in list
/// order.
pub fn non_terminated_pods<'a>(cluster: &'a Cluster, node: &str) -> Vec<&'a Pod> {
    cluster
        .pods
        .iter()
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
    let by_uid = cluster.events.iter().filter(|e| about(e, &node.metadata.uid));
    let by_name = cluster.events.iter().filter(|e| about(e, &node.metadata.name));
    by_uid.chain(by_name).map(|e| &**e).collect()
}

/// `kubectl describe node NAME` for `node`, the rest read from `cluster`.
pub fn describe_node(node: &Node, cluster: &Cluster) -> String {
    let lease = cluster
        .leases
        .iter()
        .find(|l| l.metadata.namespace == NODE_LEASE_NAMESPACE && l.metadata.name == node.metadata.name);
    let pods = non_terminated_pods(cluster, &node.metadata.name);
    let events = node_events(cluster, node);
    render(node, lease.map(|l| &**l), &pods, events, cluster.now)
}

fn render(node: &Node, lease: Option<&Lease>, pods: &[&Pod], mut events: Vec<&Event>, now: WallTime) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let meta = &node.metadata;
    w.line(0, &format!("Name:\t{}\n", meta.name));
    w.line(0, &format!("Roles:\t{}\n", super::get::node_roles(node)));
    multiline(&mut w, "Labels", meta.labels.iter().map(|(k, v)| format!("{k}={v}\n")).collect());
    annotations(&mut w, &meta.annotations);
    w.line(0, &format!("CreationTimestamp:\t{}\n", rfc1123z(meta.creation_timestamp.map(|t| t.0))));
    let mut taints = node.spec.taints.clone();
    // sort.Slice (unstable), by "Effect,Key".
    gosort::sort(&mut taints, &|a, b| format!("{},{}", a.effect, a.key) < format!("{},{}", b.effect, b.key));
    multiline(&mut w, "Taints", taints.iter().map(|t| format!("{}\n", t.display())).collect());
    w.line(0, &format!("Unschedulable:\t{}\n", node.spec.unschedulable));
    match lease {
        Some(l) => {
            w.line(0, "Lease:\n");
            let holder = l.spec.holder_identity.as_deref().unwrap_or("<unset>");
            w.line(1, &format!("HolderIdentity:\t{holder}\n"));
            let at = |t: Option<crate::sim::objects::MicroTime>| t.map_or("<unset>".into(), |t| t.0.rfc1123z());
            w.line(1, &format!("AcquireTime:\t{}\n", at(l.spec.acquire_time)));
            w.line(1, &format!("RenewTime:\t{}\n", at(l.spec.renew_time)));
        }
        None => {
            w.line(0, &format!("Lease:\tFailed to get lease: leases.coordination.k8s.io \"{}\" not found\n", meta.name))
        }
    }
    if !node.status.conditions.is_empty() {
        w.line(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
        w.line(1, "----\t------\t-----------------\t------------------\t------\t-------\n");
        for c in &node.status.conditions {
            w.line(
                1,
                &format!(
                    "{} \t{} \t{} \t{} \t{} \t{}\n",
                    c.type_,
                    c.status,
                    c.last_heartbeat_time.0.rfc1123z(),
                    c.last_transition_time.0.rfc1123z(),
                    c.reason,
                    c.message
                ),
            );
        }
    }
    w.line(0, "Addresses:\n");
    for a in &node.status.addresses {
        w.line(1, &format!("{}:\t{}\n", a.type_, a.address));
    }
    let resources = |w: &mut Prefix, title: &str, list: &BTreeMap<String, String>| {
        if list.is_empty() {
            return;
        }
        w.line(0, &format!("{title}:\n"));
        for (name, value) in list {
            let shown = Quantity::parse(value).map_or_else(|| value.clone(), |q| q.canonical());
            w.line(0, &format!("  {name}:\t{shown}\n"));
        }
    };
    resources(&mut w, "Capacity", &node.status.capacity);
    resources(&mut w, "Allocatable", &node.status.allocatable);
    let info = &node.status.node_info;
    w.line(0, "System Info:\n");
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
        w.line(0, &format!("  {label}:\t{value}\n"));
    }
    if !node.spec.pod_cidr.is_empty() {
        w.line(0, &format!("PodCIDR:\t{}\n", node.spec.pod_cidr));
    }
    if !node.spec.pod_cidrs.is_empty() {
        w.line(0, &format!("PodCIDRs:\t{}\n", node.spec.pod_cidrs.join(",")));
    }
    if !node.spec.provider_id.is_empty() {
        w.line(0, &format!("ProviderID:\t{}\n", node.spec.provider_id));
    }
    node_resources(&mut w, node, pods, now);
    describe_events(&mut w, &mut events, now);
    w.w.finish()
}

/// `printLabelsMultiline` / `printNodeTaintsMultiline`: the title, then one entry per line
/// (continuation lines start with a tab), or `<none>`.
fn multiline(w: &mut Prefix, title: &str, entries: Vec<String>) {
    w.line(0, &format!("{title}:\t"));
    if entries.is_empty() {
        w.line(0, "<none>\n");
        return;
    }
    for (i, e) in entries.iter().enumerate() {
        if i != 0 {
            w.line(0, "\t");
        }
        w.line(0, e);
    }
}

/// `printAnnotationsMultiline`: `key: value`, long or multi-line values on their own lines,
/// shortened to 138 bytes; `kubectl.kubernetes.io/last-applied-configuration` left out.
fn annotations(w: &mut Prefix, annotations: &BTreeMap<String, String>) {
    const MAX: usize = 140;
    w.line(0, "Annotations:\t");
    let keys: Vec<&String> =
        annotations.keys().filter(|k| *k != "kubectl.kubernetes.io/last-applied-configuration").collect();
    if keys.is_empty() {
        w.line(0, "<none>\n");
        return;
    }
    for (i, key) in keys.into_iter().enumerate() {
        if i != 0 {
            w.line(0, "\t");
        }
        let value = annotations[key].strip_suffix('\n').unwrap_or(&annotations[key]);
        if value.len() + key.len() + 2 > MAX || value.contains('\n') {
            w.line(0, &format!("{key}:\n"));
            for s in value.split('\n') {
                w.line(0, &format!("\t  {}\n", shorten(s, MAX - 2)));
            }
        } else {
            w.line(0, &format!("{key}: {value}\n"));
        }
    }
}

/// Go's `s[:n] + "..."` when longer than `n` bytes (a byte cut, which can split a character;
/// kubectl then prints the broken bytes, here they become U+FFFD).
fn shorten(s: &str, n: usize) -> String {
    if s.len() > n { format!("{}...", String::from_utf8_lossy(&s.as_bytes()[..n])) } else { s.to_string() }
}

/// A Pod's requests and limits: the sum over its containers (`PodRequestsAndLimits`).
fn pod_requests_and_limits(pod: &Pod) -> (BTreeMap<String, Quantity>, BTreeMap<String, Quantity>) {
    let mut reqs: BTreeMap<String, Quantity> = BTreeMap::new();
    let mut limits: BTreeMap<String, Quantity> = BTreeMap::new();
    for c in &pod.spec.containers {
        add_all(&mut reqs, &c.resources.requests);
        add_all(&mut limits, &c.resources.limits);
    }
    (reqs, limits)
}

fn add_all(into: &mut BTreeMap<String, Quantity>, list: &BTreeMap<String, String>) {
    for (name, value) in list {
        let Some(q) = Quantity::parse(value) else { continue };
        match into.get_mut(name) {
            Some(total) => total.add(&q),
            None => {
                into.insert(name.clone(), q);
            }
        }
    }
}

fn quantity(list: &BTreeMap<String, Quantity>, name: &str) -> Quantity {
    list.get(name).copied().unwrap_or_default()
}

/// `describeNodeResource`.
fn node_resources(w: &mut Prefix, node: &Node, pods: &[&Pod], now: WallTime) {
    w.line(0, &format!("Non-terminated Pods:\t({} in total)\n", pods.len()));
    w.line(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n");
    w.line(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n");
    let source = if node.status.allocatable.is_empty() { &node.status.capacity } else { &node.status.allocatable };
    let allocatable: BTreeMap<String, Quantity> =
        source.iter().filter_map(|(k, v)| Some((k.clone(), Quantity::parse(v)?))).collect();
    let alloc_cpu = quantity(&allocatable, "cpu").milli_value();
    let alloc_mem = quantity(&allocatable, "memory").value();
    for pod in pods {
        let (req, limit) = pod_requests_and_limits(pod);
        let (cr, cl) = (quantity(&req, "cpu"), quantity(&limit, "cpu"));
        let (mr, ml) = (quantity(&req, "memory"), quantity(&limit, "memory"));
        w.line(
            1,
            &format!(
                "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                pod.metadata.namespace,
                pod.metadata.name,
                cr.canonical(),
                percent(cr.milli_value(), alloc_cpu),
                cl.canonical(),
                percent(cl.milli_value(), alloc_cpu),
                mr.canonical(),
                percent(mr.value(), alloc_mem),
                ml.canonical(),
                percent(ml.value(), alloc_mem),
                since(now, pod.metadata.creation_timestamp.map(|t| t.0)),
            ),
        );
    }
    w.line(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n");
    w.line(1, "Resource\tRequests\tLimits\n");
    w.line(1, "--------\t--------\t------\n");
    let mut reqs: BTreeMap<String, Quantity> = BTreeMap::new();
    let mut limits: BTreeMap<String, Quantity> = BTreeMap::new();
    for pod in pods {
        let (r, l) = pod_requests_and_limits(pod);
        for (into, from) in [(&mut reqs, r), (&mut limits, l)] {
            for (name, q) in from {
                match into.get_mut(&name) {
                    Some(total) => total.add(&q),
                    None => {
                        into.insert(name, q);
                    }
                }
            }
        }
    }
    // Guarded fractions: zero when the node has none of the resource.
    let frac = |part: i64, whole: i64| if whole != 0 { percent(part, whole) } else { 0 };
    let row = |w: &mut Prefix, name: &str, milli: bool| {
        let (r, l, a) = (quantity(&reqs, name), quantity(&limits, name), quantity(&allocatable, name));
        let v = |q: &Quantity| if milli { q.milli_value() } else { q.value() };
        w.line(
            1,
            &format!(
                "{name}\t{} ({}%)\t{} ({}%)\n",
                r.canonical(),
                frac(v(&r), v(&a)),
                l.canonical(),
                frac(v(&l), v(&a))
            ),
        );
    };
    row(w, "cpu", true);
    row(w, "memory", false);
    row(w, "ephemeral-storage", false);
    for name in allocatable.keys().filter(|k| k.starts_with("hugepages-")) {
        row(w, name, false);
    }
    let standard =
        |k: &str| matches!(k, "cpu" | "memory" | "ephemeral-storage" | "pods") || k.starts_with("hugepages-");
    for name in allocatable.keys().filter(|k| !standard(k)) {
        let (r, l) = (quantity(&reqs, name), quantity(&limits, name));
        w.line(1, &format!("{name}\t{}\t{}\n", r.canonical(), l.canonical()));
    }
}

/// `DescribeEvents`.
fn describe_events(w: &mut Prefix, events: &mut [&Event], now: WallTime) {
    if events.is_empty() {
        w.line(0, "Events:\t<none>\n");
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
    w.line(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.line(1, "----\t------\t----\t----\t-------\n");
    for e in events.iter() {
        let first = match e.event_time {
            Some(t) => since(now, Some(t.0)),
            None => since(now, e.first_timestamp.map(|t| t.0)),
        };
        let interval = match (&e.series, e.count.unwrap_or(0)) {
            (Some(s), _) => format!("{} (x{} over {first})", since(now, Some(s.last_observed_time.0)), s.count),
            (None, count) if count > 1 => format!("{} (x{count} over {first})", since(now, last(e))),
            _ => first,
        };
        let source = if e.source.component.is_empty() { &e.reporting_component } else { &e.source.component };
        w.line(1, &format!("{}\t{}\t{interval}\t{source}\t{}\n", e.type_, e.reason, e.message.trim()));
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
