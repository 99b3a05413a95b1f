//! Stories of the site's (`?story=ID`): read from `stories/ID.story`, the form `nodeline story
//! build` and `cargo xtask build` write ([`crate::story::compact`]), on the page's own origin and
//! nowhere else. A story read is kept for the page's lifetime ([`Loaded`]).

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::link::is_dns_label;
use crate::sim::Chapter;
use crate::story::{Story, Words, compact};
use crate::view::notice::StoryFailure;
use crate::view::stories::{Listed, Loaded};

thread_local! {
    /// Every story read so far, by id: each is read once, and its words live as long as the page.
    static READ: RefCell<Vec<&'static Loaded>> = const { RefCell::new(Vec::new()) };
}

/// Keeps a story for the page's lifetime, with its words as chapters' are.
fn keep(story: Story) -> &'static Loaded {
    let loaded = Loaded::keep(story);
    READ.with(|r| r.borrow_mut().push(loaded));
    loaded
}

/// The story `id` of the page's site, read once. `id` is a DNS label (the link's parser lets
/// nothing else through), so the address stays in the site's `stories/`.
pub async fn open(id: &str) -> Result<&'static Loaded, StoryFailure> {
    debug_assert!(is_dns_label(id), "{id}");
    if let Some(loaded) = READ.with(|r| r.borrow().iter().copied().find(|l| l.story.id == id)) {
        return Ok(loaded);
    }
    let text = if may_fetch() {
        fetch_text(&crate::view::stories::path(id)).await?
    } else {
        // The single file fetches nothing: it carries the site's stories in itself.
        embedded(id).ok_or(StoryFailure::SingleFile)?
    };
    let story = compact::read_as(&text, Some(id)).map_err(StoryFailure::Broken)?;
    Ok(keep(story))
}

/// Whether the page may fetch from its site: not the single-file `nodeline.html`, whose own
/// policy (the one page with a `<meta>` Content-Security-Policy) lets it fetch nothing at all.
fn may_fetch() -> bool {
    document().query_selector("meta[http-equiv=\"Content-Security-Policy\"]").ok().flatten().is_none()
}

/// The story `id` as the single file carries it ([`crate::view::stories::embedded_id`]).
fn embedded(id: &str) -> Option<String> {
    document().get_element_by_id(&crate::view::stories::embedded_id(id)).and_then(|e| e.text_content())
}

/// The text at `path` on the page's own site.
async fn fetch_text(path: &str) -> Result<String, StoryFailure> {
    let unreachable = |e: wasm_bindgen::JsValue| {
        StoryFailure::Unreachable(
            e.as_string().or_else(|| js_sys::JSON::stringify(&e).ok().map(String::from)).unwrap_or_default(),
        )
    };
    let response = JsFuture::from(window().fetch_with_str(path)).await.map_err(unreachable)?;
    let response: web_sys::Response = response.dyn_into().map_err(unreachable)?;
    if !response.ok() {
        return Err(StoryFailure::Missing { status: response.status() });
    }
    let text = JsFuture::from(response.text().map_err(unreachable)?).await.map_err(unreachable)?;
    text.as_string().ok_or_else(|| StoryFailure::Unreachable("not text".into()))
}

/// The site's stories as the build listed them in the page (`view::stories::list_markup`), for
/// the chapter list: none where the page cannot fetch them.
pub fn listed() -> Vec<Listed> {
    let selector = format!("#{}", crate::view::stories::LIST_ID);
    let Some(list) = document().query_selector(&selector).ok().flatten() else { return Vec::new() };
    // The single file lists the stories it carries.
    let carried = |id: &str| may_fetch() || embedded(id).is_some();
    let mut out = Vec::new();
    let mut item = list.first_element_child();
    while let Some(li) = item {
        if let Some(a) = li.first_element_child() {
            let href = a.get_attribute("href").unwrap_or_default();
            if let Some(id) = crate::view::stories::id_of(&href).filter(|id| carried(id)) {
                let en = a.text_content().unwrap_or_default();
                let before = a.get_attribute("data-before").and_then(|c| Chapter::from_id(&c));
                out.push(Listed { id: id.to_string(), title: Words { en, ja: a.get_attribute("data-ja") }, before });
            }
        }
        item = li.next_element_sibling();
    }
    out
}

/// Opens the story `id` in place (the chapter list's links); one that cannot be read leaves the
/// page as it is, and says why.
pub fn open_in_place(ctx: super::state::AppCtx, id: String) {
    wasm_bindgen_futures::spawn_local(async move {
        match open(&id).await {
            // A story of another Kubernetes version is another page (the version is the page's).
            Ok(loaded) if loaded.story.config.profile != ctx.profile => {
                let _ =
                    window().location().set_search(&format!("?story={id}&lang={}", ctx.lang.get_untracked().code()));
            }
            Ok(loaded) => ctx.load_story(loaded, &[]),
            Err(failure) => {
                let lang = ctx.lang.get_untracked();
                for text in
                    crate::view::notice::story_failure_texts(lang, &id, &crate::view::stories::path(&id), &failure)
                {
                    ctx.notify(text);
                }
            }
        }
    });
}
