//! Computing a progressive timeline (a fleet) after the page shows: one stretch at a time
//! between frames, each sized to take about [`SLICE_MS`] of the main thread, so the page stays
//! responsive and playback smooth while the rest of the story is computed. The page re-derives
//! what depends on the whole log (`ctx.rev`) only when a step is found and at the end.

use std::time::Duration;

use leptos::prelude::*;

use super::state::AppCtx;

/// The main-thread time a stretch aims at (a long task is 50 ms).
const SLICE_MS: f64 = 25.0;
/// The first stretch, in simulated time; later ones are sized from the last one's cost.
const FIRST: Duration = Duration::from_secs(2);
const SHORTEST: Duration = Duration::from_millis(200);
const LONGEST: Duration = Duration::from_secs(120);

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
            stretch(ctx, busy, FIRST);
        }
    });
}

fn stretch(ctx: AppCtx, busy: StoredValue<bool>, by: Duration) {
    set_timeout(
        move || {
            let started = now_ms();
            let Some((complete, steps_changed)) = ctx.session.try_update_value(|s| s.advance(by)) else { return };
            let spent = (now_ms() - started).max(1.0);
            if complete {
                busy.set_value(false);
            }
            if complete || steps_changed {
                // The session's end may have moved the playback's end too.
                let end = ctx.session.with_value(|s| s.end());
                ctx.playback.update(|p| p.end = end);
                ctx.rev.update(|r| *r += 1);
            }
            if !complete {
                let next = by.mul_f64((SLICE_MS / spent).clamp(0.25, 4.0)).clamp(SHORTEST, LONGEST);
                stretch(ctx, busy, next);
            }
        },
        Duration::ZERO,
    );
}
