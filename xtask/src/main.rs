//! `cargo xtask`: the project's build, serve and test entry points.
//!
//! ```text
//! cargo xtask build  [--skip-install]
//! cargo xtask serve  [--port N] [--skip-install] [--no-build]
//! cargo xtask test   [--skip-install] [--e2e-only | --engines-only] [--no-build] [--grep PATTERN] [-- PLAYWRIGHT ARGS]
//! cargo xtask bundle [--skip-install] [--no-build] [--out DIR]
//! cargo xtask bench  [--skip-install] [--no-build] [--mobile-only [--page QUERY]... [--runs N] | --sim-only | --fleet-only]
//! ```
//!
//! Every command first installs what is missing (see `install.rs`), so a fresh machine with
//! rustup, cargo, node and npm needs nothing else. `cargo xtask help` prints the details.

mod archive;
mod bench;
mod bench_sim;
mod bundle;
mod chapters;
mod compress;
mod html;
mod install;
mod playwright;
mod server;
mod site;
mod size;
mod test;
mod test_engines;
mod util;

use std::process::ExitCode;

use util::{Paths, Result, bail, cmd, fmt_duration, run};

const USAGE: &str = "\
cargo xtask <command> [options]

Commands:
  build    Install missing tools, then build the release site into dist/ (with every step's still
           view, a static page a step for readers without JavaScript; the loader in a file of
           its own).
  serve    `build`, then serve dist/ on http://127.0.0.1:PORT/ (and under /docs/k8s/nodeline/),
           with the Content-Security-Policy the README documents.
             --port N       port to listen on (default 8080; 0 picks a free one)
             --no-build     serve the existing dist/ as it is
  test     Install tools and test dependencies, then run every check CI runs, in order,
           stopping at the first failure: fmt, clippy (native), clippy (wasm32), cargo test
           (native), wasm-bindgen tests in Chromium and in Firefox ESR, release build, first-load
           size, offline bundle, Playwright tests (served with the documented
           Content-Security-Policy), the cross-engine suite (Firefox ESR, WebKitGTK).
             --e2e-only     only build the site and run the browser tests (Playwright, then
                            the cross-engine suite in Firefox ESR and WebKitGTK)
             --engines-only only build the site and run the cross-engine suite
             --no-build     with --e2e-only or --engines-only: reuse the existing dist/
             --grep PATTERN only browser tests whose title matches PATTERN
             -- ARGS        anything after `--` goes to `playwright test` as is (Chromium suite)
                            (e.g. `-- --headed`, `-- specs/smoke.spec.ts`)
  bundle   `build`, then write the offline docs bundle into bundle/: nodeline-offline.zip (the
           site, the single file and a README for docs authors, in one folder) and
           nodeline.html (the whole app in one file that runs from file://).
             --no-build     bundle the existing dist/ as it is
             --out DIR      write into DIR instead of bundle/
  bench    Build the site, a minimal Leptos baseline and the size floor (the baseline plus
           everything that is not a view), then print the page's figures: first-load bytes
           by kind (raw, gzip), time to interactive, frame cost while playing (1x, 60x),
           scrub time, memory after a simulated hour, and ratios to the baseline; then
           Lighthouse's mobile figures (slow 4G, 4x CPU; median of 5) for the first step of
           every chapter and the baseline, served with gzip, and the bytes fetched before the
           page is interactive (gzip, brotli). Also written to target/bench/results.json.
           Last, the simulation's 1,000-node hour built in the page's wasm beside natively.
             --no-build     reuse dist/ and the pages already built in target/bench/
             --mobile-only  only the phone figures (Lighthouse, bytes before interactive)
             --sim-only     only the simulation's figures: the 1,000-node hour built in the
                            page's wasm (bench/simwasm, headless Chromium) and natively
             --fleet-only   only the fleet chapter's figures at 150 and 1,000 nodes
             --page QUERY   with --mobile-only: Lighthouse on this page only (a query such as
                            `?chapter=zone-outage&nodes=1000`; repeat for several)
             --runs N       with --mobile-only: Lighthouse runs per page (default 5; the median)
  help     Print this help.

Options for every command:
  --skip-install   do not check or install tools (fast iteration when they are known good)

Examples:
  cargo xtask test
  cargo xtask test --e2e-only --grep \"Play toggles\"
  cargo xtask test --e2e-only --no-build --skip-install -- --repeat-each 5
  cargo xtask serve --port 9000
  cargo xtask bundle --out /tmp/nodeline

Environment:
  NODELINE_DIST=DIR     build, serve and test DIR instead of dist/ (the bundle then goes to DIR-bundle)
  NODELINE_BUNDLE=DIR   where `bundle` and the tests write the offline bundle
";

/// Parsed command line.
#[derive(Debug, Default)]
struct Options {
    skip_install: bool,
    port: Option<u16>,
    no_build: bool,
    e2e_only: bool,
    /// Like `e2e_only`, without the Playwright (Chromium) tests: only the cross-engine suite.
    engines_only: bool,
    grep: Option<String>,
    playwright_args: Vec<String>,
    out: Option<std::path::PathBuf>,
    mobile_only: bool,
    sim_only: bool,
    fleet_only: bool,
    pages: Vec<String>,
    runs: Option<u32>,
}

fn parse(command: &str, args: &[String]) -> Result<Options> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| util::Error(format!("{name} needs a value")));
        match (command, arg.as_str()) {
            (_, "--skip-install") => o.skip_install = true,
            ("serve" | "test" | "bundle" | "bench", "--no-build") => o.no_build = true,
            ("bench", "--mobile-only") => o.mobile_only = true,
            ("bench", "--sim-only") => o.sim_only = true,
            ("bench", "--fleet-only") => o.fleet_only = true,
            ("bench", "--page") => o.pages.push(value("--page")?),
            ("bench", "--runs") => {
                let v = value("--runs")?;
                o.runs = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| util::Error(format!("--runs: not a positive count: {v}")))?,
                );
            }
            ("bundle", "--out") => o.out = Some(value("--out")?.into()),
            ("bundle", a) if a.starts_with("--out=") => o.out = Some(a["--out=".len()..].into()),
            ("serve", "--port") => {
                let v = value("--port")?;
                o.port = Some(v.parse().map_err(|_| util::Error(format!("--port: not a port number: {v}")))?);
            }
            ("serve", a) if a.starts_with("--port=") => {
                let v = &a["--port=".len()..];
                o.port = Some(v.parse().map_err(|_| util::Error(format!("--port: not a port number: {v}")))?);
            }
            ("test", "--e2e-only") => o.e2e_only = true,
            ("test", "--engines-only") => (o.e2e_only, o.engines_only) = (true, true),
            ("test", "--grep" | "-g") => o.grep = Some(value("--grep")?),
            ("test", a) if a.starts_with("--grep=") => o.grep = Some(a["--grep=".len()..].to_owned()),
            ("test", "--") => {
                o.playwright_args = it.by_ref().cloned().collect();
            }
            (_, a) => bail!("unknown option for `{command}`: {a}\n\n{USAGE}"),
        }
    }
    if command == "bench" && (!o.pages.is_empty() || o.runs.is_some()) && !o.mobile_only {
        bail!("`--page` and `--runs` only make sense with `--mobile-only`");
    }
    if command == "test" && o.no_build && !o.e2e_only {
        bail!("`--no-build` only makes sense with `--e2e-only`");
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    // The chapters are compiled from their story files first; if that changed the sources, this
    // build of xtask tells the old chapters, and a new one runs the command.
    if !matches!(command.as_str(), "help" | "--help" | "-h") {
        match chapters::compile(&Paths::new().root) {
            Ok(false) => {}
            Ok(true) => {
                return match chapters::run_again(&args) {
                    Ok(status) if status.success() => ExitCode::SUCCESS,
                    Ok(_) => ExitCode::FAILURE,
                    Err(e) => {
                        eprintln!("xtask: error: {e}");
                        ExitCode::FAILURE
                    }
                };
            }
            Err(e) => {
                eprintln!("xtask: error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let result = match command.as_str() {
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        "build" | "serve" | "test" | "bundle" => match parse(command, rest) {
            Ok(o) => match command.as_str() {
                "build" => build_cmd(&o),
                "serve" => serve_cmd(&o),
                "bundle" => bundle_cmd(&o),
                _ => test::run_all(&o),
            },
            Err(e) => Err(e),
        },
        "bench" => parse(command, rest).and_then(|o| {
            let (mobile_only, sim_only, fleet_only) = (o.mobile_only, o.sim_only, o.fleet_only);
            bench::bench(
                &Paths::new(),
                bench::Options {
                    skip_install: o.skip_install,
                    no_build: o.no_build,
                    mobile_only,
                    sim_only,
                    fleet_only,
                    pages: o.pages,
                    runs: o.runs,
                },
            )
        }),
        other => Err(util::Error(format!("unknown command: {other}\n\n{USAGE}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Builds the release site into `dist/` with trunk (offline: tools and crates are local), then
/// finishes it (`site::finish`: the still views and static pages in, the loader out, the pages
/// checked) and writes the
/// precompressed copies (`compress::precompress`: `NAME.gz` and `NAME.br` beside each file).
pub(crate) fn build_site(paths: &Paths) -> Result<()> {
    let mut c = cmd(paths, "trunk");
    c.args(["build", "--release", "--offline=true", "--dist"]).arg(&paths.dist).env("TRUNK_OFFLINE", "true");
    run(&mut c)?;
    if !paths.dist.join("index.html").is_file() {
        bail!("trunk finished but {} has no index.html", paths.dist.display());
    }
    site::finish(&paths.dist, &paths.root.join("stories"))?;
    compress::precompress(&paths.dist)?;
    Ok(())
}

/// Writes the offline bundle from the built site, and says where.
pub(crate) fn bundle_site(dist: &std::path::Path, out: &std::path::Path) -> Result<bundle::Bundle> {
    let b = bundle::make(dist, out)?;
    for path in [&b.archive, &b.single_file] {
        let len = std::fs::metadata(path)?.len();
        println!("xtask: wrote {} ({} KB)", path.display(), len.div_ceil(1000));
    }
    Ok(b)
}

/// Builds the site (unless `--no-build`) and checks there is one to use.
fn built_site(o: &Options) -> Result<Paths> {
    let paths = Paths::new();
    if !o.no_build {
        if !o.skip_install {
            install::install(&paths, install::Scope::Build)?;
        }
        build_site(&paths)?;
    }
    if !paths.dist.join("index.html").is_file() {
        bail!("{} has no index.html: run without --no-build", paths.dist.display());
    }
    Ok(paths)
}

fn bundle_cmd(o: &Options) -> Result<()> {
    let paths = built_site(o)?;
    bundle_site(&paths.dist, o.out.as_deref().unwrap_or(&paths.bundle))?;
    Ok(())
}

fn build_cmd(o: &Options) -> Result<()> {
    let paths = Paths::new();
    let start = std::time::Instant::now();
    if !o.skip_install {
        install::install(&paths, install::Scope::Build)?;
    }
    build_site(&paths)?;
    println!("xtask: built {} in {}", paths.dist.display(), fmt_duration(start.elapsed()));
    Ok(())
}

fn serve_cmd(o: &Options) -> Result<()> {
    let paths = built_site(o)?;
    let port = o.port.unwrap_or(8080);
    let server =
        server::Server::start(&format!("127.0.0.1:{port}"), &paths.dist, &[server::DOCS_PREFIX], Some(server::CSP))
            .map_err(|e| util::Error(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let url = server.url();
    println!("xtask: serving {} at {url}", paths.dist.display());
    println!("xtask: also at {}{} (press Ctrl-C to stop)", url.trim_end_matches('/'), server::DOCS_PREFIX);
    server.wait();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| (*a).to_owned()).collect()
    }

    #[test]
    fn parses_test_options() {
        let o =
            parse("test", &args(&["--e2e-only", "--grep", "Play", "--skip-install", "--", "--headed", "x"])).unwrap();
        assert!(o.e2e_only && o.skip_install);
        assert_eq!(o.grep.as_deref(), Some("Play"));
        assert_eq!(o.playwright_args, args(&["--headed", "x"]));
        let o = parse("test", &args(&["--engines-only", "--no-build"])).unwrap();
        assert!(o.e2e_only && o.engines_only && o.no_build);
    }

    #[test]
    fn parses_serve_port() {
        assert_eq!(parse("serve", &args(&["--port", "9000"])).unwrap().port, Some(9000));
        assert_eq!(parse("serve", &args(&["--port=0"])).unwrap().port, Some(0));
        assert!(parse("serve", &args(&["--port", "x"])).is_err());
        assert!(parse("serve", &args(&["--port"])).is_err());
    }

    #[test]
    fn rejects_unknown_and_misplaced_options() {
        assert!(parse("build", &args(&["--port", "1"])).is_err());
        assert!(parse("build", &args(&["--grep", "x"])).is_err());
        assert!(parse("test", &args(&["--no-build"])).is_err());
        assert!(parse("test", &args(&["--bogus"])).is_err());
        assert!(parse("build", &args(&["--out", "x"])).is_err());
    }

    #[test]
    fn parses_bench_pages() {
        let o = parse(
            "bench",
            &args(&["--mobile-only", "--page", "?chapter=zone-outage", "--page", "?embed=1", "--runs", "3"]),
        )
        .unwrap();
        assert_eq!(o.pages, args(&["?chapter=zone-outage", "?embed=1"]));
        assert_eq!(o.runs, Some(3));
        assert!(parse("bench", &args(&["--page", "?chapter=zone-outage"])).is_err(), "only with --mobile-only");
        assert!(parse("bench", &args(&["--mobile-only", "--runs", "0"])).is_err());
        assert!(parse("bench", &args(&["--mobile-only", "--page"])).is_err());
    }

    #[test]
    fn parses_bundle_options() {
        let o = parse("bundle", &args(&["--no-build", "--out", "/tmp/b"])).unwrap();
        assert!(o.no_build);
        assert_eq!(o.out.as_deref(), Some(std::path::Path::new("/tmp/b")));
        assert_eq!(parse("bundle", &args(&["--out=x"])).unwrap().out.as_deref(), Some(std::path::Path::new("x")));
        assert!(parse("bundle", &args(&["--out"])).is_err());
    }
}
