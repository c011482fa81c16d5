//! The context and the counters every GL object of one `Gpu` shares.

use super::dialect::{Dialect, Fetch};
use super::reset::ResetStatusFn;
use super::serial::{serial, Serial};
use glow::HasContext;
use std::cell::{Cell, RefCell};
use std::mem::ManuallyDrop;
use std::ops::Deref;

/// What a context lives on (EGL or window objects), dropped after every GL object, and how to make
/// that context current on this thread again.
/// GL calls go to whichever context is current on the thread, so a second `Gpu` (or the
/// application's own GL) would otherwise receive this one's calls.
pub trait ContextHome {
    fn is_current(&self) -> bool;
    fn make_current(&self) -> Result<(), String>;
    /// Makes the context not current on this thread, so that another thread may make it
    /// current (EGL refuses a context current elsewhere). Homes whose context never moves keep
    /// the default, which does nothing.
    fn release(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The context and the counters its objects share. Field order is drop order: GL objects are
/// already gone when the context (`home`) goes.
pub(crate) struct Shared {
    gl: glow::Context,
    /// Why the context could not be made current, once it could not (reported by `Gpu::check`).
    pub(super) not_current: RefCell<Option<String>>,
    pub(super) reset_status: Option<ResetStatusFn>,
    pub(super) live_textures: Cell<usize>,
    pub(super) textures_created: Cell<u64>,
    /// Bytes of texel storage alive now and at most since the last reset (float textures).
    pub(super) texture_bytes: Cell<u64>,
    pub(super) texture_bytes_peak: Cell<u64>,
    pub(super) next_id: Cell<u64>,
    /// The framebuffer the last pass drew into (while its texture lives): where a browser
    /// context reads one texel to wait for the passes (see [`Shared::finish`]).
    pub(super) last_target: Cell<Option<glow::Framebuffer>>,
    /// Framebuffers with several color attachments (the targets of multiple-render-target
    /// passes), keyed by their textures' ids in attachment order; a texture's drop deletes every
    /// one it is attached to.
    pub(super) multi_targets: RefCell<Vec<(Vec<u64>, glow::Framebuffer)>>,
    /// Whether waiting must go through a readback (WebGL2, whose `finish` need not wait).
    pub(super) finish_by_readback: Cell<bool>,
    /// The shading language kernels are compiled in.
    pub(super) dialect: Dialect,
    /// How kernels fetch, and so the target every texture is made on.
    pub(super) fetch: Fetch,
    /// Whether GL calls on this context take the process-wide lock ([`super::serial`]): on
    /// software rasterizers, which share one screen between their contexts.
    serialized: bool,
    /// Dropped in [`Shared`]'s `Drop`, under the lock, after every GL object.
    home: ManuallyDrop<Box<dyn ContextHome>>,
}

/// The GL function table with this context current, holding the process-wide lock while it
/// lives where the context is serialized: take it for one stretch of GL calls, not longer.
pub(crate) struct CurrentGl<'a> {
    gl: &'a glow::Context,
    _serial: Option<Serial>,
}

impl Deref for CurrentGl<'_> {
    type Target = glow::Context;
    fn deref(&self) -> &glow::Context {
        self.gl
    }
}

impl Shared {
    /// Wraps a context that lives on `home`; `serialized`: whether its GL calls take the
    /// process-wide lock.
    pub(super) fn new(
        gl: glow::Context,
        reset_status: Option<ResetStatusFn>,
        (dialect, fetch): (Dialect, Fetch),
        home: Box<dyn ContextHome>,
        serialized: bool,
    ) -> Self {
        Shared {
            gl,
            not_current: RefCell::new(None),
            reset_status,
            live_textures: Cell::new(0),
            textures_created: Cell::new(0),
            texture_bytes: Cell::new(0),
            texture_bytes_peak: Cell::new(0),
            next_id: Cell::new(0),
            last_target: Cell::new(None),
            multi_targets: RefCell::new(Vec::new()),
            finish_by_readback: Cell::new(false),
            dialect,
            fetch,
            serialized,
            home: ManuallyDrop::new(home),
        }
    }

    /// The texture target of every texture of this context.
    pub(super) fn texture_target(&self) -> u32 {
        self.fetch.texture_target()
    }

    /// Waits until every issued pass has finished. A browser's `finish` may return before the
    /// GPU has done anything (Chromium's does); reading one texel of the last pass's target
    /// cannot, as the texel must exist first.
    pub(super) fn finish(&self) {
        let gl = self.gl();
        match self.last_target.get().filter(|_| self.finish_by_readback.get()) {
            Some(fbo) => {
                let mut texel = [0u8; 16];
                // SAFETY: context current; `fbo` is alive (a texture's drop clears it) and the
                // buffer holds one RGBA float texel.
                unsafe {
                    gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(fbo));
                    gl.read_pixels(0, 0, 1, 1, glow::RGBA, glow::FLOAT, glow::PixelPackData::Slice(Some(&mut texel)));
                }
            }
            // SAFETY: context current.
            None => unsafe { gl.finish() },
        }
    }

    /// Releases the context from this thread (see [`ContextHome::release`]); the next GL call,
    /// on whichever thread, makes it current again.
    pub(super) fn release(&self) -> Result<(), String> {
        if self.home.is_current() {
            let _serial = serial();
            self.home.release()
        } else {
            Ok(())
        }
    }

    /// The GL function table, with this context made current first if another one is, and the
    /// process-wide lock held while the result lives if the context is serialized.
    pub(crate) fn gl(&self) -> CurrentGl<'_> {
        let held = self.serialized.then(serial);
        if !self.home.is_current() {
            // Making a context current is always serialized (the driver's shared state).
            let _serial = serial();
            if let Err(e) = self.home.make_current() {
                *self.not_current.borrow_mut() = Some(e);
            }
        }
        CurrentGl { gl: &self.gl, _serial: held }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Destroying a context is always serialized, as making one is.
        let _serial = serial();
        // SAFETY: `home` is dropped once, here, and never used after (the fields left hold no
        // GL object: every one of them held an `Rc` of this `Shared` and is gone).
        unsafe { ManuallyDrop::drop(&mut self.home) }
    }
}
