//! The timeline bar (clock, transport, speed, the scrub track with the chapter's steps and a tick
//! per request and event), the page's keyboard shortcuts, and the shortcut sheet.
//!
//! What the track shows is derived by [`crate::view::track`] only when the timeline changes
//! (`ctx.rev`); per animation frame only the playhead, the played shading and a few memoised
//! labels move.

use std::cell::RefCell;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::playback::SPEEDS;
use crate::sim::SimTime;
use crate::view::still::{
    HELP_ID, ICON_NEXT, ICON_PLAY, ICON_PREVIOUS, LEGEND_EVENTS, LEGEND_REQUESTS, NOT_REACHED_ID,
};
use crate::view::track::{self, Focus, Modifiers, RequestClass, Shortcut, VIEW_WIDTH, next_step, previous_step};

/// The shortcut sheet's element id.
const SHEET_ID: &str = "shortcut-sheet";
/// A step mark's width plus the least gap between two, in CSS pixels: with a mouse (the dot and a
/// gap that keeps two dots apart), and on a phone (the 44 px hit area, style/phone.css).
const MARKER_PITCH: f64 = 32.0;
const MARKER_PITCH_PHONE: f64 = 44.0;

/// The least distance between two step marks' centres at the window's width now.
fn marker_pitch() -> f64 {
    let phone = window().match_media("(max-width: 767px)").ok().flatten().is_some_and(|m| m.matches());
    if phone { MARKER_PITCH_PHONE } else { MARKER_PITCH }
}

thread_local! {
    /// What had the focus when the shortcut sheet opened: it gets it back when the sheet closes.
    static OPENER: RefCell<Option<web_sys::HtmlElement>> = const { RefCell::new(None) };
}

fn toggle_play(ctx: AppCtx) {
    let restart = ctx.restart_point();
    if ctx.playback.with_untracked(|p| !p.playing && p.at_end()) {
        ctx.seek(restart);
    }
    ctx.playback.update(|p| p.toggle(restart));
}

/// Moves to the next (`forward`) or previous step, if there is one: paused, to its moment;
/// playing, to its lead-in's start.
fn go_step(ctx: AppCtx, forward: bool) {
    let (t, playing) = ctx.playback.with_untracked(|p| (p.t, p.playing));
    let target = ctx.session.with_value(|s| if forward { next_step(&s.steps, t) } else { previous_step(&s.steps, t) });
    if let Some(target) = target {
        ctx.seek(target.time(playing));
    }
}

fn sheet() -> Option<web_sys::HtmlDialogElement> {
    document().get_element_by_id(SHEET_ID)?.dyn_into().ok()
}

fn sheet_open() -> bool {
    sheet().is_some_and(|d| d.open())
}

/// Opens the shortcut sheet, remembering what had the focus (or `opener`, if nothing had).
fn open_sheet(opener: Option<web_sys::HtmlElement>) {
    let Some(dialog) = sheet() else { return };
    if dialog.open() {
        return;
    }
    let active = document()
        .active_element()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|e| document().body().is_none_or(|b| &b != e));
    OPENER.with(|o| *o.borrow_mut() = active.or(opener));
    if dialog.show_modal().is_err() {
        return;
    }
    if let Some(close) = dialog.query_selector(".sheet-close").ok().flatten()
        && let Ok(close) = close.dyn_into::<web_sys::HtmlElement>()
    {
        let _ = close.focus();
    }
}

/// Closes the shortcut sheet (the dialog's `close` event gives the focus back).
fn close_sheet() {
    if let Some(dialog) = sheet()
        && dialog.open()
    {
        dialog.close();
    }
}

/// Where a key event's target is, for [`track::shortcut`].
fn focus_of(target: Option<web_sys::EventTarget>) -> Focus {
    let modal = sheet_open();
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return Focus { modal, ..Focus::default() };
    };
    let is = |selector: &str| el.closest(selector).ok().flatten().is_some();
    Focus {
        editing: is("textarea, select, [contenteditable]:not([contenteditable='false']), \
             input:not([type='checkbox']):not([type='radio']):not([type='button']):not([type='submit']):not([type='reset']):not([type='range'])"),
        activates: is("button, a[href], summary, input, [role='button'], [role='link'], [role='checkbox'], \
             [role='switch'], [role='menuitem'], [role='option'], [role='tab'], [role='radio'], [role='treeitem']"),
        arrows: is("[role='slider'], [role='tab'], [role='tablist'], [role='radiogroup'], [role='radio'], \
             input[type='radio'], input[type='range'], [role='listbox'], [role='menu'], [role='menubar'], \
             [role='grid'], [role='tree'], [role='spinbutton'], [role='scrollbar'], pre[tabindex]"),
        modal: modal || is("dialog[open]"),
    }
}

/// The page's keyboard shortcuts: one listener on this document's window (never a parent's), so
/// they act only while the page (or the iframe it is embedded in) has the focus.
fn install_shortcuts(ctx: AppCtx) {
    let handle = window_event_listener(ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.default_prevented() {
            return;
        }
        let modifiers = Modifiers { command: ev.ctrl_key() || ev.alt_key() || ev.meta_key(), repeat: ev.repeat() };
        let Some(action) = track::shortcut(&ev.key(), modifiers, focus_of(ev.target())) else { return };
        match action {
            Shortcut::PlayPause => toggle_play(ctx),
            Shortcut::PreviousStep => go_step(ctx, false),
            Shortcut::NextStep => go_step(ctx, true),
            Shortcut::Slower => ctx.playback.update(|p| p.slower()),
            Shortcut::Faster => ctx.playback.update(|p| p.faster()),
            Shortcut::ToggleSheet => {
                if sheet_open() {
                    close_sheet();
                } else {
                    open_sheet(None);
                }
            }
            Shortcut::CloseSheet => {
                if !sheet_open() {
                    return;
                }
                close_sheet();
            }
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
}

/// Keeps `width` equal to the element's width (once laid out: no layout is forced for it).
fn observe_width(el: web_sys::Element, width: RwSignal<f64>) {
    let target = el.clone();
    super::dom::on_resize(&target, move || {
        let _ = width.try_set(el.get_bounding_client_rect().width());
    });
}

fn icon(path: &'static str) -> impl IntoView {
    view! {
        <svg class="tl-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d=path></path>
        </svg>
    }
}

const ICON_PAUSE: &str = "M3.5 2.5h3.2v11H3.5zM9.3 2.5h3.2v11H9.3z";
const ICON_REPLAY: &str =
    "M8 2.5a5.5 5.5 0 1 1-5.36 6.75h1.85A3.75 3.75 0 1 0 5.4 5.3L7.2 7.1H2.2V2.1l1.95 1.95A5.48 5.48 0 0 1 8 2.5z";

/// The timeline bar.
#[component]
pub fn TimelineBar() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    install_shortcuts(ctx);

    // Derived when the timeline changes, not per frame.
    // Read a stretch of the log at a time, as the timeline is computed further.
    let track = Memo::new(move |_| {
        ctx.track_timeline();
        ctx.session.try_update_value(|s| s.track()).unwrap_or_default()
    });
    let steps = Memo::new(move |_| ctx.with_session(|s| s.steps.clone()));
    // Whether the reader's actions changed the story: a step that does not happen is then one of
    // the chapter's story as told, not an error.
    let departed = Memo::new(move |_| ctx.departed());
    // The story is still being computed (a fleet, in the background).
    let computing = Memo::new(move |_| ctx.with_session(|s| !s.complete()));
    // Per frame, but cheap and compared, so the DOM only changes when they do.
    let clock = Memo::new(move |_| ctx.t().clock_label());
    let seconds = Memo::new(move |_| ctx.t().as_millis() / 1000);
    let end_seconds = Memo::new(move |_| track.with(|tr| tr.end.as_millis() / 1000));
    let current = Memo::new(move |_| track::current_step(&steps.read(), ctx.t()));
    let can_go = Memo::new(move |_| {
        let t = ctx.t();
        let steps = steps.read();
        (previous_step(&steps, t).is_some(), next_step(&steps, t).is_some())
    });
    #[derive(Clone, Copy, PartialEq)]
    enum PlayState {
        Playing,
        Paused,
        Ended,
    }
    let state = Memo::new(move |_| {
        ctx.playback.with(|p| match (p.playing, p.at_end()) {
            (true, _) => PlayState::Playing,
            (false, true) => PlayState::Ended,
            (false, false) => PlayState::Paused,
        })
    });
    // The fast-forward indicator shows the stretch's cruising rate, steady for the whole stretch.
    let status = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let (playing, fast, base) = ctx.playback.with(|p| (p.playing, p.fast, p.speed_factor()));
        match (playing, fast, state.get()) {
            (true, Some(cruise), _) => {
                Some((true, lang.fill(Key::FastForwarding, &[&track::rate_label(cruise.max(base))])))
            }
            (_, _, PlayState::Ended) => Some((false, lang.text(ctx.told().says(Key::ChapterEnd)).to_string())),
            _ => None,
        }
    });
    let speed = Memo::new(move |_| ctx.playback.with(|p| p.speed));
    let skip_quiet = Memo::new(move |_| ctx.playback.with(|p| p.skip_quiet));
    let played = move || format!("{:.3}%", track::fraction(ctx.t(), track.with(|tr| tr.end)) * 100.0);

    // Step marks, spread apart at the track's measured width (neighbours grouped where even
    // that leaves too little room).
    let track_ref = NodeRef::<leptos::html::Div>::new();
    let width = RwSignal::new(0.0);
    track_ref.on_load(move |el| observe_width(el.into(), width));
    let slots = Memo::new(move |_| {
        let w = width.get();
        track.with(|tr| {
            let wanted: Vec<f64> = tr.markers.iter().map(|m| m.pos * w).collect();
            track::lay_out_marks(&wanted, w, marker_pitch())
        })
    });
    // A pin from each mark down to the moment of each reached step it stands for.
    let pins = move || {
        let w = width.get();
        slots.with(|slots| {
            track.with(|tr| {
                let mut d = String::new();
                for s in slots {
                    for m in tr.markers[s.first..=s.last].iter().filter(|m| m.t.is_some()) {
                        d.push_str(&format!("M{:.1} 0L{:.1} 10", s.x, m.pos * w));
                    }
                }
                d
            })
        })
    };

    // Dragging: pause while the pointer holds the playhead, then resume if it was playing.
    let scrub_ref = NodeRef::<leptos::html::Div>::new();
    let drag = StoredValue::new(None::<bool>);
    let seek_to_pointer = move |x: i32| {
        let Some(el) = scrub_ref.get_untracked() else { return };
        let rect = el.get_bounding_client_rect();
        let f = (f64::from(x) - rect.left()) / rect.width().max(1.0);
        ctx.seek(track::time_at(f, track.with_untracked(|tr| tr.end)));
    };
    let end_drag = move || {
        if let Some(was_playing) = drag.get_value() {
            drag.set_value(None);
            if was_playing {
                ctx.playback.update(|p| {
                    if !p.at_end() {
                        p.playing = true;
                    }
                });
            }
        }
    };

    let speed_options = move || {
        let lang = ctx.lang.get();
        SPEEDS
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let label = lang.fill(Key::SpeedValue, &[&s.to_string()]);
                view! {
                    <option value=i.to_string() selected=move || speed.get() == i>
                        {label}
                    </option>
                }
            })
            .collect_view()
    };

    // What a step's mark says of it: its name, its title with its moment, whether it can be
    // chosen (found, or pending while the story is computed), and its moment.
    let describe = move |lang: crate::i18n::Lang, m: &track::Marker| {
        let n = m.n;
        let title_text = ctx.texts(lang).steps.get(n - 1).map(|s| s.title).unwrap_or_default();
        // Not found yet, while the story is still computed: it may happen, and choosing it
        // computes up to it (as the narration's step list does).
        let pending = m.t.is_none() && computing.get();
        let title = match m.t {
            Some(at) => lang.fill(Key::StepMarkerTitle, &[&n.to_string(), title_text, &at.clock_label()]),
            None if pending => lang.fill(Key::StepPendingTitle, &[&n.to_string(), title_text]),
            // Once the reader departed, the chapter's own story, as the narration lists it.
            None if departed.get() => lang.fill(ctx.told().says(Key::StepOfStory), &[&n.to_string(), title_text]),
            None => ctx.not_reached(lang),
        };
        (title, pending)
    };

    let markers = move || {
        let lang = ctx.lang.get();
        slots.with(|slots| {
            track.with(|tr| {
                slots
                    .iter()
                    .map(|slot| {
                        let left = format!("{:.1}px", slot.x);
                        if slot.is_group() {
                            // A menu of its steps (the system's own picker on a phone); choosing
                            // one goes there, and the mark reads its steps' numbers again.
                            let (first, last) = (tr.markers[slot.first].n, tr.markers[slot.last].n);
                            let name = lang.fill(Key::StepGroup, &[&first.to_string(), &last.to_string()]);
                            let options = tr.markers[slot.first..=slot.last]
                                .iter()
                                .map(|m| {
                                    let (title, pending) = describe(lang, m);
                                    view! {
                                        <option value=m.n.to_string() disabled=m.t.is_none() && !pending>
                                            {title}
                                        </option>
                                    }
                                })
                                .collect_view();
                            return view! {
                                <select
                                    class="tl-marker tl-group"
                                    class:passed=move || { current.get() >= last }
                                    class:holds-current=move || (first..=last).contains(&current.get())
                                    style:left=left
                                    aria-label=name
                                    on:change=move |ev| {
                                        let select = event_target::<web_sys::HtmlSelectElement>(&ev);
                                        if let Ok(n) = select.value().parse::<usize>() {
                                            ctx.seek_step(n);
                                        }
                                        select.set_value("");
                                    }
                                >
                                    <option value="" selected hidden>
                                        {format!("{first}–{last}")}
                                    </option>
                                    {options}
                                </select>
                            }
                            .into_any();
                        }
                        let m = tr.markers[slot.first];
                        let n = m.n;
                        let name = lang.fill(Key::StepLabel, &[&n.to_string()]);
                        let (title, pending) = describe(lang, &m);
                        let found = m.t.is_some();
                        let reached = found || pending;
                        view! {
                            <button
                                type="button"
                                class="tl-marker"
                                class:unreached=!reached
                                class:pending=pending
                                class:passed=move || { found && current.get() >= n }
                                style:left=left
                                aria-label=name
                                title=title
                                aria-disabled=(!reached).then_some("true")
                                aria-describedby=(!reached).then_some(NOT_REACHED_ID)
                                aria-current=move || (found && current.get() == n).then_some("step")
                                data-clock=m.t.map(SimTime::clock_label)
                                on:click=move |_| {
                                    ctx.seek_step(n);
                                }
                            >
                                <span class="tl-dot">{n}</span>
                            </button>
                        }
                        .into_any()
                    })
                    .collect_view()
            })
        })
    };

    let event_ticks = move || {
        track.with(|tr| {
            tr.events
                .iter()
                .map(|e| {
                    view! {
                        <span
                            class=format!("tl-event {}", e.class.css())
                            style:left=format!("{:.3}%", e.pos * 100.0)
                        ></span>
                    }
                })
                .collect_view()
        })
    };

    let step_lines = move || {
        track.with(|tr| {
            tr.markers
                .iter()
                .filter(|m| m.t.is_some())
                .map(|m| view! { <span class="tl-step-line" style:left=format!("{:.3}%", m.pos * 100.0)></span> })
                .collect_view()
        })
    };

    let request_paths = RequestClass::ALL
        .into_iter()
        .map(|class| {
            let (y0, y1) = match class {
                RequestClass::Routine => (7.0, 15.0),
                RequestClass::Timeout => (0.0, 22.0),
                _ => (3.0, 19.0),
            };
            view! { <path class=class.css() d=move || track.with(|tr| track::tick_path(&tr.requests, class, y0, y1))></path> }
        })
        .collect_view();

    view! {
        <section class="timeline" aria-label=move || t(Key::TimelineRegion)>
            <div class="tl-controls">
                <div class="tl-transport">
                    <button
                        type="button"
                        class="tl-play"
                        on:click=move |_| toggle_play(ctx)
                    >
                        {move || {
                            icon(
                                match state.get() {
                                    PlayState::Playing => ICON_PAUSE,
                                    PlayState::Paused => ICON_PLAY,
                                    PlayState::Ended => ICON_REPLAY,
                                },
                            )
                        }}
                        <span>
                            {move || match state.get() {
                                PlayState::Playing => t(Key::Pause),
                                PlayState::Paused => t(Key::Play),
                                PlayState::Ended => t(Key::Replay),
                            }}
                        </span>
                    </button>
                    <button
                        type="button"
                        class="secondary tl-step-button"
                        title=move || t(Key::PreviousStep)
                        aria-disabled=move || (!can_go.get().0).then_some("true")
                        on:click=move |_| go_step(ctx, false)
                    >
                        {icon(ICON_PREVIOUS)}
                        <span class="sr-only">{move || t(Key::PreviousStep)}</span>
                    </button>
                    <button
                        type="button"
                        class="secondary tl-step-button"
                        title=move || t(Key::NextStep)
                        aria-disabled=move || (!can_go.get().1).then_some("true")
                        on:click=move |_| go_step(ctx, true)
                    >
                        {icon(ICON_NEXT)}
                        <span class="sr-only">{move || t(Key::NextStep)}</span>
                    </button>
                </div>
                <span class="tl-clock" role="timer" aria-label=move || t(Key::Clock)>
                    {move || clock.get()}
                </span>
                <div class="tl-options">
                    <label class="tl-speed">
                        <span>{move || t(Key::Speed)}</span>
                        <select on:change=move |ev| {
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                ctx.playback.update(|p| p.set_speed(i));
                            }
                        }>{speed_options}</select>
                    </label>
                    <label class="tl-skip">
                        <input
                            type="checkbox"
                            prop:checked=move || skip_quiet.get()
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                ctx.playback.update(|p| {
                                    p.skip_quiet = on;
                                    p.fast = None;
                                });
                            }
                        />
                        <span>{move || t(Key::SkipQuiet)}</span>
                    </label>
                </div>
            </div>
            <p class="tl-status" class:fast=move || status.with(|s| s.as_ref().is_some_and(|s| s.0))>
                {move || status.with(|s| s.as_ref().map(|s| s.1.clone()))}
            </p>
            <div class="tl-track" node_ref=track_ref>
                <div class="tl-markers">{markers}</div>
                <svg class="tl-pins" aria-hidden="true" focusable="false" width="100%" height="10">
                    <path d=pins></path>
                </svg>
                <div
                    class="tl-scrub"
                    node_ref=scrub_ref
                    role="slider"
                    tabindex="0"
                    aria-label=move || t(Key::Timeline)
                    aria-describedby=HELP_ID
                    aria-orientation="horizontal"
                    aria-valuemin="0"
                    aria-valuemax=move || end_seconds.get().to_string()
                    aria-valuenow=move || seconds.get().to_string()
                    aria-valuetext=move || clock.get()
                    on:keydown=move |ev: ev::KeyboardEvent| {
                        if ev.ctrl_key() || ev.alt_key() || ev.meta_key() {
                            return;
                        }
                        let (now, end) = (ctx.playback.with_untracked(|p| p.t), track.with_untracked(|tr| tr.end));
                        if let Some(to) = track::slider_key(&ev.key(), ev.shift_key(), now, end) {
                            ev.prevent_default();
                            ctx.seek(to);
                        }
                    }
                    on:pointerdown=move |ev: ev::PointerEvent| {
                        if ev.button() != 0 {
                            return;
                        }
                        let Some(el) = scrub_ref.get_untracked() else { return };
                        ev.prevent_default();
                        let _ = el.set_pointer_capture(ev.pointer_id());
                        let _ = el.focus();
                        if drag.get_value().is_none() {
                            drag.set_value(Some(ctx.playback.with_untracked(|p| p.playing)));
                            ctx.playback.update(|p| p.pause());
                        }
                        seek_to_pointer(ev.client_x());
                    }
                    on:pointermove=move |ev: ev::PointerEvent| {
                        if drag.get_value().is_some() {
                            seek_to_pointer(ev.client_x());
                        }
                    }
                    on:pointerup=move |_| end_drag()
                    on:pointercancel=move |_| end_drag()
                    on:lostpointercapture=move |_| end_drag()
                >
                    <div class="tl-played" style:width=played></div>
                    <div class="tl-step-lines">{step_lines}</div>
                    <svg
                        class="tl-requests"
                        viewBox=format!("0 0 {VIEW_WIDTH} 22")
                        preserveAspectRatio="none"
                        aria-hidden="true"
                        focusable="false"
                    >
                        {request_paths}
                    </svg>
                    <div class="tl-events" aria-hidden="true">{event_ticks}</div>
                    <div class="tl-playhead" style:left=played></div>
                </div>
                <div class="tl-axis" aria-hidden="true">
                    <span>{SimTime::ZERO.clock_label()}</span>
                    <span>{move || track.with(|tr| tr.end.clock_label())}</span>
                </div>
            </div>
            <div class="tl-footer">
                <Legend />
                <button
                    type="button"
                    class="secondary tl-sheet-button"
                    aria-haspopup="dialog"
                    on:click=move |ev: ev::MouseEvent| {
                        let opener = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .and_then(|e| e.closest("button").ok().flatten())
                            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
                        open_sheet(opener);
                    }
                >
                    <kbd aria-hidden="true">"?"</kbd>
                    <span>{move || t(Key::Shortcuts)}</span>
                </button>
            </div>
            <p id=HELP_ID class="sr-only">{move || t(Key::TimelineHelp)}</p>
            <p id=NOT_REACHED_ID class="sr-only">
                {move || {
                    let lang = ctx.lang.get();
                    if departed.get() { lang.text(Key::StepStoryOnly).to_string() } else { ctx.not_reached(lang) }
                }}
            </p>
        </section>
    }
}

/// What the colours and shapes of the ticks mean (for sighted readers; the ticks themselves are
/// hidden from assistive technology, which gets the slider's time and the narration instead).
#[component]
fn Legend() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    view! {
        <span class="tl-legend-group" aria-hidden="true">
            <span class="tl-legend-title">{move || t(Key::Requests)}</span>
            {LEGEND_REQUESTS
                .into_iter()
                .map(|(class, key)| {
                    view! {
                        <span class="tl-legend-item">
                            <span class=format!("tl-swatch {}", class.css())></span>
                            {move || t(key)}
                        </span>
                    }
                })
                .collect_view()}
        </span>
        <span class="tl-legend-group" aria-hidden="true">
            <span class="tl-legend-title">{move || t(Key::EventsTrack)}</span>
            {LEGEND_EVENTS
                .into_iter()
                .map(|(class, key)| {
                    view! {
                        <span class="tl-legend-item">
                            <span class=format!("tl-event tl-swatch-event {}", class.css())></span>
                            {move || t(key)}
                        </span>
                    }
                })
                .collect_view()}
        </span>
    }
}

/// The shortcut sheet: a modal dialog listing the keyboard shortcuts. `?` or the bar's
/// "Keyboard shortcuts" button opens it; Esc, `?` or Close closes it and the focus goes back.
#[component]
pub fn ShortcutSheet() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let row = move |keys: Vec<Vec<Key>>, literal: &'static [&'static str], what: Key| {
        view! {
            <div class="sheet-row">
                <dt>
                    {keys
                        .into_iter()
                        .map(|combo| {
                            let n = combo.len();
                            combo
                                .into_iter()
                                .enumerate()
                                .map(move |(i, k)| {
                                    view! {
                                        <kbd>{move || t(k)}</kbd>
                                        {(i + 1 < n).then_some("+")}
                                    }
                                })
                                .collect_view()
                        })
                        .collect_view()}
                    {literal.iter().map(|k| view! { <kbd>{*k}</kbd> }).collect_view()}
                </dt>
                <dd>{move || t(what)}</dd>
            </div>
        }
    };
    view! {
        <dialog
            id=SHEET_ID
            class="sheet"
            aria-labelledby="shortcut-sheet-title"
            on:close=move |_| {
                if let Some(el) = OPENER.with(|o| o.borrow_mut().take())
                    && el.is_connected()
                {
                    let _ = el.focus();
                }
            }
            on:click=move |ev: ev::MouseEvent| {
                // A click on the backdrop (the dialog element itself, outside its box) closes it.
                let on_dialog = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|e| e.id() == SHEET_ID);
                if on_dialog {
                    close_sheet();
                }
            }
            on:keydown=move |ev: ev::KeyboardEvent| trap_tab(&ev)
        >
            <div class="sheet-box">
                <div class="sheet-header">
                    <h2 id="shortcut-sheet-title">{move || t(Key::ShortcutsTitle)}</h2>
                    <button type="button" class="secondary sheet-close" on:click=move |_| close_sheet()>
                        {move || t(Key::Close)}
                    </button>
                </div>
                <dl class="sheet-list">
                    {row(vec![vec![Key::KeyCapSpace]], &[], Key::ShortcutPlayPause)}
                    {row(vec![], &["←"], Key::ShortcutPrevStep)}
                    {row(vec![], &["→"], Key::ShortcutNextStep)}
                    {row(vec![], &["-", "["], Key::ShortcutSlower)}
                    {row(vec![], &["+", "]"], Key::ShortcutFaster)}
                    {row(vec![], &["?"], Key::ShortcutHelp)}
                    {row(vec![vec![Key::KeyCapEsc]], &[], Key::ShortcutClose)}
                </dl>
                <h3 class="sheet-subtitle">{move || t(Key::ShortcutsOnTimeline)}</h3>
                <dl class="sheet-list">
                    {row(vec![], &["←", "→"], Key::ShortcutSeekSecond)}
                    {row(vec![vec![Key::KeyCapShift]], &["←", "→"], Key::ShortcutSeekTenSeconds)}
                    {row(vec![vec![Key::KeyCapPageDown], vec![Key::KeyCapPageUp]], &[], Key::ShortcutSeekMinute)}
                    {row(vec![vec![Key::KeyCapHome], vec![Key::KeyCapEnd]], &[], Key::ShortcutSeekEnds)}
                </dl>
            </div>
        </dialog>
    }
}

/// Keeps Tab and Shift+Tab inside the open sheet. Its one control is the Close button, so the
/// focus stays there (a sheet with more controls would cycle through them).
fn trap_tab(ev: &web_sys::KeyboardEvent) {
    if ev.key() != "Tab" {
        return;
    }
    let Some(close) = sheet().and_then(|d| d.query_selector(".sheet-close").ok().flatten()) else { return };
    if let Ok(close) = close.dyn_into::<web_sys::HtmlElement>() {
        ev.prevent_default();
        let _ = close.focus();
    }
}
