//! The lower triangle of A·diag(w)·Aᵀ (a weighted symmetric rank-n update: BLAS `dsyrk` with a
//! diagonal in the middle), the normal-equations matrix of the interior-point method and the
//! trailing update of the blocked Cholesky (w = −1).
//!
//! In f64 it is faer's triangular product of A and A·diag(w) (the columns of nonzero weight
//! only). In a reduced precision ([`Precision::Single`], [`Precision::Bf16Pair`]) it runs on the
//! path [`CpuPaths::reduced`] names: the hand-written kernels of `cpu::syrk` (x86-64: f32
//! micro-kernels, AMX tiles for bf16 pairs), or faer's triangular product per k block of [`KC`]
//! in f32 with each block's triangle added to C in f64 — the arithmetic (and error bound) of the
//! f32 kernels.

use super::paths::{Amx, CpuPaths, Isa};
pub use super::shapes::GramShapeError;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, MatMut, MatRef, Par};

pub use super::precision::{Precision, AMX_KC, KC, MC};

/// Multiply-adds below which one thread does the whole product (≈ 50 µs of work: more than
/// waking a second thread costs).
pub const PARALLEL_WORK: f64 = 2e6;

impl Precision {
    /// The cheapest reduced precision `paths` run: [`Precision::Bf16Pair`] where the hand-written
    /// kernels run, AMX is not switched off and this process may use it
    /// ([`amx_available`]); [`Precision::Single`] otherwise.
    pub fn reduced(paths: &CpuPaths) -> Self {
        if paths.amx == Amx::Auto && paths.reduced.isa() != Isa::Portable && amx_available() {
            Precision::Bf16Pair
        } else {
            Precision::Single
        }
    }
}

/// Whether this process may use AMX-BF16 tiles (the CPU has them and the operating system lends
/// their state; asked once per process). Always false off x86-64.
pub fn amx_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return super::syrk::amx_available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Writes (`Accum::Replace`) or adds (`Accum::Add`) the lower triangle of A·diag(w)·Aᵀ into `c`
/// (the strict upper triangle is not written), on up to `threads` threads: faer's triangular
/// product in f64, the kernels [`CpuPaths::reduced`] names in a reduced precision
/// ([`Precision::Bf16Pair`] runs as [`Precision::Single`] where `paths` switch AMX off). Columns
/// of weight 0 are left out (exactly); a NaN weight reaches C.
///
/// # Errors
/// [`GramShapeError`] when `w` or `c` does not fit A (nothing is written then).
pub fn gram_lower(
    paths: &CpuPaths,
    precision: Precision,
    a: MatRef<'_, f64>,
    w: &[f64],
    c: MatMut<'_, f64>,
    accum: Accum,
    threads: usize,
) -> Result<(), GramShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    if w.len() != n {
        return Err(GramShapeError::Weights { weights: w.len(), columns: n });
    }
    if (c.nrows(), c.ncols()) != (m, m) {
        return Err(GramShapeError::Output { rows: c.nrows(), cols: c.ncols(), m });
    }
    let threads = if (m * m) as f64 * n as f64 / 2.0 < PARALLEL_WORK { 1 } else { threads.max(1) };
    let precision =
        if precision == Precision::Bf16Pair && paths.amx == Amx::Off { Precision::Single } else { precision };
    if precision == Precision::Double {
        portable(precision, a, w, c, accum, threads);
        return Ok(());
    }
    // The hand-written kernels where `paths` name them and C's layout suits them.
    #[cfg(target_arch = "x86_64")]
    let c = {
        let mut c = c;
        if let isa @ (Isa::Avx512 | Isa::Avx2) = paths.reduced.isa() {
            let bf16 = precision == Precision::Bf16Pair;
            if super::syrk::gram_lower(isa, bf16, a, w, c.as_mut(), accum, threads) {
                return Ok(());
            }
        }
        c
    };
    portable(precision, a, w, c, accum, threads);
    Ok(())
}

/// faer's triangular product C (+)= A·(A·diag(w))ᵀ over the columns of nonzero weight: in f64,
/// or ([`Precision::Single`], [`Precision::Bf16Pair`]) in f32 per k block of [`KC`].
pub fn portable(
    precision: Precision,
    a: MatRef<'_, f64>,
    w: &[f64],
    mut c: MatMut<'_, f64>,
    accum: Accum,
    threads: usize,
) {
    let m = a.nrows();
    let cols: Vec<usize> = (0..a.ncols()).filter(|&j| w[j] != 0.0).collect();
    if cols.is_empty() {
        if accum == Accum::Replace {
            for j in 0..m {
                c.as_mut().col_mut(j).subrows_mut(j, m - j).fill(0.0);
            }
        }
        return;
    }
    let par = if threads > 1 { Par::rayon(threads) } else { Par::Seq };
    if precision == Precision::Double {
        // A itself where no column is left out; else a copy of the columns kept.
        let gathered;
        let s = if cols.len() == a.ncols() {
            a
        } else {
            gathered = Mat::from_fn(m, cols.len(), |i, k| a[(i, cols[k])]);
            gathered.as_ref()
        };
        let sw = Mat::from_fn(m, cols.len(), |i, k| s[(i, k)] * w[cols[k]]);
        lower_product(c, accum, s, sw.as_ref(), 1.0, par);
        return;
    }
    let mut block = Mat::<f32>::zeros(m, m);
    let mut accum = accum;
    for chunk in cols.chunks(KC) {
        let s = Mat::from_fn(m, chunk.len(), |i, k| a[(i, chunk[k])] as f32);
        let sw = Mat::from_fn(m, chunk.len(), |i, k| (a[(i, chunk[k])] * w[chunk[k]]) as f32);
        lower_product(block.as_mut(), Accum::Replace, s.as_ref(), sw.as_ref(), 1.0f32, par);
        for j in 0..m {
            let (dst, src) = (c.as_mut().col_mut(j).subrows_mut(j, m - j), block.col(j).subrows(j, m - j));
            match accum {
                Accum::Replace => dst.iter_mut().zip(src.iter()).for_each(|(d, &s)| *d = f64::from(s)),
                Accum::Add => dst.iter_mut().zip(src.iter()).for_each(|(d, &s)| *d += f64::from(s)),
            }
        }
        accum = Accum::Add;
    }
}

/// The lower triangle of s·swᵀ into `c`.
fn lower_product<T: faer::traits::ComplexField>(
    c: MatMut<'_, T>,
    accum: Accum,
    s: MatRef<'_, T>,
    sw: MatRef<'_, T>,
    one: T,
    par: Par,
) {
    triangular::matmul(
        c,
        BlockStructure::TriangularLower,
        accum,
        s,
        BlockStructure::Rectangular,
        sw.transpose(),
        BlockStructure::Rectangular,
        one,
        par,
    );
}
