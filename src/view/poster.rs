//! The poster: every chapter's title and every step's text, with its "Play from step N" link, as
//! static HTML. `cargo xtask build` puts it into `dist/index.html` (at the
//! `<!-- nodeline:poster -->` mark), so the page shows the whole story before the WebAssembly
//! has loaded, when JavaScript is off, and to search engines. The app removes it when it mounts
//! (`app::start`), so screen readers never meet the story twice.
//!
//! It is built from the same catalogue ([`crate::i18n`]) the app narrates from, and its links
//! by [`crate::link`], so the two cannot disagree. Each language is its own `<section lang>`.

use crate::i18n::{Key, Lang, Segment, segments};
use crate::link::{self, Link};
use crate::sim::Chapter;
use crate::view::html::{cat, escape};

/// The id of the poster's outer element (the app removes it when it mounts).
pub const POSTER_ID: &str = "nodeline-poster";

/// The mark in `index.html` that the build replaces with [`html`].
pub const MARK: &str = "<!-- nodeline:poster -->";

/// The relative "Play from step `n`" link (the one the app's narration gives).
pub fn step_href(lang: Lang, chapter: Chapter, n: usize) -> String {
    let link = Link { chapter, step: Some(n), lang: Some(lang), ..Link::default() };
    format!("?{}", link::to_query(&link))
}

/// How [`paragraphs`] writes a step's text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Words {
    /// The poster's: code as `<code>`, the words that point at the stage as text.
    Poster,
    /// The app's narration: the words that point at the stage are buttons
    /// (`<button class="term" data-term="TARGET">`) that highlight it while hovered or focused.
    Narration,
    /// A copy only laid out, never shown (the narration's room, `app::narration`): code as a
    /// `<span class="code">` styled the same, so the page's `code` elements and buttons are the
    /// ones a reader meets.
    Unseen,
}

/// A step's paragraphs as HTML, the way the page lays them out: each paragraph a
/// `<span class="para">` in one block (`step-body`; the style sheet puts a paragraph's gap before
/// each but the first). One block, not one `<p>` a paragraph: a browser takes a block's text as
/// one candidate for the largest contentful paint, the first time the block is painted, so the
/// poster's step is as large as the app's narration that replaces it, and the app's narration,
/// one block kept from step to step, is never a new, later largest paint.
pub fn paragraphs(out: &mut String, body: &[&str], words: Words) {
    let (open, close) = match words {
        Words::Unseen => ("<span class=\"code\">", "</span>"),
        _ => ("<code>", "</code>"),
    };
    for text in body {
        out.push_str("<span class=\"para\">");
        for segment in segments(text) {
            match segment {
                Segment::Term { target, words: t } if words == Words::Narration => cat(
                    out,
                    &["<button type=\"button\" class=\"term\" data-term=\"", target, "\">", &escape(t), "</button>"],
                ),
                Segment::Text(t) | Segment::Term { words: t, .. } => out.push_str(&escape(t)),
                Segment::Code(c) => cat(out, &[open, &escape(c), close]),
            }
        }
        out.push_str("</span>\n");
    }
}

/// The poster for one language: a `<section lang="..">`. The first language's title is the
/// page's one `<h1>`; the others title their section with an `<h2>`.
pub fn section(lang: Lang, first: bool) -> String {
    let code = lang.code();
    let mut out = String::with_capacity(16 * 1024);
    let h = if first { "h1" } else { "h2" };
    cat(
        &mut out,
        &[
            "<section class=\"poster-lang\" lang=\"",
            &escape(code),
            "\" aria-labelledby=\"poster-",
            code,
            "\">\n<",
            h,
            " id=\"poster-",
            code,
            "\">",
            &escape(lang.text(Key::AppTitle)),
            "</",
            h,
            ">\n<p class=\"tagline\">",
            &escape(lang.text(Key::Tagline)),
            "</p>\n<p class=\"poster-intro\">",
            &escape(lang.text(Key::PosterIntro)),
            "</p>\n",
        ],
    );
    for chapter in Chapter::ALL {
        let text = lang.chapter(chapter);
        let id = ["poster-", code, "-", chapter.id()].concat();
        cat(
            &mut out,
            &[
                "<section class=\"poster-chapter\" data-chapter=\"",
                chapter.id(),
                "\" aria-labelledby=\"",
                &id,
                "\">\n<h2 id=\"",
                &id,
                "\"><span class=\"chapter-number\">",
                &escape(&lang.fill(Key::ChapterLabel, &[&chapter.number().to_string()])),
                "</span> <span class=\"chapter-title\">",
                &escape(text.title),
                "</span></h2>\n<p class=\"poster-summary\">",
                &escape(text.summary),
                "</p>\n<ol class=\"poster-steps\">\n",
            ],
        );
        for (i, step) in text.steps.iter().enumerate() {
            let n = i + 1;
            let n_text = n.to_string();
            cat(
                &mut out,
                &["<li value=\"", &n_text, "\" data-step=\"", &n_text, "\">\n<h3>", &escape(step.title), "</h3>\n"],
            );
            out.push_str("<div class=\"step-body\">");
            paragraphs(&mut out, step.body, Words::Poster);
            out.push_str("</div>\n");
            cat(
                &mut out,
                &[
                    "<p class=\"play-from\"><a href=\"",
                    &escape(&step_href(lang, chapter, n)),
                    "\">",
                    &escape(&lang.fill(Key::PlayFromStep, &[&n.to_string()])),
                    " ",
                    &escape(step.title),
                    "</a></p>\n</li>\n",
                ],
            );
        }
        out.push_str("</ol>\n</section>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The poster's script (`cargo xtask build` writes it to a file the page loads first, in its
/// `<head>`): while the app loads, the poster shows the chapter, the step and the language the
/// link names, the way the app will, so a reader who follows a link to step 4 of the second
/// chapter reads that step first, not the first chapter. It only sets three attributes on
/// `<html>` (`data-poster-chapter`, `data-poster-step`, `data-poster-lang`) that `style/embed.css`
/// acts on; the whole story stays in the page. It reads the link as [`crate::link::parse`] does
/// (the query, then the fragment; `chapter`, `step`, `lang`, else the browser's languages), knows
/// only the values built into it here from the catalogue, and ignores anything else. Without
/// JavaScript or WebAssembly it does nothing: the poster is then the page.
pub fn script() -> String {
    let chapters: Vec<String> =
        Chapter::ALL.iter().map(|c| format!("\"{}\":{}", c.id(), c.scenario().steps.len())).collect();
    let langs: Vec<String> = Lang::ALL.iter().map(|l| format!("\"{}\"", l.code())).collect();
    format!(
        "(function () {{\n\
         \x20 \"use strict\";\n\
         \x20 if (typeof WebAssembly !== \"object\") return;\n\
         \x20 var steps = {{{}}};\n\
         \x20 var langs = [{}];\n\
         \x20 var params = {{}};\n\
         \x20 [location.search, location.hash].forEach(function (part) {{\n\
         \x20   new URLSearchParams(part.replace(/^[?#]/, \"\")).forEach(function (v, k) {{\n\
         \x20     if (!(k in params)) params[k] = v;\n\
         \x20   }});\n\
         \x20 }});\n\
         \x20 var primary = function (code) {{\n\
         \x20   var p = String(code).split(/[-_]/)[0].toLowerCase();\n\
         \x20   return langs.indexOf(p) >= 0 ? p : null;\n\
         \x20 }};\n\
         \x20 var prefs = [params.lang].concat(navigator.languages || [], [navigator.language]);\n\
         \x20 var lang = prefs.map(function (c) {{ return c ? primary(c) : null; }}).filter(Boolean)[0] || langs[0];\n\
         \x20 var chapter = steps.hasOwnProperty(params.chapter) ? params.chapter : Object.keys(steps)[0];\n\
         \x20 var step = /^[0-9]+$/.test(params.step || \"\") ? Number(params.step) : 1;\n\
         \x20 if (step < 1 || step > steps[chapter]) step = 1;\n\
         \x20 var root = document.documentElement.dataset;\n\
         \x20 root.posterChapter = chapter;\n\
         \x20 root.posterStep = String(step);\n\
         \x20 root.posterLang = lang;\n\
         }})();\n",
        chapters.join(","),
        langs.join(",")
    )
}

/// The whole poster: every language, in [`Lang::ALL`] order, in one element the app removes.
pub fn html() -> String {
    let mut out = String::new();
    cat(&mut out, &["<div id=\"", POSTER_ID, "\" class=\"poster\">\n"]);
    for (i, lang) in Lang::ALL.into_iter().enumerate() {
        out.push_str(&section(lang, i == 0));
    }
    out.push_str("</div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::plain;

    /// The text content of `html`: tags removed, entities decoded (only the ones [`escape`]
    /// writes), whitespace collapsed.
    fn text_of(html: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        let decoded = out
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&");
        decoded.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn squash(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn has_every_step_text_and_link_in_every_language() {
        let html = html();
        let text = text_of(&html);
        for lang in Lang::ALL {
            let section = section(lang, lang == Lang::ALL[0]);
            assert!(html.contains(&section));
            assert!(section.starts_with(&format!("<section class=\"poster-lang\" lang=\"{}\"", lang.code())));
            let section_text = text_of(&section);
            for chapter in Chapter::ALL {
                let chapter_text = lang.chapter(chapter);
                assert!(section_text.contains(&squash(chapter_text.title)), "{lang} {chapter}");
                assert!(section_text.contains(&squash(chapter_text.summary)), "{lang} {chapter}");
                for (i, step) in chapter_text.steps.iter().enumerate() {
                    let n = i + 1;
                    assert!(section_text.contains(&squash(step.title)), "{lang} {chapter} {n}");
                    for p in step.body {
                        assert!(section_text.contains(&squash(&plain(p))), "{lang} {chapter} {n}: {p}");
                    }
                    let href = step_href(lang, chapter, n);
                    let href = escape(&href);
                    let label = format!("{} {}", lang.fill(Key::PlayFromStep, &[&n.to_string()]), step.title);
                    let anchor = format!("<a href=\"{href}\">{}</a>", escape(&label));
                    assert!(section.contains(&anchor), "{lang} {chapter} {n}: {anchor}");
                }
            }
        }
        assert!(text.contains("Play from step 4: Not Ready: the taint keeps ordinary Pods off"), "{text}");
    }

    #[test]
    fn a_step_is_paragraphs_in_one_block() {
        let body = &["The kubelet sends `POST /api/v1/nodes` to the [[apiserver|API server]].", "Then <it> waits."];
        let written = |words| {
            let mut out = String::new();
            paragraphs(&mut out, body, words);
            out
        };
        let poster = written(Words::Poster);
        assert_eq!(
            poster,
            "<span class=\"para\">The kubelet sends <code>POST /api/v1/nodes</code> to the API server.</span>\n\
             <span class=\"para\">Then &lt;it&gt; waits.</span>\n"
        );
        // The narration's terms are buttons naming what they highlight.
        assert_eq!(
            written(Words::Narration),
            poster.replace(
                "API server",
                "<button type=\"button\" class=\"term\" data-term=\"apiserver\">API server</button>"
            )
        );
        // A copy only laid out has the same text, and no code element a reader could meet twice.
        assert_eq!(
            written(Words::Unseen),
            poster.replace("<code>", "<span class=\"code\">").replace("</code>", "</span>")
        );
        assert!(html().contains("<div class=\"step-body\"><span class=\"para\">"));
    }

    #[test]
    fn links_open_the_step_they_name() {
        for lang in Lang::ALL {
            for chapter in Chapter::ALL {
                for n in 1..=chapter.scenario().steps.len() {
                    let href = step_href(lang, chapter, n);
                    let (link, notices) = link::parse(&href, "");
                    assert!(notices.is_empty(), "{href}: {notices:?}");
                    assert_eq!((link.chapter, link.step, link.lang), (chapter, Some(n), Some(lang)), "{href}");
                }
            }
        }
        assert_eq!(step_href(Lang::En, Chapter::NodeFailure, 3), "?chapter=node-failure&step=3&lang=en");
        assert!(html().contains("href=\"?chapter=node-failure&amp;step=3&amp;lang=en\""));
    }

    #[test]
    fn the_script_knows_every_chapter_step_count_and_language() {
        let js = script();
        for chapter in Chapter::ALL {
            let steps = chapter.scenario().steps.len();
            assert!(js.contains(&format!("\"{}\":{steps}", chapter.id())), "{js}");
        }
        for lang in Lang::ALL {
            assert!(js.contains(&format!("\"{}\"", lang.code())), "{js}");
        }
        assert!(js.starts_with("(function () {") && js.trim_end().ends_with("})();"), "{js}");
        // The style sheet hides what the link does not name, for every chapter, step and language.
        let css = include_str!("../../style/embed.css");
        for chapter in Chapter::ALL {
            let id = chapter.id();
            let rule = format!(":root[data-poster-chapter=\"{id}\"] .poster-chapter:not([data-chapter=\"{id}\"])");
            assert!(css.contains(&rule), "style/embed.css lacks {rule}");
            for n in 2..=chapter.scenario().steps.len() {
                let rule = format!(":root[data-poster-step=\"{n}\"] .poster-steps > li:has(~ li[data-step=\"{n}\"])");
                assert!(css.contains(&rule), "style/embed.css lacks {rule}");
            }
        }
        for lang in Lang::ALL {
            let code = lang.code();
            let rule = format!(":root[data-poster-lang=\"{code}\"] .poster-lang:not([lang=\"{code}\"])");
            assert!(css.contains(&rule), "style/embed.css lacks {rule}");
        }
        // The poster carries what the rules select on.
        let html = html();
        assert!(html.contains("<section class=\"poster-chapter\" data-chapter=\"node-failure\""));
        assert!(html.contains("<li value=\"4\" data-step=\"4\">"));
    }

    #[test]
    fn is_one_balanced_element_with_code_kept_as_code() {
        let html = html();
        assert!(html.starts_with(&format!("<div id=\"{POSTER_ID}\"")));
        assert!(html.trim_end().ends_with("</div>"));
        for tag in ["div", "section", "ol", "li", "p", "span", "h2", "h3", "a", "code"] {
            let open = html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count();
            let close = html.matches(&format!("</{tag}>")).count();
            assert_eq!(open, close, "<{tag}>");
        }
        // Narration markup never leaks through.
        assert!(!html.contains("[[") && !html.contains("]]") && !html.contains('`'));
        assert!(html.contains("<code>POST /api/v1/nodes</code>"));
        // Nothing that a strict Content-Security-Policy would refuse.
        assert!(!html.contains("<script") && !html.contains("<style"));
        for tag in html.split('<').skip(1).map(|rest| &rest[..rest.find('>').unwrap()]) {
            let attributes: Vec<&str> = tag.split_whitespace().skip(1).collect();
            assert!(!attributes.iter().any(|a| a.starts_with("on") || a.starts_with("style=")), "<{tag}>");
        }
        // Ids are unique.
        let ids: Vec<&str> =
            html.match_indices("id=\"").map(|(i, _)| &html[i + 4..][..html[i + 4..].find('"').unwrap()]).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(ids.len(), unique.len(), "{ids:?}");
    }
}
