//! The browser engines besides Chromium: the wasm unit tests in Firefox ESR (geckodriver), and
//! the cross-engine suite (`tests/e2e/engines/`) in Firefox ESR and WebKitGTK over WebDriver.

use crate::Options;
use crate::install::{self, FIREFOX, WEBKITDRIVER};
use crate::server::{CSP, DOCS_PREFIX, Server};
use crate::test::WASM;
use crate::util::{Paths, Result, bail, cargo, cmd, run};

/// `cargo test --target wasm32-unknown-unknown` with wasm-bindgen-test-runner driving Debian's
/// Firefox ESR (headless) through geckodriver; the browser is named in a `webdriver.json` the
/// runner reads, so nothing looks for another Firefox.
pub(crate) fn wasm_in_firefox(paths: &Paths) -> Result<()> {
    let dir = paths.root.join("target").join("nodeline-webdriver");
    std::fs::create_dir_all(&dir)?;
    let capabilities = dir.join("firefox.json");
    std::fs::write(&capabilities, format!("{{\"moz:firefoxOptions\": {{\"binary\": \"{FIREFOX}\"}}}}\n"))?;
    run(cargo(paths)
        .args(["test", "--target", WASM, "--lib", "--tests"])
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER", "wasm-bindgen-test-runner")
        .env("GECKODRIVER", install::geckodriver())
        .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &capabilities)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "120"))
}

/// Serves `dist/` with the documented Content-Security-Policy (plus a `report-uri`, so every
/// violation any engine reports reaches this process) and runs the cross-engine suite
/// (`tests/e2e/engines.config.ts`: Playwright as the test runner, the browsers over WebDriver).
/// Fails if a test fails or if any violation was reported.
pub(crate) fn cross_engine(paths: &Paths, o: &Options) -> Result<()> {
    if !paths.dist.join("index.html").is_file() {
        bail!("{} has no index.html: build first", paths.dist.display());
    }
    let Some(minibrowser) = install::minibrowser() else {
        bail!("WebKitGTK's MiniBrowser is missing: run without --skip-install");
    };
    let (server, reports) = Server::start_reporting("127.0.0.1:0", &paths.dist, &[DOCS_PREFIX], CSP)?;
    let base_url = server.url();
    println!("xtask: serving {} at {base_url} for Firefox ESR and WebKitGTK", paths.dist.display());

    let playwright = paths.e2e_dir.join("node_modules").join(".bin").join("playwright");
    let mut c = cmd(paths, &playwright);
    c.args(["test", "--config", "engines.config.ts"])
        .current_dir(&paths.e2e_dir)
        .env("BASE_URL", &base_url)
        .env("NODELINE_BUNDLE_DIR", &paths.bundle)
        .env("NODELINE_FIREFOX", FIREFOX)
        .env("NODELINE_GECKODRIVER", install::geckodriver())
        .env("NODELINE_WEBKITDRIVER", WEBKITDRIVER)
        .env("NODELINE_MINIBROWSER", &minibrowser)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    if let Some(g) = &o.grep {
        // A pattern that names only Chromium specs matches nothing here, and that is no failure.
        c.args(["--grep", g, "--pass-with-no-tests"]);
    }
    let report = paths.e2e_dir.join("test-results").join("engines").join("results.json");
    crate::test::forget_report(&report);
    let result = run(&mut c);
    server.stop();
    crate::test::with_failures(result, &report)?;
    // The suite provokes one violation per engine on purpose (to prove reports arrive); those
    // carry the marker below in their page address. Anything else is a real violation.
    let reported = reports.lock().map_err(|_| crate::util::Error("report list poisoned".into()))?.clone();
    let real: Vec<_> = reported.iter().filter(|(_, r)| !r.contains(PROVOKED)).collect();
    if !real.is_empty() {
        let list: Vec<String> = real.iter().map(|(agent, report)| format!("  {agent}: {report}")).collect();
        bail!("Content-Security-Policy violations reported:\n{}", list.join("\n"));
    }
    Ok(())
}

/// In the address of the page where the suite breaks the policy on purpose.
const PROVOKED: &str = "csp-provoked";
