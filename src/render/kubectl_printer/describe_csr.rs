//! `kubectl get` and `kubectl describe` of CertificateSigningRequests, and `kubectl get` of
//! Secrets, as kubectl 1.32 prints them (`pkg/printers/internalversion/printers.go`:
//! `certificateSigningRequestColumnDefinitions`, `printCertificateSigningRequest`,
//! `extractCSRStatus`, `secretColumnDefinitions`, `printSecret`; `pkg/describe/describe.go`:
//! `describeCertificateSigningRequest`, whose subject is read from the request itself).

use super::describe::{Prefix, describe_events, search_events};
use super::get::{Column, Row};
use super::tabwriter::TabWriter;
use super::{Cluster, human_duration, rfc1123z, since};
use crate::sim::WallTime;
use crate::sim::objects::{CertificateSigningRequest, Secret, StringMap, request_sans, request_subject};

const fn col(name: &'static str) -> Column {
    Column { name, priority: 0, is_name: false, type_: "string" }
}

/// The CertificateSigningRequest columns.
pub const CSR_COLUMNS: &[Column] = &[
    Column { name: "Name", priority: 0, is_name: true, type_: "string" },
    col("Age"),
    col("SignerName"),
    col("Requestor"),
    col("RequestedDuration"),
    col("Condition"),
];

/// `printCertificateSigningRequest`.
pub fn csr_row(csr: &CertificateSigningRequest, now: WallTime) -> Row {
    let signer = if csr.spec.signer_name.is_empty() { "<none>" } else { csr.spec.signer_name };
    let requested = csr.spec.expiration_seconds.map_or_else(|| "<none>".into(), requested_duration);
    Row {
        cells: vec![
            csr.metadata.name.to_string(),
            since(now, csr.metadata.creation_timestamp.map(|t| t.0)),
            signer.to_string(),
            csr.spec.username.clone(),
            requested,
            csr.condition_text(),
        ],
        namespace: String::new(),
        name: csr.metadata.name.to_string(),
    }
}

/// `duration.HumanDuration` of `expirationSeconds`.
fn requested_duration(seconds: i32) -> String {
    human_duration(i64::from(seconds) * 1_000_000)
}

/// The Secret columns.
pub const SECRET_COLUMNS: &[Column] = &[
    Column { name: "Name", priority: 0, is_name: true, type_: "string" },
    col("Type"),
    Column { name: "Data", priority: 0, is_name: false, type_: "string" },
    col("Age"),
];

/// `printSecret`.
pub fn secret_row(secret: &Secret, now: WallTime) -> Row {
    Row {
        cells: vec![
            secret.metadata.name.to_string(),
            secret.type_.to_string(),
            secret.data.len().to_string(),
            since(now, secret.metadata.creation_timestamp.map(|t| t.0)),
        ],
        namespace: secret.metadata.namespace.to_string(),
        name: secret.metadata.name.to_string(),
    }
}

/// `labels.FormatLabels`: `k=v,k=v`, or `<none>`.
fn format_labels(map: &StringMap) -> String {
    if map.is_empty() {
        return "<none>".into();
    }
    map.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

/// `kubectl describe csr NAME` for `csr`.
pub fn describe_csr(csr: &CertificateSigningRequest, cluster: &Cluster, show_events: bool) -> String {
    let mut w = Prefix { w: TabWriter::describe() };
    let meta = &csr.metadata;
    w.put(0, &["Name:\t", &meta.name, "\n"]);
    w.put(0, &["Labels:\t", &format_labels(&meta.labels), "\n"]);
    w.put(0, &["Annotations:\t", &format_labels(&meta.annotations), "\n"]);
    w.put(0, &["CreationTimestamp:\t", &rfc1123z(meta.creation_timestamp.map(|t| t.0)), "\n"]);
    w.put(0, &["Requesting User:\t", &csr.spec.username, "\n"]);
    if !csr.spec.signer_name.is_empty() {
        w.put(0, &["Signer:\t", csr.spec.signer_name, "\n"]);
    }
    if let Some(s) = csr.spec.expiration_seconds {
        w.put(0, &["Requested Duration:\t", &requested_duration(s), "\n"]);
    }
    w.put(0, &["Status:\t", &csr.condition_text(), "\n"]);
    let (cn, orgs) = request_subject(&csr.spec.request).unwrap_or_default();
    w.put(0, &["Subject:\n"]);
    w.put(0, &["\tCommon Name:\t", &cn, "\n"]);
    w.put(0, &["\tSerial Number:\t\n"]);
    if !orgs.is_empty() {
        w.put(0, &["\tOrganization:\t", &orgs.join("\n\t\t"), "\n"]);
    }
    let (dns, ips) = request_sans(&csr.spec.request);
    if !dns.is_empty() || !ips.is_empty() {
        w.put(0, &["Subject Alternative Names:\n"]);
        for (title, values) in [("DNS Names", &dns), ("IP Addresses", &ips)] {
            if !values.is_empty() {
                w.put(0, &["\t", title, ":\t", &values.join("\n\t\t"), "\n"]);
            }
        }
    }
    if show_events {
        let mut events = search_events(cluster, "CertificateSigningRequest", meta);
        describe_events(&mut w, &mut events, cluster.now);
    }
    w.w.finish()
}
