//! The stage as SVG markup, set with `innerHTML` by the component: a few string writers cost a
//! fraction of the code size of typed view trees, and the markup can be checked natively.

use std::fmt::{self, Write as _};

use super::geometry::{Pt, Rect};
use super::packets::Packet;
use super::scene::{ActorBox, ControlPlane, Health, LeaseCard, Line, MachineBox, Scene, StateChip, Store};
use crate::view::html::escape;

/// A coordinate, with at most one decimal.
struct N(f32);

impl fmt::Display for N {
    /// Integer formatting only: float formatting would add code for nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round() as i32;
        let sign = if tenths < 0 { "-" } else { "" };
        let abs = tenths.unsigned_abs();
        if abs.is_multiple_of(10) {
            write!(f, "{sign}{}", abs / 10)
        } else {
            write!(f, "{sign}{}.{}", abs / 10, abs % 10)
        }
    }
}

impl Scene {
    /// The SVG `viewBox`.
    pub fn view_box(&self) -> String {
        format!("0 0 {} {}", N(self.width), N(self.height))
    }
}

fn points_attr(pts: &[Pt]) -> String {
    let mut s = String::new();
    for (i, p) in pts.iter().enumerate() {
        let _ = write!(s, "{}{},{}", if i > 0 { " " } else { "" }, N(p.x), N(p.y));
    }
    s
}

fn rect(o: &mut String, r: Rect, class: &str, rx: f32) {
    let _ = write!(
        o,
        r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}" rx="{}"/>"#,
        N(r.x),
        N(r.y),
        N(r.w),
        N(r.h),
        N(rx)
    );
}

fn text(o: &mut String, class: &str, x: f32, y: f32, s: &str) {
    let _ = write!(o, r#"<text class="{class}" x="{}" y="{}">{}</text>"#, N(x), N(y), escape(s));
}

fn line(o: &mut String, class: &str, a: Pt, b: Pt) {
    let _ = write!(o, r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#, N(a.x), N(a.y), N(b.x), N(b.y));
}

/// Opens a group; `label` makes it a named group for assistive technology.
fn group(o: &mut String, class: &str, label: Option<&str>, target: Option<&str>) {
    let _ = write!(o, r#"<g class="{class}""#);
    if let Some(l) = label {
        let _ = write!(o, r#" role="group" aria-label="{}""#, escape(l));
    }
    if let Some(t) = target {
        let _ = write!(o, r#" data-target="{t}""#);
    }
    o.push('>');
}

/// The shape that says a state without colour, centred on `(x, y)`: a disc (ok), a triangle
/// (warning), a crossed square (down).
fn icon(o: &mut String, health: Health, x: f32, y: f32) {
    let class = health.class();
    match health {
        Health::Ok => {
            let _ = write!(o, r#"<circle class="icon {class}" cx="{}" cy="{}" r="4.5"/>"#, N(x), N(y));
        }
        Health::Warn => {
            let pts = [Pt { x, y: y - 5.5 }, Pt { x: x + 5.5, y: y + 4.5 }, Pt { x: x - 5.5, y: y + 4.5 }];
            let _ = write!(o, r#"<polygon class="icon {class}" points="{}"/>"#, points_attr(&pts));
        }
        Health::Down => {
            let _ = write!(o, r#"<g class="icon {class}">"#);
            rect(o, Rect::new(x - 4.5, y - 4.5, 9.0, 9.0), "", 0.0);
            line(o, "", Pt { x: x - 3.0, y: y - 3.0 }, Pt { x: x + 3.0, y: y + 3.0 });
            line(o, "", Pt { x: x + 3.0, y: y - 3.0 }, Pt { x: x - 3.0, y: y + 3.0 });
            o.push_str("</g>");
        }
    }
}

/// A diagonal stroke across something that is down.
fn strike(o: &mut String, r: Rect) {
    line(o, "strike", Pt { x: r.x + 3.0, y: r.bottom() - 3.0 }, Pt { x: r.right() - 3.0, y: r.y + 3.0 });
}

/// A row with a state (kubelet, network): frame, shape, text; struck through when down.
fn state_chip(o: &mut String, chip: &StateChip, class: &str, target: &str) {
    let r = chip.rect;
    group(o, &format!("chip {class} {}", chip.health.class()), Some(&chip.label), Some(target));
    rect(o, r, "frame", 4.0);
    if chip.health == Health::Down {
        strike(o, r);
    }
    icon(o, chip.health, r.x + 12.0, r.cy());
    text(o, "chip-text", r.x + 24.0, r.cy() + 4.0, &chip.text);
    o.push_str("</g>");
}

/// The machines.
pub fn machines_markup(machines: &[MachineBox]) -> String {
    let mut o = String::with_capacity(2048 * machines.len());
    for m in machines {
        let r = m.rect;
        // `data-node`: the node's name, for question mode's "pick a node on the stage" (`app::quiz`).
        let _ = write!(
            o,
            r#"<g class="machine{}" role="group" aria-label="{}" data-target="machine" data-node="{}">"#,
            if m.powered_off { " powered-off" } else { "" },
            escape(&m.label),
            escape(&m.name)
        );
        rect(&mut o, r, "frame machine-frame", 8.0);
        text(&mut o, "machine-name", r.x + 10.0, r.y + 18.0, &m.name);
        if m.ip_inline {
            let _ = write!(
                o,
                r#"<text class="mono muted" x="{}" y="{}" text-anchor="end">{}</text>"#,
                N(r.right() - 10.0),
                N(r.y + 18.0),
                escape(&m.ip)
            );
        } else {
            text(&mut o, "mono muted", r.x + 10.0, r.y + 33.0, &m.ip);
        }
        state_chip(&mut o, &m.kubelet, "kubelet", "kubelet");
        for c in &m.credentials {
            group(&mut o, &format!("credentials {}", c.health.class()), Some(&c.label), Some("kubelet"));
            rect(&mut o, c.rect, "frame", 3.0);
            icon(&mut o, c.health, c.rect.x + 12.0, c.rect.cy());
            let class = if c.health == Health::Ok { "mono" } else { "small" };
            text(&mut o, class, c.rect.x + 24.0, c.rect.cy() + 3.5, &c.text);
            o.push_str("</g>");
        }

        let rt = &m.runtime;
        let chip = &rt.chip;
        group(&mut o, &format!("runtime {}", chip.health.class()), Some(&chip.label), Some("runtime"));
        rect(&mut o, rt.rect, "frame runtime-frame", 5.0);
        if chip.health == Health::Down {
            strike(&mut o, chip.rect);
        }
        icon(&mut o, chip.health, chip.rect.x + 12.0, chip.rect.y + 12.0);
        text(&mut o, "chip-text", chip.rect.x + 24.0, chip.rect.y + 16.0, &chip.text);
        if let Some((c, t)) = &rt.cni {
            o.push_str(r#"<g class="cni">"#);
            rect(&mut o, *c, "frame", 3.0);
            icon(&mut o, Health::Warn, c.x + 10.0, c.cy());
            text(&mut o, "small", c.x + 20.0, c.cy() + 3.5, t);
            o.push_str("</g>");
        }
        let list = &rt.containers;
        let lr = list.rect;
        group(&mut o, "containers", Some(&list.label), Some("containers"));
        rect(&mut o, lr, "frame containers-frame", 3.0);
        text(&mut o, "small muted", lr.x + 2.0, lr.y + 12.0, &list.title);
        for (c, t) in &list.rows {
            o.push_str(r#"<g class="container">"#);
            rect(&mut o, *c, "frame", 3.0);
            rect(&mut o, Rect::new(c.x + 6.0, c.cy() - 4.0, 8.0, 8.0), "container-icon", 1.0);
            text(&mut o, "mono", c.x + 20.0, c.cy() + 3.5, t);
            o.push_str("</g>");
        }
        if let Some((c, t)) = &list.more {
            text(&mut o, "small muted", c.x + 6.0, c.cy() + 3.5, t);
        }
        o.push_str("</g></g>");
        for v in &m.volumes {
            let health = if v.attached { Health::Ok } else { Health::Warn };
            group(&mut o, &format!("volume {}", health.class()), Some(&v.label), Some("volume"));
            // A click opens the VolumeAttachment in the YAML tab (`app::inspector`).
            o.pop();
            let _ = write!(o, r#" data-object="{}">"#, escape(&v.object));
            rect(&mut o, v.rect, "frame volume-frame", 9.0);
            icon(&mut o, health, v.rect.x + 12.0, v.rect.cy());
            text(&mut o, "mono", v.rect.x + 24.0, v.rect.cy() + 3.5, &v.text);
            o.push_str("</g>");
        }
        state_chip(&mut o, &m.network, "network", "network");
        o.push_str("</g>");
    }
    o
}

/// The arrows; a cut one is drawn in two pieces with a cross and the word "cut" between them.
pub fn lines_markup(lines: &[Line], cut_text: &str) -> String {
    let mut o = String::with_capacity(256 * lines.len());
    for l in lines {
        let class = l.sender.class();
        let target = l.target.map(|t| format!(r#" data-target="{t}""#)).unwrap_or_default();
        match (l.cut, l.cut_at) {
            (true, Some(at)) => {
                let gap = 9.0 / l.route.length().max(1.0);
                let p = l.route.at(at);
                let _ = write!(
                    o,
                    r#"<g class="link {class} cut"{target}><polyline class="link-line" points="{}"/><polyline class="link-line" points="{}" marker-end="url(#stage-arrow)"/><g class="cut-mark">"#,
                    points_attr(&l.route.slice(0.0, at - gap)),
                    points_attr(&l.route.slice(at + gap, 1.0)),
                );
                line(&mut o, "", Pt { x: p.x - 6.0, y: p.y - 6.0 }, Pt { x: p.x + 6.0, y: p.y + 6.0 });
                line(&mut o, "", Pt { x: p.x + 6.0, y: p.y - 6.0 }, Pt { x: p.x - 6.0, y: p.y + 6.0 });
                let _ = write!(
                    o,
                    r#"</g><text class="cut-text" x="{}" y="{}" text-anchor="end">{}</text></g>"#,
                    N(p.x - 10.0),
                    N(p.y + 4.0),
                    escape(cut_text)
                );
            }
            _ => {
                let _ = write!(
                    o,
                    r#"<g class="link {class}"{target}><polyline class="link-line" points="{}" marker-end="url(#stage-arrow)"/></g>"#,
                    points_attr(&l.route.points)
                );
            }
        }
    }
    o
}

fn actor(o: &mut String, a: &ActorBox) {
    let r = a.rect;
    let kind = if a.component { "component" } else { "sub" };
    group(o, &format!("actor {} {kind}", a.sender.class()), Some(&a.text), a.target);
    rect(o, r, "frame", if a.component { 6.0 } else { 4.0 });
    let _ = write!(o, r#"<circle class="actor-dot" cx="{}" cy="{}" r="3.5"/>"#, N(r.x + 12.0), N(r.cy()));
    text(o, if a.component { "component-title" } else { "chip-text" }, r.x + 22.0, r.cy() + 4.0, &a.text);
    o.push_str("</g>");
}

/// The control plane, and the line from the API server to what it stores.
pub fn control_plane_markup(cp: &ControlPlane, storage: (Pt, Pt)) -> String {
    let mut o = String::with_capacity(4096);
    let _ = write!(o, r#"<polygon class="cp-frame" points="{}"/>"#, points_attr(&cp.frame));
    text(&mut o, "section-title", cp.title_at.x, cp.title_at.y, &cp.title);
    line(&mut o, "storage-link", storage.0, storage.1);
    let m = cp.manager;
    group(&mut o, "manager", Some(&cp.manager_title), None);
    rect(&mut o, m, "frame manager-frame", 6.0);
    text(&mut o, "component-title", m.x + 8.0, m.y + 16.0, &cp.manager_title);
    for a in cp.actors.iter().filter(|a| !a.component) {
        actor(&mut o, a);
    }
    o.push_str("</g>");
    for a in cp.actors.iter().filter(|a| a.component) {
        actor(&mut o, a);
    }
    let api = cp.apiserver;
    group(&mut o, "apiserver", Some(&cp.apiserver_text), Some("apiserver"));
    rect(&mut o, api, "frame apiserver-frame", 8.0);
    let _ = write!(
        o,
        r#"<text class="apiserver-text" x="{}" y="{}" text-anchor="middle">{}</text></g>"#,
        N(api.cx()),
        N(api.cy() + 5.0),
        escape(&cp.apiserver_text)
    );
    o
}

/// Everything but the Lease cards (which change every second) and the packets (every frame),
/// bottom layer first.
pub fn scene_markup(scene: &Scene, cut_text: &str) -> String {
    let mut o = String::from(concat!(
        r#"<defs><marker id="stage-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" "#,
        r#"markerHeight="7" orient="auto-start-reverse"><path class="arrow-head" d="M0,1 L9,5 L0,9 z"/></marker></defs>"#
    ));
    o.push_str(&store_markup(&scene.store));
    o.push_str(&control_plane_markup(&scene.control_plane, scene.storage_link));
    o.push_str(&lines_markup(&scene.lines, cut_text));
    o.push_str(&machines_markup(&scene.machines));
    o
}

/// The objects the API server stores, but the Lease cards.
pub fn store_markup(st: &Store) -> String {
    let mut o = String::with_capacity(4096);
    rect(&mut o, st.frame, "frame store-frame", 8.0);
    text(&mut o, "section-title", st.frame.x + 10.0, st.frame.y + 17.0, &st.title);

    let ns = st.lease_ns;
    group(&mut o, "lease-ns", Some(&st.lease_ns_title), Some("lease"));
    rect(&mut o, ns, "frame ns-frame", 6.0);
    text(&mut o, "card-title mono-title", ns.x + 8.0, ns.y + 16.0, &st.lease_ns_title);
    if let Some((p, t)) = &st.no_leases {
        text(&mut o, "small muted", p.x, p.y, t);
    }
    o.push_str("</g>");

    o.push_str(r#"<g class="nodes">"#);
    for c in &st.nodes {
        let r = c.rect;
        let class = format!("card node-card {}{}", c.health.class(), if c.fresh { " fresh" } else { "" });
        group(&mut o, &class, Some(&c.label), Some("node"));
        rect(&mut o, r, "frame", 5.0);
        text(&mut o, "card-title", r.x + 8.0, r.y + 16.0, &c.title);
        o.push_str(r#"<g class="node-status" data-target="conditions">"#);
        rect(&mut o, Rect::new(r.x + 4.0, r.y + 22.0, r.w - 8.0, 18.0), "frame", 3.0);
        icon(&mut o, c.health, r.x + 14.0, r.y + 31.0);
        text(&mut o, "status-text", r.x + 24.0, r.y + 35.0, &c.status);
        o.push_str(r#"</g><g class="taints" data-target="taints">"#);
        for chip in &c.taints {
            let _ = write!(o, r#"<g class="taint{}">"#, if chip.no_execute { " no-execute" } else { "" });
            rect(&mut o, chip.rect, "", 8.0);
            text(&mut o, "mono", chip.rect.x + 5.0, chip.rect.y + 11.5, &chip.text);
            o.push_str("</g>");
        }
        if let Some(t) = &c.no_taints {
            text(&mut o, "small muted", r.x + 8.0, r.y + 56.0, t);
        }
        o.push_str("</g></g>");
    }
    if let Some((p, t)) = &st.no_nodes {
        text(&mut o, "small muted", p.x, p.y, t);
    }
    o.push_str("</g>");

    for c in &st.budgets {
        let r = c.rect;
        let class = format!("card budget-card {}{}", c.health.class(), if c.fresh { " fresh" } else { "" });
        group(&mut o, &class, Some(&c.label), None);
        rect(&mut o, r, "frame", 5.0);
        text(&mut o, "card-title", r.x + 8.0, r.y + 16.0, &c.title);
        text(&mut o, "mono", r.x + 8.0, r.y + 30.0, &c.spec);
        text(&mut o, "mono", r.x + 8.0, r.y + 44.0, &c.healthy);
        icon(&mut o, c.health, r.x + 14.0, r.y + 55.0);
        text(&mut o, "mono allowed", r.x + 24.0, r.y + 59.0, &c.allowed);
        o.push_str("</g>");
    }

    let r = st.pods_frame;
    group(&mut o, "pods", Some(&st.pods_title), Some("pods"));
    rect(&mut o, r, "frame pods-frame", 6.0);
    text(&mut o, "card-title", r.x + 8.0, r.y + 16.0, &st.pods_title);
    for p in &st.pods {
        let pr = p.rect;
        let _ = write!(o, r#"<g class="pod {}">"#, p.health.class());
        icon(&mut o, p.health, pr.x + 6.0, pr.y + 9.0);
        text(&mut o, "mono", pr.x + 16.0, pr.y + 12.0, &p.name);
        if let Some(id) = &p.identity {
            let _ = write!(
                o,
                r#"<text class="small identity" x="{}" y="{}" text-anchor="end" data-object="{}">{}</text>"#,
                N(pr.right() - 4.0),
                N(pr.y + 12.0),
                escape(p.owner.as_deref().unwrap_or_default()),
                escape(id)
            );
        }
        text(&mut o, "small muted", pr.x + 16.0, pr.y + 26.0, &p.detail);
        o.push_str("</g>");
    }
    if let Some((p, t)) = &st.pods_note {
        text(&mut o, "small muted", p.x, p.y, t);
    }
    if let Some(b) = &st.pods_toggle {
        let _ = write!(
            o,
            r#"<g class="pods-toggle" role="button" tabindex="0" data-expand="pods" aria-expanded="{}" aria-label="{}">"#,
            b.expanded,
            escape(&b.label)
        );
        rect(&mut o, b.rect, "toggle-frame", 4.0);
        text(&mut o, "small", b.rect.x + 8.0, b.rect.y + 16.0, &b.text);
        o.push_str("</g>");
    }
    o.push_str("</g>");
    o
}

/// The Lease cards.
pub fn leases_markup(leases: &[LeaseCard]) -> String {
    let mut o = String::with_capacity(768 * leases.len());
    for c in leases {
        let r = c.rect;
        let class =
            format!("card lease-card{}{}", if c.stale { " stale" } else { "" }, if c.fresh { " fresh" } else { "" });
        group(&mut o, &class, Some(&c.label), Some("lease"));
        rect(&mut o, r, "frame", 5.0);
        text(&mut o, "card-title", r.x + 8.0, r.y + 16.0, &c.title);
        text(&mut o, "mono", r.x + 8.0, r.y + 30.0, &c.holder);
        text(&mut o, "mono", r.x + 8.0, r.y + 44.0, &c.renew);
        if c.stale {
            icon(&mut o, Health::Warn, r.x + 14.0, r.y + 55.0);
        }
        text(&mut o, "small ago", if c.stale { r.x + 24.0 } else { r.x + 8.0 }, r.y + 59.0, &c.ago);
        o.push_str("</g>");
    }
    o
}

/// The packets on screen (decorative: the caption says the same in words).
pub fn packets_markup(packets: &[Packet]) -> String {
    let mut o = String::with_capacity(400 * packets.len());
    for p in packets {
        let _ = write!(
            o,
            r#"<g class="packet {} {}{}" data-packet="{}""#,
            p.class,
            p.tone.class(),
            if p.routine { " routine" } else { "" },
            p.seq
        );
        if p.opacity < 1.0 {
            let _ = write!(o, r#" opacity="{}""#, N(p.opacity));
        }
        let _ = write!(
            o,
            r#"><circle class="packet-dot" cx="{}" cy="{}" r="{}"/>"#,
            N(p.pos.x),
            N(p.pos.y),
            if p.routine { 4 } else { 6 }
        );
        rect(&mut o, Rect::new(p.label_at.x, p.label_at.y, p.label_w, 15.0), "packet-label", 3.0);
        let _ = write!(
            o,
            r#"<text class="mono packet-text" x="{}" y="{}">{}"#,
            N(p.label_at.x + 5.0),
            N(p.label_at.y + 11.0),
            escape(&p.text)
        );
        if let Some(code) = &p.code {
            let _ = write!(o, r#"<tspan class="packet-code"> {}</tspan>"#, escape(code));
        }
        o.push_str("</text></g>");
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::sim::{Chapter, Method, Outcome, SimTime};
    use crate::view::stage::fixtures::{LEASE, kubelet, log_of, req, scene, scene_at};
    use crate::view::stage::{Layout, Timing, packets};

    /// Opening and closing tags of `tag` balance (`<g>` nests; others close themselves or on the
    /// same element).
    fn balanced(markup: &str) -> bool {
        let opens = markup.matches("<g ").count() + markup.matches("<g>").count();
        opens == markup.matches("</g>").count() && markup.matches("<text ").count() == markup.matches("</text>").count()
    }

    #[test]
    fn markup_names_every_group_and_escapes_text() {
        assert_eq!([N(12.0), N(-3.25), N(0.04), N(649.55)].map(|n| n.to_string()), ["12", "-3.3", "0", "649.6"]);

        for (chapter, actions, secs) in [
            (Chapter::NodeFailure, "", 480),
            (Chapter::Registration, "cut-network@1m", 90),
            (Chapter::Registration, "", 0),
        ] {
            for layout in [Layout::Wide, Layout::Narrow] {
                let s = scene_at(chapter, actions, secs, layout);
                let parts = [
                    machines_markup(&s.machines),
                    lines_markup(&s.lines, "cut"),
                    control_plane_markup(&s.control_plane, s.storage_link),
                    store_markup(&s.store),
                    leases_markup(&s.store.leases),
                ];
                for part in &parts {
                    assert!(balanced(part), "{chapter} {secs}: {part}");
                }
                assert!(parts[2].contains(r#"role="group" aria-label="kube-apiserver" data-target="apiserver""#));
                assert!(parts[2].contains(r#"aria-label="node lifecycle controller" data-target="nlc""#));
            }
        }
        let s = scene_at(Chapter::NodeFailure, "", 150, Layout::Wide);
        let m = machines_markup(&s.machines);
        assert!(m.contains(r#"role="group" aria-label="node-1: kubelet stopped" data-target="kubelet""#), "{m}");
        assert!(m.contains(r#"aria-label="Machine node-1 (10.0.0.11)" data-target="machine" data-node="node-1">"#));
        assert!(m.contains("/nginx</text>"));
        let s = scene_at(Chapter::Registration, "cut-network@1m", 90, Layout::Wide);
        let l = lines_markup(&s.lines, "cut");
        assert!(l.contains(r#"<g class="link kubelet cut" data-target="network">"#), "{l}");
        assert!(l.contains(">cut</text>"));
    }

    #[test]
    fn packet_markup_shows_method_path_and_answer() {
        let scene = scene();
        let log = log_of(vec![
            req(1, 0, kubelet(), Method::Put, LEASE, Outcome::Code(200)),
            req(2, 300, kubelet(), Method::Post, "/api/v1/nodes", Outcome::Code(201)),
        ]);
        let ps = packets(&log, SimTime::from_millis(500), Timing::new(1.0, false), &scene, Lang::En);
        let m = packets_markup(&ps);
        assert!(balanced(&m), "{m}");
        assert!(m.contains(r#"<g class="packet kubelet ok routine" data-packet="1" opacity="0.8">"#), "{m}");
        assert!(m.contains(r#">PUT …/leases/node-1<tspan class="packet-code"> 200</tspan></text>"#), "{m}");
        assert!(m.contains(r#"<g class="packet kubelet travelling" data-packet="2">"#), "{m}");
        assert!(m.contains(">POST /api/v1/nodes</text>"), "{m}");
    }
}
