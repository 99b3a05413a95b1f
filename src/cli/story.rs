//! `nodeline story`: checks story files (`check`), writes them in the form the page reads
//! (`build`), prints their JSON Schema (`schema`) or a chapter as one (`export`); and reads the
//! story that `--story PATH` runs.

use std::path::Path;

use crate::sim::Chapter;
use crate::story::{self, Problem, Report, Story};

use super::args::StoryCommand;
use super::{EXIT_USAGE, Output};

pub(super) fn run(command: &StoryCommand) -> Output {
    match command {
        StoryCommand::Check { paths } => check(paths),
        StoryCommand::Build { paths, out } => build(paths, out.as_deref()),
        StoryCommand::Schema => Output::ok(story::schema(), Vec::new()),
        StoryCommand::Export { chapter, nodes, k8s } => Output::ok(story::export(*chapter, *nodes, *k8s), Vec::new()),
    }
}

/// Checks every file (a chapter's, `stories/CHAPTER.yaml`, also as a chapter): `PATH: ok` on
/// stdout for each good one, every problem of the others on
/// stderr, status 2 if any has one.
fn check(paths: &[std::path::PathBuf]) -> Output {
    let mut out = Output::default();
    for path in paths {
        // A chapter's own file is held to what a chapter may be, too.
        let chapter = |story: &Story| match Chapter::with_id(&story.id).is_some() {
            true => story::generate::held_to_a_chapter(story).map_err(|why| Output {
                stderr: format!("{}: {why}\n", path.display()),
                code: EXIT_USAGE,
                ..Output::default()
            }),
            false => Ok(()),
        };
        match read(path).and_then(|story| chapter(&story).map(|()| story)) {
            Ok(story) => out.stdout.push_str(&format!(
                "{}: ok: {}, {}, {}\n",
                path.display(),
                count(story.steps.len(), "step"),
                count(story.scenario.machines.len(), "machine"),
                count(story.scenario.script.len(), "action")
            )),
            Err(report) => {
                out.stderr.push_str(&report.stderr);
                out.code = EXIT_USAGE;
            }
        }
    }
    out
}

/// Checks every file and writes each good one as `ID.story` (into `out`, else beside it): `PATH ->
/// WRITTEN` on stdout for each, every problem of the others on stderr, status 2 if any has one
/// (nothing is written for a story with a problem).
fn build(paths: &[std::path::PathBuf], out_dir: Option<&Path>) -> Output {
    let mut out = Output::default();
    for path in paths {
        let story = match read(path) {
            Ok(story) => story,
            Err(report) => {
                out.stderr.push_str(&report.stderr);
                out.code = EXIT_USAGE;
                continue;
            }
        };
        let dir = out_dir.or_else(|| path.parent()).unwrap_or(Path::new("."));
        let target = dir.join(format!("{}.{}", story.id, story::compact::EXTENSION));
        match std::fs::write(&target, story::compact::write(&story)) {
            Ok(()) => out.stdout.push_str(&format!("{} -> {}\n", path.display(), target.display())),
            Err(e) => {
                out.stderr.push_str(&format!("{}: cannot write: {e}\n", target.display()));
                out.code = EXIT_USAGE;
            }
        }
    }
    out
}

/// `n things`, or `1 thing`.
fn count(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{n} {thing}s") }
}

/// The story file at `path`, checked; or its report (every problem, located), status 2.
pub(super) fn read(path: &Path) -> Result<Story, Output> {
    let file = path.display().to_string();
    let fail = |problems: &[Problem]| Output {
        stdout: String::new(),
        stderr: Report { file: &file, problems }.to_string(),
        code: EXIT_USAGE,
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| fail(&[Problem { line: 0, column: 0, message: format!("cannot read the story file: {e}") }]))?;
    // The file's name gives the id the story must have: `stories/two-nodes-fail.yaml`.
    let id = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".yaml"));
    story::load(&text, id).map_err(|problems| fail(&problems))
}
