//! Removing rows from a built standard form (the linearly dependent rows found before the
//! loop, [`crate::lp::backend::dependent_rows`]).

use super::StandardForm;
use crate::lp::model::SparseColMatrix;

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
