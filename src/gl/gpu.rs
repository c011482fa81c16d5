//! [`Gpu`]: one GL context ready to run passes, its program cache and its counters.
#![allow(unsafe_code)]

use super::api::HeadlessOptions;
use super::caps;
#[cfg(not(target_arch = "wasm32"))]
use super::context;
use super::error::{GlError, GlResult};
use super::info::{FenceWait, GpuInfo};
use super::pass::Pass;
use super::program::{self, Kernel, Program};
use super::record::{Measure, PassRecord};
use super::reset::ResetStatusFn;
use super::serial::serial;
use super::shared::{ContextHome, Shared};
use glow::HasContext;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Receives every pass. `before_pass` runs with the pass about to be drawn (sources hold their
/// inputs); `after_pass` with its record (the target holds its output). Passes an observer issues
/// itself are not observed.
pub trait PassObserver {
    fn measure(&self) -> Measure;
    fn before_pass(&mut self, _gpu: &Gpu, _pass: &Pass) {}
    fn after_pass(&mut self, gpu: &Gpu, pass: &Pass, record: &PassRecord);
}

/// Bytes moved between host and GPU since the context was made (uploads and writes; readbacks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Traffic {
    pub uploaded: u64,
    pub read_back: u64,
    /// Readbacks issued (each one waits for the GPU).
    pub readbacks: u64,
}

/// A GL context ready to run passes. Every GL object is an RAII value holding an `Rc` of the
/// context, freed in `Drop` while the context is alive and current.
///
/// A `Gpu` is not `Send`, by design: the textures, programs and observers made on it share it
/// through those (non-atomic) reference counts and may live apart from it, and a GL context can
/// be current on one thread only, so a `Gpu` and everything made on it stay on the thread that
/// made them. Work in threads with one `Gpu` per thread, or with an [`crate::LpSolver`], which
/// owns its context, lends it to nobody, releases it after each solve and so is `Send`.
pub struct Gpu {
    pub(super) shared: Rc<Shared>,
    pub(super) info: GpuInfo,
    pub(super) programs: RefCell<HashMap<ProgramKey, Rc<Program>>>,
    pub(super) vao: glow::VertexArray,
    pub(super) vbo: glow::Buffer,
    pub(super) queries: [glow::Query; 2],
    pub(super) observer: RefCell<Option<Rc<RefCell<dyn PassObserver>>>>,
    pub(super) passes: Cell<u64>,
    pub(super) traffic: Cell<Traffic>,
}

/// A program is its kernel file plus its variant defines.
type ProgramKey = (&'static str, &'static [&'static str]);

pub(super) const FLOATS_PER_VERTEX: usize = 8;
pub(super) const MAX_VERTICES: usize = 6;

impl Gpu {
    /// A headless context on the best EGL device (hardware first, else Mesa's software one):
    /// desktop OpenGL where the driver offers it, else OpenGL ES.
    pub fn headless() -> GlResult<Gpu> {
        Self::headless_with(HeadlessOptions::default())
    }

    /// A headless OpenGL ES 3 context (the API WebGL2 is made from) on the best EGL device.
    pub fn headless_es() -> GlResult<Gpu> {
        Self::headless_with(HeadlessOptions::es())
    }

    internal_fn! {
        /// A headless context as `opts` say.
        #[cfg(not(target_arch = "wasm32"))]
        fn headless_with(opts: HeadlessOptions) -> GlResult<Gpu> {
            // Making a context is serialized on every driver (see `super::serial`).
            let _serial = serial();
            let (egl, gl, reset_status) = context::create_headless(opts)?;
            let platform = format!("{}, {}", egl.egl_version, egl.device);
            let mut gpu = Self::with_fetch(gl, reset_status, platform, Box::new(egl), opts.fetch)?;
            if let Some(cap) = opts.max_draw_buffers {
                gpu.info.max_draw_buffers = gpu.info.max_draw_buffers.min(cap);
            }
            Ok(gpu)
        }
    }

    internal_fn! {
        /// In the browser there is no EGL: a page makes its `Gpu` from its WebGL2 context with
        /// [`Gpu::from_glow`].
        #[cfg(target_arch = "wasm32")]
        fn headless_with(_opts: HeadlessOptions) -> GlResult<Gpu> {
            Err(GlError::NoEgl {
                detail: "a browser has no EGL: make the Gpu from the page's WebGL2 context (Gpu::from_glow)".into(),
            })
        }
    }

    internal_fn! {
        /// Wraps a context made elsewhere (e.g. a window's). `home` owns what the context lives on, is
        /// dropped after every GL object and makes the context current again whenever another one is.
        /// The context must be current on this thread now.
        /// `reset_status` comes from [`super::reset::load_reset_status`] on the same context.
        fn from_glow(
            gl: glow::Context,
            reset_status: Option<ResetStatusFn>,
            platform: String,
            home: Box<dyn ContextHome>,
        ) -> GlResult<Gpu> {
            Self::with_fetch(gl, reset_status, platform, home, None)
        }
    }

    /// [`Gpu::from_glow`] with the kernels' fetch chosen (`None`: the dialect's own).
    fn with_fetch(
        gl: glow::Context,
        reset_status: Option<ResetStatusFn>,
        platform: String,
        home: Box<dyn ContextHome>,
        fetch: Option<crate::gl::Fetch>,
    ) -> GlResult<Gpu> {
        let _serial = serial();
        // Once, here: what the context can do, and how its kernels fetch.
        let info = caps::probe(&gl, platform, reset_status.is_some(), fetch)?;
        let serialized = info.is_software();
        let shared = Rc::new(Shared::new(gl, reset_status, (info.dialect, info.fetch), home, serialized));
        shared.finish_by_readback.set(info.fence_wait == FenceWait::Polling);
        let gl = shared.gl();
        // SAFETY: context current; objects are owned by the returned Gpu and freed in its Drop.
        let (vao, vbo, queries) = unsafe {
            let vao = gl.create_vertex_array().map_err(|d| GlError::Create { what: "a vertex array", detail: d })?;
            let vbo = gl.create_buffer().map_err(|d| GlError::Create { what: "a vertex buffer", detail: d })?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            let bytes = (FLOATS_PER_VERTEX * MAX_VERTICES * 4) as i32;
            gl.buffer_data_size(glow::ARRAY_BUFFER, bytes, glow::STREAM_DRAW);
            let stride = (FLOATS_PER_VERTEX * 4) as i32;
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, stride, 0);
            gl.enable_vertex_attrib_array(1);
            gl.vertex_attrib_pointer_f32(1, 3, glow::FLOAT, false, stride, 8);
            gl.enable_vertex_attrib_array(2);
            gl.vertex_attrib_pointer_f32(2, 3, glow::FLOAT, false, stride, 20);
            let q0 = gl.create_query().map_err(|d| GlError::Create { what: "a query", detail: d })?;
            let q1 = gl.create_query().map_err(|d| GlError::Create { what: "a query", detail: d })?;
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::BLEND);
            gl.disable(glow::DITHER);
            (vao, vbo, [q0, q1])
        };
        let gpu = Gpu {
            shared,
            info,
            programs: RefCell::new(HashMap::new()),
            vao,
            vbo,
            queries,
            observer: RefCell::new(None),
            passes: Cell::new(0),
            traffic: Cell::new(Traffic::default()),
        };
        gpu.check("creating the pass pipeline")?;
        Ok(gpu)
    }

    /// The capability record of this context (dialect, limits, what the driver supports), probed once.
    pub fn info(&self) -> &GpuInfo {
        &self.info
    }

    /// Textures alive on this context, by the crate's count (see [`Gpu::is_texture`] for GL's).
    pub fn live_textures(&self) -> usize {
        self.shared.live_textures.get()
    }

    /// Textures (each with its framebuffer) created since this `Gpu` was made.
    pub fn textures_created(&self) -> u64 {
        self.shared.textures_created.get()
    }

    /// Bytes of texel storage in the textures alive now (4 bytes per channel: every texture is
    /// a float texture), and the most there were since this `Gpu` was made or
    /// [`Gpu::reset_texture_bytes_peak`] was called.
    pub fn texture_bytes(&self) -> (u64, u64) {
        (self.shared.texture_bytes.get(), self.shared.texture_bytes_peak.get())
    }

    /// Starts a new peak of [`Gpu::texture_bytes`] at what is alive now.
    pub fn reset_texture_bytes_peak(&self) {
        self.shared.texture_bytes_peak.set(self.shared.texture_bytes.get());
    }

    /// Whether GL itself still knows `name` as a texture object (`glIsTexture`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn is_texture(&self, name: u32) -> bool {
        let Some(nz) = std::num::NonZeroU32::new(name) else { return false };
        // SAFETY: context current; glIsTexture accepts any name.
        unsafe { self.shared.gl().is_texture(glow::NativeTexture(nz)) }
    }

    /// Passes run since this `Gpu` was made.
    pub fn pass_count(&self) -> u64 {
        self.passes.get()
    }

    internal_fn! {
        /// Bytes uploaded and read back since this `Gpu` was made.
        fn traffic(&self) -> Traffic {
            self.traffic.get()
        }
    }

    pub(super) fn program(&self, kernel: &'static Kernel, defines: &'static [&'static str]) -> GlResult<Rc<Program>> {
        if let Some(p) = self.programs.borrow().get(&(kernel.file, defines)) {
            return Ok(p.clone());
        }
        let p = Rc::new(program::compile(&self.shared, kernel, defines)?);
        self.programs.borrow_mut().insert((kernel.file, defines), p.clone());
        Ok(p)
    }

    internal_fn! {
        /// Compiles a kernel now (to keep compilation out of timed regions, or to surface errors early).
        fn prepare(&self, kernel: &'static Kernel, defines: &'static [&'static str]) -> GlResult<()> {
            self.program(kernel, defines).map(|_| ())
        }
    }

    /// Waits until every issued pass has finished.
    pub fn finish(&self) {
        self.shared.finish()
    }

    /// Turns a pending GL error into a typed one naming `call`.
    pub fn check(&self, call: &str) -> GlResult<()> {
        // SAFETY: context current.
        let code = unsafe { self.shared.gl().get_error() };
        if let Some(e) = self.shared.not_current.borrow_mut().take() {
            return Err(GlError::ContextLost {
                detail: format!("could not make the context current before {call}: {e}"),
            });
        }
        if code == glow::NO_ERROR {
            self.reset_status(call)
        } else if code == glow::CONTEXT_LOST {
            Err(GlError::ContextLost { detail: format!("reported after {call}") })
        } else {
            Err(GlError::Driver { call: call.into(), code })
        }
    }

    /// Makes the context not current on this thread (after the work issued so far is flushed),
    /// so that another thread can make it current: for an owner that moves between threads
    /// with everything made on the context (see [`crate::LpSolver`]).
    pub(crate) fn release_current(&self) -> GlResult<()> {
        self.shared.release().map_err(|e| GlError::ContextLost { detail: format!("releasing the context: {e}") })
    }

    /// Asks the driver whether the context was reset (robust contexts only; others always say no).
    pub fn reset_status(&self, after: &str) -> GlResult<()> {
        let Some(query) = self.shared.reset_status else { return Ok(()) };
        // The query reads the current context: make sure it is this one.
        let _current = self.shared.gl();
        // SAFETY: loaded from this context, which is current; the query has no arguments.
        let status = unsafe { query() };
        let culprit = match status {
            glow::NO_ERROR => return Ok(()),
            glow::GUILTY_CONTEXT_RESET => "caused by this context",
            glow::INNOCENT_CONTEXT_RESET => "caused elsewhere",
            _ => "cause unknown",
        };
        Err(GlError::ContextLost { detail: format!("GPU reset ({culprit}), seen after {after}") })
    }

    /// Whether resets are reported through `glGetGraphicsResetStatus` on this context.
    pub fn has_reset_query(&self) -> bool {
        self.shared.reset_status.is_some()
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        self.programs.borrow_mut().clear();
        // SAFETY: the context is alive (held by `shared`) and `gl()` makes it current.
        unsafe {
            let gl = self.shared.gl();
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
            for q in self.queries {
                gl.delete_query(q);
            }
        }
    }
}

impl Gpu {
    /// Checks that textures of a raw `internal_format` can be render targets (R32F and RGBA32F
    /// are checked when the `Gpu` is made).
    pub fn probe_render_format(&self, internal_format: u32, name: &'static str) -> GlResult<()> {
        // The pixel format only matters for uploads; RED is accepted with any colour format.
        let target = self.shared.texture_target();
        caps::render_target_raw(&self.shared.gl(), target, internal_format, glow::RED, name, false).map(|_| ())
    }
}
