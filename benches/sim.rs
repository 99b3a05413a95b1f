//! Simulation benchmarks, with the budgets from the product brief:
//!
//! * 24 h of one node: well under 50 ms;
//! * a seek (reading the cluster at an arbitrary instant) in a 1-hour timeline: well under 1 ms;
//! * 1 h of 1,000 nodes: no budget, the figure is printed to watch for regressions.
//!
//! Run with `cargo bench --bench sim` (or `cargo xtask bench`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use nodeline::sim::{Chapter, Config, MachineSpec, Scenario, SimTime, Timeline};

/// A healthy cluster of `n` machines, nothing scripted.
fn cluster(n: usize) -> Scenario {
    let mut scenario = Chapter::Registration.scenario();
    scenario.script.clear();
    scenario.machines = (1..=n).map(|i| MachineSpec::new(&format!("node-{i}"))).collect();
    scenario
}

fn run(scenario: &Scenario, until: SimTime) -> Timeline {
    let mut timeline = Timeline::from_scenario(scenario.clone(), Config::default(), &[]);
    timeline.run_until(until);
    timeline
}

fn one_node_one_day(c: &mut Criterion) {
    let scenario = cluster(1);
    c.bench_function("24h of one node", |b| b.iter(|| black_box(run(&scenario, SimTime::from_secs(24 * 3600)))));
}

fn thousand_nodes_one_hour(c: &mut Criterion) {
    let scenario = cluster(1000);
    let mut group = c.benchmark_group("1h of 1,000 nodes");
    group.sample_size(10).measurement_time(Duration::from_secs(60));
    group.bench_function("1h of 1,000 nodes", |b| b.iter(|| black_box(run(&scenario, SimTime::from_secs(3600)))));
    group.finish();
}

fn seek_in_one_hour(c: &mut Criterion) {
    let mut timeline = Timeline::new(Chapter::NodeFailure, Config::default());
    timeline.run_until(SimTime::from_secs(3600));
    // A seek: everything the page reads at the playhead, at a spread of instants.
    let instants: Vec<SimTime> = (0..64).map(|i| SimTime::from_millis(i * 56_250 + 917)).collect();
    let mut i = 0;
    c.bench_function("seek in a 1-hour timeline", |b| {
        b.iter(|| {
            i = (i + 1) % instants.len();
            let snapshot = timeline.at(instants[i]);
            black_box((snapshot.nodes(), snapshot.leases(), snapshot.pods(), snapshot.events(), snapshot.machines()))
        })
    });
}

criterion_group!(benches, one_node_one_day, thousand_nodes_one_hour, seek_in_one_hour);
criterion_main!(benches);
