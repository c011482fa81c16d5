//! What makes an [`LpModel`] well formed, checked before any work: [`LpModel::validate`].
//!
//! Every solve (any backend, [`crate::LpSolver`], [`crate::lp::solve()`], [`crate::lp::solve_on`])
//! runs it first, so the same mistake gives the same typed error everywhere, and no malformed
//! model reaches the standard form (whose comparisons are false for NaN: a NaN bound would
//! silently drop a row or a bound). The error names the field, the index and the value.
//!
//! The rules:
//! * **structure of A**: `col_ptr` has `ncols + 1` entries, starts at 0, never decreases and ends
//!   at the number of entries; `row_idx` and `values` have that many entries; row indices are
//!   below `nrows` and strictly increasing within a column (sorted, no duplicates);
//! * **lengths**: `c`, `col_lower`, `col_upper` have one entry per column of A; `row_lower`,
//!   `row_upper` one per row; `row_names`, `col_names` and `integer` one per row/column or none;
//! * **values**: no NaN anywhere; A, c and the objective constant finite (an infinite cost or
//!   coefficient means nothing). Bounds may be infinite: −∞/+∞ are the missing sides, and a lower
//!   bound above the upper one (+∞ below included) is not malformed but infeasible, which the
//!   solver reports as [`crate::Status::PrimalInfeasible`].

use crate::lp::model::{LpModel, ModelError, SparseColMatrix};

impl SparseColMatrix {
    /// Checks the compressed-column structure and that every entry is finite.
    pub fn validate(&self) -> Result<(), ModelError> {
        let (nrows, ncols) = (self.nrows, self.ncols);
        if self.col_ptr.len() != ncols + 1 {
            return Err(ModelError::ColumnPointerLength { found: self.col_ptr.len(), ncols });
        }
        if self.row_idx.len() != self.values.len() {
            return Err(ModelError::EntryArrays { row_idx: self.row_idx.len(), values: self.values.len() });
        }
        if self.col_ptr[0] != 0 {
            return Err(ModelError::ColumnPointer { index: 0, value: self.col_ptr[0], rule: "it must be 0" });
        }
        for j in 0..ncols {
            if self.col_ptr[j + 1] < self.col_ptr[j] {
                let rule = "column pointers must not decrease";
                return Err(ModelError::ColumnPointer { index: j + 1, value: self.col_ptr[j + 1], rule });
            }
        }
        if self.col_ptr[ncols] != self.values.len() {
            let rule = "the last column pointer must equal the number of entries";
            return Err(ModelError::ColumnPointer { index: ncols, value: self.col_ptr[ncols], rule });
        }
        for col in 0..ncols {
            let mut previous: Option<usize> = None;
            for (position, (row, value)) in self.col(col).enumerate() {
                if row >= nrows {
                    return Err(ModelError::RowIndex { col, position, row, nrows });
                }
                if let Some(previous) = previous.filter(|&p| row <= p) {
                    return Err(ModelError::RowOrder { col, row, previous });
                }
                if !value.is_finite() {
                    return Err(ModelError::MatrixEntry { row, col, value });
                }
                previous = Some(row);
            }
        }
        Ok(())
    }
}

/// `v` must have `expected` entries.
fn length(field: &'static str, found: usize, expected: usize, of: &'static str) -> Result<(), ModelError> {
    if found == expected {
        Ok(())
    } else {
        Err(ModelError::Length { field, found, expected, of })
    }
}

/// `v` must have `expected` entries or none.
fn optional_length(field: &'static str, found: usize, expected: usize, of: &'static str) -> Result<(), ModelError> {
    if found == expected || found == 0 {
        return Ok(());
    }
    let of_one = if of == "rows" { "row" } else { "column" };
    Err(ModelError::OptionalLength { field, found, expected, of, of_one })
}

/// No NaN in `v`; with `finite`, no infinity either.
fn values(field: &'static str, v: &[f64], finite: bool) -> Result<(), ModelError> {
    for (index, &value) in v.iter().enumerate() {
        if value.is_nan() {
            return Err(ModelError::NotANumber { field, index });
        }
        if finite && value.is_infinite() {
            return Err(ModelError::Infinite { field, index, value, rule: "it must be finite" });
        }
    }
    Ok(())
}

impl LpModel {
    /// Checks that the model is well formed (the lengths, A's compressed columns, no NaN, finite
    /// entries of A and c, a finite objective constant); the first violation found is returned.
    /// Every solve calls this first.
    ///
    /// ```
    /// use glsolve::lp::{LpModel, ModelError};
    /// use nalgebra::{dmatrix, dvector};
    /// let mut model = LpModel::new(&dmatrix![1.0, 1.0], &dvector![-1.0, -1.0], &[f64::NEG_INFINITY], &[4.0])?;
    /// model.row_upper[0] = f64::NAN;
    /// assert_eq!(model.validate(), Err(ModelError::NotANumber { field: "row_upper", index: 0 }));
    /// model.row_upper.push(5.0);
    /// assert!(matches!(model.validate(), Err(ModelError::Length { field: "row_upper", found: 2, expected: 1, .. })));
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn validate(&self) -> Result<(), ModelError> {
        self.a.validate()?;
        let (m, n) = (self.a.nrows, self.a.ncols);
        length("c", self.c.len(), n, "columns")?;
        length("row_lower", self.row_lower.len(), m, "rows")?;
        length("row_upper", self.row_upper.len(), m, "rows")?;
        length("col_lower", self.col_lower.len(), n, "columns")?;
        length("col_upper", self.col_upper.len(), n, "columns")?;
        optional_length("row_names", self.row_names.len(), m, "rows")?;
        optional_length("col_names", self.col_names.len(), n, "columns")?;
        optional_length("integer", self.integer.len(), n, "columns")?;
        values("c", &self.c, true)?;
        for (field, v) in [
            ("row_lower", &self.row_lower),
            ("row_upper", &self.row_upper),
            ("col_lower", &self.col_lower),
            ("col_upper", &self.col_upper),
        ] {
            values(field, v, false)?;
        }
        if !self.obj_constant.is_finite() {
            return Err(ModelError::ObjectiveConstant(self.obj_constant));
        }
        Ok(())
    }
}
