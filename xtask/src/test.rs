//! `cargo xtask test`: every check CI runs, in order, stopping at the first failure, with a
//! summary line and the time of each stage at the end.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::install::{self, CHROMEDRIVER};
use crate::server::{CSP, DOCS_PREFIX, Server};
use crate::test_engines;
use crate::util::{Paths, Result, cargo, cmd, fmt_duration, run};
use crate::{Options, build_site, bundle_site};

pub(crate) const WASM: &str = "wasm32-unknown-unknown";

/// One named step of the pipeline.
type Stage<'a> = (&'static str, Box<dyn Fn() -> Result<()> + 'a>);

#[derive(Debug)]
enum Outcome {
    Passed(Duration),
    Failed(Duration, String),
    NotRun,
}

/// Runs the stages; prints a summary whatever happens.
pub(crate) fn run_all(o: &Options) -> Result<()> {
    let paths = Paths::new();
    let mut stages: Vec<Stage<'_>> = Vec::new();

    if !o.skip_install {
        stages.push((
            "install tools and test dependencies",
            Box::new(|| install::install(&paths, install::Scope::Test).map(|_| ())),
        ));
    }
    if !o.e2e_only {
        stages.push(("cargo fmt --check", Box::new(|| run(cargo(&paths).args(["fmt", "--all", "--", "--check"])))));
        stages.push((
            "clippy (native)",
            Box::new(|| run(cargo(&paths).args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))),
        ));
        stages.push((
            "clippy (wasm32)",
            Box::new(|| {
                run(cargo(&paths)
                    .args(["clippy", "--target", WASM, "--lib", "--bins", "--tests", "--", "-D", "warnings"]))
            }),
        ));
        stages.push((
            "cargo test (native)",
            Box::new(|| {
                // The schema test must run in CI, with the virtualenv the install stage made.
                run(cargo(&paths)
                    .args(["test", "--workspace"])
                    .env("NODELINE_REQUIRE_SCHEMA", "1")
                    .env("NODELINE_REQUIRE_KUBECTL", "1")
                    .env("NODELINE_PYTHON", install::test_python(&paths)))
            }),
        ));
        stages.push((
            "cargo test (wasm32, Chromium)",
            Box::new(|| {
                run(cargo(&paths)
                    .args(["test", "--target", WASM, "--lib", "--tests"])
                    .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER", "wasm-bindgen-test-runner")
                    .env("CHROMEDRIVER", CHROMEDRIVER)
                    .env("WASM_BINDGEN_TEST_TIMEOUT", "120"))
            }),
        ));
        stages.push(("cargo test (wasm32, Firefox ESR)", Box::new(|| test_engines::wasm_in_firefox(&paths))));
    }
    if !o.no_build {
        stages.push(("release build (trunk)", Box::new(|| build_site(&paths))));
    }
    if !o.e2e_only {
        stages.push((
            "first-load size (budget 250 KB gzip before interactive; regression ceiling)",
            Box::new(|| crate::size::check(&paths.dist)),
        ));
    }
    stages.push((
        "offline bundle (nodeline.html, nodeline-offline.zip)",
        Box::new(|| bundle_site(&paths.dist, &paths.bundle).map(|_| ())),
    ));
    if !o.engines_only {
        stages.push(("browser tests (Playwright)", Box::new(|| e2e(&paths, o))));
    }
    stages.push((
        "cross-engine browser tests (Firefox ESR, WebKitGTK)",
        Box::new(|| test_engines::cross_engine(&paths, o)),
    ));

    let total = Instant::now();
    let mut outcomes: Vec<(&str, Outcome)> = Vec::new();
    let mut failed = false;
    for (name, stage) in &stages {
        if failed {
            outcomes.push((name, Outcome::NotRun));
            continue;
        }
        println!("\n==> xtask test: {name}");
        let start = Instant::now();
        match stage() {
            Ok(()) => {
                let d = start.elapsed();
                println!("==> PASS {name} ({})", fmt_duration(d));
                outcomes.push((name, Outcome::Passed(d)));
            }
            Err(e) => {
                let d = start.elapsed();
                println!("==> FAIL {name} ({}): {e}", fmt_duration(d));
                outcomes.push((name, Outcome::Failed(d, e.0)));
                failed = true;
            }
        }
    }

    let passed = outcomes.iter().filter(|(_, o)| matches!(o, Outcome::Passed(_))).count();
    let n_failed = outcomes.iter().filter(|(_, o)| matches!(o, Outcome::Failed(..))).count();
    println!("\n==> xtask test summary");
    for (name, outcome) in &outcomes {
        match outcome {
            Outcome::Passed(d) => println!("  PASS  {:>9}  {name}", fmt_duration(*d)),
            Outcome::Failed(d, e) => println!("  FAIL  {:>9}  {name}: {e}", fmt_duration(*d)),
            Outcome::NotRun => println!("  ----  {:>9}  {name} (not run)", ""),
        }
    }
    println!("  total {:>9}", fmt_duration(total.elapsed()));
    println!("stages: {passed} passed, {n_failed} failed");
    if let Some((name, _)) = outcomes.iter().find(|(_, o)| matches!(o, Outcome::Failed(..))) {
        crate::util::bail!("stage failed: {name}");
    }
    Ok(())
}

/// Serves `dist/` on an ephemeral port in this process, with the documented
/// Content-Security-Policy, and runs Playwright against it (the offline bundle's folder goes to
/// the specs in `NODELINE_BUNDLE_DIR`).
fn e2e(paths: &Paths, o: &Options) -> Result<()> {
    if !paths.dist.join("index.html").is_file() {
        crate::util::bail!("{} has no index.html: build first", paths.dist.display());
    }
    let server = Server::start("127.0.0.1:0", &paths.dist, &[DOCS_PREFIX], Some(CSP))?;
    let base_url = server.url();
    println!("xtask: serving {} at {base_url} (and under {DOCS_PREFIX})", paths.dist.display());

    let playwright = paths.e2e_dir.join("node_modules").join(".bin").join("playwright");
    let mut c = cmd(paths, &playwright);
    c.arg("test")
        .current_dir(&paths.e2e_dir)
        .env("BASE_URL", &base_url)
        .env("NODELINE_BUNDLE_DIR", &paths.bundle)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    if let Some(g) = &o.grep {
        c.args(["--grep", g]);
    }
    c.args(&o.playwright_args);
    let report = paths.e2e_dir.join("test-results").join("results.json");
    forget_report(&report);
    let result = run(&mut c);
    server.stop();
    with_failures(result, &report)
}

/// Removes an earlier run's JSON report, so that a run that fails before writing its own names
/// no failures of the past.
pub(crate) fn forget_report(report: &Path) {
    // Absent is the usual case.
    let _ = std::fs::remove_file(report);
}

/// A Playwright run's result, its error naming the failed tests and their errors (read from the
/// suite's JSON report), so that they are at the end of the output with the summary.
pub(crate) fn with_failures(result: Result<()>, report: &Path) -> Result<()> {
    let Err(e) = result else { return Ok(()) };
    let failed = crate::playwright::failures(report);
    if failed.is_empty() {
        return Err(e);
    }
    crate::util::bail!("{e}; failed:\n{}", failed.join("\n"))
}
