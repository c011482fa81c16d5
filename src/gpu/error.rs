//! Errors of the GPU algorithms.
use crate::gl::GlError;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[allow(missing_docs)] // fields and variants named by the messages; each still to be documented
pub enum GpuError {
    #[error(transparent)]
    Gl(#[from] GlError),
    /// The factorization met a pivot that is not positive (or not finite) in this column.
    #[error("the matrix is not positive definite: pivot {pivot} in column {column} (0-based)")]
    NotPositiveDefinite { column: usize, pivot: f32 },
    /// LU met a column with no non-zero pivot.
    #[error("the matrix is singular: no non-zero pivot in column {column} (0-based)")]
    Singular { column: usize },
    /// An input value is NaN or infinite.
    #[error("{what} holds a non-finite value {value} at row {row}, column {col} (0-based)")]
    NonFinite { what: String, row: usize, col: usize, value: f64 },
    /// A weight of D² is negative or not finite.
    #[error("d (the diagonal of D²) must be finite and ≥ 0, but d[{index}] = {value}")]
    NegativeWeight { index: usize, value: f64 },
    /// An entry of a diagonal added to A·D²·Aᵀ is negative or not finite.
    #[error("the diagonal added to A·D²·Aᵀ must be finite and ≥ 0, but entry {index} = {value}")]
    NegativeDiagonal { index: usize, value: f64 },
    /// A combination this build does not provide.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Shapes that must agree do not.
    #[error("shape mismatch: {0}")]
    Shape(String),
}

pub type GpuResult<T> = Result<T, GpuError>;
