//! The hand-written reduced-precision A·diag(w)·Aᵀ of [`super::gram`] on x86-64: the lower
//! triangle at the machine's multiply-add rate, the way BLIS-style GEMMs do (Goto & van de Geijn).
//!
//! faer has no symmetric rank-k update of its own: its triangular product computes the lower
//! triangle in about the time of the full general product, and its f32 product per k block
//! (the portable path) also pays for the conversions around it. Here S = A·diag(√|w|) (positive
//! and negative weights in two sweeps, C ± S·Sᵀ) is cut into k blocks of [`KC`](super::precision::KC); per block, the
//! rows of S in blocks of [`MC`](super::precision::MC) are packed as f32 into panels of MR rows (they stay in L2), and
//! a register-blocked micro-kernel (AVX-512, or AVX2 with FMA) multiplies and adds in f32 each
//! MR×NR tile of C that touches the lower triangle, adding the tile to C in f64. The tile's
//! other operand, rows c0..c0 + NR of S, is read out of a panel already packed, so S is packed
//! once. Threads take contiguous ranges of columns of C of equal triangular work on rayon's
//! pool; every entry of C is written by one thread in a fixed order, so the result does not
//! depend on the thread count. In [`Precision::Bf16Pair`](super::precision::Precision::Bf16Pair) (where [`amx_available`]) the products
//! run on AMX tiles: see `amx/`, whose tile instructions are inline assembly. (The f64 products
//! are faer's: their kernels here did not win by the margin `glsolve bench cpu` asks.)
//!
//! `unsafe` is confined to this module: the micro-kernels are `#[target_feature]` functions on
//! raw pointers into the packed buffers and into C, and the AMX blocks `asm!` on the same,
//! called only after the features were detected, with every offset bounded by the shapes
//! [`gram_lower`] checks and, for AMX, by the buffers `amx::gram` sizes.
#![allow(unsafe_code)]

mod amx;
mod blocks;
mod x86;

pub use blocks::Kernel;
use blocks::{gram_columns, Source, Tile};

use super::join;
use super::paths::Isa;
use faer::{Accum, MatMut, MatRef};

/// Whether this process may use AMX-BF16 tiles (the CPU has them and the operating system lends
/// their state; asked once per process).
pub fn amx_available() -> bool {
    amx::available()
}

/// (MR, NR): the f32 micro-kernel's tile of C for `isa` (the AMX kernel's blocks are 32×32).
pub fn tile(isa: Isa) -> (usize, usize) {
    match isa {
        Isa::Avx512 => (48, 8),
        Isa::Avx2 => (24, 4),
        Isa::Portable => (1, 1),
    }
}

/// The lower triangle of A·diag(w)·Aᵀ into `c` (`accum`: written or added) in reduced precision
/// with the kernels of `isa` on up to `threads` threads: f32 products and sums within k blocks
/// of [`KC`](super::precision::KC), or (`bf16` where [`amx_available`]) bf16 pairs on AMX tiles. Returns false, and
/// writes nothing, where these kernels cannot run it: an `isa` this CPU does not run, or a C
/// whose rows are not contiguous or whose columns do not follow each other at a positive stride
/// of at least m (the caller then takes the portable path).
///
/// # Panics
/// If `w.len() != a.ncols()` or `c` is not `a.nrows()` square ([`super::gram::gram_lower`]
/// checks both).
pub fn gram_lower(
    isa: Isa,
    bf16: bool,
    a: MatRef<'_, f64>,
    w: &[f64],
    mut c: MatMut<'_, f64>,
    accum: Accum,
    threads: usize,
) -> bool {
    let (m, n) = (a.nrows(), a.ncols());
    assert_eq!(w.len(), n, "weighted Gram product: one weight per column of A");
    assert_eq!((c.nrows(), c.ncols()), (m, m), "weighted Gram product: C is m×m");
    // The kernels address C as c + i + j·ldc: only a positive column stride of at least m
    // keeps every column apart (a reversed view has a negative one).
    let ldc = usize::try_from(c.col_stride()).ok().filter(|&ldc| ldc >= m || m == 1);
    let (Some(ldc), true, true) = (ldc, c.row_stride() == 1 || m <= 1, isa != Isa::Portable && isa.runs_here()) else {
        return false;
    };
    if m == 0 {
        return true;
    }
    // Columns of weight 0 contribute nothing: they are skipped (exactly). The others are
    // summed as ±S·Sᵀ with S = A·diag(√|w|), positive and negative weights apart (a NaN weight
    // goes with the positive ones and reaches C).
    let positive: Vec<usize> = (0..n).filter(|&j| w[j] > 0.0 || w[j].is_nan()).collect();
    let negative: Vec<usize> = (0..n).filter(|&j| w[j] < 0.0).collect();
    if positive.is_empty() && negative.is_empty() {
        if accum == Accum::Replace {
            for j in 0..m {
                c.as_mut().col_mut(j).subrows_mut(j, m - j).fill(0.0);
            }
        }
        return true;
    }
    let scale: Vec<f64> = w.iter().map(|v| v.abs().sqrt()).collect();
    let mut accum = accum;
    for (cols, negate) in [(&positive, false), (&negative, true)] {
        if cols.is_empty() {
            continue;
        }
        let src = Source { a, cols, scale: &scale };
        let out = Out { c: c.as_mut(), ldc, add: accum == Accum::Add, negate };
        if bf16 && amx::available() {
            run_amx(src, out, threads);
        } else {
            run(kernel(isa), tile(isa), src, out, threads);
        }
        accum = Accum::Add;
    }
    true
}

/// Where a product goes: C (unit row stride, column stride `ldc` ≥ m), added to or written,
/// negated or not.
struct Out<'a> {
    c: MatMut<'a, f64>,
    ldc: usize,
    add: bool,
    negate: bool,
}

/// The threads' column ranges through `gram_columns`.
fn run(kernel: Kernel, (mr, nr): (usize, usize), src: Source<'_>, out: Out<'_>, threads: usize) {
    let Out { c, ldc, add, negate } = out;
    let m = c.nrows();
    let ranges = column_ranges(m, threads, nr);
    let ptr = SendPtr(c.as_ptr_mut());
    let ptr = &ptr;
    let work = |(j0, j1): (usize, usize)| {
        // SAFETY: each range writes only columns j0..j1 of C (rows ≥ j), disjoint between
        // threads; `c` is m×m with unit row stride and column stride `ldc` ≥ m (checked by
        // `gram_lower`) and stays borrowed mutably until every range is done; the kernel runs
        // on this CPU (`gram_lower` checked `runs_here`) and matches the panels; the ranges
        // start on multiples of nr, and `mr` is a multiple of nr dividing MC.
        unsafe { gram_columns(kernel, (mr, nr), src, ptr.0, ldc, (j0, j1), add, negate) }
    };
    join::each(ranges, work);
}

/// The threads' column ranges through the AMX kernel.
fn run_amx(src: Source<'_>, out: Out<'_>, threads: usize) {
    let Out { c, ldc, add, negate } = out;
    let ranges = column_ranges(c.nrows(), threads, amx::NB);
    // SAFETY: AMX is available (checked by the caller); `c` is m×m with unit row stride and
    // column stride `ldc` ≥ m, borrowed mutably here; the ranges from `column_ranges` are
    // disjoint, ascending, cover 0..m and start on multiples of NB.
    unsafe { amx::gram(src, c.as_ptr_mut(), ldc, &ranges, add, negate) }
}

/// Column ranges of C, one per thread, of equal triangular work Σ_{j in range} (m − j), each
/// starting on a multiple of `nr` (empty ranges dropped).
fn column_ranges(m: usize, threads: usize, nr: usize) -> Vec<(usize, usize)> {
    let total = (m * (m + 1) / 2) as f64;
    let mut cuts = vec![0usize];
    let mut acc = 0.0;
    for j in 0..m {
        acc += (m - j) as f64;
        if cuts.len() < threads && acc >= total * cuts.len() as f64 / threads as f64 {
            let cut = (j + 1).div_ceil(nr) * nr;
            if cut < m && cut > *cuts.last().unwrap_or(&0) {
                cuts.push(cut);
            }
        }
    }
    cuts.push(m);
    cuts.windows(2).filter(|w| w[1] > w[0]).map(|w| (w[0], w[1])).collect()
}

/// C's first entry, shared by the threads of one product.
struct SendPtr(*mut f64);
// SAFETY: the pointer is only dereferenced by `gram_columns` and `amx::gram` on disjoint
// column ranges of a C borrowed mutably for the whole product.
unsafe impl Send for SendPtr {}
// SAFETY: as for Send: no two threads touch the same entry.
unsafe impl Sync for SendPtr {}

/// The f32 kernel of `isa` (not called for [`Isa::Portable`]).
fn kernel(isa: Isa) -> Kernel {
    match isa {
        Isa::Avx512 => x86::kernel_48x8_single,
        Isa::Avx2 => x86::kernel_24x4_single,
        Isa::Portable => no_kernel,
    }
}

/// Stands for the kernels where none exists: `gram_lower` returns before any is called.
unsafe fn no_kernel(_: *const f32, _: *const f32, _: usize, _: *mut f64, _: usize, _: Tile) {}

#[cfg(test)]
mod tests {
    use super::column_ranges;

    #[test]
    fn column_ranges_split_the_triangle_evenly_on_tile_boundaries() {
        for (m, threads, nr) in [(1, 2, 8), (9, 2, 8), (1000, 2, 8), (1001, 3, 4), (64, 8, 8)] {
            let r = column_ranges(m, threads, nr);
            assert_eq!(r.first().map(|r| r.0), Some(0));
            assert_eq!(r.last().map(|r| r.1), Some(m));
            assert!(r.len() <= threads);
            for w in r.windows(2) {
                assert_eq!(w[0].1, w[1].0);
                assert_eq!(w[1].0 % nr, 0, "{m} {threads} {nr}: cut {} off the tile grid", w[1].0);
            }
            if m >= 1000 {
                let work = |(a, b): (usize, usize)| (a..b).map(|j| (m - j) as f64).sum::<f64>();
                let total = (m * (m + 1) / 2) as f64;
                for &x in &r {
                    let share = work(x) / total;
                    assert!((share - 1.0 / threads as f64).abs() < 0.02, "{m} {threads}: share {share}");
                }
            }
        }
    }
}
