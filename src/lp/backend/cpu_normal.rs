//! The normal equations in double precision on the CPU (faer).
//!
//! * `assemble`: A·D²·Aᵀ = (A·D)(A·D)ᵀ, forming A·D once (O(mn)) and then only the lower
//!   triangle with faer's triangular matrix product (m²n flops instead of 2m²n).
//! * `factor`: the matrix is first scaled symmetrically to unit diagonal, M̂ = S·M·S with
//!   S = diag(1/√Mₖₖ), so that a pivot measures how much of row k is *not* explained by the
//!   previous rows. A pivot of M̂ below [`TINY_PIVOT`] (or negative, from rounding) means row k
//!   is numerically dependent on earlier rows (redundant equality rows, or rows whose columns
//!   all have d² → 0 near the optimum). It is replaced by [`HUGE_PIVOT`], which makes the
//!   corresponding component of Δλ zero — the classical tiny-pivot treatment of dense IPM codes
//!   (Wright, *Primal-Dual Interior-Point Methods*, ch. 11). The count is returned in
//!   [`FactorInfo`]. The factorization itself is [`crate::cpu::cholesky::cholesky_lower`].
//! * `solve`: forward and back substitution on the scaled factor, u = S·L⁻ᵀ·L⁻¹·S·r.

use super::{BackendError, CpuVectors, FactorInfo, NormalEquations};
use crate::cpu::cholesky::cholesky_lower;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::linalg::triangular_solve::{solve_lower_triangular_in_place, solve_upper_triangular_in_place};
use faer::{Accum, Mat, MatRef, Par};

/// Pivot threshold of the unit-diagonal normal matrix (relative cancellation beyond ~100 ulps).
pub const TINY_PIVOT: f64 = 1e-14;
/// Value a tiny pivot is replaced by; its square root (1e32) makes the solved component vanish.
pub const HUGE_PIVOT: f64 = 1e64;

/// Dense f64 normal equations.
pub struct CpuNormal {
    /// Scratch A·D (m×n), kept to avoid reallocating every iteration.
    ad: Mat<f64>,
    /// The normal matrix (lower triangle), then its Cholesky factor.
    normal: Mat<f64>,
    /// S of the unit-diagonal scaling.
    scale: Vec<f64>,
    factored: bool,
    par: Par,
}

impl CpuNormal {
    /// Buffers for an m×n A; uses all rayon threads.
    pub fn new(m: usize, n: usize) -> Self {
        Self {
            ad: Mat::zeros(m, n),
            normal: Mat::zeros(m, m),
            scale: vec![1.0; m],
            factored: false,
            par: Par::rayon(0),
        }
    }

    /// Forms A·D²·Aᵀ (lower triangle) from A and d².
    pub fn assemble_from(&mut self, a: MatRef<'_, f64>, d2: &[f64]) -> Result<(), BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        if d2.len() != n {
            return Err(BackendError::Dimension { op: "assemble", expected: n, got: d2.len() });
        }
        if (self.ad.nrows(), self.ad.ncols()) != (m, n) {
            *self = Self::new(m, n);
        }
        self.factored = false;
        for (j, &dj2) in d2.iter().enumerate() {
            let d = dj2.max(0.0).sqrt();
            let src = a.col(j);
            let dst = self.ad.col_as_slice_mut(j);
            for (o, &v) in dst.iter_mut().zip(src.iter()) {
                *o = v * d;
            }
        }
        triangular::matmul(
            self.normal.as_mut(),
            BlockStructure::TriangularLower,
            Accum::Replace,
            self.ad.as_ref(),
            BlockStructure::Rectangular,
            self.ad.transpose(),
            BlockStructure::Rectangular,
            1.0,
            self.par,
        );
        Ok(())
    }

    /// Factors the assembled matrix (see the module documentation).
    pub fn factor_assembled(&mut self) -> Result<FactorInfo, BackendError> {
        let m = self.normal.nrows();
        for k in 0..m {
            let d = self.normal[(k, k)];
            self.scale[k] = if d > 0.0 && d.is_finite() { 1.0 / d.sqrt() } else { 1.0 };
        }
        for j in 0..m {
            let sj = self.scale[j];
            let col = self.normal.col_as_slice_mut(j);
            for (i, v) in col.iter_mut().enumerate().skip(j) {
                *v *= sj * self.scale[i];
            }
        }
        let replaced = cholesky_lower(self.normal.as_mut(), TINY_PIVOT, HUGE_PIVOT, self.par)
            .map_err(|e| BackendError::Factorization { column: e.column, pivot: e.pivot })?;
        // A NaN/∞ pivot passes the sign test; find it here rather than in a later solve.
        if let Some(k) = (0..m).find(|&k| !self.normal[(k, k)].is_finite()) {
            return Err(BackendError::Factorization { column: k, pivot: self.normal[(k, k)] });
        }
        self.factored = true;
        Ok(FactorInfo { replaced_pivots: replaced })
    }

    /// Solves with the current factor.
    pub fn solve_host(&self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        if !self.factored {
            return Err(BackendError::NotFactored);
        }
        let m = self.normal.nrows();
        if r.len() != m {
            return Err(BackendError::Dimension { op: "solve", expected: m, got: r.len() });
        }
        let mut u: Vec<f64> = r.iter().zip(&self.scale).map(|(v, s)| v * s).collect();
        let l = self.normal.as_ref();
        solve_lower_triangular_in_place(l, faer::ColMut::from_slice_mut(&mut u).as_mat_mut(), self.par);
        solve_upper_triangular_in_place(l.transpose(), faer::ColMut::from_slice_mut(&mut u).as_mat_mut(), self.par);
        for (v, s) in u.iter_mut().zip(&self.scale) {
            *v *= s;
        }
        Ok(u)
    }
}

impl NormalEquations<CpuVectors> for CpuNormal {
    fn name(&self) -> &str {
        "cpu"
    }
    fn assemble(&mut self, vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        self.assemble_from(vk.a(), d2)
    }
    fn factor(&mut self, _vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        self.factor_assembled()
    }
    fn solve(&mut self, _vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.solve_host(r)
    }
}
