//! The fused level-2 products with dense A: Aᵀ·y and a product A·v whose entries depend only on
//! those of Aᵀ·y, as an interior-point iteration needs them (the residuals, the
//! back-substitution of a normal-equations solution, the operator of conjugate gradients).
//!
//! On x86-64 with AVX2 or AVX-512 they are one pass over A's columns (`ranges`, on
//! `cpu::column_pass`): the products are bound by the speed of reading A (4m² entries on the
//! random family), and reading it once instead of twice halves their cost. On the portable
//! path ([`Kernels::Portable`]) they are faer's products: Aᵀ·y, then v, then A·v.
//!
//! [`Kernels::Portable`]: crate::cpu::paths::Kernels::Portable

use super::operands::{length, ColumnMap, Fused, Paired, VSource, PARALLEL_ENTRIES};
use crate::cpu::paths::CpuPaths;
#[cfg(target_arch = "x86_64")]
use crate::cpu::paths::Isa;
use crate::cpu::shapes::PassShapeError;
use faer::{Accum, ColRef, MatRef, Par};

/// faer's thread setting for a product with A of `m·n` entries.
fn par(m: usize, n: usize, threads: usize) -> Par {
    if m.saturating_mul(n) < PARALLEL_ENTRIES || threads <= 1 {
        Par::Seq
    } else {
        Par::rayon(threads)
    }
}

/// (Aᵀy, v, A·v) for dense A, on up to `threads` threads, by the paths' column-pass kernels.
///
/// # Errors
/// [`PassShapeError`] when `y` is not m long or a vector of `src` not n long.
pub fn dense(
    paths: &CpuPaths,
    a: MatRef<'_, f64>,
    y: &[f64],
    src: VSource<'_>,
    threads: usize,
) -> Result<Fused, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    length("y", m, y.len())?;
    src.check(n)?;
    match paths.pass.isa() {
        #[cfg(target_arch = "x86_64")]
        isa @ (Isa::Avx512 | Isa::Avx2) => super::ranges::dense(isa, a, y, src, threads),
        _ => {
            let mut u = vec![0.0; n];
            gemv(&mut u, a.transpose(), y, par(m, n, threads));
            let v: Vec<f64> = u.iter().enumerate().map(|(j, &uj)| src.value(j, uj)).collect();
            let mut av = vec![0.0; m];
            gemv(&mut av, a, &v, par(m, n, threads));
            Ok((u, v, av))
        }
    }
}

/// out = A·x with faer.
fn gemv(out: &mut [f64], a: MatRef<'_, f64>, x: &[f64], par: Par) {
    let om = faer::ColMut::from_slice_mut(out).as_mat_mut();
    faer::linalg::matmul::matmul(om, Accum::Replace, a, ColRef::from_slice(x).as_mat(), 1.0, par);
}

/// (Aᵀy, A·x, t, A·t) with tⱼ = g(j, (Aᵀy)ⱼ) for dense A in one pass on one or two threads, each
/// result bit for bit what [`dense`] and [`dense_a_mul`] give; `None` where the paths do not
/// fuse them (the portable path, or a pass that would split more than two ways).
///
/// # Errors
/// [`PassShapeError`] when `y` is not m long or `x` not n long.
pub fn dense_pair(
    paths: &CpuPaths,
    a: MatRef<'_, f64>,
    y: &[f64],
    x: &[f64],
    g: &ColumnMap<'_>,
    threads: usize,
) -> Result<Option<Paired>, PassShapeError> {
    length("y", a.nrows(), y.len())?;
    length("x", a.ncols(), x.len())?;
    match paths.pass.isa() {
        #[cfg(target_arch = "x86_64")]
        isa @ (Isa::Avx512 | Isa::Avx2) => super::ranges::dense_pair(isa, a, y, x, g, threads),
        _ => {
            let _ = (g, threads);
            Ok(None)
        }
    }
}

/// A·x for dense A, on up to `threads` threads.
///
/// # Errors
/// [`PassShapeError`] when `x` is not n long.
pub fn dense_a_mul(
    paths: &CpuPaths,
    a: MatRef<'_, f64>,
    x: &[f64],
    threads: usize,
) -> Result<Vec<f64>, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    length("x", n, x.len())?;
    match paths.pass.isa() {
        #[cfg(target_arch = "x86_64")]
        isa @ (Isa::Avx512 | Isa::Avx2) => super::ranges::dense_a_mul(isa, a, x, threads),
        _ => {
            let mut ax = vec![0.0; m];
            gemv(&mut ax, a, x, par(m, n, threads));
            Ok(ax)
        }
    }
}
