use super::*;
use crate::sim::{Chapter, Config, Profile, parse_actions};

fn timeline(chapter: Chapter, actions: &str, profile: Profile) -> Timeline {
    let actions = if actions.is_empty() { Vec::new() } else { parse_actions(actions).expect("actions") };
    let mut tl = Timeline::with_actions(chapter, Config { profile, ..Config::default() }, &actions);
    tl.run_until(SimTime::from_secs(900));
    tl
}

fn at(tl: &Timeline, secs: u64, lang: Lang) -> Account {
    let a = account(tl, SimTime::from_secs(secs), lang, &ControllerLines::default()).expect("an account");
    // In the log's order, each at or before the playhead.
    assert!(a.lines.windows(2).all(|w| w[0].t <= w[1].t), "{a:?}");
    assert!(a.lines.iter().all(|l| l.t <= SimTime::from_secs(secs)), "{a:?}");
    a
}

fn text(a: &Account) -> String {
    let mut s: Vec<String> = a.lines.iter().map(|l| format!("{} {}", clock(l.t), l.text)).collect();
    s.extend(a.next.iter().cloned());
    s.join("\n")
}

#[test]
fn the_story_is_told_until_the_reader_acts() {
    let tl = timeline(Chapter::NodeFailure, "kill-kubelet:node-2@1m30s", Profile::V1_34);
    assert_eq!(account(&tl, SimTime::from_secs(89), Lang::En, &ControllerLines::default()), None);
    // The chapter's own inputs are not the reader's.
    let story = timeline(Chapter::NodeFailure, "", Profile::V1_34);
    assert_eq!(account(&story, SimTime::from_secs(400), Lang::En, &ControllerLines::default()), None);
    // Nor are reads: `kubectl logs` and `exec` change nothing.
    let read = timeline(Chapter::NodeFailure, "logs:default/web-1@1m,exec:default/web-1/nginx@1m10s", Profile::V1_34);
    assert_eq!(account(&read, SimTime::from_secs(400), Lang::En, &ControllerLines::default()), None);
    assert_eq!(clock(SimTime::from_secs(90)), "1:30");
    assert_eq!(clock(SimTime::from_secs(3723)), "1:02:03");
}

#[test]
fn a_stopped_kubelet_is_followed_to_unknown_taints_and_eviction() {
    let tl = timeline(Chapter::NodeFailure, "kill-kubelet:node-2@1m30s", Profile::V1_34);
    let a = at(&tl, 95, Lang::En);
    assert_eq!(a.departed, SimTime::from_secs(90));
    assert_eq!(a.headline, "You changed the story at 1:30: node-2's kubelet stopped.");
    let next = a.next.join("\n");
    assert!(next.contains("node-2's Lease is no longer renewed"), "{next}");
    assert!(next.contains("after the 50s grace period"), "{next}");
    // Predicted from the last renewal and the rule, not read from the future.
    assert!(!a.lines.iter().any(|l| l.text.contains("Unknown")), "{}", text(&a));
    // Once it happened, it is said with its moment, and the next consequence is predicted.
    let a = at(&tl, 200, Lang::En);
    let all = text(&a);
    assert!(all.contains("marked node-2 Unknown (`NodeStatusUnknown`)"), "{all}");
    assert!(all.contains("node-2 got the taint `node.kubernetes.io/unreachable:NoExecute`"), "{all}");
    // Every line happened at or before the playhead.
    assert!(a.lines.iter().all(|l| l.t <= SimTime::from_secs(200)));
    // The story's script stops at the reader's first action: node-1's kubelet keeps running.
    assert!(!all.contains("node-1"), "{all}");
    // node-2 runs no Pod: nothing more to expect.
    assert_eq!(a.next, ["Nothing more is expected to change until you act again."]);
    // node-1's kubelet stopped earlier than the story: its Pod's eviction is predicted, then told.
    let tl = timeline(Chapter::NodeFailure, "kill-kubelet@1m", Profile::V1_34);
    let a = at(&tl, 150, Lang::En);
    let next = a.next.join("\n");
    assert!(next.contains("from node-1 at about") && next.contains("`tolerationSeconds: 300`"), "{next}");
    let all = text(&at(&tl, 480, Lang::En));
    assert!(all.contains("The taint eviction controller deleted the Pod web-"), "{all}");
    assert!(all.contains("The scheduler placed the Pod web-") && all.contains(" on node-2."), "{all}");
}

#[test]
fn the_grace_period_is_the_profiles() {
    for (profile, grace) in [(Profile::V1_34, 50), (Profile::V1_31, 40)] {
        let tl = timeline(Chapter::NodeFailure, "kill-kubelet:node-2@1m30s", profile);
        let a = at(&tl, 91, Lang::En);
        let next = a.next.join("\n");
        assert!(next.contains(&format!("after the {grace}s grace period")), "{profile:?}: {next}");
        // The predicted moment is the last renewal plus the grace period; the controller's
        // mark comes at most one monitor period (5 s) after it.
        let marked = at(&tl, 300, Lang::En)
            .lines
            .iter()
            .find(|l| l.text.contains("marked node-2 Unknown"))
            .map(|l| l.t)
            .expect("marked Unknown");
        let about = next.rsplit("at about ").next().unwrap().trim_end_matches('.').to_string();
        let (m, s) = about.split_once(':').unwrap();
        let predicted = SimTime::from_secs(m.parse::<u64>().unwrap() * 60 + s.parse::<u64>().unwrap());
        let off = if marked > predicted { marked - predicted } else { predicted - marked };
        assert!(off < Duration::from_secs(6), "{profile:?}: {about} vs {}", clock(marked));
    }
}

#[test]
fn runtime_network_and_power_are_followed() {
    let tl = timeline(Chapter::Registration, "stop-runtime@2m", Profile::V1_34);
    let a = at(&tl, 121, Lang::En);
    assert_eq!(a.headline, "You changed the story at 2:00: containerd stopped on node-1.");
    let all = text(&at(&tl, 200, Lang::En));
    assert!(all.contains("node-1 is NotReady"), "{all}");
    let tl = timeline(Chapter::Registration, "cut-network@2m,restore-network@4m", Profile::V1_34);
    let all = text(&at(&tl, 200, Lang::En));
    assert!(all.contains("You: node-1's network cut") && all.contains("marked node-1 Unknown"), "{all}");
    let all = text(&at(&tl, 300, Lang::En));
    assert!(all.contains("You: node-1's network restored") && all.contains("node-1 is Ready"), "{all}");
    // A kubelet back before the toleration runs out: the pending deletion is cancelled.
    let tl = timeline(Chapter::KubeletRestart, "kill-kubelet@1m,start-kubelet@2m30s", Profile::V1_34);
    let all = text(&at(&tl, 210, Lang::En));
    assert!(all.contains("The taint eviction controller cancelled the deletion of the Pod web-"), "{all}");
    assert!(!all.contains("deleted the Pod"), "{all}");
    let tl = timeline(Chapter::NodeFailure, "power-off:node-2@1m,start-kubelet:node-2@3m", Profile::V1_34);
    let all = text(&at(&tl, 150, Lang::En));
    assert!(all.contains("You: node-2 powered off") && all.contains("marked node-2 Unknown"), "{all}");
    let all = text(&at(&tl, 200, Lang::En));
    assert!(all.contains("You: node-2's kubelet started"), "{all}");
}

#[test]
fn kubectl_commands_are_the_readers_actions() {
    // A drain typed for node-2 in maintenance.
    let tl = timeline(Chapter::Maintenance, "drain+ignore-daemonsets:node-2@1m10s", Profile::V1_34);
    let a = at(&tl, 75, Lang::En);
    assert_eq!(a.headline, "You changed the story at 1:10: ran `kubectl drain node-2 --ignore-daemonsets`.");
    let all = text(&a);
    assert!(all.contains("kubectl: `node/node-2 cordoned`"), "{all}");
    // Cordon, uncordon, delete pod, taint, delete node.
    let tl = timeline(Chapter::NodeFailure, "cordon:node-2@1m,uncordon:node-2@1m30s", Profile::V1_34);
    let a = at(&tl, 70, Lang::En);
    assert!(a.headline.contains("`kubectl cordon node-2`"), "{}", a.headline);
    assert!(a.next.iter().any(|n| n.contains("`kubectl uncordon node-2`")), "{:?}", a.next);
    assert!(text(&a).contains("node-2 got the taint `node.kubernetes.io/unschedulable:NoSchedule`"), "{}", text(&a));
    let a = at(&tl, 100, Lang::En);
    assert!(text(&a).contains("came off node-2"), "{}", text(&a));
    let tl = timeline(Chapter::NodeGoesAway, "delete-node:node-3@1m", Profile::V1_34);
    let all = text(&at(&tl, 70, Lang::En));
    assert!(all.contains("ran `kubectl delete node node-3`") && all.contains("The Node node-3 was deleted."), "{all}");
    let tl = timeline(Chapter::NodeGoesAway, "power-off:node-2@2m,taint-out-of-service:node-2@5m", Profile::V1_34);
    let all = text(&at(&tl, 320, Lang::En));
    assert!(all.contains("node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"), "{all}");
}

#[test]
fn a_drain_a_budget_blocks_is_told_as_429s_retried() {
    // A budget that allows no disruption, before the story's (which then already exists).
    let tl = timeline(
        Chapter::Maintenance,
        "create-pdb+min-available=6@30s,drain+ignore-daemonsets:node-1@1m30s",
        Profile::V1_34,
    );
    let a = at(&tl, 200, Lang::En);
    assert!(a.headline.contains("`kubectl create pdb web --selector=app=web --min-available=6`"), "{}", a.headline);
    let all = text(&a);
    assert!(all.contains("will retry after 5s") && all.contains(" times, the last at "), "{all}");
    let retry = a.next.iter().find(|n| n.contains("retries the eviction every 5 s")).expect("the retry");
    assert!(retry.contains("allows 0 disruptions"), "{retry}");
    // Bounded: however long it retries, the account keeps at most MAX_LINES lines.
    assert!(a.lines.len() <= MAX_LINES);
}

#[test]
fn pods_created_and_pending_are_told() {
    let tl = timeline(Chapter::Registration, "create-pod@5s", Profile::V1_34);
    let a = at(&tl, 6, Lang::En);
    assert_eq!(a.headline, "You changed the story at 0:05: a Pod created.");
    assert!(a.next.iter().any(|n| n.contains("waits for a node")) || text(&a).contains("Pending"), "{}", text(&a));
    let all = text(&at(&tl, 120, Lang::En));
    assert!(all.contains("The scheduler placed the Pod"), "{all}");
}

#[test]
fn the_fleet_account_is_concise() {
    let actions = parse_actions("cut-zone:eu-west-1a@1m").unwrap();
    let mut tl = Timeline::with_actions(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() }, &actions);
    tl.run_until(SimTime::from_secs(300));
    let a = at(&tl, 200, Lang::En);
    assert_eq!(a.headline, "You changed the story at 1:00: zone eu-west-1a cut off from the API server.");
    let all = text(&a);
    assert!(all.contains("Zone eu-west-1a is now `FullDisruption`."), "{all}");
}

#[test]
fn every_account_speaks_japanese_too() {
    let tl = timeline(Chapter::NodeFailure, "kill-kubelet:node-2@1m30s", Profile::V1_31);
    let a = at(&tl, 95, Lang::Ja);
    assert_eq!(a.headline, "1:30 にあなたが筋書きを変えました: node-2 の kubelet が停止。");
    assert!(a.next.iter().any(|n| n.contains("40s の猶予期間")), "{:?}", a.next);
    let all = text(&at(&tl, 200, Lang::Ja));
    assert!(all.contains("node-2 を Unknown にしました"), "{all}");
}

#[test]
fn the_markup_shows_code_and_moments() {
    let tl = timeline(Chapter::Maintenance, "drain+ignore-daemonsets:node-2@1m10s", Profile::V1_34);
    let html = at(&tl, 75, Lang::En).markup(Lang::En);
    assert!(html.starts_with("<p class=\"account-headline\">"), "{html}");
    assert!(html.contains("ran <code>kubectl drain node-2 --ignore-daemonsets</code>"), "{html}");
    assert!(html.contains("<li class=\"yours\"><span class=\"account-t\">1:10</span> "), "{html}");
    assert!(html.contains("<h3 class=\"account-head\">What comes next</h3>"), "{html}");
}

#[test]
fn a_graceful_shutdown_and_a_stuck_pod_are_told() {
    let tl = timeline(Chapter::NodeGoesAway, "shutdown:node-1@1m", Profile::V1_34);
    let a = at(&tl, 120, Lang::En);
    assert_eq!(a.headline, "You changed the story at 1:00: node-1 shut down (`systemctl poweroff`).");
    let all = text(&a);
    assert!(all.contains("failed (`Terminated`)"), "{all}");
    // A StatefulSet Pod on a machine that lost power: deleted, and stuck until the Node goes.
    let tl = timeline(Chapter::NodeGoesAway, "power-off:node-2@5m30s", Profile::V1_34);
    let a = at(&tl, 700, Lang::En);
    assert!(a.next.iter().any(|n| n.contains("stays Terminating on node-2")), "{}", text(&a));
}

#[test]
fn the_fleet_account_tells_master_disruption() {
    let actions = parse_actions("cut-control-plane@1m").unwrap();
    let mut tl = Timeline::with_actions(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() }, &actions);
    tl.run_until(SimTime::from_secs(300));
    let all = text(&at(&tl, 200, Lang::En));
    assert!(all.contains("You: the control plane cut off from every kubelet"), "{all}");
    assert!(all.contains("enters master disruption mode"), "{all}");
    let ja = text(&at(&tl, 200, Lang::Ja));
    assert!(ja.contains("マスター障害モード"), "{ja}");
}

#[test]
fn the_fleet_account_says_what_comes_next_zone_by_zone() {
    let actions = parse_actions("cut-zone:eu-west-1a@1m").unwrap();
    let mut tl = Timeline::with_actions(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() }, &actions);
    tl.run_until(SimTime::from_secs(900));
    // Cut off: the ten Nodes are still Ready; the grace period runs out at about 1:45.
    let a = at(&tl, 70, Lang::En);
    assert_eq!(a.next.len(), 1, "{:?}", a.next);
    assert!(
        a.next[0].starts_with("In eu-west-1a, Nodes that no longer report: 10. After the 50s grace period the node lifecycle controller marks them `Unknown`, from about 1:4"),
        "{:?}",
        a.next
    );
    // Marked: the zone is fully disrupted, tainted one Node every 10 s, and the Pods on the
    // tainted Nodes go 300 s after their taint.
    let next = at(&tl, 125, Lang::En).next.join("\n");
    assert!(next.contains("In eu-west-1a, not-Ready Nodes waiting for their `NoExecute` taint: 8, tainted one node every 10 s; the last at about 3:25."), "{next}");
    assert!(next.contains("In eu-west-1a, Pods on `NoExecute`-tainted Nodes: 2. They are evicted as their `tolerationSeconds` run out, from about 6:53"), "{next}");
    let next = at(&tl, 400, Lang::En).next.join("\n");
    assert!(!next.contains("waiting for their") && next.contains("Pods on `NoExecute`-tainted Nodes: 10."), "{next}");
    // Every Node tainted and every Pod gone: nothing more.
    assert_eq!(at(&tl, 890, Lang::En).next, ["Nothing more is expected to change until you act again."]);
    // The page passes the fleet's index of the controller's lines: the same account.
    let indexed = account(&tl, SimTime::from_secs(125), Lang::En, &ControllerLines::of(tl.log()));
    assert_eq!(indexed, Some(at(&tl, 125, Lang::En)));
    let ja = at(&tl, 125, Lang::Ja).next.join("\n");
    assert!(ja.contains("eu-west-1a の Ready でない 8 台の Node"), "{ja}");
}

#[test]
fn the_fleet_account_says_when_a_zone_changes_state_and_when_tainting_stops() {
    // The control plane cut off from every kubelet: every zone fully disrupted, master
    // disruption mode, no taint; restored, the zones recover at the controller's next pass.
    let actions = parse_actions("cut-control-plane@1m,restore-control-plane@4m").unwrap();
    let mut tl = Timeline::with_actions(Chapter::ZoneOutage, Config { nodes: 30, ..Config::default() }, &actions);
    tl.run_until(SimTime::from_secs(600));
    let next = at(&tl, 200, Lang::En).next.join("\n");
    assert!(next.starts_with("Master disruption mode: no Node is tainted"), "{next}");
    assert!(next.contains("but tainting is stopped (master disruption)"), "{next}");
    // Restored at 4:00: the first kubelets post `Ready` at about 4:01.6; the controller's pass at
    // 4:02.5 sees them and leaves master disruption mode.
    let next = at(&tl, 242, Lang::En).next.join("\n");
    assert!(next.contains("becomes `PartialDisruption` at the node lifecycle controller's next pass"), "{next}");
    assert_eq!(at(&tl, 245, Lang::En).next, ["Nothing more is expected to change until you act again."]);
}

#[test]
fn memory_actions_are_told_by_what_they_do() {
    let tl = timeline(Chapter::NodeFailure, "leak-memory:web-74fb665767-fk28h@1m40s", Profile::V1_34);
    let a = at(&tl, 110, Lang::En);
    assert_eq!(a.headline, "You changed the story at 1:40: the Pod web-74fb665767-fk28h started leaking memory.");
    let ja = at(&tl, 110, Lang::Ja);
    assert!(ja.headline.contains("Pod web-74fb665767-fk28h がメモリリークを開始"), "{}", ja.headline);
    let pod = "web-74fb665767-fk28h";
    for (action, words) in [
        (format!("stop-leak:{pod}@1m40s"), format!("the Pod {pod}'s leak stopped growing")),
        ("create-besteffort-pod:node-2@1m40s".to_string(), "a BestEffort Pod created on node-2".to_string()),
        (
            "create-priority-pod:node-2@1m40s".to_string(),
            "a Pod of PriorityClass `high-priority` (priority 1000000) created on node-2".to_string(),
        ),
    ] {
        let action = parse_actions(&action).expect("an action").remove(0);
        assert_eq!(action_words(Lang::En, &action, "node-1"), words);
    }
}

/// What comes next under memory pressure, predicted from the machine's memory and the rules, not
/// read from the log ahead: the leak's crossing of the threshold, an eviction while under it,
/// then `MemoryPressure` kept for `evictionPressureTransitionPeriod` after the last round that
/// met it, and nothing once the condition and the taint are gone.
#[test]
fn memory_pressure_is_predicted_to_clear_after_the_transition_period() {
    let tl = timeline(Chapter::NodeFailure, "leak-memory:web-74fb665767-fk28h@1m40s", Profile::V1_34);
    let log = tl.log();
    let met = log.events.iter().find(|e| e.reason() == "EvictionThresholdMet").expect("met");
    let (met, node) = (met.t, met.object.name.to_string());
    let next_at = |t: SimTime, lang: Lang| {
        account(&tl, t, lang, &ControllerLines::default()).expect("an account").next.join("\n")
    };
    // The leak: its crossing, within one 10 s round before the round that found it.
    let next = next_at(SimTime::from_secs(110), Lang::En);
    let leak = format!("A leak is using up {node}'s memory: `memory.available` falls under `100Mi` at about ");
    let i = next.find(&leak).unwrap_or_else(|| panic!("{next}"));
    let when = next[i + leak.len()..].split(',').next().unwrap().to_string();
    let (m, s) = when.split_once(':').unwrap();
    let crossing = m.parse::<u64>().unwrap() * 60 + s.parse::<u64>().unwrap();
    let met_s = met.since_start().as_secs();
    assert!(crossing <= met_s && crossing + 11 >= met_s, "{when} against {met}");
    // The eviction done, the threshold clear: the condition stays five minutes from the round.
    let after = met + Duration::from_secs(20);
    let clears = clock(met + Duration::from_secs(300));
    let next = next_at(after, Lang::En);
    let want = format!(
        "The threshold was last met on {node} at {}: the kubelet reports `MemoryPressure` until \
         `evictionPressureTransitionPeriod` (5m0s) has passed, from about {clears} (at its next round, then its next \
         status update), and the node lifecycle controller then takes the \
         `node.kubernetes.io/memory-pressure:NoSchedule` taint off.",
        clock(met)
    );
    assert!(next.contains(&want), "{next}");
    assert!(!next.contains("A leak is using up"), "{next}");
    let ja = next_at(after, Lang::Ja);
    assert!(ja.contains(&format!("{node} で最後にしきい値に達したのは {} です。", clock(met))), "{ja}");
    assert!(ja.contains(&format!("{clears} ごろから")), "{ja}");
    // What happened agrees: the condition went False within a round and a status sync of it.
    let back = log
        .events
        .iter()
        .find(|e| e.reason() == "NodeHasSufficientMemory" && e.t > met && *e.object.name == *node)
        .expect("back to False")
        .t;
    assert!(back >= met + Duration::from_secs(300) && back <= met + Duration::from_secs(322), "{back} {met}");
    // Still said while the Node reports it, a moment past the period; gone once it is False.
    let late = met + Duration::from_secs(301);
    if late < back {
        assert!(next_at(late, Lang::En).contains("The threshold was last met on"), "the Node still says True");
    }
    let gone = next_at(back + Duration::from_secs(1), Lang::En);
    assert!(!gone.contains("MemoryPressure") && !gone.contains("memory.available"), "{gone}");
}

/// The prediction reads the kubelet's `evictionPressureTransitionPeriod`, when set.
#[test]
fn the_predicted_transition_is_the_kubelets_setting() {
    let actions = parse_actions("leak-memory:web-74fb665767-fk28h@1m40s").expect("actions");
    let mut config = Config::default();
    config.settings.set("kubelet", "evictionPressureTransitionPeriod", "2m").expect("a setting");
    let mut tl = Timeline::with_actions(Chapter::NodeFailure, config, &actions);
    tl.run_until(SimTime::from_secs(900));
    let met = tl.log().events.iter().find(|e| e.reason() == "EvictionThresholdMet").expect("met").t;
    let a = account(&tl, met + Duration::from_secs(20), Lang::En, &ControllerLines::default()).expect("an account");
    let next = a.next.join("\n");
    let want = format!(
        "`evictionPressureTransitionPeriod` (2m0s) has passed, from about {}",
        clock(met + Duration::from_secs(120))
    );
    assert!(next.contains(&want), "{next}");
}

/// Under a soft threshold (a leak stopped below it, far above the hard one), what comes next is
/// the condition now and an eviction once the threshold has held for its grace period.
#[test]
fn a_soft_threshold_is_predicted_with_its_grace_period() {
    let actions =
        parse_actions("leak-memory:web-74fb665767-fk28h@1m40s,stop-leak:web-74fb665767-fk28h@4m").expect("actions");
    let mut config = Config::default();
    config.settings.set("kubelet", "evictionSoft", "memory.available<8Gi").expect("a setting");
    config.settings.set("kubelet", "evictionSoftGracePeriod", "memory.available=10m").expect("a setting");
    let mut tl = Timeline::with_actions(Chapter::NodeFailure, config, &actions);
    tl.run_until(SimTime::from_secs(900));
    let a = account(&tl, SimTime::from_secs(300), Lang::En, &ControllerLines::default()).expect("an account");
    let next = a.next.join("\n");
    let want = "`memory.available` is under `8Gi` (`evictionSoft`): the kubelet reports `MemoryPressure`";
    assert!(next.contains(want) && next.contains("`evictionSoftGracePeriod` (10m0s)"), "{next}");
    let ja = account(&tl, SimTime::from_secs(300), Lang::Ja, &ControllerLines::default()).expect("an account");
    assert!(ja.next.join("\n").contains("`evictionSoftGracePeriod` (10m0s)"));
}
