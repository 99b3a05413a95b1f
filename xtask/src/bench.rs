//! `cargo xtask bench`: the page benchmark. Builds the release site and the minimal Leptos
//! baseline (`bench/minimal`, built the same way), serves both on 127.0.0.1, prints the first-load
//! bytes by kind, then drives headless Chromium (`tests/e2e/bench/bench.mjs`) for load, frame,
//! scrub and memory figures with ratios to the baseline. Results also go to
//! `target/bench/results.json`.

use crate::server::Server;
use crate::util::{Paths, Result, bail, cmd, run};
use crate::{build_site, install, size};

pub(crate) fn bench(paths: &Paths, skip_install: bool) -> Result<()> {
    if !skip_install {
        install::install(paths, install::Scope::Test)?;
    }
    build_site(paths)?;
    let out = paths.root.join("target").join("bench");
    let baseline = out.join("minimal-dist");
    let minimal = paths.root.join("bench").join("minimal");
    let mut c = cmd(paths, "trunk");
    c.args(["build", "--release", "--offline=true", "--dist"])
        .arg(&baseline)
        .current_dir(&minimal)
        .env("TRUNK_OFFLINE", "true");
    run(&mut c)?;
    if !baseline.join("index.html").is_file() {
        bail!("trunk finished but {} has no index.html", baseline.display());
    }

    println!("\n==> first load (files as built; gzip at zlib's default level)");
    let assets = size::first_load(&paths.dist)?;
    print!("{}", size::report(&assets));
    let (_, gz) = size::totals(&assets);
    if gz > size::BUDGET_GZIP {
        println!("NOT MET: {} bytes over the {}-byte budget", gz - size::BUDGET_GZIP, size::BUDGET_GZIP);
    }
    println!("\n==> baseline first load");
    print!("{}", size::report(&size::first_load(&baseline)?));

    // The app under its documented Content-Security-Policy, as embedders serve it.
    let app = Server::start("127.0.0.1:0", &paths.dist, &[], Some(crate::server::CSP))?;
    let base = Server::start("127.0.0.1:0", &baseline, &[], None)?;
    let json = out.join("results.json");
    println!("\n==> browser figures (headless Chromium; a few minutes)");
    let node = cmd(paths, "node")
        .arg(paths.e2e_dir.join("bench").join("bench.mjs"))
        .arg(app.url())
        .arg(base.url())
        .arg(&json)
        .current_dir(&paths.e2e_dir)
        .status();
    app.stop();
    base.stop();
    match node {
        Ok(s) if s.success() => {}
        Ok(s) => bail!("the browser benchmark failed ({s})"),
        Err(e) => bail!("cannot run node: {e}"),
    }
    println!("xtask: results in {}", json.display());
    Ok(())
}
