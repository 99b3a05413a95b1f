//! The kubelet's Events: written through its own recorder, or queued while its network to the
//! API server is cut and retried every 10 s (client-go's broadcaster gives up after 12 tries).

use std::time::Duration;

use crate::ctx::Ctx;
use crate::events::Source;
use crate::objects::ObjectReference;
use crate::time::SimTime;

use super::{Host, Kubelet, KubeletTimer, MachineTimer};

/// An event the kubelet could not deliver yet (its network to the API server is cut).
#[derive(Clone, Debug)]
pub(crate) struct PendingEvent {
    at: SimTime,
    object: ObjectReference,
    type_: &'static str,
    reason: &'static str,
    message: String,
    tries: u32,
}

/// client-go's `maxTriesPerEvent`.
const MAX_TRIES_PER_EVENT: u32 = 12;
/// client-go's sleep between tries.
const EVENT_RETRY_SLEEP: Duration = Duration::from_secs(10);

impl Kubelet {
    /// Records an event about `object`, or queues it while the API server cannot be reached.
    pub(super) fn event(
        &mut self,
        h: &Host,
        ctx: &mut Ctx<'_, MachineTimer>,
        object: ObjectReference,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) {
        // The spam filter runs as the event is emitted, before it is queued.
        if !self.cold.recorder.spam_allows(Source::Kubelet(&h.hostname), &object, type_, ctx.now) {
            return;
        }
        if h.network_cut || !self.cold.pending_events.is_empty() {
            let first = self.cold.pending_events.is_empty();
            self.cold.pending_events.push(PendingEvent { at: ctx.now, object, type_, reason, message, tries: 1 });
            if first {
                self.after(ctx, EVENT_RETRY_SLEEP, KubeletTimer::EventFlush);
            }
            return;
        }
        let now = ctx.now;
        self.cold.recorder.record(ctx, Source::Kubelet(&h.hostname), object, type_, reason, message, now);
    }

    /// Retries the undelivered events.
    pub(super) fn flush_events(&mut self, h: &Host, ctx: &mut Ctx<'_, MachineTimer>) {
        let mut pending = std::mem::take(&mut self.cold.pending_events);
        if h.network_cut {
            for e in &mut pending {
                e.tries += 1;
            }
            let before = pending.len();
            pending.retain(|e| e.tries <= MAX_TRIES_PER_EVENT);
            let dropped = before - pending.len();
            let again = !pending.is_empty();
            self.cold.pending_events = pending;
            if dropped > 0 {
                h.log(ctx, format!("\"Unable to write event (retry limit exceeded!)\" ({dropped} event(s) dropped)"));
            }
            if again {
                self.after(ctx, EVENT_RETRY_SLEEP, KubeletTimer::EventFlush);
            }
            return;
        }
        for e in pending {
            self.cold.recorder.record(ctx, Source::Kubelet(&h.hostname), e.object, e.type_, e.reason, e.message, e.at);
        }
    }
}
