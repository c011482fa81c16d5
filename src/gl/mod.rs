//! The only code that calls OpenGL: contexts, textures, programs, passes and their accounting.
//!
//! Resource rule: every GL object is owned by an RAII value holding an `Rc` of the context
//! ([`Shared`]), so objects are freed in `Drop` while the context is alive and current. A `Gpu` is
//! not `Send`: the context is current on the thread that made it and stays there.
#![allow(unsafe_code)]

mod context;
mod error;
mod observer;
mod pass;
mod program;
mod texture;

pub use context::{load_reset_status, DevicePreference, HeadlessOptions, ResetStatusFn, MIN_GL_VERSION};
pub use error::{GlError, GlResult};
pub use observer::{Measure, PassLog, PassObserver, PassRecord, PassTotals, TimeMode};
pub use pass::Pass;
pub use program::{Kernel, MAX_SOURCES};
pub use texture::{PingPong, Texture};

use crate::geometry::{Primitive, Vertex};
use glow::HasContext;
use program::Program;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

/// The context and the counters its objects share. Field order is drop order: GL objects are
/// already gone when the context (`keep_alive`) goes.
pub(crate) struct Shared {
    gl: glow::Context,
    reset_status: Option<context::ResetStatusFn>,
    live_textures: Cell<usize>,
    next_id: Cell<u64>,
    _keep_alive: Box<dyn Any>,
}

/// What the driver is and can do.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GpuInfo {
    /// EGL device and version (headless), or the windowing system's description.
    pub platform: String,
    pub vendor: String,
    pub renderer: String,
    pub version: String,
    pub glsl_version: String,
    pub max_texture_size: u32,
    pub max_rectangle_texture_size: u32,
    /// R32F rectangle textures are framebuffer-complete (checked by making one).
    pub r32f_renderable: bool,
    /// GPU resets are reported by `glGetGraphicsResetStatus` (a robust context on a driver that has it).
    pub reset_notification: bool,
}

impl GpuInfo {
    /// The largest side a rectangle texture may have.
    pub fn max_side(&self) -> u32 {
        self.max_texture_size.min(self.max_rectangle_texture_size)
    }
    /// Mesa's software rasterizers rasterize at flush, so timer queries miss the work.
    pub fn is_software(&self) -> bool {
        let r = self.renderer.to_ascii_lowercase();
        r.contains("llvmpipe") || r.contains("softpipe") || r.contains("swrast") || r.contains("lavapipe")
    }
    /// The timing method that tells the truth on this driver.
    pub fn honest_time_mode(&self) -> TimeMode {
        if self.is_software() {
            TimeMode::HostFinish
        } else {
            TimeMode::GpuTimer
        }
    }
}

/// A GL context ready to run passes. See the module docs for threading and resources.
pub struct Gpu {
    shared: Rc<Shared>,
    info: GpuInfo,
    vertex_kernel: Kernel,
    programs: RefCell<HashMap<ProgramKey, Rc<Program>>>,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    queries: [glow::Query; 2],
    observer: RefCell<Option<Rc<RefCell<dyn PassObserver>>>>,
    passes: Cell<u64>,
}

/// A program is its kernel file plus its variant defines.
type ProgramKey = (&'static str, &'static [&'static str]);

const FLOATS_PER_VERTEX: usize = 8;
const MAX_VERTICES: usize = 6;

impl Gpu {
    /// A headless context on the best EGL device (hardware first, else Mesa's software one).
    pub fn headless() -> GlResult<Gpu> {
        Self::headless_with(HeadlessOptions::default())
    }

    pub fn headless_with(opts: HeadlessOptions) -> GlResult<Gpu> {
        let (egl, gl, reset_status) = context::create_headless(opts)?;
        let platform = format!("{}, {}", egl.egl_version, egl.device);
        Self::from_glow(gl, reset_status, platform, Box::new(egl))
    }

    /// Wraps a context made elsewhere (e.g. a window's). `keep_alive` owns what the context lives
    /// on and is dropped after every GL object. The context must be current on this thread.
    /// `reset_status` comes from [`context::load_reset_status`] on the same context.
    pub fn from_glow(
        gl: glow::Context,
        reset_status: Option<context::ResetStatusFn>,
        platform: String,
        keep_alive: Box<dyn Any>,
    ) -> GlResult<Gpu> {
        // SAFETY: the caller made the context current on this thread.
        let (info_strings, version) = unsafe {
            (
                [
                    gl.get_parameter_string(glow::VENDOR),
                    gl.get_parameter_string(glow::RENDERER),
                    gl.get_parameter_string(glow::VERSION),
                    gl.get_parameter_string(glow::SHADING_LANGUAGE_VERSION),
                ],
                gl.version().clone(),
            )
        };
        let (major, minor) = MIN_GL_VERSION;
        if (version.major, version.minor) < (major as u32, minor as u32) || version.is_embedded {
            return Err(GlError::VersionTooOld { found: info_strings[2].clone(), major, minor });
        }
        // SAFETY: as above.
        let (max_tex, max_rect) = unsafe {
            (gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE), gl.get_parameter_i32(glow::MAX_RECTANGLE_TEXTURE_SIZE))
        };
        let shared = Rc::new(Shared {
            gl,
            reset_status,
            live_textures: Cell::new(0),
            next_id: Cell::new(0),
            _keep_alive: keep_alive,
        });
        let [vendor, renderer, version, glsl_version] = info_strings;
        let mut info = GpuInfo {
            platform,
            vendor,
            renderer,
            version,
            glsl_version,
            max_texture_size: max_tex.max(0) as u32,
            max_rectangle_texture_size: max_rect.max(0) as u32,
            r32f_renderable: false,
            reset_notification: reset_status.is_some(),
        };
        // Float render support is checked once, by making a target, so later failures are real ones.
        probe_render_format(&shared, glow::R32F, "R32F")?;
        info.r32f_renderable = true;
        let gl = &shared.gl;
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
            vertex_kernel: crate::kernels::PASS_VERT,
            programs: RefCell::new(HashMap::new()),
            vao,
            vbo,
            queries,
            observer: RefCell::new(None),
            passes: Cell::new(0),
        };
        gpu.check("creating the pass pipeline")?;
        Ok(gpu)
    }

    pub fn info(&self) -> &GpuInfo {
        &self.info
    }

    /// Textures alive on this context (for leak tests).
    pub fn live_textures(&self) -> usize {
        self.shared.live_textures.get()
    }

    /// Passes run since this `Gpu` was made.
    pub fn pass_count(&self) -> u64 {
        self.passes.get()
    }

    /// Checks that a `width × height` texture fits this driver; `what` names it in the error.
    pub fn check_size(&self, width: usize, height: usize, what: &str) -> GlResult<()> {
        if width == 0 || height == 0 {
            return Err(GlError::EmptyTexture { width, height, what: what.into() });
        }
        let max = self.info.max_side();
        if width > max as usize || height > max as usize {
            return Err(GlError::TextureTooLarge { width, height, max, what: what.into() });
        }
        Ok(())
    }

    /// An uninitialized `width × height` texture.
    pub fn texture(&self, width: usize, height: usize, what: &str) -> GlResult<Texture> {
        self.check_size(width, height, what)?;
        Texture::new(&self.shared, width as u32, height as u32, None)
    }

    /// A texture holding `data` in row-major order (row i = texel row y = i).
    pub fn upload(&self, width: usize, height: usize, data: &[f32], what: &str) -> GlResult<Texture> {
        self.check_size(width, height, what)?;
        if data.len() != width * height {
            return Err(GlError::SizeMismatch {
                what: what.into(),
                width: width as u32,
                height: height as u32,
                expected: width * height,
                got: data.len(),
            });
        }
        Texture::new(&self.shared, width as u32, height as u32, Some(data))
    }

    /// Overwrites the texels `x..x+w` × `y..y+h` of `tex` with `data` (row-major).
    pub fn write_rect(&self, tex: &Texture, x: u32, y: u32, w: u32, h: u32, data: &[f32]) -> GlResult<()> {
        Self::check_rect(tex, [x, y, w, h], data.len(), "write")?;
        // SAFETY: context current; the rectangle lies inside the texture (checked).
        unsafe {
            let gl = &self.shared.gl;
            gl.bind_texture(glow::TEXTURE_RECTANGLE, Some(tex.tex));
            gl.tex_sub_image_2d(
                glow::TEXTURE_RECTANGLE,
                0,
                x as i32,
                y as i32,
                w as i32,
                h as i32,
                glow::RED,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(Some(texture::as_bytes(data))),
            );
        }
        self.check("writing a texture")
    }

    /// Overwrites the whole texture.
    pub fn write(&self, tex: &Texture, data: &[f32]) -> GlResult<()> {
        self.write_rect(tex, 0, 0, tex.width(), tex.height(), data)
    }

    /// Reads the texels `x..x+w` × `y..y+h` back (row-major). This waits for the GPU.
    pub fn read_rect(&self, tex: &Texture, x: u32, y: u32, w: u32, h: u32) -> GlResult<Vec<f32>> {
        let n = w as usize * h as usize;
        Self::check_rect(tex, [x, y, w, h], n, "read")?;
        let mut out = vec![0f32; n];
        // SAFETY: context current; the buffer holds exactly w·h floats (RED/FLOAT, pack alignment 4).
        unsafe {
            let gl = &self.shared.gl;
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(tex.fbo));
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
            let bytes = std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), n * 4);
            gl.read_pixels(
                x as i32,
                y as i32,
                w as i32,
                h as i32,
                glow::RED,
                glow::FLOAT,
                glow::PixelPackData::Slice(Some(bytes)),
            );
        }
        self.check("reading a texture back")?;
        Ok(out)
    }

    /// Reads the whole texture back (row-major).
    pub fn read(&self, tex: &Texture) -> GlResult<Vec<f32>> {
        self.read_rect(tex, 0, 0, tex.width(), tex.height())
    }

    /// Checks that the region `[x, y, w, h]` lies in `tex` and that `n` values fill it.
    fn check_rect(tex: &Texture, [x, y, w, h]: [u32; 4], n: usize, op: &str) -> GlResult<()> {
        if x as u64 + w as u64 > tex.width() as u64 || y as u64 + h as u64 > tex.height() as u64 {
            return Err(GlError::SizeMismatch {
                what: format!("{op} of {w}×{h} at ({x}, {y}) outside {tex:?}"),
                width: tex.width(),
                height: tex.height(),
                expected: tex.len(),
                got: n,
            });
        }
        if n != w as usize * h as usize {
            return Err(GlError::SizeMismatch {
                what: format!("{op} of {w}×{h} at ({x}, {y}) in {tex:?}"),
                width: w,
                height: h,
                expected: w as usize * h as usize,
                got: n,
            });
        }
        Ok(())
    }

    /// Attaches an observer to every following pass (replacing any other).
    pub fn observe(&self, observer: Rc<RefCell<dyn PassObserver>>) {
        *self.observer.borrow_mut() = Some(observer);
    }

    /// Detaches the observer.
    pub fn stop_observing(&self) {
        *self.observer.borrow_mut() = None;
    }

    /// Runs `f` with a fresh [`PassLog`] attached and returns its records. Any observer attached
    /// before is attached again afterwards.
    pub fn logged<R>(&self, measure: Measure, f: impl FnOnce(&Gpu) -> R) -> (R, PassLog) {
        let log = Rc::new(RefCell::new(PassLog::new(measure)));
        let previous = self.observer.replace(Some(log.clone()));
        let r = f(self);
        *self.observer.borrow_mut() = previous;
        let records = log.borrow().clone();
        (r, records)
    }

    fn program(&self, kernel: &'static Kernel, defines: &'static [&'static str]) -> GlResult<Rc<Program>> {
        if let Some(p) = self.programs.borrow().get(&(kernel.file, defines)) {
            return Ok(p.clone());
        }
        let p = Rc::new(program::compile(&self.shared, &self.vertex_kernel, kernel, defines)?);
        self.programs.borrow_mut().insert((kernel.file, defines), p.clone());
        Ok(p)
    }

    /// Compiles a kernel now (to keep compilation out of timed regions, or to surface errors early).
    pub fn prepare(&self, kernel: &'static Kernel, defines: &'static [&'static str]) -> GlResult<()> {
        self.program(kernel, defines).map(|_| ())
    }

    /// Draws one pass.
    pub fn run(&self, pass: &Pass) -> GlResult<()> {
        if pass.sources.iter().any(|s| s.id() == pass.target.id()) {
            return Err(GlError::Feedback { pass: pass.name.into() });
        }
        if pass.sources.len() > MAX_SOURCES {
            return Err(GlError::TooManySources {
                pass: pass.name.into(),
                count: pass.sources.len(),
                max: MAX_SOURCES,
            });
        }
        let program = self.program(pass.kernel, pass.defines)?;
        // The observer is taken out while it runs, so passes it issues itself go unobserved.
        let observer = self.observer.borrow_mut().take();
        let measure = observer.as_ref().map(|o| o.borrow().measure()).unwrap_or(Measure::NOTHING);
        if let Some(o) = &observer {
            o.borrow_mut().before_pass(self, pass);
        }
        let result = self.draw(pass, &program, measure);
        if let (Some(o), Ok(record)) = (&observer, &result) {
            o.borrow_mut().after_pass(self, pass, record);
        }
        *self.observer.borrow_mut() = observer;
        result.map(|_| ())
    }

    fn draw(&self, pass: &Pass, program: &Program, measure: Measure) -> GlResult<PassRecord> {
        let gl = &self.shared.gl;
        let verts = pass.primitive.vertices();
        let mut buf = [0f32; FLOATS_PER_VERTEX * MAX_VERTICES];
        for (n, v) in verts.iter().enumerate() {
            buf[n * FLOATS_PER_VERTEX..(n + 1) * FLOATS_PER_VERTEX].copy_from_slice(&flatten(v));
        }
        let mode = match pass.primitive {
            Primitive::Point(_) => glow::POINTS,
            Primitive::Line(_) => glow::LINES,
            Primitive::Rectangle(_) => glow::TRIANGLE_STRIP,
            Primitive::Triangle(_) | Primitive::TwoTriangles(_) => glow::TRIANGLES,
        };
        let (w, h) = (pass.target.width(), pass.target.height());
        let mut fragments = None;
        let mut time = None;
        // SAFETY: context current; every bound object is alive for the duration of the call.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(pass.target.fbo));
            gl.viewport(0, 0, w as i32, h as i32);
            gl.use_program(Some(program.program));
            gl.uniform_2_f32(program.viewport.as_ref(), w as f32, h as f32);
            for (unit, src) in pass.sources.iter().enumerate() {
                gl.active_texture(glow::TEXTURE0 + unit as u32);
                gl.bind_texture(glow::TEXTURE_RECTANGLE, Some(src.tex));
            }
            for (name, value) in pass.uniforms {
                let loc = gl.get_uniform_location(program.program, name);
                gl.uniform_1_f32(loc.as_ref(), *value);
            }
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_sub_data_u8_slice(
                glow::ARRAY_BUFFER,
                0,
                texture::as_bytes(&buf[..verts.len() * FLOATS_PER_VERTEX]),
            );
            let started = if measure.time == TimeMode::HostFinish {
                gl.finish();
                Some(Instant::now())
            } else {
                None
            };
            if measure.fragments {
                gl.begin_query(glow::SAMPLES_PASSED, self.queries[0]);
            }
            if measure.time == TimeMode::GpuTimer {
                gl.begin_query(glow::TIME_ELAPSED, self.queries[1]);
            }
            gl.draw_arrays(mode, 0, verts.len() as i32);
            if measure.time == TimeMode::GpuTimer {
                gl.end_query(glow::TIME_ELAPSED);
            }
            if measure.fragments {
                gl.end_query(glow::SAMPLES_PASSED);
            }
            if let Some(t) = started {
                gl.finish();
                time = Some(t.elapsed());
            }
            if measure.fragments {
                fragments = Some(gl.get_query_parameter_u32(self.queries[0], glow::QUERY_RESULT) as u64);
            }
            if measure.time == TimeMode::GpuTimer {
                let ns = gl.get_query_parameter_u32(self.queries[1], glow::QUERY_RESULT);
                time = Some(std::time::Duration::from_nanos(ns as u64));
            }
        }
        if cfg!(debug_assertions) || measure != Measure::NOTHING {
            self.check(pass.name)?;
        }
        let index = self.passes.get();
        self.passes.set(index + 1);
        Ok(PassRecord {
            index,
            name: pass.name,
            kernel: pass.kernel.file,
            defines: pass.defines,
            primitive: pass.primitive.kind(),
            step: pass.step,
            target: (w, h),
            fragments,
            time,
        })
    }

    /// Waits until every issued pass has finished.
    pub fn finish(&self) {
        // SAFETY: context current.
        unsafe { self.shared.gl.finish() }
    }

    /// Turns a pending GL error into a typed one naming `call`.
    pub fn check(&self, call: &str) -> GlResult<()> {
        // SAFETY: context current.
        let code = unsafe { self.shared.gl.get_error() };
        if code == glow::NO_ERROR {
            self.reset_status(call)
        } else if code == glow::CONTEXT_LOST {
            Err(GlError::ContextLost { detail: format!("reported after {call}") })
        } else {
            Err(GlError::Driver { call: call.into(), code })
        }
    }

    /// Asks the driver whether the context was reset (robust contexts only; others always say no).
    pub fn reset_status(&self, after: &str) -> GlResult<()> {
        let Some(query) = self.shared.reset_status else { return Ok(()) };
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

    /// Checks that textures of `internal_format` can be render targets (R32F is checked at start).
    pub fn probe_render_format(&self, internal_format: u32, name: &'static str) -> GlResult<()> {
        probe_render_format(&self.shared, internal_format, name)
    }

    /// Direct access for the windowed viewer, which draws with its own shaders.
    pub fn glow(&self) -> &glow::Context {
        &self.shared.gl
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        self.programs.borrow_mut().clear();
        // SAFETY: the context is alive (held by `shared`) and current on this thread.
        unsafe {
            let gl = &self.shared.gl;
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
            for q in self.queries {
                gl.delete_query(q);
            }
        }
    }
}

/// Makes a 1×1 rectangle texture of `internal_format` and attaches it as a render target; a
/// driver that cannot render to it gets [`GlError::FloatTargetUnsupported`].
pub(crate) fn probe_render_format(shared: &Rc<Shared>, internal_format: u32, name: &'static str) -> GlResult<()> {
    match Texture::with_format(shared, 1, 1, None, internal_format) {
        Ok(_) => Ok(()),
        Err(GlError::FramebufferIncomplete { status, .. }) => {
            Err(GlError::FloatTargetUnsupported { format: name, detail: format!("framebuffer status 0x{status:04x}") })
        }
        Err(GlError::Driver { code, .. }) => {
            Err(GlError::FloatTargetUnsupported { format: name, detail: format!("GL error 0x{code:04x}") })
        }
        Err(e) => Err(e),
    }
}

fn flatten(v: &Vertex) -> [f32; FLOATS_PER_VERTEX] {
    [v.pos[0], v.pos[1], v.t0[0], v.t0[1], v.t0[2], v.t1[0], v.t1[1], v.t1[2]]
}
