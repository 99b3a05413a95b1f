//! `cargo xtask bundle`: the offline docs bundle, made from the built site.
//!
//! * `nodeline.html`: the whole app in one file (the wasm as base64, the JS glue, the still
//!   script and the CSS inline, the favicon as a `data:` URL) that runs from `file://` with no
//!   server and fetches nothing; its own `Content-Security-Policy` (by hash) says so to the
//!   browser. It shows the first step's still view until the app starts; the static pages for
//!   readers without JavaScript stay in the folder (the page's `<noscript>` links to them go).
//!   It carries the site's stories (`stories/ID.story`) as data blocks the app reads in place of
//!   fetching them ([`nodeline::view::stories::embedded_id`]).
//! * `nodeline-offline.zip`: one folder, `nodeline/`, with the built site as it is, that single
//!   file, and a short README for the docs author.

use std::path::{Path, PathBuf};

use base64::Engine;
use sha2::Digest;

use crate::archive;
use crate::html::{self, closing, unsafe_in_raw_text};
use crate::site::{LOADER_PREFIX, STILL_PREFIX};
use crate::util::{Result, bail, read};

/// The single-file app's name (in the output folder and in the archive).
pub(crate) const SINGLE_FILE: &str = "nodeline.html";
/// The archive's name.
pub(crate) const ARCHIVE: &str = "nodeline-offline.zip";
/// The folder inside the archive.
const FOLDER: &str = "nodeline";
/// The docs author's README inside the archive.
const README: &str = "README.txt";

/// What `make` wrote.
#[derive(Debug)]
pub(crate) struct Bundle {
    pub(crate) single_file: PathBuf,
    pub(crate) archive: PathBuf,
}

/// The README for the docs author (the CSP is the one the site is tested under).
fn readme() -> String {
    include_str!("bundle-README.txt").replace("{CSP}", crate::server::CSP)
}

/// `'sha256-…'`, a CSP source for an inline script or style with this exact text.
fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes())))
}

/// The `'./name.ext'` path the loader names (exactly one).
fn named_in_loader(loader: &str, ext: &str) -> Result<String> {
    let found: Vec<&str> = loader
        .split(['\'', '"'])
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("./") && s.ends_with(ext) && !s[2..].contains('/'))
        .collect();
    match found.as_slice() {
        [one] => Ok(one[2..].to_owned()),
        _ => bail!("the loader script should name one ./*{ext} file, it names {found:?}"),
    }
}

/// The MIME type of an asset inlined as a `data:` URL.
fn data_type(name: &str) -> Result<&'static str> {
    Ok(match Path::new(name).extension().and_then(|e| e.to_str()) {
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => bail!("do not know how to inline {name}"),
    })
}

/// The built site (`dist`, finished by `site::finish`) as one self-contained HTML page.
pub(crate) fn single_file(dist: &Path) -> Result<String> {
    let page = read(&dist.join("index.html"))?;
    let still = nodeline::view::still::MARK;
    if page.contains(still) || page.contains(nodeline::view::pages::MARK) || !page.contains(STILL_PREFIX) {
        bail!("{} is not a finished build (no still view): run `cargo xtask build`", dist.display());
    }
    let mut styles = String::new();
    let mut script = None;
    let mut still_script = None;
    // The end of the `<noscript>` block (its links go to pages the single file does not carry).
    let mut skip_to = 0;
    // (start, end, replacement), in document order; `None`: the place of the one <style>.
    let mut edits: Vec<(usize, usize, Option<String>)> = Vec::new();
    let mut style_at = None;
    for (name, tag) in html::all_tags(&page) {
        if tag.start < skip_to {
            continue;
        }
        match name.as_str() {
            "noscript" => {
                let Some((_, after)) = closing(&page, tag.end, "noscript") else {
                    bail!("index.html: <noscript> never ends")
                };
                edits.push((tag.start, after, Some(String::new())));
                skip_to = after;
            }
            "link" => {
                let href = tag.attr("href").unwrap_or_default().trim_start_matches("./").to_owned();
                match tag.attr("rel").unwrap_or_default() {
                    "stylesheet" => {
                        let css = read(&dist.join(&href))?;
                        if unsafe_in_raw_text(&css, "style") {
                            bail!("{href} cannot be inlined: it contains </style");
                        }
                        styles.push_str(css.trim_end());
                        styles.push('\n');
                        if style_at.is_none() {
                            style_at = Some(edits.len());
                            edits.push((tag.start, tag.end, None));
                        } else {
                            edits.push((tag.start, tag.end, Some(String::new())));
                        }
                    }
                    "icon" => {
                        let bytes = std::fs::read(dist.join(&href))?;
                        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
                        let link = format!(r#"<link rel="icon" href="data:{};base64,{data}">"#, data_type(&href)?);
                        edits.push((tag.start, tag.end, Some(link)));
                    }
                    "modulepreload" | "preload" => edits.push((tag.start, tag.end, Some(String::new()))),
                    other => bail!("index.html: do not know how to inline <link rel={other:?}>"),
                }
            }
            "script" => {
                let Some(src) = tag.attr("src") else { bail!("index.html has an inline script") };
                let src = src.trim_start_matches("./");
                if src.starts_with(STILL_PREFIX) {
                    let code = read(&dist.join(src))?;
                    if unsafe_in_raw_text(&code, "script") {
                        bail!("{src} cannot be inlined: it contains </script, <script or <!--");
                    }
                    let Some((_, after)) = closing(&page, tag.end, "script") else {
                        bail!("index.html: script never ends")
                    };
                    edits.push((tag.start, after, Some(format!("<script>{code}</script>"))));
                    still_script = Some(code);
                    continue;
                }
                if !src.starts_with(LOADER_PREFIX) {
                    bail!("index.html loads a script that is not the loader: {src}");
                }
                let loader = read(&dist.join(src))?;
                let glue_name = named_in_loader(&loader, ".js")?;
                let wasm_name = named_in_loader(&loader, ".wasm")?;
                let glue = read(&dist.join(&glue_name))?;
                if unsafe_in_raw_text(&glue, "script") {
                    bail!("{glue_name} cannot be inlined: it contains </script, <script or <!--");
                }
                if glue.lines().any(|l| l.trim_start().starts_with("import ")) {
                    bail!("{glue_name} imports other modules: it cannot run from one file");
                }
                if !glue.contains("export { initSync") {
                    bail!("{glue_name} does not export initSync (a wasm-bindgen change?)");
                }
                let wasm = std::fs::read(dist.join(&wasm_name))?;
                let wasm64 = base64::engine::general_purpose::STANDARD.encode(wasm);
                let code = format!(
                    "\n{}\n// {wasm_name}, inlined: no fetch, so this runs from file://.\n\
                     const nodelineWasm = atob(\"{wasm64}\");\n\
                     const nodelineBytes = new Uint8Array(nodelineWasm.length);\n\
                     for (let i = 0; i < nodelineWasm.length; i++) nodelineBytes[i] = nodelineWasm.charCodeAt(i);\n\
                     initSync({{ module: nodelineBytes }});\n",
                    glue.trim_end()
                );
                let Some((_, after)) = closing(&page, tag.end, "script") else {
                    bail!("index.html: script never ends")
                };
                edits.push((tag.start, after, Some(format!("<script type=\"module\">{code}</script>"))));
                script = Some(code);
            }
            _ => {
                for attr in ["src", "href"] {
                    if let Some(url) = tag.attr(attr)
                        && !(url.starts_with('?') || url.starts_with('#') || url.starts_with("data:"))
                    {
                        bail!("index.html refers to {url:?}, which a single file cannot carry");
                    }
                }
            }
        }
    }
    let Some(script) = script else { bail!("index.html has no loader script") };
    let Some(style_at) = style_at else { bail!("index.html has no style sheet") };
    edits[style_at].2 = Some(format!("<style>\n{styles}</style>"));

    let mut out = String::with_capacity(page.len() + script.len() + styles.len() + 512);
    let mut at = 0;
    for (start, end, replacement) in &edits {
        out.push_str(&page[at..*start]);
        out.push_str(replacement.as_deref().unwrap_or_default());
        at = *end;
    }
    out.push_str(&page[at..]);
    let Some(end) = out.rfind("</body>") else { bail!("index.html has no </body>") };
    out.insert_str(end, &carried_stories(dist)?);

    // Only what is in the file may run or style the page, and it may fetch nothing at all.
    let scripts = [Some(&script), still_script.as_ref()].into_iter().flatten().map(|s| csp_hash(s));
    let policy = format!(
        "default-src 'none'; script-src {} 'wasm-unsafe-eval'; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        scripts.collect::<Vec<_>>().join(" "),
        csp_hash(&format!("\n{styles}"))
    );
    let Some(charset) = html::tags(&out, "meta").into_iter().find(|t| t.attr("charset").is_some()) else {
        bail!("index.html has no <meta charset>");
    };
    out.insert_str(charset.end, &format!("\n    <meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\" />"));
    Ok(out)
}

/// The site's stories (`stories/ID.story`, in the order of their names), each as a data block the
/// single file's app reads instead of fetching it: a `<script type="text/plain">`, which never
/// runs (so the policy has nothing to allow), its text the page's form with `<` encoded as the
/// form encodes (so nothing in it can end the block).
fn carried_stories(dist: &Path) -> Result<String> {
    use nodeline::story::compact::EXTENSION;
    use nodeline::view::stories::{DIR, embedded_id};
    let dir = dist.join(DIR);
    if !dir.is_dir() {
        return Ok(String::new());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
        .collect();
    files.sort();
    let mut out = String::new();
    for path in files {
        let Some(id) = path.file_stem().and_then(|s| s.to_str()).filter(|id| nodeline::link::is_dns_label(id)) else {
            bail!("{}: a story's file is named by its id", path.display());
        };
        let text = read(&path)?.replace('<', "%3C");
        out.push_str(&format!("<script type=\"text/plain\" id=\"{}\">{text}</script>\n", embedded_id(id)));
    }
    Ok(out)
}

/// Every file under `dir`, as (path relative to `dir` with `/`, is directory), sorted; hidden
/// files are left out.
fn walk(dir: &Path) -> Result<Vec<(String, bool)>> {
    fn go(root: &Path, dir: &Path, out: &mut Vec<(String, bool)>) -> Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let rel = path.strip_prefix(root).map_err(|_| crate::util::Error("walk".into()))?;
            let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let rel = rel.join("/");
            if path.is_dir() {
                out.push((rel, true));
                go(root, &path, out)?;
            } else {
                out.push((rel, false));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    go(dir, dir, &mut out)?;
    Ok(out)
}

/// Writes `nodeline.html` and `nodeline-offline.zip` into `out` from the built site in `dist`.
pub(crate) fn make(dist: &Path, out: &Path) -> Result<Bundle> {
    std::fs::create_dir_all(out)?;
    let (dist_abs, out_abs) = (dist.canonicalize()?, out.canonicalize()?);
    if out_abs.starts_with(&dist_abs) {
        bail!("the bundle cannot go inside the site it bundles ({})", out.display());
    }
    let single = single_file(dist)?;

    let mut entries: Vec<archive::Entry> = vec![(format!("{FOLDER}/"), None)];
    for (rel, is_dir) in walk(dist)? {
        if rel == SINGLE_FILE || rel == README {
            bail!("{} already has a {rel}: the bundle adds its own", dist.display());
        }
        if is_dir {
            entries.push((format!("{FOLDER}/{rel}/"), None));
        } else {
            entries.push((format!("{FOLDER}/{rel}"), Some(std::fs::read(dist.join(&rel))?)));
        }
    }
    entries.push((format!("{FOLDER}/{SINGLE_FILE}"), Some(single.clone().into_bytes())));
    entries.push((format!("{FOLDER}/{README}"), Some(readme().into_bytes())));
    let archive = archive::write(&entries)?;

    let bundle = Bundle { single_file: out.join(SINGLE_FILE), archive: out.join(ARCHIVE) };
    std::fs::write(&bundle.single_file, single)?;
    std::fs::write(&bundle.archive, archive)?;
    Ok(bundle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small finished site, shaped like trunk's output after `site::finish`.
    fn site(dir: &Path) {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir.join("public")).unwrap();
        let page = format!(
            r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <script src="./{STILL_PREFIX}0123456789abcdef.js" integrity="sha384-p"></script>
    <link rel="icon" href="./favicon-1.svg" integrity="sha384-a"/>
    <link rel="stylesheet" href="./main-1.css" integrity="sha384-b"/>
    <link rel="stylesheet" href="./layout-1.css" integrity="sha384-c"/>
<script type="module" src="./{LOADER_PREFIX}0123456789abcdef.js" integrity="sha384-d"></script>
  <link rel="modulepreload" href="./app-1.js" crossorigin="anonymous" integrity="sha384-e"><link rel="preload" href="./app-1_bg.wasm" crossorigin="anonymous" as="fetch" type="application/wasm"></head>
  <body>
    <noscript><div class="nojs"><p>Without JavaScript:</p><ol><li><a href="steps/registration.en.1.html">1</a></li></ol></div></noscript>
    <main data-still=""><a href="?chapter=registration&amp;step=1&amp;lang=en">Play</a></main>
  </body>
</html>
"#
        );
        std::fs::write(dir.join("index.html"), page).unwrap();
        std::fs::write(
            dir.join(format!("{STILL_PREFIX}0123456789abcdef.js")),
            "document.documentElement.dataset.x = 1;\n",
        )
        .unwrap();
        std::fs::write(dir.join("favicon-1.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>").unwrap();
        std::fs::write(dir.join("main-1.css"), "body { margin: 0 }\n").unwrap();
        std::fs::write(dir.join("layout-1.css"), ".a > .b { color: red }\n").unwrap();
        std::fs::write(
            dir.join(format!("{LOADER_PREFIX}0123456789abcdef.js")),
            "import init, * as bindings from './app-1.js';\nconst wasm = await init({ module_or_path: './app-1_bg.wasm' });\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("app-1.js"),
            "function initSync(module) { return module; }\nexport { initSync, __wbg_init as default };\n",
        )
        .unwrap();
        std::fs::write(dir.join("app-1_bg.wasm"), b"\0asm\x01\0\0\0\xff").unwrap();
        std::fs::write(dir.join("public").join("embed-example.html"), "<p>example</p>").unwrap();
        std::fs::create_dir_all(dir.join("stories")).unwrap();
        std::fs::write(dir.join("stories").join("two.story"), "nodeline-story=1\nid=two\ntitle=a </script> b\n")
            .unwrap();
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("xtask-bundle-{name}-{}", std::process::id()))
    }

    #[test]
    fn inlines_everything_and_fetches_nothing() {
        let dir = temp("single");
        site(&dir);
        let page = single_file(&dir).unwrap();
        assert!(page.contains("body { margin: 0 }\n.a > .b { color: red }\n</style>"), "{page}");
        assert!(page.contains(r#"<link rel="icon" href="data:image/svg+xml;base64,"#));
        // The wasm bytes, base64, then handed to initSync.
        assert!(page.contains("const nodelineWasm = atob(\"AGFzbQEAAAD/\");"), "{page}");
        assert!(page.contains("initSync({ module: nodelineBytes });"));
        assert!(page.contains("export { initSync, __wbg_init as default };"));
        for gone in ["modulepreload", "rel=\"preload\"", "integrity=", "src=\"", "./main-1.css", LOADER_PREFIX] {
            assert!(!page.contains(gone), "{gone} left in {page}");
        }
        assert!(page.contains(r#"<a href="?chapter=registration&amp;step=1&amp;lang=en">"#));
        // The links to the static pages go with their block: the single file does not carry them.
        assert!(!page.contains("noscript") && !page.contains("steps/") && page.contains("<main data-still"), "{page}");
        // The site's stories, as data blocks nothing can end early.
        assert!(
            page.contains(
                "<script type=\"text/plain\" id=\"nodeline-story-two\">nodeline-story=1\nid=two\ntitle=a %3C/script> b\n</script>\n</body>"
            ),
            "{page}"
        );
        // The policy allows exactly the inline scripts and style it carries: the still script first.
        let scripts: Vec<_> =
            html::tags(&page, "script").into_iter().filter(|t| t.attr("type") != Some("text/plain")).collect();
        assert_eq!(scripts.len(), 2);
        let (still_close, _) = closing(&page, scripts[0].end, "script").unwrap();
        assert_eq!(&page[scripts[0].end..still_close], "document.documentElement.dataset.x = 1;\n");
        let (close, _) = closing(&page, scripts[1].end, "script").unwrap();
        let styles = html::tags(&page, "style");
        let (style_close, _) = closing(&page, styles[0].end, "style").unwrap();
        let policy = html::tags(&page, "meta")
            .into_iter()
            .find(|t| t.attr("http-equiv") == Some("Content-Security-Policy"))
            .and_then(|t| t.attr("content").map(str::to_owned))
            .unwrap();
        assert!(policy.starts_with("default-src 'none'; script-src 'sha256-"), "{policy}");
        assert!(policy.contains(&csp_hash(&page[scripts[1].end..close])), "{policy}");
        assert!(policy.contains(&csp_hash(&page[scripts[0].end..still_close])), "{policy}");
        assert!(page.find("Content-Security-Policy").unwrap() < scripts[0].start, "the policy comes first");
        assert!(policy.contains(&csp_hash(&page[styles[0].end..style_close])), "{policy}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn refuses_what_it_cannot_inline() {
        let dir = temp("refuse");
        site(&dir);
        let glue = dir.join("app-1.js");
        std::fs::write(&glue, "const s = '</script>';\nexport { initSync };\n").unwrap();
        assert!(single_file(&dir).is_err());
        std::fs::write(&glue, "import { x } from './snippets/a.js';\nexport { initSync };\n").unwrap();
        assert!(single_file(&dir).is_err());
        std::fs::write(&glue, "export default init;\n").unwrap();
        assert!(single_file(&dir).is_err());
        site(&dir);
        let index = dir.join("index.html");
        let page = std::fs::read_to_string(&index).unwrap();
        std::fs::write(&index, page.replace("</body>", "<img src=\"./x.png\"></body>")).unwrap();
        assert!(single_file(&dir).is_err());
        std::fs::write(&index, page.replace("<main data-still", nodeline::view::still::MARK)).unwrap();
        assert!(single_file(&dir).is_err(), "an unfinished build");
        std::fs::write(&index, page.replace("</noscript>", "")).unwrap();
        assert!(single_file(&dir).is_err(), "a <noscript> that never ends");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn bundles_the_site_the_single_file_and_a_readme() {
        let dir = temp("site");
        let out = temp("out");
        site(&dir);
        let bundle = make(&dir, &out).unwrap();
        assert_eq!(std::fs::read_to_string(&bundle.single_file).unwrap(), single_file(&dir).unwrap());
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n\
                      print('\\n'.join(z.namelist()))\nprint(z.read('nodeline/README.txt').decode())";
        let listing =
            std::process::Command::new("python3").arg("-c").arg(script).arg(&bundle.archive).output().unwrap();
        assert!(listing.status.success(), "{}", String::from_utf8_lossy(&listing.stderr));
        let listing = String::from_utf8(listing.stdout).unwrap();
        let names: Vec<&str> = listing.lines().take_while(|l| !l.is_empty() && !l.starts_with("nodeline —")).collect();
        assert_eq!(
            names,
            [
                "nodeline/",
                "nodeline/app-1.js",
                "nodeline/app-1_bg.wasm",
                "nodeline/favicon-1.svg",
                "nodeline/index.html",
                "nodeline/layout-1.css",
                "nodeline/main-1.css",
                "nodeline/nodeline-start-0123456789abcdef.js",
                "nodeline/nodeline-still-0123456789abcdef.js",
                "nodeline/public/",
                "nodeline/public/embed-example.html",
                "nodeline/stories/",
                "nodeline/stories/two.story",
                "nodeline/nodeline.html",
                "nodeline/README.txt",
            ]
        );
        assert!(listing.contains(crate::server::CSP), "{listing}");
        assert!(make(&dir, &dir.join("inside")).is_err(), "the bundle cannot go into the site");
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_dir_all(out);
    }
}
