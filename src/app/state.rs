//! The page's state: one [`Session`] (the chapter's timeline, kept in a `StoredValue`) and a few
//! signals (playhead, playback, language, highlight, notices). Components derive everything else
//! with memos; nothing here is cluster state of its own: the cluster is whatever the timeline says
//! at the playhead.

use leptos::prelude::*;

use crate::i18n::{ChapterText, Lang};
use crate::link::{self, Link, Notice, Theme};
use crate::playback::Playback;
use crate::sim::{Action, ActionKind, Chapter, ForkError, Refusal, ShutdownPeriods, SimTime};
use crate::story::Questions;
use crate::view::notice::notice_text;
use crate::view::quiz::QuizState;
use crate::view::session::Session;
use crate::view::stories::Loaded;
use crate::view::told::Told;
use crate::view::track;

/// A notice shown at the top of the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UiNotice {
    pub id: u64,
    pub text: String,
}

/// The handle every component gets from context. It is `Copy`: all fields are arena handles.
#[derive(Clone, Copy)]
pub struct AppCtx {
    pub session: StoredValue<Session>,
    /// Bumped whenever the timeline is another (a fork, a reset, another chapter or story).
    pub rev: RwSignal<u64>,
    /// Bumped whenever the timeline is computed further, or what is derived from its whole log
    /// (the steps found, the questions) is derived again. What the cluster is at a moment the
    /// timeline is computed past does not change then: see [`AppCtx::with_session_at`].
    pub grown: RwSignal<u64>,
    pub playback: RwSignal<Playback>,
    /// The effective playback rate of the last frame (for animation lengths) and whether it was
    /// fast-forwarding.
    pub rate: RwSignal<(f64, bool)>,
    pub chapter: RwSignal<Chapter>,
    /// The story of the site's told instead of the chapter (`?story=ID`), while one is.
    pub story: RwSignal<Option<&'static Loaded>>,
    pub lang: RwSignal<Lang>,
    pub theme: RwSignal<Option<Theme>>,
    /// The stage element narration points at, while hovered or focused.
    pub highlight: RwSignal<Option<&'static str>>,
    /// The machine sandbox actions are aimed at (an index into the snapshot's machines).
    pub machine: RwSignal<usize>,
    /// Whether the reader chose that machine (the sandbox's picker, the fleet): until then the
    /// inspector follows the Node the story is about.
    pub machine_picked: RwSignal<bool>,
    pub notices: RwSignal<Vec<UiNotice>>,
    pub reduced_motion: RwSignal<bool>,
    pub embed: bool,
    /// The embedding page's origin (`&origin=`): the embed talks only to it, and the page's own
    /// URL keeps it, so a reload keeps the rule.
    pub origin: Option<&'static str>,
    pub profile: crate::sim::Profile,
    /// A fleet's size, when the link gives one (`&nodes=`).
    pub nodes: Option<usize>,
    /// Every kubelet's shutdown periods, when the reader set them (`&shutdownGracePeriod=`).
    pub shutdown: RwSignal<Option<ShutdownPeriods>>,
    /// Question mode: on or off, the reader's answers, the question on screen.
    pub quiz: RwSignal<QuizState>,
    next_notice: StoredValue<u64>,
}

/// Whether the link plays at once: its `autoplay`, else when it names a step and no time.
pub fn plays(link: &Link) -> bool {
    link.autoplay.unwrap_or(link.step.is_some() && link.t.is_none())
}

/// Where the link starts the playhead: its `t`, else its step (step 1 when it names none) at
/// its moment when the link is paused, at its lead-in's start when it plays (steps are found in
/// the computed log: compute the chapter first; a progressive one is computed on to the step),
/// else the beginning.
pub fn start_time(link: &Link, session: &mut Session) -> SimTime {
    let step = || {
        let at = session.step_time(link.step.unwrap_or(1))?;
        Some(if plays(link) { at.start } else { at.moment })
    };
    link.t.or_else(step).unwrap_or(SimTime::ZERO)
}

impl AppCtx {
    /// The context, from inside a component.
    pub fn get() -> AppCtx {
        expect_context::<AppCtx>()
    }

    /// Builds the state from a parsed link, computing the chapter at once (see
    /// [`super::boot`] for the page's start, which computes it in slices first).
    pub fn new(link: &Link, lang: Lang, reduced_motion: bool) -> AppCtx {
        let mut session = Session::for_link(link, None);
        session.ensure(SimTime::ZERO);
        let start = start_time(link, &mut session);
        session.ensure(start);
        AppCtx::from_session(link, None, lang, reduced_motion, session)
    }

    /// Builds the state from a parsed link and its session, computed past the link's moment.
    pub fn from_session(
        link: &Link,
        story: Option<&'static Loaded>,
        lang: Lang,
        reduced_motion: bool,
        mut session: Session,
    ) -> AppCtx {
        let start = start_time(link, &mut session);
        session.ensure(start);
        let mut playback = Playback::new(start, session.end());
        if let Some(speed) = link.speed {
            playback.speed = speed;
        }
        playback.playing = plays(link);
        AppCtx {
            session: StoredValue::new(session),
            rev: RwSignal::new(0),
            grown: RwSignal::new(0),
            playback: RwSignal::new(playback),
            rate: RwSignal::new((1.0, false)),
            chapter: RwSignal::new(link.chapter),
            story: RwSignal::new(story),
            lang: RwSignal::new(lang),
            theme: RwSignal::new(link.theme),
            highlight: RwSignal::new(None),
            machine: RwSignal::new(0),
            machine_picked: RwSignal::new(false),
            notices: RwSignal::new(Vec::new()),
            reduced_motion: RwSignal::new(reduced_motion),
            embed: link.embed,
            // One short string for the page's lifetime.
            origin: link.origin.clone().map(|o| &*Box::leak(o.into_boxed_str())),
            profile: link.profile,
            nodes: link.nodes,
            shutdown: RwSignal::new(link.shutdown),
            quiz: RwSignal::new(QuizState::from_link(link, Told::of(link.chapter, story).questions())),
            next_notice: StoredValue::new(0),
        }
    }

    /// What the page tells, the chapter or the story (tracked).
    pub fn told(&self) -> Told {
        Told::of(self.chapter.get(), self.story.get())
    }

    /// The words of what the page tells, the chapter's or the story's, in `lang` (tracked).
    pub fn texts(&self, lang: Lang) -> &'static ChapterText {
        self.told().text(lang)
    }

    /// The questions of what the page tells, the chapter's or the story's (tracked).
    pub fn questions(&self) -> Questions<'static> {
        self.told().questions()
    }

    /// The same, untracked.
    pub fn questions_untracked(&self) -> Questions<'static> {
        Told::of(self.chapter.get_untracked(), self.story.get_untracked()).questions()
    }

    /// Whether the page tells a fleet: the fleet chapter, or a story of a fleet (tracked).
    pub fn is_fleet(&self) -> bool {
        self.told().is_fleet()
    }

    /// The id of what the page tells: the chapter's or the story's (untracked).
    pub fn told_id(&self) -> &'static str {
        Told::of(self.chapter.get_untracked(), self.story.get_untracked()).id()
    }

    /// The playhead (tracked).
    pub fn t(&self) -> SimTime {
        self.playback.with(|p| p.t)
    }

    /// Runs `f` on the session, tracking the timeline: another one, or the same computed
    /// further.
    pub fn with_session<U>(&self, f: impl FnOnce(&Session) -> U) -> U {
        self.track_timeline();
        self.session.with_value(f)
    }

    /// Runs `f` on the session, tracking only another timeline, for what reads the cluster at
    /// the playhead (or before it), and the reader's actions: the playhead moves only to where
    /// the timeline is computed past ([`AppCtx::seek`], the play loop), and what is computed
    /// further, in the background, comes after it. A fleet's thousand Nodes are not read again
    /// each time the story is computed further.
    pub fn with_session_at<U>(&self, f: impl FnOnce(&Session) -> U) -> U {
        self.rev.track();
        self.session.with_value(f)
    }

    /// Tracks the timeline: another one, or the same computed further.
    pub fn track_timeline(&self) {
        self.rev.track();
        self.grown.track();
    }

    /// Shows a notice.
    pub fn notify(&self, text: String) {
        let id = self.next_notice.with_value(|n| *n);
        self.next_notice.set_value(id + 1);
        self.notices.update(|n| {
            n.push(UiNotice { id, text });
            // Keep the list short: the newest matter.
            if n.len() > 6 {
                n.remove(0);
            }
        });
    }

    /// Shows the notices a link produced.
    pub fn notify_link(&self, notices: &[Notice]) {
        let lang = self.lang.get_untracked();
        for n in notices {
            self.notify(notice_text(lang, n));
        }
    }

    /// Moves the playhead, computing the timeline further if needed.
    pub fn seek(&self, t: SimTime) {
        let grew = self.session.try_update_value(|s| s.ensure(t)).unwrap_or(false);
        if grew {
            self.grown.update(|r| *r += 1);
        }
        let end = self.session.with_value(Session::end);
        self.playback.update(|p| {
            p.end = end;
            p.seek(t);
        });
    }

    /// Plays from step `n` (1-based), from its lead-in's start, if it happens in this timeline.
    pub fn play_step(&self, n: usize) -> bool {
        let was = self.playback.with_untracked(|p| p.playing);
        self.playback.update(|p| p.playing = true);
        let found = self.seek_step(n);
        if !found {
            self.playback.update(|p| p.playing = was);
        }
        found
    }

    /// Seeks to step `n` (1-based), if it happens in this timeline: paused, to its moment;
    /// playing, to its lead-in's start.
    pub fn seek_step(&self, n: usize) -> bool {
        let horizon = || self.session.with_value(|s| s.timeline.horizon());
        let before = horizon();
        let at = self.session.try_update_value(|s| s.step_time(n)).flatten();
        if horizon() != before {
            self.grown.update(|r| *r += 1);
        }
        match at {
            Some(at) => {
                let playing = self.playback.with_untracked(|p| p.playing);
                self.seek(track::StepTarget { n, at }.time(playing));
                true
            }
            None => false,
        }
    }

    /// Where playing from step 1 starts (Replay, Play at the end): its lead-in, or the start of
    /// the timeline.
    pub fn restart_point(&self) -> SimTime {
        self.session.with_value(|s| s.steps.iter().flatten().next().map(|s| s.start)).unwrap_or(SimTime::ZERO)
    }

    /// The step the playhead is in (1-based; 0 before the first): the last one whose lead-in
    /// has started ([`track::current_step`]).
    /// Whether the reader's actions changed the story by the playhead (`view::account`).
    pub fn departed(&self) -> bool {
        let t = self.t();
        self.with_session(|s| crate::view::account::departure(&s.timeline, t).is_some())
    }

    /// Why a step of the story does not happen in this timeline: the fleet's size, when the link
    /// tells the story at another size and the reader took no action; else the reader's actions.
    pub fn not_reached(&self, lang: Lang) -> String {
        let resized = self.with_session_at(|s| s.resized.filter(|_| s.timeline.actions().is_empty()));
        match resized {
            Some((nodes, written)) => {
                lang.fill(crate::i18n::Key::StepNotAtThisSize, &[&nodes.to_string(), &written.to_string()])
            }
            None => lang.text(crate::i18n::Key::StepNotReached).to_string(),
        }
    }

    pub fn current_step(&self) -> usize {
        let t = self.t();
        self.with_session(|s| track::current_step(&s.steps, t))
    }

    /// The reader chose machine `index` for the sandbox (and the inspector).
    pub fn pick_machine(&self, index: usize) {
        self.machine.set(index);
        self.machine_picked.set(true);
    }

    /// Applies a sandbox action at the playhead (forking the timeline), or explains why not.
    pub fn act(&self, kind: ActionKind, machine: Option<String>) -> Result<(), Refusal> {
        let at = self.playback.get_untracked().t;
        // Actions land on whole milliseconds so their URL notation is exact.
        let at = SimTime::from_millis(at.as_millis());
        let action = Action { at, kind, machine };
        let result: Result<(), ForkError> = self
            .session
            .try_update_value(|s| {
                let r = s.fork(action);
                s.ensure(at);
                r
            })
            .unwrap_or(Ok(()));
        self.rev.update(|r| *r += 1);
        let end = self.session.with_value(Session::end);
        self.playback.update(|p| p.end = end);
        result.map_err(|e| e.0)
    }

    /// Tells `chapter` from its start, with or without the reader's actions.
    pub fn load(&self, chapter: Chapter, actions: &[Action]) {
        self.start(chapter, None, actions);
    }

    /// Tells a story of the site's from its start, with or without the reader's actions.
    pub fn load_story(&self, story: &'static Loaded, actions: &[Action]) {
        if story.questions().is_empty() {
            self.quiz.update(|q| q.enabled = false);
        }
        self.start(self.chapter.get_untracked(), Some(story), actions);
    }

    /// Starts what the page tells (the chapter, or the story) again, with or without the
    /// reader's actions.
    pub fn restart(&self, actions: &[Action]) {
        self.start(self.chapter.get_untracked(), self.story.get_untracked(), actions);
    }

    fn start(&self, chapter: Chapter, story: Option<&'static Loaded>, actions: &[Action]) {
        let link = Link {
            chapter,
            actions: actions.to_vec(),
            profile: self.profile,
            nodes: self.nodes,
            shutdown: self.shutdown.get_untracked(),
            ..Link::default()
        };
        let mut session = Session::for_link(&link, story);
        session.ensure(SimTime::ZERO);
        let end = session.end();
        self.session.set_value(session);
        self.chapter.set(chapter);
        self.story.set(story);
        self.machine.set(0);
        self.machine_picked.set(false);
        self.rev.update(|r| *r += 1);
        self.playback.update(|p| {
            p.end = end;
            p.seek(SimTime::ZERO);
            p.playing = false;
        });
    }

    /// Sets every kubelet's shutdown periods: the chapter runs again from the start with the
    /// reader's actions (a kubelet's configuration is read when it starts), and the playhead
    /// stays where it was.
    pub fn set_shutdown(&self, periods: ShutdownPeriods) {
        let t = self.playback.get_untracked().t;
        let actions = self.session.with_value(|s| s.timeline.actions());
        self.shutdown.set(Some(periods));
        self.restart(&actions);
        self.seek(t);
    }

    /// The link that reproduces what the reader sees now.
    pub fn link(&self) -> Link {
        let actions = self.session.with_value(|s| s.timeline.actions());
        let playback = self.playback.get_untracked();
        let chapter = self.chapter.get_untracked();
        let (quiz, progress) = self.quiz.with_untracked(|q| (q.enabled, q.progress(self.questions_untracked())));
        Link {
            chapter,
            story: self.story.get_untracked().map(|l| l.story.id.clone()),
            step: None,
            autoplay: Some(playback.playing),
            t: Some(SimTime::from_millis(playback.t.as_millis())),
            actions,
            speed: (playback.speed != crate::playback::DEFAULT_SPEED).then_some(playback.speed),
            embed: self.embed,
            theme: self.theme.get_untracked(),
            lang: Some(self.lang.get_untracked()),
            origin: self.origin.map(str::to_owned),
            profile: self.profile,
            nodes: self.nodes,
            quiz,
            progress: progress.to_param().is_some().then_some(progress),
            shutdown: self.shutdown.get_untracked(),
        }
    }

    /// A "Play from step N" link for the current chapter.
    pub fn step_link(&self, n: usize) -> String {
        let link = Link {
            chapter: self.chapter.get_untracked(),
            story: self.story.get_untracked().map(|l| l.story.id.clone()),
            step: Some(n),
            lang: Some(self.lang.get_untracked()),
            profile: self.profile,
            nodes: self.nodes,
            shutdown: self.shutdown.get_untracked(),
            quiz: self.quiz.with_untracked(|q| q.enabled),
            ..Link::default()
        };
        format!("?{}", link::to_query(&link))
    }
}
