//! The Rust source files under a folder, for the layers tests (the simulation's, and the top
//! crate's through a `#[path]` include).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, at any depth, in path order.
pub(crate) fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
