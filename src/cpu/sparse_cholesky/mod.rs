//! Sparse Cholesky of a symmetric matrix given by the pattern and values of its lower triangle:
//! an AMD fill-reducing ordering and faer's supernodal factorization, analysed once for a
//! pattern and then factored for any values on it, with the tiny-pivot rule of the dense
//! [`super::cholesky`] (a pivot ≤ `tiny`, or negative, is replaced by `huge`; no deflation),
//! as an L·D·Lᵀ factorization.
//!
//! The normal equations of an LP whose A is sparse keep their pattern from one iteration to the
//! next, so the ordering, the elimination tree and the supernodes are computed once; each
//! iteration permutes the values into place (a precomputed map) and factors.

use super::cholesky::PivotBreakdown;
use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::cholesky::ldlt::factor::{LdltError, LdltRegularization};
use faer::sparse::linalg::cholesky::{
    factorize_symbolic_cholesky, simplicial, supernodal, CholeskySymbolicParams, LdltRef, SymbolicCholesky,
    SymbolicCholeskyRaw, SymmetricOrdering,
};
use faer::sparse::linalg::SupernodalThreshold;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, Par, Side};

mod half_solve;

/// Why a pattern cannot be analysed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PatternError {
    /// `col_ptr` does not have n + 1 entries.
    #[error("column pointers: expected {expected} entries (n + 1), got {got}")]
    ColumnPointers {
        /// n + 1.
        expected: usize,
        /// Entries of `col_ptr`.
        got: usize,
    },
    /// A column's pointers do not start at 0, end at the number of row indices, or enclose at
    /// least one entry (the diagonal).
    #[error("column {column}: pointers decrease or run past the {len} row indices")]
    Pointer {
        /// 0-based column (n for the last pointer).
        column: usize,
        /// Entries of `row_idx`.
        len: usize,
    },
    /// A row index is n or more.
    #[error("column {column}: row {row} is not in the lower triangle of a {n}×{n} matrix")]
    Row {
        /// 0-based column.
        column: usize,
        /// The 0-based row index.
        row: usize,
        /// The matrix's order.
        n: usize,
    },
    /// A column does not start at its diagonal, or its rows do not increase strictly.
    #[error("column {column}: rows are not strictly increasing from the diagonal (row {row})")]
    Order {
        /// 0-based column.
        column: usize,
        /// The 0-based row index out of order.
        row: usize,
    },
    /// A vector of values has the wrong length.
    #[error("values: expected {expected} (the pattern's entries), got {got}")]
    Values {
        /// Entries needed (the pattern's entries, or n for a right-hand side).
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// faer's symbolic analysis failed (its message, or memory).
    #[error("the symbolic factorization failed: {0}")]
    Symbolic(String),
}

/// The lower triangle's pattern in compressed columns: column j's rows are
/// `row_idx[col_ptr[j]..col_ptr[j+1]]`, strictly increasing, the first being j itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LowerPattern {
    pub n: usize,
    pub col_ptr: Vec<usize>,
    pub row_idx: Vec<usize>,
}

impl LowerPattern {
    /// Checks the invariants above.
    pub fn validate(&self) -> Result<(), PatternError> {
        let n = self.n;
        if self.col_ptr.len() != n + 1 {
            return Err(PatternError::ColumnPointers { expected: n + 1, got: self.col_ptr.len() });
        }
        let len = self.row_idx.len();
        if self.col_ptr[0] != 0 || self.col_ptr[n] != len {
            return Err(PatternError::Pointer { column: if self.col_ptr[0] != 0 { 0 } else { n }, len });
        }
        for j in 0..n {
            let (s, e) = (self.col_ptr[j], self.col_ptr[j + 1]);
            if s >= e || e > len {
                // Every column holds at least its diagonal.
                return Err(PatternError::Pointer { column: j, len });
            }
            let rows = &self.row_idx[s..e];
            if rows[0] != j {
                return Err(PatternError::Order { column: j, row: rows[0] });
            }
            for w in rows.windows(2) {
                if w[1] <= w[0] {
                    return Err(PatternError::Order { column: j, row: w[1] });
                }
            }
            if let Some(&row) = rows.last().filter(|&&r| r >= n) {
                return Err(PatternError::Row { column: j, row, n });
            }
        }
        Ok(())
    }

    /// Entries of the triangle.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }
}

/// A pattern's ordering and supernodes, and the factor of the last values on it.
pub struct SparseCholesky {
    n: usize,
    symbolic: SymbolicCholesky<usize>,
    /// The lower triangle of P·M·Pᵀ: pointers, rows, and the position there of each entry of
    /// the input pattern.
    perm_col_ptr: Vec<usize>,
    perm_row_idx: Vec<usize>,
    map: Vec<usize>,
    perm_values: Vec<f64>,
    l: Vec<f64>,
    mem: MemBuffer,
    par: Par,
    /// +1 per pivot: the regularization's expected signs.
    signs: Vec<i8>,
    factored: bool,
    flops: f64,
}

impl SparseCholesky {
    /// Orders and analyses `pattern` (validated first).
    pub fn analyze(pattern: &LowerPattern, par: Par) -> Result<Self, PatternError> {
        pattern.validate()?;
        let n = pattern.n;
        let lower = SymbolicSparseColMatRef::new_checked(n, n, &pattern.col_ptr, None, &pattern.row_idx);
        let params = CholeskySymbolicParams {
            // Supernodes (dense diagonal blocks) whatever the fill; faer still keeps the
            // simplicial structure where its flop count is zero (a diagonal matrix).
            supernodal_flop_ratio_threshold: SupernodalThreshold::FORCE_SUPERNODAL,
            ..Default::default()
        };
        let symbolic = factorize_symbolic_cholesky(lower, Side::Lower, SymmetricOrdering::Amd, params)
            .map_err(|e| PatternError::Symbolic(format!("{e:?}")))?;
        // Multiply-adds of the factorization: Σ over L's columns of (entries)²/2.
        let flops = match symbolic.raw() {
            SymbolicCholeskyRaw::Supernodal(raw) => (0..raw.n_supernodes())
                .map(|s| {
                    // w columns of height h, h − t entries in the t-th.
                    let w = raw.supernode_end()[s] - raw.supernode_begin()[s];
                    let h = w + raw.supernode(s).pattern().len();
                    (0..w).map(|t| ((h - t) as f64).powi(2)).sum::<f64>() / 2.0
                })
                .sum(),
            SymbolicCholeskyRaw::Simplicial(raw) => {
                raw.col_ptr().windows(2).map(|w| ((w[1] - w[0]) as f64).powi(2) / 2.0).sum()
            }
        };
        // The supernodal factorization reads the lower triangle, the simplicial the upper.
        let upper = matches!(symbolic.raw(), SymbolicCholeskyRaw::Simplicial(_));
        let inv: Vec<usize> = match symbolic.perm() {
            Some(p) => p.arrays().1.to_vec(),
            None => (0..n).collect(),
        };
        // The permuted triangle by counting: entry (i, j) goes to (row, column) = (max, min) of
        // (inv i, inv j) in the lower triangle, (min, max) in the upper.
        let place = |p: usize, j: usize| {
            let (a, b) = (inv[pattern.row_idx[p]], inv[j]);
            if upper {
                (a.min(b), a.max(b))
            } else {
                (a.max(b), a.min(b))
            }
        };
        let mut perm_col_ptr = vec![0usize; n + 1];
        for j in 0..n {
            for p in pattern.col_ptr[j]..pattern.col_ptr[j + 1] {
                perm_col_ptr[place(p, j).1 + 1] += 1;
            }
        }
        for j in 0..n {
            perm_col_ptr[j + 1] += perm_col_ptr[j];
        }
        let mut next = perm_col_ptr.clone();
        let nnz = pattern.nnz();
        let mut perm_row_idx = vec![0usize; nnz];
        let mut map = vec![0usize; nnz];
        for j in 0..n {
            let entries = pattern.col_ptr[j]..pattern.col_ptr[j + 1];
            for (p, slot) in entries.clone().zip(&mut map[entries]) {
                let (r, c) = place(p, j);
                perm_row_idx[next[c]] = r;
                *slot = next[c];
                next[c] += 1;
            }
        }
        let factor_req = match symbolic.raw() {
            SymbolicCholeskyRaw::Supernodal(raw) => {
                supernodal::factorize_supernodal_numeric_ldlt_scratch::<usize, f64>(raw, par, Default::default())
            }
            SymbolicCholeskyRaw::Simplicial(_) => {
                simplicial::factorize_simplicial_numeric_ldlt_scratch::<usize, f64>(n)
            }
        };
        let req = StackReq::any_of(&[factor_req, symbolic.solve_in_place_scratch::<f64>(1, par)]);
        let mem = MemBuffer::try_new(req).map_err(|_| PatternError::Symbolic("out of memory".into()))?;
        let l = vec![0.0; symbolic.len_val()];
        Ok(Self {
            n,
            symbolic,
            perm_col_ptr,
            perm_row_idx,
            map,
            perm_values: vec![0.0; nnz],
            l,
            mem,
            par,
            signs: vec![1; n],
            factored: false,
            flops,
        })
    }

    /// Dimension.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Multiply-adds of one factorization.
    pub fn multiply_adds(&self) -> f64 {
        self.flops
    }

    /// Entries of the factor L.
    pub fn factor_nnz(&self) -> usize {
        self.l.len()
    }

    /// Factors the matrix whose lower triangle holds `values` on the analysed pattern. A pivot
    /// ≤ `tiny` (or negative) is replaced by `huge`; returns the number replaced. A non-finite
    /// entry of the factor is an error (its column in the input's numbering).
    ///
    /// The factorization is L·D·Lᵀ with unit L (the same pivots as L·Lᵀ, D = diag(L)²): faer's
    /// regularized L·Lᵀ kernel leaves a replaced pivot's raw value on L's diagonal, where later
    /// triangular solves divide by it, while its L·D·Lᵀ kernel keeps the replacement in D.
    pub fn factor(&mut self, values: &[f64], tiny: f64, huge: f64) -> Result<usize, FactorError> {
        self.factored = false;
        if values.len() != self.map.len() {
            return Err(FactorError::Pattern(PatternError::Values { expected: self.map.len(), got: values.len() }));
        }
        for (&to, &v) in self.map.iter().zip(values) {
            self.perm_values[to] = v;
        }
        let n = self.n;
        let a = SparseColMatRef::new(
            SymbolicSparseColMatRef::new_unsorted_checked(n, n, &self.perm_col_ptr, None, &self.perm_row_idx),
            &self.perm_values,
        );
        // Every pivot is expected positive: one below `tiny` is replaced by +`huge`.
        let regularization = LdltRegularization {
            dynamic_regularization_signs: Some(&self.signs),
            dynamic_regularization_delta: huge,
            dynamic_regularization_epsilon: tiny,
        };
        let stack = MemStack::new(&mut self.mem);
        let info = match self.symbolic.raw() {
            SymbolicCholeskyRaw::Supernodal(raw) => supernodal::factorize_supernodal_numeric_ldlt(
                &mut self.l,
                a,
                regularization,
                raw,
                self.par,
                stack,
                Default::default(),
            ),
            SymbolicCholeskyRaw::Simplicial(raw) => {
                simplicial::factorize_simplicial_numeric_ldlt(&mut self.l, a, regularization, raw, stack)
            }
        };
        let fwd = |k: usize| self.symbolic.perm().map_or(k, |p| p.arrays().0[k]);
        let replaced = match info {
            Ok(info) => info.dynamic_regularization_count,
            Err(LdltError::ZeroPivot { index }) => {
                return Err(FactorError::Breakdown(PivotBreakdown { column: fwd(index), pivot: 0.0 }))
            }
        };
        // NaN passes the regularization's comparisons; find it here, not in a solve.
        for (k, range) in self.columns() {
            if self.l[range.clone()].iter().any(|v| !v.is_finite()) {
                let pivot = self.l[range.start];
                return Err(FactorError::Breakdown(PivotBreakdown { column: fwd(k), pivot }));
            }
        }
        self.factored = true;
        Ok(replaced)
    }

    /// Column k of the factor in the permuted order (its pivot first) as the range of L's
    /// values that holds it.
    fn columns(&self) -> Vec<(usize, std::ops::Range<usize>)> {
        match self.symbolic.raw() {
            SymbolicCholeskyRaw::Supernodal(raw) => (0..raw.n_supernodes())
                .flat_map(|s| {
                    let (b, e) = (raw.supernode_begin()[s], raw.supernode_end()[s]);
                    let h = e - b + raw.supernode(s).pattern().len();
                    let base = raw.col_ptr_for_val()[s];
                    (0..e - b).map(move |t| (b + t, base + t * h + t..base + (t + 1) * h))
                })
                .collect(),
            SymbolicCholeskyRaw::Simplicial(raw) => {
                (0..self.n).map(|k| (k, raw.col_ptr()[k]..raw.col_ptr()[k + 1])).collect()
            }
        }
    }

    /// The pivots D of the last factorization, in the input's numbering (a replaced pivot
    /// reads as the `huge` it was replaced by).
    pub fn pivots(&self) -> Result<Vec<f64>, FactorError> {
        if !self.factored {
            return Err(FactorError::NotFactored);
        }
        let mut d = vec![0.0; self.n];
        for (k, range) in self.columns() {
            d[self.symbolic.perm().map_or(k, |p| p.arrays().0[k])] = self.l[range.start];
        }
        Ok(d)
    }

    /// Solves M·x = r in place with the last factor.
    pub fn solve_in_place(&mut self, r: &mut [f64]) -> Result<(), FactorError> {
        if !self.factored {
            return Err(FactorError::NotFactored);
        }
        if r.len() != self.n {
            return Err(FactorError::Pattern(PatternError::Values { expected: self.n, got: r.len() }));
        }
        let stack = MemStack::new(&mut self.mem);
        LdltRef::new(&self.symbolic, &self.l).solve_in_place_with_conj(
            Conj::No,
            faer::ColMut::from_slice_mut(r).as_mat_mut(),
            self.par,
            stack,
        );
        Ok(())
    }
}

impl SparseCholesky {
    /// Solves M·X = R in place for the columns of R with the last factor (scratch for them
    /// allocated here).
    pub fn solve_columns_in_place(&mut self, r: faer::MatMut<'_, f64>) -> Result<(), FactorError> {
        if !self.factored {
            return Err(FactorError::NotFactored);
        }
        if r.nrows() != self.n {
            return Err(FactorError::Pattern(PatternError::Values { expected: self.n, got: r.nrows() }));
        }
        let req = self.symbolic.solve_in_place_scratch::<f64>(r.ncols(), self.par);
        let mut mem = MemBuffer::try_new(req).map_err(|_| PatternError::Symbolic("out of memory".into()))?;
        LdltRef::new(&self.symbolic, &self.l).solve_in_place_with_conj(Conj::No, r, self.par, MemStack::new(&mut mem));
        Ok(())
    }
}

/// Why a sparse Cholesky factorization (`SparseCholesky::factor`) or a solve with it failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FactorError {
    /// The pattern or a vector's length is wrong.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// A zero pivot, or a non-finite entry in the factor (the values held NaN or ∞); the column
    /// is in the input's numbering.
    #[error("non-finite pivot {} in column {}", .0.pivot, .0.column)]
    Breakdown(PivotBreakdown),
    /// A solve before a successful factorization.
    #[error("solve before a successful factorization")]
    NotFactored,
}

