//! The timeline track: what the scrub bar under the stage shows, and how the playback controls
//! move through time. Plain data and functions, tested natively; `app::timeline` only renders
//! them.
//!
//! * [`Track`]: the chapter's step markers and one tick per request and per Kubernetes Event,
//!   positioned as fractions of the timeline (`0.0` = T+00:00, `1.0` = its end). On long
//!   timelines, ticks that would fall on the same spot are merged, so a row never holds more
//!   than [`MAX_TICKS`] of them, whatever the length of the timeline.
//! * Step navigation ([`next_step`], [`previous_step`]) and the slider's keys ([`slider_key`]).
//! * Keyboard shortcuts ([`shortcut`]): which key does what, given where the focus is.
//! * Marker layout ([`spread`]): markers closer than their own width are pushed apart.

use std::time::Duration;

use crate::sim::{Actor, Head, Log, Outcome, SimTime, StepTime};
use crate::view::session::{Session, is_routine_head};

/// At most this many ticks per row.
pub const MAX_TICKS: usize = 800;

/// Within this long after a step's moment, "Previous step" goes to the step before it rather than
/// back to the start of the current one (as a media player's "previous track" does).
pub const PREVIOUS_GRACE: Duration = Duration::from_secs(1);

/// The width of the SVG coordinate system the request ticks are drawn in (it is stretched to the
/// track's width).
pub const VIEW_WIDTH: f64 = 1000.0;

/// What a request tick looks like: the kind of sender, or a routine heartbeat, or a timeout.
/// Listed from the least to the most notable: a merged tick shows its most notable request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RequestClass {
    /// A successful Lease renewal or a read: the heartbeat in the background.
    Routine,
    Kubelet,
    Controller,
    Scheduler,
    /// A person with kubectl (the reader's sandbox actions).
    Client,
    /// A Pod's eviction accepted (`POST pods/NAME/eviction`, 201).
    Eviction,
    /// A Pod's eviction refused by its PodDisruptionBudget (429).
    EvictionRefused,
    /// No answer: the kubelet's network to the API server is cut.
    Timeout,
}

impl RequestClass {
    /// Every class, in drawing order (the notable ones last, on top).
    pub const ALL: [RequestClass; 8] = [
        RequestClass::Routine,
        RequestClass::Kubelet,
        RequestClass::Controller,
        RequestClass::Scheduler,
        RequestClass::Client,
        RequestClass::Eviction,
        RequestClass::EvictionRefused,
        RequestClass::Timeout,
    ];

    /// The class of a request (at a glance: the log's compact rows give it without building it).
    pub fn of(r: Head<'_>) -> RequestClass {
        if r.outcome == Outcome::Timeout {
            return RequestClass::Timeout;
        }
        if is_routine_head(r) {
            return RequestClass::Routine;
        }
        if r.path.ends_with("/eviction") {
            return if r.outcome == Outcome::Code(429) {
                RequestClass::EvictionRefused
            } else {
                RequestClass::Eviction
            };
        }
        match r.actor {
            Actor::Kubelet(_) | Actor::KubeletBootstrap(_) => RequestClass::Kubelet,
            Actor::Scheduler => RequestClass::Scheduler,
            Actor::Kubectl | Actor::KubectlAsNode(_) | Actor::KubectlStderr => RequestClass::Client,
            Actor::DaemonSetController | Actor::DisruptionController => RequestClass::Controller,
            Actor::NodeLifecycleController
            | Actor::TaintEvictionController
            | Actor::ReplicaSetController
            | Actor::NodeIpamController
            | Actor::TtlController
            | Actor::PodGcController
            | Actor::GarbageCollector
            | Actor::StatefulSetController
            | Actor::AttachDetachController
            | Actor::CsiAttacher
            | Actor::PersistentVolumeController
            | Actor::CsiProvisioner
            | Actor::CsrApprovingController
            | Actor::CsrSigningController => RequestClass::Controller,
        }
    }

    /// The CSS class of its ticks (`tick-kubelet`, ...).
    pub fn css(self) -> &'static str {
        match self {
            RequestClass::Routine => "tick-routine",
            RequestClass::Kubelet => "tick-kubelet",
            RequestClass::Controller => "tick-controller",
            RequestClass::Scheduler => "tick-scheduler",
            RequestClass::Client => "tick-client",
            RequestClass::Eviction => "tick-eviction",
            RequestClass::EvictionRefused => "tick-refused",
            RequestClass::Timeout => "tick-timeout",
        }
    }
}

/// What an event tick looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventClass {
    Normal,
    Warning,
}

impl EventClass {
    /// The class of an Event by its `type`.
    pub fn of(type_: &str) -> EventClass {
        if type_ == "Warning" { EventClass::Warning } else { EventClass::Normal }
    }

    /// The CSS class of its ticks.
    pub fn css(self) -> &'static str {
        match self {
            EventClass::Normal => "event-normal",
            EventClass::Warning => "event-warning",
        }
    }
}

/// One tick (possibly several merged) on a row of the track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tick<C> {
    /// Where, as a fraction of the timeline (0..=1).
    pub pos: f64,
    /// The most notable class among the merged entries.
    pub class: C,
    /// How many entries the tick stands for.
    pub count: u32,
}

/// A chapter step's marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Marker {
    /// The step's number (1-based).
    pub n: usize,
    /// Its moment, if it happens in this timeline.
    pub t: Option<SimTime>,
    /// Its position as a fraction of the timeline; unreached steps sit at the end.
    pub pos: f64,
}

/// Everything the track shows except the playhead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Track {
    /// The end of the timeline (the right edge).
    pub end: SimTime,
    pub markers: Vec<Marker>,
    pub requests: Vec<Tick<RequestClass>>,
    pub events: Vec<Tick<EventClass>>,
}

impl Track {
    /// The track of a session, up to its end, read from the whole log at once (the page reads
    /// it a stretch at a time: [`Session::track`]).
    pub fn of(session: &Session) -> Track {
        let mut builder = TrackBuilder::new(session.end());
        builder.extend(session.timeline.log());
        builder.track(&session.steps)
    }

    /// The track from its parts: entries after `end` are left out, and each row is merged into at
    /// most `max_ticks` ticks.
    pub fn build(
        end: SimTime,
        steps: &[Option<StepTime>],
        requests: impl IntoIterator<Item = (SimTime, RequestClass)>,
        events: impl IntoIterator<Item = (SimTime, EventClass)>,
        max_ticks: usize,
    ) -> Track {
        Track {
            end,
            markers: markers(end, steps),
            requests: merge(end, requests, max_ticks),
            events: merge(end, events, max_ticks),
        }
    }
}

/// The steps' markers on a timeline ending at `end`, at their moments; a step without a moment
/// sits at the end.
fn markers(end: SimTime, steps: &[Option<StepTime>]) -> Vec<Marker> {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let t = s.map(|s| s.moment);
            Marker { n: i + 1, t, pos: t.map_or(1.0, |t| fraction(t, end)) }
        })
        .collect()
}

/// Merges entries into at most `max_ticks` ticks: the timeline is cut into that many equal
/// buckets, and each bucket with entries becomes one tick at its first most notable entry.
pub fn merge<C: Copy + Ord>(
    end: SimTime,
    entries: impl IntoIterator<Item = (SimTime, C)>,
    max_ticks: usize,
) -> Vec<Tick<C>> {
    let mut ticks = Ticks::new(max_ticks);
    for (t, class) in entries {
        ticks.add(end, t, class);
    }
    ticks.ticks()
}

/// One row's ticks as [`merge`] makes them, entry by entry.
#[derive(Clone, Debug)]
struct Ticks<C> {
    buckets: usize,
    /// Each bucket with entries, and its tick.
    out: Vec<(usize, Tick<C>)>,
}

impl<C: Copy + Ord> Ticks<C> {
    fn new(max_ticks: usize) -> Ticks<C> {
        Ticks { buckets: max_ticks.max(1), out: Vec::new() }
    }

    fn add(&mut self, end: SimTime, t: SimTime, class: C) {
        if t > end {
            return;
        }
        let pos = fraction(t, end);
        let bucket = ((pos * self.buckets as f64) as usize).min(self.buckets - 1);
        match self.out.iter_mut().rev().find(|(b, _)| *b == bucket) {
            Some((_, tick)) => {
                tick.count += 1;
                if class > tick.class {
                    tick.class = class;
                    tick.pos = pos;
                }
            }
            None => self.out.push((bucket, Tick { pos, class, count: 1 })),
        }
    }

    fn ticks(&self) -> Vec<Tick<C>> {
        // Logs are in time order, so buckets come in order; sort anyway for other callers.
        let mut out = self.out.clone();
        out.sort_by_key(|(b, _)| *b);
        out.into_iter().map(|(_, t)| t).collect()
    }
}

/// A timeline's track, read from its log as the log grows: each call to [`TrackBuilder::extend`]
/// reads only the requests and events the log gained since the last (a fleet's log holds
/// hundreds of thousands of requests, and the page re-derives its track at every stretch).
#[derive(Clone, Debug)]
pub struct TrackBuilder {
    end: SimTime,
    requests: Ticks<RequestClass>,
    events: Ticks<EventClass>,
    /// How many requests and events were read.
    read: (usize, usize),
}

impl TrackBuilder {
    /// An empty track for a timeline ending at `end`.
    pub fn new(end: SimTime) -> TrackBuilder {
        TrackBuilder { end, requests: Ticks::new(MAX_TICKS), events: Ticks::new(MAX_TICKS), read: (0, 0) }
    }

    /// Whether it is the track of a timeline ending at `end`.
    pub fn is_for(&self, end: SimTime) -> bool {
        self.end == end
    }

    /// Reads what `log` gained since the last call.
    pub fn extend(&mut self, log: &Log) {
        let (requests, events) = self.read;
        for r in log.requests.heads_from(requests) {
            self.requests.add(self.end, r.t, RequestClass::of(r));
        }
        for e in log.events.iter_from(events) {
            self.events.add(self.end, e.t, EventClass::of(e.type_()));
        }
        self.read = (log.requests.len(), log.events.len());
    }

    /// The track, with the steps' markers.
    pub fn track(&self, steps: &[Option<StepTime>]) -> Track {
        Track {
            end: self.end,
            markers: markers(self.end, steps),
            requests: self.requests.ticks(),
            events: self.events.ticks(),
        }
    }
}

/// Where `t` is on a timeline ending at `end`, as a fraction (0..=1).
pub fn fraction(t: SimTime, end: SimTime) -> f64 {
    if end == SimTime::ZERO {
        return 0.0;
    }
    (t.as_micros() as f64 / end.as_micros() as f64).clamp(0.0, 1.0)
}

/// The instant at a fraction of a timeline ending at `end`, on a whole millisecond.
pub fn time_at(fraction: f64, end: SimTime) -> SimTime {
    let f = if fraction.is_finite() { fraction.clamp(0.0, 1.0) } else { 0.0 };
    let ms = (end.as_millis() as f64 * f).round() as u64;
    SimTime::from_millis(ms).min(end)
}

/// The step the playhead is in (1-based, 0 before the first): the last step, by number, whose
/// lead-in has started. At a step's moment that step is the current one (a step starts after the
/// moment before it: `sim::scenario::resolve_steps`). Matches `AppCtx::current_step`.
pub fn current_step(steps: &[Option<StepTime>], t: SimTime) -> usize {
    crate::sim::scenario::current_step(steps, t)
}

/// Where a step move goes: step `n` (0: the start of the timeline) at its times. Paused, the
/// playhead goes to the moment; playing, to the start of its lead-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepTarget {
    pub n: usize,
    pub at: StepTime,
}

impl StepTarget {
    /// Where the playhead goes: the moment when paused, the lead-in's start when playing.
    pub fn time(self, playing: bool) -> SimTime {
        if playing { self.at.start } else { self.at.moment }
    }
}

fn target(i: usize, at: StepTime) -> StepTarget {
    StepTarget { n: i + 1, at }
}

/// Where "Next step" goes from `t`: the first step after the current one that happens in this
/// timeline.
pub fn next_step(steps: &[Option<StepTime>], t: SimTime) -> Option<StepTarget> {
    let current = current_step(steps, t);
    steps.iter().enumerate().skip(current).find_map(|(i, s)| s.map(|s| target(i, s)))
}

/// Where "Previous step" goes from `t`: back to the current step if the playhead is more than
/// [`PREVIOUS_GRACE`] past its moment, else to the step before (one with an earlier moment), or
/// to the start of the timeline before the first step. `None` at the very start.
pub fn previous_step(steps: &[Option<StepTime>], t: SimTime) -> Option<StepTarget> {
    let current = current_step(steps, t);
    if current > 0 {
        let at = steps[current - 1].expect("the current step has a moment");
        if t.saturating_since(at.moment) > PREVIOUS_GRACE {
            return Some(target(current - 1, at));
        }
        let before = steps[..current - 1].iter().enumerate().rev().find_map(|(i, s)| match s {
            Some(s) if s.moment < at.moment => Some(target(i, *s)),
            _ => None,
        });
        if before.is_some() {
            return before;
        }
    }
    let zero = StepTime { start: SimTime::ZERO, moment: SimTime::ZERO };
    (t > SimTime::ZERO).then_some(StepTarget { n: 0, at: zero })
}

/// Where a key pressed on the timeline slider moves the playhead: ←/↓ and →/↑ by a second
/// (with Shift, ten), Page Down/Page Up by a minute, Home and End to the ends. `None` for other
/// keys (they are left to the browser).
pub fn slider_key(key: &str, shift: bool, t: SimTime, end: SimTime) -> Option<SimTime> {
    let small = Duration::from_secs(if shift { 10 } else { 1 });
    let minute = Duration::from_secs(60);
    let to = match key {
        "ArrowLeft" | "ArrowDown" | "Left" | "Down" => t.saturating_sub(small),
        "ArrowRight" | "ArrowUp" | "Right" | "Up" => t + small,
        "PageDown" => t.saturating_sub(minute),
        "PageUp" => t + minute,
        "Home" => SimTime::ZERO,
        "End" => end,
        _ => return None,
    };
    Some(to.min(end))
}

/// A keyboard shortcut of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    PlayPause,
    PreviousStep,
    NextStep,
    Slower,
    Faster,
    /// Open or close the shortcut sheet.
    ToggleSheet,
    /// Close the shortcut sheet (if it is open).
    CloseSheet,
}

/// Where the focus is when a key is pressed, as far as shortcuts care.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Focus {
    /// In a text field, a select, or anything editable: every key belongs to it.
    pub editing: bool,
    /// On something Space activates (a button, a link, a checkbox): Space belongs to it.
    pub activates: bool,
    /// On a widget that moves with the arrow keys (the timeline slider, tabs, a radio group).
    pub arrows: bool,
    /// Inside a modal dialog (the shortcut sheet): only the keys that close it work.
    pub modal: bool,
}

/// The modifier keys held with a key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Ctrl, Alt or Meta: those combinations belong to the browser and the system.
    pub command: bool,
    /// Whether the key is repeating (held down).
    pub repeat: bool,
}

/// The shortcut a key (`KeyboardEvent.key`) stands for, given where the focus is.
pub fn shortcut(key: &str, modifiers: Modifiers, focus: Focus) -> Option<Shortcut> {
    if modifiers.command {
        return None;
    }
    let action = match key {
        " " | "Spacebar" => Shortcut::PlayPause,
        "ArrowLeft" | "Left" => Shortcut::PreviousStep,
        "ArrowRight" | "Right" => Shortcut::NextStep,
        "-" | "_" | "[" => Shortcut::Slower,
        "+" | "=" | "]" => Shortcut::Faster,
        "?" => Shortcut::ToggleSheet,
        "Escape" | "Esc" => Shortcut::CloseSheet,
        _ => return None,
    };
    if focus.modal {
        return matches!(action, Shortcut::ToggleSheet | Shortcut::CloseSheet).then_some(action);
    }
    if action == Shortcut::CloseSheet {
        return Some(action);
    }
    if focus.editing {
        return None;
    }
    let allowed = match action {
        // Holding Space would toggle many times a second.
        Shortcut::PlayPause => !focus.activates && !modifiers.repeat,
        Shortcut::PreviousStep | Shortcut::NextStep => !focus.arrows,
        Shortcut::ToggleSheet => !modifiers.repeat,
        Shortcut::Slower | Shortcut::Faster | Shortcut::CloseSheet => true,
    };
    allowed.then_some(action)
}

/// The SVG path drawing the ticks of one class as vertical lines from `y0` to `y1`, in a
/// coordinate system [`VIEW_WIDTH`] wide.
pub fn tick_path<C: Copy + PartialEq>(ticks: &[Tick<C>], class: C, y0: f64, y1: f64) -> String {
    let mut d = String::new();
    for t in ticks.iter().filter(|t| t.class == class) {
        if !d.is_empty() {
            d.push(' ');
        }
        d.push_str(&format!("M{:.1} {y0}V{y1}", t.pos * VIEW_WIDTH));
    }
    d
}

/// Spreads markers along a track `width` wide so that no two centres are closer than `size` and
/// none sticks out at either end, moving each as little as possible from where it wants to be.
/// `wanted` holds the centres in track order; the result keeps that order. When the markers do
/// not fit, they share the width evenly.
pub fn spread(wanted: &[f64], width: f64, size: f64) -> Vec<f64> {
    let n = wanted.len();
    if n == 0 {
        return Vec::new();
    }
    let size = size.min(width / n as f64);
    let (lo, hi) = (size / 2.0, (width - size / 2.0).max(size / 2.0));
    let mut x: Vec<f64> = wanted.iter().map(|w| w.clamp(lo, hi)).collect();
    for i in 1..n {
        x[i] = x[i].max(x[i - 1] + size);
    }
    if x[n - 1] > hi {
        x[n - 1] = hi;
        for i in (0..n - 1).rev() {
            x[i] = x[i].min(x[i + 1] - size);
        }
    }
    x
}

/// A place on the track for one step's mark, or for a group of neighbouring steps' marks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkSlot {
    /// The first and last markers it stands for (indices into the track's markers).
    pub first: usize,
    pub last: usize,
    /// Its centre, in the track's pixels.
    pub x: f64,
}

impl MarkSlot {
    /// Whether it stands for more than one step.
    pub fn is_group(&self) -> bool {
        self.last > self.first
    }
}

/// Lays out the marks of markers wanted at `wanted` (centres in track order) on a track `width`
/// wide, each `size` wide: spread apart as [`spread`] does while they fit, each pinned to its
/// moment; where they do not fit, the two neighbours whose moments are closest become one group
/// mark (standing between them), again and again, until the marks fit. A track not measured yet
/// (`width` 0) groups nothing.
pub fn lay_out_marks(wanted: &[f64], width: f64, size: f64) -> Vec<MarkSlot> {
    let mut groups: Vec<(usize, usize)> = (0..wanted.len()).map(|i| (i, i)).collect();
    let centre = |g: &(usize, usize)| (wanted[g.0] + wanted[g.1]) / 2.0;
    if width > 0.0 && size > 0.0 {
        let room = ((width / size).floor() as usize).max(1);
        while groups.len() > room {
            let gap = |i: usize| centre(&groups[i + 1]) - centre(&groups[i]);
            let k = (0..groups.len() - 1).min_by(|&a, &b| gap(a).total_cmp(&gap(b))).unwrap_or(0);
            groups[k].1 = groups[k + 1].1;
            groups.remove(k + 1);
        }
    }
    let xs = spread(&groups.iter().map(centre).collect::<Vec<_>>(), width, size);
    groups.into_iter().zip(xs).map(|((first, last), x)| MarkSlot { first, last, x }).collect()
}

/// A playback rate for people: `×2.5`-style numbers, whole above 10.
pub fn rate_label(rate: f64) -> String {
    if rate >= 10.0 {
        format!("{}", rate.round() as u64)
    } else {
        let r = (rate * 10.0).round() / 10.0;
        format!("{r}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, Timeline};

    fn s(v: u64) -> SimTime {
        SimTime::from_secs(v)
    }

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    /// A step whose lead-in starts at its moment.
    fn at(v: u64) -> Option<StepTime> {
        Some(StepTime { start: s(v), moment: s(v) })
    }

    /// A step with a lead-in from `start` to `moment` (seconds).
    fn lead(start: u64, moment: u64) -> Option<StepTime> {
        Some(StepTime { start: s(start), moment: s(moment) })
    }

    /// Step `n` (0: the start) and its moment, as a move reaches it.
    fn to(t: Option<StepTarget>) -> Option<(usize, SimTime)> {
        t.map(|t| (t.n, t.at.moment))
    }

    #[test]
    fn positions_are_fractions_of_the_timeline() {
        assert_eq!(fraction(s(30), s(120)), 0.25);
        assert_eq!(fraction(s(300), s(120)), 1.0);
        assert_eq!(fraction(s(3), SimTime::ZERO), 0.0);
        assert_eq!(time_at(0.25, s(120)), s(30));
        assert_eq!(time_at(-1.0, s(120)), SimTime::ZERO);
        assert_eq!(time_at(7.0, s(120)), s(120));
        assert_eq!(time_at(f64::NAN, s(120)), SimTime::ZERO);
        assert_eq!(time_at(1.0 / 3.0, s(1)), ms(333));
    }

    #[test]
    fn a_tick_per_entry_when_there_is_room() {
        use RequestClass::*;
        let ticks = merge(s(100), [(s(10), Kubelet), (s(20), Routine), (s(30), Timeout)], 800);
        assert_eq!(ticks.len(), 3);
        assert_eq!(ticks[0], Tick { pos: 0.1, class: Kubelet, count: 1 });
        assert_eq!(ticks[2].class, Timeout);
    }

    #[test]
    fn evictions_and_their_429s_have_ticks_of_their_own() {
        let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
        tl.run_until(s(300));
        let classes: Vec<RequestClass> = tl
            .log()
            .requests
            .iter()
            .filter(|r| r.path.ends_with("/eviction"))
            .map(|r| RequestClass::of(r.head()))
            .collect();
        use RequestClass::*;
        assert_eq!(classes, [Eviction, EvictionRefused, Eviction]);
        assert!(EvictionRefused > Client && Eviction > Client, "a merged tick shows the eviction");
    }

    #[test]
    fn entries_past_the_end_are_left_out() {
        let ticks = merge(s(100), [(s(100), EventClass::Normal), (ms(100_001), EventClass::Warning)], 800);
        assert_eq!(ticks.len(), 1);
        assert_eq!(ticks[0].pos, 1.0);
    }

    #[test]
    fn merged_ticks_show_the_most_notable_entry_and_count_them_all() {
        use RequestClass::*;
        // Ten buckets of 10 s: three entries in the second bucket.
        let ticks = merge(s(100), [(s(11), Routine), (s(13), Scheduler), (s(15), Kubelet), (s(50), Routine)], 10);
        assert_eq!(ticks.len(), 2);
        assert_eq!(ticks[0], Tick { pos: 0.13, class: Scheduler, count: 3 });
        assert_eq!(ticks[1].count, 1);
    }

    #[test]
    fn hours_of_timeline_stay_within_the_tick_budget() {
        // A Lease renewal every 10 s and a status report every 10 s for three hours.
        let end = s(3 * 3600);
        let entries =
            (0..3 * 360).flat_map(|i| [(s(i * 10), RequestClass::Routine), (s(i * 10 + 1), RequestClass::Kubelet)]);
        let ticks = merge(end, entries, MAX_TICKS);
        assert!(ticks.len() <= MAX_TICKS);
        assert_eq!(ticks.iter().map(|t| t.count).sum::<u32>(), 2 * 3 * 360);
        assert!(ticks.iter().all(|t| t.class == RequestClass::Kubelet));
        assert!(ticks.windows(2).all(|w| w[0].pos < w[1].pos));
    }

    #[test]
    fn markers_sit_at_their_moments_and_unreached_ones_at_the_end() {
        let track = Track::build(s(200), &[at(0), lead(48, 50), None], [], [], MAX_TICKS);
        assert_eq!(
            track.markers,
            vec![
                Marker { n: 1, t: Some(s(0)), pos: 0.0 },
                Marker { n: 2, t: Some(s(50)), pos: 0.25 },
                Marker { n: 3, t: None, pos: 1.0 },
            ]
        );
    }

    #[test]
    fn next_step_goes_to_the_following_step_that_happens() {
        let steps = [at(10), at(20), None, at(40)];
        assert_eq!(to(next_step(&steps, s(0))), Some((1, s(10))));
        assert_eq!(to(next_step(&steps, s(10))), Some((2, s(20))));
        assert_eq!(to(next_step(&steps, s(15))), Some((2, s(20))));
        // Step 3 did not happen in this timeline: skipped.
        assert_eq!(to(next_step(&steps, s(20))), Some((4, s(40))));
        assert_eq!(next_step(&steps, s(40)), None);
    }

    #[test]
    fn a_step_is_current_from_its_lead_in_and_a_move_goes_to_its_moment_or_its_start() {
        let steps = [at(10), lead(18, 20), lead(37, 40)];
        // In step 2's lead-in step 2 is the current one (the narration tells it as it happens);
        // at its moment, too.
        assert_eq!(current_step(&steps, ms(17_999)), 1);
        assert_eq!(current_step(&steps, s(18)), 2);
        assert_eq!(current_step(&steps, s(20)), 2);
        // From step 1's moment, "Next step" reaches step 2: paused at its moment, playing from
        // its lead-in; from there, step 3.
        let next = next_step(&steps, s(10)).unwrap();
        assert_eq!((next.n, next.time(false), next.time(true)), (2, s(20), s(18)));
        assert_eq!(next_step(&steps, s(18)).map(|t| t.n), Some(3));
        assert_eq!(next_step(&steps, s(20)).map(|t| t.n), Some(3));
        // From the lead-in or the moment, "Previous step" goes back to step 1; well past the
        // moment, back to step 2.
        assert_eq!(to(previous_step(&steps, s(18))), Some((1, s(10))));
        assert_eq!(to(previous_step(&steps, s(20))), Some((1, s(10))));
        assert_eq!(to(previous_step(&steps, s(25))), Some((2, s(20))));
        assert_eq!(previous_step(&steps, s(25)).unwrap().time(true), s(18));
    }

    #[test]
    fn steps_at_the_same_moment_count_as_one_place() {
        let steps = [at(0), at(0), at(8)];
        assert_eq!(current_step(&steps, s(0)), 2);
        assert_eq!(to(next_step(&steps, s(0))), Some((3, s(8))));
        assert_eq!(to(previous_step(&steps, s(8))), Some((2, s(0))));
        assert_eq!(previous_step(&steps, s(0)), None);
    }

    #[test]
    fn previous_step_restarts_the_current_one_or_goes_back_one() {
        let steps = [at(10), None, at(30), at(40)];
        // Just after step 4's moment: to step 3 (step 2 did not happen, so from 3 to 1).
        assert_eq!(to(previous_step(&steps, s(40))), Some((3, s(30))));
        assert_eq!(to(previous_step(&steps, ms(40_500))), Some((3, s(30))));
        // Well into step 4: back to its moment.
        assert_eq!(to(previous_step(&steps, s(45))), Some((4, s(40))));
        assert_eq!(to(previous_step(&steps, s(30))), Some((1, s(10))));
        // Before the first step: to the start; at the start: nowhere.
        assert_eq!(to(previous_step(&steps, s(10))), Some((0, SimTime::ZERO)));
        assert_eq!(to(previous_step(&steps, s(5))), Some((0, SimTime::ZERO)));
        assert_eq!(previous_step(&steps, SimTime::ZERO), None);
        assert_eq!(to(previous_step(&[None, None], s(5))), Some((0, SimTime::ZERO)));
    }

    #[test]
    fn slider_keys_move_by_seconds_and_minutes_within_the_timeline() {
        let (t, end) = (s(100), s(300));
        let cases = [
            ("ArrowLeft", false, Some(s(99))),
            ("ArrowRight", false, Some(s(101))),
            ("ArrowDown", true, Some(s(90))),
            ("ArrowUp", true, Some(s(110))),
            ("PageUp", false, Some(s(160))),
            ("PageDown", false, Some(s(40))),
            ("Home", false, Some(SimTime::ZERO)),
            ("End", false, Some(s(300))),
            ("Tab", false, None),
            (" ", false, None),
        ];
        for (key, shift, want) in cases {
            assert_eq!(slider_key(key, shift, t, end), want, "{key} shift={shift}");
        }
        assert_eq!(slider_key("PageUp", false, s(290), end), Some(end));
        assert_eq!(slider_key("ArrowLeft", true, s(5), end), Some(SimTime::ZERO));
    }

    #[test]
    fn shortcuts_respect_where_the_focus_is() {
        use Shortcut::*;
        let none = Modifiers::default();
        let page = Focus::default();
        let button = Focus { activates: true, ..Focus::default() };
        let slider = Focus { arrows: true, ..Focus::default() };
        let field = Focus { editing: true, activates: true, ..Focus::default() };
        let sheet = Focus { modal: true, activates: true, ..Focus::default() };
        let cases: &[(&str, Modifiers, Focus, Option<Shortcut>)] = &[
            (" ", none, page, Some(PlayPause)),
            // Space on a button clicks the button.
            (" ", none, button, None),
            (" ", none, slider, Some(PlayPause)),
            (" ", Modifiers { repeat: true, ..none }, page, None),
            ("ArrowLeft", none, page, Some(PreviousStep)),
            ("ArrowRight", none, button, Some(NextStep)),
            // The slider's arrows move time by seconds.
            ("ArrowRight", none, slider, None),
            ("-", none, page, Some(Slower)),
            ("[", none, button, Some(Slower)),
            ("+", none, page, Some(Faster)),
            ("]", none, slider, Some(Faster)),
            ("?", none, page, Some(ToggleSheet)),
            ("Escape", none, page, Some(CloseSheet)),
            // Typing in a field, or a chord, is not a shortcut.
            ("?", none, field, None),
            (" ", none, field, None),
            ("ArrowLeft", none, field, None),
            ("Escape", none, field, Some(CloseSheet)),
            ("+", Modifiers { command: true, ..none }, page, None),
            ("ArrowLeft", Modifiers { command: true, ..none }, page, None),
            // While the sheet is open, only the keys that close it.
            ("?", none, sheet, Some(ToggleSheet)),
            ("Escape", none, sheet, Some(CloseSheet)),
            (" ", none, sheet, None),
            ("ArrowRight", none, sheet, None),
            ("+", none, sheet, None),
            ("a", none, page, None),
        ];
        for (key, m, f, want) in cases {
            assert_eq!(shortcut(key, *m, *f), *want, "{key:?} {m:?} {f:?}");
        }
    }

    #[test]
    fn tick_paths_draw_one_line_per_tick_of_a_class() {
        use RequestClass::*;
        let ticks = [
            Tick { pos: 0.0, class: Kubelet, count: 1 },
            Tick { pos: 0.5, class: Routine, count: 1 },
            Tick { pos: 0.25, class: Kubelet, count: 2 },
        ];
        assert_eq!(tick_path(&ticks, Kubelet, 2.0, 18.0), "M0.0 2V18 M250.0 2V18");
        assert_eq!(tick_path(&ticks, Timeout, 0.0, 20.0), "");
    }

    #[test]
    fn marks_are_grouped_only_where_they_cannot_be_spread() {
        let at = |slots: &[MarkSlot]| slots.iter().map(|s| (s.first, s.last, s.x)).collect::<Vec<_>>();
        // Room for both: two marks, where they want to be.
        assert_eq!(at(&lay_out_marks(&[100.0, 300.0], 400.0, 44.0)), vec![(0, 0, 100.0), (1, 1, 300.0)]);
        // Close together but room to spread: spread, not grouped.
        assert_eq!(
            at(&lay_out_marks(&[100.0, 101.0, 102.0], 400.0, 44.0)),
            vec![(0, 0, 100.0), (1, 1, 144.0), (2, 2, 188.0)]
        );
        // Four marks, room for three: the two closest moments (1 and 2) share a mark between them.
        let slots = lay_out_marks(&[20.0, 200.0, 204.0, 380.0], 132.0, 44.0);
        assert_eq!(slots.iter().map(|s| (s.first, s.last)).collect::<Vec<_>>(), vec![(0, 0), (1, 2), (3, 3)]);
        assert!(slots[1].is_group() && !slots[0].is_group());
        assert!(slots.windows(2).all(|w| w[1].x - w[0].x >= 44.0 - 1e-9), "{slots:?}");
        // Ten marks on a phone's track: every mark (single or group) a 44 px target, none outside.
        let wanted: Vec<f64> =
            [0.05, 0.1, 0.12, 0.14, 0.16, 0.5, 0.52, 0.8, 0.81, 0.95].iter().map(|f| f * 342.0).collect();
        let slots = lay_out_marks(&wanted, 342.0, 44.0);
        assert_eq!(slots.len(), 7);
        assert_eq!(slots.iter().map(|s| s.last - s.first + 1).sum::<usize>(), 10, "every step has a mark");
        assert!(slots.windows(2).all(|w| w[1].x - w[0].x >= 44.0 - 1e-9 && w[1].first == w[0].last + 1));
        assert!(slots[0].x >= 22.0 && slots[6].x <= 342.0 - 22.0);
        // Not measured yet: nothing grouped.
        assert_eq!(lay_out_marks(&[0.0, 0.0, 0.0], 0.0, 44.0).len(), 3);
    }

    #[test]
    fn markers_are_spread_apart_and_kept_inside() {
        // Far apart: where they want to be.
        assert_eq!(spread(&[100.0, 300.0], 400.0, 24.0), vec![100.0, 300.0]);
        // Two at the start: pushed right, in order.
        assert_eq!(spread(&[0.0, 1.0, 200.0], 400.0, 24.0), vec![12.0, 36.0, 200.0]);
        // Crowded at the end: pushed left.
        assert_eq!(spread(&[390.0, 400.0, 400.0], 400.0, 24.0), vec![340.0, 364.0, 388.0]);
        // Not enough room: evenly shared.
        let x = spread(&[0.0; 5], 100.0, 24.0);
        assert_eq!(x, vec![10.0, 30.0, 50.0, 70.0, 90.0]);
        assert!(spread(&[], 100.0, 24.0).is_empty());
    }

    #[test]
    fn rates_read_well() {
        assert_eq!(rate_label(134.6), "135");
        assert_eq!(rate_label(12.0), "12");
        assert_eq!(rate_label(2.54), "2.5");
        assert_eq!(rate_label(1.0), "1");
    }

    #[test]
    fn every_chapter_has_a_track_with_its_steps_in_order_and_ticks_in_range() {
        for chapter in Chapter::ALL {
            let mut session = Session::new(Timeline::new(chapter, Config::default()));
            session.ensure(SimTime::ZERO);
            let track = Track::of(&session);
            assert_eq!(track.markers.len(), chapter.scenario().steps.len());
            assert!(track.markers.iter().all(|m| m.t.is_some()), "{chapter}: every step happens");
            assert!(track.markers.windows(2).all(|w| w[0].pos <= w[1].pos), "{chapter}");
            assert!(!track.requests.is_empty() && !track.events.is_empty());
            assert!(track.requests.iter().chain(track.requests.iter()).all(|t| (0.0..=1.0).contains(&t.pos)));
            assert!(track.requests.iter().any(|t| t.class == RequestClass::Routine), "{chapter}: Lease renewals");
            // Walking with "Next step" visits every step in order.
            let mut t = SimTime::ZERO;
            let mut visited = Vec::new();
            while let Some(next) = next_step(&session.steps, t) {
                visited.push(next.n);
                t = next.at.moment;
            }
            let last = visited.last().copied();
            assert_eq!(last, Some(session.steps.len()), "{chapter}: {visited:?}");
        }
    }
}
