//! The CPU kernels under the cpu backend: the weighted symmetric rank-n update (`cpu::gram`: faer's
//! in f64, and in single precision on every path this CPU runs) and the two-level blocked
//! Cholesky (`cpu::cholesky`), against sums and products written out here, on sizes that
//! straddle every tile and block edge, into C views of every layout a caller can pass.

mod common;

use common::matrices::{entries, weighted_gram_sums};
use common::paths::{on, runnable};
use faer::{Accum, Mat, MatRef, Par};
use glsolve::cpu::cholesky::{cholesky_lower, cholesky_lower_in, cholesky_lower_with, PivotRule, BLOCK, INNER_BLOCK};
use glsolve::cpu::gram::{gram_lower, Precision, KC, MC};
use glsolve::cpu::paths::{CpuPaths, Isa};

/// Unit roundoff of f64.
const U: f64 = f64::EPSILON / 2.0;

/// Weights with zeros (skipped columns) and negatives among them.
fn weights(n: usize) -> Vec<f64> {
    (0..n)
        .map(|j| match j % 7 {
            3 => 0.0,
            5 => -0.75,
            k => 0.25 + k as f64,
        })
        .collect()
}

/// Σⱼ a_ij·w_j·a_kj for i ≥ k, and a bound on the rounding of any summation order: in double
/// precision γ_{n+1}·Σⱼ |a_ij·w_j·a_kj| (Higham, Thm 3.1 applied to the n products); in single
/// precision (inputs rounded to f32, products and sums in f32 within blocks of KC, f64 across
/// them) γ^{(32)}_{KC+3} + γ_{n+1} times the same sum.
fn reference(a: MatRef<'_, f64>, w: &[f64], precision: Precision) -> (Mat<f64>, Mat<f64>) {
    let (m, n) = (a.nrows(), a.ncols());
    let g = |k: f64, u: f64| k * u / (1.0 - k * u);
    let gamma = match precision {
        Precision::Double => g(n as f64 + 1.0, U),
        Precision::Single => g(KC as f64 + 3.0, 2f64.powi(-24)) + g(n as f64 + 1.0, U),
        Precision::Bf16Pair => unreachable!("tests/syrk_bf16.rs has its bound"),
    };
    let (c, abs) = weighted_gram_sums(a, w);
    (c, Mat::from_fn(m, m, |i, k| 2.0 * gamma * abs[(i, k)]))
}

/// The kernels this machine runs (the portable one always), named in the test output.
fn kernels() -> Vec<Isa> {
    runnable("A·diag(w)·Aᵀ in single precision (in f64: faer's, one path)")
}

/// (isa, precision) pairs to run: single precision on every kernel this machine runs, double
/// precision once (it has one path whatever the paths say).
fn cases() -> Vec<(Isa, Precision)> {
    let mut cases: Vec<_> = kernels().into_iter().map(|i| (i, Precision::Single)).collect();
    cases.push((Isa::Portable, Precision::Double));
    cases
}

/// The product on `isa`'s kernels (operands of fitting shapes).
fn product(
    isa: Isa,
    precision: Precision,
    a: MatRef<'_, f64>,
    w: &[f64],
    c: faer::MatMut<'_, f64>,
    accum: Accum,
    threads: usize,
) {
    gram_lower(&on(isa), precision, a, w, c, accum, threads).expect("shapes fit");
}

#[test]
fn weighted_gram_matches_the_sums_on_every_tile_and_block_edge() {
    let sizes_m = [1, 2, 7, 8, 11, 12, 13, 23, 24, 25, 47, 48, 49, 100, MC - 1, MC, MC + 1, 2 * MC + 5];
    let sizes_n = [1, 3, KC - 1, KC, KC + 1, 2 * KC + 3];
    for (isa, precision) in cases() {
        for (t, &m) in sizes_m.iter().enumerate() {
            let n = sizes_n[t % sizes_n.len()];
            let a = entries(m, n, (m * 1000 + n) as u64);
            let w = weights(n);
            let (want, bound) = reference(a.as_ref(), &w, precision);
            for threads in [1, 2, 3] {
                // C inside a larger matrix (column stride > m), NaN everywhere first: the strict
                // upper triangle and the border must stay NaN.
                let mut big = Mat::from_fn(m + 3, m + 2, |_, _| f64::NAN);
                let c = big.as_mut().submatrix_mut(1, 1, m, m);
                product(isa, precision, a.as_ref(), &w, c, Accum::Replace, threads);
                for j in 0..m + 2 {
                    for i in 0..m + 3 {
                        let inside = (1..=m).contains(&i) && (1..=m).contains(&j) && i >= j;
                        let v = big[(i, j)];
                        if !inside {
                            assert!(
                                v.is_nan(),
                                "{isa:?} {precision:?} m={m} n={n}: wrote outside the lower triangle at ({i},{j})"
                            );
                            continue;
                        }
                        let (ii, jj) = (i - 1, j - 1);
                        let err = (v - want[(ii, jj)]).abs();
                        assert!(
                            err <= bound[(ii, jj)],
                            "{isa:?} {precision:?} m={m} n={n} threads={threads}: C[{ii},{jj}] = {v:e}, sum {:e}, error {err:e} > bound {:e}",
                            want[(ii, jj)],
                            bound[(ii, jj)]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn weighted_gram_is_bit_identical_across_thread_counts_and_adds_on_request() {
    for isa in kernels() {
        let (m, n) = (2 * MC + 37, KC + 9);
        let a = entries(m, n, 99);
        let w = weights(n);
        let mut one = Mat::zeros(m, m);
        product(isa, Precision::Double, a.as_ref(), &w, one.as_mut(), Accum::Replace, 1);
        for (precision, reference) in [(Precision::Double, one.clone()), (Precision::Single, Mat::zeros(0, 0))] {
            let mut first = Mat::zeros(m, m);
            product(isa, precision, a.as_ref(), &w, first.as_mut(), Accum::Replace, 1);
            if reference.nrows() == m {
                assert!(first == reference);
            } else {
                // Single precision really rounds: the f32 products differ from the f64 ones.
                let diff = (0..m)
                    .flat_map(|j| (j..m).map(move |i| (i, j)))
                    .map(|(i, j)| (first[(i, j)] - one[(i, j)]).abs())
                    .fold(0.0, f64::max);
                assert!(diff > 1e-12, "{isa:?}: the single-precision product equals the double one");
            }
            for threads in [2, 3, 5] {
                let mut c = Mat::zeros(m, m);
                product(isa, precision, a.as_ref(), &w, c.as_mut(), Accum::Replace, threads);
                assert!(first == c, "{isa:?} {precision:?}: {threads} threads differ from one");
            }
        }
        // Add: C₀ + A·W·Aᵀ, with C₀ = the same product, is exactly twice it when the sum is
        // computed in the same order: weights of one sign (positive and negative columns are
        // summed in separate sweeps, so with mixed signs the order differs and only rounding
        // separates the two).
        for (signs, w) in [
            ("positive", w.iter().map(|v| v.abs()).collect::<Vec<_>>()),
            ("negative", w.iter().map(|v| -v.abs()).collect()),
            ("mixed", w.clone()),
        ] {
            let mut once = Mat::zeros(m, m);
            product(isa, Precision::Double, a.as_ref(), &w, once.as_mut(), Accum::Replace, 2);
            let mut twice = once.clone();
            product(isa, Precision::Double, a.as_ref(), &w, twice.as_mut(), Accum::Add, 2);
            for j in 0..m {
                for i in j..m {
                    let (got, want) = (twice[(i, j)], 2.0 * once[(i, j)]);
                    if signs == "mixed" {
                        // |A|·|W|·|A|ᵀ bounds the terms; the sums differ by a few of its ulps.
                        let bound: f64 = (0..n).map(|k| (a[(i, k)] * w[k] * a[(j, k)]).abs()).sum();
                        assert!((got - want).abs() <= 1e-14 * bound, "{isa:?}: add at ({i},{j}) {got} vs {want}");
                    } else {
                        assert_eq!(got, want, "{isa:?}: add with {signs} weights at ({i},{j})");
                    }
                }
            }
        }
        // All weights zero: Replace writes zeros, Add leaves C as it was.
        let zero = vec![0.0; n];
        let mut c = Mat::from_fn(m, m, |_, _| 5.0);
        product(isa, Precision::Double, a.as_ref(), &zero, c.as_mut(), Accum::Add, 2);
        assert!(c.col_iter().all(|col| col.iter().all(|&v| v == 5.0)));
        product(isa, Precision::Double, a.as_ref(), &zero, c.as_mut(), Accum::Replace, 2);
        for j in 0..m {
            for i in j..m {
                assert_eq!(c[(i, j)], 0.0);
            }
        }
    }
}

/// Checks the lower triangle of `got` (i ≥ j) against the sums within their bound.
fn assert_lower_matches(got: impl Fn(usize, usize) -> f64, want: &Mat<f64>, bound: &Mat<f64>, what: &str) {
    let m = want.nrows();
    for j in 0..m {
        for i in j..m {
            let err = (got(i, j) - want[(i, j)]).abs();
            assert!(
                err <= bound[(i, j)],
                "{what}: C[{i},{j}] = {:e}, sum {:e}, error {err:e}",
                got(i, j),
                want[(i, j)]
            );
        }
    }
}

#[test]
fn views_with_reversed_or_transposed_columns_are_written_where_they_point() {
    // A reversed view has a negative column stride, a transposed one a row stride of m: the
    // hand-written kernels address C as c + i + j·ldc, so both must go to the portable path
    // (before, a negative stride became a huge `usize` ldc) and still give the product.
    let (m, n) = (61, KC + 5);
    let a = entries(m, n, 17);
    let w = weights(n);
    for (isa, precision) in cases() {
        let (want, bound) = reference(a.as_ref(), &w, precision);
        let what = format!("{isa:?} {precision:?}");
        let mut big = Mat::from_fn(m, m, |_, _| f64::NAN);
        product(isa, precision, a.as_ref(), &w, big.as_mut().reverse_cols_mut(), Accum::Replace, 2);
        // View entry (i, j) is big[(i, m − 1 − j)]; the view's strict upper triangle stays NaN.
        assert_lower_matches(|i, j| big[(i, m - 1 - j)], &want, &bound, &format!("{what}, reversed columns"));
        assert!((0..m).all(|j| (0..j).all(|i| big[(i, m - 1 - j)].is_nan())), "{what}: wrote above the diagonal");
        let mut big = Mat::from_fn(m, m, |_, _| f64::NAN);
        product(isa, precision, a.as_ref(), &w, big.as_mut().transpose_mut(), Accum::Replace, 2);
        assert_lower_matches(|i, j| big[(j, i)], &want, &bound, &format!("{what}, transposed"));
        let mut big = Mat::from_fn(m, m, |_, _| f64::NAN);
        product(isa, precision, a.as_ref(), &w, big.as_mut().reverse_rows_and_cols_mut(), Accum::Replace, 2);
        assert_lower_matches(|i, j| big[(m - 1 - i, m - 1 - j)], &want, &bound, &format!("{what}, reversed"));
    }
}

#[test]
fn a_c_that_ends_its_buffer_is_written_up_to_its_last_entry_when_tile_rows_are_masked_out() {
    // C exactly m·m values long, m not a multiple of any tile height: the last tiles' rows past
    // m are masked out, and nothing past the buffer may be touched (the kernels form those
    // addresses only with wrapping arithmetic; run under valgrind or ASan by .ci/checks).
    for m in [1, 5, 23, 25, 47, 49, 97, MC + 7] {
        let n = KC + 3;
        let a = entries(m, n, m as u64 + 40);
        let w = weights(n);
        for (isa, precision) in cases() {
            let (want, bound) = reference(a.as_ref(), &w, precision);
            let mut buf = vec![f64::NAN; m * m];
            let c = faer::MatMut::from_column_major_slice_mut(&mut buf, m, m);
            product(isa, precision, a.as_ref(), &w, c, Accum::Replace, 2);
            assert_lower_matches(|i, j| buf[i + j * m], &want, &bound, &format!("{isa:?} {precision:?} m={m}"));
        }
    }
}

/// A symmetric positive definite matrix B·Bᵀ + m·I (well conditioned).
fn spd(m: usize, seed: u64) -> Mat<f64> {
    let b = entries(m, m, seed);
    let mut c = &b * b.transpose();
    for i in 0..m {
        c[(i, i)] += m as f64;
    }
    c
}

#[test]
fn blocked_cholesky_reconstructs_across_inner_and_outer_block_edges() {
    let sizes = [1, 2, INNER_BLOCK - 1, INNER_BLOCK, INNER_BLOCK + 1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 31];
    for &m in &sizes {
        let a = spd(m, m as u64);
        for par in [Par::Seq, Par::rayon(2)] {
            let mut l = a.clone();
            let replaced = cholesky_lower(l.as_mut(), 1e-14, 1.0, par).expect("SPD factors");
            assert_eq!(replaced, 0, "m={m}");
            let lower = Mat::from_fn(m, m, |i, j| if i >= j { l[(i, j)] } else { 0.0 });
            // Backward error (Higham Thm 10.3): |A − L·Lᵀ| ≤ γ_{m+1}·|L|·|Lᵀ| entrywise.
            let r = &lower * lower.transpose() - &a;
            let absl = Mat::from_fn(m, m, |i, j| lower[(i, j)].abs());
            let bound = &absl * absl.transpose();
            let gamma = (m as f64 + 1.0) * U / (1.0 - (m as f64 + 1.0) * U);
            for j in 0..m {
                for i in 0..m {
                    assert!(
                        r[(i, j)].abs() <= 2.0 * gamma * bound[(i, j)],
                        "m={m}: |A − LLᵀ|[{i},{j}] = {:e} > {:e}",
                        r[(i, j)].abs(),
                        2.0 * gamma * bound[(i, j)]
                    );
                }
            }
        }
    }
}

#[test]
fn reduced_precision_updates_factor_nearby_and_double_ones_give_the_same_bits() {
    let rule = PivotRule { tiny: 1e-14, huge: 1.0, deflate: false };
    for m in [BLOCK + 37, 2 * BLOCK + 1] {
        let a = spd(m, m as u64 + 5);
        let mut exact = a.clone();
        cholesky_lower_with(exact.as_mut(), rule, Par::rayon(2)).expect("SPD factors");
        let mut same = a.clone();
        cholesky_lower_in(&CpuPaths::default(), same.as_mut(), rule, Par::rayon(2), Precision::Double)
            .expect("SPD factors");
        let lower = |l: &Mat<f64>| Mat::from_fn(m, m, |i, j| if i >= j { l[(i, j)] } else { 0.0 });
        assert!(lower(&same) == lower(&exact), "m={m}: double-precision updates changed the factor");
        for updates in [Precision::Single, Precision::Bf16Pair] {
            let mut l = a.clone();
            cholesky_lower_in(&CpuPaths::default(), l.as_mut(), rule, Par::rayon(2), updates).expect("SPD factors");
            let l = lower(&l);
            assert!(l != lower(&exact), "m={m} {updates:?}: the updates were not reduced");
            // Each update's products are off by at most ≈ 9·2⁻¹⁶ of |L₂₁|·|L₂₁ᵀ| (bf16 pairs;
            // single precision far less): |A − L·Lᵀ| ≤ 2⁻¹²·|L|·|Lᵀ| entrywise.
            let r = &l * l.transpose() - &a;
            let absl = Mat::from_fn(m, m, |i, j| l[(i, j)].abs());
            let bound = &absl * absl.transpose();
            for j in 0..m {
                for i in 0..m {
                    let limit = 2f64.powi(-12) * bound[(i, j)];
                    assert!(
                        r[(i, j)].abs() <= limit,
                        "m={m} {updates:?}: |A − LLᵀ|[{i},{j}] = {:e} > {limit:e}",
                        r[(i, j)]
                    );
                }
            }
        }
    }
}

#[test]
fn blocked_cholesky_is_the_same_on_any_number_of_threads() {
    // The panels below each outer block (287 rows at m = 543; 517 and 261 at m = 773) are
    // solved in row ranges side by side and the trailing updates in column ranges; every entry
    // is still computed by one thread in one order, so the factor must not change by a single
    // bit with the thread count (three threads cut the rows unevenly, eight into as many
    // pieces of at least 64 rows as fit). The same holds with the deflating rule, whose zeroed
    // columns cross the row ranges.
    let factor = |a: &Mat<f64>, rule: PivotRule, par: Par| {
        let mut l = a.clone();
        let replaced = cholesky_lower_with(l.as_mut(), rule, par).expect("factors");
        (l, replaced)
    };
    let plain = PivotRule { tiny: 1e-14, huge: 1.0, deflate: false };
    let deflating = PivotRule { tiny: 1e-11, huge: 1.0, deflate: true };
    let m = 2 * BLOCK + 31;
    let mut b = entries(m, m + 10, 5);
    for r in [5, INNER_BLOCK, BLOCK + 3, 2 * BLOCK + 7] {
        for j in 0..m + 10 {
            b[(r, j)] = b[(r - 1, j)];
        }
    }
    let c = &b * b.transpose();
    let s: Vec<f64> = (0..m).map(|i| 1.0 / c[(i, i)].sqrt()).collect();
    let dependent = Mat::from_fn(m, m, |i, j| c[(i, j)] * s[i] * s[j]);
    let cases = [(spd(m, 7), plain, 0), (spd(3 * BLOCK + 5, 8), plain, 0), (dependent, deflating, 4)];
    for (a, rule, expect_replaced) in &cases {
        let n = a.nrows();
        let (seq, replaced) = factor(a, *rule, Par::Seq);
        assert_eq!(replaced, *expect_replaced, "m={n}, one thread");
        for threads in [2, 3, 8] {
            let (par, replaced) = factor(a, *rule, Par::rayon(threads));
            assert_eq!(replaced, *expect_replaced, "m={n}, {threads} threads");
            for j in 0..n {
                for i in j..n {
                    assert_eq!(
                        par[(i, j)].to_bits(),
                        seq[(i, j)].to_bits(),
                        "m={n}, {threads} threads, deflate {}: L[{i},{j}] = {:e} against {:e} on one",
                        rule.deflate,
                        par[(i, j)],
                        seq[(i, j)]
                    );
                }
            }
        }
    }
}

#[test]
fn blocked_cholesky_replaces_dependent_pivots_in_every_block() {
    // Rows that are exact copies of earlier rows, placed inside an inner block, on an inner
    // block edge and past the first outer block: each must give one replaced pivot, and the
    // factor must stay finite.
    let m = BLOCK + 40;
    let dependent = [5, INNER_BLOCK, BLOCK + 3];
    let mut b = entries(m, m + 10, 3);
    for &r in &dependent {
        for j in 0..m + 10 {
            b[(r, j)] = b[(r - 1, j)];
        }
    }
    let c = &b * b.transpose();
    // Unit diagonal, as the normal equations scale it before factoring.
    let s: Vec<f64> = (0..m).map(|i| 1.0 / c[(i, i)].sqrt()).collect();
    let mut l = Mat::from_fn(m, m, |i, j| c[(i, j)] * s[i] * s[j]);
    let replaced = cholesky_lower(l.as_mut(), 1e-12, 1.0, Par::rayon(2)).expect("factors");
    assert_eq!(replaced, dependent.len());
    for j in 0..m {
        for i in j..m {
            assert!(l[(i, j)].is_finite(), "L[{i},{j}] = {}", l[(i, j)]);
        }
    }
    // A NaN entry is a breakdown naming its column.
    let mut bad = spd(BLOCK + 5, 4);
    bad[(BLOCK + 2, BLOCK + 2)] = f64::NAN;
    let e = cholesky_lower(bad.as_mut(), 1e-14, 1.0, Par::Seq).expect_err("NaN pivot");
    assert_eq!(e.column, BLOCK + 2);
}

#[test]
fn deflated_pivots_leave_zero_columns_and_reproduce_the_rest() {
    // Copies of earlier rows inside an inner block, on an inner block edge and past the first
    // outer block. The deflating rule must replace exactly those pivots, zero L below them (in
    // the diagonal blocks and in the panels below, which are solved separately) and still give
    // L·Lᵀ = C everywhere off the replaced diagonal entries: a copy's exact Schur complement is
    // zero, so deflating it loses nothing.
    let m = BLOCK + 40;
    let dependent = [5, INNER_BLOCK, BLOCK + 3];
    let mut b = entries(m, m + 10, 11);
    for &r in &dependent {
        for j in 0..m + 10 {
            b[(r, j)] = b[(r - 1, j)];
        }
    }
    let c = &b * b.transpose();
    let s: Vec<f64> = (0..m).map(|i| 1.0 / c[(i, i)].sqrt()).collect();
    let c = Mat::from_fn(m, m, |i, j| c[(i, j)] * s[i] * s[j]);
    for par in [Par::Seq, Par::rayon(2)] {
        let mut l = c.clone();
        let rule = PivotRule { tiny: 1e-11, huge: 1.0, deflate: true };
        let replaced = cholesky_lower_with(l.as_mut(), rule, par).expect("factors");
        assert_eq!(replaced, dependent.len());
        for &r in &dependent {
            assert_eq!(l[(r, r)], 1.0, "replaced pivot {r}");
            for i in r + 1..m {
                assert_eq!(l[(i, r)], 0.0, "L[{i},{r}] below a deflated pivot");
            }
        }
        let lower = Mat::from_fn(m, m, |i, j| if i >= j { l[(i, j)] } else { 0.0 });
        let llt = &lower * lower.transpose();
        // Unit diagonal and |L| ≤ 1 entrywise here, so γ_{m+1}·m bounds each entry's error;
        // the copies' own Schur complements are rounding of that size too.
        let tol = 8.0 * (m as f64 + 1.0) * U * m as f64;
        for j in 0..m {
            for i in j..m {
                if i == j && dependent.contains(&i) {
                    continue;
                }
                assert!((llt[(i, j)] - c[(i, j)]).abs() <= tol, "(LLᵀ − C)[{i},{j}] = {:e}", llt[(i, j)] - c[(i, j)]);
            }
        }
    }
}
