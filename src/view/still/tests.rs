//! The still view's tests.

use super::*;

#[test]
fn a_step_is_its_moment_with_its_narration_and_timeline() {
    let views = views(Told::Chapter(Chapter::NodeFailure), &[]);
    let count = Chapter::NodeFailure.scenario().steps.len();
    assert_eq!(views.len(), Lang::ALL.len() * count);
    let lang = &views[0].lang;
    let header = &views[0].header;
    let steps: Vec<&String> = views.iter().filter(|v| v.lang == Lang::En).map(|v| &v.view).collect();
    assert_eq!(*lang, Lang::En);
    assert_eq!(steps.len(), count);
    assert!(header.contains("aria-current=\"page\" class=\"current\" data-chapter=\"node-failure\""), "{header}");
    let three = steps[2];
    let title = Lang::En.chapter(Chapter::NodeFailure).steps[2].title;
    assert!(three.contains(&format!("<h2 id=\"narration-title\">{}</h2>", escape(title))), "{three}");
    assert!(three.contains("<svg class=\"stage-svg wide\"") && three.contains("<svg class=\"stage-svg narrow\""));
    // Step 3 ("The grace period runs out: Unknown") shows node-1 Unknown at its moment.
    assert!(three.contains("Unknown"), "step 3's stage shows the node Unknown");
    assert!(three.contains("aria-current=\"step\" data-step=\"3\""));
    // Nothing a strict Content-Security-Policy refuses.
    for s in views.iter().flat_map(|v| [&v.view, &v.header, &v.page_view, &v.page_header]) {
        assert!(!s.contains("<script") && !s.contains("<style"));
        for (i, _) in s.match_indices("=\"") {
            let name = &s[s[..i].rfind([' ', '<']).unwrap() + 1..i];
            assert!(name != "style" && !name.starts_with("on"), "a {name} attribute");
        }
    }
    let file = step_file(Told::Chapter(Chapter::NodeFailure), *lang, 3, header, three);
    assert!(file.starts_with("(self.nodelineStill="), "{}", &file[..200]);
    assert!(file.contains("c:\"node-failure\",l:\"en\",n:3,"));
}

/// A story of the site's, kept as the build keeps one (read from its YAML: natively only).
#[cfg(not(target_arch = "wasm32"))]
fn two_nodes_fail() -> Told {
    let text = include_str!("../../../stories/two-nodes-fail.yaml");
    Told::Story(stories::Loaded::keep(crate::story::load(text, Some("two-nodes-fail")).unwrap()))
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_story_s_steps_are_its_own_moments_and_words() {
    let told = two_nodes_fail();
    let Told::Story(loaded) = told else { unreachable!() };
    let stories = [Listed::of(loaded.story)];
    let views = views(told, &stories);
    assert_eq!(views.len(), Lang::ALL.len() * told.steps());
    let v = views.iter().find(|v| v.lang == Lang::Ja && v.n == 3).unwrap();
    let text = told.text(Lang::Ja);
    assert!(v.view.contains(
        "<main class=\"layout\" data-still=\"\" data-chapter=\"story.two-nodes-fail\" data-lang=\"ja\" data-step=\"3\""
    ));
    assert!(v.view.contains(&format!("<h2 id=\"narration-title\">{}</h2>", escape(text.steps[2].title))));
    // Its third step is both nodes Unknown: the stage says so.
    assert!(v.view.contains("Unknown"), "step 3's stage shows the nodes Unknown");
    assert!(v.view.contains("href=\"?story=two-nodes-fail&amp;step=3&amp;lang=ja\" data-play=\"3\""));
    // The header marks the story, not a chapter; its language switch keeps the story.
    assert!(v.header.contains("aria-current=\"page\" class=\"current\" data-chapter=\"story.two-nodes-fail\""));
    assert!(!v.header.contains("aria-current=\"page\" class=\"current\" data-chapter=\"registration\""));
    assert!(v.header.contains("href=\"?story=two-nodes-fail&amp;lang=en\" lang=\"en\""), "{}", v.header);
    // Its static page links its own pages and the app at the story.
    assert!(v.page_view.contains("<a rel=\"next\" href=\"story.two-nodes-fail.ja.4.html\">"));
    assert!(v.page_view.contains("href=\"../?story=two-nodes-fail&amp;step=3&amp;lang=ja\""));
    assert!(v.page_header.contains("href=\"story.two-nodes-fail.en.3.html\""), "the other language, same step");
    assert_eq!(file_name(told, Lang::Ja, 3), "story.two-nodes-fail.ja.3.js");
    // The still script knows it after the chapters, by the name its files go by.
    let js = script(&[told]);
    let count = told.steps();
    assert!(js.contains(&format!("\"node-goes-away\":10,\"story.two-nodes-fail\":{count}}}")), "{js}");
    assert!(js.contains("\"story.two-nodes-fail\":["));
    assert!(step_file(told, Lang::Ja, 3, &v.header, &v.view).contains("c:\"story.two-nodes-fail\",l:\"ja\",n:3,"));
}

#[test]
fn a_static_page_links_pages_and_needs_no_script() {
    let views = views(Told::Chapter(Chapter::KubeletRestart), &[]);
    let count = Chapter::KubeletRestart.scenario().steps.len();
    let v = views.iter().find(|v| v.lang == Lang::Ja && v.n == 2).unwrap();
    let text = Lang::Ja.chapter(Chapter::KubeletRestart);
    // The step's stage, its text open, its links to the other pages and to the app.
    assert!(v.page_view.contains("<svg class=\"stage-svg wide\""));
    assert!(v.page_view.contains("<section class=\"narration panel open\""));
    for p in text.steps[1].body {
        let mut para = String::new();
        paragraphs(&mut para, &[p], Words::Plain);
        assert!(v.page_view.contains(&para), "{p}");
    }
    for m in 1..=count {
        let href = pages::page_href("kubelet-restart", Lang::Ja, m);
        let current = if m == 2 { " aria-current=\"step\"" } else { "" };
        assert!(v.page_view.contains(&format!("<a href=\"{href}\"{current} data-step=\"{m}\">")), "step {m}");
    }
    assert!(v.page_view.contains("<a rel=\"prev\" href=\"kubelet-restart.ja.1.html\">"));
    assert!(v.page_view.contains("<a rel=\"next\" href=\"kubelet-restart.ja.3.html\">"));
    assert!(v.page_view.contains("href=\"../?chapter=kubelet-restart&amp;step=2&amp;lang=ja\""));
    assert!(v.page_header.contains("href=\"node-failure.ja.1.html\""));
    assert!(v.page_header.contains("href=\"kubelet-restart.en.2.html\""), "the other language, same step");
    // Nothing that needs a script: no timeline bar, no question mode, no toggle, no unseen copy.
    for gone in ["<button", "class=\"timeline\"", "narration-sizer", "aria-busy", "?chapter=kubelet-restart&amp;lang"] {
        assert!(!v.page_view.contains(gone) && !v.page_header.contains(gone), "{gone}");
    }
    // The still view itself keeps the app's links and controls.
    assert!(v.view.contains("class=\"tl-play\"") && v.header.contains("quiz-switch"));
    assert!(!v.view.contains(".html\""));
}

#[test]
fn the_header_lists_the_site_s_stories_after_the_chapters() {
    let two = crate::story::Words { en: "Two nodes fail".into(), ja: Some("二台".into()) };
    let stories = [Listed { id: "two-nodes-fail".into(), title: two, before: None }];
    let node_failure = Told::Chapter(Chapter::NodeFailure);
    let app = header(Lang::Ja, node_failure, 1, Links::App, &stories);
    let chapters = app.find("data-chapter=\"node-goes-away\"").unwrap();
    let more = app.find("<li class=\"more-stories\">ほかのストーリー</li>").expect("the label");
    assert!(chapters < more, "{app}");
    assert!(
        app.contains(
            "<li><a href=\"?story=two-nodes-fail&amp;lang=ja\" data-chapter=\"story.two-nodes-fail\">\
             <span class=\"chapter-number\">ストーリー</span><span class=\"chapter-title\">二台</span></a></li></ol>"
        ),
        "{app}"
    );
    // A static page links the story's own static pages.
    let page = header(Lang::En, node_failure, 1, Links::Static, &stories);
    assert!(page.contains("<li><a href=\"story.two-nodes-fail.en.1.html\" data-chapter=\"story.two-nodes-fail\">"));
    // No stories, no label.
    assert!(!header(Lang::En, node_failure, 1, Links::App, &[]).contains("more-stories"));
    // A story listed before a chapter comes just before it, and no label then.
    let tls = crate::story::Words { en: "Before the Node".into(), ja: None };
    let first = [Listed { id: "tls-bootstrap".into(), title: tls, before: Some(Chapter::Registration) }];
    let app = header(Lang::En, node_failure, 1, Links::App, &first);
    assert!(
        app.contains(
            "<ol><li><a href=\"?story=tls-bootstrap&amp;lang=en\" data-chapter=\"story.tls-bootstrap\">\
             <span class=\"chapter-number\">Story</span>\
             <span class=\"chapter-title\">Before the Node</span></a></li><li><a href=\"?chapter=registration"
        ),
        "{app}"
    );
    assert!(!app.contains("more-stories"), "{app}");
}

#[test]
fn a_fleet_step_draws_the_fleet_and_its_chart() {
    let zone_outage = Told::Chapter(Chapter::ZoneOutage);
    let mut session = session(zone_outage);
    let track = Track::of(&session);
    let view = step_view(zone_outage, &mut session, &track, 3, Lang::En, Links::App);
    assert!(view.contains("<section class=\"stage fleet-stage\""), "{}", &view[..400]);
    assert!(view.contains("<svg class=\"fleet-svg\"") && view.contains("<svg class=\"chart-svg\""));
    assert!(view.contains("PartialDisruption"), "step 3's zone is in partial disruption");
}

#[test]
fn the_script_knows_every_chapter_and_language() {
    let js = script(&[]);
    for c in Chapter::ALL {
        assert!(js.contains(&format!("\"{}\":{}", c.id(), c.scenario().steps.len())));
    }
    assert!(js.contains("\"cluster-node-failure\":\"node-failure\""));
    assert!(js.contains("\"en\"") && js.contains("\"ja\""));
    assert!(js.contains(&format!("\"ja\":{}", js_string(Lang::Ja.text(Key::StillLoading)))));
    assert!(js.contains(&format!("var FAILED = {{\"en\":{}", js_string(Lang::En.text(Key::StillFailed)))));
    // Each chapter's steps' starts, in order, as the app finds them.
    let mut s = session(Told::Chapter(Chapter::NodeFailure));
    let starts: Vec<String> = (1..=6).map(|n| s.step_time(n).unwrap().start.as_millis().to_string()).collect();
    assert!(js.contains(&format!("\"node-failure\":[{}]", starts.join(","))), "{js}");
    assert!(starts.windows(2).all(|w| w[0].parse::<u64>().unwrap() < w[1].parse::<u64>().unwrap()));
    assert_eq!(
        bare_script("// a note\n  var a = \"//x\";\n\n\tif (a) b(); // kept\n"),
        "var a = \"//x\";\nif (a) b(); // kept\n"
    );
    assert!(!js.contains("\n//") && !js.contains("\n "));
}
