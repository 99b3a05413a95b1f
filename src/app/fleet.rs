//! The fleet chapter's stage (chapter 4): the three zones of node cells, the zones' states and
//! queues, and kube-controller-manager's log beside them. The drawing is derived by
//! [`crate::view::fleet`] (one SVG path per kind of cell) and patched in place; a click on a cell,
//! or the arrow keys on the focused drawing, choose the node the inspector and the sandbox show.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::sim::ZoneState;
use crate::view::fleet::{self as vm, Fleet};
use crate::view::zonechart::{self, ZoneChart};

/// The chart's point at the playhead, in the first zone that is not Normal (else the first).
fn playhead_point(c: &ZoneChart, ctx: AppCtx) -> zonechart::Point {
    let sample = c.index_at(ctx.playback.with_untracked(|p| p.t));
    let zone = c
        .zones
        .iter()
        .position(|z| {
            z.state.get(sample).is_some_and(|s| matches!(s, ZoneState::PartialDisruption | ZoneState::FullDisruption))
        })
        .unwrap_or(0);
    zonechart::Point { zone, sample }
}

/// The fleet at the playhead (empty in the other chapters), built once a frame for every part
/// of the page that shows it (the stage, the live region), and the index of the log's controller
/// lines it is built with, made once per timeline.
#[derive(Clone, Copy)]
pub struct FleetNow {
    pub fleet: Memo<Fleet>,
    pub lines: Memo<vm::ControllerLines>,
    /// The stage's width in CSS pixels, measured as the stage resizes: the drawing is drawn at
    /// the widest of [`vm::WIDTHS`] that fits it ([`vm::rung`]).
    pub width: RwSignal<f64>,
}

impl FleetNow {
    /// Makes the memos and puts them in context.
    pub fn provide(ctx: AppCtx) {
        let lines = Memo::new(move |_| ctx.with_session(|s| s.lines.clone()));
        // The width the still view's fleet takes in the page (the same box as the app's, and
        // the stage's help line spans it as the drawing does): drawn for it from the start, the
        // fleet is drawn at the width the still view shows, and not again a frame later.
        let still = document().query_selector("[data-still] .fleet-help").ok().flatten();
        let first = still.map(|p| p.get_bounding_client_rect().width()).filter(|w| *w > 0.0);
        let width = RwSignal::new(first.unwrap_or(vm::VIEW_W));
        let fleet = Memo::new(move |_| {
            if !ctx.is_fleet() {
                return Fleet::default();
            }
            let at = ctx.t();
            let w = width.get();
            // The controller's lines up to the playhead: those after it, computed further, are
            // not read.
            lines.with_untracked(|l| {
                ctx.with_session_at(|s| Fleet::build(&s.fleet, s.timeline.log(), l, at, w, s.timeline.settings()))
            })
        });
        provide_context(FleetNow { fleet, lines, width });
    }

    /// The memos, from inside a component.
    pub fn get() -> FleetNow {
        expect_context::<FleetNow>()
    }
}

/// The fleet stage.
#[component]
pub fn FleetStage() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let now = FleetNow::get();
    let fleet = now.fleet;
    let drawing = Memo::new(move |_| fleet.with(|f| vm::fleet_markup(f, ctx.lang.get(), ctx.machine.get())));
    let description = Memo::new(move |_| fleet.with(|f| vm::fleet_description(f, ctx.lang.get())));
    // The node lifecycle controller's client: what waits for its tokens, and since when.
    let client = Memo::new(move |_| {
        let (at, lang) = (ctx.t(), ctx.lang.get());
        ctx.with_session_at(|s| vm::client_text(s.timeline.log(), at, lang))
    });
    let log = Memo::new(move |_| {
        let at = ctx.t();
        ctx.with_session_at(|s| {
            let log = s.timeline.log();
            now.lines.with_untracked(|l| {
                vm::log_markup(&vm::controller_log(log, l, at, s.timeline.config().epoch, vm::LOG_LINES))
            })
        })
    });
    // The chart is read once per timeline (and again as the timeline is computed further).
    let chart = Memo::new(move |_| {
        ctx.track_timeline();
        ctx.session.try_update_value(|s| s.zone_chart(&crate::sim::ZONES)).unwrap_or_default()
    });
    // The chart is as wide as the fleet drawing, stacked with it on phones.
    let chart_layout = Memo::new(move |_| fleet.with(|f| zonechart::ChartLayout::of(&f.layout)));
    let chart_svg = Memo::new(move |_| chart.with(|c| zonechart::chart_markup(c, ctx.lang.get(), chart_layout.get())));
    // The values at the playhead are the zones' own, from the fleet at the playhead.
    let chart_text = Memo::new(move |_| fleet.with(|f| zonechart::values_text(f, ctx.lang.get())));
    // The chart's point under the pointer or chosen with the keys (its values in words).
    let point = RwSignal::new(None::<zonechart::Point>);
    let overlay =
        Memo::new(move |_| chart.with(|c| zonechart::overlay_markup(c, ctx.t(), point.get(), chart_layout.get())));
    let point_text = Memo::new(move |_| {
        let lang = ctx.lang.get();
        chart.with(|c| match point.get() {
            Some(p) => zonechart::point_text(c, lang, p),
            None => chart_text.get(),
        })
    });
    let chart_layer = NodeRef::<leptos::svg::G>::new();
    let overlay_layer = NodeRef::<leptos::svg::G>::new();
    for (markup, layer) in [(chart_svg, chart_layer), (overlay, overlay_layer)] {
        Effect::new(move |_| {
            let html = markup.get();
            if let Some(layer) = layer.get() {
                super::dom::morph(&layer, &html);
            }
        });
    }
    // Pods leaving a zone and arriving in others: each zone's change over the last minute.
    let moved = Memo::new(move |_| chart.with(|c| c.moved(ctx.t(), vm::MOVED_WINDOW)));
    let transfer = Memo::new(move |_| {
        let lang = ctx.lang.get();
        moved.with(|m| fleet.with(|f| vm::transfer_markup(f, m, lang)))
    });
    let moved_text = move || moved.with(|m| fleet.with(|f| vm::transfer_text(f, m, ctx.lang.get())));
    let transfer_layer = NodeRef::<leptos::svg::G>::new();
    Effect::new(move |_| {
        let html = transfer.get();
        if let Some(layer) = transfer_layer.get() {
            super::dom::morph(&layer, &html);
        }
    });
    let layer = NodeRef::<leptos::svg::G>::new();
    Effect::new(move |_| {
        let html = drawing.get();
        if let Some(layer) = layer.get() {
            super::dom::morph(&layer, &html);
        }
    });
    // The drawing is drawn again when the stage's width calls for another of its widths.
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    Effect::new(move |_| {
        let Some(svg) = svg_ref.get() else { return };
        let el: web_sys::Element = svg.into();
        let measured = el.clone();
        super::dom::on_resize(&el, move || {
            // Unrounded: the still view's container queries choose by the same width.
            let w = measured.get_bounding_client_rect().width();
            if w > 0.0 && vm::rung(w) != vm::rung(now.width.get_untracked()) {
                // Next frame: a new width changes the drawing's height, and changing an observed
                // size inside the observer's own callback is a "ResizeObserver loop" (an error
                // in Firefox and WebKit).
                request_animation_frame(move || now.width.set(w));
            }
        });
    });
    let lines = NodeRef::<leptos::html::Ol>::new();
    Effect::new(move |_| {
        let html = log.get();
        if let Some(el) = lines.get() {
            el.set_inner_html(&html);
        }
    });

    let click = move |e: ev::MouseEvent| {
        let Some(svg) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            return;
        }
        let height = fleet.with_untracked(|f| f.height);
        let view_w = fleet.with_untracked(|f| f.layout.width);
        let x = (f64::from(e.client_x()) - rect.left()) * view_w / rect.width();
        let y = (f64::from(e.client_y()) - rect.top()) * height / rect.height();
        if let Some(m) = fleet.with_untracked(|f| f.hit(x, y)) {
            ctx.pick_machine(m);
        }
    };
    let key = move |e: ev::KeyboardEvent| {
        let (across, forward) = match e.key().as_str() {
            "ArrowRight" => (false, true),
            "ArrowLeft" => (false, false),
            "ArrowDown" => (true, true),
            "ArrowUp" => (true, false),
            _ => return,
        };
        e.prevent_default();
        let m = ctx.machine.get_untracked();
        ctx.pick_machine(fleet.with_untracked(|f| f.step(m, across, forward)));
    };

    let chart_point = move |e: &web_sys::MouseEvent| {
        let svg = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())?;
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            return None;
        }
        let l = chart_layout.get_untracked();
        let h = chart.with_untracked(|c| l.height(c.zones.len()));
        let x = (f64::from(e.client_x()) - rect.left()) * l.width / rect.width();
        let y = (f64::from(e.client_y()) - rect.top()) * h / rect.height();
        chart.with_untracked(|c| c.point_at(l, x, y))
    };
    let chart_key = move |e: ev::KeyboardEvent| {
        let (across, by) = match e.key().as_str() {
            "ArrowRight" => (false, 1),
            "ArrowLeft" => (false, -1),
            "PageUp" => (false, 10),
            "PageDown" => (false, -10),
            "Home" => (false, -(zonechart::SAMPLES as isize)),
            "End" => (false, zonechart::SAMPLES as isize),
            "ArrowDown" => (true, 1),
            "ArrowUp" => (true, -1),
            _ => return,
        };
        e.prevent_default();
        let here = point.get_untracked().unwrap_or_else(|| chart.with_untracked(|c| playhead_point(c, ctx)));
        point.set(Some(chart.with_untracked(|c| c.step(here, across, by))));
    };

    view! {
        <section class="stage fleet-stage" aria-labelledby="stage-title">
            <h2 id="stage-title" class="sr-only">
                {move || t(Key::FleetStage)}
            </h2>
            <p class="fleet-help">{move || t(Key::FleetStageHelp)}</p>
            <svg
                class="fleet-svg"
                role="img"
                tabindex="0"
                node_ref=svg_ref
                viewBox=move || fleet.with(|f| format!("0 0 {:.0} {:.0}", f.layout.width, f.height))
                aria-label=move || t(Key::FleetStage)
                aria-describedby="fleet-desc"
                on:click=click
                on:keydown=key
            >
                <g node_ref=layer></g>
                <g class="transfers" node_ref=transfer_layer></g>
            </svg>
            <p class="fleet-client" class:waiting=move || client.with(|c| c.0)>
                {move || client.with(|c| c.1.clone())}
            </p>
            <p id="fleet-desc" class="sr-only">
                {description}
                " "
                {moved_text}
            </p>
            <section class="zone-chart" aria-labelledby="zone-chart-title">
                <h3 id="zone-chart-title">{move || t(Key::ChartTitle)}</h3>
                <p class="chart-legend">{move || t(Key::ChartLegend)}</p>
                <p class="chart-legend">{move || t(Key::ChartHelp)}</p>
                <svg
                    class="chart-svg"
                    role="slider"
                    tabindex="0"
                    viewBox=move || {
                        let l = chart_layout.get();
                        chart.with(|c| format!("0 0 {:.0} {:.0}", l.width, l.height(c.zones.len())))
                    }
                    aria-label=move || t(Key::ChartPointName)
                    aria-describedby="zone-chart-values"
                    aria-valuemin="0"
                    aria-valuemax=zonechart::SAMPLES - 1
                    aria-valuenow=move || {
                        point.get().map_or_else(|| chart.with(|c| c.index_at(ctx.t())), |p| p.sample)
                    }
                    aria-valuetext=point_text
                    on:mousemove=move |e| {
                        if let Some(p) = chart_point(&e) {
                            point.set(Some(p));
                        }
                    }
                    on:mouseleave=move |_| point.set(None)
                    on:focus=move |_| point.set(Some(chart.with_untracked(|c| playhead_point(c, ctx))))
                    on:blur=move |_| point.set(None)
                    on:keydown=chart_key
                >
                    <g node_ref=chart_layer></g>
                    <g class="chart-overlay" node_ref=overlay_layer></g>
                </svg>
                <p class="chart-point" aria-hidden="true">
                    {move || point.get().map(|_| point_text.get())}
                </p>
                <p id="zone-chart-values" class="chart-values" aria-live="off">
                    {chart_text}
                </p>
            </section>
            <section class="controller-log" aria-labelledby="controller-log-title">
                <h3 id="controller-log-title">{move || t(Key::ControllerLog)}</h3>
                <ol class="log-lines" node_ref=lines></ol>
            </section>
        </section>
    }
}
