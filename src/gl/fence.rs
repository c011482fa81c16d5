//! Flushes and fences: what lets host work overlap GL work, and what tells the host when the GL
//! work it issued has finished (`glFlush`, `glFenceSync`, `glClientWaitSync`).
//!
//! Why: drivers queue passes and start them at a flush (Mesa llvmpipe rasterizes a flushed scene
//! in its own threads while the calling thread goes on), so a host computation issued after a
//! flush runs beside the passes before it. A fence placed after those passes answers "done yet?"
//! without waiting (`is_signaled`) or waits for them (`wait`); the blocked LU's look-ahead and
//! its timeline are built on these two questions.
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::gpu::Gpu;
use super::info::FenceWait;
use super::shared::Shared;
use glow::HasContext;
use std::rc::Rc;

/// A point in the GL command stream; signaled once every command issued before it has finished.
/// Deleted in `Drop` while the context is alive and current.
pub struct Fence {
    shared: Rc<Shared>,
    sync: glow::Fence,
    /// Only zero-timeout polls are allowed (WebGL2), and a poll sees a fence signaled only once
    /// the page has returned to the browser: waiting is then `glFinish`.
    polling: bool,
}

/// `glClientWaitSync`'s longest single wait (its timeout is a 32-bit count of nanoseconds here).
const WAIT_SLICE_NS: i32 = 1_000_000_000;

impl Gpu {
    /// Starts every issued pass now (`glFlush`), without waiting for any.
    pub fn flush(&self) {
        // SAFETY: context current on this thread.
        unsafe { self.shared.gl().flush() }
    }

    internal_fn! {
        /// A fence after every pass issued so far. It does not flush: [`Fence::wait`] does, and
        /// [`Fence::is_signaled`] never will, so call [`Gpu::flush`] when the passes must start now.
        fn fence(&self) -> GlResult<Fence> {
            // SAFETY: context current; the sync object is owned by the returned value.
            let sync = unsafe { self.shared.gl().fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0) }
                .map_err(|detail| GlError::Create { what: "a fence", detail })?;
            Ok(Fence { shared: Rc::clone(&self.shared), sync, polling: self.info.fence_wait == FenceWait::Polling })
        }
    }
}

impl Fence {
    /// Whether the commands before the fence have finished; never waits and never flushes.
    pub fn is_signaled(&self) -> GlResult<bool> {
        // SAFETY: context current; the fence is alive (owned by self).
        let status = unsafe { self.shared.gl().client_wait_sync(self.sync, 0, 0) };
        classify(status)
    }

    /// Flushes and waits until the commands before the fence have finished.
    pub fn wait(&self) -> GlResult<()> {
        if self.polling {
            self.shared.finish();
            return Ok(());
        }
        loop {
            // SAFETY: as above; the flush bit makes sure the fence is reached.
            let status =
                unsafe { self.shared.gl().client_wait_sync(self.sync, glow::SYNC_FLUSH_COMMANDS_BIT, WAIT_SLICE_NS) };
            if classify(status)? {
                return Ok(());
            }
        }
    }
}

/// `glClientWaitSync`'s answer as done (true) / not yet (false) / an error.
fn classify(status: u32) -> GlResult<bool> {
    match status {
        glow::ALREADY_SIGNALED | glow::CONDITION_SATISFIED => Ok(true),
        glow::TIMEOUT_EXPIRED => Ok(false),
        code => Err(GlError::Driver { call: "glClientWaitSync".into(), code }),
    }
}

impl Drop for Fence {
    fn drop(&mut self) {
        // SAFETY: `shared` keeps the context alive and `gl()` makes it current.
        unsafe { self.shared.gl().delete_sync(self.sync) }
    }
}

impl std::fmt::Debug for Fence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fence")
    }
}
