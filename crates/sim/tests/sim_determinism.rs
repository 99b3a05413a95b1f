//! Determinism: the same inputs give the same log, a seed changes identities but not the story,
//! and forking a timeline is the same as building it with the combined actions.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{Entry, assert_same_rendering, canonical, rendering_difference};
use nodeline_sim::objects::Kind;
use nodeline_sim::{Action, ActionKind, ChangeType, Chapter, Config, Log, SimTime, Timeline};

fn ms(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

#[test]
fn the_same_inputs_give_the_same_log() {
    for chapter in Chapter::ALL {
        let a = common::chapter_timeline(chapter, Config::default());
        let b = common::chapter_timeline(chapter, Config::default());
        assert_same_rendering(&canonical(a.log()), &canonical(b.log()), chapter.id());
    }
    let a = common::sandbox_timeline(Config { seed: 7, ..Config::default() });
    let b = common::sandbox_timeline(Config { seed: 7, ..Config::default() });
    assert_same_rendering(&canonical(a.log()), &canonical(b.log()), "sandbox");
}

/// Every uid in the log (objects' `metadata.uid`).
fn uids(log: &Log) -> BTreeSet<String> {
    log.changes().iter().map(|c| c.object().meta().uid.to_string()).collect()
}

/// Each component's requests as `METHOD path`, in order, with generated Pod names replaced by
/// `<generateName>#<n>` (n counts Pods in creation order), so that two seeds can be compared.
fn request_paths_by_actor(log: &Log) -> BTreeMap<String, Vec<String>> {
    let mut created: Vec<(u64, String, String)> = log
        .keys_of(Kind::Pod)
        .filter_map(|k| {
            let first = log.versions(k).first().map(|&i| log.changes().at(i as usize))?;
            (first.change == ChangeType::Added).then(|| {
                let object = first.object();
                let meta = object.meta();
                (first.seq, meta.name.to_string(), meta.generate_name.to_string())
            })
        })
        .collect();
    created.sort();
    let names: Vec<(String, String)> =
        created.into_iter().enumerate().map(|(i, (_, name, prefix))| (name, format!("{prefix}#{i}"))).collect();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &log.requests {
        let path = names.iter().fold(r.path.to_string(), |p, (name, stand_in)| p.replace(name.as_str(), stand_in));
        out.entry(r.actor.to_string()).or_default().push(format!("{} {path}", r.method.as_str()));
    }
    out
}

/// A different seed draws different uids (and names, jitter and phases), but the story is the
/// same: the same requests are sent, and each control-plane component sends its own in the same
/// order.
///
/// The order is compared per component, and for kubelets not even that: the kubelet's status
/// loop and its Lease loop are independent goroutines with jittered periods (`wait.JitterUntil`,
/// factor 0.04), so with another seed a status PATCH may come before or after a Lease GET of the
/// same second; the controller's monitor pass has a seeded phase too.
#[test]
fn a_different_seed_changes_uids_but_not_the_requests() {
    let run = |seed| {
        let mut t = Timeline::new(Chapter::Registration, Config { seed, ..Config::default() });
        t.run_until(SimTime::from_secs(60));
        t
    };
    let base = run(1);
    let base_paths = request_paths_by_actor(base.log());
    assert!(base_paths.values().map(Vec::len).sum::<usize>() > 10, "{base_paths:?}");
    for seed in [2, 3, 0xdead_beef] {
        let other = run(seed);
        let shared: Vec<String> = uids(base.log()).intersection(&uids(other.log())).cloned().collect();
        assert!(shared.is_empty(), "seeds 1 and {seed} share uids {shared:?}");
        let paths = request_paths_by_actor(other.log());
        assert_eq!(
            paths.keys().collect::<Vec<_>>(),
            base_paths.keys().collect::<Vec<_>>(),
            "seed {seed}: the components that send requests"
        );
        for (actor, sequence) in &base_paths {
            let (mut mine, mut theirs) = (paths[actor].clone(), sequence.clone());
            if actor.starts_with("kubelet/") {
                mine.sort();
                theirs.sort();
            }
            assert_eq!(mine, theirs, "{actor}'s requests with seed {seed} (left) and seed 1 (right)");
        }
    }
}

/// Forks `timeline` with `action` and checks it against a timeline built from scratch with
/// `actions` (the reader's actions so far, this one included), computed to the same horizon.
/// Also checks that everything before the fork's instant is untouched.
fn fork_and_compare(timeline: &mut Timeline, action: Action, actions: &[Action]) {
    let t = action.at;
    let before: Vec<Entry> = canonical(timeline.log()).into_iter().filter(|e| e.1 < t).collect();
    let what = format!("{:?} forked with {action}", timeline.chapter());
    timeline.fork(action).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(timeline.actions(), actions, "{what}: the reader's actions");

    let kept: Vec<Entry> = canonical(timeline.log()).into_iter().filter(|e| e.1 < t).collect();
    assert_same_rendering(&before, &kept, &format!("{what}: the past"));

    let mut direct = Timeline::from_scenario(timeline.scenario().clone(), timeline.config().clone(), actions);
    direct.run_until(timeline.horizon());
    assert_eq!(direct.horizon(), timeline.horizon());
    if let Some(d) = rendering_difference(&canonical(direct.log()), &canonical(timeline.log())) {
        panic!("{what}: built directly (left) and forked (right) differ: {d}");
    }
}

/// A machine's TLS bootstrap forks as any chapter does: the binding deleted before the kubelet
/// starts, then its CSR approved by hand while it waits (every later request, the CSR's
/// signing and the files, computed again), then the token deleted before either.
#[test]
fn a_bootstrap_forks_as_it_is_built() {
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    scenario.machines[0].kubelet_start = Some(std::time::Duration::from_secs(10));
    let mut t = Timeline::from_scenario(scenario, Config::default(), &[]);
    t.run_until(SimTime::from_secs(120));
    let unbind = Action::new(ActionKind::DeleteAutoApproveBinding, ms(5_000));
    fork_and_compare(&mut t, unbind.clone(), std::slice::from_ref(&unbind));
    let csr = "node-csr-lYzdjsM0t4oaGEjgiigRY8gkoaguPuQcJ4FM0nXSme8";
    let approve = Action::on(ActionKind::ApproveCsr, csr, ms(30_000));
    fork_and_compare(&mut t, approve.clone(), &[unbind, approve]);
    let token = Action::new(ActionKind::DeleteBootstrapToken, ms(2_000));
    fork_and_compare(&mut t, token.clone(), &[token]);
}

#[test]
fn forking_is_building_with_the_combined_actions() {
    // Two forks in a row on the node-failure chapter, computed to its end.
    let mut t = common::chapter_timeline(Chapter::NodeFailure, Config::default());
    let start = Action::new(ActionKind::StartKubelet, ms(200_500));
    fork_and_compare(&mut t, start.clone(), std::slice::from_ref(&start));
    let cut = Action::on(ActionKind::CutNetwork, "node-2", ms(300_250));
    fork_and_compare(&mut t, cut.clone(), &[start, cut]);

    // A fork earlier than the last one drops the later action.
    let pod = Action::new(ActionKind::CreatePod, ms(150_000));
    fork_and_compare(&mut t, pod.clone(), &[pod]);

    // Registration, with another seed; a fork on a checkpoint boundary.
    let mut t = common::chapter_timeline(Chapter::Registration, Config { seed: 42, ..Config::default() });
    let add = Action::new(ActionKind::AddMachine, SimTime::from_secs(180));
    fork_and_compare(&mut t, add.clone(), std::slice::from_ref(&add));

    // Past the first half hour, where checkpoints are ten minutes apart.
    let mut t = Timeline::new(Chapter::KubeletRestart, Config::default());
    t.run_until(SimTime::from_secs(50 * 60));
    let kill = Action::on(ActionKind::KillKubelet, "node-2", ms(2_467_300));
    fork_and_compare(&mut t, kill.clone(), std::slice::from_ref(&kill));

    // Far behind the horizon, where checkpoints are thinned: the fork starts from one further
    // back than the last ten minutes.
    let mut t = Timeline::new(Chapter::KubeletRestart, Config::default());
    t.run_until(SimTime::from_secs(6 * 3600));
    let kill = Action::on(ActionKind::KillKubelet, "node-2", ms(6_010_700));
    fork_and_compare(&mut t, kill.clone(), std::slice::from_ref(&kill));
}

/// A fork at the very instant of a scripted input: `fork` keeps the script's inputs at `t`
/// (it keeps every input with `at <= t`), while `with_actions` keeps only those strictly before
/// the reader's first action. The two must agree, or a shared link (which rebuilds the timeline
/// from the reader's actions) shows a different story than the one the reader made.
#[test]
fn forking_at_a_scripted_instant_is_building_with_the_combined_actions() {
    let mut t = common::chapter_timeline(Chapter::NodeFailure, Config::default());
    let kill_at = Chapter::NodeFailure.scenario().script[0].at;
    let pod = Action::new(ActionKind::CreatePod, kill_at);
    fork_and_compare(&mut t, pod.clone(), &[pod]);
}

#[test]
fn steps_searched_a_stretch_at_a_time_are_the_steps_of_the_whole_log() {
    use nodeline_sim::StepSearch;
    use nodeline_sim::scenario::resolve_steps;
    let mut changed_by_a_fork = 0;
    for chapter in Chapter::ALL {
        let mut tl = Timeline::new(chapter, Config::default());
        let end = SimTime::ZERO + tl.scenario().duration;
        let mut search = StepSearch::default();
        let mut t = SimTime::ZERO;
        while t < end {
            t = (t + std::time::Duration::from_secs(15)).min(end);
            tl.run_until(t);
            let whole = resolve_steps(tl.scenario(), tl.log());
            assert_eq!(search.resolve(tl.scenario(), tl.log()), whole, "{} at {t:?}", chapter.id());
        }
        // The reader kills the first machine's kubelet a third of the way in: the log is cut back
        // and the story after it changes, so the search must start again rather than keep what
        // it found.
        let before = resolve_steps(tl.scenario(), tl.log());
        let machine = tl.scenario().machines[0].name.clone();
        let at = SimTime::ZERO + tl.scenario().duration / 3;
        if tl.fork(Action::on(ActionKind::KillKubelet, &machine, at)).is_ok() {
            let after = resolve_steps(tl.scenario(), tl.log());
            assert_eq!(search.resolve(tl.scenario(), tl.log()), after, "{} after the fork", chapter.id());
            changed_by_a_fork += usize::from(after != before);
        }
    }
    assert!(changed_by_a_fork >= 2, "the forks changed the steps of {changed_by_a_fork} chapters");
}

/// The page computes a fleet a little at a time, stopping once the log has gained a number of
/// records (`Timeline::run_until_within`), within an instant when it gains many more, or when
/// its clock says the piece has taken long enough: in such pieces the timeline is the one
/// computed at once, to the byte, with the same checkpoints, so a fork from either gives the
/// same story.
#[test]
fn a_timeline_computed_a_few_records_at_a_time_is_the_timeline_computed_at_once() {
    let config = Config { nodes: 120, ..Config::default() };
    let end = SimTime::ZERO + Chapter::ZoneOutage.scenario_for(config.nodes).duration;
    let mut whole = Timeline::new(Chapter::ZoneOutage, config.clone());
    whole.run_until(end);
    // Pieces of 499 records (an instant split now and then), of 7 (nearly every busy instant
    // split, most pieces a timer or two), and of any number of records ended by the caller
    // after every 13th timer (as a clock would end them: wherever the piece is).
    for piece in [499, 7, usize::MAX] {
        let mut sliced = Timeline::new(Chapter::ZoneOutage, config.clone());
        // Pieces, and pieces that ended in the instant the one before ended in: split ones.
        let (mut pieces, mut split) = (0, 0);
        let mut at = sliced.horizon();
        let mut timers = 0u32;
        let mut more = || {
            timers += 1;
            piece != usize::MAX || !timers.is_multiple_of(13)
        };
        while !sliced.run_until_within(end, piece, &mut more) {
            pieces += 1;
            split += usize::from(sliced.horizon() == at);
            at = sliced.horizon();
            assert!(at < end);
        }
        assert!(pieces > 50, "{pieces} pieces of {piece}");
        assert!((100..usize::MAX).contains(&piece) || split > 50, "{split} instants split in pieces of {piece}");
        assert_eq!(sliced.horizon(), whole.horizon());
        assert_eq!(sliced.checkpoints(), whole.checkpoints(), "pieces of {piece}");
        assert!(whole.checkpoints() > 1, "a checkpoint past the first");
        if let Some(d) = rendering_difference(&canonical(whole.log()), &canonical(sliced.log())) {
            panic!("computed at once (left) and {piece} records at a time (right) differ: {d}");
        }
        if piece == 499 {
            // Forked from either, the same story.
            let cut = Action::on(ActionKind::CutZone, "eu-west-1a", SimTime::from_secs(200));
            fork_and_compare(&mut sliced, cut.clone(), std::slice::from_ref(&cut));
        }
    }
    // A piece stops at an instant once the log has gained as many records, not before.
    let mut t = Timeline::new(Chapter::ZoneOutage, Config { nodes: 120, ..Config::default() });
    assert!(!t.run_until_within(end, 500, &mut || true));
    assert!(t.log().len() >= 500 && t.horizon() > SimTime::ZERO);
}

/// A thousand kubelets start at the same instants: computed in pieces, such an instant is split
/// between two of its timers, so no piece gains much more than twice what it asks for.
#[test]
fn a_busy_instant_is_split_between_its_timers() {
    let config = Config { nodes: 1000, ..Config::default() };
    let mut t = Timeline::new(Chapter::ZoneOutage, config);
    let to = SimTime::from_secs(2);
    let mut longest = 0;
    let mut split = 0;
    loop {
        let (before, at) = (t.log().len(), t.horizon());
        let done = t.run_until_within(to, 500, &mut || true);
        longest = longest.max(t.log().len() - before);
        split += usize::from(!done && t.horizon() == at);
        if done {
            break;
        }
    }
    // Records come a request (or a timer's work) at a time: a piece ends within one of them
    // past its thousand.
    assert!(longest < 1_500, "a piece gained {longest} records");
    assert!(split > 5, "{split} pieces within an instant");
    // Computed at once, the same log.
    let mut whole = Timeline::new(Chapter::ZoneOutage, Config { nodes: 1000, ..Config::default() });
    whole.run_until(to);
    assert_eq!(whole.log().len(), t.log().len());
    if let Some(d) = rendering_difference(&canonical(whole.log()), &canonical(t.log())) {
        panic!("computed at once (left) and in pieces (right) differ: {d}");
    }
}
