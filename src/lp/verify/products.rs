//! The checks' products with the original model's A: A·x and c − Aᵀ·y, and the sizes of their
//! terms, |A|·|x| and |A|ᵀ·|y| (the denominators of the check's relative measures).
//!
//! The check of a point reads A once for both, and a solve checks twice (the loop's judge and
//! the verdict): at m = 1024 on the dense family (4.2 million entries) one thread took 8 ms per
//! check. So the pass runs on all threads, each on a range of columns with about the same
//! number of entries summing its own A·x (added in range order at the end: the result depends
//! on the thread count in rounding only), and a model whose every column stores every row is
//! read as the dense column-major matrix it is, with the fused products of `cpu::products`.

use crate::cpu::products::{fused_dense, CpuPaths, VSource};
use crate::lp::model::{LpModel, SparseColMatrix};
use faer::MatRef;
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

/// (A·x, c − Aᵀ·y) in one pass over A's columns, for a validated model and a point of its size
/// (`x` has a value per column, `y` per row).
pub(crate) fn activities_and_reduced_costs(model: &LpModel, x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let a = &model.a;
    let (m, n) = (model.num_rows(), model.num_cols());
    let parts = if a.nnz() >= PARALLEL_ENTRIES { rayon::current_num_threads().max(1) } else { 1 };
    let pieces: Vec<(Vec<f64>, Vec<f64>)> = entry_ranges(&a.col_ptr, parts)
        .into_par_iter()
        .map(|r| {
            let mut ax = vec![0.0; m];
            let mut aty = vec![0.0; r.len()];
            if !dense_pass(a, x, y, r.clone(), &mut ax, &mut aty) {
                for (k, j) in r.enumerate() {
                    let (xj, mut sum) = (x[j], 0.0);
                    for (i, v) in a.col(j) {
                        ax[i] += v * xj;
                        sum += v * y[i];
                    }
                    aty[k] = sum;
                }
            }
            (ax, aty)
        })
        .collect();
    let mut ax = vec![0.0; m];
    let mut z = Vec::with_capacity(n);
    for (part, aty) in pieces {
        for (t, p) in ax.iter_mut().zip(part) {
            *t += p;
        }
        z.extend(aty);
    }
    for (zj, cj) in z.iter_mut().zip(&model.c) {
        *zj = cj - *zj;
    }
    (ax, z)
}

/// The pass over the columns `r` as a dense column pass (aty = A_rᵀ·y, ax += A_r·x_r) when
/// every column of the validated `a` stores every row: its values are then the column-major
/// m × n matrix. False, with nothing written, when it is not.
fn dense_pass(a: &SparseColMatrix, x: &[f64], y: &[f64], r: Range<usize>, ax: &mut [f64], aty: &mut [f64]) -> bool {
    let (m, n) = (a.nrows, a.ncols);
    // Rows ascend without repeats in a validated column, so m entries in each are rows 0..m.
    if m == 0 || m.checked_mul(n) != Some(a.values.len()) {
        return false;
    }
    let dense = MatRef::from_column_major_slice(&a.values, m, n).subcols(r.start, r.len());
    let Ok((u, _, av)) = fused_dense(&CpuPaths::default(), dense, y, VSource::Given(&x[r]), 1) else {
        return false;
    };
    aty.copy_from_slice(&u);
    for (o, v) in ax.iter_mut().zip(av) {
        *o += v;
    }
    true
}

/// (|A|·|x|, |A|ᵀ·|y|): per row Σⱼ |aᵢⱼ·xⱼ|, per column Σᵢ |aᵢⱼ·yᵢ|, for a validated model and
/// a point of its size; on all threads as [`activities_and_reduced_costs`] (a sum of
/// magnitudes does not cancel, so the order of its terms changes it by rounding only).
pub(crate) fn term_sizes(model: &LpModel, x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let a = &model.a;
    let (m, n) = (model.num_rows(), model.num_cols());
    let parts = if a.nnz() >= PARALLEL_ENTRIES { rayon::current_num_threads().max(1) } else { 1 };
    let y_abs: Vec<f64> = y.iter().map(|v| v.abs()).collect();
    let pieces: Vec<(Vec<f64>, Vec<f64>)> = entry_ranges(&a.col_ptr, parts)
        .into_par_iter()
        .map(|r| {
            let mut ax = vec![0.0; m];
            let aty = r
                .map(|j| {
                    let (xj, range) = (x[j].abs(), a.col_ptr[j]..a.col_ptr[j + 1]);
                    let mut sum = 0.0;
                    for (&i, &v) in a.row_idx[range.clone()].iter().zip(&a.values[range]) {
                        let v = v.abs();
                        ax[i] += v * xj;
                        sum += v * y_abs[i];
                    }
                    sum
                })
                .collect::<Vec<f64>>();
            (ax, aty)
        })
        .collect();
    let mut ax = vec![0.0; m];
    let mut aty = Vec::with_capacity(n);
    for (part, t) in pieces {
        for (s, p) in ax.iter_mut().zip(part) {
            *s += p;
        }
        aty.extend(t);
    }
    (ax, aty)
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
    use super::{activities_and_reduced_costs, dense_pass, entry_ranges, term_sizes, PARALLEL_ENTRIES};
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

    /// (A·x, c − Aᵀy) summed in plain f64 loops over the dense matrix, with Σ|terms| per entry.
    fn reference(model: &LpModel, x: &[f64], y: &[f64]) -> [(Vec<f64>, Vec<f64>); 2] {
        let (m, n) = (model.num_rows(), model.num_cols());
        let (mut ax, mut ax_abs) = (vec![0.0; m], vec![0.0; m]);
        let (mut z, mut z_abs) = (model.c.clone(), model.c.iter().map(|c| c.abs()).collect::<Vec<_>>());
        for j in 0..n {
            for (i, v) in model.a.col(j) {
                ax[i] += v * x[j];
                ax_abs[i] += (v * x[j]).abs();
                z[j] -= v * y[i];
                z_abs[j] += (v * y[i]).abs();
            }
        }
        [(ax, ax_abs), (z, z_abs)]
    }

    fn point(m: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
        let x = (0..n).map(|j| 0.25 + ((j * 5) % 7) as f64 / 3.0).collect();
        let y = (0..m).map(|i| ((i * 3) % 11) as f64 / 4.0 - 1.2).collect();
        (x, y)
    }

    #[test]
    fn the_pass_matches_f64_loops_on_dense_and_sparse_models_with_any_thread_count() {
        // Odd sizes, one row, one column, and sizes above the parallel threshold.
        let sizes = [(1, 1), (1, 9), (9, 1), (7, 13), (259, 257), (301, 601)];
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            for &(m, n) in &sizes {
                for holes in [false, true] {
                    let model = model(m, n, holes);
                    let (x, y) = point(m, n);
                    let what = format!("{m} x {n}, holes {holes}, {threads} threads");
                    let (ax, z) = pool.install(|| activities_and_reduced_costs(&model, &x, &y));
                    let (ax_size, aty_size) = pool.install(|| term_sizes(&model, &x, &y));
                    let [(ax_ref, ax_abs), (z_ref, z_abs)] = reference(&model, &x, &y);
                    // |A|ᵀ|y| is z_abs without |c|; both sums of magnitudes, equal to rounding.
                    let u = f64::EPSILON / 2.0;
                    for (i, (g, w)) in ax_size.iter().zip(&ax_abs).enumerate() {
                        assert!(
                            (g - w).abs() <= 2.0 * (n + 1) as f64 * u * w,
                            "{what}: |A||x| row {i}: {g} against {w}"
                        );
                    }
                    for (j, g) in aty_size.iter().enumerate() {
                        let w = z_abs[j] - model.c[j].abs();
                        assert!(
                            (g - w).abs() <= 2.0 * (m + 2) as f64 * u * z_abs[j],
                            "{what}: |A|ᵀ|y| column {j}: {g} against {w}"
                        );
                    }
                    assert_eq!((ax.len(), z.len()), (m, n), "{what}");
                    // Two f64 sums of the same terms in other orders: within 2·(k + 1)·u·Σ|terms|.
                    for (got, want, abs, k) in [(&ax, &ax_ref, &ax_abs, n), (&z, &z_ref, &z_abs, m)] {
                        for (e, ((g, w), a)) in got.iter().zip(want).zip(abs).enumerate() {
                            let bound = 2.0 * (k + 1) as f64 * u * a;
                            assert!((g - w).abs() <= bound, "{what}: entry {e}: {g} against {w} (bound {bound:e})");
                        }
                    }
                }
            }
        }
        const { assert!(259 * 257 >= PARALLEL_ENTRIES, "the large dense case runs in parallel") };
    }

    #[test]
    fn only_models_that_store_every_entry_take_the_dense_pass() {
        for (holes, dense) in [(false, true), (true, false)] {
            let model = model(7, 13, holes);
            let (x, y) = point(7, 13);
            let (mut ax, mut aty) = (vec![0.0; 7], vec![0.0; 13]);
            assert_eq!(dense_pass(&model.a, &x, &y, 0..13, &mut ax, &mut aty), dense, "holes {holes}");
            if !dense {
                assert!(ax.iter().chain(&aty).all(|&v| v == 0.0), "a refused pass writes nothing");
            }
        }
    }

    #[test]
    fn nan_in_the_point_reaches_the_products() {
        for holes in [false, true] {
            let model = model(9, 11, holes);
            let (mut x, mut y) = point(9, 11);
            x[4] = f64::NAN;
            let (ax, _) = activities_and_reduced_costs(&model, &x, &y);
            for (i, v) in model.a.col(4) {
                assert!(v == 0.0 || ax[i].is_nan(), "holes {holes}: row {i} of A·x lost the NaN of x[4]");
            }
            let (x, _) = point(9, 11);
            y[2] = f64::NAN;
            let (_, z) = activities_and_reduced_costs(&model, &x, &y);
            for (j, zj) in z.iter().enumerate() {
                if model.a.col(j).any(|(i, v)| i == 2 && v != 0.0) {
                    assert!(zj.is_nan(), "holes {holes}: column {j} of c − Aᵀy lost the NaN of y[2]");
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
