//! A chapter's timeline together with what the page derives from it whenever it changes.

use std::time::Duration;

use crate::link;
use crate::quiz::Derived;
use crate::sim::{
    Action, Config, DEFAULT_FLEET, ForkError, Head, Request, Scenario, SimTime, Snapshot, StepSearch, StepTime,
    Timeline,
};
use crate::story::Questions;
use crate::view::fleet::ControllerLines;
use crate::view::fleet_index::FleetIndex;
use crate::view::stories::Loaded;
use crate::view::told::Told;
use crate::view::track::{Track, TrackBuilder};
use crate::view::zonechart::{ChartBuilder, ZoneChart};

/// How far past the playhead the timeline is kept computed.
const LOOKAHEAD: Duration = Duration::from_secs(120);

/// How far past the playhead a progressive timeline is kept computed (the background keeps it
/// further ahead).
const PROGRESSIVE_LOOKAHEAD: Duration = Duration::from_secs(10);

/// How much further a progressive timeline is computed before what it derives from the whole log
/// (its significant moments, its questions) is derived again: sooner when a step is found, which
/// is looked for at every stretch.
const STEPS_EVERY: Duration = Duration::from_secs(60);

/// How long past the chapter's story (or the reader's last action) playback runs.
const AFTERWORD: Duration = Duration::from_secs(180);

/// A chapter's timeline and what is derived from it when it changes.
pub struct Session {
    pub timeline: Timeline,
    /// Each step's lead-in start and moment (`None`: the reader's actions changed the story and
    /// it did not happen).
    pub steps: Vec<Option<StepTime>>,
    /// Where the search for each step stands: a stretch reads only the records it added.
    step_search: StepSearch,
    /// Significant moments (steps, events, inputs, non-routine requests), sorted; playback slows
    /// down before each.
    pub significant: Vec<SimTime>,
    /// The chapter's questions as this timeline answers them (question mode). A progressive
    /// timeline derives them only while the reader is in question mode ([`Session::ask`]), at
    /// each stretch: deriving reads the whole log, tens of milliseconds for a thousand nodes in
    /// the page, a long task if it came on top of a stretch while the reader plays.
    pub quiz: Vec<Option<Derived>>,
    /// Whose questions [`Session::quiz`] derives: the chapter's, a story's, or none.
    pub questions: Option<Questions<'static>>,
    /// Question mode is on.
    asking: bool,
    /// How far the timeline was computed when the questions were last derived.
    quiz_at: Option<SimTime>,
    /// Computed a stretch at a time (a fleet, long to compute): [`Session::ensure`] computes only
    /// what the playhead needs, and the page computes the rest with [`Session::advance`] after
    /// it shows. Otherwise the whole story is computed at once.
    pub progressive: bool,
    /// The fleet's size and the story's own, when the link tells it at another size.
    pub resized: Option<(usize, usize)>,
    /// What the fleet view and the Node pickers read every frame, kept up to the timeline's
    /// horizon.
    pub fleet: FleetIndex,
    /// The fleet's index of kube-controller-manager's lines (its log pane, its zones' states),
    /// kept up to the timeline's horizon.
    pub lines: ControllerLines,
    /// The fleet's chart, read a stretch of the log at a time ([`Session::zone_chart`]).
    chart: ChartBuilder,
    /// The timeline's track, read a stretch of the log at a time ([`Session::track`]).
    track: Option<TrackBuilder>,
    /// The log's significant moments (events, inputs, non-routine requests), sorted, read up to
    /// `scanned` (how many events, inputs and requests): each stretch reads only what it added.
    log_moments: Vec<SimTime>,
    scanned: (usize, usize, usize),
    /// How far the timeline was computed when the steps, significant moments and questions were
    /// last derived (a progressive timeline derives them once per stretch).
    steps_at: SimTime,
}

impl Session {
    /// Wraps a timeline, with its chapter's questions.
    pub fn new(timeline: Timeline) -> Session {
        let questions = timeline.chapter().map(Questions::Chapter);
        Session::with_questions(timeline, questions)
    }

    /// What the link tells (its chapter, or `story`, the story read for it), with its actions,
    /// nothing computed yet: the page's session, and the still view's.
    pub fn for_link(link: &link::Link, story: Option<&'static Loaded>) -> Session {
        Session::plan(link, story).session()
    }

    /// What [`Session::for_link`] makes its session of: the scenario at the link's size and its
    /// configuration, the world not built yet. The page makes the two in tasks of their own (a
    /// thousand machines' scenario, then their world).
    pub fn plan(link: &link::Link, story: Option<&'static Loaded>) -> Plan {
        let written = match story {
            Some(l) => l.story.scenario.machines.len(),
            None => DEFAULT_FLEET,
        };
        let (scenario, config) = match story {
            // A story says its own Kubernetes version and settings; the link's shutdown periods
            // (the page's own setting) go over them.
            // A story's fleet at the size the link asks, else as written.
            Some(l) => (
                link.nodes.map_or_else(|| l.story.scenario.clone(), |n| l.story.scenario.resized(n)),
                l.story.config.clone().with_shutdown(link.shutdown),
            ),
            None => {
                let nodes = link.nodes.unwrap_or(DEFAULT_FLEET);
                let config = Config { profile: link.profile, nodes, ..Config::default() }.with_shutdown(link.shutdown);
                (link.chapter.scenario_for(nodes), config)
            }
        };
        let resized = link.nodes.filter(|n| scenario.fleet && *n != written).map(|n| (n, written));
        Plan {
            scenario,
            config,
            actions: link.actions.clone(),
            questions: Told::of(link.chapter, story).questions(),
            resized,
        }
    }

    /// Wraps a timeline whose questions are `questions`.
    pub fn with_questions(timeline: Timeline, questions: Option<Questions<'static>>) -> Session {
        let mut s = Session {
            timeline,
            steps: Vec::new(),
            step_search: StepSearch::default(),
            significant: Vec::new(),
            log_moments: Vec::new(),
            scanned: (0, 0, 0),
            quiz: Vec::new(),
            questions,
            asking: false,
            quiz_at: None,
            progressive: false,
            resized: None,
            fleet: FleetIndex::default(),
            lines: ControllerLines::default(),
            chart: ChartBuilder::default(),
            track: None,
            steps_at: SimTime::ZERO,
        };
        s.refresh();
        s
    }

    /// Where playback stops by itself.
    pub fn end(&self) -> SimTime {
        let story = SimTime::ZERO + self.timeline.scenario().duration;
        let last_action = self.timeline.actions().last().map(|a| a.at + AFTERWORD).unwrap_or(SimTime::ZERO);
        story.max(last_action).min(link::MAX_T)
    }

    /// How far the timeline is computed when it is complete: just past where playback stops.
    fn full(&self) -> SimTime {
        self.end() + Duration::from_secs(1)
    }

    /// Whether the timeline is computed as far as playback can go.
    pub fn complete(&self) -> bool {
        self.timeline.horizon() >= self.full()
    }

    /// Computes the timeline `by` further toward where it is complete (no further). Returns
    /// whether it is complete now, and whether the steps found changed; what is derived from the
    /// whole log is derived again once per [`STEPS_EVERY`] of simulated time, when a step is
    /// found, and at the end.
    pub fn advance(&mut self, by: Duration) -> (bool, bool) {
        self.advance_within(by, usize::MAX, &mut || true)
    }

    /// [`Session::advance`], stopping sooner once the log has gained `records` records or
    /// `more` says no ([`Timeline::run_until_within`]): the page's background computation asks
    /// for a little at a time, so that no task of it is long even where a simulated second of a
    /// fleet is busy.
    pub fn advance_within(&mut self, by: Duration, records: usize, more: &mut dyn FnMut() -> bool) -> (bool, bool) {
        let full = self.full();
        if self.timeline.horizon() >= full {
            return (true, false);
        }
        self.compute_within((self.timeline.horizon() + by).min(full), records, more);
        // The steps are searched at every call (each search reads only the records added since
        // the last), so a step is known as soon as it is computed; the rest, which reads the
        // whole log, is derived once per stretch of simulated time, when a step is found, and at
        // the end.
        let complete = self.complete();
        let found = self.step_search.resolve(self.timeline.scenario(), self.timeline.log());
        if !complete && found == self.steps && self.timeline.horizon() < self.steps_at + STEPS_EVERY {
            return (false, false);
        }
        let before = std::mem::take(&mut self.steps);
        self.refresh();
        (complete, before != self.steps)
    }

    /// Computes the timeline toward `to`, stopping once the log has gained `records` records or
    /// `more` says no ([`Timeline::run_until_within`]; returns whether it reached `to`), and
    /// reads what it gained into what the fleet's stage reads of the log: its index and, in the
    /// fleet chapter, its chart; and into the track's ticks. Read a piece at a time, the whole
    /// log never has to be read in one task (the chart of a thousand nodes' first three minutes
    /// is tens of milliseconds).
    pub fn compute_within(&mut self, to: SimTime, records: usize, more: &mut dyn FnMut() -> bool) -> bool {
        let reached = self.timeline.run_until_within(to, records, more);
        self.extend_indexes();
        self.extend_track();
        if self.timeline.scenario().fleet {
            self.extend_chart(&crate::sim::ZONES);
        }
        reached
    }

    /// Reads what the log gained into the fleet's indexes.
    fn extend_indexes(&mut self) {
        self.fleet.extend(self.timeline.log());
        if self.timeline.scenario().fleet {
            self.lines.extend(self.timeline.log());
        }
    }

    /// Step `n`'s times (1-based), computing further until it is found or the timeline is
    /// complete.
    pub fn step_time(&mut self, n: usize) -> Option<StepTime> {
        loop {
            if let Some(Some(t)) = self.steps.get(n.wrapping_sub(1)) {
                return Some(*t);
            }
            if self.advance(LOOKAHEAD).0 {
                return self.steps.get(n.wrapping_sub(1)).copied().flatten();
            }
        }
    }

    /// Whether step `n` (1-based) is found, or cannot be any more (the timeline is complete):
    /// [`Session::step_time`] then computes nothing.
    pub fn step_settled(&self, n: usize) -> bool {
        self.steps.get(n.wrapping_sub(1)).is_some_and(Option::is_some) || self.complete()
    }

    /// Whether step `i` (0-based) happens or may still happen (not computed that far yet).
    pub fn step_reachable(&self, i: usize) -> bool {
        self.steps.get(i).is_some_and(Option::is_some) || !self.complete()
    }

    /// Makes sure the timeline is computed past `t` (and, unless it is progressive, to the end).
    pub fn ensure(&mut self, t: SimTime) -> bool {
        match self.target(t) {
            Some(to) => {
                self.compute_within(to, usize::MAX, &mut || true);
                self.refresh();
                true
            }
            None if self.steps_at < self.wanted(t).min(self.full()) => {
                // Computed in the background, not derived yet: derive it before the playhead is
                // there.
                self.refresh();
                true
            }
            None => false,
        }
    }

    /// How far the timeline must be computed for `t`: a progressive one a little past it, any
    /// other past it and to the end.
    fn wanted(&self, t: SimTime) -> SimTime {
        if self.progressive { t + PROGRESSIVE_LOOKAHEAD } else { (t + LOOKAHEAD).max(self.full()) }
    }

    /// How far [`Session::ensure`] computes the timeline for `t`, or `None` when it is computed
    /// far enough already. The page's start computes up to it in slices (`app::boot`), then
    /// calls [`Session::refresh`].
    pub fn target(&self, t: SimTime) -> Option<SimTime> {
        let want = self.wanted(t);
        // A whole further stretch at once: the page re-derives what depends on the log (the
        // track, step moments) once per stretch, not on every frame of fast playback. A
        // progressive timeline computes only what is wanted: the rest comes in the background.
        let stretch = if self.progressive { Duration::ZERO } else { LOOKAHEAD };
        (self.timeline.horizon() < want).then(|| (want + stretch).min(link::MAX_T + Duration::from_secs(1)).max(want))
    }

    /// Applies a reader's action (forking the timeline) and derives everything again.
    pub fn fork(&mut self, action: Action) -> Result<(), ForkError> {
        let result = self.timeline.fork(action);
        self.fleet = FleetIndex::default();
        self.lines = ControllerLines::default();
        self.chart = ChartBuilder::default();
        self.track = None;
        self.quiz_at = None;
        // The log was cut back to the action: its moments are read again.
        self.log_moments.clear();
        self.scanned = (0, 0, 0);
        self.refresh();
        result
    }

    /// Recomputes what is derived from the timeline (after it grew).
    pub fn refresh(&mut self) {
        self.extend_indexes();
        self.steps_at = self.timeline.horizon();
        self.steps = self.step_search.resolve(self.timeline.scenario(), self.timeline.log());
        let log = self.timeline.log();
        let (events, inputs, requests) = self.scanned;
        let mut added: Vec<SimTime> = log.events.iter_from(events).map(|e| e.t).collect();
        added.extend(log.inputs.get(inputs..).unwrap_or_default().iter().map(|i| i.t));
        added.extend(log.requests.heads_from(requests).filter(|r| !is_routine_head(*r)).map(|r| r.t));
        added.sort_unstable();
        let resort = matches!((self.log_moments.last(), added.first()), (Some(a), Some(b)) if b < a);
        self.log_moments.extend(added);
        if resort {
            self.log_moments.sort_unstable();
        }
        self.log_moments.dedup();
        self.scanned = (log.events.len(), log.inputs.len(), log.requests.len());
        // The log's moments are sorted already: the few steps' starts are placed among them.
        let mut moments = self.log_moments.clone();
        for t in self.steps.iter().flatten().map(|s| s.start) {
            if let Err(at) = moments.binary_search(&t) {
                moments.insert(at, t);
            }
        }
        self.significant = moments;
        if !self.progressive || self.asking {
            self.derive_quiz();
        }
    }

    fn derive_quiz(&mut self) {
        if self.quiz_at != Some(self.steps_at) {
            self.quiz = self.questions.map(|q| q.derive_all(&self.timeline)).unwrap_or_default();
            self.quiz_at = Some(self.steps_at);
        }
    }

    /// Question mode on or off. On, the questions are derived now if they are not up to where
    /// the timeline is computed; returns whether they were (what reads them must read again).
    pub fn ask(&mut self, on: bool) -> bool {
        self.asking = on;
        let stale = on && self.quiz_at != Some(self.steps_at);
        if stale {
            self.derive_quiz();
        }
        stale
    }

    /// The first significant moment strictly after `t`. While the timeline is still being
    /// computed, where its moments were last derived counts as one: playback never skips past
    /// what is not known yet.
    pub fn next_significant(&self, t: SimTime) -> Option<SimTime> {
        let i = self.significant.partition_point(|m| *m <= t);
        let next = self.significant.get(i).copied();
        if self.complete() {
            return next;
        }
        // Where the significant moments (and the questions) were last derived.
        let known = self.steps_at;
        Some(next.map_or(known, |m| m.min(known))).filter(|m| *m > t)
    }

    /// The fleet's chart of `zones` as far as the timeline is computed, reading only what the
    /// log gained since the last call.
    pub fn zone_chart(&mut self, zones: &[&str]) -> ZoneChart {
        self.extend_chart(zones).clone()
    }

    /// The chart of `zones` read up to the horizon (read anew if the story's end moved).
    fn extend_chart(&mut self, zones: &[&str]) -> &ZoneChart {
        let end = self.end();
        if !self.chart.is_for(zones, end) {
            self.chart = ChartBuilder::new(zones, end, self.timeline.settings());
        }
        self.chart.extend(self.timeline.log(), self.timeline.horizon())
    }

    /// The timeline's track as far as it is computed, reading only what the log gained since the
    /// last call.
    pub fn track(&mut self) -> Track {
        self.extend_track();
        self.track.as_ref().map(|b| b.track(&self.steps)).unwrap_or_default()
    }

    /// Reads what the log gained into the track's ticks (read anew if the story's end moved).
    fn extend_track(&mut self) {
        let end = self.end();
        let builder = match &mut self.track {
            Some(b) if b.is_for(end) => b,
            _ => self.track.insert(TrackBuilder::new(end)),
        };
        builder.extend(self.timeline.log());
    }

    /// The cluster at `t`.
    pub fn at(&self, t: SimTime) -> Snapshot<'_> {
        self.timeline.at(t)
    }
}

/// A session's scenario and configuration, before its world is built ([`Session::plan`]).
pub struct Plan {
    scenario: Scenario,
    config: Config,
    actions: Vec<Action>,
    questions: Questions<'static>,
    resized: Option<(usize, usize)>,
}

impl Plan {
    /// The session: its world built, nothing computed yet.
    pub fn session(self) -> Session {
        let timeline = Timeline::from_scenario(self.scenario, self.config, &self.actions);
        let mut session = Session::with_questions(timeline, Some(self.questions));
        // A fleet takes long to compute: the page shows first and computes the rest after.
        session.progressive = session.timeline.scenario().fleet;
        session.resized = self.resized;
        session
    }
}

/// Whether a request is a routine heartbeat (a successful Lease renewal, or a kubelet reading a
/// Lease or Node): playback may fast-forward through those.
pub fn is_routine(r: &Request) -> bool {
    is_routine_head(r.head())
}

/// [`is_routine`] of a request at a glance (the log's compact rows answer it without building
/// the request).
pub fn is_routine_head(r: Head<'_>) -> bool {
    use crate::sim::{Method, Outcome};
    matches!(r.outcome, Outcome::Code(200))
        && (r.method == Method::Get || (r.method == Method::Put && crate::sim::contains(r.path, "/leases/")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{ActionKind, Chapter, Config};

    /// A story's fleet is told at the size the link asks (`&nodes=`), else at its own.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_story_s_fleet_is_told_at_the_link_s_size() {
        let text = include_str!("../../stories/zone-outage.yaml");
        let loaded = Loaded::keep(crate::story::load(text, None).expect("the chapter's file"));
        let mut link = link::Link { story: Some("zone-outage".into()), nodes: Some(30), ..link::Link::default() };
        let machines = |link: &link::Link| Session::for_link(link, Some(loaded)).timeline.scenario().machines.len();
        assert_eq!(machines(&link), 30);
        link.nodes = None;
        assert_eq!(machines(&link), 150);
    }

    /// A fleet too small for a zone to be partly disrupted (three Nodes or fewer in the dark
    /// zone: it goes from Normal straight to FullDisruption) does not reach step 3, and says its
    /// size is why; the next steps are the dark zone's own, not another zone's passing state.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_small_fleet_misses_the_partial_disruption_and_knows_why() {
        let found = |nodes: usize| {
            let (link, _) = link::parse(&format!("?chapter=zone-outage&nodes={nodes}"), "");
            let mut s = Session::for_link(&link, None);
            while !s.advance(std::time::Duration::from_secs(120)).0 {}
            (s.steps.iter().map(Option::is_some).collect::<Vec<_>>(), s.resized)
        };
        for nodes in [5, 10] {
            assert_eq!(found(nodes), (vec![true, true, false, true, true, true], Some((nodes, 150))), "{nodes}");
        }
        assert_eq!(found(11), (vec![true; 6], Some((11, 150))));
        assert_eq!(found(150).1, None);
    }

    /// The significant moments of a session's log and steps, read from the whole log at once.
    fn significant_of(s: &Session) -> Vec<SimTime> {
        let log = s.timeline.log();
        let mut moments: Vec<SimTime> = s.steps.iter().flatten().map(|s| s.start).collect();
        moments.extend(log.events.iter().map(|e| e.t));
        moments.extend(log.inputs.iter().map(|i| i.t));
        moments.extend(log.requests.iter().filter(|r| !is_routine(r)).map(|r| r.t));
        moments.sort_unstable();
        moments.dedup();
        moments
    }

    fn fleet(progressive: bool) -> Session {
        let mut s = Session::new(Timeline::new(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() }));
        s.progressive = progressive;
        s.ensure(SimTime::ZERO);
        s
    }

    #[test]
    fn a_progressive_session_computes_what_is_wanted_then_the_rest_to_the_same_story() {
        let whole = fleet(false);
        assert!(whole.complete());
        let mut s = fleet(true);
        assert!(!s.complete() && s.timeline.horizon() <= SimTime::ZERO + PROGRESSIVE_LOOKAHEAD);
        // Steps not computed yet may still happen.
        assert!(s.steps[3].is_none() && s.step_reachable(3));
        // A linked step is computed up to, and found where the whole story has it.
        assert_eq!(s.step_time(3), whole.steps[2]);
        assert!(!s.complete());
        let mut stretches = 0;
        while !s.advance(Duration::from_secs(60)).0 {
            stretches += 1;
            // The page reads the track at each stretch, as far as the log goes.
            s.track();
        }
        assert!(stretches > 3 && s.complete());
        assert_eq!(s.steps, whole.steps);
        assert_eq!(s.significant, whole.significant);
        assert_eq!(s.significant, significant_of(&s));
        // The track, read a stretch at a time, is the one of the whole log.
        assert_eq!(s.track(), Track::of(&whole));
        // The questions are derived when asked.
        s.ask(true);
        assert_eq!(s.quiz, whole.quiz);
        // The fleet's indexes and chart, extended stretch by stretch, are those of the whole log.
        assert_eq!(s.fleet, FleetIndex::of(s.timeline.log()));
        assert_eq!(s.lines, ControllerLines::of(s.timeline.log()));
        let zones = crate::sim::ZONES;
        assert_eq!(
            s.zone_chart(&zones),
            ZoneChart::build(s.timeline.log(), &zones, s.end(), s.timeline.horizon(), s.timeline.settings())
        );
        // Complete: nothing more to compute.
        assert_eq!(s.advance(Duration::from_secs(60)), (true, false));
    }

    /// Out of question mode, a progressive timeline never derives its questions; in question
    /// mode at every stretch, and at once when the mode is turned on.
    #[test]
    fn a_progressive_timeline_derives_its_questions_only_when_asked() {
        let whole = fleet(false);
        assert!(whole.quiz.iter().any(Option::is_some));
        let mut s = fleet(true);
        s.advance(Duration::from_secs(600));
        assert!(!s.complete() && s.quiz.iter().all(Option::is_none), "{:?}", s.quiz);
        assert!(s.ask(true), "derived now");
        assert!(!s.ask(true), "already up to date");
        let asked = s.quiz.clone();
        assert!(asked.iter().any(Option::is_some));
        s.ask(false);
        while !s.advance(Duration::from_secs(60)).0 {}
        assert_eq!(s.quiz, asked, "not derived again out of question mode, even when complete");
        assert!(s.ask(true), "derived when asked");
        assert_eq!(s.quiz, whole.quiz);
        assert!(!s.ask(true), "derived already");
    }

    /// A fork cuts the log back: the fleet's index is made anew, not extended past the cut.
    #[test]
    fn a_fork_indexes_the_forked_timeline() {
        let mut s = fleet(true);
        s.advance(Duration::from_secs(300));
        let before = s.fleet.clone();
        let action =
            Action { machine: Some("eu-west-1b".into()), ..Action::new(ActionKind::CutZone, SimTime::from_secs(60)) };
        s.fork(action).expect("a zone to cut");
        s.ensure(SimTime::from_secs(200));
        assert_eq!(s.fleet, FleetIndex::of(s.timeline.log()));
        assert_eq!(s.lines, ControllerLines::of(s.timeline.log()));
        assert_ne!(s.fleet, before);
        // The significant moments, read again from the cut, are those of the forked log.
        assert_eq!(s.significant, significant_of(&s));
        assert!(s.significant.contains(&SimTime::from_secs(60)), "the action's moment");
    }

    /// The page's start computes a chapter in pieces, letting the browser in between
    /// (`app::boot`): up to [`Session::target`], then [`Session::refresh`]. That must be the
    /// timeline [`Session::ensure`] computes in one go.
    #[test]
    fn computing_up_to_the_target_in_slices_is_ensure() {
        for chapter in Chapter::ALL.into_iter().filter(|c| !c.is_fleet()) {
            let config = Config::default();
            let mut whole = Session::new(Timeline::with_actions(chapter, config.clone(), &[]));
            assert!(whole.ensure(SimTime::ZERO));
            let mut sliced = Session::new(Timeline::with_actions(chapter, config, &[]));
            let to = sliced.target(SimTime::ZERO).expect("nothing is computed yet");
            let mut pieces = 0;
            while !sliced.compute_within(to, 17, &mut || true) {
                pieces += 1;
            }
            assert!(pieces > 3, "{chapter:?}: {pieces} pieces");
            sliced.refresh();
            assert_eq!(sliced.timeline.horizon(), whole.timeline.horizon(), "{chapter:?}");
            assert_eq!(sliced.target(SimTime::ZERO), None, "{chapter:?}: computed far enough");
            assert_eq!(sliced.steps, whole.steps, "{chapter:?}");
            assert_eq!(sliced.significant, whole.significant, "{chapter:?}");
            let (a, b) = (sliced.timeline.log(), whole.timeline.log());
            assert_eq!(a.requests.len(), b.requests.len(), "{chapter:?}");
            assert_eq!(a.events.len(), b.events.len(), "{chapter:?}");
            assert_eq!(a.changes().len(), b.changes().len(), "{chapter:?}");
            // Further on, the same.
            let later = whole.end() + Duration::from_secs(60);
            assert_eq!(sliced.target(later), whole.target(later), "{chapter:?}");
        }
    }
}
