//! `cargo xtask bench`'s simulation figures: the 1,000-node hour built in the page's wasm, in
//! headless Chromium, beside the same hour built natively.
//!
//! The page is `bench/simwasm`, a page of its own with nothing but the simulation, built with
//! trunk like the app (so the app's first load is untouched); it builds the hour as it loads and
//! writes its time, the growth of its wasm memory and the log's records as JSON
//! (`tests/e2e/bench/sim.mjs` reads it). The native figures come from
//! `cargo bench --bench sim -- nomatch`, which builds the same hour once and prints it.

use std::path::Path;
use std::process::Stdio;

use crate::server::{Accept, Server};
use crate::util::{Paths, Result, bail, cargo, cmd};

/// Builds and measures the hour in the page and natively, and prints both.
pub(crate) fn bench(paths: &Paths, page: &Path) -> Result<()> {
    println!("\n==> the simulation: 1 h of 1,000 nodes in the page (wasm, headless Chromium) and natively");
    let server = Server::start_offering("127.0.0.1:0", page, &[], None, Accept::GZIP)?;
    let out = cmd(paths, "node")
        .arg(paths.e2e_dir.join("bench").join("sim.mjs"))
        .arg(server.url())
        .current_dir(&paths.e2e_dir)
        .stderr(Stdio::inherit())
        .output();
    server.stop();
    let out = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => bail!("the wasm benchmark failed ({})", o.status),
        Err(e) => bail!("cannot run node: {e}"),
    };
    let wasm = Figures::from_json(&out).ok_or_else(|| crate::util::Error(format!("unexpected output: {out}")))?;
    let native = cargo(paths)
        .args(["bench", "--bench", "sim", "--", "nomatch"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| crate::util::Error(format!("cannot run cargo bench: {e}")))?;
    if !native.status.success() {
        bail!("cargo bench --bench sim failed ({})", native.status);
    }
    let native = String::from_utf8_lossy(&native.stdout).into_owned();
    let native_s = native
        .lines()
        .find_map(|l| l.strip_prefix("once: built in ")?.split_once(" s")?.0.parse::<f64>().ok())
        .ok_or_else(|| crate::util::Error(format!("no build time in cargo bench's output: {native}")))?;
    let wasm_s = wasm.build_ms / 1000.0;
    println!(
        "in the page: built in {wasm_s:.2} s (budget: within 2x native), wasm memory grew {:.1} MB (budget 64 MB), \
         {} bytes a record ({} records)",
        wasm.memory_bytes / 1e6,
        (wasm.memory_bytes / wasm.records.max(1.0)) as u64,
        wasm.records as u64
    );
    for line in native.lines().filter(|l| l.starts_with("memory:") || l.starts_with("once:")) {
        println!("natively: {line}");
    }
    println!("the page's time is {:.2}x the native one", wasm_s / native_s);
    Ok(())
}

/// What the page measured.
struct Figures {
    build_ms: f64,
    memory_bytes: f64,
    records: f64,
}

impl Figures {
    /// Reads the page's flat JSON object of numbers.
    fn from_json(text: &str) -> Option<Figures> {
        let field = |name: &str| -> Option<f64> {
            let at = text.find(&format!("\"{name}\":"))? + name.len() + 3;
            let rest = &text[at..];
            let end = rest.find([',', '}']).unwrap_or(rest.len());
            rest[..end].trim().parse().ok()
        };
        Some(Figures { build_ms: field("build_ms")?, memory_bytes: field("memory_bytes")?, records: field("records")? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_figures_are_read_from_its_json() {
        let f =
            Figures::from_json("{\"build_ms\":7012,\"memory_bytes\":301989888,\"records\":854696,\"requests\":1}\n")
                .expect("figures");
        assert_eq!((f.build_ms, f.memory_bytes, f.records), (7012.0, 301_989_888.0, 854_696.0));
        assert!(Figures::from_json("{\"build_ms\":7012}").is_none(), "a missing field is an error");
    }
}
