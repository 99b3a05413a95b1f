//! The site's stories in the page (`stories/ID.story`, see [`crate::story::compact`]): where they
//! are, and the list the build writes into `index.html` for the chapter list's "more stories"
//! (hidden markup the app reads: no request, and nothing to run).

use std::fmt::Write;

use super::html::escape;
use crate::sim::Chapter;
use crate::story::{Story, Words};

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

/// The folder of the site's stories, beside `index.html`.
pub const DIR: &str = "stories";

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
