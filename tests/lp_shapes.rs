//! The cpu backend's shaped normal equations against double-precision references computed here
//! entry by entry: A split into a dense block and columns of one entry (`DiagonalSplit`: its
//! products and its diagonal), the m×m path over the block plus the diagonal (`DiagonalNormal`)
//! and the smaller side (`DualNormal`: K, the Schur complement of the rows it keeps exact),
//! on sizes that are not round (1 row, a block of 1, blocks and rows of 2ᵏ ± 1).

use glsolve::cpu::products::{column_kinds, CpuPaths, DiagonalSplit, VSource};
use glsolve::lp::backend::{DiagonalNormal, DualNormal};
use glsolve::lp::model::SparseColMatrix;
use std::sync::Arc;

/// A pseudo-random entry in [−1.5, −0.5] ∪ [0.5, 1.5] (a hash of i and j, never 0).
fn entry(i: usize, j: usize) -> f64 {
    let h = ((i as u64 * 7919 + j as u64 * 104_729 + 17).wrapping_mul(2_654_435_761) >> 7) % 1_000_003;
    let u = h as f64 / 1_000_003.0 * 2.0 - 1.0;
    u.signum() * (0.5 + u.abs())
}

/// An m-row A: `k` dense columns (every third one followed by its mirror, paired), a unit
/// column on each row but those in `bare` (every other one with a second unit column), as
/// (compressed columns, dense columns, free pairs).
fn shaped(m: usize, k: usize, bare: &[usize]) -> (SparseColMatrix, Vec<Vec<f64>>, Vec<(usize, usize)>) {
    let mut cols: Vec<Vec<f64>> = Vec::new();
    let mut pairs = Vec::new();
    for j in 0..k {
        let c: Vec<f64> = (0..m).map(|i| entry(i, j)).collect();
        cols.push(c.clone());
        if j % 3 == 0 {
            pairs.push((cols.len() - 1, cols.len()));
            cols.push(c.iter().map(|v| -v).collect());
        }
    }
    for i in (0..m).filter(|i| !bare.contains(i)) {
        let mut u = vec![0.0; m];
        u[i] = if i % 2 == 0 { -1.0 } else { 0.75 };
        cols.push(u.clone());
        if i % 2 == 1 {
            u[i] = 1.25;
            cols.push(u);
        }
    }
    let n = cols.len();
    let trip: Vec<(usize, usize, f64)> = (0..n)
        .flat_map(|j| (0..m).map(move |i| (i, j)))
        .filter(|&(i, j)| cols[j][i] != 0.0)
        .map(|(i, j)| (i, j, cols[j][i]))
        .collect();
    (SparseColMatrix::from_triplets(m, n, &trip).unwrap(), cols, pairs)
}

/// Weights spanning orders of magnitude, as an interior point's do.
fn weights(n: usize) -> Vec<f64> {
    (0..n).map(|j| 10f64.powi((j % 7) as i32 - 3) * (1.0 + (j % 5) as f64 / 4.0)).collect()
}

/// M = A·diag(w)·Aᵀ, dense, from the columns.
fn normal(cols: &[Vec<f64>], w: &[f64], m: usize) -> Vec<Vec<f64>> {
    let mut mm = vec![vec![0.0; m]; m];
    for (c, &wj) in cols.iter().zip(w) {
        for i in 0..m {
            for l in 0..m {
                mm[i][l] += c[i] * wj * c[l];
            }
        }
    }
    mm
}

/// ‖M·y − r‖∞ / (‖M‖∞·‖y‖∞ + ‖r‖∞): the solve's backward error.
fn backward_error(mm: &[Vec<f64>], y: &[f64], r: &[f64]) -> f64 {
    let inf = |v: &[f64]| v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let norm = mm.iter().map(|row| row.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    let res: Vec<f64> =
        mm.iter().zip(r).map(|(row, ri)| row.iter().zip(y).map(|(a, b)| a * b).sum::<f64>() - ri).collect();
    inf(&res) / (norm * inf(y) + inf(r))
}

const SIZES: [(usize, usize); 7] = [(1, 1), (2, 1), (7, 3), (9, 2), (31, 15), (33, 17), (65, 16)];

#[test]
fn split_products_match_the_dense_products() {
    for (m, k) in SIZES {
        let bare: Vec<usize> = (0..m).filter(|i| i % 5 == 3).collect();
        let (a, cols, pairs) = shaped(m, k, &bare);
        let split = DiagonalSplit::new(a.csc(), column_kinds(a.csc(), &pairs));
        let n = cols.len();
        let x: Vec<f64> = (0..n).map(|j| (j as f64 * 0.37).sin()).collect();
        let y: Vec<f64> = (0..m).map(|i| (i as f64 * 0.71).cos()).collect();
        let theta = weights(n);
        let ax: Vec<f64> = (0..m).map(|i| (0..n).map(|j| cols[j][i] * x[j]).sum()).collect();
        let aty: Vec<f64> = (0..n).map(|j| (0..m).map(|i| cols[j][i] * y[i]).sum()).collect();
        // Each result against f64 sums, within γₙ of the sum of its terms' sizes.
        let close = |got: &[f64], want: &[f64], sizes: &[f64], what: &str| {
            assert_eq!(got.len(), want.len());
            for ((g, w), t) in got.iter().zip(want).zip(sizes) {
                assert!((g - w).abs() <= 2.0 * n as f64 * f64::EPSILON * t, "{what} at {m}×{k}: {g} vs {w}");
            }
        };
        let row_sizes =
            |x: &[f64]| -> Vec<f64> { (0..m).map(|i| (0..n).map(|j| (cols[j][i] * x[j]).abs()).sum()).collect() };
        let col_sizes: Vec<f64> = (0..n).map(|j| (0..m).map(|i| (cols[j][i] * y[i]).abs()).sum()).collect();
        close(&split.a_mul(&x, 2).unwrap(), &ax, &row_sizes(&x), "A·x");
        close(&split.at_mul(&y, 2).unwrap(), &aty, &col_sizes, "Aᵀ·y");
        let (u, v, av) = split.fused(&y, VSource::Scaled { theta: &theta, t: Some(&x) }, 2).unwrap();
        let v_ref: Vec<f64> = (0..n).map(|j| theta[j] * aty[j] - x[j]).collect();
        let av_ref: Vec<f64> = (0..m).map(|i| (0..n).map(|j| cols[j][i] * v_ref[j]).sum()).collect();
        let v_sizes: Vec<f64> = (0..n).map(|j| theta[j] * col_sizes[j] + x[j].abs()).collect();
        close(&u, &aty, &col_sizes, "fused Aᵀ·y");
        close(&v, &v_ref, &v_sizes, "fused v");
        close(&av, &av_ref, &row_sizes(&v_sizes), "fused A·v");
        assert!(split.a_mul(&x[1..], 1).is_err() && split.at_mul(&[], 1).is_err(), "lengths are checked");
    }
}

#[test]
fn the_diagonal_path_assembles_the_whole_normal_matrix() {
    for (m, k) in SIZES {
        // No more bare rows than block columns: those rows' part of M has the block's rank.
        let bare: Vec<usize> = (0..m).filter(|i| i % 6 == 2).collect();
        let (a, cols, pairs) = shaped(m, k, &bare);
        let split = Arc::new(DiagonalSplit::new(a.csc(), column_kinds(a.csc(), &pairs)));
        // Counted once per slot: a mirror joins its column (with one row every column is a
        // column of one entry).
        assert_eq!(split.block().ncols(), if m > 1 { k } else { 0 }, "{m}×{k}");
        let w = weights(cols.len());
        let mm = normal(&cols, &w, m);
        let mut ne = DiagonalNormal::new(split, CpuPaths::default(), false);
        ne.assemble_host(&w).unwrap();
        let got = ne.matrix();
        for i in 0..m {
            for l in 0..=i {
                let scale = (mm[i][i] * mm[l][l]).sqrt();
                assert!((got[(i, l)] - mm[i][l]).abs() <= 1e-13 * scale, "({i},{l}) of {m}×{k}");
            }
        }
        ne.factor_assembled().unwrap();
        let r: Vec<f64> = (0..m).map(|i| 1.0 + (i as f64).sin()).collect();
        let y = ne.solve_host(&r).unwrap();
        assert!(backward_error(&mm, &y, &r) < 1e-13, "{m}×{k}: {}", backward_error(&mm, &y, &r));
        assert!(ne.assemble_host(&w[1..]).is_err(), "a short d² is an error");
    }
}

#[test]
fn the_smaller_side_solves_the_normal_equations() {
    for (m, k) in SIZES {
        // Bare rows (none for m = 1, where one row must hold a unit column).
        let bare: Vec<usize> = (0..m).filter(|i| m > 1 && i % 6 == 2).collect();
        let (a, cols, pairs) = shaped(m, k, &bare);
        let split = Arc::new(DiagonalSplit::new(a.csc(), column_kinds(a.csc(), &pairs)));
        let w = weights(cols.len());
        let mm = normal(&cols, &w, m);
        let mut ne = DualNormal::new(split);
        let r: Vec<f64> = (0..m).map(|i| 0.5 - (i as f64 * 1.3).cos()).collect();
        assert!(ne.solve_host(&r).is_err(), "no factor yet");
        ne.assemble_host(&w).unwrap();
        for i in &bare {
            assert!(ne.schur_rows().contains(i), "bare row {i} of {m}×{k} goes through the Schur complement");
        }
        ne.factor_assembled().unwrap();
        let y = ne.solve_host(&r).unwrap();
        let e = backward_error(&mm, &y, &r);
        assert!(e < 1e-12, "{m}×{k}: backward error {e}");
        assert!(ne.solve_host(&r[1..]).is_err(), "a short r is an error");
    }
}

#[test]
fn rows_whose_unit_columns_vanish_stay_exact() {
    // Near the optimum an active row's unit column has a weight ~μ while the block's columns
    // have ~1/μ: through Δ⁻¹ such a row's y loses every digit. Those rows must go to the Schur
    // complement, and the solve keep its backward error.
    let (m, k) = (41, 5);
    let (a, cols, pairs) = shaped(m, k, &[]);
    let split = Arc::new(DiagonalSplit::new(a.csc(), column_kinds(a.csc(), &pairs)));
    let units = &split.kinds().units;
    let active: Vec<usize> = (0..m).filter(|i| i % 7 == 0).collect();
    let mut w = vec![1e4; cols.len()];
    for &(j, i, _) in units {
        w[j] = if active.contains(&i) { 1e-9 } else { 1e5 * (1.0 + i as f64 / 40.0) };
    }
    let mm = normal(&cols, &w, m);
    let mut ne = DualNormal::new(split);
    ne.assemble_host(&w).unwrap();
    assert_eq!(ne.schur_rows(), &active[..], "the rows the unit columns no longer dominate");
    ne.factor_assembled().unwrap();
    let r: Vec<f64> = (0..m).map(|i| 1.0 + (i % 3) as f64).collect();
    let y = ne.solve_host(&r).unwrap();
    let e = backward_error(&mm, &y, &r);
    assert!(e < 1e-12, "backward error {e}");
}
