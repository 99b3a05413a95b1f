//! The fleet chapter's stage (chapter 4): the three zones of node cells, the zones' states and
//! queues, and kube-controller-manager's log beside them. The drawing is derived by
//! [`crate::view::fleet`] (one SVG path per kind of cell) and patched in place; a click on a cell,
//! or the arrow keys on the focused drawing, choose the node the inspector and the sandbox show.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::view::fleet::{self as vm, Fleet};
use crate::view::zonechart::{self, ZoneChart};

/// How many log lines the pane shows.
const LOG_LINES: usize = 8;

/// The fleet stage.
#[component]
pub fn FleetStage() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let fleet = Memo::new(move |_| {
        let at = ctx.t();
        ctx.with_session(|s| Fleet::build(&s.at(at), s.timeline.log()))
    });
    let drawing = Memo::new(move |_| fleet.with(|f| vm::fleet_markup(f, ctx.lang.get(), ctx.machine.get())));
    let description = Memo::new(move |_| fleet.with(|f| vm::fleet_description(f, ctx.lang.get())));
    let log = Memo::new(move |_| {
        let at = ctx.t();
        ctx.with_session(|s| {
            let log = s.timeline.log();
            vm::log_markup(&vm::controller_log(log, at, s.timeline.config().epoch, LOG_LINES))
        })
    });
    // The chart is read once per timeline (and again as the timeline is computed further).
    let chart = Memo::new(move |_| {
        ctx.with_session(|s| {
            let end = s.end().min(s.timeline.horizon());
            ZoneChart::build(s.timeline.log(), &crate::sim::ZONES, end)
        })
    });
    let chart_svg = Memo::new(move |_| chart.with(|c| zonechart::chart_markup(c, ctx.lang.get(), ctx.t())));
    let chart_text = Memo::new(move |_| chart.with(|c| zonechart::values_text(c, ctx.lang.get(), ctx.t())));
    let chart_layer = NodeRef::<leptos::svg::G>::new();
    Effect::new(move |_| {
        let html = chart_svg.get();
        if let Some(layer) = chart_layer.get() {
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
        let x = (f64::from(e.client_x()) - rect.left()) * vm::VIEW_W / rect.width();
        let y = (f64::from(e.client_y()) - rect.top()) * height / rect.height();
        if let Some(m) = fleet.with_untracked(|f| f.hit(x, y)) {
            ctx.machine.set(m);
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
        ctx.machine.set(fleet.with_untracked(|f| f.step(m, across, forward)));
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
                viewBox=move || format!("0 0 {} {:.0}", vm::VIEW_W, fleet.with(|f| f.height))
                aria-label=move || t(Key::FleetStage)
                aria-describedby="fleet-desc"
                on:click=click
                on:keydown=key
            >
                <g node_ref=layer></g>
            </svg>
            <p id="fleet-desc" class="sr-only">
                {description}
            </p>
            <section class="zone-chart" aria-labelledby="zone-chart-title">
                <h3 id="zone-chart-title">{move || t(Key::ChartTitle)}</h3>
                <p class="chart-legend">{move || t(Key::ChartLegend)}</p>
                <svg
                    class="chart-svg"
                    role="img"
                    viewBox=format!("0 0 {} {}", zonechart::CHART_W, zonechart::CHART_H)
                    aria-label=move || t(Key::ChartTitle)
                    aria-describedby="zone-chart-values"
                >
                    <g node_ref=chart_layer></g>
                </svg>
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
