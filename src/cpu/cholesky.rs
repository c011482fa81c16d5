//! Blocked right-looking Cholesky (lower) with the tiny-pivot treatment of dense IPM codes.
//!
//! For each block column of width [`BLOCK`]: factor the diagonal block column by column, then
//! solve the panel below it against the block's triangle (L₂₁ = A₂₁·L₁₁⁻ᵀ) and update the
//! trailing lower triangle (A₂₂ −= L₂₁·L₂₁ᵀ) with faer's BLAS-3 kernels. A pivot d ≤ `tiny`
//! (after unit-diagonal scaling this means row k is numerically a combination of earlier rows)
//! is replaced by `huge`, so the column of L becomes ≈ 0 below the diagonal and the solved
//! component is ≈ 0: the dependent equation is dropped instead of amplifying rounding errors.

use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::linalg::triangular_solve::solve_lower_triangular_in_place;
use faer::{Accum, MatMut, Par};

/// Width of a block column (a multiple of the SIMD width; 64 keeps the diagonal block in L1).
pub const BLOCK: usize = 64;

/// A pivot that is not finite: the matrix had NaN/∞ entries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PivotBreakdown {
    pub column: usize,
    pub pivot: f64,
}

/// Factors the lower triangle of `a` in place (the upper triangle is neither read nor written).
/// Returns the number of replaced pivots.
pub fn cholesky_lower(mut a: MatMut<'_, f64>, tiny: f64, huge: f64, par: Par) -> Result<usize, PivotBreakdown> {
    let m = a.nrows();
    let mut replaced = 0;
    let mut k0 = 0;
    while k0 < m {
        let nb = BLOCK.min(m - k0);
        // Diagonal block, left-looking inside the block.
        for j in k0..k0 + nb {
            let mut d = a[(j, j)];
            for p in k0..j {
                d -= a[(j, p)] * a[(j, p)];
            }
            if !d.is_finite() {
                return Err(PivotBreakdown { column: j, pivot: d });
            }
            if d <= tiny {
                d = huge;
                replaced += 1;
            }
            let l = d.sqrt();
            a[(j, j)] = l;
            for i in j + 1..k0 + nb {
                let mut v = a[(i, j)];
                for p in k0..j {
                    v -= a[(i, p)] * a[(j, p)];
                }
                a[(i, j)] = v / l;
            }
        }
        let rest = m - k0 - nb;
        if rest > 0 {
            let sub = a.as_mut().submatrix_mut(k0, k0, m - k0, m - k0);
            let (l11, _, mut a21, a22) = sub.split_at_mut(nb, nb);
            // L₂₁ = A₂₁·L₁₁⁻ᵀ  ⇔  L₁₁·L₂₁ᵀ = A₂₁ᵀ.
            solve_lower_triangular_in_place(l11.as_ref(), a21.as_mut().transpose_mut(), par);
            // A₂₂ −= L₂₁·L₂₁ᵀ (lower triangle only).
            triangular::matmul(
                a22,
                BlockStructure::TriangularLower,
                Accum::Add,
                a21.as_ref(),
                BlockStructure::Rectangular,
                a21.as_ref().transpose(),
                BlockStructure::Rectangular,
                -1.0,
                par,
            );
        }
        k0 += nb;
    }
    Ok(replaced)
}
