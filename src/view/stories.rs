//! The site's stories in the page (`stories/ID.story`, see [`crate::story::compact`]): where they
//! are, the list the build writes into `index.html` for the chapter list's "more stories"
//! (hidden markup the app reads: no request, and nothing to run), and a story kept with its words
//! in the shape the chapters' have ([`Loaded`]).

use std::fmt::Write;

use super::html::escape;
use crate::i18n::{ChapterText, Lang, StepText};
use crate::sim::Chapter;
use crate::story::{Questions, Story, Words};

/// A story read, kept for the program's lifetime, with its words in each language in the shape
/// the chapters' have, so every part of the page reads a story's words as it reads a chapter's.
#[derive(Debug)]
pub struct Loaded {
    pub story: &'static Story,
    en: ChapterText,
    ja: ChapterText,
}

impl Loaded {
    /// Keeps `story` for the program's lifetime (the page reads each story once; the build
    /// writes each once), with its words as chapters' are.
    pub fn keep(story: Story) -> &'static Loaded {
        let story: &'static Story = Box::leak(Box::new(story));
        let words = |lang: Lang| {
            let get = |w: &'static Words| -> &'static str {
                match lang {
                    Lang::Ja => w.ja.as_deref().unwrap_or(&w.en),
                    Lang::En => &w.en,
                }
            };
            let steps: Vec<StepText> = story
                .steps
                .iter()
                .map(|s| {
                    let paragraphs = match (lang, &s.ja) {
                        (Lang::Ja, Some(ja)) => ja,
                        _ => &s.en,
                    };
                    let body: Vec<&'static str> = paragraphs.iter().map(String::as_str).collect();
                    StepText { title: get(&s.title), body: Box::leak(body.into_boxed_slice()) }
                })
                .collect();
            ChapterText {
                title: get(&story.title),
                summary: get(&story.summary),
                steps: Box::leak(steps.into_boxed_slice()),
            }
        };
        Box::leak(Box::new(Loaded { story, en: words(Lang::En), ja: words(Lang::Ja) }))
    }

    /// Its words in `lang` (English where the story has no Japanese).
    pub fn text(&self, lang: Lang) -> &ChapterText {
        match lang {
            Lang::En => &self.en,
            Lang::Ja => &self.ja,
        }
    }

    /// Its questions.
    pub fn questions(&self) -> Questions<'static> {
        Questions::Story(&self.story.id, &self.story.questions)
    }

    /// Whether the story has no Japanese (the Japanese page shows its English, and says so).
    pub fn english_only(&self) -> bool {
        self.story.title.ja.is_none()
    }
}

/// A story of the site's as the chapter list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub id: String,
    pub title: Words,
    /// The chapter it is listed before; `None`: after the chapters, among "more stories".
    pub before: Option<Chapter>,
}

impl Listed {
    /// How the chapter list shows `story`.
    pub fn of(story: &Story) -> Listed {
        Listed { id: story.id.clone(), title: story.title.clone(), before: story.list_before }
    }
}

/// The stories listed before `chapter`, in the site's order.
pub fn before(stories: &[Listed], chapter: Chapter) -> impl Iterator<Item = &Listed> {
    stories.iter().filter(move |s| s.before == Some(chapter))
}

/// The stories listed after the chapters ("more stories"), in the site's order.
pub fn after_chapters(stories: &[Listed]) -> impl Iterator<Item = &Listed> {
    stories.iter().filter(|s| s.before.is_none())
}

/// The name the story `id`'s pre-rendered steps go by ([`super::told::Told::key`]).
pub fn key(id: &str) -> String {
    format!("story.{id}")
}

/// The folder of the site's stories, beside `index.html`.
pub const DIR: &str = "stories";

/// The id of the element that carries the story `id` in the single-file `nodeline.html` (a
/// `<script type="text/plain">` data block, in the page's form, which fetches nothing).
pub fn embedded_id(id: &str) -> String {
    format!("nodeline-story-{id}")
}

/// The id of the hidden list in `index.html`.
pub const LIST_ID: &str = "nodeline-stories";

/// Where the story `id` is, relative to the page.
pub fn path(id: &str) -> String {
    format!("{DIR}/{id}.{}", crate::story::compact::EXTENSION)
}

/// The hidden list of `stories`: a link each (`?story=ID`), its English title as its text, its
/// Japanese one, when it has one, in `data-ja`, and the chapter it is listed before, if any, in
/// `data-before`.
pub fn list_markup<'a>(stories: impl IntoIterator<Item = &'a Story>) -> String {
    let mut o = format!("<ul id=\"{LIST_ID}\" hidden>");
    for s in stories {
        let _ = write!(o, "<li><a href=\"?story={}\"", escape(&s.id));
        if let Some(ja) = &s.title.ja {
            let _ = write!(o, " data-ja=\"{}\"", escape(ja));
        }
        if let Some(chapter) = s.list_before {
            let _ = write!(o, " data-before=\"{}\"", chapter.id());
        }
        let _ = write!(o, ">{}</a></li>", escape(&s.title.en));
    }
    o.push_str("</ul>");
    o
}

/// The id a link of the list names (`?story=ID`), when it is one.
pub fn id_of(href: &str) -> Option<&str> {
    href.strip_prefix("?story=").filter(|id| crate::link::is_dns_label(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_each_story_and_escapes_its_titles() {
        let story = |id: &str, en: &str, ja: Option<&str>| Story {
            id: id.into(),
            title: Words { en: en.into(), ja: ja.map(String::from) },
            summary: Words { en: String::new(), ja: None },
            list_before: None,
            scenario: crate::sim::Chapter::Registration.scenario(),
            config: crate::sim::Config::default(),
            steps: Vec::new(),
            questions: Vec::new(),
        };
        let first = Story { list_before: Some(Chapter::Registration), ..story("x", "X", None) };
        let list = list_markup(&[story("two", "A <b> & \"c\"", Some("二")), first]);
        assert_eq!(
            list,
            "<ul id=\"nodeline-stories\" hidden><li><a href=\"?story=two\" data-ja=\"二\">A &lt;b&gt; &amp; &quot;c&quot;</a></li>\
             <li><a href=\"?story=x\" data-before=\"registration\">X</a></li></ul>"
        );
        let listed = |id: &str, before| Listed { id: id.into(), title: Words { en: id.into(), ja: None }, before };
        let all = [listed("a", None), listed("b", Some(Chapter::Registration)), listed("c", None)];
        let ids = |it: &mut dyn Iterator<Item = &Listed>| it.map(|l| l.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&mut before(&all, Chapter::Registration)), ["b"]);
        assert_eq!(ids(&mut before(&all, Chapter::NodeFailure)), Vec::<String>::new());
        assert_eq!(ids(&mut after_chapters(&all)), ["a", "c"]);
        assert_eq!(id_of("?story=two"), Some("two"));
        assert_eq!(id_of("?story=../x"), None);
        assert_eq!(id_of("https://elsewhere/?story=x"), None);
        assert_eq!(path("two"), "stories/two.story");
    }
}
