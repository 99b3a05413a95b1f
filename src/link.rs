//! The URL contract: deep links ("Play from step 4"), shared sandbox sessions, and embed options.
//!
//! ```text
//! ?chapter=registration&step=4            open chapter 1 at step 4 and play
//! #step=4                                 the same, in the fragment
//! &autoplay=0                             open paused
//! #scheme=cluster-node-failure&step=2     links written for the card that inspired nodeline
//! ?chapter=registration&actions=kill-kubelet@5m,start-kubelet@8m&t=6m30s
//!                                         a sandbox session: the same timeline, at the same moment
//! &embed=1 &theme=light|dark &lang=en|ja &origin=https://docs.example &k8s=1.31 &speed=10
//! &quiz=1&progress=rw-                    question mode, with the answers so far (see `crate::quiz`)
//! ?story=two-nodes-fail&step=3            a story file of the site's (`stories/ID.story`, see
//!                                         `crate::story`) instead of a chapter
//! &shutdownGracePeriod=30s&shutdownGracePeriodCriticalPods=10s
//!                                         every kubelet's graceful node shutdown settings
//! ```
//!
//! Parsing never fails: every value that cannot be used falls back to the nearest valid one (or
//! is dropped) and leaves a [`Notice`] saying so, for the page to show.

use crate::i18n::Lang;
use crate::playback::SPEED_LABELS;
use crate::quiz::{self, Progress};
use crate::sim::{
    Action, Chapter, Component, DEFAULT_FLEET, MAX_FLEET, MIN_FLEET, Profile, SettingError, Settings, ShutdownPeriods,
    SimTime, format_actions, format_go_duration, parse_action, parse_go_duration,
};

/// The longest playhead a link may ask for.
pub const MAX_T: SimTime = SimTime::from_secs(2 * 3600);

/// How much of a bad value a notice repeats.
const SHOWN_VALUE: usize = 40;

/// A colour theme forced by the URL (otherwise `prefers-color-scheme` decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// Everything a URL can say.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub chapter: Chapter,
    /// A story of the site's to tell instead of the chapter: its id (`stories/ID.story`). Its
    /// steps are known once it is read, so its `step` is checked then.
    pub story: Option<String>,
    /// 1-based step, already clamped to the chapter's steps.
    pub step: Option<usize>,
    /// Whether to start playing; `None` leaves it to the page (play for step links).
    pub autoplay: Option<bool>,
    /// The playhead.
    pub t: Option<SimTime>,
    /// The reader's actions.
    pub actions: Vec<Action>,
    /// Index into [`SPEEDS`].
    pub speed: Option<usize>,
    pub embed: bool,
    pub theme: Option<Theme>,
    pub lang: Option<Lang>,
    /// The embedding page's origin, if it named one.
    pub origin: Option<String>,
    pub profile: Profile,
    /// How many nodes a fleet runs ([`MIN_FLEET`]..=[`MAX_FLEET`]), when the link says: the fleet
    /// chapter's default is [`DEFAULT_FLEET`], a story's fleet the size its file writes.
    pub nodes: Option<usize>,
    /// Question mode.
    pub quiz: bool,
    /// The answers to the chapter's questions so far (one mark per question).
    pub progress: Option<Progress>,
    /// Every kubelet's `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods`, when set.
    pub shutdown: Option<ShutdownPeriods>,
}

impl Default for Link {
    fn default() -> Link {
        Link {
            chapter: Chapter::Registration,
            story: None,
            step: None,
            autoplay: None,
            t: None,
            actions: Vec::new(),
            speed: None,
            embed: false,
            theme: None,
            lang: None,
            origin: None,
            profile: Profile::default(),
            nodes: None,
            quiz: false,
            progress: None,
            shutdown: None,
        }
    }
}

/// What was wrong with a URL value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not a chapter; the first chapter is used.
    UnknownChapter,
    /// Not a story id (lowercase letters, digits and dashes); the chapter is shown.
    BadStory,
    /// Not a step number; the chapter starts at its first step.
    BadStep,
    /// A step number out of range; the nearest step (given) is used.
    StepOutOfRange { used: usize },
    /// Not `0` or `1`.
    BadFlag,
    /// Not a duration (the reason).
    BadTime(String),
    /// A playhead past [`MAX_T`]; clamped.
    TimeTooLate,
    /// An action that could not be read (the reason); it is dropped.
    BadAction(String),
    /// Not one of the speeds; the default speed is used.
    BadSpeed,
    /// Not `light` or `dark`.
    BadTheme,
    /// Not a supported language.
    BadLang,
    /// Not an `https://` (or `http://`) origin.
    BadOrigin,
    /// Not a supported Kubernetes version.
    BadProfile,
    /// Not a whole number of nodes; the default fleet is used.
    BadNodes,
    /// A fleet size out of range; the nearest size (given) is used.
    NodesOutOfRange { used: usize },
    /// A fleet size for a chapter or story that is not a fleet; ignored.
    NodesNotAFleet,
    /// Not a progress for the chapter's questions; what could be read is kept.
    BadProgress,
    /// Shutdown periods the kubelet would refuse (its message); the chapter's are kept.
    BadShutdown(String),
    /// A parameter nodeline does not know; ignored.
    UnknownParam,
    /// A parameter given more than once; the first is used.
    Repeated,
}

/// A value that was dropped or changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub param: String,
    /// The value as given, shortened; to be shown as text, never as markup.
    pub value: String,
    pub problem: Problem,
}

/// Whether `s` is a DNS label (RFC 1123), as a story's id, a Node's or a Deployment's name must
/// be: a story link's id is one, so the page fetches nothing but `stories/ID.story` of its site.
pub fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(SHOWN_VALUE).collect();
    if s.chars().count() > SHOWN_VALUE {
        out.push('…');
    }
    out
}

/// Decodes `application/x-www-form-urlencoded` text (`+` is a space, `%XX` a byte; invalid UTF-8
/// is replaced).
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encodes a value for a query string, leaving the characters the action notation uses readable.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'@' | b',' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Splits `a=1&b=2` into decoded pairs, in order.
fn pairs(s: &str) -> Vec<(String, String)> {
    s.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(p), String::new()),
        })
        .collect()
}

/// Reads a page URL's query string and fragment (each with or without its leading `?` / `#`).
/// Fragment parameters override query ones.
pub fn parse(search: &str, hash: &str) -> (Link, Vec<Notice>) {
    let search = search.strip_prefix('?').unwrap_or(search);
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let mut notices = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut values: Vec<(String, String)> = Vec::new();
    for (source, list) in [(0, pairs(search)), (1, pairs(hash))] {
        let mut seen_here: Vec<String> = Vec::new();
        for (k, v) in list {
            if seen_here.contains(&k) {
                notices.push(Notice { param: shorten(&k), value: shorten(&v), problem: Problem::Repeated });
                continue;
            }
            seen_here.push(k.clone());
            if source == 1 && seen.contains(&k) {
                values.retain(|(key, _)| key != &k);
            }
            seen.push(k.clone());
            values.push((k, v));
        }
    }
    let mut link = Link::default();
    let mut step_text: Option<String> = None;
    let mut progress_text: Option<String> = None;
    let mut grace_text: Option<String> = None;
    let mut critical_text: Option<String> = None;
    let mut notice = |param: &str, value: &str, problem: Problem| {
        notices.push(Notice { param: shorten(param), value: shorten(value), problem });
    };
    for (k, v) in &values {
        match k.as_str() {
            "chapter" | "scheme" => match Chapter::from_id(v) {
                Some(c) => link.chapter = c,
                None => notice(k, v, Problem::UnknownChapter),
            },
            // A chapter is its story file, built in: `?story=ID` of a chapter opens the chapter.
            "story" => match (Chapter::with_id(v), is_dns_label(v)) {
                (Some(c), _) => link.chapter = c,
                (None, true) => link.story = Some(v.clone()),
                (None, false) => notice(k, v, Problem::BadStory),
            },
            "step" => step_text = Some(v.clone()),
            "progress" => progress_text = Some(v.clone()),
            "shutdownGracePeriod" => grace_text = Some(v.clone()),
            "shutdownGracePeriodCriticalPods" => critical_text = Some(v.clone()),
            "quiz" => match v.as_str() {
                "1" | "true" => link.quiz = true,
                "0" | "false" => link.quiz = false,
                _ => notice(k, v, Problem::BadFlag),
            },
            "autoplay" => match v.as_str() {
                "1" | "true" => link.autoplay = Some(true),
                "0" | "false" => link.autoplay = Some(false),
                _ => notice(k, v, Problem::BadFlag),
            },
            "embed" => match v.as_str() {
                "1" | "true" => link.embed = true,
                "0" | "false" => link.embed = false,
                _ => notice(k, v, Problem::BadFlag),
            },
            "t" => match parse_go_duration(v) {
                Ok(d) => {
                    let t = SimTime::from_micros(d.as_micros() as u64);
                    if t > MAX_T {
                        notice(k, v, Problem::TimeTooLate);
                        link.t = Some(MAX_T);
                    } else {
                        link.t = Some(t);
                    }
                }
                Err(e) => notice(k, v, Problem::BadTime(e.to_string())),
            },
            "actions" => {
                for part in v.split(',').filter(|p| !p.trim().is_empty()) {
                    match parse_action(part) {
                        Ok(a) if a.at > MAX_T => notice(k, part, Problem::TimeTooLate),
                        Ok(a) => link.actions.push(a),
                        Err(e) => notice(k, part, Problem::BadAction(e.to_string())),
                    }
                }
                crate::sim::action::sort_by_time(&mut link.actions);
            }
            "speed" => match SPEED_LABELS.iter().position(|s| *s == v.trim_end_matches(['x', '×'])) {
                Some(i) => link.speed = Some(i),
                None => notice(k, v, Problem::BadSpeed),
            },
            "theme" => match v.as_str() {
                "light" => link.theme = Some(Theme::Light),
                "dark" => link.theme = Some(Theme::Dark),
                _ => notice(k, v, Problem::BadTheme),
            },
            "lang" => match Lang::from_code(v) {
                Some(l) => link.lang = Some(l),
                None => notice(k, v, Problem::BadLang),
            },
            "origin" => match valid_origin(v) {
                Some(o) => link.origin = Some(o),
                None => notice(k, v, Problem::BadOrigin),
            },
            "k8s" => match Profile::parse(v) {
                Some(p) => link.profile = p,
                None => notice(k, v, Problem::BadProfile),
            },
            "nodes" => match v.trim().parse::<i64>() {
                Ok(n) if (MIN_FLEET as i64..=MAX_FLEET as i64).contains(&n) => link.nodes = Some(n as usize),
                Ok(n) => {
                    let used = n.clamp(MIN_FLEET as i64, MAX_FLEET as i64) as usize;
                    link.nodes = Some(used);
                    notice(k, v, Problem::NodesOutOfRange { used });
                }
                Err(_) => notice(k, v, Problem::BadNodes),
            },
            _ => notice(k, v, Problem::UnknownParam),
        }
    }
    if let Some(v) = step_text {
        // A story's steps are counted once it is read (the page clamps the step then).
        let count = if link.story.is_some() { i64::MAX as usize } else { link.chapter.scenario().steps.len() };
        match v.trim().parse::<i64>() {
            Ok(n) if (1..=count as i64).contains(&n) => link.step = Some(n as usize),
            Ok(n) => {
                let used = n.clamp(1, count as i64) as usize;
                link.step = Some(used);
                notice("step", &v, Problem::StepOutOfRange { used });
            }
            Err(_) => notice("step", &v, Problem::BadStep),
        }
    }
    // A story's fleet is known once it is read (the page checks it then).
    if link.story.is_none()
        && !link.chapter.is_fleet()
        && let Some(n) = link.nodes.take()
    {
        notices.push(Notice { param: "nodes".into(), value: n.to_string(), problem: Problem::NodesNotAFleet });
    }
    if grace_text.is_some() || critical_text.is_some() {
        match shutdown_periods(grace_text.as_deref(), critical_text.as_deref()) {
            Ok(p) => link.shutdown = Some(p),
            Err((param, value, why)) => {
                notices.push(Notice { param: param.into(), value: shorten(&value), problem: Problem::BadShutdown(why) })
            }
        }
    }
    if let Some(v) = progress_text {
        // A story's questions are counted once it is read ([`Progress::fit`]); until then each
        // character of the text (up to a story's longest list) is one.
        let count = match link.story {
            Some(_) => v.chars().count().min(MAX_STORY_PROGRESS),
            None => quiz::questions(link.chapter).len(),
        };
        let (progress, ok) = Progress::parse(&v, count);
        if !ok {
            notices.push(Notice { param: "progress".into(), value: shorten(&v), problem: Problem::BadProgress });
        }
        link.progress = progress.to_param().is_some().then_some(progress);
    }
    (link, notices)
}

/// The two shutdown settings as Go durations (a missing one is `0s`, the kubelet's default),
/// validated as the kubelet validates them; or the parameter at fault, its value and why.
pub fn shutdown_periods(
    grace: Option<&str>,
    critical: Option<&str>,
) -> Result<ShutdownPeriods, (&'static str, String, String)> {
    // Through the table of settings: the kubelet's two fields, then the pair checked together.
    let mut settings = Settings::default();
    for (param, text) in [("shutdownGracePeriod", grace), ("shutdownGracePeriodCriticalPods", critical)] {
        let text = text.map(str::trim).filter(|t| !t.is_empty()).unwrap_or("0s");
        settings.set(Component::Kubelet.name(), param, text).map_err(|e| {
            // A duration the parser refuses is the one refusal possible here (the names are
            // the table's, and any duration but a negative one is in range).
            let why = match e {
                SettingError::BadValue { detail: Some(detail), .. } => detail,
                _ => format!("invalid duration \"{text}\""),
            };
            (param, text.to_string(), why)
        })?;
    }
    settings.check().map_err(|e| {
        let (name, why) = match e {
            SettingError::Refused { name, why, .. } => (name, why),
            _ => ("shutdownGracePeriod", String::new()),
        };
        let text = if name == "shutdownGracePeriod" { grace } else { critical };
        (name, text.unwrap_or("0s").to_string(), why)
    })?;
    Ok(settings.shutdown)
}

/// An origin as `Window.origin` reports it (`https://host[:port]`), or `None`.
fn valid_origin(s: &str) -> Option<String> {
    let s = s.strip_suffix('/').unwrap_or(s);
    let rest = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://"))?;
    let ok = !rest.is_empty()
        && rest.len() <= 253
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b':' || b == b'[' || b == b']');
    ok.then(|| s.to_string())
}

/// The canonical query string for a link (without `?`), with only what differs from defaults.
pub fn to_query(link: &Link) -> String {
    let mut parts = vec![match &link.story {
        Some(id) => format!("story={id}"),
        None => format!("chapter={}", link.chapter.id()),
    }];
    if let Some(s) = link.step {
        parts.push(format!("step={s}"));
    }
    if !link.actions.is_empty() {
        parts.push(format!("actions={}", encode(&format_actions(&link.actions))));
    }
    if let Some(t) = link.t {
        parts.push(format!("t={}", encode(&format_go_duration(t.since_start()))));
    }
    if let Some(a) = link.autoplay {
        parts.push(format!("autoplay={}", u8::from(a)));
    }
    if let Some(s) = link.speed {
        parts.push(format!("speed={}", SPEED_LABELS[s]));
    }
    if link.profile != Profile::default() {
        parts.push(format!("k8s={}", link.profile.as_str()));
    }
    // The fleet chapter's default size goes without saying; a story's fleet has a size of its own.
    match link.nodes {
        Some(n) if n != DEFAULT_FLEET || link.story.is_some() => parts.push(format!("nodes={n}")),
        _ => {}
    }
    if let Some(p) = &link.shutdown {
        parts.push(format!("shutdownGracePeriod={}", encode(&format_go_duration(p.grace))));
        parts.push(format!("shutdownGracePeriodCriticalPods={}", encode(&format_go_duration(p.critical))));
    }
    if link.embed {
        parts.push("embed=1".into());
    }
    match link.theme {
        Some(Theme::Light) => parts.push("theme=light".into()),
        Some(Theme::Dark) => parts.push("theme=dark".into()),
        None => {}
    }
    if let Some(l) = link.lang {
        parts.push(format!("lang={}", l.code()));
    }
    if let Some(o) = &link.origin {
        parts.push(format!("origin={}", encode(o)));
    }
    if link.quiz {
        parts.push("quiz=1".into());
    }
    if let Some(p) = link.progress.as_ref().and_then(Progress::to_param) {
        parts.push(format!("progress={}", encode(&p)));
    }
    parts.join("&")
}

/// The most answers a story link's `progress` is read for before the story is (its questions
/// are counted then).
const MAX_STORY_PROGRESS: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ActionKind;

    #[test]
    fn a_story_link_to_a_chapters_file_opens_the_chapter() {
        let (l, n) = parse("?story=maintenance&step=2", "");
        assert_eq!((l.story, l.chapter, l.step, n.len()), (None, Chapter::Maintenance, Some(2), 0));
    }

    #[test]
    fn reads_a_story_link() {
        let (l, n) = parse("?story=two-nodes-fail&step=12&quiz=1&progress=r", "");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(
            (l.story.as_deref(), l.step, l.quiz, l.progress.clone().and_then(|p| p.to_param())),
            (Some("two-nodes-fail"), Some(12), true, Some("r".to_string()))
        );
        assert!(to_query(&l).starts_with("story=two-nodes-fail&step=12"), "{}", to_query(&l));
        assert_eq!(parse(&format!("?{}", to_query(&l)), "").0, l);
        for bad in ["../index", "Two", "a/b", "", "-x", "x%2Fy"] {
            let (l, n) = parse(&format!("?story={bad}"), "");
            assert_eq!(l.story, None, "{bad}");
            assert_eq!(n[0].problem, Problem::BadStory, "{bad}");
        }
    }

    #[test]
    fn reads_and_validates_the_shutdown_periods() {
        let (l, n) = parse("?chapter=node-goes-away&shutdownGracePeriod=1m&shutdownGracePeriodCriticalPods=20s", "");
        assert!(n.is_empty(), "{n:?}");
        let p = l.shutdown.expect("set");
        assert_eq!((p.grace.as_secs(), p.critical.as_secs()), (60, 20));
        assert!(to_query(&l).ends_with("&shutdownGracePeriod=1m0s&shutdownGracePeriodCriticalPods=20s"));
        assert_eq!(parse(&format!("?{}", to_query(&l)), "").0, l);
        // Only one given: the other is the kubelet's default, 0s (graceful shutdown off when both are).
        let (l, _) = parse("?shutdownGracePeriod=45s", "");
        assert_eq!(l.shutdown.map(|p| p.critical.as_secs()), Some(0));
        for (query, param, why) in [
            (
                "?shutdownGracePeriod=10s&shutdownGracePeriodCriticalPods=30s",
                "shutdownGracePeriodCriticalPods",
                "invalid configuration: shutdownGracePeriodCriticalPods 30s must be <= shutdownGracePeriod 10s",
            ),
            (
                "?shutdownGracePeriod=500ms",
                "shutdownGracePeriod",
                "invalid configuration: shutdownGracePeriod 500ms must be either zero or otherwise >= 1 sec",
            ),
            ("?shutdownGracePeriod=soon", "shutdownGracePeriod", "invalid duration"),
        ] {
            let (l, n) = parse(query, "");
            assert_eq!(l.shutdown, None, "{query}");
            match &n[..] {
                [Notice { param: p, problem: Problem::BadShutdown(w), .. }] => {
                    assert_eq!(p, param, "{query}");
                    assert!(w.contains(why), "{query}: {w}");
                }
                other => panic!("{query}: {other:?}"),
            }
        }
    }

    #[test]
    fn reads_the_documented_forms() {
        let (l, n) = parse("?chapter=registration&step=4", "");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!((l.chapter, l.step, l.autoplay), (Chapter::Registration, Some(4), None));
        let (l, n) = parse("", "#step=4");
        assert!(n.is_empty());
        assert_eq!(l.step, Some(4));
        let (l, _) = parse("?chapter=node-failure&step=2&autoplay=0", "");
        assert_eq!((l.chapter, l.step, l.autoplay), (Chapter::NodeFailure, Some(2), Some(false)));
        let (l, n) = parse("", "#scheme=cluster-node-failure&step=3");
        assert!(n.is_empty());
        assert_eq!((l.chapter, l.step), (Chapter::NodeFailure, Some(3)));
        let (l, _) = parse("", "#scheme=cluster-node-restart&step=1");
        assert_eq!(l.chapter, Chapter::KubeletRestart);
        let (l, n) = parse("?chapter=registration&actions=kill-kubelet@5m,start-kubelet@8m&t=6m30s", "");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(l.actions.len(), 2);
        assert_eq!(l.actions[0].kind, ActionKind::KillKubelet);
        assert_eq!(l.t, Some(SimTime::from_secs(390)));
    }

    #[test]
    fn bad_values_fall_back_with_a_notice() {
        let (l, n) = parse("?chapter=nope&step=99&autoplay=maybe&t=soon&speed=3&theme=pink&lang=xx", "");
        assert_eq!(l.chapter, Chapter::Registration);
        assert_eq!(l.step, Some(6));
        assert_eq!(l.autoplay, None);
        assert_eq!(l.t, None);
        let problems: Vec<&Problem> = n.iter().map(|n| &n.problem).collect();
        assert!(problems.contains(&&Problem::UnknownChapter));
        assert!(problems.contains(&&Problem::StepOutOfRange { used: 6 }));
        assert!(problems.contains(&&Problem::BadFlag));
        assert!(problems.iter().any(|p| matches!(p, Problem::BadTime(_))));
        assert!(problems.contains(&&Problem::BadSpeed));
        assert!(problems.contains(&&Problem::BadTheme));
        assert!(problems.contains(&&Problem::BadLang));
        let (l, n) = parse("?step=-3", "");
        assert_eq!(l.step, Some(1));
        assert_eq!(n[0].problem, Problem::StepOutOfRange { used: 1 });
        let (_, n) = parse("?step=four", "");
        assert_eq!(n[0].problem, Problem::BadStep);
    }

    #[test]
    fn reads_the_fleet_size() {
        let (l, n) = parse("?chapter=zone-outage&nodes=1000&actions=cut-nodes:eu-west-1b/5@2m", "");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!((l.chapter, l.nodes), (Chapter::ZoneOutage, Some(1000)));
        assert_eq!(to_query(&l), "chapter=zone-outage&actions=cut-nodes:eu-west-1b%2F5@2m0s&nodes=1000");
        let (l, n) = parse("?chapter=zone-outage&nodes=5000", "");
        assert_eq!((l.nodes, &n[0].problem), (Some(1000), &Problem::NodesOutOfRange { used: 1000 }));
        let (l, n) = parse("?chapter=zone-outage&nodes=2", "");
        assert_eq!((l.nodes, &n[0].problem), (Some(3), &Problem::NodesOutOfRange { used: 3 }));
        let (l, n) = parse("?chapter=zone-outage&nodes=lots", "");
        assert_eq!((l.nodes, &n[0].problem), (None, &Problem::BadNodes));
        // A chapter that is not a fleet: said, and dropped from the address.
        let (l, n) = parse("?nodes=30&chapter=registration", "");
        assert_eq!((l.nodes, n.len(), &n[0].problem, n[0].value.as_str()), (None, 1, &Problem::NodesNotAFleet, "30"));
        assert!(!to_query(&l).contains("nodes="));
        assert!(!to_query(&Link::default()).contains("nodes="));
        let (l, _) = parse("?chapter=zone-outage&nodes=150", "");
        assert!(!to_query(&l).contains("nodes="), "the chapter's default");
        // A story's fleet: any size given is kept, its default being the story's own.
        let (l, _) = parse("?story=my-fleet&nodes=150", "");
        assert_eq!((l.nodes, to_query(&l).contains("&nodes=150")), (Some(150), true));
    }

    #[test]
    fn keeps_good_actions_and_drops_bad_ones() {
        let (l, n) = parse("?actions=kill-kubelet@1m,explode@2m,start-kubelet@3m", "");
        assert_eq!(l.actions.len(), 2);
        assert_eq!(n.len(), 1);
        assert!(matches!(n[0].problem, Problem::BadAction(_)));
        assert_eq!(n[0].value, "explode@2m");
    }

    #[test]
    fn hostile_values_are_shortened_text() {
        let long = "x".repeat(10_000);
        let (_, n) = parse(&format!("?chapter=<script>alert(1)</script>&zzz={long}"), "");
        assert_eq!(n.len(), 2);
        assert_eq!(n[0].value, "<script>alert(1)</script>");
        assert!(n[1].value.chars().count() <= SHOWN_VALUE + 1);
        let (_, n) = parse("?chapter=%E2%9C%93%ZZ%", "");
        assert_eq!(n[0].value, "✓%ZZ%");
    }

    #[test]
    fn repeated_parameters_keep_the_first() {
        let (l, n) = parse("?chapter=node-failure&chapter=registration", "");
        assert_eq!(l.chapter, Chapter::NodeFailure);
        assert_eq!(n[0].problem, Problem::Repeated);
    }

    #[test]
    fn fragment_overrides_query() {
        let (l, n) = parse("?chapter=registration&step=2", "#step=5");
        assert!(n.is_empty());
        assert_eq!(l.step, Some(5));
    }

    #[test]
    fn round_trips_through_the_canonical_query() {
        let (l, _) = parse(
            "?chapter=kubelet-restart&actions=cut-network:node-2@1m,restore-network:node-2@3m&t=2m30s&speed=10&k8s=1.31&embed=1&theme=dark&lang=ja&origin=https://docs.example&quiz=1&progress=rw-",
            "",
        );
        let q = to_query(&l);
        let (again, n) = parse(&q, "");
        assert!(n.is_empty(), "{q}: {n:?}");
        assert_eq!(again, l);
        assert!(q.contains("actions=cut-network:node-2@1m0s,restore-network:node-2@3m0s"), "{q}");
    }

    #[test]
    fn reads_question_mode_and_its_progress() {
        let (l, n) = parse("?chapter=node-failure&quiz=1&progress=r-w", "");
        assert!(n.is_empty(), "{n:?}");
        assert!(l.quiz);
        assert_eq!(l.progress.as_ref().and_then(Progress::to_param).as_deref(), Some("r-w--"));
        let (l, n) = parse("?chapter=registration&quiz=yes&progress=rrrrrrr", "");
        assert!(!l.quiz);
        assert_eq!(l.progress.as_ref().map(Progress::answered), Some(3));
        let problems: Vec<&Problem> = n.iter().map(|n| &n.problem).collect();
        assert_eq!(problems, [&Problem::BadFlag, &Problem::BadProgress]);
        let (l, n) = parse("?progress=%3Cb%3E", "");
        assert_eq!(l.progress, None);
        assert_eq!((n[0].problem.clone(), n[0].value.as_str()), (Problem::BadProgress, "<b>"));
    }

    #[test]
    fn origins_must_be_web_origins() {
        assert_eq!(valid_origin("https://docs.example"), Some("https://docs.example".into()));
        assert_eq!(valid_origin("http://127.0.0.1:8080/"), Some("http://127.0.0.1:8080".into()));
        for bad in ["javascript:alert(1)", "https://", "docs.example", "https://a b", "*"] {
            assert_eq!(valid_origin(bad), None, "{bad}");
        }
    }
}
