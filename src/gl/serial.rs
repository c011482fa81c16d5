//! The process-wide lock around GL work on contexts that cannot take it concurrently.
//!
//! Why: Mesa's software rasterizer (llvmpipe) crashed inside `glDrawArrays` and
//! `glTexSubImage2D` when threads used their own contexts at the same time (its contexts share
//! one screen; tests/stress_contexts.rs). A thread holds the lock for each stretch of GL calls
//! on such a context ([`super::shared::Shared::gl`]'s guard), and always while it makes, makes
//! current, releases or destroys a context. Re-entrant on one thread: GL work that starts more
//! GL work (a pass observer reading back, a context made inside a solve) nests.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::{Mutex, MutexGuard};

static LOCK: Mutex<()> = Mutex::new(());

thread_local! {
    /// How many [`Serial`]s this thread holds (no destructor, so usable during thread exit).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Held while this thread does serialized GL work; the outermost one holds the lock.
pub(crate) struct Serial {
    guard: Option<MutexGuard<'static, ()>>,
    /// Released on the thread that took it.
    _here: PhantomData<*const ()>,
}

/// Takes the lock, unless this thread holds it already.
pub(crate) fn serial() -> Serial {
    let depth = DEPTH.get();
    // The lock guards no data: a thread that panicked holding it left nothing half-changed.
    let guard = (depth == 0).then(|| LOCK.lock().unwrap_or_else(|p| p.into_inner()));
    DEPTH.set(depth + 1);
    Serial { guard, _here: PhantomData }
}

impl Drop for Serial {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get() - 1);
        drop(self.guard.take());
    }
}

#[cfg(test)]
mod tests {
    use super::{serial, DEPTH, LOCK};

    #[test]
    fn the_lock_nests_on_one_thread_and_excludes_the_others() {
        let outer = serial();
        let inner = serial();
        assert_eq!(DEPTH.get(), 2);
        // Held: another thread cannot take it.
        let other = || std::thread::spawn(|| LOCK.try_lock().is_ok()).join().expect("joined");
        assert!(!other(), "taken elsewhere while held here");
        drop(inner);
        assert!(!other(), "the outer hold still holds it");
        drop(outer);
        assert_eq!(DEPTH.get(), 0);
        // Released: another thread takes it (waiting for any other test's hold to end).
        std::thread::spawn(|| drop(LOCK.lock())).join().expect("taken after release");
    }
}
