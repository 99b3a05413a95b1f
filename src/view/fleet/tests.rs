//! The fleet view's tests.

use super::*;
use crate::sim::{Chapter, Config, SimTime, Timeline};

fn build(tl: &Timeline, t: SimTime) -> Fleet {
    Fleet::build(&FleetIndex::of(tl.log()), tl.log(), &ControllerLines::default(), t, VIEW_W, &Settings::default())
}

fn at(nodes: usize, t: u64) -> (Timeline, SimTime) {
    let mut tl = Timeline::new(Chapter::ZoneOutage, Config { nodes, ..Config::default() });
    tl.run_until(SimTime::from_secs(t + 1));
    (tl, SimTime::from_secs(t))
}

#[test]
fn three_zones_with_their_states_and_rates() {
    let (tl, t) = at(30, 90);
    let f = build(&tl, t);
    let names: Vec<&str> = f.zones.iter().map(|z| z.name.as_str()).collect();
    assert_eq!(names, ["eu-west-1a", "eu-west-1b", "eu-west-1c"]);
    assert!(f.zones.iter().all(|z| z.cells.len() == 10 && z.ready == 10 && z.state == ZoneState::Normal));
    assert!(f.zones.iter().all(|z| z.rate == 0.1 && z.pods_running == 10));
    let (tl, _) = at(30, 1000);
    let steps = tl.steps();
    let partial = steps[2].unwrap().start + std::time::Duration::from_secs(3);
    let f = build(&tl, partial);
    let b = &f.zones[1];
    assert_eq!((b.state, b.rate), (ZoneState::PartialDisruption, 0.0));
    assert!(b.not_ready >= 6 && b.queued > 0, "{b:?}");
    // Ten seconds in: the taints master disruption mode removes wait their turn for the
    // controller's client's tokens, behind the writes queued before them.
    let master = steps[4].unwrap().start + std::time::Duration::from_secs(10);
    let f = build(&tl, master);
    // The same with the controller's lines indexed, wholly or up to an earlier moment.
    let index = FleetIndex::of(tl.log());
    assert_eq!(Fleet::build(&index, tl.log(), &ControllerLines::of(tl.log()), master, VIEW_W, &Settings::default()), f);
    let (mut early, _) = at(30, 500);
    let index = ControllerLines::of(early.log());
    let mut grown = FleetIndex::of(early.log());
    early.run_until(SimTime::from_secs(1001));
    grown.extend(early.log());
    assert_eq!(Fleet::build(&grown, early.log(), &index, master, VIEW_W, &Settings::default()), f);
    assert!(f.master_disruption && f.zones.iter().all(|z| z.no_execute == 0 && z.rate == 0.0));
    assert!(fleet_description(&f, Lang::En).starts_with("Master disruption mode"));
}

#[test]
fn a_zone_label_agrees_with_its_counts_at_every_moment() {
    // The whole chapter, a second at a time: wherever a zone's counts call for another state
    // than the controller's, the heading says why. Either the controller's pass is under way
    // (its writes wait for tokens), or it has not counted yet, and then its next pass
    // (within a monitor period) takes exactly the state the heading names.
    let (tl, _) = at(150, 1500);
    let index = FleetIndex::of(tl.log());
    let lines = ControllerLines::of(tl.log());
    let mut pending: Vec<Option<(u64, ZoneState)>> = vec![None; 3];
    let (mut next_pass, mut writing) = (0, 0);
    // Every second, and every 50 ms of the recovery.
    let mut moments: Vec<u64> = (0..1_500_000).step_by(1000).chain((1_040_000..1_080_000).step_by(50)).collect();
    moments.sort_unstable();
    moments.dedup();
    for s in moments {
        let f = Fleet::build(&index, tl.log(), &lines, SimTime::from_millis(s), VIEW_W, &Settings::default());
        for (zi, z) in f.zones.iter().enumerate() {
            let counted = compute_zone_state(&Settings::default(), z.ready, z.not_ready);
            if z.state != ZoneState::Initial {
                assert_eq!(z.lag == Lag::None, counted == z.state, "{s} ms: {z:?}");
            }
            let label = state_text(Lang::En, z.state, z.lag);
            assert!(zone_summary(Lang::En, z).contains(&label));
            match (z.lag, pending[zi]) {
                (Lag::NextPass(next), p) => {
                    assert_eq!(next, counted);
                    let since = p.map_or(s, |(since, _)| since);
                    assert!(s - since <= 6000, "{} waits from {since} ms to {s} ms", z.name);
                    pending[zi] = Some((since, next));
                    assert_eq!(label, format!("{} \u{2192} {} (next pass)", z.state.as_str(), next.as_str()));
                    next_pass += 1;
                }
                (Lag::Writing, _) => {
                    pending[zi] = None;
                    assert_eq!(label, format!("{} (its pass is writing)", z.state.as_str()));
                    writing += 1;
                }
                (Lag::None, Some((since, next))) => {
                    assert_eq!(z.state, next, "{} at {s} ms, pending since {since} ms", z.name);
                    pending[zi] = None;
                }
                (Lag::None, None) => {}
            }
        }
    }
    // The recovery: Nodes post Ready between the controller's passes; the outage: the
    // controller marks a zone's Nodes faster than its client sends the writes.
    assert!(next_pass > 0 && writing > 0, "{next_pass} {writing}");
}

#[test]
fn one_path_per_kind_of_cell_and_hits_find_the_node() {
    let (tl2, t) = at(150, 200);
    let f = build(&tl2, t);
    let svg = fleet_markup(&f, Lang::En, 0);
    assert!(svg.matches("<path").count() <= 5, "{svg}");
    assert!(svg.contains("cell-selected"));
    // The first cell of the second zone.
    let z = &f.zones[1];
    let x = EDGE + f.layout.panel_w + GAP + z.cell / 2.0;
    assert_eq!(f.hit(x, EDGE + f.layout.grid_top + z.cell / 2.0), Some(z.cells[0].machine));
    assert_eq!(f.hit(x, 5.0), None);
    assert_eq!(f.step(z.cells[0].machine, false, true), z.cells[1].machine);
    assert_eq!(f.step(z.cells[0].machine, false, false), z.cells[0].machine);
}

#[test]
fn the_drawing_is_as_wide_as_the_stage_and_stacks_its_zones_on_phones() {
    let (tl, t) = at(1000, 200);
    let index = FleetIndex::of(tl.log());
    let lines = ControllerLines::default();
    // A phone: the zones one above the other, the whole width each, drawn at the width below
    // the stage's (its text scaled up by 390 / 345).
    let f = Fleet::build(&index, tl.log(), &lines, t, 390.0, &Settings::default());
    assert!(f.layout.stacked && !f.layout.split && f.layout.width == 345.0);
    assert!(f.zones.iter().all(|z| z.x0 == EDGE && z.cell >= MIN_CELL && z.cols as f64 * z.cell <= 342.0));
    assert!(f.zones[1].y0 >= f.panel_h && f.zones[2].y0 >= f.zones[1].y0 + f.panel_h);
    assert!(f.height >= f.zones[2].y0 + f.panel_h && f.height < 3.0 * 500.0, "{}", f.height);
    // The first cell of the third zone, far below the first.
    let z = &f.zones[2];
    let y = z.y0 + f.layout.grid_top + z.cell / 2.0;
    assert_eq!(f.hit(EDGE + z.cell / 2.0, y), Some(z.cells[0].machine));
    let svg = fleet_markup(&f, Lang::En, z.cells[0].machine);
    assert!(svg.contains(&format!("y=\"{:.1}\" width=\"{:.1}\"", y - z.cell / 2.0, z.cell)), "{svg}");
    // No arrows between stacked zones; their lines say what moved.
    let moved = transfer_markup(&f, &[4, -9, 5], Lang::En);
    assert!(!moved.contains("pod-transfer") && moved.contains("Pods, last minute: +5"));
    // A laptop's stage: side by side, each heading line broken at its parts.
    let f = Fleet::build(&index, tl.log(), &lines, t, 740.0, &Settings::default());
    assert!(!f.layout.stacked && f.layout.split);
    let svg = fleet_markup(&f, Lang::En, 0);
    assert!(svg.contains(">334 Ready</text>") && svg.contains(">0 not Ready</text>"), "{svg}");
    assert!(f.zones[1].x0 > f.layout.panel_w && f.zones.iter().all(|z| z.y0 == EDGE));
    // Every panel inside the drawing, its outline whole; a line too long for a narrow panel
    // (the rate, or a long translation) squeezed into it, one that fits left alone.
    let last = &f.zones[2];
    assert!(last.x0 + f.layout.panel_w <= f.layout.width - 1.0, "{last:?}");
    let room = f.layout.panel_w - 18.0;
    assert!(
        svg.contains(&format!(
            "textLength=\"{room:.1}\" lengthAdjust=\"spacingAndGlyphs\">NoExecute: one node every 10 s<"
        )),
        "{svg}"
    );
    assert!(!svg.contains("textLength=\"0") && svg.contains("\">0 waiting</text>"), "{svg}");
    let wide = fleet_markup(&Fleet::build(&index, tl.log(), &lines, t, 1600.0, &Settings::default()), Lang::En, 0);
    assert!(!wide.contains("textLength"), "{wide}");
    // Out of range or unknown widths are clamped.
    assert_eq!(Layout::for_width(f64::NAN), Layout::default());
    assert_eq!(Layout::for_width(50.0).width, WIDTHS[0]);
}

#[test]
fn the_drawing_takes_the_widest_of_its_widths_that_fits_the_stage() {
    // Each width from its own up to the next one's draws it: scaled up by less than 16 %.
    for pair in WIDTHS.windows(2) {
        let [w, next] = [pair[0], pair[1]];
        assert!(next / w <= 1.16 && next > w, "{w} then {next}");
        for stage in [w, w + 0.5, (w + next) / 2.0, next - 1.0] {
            assert_eq!(rung(stage), w, "a stage {stage} px wide");
        }
    }
    assert_eq!([rung(1_599.0), rung(1_600.0), rung(2_560.0), rung(299.0)], [1_390.0, 1_600.0, 1_600.0, 300.0]);
    // Stacked below the narrowest side-by-side width: never a drawing that stacks at one width of
    // a rung and not at another.
    assert!(WIDTHS.contains(&STACK_BELOW) && WIDTHS.contains(&VIEW_W));
    assert!(WIDTHS.iter().all(|w| Layout::for_width(*w).stacked == (*w < STACK_BELOW)));
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_still_style_sheet_shows_each_drawing_where_the_app_draws_it() {
    let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/style/still.css")).unwrap();
    let [start, end] = RUNG_CSS_MARKS;
    let (Some(a), Some(b)) = (css.find(start), css.find(end)) else {
        panic!("style/still.css holds no block between {start:?} and {end:?}");
    };
    let block = css[a + start.len()..b].trim_start_matches('\n');
    if std::env::var_os("NODELINE_BLESS").is_some() && block != rung_css() {
        let css = format!("{}{start}\n{}{}", &css[..a], rung_css(), &css[b..]);
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/style/still.css"), css).unwrap();
        return;
    }
    assert_eq!(block, rung_css(), "style/still.css is behind fleet::WIDTHS: NODELINE_BLESS=1 writes it");
    // One query a width, the widths' ranges touching: every stage width shows one drawing.
    assert_eq!(block.matches("@container").count(), WIDTHS.len());
    assert!(
        block.contains(&format!(
            "@supports not (container-type: inline-size) {{\n  [data-still] [data-rung=\"{VIEW_W}\"]"
        ))
    );
    for w in WIDTHS {
        assert!(block.contains(&format!("[data-rung=\"{w}\"]")), "{w}");
    }
}

#[test]
fn pods_moving_between_zones_are_drawn_and_said() {
    let (tl, t) = at(30, 90);
    let f = build(&tl, t);
    let svg = transfer_markup(&f, &[4, -9, 5], Lang::En);
    assert_eq!(svg.matches("class=\"pod-transfer\"").count(), 2, "{svg}");
    assert!(svg.contains("Pods, last minute: \u{2212}9") && svg.contains("Pods, last minute: +4"));
    assert_eq!(
        transfer_text(&f, &[4, -9, 5], Lang::En),
        "In the last minute, running Pods changed: eu-west-1a +4, eu-west-1b \u{2212}9, eu-west-1c +5."
    );
    assert!(!transfer_markup(&f, &[0, 0, 0], Lang::En).contains("pod-transfer"));
    assert_eq!(transfer_text(&f, &[0, 0, 0], Lang::Ja), "");
}

#[test]
fn the_client_line_shows_the_requests_waiting_and_for_how_long() {
    let (tl, _) = at(150, 1200);
    let log = tl.log();
    let nlc = Actor::NodeLifecycleController;
    let first = log
        .backlogs
        .iter()
        .find(|b| b.actor == nlc && b.t > SimTime::from_secs(420) && b.waiting > 20)
        .expect("a backlog");
    let t = first.t + std::time::Duration::from_secs(2);
    let (waiting, text) = client_text(log, t, Lang::En);
    assert!(waiting, "{text}");
    assert!(text.contains("(20 requests a second, burst 30)") && text.contains(" requests waiting, for "), "{text}");
    let (waiting, text) = client_text(log, SimTime::from_secs(400), Lang::En);
    assert!(!waiting && text.ends_with("no request waiting"), "{text}");
    assert!(client_text(log, t, Lang::Ja).1.contains("待機中"));
}

/// While the fleet's Deployment has Pods waiting for the ReplicaSet controller's client, the
/// line names that client.
#[test]
fn the_client_line_shows_the_replicasets_creates_waiting() {
    let (tl, _) = at(150, 40);
    let log = tl.log();
    let rs = Actor::ReplicaSetController;
    let first = log.backlogs.iter().find(|b| b.actor == rs && b.waiting > 0).expect("creates wait");
    let t = first.t + std::time::Duration::from_secs(1);
    let (waiting, text) = client_text(log, t, Lang::En);
    assert!(waiting && text.contains("ReplicaSet controller's client (20 requests a second, burst 30)"), "{text}");
    let (waiting, _) = client_text(log, SimTime::from_secs(60), Lang::En);
    assert!(!waiting, "every Pod created by then");
}

#[test]
fn the_log_pane_prints_klog_lines() {
    let (tl, t) = at(30, 1000);
    let lines = controller_log(tl.log(), &ControllerLines::default(), t, tl.config().epoch, 5);
    assert_eq!(controller_log(tl.log(), &ControllerLines::of(tl.log()), t, tl.config().epoch, 5), lines);
    assert_eq!(lines.len(), 5);
    assert!(lines.iter().all(|l| l.contains("node_lifecycle_controller.go] ") || l.contains("taint_eviction.go] ")));
    assert!(log_markup(&lines).starts_with("<li>I0302 "));
}

#[test]
fn a_path_of_marks_moves_from_mark_to_mark_where_absolute_moves_would_land() {
    let mut p = MarkPath::default();
    p.move_to(10.04, 20.06);
    p.line_by(6.0, 0.0);
    p.move_to(50.0, 20.1);
    p.line_by(-5.0, 5.0);
    p.move_to(10.0, 40.0);
    // Each move lands on the absolute point rounded to the tenth (10.0 20.1, 50.0 20.1, 10.0 40.0),
    // from where the line before it left the pen.
    assert_eq!(p.d, "M10 20.1h6m34 0l-5 5m-35 14.9");
    // A cell comes back to its start: the next one moves from there.
    let mut c = MarkPath::default();
    c.cell(Readiness::Ready, 0.0, 0.0, 10.0);
    c.cell(Readiness::Ready, 10.0, 0.0, 10.0);
    assert_eq!(c.d, "M1.2 1.2h7.6v7.6h-7.6zm10 0h7.6v7.6h-7.6z");
}
