//! Weighted least squares (Algorithm 1) and the mixed-precision general solver on the GL pipeline,
//! against double-precision CPU solutions.
mod common;
use common::with_gpu;
use glsolve::cpu::{dense, random};
use glsolve::lsq::{self, fit, LsqError, LsqSettings};
use glsolve::refine::{self, Method as RMethod, RefineError, RefineSettings};

fn rel(a: &[f64], b: &[f64]) -> f64 {
    dense::relative_frobenius(a, b)
}

/// The paper's random problems: A, d², b uniform in [0, 1), n = 2m; `ill` uses
/// d²ᵢ = 10^(−4 + 8i/(n−1)).
fn problem(m: usize, ill: bool, seed: u64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = 2 * m;
    let a = random::uniform(m, n, 0.0, 1.0, seed);
    let d2 = if ill {
        (0..n).map(|i| 10f64.powf(-4.0 + 8.0 * i as f64 / (n as f64 - 1.0))).collect()
    } else {
        random::uniform(n, 1, 0.0, 1.0, seed + 1)
    };
    (a, d2, random::uniform(n, 1, 0.0, 1.0, seed + 2))
}

#[test]
fn refinement_reaches_double_precision_on_random_and_ill_conditioned_problems() {
    for (m, ill, bound) in [(64usize, false, 1e-11), (256, false, 1e-11), (128, true, 1e-9), (256, true, 1e-9)] {
        let (a, d2, b) = problem(m, ill, m as u64);
        let exact = lsq::solve_cpu(&a, m, 2 * m, &d2, &b).unwrap();
        let sol = with_gpu({
            let (a, d2, b) = (a.clone(), d2.clone(), b.clone());
            move |gpu| lsq::solve(gpu, &a, m, 2 * m, &d2, &b, &LsqSettings::default()).unwrap()
        });
        assert_eq!(sol.method, lsq::Method::Refined, "m={m} ill={ill}");
        let e0 = rel(&sol.x_single, &exact);
        let e = rel(&sol.x, &exact);
        println!("m={m} ill={ill}: x_sgl error {e0:.2e}, refined {e:.2e} in {} steps", sol.iterations);
        assert!(e <= bound, "m={m} ill={ill}: refined error {e:e}");
        assert!(e < e0, "refinement improves on single precision");
        assert!(sol.iterations >= 1 && sol.history.last().unwrap() <= &1e-8);
    }
}

#[test]
fn refinement_falls_back_to_double_precision_when_single_cannot_factor() {
    // Two nearly equal basis rows: A·D²·Aᵀ has condition ≈ 1e13, beyond single precision.
    let (m, n) = (3usize, 40usize);
    let t: Vec<f64> = (0..n).map(|k| k as f64 / n as f64).collect();
    let mut a = Vec::new();
    a.extend(t.iter().map(|_| 1.0));
    a.extend(t.iter().copied());
    a.extend(t.iter().map(|&x| x + 1e-6 * x * x));
    let d2 = vec![1.0; n];
    let b: Vec<f64> = t.iter().map(|&x| 1.0 + 2.0 * x).collect();
    let exact = lsq::solve_cpu(&a, m, n, &d2, &b).unwrap();
    let sol = with_gpu({
        let (a, d2, b) = (a.clone(), d2.clone(), b.clone());
        move |gpu| lsq::solve(gpu, &a, m, n, &d2, &b, &LsqSettings::default()).unwrap()
    });
    match &sol.method {
        lsq::Method::DoubleFallback(why) => assert!(!why.is_empty()),
        other => panic!("expected a double-precision fallback, got {other:?}"),
    }
    assert!(rel(&sol.x, &exact) <= 1e-12, "the fallback is the double-precision solution");
}

#[test]
fn polynomial_and_custom_basis_fits_recover_the_coefficients() {
    let n = 200;
    let t: Vec<f64> = (0..n).map(|k| -1.0 + 2.0 * k as f64 / (n - 1) as f64).collect();
    let truth = [0.5, -1.25, 2.0, 0.75];
    let y: Vec<f64> = t.iter().map(|&x| truth.iter().enumerate().map(|(p, c)| c * x.powi(p as i32)).sum()).collect();
    let sigma: Vec<f64> = (0..n).map(|k| 0.1 + 0.01 * (k % 7) as f64).collect();
    let samples = fit::Samples { t: t.clone(), y, sigma: sigma.clone() };
    let (coef, trig) = with_gpu(move |gpu| {
        let basis = fit::polynomial(3);
        let refs: Vec<fit::Basis> = basis.iter().map(|b| b.as_ref()).collect();
        let coef = fit::fit(gpu, &samples, &refs, &LsqSettings::default()).unwrap();
        // A user's closures: y = 3 sin(2πt) − cos(2πt) + 0.5.
        let tau = std::f64::consts::TAU;
        let s = |x: f64| (tau * x).sin();
        let c = |x: f64| (tau * x).cos();
        let one = |_: f64| 1.0;
        let ys: Vec<f64> = t.iter().map(|&x| 3.0 * s(x) - c(x) + 0.5).collect();
        let trig_samples = fit::Samples { t: t.clone(), y: ys, sigma };
        let trig = fit::fit(gpu, &trig_samples, &[&s, &c, &one], &LsqSettings::default()).unwrap();
        (coef, trig)
    });
    for (got, want) in coef.x.iter().zip(truth) {
        assert!((got - want).abs() <= 1e-9, "{:?}", coef.x);
    }
    for (got, want) in trig.x.iter().zip([3.0, -1.0, 0.5]) {
        assert!((got - want).abs() <= 1e-9, "{:?}", trig.x);
    }
}

#[test]
fn least_squares_bad_inputs_are_typed_errors() {
    with_gpu(|gpu| {
        let st = LsqSettings::default();
        let (a, mut d2, b) = (vec![1.0; 6], vec![1.0; 3], vec![1.0; 3]);
        assert!(matches!(lsq::solve(gpu, &a, 2, 3, &d2, &b[..2], &st), Err(LsqError::Shape(_))));
        d2[1] = -1.0;
        assert!(matches!(lsq::solve(gpu, &a, 2, 3, &d2, &b, &st), Err(LsqError::NegativeWeight { index: 1, .. })));
        d2[1] = f64::NAN;
        assert!(matches!(lsq::solve(gpu, &a, 2, 3, &d2, &b, &st), Err(LsqError::NonFinite { what: "d²", index: 1 })));
        let s = fit::Samples { t: vec![0.0, 1.0], y: vec![1.0, 2.0], sigma: vec![1.0, 0.0] };
        let one = |_: f64| 1.0;
        assert!(matches!(fit::fit(gpu, &s, &[&one], &st), Err(LsqError::NonFinite { index: 1, .. })));
    });
}

#[test]
fn mixed_lu_meets_the_linpack_criterion_on_random_systems() {
    for n in [1usize, 17, 64, 256] {
        let a = random::uniform(n, n, -1.0, 1.0, n as u64 + 5);
        let b = random::uniform(n, 1, -1.0, 1.0, 3);
        let exact = dense::solve_general(&a, n, &b).unwrap();
        let sol = with_gpu({
            let (a, b) = (a.clone(), b.clone());
            move |gpu| refine::linsolve(gpu, &a, n, &b, &RefineSettings::default()).unwrap()
        });
        assert_eq!(sol.method, RMethod::Mixed, "n={n}");
        assert!(sol.criterion() <= 16.0, "n={n}: criterion {}", sol.criterion());
        let e = rel(&sol.x, &exact);
        println!("n={n}: {} steps, criterion {:.2e}, error vs f64 LU {e:.2e}", sol.iterations, sol.criterion());
        assert!(e <= 1e-10, "n={n}: {e:e}");
    }
}

#[test]
fn an_ill_conditioned_system_falls_back_and_says_so() {
    let n = 64;
    let a = random::general_with_condition(n, 1e9, 8);
    let b = random::uniform(n, 1, -1.0, 1.0, 9);
    let sol = with_gpu({
        let (a, b) = (a.clone(), b.clone());
        move |gpu| refine::linsolve(gpu, &a, n, &b, &RefineSettings::default()).unwrap()
    });
    match &sol.method {
        RMethod::DoubleFallback(why) => assert!(!why.is_empty(), "a reason is given"),
        RMethod::Mixed => panic!("κ = 1e9 is beyond single-precision refinement"),
    }
    assert!(sol.criterion() <= 16.0, "the double-precision answer meets the criterion: {}", sol.criterion());
}

#[test]
fn singular_and_non_finite_systems_are_typed_errors() {
    with_gpu(|gpu| {
        let st = RefineSettings::default();
        let singular = vec![1.0, 2.0, 2.0, 4.0];
        assert!(matches!(refine::linsolve(gpu, &singular, 2, &[1.0, 1.0], &st), Err(RefineError::Singular { .. })));
        let mut a = vec![1.0, 0.0, 0.0, 1.0];
        a[2] = f64::INFINITY;
        assert!(matches!(
            refine::linsolve(gpu, &a, 2, &[1.0, 1.0], &st),
            Err(RefineError::NonFinite { what: "A", row: 1, col: 0 })
        ));
        assert!(matches!(refine::linsolve(gpu, &[1.0], 1, &[1.0, 2.0], &st), Err(RefineError::Shape(_))));
    });
}
