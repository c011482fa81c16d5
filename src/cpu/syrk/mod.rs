//! The lower triangle of A·diag(w)·Aᵀ (a weighted symmetric rank-n update, BLAS `dsyrk` with a
//! diagonal in the middle): the normal-equations matrix of the interior-point method.
//!
//! faer has no symmetric rank-k update of its own: its triangular product computes the lower
//! triangle in about the time of the full general product, so half the multiply-adds bought no
//! time. This module does the half that is needed at the machine's multiply-add rate, the way
//! BLIS-style GEMMs do (Goto & van de Geijn): k is cut into blocks of [`KC`]; per block, the
//! weighted rows w∘A[j, ·] of a tile of [`NR`] columns of C are packed contiguously (they stay
//! in L1), the rows of A in blocks of [`MC`] are packed into panels of [`MR`] rows (they stay in
//! L2), and a register-blocked micro-kernel accumulates each MR×NR tile of C that touches the
//! lower triangle (AVX-512 or AVX2 with FMA, chosen at run time; elsewhere faer's triangular
//! product). Threads take contiguous ranges of columns of C of equal triangular work; every
//! entry of C is written by one thread in a fixed order, so the result does not depend on the
//! thread count.
//!
//! `unsafe` is confined to this file: the micro-kernels are `#[target_feature]` functions on
//! raw pointers into the packed buffers and into C, called only after the features were
//! detected, with every offset bounded by the checks in [`weighted_gram_lower`].
#![allow(unsafe_code)]

use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, MatMut, MatRef, Par};

/// Depth of a k block (the packed column tile, KC·NR values, stays in L1).
pub const KC: usize = 256;
/// Rows of A per packed row block (MC·KC values stay in L2); a multiple of every MR.
pub const MC: usize = 192;

/// The instruction set the micro-kernel uses on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// 24×8 tiles of 512-bit registers.
    Avx512,
    /// 12×4 tiles of 256-bit registers with FMA.
    Avx2,
    /// No SIMD kernel: faer's triangular product.
    Portable,
}

impl Isa {
    /// The best kernel this CPU runs.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Isa::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
                return Isa::Avx2;
            }
        }
        Isa::Portable
    }

    /// Whether this CPU runs the kernel.
    pub fn runs_here(self) -> bool {
        match (self, Isa::detect()) {
            (Isa::Portable, _) | (Isa::Avx2, Isa::Avx512) => true,
            (isa, best) => isa == best,
        }
    }

    /// (MR, NR): the micro-kernel's tile of C.
    pub fn tile(self) -> (usize, usize) {
        match self {
            Isa::Avx512 => (24, 8),
            Isa::Avx2 => (12, 4),
            Isa::Portable => (1, 1),
        }
    }
}

/// MR of the widest kernel (packed panels are sized for it).
pub const MR: usize = 24;
/// NR of the widest kernel.
pub const NR: usize = 8;

/// Writes the lower triangle of A·diag(w)·Aᵀ into `c` (m×m; the strict upper triangle is not
/// written), on up to `threads` threads of rayon's pool, using the best kernel of this CPU.
///
/// # Panics
/// If `w.len() != a.ncols()` or `c` is not `a.nrows()` square: callers own both shapes.
pub fn weighted_gram_lower(a: MatRef<'_, f64>, w: &[f64], c: MatMut<'_, f64>, threads: usize) {
    weighted_gram_lower_with(Isa::detect(), a, w, c, Accum::Replace, threads)
}

/// Adds the lower triangle of A·diag(w)·Aᵀ to `c` (the trailing update of a blocked Cholesky
/// is this with w = −1).
pub fn weighted_gram_lower_add(a: MatRef<'_, f64>, w: &[f64], c: MatMut<'_, f64>, threads: usize) {
    weighted_gram_lower_with(Isa::detect(), a, w, c, Accum::Add, threads)
}

/// [`weighted_gram_lower`] with a chosen kernel (an [`Isa`] this CPU does not run falls back to
/// [`Isa::Portable`]); the tests compare the kernels with each other and with f64 sums.
pub fn weighted_gram_lower_with(
    isa: Isa,
    a: MatRef<'_, f64>,
    w: &[f64],
    mut c: MatMut<'_, f64>,
    accum: Accum,
    threads: usize,
) {
    let (m, n) = (a.nrows(), a.ncols());
    assert_eq!(w.len(), n, "weighted_gram_lower: one weight per column of A");
    assert_eq!((c.nrows(), c.ncols()), (m, m), "weighted_gram_lower: C is m×m");
    if m == 0 {
        return;
    }
    let isa = if isa.runs_here() { isa } else { Isa::Portable };
    // Columns of weight 0 contribute nothing: they are skipped (exactly).
    let cols: Vec<usize> = (0..n).filter(|&j| w[j] != 0.0).collect();
    if cols.is_empty() && accum == Accum::Add {
        return;
    }
    if isa == Isa::Portable || c.row_stride() != 1 || cols.is_empty() {
        portable(a, w, c.as_mut(), accum, threads);
        return;
    }
    let n = cols.len();
    let ldc = c.col_stride() as usize;
    // Below this much work a second thread costs more than it saves.
    let threads = if (m * m * n) as f64 / 2.0 < PARALLEL_WORK { 1 } else { threads.max(1) };
    let ranges = column_ranges(m, threads, isa.tile().1);
    let out = SendPtr(c.as_ptr_mut());
    let out = &out;
    let work = |(j0, j1): (usize, usize)| {
        // SAFETY: each range writes only columns j0..j1 of C (rows ≥ j), disjoint between
        // threads; `c` is m×m with unit row stride and column stride `ldc`.
        unsafe { gram_columns(isa, a, w, &cols, out.0, ldc, (j0, j1), accum == Accum::Add) }
    };
    if ranges.len() == 1 {
        work(ranges[0]);
        return;
    }
    rayon::scope(|s| {
        for &r in &ranges[1..] {
            s.spawn(move |_| work(r));
        }
        work(ranges[0]);
    });
}

/// Multiply-adds below which one thread does the whole product (≈ 50 µs of work: more than
/// waking a pool thread costs).
pub const PARALLEL_WORK: f64 = 2e6;

/// faer's triangular product A·(A·diag(w))ᵀ: the path for CPUs without a kernel here.
fn portable(a: MatRef<'_, f64>, w: &[f64], c: MatMut<'_, f64>, accum: Accum, threads: usize) {
    let aw = Mat::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)] * w[j]);
    let par = if threads > 1 { Par::rayon(threads) } else { Par::Seq };
    triangular::matmul(
        c,
        BlockStructure::TriangularLower,
        accum,
        a,
        BlockStructure::Rectangular,
        aw.transpose(),
        BlockStructure::Rectangular,
        1.0,
        par,
    );
}

/// Column ranges of C, one per thread, of equal triangular work Σ_{j in range} (m − j), each
/// starting on a multiple of `nr` (empty ranges dropped).
pub fn column_ranges(m: usize, threads: usize, nr: usize) -> Vec<(usize, usize)> {
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

struct SendPtr(*mut f64);
// SAFETY: the pointer is only dereferenced by `gram_columns` on disjoint column ranges.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

/// Columns j0..j1 of the lower triangle of A·diag(w)·Aᵀ into C (unit row stride, column stride
/// `ldc`), summing over the columns `cols` of A; added to C's entries with `add`.
///
/// # Safety
/// `c` must point to an m×m matrix with unit row stride and column stride `ldc` ≥ m, not
/// accessed by anyone else in columns j0..j1; `isa` must run on this CPU.
#[allow(clippy::too_many_arguments)]
unsafe fn gram_columns(
    isa: Isa,
    a: MatRef<'_, f64>,
    w: &[f64],
    cols: &[usize],
    c: *mut f64,
    ldc: usize,
    (j0, j1): (usize, usize),
    add: bool,
) {
    let nr = isa.tile().1;
    let tiles = (j1 - j0).div_ceil(nr);
    // Packed column tiles (KC×NR each, weighted) and the packed row block (MC/MR panels of KC×MR),
    // in this thread's scratch (every entry is written by the packing before it is read).
    SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        let (q_len, p_len) = (tiles * KC * nr, MC * KC);
        if scratch.len() < q_len + p_len {
            scratch.resize(q_len + p_len, 0.0);
        }
        let (q, p) = scratch.split_at_mut(q_len);
        gram_blocks(isa, a, w, cols, c, ldc, (j0, j1), add, q, &mut p[..p_len]);
    });
}

thread_local! {
    /// Packing buffers, kept per thread across calls (a fresh zeroed allocation per call cost
    /// more than the product at the sizes of a Cholesky's inner blocks).
    static SCRATCH: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`gram_columns`] with its packing buffers.
///
/// # Safety
/// As for [`gram_columns`].
#[allow(clippy::too_many_arguments)]
unsafe fn gram_blocks(
    isa: Isa,
    a: MatRef<'_, f64>,
    w: &[f64],
    cols: &[usize],
    c: *mut f64,
    ldc: usize,
    (j0, j1): (usize, usize),
    add: bool,
    q: &mut [f64],
    p: &mut [f64],
) {
    let (m, n) = (a.nrows(), cols.len());
    let (mr, nr) = isa.tile();
    let tiles = (j1 - j0).div_ceil(nr);
    let mut k0 = 0;
    while k0 < n {
        let kc = KC.min(n - k0);
        for t in 0..tiles {
            let c0 = j0 + t * nr;
            pack_weighted(
                a,
                w,
                &cols[k0..k0 + kc],
                &mut q[t * KC * nr..t * KC * nr + kc * nr],
                c0,
                (j1 - c0).min(nr),
                nr,
            );
        }
        // Row blocks from the first row the range needs, on the grid of MC (a multiple of mr).
        let mut i_blk = j0 / mr * mr;
        while i_blk < m {
            let i_end = (i_blk + MC).min(m);
            let panels = (i_end - i_blk).div_ceil(mr);
            for r in 0..panels {
                let r0 = i_blk + r * mr;
                pack_rows(a, &cols[k0..k0 + kc], &mut p[r * KC * mr..r * KC * mr + kc * mr], r0, (m - r0).min(mr), mr);
            }
            for t in 0..tiles {
                let c0 = j0 + t * nr;
                if c0 >= i_end {
                    break;
                }
                let cols = (j1 - c0).min(nr);
                // The first panel holding a row ≥ c0.
                let first = if c0 > i_blk { (c0 - i_blk) / mr } else { 0 };
                for r in first..panels {
                    let r0 = i_blk + r * mr;
                    let tile = Tile {
                        rows: (m - r0).min(mr),
                        cols,
                        // Local row of the diagonal: entry (ii, jj) is kept when r0 + ii ≥ c0 + jj.
                        offset: c0 as isize - r0 as isize,
                        accumulate: add || k0 > 0,
                    };
                    let pa = p.as_ptr().add(r * KC * mr);
                    let pq = q.as_ptr().add(t * KC * nr);
                    micro_kernel(isa, pa, pq, kc, c.add(r0 + c0 * ldc), ldc, tile);
                }
            }
            i_blk = i_end;
        }
        k0 += kc;
    }
}

/// One tile through the kernel of `isa` (the portable path never gets here).
///
/// # Safety
/// As for the kernels in `x86`.
#[inline(always)]
unsafe fn micro_kernel(isa: Isa, p: *const f64, q: *const f64, kc: usize, c: *mut f64, ldc: usize, t: Tile) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::kernel_24x8(p, q, kc, c, ldc, t),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::kernel_12x4(p, q, kc, c, ldc, t),
        _ => {}
    }
}

/// Which part of an MR×NR tile of C to write, and how.
#[derive(Clone, Copy)]
struct Tile {
    /// Valid rows (the last panel may be short).
    pub(crate) rows: usize,
    /// Valid columns (the last tile may be narrow).
    pub(crate) cols: usize,
    /// Column index minus row index of the tile's first entry: entry (ii, jj) is in the lower
    /// triangle when ii ≥ jj + offset.
    pub(crate) offset: isize,
    /// Add to C (later k blocks) or overwrite it (the first).
    pub(crate) accumulate: bool,
}

/// Column k of A as a slice when it is contiguous.
fn col_slice<'a>(a: MatRef<'a, f64>, k: usize) -> Option<&'a [f64]> {
    a.col(k).try_as_col_major().map(|c| c.as_slice())
}

/// Packs w[j]·A[c0 + jj, j] for the columns j of `ks` into `q[k·nr + jj]` (zeros beyond
/// `cols`).
fn pack_weighted(a: MatRef<'_, f64>, w: &[f64], ks: &[usize], q: &mut [f64], c0: usize, cols: usize, nr: usize) {
    for (&j, dst) in ks.iter().zip(q.chunks_exact_mut(nr)) {
        let wk = w[j];
        match col_slice(a, j) {
            Some(src) => {
                for (d, &v) in dst.iter_mut().zip(&src[c0..c0 + cols]) {
                    *d = v * wk;
                }
            }
            None => {
                let col = a.col(j);
                for (jj, d) in dst.iter_mut().take(cols).enumerate() {
                    *d = col[c0 + jj] * wk;
                }
            }
        }
        dst[cols..].fill(0.0);
    }
}

/// Packs A[r0 + ii, j] for the columns j of `ks` into `p[k·mr + ii]` (zeros beyond `rows`).
fn pack_rows(a: MatRef<'_, f64>, ks: &[usize], p: &mut [f64], r0: usize, rows: usize, mr: usize) {
    for (&j, dst) in ks.iter().zip(p.chunks_exact_mut(mr)) {
        match col_slice(a, j) {
            Some(src) => dst[..rows].copy_from_slice(&src[r0..r0 + rows]),
            None => {
                let col = a.col(j);
                for (ii, d) in dst.iter_mut().take(rows).enumerate() {
                    *d = col[r0 + ii];
                }
            }
        }
        dst[rows..].fill(0.0);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86;
