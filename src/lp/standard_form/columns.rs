//! The standard form's compressed columns, written on all rayon threads.
//!
//! Every column's place is known before it is written (its entry count was taken when empty
//! rows and columns were found), so the columns are filled independently. The entry arrays
//! start as untouched zero pages and each thread faults in its own: at m = 2048 on the dense
//! family (16.8 million entries, 256 MB) one thread spent most of the standard form's 200 ms
//! in page faults.

use super::{Col, Kept, Rows, Source};
use std::ops::Range;
use crate::lp::model::SparseColMatrix;
use rayon::prelude::*;

impl Rows<'_> {
    /// The non-zero entries of each of `cols` and of each of the `m_all` kept rows, on all
    /// threads (one range of columns each; the ranges' row counts are added at the end:
    /// integers, so the result does not depend on how the columns were shared).
    pub(super) fn count_entries(&self, cols: &[Col], m_all: usize) -> (Vec<usize>, Vec<usize>) {
        let a = &self.model.a;
        // Every model row under its own index: a full column of the (validated) model holds rows
        // 0..m in order and is counted lane by lane, without the row map's scatter.
        let identity = self.index.len() == m_all && self.index.iter().enumerate().all(|(i, &k)| k == i);
        let parts: Vec<(Vec<usize>, Vec<usize>)> = thread_ranges(cols.len())
            .into_par_iter()
            .map(|r| {
                let mut row_nnz = vec![0usize; m_all];
                let col_nnz = cols[r]
                    .iter()
                    .map(|col| {
                        if let Source::Model(j) = col.src {
                            let r = a.col_ptr[j]..a.col_ptr[j + 1];
                            let values = &a.values[r.clone()];
                            if identity && values.len() == m_all && rows_in_order(&a.row_idx[r], m_all) {
                                let mut count = 0;
                                for (t, &v) in row_nnz.iter_mut().zip(values) {
                                    let nonzero = usize::from(v != 0.0);
                                    *t += nonzero;
                                    count += nonzero;
                                }
                                return count;
                            }
                        }
                        // Counted in a local: an increment per entry through memory is a chain.
                        let mut count = 0;
                        self.for_each(col.src, |i, a| {
                            if a != 0.0 {
                                row_nnz[i] += 1;
                                count += 1;
                            }
                        });
                        count
                    })
                    .collect::<Vec<usize>>();
                (row_nnz, col_nnz)
            })
            .collect();
        let mut row_nnz = vec![0usize; m_all];
        let mut col_nnz = Vec::with_capacity(cols.len());
        for (rows, counts) in parts {
            for (t, c) in row_nnz.iter_mut().zip(rows) {
                *t += c;
            }
            col_nnz.extend(counts);
        }
        (row_nnz, col_nnz)
    }
}

/// Whether a column's `rows` are 0, 1, …, m − 1 (entry k in row k): for rows that ascend
/// without repeats — a validated model's, and so the standard form's built from it — it is
/// enough that there are m of them from 0 to m − 1. (Checking every index would read the index
/// array too, as much memory again as the values these passes read.)
pub(super) fn rows_in_order(rows: &[usize], m: usize) -> bool {
    rows.len() == m && rows.first() == Some(&0) && rows.last() == Some(&(m.wrapping_sub(1)))
}

impl Kept<'_> {
    /// A as compressed columns with `m` rows, one range of columns per thread: every column's
    /// entries are already sorted by row (model columns come from the model's sorted columns
    /// through monotone row maps; slacks have one entry) and free of duplicates, so no sort
    /// is needed.
    pub(super) fn compressed_columns(&self, rows: &Rows<'_>, m: usize) -> SparseColMatrix {
        let order: Vec<usize> = (0..self.cols.len()).filter(|&k| self.new_col[k] != usize::MAX).collect();
        let mut col_ptr = Vec::with_capacity(order.len() + 1);
        col_ptr.push(0);
        for &k in &order {
            col_ptr.push(col_ptr[col_ptr.len() - 1] + self.col_nnz[k]);
        }
        let nnz = col_ptr[order.len()];
        let (mut row_idx, mut values) = (vec![0usize; nnz], vec![0.0f64; nnz]);
        let ranges = thread_ranges(order.len());
        let bounds: Vec<usize> = std::iter::once(0).chain(ranges.iter().map(|r| col_ptr[r.end])).collect();
        let pieces = split_at_bounds(&mut row_idx, &bounds).into_iter().zip(split_at_bounds(&mut values, &bounds));
        ranges.into_par_iter().zip(pieces.collect::<Vec<_>>()).for_each(|(r, (ri, va))| {
            let start = col_ptr[r.start];
            for (&k, p) in order[r.clone()].iter().zip(r) {
                let e = col_ptr[p] - start..col_ptr[p + 1] - start;
                self.fill(rows, k, &mut ri[e.clone()], &mut va[e]);
            }
        });
        SparseColMatrix { nrows: m, ncols: order.len(), col_ptr, row_idx, values }
    }

    /// Column k's rows and values.
    fn fill(&self, rows: &Rows<'_>, k: usize, ri: &mut [usize], va: &mut [f64]) {
        let col = &self.cols[k];
        let a = &rows.model.a;
        match col.src {
            // A model column without stored zeros, under the same rows: copied whole.
            Source::Model(src) if self.same_rows && ri.len() == a.col_ptr[src + 1] - a.col_ptr[src] => {
                let r = a.col_ptr[src]..a.col_ptr[src + 1];
                ri.copy_from_slice(&a.row_idx[r.clone()]);
                for (o, v) in va.iter_mut().zip(&a.values[r]) {
                    *o = col.sign * v;
                }
            }
            _ => {
                let mut p = 0;
                rows.for_each(col.src, |i, v| {
                    if self.new_row[i] != usize::MAX && v != 0.0 {
                        ri[p] = self.new_row[i];
                        va[p] = col.sign * v;
                        p += 1;
                    }
                });
            }
        }
    }
}

/// Contiguous ranges of 0..n, one per rayon thread: the parallel passes over A's columns keep
/// one m-vector of row results per range.
pub(super) fn thread_ranges(n: usize) -> Vec<Range<usize>> {
    let t = rayon::current_num_threads().clamp(1, n.max(1));
    (0..t).map(|k| k * n / t..(k + 1) * n / t).collect()
}

/// `v` cut into the pieces `bounds[k]..bounds[k + 1]` (increasing bounds, the last one at most
/// `v.len()`).
pub(super) fn split_at_bounds<'v, T>(mut v: &'v mut [T], bounds: &[usize]) -> Vec<&'v mut [T]> {
    let mut pieces = Vec::with_capacity(bounds.len().saturating_sub(1));
    for w in bounds.windows(2) {
        let (piece, rest) = std::mem::take(&mut v).split_at_mut(w[1] - w[0]);
        pieces.push(piece);
        v = rest;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::{split_at_bounds, thread_ranges};

    #[test]
    fn thread_ranges_cover_every_column_once_in_order() {
        for n in [0, 1, 2, 3, 17] {
            let ranges = thread_ranges(n);
            assert!(!ranges.is_empty() && ranges.len() <= n.max(1), "{n}: {ranges:?}");
            assert_eq!(ranges.first().map(|r| r.start), Some(0));
            assert_eq!(ranges.last().map(|r| r.end), Some(n));
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start), "{n}: {ranges:?}");
        }
    }

    #[test]
    fn split_at_bounds_cuts_where_asked() {
        let mut v: Vec<usize> = (0..10).collect();
        let pieces = split_at_bounds(&mut v, &[0, 3, 3, 9]);
        let got: Vec<Vec<usize>> = pieces.into_iter().map(|p| p.to_vec()).collect();
        assert_eq!(got, vec![vec![0, 1, 2], vec![], vec![3, 4, 5, 6, 7, 8]]);
        assert!(split_at_bounds(&mut v, &[0]).is_empty());
    }
}
