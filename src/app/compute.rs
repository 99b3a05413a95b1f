//! Computing a progressive timeline (a fleet) once every part of the page is mounted (before,
//! its tasks would come between the parts and hold back the controls): a task at a time between
//! frames, each computing pieces of at most [`PIECE`] records until it has taken about
//! [`SLICE_MS`] of the main thread, so the page stays responsive on a phone and playback smooth
//! while the rest of the story is computed. The page re-derives what depends on the whole log (`ctx.rev`)
//! only when a step is found and at the end.

use std::time::Duration;

use leptos::prelude::*;

use super::state::AppCtx;
use super::{next_task, now_ms};

/// The main-thread time a task aims at: a long task is 50 ms on a phone, a quarter of that on
/// this page's desktop measurements (Lighthouse's mobile profile slows the CPU down 4x). A task
/// stops computing once it has spent this long, so only the piece it started can make it longer.
const SLICE_MS: f64 = 5.0;
/// How far a piece looks ahead in simulated time (the session searches the steps after each).
const STEP: Duration = Duration::from_secs(1);
/// The most log records a piece computes before the task looks at the clock again (it stops at
/// the next instant past them, or within an instant at twice as many,
/// [`crate::sim::Timeline::run_until_within`]): five hundred records are about a millisecond in
/// the page; a simulated second of a thousand nodes is a few thousand records, and a busy one
/// (the kubelets' first status, a zone cut, the control plane back) over ten thousand.
pub(super) const PIECE: usize = 500;

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

/// Tasks of pieces of the timeline, each until [`SLICE_MS`] have passed, the steps found changed or
/// the timeline is complete; when the steps changed or it is complete, the page re-derives in a
/// task of its own. Between two tasks the browser runs what it has queued ([`next_task`]: a
/// chain of zero-delay timeouts is clamped to 4 ms a link once nested, time the page would spend
/// idle).
async fn compute(ctx: AppCtx, busy: StoredValue<bool>) {
    loop {
        next_task().await;
        let started = now_ms();
        let (complete, steps_changed) = loop {
            let Some(done) = ctx.session.try_update_value(|s| s.advance_within(STEP, PIECE)) else { return };
            if done.0 || done.1 || now_ms() - started >= SLICE_MS {
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
        ctx.rev.update(|r| *r += 1);
        if complete {
            return;
        }
    }
}
