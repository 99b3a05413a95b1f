//! `cargo xtask bench`: the page benchmark. Builds the release site, the minimal Leptos baseline
//! (`bench/minimal`) and the size floor (`bench/floor`: the baseline plus everything of nodeline
//! that is not a view), all the same way; prints their first-load bytes by kind; then serves the
//! site and the baseline on 127.0.0.1 and drives headless Chromium (`tests/e2e/bench/bench.mjs`)
//! for load, frame, scrub and memory figures with ratios to the baseline, and Lighthouse with its
//! default mobile settings (simulated slow 4G, 4x CPU slowdown) on the first step of every chapter
//! and on the baseline, both served with gzip, median of 5 runs, with the bytes the page fetched
//! before it was interactive (gzip and brotli); `--page QUERY` (repeated) with `--mobile-only`
//! runs Lighthouse on those pages alone, `--runs N` times each, with each run's long tasks.
//! Results also go to `target/bench/results.json`.
//! Last, the simulation's own figures: the 1,000-node hour built in the page's wasm beside the
//! native build (`bench_sim.rs`).

use std::path::{Path, PathBuf};

use crate::server::{Accept, Server};
use crate::util::{Paths, Result, bail, cmd, run};
use crate::{build_site, install, size};

/// What `cargo xtask bench` measures.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    pub(crate) skip_install: bool,
    /// Reuse `dist/` and the baseline and floor already built into `target/bench/`.
    pub(crate) no_build: bool,
    /// Only the phone figures (Lighthouse and the bytes before interactive).
    pub(crate) mobile_only: bool,
    /// Only the simulation's figures (the 1,000-node hour in the page's wasm and natively).
    pub(crate) sim_only: bool,
    /// Only the fleet chapter's figures (`tests/e2e/bench/fleet.mjs`).
    pub(crate) fleet_only: bool,
    /// With `mobile_only`: Lighthouse on these pages only (queries, `?chapter=…`), nothing else.
    pub(crate) pages: Vec<String>,
    /// With `mobile_only`: Lighthouse runs per page (the median is printed; default 5).
    pub(crate) runs: Option<u32>,
}

pub(crate) fn bench(paths: &Paths, o: Options) -> Result<()> {
    if !o.skip_install {
        install::install(paths, install::Scope::Test)?;
    }
    let out = paths.root.join("target").join("bench");
    // With --no-build, the pages in target/bench/ are reused when they are there.
    let page = |name: &str| {
        let dir = out.join(format!("{name}-dist"));
        if o.no_build && dir.join("index.html").is_file() { Ok(dir) } else { build_page(paths, name, &out) }
    };
    if o.sim_only {
        return crate::bench_sim::bench(paths, &page("simwasm")?);
    }
    if o.no_build {
        if !paths.dist.join("index.html").is_file() {
            bail!("{} is not built: run without --no-build", paths.dist.display());
        }
    } else {
        build_site(paths)?;
    }
    // Named pages are measured alone: no baseline (the site stands in for it, unused).
    let baseline = if o.pages.is_empty() { page("minimal")? } else { paths.dist.clone() };
    let floor = if o.mobile_only || o.fleet_only { None } else { Some(page("floor")?) };
    let simwasm = if o.mobile_only || o.fleet_only { None } else { Some(page("simwasm")?) };

    println!("\n==> first load (files as built; gzip at zlib's default level)");
    let assets = size::first_load(&paths.dist)?;
    print!("{}", size::report(&assets));
    let (_, gz) = size::totals(&assets);
    if gz > size::BUDGET_GZIP {
        println!("NOT MET: {} bytes over the {}-byte budget", gz - size::BUDGET_GZIP, size::BUDGET_GZIP);
    }
    if o.pages.is_empty() {
        println!("\n==> baseline first load");
        print!("{}", size::report(&size::first_load(&baseline)?));
    }
    if let Some(floor) = floor {
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
    }

    // The app under its documented Content-Security-Policy, as embedders serve it, with gzip (as
    // most hosts serve it, and as Lighthouse's figures are quoted); the baseline the same way.
    let app = Server::start_offering("127.0.0.1:0", &paths.dist, &[], Some(crate::server::CSP), Accept::GZIP)?;
    let base = Server::start_offering("127.0.0.1:0", &baseline, &[], None, Accept::GZIP)?;
    let json = out.join("results.json");
    std::fs::create_dir_all(&out).map_err(|e| crate::util::Error(format!("cannot create {}: {e}", out.display())))?;
    println!("\n==> browser figures (headless Chromium and Lighthouse; several minutes)");
    let node = cmd(paths, "node")
        .arg(paths.e2e_dir.join("bench").join("bench.mjs"))
        .arg(app.url())
        .arg(base.url())
        .arg(&json)
        .arg(&paths.dist)
        .arg(&baseline)
        .env(
            "NODELINE_BENCH_ONLY",
            if o.mobile_only {
                "mobile"
            } else if o.fleet_only {
                "fleet"
            } else {
                ""
            },
        )
        .env("NODELINE_BENCH_PAGES", o.pages.join("\n"))
        .env("NODELINE_BENCH_RUNS", o.runs.map(|n| n.to_string()).unwrap_or_default())
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
    if let Some(simwasm) = simwasm {
        crate::bench_sim::bench(paths, &simwasm)?;
    }
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
    // Served like the site: with the same precompressed copies.
    crate::compress::precompress(&dist)?;
    Ok(dist)
}

#[cfg(test)]
mod tests {
    /// Lighthouse measures the first step of every chapter: the benchmark's list is the
    /// simulation's, in its order.
    #[test]
    fn lighthouse_covers_every_chapter() {
        let script = include_str!("../../tests/e2e/bench/bench.mjs");
        let line = script.lines().find(|l| l.starts_with("const CHAPTERS = [")).expect("bench.mjs lists CHAPTERS");
        let listed: Vec<&str> = line
            .trim_start_matches("const CHAPTERS = [")
            .trim_end_matches("];")
            .split(',')
            .map(|id| id.trim().trim_matches('\''))
            .collect();
        let ids: Vec<&str> = nodeline::sim::Chapter::ALL.iter().map(|c| c.id()).collect();
        assert_eq!(listed, ids);
    }
}
