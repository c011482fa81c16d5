//! glsolve in the browser: the library's kernels, solvers and viewer on the page's WebGL2
//! context. The page (web/static) calls what this crate exports: [`App`] owns the context and
//! runs algorithms — recorded pass by pass for the viewer ([`Replay`]), timed for the benchmark,
//! or checked against double-precision references for the in-browser test suite.
//!
//! Everything GL goes through `glsolve::gl`, on the context `Gpu::from_glow` wraps; what cannot
//! exist in a browser (EGL, threads of our own, files) is not compiled for it.
#![cfg(target_arch = "wasm32")]

mod bench;
mod lp;
mod replay;
mod selftest;
mod spec;

use glsolve::gl::{ContextHome, GlError, Gpu};
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext};

pub use replay::Replay;

/// A WebGL2 context is current for as long as it exists: there is nothing to switch.
struct Page;

impl ContextHome for Page {
    fn is_current(&self) -> bool {
        true
    }
    fn make_current(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Every Cholesky variant, by the names its `FromStr` takes (JSON list): the papers'
/// first, then the blocked ones.
#[wasm_bindgen]
pub fn variants() -> String {
    let names: Vec<&str> = glsolve::gpu::cholesky::Variant::all().map(|v| v.name()).collect();
    serde_json::to_string(&names).unwrap_or_default()
}

/// A panic is a bug; its message goes to the console before the module stops.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let text = format!("glsolve panicked: {info}");
        web_sys::console::error_1(&text.into());
    }));
}

/// Turns any error into the message the page shows.
fn js(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// The page's GPU: a WebGL2 context on a canvas, probed once.
#[wasm_bindgen]
pub struct App {
    gpu: Gpu,
}

#[wasm_bindgen]
impl App {
    /// Makes the WebGL2 context on `canvas`. No WebGL2, or no float render targets, is an error
    /// that says so.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: &HtmlCanvasElement, user_agent: &str) -> Result<App, JsError> {
        let attrs = web_sys::WebGlContextAttributes::new();
        attrs.set_antialias(false);
        attrs.set_depth(false);
        attrs.set_preserve_drawing_buffer(false);
        let context = canvas
            .get_context_with_context_options("webgl2", &attrs)
            .map_err(|e| JsError::new(&format!("the browser refused a WebGL2 context: {e:?}")))?
            .ok_or_else(|| {
                js(GlError::NoContext {
                    api: "WebGL",
                    major: 2,
                    minor: 0,
                    detail: "this browser offers no WebGL2 on this page (disabled, or no GPU driver it accepts)".into(),
                })
            })?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| JsError::new("the canvas returned a context that is not WebGL2"))?;
        let gl = glow::Context::from_webgl2_context(context);
        let platform = format!("WebGL2, {user_agent}");
        let gpu = Gpu::from_glow(gl, None, platform, Box::new(Page)).map_err(js)?;
        Ok(App { gpu })
    }

    /// The capability record, as `[name, value]` pairs (JSON).
    pub fn info(&self) -> String {
        serde_json::to_string(&self.gpu.info().lines()).unwrap_or_default()
    }

    /// The largest matrix side this context takes.
    pub fn max_side(&self) -> u32 {
        self.gpu.info().max_side()
    }

    /// Runs the algorithm a JSON spec describes (see `spec.rs`) with the viewer recording every
    /// pass.
    pub fn watch(&self, spec: &str) -> Result<Replay, JsError> {
        let spec = spec::Spec::parse(spec, self.gpu.info().max_side()).map_err(js)?;
        replay::record(&self.gpu, &spec).map_err(js)
    }

    /// The gpu backend on the LP of an MPS file's text, with the viewer recording every pass;
    /// `variant` the Cholesky variant of its normal equations.
    pub fn watch_mps(&self, mps: &str, variant: &str) -> Result<Replay, JsError> {
        let v: glsolve::gpu::cholesky::Variant =
            variant.parse().map_err(|e| JsError::new(&format!("unknown variant {variant:?}: {e}")))?;
        let model =
            glsolve::lp::mps::read_str(mps).map_err(|e| JsError::new(&format!("the MPS file cannot be read: {e}")))?;
        replay::record_lp(&self.gpu, &model, v).map_err(js)
    }

    /// Runs the algorithm of `spec` without the viewer: a warm-up, then `reps` timed runs; the
    /// median in seconds.
    pub fn time(&self, spec: &str, reps: u32) -> Result<f64, JsError> {
        let spec = spec::Spec::parse(spec, self.gpu.info().max_side()).map_err(js)?;
        replay::time(&self.gpu, &spec, reps.max(1) as usize).map_err(js)
    }

    /// Solves an LP: `mps` (the text of an MPS file) or, when empty, the random dense LP of
    /// `spec` (`{"m": 64, "seed": 7, "backend": "gpu"}`). The result as JSON: status, objective,
    /// iterations, the iteration log, the verification.
    pub fn solve_lp(&self, spec: &str, mps: &str) -> Result<String, JsError> {
        lp::solve(&self.gpu, spec, mps).map_err(js)
    }

    /// The in-browser test suite's kernel families against f64 references (JSON report).
    pub fn selftest_kernels(&self) -> String {
        selftest::kernels(&self.gpu)
    }
}
