//! Shared helpers: the workspace root, errors, running commands, paths for tools.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// An error with a message meant for a human; `main` prints it and exits non-zero.
#[derive(Debug)]
pub(crate) struct Error(pub(crate) String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error(e.to_string())
    }
}

pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

/// Shorthand for an `Err(Error(..))` with `format!` arguments.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::util::Error(format!($($arg)*)))
    };
}
pub(crate) use bail;

/// The workspace root: the parent of this crate's manifest directory.
///
/// Prefers the run-time `CARGO_MANIFEST_DIR` that `cargo run` sets, so a moved checkout works
/// even with a stale binary; falls back to the compile-time value.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .filter(|p| p.join("src").join("main.rs").is_file() && p.ends_with("xtask"))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir.parent().map(Path::to_path_buf).unwrap_or(manifest_dir)
}

/// Paths every command uses.
#[derive(Debug, Clone)]
pub(crate) struct Paths {
    pub(crate) root: PathBuf,
    pub(crate) dist: PathBuf,
    /// Where `cargo xtask bundle` (and the test suite) write the offline bundle.
    pub(crate) bundle: PathBuf,
    pub(crate) tools_dir: PathBuf,
    pub(crate) e2e_dir: PathBuf,
}

impl Paths {
    pub(crate) fn new() -> Self {
        let root = workspace_root();
        // NODELINE_DIST builds and serves another folder (parallel work in one checkout); the
        // bundle then goes next to it (`<dist>-bundle`) unless NODELINE_BUNDLE names a folder.
        let dist_env = std::env::var_os("NODELINE_DIST").map(PathBuf::from);
        let dist = dist_env.clone().unwrap_or_else(|| root.join("dist"));
        let bundle = std::env::var_os("NODELINE_BUNDLE").map(PathBuf::from).unwrap_or_else(|| match dist_env {
            Some(d) => {
                let mut name = d.file_name().map(OsString::from).unwrap_or_else(|| OsString::from("dist"));
                name.push("-bundle");
                d.with_file_name(name)
            }
            None => root.join("bundle"),
        });
        Paths {
            dist,
            bundle,
            tools_dir: root.join("xtask").join("tools"),
            e2e_dir: root.join("tests").join("e2e"),
            root,
        }
    }

    /// `$CARGO_HOME/bin` (where `cargo install` puts binaries), default `~/.cargo/bin`.
    pub(crate) fn cargo_bin_dir() -> Option<PathBuf> {
        std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
            .map(|h| h.join("bin"))
    }

    /// The `PATH` every child process gets: the npm-installed tools (wasm-opt), then
    /// `$CARGO_HOME/bin` (trunk, wasm-bindgen), then the inherited `PATH`.
    pub(crate) fn child_path(&self) -> OsString {
        let mut dirs = vec![self.tools_dir.join("node_modules").join(".bin")];
        dirs.extend(Self::cargo_bin_dir());
        if let Some(path) = std::env::var_os("PATH") {
            dirs.extend(std::env::split_paths(&path));
        }
        std::env::join_paths(dirs).unwrap_or_else(|_| std::env::var_os("PATH").unwrap_or_default())
    }
}

/// A `Command` with the project's `PATH` and the workspace root as working directory.
///
/// The per-package variables that `cargo run` gave us (`CARGO_PKG_*`, `CARGO_MANIFEST_*`, ...)
/// describe xtask, not what the child builds, so they are not passed on.
pub(crate) fn cmd(paths: &Paths, program: impl AsRef<OsStr>) -> Command {
    let mut c = Command::new(program);
    c.env("PATH", paths.child_path()).current_dir(&paths.root);
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if k.starts_with("CARGO_PKG_")
            || k.starts_with("CARGO_MANIFEST_")
            || matches!(k.as_ref(), "CARGO_CRATE_NAME" | "CARGO_BIN_NAME" | "CARGO_PRIMARY_PACKAGE")
        {
            c.env_remove(&key);
        }
    }
    c
}

/// The cargo that runs us (`$CARGO`), or `cargo`.
pub(crate) fn cargo(paths: &Paths) -> Command {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    cmd(paths, program)
}

fn describe(c: &Command) -> String {
    let mut s = c.get_program().to_string_lossy().into_owned();
    for a in c.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Runs `c` with inherited stdio and fails if it does not exit 0.
pub(crate) fn run(c: &mut Command) -> Result<()> {
    let shown = describe(c);
    println!("$ {shown}");
    let status = c.stdin(Stdio::null()).status().map_err(|e| Error(format!("could not start `{shown}`: {e}")))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// Runs `c` quietly and returns its trimmed stdout if it exits 0; `None` if it cannot be
/// started or fails. Used for `--version` probes.
pub(crate) fn probe(c: &mut Command) -> Option<String> {
    let out = c.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Reads a file to a string with the path in the error.
pub(crate) fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))
}

/// Formats a duration as `1m 02.3s` or `4.2s`.
pub(crate) fn fmt_duration(d: std::time::Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 {
        let m = (secs / 60.0).floor();
        format!("{m:.0}m {:04.1}s", secs - m * 60.0)
    } else {
        format!("{secs:.1}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn durations_are_readable() {
        assert_eq!(fmt_duration(Duration::from_millis(4_200)), "4.2s");
        assert_eq!(fmt_duration(Duration::from_millis(62_300)), "1m 02.3s");
    }

    #[test]
    fn root_holds_the_workspace_manifest() {
        let root = workspace_root();
        assert!(root.join("Cargo.toml").is_file());
        assert!(root.join("xtask").join("Cargo.toml").is_file());
    }
}
