//! The context and the counters every GL object of one `Gpu` shares.

use super::context::ResetStatusFn;
use std::any::Any;
use std::cell::Cell;

/// The context and the counters its objects share. Field order is drop order: GL objects are
/// already gone when the context (`keep_alive`) goes.
pub(crate) struct Shared {
    pub(crate) gl: glow::Context,
    pub(super) reset_status: Option<ResetStatusFn>,
    pub(super) live_textures: Cell<usize>,
    pub(super) textures_created: Cell<u64>,
    /// Bytes of texel storage alive now and at most since the last reset (float textures).
    pub(super) texture_bytes: Cell<u64>,
    pub(super) texture_bytes_peak: Cell<u64>,
    pub(super) next_id: Cell<u64>,
    pub(super) _keep_alive: Box<dyn Any>,
}
