//! A chapter's timeline together with what the page derives from it whenever it changes.

use std::time::Duration;

use crate::link;
use crate::quiz::{self, Derived};
use crate::sim::{Request, SimTime, Snapshot, Timeline};

/// How far past the playhead the timeline is kept computed.
const LOOKAHEAD: Duration = Duration::from_secs(120);

/// How long past the chapter's story (or the reader's last action) playback runs.
const AFTERWORD: Duration = Duration::from_secs(180);

/// A chapter's timeline and what is derived from it when it changes.
pub struct Session {
    pub timeline: Timeline,
    /// Each step's moment (`None`: the reader's actions changed the story and it did not happen).
    pub steps: Vec<Option<SimTime>>,
    /// Significant moments (steps, events, inputs, non-routine requests), sorted; playback slows
    /// down before each.
    pub significant: Vec<SimTime>,
    /// The chapter's questions as this timeline answers them (question mode).
    pub quiz: Vec<Option<Derived>>,
}

impl Session {
    /// Wraps a timeline.
    pub fn new(timeline: Timeline) -> Session {
        let mut s = Session { timeline, steps: Vec::new(), significant: Vec::new(), quiz: Vec::new() };
        s.refresh();
        s
    }

    /// Where playback stops by itself.
    pub fn end(&self) -> SimTime {
        let story = SimTime::ZERO + self.timeline.scenario().duration;
        let last_action = self.timeline.actions().last().map(|a| a.at + AFTERWORD).unwrap_or(SimTime::ZERO);
        story.max(last_action).min(link::MAX_T)
    }

    /// Makes sure the timeline is computed past `t`.
    pub fn ensure(&mut self, t: SimTime) -> bool {
        match self.target(t) {
            Some(to) => {
                self.timeline.run_until(to);
                self.refresh();
                true
            }
            None => false,
        }
    }

    /// How far [`Session::ensure`] computes the timeline for `t`, or `None` when it is computed
    /// far enough already. The page's start computes up to it in slices (`app::boot`), then
    /// calls [`Session::refresh`].
    pub fn target(&self, t: SimTime) -> Option<SimTime> {
        let want = (t + LOOKAHEAD).max(self.end() + Duration::from_secs(1));
        // A whole further stretch at once: the page re-derives what depends on the log (the
        // track, step moments) once per stretch, not on every frame of fast playback.
        (self.timeline.horizon() < want).then(|| (want + LOOKAHEAD).min(link::MAX_T + Duration::from_secs(1)).max(want))
    }

    /// Recomputes what is derived from the timeline (after a fork).
    pub fn refresh(&mut self) {
        self.steps = self.timeline.steps();
        let log = self.timeline.log();
        let mut moments: Vec<SimTime> = self.steps.iter().flatten().copied().collect();
        moments.extend(log.events.iter().map(|e| e.t));
        moments.extend(log.inputs.iter().map(|i| i.t));
        moments.extend(log.requests.iter().filter(|r| !is_routine(r)).map(|r| r.t));
        moments.sort_unstable();
        moments.dedup();
        self.significant = moments;
        self.quiz = quiz::derive_all(&self.timeline);
    }

    /// The first significant moment strictly after `t`.
    pub fn next_significant(&self, t: SimTime) -> Option<SimTime> {
        let i = self.significant.partition_point(|m| *m <= t);
        self.significant.get(i).copied()
    }

    /// The cluster at `t`.
    pub fn at(&self, t: SimTime) -> Snapshot<'_> {
        self.timeline.at(t)
    }
}

/// Whether a request is a routine heartbeat (a successful Lease renewal, or a kubelet reading a
/// Lease or Node): playback may fast-forward through those.
pub fn is_routine(r: &Request) -> bool {
    use crate::sim::{Method, Outcome};
    matches!(r.outcome, Outcome::Code(200))
        && (r.method == Method::Get || (r.method == Method::Put && r.path.contains("/leases/")))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::sim::{Chapter, Config};

    /// The page's start computes a chapter in slices, letting the browser in between
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
            while sliced.timeline.horizon() < to {
                let next = (sliced.timeline.horizon() + Duration::from_millis(250)).min(to);
                sliced.timeline.run_until(next);
            }
            sliced.refresh();
            assert_eq!(sliced.timeline.horizon(), whole.timeline.horizon(), "{chapter:?}");
            assert_eq!(sliced.target(SimTime::ZERO), None, "{chapter:?}: computed far enough");
            assert_eq!(sliced.steps, whole.steps, "{chapter:?}");
            assert_eq!(sliced.significant, whole.significant, "{chapter:?}");
            let (a, b) = (sliced.timeline.log(), whole.timeline.log());
            assert_eq!(a.requests.len(), b.requests.len(), "{chapter:?}");
            assert_eq!(a.events.len(), b.events.len(), "{chapter:?}");
            assert_eq!(a.changes.len(), b.changes.len(), "{chapter:?}");
            // Further on, the same.
            let later = whole.end() + Duration::from_secs(60);
            assert_eq!(sliced.target(later), whole.target(later), "{chapter:?}");
        }
    }
}
