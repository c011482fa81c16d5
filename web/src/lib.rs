//! glsolve in the browser: the library's kernels, solvers and viewer on a WebGL2 context the
//! JavaScript side made (on a page's canvas or a worker's OffscreenCanvas). The npm package
//! (web/package) wraps what this crate exports: [`App`] owns the context — or knows why there is
//! none, and then runs the f64 cpu paths alone — and solves LPs with per-iteration progress and
//! an interrupt ([`lp`]), factors and solves dense systems ([`dense`]), records runs pass by pass
//! for the viewer ([`Replay`]), times them for the benchmark, or checks them against
//! double-precision references for the in-browser test suite. Every failure is a JavaScript
//! `Error` with a `code` ([`errors`]).
//!
//! Everything GL goes through `glsolve::gl`, on the context `Gpu::from_glow` wraps; what cannot
//! exist in a browser (EGL, threads of our own, files) is not compiled for it. [`matrix`],
//! [`progress`] and [`case`] are plain Rust, tested natively by tests/web_glue.rs.

pub mod case;
pub mod errors;
pub mod matrix;
pub mod progress;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod bench;
#[cfg(target_arch = "wasm32")]
mod dense;
#[cfg(target_arch = "wasm32")]
mod lp;
#[cfg(target_arch = "wasm32")]
mod model;
#[cfg(target_arch = "wasm32")]
mod replay;
#[cfg(target_arch = "wasm32")]
mod selftest;
#[cfg(target_arch = "wasm32")]
mod spec;

#[cfg(target_arch = "wasm32")]
pub use app::App;
#[cfg(target_arch = "wasm32")]
pub use replay::Replay;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

/// Every Cholesky variant, by the names its `FromStr` takes (JSON list, the library's `Named`
/// order): the papers' first, then the blocked and the tiled ones.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn variants() -> String {
    use glsolve::{cholesky::Variant, Named};
    let names: Vec<&str> = <Variant as Named>::all().iter().map(|&v| Named::name(v)).collect();
    serde_json::to_string(&names).unwrap_or_default()
}

/// A panic is a bug; its message goes to the console before the module stops.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let text = format!("glsolve panicked: {info}");
        web_sys::console::error_1(&text.into());
    }));
}
