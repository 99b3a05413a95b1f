//! What a reader's browser downloads on first load, raw and gzip, by kind — and the budget.
//!
//! The budget (issue 18) is what the page transfers before it is interactive: 250 KB gzip (the
//! rest may come later, on idle or on demand). The page is one WebAssembly module today, loaded
//! before it is interactive, so everything it loads counts: the first load and the bytes before
//! interactive are the same files (`cargo xtask bench` also measures them in a browser).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::util::{Result, bail};

/// The product's budget for what the page transfers before it is interactive, gzip (issue 18;
/// it replaced docs/design's 200 KB for the whole first load).
pub(crate) const BUDGET_GZIP: u64 = 250 * 1000;

/// The regression ceiling the test suite enforces while the page is still over [`BUDGET_GZIP`]:
/// the measured first load plus a small margin. It only ever moves down, except for bytes a
/// required feature adds (each such raise says what and how much); the gap to the budget is
/// printed on every run (README: performance).
///
/// Raised from 360 000 for issue 4 (ship it anywhere), both measured on one machine: the build
/// before it was 361 299 (already over 360 000 there), after it 368 530: the poster in
/// `index.html` (every step's text for readers without JavaScript, +3.6 KB), the embed protocol
/// (+2.5 KB wasm, +0.6 KB JS glue and the loader file) and `embed.css` (+0.6 KB). Raised to
/// 390 000 for issue 7 (the Japanese edition), measured 385 889 with it: the Japanese catalogue
/// and narration (+10 KB wasm) and the Japanese poster section in `index.html` (+4 KB). Raised to
/// 391 000 for issue 6's frame budget, measured 388 951 before and 390 802 after: the page patches
/// its markup in place instead of rewriting it every frame (`app::dom::morph`, +1.8 KB of wasm and
/// JS glue), which cut the main-thread work per frame while playing at 60x from 14.1 ms to 7.7 ms
/// with the Node tab open (Chromium's TaskDuration, same machine). Raised to 459 000 for issue 19
/// (question mode), measured 390 313 before and 457 614 after on one machine: the questions of
/// every chapter in both languages, their derivations, the question panel and its four kinds of
/// answer, the embed's quiz messages (+66 KB gzip, nearly all wasm: 887 KB -> 1 040 KB raw). Not
/// yet analysed with twiggy; the panel's many `into_any` views (each pulls in Leptos's rendering
/// code for its type) and float parsing are the first suspects, and question mode is the first
/// candidate for a module loaded on demand.
/// Then, for issue 18 (phones): the narrow stage drawing (+1.9 KB of wasm with the view split under
/// it), the poster's script that starts the poster where the link points (+0.6 KB) and its data
/// attributes, less 1.1 KB for one style sheet instead of six, measured 390 313 -> 391 777 on its
/// own: 461 000 holds both (question mode's own figure and these).
/// Raised to 483 000 when those branches met the rebuilt engine and the fidelity pass on main,
/// measured 480 595 there (+19 KB over the two figures above, not yet split between its parts:
/// the simulation as a crate of components with its own `Ctx` and timer types, `kubectl describe
/// pod`, the status manager's terminal-phase path, the event spam filter and compact renewal
/// bodies). A measured trade for features the issues ask for, and the opposite of where the page
/// must go: twiggy on this build is the next session's first step for issue 18.
/// Raised to 484 000 because that figure was measured before the last engine branch (compact
/// renewal bodies, the event spam filter) joined main: CI measured 483 417 with it (+2.8 KB).
/// twiggy on that build (2026-12-03, names kept): of 1 119 KB of code and data, Leptos's reactive
/// graph and tachys about 300 KB (effect and memo closures, one per reactive view), read-only data
/// 136 KB (the catalogue, narration and questions in two languages), the simulation 170 KB, the
/// renderers 42 KB, `nodeline::main` (the app, inlined) 68 KB. No single item to cut: reaching
/// 250 KB before interactive needs the page to load in two parts (issue 18).
/// Raised to 489 000 for issue 13's CSINode, measured 482 909 -> 487 578 on one machine (+4.7 KB:
/// the object, the kubelet's CSI init with its backoffs and messages, `get csinodes` and
/// `describe csinode`, the YAML tab's CSINode and the registration narration's new paragraph in
/// both languages).
/// Raised to 602 000 for chapters 4, 5 and 6 (issues 14, 15, 16), measured 601 060 on main with
/// all three (from 487 578): each branch alone measured about +37 KB for the fleet chapter (the
/// fleet stage, chart and log pane, klog lines, the zone actions), +38 KB for maintenance (kubectl
/// drain as a client, the Eviction API, PodDisruptionBudgets and DaemonSets with their kubectl
/// printers, the panel taking commands) and +19 KB for a node going away (the shutdown manager,
/// PodGC, StatefulSets, VolumeAttachments), all three with their narration in two languages; the
/// poster (every step's text) grew from 8 KB to 18 KB of `index.html`. The page now loads 2.4
/// times the 250 KB budget before it is interactive: the split into a first module and modules
/// loaded on demand (issue 18) is what the project needs next, and every chapter added before
/// it makes the gap wider.
/// The suite itself then measured 603 133 for the same tree (its build differs from `cargo xtask
/// build`'s by about 2 KB), and chapter 4's three questions add about 3 KB more: 608 000 holds
/// both, with the half kilobyte CI's build has differed by before. 609 000 after hiding the
/// fleet's rates and chart during a question (+0.25 KB measured), with the same margin.
/// Raised to 655 000 when five branches met on main (2026-12-03, fifth session), measured
/// 653 555 by the suite there (from about 607 200; wasm 565.9 KB -> 612.9 KB gzip, 1 516 KB raw).
/// Each branch's own figure against the same main, wasm gzip: `kubectl taint` and `delete node`
/// typed in the panel, the powered-off machine, volumes and identity on the stage and the
/// shutdown-period setting +13.6 KB; the fleet's progressive timeline, Pods moving between zones
/// and the chart's points +13.8 KB; `kubectl delete pod`, label selectors, list paging and the
/// node-local cache +12.8 KB; the start in short tasks +1 KB; the engine's copy-on-write
/// checkpoints, interned paths and status bodies the rest (about 4 KB). No merge doubled any code:
/// the parts add up to the whole. This is the wrong direction for issue 18 and is recorded there.
/// Raised to 659 000 when the sixth session's merges (the fleet index, one `kubectl delete` flag
/// table, the node deletion handlers' own file and the settled taint eviction of Failed Pods)
/// made CI measure 657 728 on df3c1f3 (+4.2 KB, not split between them; mostly the fleet index).
/// Raised to 673 000 for the seventh session's merges, measured 671 776 by the suite on them
/// together (from 657 728; wasm 617 740 -> 630 919 gzip): the stored StatefulSet, claim and
/// volume with their controllers, kubectl printers and inspector entries (about +6 KB measured on
/// its branch); the poster's and narration's one text block a step (+1.1 KB wasm, 0.9 KB of HTML
/// and CSS); the fleet stage laid out for its width and the chart read a stretch at a time; the
/// shared Pod spec's serializer, the chunked log and the timer queue (the rest, not split).
/// Raised to 691 000 for the eighth session's merges (2026-12-04), measured 687 313 with
/// `cargo xtask build` and 688 583 by the suite on them together (from 671 776; wasm 630 919 ->
/// 647 625 gzip), with the margin CI's builds have differed by. Each
/// branch's own figure, wasm gzip against the main it started from: `kubectl describe` for the
/// StatefulSet, claim, volume and VolumeAttachment with kubectl's generic describer +8.9 KB
/// (after cutting it from +23.7 KB); the claim's binding, provisioning and their Events +6.5 KB,
/// with `Ctx`'s requests and Events compiled once instead of once per timer type -9 KB (-2.4 KB
/// together); the Lease renewal rows and shared Node labels about +3.8 KB; the ControllerRevision
/// about +2.9 KB; the fleet's squeezed lines and the chart laid out for its width, the session's
/// incremental moments and questions asked for about +1.5 KB (not measured apart).
///
/// Raised to 693 000 for the ninth session (2026-12-05): the suite measured 691 705 (wasm
/// 650 245 gzip, from 648 594 at the session's start, +1.65 KB), for the inspector following the
/// Node the story is about, the phone header's one scrolling row of chapters (its style and the
/// scroll to the current chapter), the timeline's track read a stretch of the log at a time, the
/// pending step markers with their text in two languages, and the background computation's
/// shorter tasks (not measured apart).
///
/// Raised to 696 000 for the tenth session (2026-12-05): `cargo xtask bench`'s release build
/// measured 694 303 at 06:55 (wasm 652 845 gzip, +2.6 KB this session), with the margin the
/// suite's builds have differed by. The trade: the engine's 1,000-node hour from 2.68 s to about
/// 1.5 s of CPU and from 519 MB to 379 MB natively
/// (344 MB -> 258 MB in the page), through the Lease renewal kept as a row without building its
/// request (`Io::renew` beside `Io::send`), the quiet runtime-check and image-cache loops, the
/// kubelet's state split for the checkpoints, the event recorders' digests (FxHash: SipHash
/// cost another 0.65 KB), the renewal's history slot and the monitor pass's pairing.
///
/// Raised to 702 000 for the eleventh session (2026-12-05): `cargo xtask bench`'s release build
/// measured 700 228 at 13:06 (wasm 658 773 gzip, +5.9 KB this session), with the same margin. The
/// trade: the engine's 1,000-node hour from 1.35 s to about 1.0 to 1.2 s of CPU (10.30 -> 7.38 G
/// instructions under callgrind) and from 379 MB to 303 MB
/// natively (258 MB -> 210 MB in the page), the zone-outage story at 1,000 nodes 3.46 -> 2.73 G
/// instructions. Measured apart: the Pods kept in a B-tree (pods and unbound Pods, one map type)
/// +2.5 KB (three B-tree types were +7.4 KB, so the uid index stayed a sorted vector); the rest
/// (+3.4 KB, not measured apart) is the Events' shared message and object, a Pod's status shared
/// with its PATCH, the contexts' first timer kept inline, the renewal's slot hint, the
/// scheduler's loads kept through a pass and the zone tainting queue's place numbers.
///
/// Raised to 706 000 for the fourteenth session (2026-12-05): `cargo xtask bench`'s release build
/// measured 705 048 at 20:19 (from 701 917, +3.1 KB), with the margin the suite's builds have
/// differed by. The trade: the 1,000-node hour's wasm memory 206.2 -> 154.7 MB (natively
/// 295.1 -> 231.3 MB) and 3.29 -> 2.84 M allocations; the zone-outage story at 1,000 nodes
/// 2.80 -> 2.22 M allocations and 1.82 -> 1.68 G instructions. Measured apart: a renewed Lease's
/// object version kept by its request's row (`record/changes.rs`, read as `Cow<Change>` through
/// `Log::changes()`) +1.8 KB, after the page's readers of Nodes and Pods were given `whole_from`
/// (0.7 KB of raw wasm back); the log's keys as one `Arc<ObjectKey>` (a second B-tree
/// instantiation) and the Node's spec and conditions shared between versions (copy-on-write for
/// two more types) +0.6 KB; the binding body kept as its parts, the request path written into a
/// reused buffer and the tainting queue's shared names +0.7 KB (+0.2 KB of raw wasm: the rest is
/// how the code compresses after inlining moved).
///
/// Raised to 712 000 for the fifteenth session (2026-12-05): `cargo xtask build` measured 710 696
/// at 23:09 (from 705 048, +5.6 KB), with the margin the suite's builds have differed by. The
/// trade: the 1,000-node hour's wasm memory 154.7 -> 115.3 MB (natively 200.1 -> 152.4 MB of
/// peak heap) and 2.84 -> 2.07 M allocations; the hour 2.80 -> 2.70 G instructions and the
/// zone-outage story at 1,000 nodes 1.68 -> 1.62 G. Not measured apart; the largest new functions
/// in the raw wasm (names kept): the log's one copy of each Status (`Log::share_status`, a hashed
/// set of Statuses: about 2.5 KB raw with its hashing), copy-on-write for the Pod spec's lists,
/// ownerReferences and finalizers and iteration through `&mut Shared` (about 2 KB), the renewal
/// rows' bases (about 1.1 KB), `objects::Text` and the Node condition's shared state with its
/// serializer.
///
/// Raised to 713 500 for the sixteenth session (2026-12-06): `cargo xtask build` measured 712 245
/// at 02:34 (from 710 696, +1.5 KB), with the margin the suite's builds have differed by. The
/// trade: the 1,000-node hour's wasm memory 115.9 -> 108.1 MB (natively 152.9 -> 141.5 MB of peak
/// heap) and 2.07 -> 1.85 M allocations; the zone-outage story at 1,000 nodes 1.62 -> 1.42 G
/// instructions and about 5 % less time in the page. Not measured apart; in the raw wasm (names
/// kept, +3.5 KB): the log's version push no longer inlined once it took Event versions
/// (`Log::push_version`, +0.1 KB net), the Event built from its `EventVersion` inside
/// `Change::object` (+1.4 KB), a hashed tainting queue's set (hashbrown's code for one more
/// table, +0.6 KB) and `strings::cat!` with its digits (+0.4 KB), less `format!`'s callers.
///
/// Raised to 716 500 for the seventeenth session (2026-12-06): `cargo xtask build` measured
/// 715 625 at 06:14 (from 712 230, +3.4 KB), with the margin the suite's builds have differed by.
/// The trade: the 1,000-node hour's wasm memory 106.5 -> 83.6 MB (natively 138.8 -> 108.0 MB of
/// peak heap). Not measured apart; what it added: the log's shared Event references and
/// messages (two more hashed sets), a JSON body's text written by `serde_json`'s serializer
/// (shown without parsing it: the parser was 7 KB more, measured, and the page does not use it),
/// a Node status patch's rebuilt Node, the requests' rank index, the checkpoints' thinning, a
/// Pod condition's copy-on-write and an object's inline versions.
///
/// Raised to 718 700 for the eighteenth session (2026-12-06): `cargo xtask bench --fleet-only`'s
/// release build measured 717 801 at 09:19 (from 715 625, +2.2 KB), with the margin the suite's
/// builds have differed by. The trade: the 1,000-node hour's wasm memory 83.1 -> 67.0 MB
/// (natively 108.0 -> 86.3 MB of peak heap, 780,713 -> 594,011 live allocations), with the
/// fleet's story and frames unchanged (alternated with the session's first build). Not measured
/// apart; what it added: seven shared constants behind `LazyLock`s (a new Pod's spec and status,
/// DefaultTolerationSeconds' list, capacity, allocatable, the base images, the Node's and
/// CSINode's annotations), copy-on-write for a Pod status's container statuses and IP lists, an
/// Event's version built from its occurrence, the shared recorder, the annotation and image
/// lists shared by the API server and the bus, the checkpoints' thinning pauses and the timer
/// queue's shrinking.
///
/// Raised to 721 800 for the nineteenth session (2026-12-06): `cargo xtask build` measured
/// 720 934 at 11:33 (from 717 801, +3.1 KB), with the same margin. The trade: the 1,000-node
/// hour's wasm memory 67.0 -> 63.0 MB, under its 64 MB budget (issue 12), and its native build
/// 848 -> 778 ms. What it added (not measured apart): the rank and select bit lists that say
/// where each version and request is kept (`record/bits.rs`), the GET rows and their table, the
/// key table of places (`record/places.rs`; hashbrown's `HashTable`, tried first, added 3.4 KB
/// on its own), and the Event occurrences and log lines read in chunks by the views.
///
/// Raised to 722 400 in the same session: `cargo xtask test` measured 721 516 at 3db0964
/// (+582 bytes), for `Chunked`'s iterator skipping a chunk at a time (`nth`, `nth_back`), which
/// the views' reads of Event occurrences and log lines from an index go through; the margin
/// kept as before.
///
/// Raised to 723 900 for the twentieth session (2026-12-06): `cargo xtask test` measured 723 051
/// at 9815a7b (from 721 517, +1.5 KB), with the same margin. The trade: at 1,000 nodes every
/// control mounted 0.66 to 0.76 s after navigation instead of 0.90 to 0.97 s, and every step of
/// the story found at 1.24 to 1.41 s instead of 1.43 to 1.55 s (issue 14). What it added (not
/// measured apart): the background computation as one async task that posts itself a message
/// between stretches (`app::next_task`, with `web-sys`'s `MessageChannel` and `MessagePort`), a
/// request's head read from the log's compact rows (`Requests::head`, `heads_from`, the track's
/// classes from heads), `sim::contains`, and the address bar's last query kept.
///
/// Raised to 734 100 for issue 38's fidelity items, with the same margin: 733 315 measured (this module's gzip of
/// `cargo xtask build`'s `dist/`) at cdd8f84, +10.3 KB over 723 051. What it added (not measured
/// apart): client-go's event aggregation, the taint eviction controller's finished evictions,
/// the attach/detach controller's 100 ms passes, node status updater and detach held by the
/// external-attacher's finalizer (with `status.volumesAttached` on the Node and its API ops),
/// the kubelet's `TimedOut` timer and its status-patch error text, the request summaries'
/// named fields, and chapter 6's longer narration in both languages. To be weighed against
/// issue 18's budget; the commit that raised it can be reverted to hold the line.
pub(crate) const CEILING_GZIP: u64 = 734_100;

/// One file the page loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Asset {
    pub(crate) name: String,
    pub(crate) kind: &'static str,
    pub(crate) raw: u64,
    pub(crate) gzip: u64,
}

fn kind_of(name: &str) -> &'static str {
    match Path::new(name).extension().and_then(|e| e.to_str()) {
        Some("html") => "html",
        Some("js") => "js",
        Some("wasm") => "wasm",
        Some("css") => "css",
        _ => "other",
    }
}

/// gzip (zlib's default level, as web servers use) of `bytes`.
pub(crate) fn gzip_len(bytes: &[u8]) -> u64 {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("writing to memory");
    enc.finish().expect("writing to memory").len() as u64
}

/// The files at the top of `dist`: the page and what it loads (sub-folders such as `public/`
/// hold pages and examples that are not part of the first load).
pub(crate) fn first_load(dist: &Path) -> Result<Vec<Asset>> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dist)?.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    files.sort();
    let mut assets = Vec::new();
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        // Hidden files, archives, and the precompressed copies of the files themselves.
        if name.starts_with('.') || [".zip", ".gz", ".br"].iter().any(|ext| name.ends_with(ext)) {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        assets.push(Asset { kind: kind_of(&name), raw: bytes.len() as u64, gzip: gzip_len(&bytes), name });
    }
    if !assets.iter().any(|a| a.kind == "wasm") {
        bail!("{} has no .wasm file: build the site first", dist.display());
    }
    Ok(assets)
}

/// A table of the assets, by kind and in total.
pub(crate) fn report(assets: &[Asset]) -> String {
    let mut out = String::new();
    out.push_str(&format!("{:<8} {:>10} {:>10}\n", "kind", "raw", "gzip"));
    for kind in ["html", "js", "wasm", "css", "other"] {
        let (raw, gz) = assets.iter().filter(|a| a.kind == kind).fold((0, 0), |(r, g), a| (r + a.raw, g + a.gzip));
        if raw > 0 {
            out.push_str(&format!("{kind:<8} {raw:>10} {gz:>10}\n"));
        }
    }
    let (raw, gz) = totals(assets);
    out.push_str(&format!("{:<8} {raw:>10} {gz:>10}   (budget {} gzip before interactive)\n", "total", BUDGET_GZIP));
    out
}

/// Raw and gzip totals.
pub(crate) fn totals(assets: &[Asset]) -> (u64, u64) {
    assets.iter().fold((0, 0), |(r, g), a| (r + a.raw, g + a.gzip))
}

/// Prints the report and fails if the first load is over budget.
pub(crate) fn check(dist: &Path) -> Result<()> {
    let assets = first_load(dist)?;
    print!("{}", report(&assets));
    let (_, gz) = totals(&assets);
    if gz > CEILING_GZIP {
        bail!("first load is {gz} bytes gzip, over the {CEILING_GZIP}-byte regression ceiling");
    }
    if gz > BUDGET_GZIP {
        println!(
            "NOT MET: the product budget is {BUDGET_GZIP} bytes gzip before interactive; the page loads all of \
             itself before it is interactive, {} bytes over it (regression ceiling {CEILING_GZIP}: passes)",
            gz - BUDGET_GZIP
        );
    } else {
        println!("within the {BUDGET_GZIP}-byte budget");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_shrinks_repetitive_text() {
        let text = "nodeline ".repeat(1000);
        assert!(gzip_len(text.as_bytes()) < 200);
    }

    #[test]
    fn kinds_follow_extensions() {
        assert_eq!(kind_of("index.html"), "html");
        assert_eq!(kind_of("nodeline-abc_bg.wasm"), "wasm");
        assert_eq!(kind_of("favicon-1.svg"), "other");
    }
}
