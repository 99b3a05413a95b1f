//! The fleet chapter's chart under the stage: per zone over the timeline, how many nodes are
//! not Ready, how many carry a NoExecute taint, and how many Pods are terminating and running.
//! A rate change shows as a change of slope. Read in one pass over the log's object changes
//! (never by rebuilding the cluster at every sample), drawn as one path per series, with
//! the playhead and, in text, the values at the playhead.

use std::collections::HashMap;
use std::fmt::Write;

use crate::i18n::{Key, Lang};
use crate::sim::machine::ZONE_LABEL;
use crate::sim::objects::Object;
use crate::sim::settings::Settings;
use crate::sim::{Log, SimTime, ZoneState};

use super::fleet::{Fleet, ZoneLog, rate_text};
use super::html::escape;

/// Samples over the timeline.
pub const SAMPLES: usize = 241;
const PANEL_H: f64 = 110.0;
const GAP: f64 = 24.0;
const TOP: f64 = 20.0;
/// One zone's panel with its title line, and the space below it.
const ROW_H: f64 = TOP + PANEL_H + 4.0;
/// The panels' inset from the drawing's sides, so that their outlines are drawn whole.
const EDGE: f64 = 1.5;

/// Where the zones' panels are: as wide as the stage (the fleet drawing's width, in CSS pixels,
/// so the chart's text keeps its size), side by side, or one above the other on a phone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartLayout {
    /// The chart's width in SVG units.
    pub width: f64,
    pub stacked: bool,
    panel_w: f64,
}

impl ChartLayout {
    /// The chart under a fleet drawing laid out as `fleet`.
    pub fn of(fleet: &super::fleet::Layout) -> ChartLayout {
        let inner = fleet.width - 2.0 * EDGE;
        let panel_w = if fleet.stacked { inner } else { (inner - 2.0 * GAP) / 3.0 };
        ChartLayout { width: fleet.width, stacked: fleet.stacked, panel_w }
    }

    /// The top left corner of zone panel `zi` (its title line above it).
    fn origin(&self, zi: usize) -> (f64, f64) {
        if self.stacked { (EDGE, zi as f64 * (ROW_H + GAP)) } else { (EDGE + zi as f64 * (self.panel_w + GAP), 0.0) }
    }

    /// The chart's height in SVG units for `zones` zones.
    pub fn height(&self, zones: usize) -> f64 {
        if self.stacked { zones.max(1) as f64 * (ROW_H + GAP) - GAP } else { ROW_H }
    }

    /// Where sample `i` of zone panel `zi` is across.
    fn sample_x(&self, zi: usize, i: usize) -> f64 {
        self.origin(zi).0 + self.panel_w * i as f64 / (SAMPLES - 1) as f64
    }
}

impl Default for ChartLayout {
    fn default() -> ChartLayout {
        ChartLayout::of(&super::fleet::Layout::default())
    }
}

/// The series of one zone, `SAMPLES` values each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZoneSeries {
    pub zone: String,
    pub not_ready: Vec<u32>,
    pub no_execute: Vec<u32>,
    pub terminating: Vec<u32>,
    pub running: Vec<u32>,
    /// Nodes Ready (not drawn: a point's values say it).
    pub ready: Vec<u32>,
    /// The zone's state as the node lifecycle controller has it.
    pub state: Vec<ZoneState>,
    /// NoExecute taints a second.
    pub rate: Vec<f64>,
}

/// The chart's data: the sample instants and each zone's series.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZoneChart {
    pub end: SimTime,
    pub zones: Vec<ZoneSeries>,
}

#[derive(Clone, Copy, Debug, Default)]
struct NodeState {
    zone: usize,
    not_ready: bool,
    no_execute: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct PodState {
    zone: Option<usize>,
    terminating: bool,
    running: bool,
}

/// The sample instant `i` of a timeline ending at `end`.
fn sample_at(end: SimTime, i: usize) -> SimTime {
    SimTime::from_micros(end.as_micros() / (SAMPLES as u64 - 1) * i as u64)
}

impl ZoneChart {
    /// The series of `zones` (in order) from `log`, sampled over the story up to `end`, as far
    /// as the log is computed (`horizon`: a timeline still being computed has fewer samples).
    pub fn build(log: &Log, zones: &[&str], end: SimTime, horizon: SimTime, settings: &Settings) -> ZoneChart {
        let mut b = ChartBuilder::new(zones, end, settings);
        b.extend(log, horizon);
        b.chart
    }

    /// The sample nearest to `t`.
    pub fn index_at(&self, t: SimTime) -> usize {
        if self.end == SimTime::ZERO {
            return 0;
        }
        let f = t.as_micros() as f64 / self.end.as_micros() as f64;
        ((f * (SAMPLES - 1) as f64).round() as usize).min(SAMPLES - 1)
    }
}

/// The chart read a stretch of the log at a time, as a progressive timeline is computed: each
/// object change is read once, however often the chart is asked for (reading a thousand nodes'
/// whole log again on every new stretch would be a long task each time).
#[derive(Clone, Debug, Default)]
pub struct ChartBuilder {
    chart: ZoneChart,
    nodes: HashMap<String, NodeState>,
    pods: HashMap<(String, String), PodState>,
    /// Per zone: not Ready, NoExecute, Pods terminating, Pods running, Ready.
    counts: Vec<[u32; 5]>,
    /// The next sample, log line and object change to read.
    next: usize,
    line: usize,
    change: usize,
    zone_log: ZoneLog,
    /// The timeline's settings, whose zone rules the states and rates follow.
    settings: Settings,
}

impl ChartBuilder {
    /// A chart of `zones` (in order) over a story ending at `end`, run with `settings`, nothing
    /// read yet.
    pub fn new(zones: &[&str], end: SimTime, settings: &Settings) -> ChartBuilder {
        ChartBuilder {
            chart: ZoneChart {
                end,
                zones: zones.iter().map(|z| ZoneSeries { zone: z.to_string(), ..ZoneSeries::default() }).collect(),
            },
            counts: vec![[0u32; 5]; zones.len()],
            settings: settings.clone(),
            ..ChartBuilder::default()
        }
    }

    /// The chart so far.
    pub fn chart(&self) -> &ZoneChart {
        &self.chart
    }

    /// Whether this builder is for `zones` over a story ending at `end`.
    pub fn is_for(&self, zones: &[&str], end: SimTime) -> bool {
        self.chart.end == end && self.chart.zones.iter().map(|z| z.zone.as_str()).eq(zones.iter().copied())
    }

    /// Records the samples before `upto` with the counts as they are.
    fn record(&mut self, log: &Log, upto: SimTime) {
        let end = self.chart.end;
        while self.next < SAMPLES && sample_at(end, self.next) < upto {
            let at = sample_at(end, self.next);
            while let Some(l) = log.lines.get(self.line).filter(|l| l.t <= at) {
                self.zone_log.read(l);
                self.line += 1;
            }
            for (s, c) in self.chart.zones.iter_mut().zip(&self.counts) {
                s.not_ready.push(c[0]);
                s.no_execute.push(c[1]);
                s.terminating.push(c[2]);
                s.running.push(c[3]);
                s.ready.push(c[4]);
                let state = self.zone_log.state(&self.settings, &s.zone, c[4] as usize, c[0] as usize);
                s.state.push(state);
                s.rate.push(self.zone_log.rate(&self.settings, state, (c[0] + c[4]) as usize));
            }
            self.next += 1;
        }
    }

    /// Reads the changes `log` gained since the last call, as far as it is computed
    /// (`horizon`), and returns the chart.
    pub fn extend(&mut self, log: &Log, horizon: SimTime) -> &ZoneChart {
        let end = self.chart.end;
        while let Some(change) = log.changes().get(self.change) {
            if change.t > end {
                break;
            }
            self.change += 1;
            self.record(log, change.t);
            // Leases are most of the changes, and renewals are built when read: skip them.
            if change.kind() == crate::sim::objects::Kind::Lease {
                continue;
            }
            let counts = &mut self.counts;
            match &change.object() {
                Object::Node(n) => {
                    let Some(zone) = n
                        .metadata
                        .labels
                        .get(ZONE_LABEL)
                        .and_then(|z| self.chart.zones.iter().position(|x| x.zone == z.as_str()))
                    else {
                        continue;
                    };
                    let state = NodeState {
                        zone,
                        not_ready: n.ready_status() != Some("True"),
                        no_execute: crate::sim::carries_no_execute(n),
                    };
                    let old = match self.nodes.get_mut(change.name()) {
                        Some(old) => Some(std::mem::replace(old, state)),
                        None => self.nodes.insert(change.name().to_string(), state),
                    };
                    if let Some(old) = old {
                        counts[old.zone][0] -= u32::from(old.not_ready);
                        counts[old.zone][1] -= u32::from(old.no_execute);
                        counts[old.zone][4] -= u32::from(!old.not_ready);
                    }
                    counts[zone][0] += u32::from(state.not_ready);
                    counts[zone][1] += u32::from(state.no_execute);
                    counts[zone][4] += u32::from(!state.not_ready);
                }
                Object::Pod(p) => {
                    let (ns, name) = change.names();
                    let key = (ns.to_string(), name.to_string());
                    if let Some(old) = self.pods.remove(&key)
                        && let Some(z) = old.zone
                    {
                        counts[z][2] -= u32::from(old.terminating);
                        counts[z][3] -= u32::from(old.running);
                    }
                    if change.change == crate::sim::ChangeType::Deleted {
                        continue;
                    }
                    let state = PodState {
                        zone: self.nodes.get(p.spec.node_name.as_str()).map(|n| n.zone),
                        terminating: p.is_terminating(),
                        running: !p.is_terminating() && p.status.phase == "Running",
                    };
                    if let Some(z) = state.zone {
                        counts[z][2] += u32::from(state.terminating);
                        counts[z][3] += u32::from(state.running);
                    }
                    self.pods.insert(key, state);
                }
                _ => {}
            }
        }
        self.record(log, if horizon >= end { SimTime::MAX } else { horizon + std::time::Duration::from_micros(1) });
        &self.chart
    }
}

/// The series' CSS classes, in the order of [`ZoneSeries`]'s fields.
const CLASSES: [&str; 4] = ["not-ready", "no-execute", "terminating", "running"];

/// The highest value of a zone's drawn series (at least 1): the top of its panel.
fn panel_max(s: &ZoneSeries) -> f64 {
    [&s.not_ready, &s.no_execute, &s.terminating, &s.running]
        .iter()
        .flat_map(|v| v.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1) as f64
}

/// The chart's markup: every zone's series (drawn once per timeline; the playhead and the point
/// are [`overlay_markup`]).
pub fn chart_markup(chart: &ZoneChart, lang: Lang, l: ChartLayout) -> String {
    let mut out = String::new();
    let pw = l.panel_w;
    for (zi, s) in chart.zones.iter().enumerate() {
        let (x0, y0) = l.origin(zi);
        let max = panel_max(s);
        let _ = write!(
            out,
            "<g class=\"chart-zone\"><rect class=\"chart-box\" x=\"{x0:.1}\" y=\"{:.1}\" width=\"{pw:.1}\" height=\"{PANEL_H:.1}\"/><text class=\"chart-title\" x=\"{x0:.1}\" y=\"{:.1}\">{}</text><text class=\"chart-max\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            y0 + TOP,
            y0 + 14.0,
            escape(&s.zone),
            x0 + pw,
            y0 + 14.0,
            lang.fill(Key::ChartMax, &[&(max as u32).to_string()])
        );
        // The series across in samples, scaled to the panel: the same path at every width.
        let _ = write!(out, "<g transform=\"translate({x0:.1} {y0:.1}) scale({:.5} 1)\">", pw / (SAMPLES - 1) as f64);
        for (values, class) in [&s.not_ready, &s.no_execute, &s.terminating, &s.running].into_iter().zip(CLASSES) {
            let d = series_path(
                values.iter().enumerate().map(|(i, v)| (i as f64, TOP + PANEL_H - PANEL_H * f64::from(*v) / max)),
            );
            let _ = write!(out, "<path class=\"series {class}\" d=\"{d}\"/>");
        }
        out.push_str("</g></g>");
    }
    out
}

/// A series through `points` (across: whole samples), its level stretches drawn as one segment
/// each (`H`): most of a series is level, and the still view carries the chart once for each
/// width it is drawn at.
fn series_path(points: impl Iterator<Item = (f64, f64)>) -> String {
    let mut d = String::new();
    // The last point drawn, and the last point of the level stretch after it, not yet drawn.
    let mut last: Option<(f64, f64)> = None;
    let mut level: Option<f64> = None;
    for (x, y) in points {
        match last {
            None => {
                let _ = write!(d, "M{x} {y:.1}");
                last = Some((x, y));
            }
            // Level as drawn: to the tenth of a unit.
            Some((_, ly)) if (ly * 10.0).round() == (y * 10.0).round() => level = Some(x),
            Some(_) => {
                if let Some(lx) = level.take() {
                    let _ = write!(d, "H{lx}");
                }
                let _ = write!(d, "L{x} {y:.1}");
                last = Some((x, y));
            }
        }
    }
    if let Some(lx) = level {
        let _ = write!(d, "H{lx}");
    }
    d
}

/// A point of the chart: a zone's panel and a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub zone: usize,
    pub sample: usize,
}

impl ZoneChart {
    /// The point under drawing coordinates (`x`, `y`), if they are on a zone's panel.
    pub fn point_at(&self, l: ChartLayout, x: f64, y: f64) -> Option<Point> {
        let zi = (0..self.zones.len()).find(|&zi| {
            let (x0, y0) = l.origin(zi);
            (x0..=x0 + l.panel_w).contains(&x) && (y0..y0 + ROW_H).contains(&y)
        })?;
        let cx = x - l.origin(zi).0;
        Some(Point { zone: zi, sample: ((cx / l.panel_w) * (SAMPLES - 1) as f64).round() as usize })
    }

    /// The point next to `p` for an arrow key: along the time (`across` false) by `by` samples,
    /// or to the next or previous zone; `Home` and `End` are `by` of `-SAMPLES` and `SAMPLES`.
    pub fn step(&self, p: Point, across: bool, by: isize) -> Point {
        if across {
            let n = self.zones.len().max(1) as isize;
            Point { zone: (p.zone as isize + by.signum()).rem_euclid(n) as usize, ..p }
        } else {
            Point { sample: (p.sample as isize + by).clamp(0, SAMPLES as isize - 1) as usize, ..p }
        }
    }

    /// The instant of sample `i`.
    pub fn time_of(&self, i: usize) -> SimTime {
        sample_at(self.end, i)
    }

    /// Each zone's change in running Pods over the `window` before `t` (samples at or before
    /// `t`): the Pods a dark zone loses and the healthy zones gain.
    pub fn moved(&self, t: SimTime, window: std::time::Duration) -> Vec<i64> {
        let at = |t: SimTime| {
            if self.end == SimTime::ZERO {
                return 0;
            }
            let f = t.as_micros() as f64 / self.end.as_micros() as f64;
            ((f * (SAMPLES - 1) as f64).floor().max(0.0) as usize).min(SAMPLES - 1)
        };
        let (now, then) = (at(t), at(t.saturating_sub(window)));
        self.zones
            .iter()
            .map(|s| match (s.running.get(now), s.running.get(then)) {
                (Some(a), Some(b)) => i64::from(*a) - i64::from(*b),
                _ => 0,
            })
            .collect()
    }
}

/// What moves over the chart: the playhead in every panel, and the chosen point with a dot on
/// each series.
pub fn overlay_markup(chart: &ZoneChart, t: SimTime, point: Option<Point>, l: ChartLayout) -> String {
    let mut out = String::new();
    let i = chart.index_at(t);
    for zi in 0..chart.zones.len() {
        let (px, y0) = (l.sample_x(zi, i), l.origin(zi).1);
        let _ = write!(
            out,
            "<line class=\"chart-playhead\" x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\"/>",
            y0 + TOP,
            y0 + TOP + PANEL_H
        );
    }
    if let Some(p) = point
        && let Some(s) = chart.zones.get(p.zone)
    {
        let (x, y0) = (l.sample_x(p.zone, p.sample), l.origin(p.zone).1);
        let max = panel_max(s);
        let _ = write!(
            out,
            "<line class=\"chart-cursor\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>",
            y0 + TOP,
            y0 + TOP + PANEL_H
        );
        for (values, class) in [&s.not_ready, &s.no_execute, &s.terminating, &s.running].into_iter().zip(CLASSES) {
            let v = values.get(p.sample).copied().unwrap_or(0);
            let y = y0 + TOP + PANEL_H - PANEL_H * f64::from(v) / max;
            let _ = write!(out, "<circle class=\"chart-dot {class}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\"/>");
        }
    }
    out
}

/// A point's values in words: its time, zone, state, counts and tainting rate.
pub fn point_text(chart: &ZoneChart, lang: Lang, p: Point) -> String {
    let Some(s) = chart.zones.get(p.zone) else { return String::new() };
    let i = p.sample.min(s.running.len().saturating_sub(1));
    let get = |v: &Vec<u32>| v.get(i).copied().unwrap_or(0).to_string();
    lang.fill(
        Key::ChartPoint,
        &[
            &chart.time_of(i).clock_label(),
            &s.zone,
            s.state.get(i).copied().unwrap_or(ZoneState::Initial).as_str(),
            &get(&s.ready),
            &get(&s.not_ready),
            &get(&s.no_execute),
            &rate_text(lang, s.rate.get(i).copied().unwrap_or(0.0)),
            &get(&s.running),
            &get(&s.terminating),
        ],
    )
}

/// The values at the playhead, one sentence per zone: read from the fleet at the playhead, so
/// they are the zones' own counts (the nearest sample of the chart can be seconds away).
pub fn values_text(fleet: &Fleet, lang: Lang) -> String {
    fleet
        .zones
        .iter()
        .map(|z| {
            let n = |v: usize| v.to_string();
            lang.fill(
                Key::ChartValues,
                &[&z.name, &n(z.not_ready), &n(z.no_execute), &n(z.pods_terminating), &n(z.pods_running)],
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_series_draws_its_level_stretches_as_one_segment() {
        let points = [(0.0, 5.0), (1.0, 5.0), (2.0, 5.04), (3.0, 2.0), (4.0, 1.0), (5.0, 1.0)];
        assert_eq!(super::series_path(points.into_iter()), "M0 5.0H2L3 2.0L4 1.0H5");
        assert_eq!(super::series_path([(1.0, 1.0)].into_iter()), "M1 1.0");
        assert_eq!(super::series_path(std::iter::empty()), "");
    }

    use super::*;
    use crate::sim::{Chapter, Config, Timeline, ZONES};

    #[test]
    fn the_dark_zone_fills_and_the_others_take_its_pods() {
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() });
        let end = SimTime::from_secs(1200);
        tl.run_until(end);
        let chart = ZoneChart::build(tl.log(), &ZONES, end, end, &Settings::default());
        assert!(chart.zones.iter().all(|z| z.not_ready.len() == SAMPLES && z.running.len() == SAMPLES));
        let at = |t: u64| chart.index_at(SimTime::from_secs(t));
        let b = &chart.zones[1];
        assert_eq!((b.not_ready[at(100)], b.running[at(100)]), (0, 10));
        assert_eq!(b.not_ready[at(600)], 10);
        // The tainted nodes grow one at a time (0.1 node/s), and the other zones gain Pods.
        assert!(b.no_execute[at(700)] > b.no_execute[at(520)]);
        assert!(chart.zones[0].running[at(830)] > 10, "{:?}", chart.zones[0].running);
        let svg = chart_markup(&chart, Lang::En, ChartLayout::default());
        assert_eq!(svg.matches("<path class=\"series").count(), 12);
        assert!(point_text(&chart, Lang::En, Point { zone: 1, sample: at(600) }).contains("10 not Ready"));
        // Pods move: the dark zone loses running Pods while the healthy zones gain them.
        let moved = chart.moved(SimTime::from_secs(850), std::time::Duration::from_secs(60));
        assert!(moved[1] < 0 && moved[0] > 0 && moved[2] > 0, "{moved:?}");
        assert_eq!(chart.moved(SimTime::from_secs(100), std::time::Duration::from_secs(60)), [0, 0, 0]);
    }

    #[test]
    fn a_chart_of_a_timeline_still_computed_keeps_the_story_scale() {
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() });
        tl.run_until(SimTime::from_secs(300));
        let (end, horizon) = (SimTime::from_secs(1200), SimTime::from_secs(300));
        let chart = ZoneChart::build(tl.log(), &ZONES, end, horizon, &Settings::default());
        assert_eq!((chart.end, chart.zones[0].running.len()), (end, 61));
        // Past the computed samples, the last one is said.
        let late = Point { zone: 0, sample: chart.index_at(SimTime::from_secs(900)) };
        assert!(point_text(&chart, Lang::En, late).contains("0 not Ready"), "{}", point_text(&chart, Lang::En, late));
        assert_eq!(chart.moved(SimTime::from_secs(900), std::time::Duration::from_secs(60)), [0, 0, 0]);
    }

    #[test]
    fn a_chart_read_stretch_by_stretch_is_the_chart_of_the_whole_log() {
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() });
        let end = SimTime::from_secs(1200);
        let mut b = ChartBuilder::new(&ZONES, end, &Settings::default());
        for s in (37..=1237).step_by(97) {
            tl.run_until(SimTime::from_secs(s));
            let horizon = tl.horizon();
            assert_eq!(
                b.extend(tl.log(), horizon),
                &ZoneChart::build(tl.log(), &ZONES, end, horizon, &Settings::default())
            );
        }
        assert_eq!(b.chart().zones[0].running.len(), SAMPLES);
        assert!(b.is_for(&ZONES, end) && !b.is_for(&ZONES, SimTime::from_secs(1300)));
    }

    #[test]
    fn a_point_says_its_time_zone_state_counts_and_rate() {
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() });
        let end = SimTime::from_secs(1200);
        tl.run_until(end);
        let chart = ZoneChart::build(tl.log(), &ZONES, end, end, &Settings::default());
        // The pointer over the middle of the second zone's panel.
        let l = ChartLayout::default();
        let pw = l.panel_w;
        let p = chart.point_at(l, EDGE + pw + GAP + pw / 2.0, TOP + 10.0).expect("on a panel");
        assert_eq!(p, Point { zone: 1, sample: (SAMPLES - 1) / 2 });
        assert_eq!(chart.point_at(l, EDGE + pw + GAP / 2.0, TOP), None, "between panels");
        // On a phone the panels are stacked, each as wide as the chart (drawn at 345 units for a
        // 390 px stage, as the fleet is).
        let phone = ChartLayout::of(&super::super::fleet::Layout::for_width(390.0));
        assert!(phone.stacked && phone.height(3) > 3.0 * PANEL_H && phone.width == 345.0);
        let (_, y2) = phone.origin(2);
        assert_eq!(chart.point_at(phone, 345.0 - EDGE, y2 + TOP + 1.0), Some(Point { zone: 2, sample: SAMPLES - 1 }));
        let svg = chart_markup(&chart, Lang::En, phone);
        assert!(svg.contains(&format!("width=\"{:.1}\" height=\"{PANEL_H:.1}\"", 345.0 - 2.0 * EDGE)), "{svg}");
        // At 10 min the dark zone is wholly down and tainted one node every 10 s.
        let text = point_text(&chart, Lang::En, p);
        assert!(
            text.starts_with("T+10:00, zone eu-west-1b: FullDisruption; 0 Ready, 10 not Ready,")
                && text.contains("tainting one node every 10 s"),
            "{text}"
        );
        let partial =
            Point { zone: 1, sample: chart.index_at(tl.steps()[2].unwrap().start + std::time::Duration::from_secs(5)) };
        assert!(
            point_text(&chart, Lang::En, partial).contains("PartialDisruption"),
            "{}",
            point_text(&chart, Lang::En, partial)
        );
        let master =
            Point { zone: 0, sample: chart.index_at(tl.steps()[4].unwrap().start + std::time::Duration::from_secs(5)) };
        assert!(point_text(&chart, Lang::Ja, master).contains("停止中"));
        // The keys: along the time within bounds, across the zones round.
        assert_eq!(chart.step(p, false, 1).sample, p.sample + 1);
        assert_eq!(chart.step(p, false, -(SAMPLES as isize)).sample, 0);
        assert_eq!(chart.step(Point { zone: 2, sample: 3 }, true, 1), Point { zone: 0, sample: 3 });
        let overlay = overlay_markup(&chart, SimTime::from_secs(600), Some(p), l);
        assert_eq!((overlay.matches("chart-playhead").count(), overlay.matches("<circle").count()), (3, 4));
    }
}
