//! A global allocator that asks Linux for transparent huge pages on large blocks.
//!
//! **Why.** The dense solves allocate a few arrays of many megabytes (the standard form's A, its
//! dense copy, the normal matrix and its factor) and write them once from fresh memory. With
//! 4 KiB pages every first touch is a page fault: at m = 1024 on the dense family (A of 32 MB)
//! the faults were a third of the standard form's time and half of the backend setup's. Where
//! the system's transparent huge pages are in `madvise` mode, only a block advised with
//! `MADV_HUGEPAGE` is faulted in 2 MiB at a time (in `always` mode every large block is).
//!
//! **How.** Every allocation goes to [`System`]; a block of at least [`HUGE_PAGE`] bytes then
//! has the 2 MiB-aligned part of it advised (one `madvise` call; the unaligned ends keep small
//! pages). Nothing else changes: the advice is a hint the kernel may ignore, and a failed call
//! is ignored too. On other systems the allocator is [`System`] itself.
//!
//! The `glsolve` binary installs it. A program that links the library chooses its own global
//! allocator, and can install this one the same way:
//!
//! ```
//! #[global_allocator]
//! static ALLOC: glsolve::cpu::huge_pages::HugePageAlloc = glsolve::cpu::huge_pages::HugePageAlloc;
//!
//! fn main() {
//!     let v = vec![1.0f64; 1 << 20]; // 8 MiB: advised
//!     assert_eq!(v.iter().sum::<f64>(), (1 << 20) as f64);
//! }
//! ```

// An allocator is unsafe by contract; the crate denies unsafe code elsewhere.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

/// The transparent huge page size of x86-64 and of aarch64 with 4 KiB base pages.
pub const HUGE_PAGE: usize = 2 << 20;

/// Whether blocks are advised (see [`set_advice`]).
static ADVICE: AtomicBool = AtomicBool::new(true);

/// Switches the advice on (the default) or off: off, [`HugePageAlloc`] is [`System`], so that
/// one process can time both (`glsolve bench cpu`).
pub fn set_advice(on: bool) {
    ADVICE.store(on, Ordering::Relaxed);
}

/// Whether blocks are advised now.
pub fn advice() -> bool {
    ADVICE.load(Ordering::Relaxed)
}

/// [`System`], with blocks of at least [`HUGE_PAGE`] bytes advised for huge pages (Linux).
#[derive(Clone, Copy, Debug, Default)]
pub struct HugePageAlloc;

/// The whole huge pages inside `[start, start + len)`: (first, length), length 0 when none.
pub fn aligned_interior(start: usize, len: usize) -> (usize, usize) {
    let Some(first) = start.checked_next_multiple_of(HUGE_PAGE) else { return (0, 0) };
    let end = start.saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
    (first, end.saturating_sub(first))
}

/// Advises the huge pages inside a block that was just allocated (or grown); whether the kernel
/// took the advice (false also when the block holds no whole huge page). The caller's `errno`
/// is kept: an allocation that succeeded must not leave the advice's failure behind.
#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, len: usize) -> bool {
    if ptr.is_null() || len < HUGE_PAGE || !advice() {
        return false;
    }
    let (first, bytes) = aligned_interior(ptr as usize, len);
    if bytes == 0 {
        return false;
    }
    // SAFETY: `__errno_location` is this thread's errno; [first, first + bytes) lies inside a
    // block the allocator has just handed out, and MADV_HUGEPAGE changes no contents: it only
    // sets how later faults are served.
    unsafe {
        let errno = libc::__errno_location();
        let saved = *errno;
        let advised = libc::madvise(first as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) == 0;
        *errno = saved;
        advised
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _len: usize) -> bool {
    false
}

// SAFETY: every call is forwarded to `System` with its own arguments; `advise` only adds a hint
// on memory of the block just returned.
unsafe impl GlobalAlloc for HugePageAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if new_size > layout.size() {
            advise(p, new_size);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::{advise, aligned_interior, HugePageAlloc, HUGE_PAGE};
    use std::alloc::{GlobalAlloc, Layout};

    #[test]
    fn blocks_small_and_large_are_zeroed_written_and_grown_with_their_contents() {
        let alloc = HugePageAlloc;
        // Alignment 8 takes the paths `Vec<f64>` takes (calloc, realloc); 64 posix_memalign's.
        for (size, align) in [8, HUGE_PAGE - 1, 3 * HUGE_PAGE + 5, 9 << 20].into_iter().flat_map(|s| [(s, 8), (s, 64)])
        {
            let layout = Layout::from_size_align(size, align).expect("a layout");
            let grown = 2 * size + 1;
            // SAFETY: every pointer is checked non-null and used within the size it was given
            // with, then freed with the layout it was last given.
            unsafe {
                let p = alloc.alloc_zeroed(layout);
                assert!(!p.is_null(), "{size}");
                assert!(std::slice::from_raw_parts(p, size).iter().all(|&b| b == 0), "{size}: not zeroed");
                for k in 0..size {
                    *p.add(k) = (k % 251) as u8;
                }
                let q = alloc.realloc(p, layout, grown);
                assert!(!q.is_null(), "{size}");
                let kept = std::slice::from_raw_parts(q, size);
                assert!(kept.iter().enumerate().all(|(k, &b)| b == (k % 251) as u8), "{size}: contents lost");
                *q.add(grown - 1) = 7;
                alloc.dealloc(q, Layout::from_size_align(grown, align).expect("a layout"));
            }
        }
    }

    /// Where the kernel has transparent huge pages, a large block's advice is taken (an
    /// unaligned range or a wrong length would be refused with EINVAL).
    #[cfg(target_os = "linux")]
    #[test]
    fn the_kernel_takes_the_advice_where_it_has_huge_pages() {
        let block = vec![0u8; 9 << 20];
        let thp = std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists();
        assert_eq!(advise(block.as_ptr().cast_mut(), block.len()), thp, "THP in this kernel: {thp}");
        assert!(!advise(block.as_ptr().cast_mut(), HUGE_PAGE - 1), "a block below a huge page");
        assert!(!advise(std::ptr::null_mut(), 9 << 20), "no block");
    }

    #[test]
    fn the_interior_is_the_whole_huge_pages_inside_the_block() {
        let h = HUGE_PAGE;
        assert_eq!(aligned_interior(0, 0), (0, 0));
        assert_eq!(aligned_interior(0, h), (0, h));
        assert_eq!(aligned_interior(0, h - 1), (0, 0));
        assert_eq!(aligned_interior(16, h), (h, 0));
        assert_eq!(aligned_interior(16, 2 * h - 32), (h, 0));
        assert_eq!(aligned_interior(16, 2 * h), (h, h));
        // [16, 3h − 1) ends just short of the second page's end; [16, 3h) holds it.
        assert_eq!(aligned_interior(16, 3 * h - 17), (h, h));
        assert_eq!(aligned_interior(16, 3 * h - 16), (h, 2 * h));
        assert_eq!(aligned_interior(h + 1, 5 * h), (2 * h, 4 * h));
        // No overflow at the top of the address space.
        assert_eq!(aligned_interior(usize::MAX - 10, 100).1, 0);
    }
}
