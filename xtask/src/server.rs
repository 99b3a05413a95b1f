//! A small static file server for `cargo xtask serve` and the browser tests: std networking,
//! requests parsed by `httparse`, paths decoded by `percent-encoding`.
//!
//! It serves one directory (normally `dist/`) at `/` and again under each extra mount prefix
//! (`/docs/k8s/nodeline/`, where docs sites embed the app), so tests can prove the build works
//! from a sub-path. GET and HEAD only; directories serve their `index.html` (a directory URL
//! without the trailing slash is redirected to it, so relative asset URLs resolve); anything
//! else is a 404. No rewrites: what works here works on any plain static host. Pages can be sent
//! with the Content-Security-Policy the README documents for embedders ([`CSP`]), so every
//! browser test runs under it.
//!
//! Like a real host it compresses: a file with a precompressed sibling (`x.wasm.br`, `x.wasm.gz`,
//! written by `cargo xtask build`, see [`crate::compress`]) is sent as that sibling to a client
//! that accepts the encoding; any other text or wasm file is gzipped on the fly. Lighthouse's
//! simulated slow network needs this to see what a reader downloads.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The sub-path under which the site is also served (docs sites embed it there).
pub(crate) const DOCS_PREFIX: &str = "/docs/k8s/nodeline/";

/// The Content-Security-Policy the site runs under (README: Content-Security-Policy). The build
/// leaves no inline script or style (`site::check_page`), so it needs no hash and no
/// `'unsafe-inline'`; `'wasm-unsafe-eval'` lets the page compile its WebAssembly.
pub(crate) const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

/// Where pages served with [`Server::start_reporting`] send their policy's violation reports
/// (`report-uri`); `GET` on it answers what arrived, as a JSON array.
pub(crate) const CSP_REPORTS: &str = "/__csp-reports";

/// Content-Security-Policy violation reports as browsers POSTed them: the sender's User-Agent and
/// the report's JSON text.
pub(crate) type Reports = Arc<Mutex<Vec<(String, String)>>>;

/// A running server; [`Server::stop`] (or dropping it) shuts it down.
#[derive(Debug)]
pub(crate) struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds `addr` (port 0 picks a free port) and serves `root` at `/` and under `prefixes`
    /// on a background thread; HTML pages carry `csp` as their Content-Security-Policy header.
    pub(crate) fn start(addr: &str, root: &Path, prefixes: &[&str], csp: Option<&str>) -> std::io::Result<Server> {
        Server::start_offering(addr, root, prefixes, csp, Accept::ALL)
    }

    /// [`Server::start`], compressing only with the encodings in `offer`.
    pub(crate) fn start_offering(
        addr: &str,
        root: &Path,
        prefixes: &[&str],
        csp: Option<&str>,
        offer: Accept,
    ) -> std::io::Result<Server> {
        Self::serve(addr, root, prefixes, csp.map(str::to_owned), None, offer)
    }

    /// Like [`Server::start`] with `csp`, plus a `report-uri` directive: every violation a
    /// browser reports lands in the returned [`Reports`] (the policy it enforces is the same).
    pub(crate) fn start_reporting(
        addr: &str,
        root: &Path,
        prefixes: &[&str],
        csp: &str,
    ) -> std::io::Result<(Server, Reports)> {
        let reports = Reports::default();
        let policy = format!("{csp}; report-uri {CSP_REPORTS}");
        let server = Self::serve(addr, root, prefixes, Some(policy), Some(Arc::clone(&reports)), Accept::ALL)?;
        Ok((server, reports))
    }

    fn serve(
        addr: &str,
        root: &Path,
        prefixes: &[&str],
        csp: Option<String>,
        reports: Option<Reports>,
        offer: Accept,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let site = Arc::new(Site {
            root: root.to_path_buf(),
            prefixes: prefixes.iter().map(|p| normalize_prefix(p)).collect(),
            csp,
            reports,
            offer,
        });
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stop_flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = conn else { continue };
                let site = Arc::clone(&site);
                std::thread::spawn(move || {
                    // A broken connection only concerns that client.
                    let _ = site.handle(stream);
                });
            }
        });
        Ok(Server { addr, stop, thread: Some(thread) })
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/`
    pub(crate) fn url(&self) -> String {
        format!("http://{}/", self.addr())
    }

    /// Blocks forever (until the process is interrupted).
    pub(crate) fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops accepting connections and joins the accept thread.
    pub(crate) fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(t) = self.thread.take() {
            self.stop.store(true, Ordering::SeqCst);
            // Wake the blocking accept() so it sees the flag.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn normalize_prefix(p: &str) -> String {
    let p = p.trim_matches('/');
    if p.is_empty() { "/".to_owned() } else { format!("/{p}/") }
}

#[derive(Debug)]
struct Site {
    root: PathBuf,
    prefixes: Vec<String>,
    csp: Option<String>,
    reports: Option<Reports>,
    offer: Accept,
}

/// What to answer.
#[derive(Debug, PartialEq, Eq)]
enum Reply {
    File(PathBuf),
    Redirect(String),
    NotFound,
}

impl Site {
    fn handle(&self, mut stream: TcpStream) -> std::io::Result<()> {
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        stream.set_write_timeout(Some(Duration::from_secs(30)))?;
        let buf = read_head(&mut stream)?;
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut request = httparse::Request::new(&mut headers);
        let head_len = match request.parse(&buf) {
            Ok(httparse::Status::Complete(len)) => Some(len),
            _ => None,
        };
        let (Some(head_len), Some(method), Some(target)) = (head_len, request.method, request.path) else {
            return respond(
                &mut stream,
                400,
                "Bad Request",
                "text/plain; charset=utf-8",
                b"bad request\n",
                true,
                Headers::default(),
            );
        };
        // A violation report's length and sender, and what encodings the browser accepts, are
        // the headers that matter.
        let header = |name: &str| {
            request.headers.iter().find(|h| h.name.eq_ignore_ascii_case(name)).map(|h| String::from_utf8_lossy(h.value))
        };
        let length: usize = header("content-length").and_then(|v| v.trim().parse().ok()).unwrap_or(0);
        let agent = header("user-agent").map(|v| v.trim().to_owned()).unwrap_or_default();
        let accept = header("accept-encoding").map(|v| Accept::parse(&v)).unwrap_or_default();

        if let Some(reports) = self.reports.as_ref().filter(|_| target == CSP_REPORTS) {
            if method == "POST" {
                let length = length.min(64 * 1024);
                let mut body = buf[head_len..].to_vec();
                body.truncate(length);
                let rest = length - body.len();
                (&mut stream).take(rest as u64).read_to_end(&mut body)?;
                let report = String::from_utf8_lossy(&body).into_owned();
                reports.lock().map_err(|_| std::io::Error::other("poisoned"))?.push((agent, report));
                return respond(
                    &mut stream,
                    204,
                    "No Content",
                    "text/plain; charset=utf-8",
                    b"",
                    false,
                    Headers::default(),
                );
            }
            let list = reports.lock().map_err(|_| std::io::Error::other("poisoned"))?.clone();
            let body = json_reports(&list);
            return respond(&mut stream, 200, "OK", "application/json", body.as_bytes(), true, Headers::default());
        }
        let head = method == "HEAD";
        if method != "GET" && !head {
            return respond(
                &mut stream,
                405,
                "Method Not Allowed",
                "text/plain; charset=utf-8",
                b"method not allowed\n",
                !head,
                Headers::default(),
            );
        }

        match self.resolve(target) {
            Reply::File(path) => match encoded(&path, accept.and(self.offer)) {
                Ok((body, encoding)) => {
                    let kind = content_type(&path);
                    let csp = self.csp.as_deref().filter(|_| kind.starts_with("text/html"));
                    let head_lines = Headers { csp, encoding, vary: compressible(kind) };
                    respond(&mut stream, 200, "OK", kind, &body, !head, head_lines)
                }
                Err(_) => not_found(&mut stream, !head),
            },
            Reply::Redirect(location) => {
                let msg = format!(
                    "HTTP/1.1 301 Moved Permanently\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
                stream.write_all(msg.as_bytes())?;
                stream.flush()?;
                let _ = stream.shutdown(Shutdown::Write);
                Ok(())
            }
            Reply::NotFound => not_found(&mut stream, !head),
        }
    }

    /// Maps a request target to a reply. Pure, so it is unit-tested.
    fn resolve(&self, target: &str) -> Reply {
        let path_part = target.split(['?', '#']).next().unwrap_or("");
        let Some(path) = percent_decode(path_part) else {
            return Reply::NotFound;
        };
        if !path.starts_with('/') {
            return Reply::NotFound;
        }
        // `/docs/k8s/nodeline` without the slash: redirect, or relative URLs break.
        for prefix in &self.prefixes {
            if prefix != "/" && path == prefix.trim_end_matches('/') {
                return Reply::Redirect(format!("{prefix}{}", query_of(target)));
            }
        }
        // Longest prefix first, then `/`.
        let rel = self
            .prefixes
            .iter()
            .filter(|p| p.as_str() != "/" && path.starts_with(p.as_str()))
            .max_by_key(|p| p.len())
            .map_or(&path[1..], |p| &path[p.len()..]);

        let mut file = self.root.clone();
        for comp in Path::new(rel).components() {
            match comp {
                Component::Normal(c) => file.push(c),
                Component::CurDir => {}
                // `..`, absolute or prefix components: never leave the root.
                _ => return Reply::NotFound,
            }
        }
        if file.is_dir() {
            if !path.ends_with('/') {
                return Reply::Redirect(format!("{path}/{}", query_of(target)));
            }
            file.push("index.html");
        }
        if file.is_file() { Reply::File(file) } else { Reply::NotFound }
    }
}

/// Reads until a request's head is complete (or is not, or is over 64 KiB: the caller's parse
/// then fails); what follows the head is the body's start.
fn read_head(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk)?;
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let partial = matches!(httparse::Request::new(&mut headers).parse(&buf), Ok(httparse::Status::Partial));
        if !partial || n == 0 || buf.len() > 64 * 1024 {
            return Ok(buf);
        }
    }
}

/// `[{"agent": "...", "report": "..."}, ...]`: each report's text as the browser sent it.
fn json_reports(list: &[(String, String)]) -> String {
    let items: Vec<serde_json::Value> =
        list.iter().map(|(agent, report)| serde_json::json!({"agent": agent, "report": report})).collect();
    serde_json::Value::Array(items).to_string()
}

fn query_of(target: &str) -> &str {
    target.find('?').map_or("", |i| &target[i..])
}

fn not_found(stream: &mut TcpStream, body: bool) -> std::io::Result<()> {
    respond(stream, 404, "Not Found", "text/plain; charset=utf-8", b"404 not found\n", body, Headers::default())
}

/// Content encodings: those a client accepts (`Accept-Encoding`; `q=0` refuses one), or those a
/// server offers.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Accept {
    pub(crate) gzip: bool,
    pub(crate) br: bool,
}

impl Accept {
    /// Every encoding the server knows.
    pub(crate) const ALL: Accept = Accept { gzip: true, br: true };
    /// gzip only: what most hosts serve, and what Lighthouse's figures are quoted with.
    pub(crate) const GZIP: Accept = Accept { gzip: true, br: false };

    fn and(self, other: Accept) -> Accept {
        Accept { gzip: self.gzip && other.gzip, br: self.br && other.br }
    }

    fn parse(value: &str) -> Accept {
        let mut accept = Accept::default();
        for item in value.split(',') {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or_default().to_ascii_lowercase();
            let refused = parts
                .any(|p| p.strip_prefix("q=").and_then(|q| q.trim().parse::<f64>().ok()).is_some_and(|q| q <= 0.0));
            match coding.as_str() {
                "gzip" | "x-gzip" => accept.gzip = !refused,
                "br" => accept.br = !refused,
                "*" if !refused => {
                    accept.gzip = true;
                    accept.br = true;
                }
                _ => {}
            }
        }
        accept
    }
}

/// Types worth compressing (text, scripts, WebAssembly, SVG).
fn compressible(kind: &str) -> bool {
    kind.starts_with("text/")
        || matches!(kind, "application/wasm" | "application/json" | "image/svg+xml" | "application/xml")
        || kind.starts_with("application/manifest")
}

/// The body to send for `path` and its `Content-Encoding`: a precompressed sibling the client
/// accepts (brotli first), else gzip made now for a compressible type, else the file as it is.
fn encoded(path: &Path, accept: Accept) -> std::io::Result<(Vec<u8>, Option<&'static str>)> {
    let sibling = |ext: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(ext);
        PathBuf::from(name)
    };
    if accept.br
        && let Ok(body) = std::fs::read(sibling(".br"))
    {
        return Ok((body, Some("br")));
    }
    if accept.gzip
        && let Ok(body) = std::fs::read(sibling(".gz"))
    {
        return Ok((body, Some("gzip")));
    }
    let body = std::fs::read(path)?;
    if accept.gzip && compressible(content_type(path)) {
        return Ok((crate::compress::gzip(&body, flate2::Compression::default()), Some("gzip")));
    }
    Ok((body, None))
}

/// The optional headers of a reply.
#[derive(Debug, Default, Clone, Copy)]
struct Headers<'a> {
    csp: Option<&'a str>,
    encoding: Option<&'static str>,
    /// The answer depends on `Accept-Encoding`.
    vary: bool,
}

fn respond(
    stream: &mut TcpStream,
    code: u16,
    reason: &str,
    content_type: &str,
    body: &[u8],
    send_body: bool,
    headers: Headers<'_>,
) -> std::io::Result<()> {
    let mut extra = String::new();
    if let Some(c) = headers.csp {
        extra.push_str(&format!("Content-Security-Policy: {c}\r\n"));
    }
    if let Some(e) = headers.encoding {
        extra.push_str(&format!("Content-Encoding: {e}\r\n"));
    }
    if headers.vary {
        extra.push_str("Vary: Accept-Encoding\r\n");
    }
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if send_body {
        stream.write_all(body)?;
    }
    stream.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    Ok(())
}

/// The Content-Type for a file, by extension.
pub(crate) fn content_type(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "txt" | "md" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "gz" => "application/gzip",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// Decodes `%XX` escapes (`percent-encoding`); `None` for non-UTF-8 or an encoded NUL. A `%` not
/// followed by two hex digits stays as it is.
fn percent_decode(s: &str) -> Option<String> {
    let decoded = percent_encoding::percent_decode_str(s).decode_utf8().ok()?;
    (!decoded.contains('\0')).then(|| decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn site() -> (PathBuf, Site) {
        let dir = std::env::temp_dir().join(format!(
            "xtask-server-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "<h1>home</h1>").unwrap();
        std::fs::write(dir.join("app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(dir.join("sub").join("index.html"), "sub").unwrap();
        let site = Site {
            root: dir.clone(),
            prefixes: vec!["/".into(), normalize_prefix(DOCS_PREFIX)],
            csp: None,
            reports: None,
            offer: Accept::ALL,
        };
        (dir, site)
    }

    #[test]
    fn resolves_files_directories_and_prefixes() {
        let (dir, s) = site();
        assert_eq!(s.resolve("/"), Reply::File(dir.join("index.html")));
        assert_eq!(s.resolve("/?chapter=registration&step=4"), Reply::File(dir.join("index.html")));
        assert_eq!(s.resolve("/app_bg.wasm"), Reply::File(dir.join("app_bg.wasm")));
        assert_eq!(s.resolve("/sub/"), Reply::File(dir.join("sub").join("index.html")));
        assert_eq!(s.resolve("/sub?x=1"), Reply::Redirect("/sub/?x=1".into()));
        assert_eq!(s.resolve(DOCS_PREFIX), Reply::File(dir.join("index.html")));
        assert_eq!(s.resolve("/docs/k8s/nodeline/app_bg.wasm"), Reply::File(dir.join("app_bg.wasm")));
        assert_eq!(s.resolve("/docs/k8s/nodeline?embed=1"), Reply::Redirect("/docs/k8s/nodeline/?embed=1".into()));
        assert_eq!(s.resolve("/missing.js"), Reply::NotFound);
        assert_eq!(s.resolve("/docs/"), Reply::NotFound);
    }

    #[test]
    fn never_leaves_the_root() {
        let (_dir, s) = site();
        assert_eq!(s.resolve("/../etc/passwd"), Reply::NotFound);
        assert_eq!(s.resolve("/%2e%2e/etc/passwd"), Reply::NotFound);
        assert_eq!(s.resolve("/sub/../../x"), Reply::NotFound);
        assert_eq!(s.resolve("/%00"), Reply::NotFound);
        assert_eq!(s.resolve("/%zz"), Reply::NotFound);
        assert_eq!(s.resolve("relative"), Reply::NotFound);
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type(Path::new("a/nodeline_bg.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("x.JS")), "text/javascript; charset=utf-8");
        assert_eq!(content_type(Path::new("favicon.svg")), "image/svg+xml");
        assert_eq!(content_type(Path::new("index.html")), "text/html; charset=utf-8");
        assert_eq!(content_type(Path::new("noext")), "application/octet-stream");
    }

    fn get(addr: SocketAddr, request: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn collects_violation_reports() {
        let (dir, _) = site();
        let (server, reports) = Server::start_reporting("127.0.0.1:0", &dir, &[], CSP).unwrap();
        let addr = server.addr();
        let r = get(addr, "GET / HTTP/1.1\r\n\r\n");
        assert!(r.contains(&format!("\r\nContent-Security-Policy: {CSP}; report-uri {CSP_REPORTS}\r\n")), "{r}");

        let body = r#"{"csp-report":{"violated-directive":"script-src-elem"}}"#;
        let post = format!(
            "POST {CSP_REPORTS} HTTP/1.1\r\nUser-Agent: Firefox \"ESR\"\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        assert!(get(addr, &post).starts_with("HTTP/1.1 204 No Content\r\n"));
        assert_eq!(reports.lock().unwrap().clone(), vec![("Firefox \"ESR\"".to_owned(), body.to_owned())]);
        let r = get(addr, &format!("GET {CSP_REPORTS} HTTP/1.1\r\n\r\n"));
        assert!(
            r.ends_with(r#"[{"agent":"Firefox \"ESR\"","report":"{\"csp-report\":{\"violated-directive\":\"script-src-elem\"}}"}]"#),
            "{r}"
        );
        // Without reporting, the path is an ordinary (missing) file.
        let plain = Server::start("127.0.0.1:0", &dir, &[], Some(CSP)).unwrap();
        assert!(get(plain.addr(), &format!("GET {CSP_REPORTS} HTTP/1.1\r\n\r\n")).starts_with("HTTP/1.1 404"));
    }

    #[test]
    fn serves_over_tcp() {
        let (dir, _) = site();
        let server = Server::start("127.0.0.1:0", &dir, &[DOCS_PREFIX], Some(CSP)).unwrap();
        let addr = server.addr();

        let r = get(addr, "GET /app_bg.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("Content-Type: application/wasm\r\n"), "{r}");
        assert!(r.contains("Content-Length: 8\r\n"), "{r}");
        assert!(!r.contains("Content-Security-Policy"), "{r}");

        let r = get(addr, "GET /docs/k8s/nodeline/ HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n") && r.ends_with("<h1>home</h1>"), "{r}");
        assert!(r.contains(&format!("\r\nContent-Security-Policy: {CSP}\r\n")), "{r}");

        let r = get(addr, "HEAD / HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n") && r.ends_with("\r\n\r\n"), "{r}");

        let r = get(addr, "GET /docs/k8s/nodeline?embed=1 HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 301 Moved Permanently\r\n"), "{r}");
        assert!(r.contains("\r\nLocation: /docs/k8s/nodeline/?embed=1\r\n"), "{r}");

        let r = get(addr, "not http\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{r}");

        let r = get(addr, "GET /nope HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 404 Not Found\r\n"), "{r}");

        let r = get(addr, "POST / HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 405 "), "{r}");

        server.stop();
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn reads_accept_encoding() {
        assert_eq!(Accept::parse(" gzip, deflate, br, zstd"), Accept { gzip: true, br: true });
        assert_eq!(Accept::parse("gzip;q=1.0, br;q=0"), Accept { gzip: true, br: false });
        assert_eq!(Accept::parse("identity"), Accept::default());
        assert_eq!(Accept::parse("*"), Accept { gzip: true, br: true });
        assert_eq!(Accept::parse("*;q=0, GZIP"), Accept { gzip: true, br: false });
    }

    #[test]
    fn serves_precompressed_siblings_or_gzips_on_the_fly() {
        let (dir, _) = site();
        let js = "console.log('nodeline');\n".repeat(40);
        std::fs::write(dir.join("app.js"), &js).unwrap();
        std::fs::write(dir.join("app.js.br"), b"BROTLI").unwrap();
        std::fs::write(dir.join("app.js.gz"), b"GZIP").unwrap();
        std::fs::write(dir.join("logo.png"), b"\x89PNG").unwrap();
        let server = Server::start("127.0.0.1:0", &dir, &[], None).unwrap();
        let addr = server.addr();
        let with = |path: &str, accept: &str| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(format!("GET {path} HTTP/1.1\r\nAccept-Encoding: {accept}\r\n\r\n").as_bytes()).unwrap();
            let mut out = Vec::new();
            s.read_to_end(&mut out).unwrap();
            let split = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
            (String::from_utf8(out[..split].to_vec()).unwrap(), out[split + 4..].to_vec())
        };

        let (head, body) = with("/app.js", "gzip, br");
        assert!(head.contains("Content-Encoding: br\r\n") && head.contains("Vary: Accept-Encoding"), "{head}");
        assert_eq!(body, b"BROTLI");
        let gzip_only = Server::start_offering("127.0.0.1:0", &dir, &[], None, Accept::GZIP).unwrap();
        let mut s = TcpStream::connect(gzip_only.addr()).unwrap();
        s.write_all(b"GET /app.js HTTP/1.1\r\nAccept-Encoding: br, gzip\r\n\r\n").unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        assert!(out.ends_with(b"\r\n\r\nGZIP"), "{}", String::from_utf8_lossy(&out));
        gzip_only.stop();
        let (head, body) = with("/app.js", "gzip");
        assert!(head.contains("Content-Encoding: gzip\r\n"), "{head}");
        assert_eq!(body, b"GZIP");
        let (head, body) = with("/app.js", "identity");
        assert!(!head.contains("Content-Encoding"), "{head}");
        assert_eq!(body, js.as_bytes());
        // No sibling: gzipped now, and it unpacks to the file.
        let (head, body) = with("/index.html", "gzip");
        assert!(head.contains("Content-Encoding: gzip\r\n"), "{head}");
        let mut text = String::new();
        flate2::read::GzDecoder::new(&body[..]).read_to_string(&mut text).unwrap();
        assert_eq!(text, "<h1>home</h1>");
        // Already compressed types go as they are.
        let (head, body) = with("/logo.png", "gzip, br");
        assert!(!head.contains("Content-Encoding") && !head.contains("Vary"), "{head}");
        assert_eq!(body, b"\x89PNG");

        server.stop();
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_readme_documents_the_policy_the_tests_use() {
        let readme = std::fs::read_to_string(crate::util::workspace_root().join("README.md")).unwrap();
        assert!(readme.contains(&format!("\n{CSP}\n")), "README.md must show the policy on a line of its own: {CSP}");
    }
}
