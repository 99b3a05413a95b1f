//! The words for link notices.

use crate::i18n::{Key, Lang};
use crate::link::{Notice, Problem};

/// The text of a link notice.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    let (key, extra) = match &n.problem {
        Problem::UnknownChapter => (Key::NoticeUnknownChapter, String::new()),
        Problem::BadStep => (Key::NoticeBadStep, String::new()),
        Problem::StepOutOfRange { used } => (Key::NoticeStepOutOfRange, used.to_string()),
        Problem::BadFlag => (Key::NoticeBadFlag, String::new()),
        Problem::BadTime(_) => (Key::NoticeBadTime, String::new()),
        Problem::TimeTooLate => (Key::NoticeTimeTooLate, String::new()),
        Problem::BadAction(_) => (Key::NoticeBadAction, String::new()),
        Problem::BadSpeed => (Key::NoticeBadSpeed, String::new()),
        Problem::BadTheme => (Key::NoticeBadTheme, String::new()),
        Problem::BadLang => (Key::NoticeBadLang, String::new()),
        Problem::BadOrigin => (Key::NoticeBadOrigin, String::new()),
        Problem::BadProfile => (Key::NoticeBadProfile, String::new()),
        Problem::UnknownParam => (Key::NoticeUnknownParam, String::new()),
        Problem::Repeated => (Key::NoticeRepeated, String::new()),
    };
    lang.fill(key, &[&n.param, &n.value, &extra])
}
