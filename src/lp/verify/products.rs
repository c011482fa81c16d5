//! The proof's products with the original model's A: A·x and c − Aᵀ·y, each with the size of
//! its terms, |A|·|x| and |c| + |A|ᵀ·|y|, from which its rounding error is bounded
//! ([`super::rounding`]).
//!
//! A solve proves every iterate the loop judges and the answer: so the passes run on all
//! threads (A·x on ranges of columns with about the same number of entries, each summing its
//! own rows, added in range order at the end — a row's sum then has the ranges as extra terms;
//! c − Aᵀ·y a column at a time), and a model whose every column stores every row is read as the
//! dense column-major matrix it is, in loops that vectorize (the error bounds hold for any
//! order of the sums).

use crate::lp::model::{LpModel, SparseColMatrix};
use super::rounding::{may_underflow, sum_error_counted};
use rayon::prelude::*;
use std::ops::Range;

/// Below this many entries one thread makes the pass.
const PARALLEL_ENTRIES: usize = 1 << 16;

/// A·x for the original model (`x` may be shorter than the columns: the rest count as 0).
pub fn activities(model: &LpModel, x: &[f64]) -> Vec<f64> {
    let mut ax = vec![0.0; model.num_rows()];
    for (j, &xj) in x.iter().enumerate().take(model.num_cols()) {
        for (i, v) in model.a.col(j) {
            ax[i] += v * xj;
        }
    }
    ax
}

/// c − Aᵀy for the original columns (on all threads: each column's sum is its own, so the
/// result does not depend on how the columns were shared).
pub fn reduced_costs(model: &LpModel, y: &[f64]) -> Vec<f64> {
    (0..model.num_cols())
        .into_par_iter()
        .with_min_len(64)
        .map(|j| model.c[j] - model.a.col(j).map(|(i, v)| v * y[i]).sum::<f64>())
        .collect()
}

/// Sums of products with what their error bounds need: the computed value, the computed
/// magnitude Σ|terms|, and how many products may have underflowed ([`may_underflow`]).
/// Counting that per product would cost the passes their speed; it matters only where the
/// magnitude is 0 (where it decides whether a sum is exactly zero), so it is counted there and
/// taken as every term elsewhere (where 2γₖ·magnitude outweighs it).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Sums {
    pub value: Vec<f64>,
    pub magnitude: Vec<f64>,
    pub underflows: Vec<u32>,
}

impl Sums {
    /// The error bound of sum k, made of at most `terms` terms (every one of which may have
    /// underflowed where no count was taken, [`ALL_TERMS`]).
    pub fn error(&self, k: usize, terms: usize) -> f64 {
        let under = if self.underflows[k] == ALL_TERMS { terms } else { self.underflows[k] as usize };
        sum_error_counted(terms, self.magnitude[k], under)
    }
}

/// The underflow count of a sum whose magnitude is positive: every term.
const ALL_TERMS: u32 = u32::MAX;

/// Whether every column of the validated `a` stores every row: its values are then the
/// column-major m × n matrix (rows ascend without repeats in a valid column).
fn is_dense(a: &SparseColMatrix) -> bool {
    a.nrows > 0 && a.nrows.checked_mul(a.ncols) == Some(a.values.len())
}

/// A·x (with |A|·|x|) of a validated model, and the number of column ranges summed apart and
/// then added: a row's sum has at most nnzᵢ + that many terms.
pub(crate) fn row_products(model: &LpModel, x: &[f64]) -> (Sums, usize) {
    let a = &model.a;
    let m = model.num_rows();
    let parts = if a.nnz() >= PARALLEL_ENTRIES { rayon::current_num_threads().max(1) } else { 1 };
    let ranges = entry_ranges(&a.col_ptr, parts);
    let used = ranges.len();
    let dense = is_dense(a);
    let pieces: Vec<(Vec<f64>, Vec<f64>)> = ranges
        .into_par_iter()
        .map(|r| {
            let (mut ax, mut size) = (vec![0.0; m], vec![0.0; m]);
            for j in r {
                let xj = x[j];
                if dense {
                    // A column of the dense matrix: an axpy that vectorizes.
                    let col = &a.values[j * m..(j + 1) * m];
                    for ((o, s), &v) in ax.iter_mut().zip(size.iter_mut()).zip(col) {
                        let t = v * xj;
                        *o += t;
                        *s += t.abs();
                    }
                } else {
                    for (i, v) in a.col(j) {
                        let t = v * xj;
                        ax[i] += t;
                        size[i] += t.abs();
                    }
                }
            }
            (ax, size)
        })
        .collect();
    let mut total = Sums { value: vec![0.0; m], magnitude: vec![0.0; m], underflows: vec![ALL_TERMS; m] };
    for (p, q) in pieces {
        for i in 0..m {
            total.value[i] += p[i];
            total.magnitude[i] += q[i];
        }
    }
    // Underflows counted where the magnitude is 0.
    let zero: Vec<bool> = total.magnitude.iter().map(|&g| g == 0.0).collect();
    if zero.iter().any(|&z| z) {
        for (u, _) in total.underflows.iter_mut().zip(&zero).filter(|(_, &z)| z) {
            *u = 0;
        }
        for (j, &xj) in x.iter().enumerate().take(model.num_cols()) {
            for (i, v) in a.col(j).filter(|&(i, _)| zero[i]) {
                total.underflows[i] += may_underflow(v, xj, v * xj) as u32;
            }
        }
    }
    (total, used)
}

/// c − Aᵀy (with |c| + |A|ᵀ·|y|) per column of a validated model: each column's sum its own,
/// of nnzⱼ + 2 terms (the products, the cost, the subtraction).
pub(crate) fn column_products(model: &LpModel, c: &[f64], y: &[f64]) -> Sums {
    let a = &model.a;
    let m = a.nrows;
    let dense = is_dense(a);
    let per: Vec<(f64, f64, u32)> = (0..model.num_cols())
        .into_par_iter()
        .with_min_len(64)
        .map(|j| {
            let (mut sum, mut size) = if dense {
                // Four running sums: the loop vectorizes (the error bound holds for any order).
                let col = &a.values[j * m..(j + 1) * m];
                let (mut s, mut g) = ([0.0f64; 4], [0.0f64; 4]);
                let (ch, yc) = (col.chunks_exact(4), y.chunks_exact(4));
                let (rest_a, rest_y) = (ch.remainder(), yc.remainder());
                for (av, yv) in ch.zip(yc) {
                    for k in 0..4 {
                        let t = av[k] * yv[k];
                        s[k] += t;
                        g[k] += t.abs();
                    }
                }
                let (mut sum, mut size) = ((s[0] + s[1]) + (s[2] + s[3]), (g[0] + g[1]) + (g[2] + g[3]));
                for (v, w) in rest_a.iter().zip(rest_y) {
                    sum += v * w;
                    size += (v * w).abs();
                }
                (sum, size)
            } else {
                let (mut sum, mut size) = (0.0, 0.0);
                for (i, v) in a.col(j) {
                    let t = v * y[i];
                    sum += t;
                    size += t.abs();
                }
                (sum, size)
            };
            let under = if size == 0.0 {
                a.col(j).filter(|&(i, v)| may_underflow(v, y[i], v * y[i])).count() as u32
            } else {
                ALL_TERMS
            };
            size += c[j].abs();
            sum = c[j] - sum;
            (sum, size, under)
        })
        .collect();
    let mut s = Sums::default();
    for (v, g, u) in per {
        s.value.push(v);
        s.magnitude.push(g);
        s.underflows.push(u);
    }
    s
}

/// `parts` ranges of columns, in order and covering 0..n, with about the same number of entries
/// each (by the column pointers `col_ptr`, n + 1 of them).
pub(crate) fn entry_ranges(col_ptr: &[usize], parts: usize) -> Vec<Range<usize>> {
    let n = col_ptr.len().saturating_sub(1);
    let parts = parts.clamp(1, n.max(1));
    let (first, total) = (col_ptr.first().copied().unwrap_or(0), col_ptr.last().copied().unwrap_or(0));
    let nnz = total.saturating_sub(first);
    let mut cuts = vec![0];
    for k in 1..parts {
        // k·nnz in 128 bits: no overflow for any count of entries.
        let target = first + (k as u128 * nnz as u128 / parts as u128) as usize;
        let cut = col_ptr[..=n].partition_point(|&p| p < target).min(n);
        cuts.push(cut.max(*cuts.last().unwrap_or(&0)));
    }
    cuts.push(n);
    cuts.windows(2).map(|w| w[0]..w[1]).filter(|r| !r.is_empty() || n == 0).collect()
}

#[cfg(test)]
mod tests {
    use super::{column_products, entry_ranges, row_products, PARALLEL_ENTRIES};
    use crate::lp::model::LpModel;
    use nalgebra::DMatrix;

    /// An m × n model whose entries are all non-zero (`holes` false) or about half zeros.
    fn model(m: usize, n: usize, holes: bool) -> LpModel {
        let a = DMatrix::from_fn(m, n, |i, j| {
            let k = (i * 7 + j * 13) % 17;
            if holes && (i + 2 * j) % 5 < 2 {
                0.0
            } else {
                (k as f64 - 8.5) / 3.0
            }
        });
        let c: Vec<f64> = (0..n).map(|j| 1.0 + (j % 3) as f64).collect();
        LpModel::new(a, c, vec![-1.0; m], vec![1.0; m]).expect("a valid model")
    }

    fn point(m: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
        let x = (0..n).map(|j| 0.25 + ((j * 5) % 7) as f64 / 3.0).collect();
        let y = (0..m).map(|i| ((i * 3) % 11) as f64 / 4.0 - 1.2).collect();
        (x, y)
    }

    #[test]
    fn the_passes_match_f64_loops_within_their_error_bounds_with_any_thread_count() {
        // Odd sizes, one row, one column, and sizes above the parallel threshold; dense models
        // take the dense loops.
        let sizes = [(1, 1), (1, 9), (9, 1), (7, 13), (259, 257), (301, 601)];
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            for &(m, n) in &sizes {
                for holes in [false, true] {
                    let model = model(m, n, holes);
                    let (x, y) = point(m, n);
                    let what = format!("{m} x {n}, holes {holes}, {threads} threads");
                    let (rows, parts) = pool.install(|| row_products(&model, &x));
                    let cols = pool.install(|| column_products(&model, &model.c, &y));
                    // Reference sums in plain loops, in another order; both within the bounds.
                    let dense = model.a.to_dense();
                    for i in 0..m {
                        let want: f64 = (0..n).rev().map(|j| dense[(i, j)] * x[j]).sum();
                        let bound = rows.error(i, n + parts + 1);
                        assert!((rows.value[i] - want).abs() <= 2.0 * bound, "{what}: row {i}");
                    }
                    for j in 0..n {
                        let want = model.c[j] - (0..m).rev().map(|i| dense[(i, j)] * y[i]).sum::<f64>();
                        let bound = cols.error(j, m + 2);
                        assert!((cols.value[j] - want).abs() <= 2.0 * bound, "{what}: column {j}");
                    }
                }
            }
        }
        const { assert!(259 * 257 >= PARALLEL_ENTRIES, "the large dense case runs in parallel") };
    }

    #[test]
    fn a_sum_of_exact_zeros_has_no_error_and_an_underflowing_one_has() {
        let model = model(3, 4, false);
        let zero = column_products(&model, &[0.0; 4], &[0.0; 3]);
        assert!((0..4).all(|j| zero.value[j] == 0.0 && zero.error(j, 5) == 0.0));
        // Products of 1e-200 by entries near 1 underflow to 0: the sum is not known to be 0.
        let tiny = column_products(&model, &[0.0; 4], &[1e-200, 0.0, 0.0]);
        let (rows, _) = row_products(&model, &[1e-200, 1e-200, 0.0, 0.0]);
        assert!((0..4).all(|j| tiny.error(j, 5) > 0.0));
        assert!(rows.error(0, 6) >= 0.0);
    }

    #[test]
    fn nan_in_the_point_reaches_the_products() {
        for holes in [false, true] {
            let model = model(9, 11, holes);
            let (mut x, mut y) = point(9, 11);
            x[4] = f64::NAN;
            let (rows, _) = row_products(&model, &x);
            for (i, v) in model.a.col(4) {
                assert!(v == 0.0 || rows.value[i].is_nan(), "holes {holes}: row {i} of A·x lost the NaN of x[4]");
            }
            y[2] = f64::NAN;
            let cols = column_products(&model, &model.c, &y);
            for j in 0..11 {
                if model.a.col(j).any(|(i, v)| i == 2 && v != 0.0) {
                    assert!(cols.value[j].is_nan(), "holes {holes}: column {j} lost the NaN of y[2]");
                }
            }
        }
    }

    #[test]
    fn entry_ranges_cover_the_columns_in_order_with_balanced_entries() {
        // Column entry counts 1, 9, 1, 1, 1, 1, 1, 1: two parts cut after the heavy column.
        let col_ptr = [0, 1, 10, 11, 12, 13, 14, 15, 16];
        assert_eq!(entry_ranges(&col_ptr, 2), vec![0..2, 2..8]);
        assert_eq!(entry_ranges(&col_ptr, 1), vec![0..8]);
        for parts in [1, 2, 3, 5, 8, 20] {
            let r = entry_ranges(&col_ptr, parts);
            assert_eq!(r.first().map(|r| r.start), Some(0), "{parts}");
            assert_eq!(r.last().map(|r| r.end), Some(8), "{parts}");
            assert!(r.windows(2).all(|w| w[0].end == w[1].start), "{parts}: {r:?}");
            assert!(r.len() <= parts, "{parts}: {r:?}");
        }
        // Equal columns split evenly; no columns give one empty range.
        assert_eq!(entry_ranges(&[0, 3, 6, 9, 12], 2), vec![0..2, 2..4]);
        assert_eq!(entry_ranges(&[0], 2), vec![0..0]);
        assert_eq!(entry_ranges(&[], 2), vec![0..0]);
    }
}
