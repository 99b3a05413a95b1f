//! Markup pieces every tab uses. The tabs are written as HTML strings (set with `innerHTML` by the
//! component): string writers cost a fraction of the code size of typed view trees, and are
//! checked natively. The structure, roles and classes are the page's contract with its styles and
//! browser tests.

use crate::i18n::{Key, Lang};
use crate::view::html::{cat, escape};

pub(super) fn changed_attrs(changed: bool) -> &'static str {
    if changed { " changed\" data-changed=\"true" } else { "" }
}

/// A status with its shape (the text never relies on colour alone).
pub(super) fn state(o: &mut String, class: &str, text: &str) {
    cat(
        o,
        &[
            r#"<span class="state state-"#,
            class,
            r#""><span class="shape" aria-hidden="true"></span>"#,
            &escape(text),
            "</span>",
        ],
    );
}

/// `prefix/name` with a line-break opportunity after the slash.
pub(super) fn break_after_slash(o: &mut String, key: &str) {
    match key.split_once('/') {
        Some((prefix, rest)) => cat(o, &[&escape(prefix), "/<wbr>", &escape(rest)]),
        None => o.push_str(&escape(key)),
    }
}

/// `<th scope="col">` headers for `keys`, for a table's first row (`<tr class="head">`).
///
/// The tables have no `<thead>`: the inspector rewrites its tables as often as every frame while
/// playing, and Chromium keeps a media query set alive for every `<thead>` element it ever parsed
/// (measured: one more `blink::MediaQuerySet` in the heap per `<thead>`, never collected), so a
/// long play grew memory without bound. Column headers are the `scope="col"` cells either way.
pub(super) fn headers(o: &mut String, lang: Lang, keys: &[Key], roles: bool) {
    for k in keys {
        cat(
            o,
            &[
                if roles { r#"<th scope="col" role="columnheader">"# } else { r#"<th scope="col">"# },
                &escape(lang.text(*k)),
                "</th>",
            ],
        );
    }
}

/// A paragraph saying there is no such object yet: `node-1: no Node object yet`.
pub fn empty_markup(name: Option<&str>, text: &str) -> String {
    let mut o = String::from(r#"<p class="empty">"#);
    if let Some(n) = name {
        cat(&mut o, &[&escape(n), ": "]);
    }
    cat(&mut o, &[&escape(text), "</p>"]);
    o
}
