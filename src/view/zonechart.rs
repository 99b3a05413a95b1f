//! The fleet chapter's chart under the stage: per zone over the timeline, how many nodes are
//! not Ready, how many carry a NoExecute taint, and how many Pods are terminating and running.
//! A rate change shows as a change of slope. Read in one pass over the log's object changes
//! (never by rebuilding the cluster at every sample), drawn as one polyline per series, with
//! the playhead and, in text, the values at the playhead.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::i18n::{Key, Lang};
use crate::sim::machine::ZONE_LABEL;
use crate::sim::objects::Object;
use crate::sim::{Log, SimTime};

use super::html::escape;

/// Samples over the timeline.
pub const SAMPLES: usize = 241;
const VIEW_W: f64 = 1200.0;
const PANEL_H: f64 = 110.0;
const GAP: f64 = 24.0;
const PANEL_W: f64 = (VIEW_W - 2.0 * GAP) / 3.0;
const TOP: f64 = 20.0;

/// The four series of one zone, `SAMPLES` values each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZoneSeries {
    pub zone: String,
    pub not_ready: Vec<u32>,
    pub no_execute: Vec<u32>,
    pub terminating: Vec<u32>,
    pub running: Vec<u32>,
}

/// The chart's data: the sample instants and each zone's series.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZoneChart {
    pub end: SimTime,
    pub zones: Vec<ZoneSeries>,
}

#[derive(Clone, Copy, Default)]
struct NodeState {
    zone: usize,
    not_ready: bool,
    no_execute: bool,
}

#[derive(Clone, Copy, Default)]
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
    /// The series of `zones` (in order) from `log`, sampled up to `end`.
    pub fn build(log: &Log, zones: &[&str], end: SimTime) -> ZoneChart {
        let mut series: Vec<ZoneSeries> =
            zones.iter().map(|z| ZoneSeries { zone: z.to_string(), ..ZoneSeries::default() }).collect();
        let mut nodes: BTreeMap<&str, NodeState> = BTreeMap::new();
        let mut pods: BTreeMap<(&str, &str), PodState> = BTreeMap::new();
        let mut counts = vec![[0u32; 4]; zones.len()];
        let mut next = 0;
        let record = |upto: SimTime, counts: &[[u32; 4]], series: &mut Vec<ZoneSeries>, next: &mut usize| {
            while *next < SAMPLES && sample_at(end, *next) < upto {
                for (s, c) in series.iter_mut().zip(counts) {
                    s.not_ready.push(c[0]);
                    s.no_execute.push(c[1]);
                    s.terminating.push(c[2]);
                    s.running.push(c[3]);
                }
                *next += 1;
            }
        };
        for change in &log.changes {
            if change.t > end {
                break;
            }
            record(change.t, &counts, &mut series, &mut next);
            let deleted = change.change == crate::sim::ChangeType::Deleted;
            // Leases are most of the changes, and renewals are built when read: skip them.
            if change.kind() == crate::sim::objects::Kind::Lease {
                continue;
            }
            match &change.object() {
                Object::Node(n) => {
                    let Some(zone) = n.metadata.labels.get(ZONE_LABEL).and_then(|z| zones.iter().position(|x| x == z))
                    else {
                        continue;
                    };
                    let state = NodeState {
                        zone,
                        not_ready: n.ready_status() != Some("True"),
                        no_execute: crate::sim::carries_no_execute(n),
                    };
                    if let Some(old) = nodes.insert(change.name(), state) {
                        counts[old.zone][0] -= u32::from(old.not_ready);
                        counts[old.zone][1] -= u32::from(old.no_execute);
                    }
                    counts[zone][0] += u32::from(state.not_ready);
                    counts[zone][1] += u32::from(state.no_execute);
                }
                Object::Pod(p) => {
                    let key = change.names();
                    if let Some(old) = pods.remove(&key)
                        && let Some(z) = old.zone
                    {
                        counts[z][2] -= u32::from(old.terminating);
                        counts[z][3] -= u32::from(old.running);
                    }
                    if deleted {
                        continue;
                    }
                    let state = PodState {
                        zone: nodes.get(p.spec.node_name.as_str()).map(|n| n.zone),
                        terminating: p.is_terminating(),
                        running: !p.is_terminating() && p.status.phase == "Running",
                    };
                    if let Some(z) = state.zone {
                        counts[z][2] += u32::from(state.terminating);
                        counts[z][3] += u32::from(state.running);
                    }
                    pods.insert(key, state);
                }
                _ => {}
            }
        }
        record(SimTime::MAX, &counts, &mut series, &mut next);
        ZoneChart { end, zones: series }
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

/// The series' CSS classes, in the order of [`ZoneSeries`]'s fields.
const CLASSES: [&str; 4] = ["not-ready", "no-execute", "terminating", "running"];

/// The chart's markup (the playhead at `t`).
pub fn chart_markup(chart: &ZoneChart, lang: Lang, t: SimTime) -> String {
    let mut out = String::new();
    for (zi, s) in chart.zones.iter().enumerate() {
        let x0 = zi as f64 * (PANEL_W + GAP);
        let max = [&s.not_ready, &s.no_execute, &s.terminating, &s.running]
            .iter()
            .flat_map(|v| v.iter().copied())
            .max()
            .unwrap_or(0)
            .max(1) as f64;
        let _ = write!(
            out,
            "<g class=\"chart-zone\"><rect class=\"chart-box\" x=\"{x0:.1}\" y=\"{TOP:.1}\" width=\"{PANEL_W:.1}\" height=\"{PANEL_H:.1}\"/><text class=\"chart-title\" x=\"{x0:.1}\" y=\"14\">{}</text><text class=\"chart-max\" x=\"{:.1}\" y=\"14\" text-anchor=\"end\">{}</text>",
            escape(&s.zone),
            x0 + PANEL_W,
            lang.fill(Key::ChartMax, &[&(max as u32).to_string()])
        );
        for (values, class) in [&s.not_ready, &s.no_execute, &s.terminating, &s.running].into_iter().zip(CLASSES) {
            let mut points = String::new();
            for (i, v) in values.iter().enumerate() {
                let x = x0 + PANEL_W * i as f64 / (SAMPLES - 1) as f64;
                let y = TOP + PANEL_H - PANEL_H * f64::from(*v) / max;
                let _ = write!(points, "{x:.1},{y:.1} ");
            }
            let _ = write!(out, "<polyline class=\"series {class}\" points=\"{}\"/>", points.trim_end());
        }
        let px = x0 + PANEL_W * chart.index_at(t) as f64 / (SAMPLES - 1) as f64;
        let _ = write!(
            out,
            "<line class=\"chart-playhead\" x1=\"{px:.1}\" y1=\"{TOP:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\"/></g>",
            TOP + PANEL_H
        );
    }
    out
}

/// The chart's height in SVG units.
pub const CHART_H: f64 = TOP + PANEL_H + 4.0;
/// The chart's width in SVG units.
pub const CHART_W: f64 = VIEW_W;

/// The values at the playhead, one sentence per zone.
pub fn values_text(chart: &ZoneChart, lang: Lang, t: SimTime) -> String {
    let i = chart.index_at(t);
    chart
        .zones
        .iter()
        .map(|s| {
            lang.fill(
                Key::ChartValues,
                &[
                    &s.zone,
                    &s.not_ready[i].to_string(),
                    &s.no_execute[i].to_string(),
                    &s.terminating[i].to_string(),
                    &s.running[i].to_string(),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Chapter, Config, Timeline, ZONES};

    #[test]
    fn the_dark_zone_fills_and_the_others_take_its_pods() {
        let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() });
        let end = SimTime::from_secs(1200);
        tl.run_until(end);
        let chart = ZoneChart::build(tl.log(), &ZONES, end);
        assert!(chart.zones.iter().all(|z| z.not_ready.len() == SAMPLES && z.running.len() == SAMPLES));
        let at = |t: u64| chart.index_at(SimTime::from_secs(t));
        let b = &chart.zones[1];
        assert_eq!((b.not_ready[at(100)], b.running[at(100)]), (0, 10));
        assert_eq!(b.not_ready[at(600)], 10);
        // The tainted nodes grow one at a time (0.1 node/s), and the other zones gain Pods.
        assert!(b.no_execute[at(700)] > b.no_execute[at(520)]);
        assert!(chart.zones[0].running[at(830)] > 10, "{:?}", chart.zones[0].running);
        let svg = chart_markup(&chart, Lang::En, SimTime::from_secs(600));
        assert_eq!(svg.matches("<polyline").count(), 12);
        assert!(values_text(&chart, Lang::En, SimTime::from_secs(600)).contains("eu-west-1b: 10 not Ready"));
    }
}
