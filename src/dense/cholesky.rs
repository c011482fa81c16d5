//! [`Cholesky`]: the GPU factorization of a symmetric positive definite `DMatrix<f64>`.

use super::{finite_vector, length, DenseError};
use crate::cpu::equilibrate::factors;
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
/// single precision's accuracy: ‖C − L·Lᵀ‖/‖C‖ ≈ 1e-7 for a well-conditioned C, and a solve's
/// relative error grows with κ(C). For double-precision answers from single-precision work use
/// [`crate::linsolve`] (refinement) or factor with faer/nalgebra on the CPU.
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
            return Ok(Self { l: DMatrix::zeros(0, 0) });
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
        Ok(Self { l })
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

    /// Solves C·x = b by forward and back substitution with L (in double precision arithmetic,
    /// with the single-precision factor). Errors: `b` of the wrong length or not finite.
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
}
