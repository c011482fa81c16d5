//! A pass: one target (or several, written at once through multiple render targets), up to
//! [`super::MAX_SOURCES`] sources, one kernel, one primitive. The plain data an algorithm
//! builds; [`super::Gpu::run`] draws it.

use super::program::Kernel;
use super::texture::Texture;
use crate::geometry::Primitive;

/// One draw of the raster pipeline.
#[derive(Clone, Copy, Debug)]
pub struct Pass<'a> {
    /// What the pass is, in the papers' words ("sqrt", "normalize", "outer_update", "copy", …).
    pub name: &'static str,
    pub kernel: &'static Kernel,
    /// Variant `#define`s prepended to the kernel source.
    pub defines: &'static [&'static str],
    pub target: &'a Texture,
    /// Further targets written by the same fragments (color attachments 1, 2, …: a register
    /// tile's planes); the kernel declares one output per target.
    pub more_targets: &'a [&'a Texture],
    /// Bound to samplers `S0`, `S1`, … in order.
    pub sources: &'a [&'a Texture],
    pub primitive: Primitive,
    /// Scalar uniforms by name.
    pub uniforms: &'a [(&'static str, f32)],
    /// The algorithm's step (k), for logs and the viewer.
    pub step: Option<u32>,
}

impl<'a> Pass<'a> {
    /// A pass with no defines, uniforms or step.
    pub fn new(
        name: &'static str,
        kernel: &'static Kernel,
        target: &'a Texture,
        sources: &'a [&'a Texture],
        primitive: Primitive,
    ) -> Self {
        Self { name, kernel, defines: &[], target, more_targets: &[], sources, primitive, uniforms: &[], step: None }
    }
    pub fn defines(mut self, d: &'static [&'static str]) -> Self {
        self.defines = d;
        self
    }
    pub fn uniforms(mut self, u: &'a [(&'static str, f32)]) -> Self {
        self.uniforms = u;
        self
    }
    /// Adds targets 1, 2, … (target 0 is `target`).
    pub fn more_targets(mut self, t: &'a [&'a Texture]) -> Self {
        self.more_targets = t;
        self
    }
    /// Every target, attachment 0 first.
    pub fn targets(&self) -> impl Iterator<Item = &'a Texture> + '_ {
        std::iter::once(self.target).chain(self.more_targets.iter().copied())
    }
    pub fn step(mut self, k: u32) -> Self {
        self.step = Some(k);
        self
    }
}
