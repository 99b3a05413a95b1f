//! The sandbox controls: the reader's actions at the playhead, on a chosen machine. Every button
//! stays focusable; one that makes no sense now is `aria-disabled` and says why, and pressing it
//! says so again in a notice instead of doing nothing.

use leptos::prelude::*;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::sim::{ActionKind, Target};
use crate::view::controls::{self as vm, ButtonState};
use crate::view::notice::refusal_text;

/// Availability is recomputed at most once per this much simulated time at 1× (in
/// milliseconds), and at faster speeds once per as much real time (100 ms): it changes only with
/// inputs and machine restarts (a fork recomputes it at once, and pressing a button checks again).
/// At 60× with a thousand nodes, recomputing it every frame would cost more than the frame.
const RESOLUTION_MS: u64 = 100;

/// The sandbox panel.
#[component]
pub fn Controls() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let tick = Memo::new(move |_| {
        let speed = ctx.playback.with(|p| p.speed.max(1)) as u64;
        ctx.t().as_millis() / (RESOLUTION_MS * speed)
    });
    // How many machine records the log holds by the playhead: a machine's name or hostname
    // changes only with a new one.
    let records = Memo::new(move |_| {
        let at = ctx.t();
        ctx.with_session_at(|s| s.timeline.log().machines.partition_point(|r| r.t <= at))
    });
    // (name, hostname) of each machine at the playhead.
    let machines = Memo::new(move |_| {
        records.track();
        let at = ctx.playback.with_untracked(|p| p.t);
        ctx.with_session_at(|s| {
            s.at(at).machines().iter().map(|m| (m.name.to_string(), m.hostname.to_string())).collect::<Vec<_>>()
        })
    });
    let index = Memo::new(move |_| vm::clamp_machine(ctx.machine.get(), machines.with(Vec::len)));
    let names = Memo::new(move |_| machines.with(|m| m.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()));
    // The Pods a Pod's memory actions can aim at (their containers change only with a new
    // machine record), and the one picked: the reader's choice while it runs, else the first.
    let pods = Memo::new(move |_| {
        records.track();
        let at = ctx.playback.with_untracked(|p| p.t);
        ctx.with_session_at(|s| vm::pod_targets(&s.at(at)))
    });
    let pod_choice = RwSignal::new(None::<String>);
    let pod = Memo::new(move |_| {
        pods.with(|p| {
            let chosen = pod_choice.get().filter(|c| p.iter().any(|(t, _)| t == c));
            chosen.or_else(|| p.first().map(|(t, _)| t.clone()))
        })
    });
    let states = Memo::new(move |_| {
        tick.track();
        let at = ctx.playback.with_untracked(|p| p.t);
        let machine = names.with(|n| vm::machine_arg(ActionKind::KillKubelet, n, index.get()));
        let pod = pod.get();
        ctx.with_session_at(|s| vm::button_states(&s.at(at), machine.as_deref(), pod.as_deref()))
    });
    let actions = Memo::new(move |_| ctx.with_session_at(|s| s.timeline.actions()));

    // The budget `Create PodDisruptionBudget` makes: which field, and its value as typed; what
    // kubectl would answer when it refuses it.
    let budget_max = RwSignal::new(false);
    let budget_value = RwSignal::new(String::from("1"));
    let budget_error = RwSignal::new(None::<String>);
    let press = move |kind: ActionKind| {
        let lang = ctx.lang.get_untracked();
        let kind = match kind {
            ActionKind::CreatePdb(_) => {
                match vm::budget_of(budget_max.get_untracked(), &budget_value.get_untracked()) {
                    Ok(budget) => {
                        budget_error.set(None);
                        ActionKind::CreatePdb(budget)
                    }
                    Err(why) => {
                        budget_error.set(Some(why));
                        focus_budget();
                        return;
                    }
                }
            }
            other => other,
        };
        let state = states.with_untracked(|s| s.iter().find(|b| b.kind == kind).cloned());
        if let Some(ButtonState { unavailable: Some(why), .. }) = state {
            ctx.notify(lang.fill(Key::ActionUnavailable, &[&refusal_text(lang, &why)]));
            return;
        }
        let target = match kind.target() {
            Target::Pod => pod.get_untracked(),
            _ => names.with_untracked(|n| vm::machine_arg(kind, n, index.get_untracked())),
        };
        if let Err(e) = ctx.act(kind, target) {
            ctx.notify(lang.fill(Key::ActionUnavailable, &[&refusal_text(lang, &e)]));
        }
    };

    let button = move |kind: ActionKind| {
        let why = move || states.with(|s| s.iter().find(|b| b.kind == kind).and_then(|b| b.unavailable.clone()));
        let why_id = format!("why-{}", kind.name());
        let is_budget = matches!(kind, ActionKind::CreatePdb(_));
        let budget = is_budget.then(|| budget_form(ctx, budget_max, budget_value, budget_error));
        view! {
            <div class="action" class:budget-action=is_budget>
                {budget}
                <button
                    type="button"
                    class="action-button"
                    data-action=kind.name()
                    aria-disabled=move || why().is_some().then_some("true")
                    aria-describedby={
                        let why_id = why_id.clone();
                        move || why().is_some().then(|| why_id.clone())
                    }
                    on:click=move |_| press(kind)
                >
                    {move || t(vm::label(kind))}
                </button>
                {move || {
                    why()
                        .map(|w| {
                            view! {
                                <span class="why" id=why_id.clone()>
                                    {
                                        let lang = ctx.lang.get();
                                        lang.fill(Key::ActionUnavailable, &[&refusal_text(lang, &w)])
                                    }
                                </span>
                            }
                        })
                }}
            </div>
        }
    };

    // The fleet chapter's own actions: a zone, a number of nodes, and five buttons.
    let zone = RwSignal::new(crate::sim::scenario::DARK_ZONE.to_string());
    let count = RwSignal::new(5usize);
    let fleet_states = Memo::new(move |_| {
        tick.track();
        let at = ctx.playback.with_untracked(|p| p.t);
        let (z, k) = (zone.get(), count.get());
        ctx.with_session_at(|s| vm::fleet_button_states(&s.at(at), &z, k))
    });
    let fleet_press = move |kind: ActionKind| {
        let lang = ctx.lang.get_untracked();
        let state = fleet_states.with_untracked(|s| s.iter().find(|b| b.kind == kind).cloned());
        if let Some(ButtonState { unavailable: Some(why), .. }) = state {
            ctx.notify(lang.fill(Key::ActionUnavailable, &[&refusal_text(lang, &why)]));
            return;
        }
        let target = vm::fleet_target(kind, &zone.get_untracked(), count.get_untracked());
        if let Err(e) = ctx.act(kind, target) {
            ctx.notify(lang.fill(Key::ActionUnavailable, &[&refusal_text(lang, &e)]));
        }
    };
    let fleet_button = move |kind: ActionKind| {
        let why = move || fleet_states.with(|s| s.iter().find(|b| b.kind == kind).and_then(|b| b.unavailable.clone()));
        view! {
            <button
                type="button"
                class="action-button"
                data-action=kind.name()
                aria-disabled=move || why().is_some().then_some("true")
                title=move || {
                    let lang = ctx.lang.get();
                    why().map(|w| lang.fill(Key::ActionUnavailable, &[&refusal_text(lang, &w)]))
                }
                on:click=move |_| fleet_press(kind)
            >
                {move || t(vm::label(kind))}
            </button>
        }
    };
    let fleet_group = move || {
        ctx.is_fleet().then(|| {
            let zones = crate::sim::ZONES
                .iter()
                .map(|z| view! { <option value=*z prop:selected=move || zone.get() == *z>{*z}</option> })
                .collect_view();
            view! {
                <div class="fleet-actions">
                    <label for="fleet-zone">{move || t(Key::FleetZone)}</label>
                    <select id="fleet-zone" on:change=move |ev| zone.set(event_target_value(&ev))>
                        {zones}
                    </select>
                    <label for="fleet-count">{move || t(Key::FleetCount)}</label>
                    <input
                        id="fleet-count"
                        type="number"
                        min="1"
                        max=crate::sim::action::MAX_CUT_NODES.to_string()
                        prop:value=move || count.get().to_string()
                        on:change=move |ev| {
                            let max = crate::sim::action::MAX_CUT_NODES;
                            count.set(event_target_value(&ev).trim().parse::<usize>().unwrap_or(1).clamp(1, max));
                        }
                    />
                    {vm::fleet_group().into_iter().map(fleet_button).collect_view()}
                </div>
            }
        })
    };

    // The Pod picker, before the actions aimed at a Pod: its options written as one string, as
    // the machine picker's are.
    let pod_picker = NodeRef::<leptos::html::Select>::new();
    Effect::new(move |_| {
        let markup = pods.with(|p| vm::pod_options(p));
        if let Some(select) = pod_picker.get() {
            pod.with(|c| {
                let chosen = c.as_deref().map(|c| (c, c));
                super::dom::fill_picker(&select, &markup, pods.with(Vec::len), chosen);
            });
        }
    });
    let pod_pick = move || {
        view! {
            <div class="pod-pick">
                <label for="sandbox-pod">{move || t(Key::PodPick)}</label>
                <select
                    id="sandbox-pod"
                    node_ref=pod_picker
                    on:change=move |ev| pod_choice.set(Some(event_target_value(&ev)))
                ></select>
            </div>
        }
    };
    let groups = vm::groups()
        .into_iter()
        .map(|group| {
            let aimed_at_a_pod = group.iter().any(|k| k.target() == Target::Pod);
            view! {
                <div class="action-group">
                    {aimed_at_a_pod.then(pod_pick)}
                    {group.into_iter().map(button).collect_view()}
                </div>
            }
        })
        .collect_view();

    // The options as one string, written into the picker whenever the machines or the language
    // change; the choice is set on the element (at a thousand machines, one view and one effect
    // an option would cost tens of milliseconds).
    let picker = NodeRef::<leptos::html::Select>::new();
    // The chosen machine's value and label.
    let chosen = move |m: &[(String, String)], i: usize| {
        m.get(i).map(|(name, host)| (i.to_string(), vm::machine_label(name, host, ctx.lang.get_untracked())))
    };
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        let markup = machines.with(|m| vm::machine_options(m, lang));
        if let Some(select) = picker.get() {
            let one = machines.with(|m| chosen(m, index.get_untracked()));
            let one = one.as_ref().map(|(v, l)| (v.as_str(), l.as_str()));
            super::dom::fill_picker(&select, &markup, machines.with(Vec::len), one);
        }
    });
    Effect::new(move |_| {
        let i = index.get();
        if let Some(select) = picker.get() {
            let one = machines.with_untracked(|m| chosen(m, i));
            super::dom::pick(&select, one.as_ref().map(|(v, l)| (v.as_str(), l.as_str())));
        }
    });

    let fork = move || {
        let summary = actions.with(|a| vm::fork_summary(a))?;
        let template = ctx.lang.get().text(Key::ForkNotice);
        let (before, after) = template.split_once("{0}").unwrap_or((template, ""));
        Some(view! {
            <div class="fork">
                <p>{before} <code class="notation">{summary}</code> {after}</p>
                <button type="button" class="secondary" on:click=move |_| ctx.restart(&[])>
                    {move || t(ctx.told().says(Key::ResetSandbox))}
                </button>
            </div>
        })
    };

    view! {
        <section class="controls panel" aria-labelledby="controls-title">
            <div class="controls-head">
                <h2 id="controls-title">{move || t(Key::Sandbox)}</h2>
                <div class="machine-pick">
                    <label for="sandbox-machine">{move || t(Key::ActingOn)}</label>
                    <select
                        id="sandbox-machine"
                        node_ref=picker
                        on:change=move |ev| {
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                ctx.pick_machine(i);
                            }
                        }
                    ></select>
                </div>
            </div>
            <p class="help">{move || t(Key::SandboxHelp)}</p>
            {fleet_group}
            <div class="action-groups">{groups}</div>
            {move || (!ctx.is_fleet()).then(|| view! { <super::shutdown::ShutdownSettings /> })}
            {fork}
        </section>
    }
}

/// Moves the focus to the budget's value (after kubectl refused it).
fn focus_budget() {
    use wasm_bindgen::JsCast;
    if let Some(el) = document().get_element_by_id("pdb-value").and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// The budget of `Create PodDisruptionBudget`: `--min-available` or `--max-unavailable`, and a
/// number or a percentage; kubectl's refusal under the value, which it describes.
fn budget_form(
    ctx: AppCtx,
    max: RwSignal<bool>,
    value: RwSignal<String>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let t = move |k: Key| ctx.lang.get().text(k);
    view! {
        <div class="budget-form">
            <label for="pdb-field">{move || t(Key::BudgetField)}</label>
            <select id="pdb-field" on:change=move |ev| max.set(event_target_value(&ev) == "max-unavailable")>
                <option value="min-available">"--min-available"</option>
                <option value="max-unavailable">"--max-unavailable"</option>
            </select>
            <label for="pdb-value">{move || t(Key::BudgetValue)}</label>
            <input
                id="pdb-value"
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                value="1"
                aria-invalid=move || error.with(Option::is_some).then_some("true")
                aria-describedby=move || error.with(Option::is_some).then_some("pdb-error")
                on:input=move |ev| {
                    value.set(event_target_value(&ev));
                    error.set(None);
                }
            />
            <p class="why budget-error" id="pdb-error" hidden=move || error.with(Option::is_none)>
                {move || t(Key::BudgetRefused)}
                " "
                <code>{move || error.get().unwrap_or_default()}</code>
            </p>
        </div>
    }
}
