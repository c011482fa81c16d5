//! The LP as the user wrote it (before standard form): row-bounded form
//! `min/max cᵀx + c₀  s.t.  row_lower ≤ A·x ≤ row_upper,  col_lower ≤ x ≤ col_upper`.
//!
//! Infinite bounds are `f64::INFINITY` / `f64::NEG_INFINITY`. An equality row has
//! `row_lower == row_upper`. This is what the MPS reader produces and what every
//! answer is mapped back to and verified on.

/// Direction of optimization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum Sense {
    #[default]
    Minimize,
    Maximize,
}

/// A sparse matrix in compressed-column form (entries sorted by row within a column, no duplicates).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SparseColMatrix {
    pub nrows: usize,
    pub ncols: usize,
    /// `col_ptr[j]..col_ptr[j+1]` indexes the entries of column `j`; length `ncols + 1`.
    pub col_ptr: Vec<usize>,
    pub row_idx: Vec<usize>,
    pub values: Vec<f64>,
}

impl SparseColMatrix {
    /// An empty `nrows × 0` matrix.
    pub fn new(nrows: usize) -> Self {
        Self { nrows, ncols: 0, col_ptr: vec![0], row_idx: Vec::new(), values: Vec::new() }
    }

    /// Builds from `(row, col, value)` triplets; duplicate positions are summed.
    pub fn from_triplets(nrows: usize, ncols: usize, triplets: &[(usize, usize, f64)]) -> Self {
        let mut t: Vec<(usize, usize, f64)> = triplets.to_vec();
        t.sort_by_key(|a| (a.1, a.0));
        let mut col_ptr = vec![0usize; ncols + 1];
        let mut row_idx = Vec::with_capacity(t.len());
        let mut values: Vec<f64> = Vec::with_capacity(t.len());
        let mut last: Option<(usize, usize)> = None;
        for &(i, j, v) in &t {
            assert!(i < nrows && j < ncols, "triplet ({i}, {j}) outside {nrows}×{ncols}");
            if last == Some((i, j)) {
                *values.last_mut().expect("an entry exists") += v;
            } else {
                row_idx.push(i);
                values.push(v);
                col_ptr[j + 1] += 1;
                last = Some((i, j));
            }
        }
        for j in 0..ncols {
            col_ptr[j + 1] += col_ptr[j];
        }
        Self { nrows, ncols, col_ptr, row_idx, values }
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }

    /// The `(row, value)` entries of column `j`.
    pub fn col(&self, j: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let r = self.col_ptr[j]..self.col_ptr[j + 1];
        self.row_idx[r.clone()].iter().copied().zip(self.values[r].iter().copied())
    }

    /// Dense row-major copy (`nrows × ncols`).
    pub fn to_dense_row_major(&self) -> Vec<f64> {
        let mut d = vec![0.0; self.nrows * self.ncols];
        for j in 0..self.ncols {
            for (i, v) in self.col(j) {
                d[i * self.ncols + j] = v;
            }
        }
        d
    }
}

/// A linear program in row-bounded form, as read from a file or built in code.
#[derive(Clone, Debug, Default)]
pub struct LpModel {
    pub name: String,
    pub sense: Sense,
    /// Name of the objective row (MPS: the first N row).
    pub objective_name: String,
    /// Objective coefficients, one per column, in the model's own sense.
    pub c: Vec<f64>,
    /// Constant added to the objective: objective = cᵀx + obj_constant.
    pub obj_constant: f64,
    pub row_names: Vec<String>,
    pub col_names: Vec<String>,
    /// Constraint matrix, `row_names.len() × col_names.len()`.
    pub a: SparseColMatrix,
    pub row_lower: Vec<f64>,
    pub row_upper: Vec<f64>,
    pub col_lower: Vec<f64>,
    pub col_upper: Vec<f64>,
    /// Columns marked integer in the file (relaxed to continuous by the LP solver).
    pub integer: Vec<bool>,
    /// Non-fatal findings of the reader (relaxed integers, ignored N rows, ...), kept for the log.
    pub warnings: Vec<String>,
}

impl LpModel {
    pub fn num_rows(&self) -> usize {
        self.row_names.len()
    }
    pub fn num_cols(&self) -> usize {
        self.col_names.len()
    }
}
