//! `cargo xtask bench`: the page benchmark. Builds the release site, the minimal Leptos baseline
//! (`bench/minimal`) and the size floor (`bench/floor`: the baseline plus everything of nodeline
//! that is not a view), all the same way; prints their first-load bytes by kind; then serves the
//! site and the baseline on 127.0.0.1 and drives headless Chromium (`tests/e2e/bench/bench.mjs`)
//! for load, frame, scrub and memory figures with ratios to the baseline. Results also go to
//! `target/bench/results.json`.

use std::path::{Path, PathBuf};

use crate::server::Server;
use crate::util::{Paths, Result, bail, cmd, run};
use crate::{build_site, install, size};

pub(crate) fn bench(paths: &Paths, skip_install: bool) -> Result<()> {
    if !skip_install {
        install::install(paths, install::Scope::Test)?;
    }
    build_site(paths)?;
    let out = paths.root.join("target").join("bench");
    let baseline = build_page(paths, "minimal", &out)?;
    let floor = build_page(paths, "floor", &out)?;

    println!("\n==> first load (files as built; gzip at zlib's default level)");
    let assets = size::first_load(&paths.dist)?;
    print!("{}", size::report(&assets));
    let (_, gz) = size::totals(&assets);
    if gz > size::BUDGET_GZIP {
        println!("NOT MET: {} bytes over the {}-byte budget", gz - size::BUDGET_GZIP, size::BUDGET_GZIP);
    }
    println!("\n==> baseline first load");
    print!("{}", size::report(&size::first_load(&baseline)?));
    println!("\n==> size floor: the baseline plus the simulation, renderers and catalogues, no views");
    let floor_assets = size::first_load(&floor)?;
    print!("{}", size::report(&floor_assets));
    // The floor page has no stylesheet and an empty document: add the site's own HTML and CSS.
    let page: u64 = assets.iter().filter(|a| matches!(a.kind, "html" | "css")).map(|a| a.gzip).sum();
    let code: u64 = floor_assets.iter().filter(|a| matches!(a.kind, "js" | "wasm")).map(|a| a.gzip).sum();
    println!(
        "floor's wasm + js {code} and the site's html + css {page}: {} gzip before any component (budget {})",
        code + page,
        size::BUDGET_GZIP
    );

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

/// Builds `bench/<name>` with trunk, exactly like the site, into `target/bench/<name>-dist`.
fn build_page(paths: &Paths, name: &str, out: &Path) -> Result<PathBuf> {
    let dist = out.join(format!("{name}-dist"));
    let mut c = cmd(paths, "trunk");
    c.args(["build", "--release", "--offline=true", "--dist"])
        .arg(&dist)
        .current_dir(paths.root.join("bench").join(name))
        .env("TRUNK_OFFLINE", "true");
    run(&mut c)?;
    if !dist.join("index.html").is_file() {
        bail!("trunk finished but {} has no index.html", dist.display());
    }
    Ok(dist)
}
