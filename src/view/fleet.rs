//! The fleet chapter's stage: the three zones side by side, one cell per node, drawn as one SVG
//! path per kind of cell (Ready, NotReady, Unknown) and per taint mark, so a thousand nodes cost
//! a handful of elements. Each zone says its state as the node lifecycle controller last logged
//! it, its counts, its NoExecute tainting rate and how many nodes wait for that taint; the
//! kube-controller-manager's log is beside it.
//!
//! Pure: read from the timeline's [`Snapshot`] and log at the playhead, with native tests.

use std::fmt::Write;

use crate::i18n::{Key, Lang};
use crate::render::klog::klog_line;
use crate::sim::{Actor, Log, LogLine, Settings, SimTime, WallTime, ZoneState, compute_zone_state, zone_qps};

pub use super::fleet_index::{FleetIndex, Readiness, TaintMark};
use super::html::{cat, escape};

/// The drawing's width (SVG user units) when the stage's width is not known yet.
pub const VIEW_W: f64 = 1200.0;

/// The widths the fleet is drawn at, in user units. The page draws it at the widest of these
/// that is not wider than its stage (the narrowest on a narrower one) and lets the drawing scale
/// to the stage, so that its text is drawn between its size and 16 % larger. There are few of
/// them so that the still view can carry every one, each laid out as the app lays it out, and
/// the stage's container queries show the one the app will draw (`style/still.css`, its block
/// written by [`rung_css`]).
pub const WIDTHS: [f64; 13] =
    [300.0, 345.0, 400.0, 460.0, 530.0, 610.0, 700.0, 800.0, 920.0, 1050.0, 1200.0, 1390.0, 1600.0];

/// How many log lines the controller's pane shows.
pub const LOG_LINES: usize = 8;

/// How far back the stage counts the Pods a zone gained or lost.
pub const MOVED_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);
/// Below this width the zones are stacked one above the other (phones).
pub const STACK_BELOW: f64 = 700.0;
/// Below this panel width a zone's heading lines are broken at their ` · `.
const SPLIT_BELOW: f64 = 330.0;
const GAP: f64 = 24.0;
/// The panels' inset from the drawing's edges, so that their outlines are drawn whole.
const EDGE: f64 = 1.5;
/// The heading lines' spacing, and the first baseline.
const LINE_H: f64 = 18.0;
const FIRST_LINE: f64 = 22.0;
/// How far into a panel a Pod transfer's arrow reaches.
const ARROW_IN: f64 = 60.0;
const MAX_CELL: f64 = 40.0;
const MIN_CELL: f64 = 10.0;

/// Where the zones are drawn, from the stage's width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The drawing's width in user units (CSS pixels at scale 1).
    pub width: f64,
    /// The zones one above the other (phones) rather than side by side.
    pub stacked: bool,
    /// Heading lines broken at their ` · ` (narrow panels).
    pub split: bool,
    pub panel_w: f64,
    /// The baseline of the line saying how many Pods a zone gained or lost.
    pub moved_y: f64,
    /// Where the cells start below a zone's heading lines (from the panel's top).
    pub grid_top: f64,
}

impl Layout {
    /// The layout for a stage `width` CSS pixels wide: drawn at [`rung`] of it.
    pub fn for_width(width: f64) -> Layout {
        let width = rung(width);
        let stacked = width < STACK_BELOW;
        let inner = width - 2.0 * EDGE;
        let panel_w = if stacked { inner } else { (inner - 2.0 * GAP) / 3.0 };
        let split = panel_w < SPLIT_BELOW;
        // Name, state, and three lines, or the lines' nine parts.
        let lines = if split { 9.0 } else { 5.0 };
        let moved_y = FIRST_LINE + lines * LINE_H;
        // Below that line, the arrows of Pods moving between zones, on a line of their own.
        Layout { width, stacked, split, panel_w, moved_y, grid_top: moved_y + 24.0 }
    }
}

/// Which of [`WIDTHS`] the fleet is drawn at on a stage `width` CSS pixels wide: the widest not
/// wider than it, the narrowest on a narrower stage, [`VIEW_W`] when the width is not known.
pub fn rung(width: f64) -> f64 {
    if !width.is_finite() {
        return VIEW_W;
    }
    WIDTHS.iter().rev().copied().find(|w| *w <= width).unwrap_or(WIDTHS[0])
}

/// The still view's style block that shows the drawing of each width in [`WIDTHS`] on the stages
/// it fits (a container query per width, the stage the container, as the app chooses by the
/// stage's unrounded width), and [`VIEW_W`]'s where container queries are not known.
/// `style/still.css` holds it between [`RUNG_CSS_MARKS`]; a test keeps the two the same.
pub fn rung_css() -> String {
    let show = |w: f64| format!("  [data-still] [data-rung=\"{w}\"] {{\n    display: block;\n  }}\n");
    let mut out = String::from(
        "[data-still] .fleet-stage {\n  container-type: inline-size;\n}\n\n[data-still] [data-rung] {\n  display: none;\n}\n",
    );
    for (i, w) in WIDTHS.iter().enumerate() {
        let query = match (i, WIDTHS.get(i + 1)) {
            (0, Some(next)) => format!("(width < {next}px)"),
            (_, Some(next)) => format!("({w}px <= width < {next}px)"),
            (_, None) => format!("(width >= {w}px)"),
        };
        let _ = write!(out, "\n@container {query} {{\n{}}}\n", show(*w));
    }
    let _ = write!(out, "\n@supports not (container-type: inline-size) {{\n{}}}\n", show(VIEW_W));
    out
}

/// The comments `style/still.css` holds [`rung_css`] between.
pub const RUNG_CSS_MARKS: [&str; 2] = [
    "/* The fleet's drawings by width: written by src/view/fleet.rs (rung_css). */",
    "/* End of the fleet's drawings by width. */",
];

impl Default for Layout {
    fn default() -> Layout {
        Layout::for_width(VIEW_W)
    }
}

/// One node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The machine's index (what the inspector and the sandbox aim at).
    pub machine: usize,
    pub ready: Readiness,
    pub taint: TaintMark,
}

/// Why a zone's counts (its Nodes as stored) can call for another state than the one the node
/// lifecycle controller is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lag {
    /// They agree.
    None,
    /// The controller has not counted them yet: it reads the Nodes' conditions once a pass
    /// (`--node-monitor-period`, 5 s), so a Node that posts `Ready` changes the zone's state at
    /// the next pass, to this one.
    NextPass(ZoneState),
    /// The controller's pass is under way: its status writes wait for its client's tokens, so
    /// the stored Nodes are behind what it has already decided, and it says the zone's new state
    /// once its writes are sent.
    Writing,
}

impl Lag {
    /// Whether the node lifecycle controller's writes wait for its client's tokens at `t`.
    pub fn writing(log: &Log, t: SimTime) -> bool {
        log.backlog_at(&Actor::NodeLifecycleController, t) > 0
    }

    /// A zone's lag, from the controller's state, the zone's counts, and whether its writes wait
    /// (`settings`: the timeline's, whose zone rules the controller follows).
    pub fn of(settings: &Settings, state: ZoneState, ready: usize, not_ready: usize, writing: bool) -> Lag {
        match next_state(settings, state, ready, not_ready) {
            // Worse than the controller says while its writes wait: it is marking the Nodes.
            Some(next) if writing && severity(next) > severity(state) => Lag::Writing,
            Some(next) => Lag::NextPass(next),
            None => Lag::None,
        }
    }
}

/// One zone at the playhead.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneView {
    pub name: String,
    pub cells: Vec<Cell>,
    /// The state the controller is in for this zone.
    pub state: ZoneState,
    /// Why the zone's counts call for another state than the controller's, when they do.
    pub lag: Lag,
    pub ready: usize,
    pub not_ready: usize,
    pub no_execute: usize,
    /// Not-Ready nodes without their NoExecute taint yet: the zone's tainting queue.
    pub queued: usize,
    /// NoExecute taints a second (`setLimiterInZone`; 0 in master disruption mode).
    pub rate: f64,
    pub pods_running: usize,
    pub pods_terminating: usize,
    /// Grid columns and cell size.
    pub cols: usize,
    pub cell: f64,
    /// The panel's top-left corner in the drawing.
    pub x0: f64,
    pub y0: f64,
}

/// The fleet at the playhead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fleet {
    pub zones: Vec<ZoneView>,
    /// Whether the controller is in master disruption mode.
    pub master_disruption: bool,
    /// The drawing's height.
    pub height: f64,
    /// Where the zones are.
    pub layout: Layout,
    /// Each zone panel's height.
    pub panel_h: f64,
}

/// The node lifecycle controller's zone states as its log says them, read one line at a time
/// (the fleet at the playhead, and the chart at each of its samples).
#[derive(Clone, Debug, Default)]
pub struct ZoneLog {
    /// Each zone's last logged state (`None` after an exit from master disruption mode, whose
    /// new states are set without a line: they are recomputed from the counts).
    states: Vec<(String, Option<ZoneState>)>,
    /// Whether the controller is in master disruption mode.
    pub master: bool,
}

/// Where the kube-controller-manager lines the fleet view reads are in the log (indices into
/// its lines), found once per timeline rather than on every frame; lines logged after the index
/// was made are read directly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ControllerLines {
    /// The node lifecycle controller's lines about zone states and master disruption mode.
    zone: Vec<usize>,
    /// The log pane's lines.
    pane: Vec<usize>,
    /// How many of the log's lines the index covers.
    scanned: usize,
}

impl ControllerLines {
    /// The index of `log`'s lines so far.
    pub fn of(log: &Log) -> ControllerLines {
        let mut c = ControllerLines::default();
        c.extend(log);
        c
    }

    /// Reads the lines `log` gained since the index was last made or extended (a timeline
    /// computed a stretch at a time; a log cut back by a fork needs an index of its own).
    pub fn extend(&mut self, log: &Log) {
        for (i, l) in log.lines.range(self.scanned.min(log.lines.len())..log.lines.len()).enumerate() {
            let i = self.scanned + i;
            if zone_line(l) {
                self.zone.push(i);
            }
            if in_pane(l) {
                self.pane.push(i);
            }
        }
        self.scanned = log.lines.len();
    }

    /// The lines of `indexed` (an index of this) before `end`, then the unindexed ones that
    /// `keep` takes, oldest first.
    fn before<'a>(
        &'a self,
        indexed: &'a [usize],
        log: &'a Log,
        end: usize,
        keep: fn(&LogLine) -> bool,
    ) -> impl DoubleEndedIterator<Item = &'a LogLine> {
        let known = indexed[..indexed.partition_point(|i| *i < end)].iter().map(|i| &log.lines[*i]);
        known.chain(log.lines.range(self.scanned.min(end)..end).filter(move |l| keep(l)))
    }
}

/// Whether a line changes what [`ZoneLog`] says: a zone's new state, or master disruption mode
/// entered or left (not the controller's lines about single nodes, thousands in a fleet).
fn zone_line(l: &LogLine) -> bool {
    l.actor == Actor::NodeLifecycleController
        && l.message.starts_with(DETECTED)
        && (l.message.starts_with(ZONE_STATE_LINE) || crate::sim::contains(&l.message, "master disruption mode"))
}

/// How the controller's lines about zones and master disruption mode begin (a cheap first look:
/// thousands of its lines are about single nodes).
const DETECTED: &str = "\"Controller detected that ";

/// How the node lifecycle controller's line about a zone's new state begins.
const ZONE_STATE_LINE: &str = "\"Controller detected that zone is now in new state\" zone=\"";

/// Whether the log pane shows a line: the node lifecycle and taint eviction controllers', but
/// not the `V(2)` "Adding it to the Taint queue" lines, as a controller manager at the default
/// verbosity leaves them out.
fn in_pane(l: &LogLine) -> bool {
    matches!(l.actor, Actor::NodeLifecycleController | Actor::TaintEvictionController)
        && !(l.message.starts_with("\"Node is ") && crate::sim::contains(&l.message, "Adding it to the Taint queue"))
}

impl ZoneLog {
    /// What the log says by `t` (`lines`: an index of the log, possibly empty).
    pub fn at(log: &Log, lines: &ControllerLines, t: crate::sim::SimTime) -> ZoneLog {
        let mut z = ZoneLog::default();
        let end = log.lines.partition_point(|l| l.t <= t);
        for l in lines.before(&lines.zone, log, end, zone_line) {
            z.read(l);
        }
        z
    }

    /// Takes one more line into account.
    pub fn read(&mut self, l: &LogLine) {
        if l.actor != Actor::NodeLifecycleController || !l.message.starts_with(DETECTED) {
            return;
        }
        let m = &*l.message;
        if crate::sim::contains(m, "Entering master disruption mode") {
            self.master = true;
        } else if crate::sim::contains(m, "Exiting master disruption mode") {
            self.master = false;
            for s in &mut self.states {
                s.1 = None;
            }
        } else if let Some(rest) = m.strip_prefix(ZONE_STATE_LINE) {
            let (key, rest) = rest.split_once('"').unwrap_or((rest, ""));
            let zone = key.rsplit(':').next().unwrap_or(key).to_string();
            let state = match rest.split("newState=\"").nth(1).and_then(|s| s.split('"').next()) {
                Some("Normal") => ZoneState::Normal,
                Some("PartialDisruption") => ZoneState::PartialDisruption,
                Some("FullDisruption") => ZoneState::FullDisruption,
                _ => ZoneState::Initial,
            };
            match self.states.iter_mut().find(|(z, _)| *z == zone) {
                Some(s) => s.1 = Some(state),
                None => self.states.push((zone, Some(state))),
            }
        }
    }

    /// Zone `zone`'s state, given its node counts (for the states an exit leaves unlogged) and
    /// the zone rules of `settings` (the timeline's: a story's own, or the defaults).
    pub fn state(&self, settings: &Settings, zone: &str, ready: usize, not_ready: usize) -> ZoneState {
        if self.master {
            return ZoneState::FullDisruption;
        }
        match self.states.iter().find(|(name, _)| name == zone) {
            Some((_, Some(s))) => *s,
            Some((_, None)) => compute_zone_state(settings, ready, not_ready),
            None => ZoneState::Initial,
        }
    }

    /// The zone's NoExecute tainting rate under `settings` (`setLimiterInZone`; 0 in master
    /// disruption mode).
    pub fn rate(&self, settings: &Settings, state: ZoneState, size: usize) -> f64 {
        if self.master { 0.0 } else { zone_qps(settings, state, size) }
    }
}

impl Fleet {
    /// The fleet at `t` of a timeline that runs with `settings`, read from `index` (its
    /// [`FleetIndex`]), its controller lines found with `lines`, laid out for a stage `width` CSS
    /// pixels wide.
    pub fn build(
        index: &FleetIndex,
        log: &Log,
        lines: &ControllerLines,
        t: SimTime,
        width: f64,
        settings: &Settings,
    ) -> Fleet {
        let layout = Layout::for_width(width);
        let zone_log = ZoneLog::at(log, lines, t);
        let writing = Lag::writing(log, t);
        let mut zones: Vec<ZoneView> = index
            .zones
            .iter()
            .enumerate()
            .map(|(zi, name)| ZoneView {
                name: name.clone(),
                cells: Vec::new(),
                state: ZoneState::Initial,
                lag: Lag::None,
                ready: 0,
                not_ready: 0,
                no_execute: 0,
                queued: 0,
                rate: 0.0,
                pods_running: index.pods(zi, t).0,
                pods_terminating: index.pods(zi, t).1,
                cols: 1,
                cell: MAX_CELL,
                x0: 0.0,
                y0: 0.0,
            })
            .collect();
        for (machine, m) in index.machines_at(t) {
            let z = &mut zones[m.zone];
            let cell = index.cell(machine, t);
            let (ready, taint) = cell.map_or((Readiness::Unknown, TaintMark::None), |c| (c.ready, c.taint));
            if cell.is_some() {
                if ready == Readiness::Ready {
                    z.ready += 1;
                } else {
                    z.not_ready += 1;
                    if taint != TaintMark::NoExecute {
                        z.queued += 1;
                    }
                }
            }
            if taint == TaintMark::NoExecute {
                z.no_execute += 1;
            }
            z.cells.push(Cell { machine, ready, taint });
        }
        zones.retain(|z| !z.cells.is_empty());
        let pw = layout.panel_w;
        let mut grid_h: f64 = 0.0;
        for z in &mut zones {
            z.state = zone_log.state(settings, &z.name, z.ready, z.not_ready);
            z.lag = Lag::of(settings, z.state, z.ready, z.not_ready, writing);
            z.rate = zone_log.rate(settings, z.state, z.cells.len());
            let n = z.cells.len().max(1);
            // Side by side: a grid a little wider than high; stacked: a band about 200 units
            // high, so that three zones fit a phone's screen or two.
            let cols = if layout.stacked { (n as f64 * pw / 200.0).sqrt() } else { (n as f64 * 1.6).sqrt() };
            z.cols = (cols.ceil() as usize).clamp(1, n);
            z.cell = (pw / z.cols as f64).min(MAX_CELL);
            if layout.stacked && z.cell < MIN_CELL {
                z.cols = ((pw / MIN_CELL).floor() as usize).clamp(1, n);
                z.cell = pw / z.cols as f64;
            }
            grid_h = grid_h.max(n.div_ceil(z.cols) as f64 * z.cell);
        }
        let panel_h = layout.grid_top + grid_h + 8.0;
        for (zi, z) in zones.iter_mut().enumerate() {
            let zi = zi as f64;
            (z.x0, z.y0) =
                if layout.stacked { (EDGE, EDGE + zi * (panel_h + GAP)) } else { (EDGE + zi * (pw + GAP), EDGE) };
        }
        let panels = if layout.stacked { (zones.len().max(1) as f64) * (panel_h + GAP) - GAP } else { panel_h };
        let height = panels + 2.0 * EDGE;
        Fleet { zones, master_disruption: zone_log.master, height, layout, panel_h }
    }

    /// The machine whose cell is at drawing coordinates (`x`, `y`), if any.
    pub fn hit(&self, x: f64, y: f64) -> Option<usize> {
        let z = self
            .zones
            .iter()
            .find(|z| x >= z.x0 && x < z.x0 + self.layout.panel_w && y >= z.y0 && y < z.y0 + self.panel_h)?;
        let (cx, cy) = (x - z.x0, y - z.y0 - self.layout.grid_top);
        if cx < 0.0 || cy < 0.0 || cx >= z.cols as f64 * z.cell {
            return None;
        }
        let i = (cy / z.cell) as usize * z.cols + (cx / z.cell) as usize;
        z.cells.get(i).map(|c| c.machine)
    }

    /// Where machine `m`'s cell is: its top-left corner and size.
    fn cell_box(&self, m: usize) -> Option<(f64, f64, f64)> {
        self.zones.iter().find_map(|z| {
            let i = z.cells.iter().position(|c| c.machine == m)?;
            Some((self.cell_x(z, i), self.cell_y(z, i), z.cell))
        })
    }

    fn cell_x(&self, z: &ZoneView, i: usize) -> f64 {
        z.x0 + (i % z.cols) as f64 * z.cell
    }

    fn cell_y(&self, z: &ZoneView, i: usize) -> f64 {
        z.y0 + self.layout.grid_top + (i / z.cols) as f64 * z.cell
    }

    /// The machine next to `m` in `direction` (-1/+1 along the row, -cols/+cols across rows),
    /// staying inside its zone; `m` itself at an edge.
    pub fn step(&self, m: usize, across: bool, forward: bool) -> usize {
        for z in &self.zones {
            if let Some(i) = z.cells.iter().position(|c| c.machine == m) {
                let d = if across { z.cols } else { 1 };
                let j = if forward { i + d } else { i.wrapping_sub(d) };
                return z.cells.get(j).map_or(m, |c| c.machine);
            }
        }
        m
    }
}

/// The tainting rate in words (`one node every 10 s`, `stopped`).
pub fn rate_text(lang: Lang, rate: f64) -> String {
    if rate <= 0.0 {
        lang.text(Key::RateStopped).to_string()
    } else {
        lang.fill(Key::RateEvery, &[&format!("{}", (1.0 / rate).round())])
    }
}

/// The state a zone in `state` goes to at the controller's next pass, given its node counts now,
/// if that differs. In master disruption mode (every zone `FullDisruption`) that is the state
/// its counts call for once they no longer say the zone is fully disrupted: the pass that sees
/// it leaves the mode.
pub fn next_state(settings: &Settings, state: ZoneState, ready: usize, not_ready: usize) -> Option<ZoneState> {
    let counted = compute_zone_state(settings, ready, not_ready);
    (state != ZoneState::Initial && counted != state).then_some(counted)
}

/// How disrupted a zone in `state` is, least first.
fn severity(state: ZoneState) -> u8 {
    match state {
        ZoneState::Initial | ZoneState::Normal => 0,
        ZoneState::PartialDisruption => 1,
        ZoneState::FullDisruption => 2,
    }
}

/// A zone's state as its heading says it: the controller's, and, when the counts beside it call
/// for another, why (`FullDisruption → Normal (next pass)`, `Normal (its pass is writing)`).
pub fn state_text(lang: Lang, state: ZoneState, lag: Lag) -> String {
    match lag {
        Lag::NextPass(next) => lang.fill(Key::ZoneStateNext, &[state.as_str(), next.as_str()]),
        Lag::Writing => lang.fill(Key::ZoneStateWriting, &[state.as_str()]),
        Lag::None => state.as_str().to_string(),
    }
}

/// One zone's summary sentence (its heading lines, and the text alternative of the drawing).
pub fn zone_summary(lang: Lang, z: &ZoneView) -> String {
    lang.fill(
        Key::ZoneSummary,
        &[
            &z.name,
            &state_text(lang, z.state, z.lag),
            &z.ready.to_string(),
            &z.not_ready.to_string(),
            &z.no_execute.to_string(),
            &rate_text(lang, z.rate),
            &z.queued.to_string(),
            &z.pods_running.to_string(),
            &z.pods_terminating.to_string(),
        ],
    )
}

/// A path of many small shapes (one kind of cell, or one kind of taint mark): each moved to
/// from where the pen is (`m`, in tenths of a unit, so every shape starts where it would drawn
/// from absolute coordinates rounded to the tenth), so that a grid's shapes read alike and
/// compress to little (the still view carries the drawing once for each width).
#[derive(Default)]
struct MarkPath {
    d: String,
    /// Where the pen is, in tenths of a unit.
    pen: Option<(i64, i64)>,
}

impl MarkPath {
    /// Moves the pen to (`x`, `y`).
    fn move_to(&mut self, x: f64, y: f64) {
        let to = ((x * 10.0).round() as i64, (y * 10.0).round() as i64);
        let tenths = |v: i64| v as f64 / 10.0;
        let _ = match self.pen {
            None => write!(self.d, "M{} {}", tenths(to.0), tenths(to.1)),
            Some(pen) => write!(self.d, "m{} {}", tenths(to.0 - pen.0), tenths(to.1 - pen.1)),
        };
        self.pen = Some(to);
    }

    /// Draws a line by (`dx`, `dy`), to the tenth.
    fn line_by(&mut self, dx: f64, dy: f64) {
        let by = ((dx * 10.0).round() as i64, (dy * 10.0).round() as i64);
        let _ = match by.1 {
            0 => write!(self.d, "h{}", by.0 as f64 / 10.0),
            _ => write!(self.d, "l{} {}", by.0 as f64 / 10.0, by.1 as f64 / 10.0),
        };
        self.pen = self.pen.map(|(x, y)| (x + by.0, y + by.1));
    }

    /// A cell of `shape` in the square at (`x`, `y`) of side `s`: a closed subpath, the pen back
    /// at its start.
    fn cell(&mut self, shape: Readiness, x: f64, y: f64, s: f64) {
        let p = (s * 0.12).max(1.0);
        let (x, y, w) = (x + p, y + p, s - 2.0 * p);
        let h = w / 2.0;
        match shape {
            Readiness::Ready => self.move_to(x, y),
            Readiness::NotReady => self.move_to(x + h, y),
            Readiness::Unknown => self.move_to(x, y + h),
        }
        let _ = match shape {
            Readiness::Ready => write!(self.d, "h{w:.1}v{w:.1}h{:.1}z", -w),
            Readiness::NotReady => write!(self.d, "l{h:.1} {h:.1}l{:.1} {h:.1}l{:.1} {:.1}z", -h, -h, -h),
            Readiness::Unknown => write!(self.d, "a{h:.1} {h:.1} 0 1 0 {w:.1} 0a{h:.1} {h:.1} 0 1 0 {:.1} 0z", -w),
        };
    }
}

/// The drawing: headings, one path per kind of cell and taint mark, and the selected node's
/// outline.
pub fn fleet_markup(fleet: &Fleet, lang: Lang, selected: usize) -> String {
    let mut out = String::new();
    let mut paths: [MarkPath; 3] = Default::default();
    let (mut no_schedule, mut no_execute) = (MarkPath::default(), MarkPath::default());
    let l = fleet.layout;
    for z in &fleet.zones {
        let (x0, y0) = (z.x0, z.y0);
        let state = state_text(lang, z.state, z.lag);
        let class = match z.state {
            ZoneState::Normal | ZoneState::Initial => "zone-normal",
            ZoneState::PartialDisruption => "zone-partial",
            ZoneState::FullDisruption => "zone-full",
        };
        let counts =
            lang.fill(Key::ZoneCounts, &[&z.ready.to_string(), &z.not_ready.to_string(), &z.no_execute.to_string()]);
        let queue = lang.fill(Key::ZoneQueue, &[&rate_text(lang, z.rate), &z.queued.to_string()]);
        let pods = lang.fill(Key::ZonePods, &[&z.pods_running.to_string(), &z.pods_terminating.to_string()]);
        let _ = write!(
            out,
            "<g class=\"zone {class}\" data-zone=\"{}\"><rect class=\"zone-box\" x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"8\"/>",
            escape(&z.name),
            l.panel_w,
            fleet.panel_h
        );
        let mut i = 0;
        for (text, cls, font) in [
            (z.name.clone(), "zone-name", Font::Name),
            (state, "zone-state", Font::Mono),
            (counts, "zone-line", Font::Line),
            (queue, "zone-line zone-rate", Font::Line),
            (pods, "zone-line", Font::Line),
        ] {
            // Narrow panels break a line at its ` · `, the later parts indented.
            let parts: Vec<&str> = if l.split { text.split(" \u{b7} ").collect() } else { vec![text.as_str()] };
            for (j, part) in parts.into_iter().enumerate() {
                let indent = if j > 0 { 22.0 } else { 10.0 };
                let _ = write!(
                    out,
                    "<text class=\"{cls}\" x=\"{:.1}\" y=\"{:.1}\"{}>{}</text>",
                    x0 + indent,
                    y0 + FIRST_LINE + i as f64 * LINE_H,
                    fit(part, font, l.panel_w - indent - 8.0),
                    escape(part)
                );
                i += 1;
            }
        }
        out.push_str("</g>");
        for (i, c) in z.cells.iter().enumerate() {
            let (x, y) = (fleet.cell_x(z, i), fleet.cell_y(z, i));
            let k = match c.ready {
                Readiness::Ready => 0,
                Readiness::NotReady => 1,
                Readiness::Unknown => 2,
            };
            paths[k].cell(c.ready, x, y, z.cell);
            let s = z.cell;
            match c.taint {
                TaintMark::None => {}
                TaintMark::NoSchedule => {
                    no_schedule.move_to(x + s * 0.2, y + s * 0.5);
                    no_schedule.line_by(s * 0.6, 0.0);
                }
                TaintMark::NoExecute => {
                    no_execute.move_to(x + s * 0.25, y + s * 0.25);
                    no_execute.line_by(s * 0.5, s * 0.5);
                    no_execute.move_to(x + s * 0.75, y + s * 0.25);
                    no_execute.line_by(-s * 0.5, s * 0.5);
                }
            }
        }
    }
    for (d, class) in [
        (&paths[0].d, "cells ready"),
        (&paths[1].d, "cells not-ready"),
        (&paths[2].d, "cells unknown"),
        (&no_schedule.d, "marks no-schedule"),
        (&no_execute.d, "marks no-execute"),
    ] {
        if !d.is_empty() {
            let _ = write!(out, "<path class=\"{class}\" d=\"{d}\"/>");
        }
    }
    if let Some((x, y, s)) = fleet.cell_box(selected) {
        let _ =
            write!(out, "<rect class=\"cell-selected\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{s:.1}\" height=\"{s:.1}\"/>");
    }
    out
}

/// The fonts of the drawing's text (style/stage.css `.fleet-svg`).
#[derive(Clone, Copy)]
enum Font {
    /// A zone's name: 16 px, bold.
    Name,
    /// A zone's state: 14 px, monospace.
    Mono,
    /// The other lines: 13 px (the Pod transfer line bold).
    Line,
}

/// How wide `text` may be drawn in `font`, generously (the page's sans-serif is not known in
/// advance: DejaVu Sans on Linux is among the widest).
fn text_width(text: &str, font: Font) -> f64 {
    let (px, bold) = match font {
        Font::Name => (16.0, 1.08),
        Font::Mono => return 14.0 * 0.61 * text.chars().count() as f64,
        Font::Line => (13.0, 1.06),
    };
    let em: f64 = text
        .chars()
        .map(|c| match c {
            '\u{2e80}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{ff00}'..='\u{ffef}' => 1.0,
            ' ' => 0.32,
            'i' | 'j' | 'l' | 'f' | 't' | 'r' | 'I' | '.' | ',' | ':' | ';' | '\'' | '(' | ')' | '\u{b7}' => 0.38,
            'm' | 'w' | 'M' | 'W' => 0.9,
            c if c.is_ascii_uppercase() => 0.7,
            c if c.is_ascii_digit() => 0.64,
            _ => 0.6,
        })
        .sum();
    em * px * bold
}

/// The attributes that squeeze `text` into `room` units when it may not fit (a narrow panel, a
/// long translation); nothing when it fits.
fn fit(text: &str, font: Font, room: f64) -> String {
    if room > 0.0 && text_width(text, font) > room {
        format!(" textLength=\"{room:.1}\" lengthAdjust=\"spacingAndGlyphs\"")
    } else {
        String::new()
    }
}

/// A change in a count, signed (`+6`, `−12`, `0`).
pub fn signed(n: i64) -> String {
    match n.cmp(&0) {
        std::cmp::Ordering::Greater => format!("+{n}"),
        std::cmp::Ordering::Less => format!("\u{2212}{}", n.unsigned_abs()),
        std::cmp::Ordering::Equal => "0".into(),
    }
}

/// The Pods moving between zones: under each zone's heading, how many running Pods it gained
/// or lost over the last minute (`moved`, in zone order), and an arrow from each zone that lost
/// Pods to each zone that gained them, its dashes flowing the Pods' way.
pub fn transfer_markup(fleet: &Fleet, moved: &[i64], lang: Lang) -> String {
    let mut out = String::new();
    let l = fleet.layout;
    for (zi, z) in fleet.zones.iter().enumerate() {
        let n = moved.get(zi).copied().unwrap_or(0);
        let text = lang.fill(Key::PodsMoved, &[&signed(n)]);
        let class = match n.cmp(&0) {
            std::cmp::Ordering::Greater => "gained",
            std::cmp::Ordering::Less => "lost",
            std::cmp::Ordering::Equal => "steady",
        };
        let _ = write!(
            out,
            "<text class=\"zone-line zone-moved {class}\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\"{}>{}</text>",
            z.x0 + l.panel_w / 2.0,
            z.y0 + l.moved_y,
            fit(&text, Font::Line, l.panel_w - 16.0),
            escape(&text)
        );
    }
    // Stacked zones have no room between them for arrows: their lines say it.
    if l.stacked {
        return out;
    }
    let x0 = |zi: usize| fleet.zones.get(zi).map_or(0.0, |z| z.x0);
    let y = fleet.zones.first().map_or(0.0, |z| z.y0) + l.moved_y + 12.0;
    let pw = l.panel_w;
    let arrow_in = ARROW_IN.min(pw / 4.0);
    for (from, _) in moved.iter().enumerate().filter(|(_, n)| **n < 0) {
        for (to, _) in moved.iter().enumerate().filter(|(_, n)| **n > 0) {
            let (sx, tx, head) = if to < from {
                (x0(from) + arrow_in, x0(to) + pw - arrow_in, 8.0)
            } else {
                (x0(from) + pw - arrow_in, x0(to) + arrow_in, -8.0)
            };
            let _ = write!(
                out,
                "<path class=\"pod-transfer\" d=\"M{sx:.1} {y:.1}H{tx:.1}\"/><path class=\"pod-transfer-head\" d=\"M{:.1} {:.1}L{tx:.1} {y:.1}L{:.1} {:.1}\"/>",
                tx + head,
                y - 5.0,
                tx + head,
                y + 5.0
            );
        }
    }
    out
}

/// The Pod transfer in words, for the drawing's text alternative (empty when nothing moved).
pub fn transfer_text(fleet: &Fleet, moved: &[i64], lang: Lang) -> String {
    let parts: Vec<String> = fleet
        .zones
        .iter()
        .zip(moved)
        .filter(|(_, n)| **n != 0)
        .map(|(z, n)| format!("{} {}", z.name, signed(*n)))
        .collect();
    if parts.is_empty() { String::new() } else { lang.fill(Key::PodsMovedSummary, &[&parts.join(", ")]) }
}

/// The drawing's text alternative: every zone's summary.
pub fn fleet_description(fleet: &Fleet, lang: Lang) -> String {
    let mut parts: Vec<String> = fleet.zones.iter().map(|z| zone_summary(lang, z)).collect();
    if fleet.master_disruption {
        parts.insert(0, lang.text(Key::MasterDisruption).to_string());
    }
    parts.join(" ")
}

/// The kube-controller-manager client at `t` that matters (the line under the drawing): the node
/// lifecycle controller's, its rate and the requests waiting for its tokens and since when, if
/// any; else the ReplicaSet controller's while its creates wait (a Deployment's Pods on a large
/// fleet). Returns whether any wait, and the line.
pub fn client_text(log: &Log, t: SimTime, lang: Lang) -> (bool, String) {
    let rate = crate::sim::flowcontrol::KUBE_CONTROLLER_MANAGER;
    let (qps, burst) = (rate.qps.to_string(), rate.burst.to_string());
    let waiting = |actor: Actor, key: Key| {
        let since = log.backlog_since(&actor, t)?;
        let waiting = log.backlog_at(&actor, t).to_string();
        let seconds = t.saturating_since(since).as_secs().to_string();
        Some(lang.fill(key, &[&qps, &burst, &waiting, &seconds]))
    };
    match waiting(Actor::NodeLifecycleController, Key::ClientWaiting)
        .or_else(|| waiting(Actor::ReplicaSetController, Key::ReplicaSetClientWaiting))
    {
        Some(line) => (true, line),
        None => (false, lang.fill(Key::ClientIdle, &[&qps, &burst])),
    }
}

/// The last `n` lines kube-controller-manager printed by `t` (node lifecycle and taint eviction
/// controllers; see [`in_pane`]), as klog prints them, oldest first; `lines` is an index of the
/// log (possibly empty).
pub fn controller_log(
    log: &Log,
    lines: &ControllerLines,
    t: crate::sim::SimTime,
    epoch: WallTime,
    n: usize,
) -> Vec<String> {
    let end = log.lines.partition_point(|l| l.t <= t);
    let mut out: Vec<String> =
        lines.before(&lines.pane, log, end, in_pane).rev().take(n).map(|l| klog_line(l, epoch)).collect();
    out.reverse();
    out
}

/// The log pane's markup: one list item per line.
pub fn log_markup(lines: &[String]) -> String {
    let mut out = String::new();
    for l in lines {
        cat(&mut out, &["<li>", &escape(l), "</li>"]);
    }
    out
}

#[cfg(test)]
mod tests;
