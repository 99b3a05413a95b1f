//! Writing markup as strings: the one escaper for text in HTML and SVG, and the one way to join
//! the parts of a string ([`cat`]). The page's markup (stage, inspector, still view) is written as
//! strings: string writers cost a fraction of the code size of typed view trees, and the markup
//! can be checked natively.

use std::borrow::Cow;

/// Escapes text for HTML or SVG markup: element content, and attribute values in double or
/// single quotes. Borrows when there is nothing to escape (most text).
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + s.len() / 8 + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Appends the parts: plain concatenation, which costs far less code than `format!` or
/// `write!` (those stay where numbers are formatted: the stage's coordinates).
pub fn cat(o: &mut String, parts: &[&str]) {
    for p in parts {
        o.push_str(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<img src=x onerror=\"a('&')\">"),
            "&lt;img src=x onerror=&quot;a(&#39;&amp;&#39;)&quot;&gt;"
        );
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(escape("plain ✓"), "plain ✓");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn cat_appends_in_order() {
        let mut o = String::from("<p>");
        cat(&mut o, &["a", "", "b", "</p>"]);
        assert_eq!(o, "<p>ab</p>");
    }
}
