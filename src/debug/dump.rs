//! The headless twin of the window: one PNG per pass (`--dump DIR`), and the export of one
//! texture at one pass (`--texture`), both drawn by the same renderer as the window.

use super::capture::PassInfo;
use super::error::{save_png, DebugError, DebugResult};
use super::observer::{Flow, Sink, View};
use super::render::{self, Frame, Panel};
use crate::gl::Gpu;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// `pass_00012_outer_update_k3.png`: the pass's position among the observed passes, its name and
/// its step (`k-` when it has none). Sorting the names sorts the passes.
pub fn file_name(info: &PassInfo) -> String {
    let k = info.step.map(|k| k.to_string()).unwrap_or_else(|| "-".into());
    format!("pass_{:05}_{}_k{k}.png", info.index, info.name)
}

/// Writes one PNG per pass into a directory.
pub struct Dump {
    dir: PathBuf,
    /// Frame size; `None`: each frame's natural size at `texel_px`.
    size: Option<(u32, u32)>,
    /// Pixels per texel for the natural size; `None`: the largest texture about 360 pixels.
    texel_px: Option<f32>,
    /// Which passes (positions among the observed ones); `None`: all.
    passes: Option<Range<u64>>,
    written: Vec<PathBuf>,
}

impl Dump {
    pub fn new(dir: &Path, size: Option<(u32, u32)>, texel_px: Option<f32>, passes: Option<Range<u64>>) -> Dump {
        Dump { dir: dir.to_path_buf(), size, texel_px, passes, written: Vec::new() }
    }
}

impl Sink for Dump {
    fn after_pass(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<Flow> {
        let Some(info) = view.last else { return Ok(Flow::Continue) };
        if self.passes.as_ref().is_some_and(|r| !r.contains(&info.index)) {
            return Ok(Flow::Continue);
        }
        let (w, h) = self.size.unwrap_or_else(|| view.natural_size(self.texel_px.unwrap_or(view.auto_texel_px())));
        let path = self.dir.join(file_name(info));
        save_png(&view.render(w, h, None), &path)?;
        self.written.push(path);
        Ok(Flow::Continue)
    }

    fn finish(&mut self, _gpu: &Gpu, _view: &View) -> DebugResult<()> {
        eprintln!("wrote {} PNGs into {}", self.written.len(), self.dir.display());
        Ok(())
    }
}

/// Which texture of a pass to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureRole {
    Target,
    /// Sampler S`n`.
    Source(usize),
}

impl std::str::FromStr for TextureRole {
    type Err = DebugError;
    fn from_str(s: &str) -> DebugResult<Self> {
        match s {
            "target" | "T" => Ok(TextureRole::Target),
            "source" | "S" => Ok(TextureRole::Source(0)),
            _ => s
                .strip_prefix("source")
                .or_else(|| s.strip_prefix('S'))
                .and_then(|n| n.parse().ok())
                .map(TextureRole::Source)
                .ok_or_else(|| DebugError::Invalid(format!("texture role {s:?}: use target, source0, source1, …"))),
        }
    }
}

/// One texture at one pass, as a single heatmap with its legend (and the pass's primitive when
/// the texture is the target): pictures for documents.
pub struct TextureExport {
    pub pass: u64,
    pub role: TextureRole,
    pub path: PathBuf,
    /// Pixels per texel; `None`: the texture about 360 pixels across.
    pub texel_px: Option<f32>,
    done: bool,
}

impl TextureExport {
    pub fn new(pass: u64, role: TextureRole, path: PathBuf, texel_px: Option<f32>) -> Self {
        Self { pass, role, path, texel_px, done: false }
    }

    /// Parses `PASS:ROLE:FILE`, e.g. `4:target:fig5.png`.
    pub fn parse(spec: &str, texel_px: Option<f32>) -> DebugResult<Self> {
        let mut parts = spec.splitn(3, ':');
        let bad = || DebugError::Invalid(format!("--texture {spec:?}: expected PASS:ROLE:FILE, e.g. 4:target:t.png"));
        let pass = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let role = parts.next().ok_or_else(bad)?.parse()?;
        let path = parts.next().filter(|p| !p.is_empty()).ok_or_else(bad)?;
        Ok(Self::new(pass, role, PathBuf::from(path), texel_px))
    }
}

impl Sink for TextureExport {
    fn after_pass(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<Flow> {
        let Some(info) = view.last.filter(|p| p.index == self.pass) else { return Ok(Flow::Continue) };
        let id = match self.role {
            TextureRole::Target => Some(info.target),
            TextureRole::Source(n) => info.sources.get(n).copied(),
        };
        let snap = id.and_then(|id| view.capture.snapshot(id)).ok_or_else(|| {
            DebugError::Invalid(format!("pass {} ({}) has no texture {:?}", info.index, info.name, self.role))
        })?;
        let px = self.texel_px.unwrap_or((360.0 / snap.width.max(snap.height) as f32).clamp(0.3, 48.0));
        let role = info.role_of(snap.id).unwrap_or_default();
        let k = info.step.map(|k| format!(" K={k}")).unwrap_or_default();
        let frame = Frame {
            status: vec![],
            panels: vec![Panel {
                title: format!("{}{k} {role}", info.name),
                width: snap.width,
                height: snap.height,
                values: &snap.values,
                outline: (snap.id == info.target).then(|| {
                    let (gx, gy) = snap.grid.span();
                    info.primitive.scaled(gx as f32, gy as f32)
                }),
                grid: snap.grid.span(),
            }],
        };
        let (w, h) = render::natural_size(0, &[(snap.width, snap.height)], px);
        // Wide enough for the title, and for the part of an oversized primitive beside the texture.
        let title_w = render::text_width(&frame.panels[0].title) + 2 * render::MARGIN + 4;
        let w = w.max(title_w).max((snap.width as f32 * px * 1.6) as u32 + 2 * render::MARGIN);
        save_png(&render::render(&frame, w, h), &self.path)?;
        self.done = true;
        Ok(Flow::Continue)
    }

    fn finish(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<()> {
        if self.done {
            eprintln!("wrote {}", self.path.display());
            return Ok(());
        }
        let seen = view.capture.observed();
        Err(DebugError::Invalid(format!(
            "--texture asked for pass {} but the run has passes 0..{seen}; nothing written to {}",
            self.pass,
            self.path.display()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_parse() {
        assert_eq!("target".parse::<TextureRole>().unwrap(), TextureRole::Target);
        assert_eq!("source2".parse::<TextureRole>().unwrap(), TextureRole::Source(2));
        assert_eq!("S1".parse::<TextureRole>().unwrap(), TextureRole::Source(1));
        assert!("middle".parse::<TextureRole>().is_err());
        let e = TextureExport::parse("4:target:a/b.png", None).unwrap();
        assert_eq!((e.pass, e.role, e.path), (4, TextureRole::Target, PathBuf::from("a/b.png")));
        assert!(TextureExport::parse("x:target:a.png", None).is_err());
        assert!(TextureExport::parse("4:target:", None).is_err());
    }
}
