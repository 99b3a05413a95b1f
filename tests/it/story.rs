//! Story files: the files in `stories/`, their schema, `--story` against `--chapter`, and the
//! checker's answers to broken files (every one located, none a panic).
//!
//! `stories/story.schema.json` is rewritten from the types by
//! `NODELINE_BLESS=1 cargo test --test it story::`.

use std::path::{Path, PathBuf};

use nodeline::cli::{EXIT_USAGE, Output, run};
use nodeline::sim::{Chapter, DEFAULT_FLEET, Profile};
use nodeline::story::{self, SCHEMA_LINE};

fn stories() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("stories")
}

fn nodeline(args: &[&str]) -> Output {
    run(std::iter::once("nodeline").chain(args.iter().copied()))
}

/// The story files, by name.
fn story_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(stories())
        .expect("stories/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_schema_file_is_the_one_the_types_give() {
    let path = stories().join("story.schema.json");
    let expected = story::schema();
    if std::env::var("NODELINE_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &expected).expect("writing the schema");
    }
    let on_disk = std::fs::read_to_string(&path).expect("stories/story.schema.json");
    assert!(on_disk == expected, "stories/story.schema.json is stale: NODELINE_BLESS=1 cargo test --test it story::");
    // The values from nodeline's own lists are enumerated.
    let schema: serde_json::Value = serde_json::from_str(&expected).unwrap();
    assert_eq!(schema["properties"]["k8s"]["enum"], serde_json::json!(["1.34", "1.31"]));
    assert!(expected.contains("\"kill-kubelet\""), "the action names");
}

#[test]
fn every_story_file_checks_and_names_its_schema() {
    let files = story_files();
    assert!(!files.is_empty(), "{files:?}");
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(text.lines().next(), Some(SCHEMA_LINE), "{}", path.display());
        let out = nodeline(&["story", "check", path.to_str().unwrap()]);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{}", path.display());
        assert!(out.stdout.starts_with(&format!("{}: ok: ", path.display())), "{}", out.stdout);
        // Both languages, everywhere.
        let story = story::load(&text, None).unwrap();
        assert!(story.title.ja.is_some() && story.steps.iter().all(|s| s.ja.is_some()), "{}", path.display());
    }
}

/// A chapter's story file (and the chapter written out by `story export`) runs as the chapter
/// does, byte for byte, in every command.
#[test]
fn a_chapter_as_a_story_file_prints_what_the_chapter_prints() {
    let dir = std::env::temp_dir().join(format!("nodeline-story-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (chapter, args) in [
        (Chapter::NodeFailure, &["timeline"][..]),
        (Chapter::NodeGoesAway, &["timeline", "--until", "5m"][..]),
        (Chapter::Maintenance, &["kubectl", "--at", "2m10s", "--", "get", "pods", "-o", "wide"][..]),
        (Chapter::Registration, &["objects", "--at", "30s", "-o", "yaml"][..]),
    ] {
        let path = dir.join(format!("{}.yaml", chapter.id()));
        std::fs::write(&path, story::export(chapter, DEFAULT_FLEET, Profile::default())).unwrap();
        let with = |source: &[&str]| {
            let mut all: Vec<&str> = vec![args[0]];
            all.extend(source);
            all.extend(&args[1..]);
            nodeline(&all)
        };
        let chapter_out = with(&["--chapter", chapter.id()]);
        assert_eq!(chapter_out.code, 0, "{chapter}: {}", chapter_out.stderr);
        assert!(chapter_out.stdout.len() > 100, "{chapter}");
        let file = stories().join(format!("{}.yaml", chapter.id()));
        for story in [&path, &file] {
            let story_out = with(&["--story", story.to_str().unwrap()]);
            assert!(story_out == chapter_out, "{chapter}: --story {} and --chapter differ", story.display());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A story with a setting at its Kubernetes version's default prints what the story without it
/// prints; a setting changed changes the story.
#[test]
fn a_setting_at_its_default_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("nodeline-story-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plain = story::export(Chapter::NodeFailure, DEFAULT_FLEET, Profile::default());
    let run = |settings: &str| {
        let path = dir.join("node-failure.yaml");
        std::fs::write(&path, plain.replace("duration: 9m", &format!("{settings}duration: 9m"))).unwrap();
        nodeline(&["timeline", "--story", path.to_str().unwrap()])
    };
    let without = run("");
    assert_eq!(without.code, 0, "{}", without.stderr);
    let defaults = "settings:\n  kube-controller-manager: {node-monitor-grace-period: 50s, node-eviction-rate: 0.1}\n  \
                    kube-apiserver: {default-unreachable-toleration-seconds: 300}\n  \
                    kubelet: {nodeStatusUpdateFrequency: 10s, nodeStatusReportFrequency: 5m}\n";
    assert!(run(defaults) == without, "a story with the defaults set differs");
    let eviction = "settings:\n  kubelet:\n    evictionHard: {memory.available: 100Mi}\n    evictionSoft: {}\n    \
                    evictionSoftGracePeriod: {}\n    evictionMaxPodGracePeriod: 0\n";
    assert!(run(eviction) == without, "a story with the eviction settings at their defaults differs");
    let faster = run("settings:\n  kube-controller-manager: {node-monitor-grace-period: 20s}\n");
    assert_eq!(faster.code, 0, "{}", faster.stderr);
    assert!(faster.stdout != without.stdout);
    std::fs::remove_dir_all(&dir).ok();
}

/// Broken files: each problem printed as FILE:LINE:COLUMN: MESSAGE, status 2.
#[test]
fn problems_are_located() {
    let dir = std::env::temp_dir().join(format!("nodeline-story-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = story::export(Chapter::NodeFailure, DEFAULT_FLEET, Profile::default());
    let cases: [(&str, String, &str); 16] = [
        (
            "a soft threshold without its grace period",
            good.replace(
                "duration: 9m",
                "duration: 9m\nsettings:\n  kubelet:\n    evictionSoft: {memory.available: 500Mi}",
            ),
            ":21:19: settings: grace period must be specified for the soft eviction threshold memory.available",
        ),
        (
            "an eviction signal not modelled",
            good.replace(
                "duration: 9m",
                "duration: 9m\nsettings:\n  kubelet:\n    evictionHard: {nodefs.available: 10%}",
            ),
            ":21:19: settings: kubelet evictionHard: the simulation models the eviction signal memory.available only, \
             not \"nodefs.available\"",
        ),
        ("unknown key", good.replace("duration: 9m", "duration: 9m\ncolour: blue"), ":19:1: unknown field `colour`"),
        ("bad duration", good.replace("duration: 9m", "duration: 9 minutes"), ":18:11: duration: invalid duration"),
        (
            "no such machine",
            good.replace("kill-kubelet:node-1@2m", "kill-kubelet:node-7@2m"),
            ":17:5: actions: there is no machine \"node-7\"",
        ),
        (
            "an anchor that never happens",
            good.replace("reason: NodeNotReady", "reason: NodeExploded"),
            ": step 3: its mark never happens",
        ),
        (
            "two steps at one moment",
            good.replace(
                "when: {taint: {node: node-1, key: node.kubernetes.io/unreachable, effect: NoExecute}}",
                "when: {event: {reason: NodeNotReady}}",
            ),
            ":56:11: step 4: its moment is step 3's (T+02:51): the two would show the same picture",
        ),
        (
            "a missing language",
            good.replacen("  ja: Node", "  jp: Node", 1),
            ":5:3: unknown field `jp`, expected one of en, ja",
        ),
        ("a wrong id", good.replace("id: node-failure", "id: other"), ":2:5: id: \"other\" is not the file's name"),
        (
            "a setting not modelled",
            good.replace("duration: 9m", "duration: 9m\nsettings:\n  kubelet: {maxPods: \"110\"}"),
            ":20:22: settings: kubelet has no KubeletConfiguration field \"maxPods\" that the simulation models",
        ),
        ("not YAML", "id: [".to_string(), "node-failure.yaml:"),
        (
            "a machine's shutdown pair the kubelet refuses",
            good.replace(
                "    - name: node-1\n",
                "    - name: node-1\n      kubelet: {shutdownGracePeriod: 10s, shutdownGracePeriodCriticalPods: 20s}\n",
            ),
            ":12:16: kubelet: invalid configuration: shutdownGracePeriodCriticalPods 20s must be <= shutdownGracePeriod 10s",
        ),
        (
            "a misspelled setting",
            good.replace(
                "duration: 9m",
                "duration: 9m\nsettings:\n  kube-controller-manager: {node-monitor-grace-perod: 20s}",
            ),
            "(did you mean \"node-monitor-grace-period\"?)",
        ),
        (
            "a bad setting value",
            good.replace(
                "duration: 9m",
                "duration: 9m\nsettings:\n  kube-apiserver: {default-unreachable-toleration-seconds: soon}",
            ),
            ":20:60: settings: kube-apiserver default-unreachable-toleration-seconds: expected",
        ),
        (
            "Japanese missing in one place",
            good.replacen("\n  ja: node-1 の kubelet を止め", "\n  # node-1 の kubelet を止め", 1),
            ":7:3: summary: no ja, while the story speaks Japanese elsewhere",
        ),
        (
            "an unknown version",
            good.replace("cluster:", "k8s: \"1.99\"\ncluster:"),
            "k8s: \"1.99\" is not a version nodeline simulates; accepted: 1.34, 1.31",
        ),
    ];
    for (what, text, expected) in cases {
        let path = dir.join("node-failure.yaml");
        std::fs::write(&path, &text).unwrap();
        let out = nodeline(&["story", "check", path.to_str().unwrap()]);
        assert_eq!(out.code, EXIT_USAGE, "{what}: {out:?}");
        assert!(out.stdout.is_empty(), "{what}");
        assert!(out.stderr.contains(expected), "{what}: {}", out.stderr);
        for line in out.stderr.lines() {
            let located = line.strip_prefix(path.to_str().unwrap()).and_then(|rest| rest.strip_prefix(':'));
            let numbers: Vec<&str> = located.map(|l| l.splitn(3, ':').take(2).collect()).unwrap_or_default();
            assert!(
                numbers.len() == 2 && numbers.iter().all(|n| n.parse::<u64>().is_ok_and(|n| n > 0)),
                "{what}: not located: {line}"
            );
        }
        // --story gives the same report, and runs nothing.
        let run = nodeline(&["timeline", "--story", path.to_str().unwrap()]);
        assert_eq!(
            (run.code, run.stdout.as_str(), run.stderr.as_str()),
            (EXIT_USAGE, "", out.stderr.as_str()),
            "{what}"
        );
    }
    let missing = nodeline(&["story", "check", "/nonexistent/x.yaml"]);
    assert_eq!(missing.code, EXIT_USAGE);
    assert!(missing.stderr.starts_with("/nonexistent/x.yaml: cannot read the story file"), "{}", missing.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// A story's questions, answered from its timeline, in both languages and as JSON.
#[test]
fn quiz_prints_a_story_s_questions() {
    let path = stories().join("two-nodes-fail.yaml");
    let path = path.to_str().unwrap();
    let out = nodeline(&["quiz", "--story", path]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(out.stdout.starts_with("Two nodes fail at once (Kubernetes 1.34)\n"), "{}", out.stdout);
    assert!(out.stdout.contains("The answer: 10 s."), "{}", out.stdout);
    assert!(out.stdout.contains("The answer: c) node-3."), "{}", out.stdout);
    let ja = nodeline(&["quiz", "--story", path, "--lang", "ja"]);
    assert!(ja.stdout.contains("答え: c) node-3。"), "{}", ja.stdout);
    let json = nodeline(&["quiz", "--story", path, "-o", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["story"], "two-nodes-fail");
    let kinds: Vec<&str> = doc["questions"].as_array().unwrap().iter().map(|q| q["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["choice", "time", "order", "node"]);
    assert_eq!(doc["questions"][1]["answer"]["seconds"], 10.0);
    // Each question links to its stop in the page, which opens the story from its site.
    assert_eq!(doc["questions"][0]["link"], "?story=two-nodes-fail&step=3&lang=en&quiz=1");
    // A question whose moment never comes is a located problem.
    let broken = std::fs::read_to_string(stories().join("two-nodes-fail.yaml"))
        .unwrap()
        .replace("to: {taint: {node: node-2,", "to: {taint: {node: node-3,");
    let dir = std::env::temp_dir().join(format!("nodeline-story-q-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two-nodes-fail.yaml");
    std::fs::write(&file, broken).unwrap();
    let out = nodeline(&["story", "check", file.to_str().unwrap()]);
    assert_eq!(out.code, EXIT_USAGE);
    assert!(out.stderr.contains(": question second-taint: its answer cannot be derived"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// The guide names every anchor and every part of the stage narration can point at.
#[test]
fn the_guide_names_every_anchor_and_target() {
    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/stories.md")).unwrap();
    for when in ["{at:", "{input:", "{event:", "{request:", "{taint:", "{kubectl:", "{logLine:"] {
        assert!(guide.contains(&format!("`{when}")), "docs/stories.md lacks {when}");
    }
    for target in nodeline::i18n::TARGETS {
        assert!(guide.contains(&format!("`{target}`")), "docs/stories.md lacks the target {target}");
    }
}

/// A tiny deterministic generator (xorshift), so the property test needs no dependency and
/// every failure can be replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// `text`'s lines with one to three random edits past the first line: a line removed, two
    /// swapped, a value (what follows `separator`) replaced by one of `garbage`, or a key's first
    /// letter changed.
    fn edit(&mut self, text: &str, separator: &str, garbage: &[&str]) -> Vec<String> {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        for _ in 0..1 + self.below(3) {
            let i = 1 + self.below(lines.len() - 1);
            match self.below(4) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let j = 1 + self.below(lines.len() - 1);
                    lines.swap(i, j);
                }
                2 => {
                    let line = &lines[i];
                    let cut = line.find(separator).map_or(line.len(), |c| c + separator.len());
                    lines[i] = format!("{}{}", &line[..cut], garbage[self.below(garbage.len())]);
                }
                _ => lines[i] = lines[i].replacen(|c: char| c.is_ascii_alphabetic(), "Z", 1),
            }
        }
        lines
    }
}

/// Random edits of the chapters' story files (a line removed, two lines swapped, a value
/// mangled, a key renamed) never panic the checker, and every problem is located. (The fleet
/// chapter's, whose every check runs 150 nodes, is left to the page's form below.)
#[test]
fn random_edits_never_panic_and_are_always_located() {
    let texts: Vec<String> = Chapter::ALL
        .into_iter()
        .filter(|c| !c.is_fleet())
        .map(|c| std::fs::read_to_string(stories().join(format!("{}.yaml", c.id()))).unwrap())
        .collect();
    let garbage = ["", "-1", "1e99", "[", "}", "~", "\"", "node-9", "kill-kubelet@", "0s", "x: y", "日本"];
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut failed = 0;
    for round in 0..160 {
        let lines = rng.edit(&texts[round % texts.len()], ": ", &garbage);
        let text = lines.join("\n");
        match story::load(&text, None) {
            Ok(_) => {}
            Err(problems) => {
                failed += 1;
                assert!(!problems.is_empty(), "round {round}");
                for p in &problems {
                    assert!(p.line > 0 && p.column > 0, "round {round}: not located: {p:?}\n{text}");
                    assert!(!p.message.is_empty(), "round {round}");
                }
            }
        }
    }
    assert!(failed > 100, "the edits break most files: {failed} of 160");
}

/// Every story file (the chapters' among them) read back from the page's form is the same story.
#[test]
fn the_page_s_form_reads_back_as_the_story() {
    let mut texts: Vec<(String, String)> =
        story_files().iter().map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap())).collect();
    texts.push(("1.31".into(), story::export(Chapter::NodeGoesAway, DEFAULT_FLEET, Profile::V1_31)));
    let soft = "settings:\n  kubelet:\n    evictionHard: {memory.available: 1Gi}\n    evictionSoft: \
                {memory.available: 2000M}\n    evictionSoftGracePeriod: {memory.available: 90s}\n    \
                evictionMaxPodGracePeriod: -1\nduration: 9m";
    let exported = story::export(Chapter::NodeFailure, DEFAULT_FLEET, Profile::default());
    texts.push(("eviction settings".into(), exported.replace("duration: 9m", soft)));
    for (name, text) in texts {
        let loaded = story::load(&text, None).unwrap_or_else(|p| panic!("{name}: {p:?}"));
        let form = story::compact::write(&loaded);
        assert!(form.starts_with(story::compact::HEADER), "{name}");
        let read = story::compact::read(&form).unwrap_or_else(|p| panic!("{name}: {p:?}\n{form}"));
        assert!(read == as_the_page_tells(loaded), "{name}: the page's form reads back otherwise");
    }
}

/// A story as its page form holds it: the configuration its questions' `why` quotes written in
/// (the page runs a story with the configuration its file gives).
fn as_the_page_tells(mut story: story::Story) -> story::Story {
    let config = story.config.clone();
    story.questions = story.questions.iter().map(|q| q.quoting(&config)).collect();
    story
}

/// `story build` writes the page's form beside the file or into `--out`; a story with a problem
/// is reported and not written.
#[test]
fn story_build_writes_the_page_s_form() {
    let dir = std::env::temp_dir().join(format!("nodeline-story-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = stories().join("two-nodes-fail.yaml");
    let out = nodeline(&["story", "build", source.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    let written = dir.join("two-nodes-fail.story");
    assert_eq!(out.stdout, format!("{} -> {}\n", source.display(), written.display()));
    let form = std::fs::read_to_string(&written).unwrap();
    let text = std::fs::read_to_string(&source).unwrap();
    assert!(story::compact::read(&form).unwrap() == as_the_page_tells(story::load(&text, None).unwrap()));
    assert!(form.contains("refills at 0.1 per second") && !form.contains("{kube-controller-manager:"), "{form}");
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, text.replace("id: two-nodes-fail", "id: bad").replace("duration: 10m", "duration: ten"))
        .unwrap();
    let out = nodeline(&["story", "build", bad.to_str().unwrap()]);
    assert_eq!(out.code, EXIT_USAGE);
    assert!(out.stderr.contains("duration: invalid duration"), "{}", out.stderr);
    assert!(!dir.join("bad.story").exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// Random edits of stories in the page's form (a line removed, two swapped, a value mangled, a
/// key renamed) never panic its reader, and every problem names its line.
#[test]
fn random_edits_of_the_page_s_form_never_panic_and_are_always_located() {
    let forms: Vec<String> = story_files()
        .iter()
        .map(|p| story::compact::write(&story::load(&std::fs::read_to_string(p).unwrap(), None).unwrap()))
        .collect();
    let garbage = ["", "-1", "%ZZ", "%E3%81", "=", "at:", "event:", "taint:a", "x,y", "never", "99999999999h", "日本"];
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    let mut failed = 0;
    for round in 0..400 {
        let lines = rng.edit(&forms[round % forms.len()], "=", &garbage);
        let count = lines.len() as u64;
        if let Err(problems) = story::compact::read(&lines.join("\n")) {
            failed += 1;
            assert!(!problems.is_empty(), "round {round}");
            for p in &problems {
                assert!((1..=count).contains(&p.line) && p.column == 1, "round {round}: not located: {p:?}");
                assert!(!p.message.is_empty(), "round {round}");
            }
        }
    }
    assert!(failed > 150, "the edits break most forms: {failed} of 400");
}

/// `stories/node-pressure.yaml` in both releases: each step stands where its words say (the
/// round that meets the threshold, the evicted Pod and its replacement, the condition and the
/// controller's taint, the BestEffort Pod then the high-priority Pod evicted in consecutive
/// rounds, a new Pod kept off the tainted node, five minutes of pressure with memory to spare,
/// both gone), and its questions' answers are what the narration explains.
#[test]
fn the_node_pressure_story_stands_where_it_says() {
    use nodeline::sim::{SimTime, Timeline, memory};
    let text = std::fs::read_to_string(stories().join("node-pressure.yaml")).unwrap();
    let story = story::load(&text, Some("node-pressure")).expect("a good story");
    const TAINT: &str = "node.kubernetes.io/memory-pressure";
    for profile in Profile::ALL {
        let config = nodeline::sim::Config { profile, ..story.config.clone() };
        let mut tl = Timeline::from_scenario(story.scenario.clone(), config, &[]);
        tl.run_until(SimTime::ZERO + story.scenario.duration);
        let steps: Vec<SimTime> = tl.steps().into_iter().map(|s| s.expect("every step happens").moment).collect();
        assert_eq!(steps.len(), 11);
        let pressure = |t: SimTime| {
            let node = tl.at(t).node("node-1").expect("node-1");
            let c = node.condition("MemoryPressure").expect("MemoryPressure").clone();
            (c.status.to_string(), node.has_taint(TAINT, "NoSchedule"))
        };
        let pod = |t: SimTime, name: &str| tl.at(t).pod("default", name).expect(name);
        let available = |t: SimTime| {
            let view = tl.at(t).machines().into_iter().find(|m| m.name == "node-1").expect("node-1");
            memory::available(&view.containers, &view.leaks, t)
        };
        let evicted = |t: SimTime, name: &str| pod(t, name).condition("DisruptionTarget").is_some();
        let (first, besteffort, high) = ("web-74fb665767-7slr6", "besteffort-dvndt", "priority-d7qfs");
        // Step 1: the high-priority Pod's priority, from its class.
        assert_eq!(pod(steps[0], high).spec.priority, 1_000_000);
        assert_eq!(&*pod(steps[0], besteffort).status.qos_class, "BestEffort");
        // Step 3: usage climbing, no pressure yet.
        assert!(available(steps[2]) < 12 * 1024 * memory::MI && available(steps[2]) > 100 * memory::MI);
        assert_eq!(pressure(steps[2]), ("False".to_string(), false), "{profile}");
        // Step 4: the first ranked is being evicted; the Node does not know yet.
        assert!(evicted(steps[3], first), "{profile}");
        assert!(!evicted(steps[3], high) && !evicted(steps[3], besteffort));
        assert_eq!(pressure(steps[3]).0, "False");
        // Step 5: Failed, Evicted; its replacement runs on node-2.
        let p = pod(steps[4], first);
        assert_eq!((&*p.status.phase, &*p.status.reason), ("Failed", "Evicted"));
        let on_2 = |t: SimTime| tl.at(t).pods_on("node-2").iter().filter(|p| p.status.phase == "Running").count();
        assert_eq!(on_2(steps[4]), 4, "{profile}: the replacement runs on node-2");
        // Step 6: the condition, then the controller's taint.
        assert_eq!(pressure(steps[5]), ("True".to_string(), true), "{profile}");
        // Step 7: the BestEffort Pod goes before the high-priority leak; step 8: the next round.
        assert!(evicted(steps[6], besteffort) && !evicted(steps[6], high), "{profile}");
        assert!(evicted(steps[7], high), "{profile} {steps:?}");
        assert!(steps[7].saturating_since(steps[6]) < std::time::Duration::from_secs(5), "{profile}: at once");
        // Step 9: a new Pod on node-2, node-1 still tainted.
        let demo = tl.at(steps[8]).pods().into_iter().find(|p| p.metadata.name.starts_with("demo-")).expect("demo");
        assert_eq!((demo.spec.node_name.as_str(), &*demo.status.phase), ("node-2", "Running"), "{profile}");
        assert_eq!(pressure(steps[8]), ("True".to_string(), true));
        // Step 10: memory to spare, pressure still reported.
        assert!(available(steps[9]) > 1024 * memory::MI);
        assert_eq!(pressure(steps[9]), ("True".to_string(), true), "{profile}");
        // Step 11: False, the taint off; the web Pods not leaking never moved.
        assert_eq!(pressure(steps[10]), ("False".to_string(), false), "{profile}");
        assert_eq!(&*pod(steps[10], "web-74fb665767-sx2s9").status.phase, "Running");
        let k8s = if profile == Profile::V1_34 { "1.34" } else { "1.31" };
        let path = stories().join("node-pressure.yaml");
        let json = nodeline(&["quiz", "--story", path.to_str().unwrap(), "--k8s", k8s, "-o", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        let q = &doc["questions"];
        assert_eq!(
            q[0]["answer"],
            serde_json::json!([
                "The kubelet evicts a Pod",
                "The Node's MemoryPressure condition turns True",
                "node-1 is tainted memory-pressure:NoSchedule"
            ])
        );
        assert_eq!(q[1]["answer"], "besteffort-dvndt, the BestEffort Pod using about 10Mi");
        let next = q[2]["answer"]["seconds"].as_f64().unwrap();
        assert!((1.0..=2.5).contains(&next), "{profile}: {next}");
        assert_eq!(q[3]["answer"], "node-2");
        let seconds = q[4]["answer"]["seconds"].as_f64().unwrap();
        assert!((300.0..=322.0).contains(&seconds), "{profile}: {seconds}");
    }
}

/// The page asks a story's questions as it asks a chapter's: read from the page's form, derived
/// from the story's timeline, answered and kept apart from any chapter's progress.
#[test]
fn the_page_asks_a_story_s_questions() {
    use nodeline::i18n::Lang;
    use nodeline::quiz::{Answer, Response};
    use nodeline::sim::{SimTime, Timeline};
    use nodeline::story::Questions;
    use nodeline::view::quiz::{QuizState, Value, result_text};

    let text = std::fs::read_to_string(stories().join("two-nodes-fail.yaml")).unwrap();
    let story = story::compact::read(&story::compact::write(&story::load(&text, None).unwrap())).unwrap();
    let questions = Questions::Story(&story.id, &story.questions);
    let mut tl = Timeline::from_scenario(story.scenario.clone(), story.config.clone(), &[]);
    tl.run_until(SimTime::ZERO + story.scenario.duration + std::time::Duration::from_secs(180));
    let derived = questions.derive_all(&tl);
    assert_eq!(derived.len(), 4);
    assert!(derived.iter().all(Option::is_some), "{derived:?}");
    // The choice question: answered wrong, then the progress and the embed's value say so.
    let d = derived[0].as_ref().unwrap();
    let Answer::Choice(right) = d.answer else { panic!("{:?}", d.answer) };
    let wrong = (right + 1) % questions.get(0).unwrap().option_count();
    let mut state = QuizState { enabled: true, ..QuizState::default() };
    assert!(!state.answer(questions, 0, d, Response::Choice(wrong)));
    assert_eq!(state.progress(questions).to_param().as_deref(), Some("w---"));
    assert_eq!(state.progress(Questions::Chapter(Chapter::NodeFailure)).to_param(), None, "a chapter's is apart");
    let answered = state.answered.clone().unwrap();
    assert_eq!(answered.id, story.questions[0].id);
    let label = nodeline::i18n::plain(story.questions[0].labels(Lang::En)[wrong]);
    assert_eq!(answered.value, Value::Text(label));
    let q = questions.get(0).unwrap();
    let said = result_text(Lang::En, q, d, false);
    assert!(said.starts_with("Not quite. The answer: "), "{said}");
    assert!(said.ends_with(&nodeline::i18n::plain(&q.why(Lang::En, d))), "{said}");
    // Japanese words where the story has them.
    assert_eq!(q.prompt(Lang::Ja, d), story.questions[0].prompt(Lang::Ja));
    assert_ne!(q.prompt(Lang::Ja, d), q.prompt(Lang::En, d));
    // The node question picks from the stage.
    let node = questions.iter().position(|q| q.kind() == nodeline::quiz::Kind::Node).unwrap();
    state.open = Some(nodeline::view::quiz::Open { index: node, result: None });
    assert!(state.picking_node(questions));
}

/// `listBefore` names a chapter, or is a located problem; the page's form keeps it.
#[test]
fn a_story_is_listed_before_the_chapter_it_names() {
    let text = std::fs::read_to_string(stories().join("tls-bootstrap.yaml")).unwrap();
    let loaded = story::load(&text, None).unwrap();
    assert_eq!(loaded.list_before, Some(Chapter::Registration));
    assert!(story::compact::write(&loaded).contains("\nlist-before=registration\n"));
    let markup = nodeline::view::stories::list_markup([&loaded]);
    assert!(markup.contains(" data-before=\"registration\""), "{markup}");
    let bad = text.replace("listBefore: registration", "listBefore: chapter-one");
    let problems = story::load(&bad, None).unwrap_err();
    let line = text.lines().position(|l| l.starts_with("listBefore:")).unwrap() as u64 + 1;
    assert_eq!(problems[0].line, line, "{problems:?}");
    assert!(
        problems[0]
            .message
            .starts_with("listBefore: there is no chapter \"chapter-one\"; the chapters are registration,"),
        "{problems:?}"
    );
}

/// A question's words quote the configuration the story runs with (`{k8s}`,
/// `{COMPONENT:SETTING}`): the story's own settings, and `--set`'s over them; a name that is not
/// a modelled setting is a located problem.
#[test]
fn why_quotes_the_configuration_the_story_runs_with() {
    let path = stories().join("two-nodes-fail.yaml");
    let file = path.to_str().unwrap();
    let written = nodeline(&["quiz", "--story", file]);
    assert!(
        written.stdout.contains(
            "10 s: each NoExecute taint takes a token from the zone's bucket, which refills at 0.1 per second"
        ),
        "{}",
        written.stdout
    );
    assert!(written.stdout.contains("--unhealthy-zone-threshold (0.55)"), "{}", written.stdout);
    let set = nodeline(&["quiz", "--story", file, "--set", "kube-controller-manager:node-eviction-rate=0.2"]);
    assert!(
        set.stdout.contains(
            "5 s: each NoExecute taint takes a token from the zone's bucket, which refills at 0.2 per second"
        ),
        "{}",
        set.stdout
    );
    let ja = nodeline(&["quiz", "--story", file, "--lang", "ja"]);
    assert!(ja.stdout.contains("毎秒 0.1 (--node-eviction-rate)"), "{}", ja.stdout);
    // A name that quotes nothing.
    let dir = std::env::temp_dir().join(format!("nodeline-story-quote-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("two-nodes-fail.yaml");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "{kube-controller-manager:unhealthy-zone-threshold}",
        "{kube-controller-manager:unhealthy-zone-treshold}",
    );
    std::fs::write(&bad, text).unwrap();
    let out = nodeline(&["story", "check", bad.to_str().unwrap()]);
    assert_eq!(out.code, EXIT_USAGE, "{out:?}");
    let line = out.stderr.lines().next().unwrap_or_default();
    assert!(line.starts_with(&format!("{}:", bad.display())), "{line}");
    assert!(
        line.ends_with(": question zone-state: why: {kube-controller-manager:unhealthy-zone-treshold}: kube-controller-manager has no flag \"unhealthy-zone-treshold\" that the simulation models (did you mean \"unhealthy-zone-threshold\"?)"),
        "{line}"
    );
    assert_eq!(out.stderr.lines().count(), 1, "once, though both languages quote it: {}", out.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// A fleet story's settings are the ones its fleet view says: the zone's tainting rate, and the
/// zone states it predicts, are the story's, not the defaults.
#[test]
fn a_fleet_story_s_view_follows_its_settings() {
    use nodeline::i18n::Lang;
    use nodeline::link::Link;
    use nodeline::view::fleet::{ControllerLines, Fleet, FleetIndex, zone_summary};
    use nodeline::view::session::Session;
    use nodeline::view::stories::Loaded;
    let text = std::fs::read_to_string(stories().join("zone-failover.yaml")).unwrap();
    let loaded = Loaded::keep(story::load(&text, None).unwrap());
    let link = Link { story: Some("zone-failover".into()), ..Link::default() };
    let mut session = Session::for_link(&link, Some(loaded));
    session.timeline.run_until(nodeline::sim::SimTime::ZERO + loaded.story.scenario.duration);
    // The step where the zone is FullDisruption, tainted at `--node-eviction-rate` 0.5.
    let at = session.timeline.steps()[3].expect("step 4").moment;
    let log = session.timeline.log();
    let fleet =
        Fleet::build(&FleetIndex::of(log), log, &ControllerLines::of(log), at, 1200.0, session.timeline.settings());
    let dark = fleet.zones.iter().find(|z| z.name == "eu-west-1b").unwrap();
    assert_eq!(dark.rate, 0.5, "{dark:?}");
    assert!(zone_summary(Lang::En, dark).contains("one node every 2 s"), "{}", zone_summary(Lang::En, dark));
}
