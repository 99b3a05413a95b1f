//! A paged list of Pods, as the API server answers `GET /api/v1/pods?fieldSelector=…&limit=N`
//! (`storage/etcd3/store.go` `GetList`, and the watch cache's list, which pages the same way):
//! the keys `/registry/pods/<namespace>/<name>` in byte order, the selectors applied to each,
//! at most `limit` items a page, and while keys remain after a full page a `continue` token
//! (`storage.EncodeContinue`: base64url, unpadded, of `{"v":"meta.k8s.io/v1","rv":…,"start":…}`,
//! the start key being the last key read with a NUL byte after it, relative to the prefix).

use std::sync::Arc;

use super::ApiServer;
use crate::objects::{Kind, Pod, Status};
use crate::selector::Selector;

/// One page of a list.
#[derive(Clone, Debug)]
pub(crate) struct Page {
    pub(crate) items: Vec<Arc<Pod>>,
    /// The token for the next page (`metadata.continue`), if keys remain.
    pub(crate) continue_token: Option<String>,
}

/// The token's JSON prefix (`storage.continueToken`'s fields in Go's order: `v`, `rv`, `start`).
const TOKEN_HEAD: &str = r#"{"v":"meta.k8s.io/v1","rv":"#;

/// `json.Marshal` of a continue token.
fn encode_token(rv: u64, start: &str) -> String {
    let start = serde_json::to_string(start).expect("a string serializes");
    format!(r#"{TOKEN_HEAD}{rv},"start":{start}}}"#)
}

/// The resourceVersion and start key of a token [`encode_token`] wrote (Go's `json.Marshal`
/// writes the same bytes for these fields), without a JSON parser in the page.
fn decode_token(json: &str) -> Option<(u64, String)> {
    let rest = json.strip_prefix(TOKEN_HEAD)?;
    let (rv, rest) = rest.split_once(',')?;
    let quoted = rest.strip_prefix(r#""start":""#)?.strip_suffix(r#""}"#)?;
    let mut start = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    start.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                c @ ('"' | '\\' | '/') => start.push(c),
                _ => return None,
            },
            '"' => return None,
            c => start.push(c),
        }
    }
    Some((rv.parse().ok()?, start))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `base64.RawURLEncoding.EncodeToString`.
fn base64url(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(B64[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

fn unbase64url(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.as_bytes().chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = B64.iter().position(|b| b == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// The answer to a `continue` the server cannot read (`storage.ErrGenericInvalidKey`, as the
/// handler words a bad list option).
fn bad_continue(why: &str) -> Box<Status> {
    let message = format!("continue key is not valid: {why}");
    let mut s = Status::failure(400, "BadRequest", message, Kind::Pod.group(), Kind::Pod.plural(), "");
    s.details = None;
    Box::new(s)
}

impl ApiServer {
    /// Lists Pods bound to `node` that `labels` selects: at most `limit` (0: all) from the key
    /// after the `continue` token's.
    pub(crate) fn list_pods(
        &self,
        node: &str,
        labels: &Selector,
        limit: u32,
        continue_token: Option<&str>,
    ) -> Result<Page, Box<Status>> {
        let (start, rv) = match continue_token {
            None => (String::new(), self.resource_version),
            Some(token) => {
                let bytes = unbase64url(token).ok_or_else(|| bad_continue("illegal base64 data"))?;
                let json = String::from_utf8(bytes).map_err(|_| bad_continue("invalid character in token"))?;
                let (rv, start) = decode_token(&json).ok_or_else(|| bad_continue("not a token of this server"))?;
                (start, rv)
            }
        };
        // The keyspace in byte order ("a-b/x" sorts before "a/x", unlike the store's tuples).
        let mut keys: Vec<(String, &Arc<Pod>)> =
            self.pods.iter().map(|((ns, name), pod)| (format!("{ns}/{name}"), pod)).collect();
        keys.sort_by(|a, b| a.0.cmp(&b.0));
        let mut items = Vec::new();
        let mut last: Option<&str> = None;
        let mut more = false;
        for (key, pod) in keys.iter().filter(|(k, _)| k.as_str() >= start.as_str()) {
            if limit > 0 && items.len() >= limit as usize {
                more = true;
                break;
            }
            last = Some(key);
            if pod.spec.node_name == node && labels.matches(&pod.metadata.labels) {
                items.push(Arc::clone(pod));
            }
        }
        let continue_token = match (more, last) {
            (true, Some(last)) => Some(base64url(encode_token(rv, &format!("{last}\u{0}")).as_bytes())),
            _ => None,
        };
        Ok(Page { items, continue_token })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_without_padding() {
        for s in ["", "f", "fo", "foo", "foob", "{\"v\":\"meta.k8s.io/v1\",\"rv\":12,\"start\":\"default/a\\u0000\"}"] {
            let e = base64url(s.as_bytes());
            assert!(!e.contains('='));
            assert_eq!(unbase64url(&e).as_deref(), Some(s.as_bytes()));
        }
        assert_eq!(base64url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url(b"\xfb\xff"), "-_8");
    }

    #[test]
    fn an_unreadable_continue_is_a_bad_request() {
        let api = ApiServer::default();
        let all = Selector::default();
        assert!(api.list_pods("node-1", &all, 1, None).is_ok_and(|p| p.items.is_empty() && p.continue_token.is_none()));
        let bad = |t: &str| api.list_pods("node-1", &all, 1, Some(t)).err().map(|s| (s.code, s.message));
        assert_eq!(bad("!"), Some((400, "continue key is not valid: illegal base64 data".into())));
        let other = base64url(br#"{"v":"meta.k8s.io/v2","rv":1,"start":"a"}"#);
        assert_eq!(bad(&other).map(|(c, _)| c), Some(400));
        let token = encode_token(7, "default/web-1\u{0}");
        assert_eq!(token, r#"{"v":"meta.k8s.io/v1","rv":7,"start":"default/web-1\u0000"}"#);
        assert_eq!(decode_token(&token), Some((7, "default/web-1\u{0}".to_string())));
    }
}
