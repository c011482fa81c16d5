//! The lower triangle of A·diag(w)·Aᵀ (a weighted symmetric rank-n update, BLAS `dsyrk` with a
//! diagonal in the middle): the normal-equations matrix of the interior-point method.
//!
//! faer has no symmetric rank-k update of its own: its triangular product computes the lower
//! triangle in about the time of the full general product, so half the multiply-adds bought no
//! time. This module does the half that is needed at the machine's multiply-add rate, the way
//! BLIS-style GEMMs do (Goto & van de Geijn), on S = A·diag(√|w|) (positive and negative weights
//! in two sweeps, C ± S·Sᵀ): k is cut into blocks of [`KC`]; per block, the rows of S in blocks
//! of [`MC`] are packed into panels of MR rows (they stay in L2), and a register-blocked
//! micro-kernel accumulates each MR×NR tile of C that touches the lower triangle (AVX-512 or
//! AVX2 with FMA, chosen at run time; elsewhere faer's triangular product). The tile's other
//! operand, rows c0..c0 + NR of S, is read out of a panel already packed, so S is packed once
//! (against a weighted copy of the column tiles beside the panels: m = 512, n = 4m, f64 on two
//! threads 4.4 against 5.1 ms, median of 40).
//! Threads take contiguous ranges of columns of C of equal triangular work (two ranges: this
//! thread and [`super::spin_join`]'s worker; more: rayon's pool); every entry of C is written
//! by one thread in a fixed order, so the result does not depend on the thread count.
//!
//! In [`Precision::Single`] the panels are packed as f32 and the micro-kernel multiplies and adds
//! in f32 (twice the lanes per instruction, half the bytes per panel) within a k block, adding
//! each block's tile to C in f64: the normal matrix of the mixed-precision iterations of the
//! cpu backend, whose factor only preconditions conjugate gradients on the exact operator.
//!
//! In [`Precision::Bf16Pair`] (where [`amx_available`]) the products run on AMX tiles: see
//! `amx/`, whose tile instructions are inline assembly.
//!
//! `unsafe` is confined to this module: the micro-kernels are `#[target_feature]` functions on
//! raw pointers into the packed buffers and into C, and the AMX blocks `asm!` on the same,
//! called only after the features were detected, with every offset bounded by the checks in
//! [`weighted_gram_lower_with`] and, for AMX, by the buffers `amx::gram` sizes.
#![allow(unsafe_code)]

#[cfg(target_arch = "x86_64")]
mod amx;
mod blocks;
#[cfg(target_arch = "x86_64")]
mod x86;

use blocks::{gram_columns, Elem, Source, Tile};
pub use blocks::{Kernel, KC, MC};

use super::spin_join;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, MatMut, MatRef, Par};

/// The instruction set the micro-kernel uses on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// 512-bit registers: tiles of 24×8 (f64) or 48×8 (f32).
    Avx512,
    /// 256-bit registers with FMA: tiles of 12×4 (f64) or 24×4 (f32).
    Avx2,
    /// No SIMD kernel: faer's triangular product (in f64 whatever the precision asked).
    Portable,
}

/// The arithmetic of the products inside a k block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// f64 throughout.
    Double,
    /// f32 panels and products within a k block of [`KC`], f64 sums across blocks and in C.
    Single,
    /// Entries split into two bfloat16 values (16 significant bits), three bf16 products on AMX
    /// tiles with f32 sums within a k chunk of [`AMX_KC`], f64 across chunks and in C (see
    /// [`amx_available`]); [`Precision::Single`] where this process cannot use AMX.
    Bf16Pair,
}

impl Precision {
    /// The cheapest reduced precision this process runs: [`Precision::Bf16Pair`] with AMX,
    /// [`Precision::Single`] without.
    pub fn reduced() -> Self {
        if amx_available() {
            Precision::Bf16Pair
        } else {
            Precision::Single
        }
    }
}

/// Whether this process may use AMX-BF16 tiles (the CPU has them and the operating system lends
/// their state; asked once per process).
pub fn amx_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return amx::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Values of k summed in f32 by [`Precision::Bf16Pair`] before they are added in f64.
#[cfg(target_arch = "x86_64")]
pub const AMX_KC: usize = amx::KA;
/// Values of k summed in f32 by [`Precision::Bf16Pair`] before they are added in f64.
#[cfg(not(target_arch = "x86_64"))]
pub const AMX_KC: usize = 512;

impl Isa {
    /// The best kernel this CPU runs.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            // Every AVX-512 CPU has FMA, but a virtual machine may hide either bit.
            if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("fma") {
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

    /// (MR, NR): the micro-kernel's tile of C in `precision` ([`Precision::Bf16Pair`]: that of
    /// its fallback, [`Precision::Single`]; the AMX kernel's blocks are 32×32).
    pub fn tile(self, precision: Precision) -> (usize, usize) {
        match (self, precision) {
            (Isa::Avx512, Precision::Double) => (24, 8),
            (Isa::Avx512, Precision::Single | Precision::Bf16Pair) => (48, 8),
            (Isa::Avx2, Precision::Double) => (12, 4),
            (Isa::Avx2, Precision::Single | Precision::Bf16Pair) => (24, 4),
            (Isa::Portable, _) => (1, 1),
        }
    }
}

/// Writes the lower triangle of A·diag(w)·Aᵀ into `c` (m×m; the strict upper triangle is not
/// written), on up to `threads` threads (two: this one and [`crate::cpu::spin_join`]'s worker;
/// more: rayon's pool), using the best kernel of this CPU.
///
/// # Panics
/// If `w.len() != a.ncols()` or `c` is not `a.nrows()` square: callers own both shapes.
pub fn weighted_gram_lower(a: MatRef<'_, f64>, w: &[f64], c: MatMut<'_, f64>, threads: usize) {
    weighted_gram_lower_with(Isa::detect(), Precision::Double, a, w, c, Accum::Replace, threads)
}

/// [`weighted_gram_lower`] with f32 products inside each k block ([`Precision::Single`]):
/// about twice as fast, with entrywise errors of order KC·2⁻²⁴ relative to Σⱼ|aᵢⱼ·wⱼ·aₖⱼ|.
pub fn weighted_gram_lower_single(a: MatRef<'_, f64>, w: &[f64], c: MatMut<'_, f64>, threads: usize) {
    weighted_gram_lower_with(Isa::detect(), Precision::Single, a, w, c, Accum::Replace, threads)
}

/// Adds the lower triangle of A·diag(w)·Aᵀ to `c` (the trailing update of a blocked Cholesky
/// is this with w = −1).
pub fn weighted_gram_lower_add(a: MatRef<'_, f64>, w: &[f64], c: MatMut<'_, f64>, threads: usize) {
    weighted_gram_lower_with(Isa::detect(), Precision::Double, a, w, c, Accum::Add, threads)
}

/// [`weighted_gram_lower`] with a chosen kernel and precision (an [`Isa`] this CPU does not run
/// falls back to [`Isa::Portable`], as does a C whose rows are not contiguous;
/// [`Precision::Bf16Pair`] runs the AMX kernel whatever `isa` says where [`amx_available`],
/// else what [`Precision::Single`] runs); the tests compare the kernels with each other and
/// with f64 sums.
///
/// # Panics
/// If `w.len() != a.ncols()` or `c` is not `a.nrows()` square.
pub fn weighted_gram_lower_with(
    isa: Isa,
    precision: Precision,
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
    // Columns of weight 0 contribute nothing: they are skipped (exactly). The others are
    // summed as ±S·Sᵀ with S = A·diag(√|w|), positive and negative weights apart (a NaN weight
    // goes with the positive ones and reaches C).
    let positive: Vec<usize> = (0..n).filter(|&j| w[j] > 0.0 || w[j].is_nan()).collect();
    let negative: Vec<usize> = (0..n).filter(|&j| w[j] < 0.0).collect();
    if positive.is_empty() && negative.is_empty() && accum == Accum::Add {
        return;
    }
    if isa == Isa::Portable || c.row_stride() != 1 || (positive.is_empty() && negative.is_empty()) {
        portable(a, w, c.as_mut(), accum, threads);
        return;
    }
    let scale: Vec<f64> = w.iter().map(|v| v.abs().sqrt()).collect();
    let mut accum = accum;
    for (cols, negate) in [(&positive, false), (&negative, true)] {
        if cols.is_empty() {
            continue;
        }
        let src = Source { a, cols, scale: &scale };
        match precision {
            Precision::Double => run(kernel_f64(isa), isa.tile(precision), src, c.as_mut(), accum, negate, threads),
            #[cfg(target_arch = "x86_64")]
            Precision::Bf16Pair if amx::available() => run_amx(src, c.as_mut(), accum, negate, threads),
            Precision::Single | Precision::Bf16Pair => {
                run(kernel_f32(isa), isa.tile(Precision::Single), src, c.as_mut(), accum, negate, threads)
            }
        }
        accum = Accum::Add;
    }
}

/// The threads' column ranges through `gram_columns`.
fn run<T: Elem>(
    kernel: Kernel<T>,
    (mr, nr): (usize, usize),
    src: Source<'_>,
    c: MatMut<'_, f64>,
    accum: Accum,
    negate: bool,
    threads: usize,
) {
    let m = c.nrows();
    let n = src.cols.len();
    let ldc = c.col_stride() as usize;
    // Below this much work a second thread costs more than it saves.
    let threads = if (m * m * n) as f64 / 2.0 < PARALLEL_WORK { 1 } else { threads.max(1) };
    let ranges = column_ranges(m, threads, nr);
    let out = SendPtr(c.as_ptr_mut());
    let out = &out;
    let add = accum == Accum::Add;
    let work = |(j0, j1): (usize, usize)| {
        // SAFETY: each range writes only columns j0..j1 of C (rows ≥ j), disjoint between
        // threads; `c` is m×m with unit row stride and column stride `ldc`; the kernel runs on
        // this CPU and matches the panels; the ranges start on multiples of nr.
        unsafe { gram_columns::<T>(kernel, (mr, nr), src, out.0, ldc, (j0, j1), add, negate) }
    };
    match ranges[..] {
        [only] => return work(only),
        // Two ranges: the second on the passes' worker, awake from the last pass (rayon's pool
        // woke a sleeping thread each time, and now and then ran both ranges on one).
        [first, second] => {
            spin_join::join_scoped(|| work(first), || work(second));
            return;
        }
        _ => spin_join::rest(),
    }
    rayon::scope(|s| {
        for &r in &ranges[1..] {
            s.spawn(move |_| work(r));
        }
        work(ranges[0]);
    });
}

/// The threads' column ranges through the AMX kernel.
#[cfg(target_arch = "x86_64")]
fn run_amx(src: Source<'_>, c: MatMut<'_, f64>, accum: Accum, negate: bool, threads: usize) {
    let m = c.nrows();
    let n = src.cols.len();
    let ldc = c.col_stride() as usize;
    let threads = if (m * m * n) as f64 / 2.0 < PARALLEL_WORK { 1 } else { threads.max(1) };
    let ranges = column_ranges(m, threads, amx::NB);
    // SAFETY: AMX is available (checked by the caller); `c` is m×m with unit row stride and
    // column stride `ldc`, borrowed mutably here; the ranges from `column_ranges` are disjoint,
    // ascending, cover 0..m and start on multiples of NB.
    unsafe { amx::gram(src, c.as_ptr_mut(), ldc, &ranges, accum == Accum::Add, negate) }
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

/// The f64 kernel of `isa` (not called for [`Isa::Portable`]).
fn kernel_f64(isa: Isa) -> Kernel<f64> {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::kernel_24x8,
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::kernel_12x4,
        _ => no_kernel,
    }
}

/// The f32 kernel of `isa` (not called for [`Isa::Portable`]).
fn kernel_f32(isa: Isa) -> Kernel<f32> {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::kernel_48x8_single,
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::kernel_24x4_single,
        _ => no_kernel,
    }
}

/// Stands for the kernels where none exists: the portable path returns before any is called.
unsafe fn no_kernel<T>(_: *const T, _: *const T, _: usize, _: *mut f64, _: usize, _: Tile) {}
