//! The one animation-frame loop. While playing, each frame advances the pure
//! [`Playback`](crate::playback::Playback) value by the frame's real duration and computes the
//! timeline further when the playhead nears its horizon. The loop stops when playback stops;
//! browsers do not run animation frames for hidden tabs, so it also rests while the page is
//! hidden, and the first frame back is clamped so nothing jumps.

use std::time::Duration;

use leptos::prelude::*;

use super::state::AppCtx;

fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// Starts the loop whenever playback starts.
pub(super) fn run(ctx: AppCtx) {
    let running = StoredValue::new(false);
    Effect::new(move |_| {
        let playing = ctx.playback.with(|p| p.playing);
        if playing && !running.get_value() {
            running.set_value(true);
            frame(ctx, running, now_ms());
        }
    });
}

fn frame(ctx: AppCtx, running: StoredValue<bool>, last: f64) {
    request_animation_frame(move || {
        let now = now_ms();
        let real = Duration::from_secs_f64(((now - last) / 1000.0).max(0.0));
        let mut playback = ctx.playback.get_untracked();
        if !playback.playing {
            running.set_value(false);
            return;
        }
        let result = ctx.session.with_value(|s| playback.advance(real, |t| s.next_significant(t)));
        ctx.rate.set((result.rate, result.fast_forwarding));
        // Keep the timeline computed ahead of the playhead.
        let grew = ctx.session.try_update_value(|s| s.ensure(result.t)).unwrap_or(false);
        if grew {
            ctx.rev.update(|r| *r += 1);
        }
        ctx.playback.set(playback);
        if playback.playing {
            frame(ctx, running, now);
        } else {
            running.set_value(false);
        }
    });
}
