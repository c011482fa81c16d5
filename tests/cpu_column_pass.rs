//! The fused passes over dense A (`cpu::products`: Aᵀy, v = θ∘Aᵀy − t and A·v; A·x alone; the
//! pair of maps) on every path this CPU runs — the column-pass kernels and the portable faer
//! products — against f64 loops written out here: row counts around the 4-, 8-
//! and 16-wide loop edges, column counts around the four-column groups, a column offset (a view
//! into a larger matrix), strided columns (a transposed view), one, two and three threads.

mod common;

use common::matrices::entries;
use common::paths::{on, runnable};
use faer::MatRef;
use glsolve::cpu::paths::{CpuPaths, Isa};
use glsolve::cpu::products::{dense_a_mul, fused_dense, fused_pair, PassShapeError, VSource};

/// Unit roundoff of f64.
const U: f64 = f64::EPSILON / 2.0;

/// |got − want| ≤ 2γ_{k+1}·Σ|terms| + tiny, entry by entry (Higham, Thm 3.1, any summation order,
/// on both sides).
fn assert_within(what: &str, got: &[f64], want: &[f64], abs: &[f64], k: usize) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let gamma = (k + 1) as f64 * U / (1.0 - (k + 1) as f64 * U);
    for (i, ((g, w), s)) in got.iter().zip(want).zip(abs).enumerate() {
        let tol = 2.0 * gamma * s + 1e-300;
        assert!((g - w).abs() <= tol, "{what}[{i}]: {g} vs {w} (tolerance {tol:.2e})");
    }
}

/// θⱼ and tⱼ of the interior-point operator, made up.
fn theta(n: usize) -> (Vec<f64>, Vec<f64>) {
    ((0..n).map(|j| 0.5 + (j % 5) as f64).collect(), (0..n).map(|j| 0.125 * (j % 3) as f64).collect())
}

/// u = Aᵀy, v = θ∘u − t and A·v by loops, with the sums of absolute terms.
fn reference(a: MatRef<'_, f64>, y: &[f64], theta: &[f64], t: &[f64]) -> [Vec<f64>; 5] {
    let (m, n) = (a.nrows(), a.ncols());
    let (mut u, mut ua, mut v) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut av, mut ava) = (vec![0.0; m], vec![0.0; m]);
    for j in 0..n {
        for i in 0..m {
            u[j] += a[(i, j)] * y[i];
            ua[j] += (a[(i, j)] * y[i]).abs();
        }
        v[j] = theta[j] * u[j] - t[j];
        for i in 0..m {
            av[i] += v[j] * a[(i, j)];
            ava[i] += (v[j] * a[(i, j)]).abs();
        }
    }
    [u, ua, v, av, ava]
}

/// Every path this CPU runs.
fn paths_here(what: &str) -> Vec<CpuPaths> {
    runnable(what).into_iter().map(on).collect()
}

#[test]
fn every_path_matches_the_loops_on_every_edge() {
    let mut cases: Vec<(usize, usize, usize)> = Vec::new();
    for m in [1, 3, 4, 7, 8, 9, 15, 16, 17, 24, 31, 33, 257] {
        for (j0, cols) in [(0, 1), (0, 3), (0, 4), (0, 5), (2, 9), (1, 16)] {
            cases.push((m, j0, cols));
        }
    }
    // Large enough to split between threads (m·n ≥ 2¹⁷), with odd sizes.
    cases.extend([(301, 1, 447), (97, 0, 1359)]);
    for paths in paths_here("fused pass") {
        for &(m, j0, cols) in &cases {
            let full = entries(m, j0 + cols + 1, (m * 31 + cols) as u64);
            let y = entries(m, 1, 7).col(0).iter().copied().collect::<Vec<_>>();
            let (th, t) = theta(cols);
            let by_rows = full.transpose().to_owned();
            for (view, a) in [("columns", full.as_ref()), ("strided", by_rows.transpose())] {
                let a = a.subcols(j0, cols);
                let [u, ua, v, av, ava] = reference(a, &y, &th, &t);
                for threads in [1, 2, 3] {
                    let src = VSource::Scaled { theta: &th, t: Some(&t) };
                    let (gu, gv, gav) = fused_dense(&paths, a, &y, src, threads).expect("shapes fit");
                    let what = format!("{paths:?} {view} m {m} j0 {j0} cols {cols} threads {threads}");
                    assert_within(&format!("{what} u"), &gu, &u, &ua, m);
                    // v is a function of u: its error is θ's largest value (4.5) times u's.
                    let va: Vec<f64> = ua.iter().zip(&t).map(|(s, t)| 4.5 * s + t).collect();
                    assert_within(&format!("{what} v"), &gv, &v, &va, m + 2);
                    // A·v sums n terms with perturbed v: bound by the absolute sums of both.
                    let bound: Vec<f64> = ava.iter().map(|s| s * (1.0 + 4.5 * m as f64)).collect();
                    assert_within(&format!("{what} A·v"), &gav, &av, &bound, cols + m + 2);
                }
            }
        }
    }
}

#[test]
fn a_times_x_matches_the_loops_and_the_kernels_skip_only_zero_multipliers() {
    for paths in paths_here("A·x") {
        for (m, cols) in [(1, 1), (3, 4), (8, 5), (9, 9), (17, 16), (33, 13), (257, 7), (301, 447)] {
            let a = entries(m, cols, (m * 17 + cols) as u64);
            // Zeros in the first group of four, and one zero inside a later group.
            let x: Vec<f64> = (0..cols)
                .map(|k| if (k < 4 && cols > 4) || k == 6 { 0.0 } else { 0.5 + (k % 3) as f64 - 0.25 * k as f64 })
                .collect();
            let (mut want, mut abs) = (vec![0.0; m], vec![0.0; m]);
            for (k, &xk) in x.iter().enumerate() {
                for i in 0..m {
                    want[i] += xk * a[(i, k)];
                    abs[i] += (xk * a[(i, k)]).abs();
                }
            }
            for threads in [1, 2] {
                let got = dense_a_mul(&paths, a.as_ref(), &x, threads).expect("shapes fit");
                assert_within(&format!("{paths:?} m {m} cols {cols} threads {threads}"), &got, &want, &abs, cols + 1);
            }
        }
        // The kernels skip groups of four zero multipliers outright: a NaN in such columns
        // stays out of A·x (faer's product multiplies it by zero).
        if paths.pass.isa() != Isa::Portable {
            let mut a = entries(5, 8, 2);
            a[(2, 3)] = f64::NAN;
            let x = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
            let got = dense_a_mul(&paths, a.as_ref(), &x, 1).expect("shapes fit");
            assert!(got.iter().all(|v| v.is_finite()), "{paths:?}: {got:?}");
        }
    }
}

#[test]
fn the_pair_is_each_pass_again_bit_for_bit_where_it_is_fused() {
    let g = |j: usize, u: f64| 0.25 * u + j as f64;
    for paths in paths_here("fused pair") {
        for (m, n) in [(1, 1), (5, 7), (33, 9), (17, 16), (301, 447)] {
            let a = entries(m, n, 3);
            let y: Vec<f64> = (0..m).map(|i| 1.0 - i as f64 / 7.0).collect();
            let x: Vec<f64> = (0..n).map(|j| 0.5 - j as f64 / 11.0).collect();
            for threads in [1, 2] {
                let pair = fused_pair(&paths, a.as_ref(), &y, &x, &g, threads).expect("shapes fit");
                let Some((u, ax, t, at)) = pair else {
                    assert_eq!(paths.pass.isa(), Isa::Portable, "{paths:?}: only the portable path does not fuse");
                    continue;
                };
                let (u1, _, ax1) = fused_dense(&paths, a.as_ref(), &y, VSource::Given(&x), threads).unwrap();
                let t1: Vec<f64> = u1.iter().enumerate().map(|(j, &uj)| g(j, uj)).collect();
                let at1 = dense_a_mul(&paths, a.as_ref(), &t1, threads).unwrap();
                assert!(u == u1 && ax == ax1 && t == t1 && at == at1, "{paths:?} {m}×{n} threads {threads}");
            }
        }
    }
}

#[test]
fn operands_that_do_not_fit_are_typed_errors() {
    let a = entries(4, 3, 1);
    let (th, t) = theta(3);
    for paths in paths_here("shapes") {
        let pass = |y: &[f64], th: &[f64], t: &[f64]| {
            fused_dense(&paths, a.as_ref(), y, VSource::Scaled { theta: th, t: Some(t) }, 1).map(|_| ())
        };
        assert_eq!(pass(&[1.0; 3], &th, &t), Err(PassShapeError::Length { what: "y", expected: 4, got: 3 }));
        assert_eq!(pass(&[1.0; 4], &th[..2], &t), Err(PassShapeError::Length { what: "theta", expected: 3, got: 2 }));
        assert_eq!(pass(&[1.0; 4], &th, &[0.0; 4]), Err(PassShapeError::Length { what: "t", expected: 3, got: 4 }));
        let given = fused_dense(&paths, a.as_ref(), &[1.0; 4], VSource::Given(&[1.0; 2]), 1).map(|_| ());
        assert_eq!(given, Err(PassShapeError::Length { what: "x", expected: 3, got: 2 }));
        assert_eq!(
            dense_a_mul(&paths, a.as_ref(), &[1.0; 4], 1),
            Err(PassShapeError::Length { what: "x", expected: 3, got: 4 })
        );
        let pair = fused_pair(&paths, a.as_ref(), &[1.0; 4], &[1.0; 2], &|_, u| u, 1).map(|_| ());
        assert_eq!(pair, Err(PassShapeError::Length { what: "x", expected: 3, got: 2 }));
    }
}
