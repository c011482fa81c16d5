//! The viewer's pass observer: it keeps a CPU copy of every texture the recent passes touched
//! (read back with `Gpu::read_rect`), describes each pass (name, step, primitive, fragments from
//! the occlusion query) and hands the result to its sinks: the window, the PNG dump, the texture
//! export. It only reads textures, so the computation's results do not change.

use super::capture::{Capture, PassInfo, Snapshot};
use super::error::{DebugError, DebugResult};
use super::render::{self, Frame, Panel, PanelRect};
use crate::gl::{Gpu, Measure, Pass, PassObserver, PassRecord, TexelGrid};

#[derive(Clone, Debug, Default)]
pub struct Label {
    /// "cholesky", "assemble", "solve", …
    pub algorithm: String,
    /// The variant or direction ("triangle-pair", "forward", …).
    pub variant: String,
    /// "full" or "packed".
    pub format: String,
    pub m: usize,
    /// Passes the run will observe, when known beforehand.
    pub total: Option<u64>,
}

/// The state a sink draws: the caches, the pass just done and the one about to run.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub label: &'a Label,
    pub capture: &'a Capture,
    pub last: Option<&'a PassInfo>,
    pub next: Option<&'a PassInfo>,
}

/// Lines of status text every frame has (the window and the dump agree, so their layouts match).
pub const STATUS_LINES: usize = 3;

impl View<'_> {
    /// The pass the frame describes: the one just done, else the one about to run.
    pub fn pass(&self) -> Option<&PassInfo> {
        self.last.or(self.next)
    }

    /// The status lines; `third` replaces the default third line (kernel and defines).
    pub fn status(&self, third: Option<String>) -> Vec<String> {
        status_lines(self.label, self.last, self.next, third)
    }

    /// The panels with their titles and the outline of the pass's primitive on its target.
    pub fn frame(&self, third: Option<String>) -> Frame<'_> {
        frame_of(self.label, self.last, self.next, &self.capture.panels(self.pass()), third)
    }

    /// Texture ids and where each lands in a `width × height` frame.
    pub fn layout(&self, width: u32, height: u32) -> Vec<(u64, PanelRect)> {
        let panels = self.capture.panels(self.pass());
        let sizes: Vec<(u32, u32)> = panels.iter().map(|s| (s.width, s.height)).collect();
        let rects = render::layout(width, height, STATUS_LINES, &sizes);
        panels.iter().map(|s| s.id).zip(rects).collect()
    }

    /// A frame size showing the textures at about `texel_px` pixels per texel.
    pub fn natural_size(&self, texel_px: f32) -> (u32, u32) {
        let sizes: Vec<(u32, u32)> = self.capture.panels(self.pass()).iter().map(|s| (s.width, s.height)).collect();
        render::natural_size(STATUS_LINES, &sizes, texel_px)
    }

    /// The pixels per texel that makes the largest texture about 360 pixels across.
    pub fn auto_texel_px(&self) -> f32 {
        let side = self.capture.panels(self.pass()).iter().map(|s| s.width.max(s.height)).max().unwrap_or(1);
        (360.0 / side as f32).clamp(0.3, 48.0)
    }

    /// Renders the frame at `width × height`.
    pub fn render(&self, width: u32, height: u32, third: Option<String>) -> image::RgbaImage {
        render::render(&self.frame(third), width, height)
    }
}

/// The status lines of a frame: the run, the pass just done (or the one about to run), and
/// `third` or the pass's kernel and defines.
pub fn status_lines(l: &Label, last: Option<&PassInfo>, next: Option<&PassInfo>, third: Option<String>) -> Vec<String> {
    let mut lines = vec![format!("{}  {}  {}  M={}", l.algorithm, l.variant, l.format, l.m)];
    let total = l.total.map(|t| format!("/{t}")).unwrap_or_default();
    let k = |p: &PassInfo| p.step.map(|k| format!("K={k}")).unwrap_or_else(|| "K=-".into());
    let kind = |p: &PassInfo| format!("{:?}", p.primitive.kind());
    match (last, next) {
        (Some(p), _) => lines.push(format!(
            "PASS {}{total}  {}  {} ({})  {} FRAGMENTS{}",
            p.index + 1,
            k(p),
            p.name,
            kind(p),
            p.fragments.map(|f| f.to_string()).unwrap_or_else(|| "?".into()),
            if p.fragments_predicted { " (PREDICTED)" } else { "" },
        )),
        (None, Some(p)) => lines.push(format!("BEFORE PASS 1{total}  NEXT: {}  {} ({})", k(p), p.name, kind(p))),
        (None, None) => lines.push("NO PASS YET".into()),
    }
    let time = |p: &PassInfo| p.time.map(|t| format!("  {:.3} MS", t.as_secs_f64() * 1e3)).unwrap_or_default();
    lines.push(third.unwrap_or_else(|| match last.or(next) {
        Some(p) if p.defines.is_empty() => format!("KERNEL {}{}", p.kernel, time(p)),
        Some(p) => format!("KERNEL {} ({}){}", p.kernel, p.defines.join(" "), time(p)),
        None => String::new(),
    }));
    lines
}

/// A frame: the status lines and `panels` with their titles, the pass's primitive outlined on
/// its target.
pub fn frame_of<'a>(
    label: &Label,
    last: Option<&PassInfo>,
    next: Option<&PassInfo>,
    panels: &[&'a Snapshot],
    third: Option<String>,
) -> Frame<'a> {
    let pass = last.or(next);
    let panels = panels
        .iter()
        .map(|s| {
            let role = pass.and_then(|p| p.role_of(s.id)).unwrap_or_default();
            let (gx, gy) = s.grid.span();
            let outline = pass.filter(|p| p.target == s.id).map(|p| p.primitive.scaled(gx as f32, gy as f32));
            let layout = match s.grid {
                TexelGrid::One => String::new(),
                TexelGrid::Blocks2x2 => " RGBA 2×2".into(),
                TexelGrid::Runs4 => " RGBA 1×4".into(),
            };
            Panel {
                title: format!("#{} {}×{}{layout} {role}", s.id, s.width, s.height),
                width: s.width,
                height: s.height,
                values: &s.values,
                outline,
                grid: (gx, gy),
            }
        })
        .collect();
    Frame { status: status_lines(label, last, next, third), panels }
}

/// What a sink tells the viewer after a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Stop watching: the remaining passes run unobserved (the window was closed).
    Detach,
}

/// A consumer of frames: the window, the dump, the texture export.
pub trait Sink {
    /// Before each pass (the window waits for keys here).
    fn before_pass(&mut self, _gpu: &Gpu, _view: &View) -> DebugResult<Flow> {
        Ok(Flow::Continue)
    }
    /// After each pass, with the caches up to date.
    fn after_pass(&mut self, gpu: &Gpu, view: &View) -> DebugResult<Flow>;
    /// After the last pass.
    fn finish(&mut self, _gpu: &Gpu, _view: &View) -> DebugResult<()> {
        Ok(())
    }
}

/// The observer that drives the sinks. Errors cannot leave an observer hook, so the first one
/// stops the viewer and is returned by [`Viewer::finish`].
pub struct Viewer {
    label: Label,
    /// What each observed pass measures: fragments always, time on request.
    measure: Measure,
    capture: Capture,
    last: Option<PassInfo>,
    sinks: Vec<Box<dyn Sink>>,
    error: Option<DebugError>,
    detached: bool,
}

impl Viewer {
    pub fn new(label: Label, sinks: Vec<Box<dyn Sink>>) -> Viewer {
        Viewer {
            label,
            measure: Measure::FRAGMENTS,
            capture: Capture::default(),
            last: None,
            sinks,
            error: None,
            detached: false,
        }
    }

    /// Also times every pass, by `time` (the context's honest mode: `GpuInfo::honest_time_mode`).
    pub fn timed(mut self, time: crate::gl::TimeMode) -> Viewer {
        self.measure = Measure { fragments: true, time };
        self
    }

    /// The state after the last pass.
    pub fn view(&self) -> View<'_> {
        View { label: &self.label, capture: &self.capture, last: self.last.as_ref(), next: None }
    }

    /// Passes observed.
    pub fn observed(&self) -> u64 {
        self.capture.observed()
    }

    /// Whether a sink asked to stop watching (or an error did).
    pub fn detached(&self) -> bool {
        self.detached
    }

    fn fail(&mut self, e: DebugError) {
        self.error.get_or_insert(e);
        self.detached = true;
    }

    fn each(&mut self, next: Option<&PassInfo>, before: bool, gpu: &Gpu) {
        let view = View { label: &self.label, capture: &self.capture, last: self.last.as_ref(), next };
        let mut outcome = Ok(Flow::Continue);
        for s in &mut self.sinks {
            let r = if before { s.before_pass(gpu, &view) } else { s.after_pass(gpu, &view) };
            match r {
                Ok(Flow::Continue) => {}
                other => {
                    outcome = other;
                    break;
                }
            }
        }
        match outcome {
            Ok(Flow::Continue) => {}
            Ok(Flow::Detach) => self.detached = true,
            Err(e) => self.fail(e),
        }
    }

    /// Lets every sink finish (the window waits for q here) and returns the first error.
    pub fn finish(&mut self, gpu: &Gpu) -> DebugResult<()> {
        if self.error.is_none() {
            let view = View { label: &self.label, capture: &self.capture, last: self.last.as_ref(), next: None };
            for s in &mut self.sinks {
                if let Err(e) = s.finish(gpu, &view) {
                    self.error.get_or_insert(e);
                    break;
                }
            }
        }
        self.error.take().map_or(Ok(()), Err)
    }
}

impl PassObserver for Viewer {
    fn measure(&self) -> Measure {
        if self.detached {
            Measure::NOTHING
        } else {
            self.measure
        }
    }

    fn before_pass(&mut self, gpu: &Gpu, pass: &Pass) {
        if self.detached {
            return;
        }
        match self.capture.before(gpu, pass) {
            Ok(info) => self.each(Some(&info), true, gpu),
            Err(e) => self.fail(e.into()),
        }
    }

    fn after_pass(&mut self, gpu: &Gpu, pass: &Pass, record: &PassRecord) {
        if self.detached {
            return;
        }
        match self.capture.after(gpu, pass, record) {
            Ok(info) => {
                self.last = Some(info);
                self.each(None, false, gpu);
            }
            Err(e) => self.fail(e.into()),
        }
    }
}
