//! [`linsolve`] and [`least_squares`]: the mixed-precision solvers on nalgebra data.

use super::{finite, finite_vector, length, DenseError};
use crate::cpu::equilibrate::factors;
use crate::gl::Gpu;
use crate::lsq::{self, LsqSettings};
use crate::refine::{self, RefineSettings};
use nalgebra::{DMatrix, DVector};

/// The answer of [`linsolve`].
#[derive(Clone, Debug)]
pub struct LinearSolution {
    /// x with A·x ≈ b to double precision (backward-error bound ≤ the threshold).
    pub x: DVector<f64>,
    /// [`refine::Method::Mixed`] (single-precision LU refined, and the bound met), or the
    /// double-precision LU fallback with its reason.
    pub method: refine::Method,
    /// Refinement steps taken.
    pub iterations: usize,
    /// A proven bound on x's normwise backward error in LINPACK's units:
    /// (‖b − A·x‖∞ + γ_{n+1}·‖|b| + |A|·|x|‖∞) / (‖A‖∞·‖x‖∞·n·ε), ε = 2⁻⁵² — the computed
    /// residual plus its own rounding bound (0 for an empty system).
    pub criterion: f64,
    /// The bound `criterion` had to meet for the mixed answer to be returned (16, HPL's).
    pub threshold: f64,
}

/// Solves the square system A·x = b: LU with partial pivoting in single precision on the GPU,
/// refined in double precision until the paper's convergence test passes, and returned when a
/// proven bound on its normwise backward error ([`LinearSolution::criterion`], the LINPACK
/// criterion plus the residual's own rounding) is ≤ 16 (HPL's threshold); when refinement
/// cannot get there (κ(A) beyond ~1/u₃₂) a double-precision LU on the CPU answers and
/// [`LinearSolution::method`] says so.
///
/// ```
/// use glsolve::{linsolve, Gpu};
/// use nalgebra::{dmatrix, dvector};
/// let gpu = Gpu::headless()?;
/// let a = dmatrix![2.0, 1.0, 0.0; 1.0, 3.0, 1.0; 0.0, 1.0, 4.0];
/// let x_true = dvector![1.0, -2.0, 3.0];
/// let s = linsolve(&gpu, &a, &(&a * &x_true))?;
/// assert!((s.x - x_true).amax() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn linsolve(gpu: &Gpu, a: &DMatrix<f64>, b: &DVector<f64>) -> Result<LinearSolution, DenseError> {
    linsolve_with(gpu, a, b, &RefineSettings::default())
}

/// [`linsolve`] with explicit refinement settings.
pub fn linsolve_with(
    gpu: &Gpu,
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    settings: &RefineSettings,
) -> Result<LinearSolution, DenseError> {
    let (rows, cols) = a.shape();
    if rows != cols {
        return Err(DenseError::Shape { what: "A", rows, cols, expected: "A·x = b needs a square A".into() });
    }
    length("b", b, rows, "one per row of A")?;
    let n = rows;
    if n == 0 {
        return Ok(LinearSolution {
            x: DVector::zeros(0),
            method: refine::Method::Mixed,
            iterations: 0,
            criterion: 0.0,
            threshold: settings.threshold,
        });
    }
    // The GPU's limit first: an n it cannot hold is refused before A is read.
    refine::check_sizes(gpu, n, settings)?;
    finite("A", a)?;
    finite_vector("b", b)?;
    // nalgebra stores columns; the transpose's column-major data is A row-major.
    let a_rows = a.transpose();
    let s = refine::linsolve(gpu, a_rows.as_slice(), n, b.as_slice(), settings)?;
    let criterion = s.criterion();
    Ok(LinearSolution {
        x: DVector::from_vec(s.x),
        method: s.method,
        iterations: s.iterations,
        criterion,
        threshold: s.threshold,
    })
}

/// The answer of [`least_squares`].
#[derive(Clone, Debug)]
pub struct LeastSquaresSolution {
    /// The coefficients, one per column of A.
    pub x: DVector<f64>,
    /// [`lsq::Method::Mixed`] (single-precision normal equations refined, and the check
    /// passed), or [`lsq::Method::DoubleFallback`] (double-precision Householder QR) with why.
    pub method: lsq::Method,
    /// Refinement steps taken.
    pub iterations: usize,
    /// The residual b − A·x (unweighted), one per observation.
    pub residual: DVector<f64>,
    /// The double-precision check of x: its forward-error bound ‖x − x*‖∞/‖x‖∞ and the
    /// threshold the mixed answer had to meet, a proven backward-error bound, the refinement's
    /// contraction (the least-squares check says how each is computed).
    pub accuracy: lsq::Accuracy,
}

/// Weighted least squares: the x minimizing Σₖ (wₖ·(bₖ − (A·x)ₖ))², with A one row per
/// observation and one column per unknown (the usual design matrix), b the observations and w
/// plain weights (`None`: all 1; wₖ = 1/σₖ for measurements of standard deviation σₖ). Solved by
/// the normal equations AᵀW²A·x = AᵀW²b assembled and factored in single precision on the GPU,
/// refined in double precision to ‖r‖/‖x‖ ≤ 1e-8, after powers of two have brought the weights,
/// the unknowns and b into single precision's range (undone exactly). The answer is then
/// checked in double precision: its forward-error bound ‖x − x*‖∞/‖x‖∞, from the normal
/// equations' residual with every rounding accounted for, must be at most
/// the settings' accuracy (1e-8). Otherwise — the single-precision normal equations cannot
/// resolve a design whose κ² has outgrown single precision — the problem is solved by
/// Householder QR in double precision on the CPU, and [`LeastSquaresSolution::method`] says so
/// with the reason; [`LeastSquaresSolution::accuracy`] holds the measures either way.
///
/// A rank-deficient design (dependent columns on the observations of non-zero weight, or fewer
/// such observations than unknowns) is [`DenseError::RankDeficient`]: the minimizer is then not
/// unique, and no minimum-norm solution is returned in its place. A design that single
/// precision cannot tell from a rank-deficient one is decided in double precision.
///
/// ```
/// use glsolve::{least_squares, Gpu};
/// use nalgebra::{dmatrix, dvector};
/// let gpu = Gpu::headless()?;
/// // y = 1 + 2t through four points: columns 1 and t.
/// let a = dmatrix![1.0, 0.0; 1.0, 1.0; 1.0, 2.0; 1.0, 3.0];
/// let fit = least_squares(&gpu, &a, &dvector![1.0, 3.0, 5.0, 7.0], None)?;
/// assert!((fit.x[0] - 1.0).abs() < 1e-10 && (fit.x[1] - 2.0).abs() < 1e-10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn least_squares(
    gpu: &Gpu,
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    weights: Option<&DVector<f64>>,
) -> Result<LeastSquaresSolution, DenseError> {
    least_squares_with(gpu, a, b, weights, &LsqSettings::default())
}

/// [`least_squares`] with explicit settings (tolerance, iterations, storage format).
pub fn least_squares_with(
    gpu: &Gpu,
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    weights: Option<&DVector<f64>>,
    settings: &LsqSettings,
) -> Result<LeastSquaresSolution, DenseError> {
    let (observations, unknowns) = a.shape();
    length("b", b, observations, "one per row (observation) of A")?;
    finite("A", a)?;
    finite_vector("b", b)?;
    let w = match weights {
        Some(w) => {
            length("w", w, observations, "one weight per row (observation) of A")?;
            if let Some((index, &value)) = w.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
                return Err(DenseError::Weight { index, value });
            }
            w.clone()
        }
        None => DVector::from_element(observations, 1.0),
    };
    if unknowns == 0 {
        return Ok(LeastSquaresSolution {
            x: DVector::zeros(0),
            method: lsq::Method::Mixed,
            iterations: 0,
            residual: b.clone(),
            accuracy: lsq::Accuracy {
                forward_error: 0.0,
                threshold: settings.accuracy,
                backward_error: 0.0,
                contraction: 0.0,
            },
        });
    }
    if observations == 0 {
        return Err(DenseError::RankDeficient);
    }
    // The papers' layout is A transposed (unknowns × observations, row-major): exactly the
    // column-major data of the observations × unknowns matrix. D² = W², after one power of two
    // for all weights where they are out of range (the minimizer does not change; 1e200
    // squared is no longer a number).
    let f = factors(&[w.amax()])[0];
    let d2: Vec<f64> = w.iter().map(|v| (v * f) * (v * f)).collect();
    let s = lsq::solve(gpu, a.as_slice(), unknowns, observations, &d2, b.as_slice(), settings)?;
    let x = DVector::from_vec(s.x);
    let residual = b - a * &x;
    Ok(LeastSquaresSolution { x, method: s.method, iterations: s.iterations, residual, accuracy: s.accuracy })
}
