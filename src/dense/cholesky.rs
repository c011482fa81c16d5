//! [`Cholesky`]: the GPU factorization of a symmetric positive definite `DMatrix<f64>`.

use super::{finite_vector, length, DenseError, LinearSolution};
use crate::cpu::equilibrate::factors;
use crate::refine::iterate::{refine, Refinable, Stop, Stopping, TestPoint};
use crate::refine::{backward_error_bound, Criterion, Method};
use std::sync::OnceLock;
use crate::gl::Gpu;
use crate::gpu::cholesky::{self, Variant};
use crate::gpu::GpuError;
use crate::layout::Format;
use nalgebra::{DMatrix, DVector};

/// How the factorization runs on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CholeskyOptions {
    /// The kernel variant (default: the 2008 paper's oversized triangle with a swizzled pair).
    pub variant: Variant,
    /// Full or rectangular packed storage (packed: the paper's variant only).
    pub format: Format,
}

impl Default for CholeskyOptions {
    fn default() -> Self {
        Self { variant: Variant::PAPER, format: Format::Full }
    }
}

/// C = L·Lᵀ, factored in single precision on the GL pipeline; L is held in double precision.
///
/// Only the lower triangle of C is read (as nalgebra's `cholesky()` does). The factor carries
/// single precision's accuracy, and says how much: [`Cholesky::backward_error`] is
/// ‖C − L·Lᵀ‖_F/‖C‖_F computed in double precision (≈ 1e-7, a small multiple of m·u₃₂ whatever
/// κ(C)). [`Cholesky::solve`] substitutes with that factor and is not refined: its relative
/// error grows as κ(C)·u₃₂. [`Cholesky::solve_refined`] refines in double precision (as
/// [`crate::linsolve`] does) and says in its [`LinearSolution::method`] whether it was refined
/// or fell back to a double-precision Cholesky.
///
/// ```
/// use glsolve::{Cholesky, Gpu};
/// use nalgebra::{dmatrix, dvector};
/// let gpu = Gpu::headless()?;
/// let c = dmatrix![4.0, 2.0; 2.0, 3.0];
/// let chol = Cholesky::new(&gpu, &c)?;
/// assert!((chol.l()[(1, 0)] - 1.0).abs() < 1e-6);          // L = [2 0; 1 √2]
/// let x = chol.solve(&dvector![6.0, 5.0])?;                // C·x = b, x = (1, 1)
/// assert!((x[0] - 1.0).abs() < 1e-5 && (x[1] - 1.0).abs() < 1e-5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Cholesky {
    l: DMatrix<f64>,
    /// C as factored (symmetric, from its lower triangle), for the check and the refinement.
    c: DMatrix<f64>,
    /// The powers of two S of Ĉ = S·C·S.
    s: Vec<f64>,
    /// ‖Ĉ − L̂·L̂ᵀ‖_F/‖Ĉ‖_F, computed on first use.
    backward: OnceLock<f64>,
}

impl Cholesky {
    /// Factors `c` with the paper's variant in full format.
    pub fn new(gpu: &Gpu, c: &DMatrix<f64>) -> Result<Self, DenseError> {
        Self::with_options(gpu, c, CholeskyOptions::default())
    }

    /// Factors `c` with the given variant and storage format, in single precision's range (S·C·S
    /// with powers of two S, undone exactly in L). Errors: `c` not square or of an order past
    /// the driver's texture side (before `c` is read), a NaN or infinite entry in its lower
    /// triangle, a pivot that is not positive (C is not positive definite — found before the
    /// upload for a diagonal entry or a 2×2 minor — or too ill-conditioned for single
    /// precision), a GL failure.
    pub fn with_options(gpu: &Gpu, c: &DMatrix<f64>, options: CholeskyOptions) -> Result<Self, DenseError> {
        let (rows, cols) = c.shape();
        if rows != cols {
            let expected = "a Cholesky factorization needs a square matrix".to_string();
            return Err(DenseError::Shape { what: "C", rows, cols, expected });
        }
        let m = rows;
        // The GPU's limit first: an order it cannot hold is refused before C is read.
        if m > 0 {
            gpu.check_size(m, m, "the matrix to factor").map_err(GpuError::from)?;
        }
        for j in 0..m {
            for i in j..m {
                let value = c[(i, j)];
                if !value.is_finite() {
                    return Err(DenseError::NonFinite { what: "C", row: i, col: j, value });
                }
            }
        }
        if m == 0 {
            return Ok(Self { l: DMatrix::zeros(0, 0), c: DMatrix::zeros(0, 0), s: Vec::new(), backward: OnceLock::new() });
        }
        let s = Self::equilibrate(c)?;
        // Ĉ = S·C·S, row-major f32, the upper triangle mirrored from the lower (the kernels read
        // only the lower part; mirroring keeps the upload independent of what the caller left).
        let entry = |i: usize, j: usize| s[i] * c[(i.max(j), i.min(j))] * s[j];
        let c32: Vec<f32> = (0..m * m).map(|k| entry(k / m, k % m) as f32).collect();
        let factor = cholesky::factor_with(gpu, &c32, m, options.variant, options.format)?;
        let lower = cholesky::read_lower(gpu, &factor)?;
        // C = S⁻¹·Ĉ·S⁻¹ = (S⁻¹·L̂)·(S⁻¹·L̂)ᵀ, exact: S is powers of two.
        let l = DMatrix::from_fn(m, m, |i, j| if j <= i { f64::from(lower[i * m + j]) / s[i] } else { 0.0 });
        let c = DMatrix::from_fn(m, m, |i, j| c[(i.max(j), i.min(j))]);
        Ok(Self { l, c, s, backward: OnceLock::new() })
    }

    /// S for Ĉ = S·C·S in single precision's range (xPOEQU with powers of two, one by one or
    /// one for all as [`factors`] decides, from the square roots of the diagonal). A diagonal
    /// entry that is not positive, or a 2×2 principal minor with ĉᵢⱼ² > ĉᵢᵢ·ĉⱼⱼ, proves that C
    /// is not positive definite before anything is uploaded (and keeps an entry of such a C
    /// from overflowing single precision); the pivot named is the one the factorization would
    /// meet: the diagonal entry, or cᵢᵢ − cᵢⱼ²/cⱼⱼ of the minor.
    fn equilibrate(c: &DMatrix<f64>) -> Result<Vec<f64>, DenseError> {
        let m = c.nrows();
        if let Some(j) = (0..m).find(|&j| c[(j, j)] <= 0.0) {
            return Err(DenseError::NotPositiveDefinite { column: j, pivot: c[(j, j)] });
        }
        let s = factors(&(0..m).map(|j| c[(j, j)].sqrt()).collect::<Vec<f64>>());
        for j in 0..m {
            for i in j + 1..m {
                let (cii, cij, cjj) = (s[i] * s[i] * c[(i, i)], s[i] * c[(i, j)] * s[j], s[j] * s[j] * c[(j, j)]);
                if cij * cij > cii * cjj {
                    let pivot = (cii - cij * cij / cjj) / (s[i] * s[i]);
                    return Err(DenseError::NotPositiveDefinite { column: i, pivot });
                }
            }
        }
        Ok(s)
    }

    /// The order m of C.
    pub fn dim(&self) -> usize {
        self.l.nrows()
    }

    /// The lower-triangular factor L (zeros above the diagonal).
    pub fn l(&self) -> &DMatrix<f64> {
        &self.l
    }

    /// Takes the factor L.
    pub fn unpack(self) -> DMatrix<f64> {
        self.l
    }

    /// The factor's backward error ‖Ĉ − L̂·L̂ᵀ‖_F/‖Ĉ‖_F in double precision, Ĉ = S·C·S the
    /// matrix the GPU factored (S: the powers of two that bring C into single precision's
    /// range, the identity unless C is out of range or its diagonal spread; L̂ = S·L). Single
    /// precision keeps it a small multiple of m·u₃₂ (Higham, *Accuracy and Stability*, Thm
    /// 10.3); a larger value means the factor is wrong. Computed on the first call (the
    /// product L̂·L̂ᵀ in f64 on the CPU, m³ multiply-adds: 0.07 s at m = 1024 on two cores), then
    /// kept. 0 for an empty matrix.
    pub fn backward_error(&self) -> f64 {
        *self.backward.get_or_init(|| {
            let m = self.dim();
            let (s, l, c) = (&self.s, &self.l, &self.c);
            // L̂·L̂ᵀ by faer's product (parallel, blocked): the naive sum took as long as the
            // GPU factorization at m = 1024.
            let lh = faer::Mat::from_fn(m, m, |i, k| if k <= i { s[i] * l[(i, k)] } else { 0.0 });
            let llt = &lh * lh.transpose();
            let (mut num, mut den) = (0.0, 0.0);
            for j in 0..m {
                for i in 0..m {
                    let cij = s[i] * c[(i, j)] * s[j];
                    num += (cij - llt[(i, j)]) * (cij - llt[(i, j)]);
                    den += cij * cij;
                }
            }
            if den == 0.0 {
                0.0
            } else {
                (num / den).sqrt()
            }
        })
    }

    /// Solves C·x = b by forward and back substitution with L (in double precision arithmetic,
    /// with the single-precision factor), unrefined: x errs by up to about κ(C)·u₃₂ relative.
    /// Errors: `b` of the wrong length or not finite.
    pub fn solve(&self, b: &DVector<f64>) -> Result<DVector<f64>, DenseError> {
        length("b", b, self.dim(), "one per row of C")?;
        finite_vector("b", b)?;
        // The GPU factorization refused non-positive pivots, so the diagonal of L is > 0 and the
        // triangular solves cannot fail; should one, the zero pivot is named, never a NaN answer.
        let zero_pivot = || {
            let column = (0..self.dim()).find(|&k| self.l[(k, k)] == 0.0).unwrap_or(0);
            DenseError::NotPositiveDefinite { column, pivot: 0.0 }
        };
        let y = self.l.solve_lower_triangular(b).ok_or_else(zero_pivot)?;
        self.l.tr_solve_lower_triangular(&y).ok_or_else(zero_pivot)
    }

    /// Solves C·x = b to double precision: x from the single-precision factor, refined with the
    /// residual b − C·x in double precision (the refinement of [`crate::linsolve`], tested the
    /// same way), and returned as [`Method::Mixed`] when a proven bound on its backward error
    /// ([`LinearSolution::criterion`]) is at most 16; otherwise C is factored again in double
    /// precision on the CPU and [`Method::DoubleFallback`] says why. Errors: `b` of the wrong
    /// length or not finite, C not positive definite in double precision.
    pub fn solve_refined(&self, b: &DVector<f64>) -> Result<LinearSolution, DenseError> {
        let m = self.dim();
        length("b", b, m, "one per row of C")?;
        finite_vector("b", b)?;
        let threshold = 16.0;
        if m == 0 {
            return Ok(LinearSolution { x: DVector::zeros(0), method: Method::Mixed, iterations: 0, criterion: 0.0, threshold });
        }
        let c_rows: Vec<f64> = self.c.transpose().as_slice().to_vec();
        let c_norm = crate::cpu::rowmajor::norm_inf(&c_rows, m, m);
        let mut problem = Spd { chol: self, c_rows: &c_rows, b, c_norm, b_norm: b.amax() };
        let rules = Stopping { test: TestPoint::Iterate, threshold, max_iterations: 30, patience: 3, growth_limit: 1e4 };
        let out = refine(&mut problem, &rules)?;
        let bound = backward_error_bound(&c_rows, m, b.as_slice(), &out.x, c_norm);
        let why = match out.stop {
            Stop::Converged if bound <= threshold => {
                let x = DVector::from_vec(out.x);
                return Ok(LinearSolution { x, method: Method::Mixed, iterations: out.iterations, criterion: bound, threshold });
            }
            Stop::Converged => format!("the refined answer's backward-error bound is {bound:.2e} > {threshold}"),
            Stop::Stalled { criterion } | Stop::Diverged { criterion } => format!(
                "refinement stalled at a backward error of {criterion:.2e} (LINPACK units) after {} steps: κ(C)·u₃₂ too large",
                out.iterations
            ),
            Stop::NonFinite => "refinement produced a non-finite iterate".to_string(),
            Stop::Exhausted => format!("no convergence in {} refinement steps", rules.max_iterations),
        };
        let x = cholesky_f64(&self.c).map(|l| substitute(&l, b))?;
        let criterion = backward_error_bound(&c_rows, m, b.as_slice(), x.as_slice(), c_norm);
        Ok(LinearSolution { x, method: Method::DoubleFallback(why), iterations: out.iterations, criterion, threshold })
    }
}

/// L⁻ᵀ·L⁻¹·b with a lower factor whose diagonal is positive.
fn substitute(l: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let m = l.nrows();
    let mut y = b.clone();
    for i in 0..m {
        let s: f64 = (0..i).map(|k| l[(i, k)] * y[k]).sum();
        y[i] = (y[i] - s) / l[(i, i)];
    }
    for i in (0..m).rev() {
        let s: f64 = (i + 1..m).map(|k| l[(k, i)] * y[k]).sum();
        y[i] = (y[i] - s) / l[(i, i)];
    }
    y
}

/// The double-precision Cholesky factor of the symmetric C, or the first pivot that is not
/// positive.
fn cholesky_f64(c: &DMatrix<f64>) -> Result<DMatrix<f64>, DenseError> {
    let m = c.nrows();
    let mut l = DMatrix::zeros(m, m);
    for j in 0..m {
        let pivot = c[(j, j)] - (0..j).map(|k| l[(j, k)] * l[(j, k)]).sum::<f64>();
        if !(pivot > 0.0 && pivot.is_finite()) {
            return Err(DenseError::NotPositiveDefinite { column: j, pivot });
        }
        let d = pivot.sqrt();
        l[(j, j)] = d;
        for i in j + 1..m {
            l[(i, j)] = (c[(i, j)] - (0..j).map(|k| l[(i, k)] * l[(j, k)]).sum::<f64>()) / d;
        }
    }
    Ok(l)
}

/// C·x = b with the single-precision factor, as the refinement loop sees it (the paper's
/// LINPACK-style test on each iterate, in ∞-norms).
struct Spd<'a> {
    chol: &'a Cholesky,
    c_rows: &'a [f64],
    b: &'a DVector<f64>,
    c_norm: f64,
    b_norm: f64,
}

impl Spd<'_> {
    fn residual(&self, x: &[f64]) -> Vec<f64> {
        let m = self.b.len();
        let cx = crate::cpu::rowmajor::matvec(self.c_rows, m, m, x);
        self.b.iter().zip(&cx).map(|(p, q)| p - q).collect()
    }
}

impl Refinable for Spd<'_> {
    type Error = DenseError;
    fn start(&mut self) -> Result<(Vec<f64>, Vec<f64>), DenseError> {
        let x = substitute(&self.chol.l, self.b).as_slice().to_vec();
        let r = self.residual(&x);
        Ok((x, r))
    }
    fn correct(&mut self, x: &mut [f64], r: &[f64]) -> Result<Vec<f64>, DenseError> {
        let z = substitute(&self.chol.l, &DVector::from_column_slice(r));
        for (xi, zi) in x.iter_mut().zip(z.iter()) {
            *xi += zi;
        }
        Ok(self.residual(x))
    }
    fn criterion(&mut self, x: &[f64], r: &[f64]) -> f64 {
        let inf = |v: &[f64]| v.iter().fold(0.0f64, |m, p| m.max(p.abs()));
        Criterion::BackwardError.value(inf(r), self.c_norm, self.b_norm, inf(x), x.len())
    }
}
