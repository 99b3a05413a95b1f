//! Computing a progressive timeline (a fleet) once every part of the page is mounted (before,
//! its tasks would come between the parts and hold back the controls): a task at a time between
//! frames, each computing pieces of at most [`PIECE`] records for a [`Slice`] of the main
//! thread, so the page stays responsive on a phone and playback smooth while the rest of the
//! story is computed. The page re-derives what depends on the whole log only when a
//! step is found and at the end (`ctx.grown`).

use std::time::Duration;

use leptos::prelude::*;

use super::state::AppCtx;
use super::{next_task, now_ms};

/// The main-thread time a task computes: a long task is 50 ms on a phone, a quarter of that on
/// this page's desktop measurements (Lighthouse's mobile profile slows the CPU down 4x).
const SLICE_MS: f64 = 5.0;
/// How many timers the simulation runs between two readings of the clock (a timer is a few
/// microseconds of work; a reading is a call out of the WebAssembly).
const TIMERS_A_READING: u32 = 8;
/// How far a piece looks ahead in simulated time (the session searches the steps after each).
const STEP: Duration = Duration::from_secs(1);
/// The most log records a piece computes before the session searches the steps again (it
/// stops at the next instant past them, or within an instant at twice as many,
/// [`crate::sim::Timeline::run_until_within`]); a simulated second of a thousand nodes is a few
/// thousand records, and a busy one (the kubelets' first status, a zone cut, the control plane
/// back) over ten thousand.
pub(super) const PIECE: usize = 500;

/// A task's share of the main thread: [`SLICE_MS`] from its start by the page's clock. The
/// simulation asks [`Slice::more`] after each timer, so a piece ends when the slice does however
/// slow its records are (a busy instant is split between two timers; the WebAssembly's first
/// runs, before the browser has optimised it, are several times slower than later ones).
pub(super) struct Slice {
    until: f64,
    timers: u32,
}

impl Slice {
    pub(super) fn new() -> Slice {
        Slice { until: now_ms() + SLICE_MS, timers: 0 }
    }

    /// Whether the slice is over.
    pub(super) fn over(&self) -> bool {
        now_ms() >= self.until
    }

    /// Whether the simulation may run another timer (the clock read every
    /// [`TIMERS_A_READING`] timers).
    pub(super) fn more(&mut self) -> bool {
        self.timers = self.timers.wrapping_add(1);
        !self.timers.is_multiple_of(TIMERS_A_READING) || !self.over()
    }
}

/// Computes the session's timeline to its end in the background whenever it is not complete
/// (at load once the page is no longer `mounting`, and again after a fork).
pub(super) fn run(ctx: AppCtx, mounting: Signal<bool>) {
    let busy = StoredValue::new(false);
    Effect::new(move |_| {
        ctx.rev.track();
        if mounting.get() {
            return;
        }
        if !busy.get_value() && !ctx.session.with_value(|s| s.complete()) {
            busy.set_value(true);
            wasm_bindgen_futures::spawn_local(compute(ctx, busy));
        }
    });
}

/// Tasks of pieces of the timeline, each until its [`Slice`] is over, the steps found changed or
/// the timeline is complete; when the steps changed or it is complete, the page re-derives in a
/// task of its own. Between two tasks the browser runs what it has queued ([`next_task`]: a
/// chain of zero-delay timeouts is clamped to 4 ms a link once nested, time the page would spend
/// idle).
async fn compute(ctx: AppCtx, busy: StoredValue<bool>) {
    loop {
        next_task().await;
        let mut slice = Slice::new();
        let (complete, steps_changed) = loop {
            let piece = |s: &mut crate::view::session::Session| s.advance_within(STEP, PIECE, &mut || slice.more());
            let Some(done) = ctx.session.try_update_value(piece) else { return };
            if done.0 || done.1 || slice.over() {
                break done;
            }
        };
        if !(complete || steps_changed) {
            continue;
        }
        // What depends on the whole log is derived again in a task of its own.
        next_task().await;
        // The session's end may have moved the playback's end too.
        let Some(end) = ctx.session.try_with_value(|s| s.end()) else { return };
        if ctx.playback.with_untracked(|p| p.end) != end {
            ctx.playback.update(|p| p.end = end);
        }
        if complete {
            busy.set_value(false);
        }
        ctx.grown.update(|r| *r += 1);
        if complete {
            return;
        }
    }
}
