//! The desktop window of the viewer: its keys, its play timer and the frames it shows. The
//! computation runs on the main thread inside the window's GL context (`gl::window`); between
//! passes the viewer pumps the window's events (`pump_app_events`), waits for keys and presents
//! the frame, drawn on the CPU by `render` (the same image `--dump` writes).

use super::error::{save_png, DebugError, DebugResult};
use super::observer::{Flow, Sink, View};
use crate::gl::window::{self as glwin, WindowGl};
use crate::gl::Gpu;
use image::RgbaImage;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::platform::pump_events::{EventLoopExtPumpEvents, PumpStatus};
use winit::window::WindowId;

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
    /// Read the window back into this PNG after pass `.1` (0-based) and close the window. A
    /// screenshot implies playing: a paused window would wait for a key that no one presses.
    pub screenshot: Option<(PathBuf, u64)>,
    /// Close when the computation ends instead of waiting for q.
    pub exit_at_end: bool,
    /// Where `s` saves PNGs.
    pub save_dir: PathBuf,
}

/// Opens the window and makes a `Gpu` on its context (OpenGL 3.3 core, like the headless one).
pub fn open(opts: WindowOptions) -> DebugResult<(Gpu, WindowSink)> {
    if std::env::var_os("DISPLAY").is_none() {
        return Err(DebugError::NoDisplay { detail: "DISPLAY is not set".into() });
    }
    let event_loop = EventLoop::new().map_err(|e| DebugError::NoDisplay { detail: e.to_string() })?;
    let (gpu, win) = glwin::open(&event_loop, &opts.title, opts.size)?;
    let speed = opts.speed.clamp(MIN_SPEED, MAX_SPEED);
    let sink = WindowSink {
        event_loop,
        win,
        playing: opts.play || opts.screenshot.is_some(),
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
        self.win.size()
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
        let (w, h) = img.dimensions();
        Ok(self.win.blit(w, h, img.as_raw())?)
    }

    fn swap(&self) -> DebugResult<()> {
        Ok(self.win.swap()?)
    }

    /// Reads the window's back buffer (what was just blitted) into an image, top row first.
    fn read_window(&self) -> DebugResult<RgbaImage> {
        let (w, h, bytes) = self.win.read_back()?;
        RgbaImage::from_raw(w, h, bytes).ok_or_else(|| DebugError::Window("window readback size".into()))
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
            self.win.resize(size.width, size.height);
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
                    self.win.window().set_visible(false);
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
                self.win.window().set_visible(false);
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
