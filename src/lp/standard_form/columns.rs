//! The standard form's compressed columns, written on all rayon threads.
//!
//! Every column's place is known before it is written (its entry count was taken when empty
//! rows and columns were found), so the columns are filled independently. The entry arrays
//! start as untouched zero pages and each thread faults in its own: at m = 2048 on the dense
//! family (16.8 million entries, 256 MB) one thread spent most of the standard form's 200 ms
//! in page faults.

use super::{Col, Kept, Rows, Source};
use crate::lp::model::SparseColMatrix;
use rayon::prelude::*;

/// Columns per rayon task at least.
const COLUMNS_PER_TASK: usize = 16;

impl Rows<'_> {
    /// The non-zero entries of each of `cols` and of each of the `m_all` kept rows, the columns
    /// counted on all threads (each thread's row counts are added at the end: integers, so
    /// the result does not depend on how the columns were shared).
    pub(super) fn count_entries(&self, cols: &[Col], m_all: usize) -> (Vec<usize>, Vec<usize>) {
        let mut col_nnz = vec![0usize; cols.len()];
        let row_nnz = col_nnz
            .par_iter_mut()
            .zip(cols)
            .with_min_len(COLUMNS_PER_TASK)
            .fold(
                || vec![0usize; m_all],
                |mut row_nnz, (count, col)| {
                    // Counted in a local: an increment of col_nnz[k] per entry is a chain through
                    // memory.
                    let mut c = 0;
                    self.for_each(col.src, |i, a| {
                        if a != 0.0 {
                            row_nnz[i] += 1;
                            c += 1;
                        }
                    });
                    *count = c;
                    row_nnz
                },
            )
            .reduce(
                || vec![0usize; m_all],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            );
        (row_nnz, col_nnz)
    }
}

impl Kept<'_> {
    /// A as compressed columns with `m` rows: every column's entries are already sorted by row
    /// (model columns come from the model's sorted columns through monotone row maps; slacks
    /// have one entry) and free of duplicates, so no sort is needed.
    pub(super) fn compressed_columns(&self, rows: &Rows<'_>, m: usize) -> SparseColMatrix {
        let kept = self;
        let order: Vec<usize> = (0..kept.cols.len()).filter(|&k| kept.new_col[k] != usize::MAX).collect();
        let mut col_ptr = Vec::with_capacity(order.len() + 1);
        col_ptr.push(0);
        for &k in &order {
            col_ptr.push(col_ptr[col_ptr.len() - 1] + kept.col_nnz[k]);
        }
        let nnz = col_ptr[order.len()];
        let (mut row_idx, mut values) = (vec![0usize; nnz], vec![0.0f64; nnz]);
        let mut parts = Vec::with_capacity(order.len());
        let (mut ri_rest, mut va_rest) = (row_idx.as_mut_slice(), values.as_mut_slice());
        for &k in &order {
            let (ri, ri_tail) = ri_rest.split_at_mut(kept.col_nnz[k]);
            let (va, va_tail) = va_rest.split_at_mut(kept.col_nnz[k]);
            parts.push((k, ri, va));
            (ri_rest, va_rest) = (ri_tail, va_tail);
        }
        parts.into_par_iter().with_min_len(COLUMNS_PER_TASK).for_each(|(k, ri, va)| fill(rows, kept, k, ri, va));
        SparseColMatrix { nrows: m, ncols: order.len(), col_ptr, row_idx, values }
    }
}

/// Column k's rows and values.
fn fill(rows: &Rows<'_>, kept: &Kept<'_>, k: usize, ri: &mut [usize], va: &mut [f64]) {
    let col = &kept.cols[k];
    let a = &rows.model.a;
    match col.src {
        // A model column without stored zeros, under the same rows: copied whole.
        Source::Model(src) if kept.same_rows && ri.len() == a.col_ptr[src + 1] - a.col_ptr[src] => {
            let r = a.col_ptr[src]..a.col_ptr[src + 1];
            ri.copy_from_slice(&a.row_idx[r.clone()]);
            for (o, v) in va.iter_mut().zip(&a.values[r]) {
                *o = col.sign * v;
            }
        }
        _ => {
            let mut p = 0;
            rows.for_each(col.src, |i, v| {
                if kept.new_row[i] != usize::MAX && v != 0.0 {
                    ri[p] = kept.new_row[i];
                    va[p] = col.sign * v;
                    p += 1;
                }
            });
        }
    }
}
