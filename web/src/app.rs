//! [`App`]: the one object JavaScript holds — a WebGL2 context wrapped by the library, or the
//! reason there is none — and every call the package makes on it.

use crate::errors::{gl_code, ApiError};
use crate::{dense, lp, model, replay, selftest, spec};
use glsolve::gl::ContextHome;
use glsolve::Gpu;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use web_sys::WebGl2RenderingContext;

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

/// A context and the library's GPU on it — or why there is none (then the cpu paths run).
#[wasm_bindgen]
pub struct App {
    pub(crate) gpu: Option<Gpu>,
    webgl: Option<WebGl2RenderingContext>,
    missing: Option<ApiError>,
}

impl App {
    /// The GPU, or the error that says why there is none.
    pub(crate) fn gpu(&self) -> Result<&Gpu, ApiError> {
        self.gpu.as_ref().ok_or_else(|| self.missing.clone().unwrap_or_else(|| ApiError::new("no-webgl2", "no WebGL2")))
    }

    /// `result`, unless the context was lost meanwhile: whatever was computed on it is void.
    fn checked<T>(&self, result: Result<T, JsValue>) -> Result<T, JsValue> {
        if self.webgl.as_ref().is_some_and(|c| c.is_context_lost()) {
            return Err(ApiError::new(
                "context-lost",
                "the WebGL2 context was lost during the call; its results are void (the next call makes a new context)",
            )
            .into());
        }
        result
    }
}

#[wasm_bindgen]
impl App {
    /// Wraps `context` (made by JavaScript on a canvas or an OffscreenCanvas). `None`: no
    /// context could be made, `why` says why. A context without float render targets is kept
    /// out too; either way the App runs the cpu paths and `info` says why.
    #[wasm_bindgen(constructor)]
    pub fn new(context: Option<WebGl2RenderingContext>, why: &str, user_agent: &str) -> App {
        let Some(context) = context else {
            let message = format!("this browser offers no WebGL2 here ({why})");
            return App { gpu: None, webgl: None, missing: Some(ApiError::new("no-webgl2", message)) };
        };
        let gl = glow::Context::from_webgl2_context(context.clone());
        match Gpu::from_glow(gl, None, format!("WebGL2, {user_agent}"), Box::new(Page)) {
            Ok(gpu) => App { gpu: Some(gpu), webgl: Some(context), missing: None },
            Err(e) => App { gpu: None, webgl: Some(context), missing: Some(ApiError::new(gl_code(&e), e.to_string())) },
        }
    }

    /// The capability record: `{gpu, code, reason, maxTextureSize, renderer, lines: [[k, v]]}`.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        let lines = self.gpu.as_ref().map(|g| g.info().lines()).unwrap_or_default();
        let renderer = lines.iter().find(|(k, _)| *k == "GL renderer").map(|(_, v)| v.clone());
        let json = serde_json::json!({
            "gpu": self.gpu.is_some(),
            "code": self.missing.as_ref().map(|m| m.code),
            "reason": self.missing.as_ref().map(|m| m.message.clone()),
            "maxTextureSize": self.gpu.as_ref().map(|g| g.info().max_side()),
            "maxDrawBuffers": self.gpu.as_ref().map(|g| g.info().max_draw_buffers),
            "renderer": renderer,
            "lines": lines,
        });
        js_sys::JSON::parse(&json.to_string())
    }

    /// Whether the context is lost (a lost context never comes back: the package makes a new one).
    pub fn context_lost(&self) -> bool {
        self.webgl.as_ref().is_some_and(|c| c.is_context_lost())
    }

    /// Textures alive on the context (0 between calls: every call frees what it made).
    pub fn live_textures(&self) -> usize {
        self.gpu.as_ref().map_or(0, |g| g.live_textures())
    }

    /// Solves an LP (`model`: MPS text or the arrays object) with `options` (JSON);
    /// `on_row(row)` sees every iteration row and stops the solve by returning true.
    pub fn solve_lp(&self, model: JsValue, options: &str, on_row: Function) -> Result<JsValue, JsValue> {
        let options = lp::LpOptions::parse(options)?;
        let model = model::from_js(&model)?;
        self.checked(lp::solve(&model, &options, self.gpu.as_ref(), self.missing.as_ref(), on_row))
    }

    /// Refuses (`too-large`), before the model is sent, an LP whose standard form of at most m
    /// rows and n columns the backend of `options` (JSON) could not hold on this context.
    pub fn check_lp(&self, m: usize, n: usize, options: &str) -> Result<(), JsValue> {
        Ok(lp::LpOptions::parse(options)?.check_size(self.gpu.as_ref(), m, n)?)
    }

    /// The papers' random dense LP (m rows, n = 4m) as the arrays object.
    pub fn random_lp(&self, m: usize, seed: u32) -> Result<JsValue, JsValue> {
        Ok(model::to_js(&model::random_model(m, u64::from(seed))?, true))
    }

    /// The model of an MPS file's text as the arrays object (A in triplets).
    pub fn read_mps(&self, text: &str) -> Result<JsValue, JsValue> {
        Ok(model::to_js(&glsolve::lp::mps::read_str(text).map_err(ApiError::from)?, false))
    }

    /// The lower Cholesky factor of the n×n row-major `c` by `variant`.
    pub fn cholesky(&self, n: usize, c: &[f64], variant: &str, backend: &str) -> Result<JsValue, JsValue> {
        let at = dense::place(backend, self.gpu.as_ref(), self.missing.as_ref())?;
        self.checked(dense::cholesky(at, n, c, variant))
    }

    /// x with A·x = b (A n×n, row-major).
    pub fn solve(&self, n: usize, a: &[f64], b: &[f64], backend: &str) -> Result<JsValue, JsValue> {
        let at = dense::place(backend, self.gpu.as_ref(), self.missing.as_ref())?;
        self.checked(dense::solve(at, n, a, b))
    }

    /// Weighted least squares (A rows×cols, row-major; `w` one weight per row, or none).
    pub fn lstsq(
        &self,
        rows: usize,
        cols: usize,
        a: &[f64],
        b: &[f64],
        w: Option<Vec<f64>>,
        backend: &str,
    ) -> Result<JsValue, JsValue> {
        let at = dense::place(backend, self.gpu.as_ref(), self.missing.as_ref())?;
        self.checked(dense::lstsq(at, rows, cols, a, b, w.as_deref()))
    }

    /// The largest matrix side this context takes.
    pub fn max_side(&self) -> u32 {
        self.gpu.as_ref().map_or(0, |g| g.info().max_side())
    }

    /// Runs the algorithm a JSON spec describes (see `spec.rs`) with the viewer recording every
    /// pass.
    pub fn watch(&self, spec: &str) -> Result<replay::Replay, JsValue> {
        let gpu = self.gpu()?;
        let spec = spec::Spec::parse(spec, gpu.info().max_side())?;
        self.checked(replay::record(gpu, &spec).map_err(|e| ApiError::from(e).into()))
    }

    /// The gpu backend on the LP of an MPS file's text, with the viewer recording every pass;
    /// `variant` the Cholesky variant of its normal equations.
    pub fn watch_mps(&self, mps: &str, variant: &str) -> Result<replay::Replay, JsValue> {
        let gpu = self.gpu()?;
        let v: glsolve::Variant = variant.parse().map_err(ApiError::from)?;
        let model = glsolve::lp::mps::read_str(mps).map_err(ApiError::from)?;
        self.checked(replay::record_lp(gpu, &model, v).map_err(|e| ApiError::from(e).into()))
    }

    /// Runs the algorithm of `spec` without the viewer: a warm-up, then `reps` timed runs; the
    /// median in seconds.
    pub fn time(&self, spec: &str, reps: u32) -> Result<f64, JsValue> {
        let gpu = self.gpu()?;
        let spec = spec::Spec::parse(spec, gpu.info().max_side())?;
        self.checked(replay::time(gpu, &spec, reps.max(1) as usize).map_err(|e| ApiError::from(e).into()))
    }

    /// The in-browser test suite's kernel families against f64 references (JSON report).
    pub fn selftest_kernels(&self) -> Result<String, JsValue> {
        Ok(selftest::kernels(self.gpu()?))
    }
}
