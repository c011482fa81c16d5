//! What is measured around a pass, and what one pass did (plain data).

use crate::geometry::PrimitiveKind;
use std::time::Duration;

/// How a pass is timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeMode {
    #[default]
    Off,
    /// `glFinish` before and after the draw and a host clock: right on drivers that rasterize at
    /// flush (Mesa llvmpipe), at the price of a pipeline drain per pass.
    HostFinish,
    /// A `GL_TIME_ELAPSED` query: right only where the driver honours it (e.g. NVIDIA).
    GpuTimer,
}

/// What an observer asks the runner to measure around each pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// Count shaded fragments: a `GL_SAMPLES_PASSED` query (exact) where the context has one,
    /// else the reference rasterizer's prediction from the primitive (see
    /// [`super::FragmentCounting`]).
    pub fragments: bool,
    pub time: TimeMode,
}

impl Measure {
    pub const NOTHING: Measure = Measure { fragments: false, time: TimeMode::Off };
    pub const FRAGMENTS: Measure = Measure { fragments: true, time: TimeMode::Off };
}

/// What happened in one pass.
#[derive(Clone, Debug, PartialEq)]
pub struct PassRecord {
    /// Position of the pass since the `Gpu` was made.
    pub index: u64,
    pub name: &'static str,
    pub kernel: &'static str,
    /// The kernel's variant defines.
    pub defines: &'static [&'static str],
    pub primitive: PrimitiveKind,
    /// Step of the algorithm (the papers' k), when it has one.
    pub step: Option<u32>,
    /// Target texture size (width, height).
    pub target: (u32, u32),
    pub fragments: Option<u64>,
    /// Whether `fragments` is the prediction from the primitive rather than the driver's count.
    pub fragments_predicted: bool,
    pub time: Option<Duration>,
}
