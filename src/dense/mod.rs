//! Dense linear algebra with nalgebra at the boundary: `DMatrix<f64>`/`DVector<f64>` in, single
//! precision on the GL pipeline inside, `DMatrix<f64>`/`DVector<f64>` out.
//!
//! * [`Cholesky`]: C = L·Lᵀ on the GPU (the 2006/2008 papers' Algorithm 5), an object that holds
//!   L and solves with it, as nalgebra's and faer's `cholesky()` do;
//! * [`linsolve`]: A·x = b by single-precision LU with partial pivoting on the GPU and
//!   double-precision iterative refinement (the mixed-precision paper), falling back to
//!   double-precision LU when refinement cannot converge;
//! * [`least_squares`]: min Σₖ (wₖ·(bₖ − (A·x)ₖ))² with the usual layout — A has one row per
//!   observation and one column per unknown, w are plain weights (wₖ = 1/σₖ) — by the 2008
//!   structure paper's Algorithm 1 (GPU normal equations, double-precision refinement). The
//!   papers' layout (A transposed, squared weights) stays available as [`crate::lsq::solve`].
//!
//! Every function checks shapes and values first and returns a [`DenseError`] that says which
//! argument, where, and what was found; empty problems (n = 0) have empty answers on every path.

mod cholesky;
mod solve;

pub use cholesky::{Cholesky, CholeskyOptions};
pub use solve::{least_squares, least_squares_with, linsolve, linsolve_with, LeastSquaresSolution, LinearSolution};

use crate::gpu::GpuError;
use crate::lsq::LsqError;
use crate::refine::RefineError;
use nalgebra::{DMatrix, DVector};
use thiserror::Error;

/// What went wrong in a dense solve.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DenseError {
    /// An argument's shape does not fit (`expected` says what it must be).
    #[error("{what} is {rows}×{cols}, but {expected}")]
    Shape {
        /// The argument: "A" or "C".
        what: &'static str,
        /// Its number of rows.
        rows: usize,
        /// Its number of columns.
        cols: usize,
        /// The rule it breaks.
        expected: String,
    },
    /// A vector's length does not fit (`of` says what sets the length it needs).
    #[error("{what} has {got} entries, but it needs {expected} ({of})")]
    Length {
        /// The vector: "b" or "w".
        what: &'static str,
        /// Its number of entries.
        got: usize,
        /// The number it needs.
        expected: usize,
        /// What sets that number (e.g. "one per row of A").
        of: String,
    },
    /// An entry is NaN or infinite (0-based row and column; vectors have column 0).
    #[error("{what}[{row}, {col}] = {value}: entries must be finite")]
    NonFinite {
        /// The argument: "A", "C" or "b".
        what: &'static str,
        /// 0-based row of the entry.
        row: usize,
        /// 0-based column of the entry (0 for a vector).
        col: usize,
        /// The entry (NaN or ±∞).
        value: f64,
    },
    /// A least-squares weight is negative or not finite.
    #[error("weight w[{index}] = {value}: weights must be finite and ≥ 0")]
    Weight {
        /// 0-based index of the weight (the row of A it weighs).
        index: usize,
        /// The weight.
        value: f64,
    },
    /// The single-precision Cholesky factorization met a pivot that is not positive.
    #[error("the matrix is not positive definite (in single precision): pivot {pivot} in column {column}")]
    NotPositiveDefinite {
        /// 0-based column of the pivot.
        column: usize,
        /// The pivot met, in single precision (≤ 0 or not finite).
        pivot: f64,
    },
    /// The system is singular in double precision too (LU found no pivot).
    #[error("the matrix is singular to double precision{}", column.map(|c| format!(" (no pivot in column {c})")).unwrap_or_default())]
    Singular {
        /// 0-based column where the single-precision LU found no pivot, if it stopped at one
        /// (`None`: it finished, and the solve fell back to double precision for another reason).
        column: Option<usize>,
    },
    /// The weighted normal equations are singular in double precision: the columns of the
    /// design matrix are dependent on the observations with non-zero weight (or there are fewer
    /// such observations than unknowns). The minimizer is not unique; none is returned.
    #[error("the design matrix is rank deficient: AᵀW²A is singular in double precision")]
    RankDeficient,
    /// The GL pipeline failed (no driver, a texture too large, a shader, a lost context).
    #[error(transparent)]
    Gpu(GpuError),
}

impl From<GpuError> for DenseError {
    fn from(e: GpuError) -> Self {
        match e {
            GpuError::NotPositiveDefinite { column, pivot } => {
                DenseError::NotPositiveDefinite { column, pivot: f64::from(pivot) }
            }
            other => DenseError::Gpu(other),
        }
    }
}

impl From<LsqError> for DenseError {
    fn from(e: LsqError) -> Self {
        match e {
            LsqError::Singular => DenseError::RankDeficient,
            LsqError::Gpu(g) => g.into(),
            LsqError::NegativeWeight { index, value } => DenseError::Weight { index, value },
            // Checked before the call; kept typed should the layers below ever disagree.
            LsqError::NonFinite { what, index } => {
                DenseError::Gpu(GpuError::NonFinite { what: what.into(), row: index, col: 0, value: f64::NAN })
            }
            LsqError::Shape(s) => DenseError::Gpu(GpuError::Shape(s)),
        }
    }
}

impl From<RefineError> for DenseError {
    fn from(e: RefineError) -> Self {
        match e {
            RefineError::Singular { column } => DenseError::Singular { column },
            RefineError::Gpu(g) => g.into(),
            RefineError::NonFinite { what, row, col } => {
                DenseError::Gpu(GpuError::NonFinite { what: what.into(), row, col, value: f64::NAN })
            }
            RefineError::Shape(s) => DenseError::Gpu(GpuError::Shape(s)),
        }
    }
}

/// The first non-finite entry of `m` (column-major scan), as an error about `what`.
fn finite(what: &'static str, m: &DMatrix<f64>) -> Result<(), DenseError> {
    for (col, c) in m.column_iter().enumerate() {
        if let Some((row, &value)) = c.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(DenseError::NonFinite { what, row, col, value });
        }
    }
    Ok(())
}

/// The first non-finite entry of `v`.
fn finite_vector(what: &'static str, v: &DVector<f64>) -> Result<(), DenseError> {
    match v.iter().enumerate().find(|(_, x)| !x.is_finite()) {
        Some((row, &value)) => Err(DenseError::NonFinite { what, row, col: 0, value }),
        None => Ok(()),
    }
}

/// `v` must have `n` entries.
fn length(what: &'static str, v: &DVector<f64>, n: usize, of: &str) -> Result<(), DenseError> {
    if v.len() == n {
        return Ok(());
    }
    Err(DenseError::Length { what, got: v.len(), expected: n, of: of.to_string() })
}
