//! [`DenseColumnNormal`] against the full normal matrix in f64.

use super::dense_columns::ColumnSplit;
use super::{CpuVectors, DenseColumnNormal, Fallback, NormalEquations};
use crate::cpu::products::CpuPaths;
use crate::lp::model::SparseColMatrix;
use faer::Mat;

/// A deterministic stream in [−1, 1).
fn stream(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// m rows; `k` dense columns (the last one's mirror beside it when `mirror`), then for each row
/// a slack and a column of two entries coupling it to the next row (the textbook regression's
/// t columns, in a chain).
fn matrix(m: usize, k: usize, mirror: bool, seed: u64) -> (SparseColMatrix, ColumnSplit) {
    let mut next = stream(seed);
    let mut t = Vec::new();
    let mut dense = Vec::new();
    let mut col = 0;
    for c in 0..k {
        let entries: Vec<(usize, f64)> = (0..m).map(|i| (i, next())).collect();
        t.extend(entries.iter().map(|&(i, v)| (i, col, v)));
        if mirror && c + 1 == k {
            t.extend(entries.iter().map(|&(i, v)| (i, col + 1, -v)));
            dense.push((col, Some(col + 1)));
            col += 2;
        } else {
            dense.push((col, None));
            col += 1;
        }
    }
    let first_sparse = col;
    for i in 0..m {
        t.push((i, col, 1.0));
        col += 1;
        if i + 1 < m {
            t.extend([(i, col, -1.0), (i + 1, col, 0.5 + next().abs())]);
            col += 1;
        }
    }
    let a = SparseColMatrix::from_triplets(m, col, &t).unwrap();
    (a, ColumnSplit { dense, sparse: (first_sparse..col).collect() })
}

/// y of (A·D²·Aᵀ)·y = r by a dense f64 LU.
fn reference(a: &SparseColMatrix, d2: &[f64], r: &[f64]) -> Vec<f64> {
    use faer::linalg::solvers::Solve;
    let ad = a.to_dense();
    let m = a.nrows;
    let mat = Mat::from_fn(m, m, |i, j| (0..a.ncols).map(|c| ad[(i, c)] * d2[c] * ad[(j, c)]).sum::<f64>());
    let x = mat.partial_piv_lu().solve(Mat::from_fn(m, 1, |i, _| r[i]));
    (0..m).map(|i| x[(i, 0)]).collect()
}

fn solved(a: &SparseColMatrix, split: ColumnSplit, d2: &[f64], r: &[f64], rows: usize) -> (Vec<f64>, DenseColumnNormal) {
    let mut vk = CpuVectors::sparse(a.clone(), &[]);
    let mut ne = DenseColumnNormal::new(a, split, rows, CpuPaths::default()).unwrap();
    ne.assemble(&mut vk, &d2.to_vec()).unwrap();
    ne.factor(&mut vk).unwrap();
    let y = ne.solve(&mut vk, &r.to_vec()).unwrap();
    (y, ne)
}

fn relative_error(y: &[f64], want: &[f64]) -> f64 {
    let norm = want.iter().map(|v| v * v).sum::<f64>().sqrt();
    y.iter().zip(want).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt() / norm
}

#[test]
fn the_schur_path_solves_as_the_full_matrix_does_on_odd_sizes() {
    for (m, k, mirror) in [(1, 1, false), (7, 2, true), (33, 3, false), (101, 5, true)] {
        let (a, split) = matrix(m, k, mirror, m as u64);
        let mut next = stream(7 * m as u64);
        let d2: Vec<f64> = (0..a.ncols).map(|_| 10f64.powf(next())).collect();
        let r: Vec<f64> = (0..m).map(|_| next()).collect();
        let (y, ne) = solved(&a, split, &d2, &r, usize::MAX);
        let err = relative_error(&y, &reference(&a, &d2, &r));
        assert!(err < 1e-10, "m = {m}, k = {k}: relative error {err:e}");
        assert_eq!(ne.fallbacks().0, 0);
        let rows = ne.dominated_rows().len();
        assert_eq!(ne.name(), format!("cpu dense columns, {rows} dominated row{}", if rows == 1 { "" } else { "s" }));
    }
}

/// ‖M·y − r‖/(‖M‖·‖y‖ + ‖r‖) with M = A·D²·Aᵀ formed in f64.
fn backward_error(a: &SparseColMatrix, d2: &[f64], y: &[f64], r: &[f64]) -> f64 {
    let (ad, m) = (a.to_dense(), a.nrows);
    let mm = Mat::from_fn(m, m, |i, j| (0..a.ncols).map(|c| ad[(i, c)] * d2[c] * ad[(j, c)]).sum::<f64>());
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let res: Vec<f64> = (0..m).map(|i| (0..m).map(|j| mm[(i, j)] * y[j]).sum::<f64>() - r[i]).collect();
    norm(&res) / (mm.norm_l2() * norm(y) + norm(r))
}

/// Weights: the dense columns' `dense`, the sparse columns touching a row of `weak` 1e-12, the
/// others spread over two orders.
fn weights(a: &SparseColMatrix, k: usize, dense: f64, weak: &[usize], seed: u64) -> Vec<f64> {
    let mut next = stream(seed);
    (0..a.ncols)
        .map(|c| match c {
            _ if c < k => dense,
            _ if a.col(c).any(|(i, _)| weak.contains(&i)) => 1e-12,
            _ => 10f64.powf(next()),
        })
        .collect()
}

/// 61 rows, eight dense columns of weight 1e3, and five rows whose sparse weights are 1e-12.
fn dominated_case() -> (SparseColMatrix, ColumnSplit, Vec<f64>, Vec<f64>, [usize; 5]) {
    let (m, k, weak) = (61, 8, [0, 12, 24, 37, 60]);
    let (a, split) = matrix(m, k, false, 3);
    let d2 = weights(&a, k, 1e3, &weak, 11);
    let r: Vec<f64> = (0..m).map(|i| ((i * 7) % 5) as f64 - 2.0).collect();
    (a, split, d2, r, weak)
}

#[test]
fn rows_the_dense_columns_dominate_go_through_their_own_schur_complement() {
    // Five rows whose sparse weights go to 0 while eight dense columns span them, as the active
    // rows' do near an optimum: their pivots in P̂ fall far below the threshold.
    let (a, split, d2, r, weak) = dominated_case();
    let (y, ne) = solved(&a, split, &d2, &r, usize::MAX);
    assert!(weak.iter().all(|i| ne.dominated_rows().contains(i)), "{:?}", ne.dominated_rows());
    assert_eq!(ne.fallbacks().0, 0);
    let err = relative_error(&y, &reference(&a, &d2, &r));
    assert!(err < 1e-8, "relative error {err:e}");
    assert!(backward_error(&a, &d2, &y, &r) < 1e-13);
}

#[test]
fn dominated_rows_beyond_the_limit_fall_back_to_the_full_matrix_and_say_so() {
    // The same rows with no room for them (a cost model that allows none): one left in P̃
    // loses its pivot, and the iteration takes the full matrix instead.
    let (a, split, d2, r, _) = dominated_case();
    let (y, ne) = solved(&a, split, &d2, &r, 0);
    assert!(ne.dominated_rows().is_empty());
    assert_eq!(ne.fallbacks(), (1, Some(Fallback::TooManyRows { dominated: 5, limit: 0 })));
    assert_eq!(ne.name(), "cpu full (fallback)");
    let err = relative_error(&y, &reference(&a, &d2, &r));
    assert!(err < 1e-8, "relative error {err:e}");
}
