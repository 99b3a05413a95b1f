//! The inspector: the live Node, its Lease, the Pods and the Events at the playhead, as WAI-ARIA
//! tabs. Only the open tab computes anything; its view model comes from
//! [`crate::view::inspector`] through memos, and tables are keyed by row so only rows that
//! changed are replaced.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::AppCtx;
use crate::i18n::Key;
use crate::sim::format_go_duration;
use crate::view::inspector::{
    self as vm, Cell, ConditionRow, EventList, EventRow, GraceState, LeaseView, PodRow, TaintRow,
};

/// The inspector's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tab {
    Node,
    Lease,
    Pods,
    Events,
}

impl Tab {
    const ALL: [Tab; 4] = [Tab::Node, Tab::Lease, Tab::Pods, Tab::Events];

    fn id(self) -> &'static str {
        match self {
            Tab::Node => "node",
            Tab::Lease => "lease",
            Tab::Pods => "pods",
            Tab::Events => "events",
        }
    }

    fn label(self) -> Key {
        match self {
            Tab::Node => Key::TabNode,
            Tab::Lease => Key::TabLease,
            Tab::Pods => Key::TabPods,
            Tab::Events => Key::TabEvents,
        }
    }

    fn tab_id(self) -> String {
        format!("inspector-tab-{}", self.id())
    }

    fn panel_id(self) -> String {
        format!("inspector-panel-{}", self.id())
    }

    /// The tab the arrow keys, Home and End move to from this one.
    fn moved(self, key: &str) -> Option<Tab> {
        let i = Tab::ALL.iter().position(|t| *t == self)?;
        let n = Tab::ALL.len();
        match key {
            "ArrowRight" => Some(Tab::ALL[(i + 1) % n]),
            "ArrowLeft" => Some(Tab::ALL[(i + n - 1) % n]),
            "Home" => Some(Tab::ALL[0]),
            "End" => Some(Tab::ALL[n - 1]),
            _ => None,
        }
    }
}

fn focus(id: &str) {
    if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// The inspector panel.
#[component]
pub fn Inspector() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let tab = RwSignal::new(Tab::Node);
    // The Node the reader picked; `None` follows the machine the sandbox acts on.
    let chosen = RwSignal::new(None::<String>);
    let names = Memo::new(move |_| {
        let t = ctx.t();
        ctx.with_session(|s| vm::node_names(&s.at(t)))
    });
    let default = Memo::new(move |_| {
        let t = ctx.t();
        let m = ctx.machine.get();
        ctx.with_session(|s| vm::machine_node(&s.at(t).machines(), m))
    });
    let selected = Memo::new(move |_| {
        let names = names.get();
        chosen.get().filter(|c| names.contains(c)).or_else(|| default.get()).or_else(|| names.first().cloned())
    });
    let show_picker = move || names.with(|n| n.len() > 1) && matches!(tab.get(), Tab::Node | Tab::Lease);

    let tabs = Tab::ALL
        .into_iter()
        .map(|this| {
            view! {
                <button
                    type="button"
                    role="tab"
                    id=this.tab_id()
                    aria-controls=this.panel_id()
                    aria-selected=move || (tab.get() == this).to_string()
                    tabindex=move || if tab.get() == this { "0" } else { "-1" }
                    on:click=move |_| tab.set(this)
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if let Some(next) = this.moved(&ev.key()) {
                            ev.prevent_default();
                            tab.set(next);
                            focus(&next.tab_id());
                        }
                    }
                >
                    {move || t(this.label())}
                </button>
            }
        })
        .collect_view();

    let panels = Tab::ALL
        .into_iter()
        .map(|this| {
            let open = move || tab.get() == this;
            view! {
                <div
                    role="tabpanel"
                    id=this.panel_id()
                    aria-labelledby=this.tab_id()
                    tabindex="0"
                    class="tabpanel"
                    hidden=move || !open()
                >
                    {move || {
                        open()
                            .then(|| match this {
                                Tab::Node => view! { <NodePanel selected=selected /> }.into_any(),
                                Tab::Lease => view! { <LeasePanel selected=selected /> }.into_any(),
                                Tab::Pods => view! { <PodsPanel /> }.into_any(),
                                Tab::Events => view! { <EventsPanel /> }.into_any(),
                            })
                    }}
                </div>
            }
        })
        .collect_view();

    view! {
        <section class="inspector panel" aria-labelledby="inspector-title">
            <div class="inspector-head">
                <h2 id="inspector-title">{move || t(Key::Inspector)}</h2>
                <Show when=show_picker>
                    <div class="node-pick">
                        <label for="inspector-node">{move || t(Key::InspectNode)}</label>
                        <select id="inspector-node" on:change=move |ev| chosen.set(Some(event_target_value(&ev)))>
                            <For each=move || names.get() key=|n| n.clone() let:name>
                                <option
                                    value=name.clone()
                                    prop:selected={
                                        let name = name.clone();
                                        move || selected.get().as_deref() == Some(name.as_str())
                                    }
                                >
                                    {name.clone()}
                                </option>
                            </For>
                        </select>
                    </div>
                </Show>
            </div>
            <div role="tablist" class="tabs" aria-labelledby="inspector-title">
                {tabs}
            </div>
            {panels}
        </section>
    }
}

/// A table cell that may be marked as recently changed, read from a row memo. `label` names its
/// column where narrow layouts show rows as cards.
fn cell<R: Clone + Send + Sync + PartialEq + 'static>(
    row: Memo<R>,
    get: fn(&R) -> &Cell,
    class: &'static str,
    label: Key,
) -> impl IntoView {
    let ctx = AppCtx::get();
    let changed = move || row.with(|r| get(r).changed);
    view! {
        <td
            role="cell"
            class=class
            class:changed=changed
            data-changed=move || changed().then_some("true")
            data-label=move || ctx.lang.get().text(label)
        >
            {move || row.with(|r| get(r).text.clone())}
        </td>
    }
}

/// A row of the Conditions table; its cells follow the row for the same condition type.
fn condition_row(rows: Memo<Vec<ConditionRow>>, type_: String) -> impl IntoView {
    let row =
        Memo::new(move |_| rows.with(|rs| rs.iter().find(|r| r.type_.text == type_).cloned()).unwrap_or_default());
    let health = move || format!("state state-{}", row.with(|r| r.health.class()));
    let status_changed = move || row.with(|r| r.status.changed);
    view! {
        <tr role="row" data-type=move || row.with(|r| r.type_.text.clone())>
            <th scope="row" role="rowheader" class="c-type" class:changed=move || row.with(|r| r.type_.changed)>
                {move || row.with(|r| r.type_.text.clone())}
            </th>
            <td
                role="cell"
                class="c-status"
                class:changed=status_changed
                data-changed=move || status_changed().then_some("true")
            >
                <span class=health>
                    <span class="shape" aria-hidden="true"></span>
                    {move || row.with(|r| r.status.text.clone())}
                </span>
            </td>
            {cell(row, |r| &r.last_heartbeat, "c-time c-heartbeat", Key::ColLastHeartbeatTime)}
            {cell(row, |r| &r.last_transition, "c-time c-transition", Key::ColLastTransitionTime)}
            {cell(row, |r| &r.reason, "c-reason", Key::ColReason)}
            {cell(row, |r| &r.message, "c-message", Key::ColMessage)}
        </tr>
    }
}

/// `prefix/name` with a line-break opportunity after the slash.
fn break_after_slash(key: &str) -> impl IntoView + use<> {
    match key.split_once('/') {
        Some((prefix, rest)) => {
            let (prefix, rest) = (format!("{prefix}/"), rest.to_string());
            view! { {prefix} <wbr /> {rest} }.into_any()
        }
        None => key.to_string().into_any(),
    }
}

fn taint_row(r: TaintRow, none: &'static str) -> impl IntoView {
    view! {
        <tr class:changed=r.changed data-changed=r.changed.then_some("true")>
            <td>
                <code>{break_after_slash(&r.key)}</code>
            </td>
            <td>{r.effect.clone()}</td>
            <td>{r.time_added.clone().unwrap_or_else(|| none.to_string())}</td>
        </tr>
    }
}

/// The Node tab: a `kubectl get nodes` line, the Conditions table and the taints.
#[component]
fn NodePanel(selected: Memo<Option<String>>) -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let view = Memo::new(move |_| {
        let name = selected.get()?;
        let at = ctx.t();
        ctx.with_session(|s| vm::inspect_node(s.timeline.log(), s.timeline.config().epoch, &name, at))
    });
    let exists = Memo::new(move |_| view.with(Option::is_some));
    let line = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| (v.line.clone(), v.status_changed))));
    let conditions = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.conditions.clone()).unwrap_or_default()));
    let taints = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.taints.clone()).unwrap_or_default()));

    let get_line = move || {
        line.get().map(|(l, changed)| {
            let status_class = if l.status.starts_with("Ready") { "state state-ok" } else { "state state-bad" };
            view! {
                <tr>
                    <td>{l.name}</td>
                    <td class:changed=changed data-changed=changed.then_some("true") data-col="status">
                        <span class=status_class>
                            <span class="shape" aria-hidden="true"></span>
                            {l.status}
                        </span>
                    </td>
                    <td>{l.roles}</td>
                    <td>{l.age}</td>
                    <td>{l.version}</td>
                </tr>
            }
        })
    };

    view! {
        <Show
            when=move || exists.get()
            fallback=move || {
                view! {
                    <p class="empty">
                        {move || selected.get().map(|n| format!("{n}: ")).unwrap_or_default()}
                        {move || t(Key::NoNodeYet)}
                    </p>
                }
            }
        >
            <div class="kubectl">
                <p class="command">
                    <code>{move || format!("kubectl get node {}", selected.get().unwrap_or_default())}</code>
                </p>
                <div class="table-scroll">
                    <table class="get-nodes">
                        <thead>
                            <tr>
                                <th scope="col">"NAME"</th>
                                <th scope="col">"STATUS"</th>
                                <th scope="col">"ROLES"</th>
                                <th scope="col">"AGE"</th>
                                <th scope="col">"VERSION"</th>
                            </tr>
                        </thead>
                        <tbody>{get_line}</tbody>
                    </table>
                </div>
            </div>
            <h3>{move || t(Key::Conditions)}</h3>
            <div class="table-scroll">
                // Explicit roles keep the table a table for assistive technology when narrow
                // layouts show its rows as cards.
                <table class="conditions stack" role="table">
                    <thead role="rowgroup">
                        <tr role="row">
                            <th scope="col" role="columnheader">{move || t(Key::ColType)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColStatus)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColLastHeartbeatTime)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColLastTransitionTime)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColReason)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColMessage)}</th>
                        </tr>
                    </thead>
                    <tbody role="rowgroup">
                        <For
                            each=move || conditions.with(|c| c.iter().map(|r| r.type_.text.clone()).collect::<Vec<_>>())
                            key=|ty| ty.clone()
                            let:ty
                        >
                            {condition_row(conditions, ty)}
                        </For>
                    </tbody>
                </table>
            </div>
            <p class="legend">
                <span class="legend-mark" aria-hidden="true"></span>
                {move || t(Key::ChangedLegend)}
            </p>
            <h3>{move || t(Key::Taints)}</h3>
            <Show
                when=move || taints.with(|t| !t.is_empty())
                fallback=move || view! { <p class="empty">{move || t(Key::NoTaints)}</p> }
            >
                <div class="table-scroll">
                    <table class="taints">
                        <thead>
                            <tr>
                                <th scope="col">{move || t(Key::ColKey)}</th>
                                <th scope="col">{move || t(Key::ColEffect)}</th>
                                <th scope="col">{move || t(Key::ColTimeAdded)}</th>
                            </tr>
                        </thead>
                        <tbody>
                            <For each=move || taints.get() key=|r| r.clone() let:row>
                                {taint_row(row, "—")}
                            </For>
                        </tbody>
                    </table>
                </div>
            </Show>
        </Show>
    }
}

/// The grace countdown's text and how far it has run (0 to 1).
fn grace_text(ctx: AppCtx, v: &LeaseView) -> (String, Option<String>, f64) {
    let lang = ctx.lang.get();
    let grace = format_go_duration(v.grace);
    match v.state {
        GraceState::Left(left) => {
            let done = 1.0 - (left.as_secs_f64() / v.grace.as_secs_f64()).min(1.0);
            (lang.fill(Key::GraceCountdown, &[&vm::countdown(left), &grace]), None, done.max(0.0))
        }
        GraceState::Passed => {
            let then = if v.node_unknown { Key::GraceNodeUnknown } else { Key::GraceNextCheck };
            (lang.fill(Key::GracePassed, &[&grace]), Some(lang.text(then).to_string()), 1.0)
        }
    }
}

/// The Lease tab: holder, duration, renewTime, and the grace countdown.
#[component]
fn LeasePanel(selected: Memo<Option<String>>) -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let view = Memo::new(move |_| {
        let name = selected.get()?;
        let at = ctx.t();
        let grace = ctx.profile.node_monitor_grace_period();
        ctx.with_session(|s| vm::inspect_lease(s.timeline.log(), s.timeline.config().epoch, &name, at, grace))
    });
    let body = move || match view.get() {
        None => view! {
            <p class="empty">
                {selected.get().map(|n| format!("{n}: ")).unwrap_or_default()}
                {t(Key::NoLease)}
            </p>
        }
        .into_any(),
        Some(v) => {
            let (countdown, then, done) = grace_text(ctx, &v);
            let passed = done >= 1.0;
            let state = match v.state {
                GraceState::Left(_) => "state state-ok",
                GraceState::Passed => "state state-unknown",
            };
            view! {
                <p class="object-name">
                    {t(Key::TabLease)}
                    " "
                    <code>{format!("{}/{}", v.namespace, v.name)}</code>
                </p>
                <dl class="fields">
                    <dt>{t(Key::HolderIdentity)}</dt>
                    <dd>
                        <code>{v.holder.clone().unwrap_or_else(|| "<unset>".into())}</code>
                    </dd>
                    <dt>{t(Key::LeaseDuration)}</dt>
                    <dd>
                        <code>{v.duration_seconds.map(|d| d.to_string()).unwrap_or_else(|| "<unset>".into())}</code>
                    </dd>
                    <dt>{t(Key::RenewTime)}</dt>
                    <dd class:changed=v.renew_changed data-changed=v.renew_changed.then_some("true")>
                        <code>{v.renew_time.clone().unwrap_or_else(|| "<unset>".into())}</code>
                        {v.renewed_ago.clone().map(|a| view! { <span class="ago">{ctx.lang.get().fill(Key::RenewedAgo, &[&a])}</span> })}
                    </dd>
                </dl>
                <h3>{t(Key::GracePeriodTitle)}</h3>
                <div class="grace">
                    <div class="grace-bar" aria-hidden="true">
                        <div class="grace-fill" class:passed=passed style:width=format!("{:.1}%", done * 100.0)></div>
                    </div>
                    <p class="grace-text">
                        <span class=state>
                            <span class="shape" aria-hidden="true"></span>
                            {countdown}
                        </span>
                        {then.map(|s| view! { " " {s} })}
                    </p>
                    <p class="explain">{t(Key::GraceExplain)}</p>
                </div>
            }
            .into_any()
        }
    };
    view! { <div class="lease">{body}</div> }
}

/// A row of the Pods tab; its cells follow the row for the same Pod.
fn pod_row(rows: Memo<Vec<PodRow>>, id: (String, String)) -> impl IntoView {
    let row = Memo::new(move |_| {
        rows.with(|rs| rs.iter().find(|r| r.namespace == id.0 && r.name == id.1).cloned()).unwrap_or_default()
    });
    let state = move || {
        row.with(|r| match r.status.as_str() {
            "Running" => "state state-ok",
            "Terminating" | "Failed" | "Unknown" => "state state-bad",
            _ => "state state-unknown",
        })
    };
    view! {
        <tr>
            <th scope="row">{move || row.with(|r| r.name.clone())}</th>
            <td>
                <span class=state>
                    <span class="shape" aria-hidden="true"></span>
                    {move || row.with(|r| r.status.clone())}
                </span>
            </td>
            <td>{move || row.with(|r| r.ready.clone())}</td>
            <td>{move || row.with(|r| r.node.clone())}</td>
            <td>{move || row.with(|r| r.age.clone())}</td>
        </tr>
    }
}

/// The Pods tab, like `kubectl get pods -o wide` (fewer columns).
#[component]
fn PodsPanel() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let rows = Memo::new(move |_| {
        let at = ctx.t();
        ctx.with_session(|s| vm::pod_rows(&s.at(at), s.timeline.config().epoch))
    });
    view! {
        <Show
            when=move || rows.with(|r| !r.is_empty())
            fallback=move || view! { <p class="empty">{move || t(Key::NoPods)}</p> }
        >
            <div class="table-scroll">
                <table class="pods">
                    <thead>
                        <tr>
                            <th scope="col">{move || t(Key::ColName)}</th>
                            <th scope="col">{move || t(Key::ColPhase)}</th>
                            <th scope="col">{move || t(Key::ColReady)}</th>
                            <th scope="col">{move || t(Key::ColNode)}</th>
                            <th scope="col">{move || t(Key::ColAge)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || {
                                rows.with(|r| r.iter().map(|p| (p.namespace.clone(), p.name.clone())).collect::<Vec<_>>())
                            }
                            key=|id| id.clone()
                            let:id
                        >
                            {pod_row(rows, id)}
                        </For>
                    </tbody>
                </table>
            </div>
        </Show>
    }
}

/// A row of the Events tab; its cells follow the row for the same Event object.
fn event_row(list: Memo<EventList>, id: String) -> impl IntoView {
    let ctx = AppCtx::get();
    let label = move |k: Key| ctx.lang.get().text(k);
    let row: Memo<EventRow> =
        Memo::new(move |_| list.with(|l| l.rows.iter().find(|r| r.id == id).cloned()).unwrap_or_default());
    let warning = move || row.with(|r| r.type_ == "Warning");
    view! {
        <tr role="row" class:warning=warning>
            <td role="cell" class="c-seen nowrap" data-label=move || label(Key::ColLastSeen)>
                {move || row.with(|r| r.last_seen.clone())}
            </td>
            <td role="cell" class="c-type">
                <span class=move || if warning() { "state state-bad" } else { "state state-neutral" }>
                    <span class="shape" aria-hidden="true"></span>
                    {move || row.with(|r| r.type_.clone())}
                </span>
            </td>
            <td role="cell" class="c-reason">{move || row.with(|r| r.reason.clone())}</td>
            <td role="cell" class="c-object nowrap">{move || row.with(|r| r.object.clone())}</td>
            <td role="cell" class="c-message">{move || row.with(|r| r.message.clone())}</td>
        </tr>
    }
}

/// The Events tab, like `kubectl get events`, oldest first.
#[component]
fn EventsPanel() -> impl IntoView {
    let ctx = AppCtx::get();
    let t = move |k: Key| ctx.lang.get().text(k);
    let list = Memo::new(move |_| {
        let at = ctx.t();
        ctx.with_session(|s| vm::event_list(s.timeline.log(), s.timeline.config().epoch, at, vm::EVENT_CAP))
    });
    view! {
        <Show
            when=move || list.with(|l| !l.rows.is_empty())
            fallback=move || view! { <p class="empty">{move || t(Key::NoEvents)}</p> }
        >
            <Show when=move || list.with(|l| l.capped)>
                <p class="legend">{move || ctx.lang.get().fill(Key::EventsCapped, &[&vm::EVENT_CAP.to_string()])}</p>
            </Show>
            <div class="table-scroll">
                <table class="events stack" role="table">
                    <thead role="rowgroup">
                        <tr role="row">
                            <th scope="col" role="columnheader">{move || t(Key::ColLastSeen)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColType)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColReason)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColObject)}</th>
                            <th scope="col" role="columnheader">{move || t(Key::ColMessage)}</th>
                        </tr>
                    </thead>
                    <tbody role="rowgroup">
                        <For
                            each=move || list.with(|l| l.rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>())
                            key=|id| id.clone()
                            let:id
                        >
                            {event_row(list, id)}
                        </For>
                    </tbody>
                </table>
            </div>
        </Show>
    }
}
