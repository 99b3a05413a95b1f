//! What `cargo xtask build` does to trunk's output, so the site ships anywhere:
//!
//! 1. the `<noscript>` block (`nodeline::view::pages::noscript`: a line and every chapter's and
//!    story's link to its static pages, in each language) replaces the `<!-- nodeline:nojs -->`
//!    mark in `index.html`;
//! 2. trunk's inline loader script moves into its own file (`nodeline-start-HASH.js`), so the
//!    page runs under `script-src 'self' 'wasm-unsafe-eval'` with no hash or `'unsafe-inline'`;
//! 3. trunk's style sheets (one per file in `style/`) become one file (`nodeline-HASH.css`), without
//!    their comments and indentation: on a phone's slow network every render-blocking request
//!    costs a round trip before the first paint;
//! 4. the still view's script (`nodeline::view::still::script`: it shows the step the link names
//!    and swaps steps until the app arrives) goes into its own file, `nodeline-still-HASH.js`,
//!    loaded first in `<head>`;
//! 5. the WebAssembly is fetched after the first paint: trunk's `<link rel=preload>` of it goes,
//!    and the loader waits for the first paint (and the still view's step) before it calls `init`
//!    (on a phone's slow network the module's download would otherwise share the bandwidth with
//!    the style sheet and the step, and hold the first view back);
//! 6. the still view (`nodeline::view::still`: the first view of a step, its stage, timeline and
//!    narration, in the app's own markup) of the first chapter's first step replaces the
//!    `<!-- nodeline:still -->` mark, and every chapter's and every story's steps in every language
//!    go into files of their own (`still/CHAPTER.LANG.STEP.js`, `still/story.ID.LANG.STEP.js`),
//!    which the still script loads when the link names another step; every step is also a static
//!    page for readers without JavaScript (`steps/CHAPTER.LANG.STEP.html`,
//!    `steps/story.ID.LANG.STEP.html`, `nodeline::view::pages::page`); the simulation runs here,
//!    natively;
//! 7. the pages are checked: no inline script or style left, no root-absolute or remote URL (the
//!    build must work under any sub-path and request nothing from another origin).
//! 8. every story file of `stories/` is checked and written in the form the page reads
//!    (`stories/ID.story`, `nodeline::story::compact`), first: the still view's chapter list shows
//!    them where the app's does, their steps are pre-rendered as the chapters' are, and their list
//!    goes into `index.html` (`nodeline::view::stories`: hidden links the app's chapter list
//!    reads).

use std::path::Path;

use base64::Engine;
use nodeline::sim::Chapter;
use nodeline::view::stories::{self, Listed, Loaded};
use nodeline::view::told::Told;
use nodeline::view::{pages, still};
use sha2::Digest;

use crate::html::{self, closing, tags};
use crate::util::{Result, bail, read};

/// The prefix of the loader's file name.
pub(crate) const LOADER_PREFIX: &str = "nodeline-start-";
/// The prefix of the one style sheet's file name.
pub(crate) const STYLE_PREFIX: &str = "nodeline-style-";
/// The prefix of the still script's file name.
pub(crate) const STILL_PREFIX: &str = "nodeline-still-";

/// `sha384-…`, the Subresource Integrity value of `bytes` (as trunk writes for the other assets).
pub(crate) fn sri(bytes: &[u8]) -> String {
    format!("sha384-{}", base64::engine::general_purpose::STANDARD.encode(sha2::Sha384::digest(bytes)))
}

/// The first 16 hex digits of the SHA-256 of `bytes` (for cache-busting file names).
pub(crate) fn short_hash(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes).iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Rewrites `dist/index.html` as described above; writes the loader file next to it.
pub(crate) fn finish(dist: &Path, stories_dir: &Path) -> Result<()> {
    let read_stories = stories(stories_dir, dist)?;
    let listed: Vec<Listed> = read_stories.iter().map(Listed::of).collect();
    let told: Vec<Told> = read_stories.iter().map(|s| Told::Story(Loaded::keep(s.clone()))).collect();
    let index = dist.join("index.html");
    let page = read(&index)?;
    let (page, loader) = finish_page(&page, &listed)?;
    if let Some((name, body)) = loader {
        std::fs::write(dist.join(&name), body)?;
    }
    let page = one_style_sheet(dist, &page)?;
    let page = still_views(dist, &page, &listed, &told)?;
    // The list of stories goes into the page, before its end: the chapter list reads it there.
    let Some(end) = page.rfind("</body>") else { bail!("index.html has no </body>") };
    let page = format!("{}{}\n{}", &page[..end], stories::list_markup(&read_stories), &page[end..]);
    let (page, (name, body)) = still_script(&page, &told)?;
    std::fs::write(dist.join(name), body)?;
    check_page(&page)?;
    std::fs::write(&index, page)?;
    Ok(())
}

/// Checks every story file in `source` (`stories/*.yaml`) and writes each in the page's form into
/// `dist/stories/`; a story with a problem stops the build with its report. Returns them, in the
/// order of their file names.
fn stories(source: &Path, dist: &Path) -> Result<Vec<nodeline::story::Story>> {
    use nodeline::story::{self, Report, compact};
    let mut files: Vec<_> = std::fs::read_dir(source)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        // The chapters' files are compiled into the page (`chapters::compile`), not the site's.
        .filter(|p| p.file_stem().and_then(|s| s.to_str()).and_then(nodeline::sim::Chapter::with_id).is_none())
        .collect();
    files.sort();
    let out = dist.join(nodeline::view::stories::DIR);
    std::fs::create_dir_all(&out)?;
    let mut told = Vec::new();
    for path in &files {
        let id = path.file_stem().and_then(|s| s.to_str());
        let loaded = story::load(&read(path)?, id).map_err(|problems| {
            let file = path.display().to_string();
            crate::util::Error(Report { file: &file, problems: &problems }.to_string())
        })?;
        std::fs::write(out.join(format!("{}.{}", loaded.id, compact::EXTENSION)), compact::write(&loaded))?;
        told.push(loaded);
    }
    Ok(told)
}

/// The finished page, and the loader file to write (its name and text).
fn finish_page(page: &str, stories: &[Listed]) -> Result<(String, Option<(String, String)>)> {
    let marks = page.matches(pages::MARK).count();
    if marks != 1 {
        bail!("index.html must hold the mark {} exactly once (found {marks})", pages::MARK);
    }
    let page = page.replacen(pages::MARK, &pages::noscript(stories), 1);

    let inline: Vec<_> = tags(&page, "script").into_iter().filter(|t| t.attr("src").is_none()).collect();
    match inline.as_slice() {
        [] => Ok((page, None)),
        [script] => {
            if script.attr("type") != Some("module") {
                bail!("trunk's loader script is not a module script: {}", &page[script.start..script.end]);
            }
            let Some((close, after)) = closing(&page, script.end, "script") else {
                bail!("index.html: the loader script never ends");
            };
            let body = after_first_paint(page[script.end..close].trim())? + "\n";
            let name = format!("{LOADER_PREFIX}{}.js", short_hash(body.as_bytes()));
            let tag = format!(r#"<script type="module" src="./{name}" integrity="{}"></script>"#, sri(body.as_bytes()));
            let page = format!("{}{tag}{}", &page[..script.start], &page[after..]);
            Ok((without_wasm_preload(&page), Some((name, body))))
        }
        _ => bail!("index.html has {} inline scripts; the build expects only trunk's loader", inline.len()),
    }
}

/// What trunk's loader waits for before it fetches the WebAssembly: the browser's report of the
/// first contentful paint (the still view, or the line that says the app is on its way; a first
/// paint of the background alone does not count), then a task. A frame callback is not enough: it
/// runs before the frame is painted, so the fetch could start a few milliseconds before the paint
/// it should follow. Where paint timing is missing, a frame then a task; in a tab that never paints (hidden),
/// at most 500 ms.
///
/// Then, where the still view waits for the step the link names (`data-still-wait`: its file is on
/// its way), until that step is shown and a frame painted, at most 3 s: the step is the page's
/// largest paint, and a phone's network should bring it before the WebAssembly.
const FIRST_PAINT: &str = "await new Promise((r) => { let go = () => { go = () => {}; r(); }; \
try { const o = new PerformanceObserver((l) => { if (l.getEntriesByName('first-contentful-paint').length) { o.disconnect(); setTimeout(() => go()); } }); \
o.observe({ type: 'paint', buffered: true }); } catch (_) { requestAnimationFrame(() => setTimeout(() => go())); } \
setTimeout(() => go(), 500); });\n\
await new Promise((r) => { const d = document.documentElement; \
if (!d.hasAttribute('data-still-on') || d.hasAttribute('data-still-ready')) { r(); return; } \
let go = () => { go = () => {}; requestAnimationFrame(() => setTimeout(r)); }; \
document.addEventListener('nodeline-still-shown', () => go()); setTimeout(() => go(), 3000); });\n";

/// Trunk's loader, waiting for [`FIRST_PAINT`] before its `init` fetches the WebAssembly.
fn after_first_paint(loader: &str) -> Result<String> {
    let init = "const wasm = await init(";
    if loader.matches(init).count() != 1 {
        bail!("trunk's loader should call `{init}` once: {loader}");
    }
    let at = loader.find(init).unwrap_or_default();
    let Some(end) = loader[at..].find(");").map(|e| at + e + 1) else {
        bail!("trunk's loader: its `{init}` call never ends: {loader}");
    };
    Ok(format!("{}{FIRST_PAINT}{}{APP_FAILED}{}", &loader[..at], &loader[at..end], &loader[end..]))
}

/// What the loader does when the app cannot start (its WebAssembly not fetched or not compiled):
/// it tells the still view (`nodeline-app-failed`), which becomes the page, and fails as before.
const APP_FAILED: &str = ".catch((e) => { document.dispatchEvent(new Event('nodeline-app-failed')); throw e; })";

/// The page without trunk's `<link rel="preload" as="fetch">` of the WebAssembly (the loader
/// fetches it after the first paint).
fn without_wasm_preload(page: &str) -> String {
    let mut out = page.to_owned();
    let preloads = tags(page, "link")
        .into_iter()
        .filter(|t| t.attr("rel") == Some("preload") && t.attr("href").is_some_and(|h| h.ends_with(".wasm")));
    for tag in preloads.collect::<Vec<_>>().into_iter().rev() {
        out.replace_range(tag.start..tag.end, "");
    }
    out
}

/// The page with the first chapter's first step in its first language at the still view's mark;
/// every step's still file written into `dist/still/`, and its static page into `dist/steps/`
/// (checked as the page is).
fn still_views(dist: &Path, page: &str, stories: &[Listed], told: &[Told]) -> Result<String> {
    let marks = page.matches(still::MARK).count();
    if marks != 1 {
        bail!("index.html must hold the mark {} exactly once (found {marks})", still::MARK);
    }
    let head = static_head(page);
    let dir = dist.join(still::DIR);
    let pages = dist.join(pages::DIR);
    std::fs::create_dir_all(&dir)?;
    std::fs::create_dir_all(&pages)?;
    let mut first = None;
    for t in Chapter::ALL.into_iter().map(Told::Chapter).chain(told.iter().copied()) {
        for v in still::views(t, stories) {
            if first.is_none() {
                first = Some(format!("{}\n{}", v.header, v.view));
            }
            let file = still::step_file(t, v.lang, v.n, &v.header, &v.view);
            std::fs::write(dir.join(still::file_name(t, v.lang, v.n)), file)?;
            let page = pages::page(t, v.lang, v.n, &head, &v.page_header, &v.page_view);
            let name = pages::page_href(&t.key(), v.lang, v.n);
            check_page(&page).map_err(|e| crate::util::Error(format!("{}/{name}: {e}", pages::DIR)))?;
            std::fs::write(pages.join(name), page)?;
        }
    }
    let Some(first) = first else { bail!("no chapter to show") };
    Ok(page.replacen(still::MARK, &first, 1))
}

/// What a static page links in its `<head>`, one folder below the page: the page's style sheet
/// and icon.
fn static_head(page: &str) -> String {
    let mut head = String::new();
    for tag in tags(page, "link").into_iter().filter(|t| matches!(t.attr("rel"), Some("stylesheet" | "icon"))) {
        head.push_str(&page[tag.start..tag.end].replacen("href=\"./", "href=\"../", 1));
        head.push('\n');
    }
    head
}

/// The page with the still script linked at the top of `<head>` (after `<meta charset>`, before
/// the style sheets, so it runs before the first paint and waits for nothing), and that file.
fn still_script(page: &str, stories: &[Told]) -> Result<(String, (String, String))> {
    let body = still::script(stories);
    let name = format!("{STILL_PREFIX}{}.js", short_hash(body.as_bytes()));
    let Some(charset) = tags(page, "meta").into_iter().find(|t| t.attr("charset").is_some()) else {
        bail!("index.html has no <meta charset>");
    };
    let tag = format!(r#"<script src="./{name}" integrity="{}"></script>"#, sri(body.as_bytes()));
    let mut out = page.to_owned();
    out.insert_str(charset.end, &format!("\n    {tag}"));
    Ok((out, (name, body)))
}

/// A style sheet without its comments, its lines' indentation and its blank lines (what is left
/// ends with a newline): the sheets explain themselves at length, and the page should not carry
/// that. Text in quotes is kept as it is.
fn compact_css(css: &str) -> String {
    let mut bare = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find(['/', '"', '\'']) {
        let (before, from) = rest.split_at(i);
        bare.push_str(before);
        if let Some(comment) = from.strip_prefix("/*") {
            rest = comment.find("*/").map_or("", |end| &comment[end + 2..]);
        } else if let Some(after) = from.strip_prefix('/') {
            bare.push('/');
            rest = after;
        } else {
            let quote = &from[..1];
            let end = from[1..].find(quote).map_or(from.len(), |e| e + 2);
            bare.push_str(&from[..end]);
            rest = &from[end..];
        }
    }
    bare.push_str(rest);
    let mut out = String::with_capacity(bare.len());
    for line in bare.lines().map(str::trim).filter(|l| !l.is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Joins the page's style sheets, in their order, into one file in `dist` (`nodeline-style-HASH.css`,
/// with its integrity value, each sheet compacted by [`compact_css`]) linked where the first was;
/// the separate files are removed.
fn one_style_sheet(dist: &Path, page: &str) -> Result<String> {
    let sheets: Vec<_> = tags(page, "link").into_iter().filter(|t| t.attr("rel") == Some("stylesheet")).collect();
    if sheets.len() < 2 {
        return Ok(page.to_owned());
    }
    let mut css = String::new();
    let mut files = Vec::new();
    for sheet in &sheets {
        let Some(href) = sheet.attr("href") else { bail!("index.html: a style sheet without href") };
        let name = href.trim_start_matches("./");
        if name.contains('/') || name.contains(':') {
            bail!("index.html: style sheet {href:?} is not a file next to the page");
        }
        css.push_str(&format!("/* {} */\n", name.split('-').next().unwrap_or(name)));
        css.push_str(&compact_css(&read(&dist.join(name))?));
        files.push(name.to_owned());
    }
    let name = format!("{STYLE_PREFIX}{}.css", short_hash(css.as_bytes()));
    let link = format!(r#"<link rel="stylesheet" href="./{name}" integrity="{}"/>"#, sri(css.as_bytes()));
    let mut out = String::with_capacity(page.len());
    let mut at = 0;
    for (i, sheet) in sheets.iter().enumerate() {
        out.push_str(&page[at..sheet.start]);
        if i == 0 {
            out.push_str(&link);
        }
        at = sheet.end;
    }
    out.push_str(&page[at..]);
    std::fs::write(dist.join(&name), css)?;
    for file in files {
        std::fs::remove_file(dist.join(file))?;
    }
    Ok(out)
}

/// The promises a relocatable, self-contained, CSP-clean page keeps.
pub(crate) fn check_page(page: &str) -> Result<()> {
    for (name, tag) in html::all_tags(page) {
        let shown = &page[tag.start..tag.end];
        if name == "script" && tag.attr("src").is_none() {
            bail!("index.html has an inline script (a strict Content-Security-Policy refuses it): {shown}");
        }
        if name == "style" || tag.attr("style").is_some() {
            bail!("index.html has inline style (a strict Content-Security-Policy refuses it): {shown}");
        }
        if let Some((attr, _)) = tag.attrs.iter().find(|(k, _)| k.starts_with("on")) {
            bail!("index.html has an inline event handler ({attr}): {shown}");
        }
        for attr in ["href", "src"] {
            let Some(url) = tag.attr(attr) else { continue };
            if url.starts_with('/') || url.contains("://") {
                bail!("index.html refers to {url:?}: only relative URLs work under any sub-path and offline");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRUNK: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <link rel="stylesheet" href="./main-1.css" integrity="sha384-a"/>
<script type="module">
import init, * as bindings from './nodeline-1.js';
const wasm = await init({ module_or_path: './nodeline-1_bg.wasm' });
</script>
  <link rel="modulepreload" href="./nodeline-1.js" crossorigin="anonymous" integrity="sha384-b"><link rel="preload" href="./nodeline-1_bg.wasm" crossorigin="anonymous" integrity="sha384-c" as="fetch" type="application/wasm"></head>
  <body>
    <!-- a note -->
    <!-- nodeline:nojs -->
  </body>
</html>
"#;

    #[test]
    fn puts_the_noscript_links_in_and_the_loader_out() {
        let (page, loader) = finish_page(TRUNK, &[]).unwrap();
        let (name, body) = loader.unwrap();
        assert!(name.starts_with(LOADER_PREFIX) && name.ends_with(".js") && name.len() == LOADER_PREFIX.len() + 19);
        assert!(body.starts_with("import init, * as bindings from './nodeline-1.js';"), "{body}");
        assert!(page.contains(&format!(r#"<script type="module" src="./{name}" integrity="sha384-"#)), "{page}");
        assert!(!page.contains("await init"));
        // The WebAssembly is fetched by the loader after the first paint, not preloaded.
        assert!(!page.contains("_bg.wasm") && page.contains(r#"<link rel="modulepreload" href="./nodeline-1.js""#));
        let wait = body.find(FIRST_PAINT).unwrap();
        assert!(wait < body.find("const wasm = await init(").unwrap(), "{body}");
        // A module that cannot be fetched or compiled tells the still view, which becomes the page.
        assert!(
            body.contains(&format!(
                "const wasm = await init({{ module_or_path: './nodeline-1_bg.wasm' }}){APP_FAILED};"
            )),
            "{body}"
        );
        assert!(page.contains(r#"<noscript><div class="nojs">"#));
        assert!(page.contains(r#"<a href="steps/node-failure.en.1.html">"#));
        assert!(page.contains(r#"<a href="steps/node-failure.ja.1.html">"#));
        assert!(!page.contains(pages::MARK));
        check_page(&page).unwrap();
        // The same input, the same file name: caches can keep it forever.
        assert_eq!(finish_page(TRUNK, &[]).unwrap().1.unwrap().0, name);
    }

    #[test]
    fn refuses_a_page_it_cannot_finish() {
        assert!(finish_page("<body></body>", &[]).is_err(), "no mark");
        let twice = TRUNK.replace("<!-- a note -->", pages::MARK);
        assert!(finish_page(&twice, &[]).is_err(), "two marks");
        let two_scripts = TRUNK.replace("</head>", "<script>alert(1)</script></head>");
        assert!(finish_page(&two_scripts, &[]).is_err());
        let classic = TRUNK.replace(r#"<script type="module">"#, "<script>");
        assert!(finish_page(&classic, &[]).is_err());
        let other_loader = TRUNK.replace("const wasm = await init(", "await init(");
        assert!(finish_page(&other_loader, &[]).is_err(), "a loader that does not call init as expected");
    }

    #[test]
    fn checks_what_a_strict_policy_and_a_sub_path_need() {
        let ok =
            r#"<link rel="icon" href="./f.svg"><script type="module" src="./a.js"></script><a href="?chapter=x">x</a>"#;
        check_page(ok).unwrap();
        for bad in [
            "<script>alert(1)</script>",
            r#"<p style="color: red">x</p>"#,
            "<style>p{}</style>",
            r#"<img src="x.png" onerror="alert(1)">"#,
            r#"<link rel="stylesheet" href="/main.css">"#,
            r#"<script src="https://cdn.example/x.js"></script>"#,
            r#"<link rel="stylesheet" href="//fonts.example/css">"#,
        ] {
            assert!(check_page(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn links_the_still_script_before_anything_else_loads() {
        let (finished, _) = finish_page(&TRUNK.replace("<head>", "<head><meta charset=\"utf-8\">"), &[]).unwrap();
        let (page, (name, body)) = still_script(&finished, &[]).unwrap();
        assert!(name.starts_with(STILL_PREFIX) && name.ends_with(".js"));
        assert_eq!(body, still::script(&[]));
        let at = page.find(&format!(r#"<script src="./{name}" integrity="sha384-"#)).unwrap();
        assert!(at < page.find("stylesheet").unwrap() && at > page.find("<meta charset").unwrap());
        check_page(&page).unwrap();
        assert!(still_script("<head></head>", &[]).is_err(), "no <meta charset>");
    }

    #[test]
    fn a_static_page_links_the_style_sheet_and_icon_one_folder_up() {
        let page = r#"<head><meta charset="utf-8"><link rel="icon" href="./f-1.svg" integrity="sha384-a"/>
<link rel="stylesheet" href="./nodeline-style-1.css" integrity="sha384-b"/><link rel="modulepreload" href="./a.js"></head>"#;
        assert_eq!(
            static_head(page),
            "<link rel=\"icon\" href=\"../f-1.svg\" integrity=\"sha384-a\"/>\n\
             <link rel=\"stylesheet\" href=\"../nodeline-style-1.css\" integrity=\"sha384-b\"/>\n"
        );
        // A whole static page passes the same checks as index.html.
        let page = pages::page(
            Told::Chapter(Chapter::Registration),
            nodeline::i18n::Lang::En,
            2,
            &static_head(page),
            "<header></header>",
            "<main></main>",
        );
        check_page(&page).unwrap();
    }

    #[test]
    fn joins_the_style_sheets_in_order() {
        let dir = std::env::temp_dir().join(format!("xtask-site-css-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("main-1.css"),
            "/* The page. */\nbody {\n  margin: 0; /* none */\n\n  content: \"/* kept */\";\n}\n",
        )
        .unwrap();
        std::fs::write(dir.join("stage-2.css"), ".stage { color: red }\n").unwrap();
        let page = r#"<head><link rel="icon" href="./f.svg"/><link rel="stylesheet" href="./main-1.css" integrity="sha384-a"/>
<link rel="stylesheet" href="./stage-2.css" integrity="sha384-b"/><title>x</title></head>"#;
        let out = one_style_sheet(&dir, page).unwrap();
        let sheets = tags(&out, "link").into_iter().filter(|t| t.attr("rel") == Some("stylesheet")).collect::<Vec<_>>();
        assert_eq!(sheets.len(), 1, "{out}");
        let name = sheets[0].attr("href").unwrap().trim_start_matches("./").to_owned();
        assert!(name.starts_with(STYLE_PREFIX), "{name}");
        let css = std::fs::read_to_string(dir.join(&name)).unwrap();
        assert_eq!(
            css,
            "/* main */\nbody {\nmargin: 0;\ncontent: \"/* kept */\";\n}\n/* stage */\n.stage { color: red }\n"
        );
        assert_eq!(sheets[0].attr("integrity"), Some(sri(css.as_bytes()).as_str()));
        assert!(out.contains(r#"<link rel="icon" href="./f.svg"/>"#) && out.contains("<title>x</title>"));
        assert!(!dir.join("main-1.css").exists() && !dir.join("stage-2.css").exists());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn hashes() {
        // SHA-384 and SHA-256 of "abc" (FIPS 180-2 test vectors).
        assert_eq!(sri(b"abc"), "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn");
        assert_eq!(short_hash(b"abc"), "ba7816bf8f01cfea");
    }
}
