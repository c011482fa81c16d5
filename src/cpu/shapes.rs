//! Operands of a CPU product that do not fit together: the kernels' typed errors (nothing is
//! written when one is returned).

use thiserror::Error;

/// A·diag(w)·Aᵀ's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum GramShapeError {
    /// w needs one weight per column of A.
    #[error("A·diag(w)·Aᵀ: {weights} weights for {columns} columns of A")]
    Weights {
        /// Weights given (the length of w).
        weights: usize,
        /// Columns of A.
        columns: usize,
    },
    /// C must be m×m for an m-row A.
    #[error("A·diag(w)·Aᵀ: C is {rows}×{cols}, A has {m} rows")]
    Output {
        /// Rows of C.
        rows: usize,
        /// Columns of C.
        cols: usize,
        /// Rows of A.
        m: usize,
    },
}

/// The operands of a pass over A's columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PassShapeError {
    /// `what` (y, x, acc or v) has `got` entries where `expected` are needed.
    #[error("column pass: {what} has {got} entries, expected {expected}")]
    Length {
        /// The operand's name.
        what: &'static str,
        /// Entries it needs.
        expected: usize,
        /// Entries it has.
        got: usize,
    },
    /// The columns asked for end at `end`, beyond the matrix's `ncols`.
    #[error("column pass: columns up to {end} asked of a matrix with {ncols}")]
    Columns {
        /// One past the last column asked for (0-based).
        end: usize,
        /// Columns of A.
        ncols: usize,
    },
}
