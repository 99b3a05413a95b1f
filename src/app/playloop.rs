//! The one animation-frame loop. While playing, each frame advances the pure
//! [`Playback`](crate::playback::Playback) value by the frame's real duration and computes the
//! timeline further when the playhead nears its horizon. The loop stops when playback stops;
//! browsers do not run animation frames for hidden tabs, so it also rests while the page is
//! hidden, and the first frame back is clamped so nothing jumps.

use std::time::Duration;

use leptos::prelude::*;

use super::now_ms;
use super::state::AppCtx;

/// Starts the loop whenever playback starts, once the page is `shown` (a page being built behind
/// its still view does not play yet: the story starts where the link points when the reader sees it).
pub(super) fn run(ctx: AppCtx, shown: Signal<bool>) {
    let running = StoredValue::new(false);
    Effect::new(move |_| {
        let playing = ctx.playback.with(|p| p.playing) && shown.get();
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
        let from = playback.t;
        let result = ctx.session.with_value(|s| playback.advance(real, |t| s.next_significant(t)));
        ctx.rate.set((result.rate, result.fast_forwarding));
        // Keep the timeline computed ahead of the playhead (first: the questions a stretch just
        // computed are known before the playhead passes them).
        let grew = ctx.session.try_update_value(|s| s.ensure(result.t)).unwrap_or(false);
        if grew {
            ctx.grown.update(|r| *r += 1);
        }
        // Question mode stops before a moment that matters.
        super::quiz::intercept(ctx, from, &mut playback);
        ctx.playback.set(playback);
        if playback.playing {
            frame(ctx, running, now);
        } else {
            running.set_value(false);
        }
    });
}

/// Pauses playback while the page is hidden (another tab, a minimised window) and resumes it
/// when the reader comes back, so a story never runs on unseen; a pause the reader chose stays.
pub(super) fn pause_when_hidden(ctx: AppCtx) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    let paused_by_hiding = StoredValue::new(false);
    let on_change = Closure::<dyn Fn()>::new(move || {
        let hidden = document().visibility_state() == web_sys::VisibilityState::Hidden;
        if hidden {
            if ctx.playback.with_untracked(|p| p.playing) {
                paused_by_hiding.set_value(true);
                ctx.playback.update(|p| p.playing = false);
            }
        } else if paused_by_hiding.get_value() {
            paused_by_hiding.set_value(false);
            ctx.playback.update(|p| p.playing = true);
        }
    });
    let _ = document().add_event_listener_with_callback("visibilitychange", on_change.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    on_change.forget();
}
