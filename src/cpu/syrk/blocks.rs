//! The block loops of [`super`]: packing A into f32 panels and walking the tiles of C that touch
//! the lower triangle.

use crate::cpu::precision::{KC, MC};
use faer::MatRef;

/// A micro-kernel: C tile (+)= Σ_k P[k, 0..MR] ⊗ Q[k, 0..NR] over packed f32 panels, the tile
/// added to C in f64.
pub type Kernel = unsafe fn(*const f32, *const f32, usize, *mut f64, usize, Tile);

thread_local! {
    /// Packing buffer, kept per thread across calls (a fresh zeroed allocation per call cost
    /// more than the product at the sizes of a Cholesky's inner blocks).
    static SCRATCH: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Alignment of the packed panels in bytes: one cache line, so that no 64-byte load of a panel
/// row straddles two lines.
const ALIGN: usize = 64;
/// Extra elements held so that an aligned start exists (16 covers 64 bytes of f32).
const ALIGN_SLACK: usize = 16;

/// `len` elements of `s` (grown as needed) starting at an [`ALIGN`]ed address; at the start of
/// `s` where the platform cannot say (`align_offset` may decline), which costs speed, never
/// correctness.
fn aligned<T: Copy + Default>(s: &mut Vec<T>, len: usize) -> &mut [T] {
    if s.len() < len + ALIGN_SLACK {
        s.resize(len + ALIGN_SLACK, T::default());
    }
    let skip = match s.as_ptr().align_offset(ALIGN) {
        k if k <= ALIGN_SLACK => k,
        _ => 0,
    };
    &mut s[skip..skip + len]
}

/// Runs `f` on this thread's packing scratch of at least `len` elements.
fn with_scratch<R>(len: usize, f: impl FnOnce(&mut [f32]) -> R) -> R {
    SCRATCH.with(|cell| f(aligned(&mut cell.borrow_mut(), len)))
}

/// Which part of an MR×NR tile of C to write, and how.
#[derive(Clone, Copy)]
pub struct Tile {
    /// Valid rows (the last panel may be short).
    pub rows: usize,
    /// Valid columns (the last tile may be narrow).
    pub cols: usize,
    /// Column index minus row index of the tile's first entry: entry (ii, jj) is in the lower
    /// triangle when ii ≥ jj + offset.
    pub offset: isize,
    /// Add to C (later k blocks) or overwrite it (the first).
    pub accumulate: bool,
    /// Distance between consecutive k of the NR values of Q (Q is read out of a row panel).
    pub q_stride: usize,
    /// Subtract the product instead (the weights were negative).
    pub negate: bool,
}

/// The columns of A summed over (zero-weight columns left out), each scaled by `scale[j]`
/// (√|wⱼ|); A's rows are packed per k block.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub a: MatRef<'a, f64>,
    pub cols: &'a [usize],
    pub scale: &'a [f64],
}

/// Columns j0..j1 of the lower triangle of ±S·Sᵀ into C (unit row stride, column stride `ldc`),
/// S the columns of `src` scaled by `src.scale`, with `kernel` on (mr, nr) tiles; added to C's
/// entries with `add`, subtracted with `negate`.
///
/// Per k block the rows of S from the range's first tile down are packed into panels of mr
/// rows, one row block of [`MC`] at a time just before it is used (it stays in L2). A tile of
/// C in columns c0..c0 + nr needs rows c0..c0 + nr of S as its Q operand: those lie in one
/// panel already packed (c0 is below the current block's end), so the kernel reads Q out of it
/// with stride mr. S is packed once per thread and k block; a separate packing of Q cost a third
/// of the product at m = 512.
///
/// # Safety
/// `c` must point to an m×m matrix with unit row stride and column stride `ldc` ≥ m, not
/// accessed by anyone else in columns j0..j1; `kernel` must run on this CPU and take (mr, nr)
/// tiles; `mr` must divide [`MC`]; `nr` must divide `mr` and `j0`.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gram_columns(
    kernel: Kernel,
    (mr, nr): (usize, usize),
    src: Source<'_>,
    c: *mut f64,
    ldc: usize,
    (j0, j1): (usize, usize),
    add: bool,
    negate: bool,
) {
    // SAFETY: the caller's contract (# Safety): C is m×m at column stride ldc ≥ m and ours in
    // columns j0..j1; the scratch holds every panel from row p_lo down (p_len values); the kernel
    // runs here and reads kc steps of an mr-row panel and of nr values at stride mr inside one,
    // and writes only the tile's rows < m and columns < j1 of C.
    unsafe {
        let Source { a, cols: ks, scale } = src;
        let (m, n) = (a.nrows(), ks.len());
        let tiles = (j1 - j0).div_ceil(nr);
        // The first packed row: the panel holding row j0.
        let p_lo = j0 / mr * mr;
        let p_len = (m - p_lo).div_ceil(mr) * mr * KC;
        with_scratch(p_len, |p| {
            let mut k0 = 0;
            while k0 < n {
                let kc = KC.min(n - k0);
                let mut i_blk = p_lo;
                while i_blk < m {
                    let i_end = (i_blk + MC).min(m);
                    let panels = (i_end - i_blk).div_ceil(mr);
                    let base = (i_blk - p_lo) / mr * KC * mr;
                    pack(a, scale, &ks[k0..k0 + kc], &mut p[base..], (i_blk, i_end), mr);
                    for t in 0..tiles {
                        let c0 = j0 + t * nr;
                        if c0 >= i_end {
                            break;
                        }
                        let cols = (j1 - c0).min(nr);
                        // Q: rows c0..c0 + nr of S, inside the panel that holds row c0.
                        let qr = c0 - p_lo;
                        let pq = p.as_ptr().add(qr / mr * KC * mr + qr % mr);
                        // The first panel holding a row ≥ c0.
                        let first = if c0 > i_blk { (c0 - i_blk) / mr } else { 0 };
                        for r in first..panels {
                            let r0 = i_blk + r * mr;
                            let tile = Tile {
                                rows: (m - r0).min(mr),
                                cols,
                                // Entry (ii, jj) is kept when r0 + ii ≥ c0 + jj.
                                offset: c0 as isize - r0 as isize,
                                accumulate: add || k0 > 0,
                                q_stride: mr,
                                negate,
                            };
                            let pa = p.as_ptr().add(base + r * KC * mr);
                            kernel(pa, pq, kc, c.add(r0 + c0 * ldc), ldc, tile);
                        }
                    }
                    i_blk = i_end;
                }
                k0 += kc;
            }
        });
    }
}

/// Column k of A as a slice when it is contiguous.
fn col_slice<'a>(a: MatRef<'a, f64>, k: usize) -> Option<&'a [f64]> {
    a.col(k).try_as_col_major().map(|c| c.as_slice())
}

/// How many columns ahead [`pack`] asks for the rows it will read.
const PACK_AHEAD: usize = 2;

/// Asks for the cache lines of `v`. A column's rows lo..hi lie in a page of their own (a column
/// of A is m values apart from the next), where the hardware prefetcher starts cold at every
/// column: packing spent most of its time waiting on those misses; asking two columns ahead
/// overlaps part of the wait with the packing in between.
#[inline(always)]
fn prefetch(v: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in v.chunks(8) {
            // SAFETY: a prefetch is a hint; it never faults and reads nothing architecturally.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}

/// Packs rows lo..hi of the columns j of `ks` (k-th of them), times scale[j] and rounded to f32,
/// in groups of `width` rows: group g (rows lo + g·width..) at g·KC·width + k·width, zeros past
/// `hi`.
/// Column by column, so that A is read in contiguous runs (group by group, every read of a
/// column was a cache miss of its own).
fn pack(a: MatRef<'_, f64>, scale: &[f64], ks: &[usize], dst: &mut [f32], (lo, hi): (usize, usize), width: usize) {
    let groups = (hi - lo).div_ceil(width);
    for (k, &j) in ks.iter().enumerate() {
        let wk = scale[j];
        let src = col_slice(a, j);
        if let Some(&ahead) = ks.get(k + PACK_AHEAD) {
            if let Some(next) = col_slice(a, ahead) {
                prefetch(&next[lo..hi]);
            }
        }
        for g in 0..groups {
            let r0 = lo + g * width;
            let rows = (hi - r0).min(width);
            let out = &mut dst[g * KC * width + k * width..g * KC * width + (k + 1) * width];
            match src {
                Some(src) => {
                    for (d, &v) in out.iter_mut().zip(&src[r0..r0 + rows]) {
                        *d = (v * wk) as f32;
                    }
                }
                None => {
                    let col = a.col(j);
                    for (ii, d) in out.iter_mut().take(rows).enumerate() {
                        *d = (col[r0 + ii] * wk) as f32;
                    }
                }
            }
            out[rows..].fill(0.0);
        }
    }
}
