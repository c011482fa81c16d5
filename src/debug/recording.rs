//! A run recorded pass by pass, replayed frame by frame afterwards. A browser page cannot wait
//! inside a pass as the window does (its GL calls run on the one thread that also draws the
//! page), so it records the whole run and then steps, plays and rewinds through the recording.
//!
//! After each pass the recording keeps the pass's description and the textures the viewer would
//! show, sharing every texture the pass did not write with the frame before: memory grows with
//! what the passes write, not with passes × textures.

use super::capture::{PassInfo, Snapshot};
use super::error::DebugResult;
use super::observer::{frame_of, Flow, Label, Sink, View, STATUS_LINES};
use super::render;
use crate::gl::Gpu;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// One pass of a recording: what it was (fragments, and time where the viewer timed passes)
/// and the textures on screen after it.
#[derive(Clone, Debug)]
pub struct RecordedPass {
    pub info: PassInfo,
    pub panels: Vec<Rc<Snapshot>>,
}

/// A recorded run; see the module documentation.
#[derive(Debug, Default)]
pub struct Recording {
    pub label: Label,
    passes: Vec<RecordedPass>,
    /// The latest copy of every texture seen, shared by the frames that show it unchanged.
    latest: BTreeMap<u64, Rc<Snapshot>>,
}

impl Recording {
    pub fn new(label: Label) -> Self {
        Recording { label, passes: Vec::new(), latest: BTreeMap::new() }
    }

    /// Passes recorded.
    pub fn len(&self) -> usize {
        self.passes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.passes.is_empty()
    }

    /// Pass `k` (from 0), if recorded.
    pub fn pass(&self, k: usize) -> Option<&RecordedPass> {
        self.passes.get(k)
    }

    /// Copies of distinct texture states the recording holds (for tests of its sharing).
    pub fn stored_snapshots(&self) -> usize {
        let mut seen: Vec<*const Snapshot> = self.passes.iter().flat_map(|p| p.panels.iter().map(Rc::as_ptr)).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }

    /// Records the state a viewer hands a sink after a pass.
    fn push(&mut self, view: &View) {
        let Some(info) = view.last else { return };
        let panels = view
            .capture
            .panels(Some(info))
            .into_iter()
            .map(|s| {
                let fresh = info.target == s.id || !self.latest.contains_key(&s.id);
                if fresh {
                    self.latest.insert(s.id, Rc::new(s.clone()));
                }
                Rc::clone(&self.latest[&s.id])
            })
            .collect();
        self.passes.push(RecordedPass { info: info.clone(), panels });
    }

    /// The frame after pass `k`, `width × height` pixels, as the window would show it.
    pub fn render(&self, k: usize, width: u32, height: u32) -> Option<image::RgbaImage> {
        let p = self.passes.get(k)?;
        let panels: Vec<&Snapshot> = p.panels.iter().map(|s| s.as_ref()).collect();
        Some(render::render(&frame_of(&self.label, Some(&p.info), None, &panels, None), width, height))
    }

    /// A frame size showing pass `k`'s textures at about `texel_px` pixels per texel.
    pub fn natural_size(&self, k: usize, texel_px: f32) -> Option<(u32, u32)> {
        let sizes: Vec<(u32, u32)> = self.passes.get(k)?.panels.iter().map(|s| (s.width, s.height)).collect();
        Some(render::natural_size(STATUS_LINES, &sizes, texel_px))
    }
}

/// The sink that fills a shared [`Recording`] (the caller keeps the other `Rc`).
pub struct Recorder(pub Rc<RefCell<Recording>>);

impl Sink for Recorder {
    fn after_pass(&mut self, _gpu: &Gpu, view: &View) -> DebugResult<Flow> {
        self.0.borrow_mut().push(view);
        Ok(Flow::Continue)
    }
}
