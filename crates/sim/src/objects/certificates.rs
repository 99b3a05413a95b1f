//! `certificates.k8s.io/v1` `CertificateSigningRequest`, and the bootstrap token's `v1`
//! `Secret`: what the kubelet's TLS bootstrap sends and reads (docs/kubernetes-notes/core.md,
//! "TLS bootstrap").

use std::collections::BTreeMap;

use serde::Serialize;

use super::meta::{ObjectMeta, Time};
use crate::time::WallTime;

/// `kubernetes.io/kube-apiserver-client-kubelet`: the signer of a kubelet's client certificate.
pub const SIGNER_KUBELET_CLIENT: &str = "kubernetes.io/kube-apiserver-client-kubelet";
/// `kubernetes.io/kubelet-serving`: the signer of a kubelet's serving certificate.
pub const SIGNER_KUBELET_SERVING: &str = "kubernetes.io/kubelet-serving";
/// `bootstrap.kubernetes.io/token`: the type of a bootstrap token's Secret.
pub const BOOTSTRAP_TOKEN_TYPE: &str = "bootstrap.kubernetes.io/token";

/// A CertificateSigningRequest as the API server serves it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CertificateSigningRequest {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: CsrSpec,
    pub status: CsrStatus,
}

/// `CertificateSigningRequestSpec`, in the API's field order. `username`, `uid`, `groups` are
/// the API server's (the authenticated sender's), never the client's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CsrSpec {
    /// The PEM certificate request, base64 as `[]byte` is in JSON.
    pub request: String,
    pub signer_name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiration_seconds: Option<i32>,
    pub usages: Vec<&'static str>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub username: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

/// `CertificateSigningRequestStatus`: `conditions`, then `certificate` (base64 PEM).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CsrStatus {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<CsrCondition>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub certificate: String,
}

/// `CertificateSigningRequestCondition`, in the API's field order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CsrCondition {
    #[serde(rename = "type")]
    pub type_: &'static str,
    pub status: &'static str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub reason: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    pub last_update_time: Option<Time>,
    pub last_transition_time: Option<Time>,
}

impl CertificateSigningRequest {
    /// A request as a client sends it: a name, the PEM request, the signer and the usages.
    pub fn new(name: &str, request: String, signer_name: &'static str, usages: Vec<&'static str>) -> Self {
        CertificateSigningRequest {
            kind: "CertificateSigningRequest",
            api_version: "certificates.k8s.io/v1",
            metadata: ObjectMeta { name: name.into(), ..ObjectMeta::default() },
            spec: CsrSpec { request, signer_name, usages, ..CsrSpec::default() },
            status: CsrStatus::default(),
        }
    }

    /// The condition of type `type_`, if any.
    pub fn condition(&self, type_: &str) -> Option<&CsrCondition> {
        self.status.conditions.iter().find(|c| c.type_ == type_)
    }

    /// Why a client waiting for its certificate gives up, as client-go's `WaitForCertificate`
    /// says it: a `Denied` or `Failed` condition, with its reason and message.
    pub fn refusal(&self) -> Option<String> {
        self.status.conditions.iter().find_map(|c| {
            let why = match c.type_ {
                "Denied" => "certificate signing request is denied",
                "Failed" => "certificate signing request failed",
                _ => return None,
            };
            Some(format!("{why}, reason: {}, message: {}", c.reason, c.message))
        })
    }

    /// Whether it is Approved or Denied (`GetCertApprovalCondition`).
    pub fn approved_or_denied(&self) -> (bool, bool) {
        (self.condition("Approved").is_some(), self.condition("Denied").is_some())
    }

    /// kubectl's CONDITION column (`extractCSRStatus`, printers.go): `Denied` over `Approved`
    /// over `Pending`, then `,Failed`, then `,Issued` once a certificate is there.
    pub fn condition_text(&self) -> String {
        let has = |t: &str| self.condition(t).is_some();
        let mut status = String::from(if has("Denied") {
            "Denied"
        } else if has("Approved") {
            "Approved"
        } else {
            "Pending"
        });
        if has("Failed") {
            status.push_str(",Failed");
        }
        if !self.status.certificate.is_empty() {
            status.push_str(",Issued");
        }
        status
    }
}

/// A `v1` `Secret`: here only the bootstrap token's (`kube-system/bootstrap-token-<id>`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Secret {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    /// Each key's value, base64.
    pub data: BTreeMap<String, String>,
    #[serde(rename = "type")]
    pub type_: &'static str,
}

/// A PEM block of `label` around `der`, as `pem.EncodeToMemory` writes it (64 columns).
pub fn pem(label: &str, der: &[u8]) -> String {
    let body = base64(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in body.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

/// The `status.certificate` csrsigning writes: a PEM `CERTIFICATE`, base64 as JSON carries a
/// `[]byte`. The simulation signs nothing: its bytes are not X.509; the first 16 carry the
/// validity (Unix seconds, big-endian), which is what the kubelet reads back from it
/// ([`certificate_validity`]), the rest is `filler`.
pub fn issued_certificate(not_before: WallTime, not_after: WallTime, filler: &[u8]) -> String {
    let mut der = Vec::with_capacity(16 + filler.len());
    der.extend_from_slice(&not_before.unix_secs().to_be_bytes());
    der.extend_from_slice(&not_after.unix_secs().to_be_bytes());
    der.extend_from_slice(filler);
    base64(pem("CERTIFICATE", &der).as_bytes())
}

/// The validity of a certificate [`issued_certificate`] wrote.
pub fn certificate_validity(certificate: &str) -> Option<(WallTime, WallTime)> {
    let pem = String::from_utf8(base64_decode(certificate)?).ok()?;
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64_decode(&body)?;
    let secs = |b: &[u8]| Some(i64::from_be_bytes(b.try_into().ok()?));
    let (nb, na) = (secs(der.get(0..8)?)?, secs(der.get(8..16)?)?);
    Some((WallTime(nb * 1_000_000), WallTime(na * 1_000_000)))
}

/// A DER TLV: `tag`, the definite length, `content`.
fn der(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = content.len();
    if n < 0x80 {
        out.push(n as u8);
    } else if n < 0x100 {
        out.extend([0x81, n as u8]);
    } else {
        out.extend([0x82, (n >> 8) as u8, n as u8]);
    }
    out.extend_from_slice(content);
    out
}

/// `id-ecPublicKey`, `prime256v1`, `ecdsa-with-SHA256`, and the subject's `O` and `CN`.
const OID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const OID_P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const OID_ECDSA_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
const OID_O: &[u8] = &[0x55, 0x04, 0x0a];
const OID_CN: &[u8] = &[0x55, 0x04, 0x03];

/// The P-256 base point, uncompressed: the public key every simulated request carries (a point
/// on the curve, so `x509.ParseCertificateRequest` takes it; the simulation has no keys).
const P256_G: [u8; 65] = [
    0x04, 0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03,
    0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96, 0x4f, 0xe3, 0x42, 0xe2, 0xfe,
    0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce,
    0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
];

/// A PKCS #10 certificate request in DER, as `certutil.MakeCSR` writes one for an ECDSA P-256
/// key: the subject (`O` then `CN`, as `pkix.Name.ToRDNSequence` orders them, UTF8Strings), the
/// public key, no attributes, and an `ecdsa-with-SHA256` signature. The signature's `r` and `s`
/// are the 64 bytes given (the simulation signs nothing: kubectl and the approver parse a request,
/// they do not check its signature).
pub fn certificate_request(cn: &str, organizations: &[&str], signature: &[u8; 64]) -> Vec<u8> {
    certificate_request_with_sans(cn, organizations, &[], &[], signature)
}

/// `extensionRequest` (PKCS #9) and `subjectAltName`.
const OID_EXTENSION_REQUEST: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x0e];
const OID_SUBJECT_ALT_NAME: &[u8] = &[0x55, 0x1d, 0x11];

/// [`certificate_request`] with subject alternative names (a serving certificate's: the node's
/// DNS names and IPv4 addresses), in an `extensionRequest` attribute as `x509.CreateCertificateRequest`
/// writes them.
pub fn certificate_request_with_sans(
    cn: &str,
    organizations: &[&str],
    dns_names: &[&str],
    ips: &[[u8; 4]],
    signature: &[u8; 64],
) -> Vec<u8> {
    let attribute =
        |oid: &[u8], value: &str| der(0x31, &der(0x30, &[der(0x06, oid), der(0x0c, value.as_bytes())].concat()));
    let mut subject = Vec::new();
    for o in organizations {
        subject.extend(attribute(OID_O, o));
    }
    subject.extend(attribute(OID_CN, cn));
    let algorithm = der(0x30, &[der(0x06, OID_EC_PUBLIC_KEY), der(0x06, OID_P256)].concat());
    let key = der(0x30, &[algorithm, der(0x03, &[&[0u8][..], &P256_G[..]].concat())].concat());
    let attributes = if dns_names.is_empty() && ips.is_empty() {
        vec![0xa0, 0x00]
    } else {
        let mut names = Vec::new();
        for d in dns_names {
            names.extend(der(0x82, d.as_bytes()));
        }
        for ip in ips {
            names.extend(der(0x87, ip));
        }
        let san = der(0x30, &[der(0x06, OID_SUBJECT_ALT_NAME), der(0x04, &der(0x30, &names))].concat());
        let extensions = der(0x30, &san);
        let attribute = der(0x30, &[der(0x06, OID_EXTENSION_REQUEST), der(0x31, &extensions)].concat());
        der(0xa0, &attribute)
    };
    let info = der(0x30, &[der(0x02, &[0]), der(0x30, &subject), key, attributes].concat());
    // r and s as positive INTEGERs of 32 bytes (the high bit cleared, no leading zero byte).
    let int = |b: &[u8]| {
        let mut v = b.to_vec();
        v[0] = (v[0] & 0x7f).max(1);
        der(0x02, &v)
    };
    let sig = der(0x30, &[int(&signature[..32]), int(&signature[32..])].concat());
    let algorithm = der(0x30, &der(0x06, OID_ECDSA_SHA256));
    der(0x30, &[info, algorithm, der(0x03, &[&[0u8][..], &sig[..]].concat())].concat())
}

/// Reads one DER TLV at the start of `bytes`: its tag, its content and what follows.
fn read_der(bytes: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = bytes.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = match first {
        n if n < 0x80 => (n as usize, rest),
        0x81 => (*rest.first()? as usize, rest.get(1..)?),
        0x82 => ((*rest.first()? as usize) << 8 | *rest.get(1)? as usize, rest.get(2..)?),
        _ => return None,
    };
    Some((tag, rest.get(..len)?, rest.get(len..)?))
}

/// The subject alternative names of a request the simulation wrote: its DNS names and IP
/// addresses (dotted), empty without any.
pub fn request_sans(request: &str) -> (Vec<String>, Vec<String>) {
    let read = || -> Option<(Vec<String>, Vec<String>)> {
        let pem = String::from_utf8(base64_decode(request)?).ok()?;
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        let der = base64_decode(&body)?;
        let (_, request, _) = read_der(&der)?;
        let (_, info, _) = read_der(request)?;
        let (_, _, rest) = read_der(info)?; // version
        let (_, _, rest) = read_der(rest)?; // subject
        let (_, _, rest) = read_der(rest)?; // key
        let (_, attributes, _) = read_der(rest)?;
        if attributes.is_empty() {
            return Some((Vec::new(), Vec::new()));
        }
        let (_, attribute, _) = read_der(attributes)?;
        let (_, _, set) = read_der(attribute)?;
        let (_, extensions, _) = read_der(set)?;
        let (_, extension_list, _) = read_der(extensions)?;
        let (_, extension, _) = read_der(extension_list)?;
        let (_, _, value) = read_der(extension)?;
        let (_, octets, _) = read_der(value)?;
        let (_, mut names, _) = read_der(octets)?;
        let (mut dns, mut ips) = (Vec::new(), Vec::new());
        while !names.is_empty() {
            let (tag, value, next) = read_der(names)?;
            match tag {
                0x82 => dns.push(String::from_utf8(value.to_vec()).ok()?),
                0x87 => ips.push(value.iter().map(u8::to_string).collect::<Vec<_>>().join(".")),
                _ => {}
            }
            names = next;
        }
        Some((dns, ips))
    };
    read().unwrap_or_default()
}

/// The subject of a request (`spec.request`, base64 of a PEM `CERTIFICATE REQUEST`): its common
/// name and organizations (`x509.ParseCertificateRequest`'s `Subject`).
pub fn request_subject(request: &str) -> Option<(String, Vec<String>)> {
    let pem = String::from_utf8(base64_decode(request)?).ok()?;
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64_decode(&body)?;
    let (_, request, _) = read_der(&der)?;
    let (_, info, _) = read_der(request)?;
    let (_, _version, rest) = read_der(info)?;
    let (_, mut names, _) = read_der(rest)?;
    let (mut cn, mut orgs) = (None, Vec::new());
    while !names.is_empty() {
        let (_, set, next) = read_der(names)?;
        let (_, pair, _) = read_der(set)?;
        let (_, oid, value) = read_der(pair)?;
        let (_, value, _) = read_der(value)?;
        let value = String::from_utf8(value.to_vec()).ok()?;
        match oid {
            OID_CN => cn = Some(value),
            OID_O => orgs.push(value),
            _ => {}
        }
        names = next;
    }
    Some((cn?, orgs))
}

/// Standard base64 decoded (padding optional); `None` for anything else.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.trim_end_matches('=').bytes().map(value).collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// Standard base64 (with padding), as Go's `encoding/json` writes a `[]byte`.
pub fn base64(bytes: &[u8]) -> String {
    base64_with(bytes, b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", true)
}

/// URL-safe base64 without padding (`base64.RawURLEncoding`).
pub fn base64_raw_url(bytes: &[u8]) -> String {
    base64_with(bytes, b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", false)
}

fn base64_with(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_go_encodes() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"07401b"), "MDc0MDFi");
        assert_eq!(base64_raw_url(&[0xfb, 0xff]), "-_8");
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
            assert_eq!(base64_decode(&base64(text.as_bytes())).as_deref(), Some(text.as_bytes()));
        }
        assert_eq!(base64_decode("a-b"), None);
    }

    #[test]
    fn an_issued_certificate_carries_its_validity() {
        let (nb, na) = (WallTime(1_772_442_000_000_000), WallTime(1_803_978_000_000_000));
        let cert = issued_certificate(nb, na, &[7; 300]);
        assert!(base64_decode(&cert).is_some_and(|pem| pem.starts_with(b"-----BEGIN CERTIFICATE-----\n")));
        assert_eq!(certificate_validity(&cert), Some((nb, na)));
    }

    #[test]
    fn a_request_carries_its_subject() {
        let der = certificate_request("system:node:node-1", &["system:nodes"], &[0xff; 64]);
        assert_eq!(&der[..2], &[0x30, 0x81], "one SEQUENCE of 128 to 255 bytes");
        let request = base64(pem("CERTIFICATE REQUEST", &der).as_bytes());
        assert_eq!(
            request_subject(&request),
            Some(("system:node:node-1".to_string(), vec!["system:nodes".to_string()]))
        );
        assert_eq!(request_sans(&request), (vec![], vec![]));
        let der =
            certificate_request_with_sans("system:node:n", &["system:nodes"], &["n"], &[[10, 0, 0, 11]], &[1; 64]);
        let request = base64(pem("CERTIFICATE REQUEST", &der).as_bytes());
        assert_eq!(request_subject(&request).map(|s| s.0), Some("system:node:n".to_string()));
        assert_eq!(request_sans(&request), (vec!["n".to_string()], vec!["10.0.0.11".to_string()]));
    }

    #[test]
    fn condition_column_as_kubectl_prints_it() {
        let mut csr = CertificateSigningRequest::new("x", String::new(), SIGNER_KUBELET_CLIENT, vec![]);
        assert_eq!(csr.condition_text(), "Pending");
        csr.status.conditions.push(CsrCondition {
            type_: "Approved",
            status: "True",
            reason: "AutoApproved",
            message: String::new(),
            last_update_time: None,
            last_transition_time: None,
        });
        assert_eq!(csr.condition_text(), "Approved");
        csr.status.certificate = "x".into();
        assert_eq!(csr.condition_text(), "Approved,Issued");
    }
}
