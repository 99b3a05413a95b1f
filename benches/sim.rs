//! Simulation benchmarks, with the simulation's budgets (a thousand nodes):
//!
//! * 1 h of 1,000 nodes (three zones, three Pods per node, every Lease renewal and status
//!   update): at most 1 s;
//! * the log and checkpoints of that hour: at most 64 MB in the wasm build (printed before the
//!   timings, with the bytes per record; measured natively as the growth of resident memory
//!   while the hour is built, on Linux);
//! * a seek in that hour (reading the cluster at an instant): at most 50 µs;
//! * a fork at the end of that hour: at most 100 ms;
//! * 24 h of one node: at most 10 ms.
//!
//! Benchmarks print; they are not timed tests. Run with `cargo bench --bench sim`. Before the
//! Criterion groups it builds the hour once and prints its memory, and one timing each of the
//! build, a seek and a fork (a quick reading; `cargo bench --bench sim -- nomatch` prints only
//! that).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group};
use nodeline::sim::{Action, ActionKind, Chapter, Config, MachineSpec, Scenario, SimTime, Timeline};

/// The process's resident memory in bytes (Linux's `/proc/self/statm`, 4 KiB pages), if known.
fn resident() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The CPU time the process has used, user and system (Linux's `/proc/self/stat`, at 100 ticks a
/// second), if known: steadier than wall time on a shared machine.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which is in parentheses): utime and stime are the 12th
    // and 13th.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let ticks: u64 = fields.next()?.parse::<u64>().ok()? + fields.next()?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

const HOUR: SimTime = SimTime::from_secs(3600);

/// A healthy fleet of `n` machines in three zones of one region, running a Deployment of three
/// Pods per node (created at 30 s), nothing scripted: the cluster `cargo xtask bench` also builds
/// in the page.
fn fleet(n: usize) -> Scenario {
    nodeline::sim::scenario::benchmark(n)
}

/// One machine, nothing else.
fn one_node() -> Scenario {
    let mut scenario = Chapter::Registration.scenario();
    scenario.script.clear();
    scenario.machines = vec![MachineSpec::new("node-1")];
    scenario
}

fn run(scenario: &Scenario, until: SimTime) -> Timeline {
    let mut timeline = Timeline::from_scenario(scenario.clone(), Config::default(), &[]);
    timeline.run_until(until);
    timeline
}

/// What the page reads at the playhead about the node in view (its Node, Lease and Pods) and the
/// machines.
fn seek(timeline: &Timeline, t: SimTime) -> impl Sized {
    let snapshot = timeline.at(t);
    let node = snapshot.node("node-500");
    let lease = snapshot.lease("node-500");
    let pods = snapshot.pods_on("node-500").len();
    (node, lease, pods, snapshot.machines().len())
}

/// The reader's action for the fork at the end of the hour: a kubelet killed a second before it
/// ends.
fn fork_action() -> Action {
    Action::on(ActionKind::KillKubelet, "node-500", SimTime::from_secs(3599))
}

/// Prints what the hour of 1,000 nodes holds (the log and the checkpoints, in bytes), and one
/// timing each of its build, a seek in it and a fork at its end.
fn memory() {
    let before = resident();
    let (started, cpu_before) = (Instant::now(), cpu_time());
    let timeline = run(&fleet(1000), HOUR);
    let (built, cpu_after) = (started.elapsed(), cpu_time());
    let after = resident();
    let log = timeline.log();
    let records = log.len() as u64;
    let counts = format!(
        "{records} records ({} requests, {} of them renewals kept as rows; {} object versions, {} events), \
         {} checkpoints",
        log.requests.len(),
        log.requests.renewals(),
        log.changes().len(),
        log.events.len(),
        timeline.checkpoints()
    );
    match before.zip(after) {
        Some((before, after)) => {
            let bytes = after.saturating_sub(before);
            println!(
                "memory: 1h of 1,000 nodes holds {:.1} MB of log and checkpoints (budget 64 MB in the wasm build): \
                 {counts}, {} bytes a record",
                bytes as f64 / 1e6,
                bytes / records.max(1)
            );
        }
        None => println!("memory: 1h of 1,000 nodes: {counts} (no /proc/self/statm to measure bytes)"),
    }
    let instants: Vec<SimTime> = (0..64).map(|i| SimTime::from_millis(i * 56_250 + 917)).collect();
    let started = Instant::now();
    for &t in &instants {
        black_box(seek(&timeline, t));
    }
    let seek_time = started.elapsed() / instants.len() as u32;
    let mut forked = timeline.clone();
    let started = Instant::now();
    forked.fork(fork_action()).expect("a running kubelet");
    let fork_time = started.elapsed();
    drop(forked);
    // A fork half way: it re-runs the half hour after its action whatever the checkpoints, and
    // up to a third more where they are thinned.
    let mut forked = timeline.clone();
    let started = Instant::now();
    forked.fork(Action::on(ActionKind::KillKubelet, "node-500", SimTime::from_secs(1800))).expect("a running kubelet");
    let half_fork_time = started.elapsed();
    let cpu = match cpu_before.zip(cpu_after) {
        Some((before, after)) => format!(", {:.2} s of CPU", (after - before).as_secs_f64()),
        None => String::new(),
    };
    println!(
        "once: built in {:.2} s{cpu} (budget 1 s); a seek {:.1} µs (budget 50 µs, mean of {}); a fork at the end {:.1} ms (budget 100 ms); \
         a fork half way {:.0} ms",
        built.as_secs_f64(),
        seek_time.as_secs_f64() * 1e6,
        instants.len(),
        fork_time.as_secs_f64() * 1e3,
        half_fork_time.as_secs_f64() * 1e3
    );
    drop(forked);
    drop(timeline);
}

fn one_node_one_day(c: &mut Criterion) {
    let scenario = one_node();
    c.bench_function("24h of one node", |b| b.iter(|| black_box(run(&scenario, SimTime::from_secs(24 * 3600)))));
}

fn thousand_nodes_one_hour(c: &mut Criterion) {
    let scenario = fleet(1000);
    let mut group = c.benchmark_group("1h of 1,000 nodes");
    group.sample_size(10).measurement_time(Duration::from_secs(30));
    group.bench_function("build", |b| b.iter(|| black_box(run(&scenario, HOUR))));
    group.finish();
}

fn seek_and_fork_in_the_hour(c: &mut Criterion) {
    let timeline = run(&fleet(1000), HOUR);
    let instants: Vec<SimTime> = (0..64).map(|i| SimTime::from_millis(i * 56_250 + 917)).collect();
    let mut group = c.benchmark_group("1h of 1,000 nodes");
    // A seek: what the page reads at the playhead about the node in view (its Node, Lease and
    // Pods) and the machines, at a spread of instants.
    let mut i = 0;
    group.bench_function("seek (one node, its Lease and Pods, every machine)", |b| {
        b.iter(|| {
            i = (i + 1) % instants.len();
            black_box(seek(&timeline, instants[i]))
        })
    });
    group.sample_size(10);
    group.bench_function("seek (every object)", |b| {
        b.iter(|| {
            i = (i + 1) % instants.len();
            let snapshot = timeline.at(instants[i]);
            black_box((snapshot.nodes(), snapshot.leases(), snapshot.pods(), snapshot.events(), snapshot.machines()))
        })
    });
    // A fork at the end of the hour: the reader kills a kubelet a second before it ends.
    let action = fork_action();
    group.bench_function("fork at the end", |b| {
        b.iter_batched(
            || timeline.clone(),
            |mut t| {
                t.fork(action.clone()).expect("a running kubelet");
                t
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, one_node_one_day, thousand_nodes_one_hour, seek_and_fork_in_the_hour);

fn main() {
    memory();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
