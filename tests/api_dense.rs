//! The nalgebra entry points: Cholesky (factor and solve on one object), the mixed-precision
//! dense solve, least squares in the usual layout with plain weights; their typed errors; empty
//! problems. References are nalgebra's double-precision factorizations.
//!
//! Tolerances: single-precision factors of well-conditioned matrices (κ ≲ 10) are accurate to a
//! few units of u₃₂ ≈ 6e-8 times m; 1e-5 leaves two orders of magnitude. Refined answers meet
//! double-precision criteria (LINPACK ≤ 16; ‖r‖/‖x‖ ≤ 1e-8), checked at 1e-10 / 1e-8.
mod common;
use common::with_gpu;
use glsolve::lsq::{self, LsqSettings};
use glsolve::{least_squares, linsolve, Cholesky, DenseError};
use nalgebra::{dmatrix, dvector, DMatrix, DVector};

fn spd(m: usize) -> DMatrix<f64> {
    let b = DMatrix::from_fn(m, m, |i, j| ((i * 5 + j * 11) % 13) as f64 / 13.0 - 0.5);
    &b * b.transpose() / m as f64 + DMatrix::identity(m, m)
}

#[test]
fn cholesky_factors_and_solves_on_one_object() {
    let (l_err, x_err, back) = with_gpu(|gpu| {
        let c = spd(24);
        let chol = Cholesky::new(gpu, &c).expect("SPD");
        let reference = c.clone().cholesky().expect("SPD");
        let x_true = DVector::from_fn(24, |i, _| i as f64 - 10.0);
        let x = chol.solve(&(&c * &x_true)).expect("solves");
        let l = chol.l().clone();
        (
            (&l - reference.l()).norm() / reference.l().norm(),
            (&x - &x_true).norm() / x_true.norm(),
            (&c - &l * l.transpose()).norm() / c.norm(),
        )
    });
    assert!(l_err < 1e-5 && x_err < 1e-5 && back < 1e-5, "{l_err:e} {x_err:e} {back:e}");
}

#[test]
fn cholesky_reads_only_the_lower_triangle_and_names_bad_input() {
    with_gpu(|gpu| {
        // Garbage above the diagonal is ignored, as in nalgebra.
        let c = dmatrix![4.0, f64::NAN; 2.0, 3.0];
        let l = Cholesky::new(gpu, &c).expect("the lower triangle is SPD").unpack();
        assert!((l[(0, 0)] - 2.0).abs() < 1e-6 && (l[(1, 0)] - 1.0).abs() < 1e-6 && l[(0, 1)] == 0.0);
        let e = Cholesky::new(gpu, &dmatrix![1.0, 0.0; f64::INFINITY, 1.0]).expect_err("inf");
        assert!(matches!(e, DenseError::NonFinite { what: "C", row: 1, col: 0, .. }), "{e}");
        let e = Cholesky::new(gpu, &DMatrix::zeros(2, 3)).expect_err("not square");
        assert!(matches!(e, DenseError::Shape { what: "C", rows: 2, cols: 3, .. }), "{e}");
        let e = Cholesky::new(gpu, &dmatrix![1.0, 2.0; 2.0, 1.0]).expect_err("indefinite");
        assert!(matches!(e, DenseError::NotPositiveDefinite { column: 1, .. }), "{e}");
        let chol = Cholesky::new(gpu, &dmatrix![4.0, 0.0; 0.0, 1.0]).expect("SPD");
        let e = chol.solve(&dvector![1.0, 2.0, 3.0]).expect_err("length");
        assert!(matches!(e, DenseError::Length { what: "b", got: 3, expected: 2, .. }), "{e}");
        assert_eq!(e.to_string(), "b has 3 entries, but it needs 2 (one per row of C)");
        let e = chol.solve(&dvector![1.0, f64::NAN]).expect_err("NaN");
        assert!(matches!(e, DenseError::NonFinite { what: "b", row: 1, .. }), "{e}");
    });
}

#[test]
fn empty_problems_have_empty_answers() {
    with_gpu(|gpu| {
        let chol = Cholesky::new(gpu, &DMatrix::zeros(0, 0)).expect("0×0 is SPD");
        assert_eq!(chol.dim(), 0);
        assert_eq!(chol.solve(&DVector::zeros(0)).expect("empty").len(), 0);
        let s = linsolve(gpu, &DMatrix::zeros(0, 0), &DVector::zeros(0)).expect("empty system");
        assert_eq!(s.x.len(), 0);
        let f = least_squares(gpu, &DMatrix::zeros(3, 0), &dvector![1.0, 2.0, 3.0], None).expect("no unknowns");
        assert_eq!((f.x.len(), f.residual.len()), (0, 3));
        let e = least_squares(gpu, &DMatrix::zeros(0, 2), &DVector::zeros(0), None).expect_err("no observations");
        assert!(matches!(e, DenseError::RankDeficient), "{e}");
    });
}

#[test]
fn linsolve_refines_to_double_precision_and_names_bad_input() {
    let (err, crit) = with_gpu(|gpu| {
        let n = 40;
        let a = DMatrix::from_fn(n, n, |i, j| ((i * 7 + j * 3) % 11) as f64 / 11.0 + if i == j { 3.0 } else { 0.0 });
        let x_true = DVector::from_fn(n, |i, _| 1.0 / (1.0 + i as f64));
        let s = linsolve(gpu, &a, &(&a * &x_true)).expect("solves");
        ((&s.x - &x_true).amax(), s.criterion)
    });
    assert!(err < 1e-10 && crit <= 16.0, "{err:e} {crit}");
    with_gpu(|gpu| {
        let e = linsolve(gpu, &DMatrix::zeros(2, 3), &DVector::zeros(2)).expect_err("not square");
        assert!(matches!(e, DenseError::Shape { what: "A", .. }), "{e}");
        let e = linsolve(gpu, &DMatrix::identity(2, 2), &DVector::zeros(3)).expect_err("length");
        assert!(matches!(e, DenseError::Length { what: "b", got: 3, .. }), "{e}");
        let e = linsolve(gpu, &dmatrix![1.0, f64::NAN; 0.0, 1.0], &DVector::zeros(2)).expect_err("NaN");
        assert!(matches!(e, DenseError::NonFinite { what: "A", row: 0, col: 1, .. }), "{e}");
        let e = linsolve(gpu, &DMatrix::zeros(2, 2), &dvector![1.0, 1.0]).expect_err("singular");
        assert!(matches!(e, DenseError::Singular { .. }), "{e}");
    });
}

#[test]
fn least_squares_uses_the_usual_layout_and_plain_weights() {
    let (x, reference, papers) = with_gpu(|gpu| {
        // Observations × unknowns: a quadratic in t at 12 points, weights 1/σ.
        let t = DVector::from_fn(12, |k, _| k as f64 / 11.0);
        let a = DMatrix::from_fn(12, 3, |k, p| t[k].powi(p as i32));
        let b = t.map(|t| 2.0 - t + 3.0 * t * t + 0.01 * (9.0 * t).sin());
        let w = DVector::from_fn(12, |k, _| 1.0 + (k % 3) as f64);
        let fit = least_squares(gpu, &a, &b, Some(&w)).expect("fits");
        // Double-precision reference: the normal equations AᵀW²A·x = AᵀW²b with nalgebra.
        let w2 = DMatrix::from_diagonal(&w.component_mul(&w));
        let normal = a.transpose() * &w2 * &a;
        let reference = normal.cholesky().expect("SPD").solve(&(a.transpose() * &w2 * &b));
        assert!((&fit.residual - (&b - &a * &fit.x)).amax() < 1e-12);
        // The papers' layout (unknowns × observations, squared weights) gives the same x.
        let unknowns_by_observations: Vec<f64> =
            (0..3).flat_map(|i| (0..12).map(move |k| (k, i))).map(|(k, i)| a[(k, i)]).collect();
        let papers = lsq::solve(
            gpu,
            &unknowns_by_observations,
            3,
            12,
            w.component_mul(&w).as_slice(),
            b.as_slice(),
            &LsqSettings::default(),
        )
        .expect("solves")
        .x;
        (fit.x, reference, DVector::from_vec(papers))
    });
    assert!((&x - &reference).amax() < 1e-8 * reference.amax(), "{x} vs {reference}");
    assert!((&x - &papers).amax() < 1e-8 * reference.amax(), "{x} vs {papers}");
    with_gpu(|gpu| {
        let a = DMatrix::from_element(3, 2, 1.0);
        let e = least_squares(gpu, &a, &DVector::zeros(2), None).expect_err("b length");
        assert!(matches!(e, DenseError::Length { what: "b", got: 2, expected: 3, .. }), "{e}");
        let e = least_squares(gpu, &a, &DVector::zeros(3), Some(&dvector![1.0, -1.0, 1.0])).expect_err("weight");
        assert!(matches!(e, DenseError::Weight { index: 1, value } if value == -1.0), "{e}");
        let e = least_squares(gpu, &a, &DVector::zeros(3), Some(&dvector![1.0, 1.0])).expect_err("w length");
        assert!(matches!(e, DenseError::Length { what: "w", got: 2, expected: 3, .. }), "{e}");
        assert_eq!(e.to_string(), "w has 2 entries, but it needs 3 (one weight per row (observation) of A)");
        // Two identical columns: rank deficient, said so.
        let e = least_squares(gpu, &a, &dvector![1.0, 2.0, 3.0], None).expect_err("rank deficient");
        assert!(matches!(e, DenseError::RankDeficient), "{e}");
    });
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
