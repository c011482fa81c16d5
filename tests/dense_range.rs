//! The f32 range on every GPU entry point: problems in units far from 1 are solved as the same
//! problems in units near 1 (powers of two in, the same powers out), or refused with a typed
//! error that says why; never `Ok` with a wrong x, never a positive weight called negative.
//! Each case here once failed: linsolve returned x = 0 (1e-39), a mixed answer with backward
//! error 7e6 (1e-30) or "non-finite inf" (1e39); least_squares called weights 1e20 negative,
//! 1e200 not a number and 1e-200 rank deficient; Cholesky found pivot NaN at 1e-40 and "inf"
//! at 1e38.
//!
//! References are computed here in f64 (faer's LU) on the problem in units near 1.

mod common;
use common::with_gpu;
use faer::linalg::solvers::Solve;
use glsolve::refine::Method;
use glsolve::{least_squares, linsolve, Cholesky, DenseError};
use nalgebra::{dmatrix, dvector, DMatrix, DVector};

/// The scales the f32 range is tested at: around and past both of its ends.
const SCALES: [f64; 8] = [1e-40, 1e-39, 1e-30, 1e-20, 1e20, 1e30, 1e38, 1e39];

/// ε of the backward-error criterion (LINPACK's units, as `Solved::criterion`).
const EPS: f64 = f64::EPSILON;

fn lu_solve(a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let am = faer::Mat::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)]);
    let bm = faer::Mat::from_fn(b.len(), 1, |i, _| b[i]);
    let x = am.partial_piv_lu().solve(&bm);
    DVector::from_fn(b.len(), |i, _| x[(i, 0)])
}

/// κ∞(A) by faer's inverse.
fn condition(a: &DMatrix<f64>) -> f64 {
    let n = a.nrows();
    let inv = DMatrix::from_columns(
        &(0..n).map(|j| lu_solve(a, &DVector::from_fn(n, |i, _| (i == j) as u8 as f64))).collect::<Vec<_>>(),
    );
    let norm = |m: &DMatrix<f64>| (0..n).map(|i| m.row(i).iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    norm(a) * norm(&inv)
}

/// A well-conditioned random n×n matrix (diagonally weighted entries in [−1, 1]).
fn random_matrix(n: usize, seed: u64) -> DMatrix<f64> {
    let mut rng = common::Rng::new(seed);
    DMatrix::from_fn(n, n, |i, j| f64::from(rng.f32()) + if i == j { 4.0 } else { 0.0 })
}

#[test]
fn linsolve_answers_at_every_scale_to_the_promised_accuracy() {
    // A mixed answer's backward error is at most 16 (the docs' promise), and then x is within
    // κ∞·16·n·ε of the solution; the fallback is a backward-stable f64 LU, within the same.
    let (n, base) = (24, random_matrix(24, 5));
    let x0 = DVector::from_fn(n, |i, _| 1.0 + i as f64 / n as f64);
    let kappa = condition(&base);
    let small = dmatrix![2.0, 1.0; 1.0, 3.0];
    for s in SCALES {
        for (a0, x_true) in [(&small, dvector![1.0, 1.0]), (&base, x0.clone())] {
            let a = a0 * s;
            let b = &a * &x_true;
            let (got, k) = (with_gpu(move |g| linsolve(g, &a, &b)), if a0.nrows() == 2 { 3.2 } else { kappa });
            let got = got.unwrap_or_else(|e| panic!("scale {s:e}, n = {}: {e}", a0.nrows()));
            if got.method == Method::Mixed {
                assert!(got.criterion <= 16.0, "scale {s:e}: a mixed answer with backward error {}", got.criterion);
            }
            let err = (&got.x - &x_true).amax() / x_true.amax();
            let allowed = k * 16.0 * n as f64 * EPS + 4.0 * EPS;
            assert!(err <= allowed, "scale {s:e}, n = {}: error {err:e} > {allowed:e} ({:?})", a0.nrows(), got.method);
            println!(
                "scale {s:e}, n = {}: {:?}, criterion {:.2e}, error {err:.1e}",
                a0.nrows(),
                got.method,
                got.criterion
            );
        }
    }
}

#[test]
fn linsolve_rows_in_units_twenty_orders_apart() {
    // Rows times 10^k, k from −20 to 20: equilibration gives back a system conditioned within a
    // factor 2 of the base (each row's power of two is within √2 of undoing its 10^k), so x is
    // within 2κ∞·16·n·ε of the base's solution, a mixed answer or not.
    let (n, base) = (24, random_matrix(24, 9));
    let x_true = DVector::from_fn(n, |i, _| (i as f64 - 10.0) / 7.0);
    let kappa = condition(&base);
    let mut a = base.clone();
    for i in 0..n {
        a.row_mut(i).scale_mut(10f64.powi((i as i32 * 40) / (n as i32 - 1) - 20));
    }
    let b = &a * &x_true;
    let got = with_gpu(move |g| linsolve(g, &a, &b)).expect("solved");
    let err = (&got.x - &x_true).amax() / x_true.amax();
    assert!(err <= 2.0 * kappa * 16.0 * n as f64 * EPS, "error {err:e} ({:?})", got.method);
    assert_eq!(got.method, Method::Mixed, "equilibration leaves nothing for the fallback");
}

#[test]
fn least_squares_weights_of_any_size_are_weights() {
    // y = 1 + 2t through three points, fitted exactly: every weighting gives x = (1, 2).
    let a = dmatrix![1.0, 0.0; 1.0, 1.0; 1.0, 2.0];
    let b = dvector![1.0, 3.0, 5.0];
    for w in [1e20, 1e200, 1e-200, 1e-20] {
        let (a, b) = (a.clone(), b.clone());
        let fit = with_gpu(move |g| least_squares(g, &a, &b, Some(&DVector::from_element(3, w))))
            .unwrap_or_else(|e| panic!("weights {w:e}: {e}"));
        assert!((fit.x[0] - 1.0).abs() <= 1e-10 && (fit.x[1] - 2.0).abs() <= 1e-10, "weights {w:e}: {}", fit.x);
    }
    // Unknowns in units 1e-30 apart: x = (2e30, 1) fits (3, 5, 7) exactly.
    let a = dmatrix![1e-30, 1.0; 2e-30, 1.0; 3e-30, 1.0];
    let fit = with_gpu(move |g| least_squares(g, &a, &dvector![3.0, 5.0, 7.0], None)).expect("well posed");
    assert!((fit.x[0] / 2e30 - 1.0).abs() <= 1e-10 && (fit.x[1] - 1.0).abs() <= 1e-10, "{}", fit.x);
}

#[test]
fn cholesky_at_every_scale_and_with_a_graded_diagonal() {
    // C = [4 2; 2 3]·s, κ = 3.9: the single-precision factor solves C·x = C·(1, 1) to
    // κ·u₃₂·(a few), 1e-5 allowed.
    for s in SCALES {
        let c = dmatrix![4.0, 2.0; 2.0, 3.0] * s;
        let b = &c * dvector![1.0, 1.0];
        let x = with_gpu(move |g| Cholesky::new(g, &c).and_then(|f| f.solve(&b)))
            .unwrap_or_else(|e| panic!("scale {s:e}: {e}"));
        assert!((x[0] - 1.0).abs() <= 1e-5 && (x[1] - 1.0).abs() <= 1e-5, "scale {s:e}: {x}");
    }
    // D·C₀·D with D = diag(1e-15, 1, 1e15): entries from 1e-30 to 1e30, which f32 cannot hold
    // side by side; L·Lᵀ reproduces C relative to dᵢ·dⱼ.
    let d = [1e-15, 1.0, 1e15];
    let c0 = dmatrix![4.0, 1.0, 0.5; 1.0, 3.0, 1.0; 0.5, 1.0, 2.0];
    let c = DMatrix::from_fn(3, 3, |i, j| d[i] * c0[(i, j)] * d[j]);
    let l = with_gpu({
        let c = c.clone();
        move |g| Cholesky::new(g, &c).map(|f| f.unpack())
    })
    .expect("SPD");
    let llt = &l * l.transpose();
    for i in 0..3 {
        for j in 0..3 {
            let rel = (llt[(i, j)] - c[(i, j)]).abs() / (d[i] * d[j]);
            assert!(rel <= 1e-6, "({i}, {j}): {} vs {}", llt[(i, j)], c[(i, j)]);
        }
    }
}

#[test]
fn cholesky_names_what_is_not_positive_definite_before_the_upload() {
    with_gpu(|g| {
        let before = g.textures_created();
        // An off-diagonal entry far past the diagonal's: the 2×2 minor's pivot 1 − 1e600 is −∞.
        let e = Cholesky::new(g, &dmatrix![1.0, 1e300; 1e300, 1.0]).expect_err("not SPD");
        assert!(matches!(e, DenseError::NotPositiveDefinite { column: 1, pivot } if pivot < 0.0), "{e}");
        let e = Cholesky::new(g, &dmatrix![1.0, 0.0; 0.0, -2e-40]).expect_err("not SPD");
        assert!(matches!(e, DenseError::NotPositiveDefinite { column: 1, pivot } if pivot == -2e-40), "{e}");
        assert_eq!(g.textures_created(), before, "nothing was uploaded");
    });
}

#[test]
fn least_squares_says_rank_deficient() {
    with_gpu(|g| {
        // Dependent columns, every weight positive; (0.0214, 0.5) was returned as `Refined`.
        let a = dmatrix![1.0, 2.0; 2.0, 4.0; 3.0, 6.0];
        let e = least_squares(g, &a, &dvector![1.0, 2.0, 3.0], None).expect_err("rank 1");
        assert!(matches!(e, DenseError::RankDeficient), "{e}");
        // Fewer observations than unknowns: no unique minimizer (a non-minimum-norm x was `Ok`).
        let a = dmatrix![1.0, 2.0, 3.0; 4.0, 5.0, 6.5];
        let e = least_squares(g, &a, &dvector![1.0, 2.0], None).expect_err("under-determined");
        assert!(matches!(e, DenseError::RankDeficient), "{e}");
        // Three observations, two of them of weight 0: one observation for two unknowns.
        let a = dmatrix![1.0, 0.0; 1.0, 1.0; 1.0, 2.0];
        let w = dvector![1.0, 0.0, 0.0];
        let e = least_squares(g, &a, &dvector![1.0, 3.0, 5.0], Some(&w)).expect_err("one weighted observation");
        assert!(matches!(e, DenseError::RankDeficient), "{e}");
    });
    // Larger designs with one column the sum of two others, against the same designs without.
    for (m, seed) in [(8usize, 1u64), (64, 2), (200, 3)] {
        let n = 2 * m;
        let mut rng = common::Rng::new(seed);
        let mut a = DMatrix::from_fn(n, m, |_, _| f64::from(rng.f32()));
        let b = DVector::from_fn(n, |_, _| f64::from(rng.f32()));
        let full = with_gpu({
            let (a, b) = (a.clone(), b.clone());
            move |g| least_squares(g, &a, &b, None)
        });
        assert!(full.is_ok(), "m = {m}, full rank: {:?}", full.err());
        let sum = a.column(0) + a.column(1);
        a.set_column(m - 1, &sum);
        let e = with_gpu(move |g| least_squares(g, &a, &b, None)).expect_err("rank m − 1");
        assert!(matches!(e, DenseError::RankDeficient), "m = {m}: {e}");
    }
}
