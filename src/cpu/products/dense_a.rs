//! A held dense for the products: one column-major buffer, filled column by column on all
//! rayon threads.
//!
//! The buffer starts as `vec![0.0; len]`, which the allocator hands out as untouched zero
//! pages, so each thread's first write faults in the pages of its own columns: at m = 2048 on
//! the dense family (128 MB) the copy from compressed columns took 40 ms this way against
//! 88 ms for one thread writing a zeroed faer matrix (median of three, `CpuVectors::for_matrix`).
//! As in a faer matrix, the first column starts on a 64-byte line and the column stride is a
//! multiple of eight entries, so the 64-byte loads of the column pass and of the syrk's
//! packing never straddle two lines.

use super::sparse::Csc;
use faer::MatRef;
use rayon::prelude::*;

/// Entries per 64-byte line.
const LINE: usize = 8;

/// Columns per rayon task at least.
const COLUMNS_PER_TASK: usize = 16;

/// An m×n column-major f64 matrix.
pub struct DenseA {
    data: Vec<f64>,
    /// Where column 0 starts in `data` (the first entry on a 64-byte line).
    offset: usize,
    /// Entries from one column's start to the next's (m rounded up to a line).
    stride: usize,
    nrows: usize,
    ncols: usize,
}

impl DenseA {
    /// Fills column j of an m×n matrix with `fill(j, column)` (the column starts as zeros).
    ///
    /// # Panics
    /// When m·n entries do not fit in memory's address range.
    fn build(nrows: usize, ncols: usize, fill: impl Fn(usize, &mut [f64]) + Sync) -> Self {
        let stride = nrows.next_multiple_of(LINE).max(LINE);
        let len = stride.checked_mul(ncols).and_then(|l| l.checked_add(LINE)).expect("a dense A of m·n entries");
        let mut data = vec![0.0; len];
        // The spare line holds the offset to the first 64-byte boundary (at most 7 entries).
        // `align_offset` may decline (usize::MAX): the matrix is then unaligned, slower but
        // the same.
        let offset = data.as_ptr().align_offset(LINE * size_of::<f64>()).min(LINE - 1);
        data[offset..offset + stride * ncols]
            .par_chunks_mut(stride)
            .enumerate()
            .with_min_len(COLUMNS_PER_TASK)
            .for_each(|(j, col)| fill(j, &mut col[..nrows]));
        Self { data, offset, stride, nrows, ncols }
    }

    /// A copy of `a`.
    pub fn from_dense(a: MatRef<'_, f64>) -> Self {
        Self::build(a.nrows(), a.ncols(), |j, col| {
            for (c, v) in col.iter_mut().zip(a.col(j).iter()) {
                *c = *v;
            }
        })
    }

    /// `a` with its zeros written out (an entry whose row index lies past the rows is left out).
    pub fn from_sparse(a: Csc<'_>) -> Self {
        Self::build(a.nrows, a.ncols, |j, col| {
            let range = a.col_ptr.get(j).copied().unwrap_or(0)..a.col_ptr.get(j + 1).copied().unwrap_or(0);
            let (rows, values) = (a.row_idx.get(range.clone()).unwrap_or(&[]), a.values.get(range).unwrap_or(&[]));
            if values.len() == col.len() && rows.len() == col.len() && rows.iter().enumerate().all(|(k, &i)| k == i) {
                // Rows 0..m in order (the dense family): one copy instead of a scatter.
                col.copy_from_slice(values);
                return;
            }
            for (i, v) in a.col(j) {
                if let Some(c) = col.get_mut(i) {
                    *c = v;
                }
            }
        })
    }

    /// The columns `cols` of `a`, in that order, with their zeros written out.
    pub fn from_columns(a: Csc<'_>, cols: &[usize]) -> Self {
        Self::build(a.nrows, cols.len(), |k, col| {
            for (i, v) in a.col(cols[k]) {
                if let Some(c) = col.get_mut(i) {
                    *c = v;
                }
            }
        })
    }

    /// The matrix as a faer view.
    pub fn as_ref(&self) -> MatRef<'_, f64> {
        let end = if self.ncols == 0 { self.offset } else { self.offset + self.stride * self.ncols };
        MatRef::from_column_major_slice_with_stride(&self.data[self.offset..end], self.nrows, self.ncols, self.stride)
    }

    /// Rows (m).
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Columns (n).
    pub fn ncols(&self) -> usize {
        self.ncols
    }
}

#[cfg(test)]
mod tests {
    use super::{Csc, DenseA};

    /// Compressed columns of the nonzeros of `value` over m×n: (col_ptr, row_idx, values).
    fn compress(m: usize, n: usize, value: impl Fn(usize, usize) -> f64) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
        let (mut col_ptr, mut row_idx, mut values) = (vec![0], Vec::new(), Vec::new());
        for j in 0..n {
            for i in (0..m).filter(|&i| value(i, j) != 0.0) {
                row_idx.push(i);
                values.push(value(i, j));
            }
            col_ptr.push(row_idx.len());
        }
        (col_ptr, row_idx, values)
    }

    #[test]
    fn copies_hold_every_entry_and_every_zero_on_aligned_columns() {
        // Odd sizes, a line ± 1, an empty column, and more columns than one task takes.
        for (m, n) in [(1, 1), (7, 3), (9, 2), (8, 5), (5, 41), (0, 4), (3, 0)] {
            // Columns 0 and 3 full (copied whole from compressed columns), column 2 empty.
            let value = |i: usize, j: usize| {
                if ((i + 2 * j).is_multiple_of(3) && j != 0 && j != 3) || j == 2 {
                    0.0
                } else {
                    (i * n + j) as f64 + 0.5
                }
            };
            let full = faer::Mat::from_fn(m, n, value);
            let (col_ptr, row_idx, values) = compress(m, n, value);
            let sparse = Csc { nrows: m, ncols: n, col_ptr: &col_ptr, row_idx: &row_idx, values: &values };
            for d in [DenseA::from_dense(full.as_ref()), DenseA::from_sparse(sparse)] {
                assert_eq!((d.nrows(), d.ncols()), (m, n));
                let v = d.as_ref();
                assert_eq!((v.nrows(), v.ncols()), (m, n));
                for j in 0..n {
                    assert_eq!(v.col(j).as_ptr() as usize % 64, 0, "column {j} of {m}×{n} starts off a line");
                    for i in 0..m {
                        assert_eq!(v[(i, j)], value(i, j), "({i}, {j}) of {m}×{n}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_full_column_out_of_row_order_still_lands_on_its_rows() {
        // Not what a validated model holds, but any compressed columns may come here.
        let a = Csc { nrows: 3, ncols: 1, col_ptr: &[0, 3], row_idx: &[2, 0, 1], values: &[7.0, 8.0, 9.0] };
        let d = DenseA::from_sparse(a);
        let v = d.as_ref();
        assert_eq!((v[(0, 0)], v[(1, 0)], v[(2, 0)]), (8.0, 9.0, 7.0));
    }
}
