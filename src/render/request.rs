//! One request of the simulation as a client-go user sees it with `-v=8` (kubectl's, or any
//! component's, logging at that level): the request body, the method and URL, the headers that
//! matter, the response status and time, and the response body, each body cut at 1024 bytes as
//! `-v=8` cuts it.
//!
//! The lines are client-go's (`rest/request.go`, `transport/round_trippers.go`, 1.32) without the
//! klog prefix (`I0302 09:00:01.123456   1234 round_trippers.go:470]`). Bodies are compact JSON
//! with sorted keys: exactly what a patch or a `DeleteOptions` is (Go marshals maps sorted); an
//! object's keys would come in the API's field order on the wire. (Real kubelets and controllers
//! send and accept protobuf for core objects, which `-v=8` shows as a hex dump; nodeline shows
//! the same content as JSON.)

use crate::sim::API_SERVER;
use crate::sim::objects::Object;
use crate::sim::record::{Body, Outcome, Request, Response};

use super::json;

/// How much of a body `-v=8` prints.
const BODY_LIMIT: usize = 1024;

/// An object as a body: compact JSON. (On the wire the keys of an object come in the API's field
/// order; here they are sorted, as in a patch, to keep one JSON writer in the page.)
pub fn object_json(o: &Object) -> String {
    json::to_string_compact(&o.to_json())
}

/// The request body, as sent.
pub fn request_body(r: &Request) -> Option<String> {
    let body = r.body.as_ref()?;
    Some(match body {
        Body::Object(o) => object_json(o),
        Body::StatusPatch { .. } => {
            let (base, wanted) = r.status_patch()?;
            json::to_string_compact(&crate::sim::patch::node_status(&base.to_json(), &wanted.to_json()))
        }
        Body::Json(text) => json::html_escaped(text.as_str()),
        Body::PodStatus { .. } | Body::Binding(_) => json::to_string_compact(&body.built_json()?),
        Body::Renewal { .. } => object_json(&body.object()?),
    })
}

/// The response body, as received.
pub fn response_body(r: &Request) -> Option<String> {
    Some(match r.response.as_ref()? {
        Response::Object(o) => object_json(o),
        Response::Status(s) => json::to_string_compact(&serde_json::to_value(s).unwrap_or_default()),
        Response::Renewal(version) => object_json(&Object::Lease(version.lease())),
    })
}

/// `http.StatusText`.
pub fn status_text(code: u16) -> &'static str {
    match code {
        101 => "Switching Protocols",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        410 => "Gone",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// `truncateBody` at `-v=8`.
fn truncate(body: &str) -> String {
    if body.len() <= BODY_LIMIT {
        return body.to_string();
    }
    let mut cut = BODY_LIMIT;
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{} [truncated {} chars]", &body[..cut], body.len() - BODY_LIMIT)
}

/// A string as klog quotes a structured value (Go's `%q`).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let b = c as u32 as u8;
                out.push_str("\\x");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The request's URL as the client sends it.
pub fn url(r: &Request) -> String {
    if r.query.is_empty() { format!("{API_SERVER}{}", r.path) } else { format!("{API_SERVER}{}?{}", r.path, r.query) }
}

/// The `-v=8` lines of request `r`.
pub fn verbose(r: &Request) -> String {
    let mut out = String::new();
    let body = request_body(r).unwrap_or_default();
    out.push_str(&format!("\"Request Body\" body={}\n", go_quote(&truncate(&body))));
    out.push_str(&format!("{} {}\n", r.method.as_str(), url(r)));
    out.push_str("Request Headers:\n");
    // client-go's default for a JSON client.
    out.push_str("    Accept: application/json, */*\n");
    if let Some(ct) = r.content_type {
        out.push_str(&format!("    Content-Type: {}\n", ct.as_str()));
    }
    let millis = (r.end - r.t).as_millis() as u64;
    match r.outcome {
        Outcome::Code(code) => {
            out.push_str(&format!("Response Status: {code} {} in {millis} milliseconds\n", status_text(code)));
            out.push_str("Response Headers:\n    Content-Type: application/json\n");
            let body = response_body(r).unwrap_or_default();
            out.push_str(&format!("\"Response Body\" body={}\n", go_quote(&truncate(&body))));
        }
        Outcome::Timeout => {
            out.push_str(&format!("Response Status:  in {millis} milliseconds\n"));
            if let Some(e) = r.error() {
                out.push_str(&e);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        assert_eq!(go_quote("{\"a\":\"b\\\\c\"}\n\u{1}é"), r#""{\"a\":\"b\\\\c\"}\n\x01é""#);
        assert_eq!(go_quote(""), "\"\"");
    }

    #[test]
    fn truncates_at_1024_bytes() {
        let long = "x".repeat(1030);
        assert_eq!(truncate(&long), format!("{} [truncated 6 chars]", "x".repeat(1024)));
        assert_eq!(truncate("short"), "short");
    }
}
