//! The still view: the page's first view of a step (the header, the stage at the step's moment,
//! the timeline bar and the narration) as static markup, the same elements and classes the app
//! mounts, so the style sheets lay it out in the boxes and sizes the app will use. `cargo xtask
//! build` runs the simulation natively and writes the first step into `dist/index.html` and every
//! step of every chapter, in each language, into a file of its own next to it ([`step_file`]);
//! the still script (`still.js`, [`script`]) shows the step the link names and swaps steps,
//! chapters and languages before the WebAssembly arrives (the theme and the embed come from the
//! link); the app takes its place when it mounts.
//!
//! Each top-level element carries `data-still`. Two things the markup cannot say under a strict
//! Content-Security-Policy (no `style` attribute): the positions along the timeline, written as
//! `data-x` (a fraction of the track) for the still script to set; and which drawing of the stage
//! fits its width, decided by the script as the app decides it ([`Layout::for_width`]), by media
//! queries without JavaScript (`style/still.css`); the fleet's drawing for its width, by
//! container queries ([`fleet::rung_css`]).
//!
//! The same writers make the static pages readers without JavaScript get
//! ([`crate::view::pages`]): each step's header, stage and narration with links between the pages
//! ([`Links::Static`]) instead of the app's.

use crate::i18n::{Key, Lang};
use crate::link::{self, Link};
use crate::playback::{DEFAULT_SPEED, SPEEDS};
use crate::sim::{Chapter, Profile, SimTime};
use crate::view::html::{cat, escape};
use crate::view::pages::{self, Words, paragraphs, step_href};
use crate::view::session::Session;
use crate::view::stage::{Layout, Scene, Timing, caption, leases_markup, scene_markup};
use crate::view::stories::{self, Listed};
use crate::view::told::Told;
use crate::view::track::{self, EventClass, RequestClass, Track, VIEW_WIDTH};
use crate::view::{fleet, zonechart};

/// The mark in `index.html` the build puts the first step's still view in.
pub const MARK: &str = "<!-- nodeline:still -->";
/// The attribute every element of the still view carries (the app and the script find them by it).
pub const ATTR: &str = "data-still";
/// The folder of the chapters' still files, next to `index.html`.
pub const DIR: &str = "still";

/// The ids the timeline bar's descriptions carry (the app's bar and the still one).
pub const HELP_ID: &str = "tl-help";
pub const NOT_REACHED_ID: &str = "tl-not-reached";

/// The icons of the timeline's buttons (16×16 paths).
pub const ICON_PLAY: &str = "M4 2.2v11.6L13.4 8z";
pub const ICON_PREVIOUS: &str = "M2.5 2.5h2v11h-2zM13.5 2.5v11L5.5 8z";
pub const ICON_NEXT: &str = "M11.5 2.5h2v11h-2zM2.5 2.5v11l8-5.5z";

/// The request classes and event classes of the timeline's legend, with their names.
pub const LEGEND_REQUESTS: [(RequestClass, Key); 8] = [
    (RequestClass::Kubelet, Key::TrackLegendKubelet),
    (RequestClass::Controller, Key::TrackLegendControllers),
    (RequestClass::Scheduler, Key::TrackLegendScheduler),
    (RequestClass::Client, Key::TrackLegendKubectl),
    (RequestClass::Eviction, Key::TrackLegendEviction),
    (RequestClass::EvictionRefused, Key::TrackLegendEvictionRefused),
    (RequestClass::Routine, Key::TrackLegendRoutine),
    (RequestClass::Timeout, Key::TrackLegendTimeout),
];
pub const LEGEND_EVENTS: [(EventClass, Key); 2] =
    [(EventClass::Normal, Key::TrackLegendNormal), (EventClass::Warning, Key::TrackLegendWarning)];

/// Where the still view's links go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Links {
    /// The app's (`?chapter=…`): the still view in `index.html` and its step files, whose script
    /// takes the clicks while the app loads.
    App,
    /// The static pages' ([`pages::page_href`]), for readers without JavaScript: a chapter, a
    /// language or a step is another page in the same folder; "Play from this step" opens the app.
    /// Controls that need a script (the timeline bar, question mode, "Read this step") are left
    /// out, the step's text is shown open.
    Static,
}

impl Links {
    /// The link to step `n` of what is told in `lang` (the app's plays it; a static page shows
    /// it).
    fn step(self, lang: Lang, told: Told, n: usize) -> String {
        match self {
            Links::App => step_href(lang, told, n),
            Links::Static => pages::page_href(&told.key(), lang, n),
        }
    }
}

/// The header, as `chrome::Header` writes it for what is told in `lang` (at step `n`: a static
/// page's language switch keeps it), with the site's `stories` before the chapters they name
/// and the rest after them. Each item carries the name its pre-rendered steps go by
/// (`data-chapter`, [`Told::key`]), for the still script.
pub fn header(lang: Lang, told: Told, n: usize, links: Links, stories: &[Listed]) -> String {
    let t = |k| escape(lang.text(k));
    let current = |is: bool| if is { " aria-current=\"page\" class=\"current\"" } else { "" };
    let story_item = |o: &mut String, s: &Listed| {
        let key = stories::key(&s.id);
        let href = match links {
            Links::App => format!("?story={}&lang={}", s.id, lang.code()),
            Links::Static => pages::page_href(&key, lang, 1),
        };
        cat(
            o,
            &[
                "<li><a href=\"",
                &escape(&href),
                "\"",
                current(told.key() == key),
                " data-chapter=\"",
                &escape(&key),
                "\"><span class=\"chapter-number\">",
                &t(Key::StoryLabel),
                "</span><span class=\"chapter-title\">",
                &escape(s.title.get(lang)),
                "</span></a></li>",
            ],
        )
    };
    let mut o = String::with_capacity(4096);
    cat(
        &mut o,
        &[
            "<header class=\"site-header\" data-still=\"\"><div class=\"brand\"><h1>",
            &t(Key::AppTitle),
            "</h1><p class=\"tagline\">",
            &t(Key::Tagline),
            "</p></div><nav class=\"chapters\" aria-label=\"",
            &t(Key::ChapterNav),
            "\"><ol>",
        ],
    );
    for c in Chapter::ALL {
        for s in stories::before(stories, c) {
            story_item(&mut o, s);
        }
        let href = match links {
            Links::App => format!("?chapter={}&lang={}", c.id(), lang.code()),
            Links::Static => pages::page_href(c.id(), lang, 1),
        };
        cat(
            &mut o,
            &[
                "<li><a href=\"",
                &escape(&href),
                "\"",
                current(matches!(told, Told::Chapter(t) if t == c)),
                " data-chapter=\"",
                c.id(),
                "\"><span class=\"chapter-number\">",
                &escape(&lang.fill(Key::ChapterLabel, &[&c.number().to_string()])),
                "</span><span class=\"chapter-title\">",
                &escape(lang.chapter(c).title),
                "</span></a></li>",
            ],
        );
    }
    let more: Vec<&Listed> = stories::after_chapters(stories).collect();
    if !more.is_empty() {
        cat(&mut o, &["<li class=\"more-stories\">", &t(Key::MoreStories), "</li>"]);
        for s in more {
            story_item(&mut o, s);
        }
    }
    o.push_str("</ol></nav><div class=\"header-tools\">");
    if links == Links::App {
        cat(
            &mut o,
            &[
                "<button type=\"button\" class=\"secondary quiz-switch\" aria-pressed=\"false\">",
                &t(Key::QuizSwitch),
                "</button>",
            ],
        );
    }
    cat(&mut o, &["<nav class=\"lang-switch\" aria-label=\"", &t(Key::Language), "\"><ul>"]);
    for l in Lang::ALL {
        let href = match links {
            Links::App => format!("?{}", link::to_query(&Link { lang: Some(l), ..told.link() })),
            Links::Static => pages::page_href(&told.key(), l, n),
        };
        let current = if l == lang { " aria-current=\"true\" class=\"current\"" } else { "" };
        cat(
            &mut o,
            &[
                "<li><a href=\"",
                &escape(&href),
                "\" lang=\"",
                l.code(),
                "\" hreflang=\"",
                l.code(),
                "\"",
                current,
                " title=\"",
                &escape(&l.fill(Key::LanguageSwitch, &[l.endonym()])),
                "\" data-lang=\"",
                l.code(),
                "\">",
                l.endonym(),
                "</a></li>",
            ],
        );
    }
    cat(
        &mut o,
        &[
            "</ul></nav><span class=\"k8s-version\" title=\"",
            &t(Key::KubernetesVersion),
            "\">Kubernetes ",
            Profile::default().as_str(),
            "</span></div></header>",
        ],
    );
    o
}

/// The stage at `at`, paused: both drawings (the wide one and the narrow one), no packets.
fn stage(o: &mut String, session: &Session, at: SimTime, lang: Lang) {
    let timing = Timing::new(SPEEDS[DEFAULT_SPEED], false);
    cat(
        o,
        &[
            "<section class=\"stage\" aria-labelledby=\"stage-title\" aria-describedby=\"stage-desc\"><h2 id=\"stage-title\" class=\"sr-only\">",
            &escape(lang.text(Key::Stage)),
            "</h2><p id=\"stage-desc\" class=\"sr-only\">",
            &escape(lang.text(Key::StageDescription)),
            "</p>",
        ],
    );
    for (layout, class) in [(Layout::Wide, "wide"), (Layout::Narrow, "narrow")] {
        let scene = Scene::build_with(session, at, timing, layout, lang, false);
        cat(
            o,
            &[
                "<svg class=\"stage-svg ",
                class,
                "\" viewBox=\"",
                &scene.view_box(),
                "\"><g class=\"scene\">",
                &scene_markup(&scene, lang.text(Key::LinkCut)),
                "</g><g class=\"lease-cards\">",
                &leases_markup(&scene.store.leases),
                "</g><g class=\"packets\" aria-hidden=\"true\"></g></svg>",
            ],
        );
    }
    cat(
        o,
        &["<p class=\"stage-caption\">", &escape(&caption(session.timeline.log(), at, timing, lang)), "</p></section>"],
    );
}

/// The fleet's stage at `at`, as `app::fleet` writes it, its drawing and chart once for each of
/// the widths the app draws them at ([`fleet::WIDTHS`], each marked `data-rung`): the style
/// sheet's container queries show the one the app will draw at the stage's width.
fn fleet_stage(o: &mut String, session: &mut Session, at: SimTime, lang: Lang) {
    let t = |k| escape(lang.text(k));
    let log = session.timeline.log();
    let lines = fleet::ControllerLines::of(log);
    let settings = session.timeline.settings();
    let views = fleet::WIDTHS.map(|w| fleet::Fleet::build(&session.fleet, log, &lines, at, w, settings));
    let view = &views[0];
    let client = fleet::client_text(log, at, lang);
    let log_lines = fleet::controller_log(log, &lines, at, session.timeline.config().epoch, fleet::LOG_LINES);
    let chart = session.zone_chart(&crate::sim::ZONES);
    let moved = chart.moved(at, fleet::MOVED_WINDOW);
    let values = zonechart::values_text(view, lang);
    cat(
        o,
        &[
            "<section class=\"stage fleet-stage\" aria-labelledby=\"stage-title\"><h2 id=\"stage-title\" class=\"sr-only\">",
            &t(Key::FleetStage),
            "</h2><p class=\"fleet-help\">",
            &t(Key::FleetStageHelp),
            "</p>",
        ],
    );
    for view in &views {
        cat(
            o,
            &[
                "<svg class=\"fleet-svg\" data-rung=\"",
                &view.layout.width.to_string(),
                "\" role=\"img\" tabindex=\"0\" viewBox=\"",
                &format!("0 0 {:.0} {:.0}", view.layout.width, view.height),
                "\" aria-label=\"",
                &t(Key::FleetStage),
                "\" aria-describedby=\"fleet-desc\"><g>",
                &fleet::fleet_markup(view, lang, 0),
                "</g><g class=\"transfers\">",
                &fleet::transfer_markup(view, &moved, lang),
                "</g></svg>",
            ],
        );
    }
    cat(
        o,
        &[
            "<p class=\"fleet-client",
            if client.0 { " waiting" } else { "" },
            "\">",
            &escape(&client.1),
            "</p><p id=\"fleet-desc\" class=\"sr-only\">",
            &escape(&fleet::fleet_description(view, lang)),
            " ",
            &escape(&fleet::transfer_text(view, &moved, lang)),
            "</p><section class=\"zone-chart\" aria-labelledby=\"zone-chart-title\"><h3 id=\"zone-chart-title\">",
            &t(Key::ChartTitle),
            "</h3><p class=\"chart-legend\">",
            &t(Key::ChartLegend),
            "</p><p class=\"chart-legend\">",
            &t(Key::ChartHelp),
            "</p>",
        ],
    );
    for view in &views {
        let layout = zonechart::ChartLayout::of(&view.layout);
        cat(
            o,
            &[
                "<svg class=\"chart-svg\" data-rung=\"",
                &view.layout.width.to_string(),
                "\" role=\"slider\" tabindex=\"0\" viewBox=\"",
                &format!("0 0 {:.0} {:.0}", layout.width, layout.height(chart.zones.len())),
                "\" aria-label=\"",
                &t(Key::ChartPointName),
                "\" aria-describedby=\"zone-chart-values\" aria-valuemin=\"0\" aria-valuemax=\"",
                &(zonechart::SAMPLES - 1).to_string(),
                "\" aria-valuenow=\"",
                &chart.index_at(at).to_string(),
                "\" aria-valuetext=\"",
                &escape(&values),
                "\"><g>",
                &zonechart::chart_markup(&chart, lang, layout),
                "</g><g class=\"chart-overlay\">",
                &zonechart::overlay_markup(&chart, at, None, layout),
                "</g></svg>",
            ],
        );
    }
    cat(
        o,
        &[
            "<p class=\"chart-point\" aria-hidden=\"true\"></p><p id=\"zone-chart-values\" class=\"chart-values\" aria-live=\"off\">",
            &escape(&values),
            "</p></section><section class=\"controller-log\" aria-labelledby=\"controller-log-title\"><h3 id=\"controller-log-title\">",
            &t(Key::ControllerLog),
            "</h3><ol class=\"log-lines\">",
            &fleet::log_markup(&log_lines),
            "</ol></section></section>",
        ],
    );
}

/// A 16×16 icon of the timeline's buttons.
fn icon(o: &mut String, path: &str) {
    cat(
        o,
        &[
            "<svg class=\"tl-icon\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\" focusable=\"false\"><path d=\"",
            path,
            "\"></path></svg>",
        ],
    );
}

/// The timeline bar, paused at step `n`'s moment `at`.
fn timeline(o: &mut String, tr: &Track, told: Told, n: usize, at: SimTime, lang: Lang) {
    let t = |k| escape(lang.text(k));
    let count = tr.markers.len();
    let disabled = |off: bool| if off { " aria-disabled=\"true\"" } else { "" };
    cat(
        o,
        &[
            "<section class=\"timeline\" aria-label=\"",
            &t(Key::TimelineRegion),
            "\"><div class=\"tl-controls\"><div class=\"tl-transport\"><button type=\"button\" class=\"tl-play\">",
        ],
    );
    icon(o, ICON_PLAY);
    cat(
        o,
        &[
            "<span>",
            &t(Key::Play),
            "</span></button><button type=\"button\" class=\"secondary tl-step-button\" title=\"",
            &t(Key::PreviousStep),
            "\"",
            disabled(n <= 1),
            " data-go=\"-1\">",
        ],
    );
    icon(o, ICON_PREVIOUS);
    cat(
        o,
        &[
            "<span class=\"sr-only\">",
            &t(Key::PreviousStep),
            "</span></button><button type=\"button\" class=\"secondary tl-step-button\" title=\"",
            &t(Key::NextStep),
            "\"",
            disabled(n >= count),
            " data-go=\"1\">",
        ],
    );
    icon(o, ICON_NEXT);
    cat(
        o,
        &[
            "<span class=\"sr-only\">",
            &t(Key::NextStep),
            "</span></button></div><span class=\"tl-clock\" role=\"timer\" aria-label=\"",
            &t(Key::Clock),
            "\">",
            &at.clock_label(),
            "</span><div class=\"tl-options\"><label class=\"tl-speed\"><span>",
            &t(Key::Speed),
            "</span><select>",
        ],
    );
    for (i, s) in SPEEDS.iter().enumerate() {
        let selected = if i == DEFAULT_SPEED { " selected=\"\"" } else { "" };
        cat(
            o,
            &[
                "<option value=\"",
                &i.to_string(),
                "\"",
                selected,
                ">",
                &escape(&lang.fill(Key::SpeedValue, &[&s.to_string()])),
                "</option>",
            ],
        );
    }
    cat(
        o,
        &[
            "</select></label><label class=\"tl-skip\"><input type=\"checkbox\" checked=\"\"><span>",
            &t(Key::SkipQuiet),
            "</span></label></div></div><p class=\"tl-status\"></p><div class=\"tl-track\"><div class=\"tl-markers\">",
        ],
    );
    let steps = told.text(lang).steps;
    for m in &tr.markers {
        let title = steps.get(m.n - 1).map(|s| s.title).unwrap_or_default();
        let title = match m.t {
            Some(at) => lang.fill(Key::StepMarkerTitle, &[&m.n.to_string(), title, &at.clock_label()]),
            None => lang.text(Key::StepNotReached).to_string(),
        };
        let passed = m.t.is_some() && n >= m.n;
        let class = match (m.t.is_some(), passed) {
            (false, _) => "tl-marker unreached",
            (true, true) => "tl-marker passed",
            (true, false) => "tl-marker",
        };
        let current = if m.t.is_some() && n == m.n { " aria-current=\"step\"" } else { "" };
        let clock = m.t.map(|t| format!(" data-clock=\"{}\"", t.clock_label())).unwrap_or_default();
        cat(
            o,
            &[
                "<button type=\"button\" class=\"",
                class,
                "\" data-x=\"",
                &format!("{:.5}", m.pos),
                "\" data-step=\"",
                &m.n.to_string(),
                "\" aria-label=\"",
                &escape(&lang.fill(Key::StepLabel, &[&m.n.to_string()])),
                "\" title=\"",
                &escape(&title),
                "\"",
                current,
                &clock,
                "><span class=\"tl-dot\">",
                &m.n.to_string(),
                "</span></button>",
            ],
        );
    }
    let played = format!("{:.5}", track::fraction(at, tr.end));
    o.push_str(
        "</div><svg class=\"tl-pins\" aria-hidden=\"true\" focusable=\"false\" width=\"100%\" height=\"10\"><path d=\"\"></path></svg>",
    );
    let end_s = (tr.end.as_millis() / 1000).to_string();
    let now_s = (at.as_millis() / 1000).to_string();
    cat(
        o,
        &[
            "<div class=\"tl-scrub\" role=\"slider\" tabindex=\"0\" aria-label=\"",
            &t(Key::Timeline),
            "\" aria-describedby=\"",
            HELP_ID,
            "\" aria-orientation=\"horizontal\" aria-valuemin=\"0\" aria-valuemax=\"",
            &end_s,
            "\" aria-valuenow=\"",
            &now_s,
            "\" aria-valuetext=\"",
            &at.clock_label(),
            "\"><div class=\"tl-played\" data-w=\"",
            &played,
            "\"></div><div class=\"tl-step-lines\">",
        ],
    );
    for m in tr.markers.iter().filter(|m| m.t.is_some()) {
        cat(o, &["<span class=\"tl-step-line\" data-x=\"", &format!("{:.5}", m.pos), "\"></span>"]);
    }
    cat(
        o,
        &[
            "</div><svg class=\"tl-requests\" viewBox=\"0 0 ",
            &VIEW_WIDTH.to_string(),
            " 22\" preserveAspectRatio=\"none\" aria-hidden=\"true\" focusable=\"false\">",
        ],
    );
    for class in RequestClass::ALL {
        let (y0, y1) = match class {
            RequestClass::Routine => (7.0, 15.0),
            RequestClass::Timeout => (0.0, 22.0),
            _ => (3.0, 19.0),
        };
        cat(
            o,
            &["<path class=\"", class.css(), "\" d=\"", &track::tick_path(&tr.requests, class, y0, y1), "\"></path>"],
        );
    }
    o.push_str("</svg><div class=\"tl-events\" aria-hidden=\"true\">");
    for e in &tr.events {
        cat(o, &["<span class=\"tl-event ", e.class.css(), "\" data-x=\"", &format!("{:.5}", e.pos), "\"></span>"]);
    }
    cat(
        o,
        &[
            "</div><div class=\"tl-playhead\" data-x=\"",
            &played,
            "\"></div></div><div class=\"tl-axis\" aria-hidden=\"true\"><span>",
            &SimTime::ZERO.clock_label(),
            "</span><span>",
            &tr.end.clock_label(),
            "</span></div></div><div class=\"tl-footer\"><span class=\"tl-legend-group\" aria-hidden=\"true\"><span class=\"tl-legend-title\">",
            &t(Key::Requests),
            "</span>",
        ],
    );
    for (class, key) in LEGEND_REQUESTS {
        cat(
            o,
            &["<span class=\"tl-legend-item\"><span class=\"tl-swatch ", class.css(), "\"></span>", &t(key), "</span>"],
        );
    }
    cat(
        o,
        &[
            "</span><span class=\"tl-legend-group\" aria-hidden=\"true\"><span class=\"tl-legend-title\">",
            &t(Key::EventsTrack),
            "</span>",
        ],
    );
    for (class, key) in LEGEND_EVENTS {
        cat(
            o,
            &[
                "<span class=\"tl-legend-item\"><span class=\"tl-event tl-swatch-event ",
                class.css(),
                "\"></span>",
                &t(key),
                "</span>",
            ],
        );
    }
    cat(
        o,
        &[
            "</span><button type=\"button\" class=\"secondary tl-sheet-button\" aria-haspopup=\"dialog\"><kbd aria-hidden=\"true\">?</kbd><span>",
            &t(Key::Shortcuts),
            "</span></button></div><p id=\"",
            HELP_ID,
            "\" class=\"sr-only\">",
            &t(Key::TimelineHelp),
            "</p><p id=\"",
            NOT_REACHED_ID,
            "\" class=\"sr-only\">",
            &t(Key::StepNotReached),
            "</p></section>",
        ],
    );
}

/// The narration panel at step `n`, as `app::narration` writes it (the story as told). A static
/// page's is open, without the toggle and the unseen copies that size the app's.
fn narration(o: &mut String, told: Told, n: usize, lang: Lang, links: Links) {
    let text = told.text(lang);
    let step = &text.steps[n - 1];
    let app = links == Links::App;
    cat(
        o,
        &[
            if app {
                "<section class=\"narration panel\" aria-labelledby=\"narration-title\"><p class=\"step-of\">"
            } else {
                "<section class=\"narration panel open\" aria-labelledby=\"narration-title\"><p class=\"step-of\">"
            },
            &escape(&lang.fill(Key::StepOf, &[&n.to_string(), &text.steps.len().to_string()])),
            "</p><div class=\"narration-room\"><h2 id=\"narration-title\">",
            &escape(step.title),
            "</h2>",
        ],
    );
    let sizers = if app { text.steps } else { &[] };
    for s in sizers {
        cat(o, &["<p class=\"narration-sizer sizer-title\">", &escape(s.title), "</p>"]);
    }
    o.push_str("</div>");
    if app {
        cat(
            o,
            &[
                "<button type=\"button\" class=\"secondary narration-toggle\" aria-expanded=\"false\" aria-controls=\"narration-more\">",
                &escape(lang.text(Key::ReadStep)),
                "</button>",
            ],
        );
    }
    o.push_str(
        "<div id=\"narration-more\" class=\"narration-more\"><div class=\"narration-room\"><div class=\"step-body narration-body\">",
    );
    // A static page's terms point at nothing a script could highlight: its words are text.
    paragraphs(o, step.body, if app { Words::Narration } else { Words::Plain });
    o.push_str("</div>");
    for s in sizers {
        o.push_str("<div class=\"narration-sizer step-body\">");
        paragraphs(o, s.body, Words::Unseen);
        o.push_str("</div>");
    }
    let play = match links {
        Links::App => step_href(lang, told, n),
        Links::Static => pages::app_href(lang, told, n),
    };
    cat(
        o,
        &[
            "</div><p class=\"play-from\"><a href=\"",
            &escape(&play),
            "\" data-play=\"",
            &n.to_string(),
            "\"><span aria-hidden=\"true\" class=\"play-glyph\">▶</span>",
            &escape(lang.text(Key::PlayFromThisStep)),
            "</a></p><nav class=\"step-list\" aria-label=\"",
            &escape(lang.text(told.says(Key::StepsNav))),
            "\"><h3 class=\"story-head\" hidden=\"\">",
            &escape(lang.text(told.says(Key::AccountStory))),
            "</h3><p class=\"story-help\" hidden=\"\">",
            &escape(lang.text(told.says(Key::AccountStoryHelp))),
            "</p><ol>",
        ],
    );
    for (i, s) in text.steps.iter().enumerate() {
        let m = i + 1;
        let (class, current) = if m == n { (" class=\"current\"", " aria-current=\"step\"") } else { ("", "") };
        // The app's step list plays from the step; a static page's opens its page, named by its title.
        let label = match links {
            Links::App => [
                "\" aria-label=\"",
                &escape(&format!("{} {}", lang.fill(Key::PlayFromStep, &[&m.to_string()]), s.title)),
                "\"",
            ]
            .concat(),
            Links::Static => "\"".to_owned(),
        };
        cat(
            o,
            &[
                "<li",
                class,
                "><a href=\"",
                &escape(&links.step(lang, told, m)),
                &label,
                current,
                " data-step=\"",
                &m.to_string(),
                "\">",
                &escape(s.title),
                "</a></li>",
            ],
        );
    }
    o.push_str("</ol></nav></div></section>");
}

/// The still view of step `n` (1-based) of what is told (the session's) in `lang`: `<main>` with
/// the stage at the step's moment, the timeline bar and the narration. The session is computed
/// through (its track is read whole). A static page's has, in place of the timeline bar, links
/// to the previous and the next step ([`pages::pager`]).
pub fn step_view(told: Told, session: &mut Session, track: &Track, n: usize, lang: Lang, links: Links) -> String {
    let at = session.step_time(n).map_or(SimTime::ZERO, |s| s.moment);
    let mut o = String::with_capacity(64 * 1024);
    cat(
        &mut o,
        &[
            "<main class=\"layout\" data-still=\"\" data-chapter=\"",
            &escape(&told.key()),
            "\" data-lang=\"",
            lang.code(),
            "\" data-step=\"",
            &n.to_string(),
            match links {
                Links::App => "\" tabindex=\"-1\" aria-busy=\"true\"><div class=\"col-main\">",
                Links::Static => "\" id=\"story\"><div class=\"col-main\">",
            },
        ],
    );
    if told.is_fleet() {
        fleet_stage(&mut o, session, at, lang);
    } else {
        stage(&mut o, session, at, lang);
    }
    match links {
        Links::App => timeline(&mut o, track, told, n, at, lang),
        Links::Static => pages::pager(&mut o, told, n, lang),
    }
    o.push_str("</div><div class=\"col-side\">");
    narration(&mut o, told, n, lang, links);
    o.push_str("</div></main>");
    o
}

/// A chapter or a story computed through, as the app computes it for its plain link.
pub fn session(told: Told) -> Session {
    let mut session = Session::for_link(&told.link(), told.story());
    // The build computes it whole, a fleet too.
    session.progressive = false;
    session.ensure(SimTime::ZERO);
    session
}

/// A step of a chapter or a story as the build writes it: its still view, and its static page's
/// header and view.
pub struct StepViews {
    pub lang: Lang,
    pub n: usize,
    /// The still view's header (the same for every step) and `<main>`.
    pub header: String,
    pub view: String,
    /// The static page's.
    pub page_header: String,
    pub page_view: String,
}

/// Every step of what is told in each language, in [`Lang::ALL`] order, then step by step; the
/// header lists the site's `stories`.
pub fn views(told: Told, stories: &[Listed]) -> Vec<StepViews> {
    let mut session = session(told);
    let track = Track::of(&session);
    let count = told.steps();
    let mut out = Vec::with_capacity(count * Lang::ALL.len());
    for lang in Lang::ALL {
        let header = header(lang, told, 1, Links::App, stories);
        for n in 1..=count {
            out.push(StepViews {
                lang,
                n,
                header: header.clone(),
                view: step_view(told, &mut session, &track, n, lang, Links::App),
                page_header: self::header(lang, told, n, Links::Static, stories),
                page_view: step_view(told, &mut session, &track, n, lang, Links::Static),
            });
        }
    }
    out
}

/// A JavaScript string literal of `s` (a JSON string is one).
fn js_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The name of a step's still file (in [`DIR`]).
pub fn file_name(told: Told, lang: Lang, n: usize) -> String {
    format!("{}.{}.{n}.js", told.key(), lang.code())
}

/// A step's still file: a script that hands the still script the step's header and view
/// (`nodelineStill`, a queue the still script reads). One file a step: a step's markup is about
/// 10 KB gzip, a chapter's a hundred.
pub fn step_file(told: Told, lang: Lang, n: usize, header: &str, view: &str) -> String {
    format!(
        "(self.nodelineStill=self.nodelineStill||[]).push({{c:{},l:{},n:{n},h:{},s:{}}});\n\
         document.dispatchEvent(new Event(\"nodeline-still\"));\n",
        js_string(&told.key()),
        js_string(lang.code()),
        js_string(header),
        js_string(view)
    )
}

/// The still script: what it knows of the chapters, the site's `stories` and the languages (and,
/// in each language, what it says while the app loads a link it cannot show as told, and when
/// the app cannot start), then `still.js`. The chapters come first: the first is the page's.
pub fn script(stories: &[Told]) -> String {
    let told: Vec<Told> = Chapter::ALL.into_iter().map(Told::Chapter).chain(stories.iter().copied()).collect();
    let chapters: Vec<String> = told.iter().map(|t| format!("{}:{}", js_string(&t.key()), t.steps())).collect();
    // Where each step starts (ms), as the app finds it in the chapter as told: a link that names
    // a time stands at the step that time falls in.
    let starts: Vec<String> = told
        .iter()
        .map(|t| {
            let mut s = session(*t);
            let starts: Vec<String> = (1..=t.steps())
                .map(|n| s.step_time(n).map_or(-1, |t| t.start.as_millis() as i64).to_string())
                .collect();
            format!("{}:[{}]", js_string(&t.key()), starts.join(","))
        })
        .collect();
    let aliases = ["cluster-node-registration", "cluster-node-failure", "cluster-node-restart"];
    let aliases: Vec<String> = aliases
        .iter()
        .filter_map(|a| Chapter::from_id(a).map(|c| format!("{}:{}", js_string(a), js_string(c.id()))))
        .collect();
    let langs: Vec<String> = Lang::ALL.iter().map(|l| js_string(l.code())).collect();
    let said = |key: Key| -> String {
        let by_lang: Vec<String> =
            Lang::ALL.iter().map(|l| format!("{}:{}", js_string(l.code()), js_string(l.text(key)))).collect();
        by_lang.join(",")
    };
    format!(
        "(function () {{\n\"use strict\";\nvar STEPS = {{{}}};\nvar STARTS = {{{}}};\nvar ALIASES = {{{}}};\nvar LANGS = [{}];\nvar LOADING = {{{}}};\nvar FAILED = {{{}}};\nvar DIR = {};\n{}}})();\n",
        chapters.join(","),
        starts.join(","),
        aliases.join(","),
        langs.join(","),
        said(Key::StillLoading),
        said(Key::StillFailed),
        js_string(DIR),
        bare_script(include_str!("still.js"))
    )
}

/// A script without its comment lines, indentation and blank lines (`still.js` explains itself
/// at length; the page need not carry that). Only whole lines that are comments go, so a `//` in
/// a string or a regular expression stays.
fn bare_script(js: &str) -> String {
    let mut out = String::with_capacity(js.len());
    for line in js.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
