//! `kubectl get` for Nodes, Pods, Leases, Events, CSINodes, PodDisruptionBudgets, DaemonSets, and
//! (rows in [`super::get_storage`]) StatefulSets, PersistentVolumeClaims, PersistentVolumes and
//! VolumeAttachments.
//!
//! A real `kubectl get` asks the API server for a `Table` (`Accept: application/json;as=Table`):
//! the server converts the objects to rows (`pkg/printers/internalversion/printers.go`, with every
//! column, the `-o wide` ones included, and AGE computed on the server at response time), and
//! kubectl prints the rows (cli-runtime `printers/tableprinter.go`): upper-case headers, only the
//! priority-0 columns unless `-o wide`, a `NAMESPACE` column with `-A`, `kind/` before names when
//! several kinds are printed, all through a tab writer. [`table`] is the server's half and
//! [`print_table`] kubectl's; the parity test serves the first to the real kubectl and compares
//! its output with the second.

use std::fmt::Write as _;

use super::get_storage::{
    CLAIM_COLUMNS, PRIORITY_CLASS_COLUMNS, REVISION_COLUMNS, STATEFULSET_COLUMNS, VOLUME_ATTACHMENT_COLUMNS,
    VOLUME_COLUMNS, claim_row, priority_class_row, revision_row, statefulset_row, volume_attachment_row, volume_row,
};
use super::tabwriter::TabWriter;
use super::{escape_terminal, since};
use crate::sim::WallTime;
use crate::sim::objects::{CsiNode, DaemonSet, Event, Kind, Lease, Node, Object, Pod, PodDisruptionBudget};

/// A column of a server-side table (`metav1.TableColumnDefinition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    /// 0: always shown; 1: only with `-o wide`.
    pub priority: u8,
    /// Whether the column holds the object's name (`format: name`).
    pub is_name: bool,
    /// The column's type as the server declares it.
    pub type_: &'static str,
}

const fn col(name: &'static str, priority: u8) -> Column {
    Column { name, priority, is_name: false, type_: "string" }
}

const fn name_col(priority: u8) -> Column {
    Column { name: "Name", priority, is_name: true, type_: "string" }
}

/// The Node columns.
pub const NODE_COLUMNS: &[Column] = &[
    name_col(0),
    col("Status", 0),
    col("Roles", 0),
    col("Age", 0),
    col("Version", 0),
    col("Internal-IP", 1),
    col("External-IP", 1),
    col("OS-Image", 1),
    col("Kernel-Version", 1),
    col("Container-Runtime", 1),
];

/// The Pod columns.
pub const POD_COLUMNS: &[Column] = &[
    name_col(0),
    col("Ready", 0),
    col("Status", 0),
    col("Restarts", 0),
    col("Age", 0),
    col("IP", 1),
    col("Node", 1),
    col("Nominated Node", 1),
    col("Readiness Gates", 1),
];

/// The Lease columns.
pub const LEASE_COLUMNS: &[Column] = &[name_col(0), col("Holder", 0), col("Age", 0)];

/// The CSINode columns (`csiNodeColumnDefinitions`).
pub const CSINODE_COLUMNS: &[Column] =
    &[name_col(0), Column { name: "Drivers", priority: 0, is_name: false, type_: "integer" }, col("Age", 0)];

/// The Event columns.
pub const EVENT_COLUMNS: &[Column] = &[
    col("Last Seen", 0),
    col("Type", 0),
    col("Reason", 0),
    col("Object", 0),
    col("Subobject", 1),
    col("Source", 1),
    col("Message", 0),
    col("First Seen", 1),
    col("Count", 1),
    name_col(1),
];

/// One row: its cells (every column, the wide ones included) and the object's namespace and
/// name (the row's `object` metadata).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub cells: Vec<String>,
    pub namespace: String,
    pub name: String,
}

/// A server-side table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub kind: Kind,
    pub columns: &'static [Column],
    pub rows: Vec<Row>,
}

impl Table {
    /// The table the API server sends for `objects` (all of `kind`) at `now`.
    pub fn of(kind: Kind, objects: &[Object], now: WallTime) -> Table {
        let rows = objects
            .iter()
            .map(|o| match o {
                Object::Node(n) => node_row(n, now),
                Object::Pod(p) => pod_row(p, now),
                Object::Lease(l) => lease_row(l, now),
                Object::Event(e) => event_row(e, now),
                Object::CsiNode(c) => csinode_row(c, now),
                Object::PodDisruptionBudget(p) => pdb_row(p, now),
                Object::DaemonSet(d) => daemonset_row(d, now),
                Object::VolumeAttachment(va) => volume_attachment_row(va, now),
                Object::StatefulSet(s) => statefulset_row(s, now),
                Object::ControllerRevision(r) => revision_row(r, now),
                Object::PersistentVolumeClaim(c) => claim_row(c, now),
                Object::PersistentVolume(v) => volume_row(v, now),
                Object::PriorityClass(c) => priority_class_row(c, now),
                Object::CertificateSigningRequest(c) => super::describe_csr::csr_row(c, now),
                Object::Secret(secret) => super::describe_csr::secret_row(secret, now),
            })
            .collect();
        Table { kind, columns: columns(kind), rows }
    }
}

/// A kind's columns.
pub fn columns(kind: Kind) -> &'static [Column] {
    match kind {
        Kind::Node => NODE_COLUMNS,
        Kind::Pod => POD_COLUMNS,
        Kind::Lease => LEASE_COLUMNS,
        Kind::Event => EVENT_COLUMNS,
        Kind::CsiNode => CSINODE_COLUMNS,
        Kind::PodDisruptionBudget => PDB_COLUMNS,
        Kind::DaemonSet => DAEMONSET_COLUMNS,
        Kind::StatefulSet => STATEFULSET_COLUMNS,
        Kind::ControllerRevision => REVISION_COLUMNS,
        Kind::PersistentVolumeClaim => CLAIM_COLUMNS,
        Kind::PersistentVolume => VOLUME_COLUMNS,
        Kind::VolumeAttachment => VOLUME_ATTACHMENT_COLUMNS,
        Kind::PriorityClass => PRIORITY_CLASS_COLUMNS,
        Kind::CertificateSigningRequest => super::describe_csr::CSR_COLUMNS,
        Kind::Secret => super::describe_csr::SECRET_COLUMNS,
    }
}

// ---- the API server's rows ----

/// The PodDisruptionBudget columns.
pub const PDB_COLUMNS: &[Column] = &[
    name_col(0),
    col("Min Available", 0),
    col("Max Unavailable", 0),
    Column { name: "Allowed Disruptions", priority: 0, is_name: false, type_: "integer" },
    col("Age", 0),
];

/// `printPodDisruptionBudget`.
pub fn pdb_row(pdb: &PodDisruptionBudget, now: WallTime) -> Row {
    let or_na = |v: Option<crate::sim::objects::IntOrPercent>| v.map_or_else(|| "N/A".to_string(), |v| v.to_string());
    Row {
        cells: vec![
            pdb.metadata.name.to_string(),
            or_na(pdb.spec.min_available),
            or_na(pdb.spec.max_unavailable),
            pdb.status.disruptions_allowed.to_string(),
            since(now, pdb.metadata.creation_timestamp.map(|t| t.0)),
        ],
        namespace: pdb.metadata.namespace.to_string(),
        name: pdb.metadata.name.to_string(),
    }
}

/// The DaemonSet columns.
pub const DAEMONSET_COLUMNS: &[Column] = &[
    name_col(0),
    col("Desired", 0),
    col("Current", 0),
    col("Ready", 0),
    col("Up-to-date", 0),
    col("Available", 0),
    col("Node Selector", 0),
    col("Age", 0),
    col("Containers", 1),
    col("Images", 1),
    col("Selector", 1),
];

/// `printDaemonSet`.
pub fn daemonset_row(ds: &DaemonSet, now: WallTime) -> Row {
    let s = &ds.status;
    let containers = &ds.spec.template.spec.containers;
    Row {
        cells: vec![
            ds.metadata.name.to_string(),
            s.desired_number_scheduled.to_string(),
            s.current_number_scheduled.to_string(),
            s.number_ready.to_string(),
            s.updated_number_scheduled.unwrap_or(0).to_string(),
            s.number_available.unwrap_or(0).to_string(),
            "<none>".into(),
            since(now, ds.metadata.creation_timestamp.map(|t| t.0)),
            containers.iter().map(|c| &*c.name).collect::<Vec<_>>().join(","),
            containers.iter().map(|c| &*c.image).collect::<Vec<_>>().join(","),
            ds.spec.selector.to_string(),
        ],
        namespace: ds.metadata.namespace.to_string(),
        name: ds.metadata.name.to_string(),
    }
}

/// `kubectl get nodes` STATUS: from the Ready condition only, plus `SchedulingDisabled`.
pub fn node_status(node: &Node) -> String {
    let mut status = match node.ready_status() {
        Some("True") => "Ready".to_string(),
        Some(_) => "NotReady".to_string(),
        None => "Unknown".to_string(),
    };
    if node.spec.unschedulable {
        status.push_str(",SchedulingDisabled");
    }
    status
}

/// ROLES: the sorted roles from `node-role.kubernetes.io/<role>` label keys and the value of a
/// `kubernetes.io/role` label, comma-separated, or `<none>`.
pub fn node_roles(node: &Node) -> String {
    // A sorted set (`sets.String.List()`), kept by inserting in place.
    let mut roles: Vec<&str> = Vec::new();
    for (k, v) in &node.metadata.labels {
        let role = match k.strip_prefix("node-role.kubernetes.io/") {
            Some(role) => role,
            None if k == "kubernetes.io/role" => v.as_str(),
            None => "",
        };
        if !role.is_empty()
            && let Err(at) = roles.binary_search(&role)
        {
            roles.insert(at, role);
        }
    }
    if roles.is_empty() { "<none>".into() } else { roles.join(",") }
}

fn or(s: &str, default: &str) -> String {
    if s.is_empty() { default.to_string() } else { s.to_string() }
}

/// `printNode`.
pub fn node_row(node: &Node, now: WallTime) -> Row {
    let info = &node.status.node_info;
    let address = |ty: &str| {
        node.status.addresses.iter().find(|a| a.type_ == ty).map_or_else(|| "<none>".to_string(), |a| a.address.clone())
    };
    Row {
        cells: vec![
            node.metadata.name.to_string(),
            node_status(node),
            node_roles(node),
            since(now, node.metadata.creation_timestamp.map(|t| t.0)),
            info.kubelet_version.clone(),
            address("InternalIP"),
            address("ExternalIP"),
            or(&info.os_image, "<unknown>"),
            or(&info.kernel_version, "<unknown>"),
            or(&info.container_runtime_version, "<unknown>"),
        ],
        namespace: String::new(),
        name: node.metadata.name.to_string(),
    }
}

/// The READY, STATUS and RESTARTS cells of a Pod (`printPod`, for Pods without init
/// containers, which are the only ones the simulation makes).
pub fn pod_state(pod: &Pod, now: WallTime) -> (String, String, String) {
    let total = pod.spec.containers.len();
    let mut ready = 0;
    let mut restarts: i64 = 0;
    let mut last_restart: Option<WallTime> = None;
    let mut reason = pod.status.phase.to_string();
    if !pod.status.reason.is_empty() {
        reason = pod.status.reason.to_string();
    }
    let scheduling_gated =
        pod.status.conditions.iter().any(|c| c.type_ == "PodScheduled" && c.reason == "SchedulingGated");
    if scheduling_gated {
        reason = "SchedulingGated".into();
    }
    let mut has_running = false;
    for c in pod.status.container_statuses.iter().rev() {
        restarts += i64::from(c.restart_count);
        if let Some(t) = &c.last_state.terminated
            && last_restart.is_none_or(|l| l < t.finished_at.0)
        {
            last_restart = Some(t.finished_at.0);
        }
        if let Some(w) = c.state.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
            reason = w.reason.to_string();
        } else if let Some(t) = c.state.terminated.as_ref() {
            reason = if t.reason.is_empty() { format!("ExitCode:{}", t.exit_code) } else { t.reason.to_string() };
        } else if c.ready && c.state.running.is_some() {
            has_running = true;
            ready += 1;
        }
    }
    if reason == "Completed" && has_running {
        reason = if pod.is_ready() { "Running".into() } else { "NotReady".into() };
    }
    let terminal = matches!(&*pod.status.phase, "Succeeded" | "Failed");
    if pod.metadata.deletion_timestamp.is_some() && pod.status.reason == "NodeLost" {
        // `NodeUnreachablePodReason`.
        reason = "Unknown".into();
    } else if pod.metadata.deletion_timestamp.is_some() && !terminal {
        reason = "Terminating".into();
    }
    let restarts = match last_restart {
        Some(at) if restarts != 0 => format!("{restarts} ({} ago)", since(now, Some(at))),
        _ => restarts.to_string(),
    };
    (format!("{ready}/{total}"), reason, restarts)
}

/// `printPod`.
pub fn pod_row(pod: &Pod, now: WallTime) -> Row {
    let (ready, status, restarts) = pod_state(pod, now);
    let ip = pod.status.pod_ips.first().map(|p| &*p.ip).unwrap_or("");
    Row {
        cells: vec![
            pod.metadata.name.to_string(),
            ready,
            status,
            restarts,
            since(now, pod.metadata.creation_timestamp.map(|t| t.0)),
            or(ip, "<none>"),
            or(&pod.spec.node_name, "<none>"),
            "<none>".into(),
            "<none>".into(),
        ],
        namespace: pod.metadata.namespace.to_string(),
        name: pod.metadata.name.to_string(),
    }
}

/// `printLease`.
pub fn lease_row(lease: &Lease, now: WallTime) -> Row {
    Row {
        cells: vec![
            lease.metadata.name.to_string(),
            lease.spec.holder_identity.clone().unwrap_or_default(),
            since(now, lease.metadata.creation_timestamp.map(|t| t.0)),
        ],
        namespace: lease.metadata.namespace.to_string(),
        name: lease.metadata.name.to_string(),
    }
}

/// `printCSINode`: NAME, DRIVERS (how many the spec lists), AGE.
pub fn csinode_row(c: &CsiNode, now: WallTime) -> Row {
    Row {
        cells: vec![
            c.metadata.name.to_string(),
            c.driver_count().to_string(),
            since(now, c.metadata.creation_timestamp.map(|t| t.0)),
        ],
        namespace: String::new(),
        name: c.metadata.name.to_string(),
    }
}

/// `printEvent`: LAST SEEN, TYPE, REASON, OBJECT, SUBOBJECT, SOURCE, MESSAGE, FIRST SEEN, COUNT,
/// NAME.
pub fn event_row(e: &Event, now: WallTime) -> Row {
    let first = match e.first_timestamp {
        Some(t) => since(now, Some(t.0)),
        None => since(now, e.event_time.map(|m| m.0)),
    };
    let mut last = match e.last_timestamp {
        Some(t) => since(now, Some(t.0)),
        None => first.clone(),
    };
    let mut count = e.count.unwrap_or(0);
    if let Some(series) = &e.series {
        last = since(now, Some(series.last_observed_time.0));
        count = series.count;
    } else if count == 0 {
        count = 1;
    }
    let kind = e.involved_object.kind.to_ascii_lowercase();
    let target = if e.involved_object.name.is_empty() { kind } else { format!("{kind}/{}", e.involved_object.name) };
    let component = if e.source.component.is_empty() { &e.reporting_component } else { &e.source.component };
    let instance = if e.source.host.is_empty() { &e.reporting_instance } else { &e.source.host };
    let source = if instance.is_empty() { component.to_string() } else { format!("{component}, {instance}") };
    Row {
        cells: vec![
            last,
            e.type_.to_string(),
            e.reason.to_string(),
            target,
            e.involved_object.field_path.clone(),
            source,
            e.message.trim().to_string(),
            first,
            count.to_string(),
            e.metadata.name.to_string(),
        ],
        namespace: e.metadata.namespace.to_string(),
        name: e.metadata.name.to_string(),
    }
}

/// Which objects a `kubectl get` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every object of the kind in one namespace (ignored for cluster-scoped kinds).
    Namespace(String),
    /// Every object in every namespace (`-A`).
    AllNamespaces,
}

/// How kubectl prints a table (`printers.PrintOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    pub wide: bool,
    pub no_headers: bool,
    /// `-A` on a namespaced kind: a `NAMESPACE` column first.
    pub with_namespace: bool,
    /// Several kinds in one command: names become `kind/name`.
    pub with_kind: bool,
}

/// Writes the table as kubectl prints it. Nothing at all when it has no rows.
pub fn print_table(w: &mut TabWriter, table: &Table, o: &PrintOptions) {
    if table.rows.is_empty() {
        return;
    }
    let shown = |c: &Column| o.wide || c.priority == 0;
    let mut line = String::new();
    if !o.no_headers {
        let mut names: Vec<String> = Vec::new();
        if o.with_namespace {
            names.push("NAMESPACE".into());
        }
        names.extend(table.columns.iter().filter(|c| shown(c)).map(|c| c.name.to_ascii_uppercase()));
        line.push_str(&names.join("\t"));
        line.push('\n');
        w.write(&line);
    }
    let prefix = table.kind.kind_prefix();
    for row in &table.rows {
        line.clear();
        let mut first = true;
        let mut cell = |line: &mut String, text: &str| {
            if !first {
                line.push('\t');
            }
            first = false;
            let (text, truncated) = match text.find(['\u{c}', '\n', '\r']) {
                Some(i) => (&text[..i], true),
                None => (text, false),
            };
            line.push_str(&escape_terminal(text));
            if truncated {
                line.push_str("...");
            }
        };
        if o.with_namespace {
            cell(&mut line, &row.namespace);
        }
        for (c, text) in table.columns.iter().zip(&row.cells) {
            if !shown(c) {
                continue;
            }
            if o.with_kind && c.is_name {
                cell(&mut line, &format!("{prefix}/{text}"));
            } else {
                cell(&mut line, text);
            }
        }
        line.push('\n');
        w.write(&line);
    }
}

/// `-o name`: one `kind[.group]/name` line per row.
pub fn print_names(out: &mut String, table: &Table) {
    let prefix = table.kind.kind_prefix();
    for row in &table.rows {
        let _ = writeln!(out, "{prefix}/{}", row.name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(table: &Table, o: &PrintOptions) -> String {
        let mut w = TabWriter::table();
        print_table(&mut w, table, o);
        w.finish()
    }

    fn table_of(rows: Vec<Vec<&str>>, kind: Kind) -> Table {
        Table {
            kind,
            columns: columns(kind),
            rows: rows
                .into_iter()
                .map(|cells| Row {
                    name: cells[0].to_string(),
                    namespace: "default".into(),
                    cells: cells.into_iter().map(String::from).collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn headers_follow_priority_and_options() {
        let t = table_of(
            vec![vec!["node-1", "Ready", "<none>", "5m", "v1.34.1", "10.0.0.11", "<none>", "Ubuntu", "6.8", "c://2"]],
            Kind::Node,
        );
        assert_eq!(
            printed(&t, &PrintOptions::default()),
            "NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   5m    v1.34.1\n"
        );
        let wide = printed(&t, &PrintOptions { wide: true, ..PrintOptions::default() });
        assert!(wide.starts_with(
            "NAME     STATUS   ROLES    AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE   KERNEL-VERSION   CONTAINER-RUNTIME\n"
        ));
        let kind = printed(&t, &PrintOptions { with_kind: true, no_headers: true, ..PrintOptions::default() });
        assert_eq!(kind, "node/node-1   Ready   <none>   5m    v1.34.1\n");
        assert_eq!(printed(&table_of(vec![], Kind::Node), &PrintOptions::default()), "");
    }

    #[test]
    fn namespaces_and_kind_prefixes() {
        let t = table_of(vec![vec!["node-1", "node-1", "3m"]], Kind::Lease);
        let out = printed(&t, &PrintOptions { with_namespace: true, with_kind: true, ..PrintOptions::default() });
        assert_eq!(
            out,
            "NAMESPACE   NAME                               HOLDER   AGE\ndefault     lease.coordination.k8s.io/node-1   node-1   3m\n"
        );
        let mut names = String::new();
        print_names(&mut names, &t);
        assert_eq!(names, "lease.coordination.k8s.io/node-1\n");
    }

    #[test]
    fn cells_are_cut_at_line_breaks_and_escaped() {
        let t = table_of(
            vec![vec!["5s", "Normal", "R", "node/n", "", "k", "line one\nline two", "5s", "1", "n.1"]],
            Kind::Event,
        );
        let out = printed(&t, &PrintOptions::default());
        assert!(out.ends_with("line one...\n"), "{out}");
        let t = table_of(vec![vec!["a\u{1b}[31m", "x", "1m"]], Kind::Lease);
        assert!(printed(&t, &PrintOptions::default()).contains("a^[[31m"));
    }
}
