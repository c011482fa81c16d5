//! A desktop window's GL context (winit + glutin: GLX, else EGL, on X11) for the debug viewer.
//! The passes run in the window's context through an ordinary [`Gpu`]; the window shows frames
//! drawn on the CPU by uploading them to an RGBA8 texture and blitting it to the back buffer, so
//! it draws with no shader of its own and leaves the passes' state alone: only framebuffer
//! bindings (which every pass sets again) and the `TEXTURE_2D` binding of the active unit
//! (restored; the passes use rectangle textures) are touched.
#![allow(unsafe_code)]

use super::caps::MIN_GL_VERSION;
use super::error::{GlError, GlResult};
use super::gpu::Gpu;
use super::reset::load_reset_status;
use super::shared::ContextHome;
use glow::HasContext;
use glutin::config::{Config, ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextApi, ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext,
    PossiblyCurrentGlContext,
};
use glutin::display::{Display, DisplayApiPreference, GlDisplay};
use glutin::surface::{GlSurface, Surface, SwapInterval, WindowSurface};
use glutin_winit::GlWindow;
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use std::cell::Cell;
use std::num::NonZeroU32;
use std::rc::Rc;
use winit::dpi::PhysicalSize;
use winit::event_loop::EventLoop;
use winit::window::Window;

/// The window, its GL surface and context. The `Gpu` made on it holds one `Rc`, so it is
/// dropped after every GL object of the passes.
pub struct WindowGl {
    /// A second function table on the same context, for presenting frames.
    gl: glow::Context,
    /// The RGBA texture and framebuffer frames are blitted from, with their size.
    blit: Cell<Option<(glow::Texture, glow::Framebuffer, u32, u32)>>,
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    window: Window,
}

impl WindowGl {
    /// The presenting function table, with the window's context made current first if another is.
    fn current(&self) -> &glow::Context {
        if !self.context.is_current() {
            // A failure shows in the next pass's check, which makes the same call.
            let _ = self.context.make_current(&self.surface);
        }
        &self.gl
    }
}

impl ContextHome for Rc<WindowGl> {
    fn is_current(&self) -> bool {
        self.context.is_current()
    }

    fn make_current(&self) -> Result<(), String> {
        self.context.make_current(&self.surface).map_err(|e| e.to_string())
    }
}

impl Drop for WindowGl {
    fn drop(&mut self) {
        if let Some((tex, fbo, _, _)) = self.blit.take() {
            // SAFETY: the context (a field, dropped after this) is current on this thread.
            unsafe {
                let gl = self.current();
                gl.delete_framebuffer(fbo);
                gl.delete_texture(tex);
            }
        }
    }
}

fn window_error(what: &str, e: &dyn std::fmt::Display) -> GlError {
    GlError::Window { detail: format!("{what}: {e}") }
}

/// Opens a window of `size` pixels on `event_loop`'s display and makes a `Gpu` on its context
/// (OpenGL 3.3 core, like the headless one).
pub fn open(event_loop: &EventLoop<()>, title: &str, size: (u32, u32)) -> GlResult<(Gpu, Rc<WindowGl>)> {
    let win = window_error;
    let raw_display = event_loop.display_handle().map_err(|e| win("display handle", &e))?.as_raw();
    let preference = DisplayApiPreference::GlxThenEgl(Box::new(winit::platform::x11::register_xlib_error_hook));
    // SAFETY: the display handle comes from the live event loop, which outlives the display.
    let display = unsafe { Display::new(raw_display, preference) }.map_err(|e| win("GL display", &e))?;
    let config = pick_config(&display)?;
    let attrs = Window::default_attributes()
        .with_title(title.to_string())
        .with_inner_size(PhysicalSize::new(size.0.max(64), size.1.max(64)));
    let window = glutin_winit::finalize_window(event_loop, attrs, &config).map_err(|e| win("window", &e))?;
    let raw_window = window.window_handle().map_err(|e| win("window handle", &e))?.as_raw();
    let (major, minor) = MIN_GL_VERSION;
    let ctx_attrs = ContextAttributesBuilder::new()
        .with_profile(GlProfile::Core)
        .with_context_api(ContextApi::OpenGl(Some(glutin::context::Version::new(major, minor))))
        .build(Some(raw_window));
    // SAFETY: config belongs to display; the window handle is alive.
    let context = unsafe { display.create_context(&config, &ctx_attrs) }.map_err(|e| win("GL context", &e))?;
    let surf_attrs = window.build_surface_attributes(Default::default()).map_err(|e| win("surface", &e))?;
    // SAFETY: as above.
    let surface =
        unsafe { display.create_window_surface(&config, &surf_attrs) }.map_err(|e| win("window surface", &e))?;
    let context = context.make_current(&surface).map_err(|e| win("make current", &e))?;
    // Never wait for vertical blank: the computation, not the display, sets the pace.
    let _ = surface.set_swap_interval(&context, SwapInterval::DontWait);
    // SAFETY: the context is current on this thread; both tables load from its display.
    let (gl_gpu, gl_present) = unsafe {
        (
            glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s)),
            glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s)),
        )
    };
    let reset_status = load_reset_status(&gl_gpu, |s| display.get_proc_address(s));
    let platform = format!("window, {}", display.version_string());
    let shared = Rc::new(WindowGl { gl: gl_present, blit: Cell::new(None), surface, context, window });
    let gpu = Gpu::from_glow(gl_gpu, reset_status, platform, Box::new(shared.clone()))?;
    Ok((gpu, shared))
}

/// A single-sampled config (a blit cannot target a multisampled framebuffer), fewest samples first.
fn pick_config(display: &Display) -> GlResult<Config> {
    let template = ConfigTemplateBuilder::new().build();
    // SAFETY: the display is alive for the call.
    let configs =
        unsafe { display.find_configs(template) }.map_err(|e| window_error("no GL configs on this display", &e))?;
    configs
        .filter(|c| c.num_samples() == 0)
        .min_by_key(|c| (c.supports_transparency() == Some(true)) as u8)
        .ok_or_else(|| GlError::Window { detail: "the display offers no single-sampled GL config".into() })
}

impl WindowGl {
    /// The window itself (events, visibility).
    pub fn window(&self) -> &Window {
        &self.window
    }

    /// Inner size in pixels (at least 1×1).
    pub fn size(&self) -> (u32, u32) {
        let s = self.window.inner_size();
        (s.width.max(1), s.height.max(1))
    }

    /// Follows a resize of the window.
    pub fn resize(&self, width: u32, height: u32) {
        if let (Some(w), Some(h)) = (NonZeroU32::new(width), NonZeroU32::new(height)) {
            self.surface.resize(&self.context, w, h);
        }
    }

    /// Draws an RGBA8 image (`w × h`, row 0 at the top) into the back buffer.
    pub fn blit(&self, w: u32, h: u32, rgba: &[u8]) -> GlResult<()> {
        if rgba.len() != w as usize * h as usize * 4 {
            return Err(GlError::SizeMismatch {
                what: "a frame for the window".into(),
                width: w,
                height: h,
                expected: w as usize * h as usize * 4,
                got: rgba.len(),
            });
        }
        let gl = self.current();
        // SAFETY: the window's context is current on this thread; the pixel slice holds w·h RGBA
        // texels and every object used is owned by `self`.
        unsafe {
            let previous = gl.get_parameter_texture(glow::TEXTURE_BINDING_2D);
            let (tex, fbo) = match self.blit.get() {
                Some((t, f, bw, bh)) if (bw, bh) == (w, h) => (t, f),
                old => {
                    if let Some((t, f, _, _)) = old {
                        gl.delete_framebuffer(f);
                        gl.delete_texture(t);
                    }
                    let t = gl.create_texture().map_err(|d| GlError::Create { what: "a texture", detail: d })?;
                    gl.bind_texture(glow::TEXTURE_2D, Some(t));
                    gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
                    gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
                    gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::RGBA8, w as i32, h as i32);
                    let f =
                        gl.create_framebuffer().map_err(|d| GlError::Create { what: "a framebuffer", detail: d })?;
                    gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(f));
                    gl.framebuffer_texture_2d(
                        glow::READ_FRAMEBUFFER,
                        glow::COLOR_ATTACHMENT0,
                        glow::TEXTURE_2D,
                        Some(t),
                        0,
                    );
                    self.blit.set(Some((t, f, w, h)));
                    (t, f)
                }
            };
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                0,
                w as i32,
                h as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(rgba)),
            );
            gl.bind_texture(glow::TEXTURE_2D, previous);
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(fbo));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, None);
            // Texture row 0 is the image's top row; the window's row 0 is its bottom: flip.
            gl.blit_framebuffer(
                0,
                0,
                w as i32,
                h as i32,
                0,
                h as i32,
                w as i32,
                0,
                glow::COLOR_BUFFER_BIT,
                glow::NEAREST,
            );
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, None);
            let code = gl.get_error();
            if code != glow::NO_ERROR {
                return Err(GlError::Driver { call: "presenting a frame".into(), code });
            }
        }
        Ok(())
    }

    /// Shows the back buffer.
    pub fn swap(&self) -> GlResult<()> {
        self.surface.swap_buffers(&self.context).map_err(|e| window_error("swap buffers", &e))
    }

    /// Reads the back buffer (what was just blitted): `(w, h, RGBA8 bytes)`, top row first.
    pub fn read_back(&self) -> GlResult<(u32, u32, Vec<u8>)> {
        let gl = self.current();
        let (w, h) = self.size();
        let mut bytes = vec![0u8; w as usize * h as usize * 4];
        // SAFETY: context current; the buffer holds w·h RGBA bytes (pack alignment 4).
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, None);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
            gl.read_pixels(
                0,
                0,
                w as i32,
                h as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut bytes)),
            );
        }
        let row = w as usize * 4;
        let flipped: Vec<u8> = bytes.chunks(row).rev().flatten().copied().collect();
        Ok((w, h, flipped))
    }
}
