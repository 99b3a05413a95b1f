//! The size floor `cargo xtask bench` prints: the minimal Leptos page (`bench/minimal`) plus
//! every part of nodeline that is not a view, all of it reachable from one text field: link
//! parsing, the simulation, the kubectl, YAML and request renderers, and both languages'
//! catalogues. Whatever the page's components cost comes on top of this, so its first load says
//! how much of the size budget is left for them.

#[cfg(target_arch = "wasm32")]
fn main() {
    use leptos::prelude::*;
    use nodeline::i18n::{Key, Lang};
    use nodeline::sim::{Chapter, Config, SimTime, Timeline};

    fn compute(line: &str) -> String {
        let location = window().location();
        let (link, _) =
            nodeline::link::parse(&location.search().unwrap_or_default(), &location.hash().unwrap_or_default());
        let mut timeline = Timeline::with_actions(link.chapter, Config::default(), &link.actions);
        let t = link.t.unwrap_or(SimTime::from_secs(600));
        timeline.run_until(t);
        let snapshot = timeline.at(t);
        let output = nodeline::view::inspector::kubectl::run(line, &snapshot);
        let mut text = nodeline::view::inspector::kubectl::output_markup(line, &output);
        for object in snapshot.objects() {
            text.push_str(&nodeline::render::yaml::to_string(&object.to_json()));
        }
        text.push_str(&nodeline::view::inspector::requests::markup(
            timeline.log(),
            t,
            None,
            link.lang.unwrap_or_default(),
        ));
        for lang in Lang::ALL {
            for key in Key::ALL {
                text.push_str(lang.text(*key));
            }
            for chapter in Chapter::ALL {
                let chapter = lang.chapter(chapter);
                text.push_str(chapter.title);
                text.push_str(chapter.summary);
                for step in chapter.steps {
                    text.push_str(step.title);
                    step.body.iter().for_each(|p| text.push_str(p));
                }
            }
        }
        text
    }

    leptos::mount::mount_to_body(|| {
        let out = RwSignal::new(String::new());
        view! {
            <main>
                <input aria-label="kubectl" on:change=move |e| out.set(compute(&event_target_value(&e))) />
                <pre>{move || out.get()}</pre>
            </main>
        }
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("nodeline-floor is a web page: `cargo xtask bench` builds it for wasm32 with trunk");
}
