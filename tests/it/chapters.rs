//! The built-in chapters are their story files: `stories/ID.yaml` compiled into the page and the
//! CLI (`nodeline::story::generate`). The compiled sources must be what the files give: `cargo
//! xtask build` rewrites them, and so does `NODELINE_BLESS=1 cargo test --test it chapters::`.
//! Each chapter's file, run as a story, prints its golden byte for byte.

use std::path::PathBuf;

use nodeline::cli::{Output, run};
use nodeline::sim::Chapter;
use nodeline::story::generate::{self, SCENARIOS, WORDS};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn nodeline(args: &[&str]) -> Output {
    run(std::iter::once("nodeline").chain(args.iter().copied()))
}

#[test]
fn the_compiled_chapters_are_their_story_files() {
    let compiled = generate::chapters(&root().join("stories")).unwrap_or_else(|report| panic!("{report}"));
    for (path, text) in [(SCENARIOS, &compiled.scenarios), (WORDS, &compiled.words)] {
        let on_disk = root().join(path);
        if std::env::var("NODELINE_BLESS").is_ok_and(|v| v == "1") {
            std::fs::write(&on_disk, text).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        let was = std::fs::read_to_string(&on_disk).unwrap_or_default();
        assert!(
            was == *text,
            "{path} is not what stories/ gives: `cargo xtask build` or `NODELINE_BLESS=1 cargo test --test it chapters::` rewrites it"
        );
    }
}

/// `nodeline timeline --story stories/ID.yaml` prints what `--chapter ID` prints, and that is
/// the chapter's golden (`cli::` holds the fleet chapter's, a controller's view of it, at two
/// sizes).
#[test]
fn every_chapter_file_prints_its_golden() {
    for chapter in Chapter::ALL {
        let file = root().join("stories").join(format!("{}.yaml", chapter.id()));
        let story = nodeline(&["timeline", "--story", file.to_str().unwrap()]);
        assert_eq!(story.code, 0, "{chapter}: {}", story.stderr);
        let by_id = nodeline(&["timeline", "--chapter", chapter.id()]);
        assert!(story.stdout.len() > 1000 && story.stdout == by_id.stdout, "{chapter}: --story and --chapter differ");
        if !chapter.is_fleet() {
            let golden = root().join("tests/golden").join(format!("{}.jsonl", chapter.id()));
            let want = std::fs::read_to_string(&golden).unwrap();
            assert!(story.stdout == want, "{chapter}: --story {} differs from {}", file.display(), golden.display());
        }
    }
}

/// A story's fleet is told at another size by the fleet chapter's rules: the chapter's file at
/// `--nodes 30` is the chapter at 30 nodes; without `--nodes`, the size the file writes.
#[test]
fn a_fleet_story_at_another_size_is_the_chapter_at_that_size() {
    let file = root().join("stories/zone-outage.yaml");
    let until = ["--until", "6m"];
    let story = |nodes: &[&str]| {
        let mut args = vec!["timeline", "--story", file.to_str().unwrap()];
        args.extend(nodes);
        args.extend(until);
        nodeline(&args)
    };
    let chapter = |nodes: &str| nodeline(&["timeline", "--chapter", "zone-outage", "--nodes", nodes, "--until", "6m"]);
    let small = story(&["--nodes", "30"]);
    assert_eq!(small.code, 0, "{}", small.stderr);
    assert!(small.stdout == chapter("30").stdout, "--story --nodes 30 and --chapter --nodes 30 differ");
    assert!(small.stdout != story(&[]).stdout, "--nodes changes the story");
    assert!(story(&[]).stdout == chapter("150").stdout, "as written: 150 nodes");
    // `quiz` links each question to its stop at that size.
    let quiz = nodeline(&["quiz", "--chapter", "zone-outage", "--nodes", "30"]);
    assert_eq!(quiz.code, 0, "{}", quiz.stderr);
    assert!(quiz.stdout.contains("?chapter=zone-outage&step=2&nodes=30&lang=en&quiz=1"), "{}", quiz.stdout);
}

/// A chapter's file that breaks the rules of a chapter is refused by name, with its place.
#[test]
fn a_chapter_file_that_cannot_be_a_chapter_is_refused() {
    let dir = std::env::temp_dir().join(format!("nodeline-chapters-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for chapter in Chapter::ALL {
        std::fs::copy(
            root().join("stories").join(format!("{}.yaml", chapter.id())),
            dir.join(format!("{}.yaml", chapter.id())),
        )
        .unwrap();
    }
    let path = dir.join("node-failure.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("  ja: Node の障害と Pod の復旧\n", "", 1)).unwrap();
    let placed = dir.join("kubelet-restart.yaml");
    let text = std::fs::read_to_string(&placed).unwrap();
    std::fs::write(&placed, text.replacen("duration:", "listBefore: registration\nduration:", 1)).unwrap();
    let settings = dir.join("maintenance.yaml");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, text.replacen("duration:", "k8s: \"1.31\"\nduration:", 1)).unwrap();
    std::fs::remove_file(dir.join("registration.yaml")).unwrap();
    let report = generate::chapters(&dir).expect_err("four broken chapters");
    let shown = |name: &str| dir.join(name).display().to_string();
    assert!(
        report.contains(&format!("{}: the chapter's story file cannot be read", shown("registration.yaml"))),
        "{report}"
    );
    // The story file's own problems, located; then what a chapter cannot be.
    assert!(report.contains(&format!("{}:4:3: title: no ja", shown("node-failure.yaml"))), "{report}");
    assert!(report.contains(&format!("{}: a chapter has its place", shown("kubelet-restart.yaml"))), "{report}");
    assert!(report.contains(&format!("{}: a chapter sets no k8s version", shown("maintenance.yaml"))), "{report}");
    // `story check` holds a chapter's file to the same.
    let out = nodeline(&["story", "check", settings.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stderr,
        format!(
            "{}: a chapter sets no k8s version and no settings: the reader chooses them\n",
            shown("maintenance.yaml")
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}
