//! The story as static pages, for readers without JavaScript (and for search engines), and a
//! step's text as the page writes it everywhere ([`paragraphs`]).
//!
//! `cargo xtask build` writes a page for every step of every chapter in each language into
//! [`DIR`] ([`page`], [`page_href`]): the step's header, its stage at the step's moment and its
//! narration, written by the still view's writers ([`crate::view::still`] with
//! [`Links::Static`](crate::view::still::Links::Static)), with links to the chapter's other
//! steps, the previous and the next ([`pager`]), every chapter, the same step in the other
//! language, and "Play from this step", which opens the app there. `index.html` reaches them
//! through its `<noscript>` block ([`noscript`], at [`MARK`]); with JavaScript the block is never
//! shown, and the page's first view is the still view.
//!
//! It is built from the same catalogue ([`crate::i18n`]) the app narrates from, and its links to
//! the app by [`crate::link`], so the two cannot disagree.

use crate::i18n::{Key, Lang, Segment, segments};
use crate::link::{self, Link};
use crate::sim::Chapter;
use crate::view::html::{cat, escape};
use crate::view::stories::{self, Listed};
use crate::view::told::Told;

/// The mark in `index.html` that the build replaces with [`noscript`].
pub const MARK: &str = "<!-- nodeline:nojs -->";
/// The folder of the static pages, next to `index.html`.
pub const DIR: &str = "steps";

/// The relative "Play from step `n`" link (the one the app's narration gives).
pub fn step_href(lang: Lang, told: Told, n: usize) -> String {
    let link = Link { step: Some(n), lang: Some(lang), ..told.link() };
    format!("?{}", link::to_query(&link))
}

/// The same link from a static page (one folder down).
pub fn app_href(lang: Lang, told: Told, n: usize) -> String {
    format!("../{}", step_href(lang, told, n))
}

/// The static page of step `n` of what is told (its [`Told::key`]) in `lang`: its file name in
/// [`DIR`], and its link from another static page.
pub fn page_href(key: &str, lang: Lang, n: usize) -> String {
    format!("{key}.{}.{n}.html", lang.code())
}

/// How [`paragraphs`] writes a step's text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Words {
    /// Code as `<code>`, the words that point at the stage as text (a static page, the reader's
    /// story).
    Plain,
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
/// still view's step is as large as the app's narration that replaces it, and the app's
/// narration, one block kept from step to step, is never a new, later largest paint.
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

/// The `<noscript>` block of `index.html`: in each language, a line saying what the page needs
/// and every chapter's link to its first static page, and each of the site's `stories`', listed
/// as the chapter list lists them.
pub fn noscript(stories: &[Listed]) -> String {
    let mut out = String::from("<noscript><div class=\"nojs\">");
    for lang in Lang::ALL {
        cat(
            &mut out,
            &[
                "<div class=\"nojs-lang\" lang=\"",
                lang.code(),
                "\"><p>",
                &escape(lang.text(Key::NoScriptIntro)),
                "</p><ol>",
            ],
        );
        let item = |out: &mut String, key: &str, label: &str, title: &str| {
            cat(
                out,
                &[
                    "<li><a href=\"",
                    DIR,
                    "/",
                    &escape(&page_href(key, lang, 1)),
                    "\"><span class=\"chapter-number\">",
                    &escape(label),
                    "</span> <span class=\"chapter-title\">",
                    &escape(title),
                    "</span></a></li>",
                ],
            )
        };
        let story = |out: &mut String, s: &Listed| {
            item(out, &stories::key(&s.id), lang.text(Key::StoryLabel), s.title.get(lang))
        };
        for chapter in Chapter::ALL {
            for s in stories::before(stories, chapter) {
                story(&mut out, s);
            }
            let label = lang.fill(Key::ChapterLabel, &[&chapter.number().to_string()]);
            item(&mut out, chapter.id(), &label, lang.chapter(chapter).title);
        }
        for s in stories::after_chapters(stories) {
            story(&mut out, s);
        }
        out.push_str("</ol></div>");
    }
    out.push_str("</div></noscript>");
    out
}

/// A static page's links to the previous and the next step (where the app has its timeline bar).
pub fn pager(o: &mut String, told: Told, n: usize, lang: Lang) {
    let count = told.steps();
    o.push_str("<p class=\"step-pager\">");
    for (rel, key, to) in [("prev", Key::PreviousStep, n - 1), ("next", Key::NextStep, n + 1)] {
        if (1..=count).contains(&to) {
            cat(
                o,
                &[
                    "<a rel=\"",
                    rel,
                    "\" href=\"",
                    &escape(&page_href(&told.key(), lang, to)),
                    "\">",
                    &escape(lang.text(key)),
                    "</a>",
                ],
            );
        }
    }
    o.push_str("</p>");
}

/// A static page: step `n` of what is told in `lang`, its `header` and `view` written by
/// [`crate::view::still`] with static links. `head` is what the build links in its `<head>` (the
/// style sheet, the icon), relative to the page.
pub fn page(told: Told, lang: Lang, n: usize, head: &str, header: &str, view: &str) -> String {
    let text = told.text(lang);
    let title = [text.steps[n - 1].title, text.title, lang.text(Key::AppTitle)].join(" — ");
    let mut o = String::with_capacity(view.len() + header.len() + 2048);
    cat(
        &mut o,
        &[
            "<!doctype html>\n<html lang=\"",
            lang.code(),
            "\">\n<head>\n<meta charset=\"utf-8\" />\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n<title>",
            &escape(&title),
            "</title>\n<meta name=\"description\" content=\"",
            &escape(text.summary),
            "\" />\n",
            head,
        ],
    );
    for other in Lang::ALL.into_iter().filter(|&l| l != lang) {
        cat(
            &mut o,
            &[
                "<link rel=\"alternate\" hreflang=\"",
                other.code(),
                "\" href=\"",
                &escape(&page_href(&told.key(), other, n)),
                "\" />\n",
            ],
        );
    }
    cat(
        &mut o,
        &[
            "</head>\n<body>\n<p class=\"static-intro\">",
            &escape(lang.text(Key::StaticPageIntro)),
            "</p>\n",
            header,
            "\n",
            view,
            "\n</body>\n</html>\n",
        ],
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `href` values of `html`'s links, unescaped.
    fn hrefs(html: &str) -> Vec<String> {
        html.match_indices("href=\"")
            .map(|(i, _)| {
                let rest = &html[i + 6..];
                rest[..rest.find('"').unwrap()].replace("&amp;", "&")
            })
            .collect()
    }

    #[test]
    fn a_step_is_paragraphs_in_one_block() {
        let body = &["The kubelet sends `POST /api/v1/nodes` to the [[apiserver|API server]].", "Then <it> waits."];
        let written = |words| {
            let mut out = String::new();
            paragraphs(&mut out, body, words);
            out
        };
        let plain = written(Words::Plain);
        assert_eq!(
            plain,
            "<span class=\"para\">The kubelet sends <code>POST /api/v1/nodes</code> to the API server.</span>\n\
             <span class=\"para\">Then &lt;it&gt; waits.</span>\n"
        );
        // The narration's terms are buttons naming what they highlight.
        assert_eq!(
            written(Words::Narration),
            plain.replace(
                "API server",
                "<button type=\"button\" class=\"term\" data-term=\"apiserver\">API server</button>"
            )
        );
        // A copy only laid out has the same text, and no code element a reader could meet twice.
        assert_eq!(
            written(Words::Unseen),
            plain.replace("<code>", "<span class=\"code\">").replace("</code>", "</span>")
        );
    }

    /// A story of the site's, kept as the build keeps one (read from its YAML: natively only).
    #[cfg(not(target_arch = "wasm32"))]
    fn story() -> Told {
        let text = include_str!("../../stories/two-nodes-fail.yaml");
        Told::Story(stories::Loaded::keep(crate::story::load(text, Some("two-nodes-fail")).unwrap()))
    }

    #[test]
    fn links_open_the_step_they_name() {
        for lang in Lang::ALL {
            for chapter in Chapter::ALL {
                for n in 1..=chapter.scenario().steps.len() {
                    for href in [step_href(lang, Told::Chapter(chapter), n), app_href(lang, Told::Chapter(chapter), n)]
                    {
                        let query = href.trim_start_matches("../");
                        let (link, notices) = link::parse(query, "");
                        assert!(notices.is_empty(), "{href}: {notices:?}");
                        assert_eq!((link.chapter, link.step, link.lang), (chapter, Some(n), Some(lang)), "{href}");
                    }
                }
            }
        }
        let node_failure = Told::Chapter(Chapter::NodeFailure);
        assert_eq!(step_href(Lang::En, node_failure, 3), "?chapter=node-failure&step=3&lang=en");
        // From a static page, one folder down, to the app beside index.html.
        assert_eq!(app_href(Lang::Ja, node_failure, 3), "../?chapter=node-failure&step=3&lang=ja");
        assert_eq!(page_href(&node_failure.key(), Lang::Ja, 3), "node-failure.ja.3.html");
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_story_s_links_name_the_story_and_its_pages_are_its_own() {
        assert_eq!(step_href(Lang::Ja, story(), 2), "?story=two-nodes-fail&step=2&lang=ja");
        assert_eq!(page_href(&story().key(), Lang::En, 2), "story.two-nodes-fail.en.2.html");
        let last = story().steps();
        let mut o = String::new();
        pager(&mut o, story(), last, Lang::En);
        assert_eq!(hrefs(&o), [format!("story.two-nodes-fail.en.{}.html", last - 1)]);
    }

    #[test]
    fn the_noscript_block_links_every_chapter_and_story_in_every_language() {
        let two = crate::story::Words { en: "Two nodes fail".into(), ja: Some("二台".into()) };
        let tls = crate::story::Words { en: "Before the Node".into(), ja: None };
        let stories = [
            Listed { id: "two-nodes-fail".into(), title: two, before: None },
            Listed { id: "tls-bootstrap".into(), title: tls, before: Some(Chapter::Registration) },
        ];
        let html = noscript(&stories);
        assert!(html.starts_with("<noscript>") && html.ends_with("</noscript>"));
        let links = hrefs(&html);
        let mut want = Vec::new();
        for lang in Lang::ALL {
            assert!(html.contains(&format!("<div class=\"nojs-lang\" lang=\"{}\"><p>", lang.code())));
            assert!(html.contains(&*escape(lang.text(Key::NoScriptIntro))));
            want.push(format!("{DIR}/story.tls-bootstrap.{}.1.html", lang.code()));
            for chapter in Chapter::ALL {
                want.push(format!("{DIR}/{}", page_href(chapter.id(), lang, 1)));
                assert!(html.contains(&format!(
                    "<span class=\"chapter-title\">{}</span>",
                    escape(lang.chapter(chapter).title)
                )));
            }
            want.push(format!("{DIR}/story.two-nodes-fail.{}.1.html", lang.code()));
        }
        assert_eq!(links, want);
        assert_eq!(links[2], "steps/node-failure.en.1.html");
        assert!(
            html.contains("<span class=\"chapter-number\">ストーリー</span> <span class=\"chapter-title\">二台</span>")
        );
        // Without stories, the chapters alone.
        assert_eq!(hrefs(&noscript(&[])).len(), Lang::ALL.len() * Chapter::ALL.len());
    }

    #[test]
    fn the_pager_goes_to_the_steps_either_side() {
        let count = Chapter::NodeFailure.scenario().steps.len();
        let pager = |told, n| {
            let mut o = String::new();
            pager(&mut o, told, n, Lang::En);
            o
        };
        let node_failure = Told::Chapter(Chapter::NodeFailure);
        assert_eq!(
            pager(node_failure, 1),
            "<p class=\"step-pager\"><a rel=\"next\" href=\"node-failure.en.2.html\">Next step</a></p>"
        );
        assert_eq!(hrefs(&pager(node_failure, 3)), ["node-failure.en.2.html", "node-failure.en.4.html"]);
        assert!(pager(node_failure, 3).contains(">Previous step</a>"));
        assert_eq!(hrefs(&pager(node_failure, count)), [page_href("node-failure", Lang::En, count - 1)]);
    }

    #[test]
    fn a_page_is_a_whole_document_in_its_language() {
        let head = "<link rel=\"stylesheet\" href=\"../style.css\" />\n";
        let page = page(Told::Chapter(Chapter::NodeFailure), Lang::Ja, 4, head, "<header>h</header>", "<main>m</main>");
        let text = Lang::Ja.chapter(Chapter::NodeFailure);
        assert!(page.starts_with("<!doctype html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\" />"));
        assert!(page.contains(&format!(
            "<title>{} — {} — nodeline</title>",
            escape(text.steps[3].title),
            escape(text.title)
        )));
        assert!(page.contains(&format!("<meta name=\"description\" content=\"{}\" />", escape(text.summary))));
        assert!(page.contains(head));
        assert!(page.contains("<link rel=\"alternate\" hreflang=\"en\" href=\"node-failure.en.4.html\" />"));
        assert!(page.contains(&*escape(Lang::Ja.text(Key::StaticPageIntro))));
        let body = &page[page.find("<body>").unwrap()..];
        assert!(body.find("<header>h</header>").unwrap() < body.find("<main>m</main>").unwrap());
        assert!(page.ends_with("</body>\n</html>\n"));
    }
}
