//! Weighted least squares (Algorithm 1) and the mixed-precision general solver on the GL pipeline,
//! against double-precision references computed independently of the code under test: a
//! Householder QR of D·Aᵀ for least squares (`common::lsq_ref`), faer's LU for square systems.
mod common;
#[path = "common/lsq_ref.rs"]
mod lsq_ref;
use common::with_gpu;
use faer::linalg::solvers::Solve;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gpu::lu::right_looking::BlockedSettings;
use glsolve::lsq::{self, fit, LsqError, LsqSettings};
use glsolve::refine::{self, Criterion, LuPath, Method as RMethod, RefineError, RefineSettings, Substitution};
use lsq_ref::Reference;

/// x₆₄ from faer's partial-pivoting LU in f64, called here directly (not through the crate).
fn lu_reference(a: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let am = faer::Mat::from_fn(n, n, |i, j| a[i * n + j]);
    let bm = faer::Mat::from_fn(n, 1, |i, _| b[i]);
    let x = am.partial_piv_lu().solve(&bm);
    (0..n).map(|i| x[(i, 0)]).collect()
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

/// Checks a least-squares answer against the QR reference: its normal-equations residual,
/// recomputed here, and its distance to x_qr within (ρ + δ)/λ_min(C) + the QR's own error.
fn check_against_qr(reference: &Reference, x: &[f64], what: &str) -> f64 {
    let (dist, allowed) = (reference.distance(x), reference.allowed(x));
    assert!(dist <= allowed, "{what}: ‖x̂ − x_qr‖₂ = {dist:e} > {allowed:e}");
    println!("{what}: ‖x̂ − x_qr‖₂ = {dist:.2e} ≤ {allowed:.2e}");
    dist
}

#[test]
fn refinement_reaches_double_precision_on_random_and_ill_conditioned_problems() {
    // b uniform in [0, 1) is far from A's range: noisy data, the residual ‖D(b − Aᵀx*)‖ is of
    // the order of ‖Db‖, so the QR reference carries the κ²·‖r‖ term of least squares.
    let st = LsqSettings::default();
    for (m, ill) in [(64usize, false), (256, false), (128, true), (256, true)] {
        let (a, d2, b) = problem(m, ill, m as u64);
        let reference = Reference::new(&a, m, 2 * m, &d2, &b);
        let sol = with_gpu({
            let (a, d2, b, st) = (a.clone(), d2.clone(), b.clone(), st.clone());
            move |gpu| lsq::solve(gpu, &a, m, 2 * m, &d2, &b, &st).unwrap()
        });
        let what = format!("m={m} ill={ill}");
        assert_eq!(sol.method, lsq::Method::Mixed, "{what}");
        // The stopping rule ‖r‖₂/‖x‖₂ ≤ ε holds for the residual recomputed here (± its rounding).
        let (rho, delta) = reference.residual(&sol.x);
        let xn = sol.x.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(rho <= st.tolerance * xn + delta, "{what}: ‖r‖₂ = {rho:e} > ε‖x‖₂ = {:e}", st.tolerance * xn);
        let e = check_against_qr(&reference, &sol.x, &what);
        let e0 = reference.distance(&sol.x_single);
        println!("{what}: x_sgl error {e0:.2e}, refined {e:.2e} in {} steps", sol.iterations);
        assert!(e < e0, "{what}: refinement improves on single precision");
        assert!(sol.iterations >= 1);
    }
}

#[test]
fn refinement_falls_back_to_double_precision_when_single_cannot_factor() {
    // Two nearly equal basis rows: A·D²·Aᵀ has condition ≈ 1e9, beyond single precision and
    // within double.
    let (m, n) = (3usize, 40usize);
    let t: Vec<f64> = (0..n).map(|k| k as f64 / n as f64).collect();
    let mut a = Vec::new();
    a.extend(t.iter().map(|_| 1.0));
    a.extend(t.iter().copied());
    a.extend(t.iter().map(|&x| x + 1e-4 * x * x));
    let d2 = vec![1.0; n];
    // Noise on the samples: the fit has a non-zero residual.
    let b: Vec<f64> = t.iter().enumerate().map(|(k, &x)| 1.0 + 2.0 * x + 0.01 * ((k * 7 % 11) as f64 - 5.0)).collect();
    let reference = Reference::new(&a, m, n, &d2, &b);
    let sol = with_gpu({
        let (a, d2, b) = (a.clone(), d2.clone(), b.clone());
        move |gpu| lsq::solve(gpu, &a, m, n, &d2, &b, &LsqSettings::default()).unwrap()
    });
    match &sol.method {
        lsq::Method::DoubleFallback(why) => assert!(!why.is_empty()),
        other => panic!("expected a double-precision fallback, got {other:?}"),
    }
    // The fallback is a backward-stable f64 solve of the normal equations: its residual is within
    // that solve's rounding, and then x̂ is within (ρ + δ)/λ_min of x* (the QR reference).
    let (rho, delta) = reference.residual(&sol.x);
    let limit = reference.double_solve_residual(&sol.x);
    assert!(rho <= limit + delta, "fallback residual {rho:e} > {limit:e}");
    check_against_qr(&reference, &sol.x, "fallback");
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
        let x64 = lu_reference(&a, n, &b);
        let sol = with_gpu({
            let (a, b) = (a.clone(), b.clone());
            move |gpu| refine::linsolve(gpu, &a, n, &b, &RefineSettings::default()).unwrap()
        });
        assert_eq!(sol.method, RMethod::Mixed, "n={n}");
        assert!(sol.criterion() <= 16.0, "n={n}: criterion {}", sol.criterion());
        let (e, tol) = (max_diff(&sol.x, &x64), refined_tolerance(&a, &b, &x64, n));
        println!("n={n}: {} steps, criterion {:.2e}, error vs f64 LU {e:.2e}", sol.iterations, sol.criterion());
        assert!(e <= tol, "n={n}: ‖x̂ − x₆₄‖∞ = {e:e} > {tol:e}");
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
    let x64 = lu_reference(&a, n, &b);
    let (e, tol) = (max_diff(&sol.x, &x64), refined_tolerance(&a, &b, &x64, n));
    assert!(e <= tol, "fallback: ‖x̂ − x₆₄‖∞ = {e:e} > {tol:e}");
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

/// ‖x̂ − x₆₄‖∞ allowed for a refined answer: the paper's test bounds ‖b − A·x̂‖∞ by
/// 16·n·ε·‖A‖∞‖b‖∞ (ε = 2⁻⁵³), so ‖x̂ − x*‖∞ ≤ 16·n·ε·κ∞·‖b‖∞; faer's f64 solution errs by at
/// most c·n·ε·κ∞·‖x*‖∞ (backward stable, c ≤ 16 here). Twice their sum.
fn refined_tolerance(a: &[f64], b: &[f64], x64: &[f64], n: usize) -> f64 {
    let eps = f64::EPSILON / 2.0;
    let inf = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    2.0 * 16.0 * n as f64 * eps * rowmajor::condition_inf(a, n) * (inf(b) + inf(x64))
}

fn max_diff(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max)
}

#[test]
fn linsolve_defaults_to_the_papers_blocked_lookahead_lu_split_substitutions_and_test() {
    let st = RefineSettings::default();
    assert_eq!(st.lu, LuPath::Blocked(BlockedSettings { block: 32, lookahead: true }));
    assert_eq!((st.substitution, st.criterion), (Substitution::Split, Criterion::Paper));
    let n = 100;
    let a = random::uniform(n, n, -1.0, 1.0, 40);
    let b = random::uniform(n, 1, -1.0, 1.0, 41);
    let (sol, fp64) = with_gpu({
        let (a, b) = (a.clone(), b.clone());
        move |gpu| (refine::linsolve(gpu, &a, n, &b, &st).unwrap(), gpu.info().fp64)
    });
    assert_eq!(sol.method, RMethod::Mixed);
    assert!(sol.test_value() <= 16.0 && sol.iterations >= 1);
    // The stopping test is the paper's Eq. (1), recomputed here from its definition. The solver
    // forms r on the GPU and this test on the CPU, both in double precision in different orders:
    // they may differ by 2.01·n·ε·(‖A‖‖x‖ + ‖b‖), i.e. by 2.01·(‖A‖‖x‖ + ‖b‖)/(‖A‖‖b‖) in the
    // test's units (the test itself is a few ulps of the residual).
    let r: f64 =
        (0..n).map(|i| (b[i] - (0..n).map(|j| a[i * n + j] * sol.x[j]).sum::<f64>()).abs()).fold(0.0, f64::max);
    let binf = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let eq1 = r / (rowmajor::norm_inf(&a, n, n) * binf * n as f64 * f64::EPSILON / 2.0);
    let (anorm, xinf) = (rowmajor::norm_inf(&a, n, n), sol.x.iter().fold(0.0f64, |m, v| m.max(v.abs())));
    let slack = 2.01 * (anorm * xinf + binf) / (anorm * binf);
    assert!(eq1 <= 16.0 && (eq1 - sol.test_value()).abs() <= slack, "{eq1} vs {} (slack {slack})", sol.test_value());
    let x64 = lu_reference(&a, n, &b);
    let (e, tol) = (max_diff(&sol.x, &x64), refined_tolerance(&a, &b, &x64, n));
    assert!(e <= tol, "‖x̂ − x₆₄‖∞ = {e:e} > {tol:e}");
    // The GPU did the factorization's updates and the sweeps: the timeline has GPU spans there.
    // Without double precision in shaders (OpenGL ES) the backward sweep's residual, its only
    // GPU work, is formed on the CPU.
    for phase in ["factor", "forward", "backward"] {
        let gpu_share = sol.timeline.shares_summed(phase).gpu;
        if phase == "backward" && !fp64 {
            assert_eq!(gpu_share, 0.0, "backward: a GPU span without double precision");
        } else {
            assert!(gpu_share > 0.0, "{phase}: no GPU span");
        }
    }
    assert!(sol.gflops() > 0.0);
}

#[test]
fn every_lu_and_substitution_agrees_with_f64_on_well_conditioned_systems() {
    let configs = [
        (LuPath::Blocked(BlockedSettings { block: 32, lookahead: true }), Substitution::Split),
        (LuPath::Blocked(BlockedSettings { block: 8, lookahead: false }), Substitution::Split),
        (LuPath::Blocked(BlockedSettings { block: 16, lookahead: true }), Substitution::Cpu),
        (LuPath::Unblocked, Substitution::Cpu),
        (LuPath::Unblocked, Substitution::Split),
    ];
    for (n, cond) in [(1usize, None), (31, Some(10.0)), (33, None), (97, Some(1e3))] {
        let a = match cond {
            Some(k) => random::general_with_condition(n, k, 50),
            None => random::uniform(n, n, -1.0, 1.0, 50),
        };
        let b = random::uniform(n, 1, -1.0, 1.0, 51);
        let x64 = lu_reference(&a, n, &b);
        let tol = refined_tolerance(&a, &b, &x64, n);
        for (lu, substitution) in configs {
            let st = RefineSettings { lu, substitution, ..RefineSettings::default() };
            let sol = with_gpu({
                let (a, b) = (a.clone(), b.clone());
                move |gpu| refine::linsolve(gpu, &a, n, &b, &st).unwrap()
            });
            let what = format!("n={n} κ={cond:?} {} {}", lu.name(), substitution.name());
            assert_eq!(sol.method, RMethod::Mixed, "{what}");
            assert!(sol.test_value() <= 16.0, "{what}");
            assert!(max_diff(&sol.x, &x64) <= tol, "{what}: {:e} > {tol:e}", max_diff(&sol.x, &x64));
        }
    }
}

#[test]
fn ill_conditioning_costs_steps_and_the_papers_test_is_stricter_than_backward_error() {
    let n = 64;
    let b = random::uniform(n, 1, -1.0, 1.0, 61);
    let solve = |cond: f64, criterion: Criterion| {
        let a = random::general_with_condition(n, cond, 60);
        let b = b.clone();
        let st = RefineSettings { criterion, ..RefineSettings::default() };
        with_gpu(move |gpu| refine::linsolve(gpu, &a, n, &b, &st).unwrap())
    };
    let well = solve(10.0, Criterion::BackwardError);
    let ill = solve(1e5, Criterion::BackwardError);
    assert_eq!((&well.method, &ill.method), (&RMethod::Mixed, &RMethod::Mixed));
    assert!(ill.iterations > well.iterations, "κ = 1e5: {} steps, κ = 10: {}", ill.iterations, well.iterations);
    assert!(ill.history.iter().all(|&c| c.is_finite()) && ill.criterion() <= 16.0);
    // Eq. (1) divides by ‖b‖ instead of ‖x‖: with ‖x‖ ≈ 1e5·‖b‖ even the best double-precision x
    // leaves it far above 16, so the paper's test gives up and falls back (and says why).
    let paper = solve(1e5, Criterion::Paper);
    match &paper.method {
        RMethod::DoubleFallback(why) => assert!(why.contains("paper"), "{why}"),
        RMethod::Mixed => panic!("the paper's test met at κ = 1e5: {:?}", paper.history),
    }
    assert!(paper.test_value() > 16.0 && paper.criterion() <= 16.0);
}

#[test]
fn empty_systems_and_non_finite_right_hand_sides_are_typed_errors() {
    with_gpu(|gpu| {
        let st = RefineSettings::default();
        assert!(matches!(refine::linsolve(gpu, &[], 0, &[], &st), Err(RefineError::Shape(_))));
        assert!(matches!(
            refine::linsolve(gpu, &[1.0, 0.0, 0.0, 1.0], 2, &[1.0, f64::NAN], &st),
            Err(RefineError::NonFinite { what: "b", row: 1, .. })
        ));
        let bad = RefineSettings { lu: LuPath::Blocked(BlockedSettings { block: 12, lookahead: true }), ..st };
        assert!(matches!(refine::linsolve(gpu, &[2.0], 1, &[1.0], &bad), Err(RefineError::Gpu(_))));
    });
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
