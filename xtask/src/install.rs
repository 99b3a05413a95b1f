//! Installs what the build and the tests need, each step only when it is missing or the wrong
//! version. Works on a fresh machine with only rustup, cargo, node and npm.
//!
//! Versions have one source of truth each, and this module checks they agree:
//! * wasm-bindgen: `Cargo.lock` (the `wasm-bindgen` crate); `Trunk.toml [tools] wasm_bindgen`
//!   must equal it.
//! * wasm-opt: `xtask/tools/package.json` (npm `binaryen`, exact version);
//!   `Trunk.toml [tools] wasm_opt` must be `version_<major>` of it.
//! * trunk: [`TRUNK_VERSION`] (0.22 needs a newer rustc than the project's).
//! * geckodriver: [`GECKODRIVER_VERSION`] (Firefox ESR's WebDriver server, from crates.io).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Paths, Result, bail, cargo, cmd, probe, read, run};

/// The trunk release the project builds with.
pub(crate) const TRUNK_VERSION: &str = "0.21.14";

/// Where Debian's Chromium and its driver live (Playwright and wasm-bindgen-test use them).
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
pub(crate) const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Debian's Firefox ESR and WebKitGTK's WebDriver server (the cross-engine suite), and the X
/// server WebKitGTK needs for a display (`xvfb-run`).
pub(crate) const FIREFOX: &str = "/usr/bin/firefox-esr";
pub(crate) const WEBKITDRIVER: &str = "/usr/bin/WebKitWebDriver";
pub(crate) const XVFB_RUN: &str = "/usr/bin/xvfb-run";

/// The geckodriver release the cross-engine suite and the wasm tests in Firefox use.
pub(crate) const GECKODRIVER_VERSION: &str = "0.37.1";

/// Tool versions the project pins, read from the files that pin them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pins {
    /// e.g. `0.2.130`
    pub(crate) wasm_bindgen: String,
    /// e.g. `132` (npm `binaryen` major version, which is binaryen's release number)
    pub(crate) binaryen: String,
}

impl Pins {
    /// Reads the pins and checks `Trunk.toml` agrees with them.
    pub(crate) fn read(paths: &Paths) -> Result<Self> {
        let lock = read(&paths.root.join("Cargo.lock"))?;
        let wasm_bindgen = lock_version(&lock, "wasm-bindgen")?;

        let tools_pkg = paths.tools_dir.join("package.json");
        let pkg = read(&tools_pkg)?;
        let binaryen_full = package_pin(&pkg, "binaryen")
            .ok_or_else(|| crate::util::Error(format!("{} has no exact \"binaryen\" version", tools_pkg.display())))?;
        let binaryen = binaryen_full
            .split('.')
            .next()
            .filter(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| {
                crate::util::Error(format!(
                    "{}: binaryen version {binaryen_full:?} must be exact, like \"132.0.0\"",
                    tools_pkg.display()
                ))
            })?
            .to_owned();

        let trunk_toml = read(&paths.root.join("Trunk.toml"))?;
        let trunk_wb = toml_value(&trunk_toml, "tools", "wasm_bindgen");
        let trunk_wo = toml_value(&trunk_toml, "tools", "wasm_opt");
        if trunk_wb.as_deref() != Some(wasm_bindgen.as_str()) {
            bail!(
                "Trunk.toml [tools] wasm_bindgen is {trunk_wb:?} but Cargo.lock has wasm-bindgen \
                 {wasm_bindgen}: set wasm_bindgen = \"{wasm_bindgen}\" in Trunk.toml"
            );
        }
        let want_wo = format!("version_{binaryen}");
        if trunk_wo.as_deref() != Some(want_wo.as_str()) {
            bail!(
                "Trunk.toml [tools] wasm_opt is {trunk_wo:?} but xtask/tools/package.json pins \
                 binaryen {binaryen_full}: set wasm_opt = \"{want_wo}\" in Trunk.toml"
            );
        }
        Ok(Pins { wasm_bindgen, binaryen })
    }
}

/// The single version of package `name` in a `Cargo.lock`.
pub(crate) fn lock_version(lock: &str, name: &str) -> Result<String> {
    let lock: toml::Table = lock.parse().map_err(|e| crate::util::Error(format!("Cargo.lock: {e}")))?;
    let packages = lock.get("package").and_then(toml::Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let versions: Vec<&str> = packages
        .iter()
        .filter(|p| p.get("name").and_then(toml::Value::as_str) == Some(name))
        .filter_map(|p| p.get("version").and_then(toml::Value::as_str))
        .collect();
    match versions.as_slice() {
        [v] => Ok((*v).to_owned()),
        [] => bail!("Cargo.lock has no `{name}` package"),
        many => bail!("Cargo.lock has several `{name}` versions: {many:?}; keep exactly one"),
    }
}

/// The string value of `key` in `[table]` of a TOML file (`None` when the file does not parse, or
/// has no such string).
pub(crate) fn toml_value(text: &str, table: &str, key: &str) -> Option<String> {
    let doc: toml::Table = text.parse().ok()?;
    Some(doc.get(table)?.get(key)?.as_str()?.to_owned())
}

/// The version `package.json` pins for the dependency `name`.
pub(crate) fn package_pin(json: &str, name: &str) -> Option<String> {
    let doc: serde_json::Value = serde_json::from_str(json).ok()?;
    Some(doc.get("dependencies")?.get(name)?.as_str()?.to_owned())
}

/// What `install` should cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// What a release build of the site needs.
    Build,
    /// Also clippy/rustfmt, wasm-bindgen-test-runner, Chromium, chromedriver, Playwright.
    Test,
}

/// Installs what is missing for `scope`, then runs `cargo fetch` (trunk builds offline).
pub(crate) fn install(paths: &Paths, scope: Scope) -> Result<Pins> {
    let pins = Pins::read(paths)?;
    require_tool(paths, "node", "Node.js 20 or newer")?;
    require_tool(paths, "npm", "npm (comes with Node.js)")?;
    rust_target(paths)?;
    if scope == Scope::Test {
        rust_components(paths)?;
    }
    trunk(paths)?;
    wasm_bindgen(paths, &pins)?;
    wasm_opt(paths, &pins)?;
    if scope == Scope::Test {
        chromium(paths)?;
        other_engines(paths)?;
        npm_ci(paths, &paths.e2e_dir, &[("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")])?;
        python_validator(paths)?;
    }
    run(cargo(paths).arg("fetch"))?;
    Ok(pins)
}

fn require_tool(paths: &Paths, tool: &str, what: &str) -> Result<()> {
    if probe(cmd(paths, tool).arg("--version")).is_none() {
        bail!("`{tool}` is not on PATH: install {what} first");
    }
    Ok(())
}

fn rustup(paths: &Paths) -> Command {
    let mut c = cmd(paths, "rustup");
    // Pick the toolchain that builds the project, even if rustup's default differs.
    if let Some(t) = std::env::var_os("RUSTUP_TOOLCHAIN") {
        c.env("RUSTUP_TOOLCHAIN", t);
    }
    c
}

fn rust_target(paths: &Paths) -> Result<()> {
    const TARGET: &str = "wasm32-unknown-unknown";
    let installed = probe(rustup(paths).args(["target", "list", "--installed"]));
    match installed {
        Some(list) if list.lines().any(|l| l.trim() == TARGET) => Ok(()),
        Some(_) => run(rustup(paths).args(["target", "add", TARGET])),
        None => bail!("`rustup` is not on PATH: install Rust with rustup (the {TARGET} target is needed)"),
    }
}

fn rust_components(paths: &Paths) -> Result<()> {
    let clippy = probe(cargo(paths).args(["clippy", "--version"])).is_some();
    let fmt = probe(cargo(paths).args(["fmt", "--version"])).is_some();
    if clippy && fmt {
        return Ok(());
    }
    run(rustup(paths).args(["component", "add", "clippy", "rustfmt"]))
}

fn trunk(paths: &Paths) -> Result<()> {
    let want = format!("trunk {TRUNK_VERSION}");
    if probe(cmd(paths, "trunk").arg("--version")).as_deref() == Some(want.as_str()) {
        return Ok(());
    }
    println!("xtask: installing {want} (about 12 minutes of compiling on 2 cores)");
    run(cargo(paths).args(["install", "trunk", "--version", TRUNK_VERSION, "--locked"]))
}

fn wasm_bindgen(paths: &Paths, pins: &Pins) -> Result<()> {
    let want = &pins.wasm_bindgen;
    let ok = |tool: &str| {
        probe(cmd(paths, tool).arg("--version")).is_some_and(|v| v.split_whitespace().nth(1) == Some(want.as_str()))
    };
    if ok("wasm-bindgen") && ok("wasm-bindgen-test-runner") {
        return Ok(());
    }
    println!("xtask: installing wasm-bindgen-cli {want} (about 3 minutes)");
    // Not --locked: its lockfile pins a crate the registry mirror lacks.
    run(cargo(paths).args(["install", "wasm-bindgen-cli", "--version", want, "--force"]))
}

fn wasm_opt(paths: &Paths, pins: &Pins) -> Result<()> {
    npm_ci(paths, &paths.tools_dir, &[])?;
    let want = format!("version_{}", pins.binaryen);
    let bin = paths.tools_dir.join("node_modules").join(".bin").join("wasm-opt");
    let got = probe(cmd(paths, &bin).arg("--version")).unwrap_or_default();
    // `wasm-opt version 132 (version_132)`
    if got.split_whitespace().nth(2) != Some(pins.binaryen.as_str()) {
        bail!("{} --version printed {got:?}, expected {want}", bin.display());
    }
    Ok(())
}

/// `npm ci` in `dir`, skipped when `node_modules` was installed from the same lockfile
/// (xtask keeps a copy of the lockfile in `node_modules/.xtask-lock`).
pub(crate) fn npm_ci(paths: &Paths, dir: &Path, env: &[(&str, &str)]) -> Result<()> {
    let lock = dir.join("package-lock.json");
    let stamp = dir.join("node_modules").join(".xtask-lock");
    let lock_text = read(&lock)?;
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == lock_text) {
        return Ok(());
    }
    let mut c = cmd(paths, "npm");
    c.args(["ci", "--no-audit", "--no-fund"]).current_dir(dir);
    for (k, v) in env {
        c.env(k, v);
    }
    run(&mut c)?;
    std::fs::write(&stamp, lock_text)?;
    Ok(())
}

/// The Python interpreter of the test virtualenv (schema validation with `kubernetes-validate`).
pub(crate) fn test_python(paths: &Paths) -> std::path::PathBuf {
    paths.root.join("target").join("nodeline-py").join("bin").join("python")
}

/// A virtualenv in `target/nodeline-py` with `tests/validate/requirements.txt`, re-installed only
/// when the requirements change.
fn python_validator(paths: &Paths) -> Result<()> {
    let requirements = paths.root.join("tests").join("validate").join("requirements.txt");
    let wanted = read(&requirements)?;
    let venv = paths.root.join("target").join("nodeline-py");
    let stamp = venv.join(".xtask-requirements");
    let python = test_python(paths);
    if python.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(());
    }
    require_tool(paths, "python3", "Python 3 with the venv module")?;
    println!("xtask: creating {} with kubernetes-validate", venv.display());
    run(cmd(paths, "python3").args(["-m", "venv", "--clear"]).arg(&venv))?;
    run(cmd(paths, &python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
        .arg(&requirements))?;
    std::fs::write(&stamp, wanted)?;
    Ok(())
}

/// A Japanese system font, so the Japanese edition's screenshots and layout tests show real
/// glyphs (the page itself never loads a font: it names system fonts).
const JAPANESE_FONT: &str = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf";

fn chromium(paths: &Paths) -> Result<()> {
    if Path::new(CHROMIUM).is_file() && Path::new(CHROMEDRIVER).is_file() && Path::new(JAPANESE_FONT).is_file() {
        return Ok(());
    }
    println!("xtask: installing Debian's chromium, chromium-driver and fonts-ipafont-gothic");
    apt_install(
        paths,
        &["chromium", "chromium-driver", "fonts-ipafont-gothic"],
        &[CHROMIUM, CHROMEDRIVER, JAPANESE_FONT],
    )
}

/// `apt-get update`, then installs `packages` (as root, else through sudo) and checks `files`.
fn apt_install(paths: &Paths, packages: &[&str], files: &[&str]) -> Result<()> {
    let root = probe(cmd(paths, "id").arg("-u")).as_deref() == Some("0");
    let apt = |args: &[&str]| {
        let mut c = if root {
            cmd(paths, "apt-get")
        } else {
            let mut c = cmd(paths, "sudo");
            c.args(["--preserve-env=DEBIAN_FRONTEND", "apt-get"]);
            c
        };
        c.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        c
    };
    run(&mut apt(&["update"]))?;
    let mut install = apt(&["install", "-y", "--no-install-recommends"]);
    install.args(packages);
    run(&mut install)?;
    for file in files {
        if !Path::new(file).is_file() {
            bail!("apt-get ran, but {file} is still missing");
        }
    }
    Ok(())
}

/// WebKitGTK's MiniBrowser, the browser WebKitWebDriver starts (Debian keeps it in the library
/// folder of `libwebkit2gtk-4.1-0`, not on `PATH`).
pub(crate) fn minibrowser() -> Option<PathBuf> {
    std::fs::read_dir("/usr/lib")
        .ok()?
        .flatten()
        .map(|d| d.path().join("webkit2gtk-4.1").join("MiniBrowser"))
        .find(|p| p.is_file())
}

/// Where `cargo install` put geckodriver.
pub(crate) fn geckodriver() -> PathBuf {
    Paths::cargo_bin_dir().unwrap_or_default().join("geckodriver")
}

/// Firefox ESR and WebKitGTK with their WebDriver servers (Debian's `firefox-esr`,
/// `webkit2gtk-driver`, and `xvfb` for WebKitGTK's display), and geckodriver at
/// [`GECKODRIVER_VERSION`] from crates.io; each only when missing.
fn other_engines(paths: &Paths) -> Result<()> {
    if !(Path::new(FIREFOX).is_file() && Path::new(WEBKITDRIVER).is_file() && Path::new(XVFB_RUN).is_file())
        || minibrowser().is_none()
    {
        println!("xtask: installing Debian's firefox-esr, webkit2gtk-driver and xvfb");
        apt_install(paths, &["firefox-esr", "webkit2gtk-driver", "xvfb", "xauth"], &[FIREFOX, WEBKITDRIVER, XVFB_RUN])?;
        if minibrowser().is_none() {
            bail!("webkit2gtk-driver is installed, but no /usr/lib/*/webkit2gtk-4.1/MiniBrowser was found");
        }
    }
    let want = format!("geckodriver {GECKODRIVER_VERSION}");
    let got = probe(cmd(paths, geckodriver()).arg("--version")).unwrap_or_default();
    if got.lines().next().and_then(|l| l.split(" (").next()) != Some(want.as_str()) {
        println!("xtask: installing {want} (about 3 minutes of compiling on 2 cores)");
        run(cargo(paths).args(["install", "geckodriver", "--version", GECKODRIVER_VERSION, "--locked"]))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_version_from_a_lockfile() {
        let lock = "[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n\n\
                    [[package]]\nname = \"wasm-bindgen-test\"\nversion = \"0.3.80\"\n";
        assert_eq!(lock_version(lock, "wasm-bindgen").unwrap(), "0.2.130");
        assert_eq!(lock_version(lock, "wasm-bindgen-test").unwrap(), "0.3.80");
        assert!(lock_version(lock, "leptos").is_err());
    }

    #[test]
    fn two_versions_are_an_error() {
        let lock = "name = \"a\"\nversion = \"1.0.0\"\nname = \"a\"\nversion = \"2.0.0\"\n";
        assert!(lock_version(lock, "a").is_err());
    }

    #[test]
    fn reads_toml_values_in_their_table() {
        let toml =
            "[build]\nwasm_opt = \"no\"\n[tools]\n# c\nwasm_bindgen = \"0.2.130\" # x\nwasm_opt = \"version_132\"\n";
        assert_eq!(toml_value(toml, "tools", "wasm_opt").as_deref(), Some("version_132"));
        assert_eq!(toml_value(toml, "tools", "wasm_bindgen").as_deref(), Some("0.2.130"));
        assert_eq!(toml_value(toml, "build", "wasm_opt").as_deref(), Some("no"));
        assert_eq!(toml_value(toml, "tools", "missing"), None);
    }

    #[test]
    fn reads_package_json_pins() {
        let pkg = "{ \"dependencies\": {\n  \"binaryen\" : \"132.0.0\"\n} }";
        assert_eq!(package_pin(pkg, "binaryen").as_deref(), Some("132.0.0"));
        assert_eq!(package_pin(pkg, "nope"), None);
    }

    #[test]
    fn the_repository_pins_agree() {
        let pins = Pins::read(&Paths::new()).expect("Cargo.lock, Trunk.toml and package.json agree");
        assert!(pins.wasm_bindgen.starts_with("0.2."));
    }
}
