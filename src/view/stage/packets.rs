//! Requests as packets: when each is on screen, where along its arrow, what it says, and the
//! caption under the stage.

use std::borrow::Cow;
use std::time::Duration;

use super::geometry::{Pt, round, round_pt};
use super::scene::{Scene, Sender};
use crate::i18n::{Key, Lang};
use crate::sim::{HEARTBEAT_TIMEOUT, Log, Outcome, Request, SimTime};
use crate::view::session::is_routine;

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
pub(super) const TRAVEL: f64 = 0.55;
/// The share of the window at the end during which a packet fades out.
const FADE: f64 = 0.2;
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
#[derive(Clone, Debug)]
struct Scheduled<'a> {
    index: usize,
    req: Cow<'a, Request>,
    start: SimTime,
}

/// The requests that may be on screen at `t`, with their staggered start, oldest first. Also
/// returns the index where the scan began.
fn scheduled(log: &Log, t: SimTime, timing: Timing) -> (usize, Vec<Scheduled<'_>>) {
    let from = t.saturating_sub(timing.lookback());
    // Requests sent within one stagger before the scan still push the first ones back.
    let warm = log.first_request_from(from.saturating_sub(timing.stagger));
    let begin = log.first_request_from(from);
    let end = log.requests.first_after(t);
    let mut out = Vec::with_capacity(end.saturating_sub(begin));
    let mut lo = warm;
    for i in warm..end {
        let r = log.requests.at(i);
        while lo < i && log.requests.t(lo) + timing.stagger <= r.t {
            lo += 1;
        }
        if i < begin {
            continue;
        }
        let k = ((i - lo) as u32).min(MAX_STAGGER);
        let start = r.t + timing.stagger * k;
        out.push(Scheduled { index: i, req: r, start });
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
        if age < on_screen(&s.req, window) {
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
        let r = &*s.req;
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
        let label_w = round(chars as f32 * scene.layout.ch_mono() + 10.0);
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
    let r = log.requests.at(i);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Actor, Chapter, Method};
    use crate::view::stage::Layout;
    use crate::view::stage::fixtures::{LEASE, kubelet, log_of, req, scene, scene_at};

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

    /// At 1× the kubelet's start-up burst (the CSINode tries, then the two Lease reads) pushes its
    /// Node POST, sent at 0.45 s, back by the most staggering allows: on screen from 1.29 s, as the
    /// browser test that clicks it expects at 1.5 s.
    #[test]
    fn the_node_post_waits_behind_the_start_up_burst() {
        let t = SimTime::from_millis(1500);
        let s = crate::view::stage::fixtures::session(Chapter::Registration, "", t);
        let scene = Scene::build(&s, t, Timing::new(1.0, false), Layout::Wide, Lang::En);
        let on = |ms| {
            packets(s.timeline.log(), SimTime::from_millis(ms), Timing::new(1.0, false), &scene, Lang::En)
                .into_iter()
                .map(|p| p.text)
                .collect::<Vec<_>>()
        };
        assert!(!on(1000).iter().any(|p| p == "POST /api/v1/nodes"), "{:?}", on(1000));
        assert!(on(1500).iter().any(|p| p == "POST /api/v1/nodes"), "{:?}", on(1500));
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
}
