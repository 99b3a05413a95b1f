//! A minimal Leptos page built the way nodeline is (same profile, trunk, wasm-opt): a clock text
//! driven by a requestAnimationFrame loop behind a Play button. `cargo xtask bench` loads it and
//! plays it like nodeline, and prints nodeline's figures as ratios to these.

#[cfg(target_arch = "wasm32")]
fn main() {
    use leptos::prelude::*;

    fn frame(t: RwSignal<f64>, playing: RwSignal<bool>) {
        request_animation_frame(move || {
            if playing.get_untracked() {
                t.update(|t| *t += 1.0);
                frame(t, playing);
            }
        });
    }

    leptos::mount::mount_to_body(|| {
        let t = RwSignal::new(0.0f64);
        let playing = RwSignal::new(false);
        view! {
            <main>
                <h1>"minimal"</h1>
                <p aria-label="Simulated time">{move || format!("T+{}", t.get())}</p>
                <button
                    type="button"
                    on:click=move |_| {
                        let now = !playing.get_untracked();
                        playing.set(now);
                        if now {
                            frame(t, playing);
                        }
                    }
                >
                    {move || if playing.get() { "Pause" } else { "Play" }}
                </button>
            </main>
        }
    });
    if let Some(p) = window().performance() {
        let _ = p.mark("nodeline-interactive");
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("nodeline-minimal is a web page: `cargo xtask bench` builds it for wasm32 with trunk");
}
