//! A reader's progress through a chapter's questions, and its compact form in the URL
//! (`&progress=rw-`: one character per question, in the chapter's order: `r` right, `w` wrong,
//! `-` not answered yet), so that a shared link shares it. Nothing is kept in storage.

/// Where the reader stands on one question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    #[default]
    Open,
    Right,
    Wrong,
}

impl Mark {
    fn code(self) -> char {
        match self {
            Mark::Open => '-',
            Mark::Right => 'r',
            Mark::Wrong => 'w',
        }
    }

    fn from_code(c: char) -> Option<Mark> {
        match c {
            '-' => Some(Mark::Open),
            'r' => Some(Mark::Right),
            'w' => Some(Mark::Wrong),
            _ => None,
        }
    }
}

/// One mark per question of a chapter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress(pub Vec<Mark>);

impl Progress {
    /// Nothing answered, for a chapter of `count` questions.
    pub fn new(count: usize) -> Progress {
        Progress(vec![Mark::Open; count])
    }

    /// Reads the URL form for a chapter of `count` questions. Never fails: an unknown character
    /// counts as not answered, a missing one too, extra ones are dropped; the second value says
    /// whether the text was exactly right.
    pub fn parse(text: &str, count: usize) -> (Progress, bool) {
        let mut ok = text.chars().count() <= count;
        let mut marks: Vec<Mark> = text
            .chars()
            .take(count)
            .map(|c| {
                Mark::from_code(c).unwrap_or_else(|| {
                    ok = false;
                    Mark::Open
                })
            })
            .collect();
        marks.resize(count, Mark::Open);
        (Progress(marks), ok)
    }

    /// The same marks for `count` questions (a story's, once it is read): extra ones are
    /// dropped; the second value says whether none of them was an answer.
    pub fn fit(mut self, count: usize) -> (Progress, bool) {
        let ok = self.0.iter().skip(count).all(|m| *m == Mark::Open);
        self.0.resize(count, Mark::Open);
        (self, ok)
    }

    /// The URL form (`None` when nothing is answered: the parameter is left out).
    pub fn to_param(&self) -> Option<String> {
        self.0.iter().any(|m| *m != Mark::Open).then(|| self.0.iter().map(|m| m.code()).collect())
    }

    /// How many questions are answered.
    pub fn answered(&self) -> usize {
        self.0.iter().filter(|m| **m != Mark::Open).count()
    }

    /// How many are answered right.
    pub fn right(&self) -> usize {
        self.0.iter().filter(|m| **m == Mark::Right).count()
    }

    /// The mark of question `i`.
    pub fn mark(&self, i: usize) -> Mark {
        self.0.get(i).copied().unwrap_or_default()
    }

    /// Records an answer to question `i`.
    pub fn set(&mut self, i: usize, right: bool) {
        if let Some(m) = self.0.get_mut(i) {
            *m = if right { Mark::Right } else { Mark::Wrong };
        }
    }

    /// The same progress with question `i` open again (a "try again" link).
    pub fn reopened(&self, i: usize) -> Progress {
        let mut p = self.clone();
        if let Some(m) = p.0.get_mut(i) {
            *m = Mark::Open;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_counts() {
        let (p, ok) = Progress::parse("rw-r", 4);
        assert!(ok);
        assert_eq!((p.answered(), p.right()), (3, 2));
        assert_eq!(p.to_param().as_deref(), Some("rw-r"));
        assert_eq!(Progress::new(3).to_param(), None);
        assert_eq!(p.reopened(1).to_param().as_deref(), Some("r--r"));
        let mut q = Progress::new(2);
        q.set(1, true);
        q.set(7, false);
        assert_eq!(q.to_param().as_deref(), Some("-r"));
    }

    #[test]
    fn fits_a_count_known_later() {
        let (p, _) = Progress::parse("rw", 2);
        assert_eq!(p.clone().fit(3), (Progress(vec![Mark::Right, Mark::Wrong, Mark::Open]), true));
        assert_eq!(p.clone().fit(1), (Progress(vec![Mark::Right]), false));
        let (open, _) = Progress::parse("r--", 3);
        assert_eq!(open.fit(1), (Progress(vec![Mark::Right]), true));
    }

    #[test]
    fn bad_text_never_fails() {
        let (p, ok) = Progress::parse("rx", 3);
        assert!(!ok);
        assert_eq!(p, Progress(vec![Mark::Right, Mark::Open, Mark::Open]));
        let (p, ok) = Progress::parse("rrrrr", 3);
        assert!(!ok);
        assert_eq!(p.answered(), 3);
        let (p, ok) = Progress::parse("r", 3);
        assert!(ok);
        assert_eq!(p.0.len(), 3);
        let (_, ok) = Progress::parse("<script>", 3);
        assert!(!ok);
    }
}
