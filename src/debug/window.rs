//! The desktop window: winit + glutin (GLX, else EGL, on X11). The computation runs on the main
//! thread inside this window's GL context; between passes the viewer pumps the window's events
//! (`pump_app_events`), waits for keys and presents the frame. Frames are drawn on the CPU by
//! `render` (the same image `--dump` writes), uploaded to an RGBA texture and blitted to the
//! window, so the window draws with no shader of its own and leaves the passes' state alone:
//! only framebuffer bindings (which every pass sets again) and the `TEXTURE_2D` binding of the
//! active unit (restored; the passes use rectangle textures) are touched.
#![allow(unsafe_code)]

use super::error::{save_png, DebugError, DebugResult};
use super::observer::{Flow, Sink, View};
use crate::gl::Gpu;
use glow::HasContext;
use glutin::config::{Config, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext};
use glutin::display::{Display, DisplayApiPreference, GlDisplay};
use glutin::surface::{GlSurface, Surface, SwapInterval, WindowSurface};
use glutin_winit::GlWindow;
use image::RgbaImage;
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use std::cell::Cell;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::platform::pump_events::{EventLoopExtPumpEvents, PumpStatus};
use winit::window::{Window, WindowId};

/// How the window behaves.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    pub title: String,
    /// Inner size in pixels at start.
    pub size: (u32, u32),
    /// Start playing instead of paused.
    pub play: bool,
    /// Passes per second while playing.
    pub speed: f64,
    /// Read the window back into this PNG after pass `.1` (0-based) and close the window.
    pub screenshot: Option<(PathBuf, u64)>,
    /// Close when the computation ends instead of waiting for q.
    pub exit_at_end: bool,
    /// Where `s` saves PNGs.
    pub save_dir: PathBuf,
}

/// The window, its GL surface and context. Dropped last (the `Gpu` holds one `Rc` of it).
struct WindowGl {
    /// A second function table on the same context, for presenting frames.
    gl: glow::Context,
    /// The RGBA texture and framebuffer frames are blitted from, with their size.
    blit: Cell<Option<(glow::Texture, glow::Framebuffer, u32, u32)>>,
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    window: Window,
}

impl Drop for WindowGl {
    fn drop(&mut self) {
        if let Some((tex, fbo, _, _)) = self.blit.take() {
            // SAFETY: the context (a field, dropped after this) is current on this thread.
            unsafe {
                self.gl.delete_framebuffer(fbo);
                self.gl.delete_texture(tex);
            }
        }
    }
}

/// Opens the window and makes a `Gpu` on its context (OpenGL 3.3 core, like the headless one).
pub fn open(opts: WindowOptions) -> DebugResult<(Gpu, WindowSink)> {
    if std::env::var_os("DISPLAY").is_none() {
        return Err(DebugError::NoDisplay { detail: "DISPLAY is not set".into() });
    }
    let event_loop = EventLoop::new().map_err(|e| DebugError::NoDisplay { detail: e.to_string() })?;
    let win = |what: &str, e: &dyn std::fmt::Display| DebugError::Window(format!("{what}: {e}"));
    let raw_display = event_loop.display_handle().map_err(|e| win("display handle", &e))?.as_raw();
    let preference = DisplayApiPreference::GlxThenEgl(Box::new(winit::platform::x11::register_xlib_error_hook));
    // SAFETY: the display handle comes from the live event loop, which outlives the display.
    let display = unsafe { Display::new(raw_display, preference) }.map_err(|e| win("GL display", &e))?;
    let config = pick_config(&display)?;
    let attrs = Window::default_attributes()
        .with_title(opts.title.clone())
        .with_inner_size(PhysicalSize::new(opts.size.0.max(64), opts.size.1.max(64)));
    let window = glutin_winit::finalize_window(&event_loop, attrs, &config).map_err(|e| win("window", &e))?;
    let raw_window = window.window_handle().map_err(|e| win("window handle", &e))?.as_raw();
    let (major, minor) = crate::gl::MIN_GL_VERSION;
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
    let reset_status = crate::gl::load_reset_status(&gl_gpu, |s| display.get_proc_address(s));
    let platform = format!("window, {}", display.version_string());
    let shared = Rc::new(WindowGl { gl: gl_present, blit: Cell::new(None), surface, context, window });
    let gpu = Gpu::from_glow(gl_gpu, reset_status, platform, Box::new(shared.clone()))?;
    let speed = opts.speed.clamp(MIN_SPEED, MAX_SPEED);
    let sink = WindowSink {
        event_loop,
        win: shared,
        playing: opts.play,
        speed,
        opts,
        grant: Grant::None,
        last_advance: Instant::now(),
        last_present: None,
        pending: true,
        quit: false,
        saved: 0,
    };
    Ok((gpu, sink))
}

/// A single-sampled config (a blit cannot target a multisampled framebuffer), fewest samples first.
fn pick_config(display: &Display) -> DebugResult<Config> {
    let template = ConfigTemplateBuilder::new().build();
    // SAFETY: the display is alive for the call.
    let configs = unsafe { display.find_configs(template) }
        .map_err(|e| DebugError::Window(format!("no GL configs on this display: {e}")))?;
    configs
        .filter(|c| c.num_samples() == 0)
        .min_by_key(|c| (c.supports_transparency() == Some(true)) as u8)
        .ok_or_else(|| DebugError::Window("the display offers no single-sampled GL config".into()))
}

const MIN_SPEED: f64 = 0.25;
const MAX_SPEED: f64 = 16384.0;
/// While playing faster than this, frames are presented at most this often per second.
const MAX_FPS: f64 = 30.0;

/// What the keys asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Pass,
    Iteration,
    PlayPause,
    Faster,
    Slower,
    Save,
    Quit,
}

/// Collects the events of one pump.
#[derive(Default)]
struct Input {
    actions: Vec<Action>,
    resized: Option<PhysicalSize<u32>>,
    redraw: bool,
}

impl ApplicationHandler for Input {
    fn resumed(&mut self, _event_loop: &ActiveEventLoop) {}

    fn window_event(&mut self, _event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => self.actions.push(Action::Quit),
            WindowEvent::Resized(size) => self.resized = Some(size),
            WindowEvent::RedrawRequested => self.redraw = true,
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                let action = match &event.logical_key {
                    Key::Named(NamedKey::Space) => Some(Action::Pass),
                    Key::Named(NamedKey::Enter) => Some(Action::Iteration),
                    Key::Named(NamedKey::Escape) => Some(Action::Quit),
                    Key::Character(c) => match c.as_str() {
                        "q" | "Q" => Some(Action::Quit),
                        "p" | "P" => Some(Action::PlayPause),
                        "+" | "=" => Some(Action::Faster),
                        "-" | "_" => Some(Action::Slower),
                        "s" | "S" => Some(Action::Save),
                        _ => None,
                    },
                    _ => None,
                };
                self.actions.extend(action);
            }
            _ => {}
        }
    }
}

/// Passes the viewer may run without waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grant {
    None,
    /// One pass (space).
    One,
    /// Every pass of step k (enter).
    Step(Option<u32>),
}

/// The window as a sink of the viewer.
pub struct WindowSink {
    event_loop: EventLoop<()>,
    win: Rc<WindowGl>,
    opts: WindowOptions,
    playing: bool,
    speed: f64,
    grant: Grant,
    last_advance: Instant,
    last_present: Option<Instant>,
    /// The latest state has not been presented yet.
    pending: bool,
    quit: bool,
    saved: u32,
}

impl WindowSink {
    fn help(&self) -> String {
        let state = if self.playing { format!("PLAY {}/S", self.speed) } else { "PAUSED".into() };
        format!("{state}  SPACE:PASS ENTER:STEP P:PLAY +/-:SPEED S:SAVE Q:QUIT")
    }

    fn size(&self) -> (u32, u32) {
        let s = self.win.window.inner_size();
        (s.width.max(1), s.height.max(1))
    }

    /// Renders `view` at the window's size and shows it; returns the frame drawn.
    fn present(&mut self, view: &View, third: Option<String>) -> DebugResult<RgbaImage> {
        let (w, h) = self.size();
        let img = view.render(w, h, Some(third.unwrap_or_else(|| self.help())));
        self.blit(&img)?;
        self.swap()?;
        self.pending = false;
        self.last_present = Some(Instant::now());
        Ok(img)
    }

    /// Draws `img` into the window's back buffer (row 0 at the top).
    fn blit(&self, img: &RgbaImage) -> DebugResult<()> {
        let gl = &self.win.gl;
        let (w, h) = img.dimensions();
        // SAFETY: the window's context is current on this thread; the pixel slice holds w·h RGBA
        // texels and every object used is owned by `self.win`.
        unsafe {
            let previous = gl.get_parameter_texture(glow::TEXTURE_BINDING_2D);
            let (tex, fbo) = match self.win.blit.get() {
                Some((t, f, bw, bh)) if (bw, bh) == (w, h) => (t, f),
                old => {
                    if let Some((t, f, _, _)) = old {
                        gl.delete_framebuffer(f);
                        gl.delete_texture(t);
                    }
                    let t = gl.create_texture().map_err(DebugError::Window)?;
                    gl.bind_texture(glow::TEXTURE_2D, Some(t));
                    gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
                    gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
                    gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::RGBA8, w as i32, h as i32);
                    let f = gl.create_framebuffer().map_err(DebugError::Window)?;
                    gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(f));
                    gl.framebuffer_texture_2d(
                        glow::READ_FRAMEBUFFER,
                        glow::COLOR_ATTACHMENT0,
                        glow::TEXTURE_2D,
                        Some(t),
                        0,
                    );
                    self.win.blit.set(Some((t, f, w, h)));
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
                glow::PixelUnpackData::Slice(Some(img.as_raw())),
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
                return Err(DebugError::Window(format!("GL error 0x{code:04x} presenting a frame")));
            }
        }
        Ok(())
    }

    fn swap(&self) -> DebugResult<()> {
        self.win.surface.swap_buffers(&self.win.context).map_err(|e| DebugError::Window(format!("swap buffers: {e}")))
    }

    /// Reads the window's back buffer (what was just blitted) into an image, top row first.
    fn read_window(&self) -> DebugResult<RgbaImage> {
        let gl = &self.win.gl;
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
        RgbaImage::from_raw(w, h, flipped).ok_or_else(|| DebugError::Window("window readback size".into()))
    }

    /// Presents `view` and saves what the window shows.
    fn screenshot(&mut self, view: &View, path: &std::path::Path) -> DebugResult<()> {
        let (w, h) = self.size();
        let img = view.render(w, h, Some(self.help()));
        self.blit(&img)?;
        let shot = self.read_window()?;
        self.swap()?;
        self.pending = false;
        save_png(&shot, path)?;
        eprintln!("saved {}", path.display());
        Ok(())
    }

    /// Handles the window's pending events; waits up to `timeout` for one.
    fn pump(&mut self, timeout: Duration) -> Input {
        let mut input = Input::default();
        if let PumpStatus::Exit(_) = self.event_loop.pump_app_events(Some(timeout), &mut input) {
            input.actions.push(Action::Quit);
        }
        if let Some(size) = input.resized {
            if let (Some(w), Some(h)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height)) {
                self.win.surface.resize(&self.win.context, w, h);
            }
            input.redraw = true;
        }
        input
    }

    /// Applies keys; returns true on quit.
    fn apply(&mut self, gpu_view: &View, input: &Input) -> DebugResult<bool> {
        for a in &input.actions {
            match a {
                Action::Quit => {
                    self.quit = true;
                    self.win.window.set_visible(false);
                    return Ok(true);
                }
                Action::Pass => {
                    self.playing = false;
                    self.grant = Grant::One;
                }
                Action::Iteration => {
                    self.playing = false;
                    self.grant = Grant::Step(gpu_view.next.and_then(|p| p.step));
                }
                Action::PlayPause => {
                    self.playing = !self.playing;
                    self.grant = Grant::None;
                }
                Action::Faster => self.speed = (self.speed * 2.0).min(MAX_SPEED),
                Action::Slower => self.speed = (self.speed / 2.0).max(MIN_SPEED),
                Action::Save => {
                    let index = gpu_view.pass().map(|p| p.index).unwrap_or(0);
                    self.saved += 1;
                    let path = self.opts.save_dir.join(format!("glsolve_pass_{index:05}_{}.png", self.saved));
                    self.screenshot(gpu_view, &path)?;
                }
            }
        }
        Ok(false)
    }
}

impl Sink for WindowSink {
    fn before_pass(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<Flow> {
        let next_step = view.next.and_then(|p| p.step);
        loop {
            let waiting = match self.grant {
                Grant::One => false,
                Grant::Step(k) if k == next_step => false,
                Grant::Step(_) => {
                    self.grant = Grant::None;
                    true
                }
                Grant::None => !(self.playing && self.last_advance.elapsed().as_secs_f64() >= 1.0 / self.speed),
            };
            if !waiting {
                if self.grant == Grant::One {
                    self.grant = Grant::None;
                }
                self.last_advance = Instant::now();
                return Ok(Flow::Continue);
            }
            if self.pending {
                self.present(view, None)?;
            }
            let timeout = if self.playing {
                Duration::from_secs_f64((1.0 / self.speed - self.last_advance.elapsed().as_secs_f64()).clamp(0.0, 0.02))
            } else {
                Duration::from_millis(20)
            };
            let input = self.pump(timeout);
            let changed = !input.actions.is_empty();
            if self.apply(view, &input)? {
                return Ok(Flow::Detach);
            }
            if input.redraw || changed {
                self.pending = true;
            }
        }
    }

    fn after_pass(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<Flow> {
        self.pending = true;
        if let Some((path, at)) = self.opts.screenshot.clone() {
            if view.last.is_some_and(|p| p.index == at) {
                self.screenshot(view, &path)?;
                self.quit = true;
                self.win.window.set_visible(false);
                return Ok(Flow::Detach);
            }
        }
        let fast = self.playing && self.speed > MAX_FPS;
        let due = match self.last_present {
            Some(t) => t.elapsed().as_secs_f64() >= 1.0 / MAX_FPS,
            None => true,
        };
        if !fast || due {
            self.present(view, None)?;
        }
        let input = self.pump(Duration::ZERO);
        if self.apply(view, &input)? {
            return Ok(Flow::Detach);
        }
        Ok(Flow::Continue)
    }

    fn finish(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<()> {
        if self.quit {
            return Ok(());
        }
        if let Some((path, at)) = &self.opts.screenshot {
            return Err(DebugError::Invalid(format!(
                "--at {at}: the run has only {} passes; no screenshot written to {}",
                view.capture.observed(),
                path.display()
            )));
        }
        let done = || "DONE.  S SAVE  Q QUIT".to_string();
        self.present(view, Some(done()))?;
        if self.opts.exit_at_end {
            return Ok(());
        }
        loop {
            let input = self.pump(Duration::from_millis(50));
            if self.apply(view, &input)? {
                return Ok(());
            }
            if input.redraw || !input.actions.is_empty() {
                self.present(view, Some(done()))?;
            }
        }
    }
}
