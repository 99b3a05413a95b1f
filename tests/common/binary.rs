//! The built `nodeline` binary, run as a reader would run it. Shared by the `cli` and
//! `kubectl_cli` modules of `tests/it/`.

use std::process::Command;

/// What one run of the binary printed, and how it exited.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `nodeline ARGS...` to completion.
pub(crate) fn nodeline(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_nodeline")).args(args).output().expect("the binary runs");
    Run {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}
