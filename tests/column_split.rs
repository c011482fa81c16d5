//! The column split of an exact assembly (`lp::backend::split_columns`): the columns it sums in
//! reduced precision hold at most η of every diagonal entry (checked against f64 sums made
//! here), the assembled matrix stays within the split's error bound of f64 sums, and weights
//! that are not yet apart, or not usable, leave the assembly wholly in f64.

mod common;

use common::log::SharedLog;
use common::matrices::{entries, weighted_gram_sums};
use common::paths::{on, runnable};
use faer::{Accum, Mat, MatRef};
use glsolve::cpu::gram::{gram_lower, Precision, AMX_KC, KC};
use glsolve::cpu::products::{column_max_squares, share_bound, split_columns, MIN_REDUCED_SHARE};

/// Weights 1 on every `big`-th column and `small` elsewhere, times a spread in [1, 2).
fn spread_weights(n: usize, big: usize, small: f64) -> Vec<f64> {
    (0..n).map(|j| (if j % big == 0 { 1.0 } else { small }) * (1.0 + (j % 7) as f64 / 7.0)).collect()
}

/// Σ over the columns of `set` of wⱼ·a²ᵢⱼ, and Mᵢᵢ over all columns, per row.
fn row_shares(a: MatRef<'_, f64>, w: &[f64], set: &[bool]) -> Vec<(f64, f64)> {
    (0..a.nrows())
        .map(|i| {
            let part: f64 = (0..a.ncols()).filter(|&j| set[j]).map(|j| w[j] * a[(i, j)] * a[(i, j)]).sum();
            let all: f64 = (0..a.ncols()).map(|j| w[j] * a[(i, j)] * a[(i, j)]).sum();
            (part, all)
        })
        .collect()
}

/// The split's guarantee for `split`: every row's reduced share at most η, the weights kept.
/// Returns the largest share over η.
fn check_shares(a: MatRef<'_, f64>, w: &[f64], eta: f64, what: &str) -> f64 {
    let split = split_columns(a, w, &column_max_squares(a), eta).unwrap_or_else(|| panic!("{what}: no split"));
    let reduced: Vec<bool> = split.reduced.iter().map(|&x| x != 0.0).collect();
    assert_eq!(reduced.iter().filter(|&&r| r).count(), split.reduced_columns, "{what}");
    assert!(split.reduced_columns >= a.ncols().div_ceil(MIN_REDUCED_SHARE), "{what}: {}", split.reduced_columns);
    for (j, (&e, &r)) in split.exact.iter().zip(&split.reduced).enumerate() {
        assert!(e == 0.0 || r == 0.0, "{what}: column {j} in both");
        assert_eq!(e + r, w[j], "{what}: column {j} lost its weight");
    }
    let mut worst = 0.0f64;
    for (i, (part, all)) in row_shares(a, w, &reduced).into_iter().enumerate() {
        assert!(part <= eta * all, "{what} row {i}: reduced share {part:e} of {all:e} (η = {eta:e})");
        worst = worst.max(part / (eta * all));
    }
    worst
}

#[test]
fn the_reduced_columns_hold_at_most_eta_of_every_diagonal_entry() {
    for (m, n, seed) in [(1, 9, 1), (37, 151, 2), (64, 257, 3), (33, 130, 4)] {
        let a = entries(m, n, seed);
        let w = spread_weights(n, 4, 1e-14);
        check_shares(a.as_ref(), &w, 1e-9, &format!("{m}×{n}"));
        // Every column of weight 1 stays exact: its share of some row is far above η.
        let split = split_columns(a.as_ref(), &w, &column_max_squares(a.as_ref()), 1e-9).unwrap();
        assert!((0..n).step_by(4).all(|j| split.exact[j] == w[j]), "{m}×{n}");
    }
}

#[test]
fn rows_of_other_scales_and_graded_weights_keep_the_guarantee_near_its_limit() {
    // Weights graded from 1e-6 down to 1e-30 on three columns in four (1 on the fourth); row 7
    // has its entries in the weight-1 columns scaled by 1e-4, so its diagonal is small and the
    // small columns' share of it is the largest; row 0 has its small-column entries scaled by
    // 1e-3, so that row 0 alone understates the column maxima. The split must hold the share
    // below η in every row, and come within a factor 100 of it (a looser test would pass a
    // selection that read one row, or the largest diagonal instead of the smallest).
    let (m, n) = (40, 320);
    let mut a = entries(m, n, 9);
    let w: Vec<f64> = (0..n)
        .map(|j| if j % 4 == 0 { 1.0 } else { 10f64.powf(-6.0 - 24.0 * ((j * 37) % n) as f64 / n as f64) })
        .collect();
    for j in 0..n {
        if j % 4 == 0 {
            a[(7, j)] *= 1e-4;
        } else {
            a[(0, j)] *= 1e-3;
        }
    }
    let eta = share_bound(n, Precision::Bf16Pair);
    let worst = check_shares(a.as_ref(), &w, eta, "graded");
    assert!(worst >= 1e-2, "the largest share is {worst:e} of η: the test does not reach the limit");
}

#[test]
fn weights_not_apart_or_not_usable_keep_the_assembly_exact() {
    let a = entries(21, 83, 5);
    let cms = column_max_squares(a.as_ref());
    let eta = share_bound(83, Precision::Bf16Pair);
    let even = vec![1.0; 83];
    assert_eq!(split_columns(a.as_ref(), &even, &cms, eta), None, "equal weights");
    let mild = spread_weights(83, 4, 1e-3);
    assert_eq!(split_columns(a.as_ref(), &mild, &cms, eta), None, "weights 1e3 apart");
    let spread = spread_weights(83, 4, 1e-14);
    assert!(split_columns(a.as_ref(), &spread, &cms, eta).is_some(), "the control case splits");
    for (what, j, v) in [("NaN", 3, f64::NAN), ("negative", 5, -1e-20), ("infinite", 0, f64::INFINITY)] {
        let mut w = spread.clone();
        w[j] = v;
        assert_eq!(split_columns(a.as_ref(), &w, &cms, eta), None, "{what} weight");
    }
    assert_eq!(split_columns(a.as_ref(), &spread[1..], &cms, eta), None, "short w");
    assert_eq!(split_columns(a.as_ref(), &spread, &cms[1..], eta), None, "short maxima");
    assert_eq!(split_columns(a.as_ref(), &spread, &cms, 0.0), None, "η = 0");
    assert_eq!(split_columns(a.as_ref(), &spread, &cms, f64::NAN), None, "η NaN");
    // Only zero weights below the others: nothing would be reduced.
    let zeros: Vec<f64> = (0..83).map(|j| if j % 2 == 0 { 1.0 } else { 0.0 }).collect();
    assert_eq!(split_columns(a.as_ref(), &zeros, &cms, eta), None, "zero weights only");
    // A matrix whose diagonal is below SMALLEST_DIAGONAL: flushed products could matter.
    let tiny = Mat::from_fn(21, 83, |i, j| a[(i, j)] * 1e-12);
    assert_eq!(split_columns(tiny.as_ref(), &spread, &column_max_squares(tiny.as_ref()), eta), None, "tiny");
    let small = Mat::from_fn(21, 83, |i, j| a[(i, j)] * 1e-6);
    assert!(split_columns(small.as_ref(), &spread, &column_max_squares(small.as_ref()), eta).is_some(), "1e-6");
    let empty = Mat::<f64>::zeros(0, 83);
    assert_eq!(split_columns(empty.as_ref(), &spread, &cms, eta), None, "no rows");
    assert_eq!(share_bound(83, Precision::Double), 0.0);
}

/// β of the reduced products as `tests/syrk_bf16.rs` and `tests/cpu_kernels.rs` bound them.
fn beta(n: usize, precision: Precision) -> f64 {
    let g = |k: usize, u: f64| k as f64 * u / (1.0 - k as f64 * u);
    let (u32, u64) = (2f64.powi(-24), 2f64.powi(-53));
    match precision {
        Precision::Bf16Pair => 3.1 * 2f64.powi(-16) + g(3 * AMX_KC + 2, u32) + g(n + 1, u64),
        _ => g(KC + 3, u32) + g(n + 1, u64),
    }
}

#[test]
fn share_bounds_are_gamma_n_over_the_kernels_bounds() {
    for n in [1usize, 2048, 8191] {
        let gamma = n as f64 * 2f64.powi(-53) / (1.0 - n as f64 * 2f64.powi(-53));
        for p in [Precision::Bf16Pair, Precision::Single] {
            let eta = share_bound(n, p);
            assert!((eta * beta(n, p) / gamma - 1.0).abs() < 1e-12, "n = {n}, {p:?}: {eta:e}");
        }
    }
}

#[test]
fn a_split_assembly_is_within_the_splits_bound_of_f64_sums() {
    for precision in [Precision::Bf16Pair, Precision::Single] {
        for (m, n, seed) in [(1, 40, 6), (49, 301, 7), (97, 520, 8)] {
            let a = entries(m, n, seed);
            let w = spread_weights(n, 3, 1e-22);
            let eta = share_bound(n, precision);
            let split = split_columns(a.as_ref(), &w, &column_max_squares(a.as_ref()), eta).expect("splits");
            let (exact, abs) = weighted_gram_sums(a.as_ref(), &w);
            for isa in runnable("split assembly") {
                let paths = on(isa);
                let mut c = Mat::<f64>::zeros(m, m);
                let (ex, re) = (&split.exact, &split.reduced);
                gram_lower(&paths, Precision::Double, a.as_ref(), ex, c.as_mut(), Accum::Replace, 2).expect("fits");
                gram_lower(&paths, precision, a.as_ref(), re, c.as_mut(), Accum::Add, 2).expect("fits");
                // β·η·√(MᵢᵢMₖₖ) for the reduced part, γ for the f64 sums on both sides.
                let gamma = 2.0 * (n + 2) as f64 * 2f64.powi(-53);
                for k in 0..m {
                    for i in k..m {
                        let scale = (exact[(i, i)] * exact[(k, k)]).sqrt();
                        let bound = beta(n, precision) * eta * scale + gamma * abs[(i, k)];
                        let err = (c[(i, k)] - exact[(i, k)]).abs();
                        assert!(err <= bound, "{isa:?} {precision:?} {m}×{n} ({i}, {k}): {err:e} > {bound:e}");
                    }
                }
            }
        }
    }
}

#[test]
fn split_factors_reach_the_optimum_of_the_all_f64_solve() {
    use glsolve::lp::log::Logger;
    use glsolve::lp::random::random_lp;
    use glsolve::lp::solve;
    use glsolve::{Settings, Status};
    let model = random_lp(256, 2).to_model(2);
    let log = SharedLog::default();
    let st = Settings::default();
    let split = solve(&model, &st, &mut Logger::to_writer(Box::new(log.clone()))).expect("valid settings");
    let text = log.text();
    assert!(text.lines().any(|l| l.ends_with("cpu split")), "no iteration names a split factor:\n{text}");
    let plain = Settings::builder(glsolve::BackendKind::Cpu)
        .cpu(glsolve::CpuOptions { mixed_precision: false, ..Default::default() })
        .build()
        .expect("valid");
    let plain_log = SharedLog::default();
    let f64_only = solve(&model, &plain, &mut Logger::to_writer(Box::new(plain_log.clone()))).expect("valid settings");
    let plain_text = plain_log.text();
    assert!(!plain_text.contains("cpu split"), "a split without mixed precision:\n{plain_text}");
    assert!(plain_text.lines().any(|l| l.ends_with(" cpu")), "no iteration lines:\n{plain_text}");
    for s in [&split, &f64_only] {
        assert_eq!(s.status, Status::Optimal, "{}", s.detail);
        assert!(s.verification.as_ref().is_some_and(|v| v.worst() <= v.tolerance), "{:?}", s.verification);
    }
    let rel = (split.objective - f64_only.objective).abs() / f64_only.objective.abs().max(1.0);
    assert!(rel <= 1e-8, "objectives {} and {} differ by {rel:e}", split.objective, f64_only.objective);
    assert!(split.iterations <= f64_only.iterations + 1, "{} against {}", split.iterations, f64_only.iterations);
}
