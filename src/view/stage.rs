//! The stage's view model: what the SVG stage draws at one instant, and where.
//!
//! Everything here is a plain function of the session, the playhead, the effective playback rate
//! and the reader's motion preference; the component in `app::stage` only renders the result.
//! Geometry is in the user units of a view box whose width is fixed per [`Layout`] (the SVG scales
//! to its container), so it can be tested natively.
//!
//! Requests are drawn as packets travelling along the arrow from their sender to the API server.
//! A packet is on screen for [`PACKET_REAL_SECS`] of *real* time, i.e. that many seconds times the
//! playback rate of simulated time: its position is a function of `playhead − request.t` and the
//! rate only, so scrubbing, pausing and replaying all agree. Requests sent together are staggered
//! by [`STAGGER_REAL_SECS`] (real time) so a burst reads as a sequence; at most [`MAX_PACKETS`] are
//! drawn (the oldest go first). A request that timed out (the network is cut) stops at the cut,
//! waits there for its client timeout, and then says so.
//!
//! Per frame the work is bounded: requests are found by binary search around the playhead
//! ([`Log::first_request_from`]), never by scanning the whole log.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::time::Duration;

use crate::i18n::{Key, Lang};
use crate::sim::objects::{Kind, Lease, Node, Pod};
use crate::sim::{
    Actor, HEARTBEAT_TIMEOUT, KubeletState, Log, MachineView, NODE_LEASE_NAMESPACE, Outcome, Request, SimTime,
    Snapshot, format_go_duration,
};
use crate::view::session::{Session, is_routine};

/// How long a packet is on screen, in real seconds.
pub const PACKET_REAL_SECS: f64 = 0.6;
/// The real-time gap between packets sent at the same instant.
pub const STAGGER_REAL_SECS: f64 = 0.12;
/// The most packets drawn at once.
pub const MAX_PACKETS: usize = 8;
/// The most places a packet is pushed back in a burst.
const MAX_STAGGER: u32 = 7;
/// The share of its window a packet spends travelling; the rest it rests at its destination,
/// showing the answer.
const TRAVEL: f64 = 0.55;
/// The share of the window at the end during which a packet fades out.
const FADE: f64 = 0.2;

/// Container rows drawn per machine (more are summarised).
const MAX_CONTAINER_ROWS: usize = 4;
/// Pod rows drawn (more are summarised).
const MAX_POD_ROWS: usize = 6;

/// Estimated advance of one character of the stage's sans-serif text (11.5 px), in user units
/// (measured with DejaVu Sans, among the widest system fonts).
const CH_SANS: f32 = 5.7;
/// Estimated advance of one character of the stage's monospace text (10 px).
const CH_MONO: f32 = 6.1;

/// The two arrangements of the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Machines in a row on top (two rows past three machines), the control plane below them,
    /// the stored objects at the bottom in three columns.
    Wide,
    /// Everything in one column, for phones.
    Narrow,
}

impl Layout {
    /// Containers narrower than this (CSS px) get the narrow layout.
    pub const BREAKPOINT: f64 = 600.0;

    /// The layout for a container `px` CSS pixels wide.
    pub fn for_width(px: f64) -> Layout {
        if px > 0.0 && px < Layout::BREAKPOINT { Layout::Narrow } else { Layout::Wide }
    }

    /// The view box width, in user units.
    pub fn width(self) -> f32 {
        match self {
            Layout::Wide => 800.0,
            Layout::Narrow => 376.0,
        }
    }
}

/// A point, in user units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

/// A rectangle, in user units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    pub fn cx(&self) -> f32 {
        self.x + self.w / 2.0
    }
    pub fn cy(&self) -> f32 {
        self.y + self.h / 2.0
    }
    /// Whether the two rectangles overlap (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }
    /// Whether `o` lies inside this rectangle.
    pub fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x - 0.01
            && o.y >= self.y - 0.01
            && o.right() <= self.right() + 0.01
            && o.bottom() <= self.bottom() + 0.01
    }
}

/// A polyline requests travel along, from the sender (fraction 0) to the API server (1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    pub points: Vec<Pt>,
}

impl Route {
    fn new(points: Vec<Pt>) -> Route {
        Route { points }
    }

    /// The route's length.
    pub fn length(&self) -> f32 {
        self.points.windows(2).map(|w| dist(w[0], w[1])).sum()
    }

    /// The point at `frac` (0..=1) of the length.
    pub fn at(&self, frac: f32) -> Pt {
        let Some(first) = self.points.first() else { return Pt::default() };
        let mut left = self.length() * frac.clamp(0.0, 1.0);
        for w in self.points.windows(2) {
            let d = dist(w[0], w[1]);
            if left <= d && d > 0.0 {
                let k = left / d;
                return Pt { x: w[0].x + (w[1].x - w[0].x) * k, y: w[0].y + (w[1].y - w[0].y) * k };
            }
            left -= d;
        }
        *self.points.last().unwrap_or(first)
    }

    /// Whether the segment at `frac` runs more up-down than sideways.
    pub fn vertical_at(&self, frac: f32) -> bool {
        let mut left = self.length() * frac.clamp(0.0, 1.0);
        for w in self.points.windows(2) {
            let d = dist(w[0], w[1]);
            if left <= d {
                return (w[1].y - w[0].y).abs() >= (w[1].x - w[0].x).abs();
            }
            left -= d;
        }
        true
    }

    /// The part of the route between two fractions, as a polyline.
    pub fn slice(&self, from: f32, to: f32) -> Vec<Pt> {
        let total = self.length();
        let (a, b) = (total * from.clamp(0.0, 1.0), total * to.clamp(0.0, 1.0));
        let mut out = vec![self.at(from)];
        let mut walked = 0.0;
        for w in self.points.windows(2) {
            walked += dist(w[0], w[1]);
            if walked > a && walked < b {
                out.push(w[1]);
            }
        }
        out.push(self.at(to));
        out
    }
}

fn dist(a: Pt, b: Pt) -> f32 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}

/// How a part of the system is doing. It picks the shape drawn next to the text (never colour
/// alone): a disc, a triangle, or a crossed square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    Ok,
    Warn,
    Down,
}

impl Health {
    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            Health::Ok => "ok",
            Health::Warn => "warn",
            Health::Down => "down",
        }
    }
}

/// A row with a state: a shape, a text, and the accessible name of its group.
#[derive(Clone, Debug, PartialEq)]
pub struct StateChip {
    pub rect: Rect,
    pub health: Health,
    pub text: String,
    /// The accessible name, e.g. `node-1: kubelet stopped`.
    pub label: String,
}

/// The containers a machine runs (containerd owns them; they outlive the kubelet).
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerList {
    pub rect: Rect,
    /// `2 containers running`.
    pub title: String,
    /// One row per container: `pod/container`.
    pub rows: Vec<(Rect, String)>,
    /// `+3 more`, when not every container has a row.
    pub more: Option<(Rect, String)>,
    pub label: String,
}

/// containerd on a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeBox {
    /// The box around containerd and its containers.
    pub rect: Rect,
    /// The title row (state shape and text).
    pub chip: StateChip,
    /// `no CNI config: NetworkReady=false`, while the CNI plugin has not written its config.
    pub cni: Option<(Rect, String)>,
    pub containers: ContainerList,
}

/// One machine.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineBox {
    pub name: String,
    pub ip: String,
    pub rect: Rect,
    /// Where the IP goes: after the name (`true`) or on its own line.
    pub ip_inline: bool,
    /// The accessible name: `Machine node-1 (10.0.0.11)`.
    pub label: String,
    pub kubelet: StateChip,
    pub runtime: RuntimeBox,
    pub network: StateChip,
}

/// Who a route belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sender {
    /// A machine's kubelet, by machine name.
    Machine(String),
    NodeLifecycle,
    TaintEviction,
    ReplicaSet,
    /// The node IPAM and TTL controllers, which share a row.
    IpamTtl,
    Scheduler,
    Kubectl,
}

impl Sender {
    /// The sender of a request.
    pub fn of(actor: &Actor) -> Sender {
        match actor {
            Actor::Kubelet(m) => Sender::Machine(m.to_string()),
            Actor::NodeLifecycleController => Sender::NodeLifecycle,
            Actor::TaintEvictionController => Sender::TaintEviction,
            Actor::ReplicaSetController => Sender::ReplicaSet,
            Actor::NodeIpamController | Actor::TtlController => Sender::IpamTtl,
            Actor::Scheduler => Sender::Scheduler,
            Actor::Kubectl | Actor::KubectlAsNode(_) => Sender::Kubectl,
        }
    }

    /// The CSS class of the sender's colour.
    pub fn class(&self) -> &'static str {
        match self {
            Sender::Machine(_) => "kubelet",
            Sender::Scheduler => "scheduler",
            Sender::Kubectl => "client",
            _ => "controller",
        }
    }
}

/// An arrow requests travel along.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub sender: Sender,
    pub route: Route,
    /// Where a cut network is cut (and where timed-out requests stop), as a fraction of the route.
    pub cut_at: Option<f32>,
    /// Whether it is cut now.
    pub cut: bool,
    /// The narration target (`network` for machine links).
    pub target: Option<&'static str>,
}

/// A box in the control plane, or kubectl.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorBox {
    pub sender: Sender,
    pub rect: Rect,
    pub text: String,
    pub target: Option<&'static str>,
    /// A top-level component (its own box with a bold title) rather than a row inside one.
    pub component: bool,
}

/// The control plane.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlPlane {
    /// The outline around the control plane (kubectl stays outside it).
    pub frame: Vec<Pt>,
    pub title: String,
    pub title_at: Pt,
    pub apiserver: Rect,
    pub apiserver_text: String,
    pub manager: Rect,
    pub manager_title: String,
    pub actors: Vec<ActorBox>,
}

/// A taint, as a chip on its Node's card.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    pub rect: Rect,
    /// Short form: `not-ready:NoSchedule`.
    pub text: String,
    /// As kubectl prints it: `node.kubernetes.io/not-ready:NoSchedule`.
    pub full: String,
    pub no_execute: bool,
}

/// A Node object.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeCard {
    pub rect: Rect,
    /// `Node node-1`.
    pub title: String,
    /// kubectl's STATUS column: `Ready`, `NotReady`, `Unknown`, maybe `,SchedulingDisabled`.
    pub status: String,
    pub health: Health,
    pub taints: Vec<Chip>,
    /// `Taints: none`, when there are none.
    pub no_taints: Option<String>,
    pub label: String,
    /// Changed within the last packet window (it is drawn lit up).
    pub fresh: bool,
}

/// A Lease object in `kube-node-lease`.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaseCard {
    pub rect: Rect,
    /// `Lease node-1`.
    pub title: String,
    /// `holderIdentity: node-1`.
    pub holder: String,
    /// `renewTime: 2026-03-02T09:00:10.763258Z`.
    pub renew: String,
    /// `renewed 4s ago`.
    pub ago: String,
    /// Older than the node monitor grace period.
    pub stale: bool,
    pub label: String,
    pub fresh: bool,
}

/// A Pod object.
#[derive(Clone, Debug, PartialEq)]
pub struct PodRow {
    pub rect: Rect,
    pub name: String,
    /// kubectl's READY and STATUS columns and the node: `1/1 Running · node-1`.
    pub detail: String,
    pub health: Health,
}

/// The objects the API server stores.
#[derive(Clone, Debug, PartialEq)]
pub struct Store {
    pub frame: Rect,
    pub title: String,
    pub nodes: Vec<NodeCard>,
    /// `no Node object yet`.
    pub no_nodes: Option<(Pt, String)>,
    pub lease_ns: Rect,
    pub lease_ns_title: String,
    pub leases: Vec<LeaseCard>,
    pub no_leases: Option<(Pt, String)>,
    pub pods_frame: Rect,
    pub pods_title: String,
    pub pods: Vec<PodRow>,
    /// `No Pods`, or `+3 more`.
    pub pods_note: Option<(Pt, String)>,
}

/// Everything on the stage but the packets.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub layout: Layout,
    pub width: f32,
    pub height: f32,
    pub machines: Vec<MachineBox>,
    pub lines: Vec<Line>,
    pub control_plane: ControlPlane,
    /// The line from the API server down to what it stores.
    pub storage_link: (Pt, Pt),
    pub store: Store,
}

/// How a request ended, as far as the playhead knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Still on its way.
    Travelling,
    /// 2xx.
    Ok,
    /// 4xx or 5xx.
    Warn,
    /// Stuck at a cut, waiting for its timeout.
    Waiting,
    /// Timed out.
    Timeout,
}

impl Tone {
    /// The CSS class.
    pub fn class(self) -> &'static str {
        match self {
            Tone::Travelling => "travelling",
            Tone::Ok => "ok",
            Tone::Warn => "warn",
            Tone::Waiting => "waiting",
            Tone::Timeout => "timeout",
        }
    }
}

/// A request on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Packet {
    pub seq: u64,
    pub pos: Pt,
    /// `PUT …/leases/node-1`.
    pub text: String,
    /// `200`, `timeout`, `no answer yet`: shown once it has arrived (or got stuck).
    pub code: Option<String>,
    pub tone: Tone,
    /// A routine heartbeat (a Lease renewal, a read): drawn lighter.
    pub routine: bool,
    /// The sender's colour class.
    pub class: &'static str,
    /// The top-left corner of the label box, and its width.
    pub label_at: Pt,
    pub label_w: f32,
    /// 1 while fully visible, less while fading out (always 1 with reduced motion).
    pub opacity: f32,
}

/// The whole stage at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct StageModel {
    pub scene: Scene,
    pub packets: Vec<Packet>,
    /// The last request, for the caption under the stage.
    pub caption: String,
}

impl StageModel {
    /// The stage at `t`, playing at `rate` × real time.
    pub fn build(
        session: &Session,
        t: SimTime,
        rate: f64,
        reduced_motion: bool,
        layout: Layout,
        lang: Lang,
    ) -> StageModel {
        let timing = Timing::new(rate, reduced_motion);
        let scene = Scene::build(session, t, timing, layout, lang);
        let log = session.timeline.log();
        StageModel { packets: packets(log, t, timing, &scene, lang), caption: caption(log, t, timing, lang), scene }
    }
}

/// How packets are timed at a playback rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// How long a packet is on screen, in simulated time.
    pub window: Duration,
    /// How far apart requests sent together are drawn, in simulated time.
    pub stagger: Duration,
    pub reduced_motion: bool,
}

impl Timing {
    /// The timing at `rate` × real time (non-positive or absurd rates count as 1×).
    pub fn new(rate: f64, reduced_motion: bool) -> Timing {
        let rate = if rate.is_finite() && rate > 0.0 { rate.clamp(0.01, 10_000.0) } else { 1.0 };
        Timing {
            window: Duration::from_secs_f64(PACKET_REAL_SECS * rate),
            stagger: Duration::from_secs_f64(STAGGER_REAL_SECS * rate),
            reduced_motion,
        }
    }

    /// How far back from the playhead a request can still be on screen: its stagger, a wait
    /// for its client timeout (the kubelet's, the only one the simulation has), and a window.
    fn lookback(&self) -> Duration {
        self.stagger * MAX_STAGGER + HEARTBEAT_TIMEOUT + self.window * 2
    }
}

/// A request with the instant its packet starts (after staggering).
#[derive(Clone, Copy, Debug)]
struct Scheduled<'a> {
    index: usize,
    req: &'a Request,
    start: SimTime,
}

/// The requests that may be on screen at `t`, with their staggered start, oldest first. Also
/// returns the index where the scan began.
fn scheduled(log: &Log, t: SimTime, timing: Timing) -> (usize, Vec<Scheduled<'_>>) {
    let from = t.saturating_sub(timing.lookback());
    // Requests sent within one stagger before the scan still push the first ones back.
    let warm = log.first_request_from(from.saturating_sub(timing.stagger));
    let begin = log.first_request_from(from);
    let end = log.requests.partition_point(|r| r.t <= t);
    let mut out = Vec::with_capacity(end.saturating_sub(begin));
    let mut lo = warm;
    for i in warm..end {
        let r = &log.requests[i];
        while lo < i && log.requests[lo].t + timing.stagger <= r.t {
            lo += 1;
        }
        if i < begin {
            continue;
        }
        let k = ((i - lo) as u32).min(MAX_STAGGER);
        out.push(Scheduled { index: i, req: r, start: r.t + timing.stagger * k });
    }
    (begin, out)
}

/// The packets on screen at `t`.
pub fn packets(log: &Log, t: SimTime, timing: Timing, scene: &Scene, lang: Lang) -> Vec<Packet> {
    let (_, list) = scheduled(log, t, timing);
    let window = timing.window.as_secs_f64().max(1e-6);
    let mut visible: Vec<(Scheduled<'_>, f64)> = Vec::new();
    for s in list {
        if s.start > t {
            continue;
        }
        let age = (t - s.start).as_secs_f64();
        if age < on_screen(s.req, window) {
            visible.push((s, age));
        }
    }
    // Oldest first. The list is nearly in order already (staggering moves few), and short: an
    // insertion sort is all it needs.
    for i in 1..visible.len() {
        let mut j = i;
        while j > 0 && (visible[j - 1].0.start, visible[j - 1].0.req.seq) > (visible[j].0.start, visible[j].0.req.seq) {
            visible.swap(j - 1, j);
            j -= 1;
        }
    }
    let drop = visible.len().saturating_sub(MAX_PACKETS);
    let visible = &visible[drop..];

    let mut out: Vec<Packet> = Vec::with_capacity(visible.len());
    let mut per_line: Vec<(usize, u32)> = Vec::new();
    for (s, age) in visible.iter().rev() {
        let r = s.req;
        let sender = Sender::of(&r.actor);
        let Some(li) = scene.lines.iter().position(|l| l.sender == sender) else { continue };
        let line = &scene.lines[li];
        let travel = if timing.reduced_motion { 1.0 } else { (age / (window * TRAVEL)).min(1.0) };
        let arrived = travel >= 1.0;
        let (dest, tone, code) = match r.outcome {
            Outcome::Timeout => {
                let waited = (r.end - r.t).as_secs_f64();
                if *age >= waited.max(window * TRAVEL) {
                    (line.cut_at.unwrap_or(1.0), Tone::Timeout, Some(lang.text(Key::RequestTimeout).to_string()))
                } else if arrived {
                    (line.cut_at.unwrap_or(1.0), Tone::Waiting, Some(lang.text(Key::RequestWaiting).to_string()))
                } else {
                    (line.cut_at.unwrap_or(1.0), Tone::Travelling, None)
                }
            }
            Outcome::Code(c) if arrived => {
                (1.0, if (200..300).contains(&c) { Tone::Ok } else { Tone::Warn }, Some(c.to_string()))
            }
            Outcome::Code(_) => (1.0, Tone::Travelling, None),
        };
        let eased = ease(travel) as f32 * dest;
        let pos = round_pt(line.route.at(eased));
        let text = format!("{} {}", r.method.as_str(), short_path(&r.path));
        let chars = text.chars().count() + code.as_ref().map(|c| c.chars().count() + 1).unwrap_or(0);
        let label_w = round(chars as f32 * CH_MONO + 10.0);
        // Packets on the same line stack their labels so a burst stays legible.
        let stack = match per_line.iter_mut().find(|(l, _)| *l == li) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                per_line.push((li, 0));
                0
            }
        };
        let (mut lx, ly) = if line.route.vertical_at(eased) {
            (pos.x + 8.0, pos.y - 8.0 - 16.0 * stack as f32)
        } else {
            (pos.x - label_w / 2.0, pos.y - 24.0 - 16.0 * stack as f32)
        };
        lx = lx.clamp(2.0, (scene.width - label_w - 2.0).max(2.0));
        let opacity = if timing.reduced_motion {
            1.0
        } else {
            (((on_screen(r, window) - age) / (window * FADE)).clamp(0.0, 1.0) * 100.0).round() as f32 / 100.0
        };
        out.push(Packet {
            seq: r.seq,
            pos,
            text,
            code,
            tone,
            routine: is_routine(r),
            class: sender.class(),
            label_at: round_pt(Pt { x: lx, y: ly.max(2.0) }),
            label_w,
            opacity,
        });
    }
    out.reverse();
    out
}

/// How long (simulated seconds) a request's packet stays on screen when the window is `window`:
/// the window, or for a timed-out request, its wait at the cut and then the rest of a window to
/// say it timed out.
fn on_screen(r: &Request, window: f64) -> f64 {
    match r.outcome {
        Outcome::Timeout => (r.end - r.t).as_secs_f64().max(window * TRAVEL) + window * (1.0 - TRAVEL),
        Outcome::Code(_) => window,
    }
}

fn ease(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

fn round(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

fn round_pt(p: Pt) -> Pt {
    Pt { x: round(p.x), y: round(p.y) }
}

fn round_rect(r: Rect) -> Rect {
    Rect { x: round(r.x), y: round(r.y), w: round(r.w), h: round(r.h) }
}

/// The caption under the stage: the request whose packet left last (or the last one sent), in
/// full: `Last request, from kubelet/node-1: PUT /apis/…/leases/node-1 → 200`.
pub fn caption(log: &Log, t: SimTime, timing: Timing, lang: Lang) -> String {
    let (begin, list) = scheduled(log, t, timing);
    let last = list
        .iter()
        .filter(|s| s.start <= t)
        .max_by_key(|s| (s.start, s.req.seq))
        .map(|s| s.index)
        .or_else(|| begin.checked_sub(1));
    let Some(i) = last else { return lang.text(Key::NoRequestYet).to_string() };
    let r = &log.requests[i];
    let answer = match r.outcome {
        Outcome::Code(c) => c.to_string(),
        Outcome::Timeout if t < r.end => lang.text(Key::RequestWaiting).to_string(),
        Outcome::Timeout => lang.text(Key::RequestTimeout).to_string(),
    };
    let request = format!("{} {} → {answer}", r.method.as_str(), r.path);
    lang.fill(Key::LastRequest, &[&r.actor.to_string(), &request])
}

/// A path short enough for a packet label: `/api/v1/nodes` stays, anything longer keeps the
/// resource and what follows: `…/leases/node-1`, `…/nodes/node-1/status`.
pub fn short_path(path: &str) -> String {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    // Skip `api/v1` or `apis/GROUP/VERSION`, then `namespaces/NS`.
    let mut i = match parts.first() {
        Some(&"api") => 2,
        Some(&"apis") => 3,
        _ => 0,
    };
    if parts.get(i) == Some(&"namespaces") && parts.len() > i + 2 {
        i += 2;
    }
    if i >= parts.len() {
        return path.to_string();
    }
    let rest = parts[i..].join("/");
    if i == 2 && parts.len() == 3 { path.to_string() } else { format!("…/{rest}") }
}

/// kubectl's STATUS column for a Node: `Ready` when the Ready condition is True, `NotReady`
/// when it is False or Unknown, `Unknown` when there is none; `,SchedulingDisabled` when
/// cordoned (kubectl `printNode`).
pub fn node_status(node: &Node) -> (String, Health) {
    let (mut s, health) = match node.ready_status() {
        Some("True") => ("Ready".to_string(), Health::Ok),
        Some(_) => ("NotReady".to_string(), Health::Down),
        None => ("Unknown".to_string(), Health::Warn),
    };
    if node.spec.unschedulable {
        s.push_str(",SchedulingDisabled");
    }
    (s, health)
}

/// kubectl's STATUS column for a Pod (kubectl `printPod`, without init containers): the phase,
/// or a container's waiting or terminated reason; `Terminating` once deleted.
pub fn pod_status(pod: &Pod) -> (String, Health) {
    let mut reason = pod.status.phase.clone();
    for c in pod.status.container_statuses.iter().rev() {
        if let Some(w) = c.state.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
            reason = w.reason.clone();
        } else if let Some(x) = c.state.terminated.as_ref().filter(|x| !x.reason.is_empty()) {
            reason = x.reason.clone();
        }
    }
    let terminal = matches!(pod.status.phase.as_str(), "Succeeded" | "Failed");
    if pod.is_terminating() && !terminal {
        reason = "Terminating".into();
    }
    let health = match reason.as_str() {
        "Running" if pod.is_ready() => Health::Ok,
        "Running" | "Pending" | "ContainerCreating" => Health::Warn,
        _ => Health::Down,
    };
    (reason, health)
}

/// `text`, cut with an ellipsis to fit `width` at `ch` per character.
fn fit(text: &str, width: f32, ch: f32) -> String {
    let max = ((width / ch).floor() as usize).max(2);
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

fn containers_title(lang: Lang, n: usize) -> String {
    match n {
        0 => lang.text(Key::NoContainers).to_string(),
        1 => lang.text(Key::OneContainerRunning).to_string(),
        n => lang.fill(Key::ContainersRunning, &[&n.to_string()]),
    }
}

/// Chip, row and gap sizes.
const PAD: f32 = 8.0;
const CHIP_H: f32 = 22.0;
const ROW_H: f32 = 20.0;
const GAP: f32 = 6.0;

/// What decides a machine box's height.
#[derive(Clone, Copy)]
struct MachineMetrics {
    header: f32,
    cni: bool,
    rows: usize,
}

impl MachineMetrics {
    fn of(m: &MachineView, w: f32) -> MachineMetrics {
        let n = m.containers.len();
        MachineMetrics {
            header: if ip_inline(m, w) { 26.0 } else { 40.0 },
            cni: !m.cni_ready,
            rows: if n > MAX_CONTAINER_ROWS { MAX_CONTAINER_ROWS } else { n },
        }
    }

    fn runtime_h(&self) -> f32 {
        24.0 + if self.cni { ROW_H + 4.0 } else { 0.0 } + 18.0 + self.rows as f32 * (ROW_H + 2.0) + 6.0
    }

    fn height(&self) -> f32 {
        self.header + CHIP_H + GAP + self.runtime_h() + GAP + CHIP_H + PAD
    }
}

fn ip_inline(m: &MachineView, w: f32) -> bool {
    (m.name.chars().count() as f32 * 7.8 + m.ip.chars().count() as f32 * CH_MONO + 40.0) <= w
}

fn machine_box(m: &MachineView, rect: Rect, lang: Lang) -> MachineBox {
    let metrics = MachineMetrics::of(m, rect.w);
    let inner_w = rect.w - 2.0 * PAD;
    let x = rect.x + PAD;
    let part = |text: &str| lang.fill(Key::StagePart, &[&m.name, text]);

    let mut y = rect.y + metrics.header;
    let (health, key) = match m.kubelet {
        KubeletState::Running => (Health::Ok, Key::KubeletRunning),
        KubeletState::Restarting { .. } => (Health::Warn, Key::KubeletRestarting),
        KubeletState::Stopped => (Health::Down, Key::KubeletStopped),
    };
    let kubelet_rect = Rect::new(x, y, inner_w, CHIP_H);
    let kubelet = StateChip {
        rect: kubelet_rect,
        health,
        text: fit(lang.text(key), inner_w - 30.0, CH_SANS),
        label: part(lang.text(key)),
    };
    y += CHIP_H + GAP;

    // containerd, with the containers it runs inside its box.
    let rt_rect = Rect::new(x, y, inner_w, rect.bottom() - PAD - CHIP_H - GAP - y);
    let rt_key = if m.runtime_up { Key::RuntimeUp } else { Key::RuntimeDown };
    let mut rt_label = part(lang.text(rt_key));
    let chip = StateChip {
        rect: Rect::new(x, y, inner_w, 24.0),
        health: if m.runtime_up { Health::Ok } else { Health::Down },
        text: fit(lang.text(rt_key), inner_w - 30.0, CH_SANS),
        label: String::new(),
    };
    let mut cy = y + 24.0;
    let cni = if m.cni_ready {
        None
    } else {
        let text = lang.text(Key::CniNotReady);
        rt_label = format!("{rt_label}; {text}");
        let r = Rect::new(x + PAD, cy, inner_w - 2.0 * PAD, ROW_H);
        cy += ROW_H + 4.0;
        Some((r, fit(text, r.w - 24.0, CH_SANS * 0.95)))
    };
    let chip = StateChip { label: rt_label, ..chip };
    let n = m.containers.len();
    let title = containers_title(lang, n);
    let shown = if n > MAX_CONTAINER_ROWS { MAX_CONTAINER_ROWS - 1 } else { n };
    let list_rect = Rect::new(x + PAD, cy, inner_w - 2.0 * PAD, 18.0 + metrics.rows as f32 * (ROW_H + 2.0));
    let mut rows = Vec::with_capacity(shown);
    let mut ry = cy + 18.0;
    for c in m.containers.iter().take(shown) {
        let r = Rect::new(list_rect.x, ry, list_rect.w, ROW_H);
        rows.push((r, fit(&format!("{}/{}", c.pod, c.name), r.w - 22.0, CH_MONO)));
        ry += ROW_H + 2.0;
    }
    let more = (n > shown).then(|| {
        (Rect::new(list_rect.x, ry, list_rect.w, ROW_H), lang.fill(Key::MoreItems, &[&(n - shown).to_string()]))
    });
    let names: Vec<String> = m.containers.iter().map(|c| format!("{}/{}", c.pod, c.name)).collect();
    let list_label = if names.is_empty() { part(&title) } else { format!("{}: {}", part(&title), names.join(", ")) };
    let containers = ContainerList { rect: list_rect, title, rows, more, label: list_label };

    let net_key = if m.network_cut { Key::NetworkCut } else { Key::NetworkOk };
    let network = StateChip {
        rect: Rect::new(x, rect.bottom() - PAD - CHIP_H, inner_w, CHIP_H),
        health: if m.network_cut { Health::Down } else { Health::Ok },
        text: fit(lang.text(net_key), inner_w - 30.0, CH_SANS),
        label: part(lang.text(net_key)),
    };
    MachineBox {
        name: m.name.clone(),
        ip: m.ip.clone(),
        rect,
        ip_inline: metrics.header < 30.0,
        label: lang.fill(Key::Machine, &[&format!("{} ({})", m.name, m.ip)]),
        kubelet,
        runtime: RuntimeBox { rect: rt_rect, chip, cni, containers },
        network,
    }
}

impl Scene {
    /// The stage at `t` (without packets), laid out for `layout`. `timing` only decides when
    /// changed objects are lit (while the packet that changed them shows its answer).
    pub fn build(session: &Session, t: SimTime, timing: Timing, layout: Layout, lang: Lang) -> Scene {
        let snapshot = session.at(t);
        let machines = snapshot.machines();
        let views: Vec<&MachineView> = machines.iter().map(|m| &**m).collect();
        let width = layout.width();
        let narrow = layout == Layout::Narrow;

        // Machines: a row (two rows past three machines), or a column.
        let count = views.len();
        let cols = if narrow { 1 } else { count.div_ceil(count.div_ceil(3).max(1)).max(1) };
        let mw = if narrow {
            304.0
        } else {
            ((width - 2.0 * PAD - (cols as f32 - 1.0) * 12.0) / cols as f32).min(360.0).floor()
        };
        let mh = views.iter().map(|m| MachineMetrics::of(m, mw).height()).fold(0.0f32, f32::max);
        let mut boxes = Vec::with_capacity(count);
        for (i, m) in views.iter().enumerate() {
            let (row, col) = (i / cols, i % cols);
            let in_row = (count - row * cols).min(cols) as f32;
            let row_w = in_row * mw + (in_row - 1.0) * 12.0;
            let x = if narrow { PAD } else { ((width - row_w) / 2.0).floor() + col as f32 * (mw + 12.0) };
            boxes.push(machine_box(m, Rect::new(x, PAD + row as f32 * (mh + 12.0), mw, mh), lang));
        }
        let machines_bottom = boxes.iter().map(|b| b.rect.bottom()).fold(PAD, f32::max);

        // Control plane.
        let cp_top = machines_bottom + if narrow { 34.0 } else { 58.0 };
        let inner = cp_top + 26.0;
        let chip_step = CHIP_H + 6.0;
        let cm_h = 24.0 + 4.0 * chip_step + 2.0;
        let (cm, api, sched, kubectl) = if narrow {
            let cm = Rect::new(PAD + 4.0, inner, 200.0, cm_h);
            let sched = Rect::new(cm.x, cm.bottom() + 12.0, cm.w, 30.0);
            let kubectl = Rect::new(cm.x, sched.bottom() + 24.0, cm.w, 30.0);
            let api_x = cm.right() + 40.0;
            let api = Rect::new(api_x, inner, width - PAD - 4.0 - api_x, kubectl.bottom() - inner);
            (cm, api, sched, kubectl)
        } else {
            let cm = Rect::new(PAD + 8.0, inner, 232.0, cm_h);
            let api = Rect::new(((width - 150.0) / 2.0).floor(), inner, 150.0, cm_h);
            let rx = width - PAD - 8.0 - 200.0;
            let sched = Rect::new(rx, inner, 200.0, 40.0);
            let kubectl = Rect::new(rx, inner + cm_h - 30.0, 200.0, 30.0);
            (cm, api, sched, kubectl)
        };
        let cp_bottom = api.bottom().max(cm.bottom()).max(sched.bottom()) + 10.0;
        let frame = if narrow {
            let notch = kubectl.y - 10.0;
            vec![
                Pt { x: PAD, y: cp_top },
                Pt { x: width - PAD, y: cp_top },
                Pt { x: width - PAD, y: cp_bottom.max(kubectl.bottom() + 10.0) },
                Pt { x: kubectl.right() + 10.0, y: cp_bottom.max(kubectl.bottom() + 10.0) },
                Pt { x: kubectl.right() + 10.0, y: notch },
                Pt { x: PAD, y: notch },
            ]
        } else {
            let notch_x = kubectl.x - 10.0;
            let notch_y = kubectl.y - 10.0;
            vec![
                Pt { x: PAD, y: cp_top },
                Pt { x: width - PAD, y: cp_top },
                Pt { x: width - PAD, y: notch_y },
                Pt { x: notch_x, y: notch_y },
                Pt { x: notch_x, y: cp_bottom },
                Pt { x: PAD, y: cp_bottom },
            ]
        };
        let controllers = [
            (Sender::NodeLifecycle, Key::NodeLifecycleController, "nlc"),
            (Sender::TaintEviction, Key::TaintEvictionController, "eviction"),
            (Sender::ReplicaSet, Key::ReplicaSetController, "replicaset"),
            (Sender::IpamTtl, Key::IpamTtlControllers, ""),
        ];
        let mut actors = Vec::new();
        for (i, (sender, key, target)) in controllers.into_iter().enumerate() {
            let rect = Rect::new(cm.x + PAD, cm.y + 24.0 + i as f32 * chip_step, cm.w - 2.0 * PAD, CHIP_H);
            actors.push(ActorBox {
                sender,
                rect,
                text: fit(lang.text(key), rect.w - 28.0, CH_SANS),
                target: (!target.is_empty()).then_some(target),
                component: false,
            });
        }
        actors.push(ActorBox {
            sender: Sender::Scheduler,
            rect: sched,
            text: lang.text(Key::Scheduler).to_string(),
            target: Some("scheduler"),
            component: true,
        });
        actors.push(ActorBox {
            sender: Sender::Kubectl,
            rect: kubectl,
            text: lang.text(Key::KubectlClient).to_string(),
            target: None,
            component: true,
        });

        // Arrows.
        let mut lines = Vec::new();
        let machines_bottom_row = boxes.iter().map(|b| b.rect.y).fold(PAD, f32::max);
        // Vertical channels between the boxes of the lowest row, for the links of the rows above.
        let lowest: Vec<Rect> = boxes.iter().map(|b| b.rect).filter(|r| r.y == machines_bottom_row).collect();
        let channels: Vec<f32> = lowest.windows(2).map(|w| (w[0].right() + w[1].x) / 2.0).collect();
        let mut channel_use: Vec<u32> = vec![0; channels.len()];
        for (i, b) in boxes.iter().enumerate() {
            let net = b.network.rect;
            let (route, cut_at) = if narrow {
                let lane = width - PAD - 8.0 - 8.0 * i as f32;
                let start = Pt { x: b.rect.right(), y: net.cy() };
                let pts = vec![start, Pt { x: lane, y: start.y }, Pt { x: lane, y: api.y }];
                let route = Route::new(pts);
                let cut = ((lane - start.x) + 22.0) / route.length().max(1.0);
                (route, cut.min(0.5))
            } else {
                let slot = api.x + api.w * (i as f32 + 1.0) / (count as f32 + 1.0);
                let start = Pt { x: b.rect.cx(), y: b.rect.bottom() };
                let mut pts = vec![start];
                let blocked = lowest.iter().any(|r| r.y > b.rect.y && r.x < start.x && start.x < r.right());
                if blocked && !channels.is_empty() {
                    // Down the gap between the boxes below, nearest first, then nearest the middle.
                    let k = (0..channels.len())
                        .min_by(|&a, &c| {
                            let score =
                                |j: usize| (channels[j] - start.x).abs() + (channels[j] - width / 2.0).abs() * 0.01;
                            score(a).total_cmp(&score(c))
                        })
                        .unwrap_or(0);
                    let x = channels[k] + [0.0, -3.0, 3.0][channel_use[k] as usize % 3];
                    channel_use[k] += 1;
                    let y = b.rect.bottom() + 6.0;
                    pts.extend([Pt { x: start.x, y }, Pt { x, y }, Pt { x, y: machines_bottom + 10.0 }]);
                } else {
                    pts.push(Pt { x: start.x, y: machines_bottom + 10.0 });
                }
                let before = Route::new(pts.clone()).length();
                let diag_from = *pts.last().unwrap_or(&start);
                let diag_to = Pt { x: slot, y: api.y - 14.0 };
                pts.extend([diag_to, Pt { x: slot, y: api.y }]);
                let route = Route::new(pts);
                // Cut halfway down the open stretch between the machines and the API server.
                let cut = (before + 0.45 * dist(diag_from, diag_to)) / route.length().max(1.0);
                (route, cut)
            };
            lines.push(Line {
                sender: Sender::Machine(b.name.clone()),
                route,
                cut_at: Some(cut_at),
                cut: b.network.health == Health::Down,
                target: Some("network"),
            });
        }
        for a in &actors {
            let y = a.rect.cy();
            let route = if a.rect.x < api.x {
                Route::new(vec![Pt { x: a.rect.right() + if a.component { 0.0 } else { PAD }, y }, Pt { x: api.x, y }])
            } else {
                Route::new(vec![Pt { x: a.rect.x, y }, Pt { x: api.right(), y }])
            };
            lines.push(Line { sender: a.sender.clone(), route, cut_at: None, cut: false, target: None });
        }

        let control_plane = ControlPlane {
            frame,
            title: lang.text(Key::ControlPlane).to_string(),
            title_at: Pt { x: PAD + 10.0, y: cp_top + 17.0 },
            apiserver: api,
            apiserver_text: lang.text(Key::ApiServer).to_string(),
            manager: cm,
            manager_title: fit(lang.text(Key::ControllerManager), cm.w - 16.0, 7.0),
            actors,
        };
        let cp_end = control_plane.frame.iter().map(|p| p.y).fold(0.0f32, f32::max);

        // Stored objects.
        let store_top = cp_end + 26.0;
        let store = store(&snapshot, session, t, timing, layout, store_top, lang);
        let storage_link = (Pt { x: api.cx(), y: api.bottom() }, Pt { x: api.cx(), y: store_top });
        let height = store.frame.bottom() + PAD;

        Scene {
            layout,
            width,
            height,
            machines: boxes.into_iter().map(round_machine).collect(),
            lines,
            control_plane,
            storage_link,
            store,
        }
    }
}

fn round_machine(mut b: MachineBox) -> MachineBox {
    b.rect = round_rect(b.rect);
    b
}

/// Whether the object was changed by a request whose packet is showing its answer now (ignoring
/// staggering): from its arrival to the end of its window.
fn fresh(log: &Log, kind: Kind, ns: &str, name: &str, t: SimTime, timing: Timing) -> bool {
    let arrival = if timing.reduced_motion { Duration::ZERO } else { timing.window.mul_f64(TRAVEL) };
    log.version_of_at(kind, ns, name, t).is_some_and(|c| {
        let age = t - c.t;
        age >= arrival && age < arrival + timing.window
    })
}

fn store(
    snapshot: &Snapshot<'_>,
    session: &Session,
    t: SimTime,
    timing: Timing,
    layout: Layout,
    top: f32,
    lang: Lang,
) -> Store {
    let log = session.timeline.log();
    let width = layout.width();
    let narrow = layout == Layout::Narrow;
    let inner = top + 26.0;
    // Columns: nodes, the lease namespace, pods (side by side, or stacked).
    let (node_col, lease_col, pod_col) = if narrow {
        let w = width - 2.0 * PAD - 8.0;
        (Rect::new(PAD + 4.0, inner, w, 0.0), Rect::new(PAD + 4.0, 0.0, w, 0.0), Rect::new(PAD + 4.0, 0.0, w, 0.0))
    } else {
        (
            Rect::new(PAD + 8.0, inner, 230.0, 0.0),
            Rect::new(PAD + 8.0 + 238.0, inner, 290.0, 0.0),
            Rect::new(PAD + 8.0 + 238.0 + 298.0, inner, width - 2.0 * PAD - 16.0 - 238.0 - 298.0, 0.0),
        )
    };

    // Nodes.
    let mut nodes = Vec::new();
    let mut y = node_col.y;
    for node in snapshot.nodes() {
        let name = &node.metadata.name;
        let (status, health) = node_status(&node);
        let title = lang.fill(Key::NodeObject, &[name]);
        let mut taints = Vec::new();
        let (mut cx, mut cy) = (node_col.x + PAD, y + 44.0);
        for taint in &node.spec.taints {
            let full = taint.display();
            let text = full.strip_prefix("node.kubernetes.io/").unwrap_or(&full).to_string();
            let text = fit(&text, node_col.w - 2.0 * PAD - 10.0, CH_MONO);
            let w = text.chars().count() as f32 * CH_MONO + 10.0;
            if cx + w > node_col.right() - PAD && cx > node_col.x + PAD {
                cx = node_col.x + PAD;
                cy += 20.0;
            }
            taints.push(Chip {
                rect: round_rect(Rect::new(cx, cy, w, 16.0)),
                text,
                no_execute: taint.effect == "NoExecute",
                full,
            });
            cx += w + 4.0;
        }
        let taint_list = if taints.is_empty() {
            lang.text(Key::NoTaints).to_string()
        } else {
            taints.iter().map(|c| c.full.as_str()).collect::<Vec<_>>().join(", ")
        };
        let no_taints =
            taints.is_empty().then(|| lang.fill(Key::StagePart, &[lang.text(Key::Taints), lang.text(Key::NoTaints)]));
        let h = cy + 16.0 + PAD - y;
        let label = format!(
            "{}; {}",
            lang.fill(Key::StagePart, &[&title, &status]),
            lang.fill(Key::StagePart, &[lang.text(Key::Taints), &taint_list])
        );
        nodes.push(NodeCard {
            rect: round_rect(Rect::new(node_col.x, y, node_col.w, h)),
            title,
            status,
            health,
            taints,
            no_taints,
            label,
            fresh: fresh(log, Kind::Node, "", name, t, timing),
        });
        y += h + 8.0;
    }
    let no_nodes = nodes.is_empty().then(|| {
        y += 24.0;
        (Pt { x: node_col.x + 4.0, y: node_col.y + 14.0 }, lang.text(Key::NoNodeYet).to_string())
    });
    let nodes_bottom = y - 8.0;

    // kube-node-lease.
    let ns_y = if narrow { nodes_bottom + 14.0 } else { lease_col.y };
    let epoch = session.timeline.config().epoch;
    let grace = session.timeline.config().profile.node_monitor_grace_period();
    let now = epoch + t.since_start();
    let mut leases = Vec::new();
    let mut y = ns_y + 24.0;
    let card_w = lease_col.w - 2.0 * PAD;
    for lease in snapshot.leases().iter().filter(|l| l.metadata.namespace == NODE_LEASE_NAMESPACE) {
        leases.push(lease_card(lease, Rect::new(lease_col.x + PAD, y, card_w, 66.0), now.0, grace, lang, {
            fresh(log, Kind::Lease, NODE_LEASE_NAMESPACE, &lease.metadata.name, t, timing)
        }));
        y += 66.0 + 8.0;
    }
    let no_leases = leases.is_empty().then(|| {
        y += 18.0;
        (Pt { x: lease_col.x + PAD, y: ns_y + 38.0 }, lang.text(Key::NoLease).to_string())
    });
    let lease_ns = Rect::new(lease_col.x, ns_y, lease_col.w, y - ns_y);

    // Pods.
    let pods_y = if narrow { lease_ns.bottom() + 14.0 } else { pod_col.y };
    let all = snapshot.pods();
    let mut pods = Vec::new();
    let mut y = pods_y + 24.0;
    let shown = if all.len() > MAX_POD_ROWS { MAX_POD_ROWS - 1 } else { all.len() };
    for pod in all.iter().take(shown) {
        let (status, health) = pod_status(pod);
        let node = if pod.spec.node_name.is_empty() { "—" } else { pod.spec.node_name.as_str() };
        let total = pod.spec.containers.len();
        let ready = pod.status.container_statuses.iter().filter(|c| c.ready).count();
        pods.push(PodRow {
            rect: Rect::new(pod_col.x + PAD, y, pod_col.w - 2.0 * PAD, 30.0),
            name: fit(&pod.metadata.name, pod_col.w - 2.0 * PAD - 20.0, CH_MONO),
            detail: format!("{ready}/{total} {status} · {node}"),
            health,
        });
        y += 32.0;
    }
    let pods_note = if all.is_empty() {
        y += 18.0;
        Some((Pt { x: pod_col.x + PAD, y: pods_y + 38.0 }, lang.text(Key::NoPods).to_string()))
    } else if all.len() > shown {
        y += 18.0;
        Some((Pt { x: pod_col.x + PAD, y: y - 6.0 }, lang.fill(Key::MoreItems, &[&(all.len() - shown).to_string()])))
    } else {
        None
    };
    let pods_frame = Rect::new(pod_col.x, pods_y, pod_col.w, y - pods_y);

    let bottom = nodes_bottom.max(lease_ns.bottom()).max(pods_frame.bottom()) + 10.0;
    Store {
        frame: Rect::new(PAD, top, width - 2.0 * PAD, bottom - top),
        title: lang.text(Key::StoredObjects).to_string(),
        nodes,
        no_nodes,
        lease_ns,
        lease_ns_title: lang.text(Key::LeaseNamespace).to_string(),
        leases,
        no_leases,
        pods_frame,
        pods_title: lang.text(Key::TabPods).to_string(),
        pods,
        pods_note,
    }
}

fn lease_card(lease: &Lease, rect: Rect, now_us: i64, grace: Duration, lang: Lang, fresh: bool) -> LeaseCard {
    let name = &lease.metadata.name;
    let holder = lease.spec.holder_identity.clone().unwrap_or_default();
    let (renew, ago, stale) = match lease.spec.renew_time {
        Some(rt) => {
            let secs = ((now_us - rt.0.0).max(0) / 1_000_000) as u64;
            let d = format_go_duration(Duration::from_secs(secs));
            let stale = Duration::from_secs(secs) > grace;
            let ago = if stale {
                lang.fill(Key::LeaseStale, &[&d, &format_go_duration(grace)])
            } else {
                lang.fill(Key::LeaseRenewed, &[&d])
            };
            (rt.0.rfc3339_micros(), ago, stale)
        }
        None => (String::new(), String::new(), false),
    };
    let title = lang.fill(Key::LeaseObject, &[name]);
    let label = format!("{title}: holderIdentity {holder}, renewTime {renew}, {ago}");
    LeaseCard {
        rect: round_rect(rect),
        title,
        holder: format!("holderIdentity: {holder}"),
        renew: fit(&format!("renewTime: {renew}"), rect.w - 2.0 * PAD, CH_MONO),
        ago,
        stale,
        label,
        fresh,
    }
}

// Markup. The scene is drawn as SVG markup written here (and set with `innerHTML` by the
// component): a few string writers cost a fraction of the code size of typed view trees, and the
// markup can be checked natively.

/// Escapes text for SVG markup (element content and double-quoted attribute values).
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"']) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

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
        group(&mut o, "machine", Some(&m.label), Some("machine"));
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

    let r = st.pods_frame;
    group(&mut o, "pods", Some(&st.pods_title), Some("pods"));
    rect(&mut o, r, "frame pods-frame", 6.0);
    text(&mut o, "card-title", r.x + 8.0, r.y + 16.0, &st.pods_title);
    for p in &st.pods {
        let pr = p.rect;
        let _ = write!(o, r#"<g class="pod {}">"#, p.health.class());
        icon(&mut o, p.health, pr.x + 6.0, pr.y + 9.0);
        text(&mut o, "mono", pr.x + 16.0, pr.y + 12.0, &p.name);
        text(&mut o, "small muted", pr.x + 16.0, pr.y + 26.0, &p.detail);
        o.push_str("</g>");
    }
    if let Some((p, t)) = &st.pods_note {
        text(&mut o, "small muted", p.x, p.y, t);
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
    use crate::sim::{Chapter, Config, Method, Timeline, parse_actions};

    fn req(seq: u64, ms: u64, actor: Actor, method: Method, path: &str, outcome: Outcome) -> Request {
        let t = SimTime::from_millis(ms);
        let end = if outcome == Outcome::Timeout { t + HEARTBEAT_TIMEOUT } else { t };
        Request {
            seq,
            t,
            end,
            actor,
            node: None,
            method,
            path: path.into(),
            query: "",
            content_type: None,
            outcome,
            error: None,
            body: None,
            response: None,
            changes: Vec::new(),
        }
    }

    fn kubelet() -> Actor {
        Actor::Kubelet("node-1".into())
    }

    const LEASE: &str = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1";

    fn log_of(requests: Vec<Request>) -> Log {
        let mut log = Log::default();
        log.requests = requests;
        log
    }

    fn session(chapter: Chapter, actions: &str, t: SimTime) -> Session {
        let actions = parse_actions(actions).expect("actions");
        let mut s = Session::new(Timeline::with_actions(chapter, Config::default(), &actions));
        s.ensure(t);
        s
    }

    fn scene_at(chapter: Chapter, actions: &str, secs: u64, layout: Layout) -> Scene {
        let t = SimTime::from_secs(secs);
        Scene::build(&session(chapter, actions, t), t, Timing::new(1.0, false), layout, Lang::En)
    }

    /// A scene with one machine link (straight down) for packet tests.
    fn scene() -> Scene {
        scene_at(Chapter::Registration, "", 60, Layout::Wide)
    }

    #[test]
    fn shortens_paths() {
        assert_eq!(short_path(LEASE), "…/leases/node-1");
        assert_eq!(short_path("/api/v1/nodes"), "/api/v1/nodes");
        assert_eq!(short_path("/api/v1/nodes/node-1/status"), "…/nodes/node-1/status");
        assert_eq!(short_path("/api/v1/namespaces/default/pods/demo-x/binding"), "…/pods/demo-x/binding");
        assert_eq!(short_path("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases"), "…/leases");
        assert_eq!(short_path("/healthz"), "…/healthz");
    }

    #[test]
    fn window_and_stagger_scale_with_the_rate() {
        let one = Timing::new(1.0, false);
        assert_eq!(one.window, Duration::from_millis(600));
        assert_eq!(one.stagger, Duration::from_millis(120));
        let ten = Timing::new(10.0, false);
        assert_eq!(ten.window, Duration::from_secs(6));
        // Nonsense rates (a paused frame reports 0) count as 1×.
        assert_eq!(Timing::new(0.0, false), one);
        assert_eq!(Timing::new(f64::NAN, false), one);
    }

    #[test]
    fn a_packet_travels_from_its_sender_to_the_apiserver_then_shows_its_code() {
        let scene = scene();
        let log = log_of(vec![req(1, 1000, kubelet(), Method::Post, "/api/v1/nodes", Outcome::Code(201))]);
        let timing = Timing::new(1.0, false);
        let line = scene.lines.iter().find(|l| l.sender == Sender::Machine("node-1".into())).expect("link");
        let at = |ms| packets(&log, SimTime::from_millis(ms), timing, &scene, Lang::En);
        assert!(at(999).is_empty(), "not before it is sent");
        let p0 = &at(1000)[0];
        assert_eq!(p0.pos, round_pt(line.route.at(0.0)));
        assert_eq!((p0.tone, p0.code.as_deref()), (Tone::Travelling, None));
        assert_eq!(p0.text, "POST /api/v1/nodes");
        let mid = &at(1150)[0];
        assert!(mid.pos.y > p0.pos.y, "moves towards the API server");
        let arrived = &at(1400)[0];
        assert_eq!(arrived.pos, round_pt(line.route.at(1.0)));
        assert_eq!((arrived.tone, arrived.code.as_deref()), (Tone::Ok, Some("201")));
        assert!(at(1590)[0].opacity < 1.0, "fades out at the end");
        assert!(at(1600).is_empty(), "gone after the window");
        // Ten times faster: ten times as much simulated time on screen.
        let fast = Timing::new(10.0, false);
        assert_eq!(packets(&log, SimTime::from_millis(4000), fast, &scene, Lang::En).len(), 1);
    }

    #[test]
    fn warn_codes_are_marked() {
        let scene = scene();
        let log = log_of(vec![req(1, 0, kubelet(), Method::Patch, "/api/v1/nodes/node-1", Outcome::Code(403))]);
        let p = &packets(&log, SimTime::from_millis(500), Timing::new(1.0, false), &scene, Lang::En)[0];
        assert_eq!((p.tone, p.code.as_deref()), (Tone::Warn, Some("403")));
    }

    #[test]
    fn requests_sent_together_are_staggered() {
        let scene = scene();
        let log = log_of(
            (0..4)
                .map(|i| {
                    req(i + 1, 450 + i / 2, kubelet(), Method::Patch, "/api/v1/nodes/node-1/status", Outcome::Code(200))
                })
                .collect(),
        );
        let timing = Timing::new(1.0, false);
        let (_, s) = scheduled(&log, SimTime::from_secs(1), timing);
        let starts: Vec<u64> = s.iter().map(|s| s.start.as_millis()).collect();
        assert_eq!(starts, vec![450, 570, 691, 811]);
        // At 451 ms only the first has left; the others wait their turn.
        assert_eq!(packets(&log, SimTime::from_millis(451), timing, &scene, Lang::En).len(), 1);
        assert_eq!(packets(&log, SimTime::from_millis(700), timing, &scene, Lang::En).len(), 3);
        // Requests further apart than the stagger are not moved.
        let spread = log_of(vec![
            req(1, 0, kubelet(), Method::Get, LEASE, Outcome::Code(200)),
            req(2, 500, kubelet(), Method::Get, LEASE, Outcome::Code(200)),
        ]);
        let (_, s) = scheduled(&spread, SimTime::from_secs(1), timing);
        assert_eq!(s.iter().map(|s| s.start.as_millis()).collect::<Vec<_>>(), vec![0, 500]);
    }

    #[test]
    fn at_most_eight_packets_and_the_oldest_go_first() {
        let scene = scene();
        let log = log_of(
            (0..20).map(|i| req(i + 1, 1000 + i * 10, kubelet(), Method::Put, LEASE, Outcome::Code(200))).collect(),
        );
        // At 60× a packet stays 36 s and a burst is spread 7.2 s apart: sixteen are on screen.
        let ps = packets(&log, SimTime::from_secs(60), Timing::new(60.0, false), &scene, Lang::En);
        assert_eq!(ps.len(), MAX_PACKETS);
        assert_eq!(ps.iter().map(|p| p.seq).collect::<Vec<_>>(), (13..=20).collect::<Vec<_>>());
    }

    #[test]
    fn a_timed_out_request_waits_at_the_cut_then_says_timeout() {
        let scene = scene_at(Chapter::Registration, "cut-network@1m", 70, Layout::Wide);
        let line = scene.lines.iter().find(|l| l.sender == Sender::Machine("node-1".into())).expect("link");
        assert!(line.cut);
        let cut = round_pt(line.route.at(line.cut_at.expect("cut point")));
        let log = log_of(vec![req(1, 61_000, kubelet(), Method::Put, LEASE, Outcome::Timeout)]);
        let timing = Timing::new(1.0, false);
        let at = |ms| packets(&log, SimTime::from_millis(ms), timing, &scene, Lang::En);
        let waiting = &at(65_000)[0];
        assert_eq!(waiting.pos, cut);
        assert_eq!((waiting.tone, waiting.code.as_deref()), (Tone::Waiting, Some("no answer yet")));
        let timed_out = &at(71_100)[0];
        assert_eq!(timed_out.pos, cut);
        assert_eq!((timed_out.tone, timed_out.code.as_deref()), (Tone::Timeout, Some("timeout")));
        assert!(at(71_300).is_empty());
    }

    #[test]
    fn reduced_motion_shows_packets_at_their_destination_at_once() {
        let scene = scene();
        let log = log_of(vec![req(1, 1000, kubelet(), Method::Put, LEASE, Outcome::Code(200))]);
        let line = scene.lines.iter().find(|l| l.sender == Sender::Machine("node-1".into())).expect("link");
        let timing = Timing::new(1.0, true);
        let p = &packets(&log, SimTime::from_millis(1000), timing, &scene, Lang::En)[0];
        assert_eq!(p.pos, round_pt(line.route.at(1.0)));
        assert_eq!(p.code.as_deref(), Some("200"));
        assert_eq!(p.opacity, 1.0);
        let later = &packets(&log, SimTime::from_millis(1590), timing, &scene, Lang::En)[0];
        assert_eq!((later.pos, later.opacity), (p.pos, 1.0));
        assert!(packets(&log, SimTime::from_millis(1600), timing, &scene, Lang::En).is_empty());
    }

    #[test]
    fn routine_lease_renewals_are_lighter_than_significant_requests() {
        let scene = scene();
        let log = log_of(vec![
            req(1, 0, kubelet(), Method::Put, LEASE, Outcome::Code(200)),
            req(2, 300, kubelet(), Method::Patch, "/api/v1/nodes/node-1/status", Outcome::Code(200)),
        ]);
        let ps = packets(&log, SimTime::from_millis(400), Timing::new(1.0, false), &scene, Lang::En);
        assert_eq!(ps.iter().map(|p| p.routine).collect::<Vec<_>>(), vec![true, false]);
    }

    #[test]
    fn controllers_send_along_their_own_arrows() {
        let scene = scene();
        let log = log_of(vec![
            req(1, 0, Actor::NodeLifecycleController, Method::Patch, "/api/v1/nodes/node-1", Outcome::Code(200)),
            req(2, 0, Actor::TtlController, Method::Patch, "/api/v1/nodes/node-1", Outcome::Code(200)),
            req(3, 0, Actor::Scheduler, Method::Post, "/api/v1/namespaces/default/pods/p/binding", Outcome::Code(201)),
            req(4, 0, Actor::Kubectl, Method::Post, "/api/v1/namespaces/default/pods", Outcome::Code(201)),
        ]);
        let ps = packets(&log, SimTime::from_millis(400), Timing::new(1.0, false), &scene, Lang::En);
        assert_eq!(ps.len(), 4);
        let senders = [Sender::NodeLifecycle, Sender::IpamTtl, Sender::Scheduler, Sender::Kubectl];
        for (p, sender) in ps.iter().zip(senders) {
            // Each travels along its sender's own (horizontal) arrow.
            let route = &scene.lines.iter().find(|l| l.sender == sender).expect("arrow").route;
            let (a, b) = (route.points[0], route.points[1]);
            assert_eq!(p.pos.y, round(a.y), "{p:?}");
            assert!(p.pos.x >= a.x.min(b.x) - 0.1 && p.pos.x <= a.x.max(b.x) + 0.1, "{p:?}");
        }
        assert_eq!(
            ps.iter().map(|p| p.class).collect::<Vec<_>>(),
            vec!["controller", "controller", "scheduler", "client"]
        );
    }

    #[test]
    fn the_caption_names_the_last_request_in_full() {
        let log = log_of(vec![
            req(1, 0, kubelet(), Method::Post, "/api/v1/nodes", Outcome::Code(201)),
            req(2, 0, kubelet(), Method::Put, LEASE, Outcome::Code(200)),
            req(3, 5000, kubelet(), Method::Put, LEASE, Outcome::Timeout),
        ]);
        let timing = Timing::new(1.0, false);
        let at = |ms| caption(&log, SimTime::from_millis(ms), timing, Lang::En);
        assert_eq!(at(50), "Last request, from kubelet/node-1: POST /api/v1/nodes → 201");
        assert_eq!(at(200), format!("Last request, from kubelet/node-1: PUT {LEASE} → 200"));
        assert_eq!(at(4000), format!("Last request, from kubelet/node-1: PUT {LEASE} → 200"));
        assert_eq!(at(6000), format!("Last request, from kubelet/node-1: PUT {LEASE} → no answer yet"));
        assert_eq!(at(16_000), format!("Last request, from kubelet/node-1: PUT {LEASE} → timeout"));
        assert_eq!(caption(&Log::default(), SimTime::ZERO, timing, Lang::En), "No request yet.");
    }

    #[test]
    fn a_dead_kubelet_leaves_its_containers_running() {
        let s = scene_at(Chapter::NodeFailure, "", 150, Layout::Wide);
        let m = &s.machines[0];
        assert_eq!(m.kubelet.health, Health::Down);
        assert_eq!(m.kubelet.label, "node-1: kubelet stopped");
        assert_eq!(m.runtime.containers.title, "1 container running");
        assert!(m.runtime.containers.rows[0].1.ends_with("/nginx"), "{:?}", m.runtime.containers.rows);
        assert_eq!(s.machines[1].kubelet.health, Health::Ok);
        // The Lease is going stale.
        let lease = &s.store.leases[0];
        assert!(lease.ago.starts_with("renewed ") && !lease.stale, "{lease:?}");
        // After the grace period the controller marks the node NotReady and taints it.
        let s = scene_at(Chapter::NodeFailure, "", 180, Layout::Wide);
        let node = &s.store.nodes[0];
        assert_eq!((node.status.as_str(), node.health), ("NotReady", Health::Down));
        assert!(node.taints.iter().any(|c| c.text == "unreachable:NoExecute" && c.no_execute), "{node:?}");
        assert!(s.store.leases[0].stale);
        // kubectl's READY counts container statuses, which the controller leaves alone.
        assert_eq!(s.store.pods[0].detail, "1/1 Running · node-1");
        // After the toleration runs out: deleted, still running on the silent machine, and a
        // replacement bound to node-2.
        let s = scene_at(Chapter::NodeFailure, "", 480, Layout::Wide);
        let details: Vec<&str> = s.store.pods.iter().map(|p| p.detail.as_str()).collect();
        assert!(details.contains(&"1/1 Terminating · node-1"), "{details:?}");
        assert!(details.iter().any(|d| d.ends_with("Running · node-2")), "{details:?}");
        assert_eq!(s.machines[0].runtime.containers.rows.len(), 1);
    }

    #[test]
    fn a_cut_network_is_drawn_cut() {
        let s = scene_at(Chapter::Registration, "cut-network@1m", 90, Layout::Wide);
        let m = &s.machines[0];
        assert_eq!(m.network.health, Health::Down);
        assert_eq!(m.network.label, "node-1: network to the API server cut");
        assert!(s.lines[0].cut);
        let s = scene_at(Chapter::Registration, "", 90, Layout::Wide);
        assert!(!s.lines[0].cut);
        assert_eq!(s.machines[0].network.health, Health::Ok);
    }

    #[test]
    fn before_registration_there_is_no_node_and_no_cni() {
        let s = scene_at(Chapter::Registration, "", 0, Layout::Wide);
        assert!(s.store.nodes.is_empty());
        assert_eq!(s.store.no_nodes.as_ref().map(|n| n.1.as_str()), Some("no Node object yet"));
        assert_eq!(s.store.no_leases.as_ref().map(|n| n.1.as_str()), Some("no Lease yet"));
        let cni = s.machines[0].runtime.cni.as_ref().expect("CNI badge");
        assert_eq!(cni.1, "no CNI config: NetworkReady=false");
        // Registered, tainted not-ready, with a Lease from the second heartbeat on.
        let s = scene_at(Chapter::Registration, "", 12, Layout::Wide);
        let node = &s.store.nodes[0];
        assert_eq!(node.status, "NotReady");
        assert_eq!(
            node.taints.iter().map(|c| c.full.as_str()).collect::<Vec<_>>(),
            vec!["node.kubernetes.io/not-ready:NoSchedule"]
        );
        assert_eq!(s.store.leases[0].holder, "holderIdentity: node-1");
        assert!(s.store.leases[0].renew.starts_with("renewTime: 2026-03-02T09:00:10."), "{:?}", s.store.leases[0]);
        let s = scene_at(Chapter::Registration, "", 60, Layout::Wide);
        assert_eq!(s.store.nodes[0].status, "Ready");
        assert!(s.machines[0].runtime.cni.is_none());
        assert_eq!(s.store.pods.len(), 2);
    }

    #[test]
    fn an_object_lights_up_while_the_request_that_changed_it_shows_its_answer() {
        // The first Lease renewal (a PUT), about 20 s in.
        let s = session(Chapter::Registration, "", SimTime::from_secs(30));
        let renewal = s
            .timeline
            .log()
            .requests
            .iter()
            .find(|r| r.method == crate::sim::Method::Put && r.path.contains("/leases/"))
            .expect("a renewal")
            .t
            .as_micros();
        let lit = |after_ms: u64, reduced: bool| {
            let t = SimTime::from_micros(renewal + after_ms * 1000);
            Scene::build(&s, t, Timing::new(1.0, reduced), Layout::Wide, Lang::En).store.leases[0].fresh
        };
        assert!(!lit(100, false), "not before its packet arrives");
        assert!(lit(400, false));
        assert!(!lit(1000, false), "not after its packet is gone");
        assert!(lit(100, true), "with reduced motion, at once");
    }

    #[test]
    fn a_restarting_kubelet_has_its_own_shape_and_text() {
        let m = MachineView {
            name: "node-1".into(),
            hostname: "node-1".into(),
            ip: "10.0.0.11".into(),
            kubelet: KubeletState::Restarting { why: "x".into() },
            runtime_up: false,
            cni_ready: true,
            network_cut: false,
            containers: Vec::new(),
        };
        let b = machine_box(&m, Rect::new(0.0, 0.0, 360.0, 200.0), Lang::En);
        assert_eq!(b.kubelet.health, Health::Warn);
        assert_eq!(b.kubelet.text, "kubelet exited, systemd restarts it in 10 s");
        assert_eq!(b.runtime.chip.health, Health::Down);
        assert_eq!(b.runtime.chip.label, "node-1: containerd stopped");
        assert_eq!(b.runtime.containers.title, "no containers");
    }

    #[test]
    fn kubectl_status_columns() {
        let mut node = Node::new("n");
        assert_eq!(node_status(&node).0, "Unknown");
        node.status.conditions.push(crate::sim::objects::NodeCondition {
            type_: "Ready".into(),
            status: "Unknown".into(),
            last_heartbeat_time: crate::sim::objects::Time(crate::sim::WallTime(0)),
            last_transition_time: crate::sim::objects::Time(crate::sim::WallTime(0)),
            reason: "NodeStatusUnknown".into(),
            message: "Kubelet stopped posting node status.".into(),
        });
        assert_eq!(node_status(&node).0, "NotReady");
        node.spec.unschedulable = true;
        assert_eq!(node_status(&node).0, "NotReady,SchedulingDisabled");
    }

    /// Every layout keeps its parts inside the view box and apart, with one to six machines.
    #[test]
    fn layouts_fit_their_view_box_without_overlaps() {
        for layout in [Layout::Wide, Layout::Narrow] {
            for extra in 0..5 {
                let actions: Vec<String> = (0..extra).map(|i| format!("add-machine@{}s", 100 + i)).collect();
                let s = scene_at(Chapter::NodeFailure, &actions.join(","), 200, layout);
                assert_eq!(s.machines.len(), 2 + extra);
                let all = Rect::new(0.0, 0.0, s.width, s.height);
                for (i, m) in s.machines.iter().enumerate() {
                    assert!(all.contains(&m.rect), "{layout:?} {i}: {:?}", m.rect);
                    for part in [m.kubelet.rect, m.runtime.rect, m.network.rect, m.runtime.containers.rect] {
                        assert!(m.rect.contains(&part), "{layout:?} {i}: {part:?} outside {:?}", m.rect);
                    }
                    for o in &s.machines[i + 1..] {
                        assert!(!m.rect.overlaps(&o.rect), "{layout:?}: machines overlap");
                    }
                    assert!(m.rect.bottom() < s.control_plane.title_at.y, "{layout:?}: machine over the control plane");
                }
                let cp = &s.control_plane;
                for a in &cp.actors {
                    assert!(all.contains(&a.rect), "{layout:?}: {a:?}");
                    assert!(!a.rect.overlaps(&cp.apiserver), "{layout:?}: {a:?} over the API server");
                }
                assert!(all.contains(&s.store.frame));
                for c in s.store.nodes.iter().map(|n| n.rect).chain(s.store.leases.iter().map(|l| l.rect)) {
                    assert!(s.store.frame.contains(&c), "{layout:?}: {c:?}");
                }
                // A machine's link never runs across another machine.
                for (l, own) in s.lines.iter().zip(&s.machines) {
                    let len = l.route.length();
                    for k in 0..=(len / 2.0) as usize {
                        let p = l.route.at(k as f32 * 2.0 / len);
                        for m in s.machines.iter().filter(|m| m.name != own.name) {
                            let inside = Rect::new(m.rect.x + 1.0, m.rect.y + 1.0, m.rect.w - 2.0, m.rect.h - 2.0);
                            assert!(
                                !inside.contains(&Rect::new(p.x, p.y, 0.0, 0.0)),
                                "{layout:?}: {} crosses {}",
                                own.name,
                                m.name
                            );
                        }
                    }
                }
                for l in &s.lines {
                    for p in &l.route.points {
                        assert!(p.x >= 0.0 && p.x <= s.width && p.y >= 0.0 && p.y <= s.height, "{layout:?}: {l:?}");
                    }
                    assert!(l.route.length() > 20.0, "{layout:?}: arrow too short to see a packet move: {l:?}");
                }
            }
        }
    }

    /// Opening and closing tags of `tag` balance (`<g>` nests; others close themselves or on the
    /// same element).
    fn balanced(markup: &str) -> bool {
        let opens = markup.matches("<g ").count() + markup.matches("<g>").count();
        opens == markup.matches("</g>").count() && markup.matches("<text ").count() == markup.matches("</text>").count()
    }

    #[test]
    fn markup_names_every_group_and_escapes_text() {
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!([N(12.0), N(-3.25), N(0.04), N(649.55)].map(|n| n.to_string()), ["12", "-3.3", "0", "649.6"]);
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));

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
        assert!(m.contains(r#"aria-label="Machine node-1 (10.0.0.11)" data-target="machine""#));
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

    #[test]
    fn picks_the_layout_by_width() {
        assert_eq!(Layout::for_width(390.0), Layout::Narrow);
        assert_eq!(Layout::for_width(815.0), Layout::Wide);
        // Not measured yet: wide.
        assert_eq!(Layout::for_width(0.0), Layout::Wide);
    }

    #[test]
    fn the_model_is_built_from_a_real_timeline() {
        let t = SimTime::from_millis(1_000);
        let s = session(Chapter::Registration, "", t);
        let m = StageModel::build(&s, t, 1.0, false, Layout::Wide, Lang::En);
        // The registration burst at 420–451 ms: some packets are on their way.
        assert!(!m.packets.is_empty());
        assert!(m.caption.starts_with("Last request, from "), "{}", m.caption);
        // Same inputs, same model.
        assert_eq!(m, StageModel::build(&s, t, 1.0, false, Layout::Wide, Lang::En));
    }
}
