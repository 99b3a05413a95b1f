//! The embed's `postMessage` contract (a stable interface, documented in the README): what a
//! page that embeds nodeline in an iframe (`?embed=1`) may send it, and what it sends back.
//!
//! ```text
//! parent → embed   {type: "nodeline:play"}
//!                  {type: "nodeline:pause"}
//!                  {type: "nodeline:goto", step: 4}      1-based; the playhead moves, playing or not
//!                  {type: "nodeline:query"}              asks for a fresh resize and state message
//! embed → parent   {type: "nodeline:resize", height: 812}           CSS pixels, whole
//!                  {type: "nodeline:state", chapter: "node-failure", step: 3, steps: 6, playing: true}
//!                  {type: "nodeline:answer", chapter: "node-failure", question: "node-failure-ready",
//!                   answer: "Unknown", correct: true}                question mode (`&quiz=1`)
//!                  {type: "nodeline:quizdone", chapter: "node-failure", answered: 5, correct: 4, total: 5}
//! ```
//!
//! A story of the site's (`?story=ID`) is named `story: "ID"` where a chapter is named
//! `chapter`; a story's question ids are the ones its file gives, and a choice's or an order's
//! answer is given in the options' English words.
//!
//! The embed obeys only its parent window, and only the origin named by `&origin=` when there is
//! one (its messages then go to that origin only; otherwise to any parent, as they say nothing
//! private). Anything else — another window, another origin, an unknown `type`, a step that is
//! not a whole number of this chapter — is ignored without a word. This module is the pure part;
//! `app::embed` reads and writes the browser's messages.

/// The `type` of the messages the embed sends.
pub const RESIZE: &str = "nodeline:resize";
/// See [`RESIZE`].
pub const STATE: &str = "nodeline:state";
/// Question mode: one answer (the question's id, the answer, whether it was right).
pub const ANSWER: &str = "nodeline:answer";
/// Question mode: the chapter's totals, when playback reaches its end.
pub const QUIZ_DONE: &str = "nodeline:quizdone";

/// What a parent can ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Play,
    Pause,
    /// Move the playhead to this step (1-based, within the chapter).
    Goto(usize),
    /// Send the current height and state again.
    Query,
}

impl Command {
    /// Reads a message's `type` and `step` fields (`None` when absent or of another JS type),
    /// for a chapter of `steps` steps. `None`: not a message the embed understands.
    pub fn decode(kind: Option<&str>, step: Option<f64>, steps: usize) -> Option<Command> {
        match kind? {
            "nodeline:play" => Some(Command::Play),
            "nodeline:pause" => Some(Command::Pause),
            "nodeline:query" => Some(Command::Query),
            "nodeline:goto" => {
                let n = step?;
                let whole = n.is_finite() && n.fract() == 0.0 && n >= 1.0 && n <= steps as f64;
                whole.then_some(Command::Goto(n as usize))
            }
            _ => None,
        }
    }
}

/// Whether a message is to be obeyed: it comes from the parent window and, if the embedder named
/// an origin, from that origin.
pub fn accepts(named_origin: Option<&str>, from_parent: bool, origin: &str) -> bool {
    from_parent && named_origin.is_none_or(|named| named == origin)
}

/// The `targetOrigin` for the embed's own messages: the named origin, or any.
pub fn target_origin(named_origin: Option<&str>) -> &str {
    named_origin.unwrap_or("*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_documented_commands() {
        assert_eq!(Command::decode(Some("nodeline:play"), None, 6), Some(Command::Play));
        assert_eq!(Command::decode(Some("nodeline:pause"), Some(3.0), 6), Some(Command::Pause));
        assert_eq!(Command::decode(Some("nodeline:query"), None, 6), Some(Command::Query));
        assert_eq!(Command::decode(Some("nodeline:goto"), Some(1.0), 6), Some(Command::Goto(1)));
        assert_eq!(Command::decode(Some("nodeline:goto"), Some(6.0), 6), Some(Command::Goto(6)));
    }

    #[test]
    fn ignores_what_it_does_not_understand() {
        for (kind, step) in [
            (None, None),
            (Some(""), None),
            (Some("play"), None),
            (Some("NODELINE:PLAY"), None),
            (Some("nodeline:seek"), Some(2.0)),
            (Some("nodeline:goto"), None),
            (Some("nodeline:goto"), Some(0.0)),
            (Some("nodeline:goto"), Some(7.0)),
            (Some("nodeline:goto"), Some(-1.0)),
            (Some("nodeline:goto"), Some(2.5)),
            (Some("nodeline:goto"), Some(f64::NAN)),
            (Some("nodeline:goto"), Some(f64::INFINITY)),
            (Some("nodeline:goto"), Some(1e300)),
        ] {
            assert_eq!(Command::decode(kind, step, 6), None, "{kind:?} {step:?}");
        }
        assert_eq!(Command::decode(Some("nodeline:goto"), Some(1.0), 0), None);
    }

    #[test]
    fn obeys_only_the_parent_and_the_named_origin() {
        assert!(accepts(None, true, "https://anywhere.example"));
        assert!(!accepts(None, false, "https://anywhere.example"));
        assert!(accepts(Some("https://docs.example"), true, "https://docs.example"));
        assert!(!accepts(Some("https://docs.example"), true, "https://evil.example"));
        assert!(!accepts(Some("https://docs.example"), true, "null"));
        assert!(!accepts(Some("https://docs.example"), false, "https://docs.example"));
        assert_eq!(target_origin(None), "*");
        assert_eq!(target_origin(Some("https://docs.example")), "https://docs.example");
    }
}
