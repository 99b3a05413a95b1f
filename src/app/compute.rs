//! Computing a progressive timeline (a fleet) after the page shows: a task at a time between
//! frames, each computing a simulated second after another until it has taken about
//! [`SLICE_MS`] of the main thread, so the page stays responsive and playback smooth while the
//! rest of the story is computed. The page re-derives what depends on the whole log (`ctx.rev`)
//! only when a step is found and at the end.

use std::time::Duration;

use leptos::prelude::*;

use super::state::AppCtx;

/// The main-thread time a task aims at (a long task is 50 ms): it stops computing once it has
/// spent this long, so only a single simulated second that costs more can make it longer.
const SLICE_MS: f64 = 25.0;
/// What a task computes between two looks at the clock. A second of a thousand nodes is a few
/// milliseconds in the page; of a busy second (a zone cut, the control plane back), tens.
const STEP: Duration = Duration::from_secs(1);

fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// Computes the session's timeline to its end in the background whenever it is not complete
/// (at load, and again after a fork).
pub(super) fn run(ctx: AppCtx) {
    let busy = StoredValue::new(false);
    Effect::new(move |_| {
        ctx.rev.track();
        if !busy.get_value() && !ctx.session.with_value(|s| s.complete()) {
            busy.set_value(true);
            task(ctx, busy);
        }
    });
}

/// One task: simulated seconds until [`SLICE_MS`] have passed, the steps found changed or the
/// timeline is complete; then the page re-derives, if it must, in a task of its own, and the
/// next task is queued.
fn task(ctx: AppCtx, busy: StoredValue<bool>) {
    set_timeout(
        move || {
            let started = now_ms();
            let (complete, steps_changed) = loop {
                let Some(done) = ctx.session.try_update_value(|s| s.advance(STEP)) else { return };
                if done.0 || done.1 || now_ms() - started >= SLICE_MS {
                    break done;
                }
            };
            if !(complete || steps_changed) {
                task(ctx, busy);
                return;
            }
            // What depends on the whole log is derived again in a task of its own.
            set_timeout(
                move || {
                    // The session's end may have moved the playback's end too.
                    let end = ctx.session.with_value(|s| s.end());
                    ctx.playback.update(|p| p.end = end);
                    if complete {
                        busy.set_value(false);
                    }
                    ctx.rev.update(|r| *r += 1);
                    if !complete {
                        task(ctx, busy);
                    }
                },
                Duration::ZERO,
            );
        },
        Duration::ZERO,
    );
}
