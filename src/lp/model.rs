//! The LP as the user wrote it (before standard form): row-bounded form
//! `min/max cᵀx + c₀  s.t.  row_lower ≤ A·x ≤ row_upper,  col_lower ≤ x ≤ col_upper`.
//!
//! Infinite bounds are `f64::INFINITY` / `f64::NEG_INFINITY`. An equality row has
//! `row_lower == row_upper`. This is what the MPS reader produces and what every
//! answer is mapped back to and verified on.
//!
//! Sizes come from the matrix `a`: `a.nrows` rows, `a.ncols` columns; every vector must match
//! them, and names are optional (empty lists get generated names). [`LpModel::validate`] checks
//! all of it, and every solve runs it first. Build models with [`LpModel::new`] or
//! [`LpModel::builder`] (see [`crate::lp::builder`]), or read them with [`crate::lp::mps`].

use nalgebra::DMatrix;
use std::borrow::Cow;
use thiserror::Error;

/// A malformed model: which field, where, and the offending value or length.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A vector's length does not match the matrix (`of` is "rows" or "columns").
    #[error("{field} has {found} entries, but A has {expected} {of}")]
    Length {
        /// The model's field (e.g. "c", "row_lower").
        field: &'static str,
        /// Its number of entries.
        found: usize,
        /// The number of rows or columns of A.
        expected: usize,
        /// "rows" or "columns".
        of: &'static str,
    },
    /// A list that may be empty (names, integer marks) has neither zero nor one entry per row/column.
    #[error("{field} has {found} entries, but A has {expected} {of} (give one per {of_one}, or none)")]
    OptionalLength {
        /// The model's field ("row_names", "col_names" or "integer").
        field: &'static str,
        /// Its number of entries.
        found: usize,
        /// The number of rows or columns of A.
        expected: usize,
        /// "rows" or "columns".
        of: &'static str,
        /// "row" or "column".
        of_one: &'static str,
    },
    /// `a.col_ptr` does not have `ncols + 1` entries.
    #[error("A.col_ptr has {found} entries, but A has {ncols} columns (it needs ncols + 1 = {})", ncols + 1)]
    ColumnPointerLength {
        /// Entries of `a.col_ptr`.
        found: usize,
        /// Columns of A.
        ncols: usize,
    },
    /// `a.col_ptr[index]` breaks the rules (first 0, non-decreasing, last = number of entries).
    #[error("A.col_ptr[{index}] = {value}: {rule}")]
    ColumnPointer {
        /// 0-based index into `a.col_ptr`.
        index: usize,
        /// The pointer there.
        value: usize,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// `a.row_idx` and `a.values` differ in length.
    #[error("A.row_idx has {row_idx} entries but A.values has {values}")]
    EntryArrays {
        /// Entries of `a.row_idx`.
        row_idx: usize,
        /// Entries of `a.values`.
        values: usize,
    },
    /// A row index of column `col` (its `position`-th entry) is past the last row.
    #[error("A: entry {position} of column {col} has row index {row}, but A has {nrows} rows")]
    RowIndex {
        /// 0-based column.
        col: usize,
        /// 0-based position of the entry within its column.
        position: usize,
        /// The 0-based row index given.
        row: usize,
        /// Rows of A.
        nrows: usize,
    },
    /// Row indices within a column must increase strictly (sorted, no duplicates).
    #[error("A: column {col} lists row {row} after row {previous} (rows must increase within a column)")]
    RowOrder {
        /// 0-based column.
        col: usize,
        /// The 0-based row index out of order.
        row: usize,
        /// The row index before it in the column.
        previous: usize,
    },
    /// A triplet given to [`SparseColMatrix::from_triplets`] lies outside the matrix.
    #[error("triplet {position} is at ({row}, {col}), outside the {nrows}×{ncols} matrix")]
    TripletOutOfRange {
        /// 0-based position of the triplet in the list given.
        position: usize,
        /// Its 0-based row.
        row: usize,
        /// Its 0-based column.
        col: usize,
        /// Rows of the matrix.
        nrows: usize,
        /// Columns of the matrix.
        ncols: usize,
    },
    /// An entry of A is NaN or infinite.
    #[error("A[{row}, {col}] = {value}: matrix entries must be finite")]
    MatrixEntry {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The entry (NaN or ±∞).
        value: f64,
    },
    /// A NaN in a vector of the model.
    #[error("{field}[{index}] is NaN")]
    NotANumber {
        /// The model's field (e.g. "c", "row_lower").
        field: &'static str,
        /// 0-based index into it.
        index: usize,
    },
    /// An infinity where it has no meaning (a cost).
    #[error("{field}[{index}] = {value}: {rule}")]
    Infinite {
        /// The model's field (e.g. "c", "row_lower").
        field: &'static str,
        /// 0-based index into it.
        index: usize,
        /// The value (±∞).
        value: f64,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// The objective constant is NaN or infinite.
    #[error("obj_constant = {0}: the objective constant must be finite")]
    ObjectiveConstant(f64),
    /// A builder was finished without a part the model cannot do without.
    #[error("the model has no {0}: set it on the builder before build()")]
    Missing(&'static str),
}

/// Direction of optimization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum Sense {
    #[default]
    /// Minimize cᵀx (the default).
    Minimize,
    /// Maximize cᵀx.
    Maximize,
}

/// A sparse matrix in compressed-column form (entries sorted by row within a column, no duplicates).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SparseColMatrix {
    /// Number of rows.
    pub nrows: usize,
    /// Number of columns.
    pub ncols: usize,
    /// `col_ptr[j]..col_ptr[j+1]` indexes the entries of column `j`; length `ncols + 1`.
    pub col_ptr: Vec<usize>,
    /// The row of each entry, sorted within a column.
    pub row_idx: Vec<usize>,
    /// The value of each entry.
    pub values: Vec<f64>,
}

impl SparseColMatrix {
    /// An empty `nrows × 0` matrix.
    pub fn new(nrows: usize) -> Self {
        Self { nrows, ncols: 0, col_ptr: vec![0], row_idx: Vec::new(), values: Vec::new() }
    }

    /// Builds from `(row, col, value)` triplets; duplicate positions are summed. A triplet outside
    /// `nrows × ncols` or with a value that is not finite is an error naming the triplet.
    ///
    /// ```
    /// use glsolve::lp::{ModelError, SparseColMatrix};
    /// let a = SparseColMatrix::from_triplets(2, 2, &[(0, 0, 1.0), (1, 1, 2.0), (1, 1, 0.5)])?;
    /// assert_eq!(a.nnz(), 2);
    /// let bad = SparseColMatrix::from_triplets(2, 2, &[(0, 5, 1.0)]);
    /// assert!(matches!(bad, Err(ModelError::TripletOutOfRange { position: 0, row: 0, col: 5, .. })));
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn from_triplets(nrows: usize, ncols: usize, triplets: &[(usize, usize, f64)]) -> Result<Self, ModelError> {
        for (position, &(row, col, value)) in triplets.iter().enumerate() {
            if row >= nrows || col >= ncols {
                return Err(ModelError::TripletOutOfRange { position, row, col, nrows, ncols });
            }
            if !value.is_finite() {
                return Err(ModelError::MatrixEntry { row, col, value });
            }
        }
        let mut t: Vec<(usize, usize, f64)> = triplets.to_vec();
        t.sort_by_key(|a| (a.1, a.0));
        let mut col_ptr = vec![0usize; ncols + 1];
        let mut row_idx = Vec::with_capacity(t.len());
        let mut values: Vec<f64> = Vec::with_capacity(t.len());
        let mut last: Option<(usize, usize)> = None;
        for &(i, j, v) in &t {
            match values.last_mut() {
                Some(prev) if last == Some((i, j)) => *prev += v,
                _ => {
                    row_idx.push(i);
                    values.push(v);
                    col_ptr[j + 1] += 1;
                    last = Some((i, j));
                }
            }
        }
        for j in 0..ncols {
            col_ptr[j + 1] += col_ptr[j];
        }
        Ok(Self { nrows, ncols, col_ptr, row_idx, values })
    }

    /// The non-zero entries of a dense matrix (nalgebra), column by column.
    pub fn from_dense(a: &DMatrix<f64>) -> Self {
        let (nrows, ncols) = a.shape();
        let mut col_ptr = Vec::with_capacity(ncols + 1);
        let (mut row_idx, mut values) = (Vec::new(), Vec::new());
        col_ptr.push(0);
        for col in a.column_iter() {
            for (i, &v) in col.iter().enumerate() {
                // NaN is kept (v != 0.0 holds for it), so that validation can name it.
                if v != 0.0 {
                    row_idx.push(i);
                    values.push(v);
                }
            }
            col_ptr.push(values.len());
        }
        Self { nrows, ncols, col_ptr, row_idx, values }
    }

    /// A dense copy (nalgebra). Entries outside the matrix (a malformed hand-built matrix) are
    /// skipped; [`SparseColMatrix::validate`] reports them.
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut d = DMatrix::zeros(self.nrows, self.ncols);
        for j in 0..self.ncols {
            for (i, v) in self.col(j) {
                if let Some(e) = d.get_mut((i, j)) {
                    *e += v;
                }
            }
        }
        d
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }

    internal_fn! {
        /// The matrix as borrowed compressed columns, for the CPU's products.
        fn csc(&self) -> crate::cpu::products::Csc<'_> {
            crate::cpu::products::Csc {
                nrows: self.nrows,
                ncols: self.ncols,
                col_ptr: &self.col_ptr,
                row_idx: &self.row_idx,
                values: &self.values,
            }
        }
    }

    /// The `(row, value)` entries of column `j` (none for a column outside the matrix or one
    /// whose pointers are malformed; [`SparseColMatrix::validate`] reports those).
    pub fn col(&self, j: usize) -> impl Iterator<Item = (usize, f64)> + Clone + '_ {
        let start = self.col_ptr.get(j).copied().unwrap_or(0);
        let end = self.col_ptr.get(j + 1).copied().unwrap_or(start).max(start);
        let rows = self.row_idx.get(start..end).unwrap_or(&[]);
        let vals = self.values.get(start..end).unwrap_or(&[]);
        rows.iter().copied().zip(vals.iter().copied())
    }

    /// Dense row-major copy (`nrows × ncols`).
    pub fn to_dense_row_major(&self) -> Vec<f64> {
        let mut d = vec![0.0; self.nrows * self.ncols];
        for j in 0..self.ncols {
            for (i, v) in self.col(j) {
                if i < self.nrows {
                    d[i * self.ncols + j] = v;
                }
            }
        }
        d
    }
}

/// A linear program in row-bounded form, as read from a file or built in code.
#[derive(Clone, Debug, Default)]
pub struct LpModel {
    /// The model's name (MPS: the NAME line), or empty.
    pub name: String,
    /// Minimize or maximize.
    pub sense: Sense,
    /// Name of the objective row (MPS: the first N row).
    pub objective_name: String,
    /// Objective coefficients, one per column, in the model's own sense.
    pub c: Vec<f64>,
    /// Constant added to the objective: objective = cᵀx + obj_constant.
    pub obj_constant: f64,
    /// One name per row, or none (then rows are called `R0`, `R1`, …; see [`LpModel::row_name`]).
    pub row_names: Vec<String>,
    /// One name per column, or none (then `C0`, `C1`, …).
    pub col_names: Vec<String>,
    /// Constraint matrix; its `nrows × ncols` are the model's sizes.
    pub a: SparseColMatrix,
    /// Lower bound of each row's activity aᵢᵀx (`-∞`: none).
    pub row_lower: Vec<f64>,
    /// Upper bound of each row's activity (`+∞`: none).
    pub row_upper: Vec<f64>,
    /// Lower bound of each column (`-∞`: free below).
    pub col_lower: Vec<f64>,
    /// Upper bound of each column (`+∞`: none).
    pub col_upper: Vec<f64>,
    /// Columns marked integer in the file (relaxed to continuous by the LP solver); one per
    /// column, or none.
    pub integer: Vec<bool>,
    /// Non-fatal findings of the reader (relaxed integers, ignored N rows, ...), kept for the log.
    pub warnings: Vec<String>,
}

impl LpModel {
    /// Number of rows (constraints): `a.nrows`.
    pub fn num_rows(&self) -> usize {
        self.a.nrows
    }
    /// Number of columns (variables): `a.ncols`.
    pub fn num_cols(&self) -> usize {
        self.a.ncols
    }
    /// The name of row `i`: its entry in `row_names`, or `R{i}` when there is none.
    pub fn row_name(&self, i: usize) -> Cow<'_, str> {
        match self.row_names.get(i) {
            Some(n) => Cow::Borrowed(n.as_str()),
            None => Cow::Owned(format!("R{i}")),
        }
    }
    /// The name of column `j`: its entry in `col_names`, or `C{j}` when there is none.
    pub fn col_name(&self, j: usize) -> Cow<'_, str> {
        match self.col_names.get(j) {
            Some(n) => Cow::Borrowed(n.as_str()),
            None => Cow::Owned(format!("C{j}")),
        }
    }
}
