//! Just enough HTML reading for the build's own pages: trunk's `index.html` and what xtask makes
//! of it. Tags are found by name outside comments; attribute values are taken as written.

/// A tag's attributes, names in lower case, values as written (`None` for a bare attribute).
pub(crate) type Attrs = Vec<(String, Option<String>)>;

/// A start tag found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tag {
    /// Byte offset of `<`.
    pub(crate) start: usize,
    /// Byte offset just past `>`.
    pub(crate) end: usize,
    pub(crate) attrs: Attrs,
}

impl Tag {
    /// The value of attribute `name` (`Some("")` for a bare attribute).
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_deref().unwrap_or(""))
    }
}

/// Every start tag of the document, in order, with its lower-case name: comments and the text
/// of `script` and `style` elements are skipped. Stops at a tag that never ends.
pub(crate) fn all_tags(html: &str) -> Vec<(String, Tag)> {
    let b = html.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = html[at..].find('<') {
        let start = at + i;
        if html[start..].starts_with("<!--") {
            at = html[start + 4..].find("-->").map_or(html.len(), |j| start + 4 + j + 3);
            continue;
        }
        let name_start = start + 1;
        let mut name_end = name_start;
        while name_end < b.len() && (b[name_end].is_ascii_alphanumeric() || b[name_end] == b'-') {
            name_end += 1;
        }
        if name_end == name_start || !b[name_start].is_ascii_alphabetic() {
            // `</x>`, `<!doctype>`, a lone `<`.
            at = start + 1;
            continue;
        }
        let name = html[name_start..name_end].to_ascii_lowercase();
        let Some((attrs, end)) = attributes(html, name_end) else { break };
        at = end;
        if name == "script" || name == "style" {
            at = closing(html, end, &name).map_or(html.len(), |(_, after)| after);
        }
        out.push((name, Tag { start, end, attrs }));
    }
    out
}

/// Every start tag `<name ...>` (ASCII case-insensitive), in document order (see [`all_tags`]).
pub(crate) fn tags(html: &str, name: &str) -> Vec<Tag> {
    all_tags(html).into_iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, t)| t).collect()
}

/// Reads attributes from `at` up to the tag's `>`; returns them and the offset past `>`.
fn attributes(html: &str, mut at: usize) -> Option<(Attrs, usize)> {
    let b = html.as_bytes();
    let mut attrs = Vec::new();
    loop {
        while at < b.len() && (b[at].is_ascii_whitespace() || b[at] == b'/') {
            at += 1;
        }
        if at >= b.len() {
            return None;
        }
        if b[at] == b'>' {
            return Some((attrs, at + 1));
        }
        let name_start = at;
        while at < b.len() && !b[at].is_ascii_whitespace() && !matches!(b[at], b'=' | b'>' | b'/') {
            at += 1;
        }
        let name = html[name_start..at].to_ascii_lowercase();
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < b.len() && b[at] == b'=' {
            at += 1;
            while at < b.len() && b[at].is_ascii_whitespace() {
                at += 1;
            }
            let value = match b.get(at) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let close = html[at + 1..].find(q as char)? + at + 1;
                    let v = &html[at + 1..close];
                    at = close + 1;
                    v
                }
                _ => {
                    let s = at;
                    while at < b.len() && !b[at].is_ascii_whitespace() && b[at] != b'>' {
                        at += 1;
                    }
                    &html[s..at]
                }
            };
            attrs.push((name, Some(value.to_owned())));
        } else {
            attrs.push((name, None));
        }
    }
}

/// The offset of the `</name>` that closes the element whose start tag ends at `from`, and the
/// offset past it.
pub(crate) fn closing(html: &str, from: usize, name: &str) -> Option<(usize, usize)> {
    let want = format!("</{}", name.to_ascii_lowercase());
    let i = html[from..].to_ascii_lowercase().find(&want)? + from;
    let end = html[i..].find('>')? + i + 1;
    Some((i, end))
}

/// Whether `text` could end the `script` (or `style`) element it is put in, or change how the
/// parser reads it (`<!--`, `<script`): such text cannot be inlined as it is.
pub(crate) fn unsafe_in_raw_text(text: &str, element: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains(&format!("</{element}"))
        || (element == "script" && (lower.contains("<!--") || lower.contains("<script")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tags_and_attributes() {
        let html = r#"<head><LINK rel="stylesheet" href='./a.css' integrity=sha384-x><linker x>
<!-- <link rel="icon" href="commented.svg"> -->
<link data-trunk rel=icon href="./f.svg"/><script type="module">let s = "<link rel=no>";</script></head>"#;
        let links = tags(html, "link");
        assert_eq!(links.len(), 2, "{links:?}");
        assert_eq!(links[0].attr("rel"), Some("stylesheet"));
        assert_eq!(links[0].attr("href"), Some("./a.css"));
        assert_eq!(links[0].attr("integrity"), Some("sha384-x"));
        assert_eq!(&html[links[0].start..links[0].end], r#"<LINK rel="stylesheet" href='./a.css' integrity=sha384-x>"#);
        assert_eq!(links[1].attr("data-trunk"), Some(""));
        assert_eq!(links[1].attr("href"), Some("./f.svg"));
        let scripts = tags(html, "script");
        assert_eq!(scripts.len(), 1);
        assert_eq!(scripts[0].attr("type"), Some("module"));
        let (close, after) = closing(html, scripts[0].end, "script").unwrap();
        assert_eq!(&html[scripts[0].end..close], r#"let s = "<link rel=no>";"#);
        assert_eq!(&html[after..], "</head>");
    }

    #[test]
    fn an_unterminated_tag_ends_the_search() {
        assert!(tags("<link rel=\"x", "link").is_empty());
        assert!(tags("<link rel=x", "link").is_empty());
        assert_eq!(tags("<p>a < b</p><br>", "br").len(), 1);
        assert!(tags("<!-- <br> -->", "br").is_empty());
        assert_eq!(closing("<style>a{}", 7, "style"), None);
    }

    #[test]
    fn spots_text_that_cannot_be_inlined() {
        assert!(unsafe_in_raw_text("a = '</SCRIPT>'", "script"));
        assert!(unsafe_in_raw_text("x <!-- y", "script"));
        assert!(unsafe_in_raw_text("'<script>'", "script"));
        assert!(unsafe_in_raw_text("p::after { content: '</style>' }", "style"));
        assert!(!unsafe_in_raw_text("if (a < b && c > d) {}", "script"));
        assert!(!unsafe_in_raw_text("a > b {}", "style"));
    }
}
