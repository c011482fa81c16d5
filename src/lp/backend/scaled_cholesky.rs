//! A small dense symmetric positive definite matrix and its Cholesky factor after the
//! unit-diagonal scaling and under the pivot rule of [`super::CpuNormal`]: the Schur
//! complements of [`super::DualNormal`] and [`super::DenseColumnNormal`].

use super::BackendError;
use crate::cpu::cholesky::{cholesky_lower_with, PivotRule};
use faer::linalg::triangular_solve::{solve_lower_triangular_in_place, solve_upper_triangular_in_place};
use faer::{MatMut, MatRef, Par};

/// A small symmetric positive definite matrix (lower triangle, column-major) and its scaled
/// Cholesky factor S⁻¹·L·Lᵀ·S⁻¹, S = diag(1/√Mₖₖ).
#[derive(Default)]
pub(super) struct Factored {
    n: usize,
    pub(super) lower: Vec<f64>,
    scale: Vec<f64>,
}

impl Factored {
    pub(super) fn zeroed(&mut self, n: usize) -> MatMut<'_, f64> {
        self.n = n;
        self.lower.clear();
        self.lower.resize(n * n, 0.0);
        MatMut::from_column_major_slice_mut(&mut self.lower, n, n)
    }

    /// Factors in place; the count of replaced pivots.
    pub(super) fn factor(&mut self, rule: PivotRule) -> Result<usize, BackendError> {
        let n = self.n;
        self.scale = (0..n)
            .map(|k| {
                let d = self.lower[k * n + k];
                if d > 0.0 && d.is_finite() {
                    1.0 / d.sqrt()
                } else {
                    1.0
                }
            })
            .collect();
        for j in 0..n {
            let sj = self.scale[j];
            for (v, si) in self.lower[j * n + j..(j + 1) * n].iter_mut().zip(&self.scale[j..]) {
                *v *= sj * si;
            }
        }
        let view = MatMut::from_column_major_slice_mut(&mut self.lower, n, n);
        let par = if n < super::cpu_normal::PARALLEL_FACTOR_ROWS { Par::Seq } else { Par::rayon(0) };
        let replaced = cholesky_lower_with(view, rule, par)
            .map_err(|e| BackendError::Factorization { column: e.column, pivot: e.pivot })?;
        if let Some(k) = (0..n).find(|&k| !self.lower[k * n + k].is_finite()) {
            return Err(BackendError::Factorization { column: k, pivot: self.lower[k * n + k] });
        }
        Ok(replaced)
    }

    /// Takes a factor made elsewhere: `lower` column-major n×n with M = L·Lᵀ (no scaling).
    pub(super) fn set_factor(&mut self, n: usize, lower: Vec<f64>) {
        (self.n, self.lower, self.scale) = (n, lower, vec![1.0; n]);
    }

    /// r ← M⁻¹·r with the factor.
    pub(super) fn solve(&self, r: &mut [f64]) {
        self.solve_columns(faer::ColMut::from_slice_mut(r).as_mat_mut(), Par::Seq);
    }

    /// R ← M⁻¹·R, column by column, with the substitutions blocked over the columns.
    pub(super) fn solve_columns(&self, mut r: MatMut<'_, f64>, par: Par) {
        let scale = |r: &mut MatMut<'_, f64>| {
            for col in r.as_mut().col_iter_mut() {
                for (v, s) in col.iter_mut().zip(&self.scale) {
                    *v *= s;
                }
            }
        };
        scale(&mut r);
        let l = MatRef::from_column_major_slice(&self.lower, self.n, self.n);
        solve_lower_triangular_in_place(l, r.as_mut(), par);
        solve_upper_triangular_in_place(l.transpose(), r.as_mut(), par);
        scale(&mut r);
    }
}
