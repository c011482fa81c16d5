//! The dense solvers prove what they return: least squares on designs of chosen condition number
//! (U·Σ·Vᵀ, σ from 1 to 1/κ, seeded random orthogonal U and V, odd sizes) on the gpu path
//! (`least_squares`) and the cpu path (`lsq::solve_qr`) is within 1e-8 of an f64 Householder QR
//! reference (faer) in the solution's own 2-norm, or an error, and says which method answered;
//! the check behind it rejects planted wrong answers; linsolve and Cholesky say what they did.
//!
//! Tolerances. A `Mixed` answer passed the check: its forward error against the exact solution
//! x* is at most `forward_error` ≤ 1e-8 in ∞-norm (× √cols in 2-norm); the QR reference is
//! within Wedin's bound of x* (κ·ε·(2 + κ·‖r‖/(‖A‖‖x‖)) with ε = 8·√(rows·cols)·u, Higham
//! & Mary's probabilistic backward error: < 1e-12 at κ ≤ 1e3 here). A `DoubleFallback` answer
//! is faer's QR of the same data: powers of two change no rounding, and these designs need none,
//! so it is the reference up to rounding. Both are asserted against 1e-8, the accuracy promised.
mod common;
use common::with_gpu;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::lsq::check::{cholesky_apply, Residuals};
use glsolve::lsq::{self, LsqSettings, Method};
use glsolve::refine::{self, RefineSettings};
use glsolve::{least_squares, Cholesky, DenseError, LinearMethod};
use nalgebra::{DMatrix, DVector};

/// A = U·Σ·Vᵀ (rows × cols), b = A·x₀ + 1e-3·noise, and faer's QR solution.
fn design(rows: usize, cols: usize, kappa: f64, seed: u64) -> (DMatrix<f64>, DVector<f64>, DVector<f64>) {
    use faer::linalg::solvers::SolveLstsq;
    let a = DMatrix::from_row_slice(rows, cols, &random::design_with_condition(rows, cols, kappa, seed));
    let x0 = DVector::from_vec(random::uniform(cols, 1, -1.0, 1.0, seed + 1));
    let noise = DVector::from_vec(random::uniform(rows, 1, -1.0, 1.0, seed + 2));
    let b = &a * &x0 + noise * 1e-3;
    let x = faer::Mat::from_fn(rows, cols, |i, j| a[(i, j)]).qr().solve_lstsq(faer::Mat::from_fn(rows, 1, |i, _| b[i]));
    (a, b, DVector::from_fn(cols, |i, _| x[(i, 0)]))
}

fn relative(x: &DVector<f64>, reference: &DVector<f64>) -> f64 {
    (x - reference).norm() / reference.norm()
}

#[test]
fn least_squares_is_within_1e8_of_qr_or_an_error_and_says_which_method() {
    for (rows, cols, seed) in [(61usize, 13usize, 1u64), (37, 5, 7)] {
        for kappa in [1e2, 1e4, 1e7, 1e10] {
            let (a, b, reference) = design(rows, cols, kappa, seed);
            let what = format!("{rows}×{cols}, κ = {kappa:.0e}");
            let (a2, b2) = (a.clone(), b.clone());
            let gpu = with_gpu(move |g| least_squares(g, &a2, &b2, None));
            let d2 = vec![1.0; rows];
            let cpu = lsq::solve_qr(a.as_slice(), cols, rows, &d2, b.as_slice(), &LsqSettings::default());
            match gpu {
                Ok(s) => {
                    let err = relative(&s.x, &reference);
                    println!(
                        "{what} gpu: {:?}, {} steps, error {err:.1e}, forward bound {:.1e}, backward {:.1e}",
                        s.method, s.iterations, s.accuracy.forward_error, s.accuracy.backward_error
                    );
                    assert!(err <= 1e-8, "{what} gpu: error {err:e} ({:?})", s.method);
                    // The single-precision normal equations resolve κ² up to about 1/u₃₂ (the
                    // factor's pivot test sends κ(C) ≥ 1.6e4·… to double precision).
                    if kappa <= 1e2 {
                        assert_eq!(s.method, Method::Mixed, "{what}");
                        let acc = &s.accuracy;
                        assert!(acc.forward_error <= acc.threshold && acc.threshold == 1e-8, "{what}: {acc:?}");
                        assert!(s.iterations >= 1 && acc.contraction < 1.0, "{what}: {acc:?}");
                        assert!(err <= (cols as f64).sqrt() * acc.forward_error + 1e-12, "{what}: the bound holds");
                    } else {
                        assert!(matches!(s.method, Method::DoubleFallback(_)), "{what}: {:?}", s.method);
                    }
                    assert!(s.accuracy.backward_error < 1e-6, "{what}: {:?}", s.accuracy);
                }
                Err(e) => {
                    // Only a design rank deficient to double precision may refuse.
                    assert!(matches!(e, DenseError::RankDeficient) && kappa >= 1e10, "{what} gpu: {e}");
                }
            }
            let s = cpu.unwrap_or_else(|e| panic!("{what} cpu: {e}"));
            let err = relative(&DVector::from_vec(s.x), &reference);
            assert!(err <= 1e-8, "{what} cpu: error {err:e}");
            assert_eq!(s.method, Method::Double, "{what}");
        }
    }
}

#[test]
fn weighted_least_squares_is_checked_in_the_weights_norm() {
    // Weights from 1e-2 to 1e2 on a κ = 30 design: the reference is QR of W·A, W·b.
    use faer::linalg::solvers::SolveLstsq;
    let (rows, cols) = (45usize, 9usize);
    let (a, b, _) = design(rows, cols, 30.0, 3);
    let w = DVector::from_fn(rows, |i, _| 10f64.powf(-2.0 + 4.0 * i as f64 / (rows - 1) as f64));
    let wa = faer::Mat::from_fn(rows, cols, |i, j| w[i] * a[(i, j)]);
    let x = wa.qr().solve_lstsq(faer::Mat::from_fn(rows, 1, |i, _| w[i] * b[i]));
    let reference = DVector::from_fn(cols, |i, _| x[(i, 0)]);
    let s = with_gpu(move |g| least_squares(g, &a, &b, Some(&w))).expect("full rank");
    let err = relative(&s.x, &reference);
    println!("weighted: {:?}, error {err:.1e}, {:?}", s.method, s.accuracy);
    assert!(err <= 1e-8, "{err:e}");
    assert!(matches!(s.method, Method::Mixed | Method::DoubleFallback(_)));
    assert!(s.accuracy.forward_error.is_finite() && s.accuracy.backward_error.is_finite());
}

/// The check of x on the papers' layout (A transposed), with C's exact f64 Cholesky factor.
fn forward_bound(a: &DMatrix<f64>, b: &DVector<f64>, x: &[f64]) -> (f64, f64) {
    let (rows, cols) = a.shape();
    let at = a.as_slice();
    let d2 = vec![1.0; rows];
    let c = a.transpose() * a;
    let l = rowmajor::cholesky_lower(c.as_slice(), cols).expect("SPD");
    let res = Residuals::new(at, cols, rows, &d2, b.as_slice(), x);
    (res.forward_error(x, &vec![1.0; cols], 0.0, cholesky_apply(&l, cols)), res.backward_error(x))
}

#[test]
fn the_check_rejects_planted_wrong_answers() {
    let (rows, cols) = (61usize, 13usize);
    let (a, b, reference) = design(rows, cols, 1e2, 1);
    let (good, _) = forward_bound(&a, &b, reference.as_slice());
    assert!(good <= 1e-12, "the QR answer passes: {good:e}");
    // 1e-6 off along a random direction, and along the smallest singular vector (where A·δ
    // is 1/κ of ‖δ‖, so the residual hardly changes): the bound is at least the error.
    let svd = a.clone().svd(false, true);
    let v_t = svd.v_t.expect("V");
    let smallest = (0..cols).min_by(|&i, &j| svd.singular_values[i].total_cmp(&svd.singular_values[j])).expect("σ");
    let directions = [DVector::from_vec(random::uniform(cols, 1, -1.0, 1.0, 99)), v_t.row(smallest).transpose()];
    for (k, d) in directions.iter().enumerate() {
        let delta = d * (1e-6 * reference.amax() / d.amax());
        let planted = &reference + &delta;
        let truth = delta.amax() / planted.amax();
        let (bound, _) = forward_bound(&a, &b, planted.as_slice());
        println!("planted direction {k}: error {truth:.2e}, bound {bound:.2e}");
        // The estimator never overstates ‖|C⁻¹|·g‖∞, which is ≥ the error; here it finds it.
        assert!(bound >= 0.99 * truth && bound > 1e-8, "direction {k}: bound {bound:e} < error {truth:e}");
    }
    // The answer the issue measured: the f64 normal equations at κ = 1e7, 1e-3 off, passed as
    // a plain answer. The check measures it.
    let (a, b, reference) = design(rows, cols, 1e7, 1);
    let x = lsq::solve_cpu(a.as_slice(), cols, rows, &vec![1.0; rows], b.as_slice()).expect("solves");
    let err = relative(&DVector::from_vec(x.clone()), &reference);
    let (bound, _) = forward_bound(&a, &b, &x);
    println!("f64 normal equations at κ = 1e7: error {err:.1e}, bound {bound:.1e}");
    assert!(err > 1e-6 && bound > 1e-6, "{err:e} {bound:e}");
}

#[test]
fn refinement_runs_until_its_correction_is_small_not_only_its_residual() {
    // At κ = 1e3 the paper's test ‖r‖/‖x‖ ≤ 1e-8 alone stopped after 2 steps 2e-6 from the
    // solution; the correction test carries on to the accuracy asked.
    let (a, b, reference) = design(61, 13, 1e3, 1);
    let s = with_gpu(move |g| least_squares(g, &a, &b, None)).expect("full rank");
    let err = relative(&s.x, &reference);
    println!("κ = 1e3: {:?}, {} steps, error {err:.1e}, {:?}", s.method, s.iterations, s.accuracy);
    assert!(err <= 1e-8, "{err:e}");
    assert_eq!(s.method, Method::Mixed, "the mixed path gets there");
    assert!(s.iterations >= 3, "more steps than the paper's test alone took (2)");
}

#[test]
fn linsolve_and_cholesky_say_what_they_did() {
    for (kappa, mixed) in [(1e2, true), (1e7, false), (1e10, false)] {
        let n = 31;
        let a = random::general_with_condition(n, kappa, 5);
        let b = random::uniform(n, 1, -1.0, 1.0, 6);
        let exact = rowmajor::solve_general(&a, n, &b).expect("regular");
        let (a2, b2) = (a.clone(), b.clone());
        let s = with_gpu(move |g| refine::linsolve(g, &a2, n, &b2, &RefineSettings::default())).expect("solves");
        let plain = refine::linpack_criterion(&a, n, &b, &s.x, rowmajor::norm_inf(&a, n, n));
        println!(
            "linsolve κ = {kappa:.0e}: {:?}, bound {:.2} (criterion {plain:.2}), threshold {}",
            s.method, s.backward_error, s.threshold
        );
        assert!(s.backward_error >= plain && s.backward_error <= s.threshold, "κ = {kappa:e}");
        assert_eq!(matches!(s.method, refine::Method::Mixed), mixed, "κ = {kappa:e}: {:?}", s.method);
        let err = s.x.iter().zip(&exact).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max)
            / exact.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // Backward error ≤ 16·n·ε turns into a forward error of at most κ∞ times that.
        assert!(err <= 16.0 * n as f64 * f64::EPSILON * rowmajor::condition_inf(&a, n) * 2.0, "κ = {kappa:e}: {err:e}");
    }
    // Cholesky: the factor's f64 backward error is reported and agrees with one computed here;
    // a refined solve is Mixed up to κ = 1e8 (a backward-error test: refinement gets there past
    // 1/u₃₂) and falls back at 1e9, where it stalls.
    for (kappa, mixed) in [(1e3, true), (1e8, true), (1e9, false)] {
        let m = 29;
        let c = DMatrix::from_row_slice(m, m, &random::spd_with_condition(m, kappa, 8));
        let x_true = DVector::from_fn(m, |i, _| 1.0 + i as f64 / m as f64);
        let b = &c * &x_true;
        let (c2, b2) = (c.clone(), b.clone());
        let got = with_gpu(move |g| {
            let f = Cholesky::new(g, &c2)?;
            Ok::<_, DenseError>((f.backward_error(), f.l().clone(), f.solve_refined(&b2)?))
        });
        let (backward, l, s) = got.unwrap_or_else(|e| panic!("κ = {kappa:e}: {e}"));
        let here = rowmajor::cholesky_backward_error(c.transpose().as_slice(), l.transpose().as_slice(), m);
        println!("cholesky κ = {kappa:.0e}: backward error {backward:.2e} (here {here:.2e}), solve {:?}", s.method);
        assert!(
            (backward - here).abs() <= 1e-6 * here && backward < 8.0 * m as f64 * f64::from(f32::EPSILON),
            "{backward:e}"
        );
        assert_eq!(matches!(s.method, LinearMethod::Mixed), mixed, "κ = {kappa:e}: {:?}", s.method);
        assert!(s.criterion <= s.threshold, "κ = {kappa:e}: {}", s.criterion);
        let err = (&s.x - &x_true).amax() / x_true.amax();
        assert!(err <= 16.0 * m as f64 * f64::EPSILON * kappa * 4.0, "κ = {kappa:e}: {err:e}");
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
