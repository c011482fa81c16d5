//! Errors of the GPU algorithms.
use crate::gl::GlError;

/// What can stop a GPU algorithm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// The GL layer failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// The factorization met a pivot that is not positive (or not finite) in this column.
    #[error("the matrix is not positive definite: pivot {pivot} in column {column} (0-based)")]
    NotPositiveDefinite {
        /// 0-based column of the pivot.
        column: usize,
        /// The pivot, in single precision.
        pivot: f32,
    },
    /// LU met a column with no non-zero pivot.
    #[error("the matrix is singular: no non-zero pivot in column {column} (0-based)")]
    Singular {
        /// 0-based column.
        column: usize,
    },
    /// An input value is NaN or infinite.
    #[error("{what} holds a non-finite value {value} at row {row}, column {col} (0-based)")]
    NonFinite {
        /// The input (e.g. "A", "the right-hand side").
        what: String,
        /// 0-based row of the value.
        row: usize,
        /// 0-based column of the value (0 for a vector).
        col: usize,
        /// The value (NaN where the layer that found it did not keep it).
        value: f64,
    },
    /// A weight of D² is negative or not finite.
    #[error("d (the diagonal of D²) must be finite and ≥ 0, but d[{index}] = {value}")]
    NegativeWeight {
        /// 0-based index into d.
        index: usize,
        /// The weight.
        value: f64,
    },
    /// An entry of a diagonal added to A·D²·Aᵀ is negative or not finite.
    #[error("the diagonal added to A·D²·Aᵀ must be finite and ≥ 0, but entry {index} = {value}")]
    NegativeDiagonal {
        /// 0-based index into the diagonal.
        index: usize,
        /// The entry.
        value: f64,
    },
    /// A combination this build does not provide.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Shapes that must agree do not.
    #[error("shape mismatch: {0}")]
    Shape(String),
}

pub type GpuResult<T> = Result<T, GpuError>;
