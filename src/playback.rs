//! Playback: a pure value that the page's one animation-frame loop advances by the frame's real
//! duration. It never lies about time: the playhead is always true simulated time; only how fast
//! it moves changes.
//!
//! Long waits (the 300 s toleration, the 5-minute status report) would be boring at any speed that
//! lets a reader follow the busy moments, so playback *fast-forwards quiet stretches*: when the next
//! significant moment is far ahead, the playhead speeds up so the gap passes in about
//! [`QUIET_GAP_REAL`] of real time, easing back to the chosen speed shortly before that moment.

use std::time::Duration;

use crate::sim::SimTime;

/// The playback speeds the reader can choose, as multiples of real time.
pub const SPEEDS: [f64; 9] = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

/// The speeds as written in links and labels (no float formatting in the page).
pub const SPEED_LABELS: [&str; 9] = ["0.1", "0.25", "0.5", "1", "2", "5", "10", "30", "60"];

/// The default speed (1×).
pub const DEFAULT_SPEED: usize = 3;

/// How long a quiet stretch takes to pass, in real time, when fast-forwarding.
pub const QUIET_GAP_REAL: Duration = Duration::from_millis(2_500);

/// How much simulated time before a significant moment playback returns to the chosen speed.
pub const QUIET_LEAD: Duration = Duration::from_secs(3);

/// A gap shorter than this (in simulated time) is never fast-forwarded.
pub const QUIET_MIN_GAP: Duration = Duration::from_secs(15);

/// How long (in real time) the slow-down at the end of a quiet stretch takes: the rate falls
/// from the cruising rate to the chosen speed at a constant deceleration, so the reader sees the
/// clock slow down before the next moment instead of a jump.
pub const QUIET_EASE: Duration = Duration::from_millis(600);

/// A stretch is only fast-forwarded when it would go at least this many times the chosen speed.
const QUIET_MIN_FACTOR: f64 = 1.5;

/// Frames longer than this (a hidden tab, a debugger) count as this long.
pub const MAX_FRAME: Duration = Duration::from_millis(250);

/// The playback state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    /// The playhead.
    pub t: SimTime,
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Whether quiet stretches are fast-forwarded.
    pub skip_quiet: bool,
    /// Where playback stops by itself (the end of the chapter, or of the computed timeline).
    pub end: SimTime,
    /// The cruising rate of the quiet stretch being fast-forwarded, if one is (a stretch, once
    /// entered, runs at this rate until it slows down before its lead).
    pub fast: Option<f64>,
}

/// What one frame of playback did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The playhead after the frame.
    pub t: SimTime,
    /// The effective speed during the frame (larger than the chosen one while fast-forwarding).
    pub rate: f64,
    /// Whether this frame was fast-forwarding a quiet stretch.
    pub fast_forwarding: bool,
    /// Whether playback reached its end (and stopped) in this frame.
    pub finished: bool,
}

/// How the playhead moves from where it is: the rate, and for a quiet stretch, its cruising rate
/// and the point where it ends.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plan {
    rate: f64,
    stretch: Option<(f64, SimTime)>,
}

impl Playback {
    /// Paused at `t`, at the default speed, ending at `end`.
    pub fn new(t: SimTime, end: SimTime) -> Playback {
        Playback { t: t.min(end), playing: false, speed: DEFAULT_SPEED, skip_quiet: true, end, fast: None }
    }

    /// The chosen speed as a multiple of real time.
    pub fn speed_factor(&self) -> f64 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// One step faster, if there is one.
    pub fn faster(&mut self) {
        self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
    }

    /// One step slower, if there is one.
    pub fn slower(&mut self) {
        self.speed = self.speed.saturating_sub(1);
    }

    /// Chooses a speed by its index into [`SPEEDS`] (clamped).
    pub fn set_speed(&mut self, index: usize) {
        self.speed = index.min(SPEEDS.len() - 1);
    }

    /// Whether the playhead is at the end (where Play becomes Replay).
    pub fn at_end(&self) -> bool {
        self.t >= self.end
    }

    /// Moves the playhead (clamped to the end).
    pub fn seek(&mut self, t: SimTime) {
        self.t = t.min(self.end);
        self.fast = None;
    }

    /// Starts playing; at the end, starts again from `restart_at`.
    pub fn play(&mut self, restart_at: SimTime) {
        if self.at_end() {
            self.seek(restart_at);
        }
        self.playing = true;
    }

    /// Stops playing where the playhead is.
    pub fn pause(&mut self) {
        self.playing = false;
        self.fast = None;
    }

    /// Plays or pauses (at the end, Play starts again from `restart_at`).
    pub fn toggle(&mut self, restart_at: SimTime) {
        if self.playing { self.pause() } else { self.play(restart_at) }
    }

    fn plan(&self, next_significant: Option<SimTime>) -> Plan {
        let base = self.speed_factor();
        let steady = Plan { rate: base, stretch: None };
        if !self.skip_quiet {
            return steady;
        }
        let target = next_significant.unwrap_or(self.end).min(self.end);
        let gap = target.saturating_since(self.t);
        // A stretch is entered only when the gap is long; once entered it runs to its lead.
        let threshold = if self.fast.is_some() { QUIET_LEAD } else { QUIET_MIN_GAP };
        if gap <= threshold {
            return steady;
        }
        let stop = target.saturating_sub(QUIET_LEAD);
        let distance = stop.saturating_since(self.t).as_secs_f64();
        let cruise = match self.fast {
            Some(c) => c,
            None => {
                // Cruise, then decelerate over QUIET_EASE: the whole gap passes in QUIET_GAP_REAL.
                let c = distance / (QUIET_GAP_REAL.as_secs_f64() - QUIET_EASE.as_secs_f64() / 2.0);
                if c < base * QUIET_MIN_FACTOR {
                    return steady;
                }
                c
            }
        };
        // Constant deceleration `a` from the cruising rate: the rate that still stops in time is
        // sqrt(2 a d); never slower than the chosen speed.
        let decel = cruise / QUIET_EASE.as_secs_f64();
        let rate = cruise.min((2.0 * decel * distance).sqrt()).max(base);
        Plan { rate, stretch: Some((cruise, stop)) }
    }

    /// The effective speed at the playhead, given the next significant moment, and whether it is
    /// fast-forwarding a quiet stretch.
    pub fn rate(&self, next_significant: Option<SimTime>) -> (f64, bool) {
        let plan = self.plan(next_significant);
        (plan.rate, plan.stretch.is_some())
    }

    /// Advances by one frame of `real` time. `next_significant` gives the first significant moment
    /// strictly after an instant (a step, an event, a non-routine request).
    pub fn advance(&mut self, real: Duration, next_significant: impl Fn(SimTime) -> Option<SimTime>) -> Frame {
        if !self.playing {
            return Frame { t: self.t, rate: 0.0, fast_forwarding: false, finished: false };
        }
        let real = real.min(MAX_FRAME);
        let plan = self.plan(next_significant(self.t));
        let mut step = Duration::from_secs_f64(real.as_secs_f64() * plan.rate);
        if let Some((_, stop)) = plan.stretch {
            // Never overshoot the point where the chosen speed takes over again.
            step = step.min(stop.saturating_since(self.t).max(Duration::from_micros(1)));
        }
        let t = (self.t + step).min(self.end);
        self.t = t;
        self.fast = plan.stretch.map(|(cruise, _)| cruise);
        let finished = t >= self.end;
        if finished {
            self.pause();
        }
        Frame { t, rate: plan.rate, fast_forwarding: plan.stretch.is_some(), finished }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    #[test]
    fn plays_at_the_chosen_speed_when_things_happen() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        let f = p.advance(Duration::from_millis(100), |_| Some(ms(1_000)));
        assert_eq!(f.t, ms(100));
        assert!(!f.fast_forwarding);
        p.speed = 5; // 5×
        let f = p.advance(Duration::from_millis(100), |_| Some(ms(1_000)));
        assert_eq!(f.t, ms(600));
    }

    #[test]
    fn paused_playback_does_not_move() {
        let mut p = Playback::new(ms(5_000), ms(600_000));
        let f = p.advance(Duration::from_secs(1), |_| None);
        assert_eq!(f.t, ms(5_000));
        assert_eq!(f.rate, 0.0);
    }

    #[test]
    fn fast_forwards_a_quiet_stretch_and_eases_back_before_the_next_moment() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        let next = |_t: SimTime| Some(ms(300_000));
        let mut frames = 0;
        let mut saw_fast = false;
        while p.t < ms(300_000 - QUIET_LEAD.as_millis() as u64) && frames < 10_000 {
            let f = p.advance(Duration::from_millis(16), next);
            saw_fast |= f.fast_forwarding;
            frames += 1;
        }
        assert!(saw_fast);
        // About QUIET_GAP_REAL of frames (16 ms each), not five minutes of them.
        let real = Duration::from_millis(16 * frames);
        assert!(real < QUIET_GAP_REAL * 2, "took {real:?}");
        // It stopped exactly where the easing starts, not past it.
        assert_eq!(p.t, ms(300_000 - QUIET_LEAD.as_millis() as u64));
        // The last seconds before the moment play at the chosen speed.
        let f = p.advance(Duration::from_millis(100), next);
        assert!(!f.fast_forwarding);
        assert_eq!(f.rate, 1.0);
    }

    #[test]
    fn skipping_can_be_turned_off() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.skip_quiet = false;
        p.play(ms(0));
        let f = p.advance(Duration::from_millis(100), |_| Some(ms(300_000)));
        assert_eq!(f.t, ms(100));
    }

    #[test]
    fn stops_at_the_end_and_restarts_from_the_beginning() {
        let mut p = Playback::new(ms(9_950), ms(10_000));
        p.skip_quiet = false;
        p.play(ms(0));
        let f = p.advance(Duration::from_millis(100), |_| None);
        assert!(f.finished);
        assert_eq!(p.t, ms(10_000));
        assert!(!p.playing);
        p.play(ms(0));
        assert_eq!(p.t, ms(0));
    }

    #[test]
    fn long_frames_do_not_jump() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.skip_quiet = false;
        p.play(ms(0));
        let f = p.advance(Duration::from_secs(30), |_| Some(ms(1_000)));
        assert_eq!(f.t, ms(250));
    }

    #[test]
    fn speeds_are_bounded() {
        let mut p = Playback::new(ms(0), ms(1));
        for _ in 0..20 {
            p.faster();
        }
        assert_eq!(p.speed_factor(), 60.0);
        for _ in 0..20 {
            p.slower();
        }
        assert_eq!(p.speed_factor(), 0.1);
    }
    /// Plays `p` in 16 ms frames until `until` or `max_frames`, returning the frames.
    fn run(
        p: &mut Playback,
        next: impl Fn(SimTime) -> Option<SimTime>,
        until: SimTime,
        max_frames: usize,
    ) -> Vec<Frame> {
        let mut out = Vec::new();
        while p.playing && p.t < until && out.len() < max_frames {
            out.push(p.advance(Duration::from_millis(16), &next));
        }
        out
    }

    #[test]
    fn the_clock_only_moves_by_rate_times_real_time() {
        // Never lies about time: each frame moves the playhead by at most its rate times 16 ms.
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        let mut last = p.t;
        for f in run(&mut p, |_| Some(ms(400_000)), ms(400_000), 10_000) {
            let moved = (f.t - last).as_secs_f64();
            assert!(moved <= f.rate * 0.016 + 1e-6, "moved {moved} at rate {}", f.rate);
            last = f.t;
        }
    }

    #[test]
    fn a_stretch_cruises_then_slows_down_steadily() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        let frames = run(&mut p, |_| Some(ms(300_000)), ms(297_000), 10_000);
        let fast: Vec<f64> = frames.iter().filter(|f| f.fast_forwarding).map(|f| f.rate).collect();
        // The cruising rate comes first and is the highest; the rate never rises again.
        assert!(fast[0] > 100.0, "cruise {}", fast[0]);
        assert!(fast.windows(2).all(|w| w[1] <= w[0] + 1e-9));
        // The slow-down lasts about QUIET_EASE, and ends near the chosen speed.
        let slowing = fast.iter().filter(|r| **r < fast[0]).count();
        let ease_frames = (QUIET_EASE.as_millis() / 16) as usize;
        assert!(slowing >= ease_frames / 2 && slowing <= ease_frames * 2, "{slowing} frames");
        assert!(*fast.last().unwrap() < 10.0);
    }

    #[test]
    fn short_gaps_are_played_at_the_chosen_speed() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        let f = p.advance(Duration::from_millis(16), |_| Some(QUIET_MIN_GAP_T));
        assert!(!f.fast_forwarding);
        assert_eq!(f.rate, 1.0);
    }

    const QUIET_MIN_GAP_T: SimTime = SimTime::from_secs(QUIET_MIN_GAP.as_secs());

    #[test]
    fn fast_speeds_still_fast_forward_long_waits_but_not_short_ones() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.set_speed(SPEEDS.len() - 1); // 60×
        p.play(ms(0));
        assert!(p.rate(Some(ms(300_000))).1, "a 300 s wait at 60×");
        assert!(!p.rate(Some(ms(30_000))).1, "a 30 s gap at 60× already passes in half a second");
        // At 10× the 300 s toleration passes in a few seconds, not 30.
        p.set_speed(6);
        let frames = run(&mut p, |_| Some(ms(300_000)), ms(297_000), 10_000);
        assert!(frames.len() * 16 < 4_000, "{} frames", frames.len());
        assert!(frames.iter().any(|f| f.fast_forwarding));
    }

    #[test]
    fn a_faster_chosen_speed_is_never_slowed_down_by_a_stretch() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        p.advance(Duration::from_millis(16), |_| Some(ms(300_000)));
        assert!(p.fast.is_some());
        p.set_speed(SPEEDS.len() - 1);
        for f in run(&mut p, |_| Some(ms(300_000)), ms(297_000), 10_000) {
            assert!(f.rate >= 60.0);
        }
        assert_eq!(p.t, ms(297_000));
    }

    #[test]
    fn seeking_pausing_or_turning_skipping_off_ends_a_stretch() {
        let mut p = Playback::new(ms(0), ms(600_000));
        p.play(ms(0));
        p.advance(Duration::from_millis(16), |_| Some(ms(300_000)));
        assert!(p.fast.is_some());
        p.seek(ms(100_000));
        assert_eq!(p.fast, None);
        p.advance(Duration::from_millis(16), |_| Some(ms(300_000)));
        assert!(p.fast.is_some());
        p.pause();
        assert_eq!(p.fast, None);
        p.play(ms(0));
        p.skip_quiet = false;
        let f = p.advance(Duration::from_millis(16), |_| Some(ms(300_000)));
        assert!(!f.fast_forwarding);
        assert_eq!(f.rate, 1.0);
    }

    #[test]
    fn toggle_plays_pauses_and_replays_from_the_restart_point() {
        let mut p = Playback::new(ms(0), ms(10_000));
        p.toggle(ms(0));
        assert!(p.playing);
        p.toggle(ms(0));
        assert!(!p.playing);
        p.seek(ms(99_000));
        assert!(p.at_end());
        p.toggle(ms(2_000));
        assert!(p.playing);
        assert_eq!(p.t, ms(2_000));
        p.set_speed(99);
        assert_eq!(p.speed, SPEEDS.len() - 1);
    }
}
