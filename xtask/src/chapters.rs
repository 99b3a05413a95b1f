//! The built-in chapters, compiled from their story files before the page is built: each
//! chapter is `stories/ID.yaml`, and the page and the CLI compile in what
//! `nodeline::story::generate` writes from them (the scenarios and the words). A chapter's file
//! edited is a chapter changed at the next `cargo xtask build` or `serve`.
//!
//! In CI (`CI` set) nothing is written: compiled sources that are not what the files give stop
//! the build, so what is committed is what runs.

use std::path::Path;

use nodeline::story::generate::{self, SCENARIOS, WORDS};

use crate::util::{Error, Result};

/// Compiles the chapters' files of `root/stories/` into `root`'s sources, writing only what
/// changed; under CI, refuses sources that are stale instead.
pub(crate) fn compile(root: &Path) -> Result<()> {
    let compiled = generate::chapters(&root.join("stories")).map_err(Error)?;
    let ci = std::env::var_os("CI").is_some();
    for (path, text) in [(SCENARIOS, &compiled.scenarios), (WORDS, &compiled.words)] {
        let file = root.join(path);
        if std::fs::read_to_string(&file).is_ok_and(|was| was == *text) {
            continue;
        }
        if ci {
            return Err(Error(format!(
                "{path} is not what the chapters' story files give: run `cargo xtask build` and commit it"
            )));
        }
        std::fs::write(&file, text)?;
        println!("xtask: compiled the chapters' story files into {path}");
    }
    Ok(())
}
