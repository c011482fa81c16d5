//! The lower triangle of A·diag(w)·Aᵀ (a weighted symmetric rank-n update: BLAS `dsyrk` with a
//! diagonal in the middle), the normal-equations matrix of the interior-point method and the
//! trailing update of the blocked Cholesky (w = −1), on the path [`CpuPaths::gram`] names: the
//! hand-written kernels of `cpu::syrk` (x86-64) or faer's triangular product (portable).
//!
//! The portable path forms A·diag(w) (the columns of nonzero weight only) and calls faer's
//! triangular product; in [`Precision::Single`] it does so per k block of [`KC`] in f32 and adds
//! each block's triangle to C in f64, the arithmetic (and error bound) of the hand-written f32
//! kernels.

use super::paths::{Amx, CpuPaths, Isa};
pub use super::shapes::GramShapeError;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, MatMut, MatRef, Par};

/// Depth of a k block of the reduced-precision products: each block's products are summed in
/// f32, the blocks in f64.
pub const KC: usize = 256;

/// Rows of A per packed row block of the hand-written kernels (MC·KC values stay in L2); a
/// multiple of every tile height.
pub const MC: usize = 192;

/// Values of k summed in f32 by [`Precision::Bf16Pair`] before they are added in f64.
pub const AMX_KC: usize = 512;

/// Multiply-adds below which one thread does the whole product (≈ 50 µs of work: more than
/// waking a second thread costs).
pub const PARALLEL_WORK: f64 = 2e6;

/// The arithmetic of the products inside a k block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// f64 throughout.
    Double,
    /// f32 products and sums within a k block of [`KC`], f64 sums across blocks and in C.
    Single,
    /// Entries split into two bfloat16 values (16 significant bits), three bf16 products on AMX
    /// tiles with f32 sums within a k chunk of [`AMX_KC`], f64 across chunks and in C;
    /// [`Precision::Single`] where the process cannot use AMX.
    Bf16Pair,
}

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
/// (the strict upper triangle is not written), on up to `threads` threads, with the kernels
/// `paths` name (in f64 [`CpuPaths::gram`], else [`CpuPaths::reduced`]; [`Precision::Bf16Pair`]
/// runs as [`Precision::Single`] where they switch AMX off). Columns of weight 0 are left out (exactly); a NaN weight reaches C.
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
    let kernels = if precision == Precision::Double { paths.gram } else { paths.reduced };
    match kernels.isa() {
        #[cfg(target_arch = "x86_64")]
        isa @ (Isa::Avx512 | Isa::Avx2) => super::syrk::gram_lower(isa, precision, a, w, c, accum, threads),
        _ => portable(precision, a, w, c, accum, threads),
    }
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
