//! What a page tells: a chapter, or a story of the site's ([`Told`]), and what differs between
//! the two wherever the page, the still view and the static pages show either: their words,
//! links, steps, questions, and the words that say "story" where a chapter's say "chapter".

use crate::i18n::{ChapterText, Key, Lang};
use crate::link::Link;
use crate::sim::Chapter;
use crate::story::Questions;
use crate::view::stories::{self, Loaded};

/// What a page tells: a chapter, or a story of the site's.
#[derive(Clone, Copy, Debug)]
pub enum Told {
    Chapter(Chapter),
    Story(&'static Loaded),
}

impl Told {
    /// The chapter told, or the story.
    pub fn of(chapter: Chapter, story: Option<&'static Loaded>) -> Told {
        story.map_or(Told::Chapter(chapter), Told::Story)
    }

    /// Its id: the chapter's, or the story's.
    pub fn id(self) -> &'static str {
        match self {
            Told::Chapter(c) => c.id(),
            Told::Story(l) => &l.story.id,
        }
    }

    /// The name its pre-rendered steps go by (the still view's files, the static pages): the
    /// chapter's id, or `story.ID` (a story's id is a DNS label, without dots, so the two never
    /// meet).
    pub fn key(self) -> String {
        match self {
            Told::Chapter(c) => c.id().to_string(),
            Told::Story(l) => stories::key(&l.story.id),
        }
    }

    /// The story, when it is one.
    pub fn story(self) -> Option<&'static Loaded> {
        match self {
            Told::Chapter(_) => None,
            Told::Story(l) => Some(l),
        }
    }

    /// Its words in `lang`.
    pub fn text(self, lang: Lang) -> &'static ChapterText {
        match self {
            Told::Chapter(c) => lang.chapter(c),
            Told::Story(l) => l.text(lang),
        }
    }

    /// How many steps it has.
    pub fn steps(self) -> usize {
        match self {
            Told::Chapter(c) => c.scenario().steps.len(),
            Told::Story(l) => l.story.scenario.steps.len(),
        }
    }

    /// Whether it is told as a fleet.
    pub fn is_fleet(self) -> bool {
        match self {
            Told::Chapter(c) => c.is_fleet(),
            Told::Story(l) => l.story.scenario.fleet,
        }
    }

    /// Its questions.
    pub fn questions(self) -> Questions<'static> {
        match self {
            Told::Chapter(c) => Questions::Chapter(c),
            Told::Story(l) => l.questions(),
        }
    }

    /// The words it says where a chapter says `key`: a chapter's own, a story's where the
    /// chapter's would say "chapter".
    pub fn says(self, key: Key) -> Key {
        match (self, key) {
            (Told::Chapter(_), key) => key,
            (Told::Story(_), Key::ResetSandbox) => Key::ResetSandboxStory,
            (Told::Story(_), Key::AccountStory) => Key::AccountWritten,
            (Told::Story(_), Key::AccountStoryHelp) => Key::AccountWrittenHelp,
            (Told::Story(_), Key::ChapterEnd) => Key::StoryEnd,
            (Told::Story(_), Key::StepsNav) => Key::StepsNavStory,
            (Told::Story(_), Key::StepOfStory) => Key::StepOfWritten,
            (Told::Story(_), Key::QuizSummaryTitle) => Key::QuizSummaryTitleStory,
            (Told::Story(_), key) => key,
        }
    }

    /// The link that opens it as told, at its first step (a story says its own Kubernetes
    /// version: the link need not).
    pub fn link(self) -> Link {
        match self {
            Told::Chapter(chapter) => Link { chapter, ..Link::default() },
            Told::Story(l) => Link { story: Some(l.story.id.clone()), ..Link::default() },
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_story_says_story_where_a_chapter_says_chapter() {
        let text = include_str!("../../stories/two-nodes-fail.yaml");
        let story = Told::Story(Loaded::keep(crate::story::load(text, Some("two-nodes-fail")).unwrap()));
        let chapter = Told::Chapter(Chapter::NodeFailure);
        let keys = [
            Key::ResetSandbox,
            Key::AccountStory,
            Key::AccountStoryHelp,
            Key::ChapterEnd,
            Key::StepsNav,
            Key::StepOfStory,
            Key::QuizSummaryTitle,
        ];
        for key in keys {
            assert_eq!(chapter.says(key), key);
            let said = story.says(key);
            assert_ne!(said, key, "{key:?}");
            let (en, ja) = (Lang::En.text(said).to_lowercase(), Lang::Ja.text(said));
            assert!(en.contains("story") && !en.contains("chapter"), "{key:?}: {en}");
            assert!(ja.contains("ストーリー") && !ja.contains('章'), "{key:?}: {ja}");
            assert!(Lang::En.text(key).contains("chapter"), "{key:?} is a chapter's words");
        }
        // Words that name no chapter are the same for both.
        assert_eq!(story.says(Key::Play), Key::Play);
        assert_eq!(
            (story.id(), story.key(), chapter.key()),
            ("two-nodes-fail", "story.two-nodes-fail".into(), "node-failure".into())
        );
        assert_eq!(crate::link::to_query(&story.link()), "story=two-nodes-fail");
        assert!(story.story().is_some() && chapter.story().is_none() && !story.is_fleet());
    }
}
