//! The built-in chapters, compiled from their story files before the page is built: each
//! chapter is `stories/ID.yaml`, and the page and the CLI compile in what
//! `nodeline::story::generate` writes from them (the scenarios and the words). A chapter's file
//! edited is a chapter changed at the next `cargo xtask build` or `serve`.
//!
//! xtask runs this before any command, and runs the command again in a new build of itself when it
//! wrote anything (the still views it renders come from the chapters compiled into it).
//!
//! In CI (`CI` set) nothing is written: compiled sources that are not what the files give stop
//! the build, so what is committed is what runs.

use std::path::Path;

use nodeline::story::generate::{self, SCENARIOS, WORDS};

use crate::util::{Error, Result};

/// Compiles the chapters' files of `root/stories/` into `root`'s sources, writing only what
/// changed, and says whether it wrote anything; under CI, refuses sources that are stale instead.
pub(crate) fn compile(root: &Path) -> Result<bool> {
    let compiled = generate::chapters(&root.join("stories")).map_err(Error)?;
    let ci = std::env::var_os("CI").is_some();
    let mut wrote = false;
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
        wrote = true;
    }
    Ok(wrote)
}

/// Runs this command again as a new build of xtask: after [`compile`] wrote new sources, the
/// running xtask still holds the chapters it was built with, and the still views and static
/// pages it writes must tell the new ones. Returns the run's exit status.
pub(crate) fn run_again(args: &[String]) -> Result<std::process::ExitStatus> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    println!("xtask: building xtask again with the chapters as their files now are");
    Ok(std::process::Command::new(cargo).args(["run", "--quiet", "--package", "xtask", "--"]).args(args).status()?)
}
