//! Rows that leave the standard form: equality rows of one entry, which fix their column before
//! it is built, and the linearly dependent rows found before the loop
//! ([`crate::lp::backend::dependent_rows`]), removed from a built one.

use super::StandardForm;
use crate::lp::model::{LpModel, SparseColMatrix};

impl StandardForm {
    /// Removes the standard-form rows `rows` (indices past the last row are ignored) from A, b
    /// and the row scaling; their original rows then map to no row and get the dual 0, as free
    /// and empty rows do. For rows that are combinations of the others, with the same
    /// combination of right-hand sides (see [`crate::lp::backend::dependent_rows`]).
    pub fn drop_rows(&mut self, rows: &[usize]) {
        let m = self.b.len();
        if rows.iter().all(|&i| i >= m) {
            return;
        }
        let mut new_index: Vec<Option<usize>> = vec![Some(0); m];
        for &i in rows.iter().filter(|&&i| i < m) {
            new_index[i] = None;
        }
        let mut kept = 0;
        for slot in new_index.iter_mut().flatten() {
            *slot = kept;
            kept += 1;
        }
        let mut a = SparseColMatrix::new(kept);
        for j in 0..self.a.ncols {
            for (i, v) in self.a.col(j) {
                if let Some(k) = new_index[i] {
                    a.row_idx.push(k);
                    a.values.push(v);
                }
            }
            a.col_ptr.push(a.row_idx.len());
        }
        a.ncols = self.a.ncols;
        self.a = a;
        let keep = |v: &[f64]| v.iter().zip(&new_index).filter(|(_, k)| k.is_some()).map(|(x, _)| *x).collect();
        self.b = keep(&self.b);
        self.row_scale = keep(&self.row_scale);
        for r in &mut self.row_of {
            *r = r.and_then(|i| new_index[i]);
        }
    }
}

/// The equality rows of one entry, aᵢⱼ·xⱼ = bᵢ, that fix their column at bᵢ/aᵢⱼ: (i, j, aᵢⱼ),
/// where that value lies within the column's bounds (the first such row of a column; a second
/// one, then empty, is consistent or proves infeasibility as any empty row). The row is left to
/// become empty and be dropped; its dual is recovered from the column's reduced cost
/// ([`StandardForm::complete_duals`]). Left to the loop, such a row is met only to the loop's
/// tolerance, and in a part of the model without cost or nonzero bound (gas11's b = 0 rows) no
/// unit-free measure can call xⱼ = 5e-14 small.
pub(super) fn singleton_fixes(model: &LpModel) -> Vec<(usize, usize, f64)> {
    let m = model.num_rows();
    let (mut count, mut entry) = (vec![0usize; m], vec![(0usize, 0.0f64); m]);
    for j in 0..model.num_cols() {
        for (i, v) in model.a.col(j).filter(|&(_, v)| v != 0.0) {
            count[i] += 1;
            entry[i] = (j, v);
        }
    }
    let mut fixed = vec![false; model.num_cols()];
    let mut fixes = Vec::new();
    for i in (0..m).filter(|&i| count[i] == 1 && model.row_lower[i] == model.row_upper[i]) {
        let (j, a) = entry[i];
        let value = model.row_lower[i] / a;
        let inside = model.col_lower[j] <= value && value <= model.col_upper[j];
        if value.is_finite() && inside && !fixed[j] && model.col_lower[j] != model.col_upper[j] {
            fixed[j] = true;
            fixes.push((i, j, a));
        }
    }
    fixes
}
