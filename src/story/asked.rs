//! Whose questions are asked: a chapter's (the catalogue, [`quiz::questions`]) or a story
//! file's ([`StoryQuestion`]). The page and the command line ask both the same way, through
//! [`Questions`] and [`Asked`]; only where the words and the derivation come from differs.

use crate::i18n::{Lang, plain};
use crate::quiz::{self, Derived, Kind, Question, Region};
use crate::sim::{Chapter, Timeline};

use super::StoryQuestion;

/// What a story's question hides while it waits: everything that could tell the future (a story
/// says nothing of what its answer could be read from).
const STORY_CONCEALS: &[Region] = &[Region::Narration, Region::Track, Region::Inspector, Region::Fleet];

/// The questions of what is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Questions<'a> {
    Chapter(Chapter),
    /// A story's, with the story's id.
    Story(&'a str, &'a [StoryQuestion]),
}

impl<'a> Questions<'a> {
    /// How many there are.
    pub fn len(self) -> usize {
        match self {
            Questions::Chapter(c) => quiz::questions(c).len(),
            Questions::Story(_, qs) => qs.len(),
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Question `i` (0-based, in the chapter's or the file's order).
    pub fn get(self, i: usize) -> Option<Asked<'a>> {
        match self {
            Questions::Chapter(c) => quiz::questions(c).get(i).map(Asked::Chapter),
            Questions::Story(_, qs) => qs.get(i).map(Asked::Story),
        }
    }

    /// Every question, in order.
    pub fn iter(self) -> impl Iterator<Item = Asked<'a>> {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// What a timeline says of each (in order; `None` where it does not hold the question).
    pub fn derive_all(self, timeline: &Timeline) -> Vec<Option<Derived>> {
        self.iter().map(|q| q.derive(timeline)).collect()
    }

    /// A name that tells these questions apart from any other chapter's or story's (a reader's
    /// progress is kept under it).
    pub fn key(self) -> String {
        match self {
            Questions::Chapter(c) => format!("chapter/{}", c.id()),
            Questions::Story(id, _) => format!("story/{id}"),
        }
    }
}

/// One question, a chapter's or a story's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Asked<'a> {
    Chapter(&'static Question),
    Story(&'a StoryQuestion),
}

impl<'a> Asked<'a> {
    /// The question's id (in the embed's messages and the command line's JSON).
    pub fn id(self) -> &'a str {
        match self {
            Asked::Chapter(q) => q.id,
            Asked::Story(q) => &q.id,
        }
    }

    pub fn kind(self) -> Kind {
        match self {
            Asked::Chapter(q) => q.kind,
            Asked::Story(q) => q.kind(),
        }
    }

    /// The options' values (a choice's answer, an order's items, as the embed and the JSON give
    /// them), in the order shown: a chapter's ids, a story's options in English words.
    pub fn values(self) -> Vec<String> {
        match self {
            Asked::Chapter(q) => q.options.iter().map(|v| v.to_string()).collect(),
            Asked::Story(q) => q.labels(Lang::En).iter().map(|l| plain(l)).collect(),
        }
    }

    /// How many options a choice or order question has.
    pub fn option_count(self) -> usize {
        match self {
            Asked::Chapter(q) => q.options.len(),
            Asked::Story(q) => q.options().len(),
        }
    }

    /// What the page hides while the question waits for its answer.
    pub fn conceal(self) -> &'static [Region] {
        match self {
            Asked::Chapter(q) => q.conceal,
            Asked::Story(_) => STORY_CONCEALS,
        }
    }

    /// The stop, the answer and the explanation's facts, from a timeline computed past the
    /// answer; `None` when the timeline does not hold the question's story.
    pub fn derive(self, timeline: &Timeline) -> Option<Derived> {
        match self {
            Asked::Chapter(q) => q.derive(timeline),
            Asked::Story(q) => q.derive(timeline),
        }
    }

    /// The prompt, as narration markup.
    pub fn prompt(self, lang: Lang, derived: &Derived) -> String {
        match self {
            Asked::Chapter(q) => quiz::prompt(lang, q, derived),
            Asked::Story(q) => q.prompt(lang).to_string(),
        }
    }

    /// Why the answer is what it is, as narration markup.
    pub fn why(self, lang: Lang, derived: &Derived) -> String {
        match self {
            Asked::Chapter(q) => quiz::why(lang, q, derived),
            Asked::Story(q) => q.why(lang, derived),
        }
    }

    /// The options' labels (narration markup), in the order shown.
    pub fn labels(self, lang: Lang) -> Vec<&'a str> {
        match self {
            Asked::Chapter(q) => quiz::options(lang, q),
            Asked::Story(q) => q.labels(lang),
        }
    }

    /// The right answer in words (plain text).
    pub fn answer_text(self, lang: Lang, derived: &Derived) -> String {
        quiz::answer_words(&self.labels(lang), derived)
    }
}
