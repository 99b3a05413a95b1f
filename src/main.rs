//! The `nodeline` binary: the web app when built for wasm32 (by trunk), the command line
//! everywhere else.

#[cfg(target_arch = "wasm32")]
fn main() {
    nodeline::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    nodeline::cli::main()
}
