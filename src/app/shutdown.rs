//! The sandbox's kubelet setting: every machine's `shutdownGracePeriod` and
//! `shutdownGracePeriodCriticalPods`. Values are validated as the kubelet validates its
//! configuration; a refused pair is said next to the fields, which it describes (and changes
//! nothing); an accepted one runs the chapter again with the reader's actions and goes into the
//! address (`&shutdownGracePeriod=…&shutdownGracePeriodCriticalPods=…`).

use leptos::prelude::*;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::link::shutdown_periods;
use crate::sim::format_go_duration;

/// The two fields and their button.
#[component]
pub fn ShutdownSettings() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let shown = |f: fn(&crate::sim::ShutdownPeriods) -> std::time::Duration| {
        move || ctx.shutdown.get().map(|p| format_go_duration(f(&p))).unwrap_or_default()
    };
    let grace = RwSignal::new(shown(|p| p.grace)());
    let critical = RwSignal::new(shown(|p| p.critical)());
    let refused = RwSignal::new(None::<String>);
    let apply = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (g, c) = (grace.get_untracked(), critical.get_untracked());
        match shutdown_periods(Some(&g), Some(&c)) {
            Ok(p) => {
                refused.set(None);
                ctx.set_shutdown(p);
            }
            Err((_, _, why)) => refused.set(Some(why)),
        }
    };
    let field = move |id: &'static str, name: &'static str, value: RwSignal<String>| {
        view! {
            <label for=id><code>{name}</code></label>
            <input
                id=id
                type="text"
                inputmode="text"
                placeholder="0s"
                spellcheck="false"
                aria-describedby="shutdown-help shutdown-refused"
                aria-invalid=move || refused.with(Option::is_some).then_some("true")
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
        }
    };
    view! {
        <form class="shutdown-settings" on:submit=apply aria-labelledby="shutdown-title">
            <h3 id="shutdown-title">{move || t(Key::ShutdownSettings)}</h3>
            {field("shutdown-grace", "shutdownGracePeriod", grace)}
            {field("shutdown-critical", "shutdownGracePeriodCriticalPods", critical)}
            <button type="submit" class="secondary">{move || t(Key::ShutdownApply)}</button>
            <p class="help" id="shutdown-help">{move || t(Key::ShutdownHelp)}</p>
            <p class="refused" id="shutdown-refused">
                {move || refused.get().map(|why| ctx.lang.get().fill(Key::ShutdownRefused, &[&why]))}
            </p>
        </form>
    }
}
