//! The `cpu` backend: double precision, dense, faer.
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
//!   [`FactorInfo`]. The factorization itself is [`super::cholesky::cholesky_lower`].
//! * `solve`: forward and back substitution on the scaled factor, u = S·L⁻ᵀ·L⁻¹·S·r.

use crate::lp::backend::{BackendError, FactorInfo, NormalEquationsBackend};
use crate::lp::backends::cholesky::cholesky_lower;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::linalg::triangular_solve::{solve_lower_triangular_in_place, solve_upper_triangular_in_place};
use faer::{Accum, Mat, MatRef, Par};

/// Pivot threshold of the unit-diagonal normal matrix (relative cancellation beyond ~100 ulps).
pub const TINY_PIVOT: f64 = 1e-14;
/// Value a tiny pivot is replaced by; its square root (1e32) makes the solved component vanish.
pub const HUGE_PIVOT: f64 = 1e64;

/// Dense f64 kernels on the CPU.
pub struct CpuBackend {
    a: Mat<f64>,
    /// Scratch A·D (m×n), kept to avoid reallocating every iteration.
    ad: Mat<f64>,
    /// The normal matrix (lower triangle), then its Cholesky factor.
    normal: Mat<f64>,
    /// S of the unit-diagonal scaling.
    scale: Vec<f64>,
    factored: bool,
    /// Column pairs (x⁺, x⁻) of split free variables.
    free_pairs: Vec<(usize, usize)>,
    par: Par,
}

impl CpuBackend {
    /// Uploads A (dense m×n standard-form matrix) and the free-variable pairs. Uses all rayon
    /// threads.
    pub fn new(a: MatRef<'_, f64>, free_pairs: &[(usize, usize)]) -> Self {
        let (m, n) = (a.nrows(), a.ncols());
        Self {
            a: a.to_owned(),
            ad: Mat::zeros(m, n),
            normal: Mat::zeros(m, m),
            scale: vec![1.0; m],
            factored: false,
            free_pairs: free_pairs.to_vec(),
            par: Par::rayon(0),
        }
    }

    fn check(&self, op: &'static str, expected: usize, got: usize) -> Result<(), BackendError> {
        if expected == got {
            Ok(())
        } else {
            Err(BackendError::Dimension { op, expected, got })
        }
    }

    fn zip(
        &self,
        op: &'static str,
        x: &[f64],
        y: &[f64],
        f: impl Fn(f64, f64) -> f64,
    ) -> Result<Vec<f64>, BackendError> {
        self.check(op, x.len(), y.len())?;
        Ok(x.iter().zip(y).map(|(&a, &b)| f(a, b)).collect())
    }
}

impl NormalEquationsBackend for CpuBackend {
    type Vector = Vec<f64>;

    fn name(&self) -> &str {
        "cpu"
    }
    fn dims(&self) -> (usize, usize) {
        (self.a.nrows(), self.a.ncols())
    }
    fn upload(&mut self, v: &[f64]) -> Result<Vec<f64>, BackendError> {
        Ok(v.to_vec())
    }
    fn download(&mut self, v: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        Ok(v.clone())
    }
    fn fill(&mut self, len: usize, value: f64) -> Result<Vec<f64>, BackendError> {
        Ok(vec![value; len])
    }
    fn lincomb(&mut self, alpha: f64, x: &Vec<f64>, beta: f64, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.zip("lincomb", x, y, |a, b| alpha * a + beta * b)
    }
    fn add_scalar(&mut self, x: &Vec<f64>, alpha: f64) -> Result<Vec<f64>, BackendError> {
        Ok(x.iter().map(|v| v + alpha).collect())
    }
    fn mul(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.zip("mul", x, y, |a, b| a * b)
    }
    fn div(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.zip("div", x, y, |a, b| a / b)
    }
    fn dot(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<f64, BackendError> {
        self.check("dot", x.len(), y.len())?;
        Ok(x.iter().zip(y).map(|(a, b)| a * b).sum())
    }
    fn sum(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(x.iter().sum())
    }
    fn norm_inf(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        // NaN propagates (f64::max would drop it), so a broken iterate is noticed.
        Ok(x.iter().fold(0.0, |acc: f64, v| if v.is_nan() || acc.is_nan() { f64::NAN } else { acc.max(v.abs()) }))
    }
    fn min(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(x.iter().copied().fold(f64::INFINITY, f64::min))
    }
    fn max(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(x.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    }
    fn max_step(&mut self, x: &Vec<f64>, dx: &Vec<f64>) -> Result<f64, BackendError> {
        self.check("max_step", x.len(), dx.len())?;
        Ok(x.iter().zip(dx).filter(|(_, &d)| d < 0.0).map(|(&v, &d)| -v / d).fold(1.0, f64::min))
    }

    fn recenter_free_pairs(&mut self, x: &Vec<f64>, cap: f64) -> Result<Vec<f64>, BackendError> {
        let mut out = x.clone();
        for &(p, q) in &self.free_pairs {
            let (Some(&xp), Some(&xq)) = (x.get(p), x.get(q)) else {
                return Err(BackendError::Dimension {
                    op: "recenter_free_pairs",
                    expected: p.max(q) + 1,
                    got: x.len(),
                });
            };
            let excess = xp.min(xq) - cap * (1.0 + (xp - xq).abs());
            if excess > 0.0 {
                out[p] = xp - excess;
                out[q] = xq - excess;
            }
        }
        Ok(out)
    }

    fn a_mul(&mut self, alpha: f64, x: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        let (m, n) = self.dims();
        self.check("a_mul (x)", n, x.len())?;
        let mut out = match add {
            Some((beta, y)) => {
                self.check("a_mul (y)", m, y.len())?;
                y.iter().map(|v| beta * v).collect()
            }
            None => vec![0.0; m],
        };
        let xm = faer::ColRef::from_slice(x).as_mat();
        let om = faer::ColMut::from_slice_mut(&mut out).as_mat_mut();
        faer::linalg::matmul::matmul(om, Accum::Add, self.a.as_ref(), xm, alpha, self.par);
        Ok(out)
    }

    fn at_mul(&mut self, alpha: f64, y: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        let (m, n) = self.dims();
        self.check("at_mul (y)", m, y.len())?;
        let mut out = match add {
            Some((beta, z)) => {
                self.check("at_mul (z)", n, z.len())?;
                z.iter().map(|v| beta * v).collect()
            }
            None => vec![0.0; n],
        };
        let ym = faer::ColRef::from_slice(y).as_mat();
        let om = faer::ColMut::from_slice_mut(&mut out).as_mat_mut();
        faer::linalg::matmul::matmul(om, Accum::Add, self.a.transpose(), ym, alpha, self.par);
        Ok(out)
    }

    fn assemble(&mut self, d2: &Vec<f64>) -> Result<(), BackendError> {
        let (_, n) = self.dims();
        self.check("assemble", n, d2.len())?;
        self.factored = false;
        for (j, &dj2) in d2.iter().enumerate() {
            let d = dj2.max(0.0).sqrt();
            let src = self.a.col_as_slice(j);
            let dst = self.ad.col_as_slice_mut(j);
            for (o, &v) in dst.iter_mut().zip(src) {
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

    fn factor(&mut self) -> Result<FactorInfo, BackendError> {
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

    fn solve(&mut self, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        if !self.factored {
            return Err(BackendError::NotFactored);
        }
        let m = self.normal.nrows();
        self.check("solve", m, r.len())?;
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
