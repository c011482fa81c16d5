//! What the viewer keeps: a CPU copy of every texture the recent passes touched (read back with
//! `Gpu::read_rect`, only the bounding box of each pass's primitive after the first read), and a
//! description of each pass.

use crate::geometry::Primitive;
use crate::gl::{GlResult, Gpu, Pass, PassRecord, TexelGrid, Texture};
use std::collections::BTreeMap;

/// Textures not touched for this many passes leave the screen (and the cache).
pub const RECENT: u64 = 8;
/// At most this many textures are shown side by side.
pub const MAX_PANELS: usize = 5;

/// The CPU copy of one texture, as the logical matrix it holds (an RGBA texel of 2×2 blocks
/// becomes four entries in two rows, a run of four becomes four entries of one row).
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub id: u64,
    /// Logical size (texels × the grid's span).
    pub width: u32,
    pub height: u32,
    /// Row-major logical values (row i = matrix row i).
    pub values: Vec<f32>,
    /// How texels map to entries (the block grid the viewer draws).
    pub grid: TexelGrid,
    last_seen: u64,
}

impl Snapshot {
    /// Stores the texels `[j0, i0, j1, i1)` read back (all channels, row-major texels).
    fn store(&mut self, [j0, i0, j1, _]: [u32; 4], data: &[f32], channels: usize) {
        let w = self.width as usize;
        let texels_per_row = (j1 - j0) as usize;
        for (t, texel) in data.chunks(channels).enumerate() {
            let (x, y) = (j0 + (t % texels_per_row) as u32, i0 + (t / texels_per_row) as u32);
            for (c, v) in texel.iter().enumerate() {
                let (col, row) = self.grid.entry(x, y, c as u32);
                if let Some(slot) = self.values.get_mut(row as usize * w + col as usize) {
                    *slot = *v;
                }
            }
        }
    }
}

/// One pass as the viewer shows it.
#[derive(Clone, Debug)]
pub struct PassInfo {
    /// Position among the observed passes, from 0.
    pub index: u64,
    pub name: &'static str,
    pub kernel: &'static str,
    pub defines: &'static [&'static str],
    /// The algorithm's step k.
    pub step: Option<u32>,
    /// Fragments shaded (after the pass; `None` before it).
    pub fragments: Option<u64>,
    /// Whether `fragments` is predicted from the primitive (no counting query on the context).
    pub fragments_predicted: bool,
    /// How long the pass took, where the viewer was asked to time passes.
    pub time: Option<std::time::Duration>,
    pub primitive: Primitive,
    /// Texture ids of the target and the sources (samplers S0, S1, …).
    pub target: u64,
    pub sources: Vec<u64>,
}

impl PassInfo {
    fn of(index: u64, pass: &Pass) -> PassInfo {
        PassInfo {
            index,
            name: pass.name,
            kernel: pass.kernel.file,
            defines: pass.defines,
            step: pass.step,
            fragments: None,
            fragments_predicted: false,
            time: None,
            primitive: pass.primitive,
            target: pass.target.id(),
            sources: pass.sources.iter().map(|s| s.id()).collect(),
        }
    }

    /// "TARGET", "SOURCE 0", … or `None` when the texture takes no part in this pass.
    pub fn role_of(&self, id: u64) -> Option<String> {
        if id == self.target {
            return Some("TARGET".into());
        }
        self.sources.iter().position(|&s| s == id).map(|n| format!("SOURCE {n}"))
    }
}

/// The textures' CPU copies, kept exact pass by pass: a texture is read whole the first time a
/// pass uses it, and after each pass only the bounding box of the pass's primitive is read back
/// from its target (everything a pass can write). Writes that are not passes (uploads) to a
/// texture already cached are not seen.
#[derive(Debug, Default)]
pub struct Capture {
    snapshots: BTreeMap<u64, Snapshot>,
    observed: u64,
}

impl Capture {
    fn ensure(&mut self, gpu: &Gpu, tex: &Texture) -> GlResult<()> {
        let now = self.observed;
        if let Some(s) = self.snapshots.get_mut(&tex.id()) {
            s.last_seen = now;
            return Ok(());
        }
        let grid = tex.grid();
        let (sx, sy) = grid.span();
        let (w, h) = (tex.width() * sx, tex.height() * sy);
        let mut snap =
            Snapshot { id: tex.id(), width: w, height: h, values: vec![0.0; (w * h) as usize], grid, last_seen: now };
        snap.store([0, 0, tex.width(), tex.height()], &gpu.read(tex)?, tex.format().channels());
        self.snapshots.insert(tex.id(), snap);
        Ok(())
    }

    /// Reads the pass's textures that are not cached yet; describes the coming pass.
    pub fn before(&mut self, gpu: &Gpu, pass: &Pass) -> GlResult<PassInfo> {
        for t in pass.sources.iter().copied().chain(std::iter::once(pass.target)) {
            self.ensure(gpu, t)?;
        }
        Ok(PassInfo::of(self.observed, pass))
    }

    /// Reads back what the pass wrote; describes the pass done.
    pub fn after(&mut self, gpu: &Gpu, pass: &Pass, record: &PassRecord) -> GlResult<PassInfo> {
        self.ensure(gpu, pass.target)?;
        let t = pass.target;
        if let Some([j0, i0, j1, i1]) = bounding_box(&pass.primitive, t.width(), t.height()) {
            let part = gpu.read_rect(t, j0, i0, j1 - j0, i1 - i0)?;
            if let Some(s) = self.snapshots.get_mut(&t.id()) {
                s.store([j0, i0, j1, i1], &part, t.format().channels());
            }
        }
        let mut info = PassInfo::of(self.observed, pass);
        info.fragments = record.fragments;
        info.fragments_predicted = record.fragments_predicted;
        info.time = record.time;
        self.observed += 1;
        let now = self.observed;
        self.snapshots.retain(|_, s| now - s.last_seen <= RECENT);
        Ok(info)
    }

    /// The cached copy of texture `id`.
    pub fn snapshot(&self, id: u64) -> Option<&Snapshot> {
        self.snapshots.get(&id)
    }

    /// The textures to show around `info`, in id order (a stable place on screen for each): those
    /// of the pass first if there are more than [`MAX_PANELS`].
    pub fn panels(&self, info: Option<&PassInfo>) -> Vec<&Snapshot> {
        let involved = |id: u64| info.is_some_and(|p| p.role_of(id).is_some());
        let mut chosen: Vec<&Snapshot> = self.snapshots.values().filter(|s| involved(s.id)).collect();
        for s in self.snapshots.values().rev() {
            if chosen.len() >= MAX_PANELS {
                break;
            }
            if !involved(s.id) {
                chosen.push(s);
            }
        }
        chosen.truncate(MAX_PANELS);
        chosen.sort_by_key(|s| s.id);
        chosen
    }

    /// Passes observed so far.
    pub fn observed(&self) -> u64 {
        self.observed
    }
}

/// The texels `[j0, i0, j1, i1)` a primitive can shade on a `w × h` target (none if empty).
pub fn bounding_box(p: &Primitive, w: u32, h: u32) -> Option<[u32; 4]> {
    let v = p.vertices();
    let min = |f: fn(&[f32; 2]) -> f32| v.iter().map(|v| f(&v.pos)).fold(f32::INFINITY, f32::min);
    let max = |f: fn(&[f32; 2]) -> f32| v.iter().map(|v| f(&v.pos)).fold(f32::NEG_INFINITY, f32::max);
    let lo = |x: f32, n: u32| (x.floor().max(0.0) as u32).min(n);
    let hi = |x: f32, n: u32| ((x.floor() + 1.0).max(0.0) as u32).min(n);
    let (j0, j1) = (lo(min(|p| p[0]), w), hi(max(|p| p[0]), w));
    let (i0, i1) = (lo(min(|p| p[1]), h), hi(max(|p| p[1]), h));
    (j0 < j1 && i0 < i1).then_some([j0, i0, j1, i1])
}

/// What a run is, for the status line.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::cholesky::fig5_outer_update_triangle;

    #[test]
    fn bounding_boxes_hold_what_primitives_shade() {
        assert_eq!(bounding_box(&fig5_outer_update_triangle(0, 8), 8, 8), Some([1, 0, 8, 8]));
        assert_eq!(bounding_box(&Primitive::texel_point(3, 2), 8, 8), Some([3, 2, 4, 3]));
        assert_eq!(bounding_box(&Primitive::texel_rect(2, 3, 5, 8), 8, 8), Some([2, 3, 6, 8]));
        assert_eq!(bounding_box(&Primitive::texel_rect(9, 9, 10, 10), 8, 8), None);
    }
}
