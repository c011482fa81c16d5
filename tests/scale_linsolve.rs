//! Every scale-back of a general solve: unknowns and right-hand sides far from A's scale
//! (1e±30), columns of A spread over 1e±20, rows over 1e±15 (so b spans thirty orders), solved
//! by `linsolve` (nalgebra) and by the mixed-precision LU (`refine::linsolve`) on each LU and
//! substitution path, answered by the mixed path (`Mixed`) or by the double-precision fallback
//! (`DoubleFallback`), on desktop GL and again on OpenGL ES.
//!
//! Each system is A = R·A₀·C and x = s·C⁻¹·y with R, C diagonal powers of ten and A₀ of order
//! one, so that x's scale-back is everything: answered in the units of the scaled system, x is
//! off by a factor from 2 to 1e50. The reference y is computed here by nalgebra's f64 LU on A₀
//! and R⁻¹·b/s, never by the code under test, and x is compared with it in y's units
//! (‖C·x/s − y‖∞ / ‖y‖∞), where the error of each unknown counts at its own scale.

mod common;
use common::with_gpu;
use glsolve::fixtures::random;
use glsolve::gpu::lu::right_looking::BlockedSettings;
use glsolve::refine::{self, Criterion, LuPath, Method, RefineSettings, Substitution};
use glsolve::{linsolve, DenseError};
use nalgebra::{dmatrix, dvector, DMatrix, DVector};

const EPS: f64 = f64::EPSILON;

/// A system far from the unit scale and what it was made from.
#[derive(Clone)]
struct Graded {
    a: DMatrix<f64>,
    b: DVector<f64>,
    /// C's diagonal and s: x = s·C⁻¹·y.
    c: Vec<f64>,
    s: f64,
    /// The f64 reference in y's units, and κ∞(A₀).
    y: DVector<f64>,
    kappa: f64,
}

/// κ∞(A₀) by nalgebra's f64 inverse.
fn kappa_inf(a: &DMatrix<f64>) -> f64 {
    let norm = |m: &DMatrix<f64>| m.row_iter().map(|r| r.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    norm(a) * norm(&a.clone().try_inverse().expect("A₀ is regular"))
}

/// 10^(lo … hi) spread evenly over n entries.
fn spread(n: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..n).map(|i| 10f64.powf(if n == 1 { hi } else { hi + (lo - hi) * i as f64 / (n as f64 - 1.0) })).collect()
}

/// A = R·A₀·C (rows 1e15 … 1e−15, columns 1e20 … 1e−20), b = R·(A₀·y₀)·s for y₀ of mixed
/// signs and sizes of order one; the reference y solves A₀·y = R⁻¹·b/s in f64 (nalgebra).
fn graded(a0: DMatrix<f64>, s: f64, seed: u64) -> Graded {
    let n = a0.nrows();
    let (r, c) = (spread(n, -15.0, 15.0), spread(n, -20.0, 20.0));
    let mut rng = common::Rng::new(seed);
    let y0 = DVector::from_fn(n, |_, _| 0.5 + f64::from(rng.f32()).abs() * if rng.f32() < 0.0 { -1.0 } else { 1.0 });
    let a = DMatrix::from_fn(n, n, |i, j| r[i] * a0[(i, j)] * c[j]);
    let b0 = &a0 * &y0;
    let b = DVector::from_fn(n, |i, _| r[i] * b0[i] * s);
    let back = DVector::from_fn(n, |i, _| b[i] / r[i] / s);
    let y = a0.clone().lu().solve(&back).expect("A₀ is regular");
    Graded { a, b, c, s, kappa: kappa_inf(&a0), y }
}

/// A₀ of order one with every entry of size ½ … 1 and n on the diagonal (κ∞ a few): the rows'
/// powers of two then spread by at most 2(n + 1), so the scaled system's condition is within
/// that factor (and the columns' 2) of κ∞(A₀).
fn well_conditioned(n: usize, seed: u64) -> DMatrix<f64> {
    let mut rng = common::Rng::new(seed);
    DMatrix::from_fn(n, n, |i, j| {
        let v = 0.5 + 0.5 * f64::from(rng.f32()).abs();
        if i == j {
            n as f64
        } else if rng.f32() < 0.0 {
            -v
        } else {
            v
        }
    })
}

/// ‖C·x/s − y‖∞ / ‖y‖∞: the error in y's units.
fn error(g: &Graded, x: &[f64]) -> f64 {
    let e = (0..x.len()).map(|j| (x[j] * g.c[j] / g.s - g.y[j]).abs()).fold(0.0, f64::max);
    e / g.y.amax()
}

/// What a refined answer may err by in y's units: the paper's test bounds the scaled residual
/// by 16·n·(ε/2)·‖Â‖∞·‖b̂‖∞ with ‖Â‖∞ ≤ 2n, the scaled system's κ∞ is within 4(n + 1) of
/// κ∞(A₀), and the reference errs by κ∞(A₀)·4ε. The fallback (an f64 LU on Â) is within the same.
fn allowed(g: &Graded) -> f64 {
    let n = g.y.len() as f64;
    g.kappa * (4.0 * (n + 1.0) * 2.0 * n * 16.0 * n * EPS / 2.0 + 4.0 * EPS)
}

/// The LU and substitution paths of the mixed-precision solver.
fn paths() -> Vec<(&'static str, RefineSettings)> {
    let d = RefineSettings::default();
    let small = LuPath::Blocked(BlockedSettings { block: 4, lookahead: false });
    vec![
        ("blocked nb=32 look-ahead, split (default)", d.clone()),
        (
            "blocked nb=4 no look-ahead, cpu substitution",
            RefineSettings { lu: small, substitution: Substitution::Cpu, ..d.clone() },
        ),
        ("unblocked, split", RefineSettings { lu: LuPath::Unblocked, ..d.clone() }),
        (
            "unblocked, cpu substitution, backward-error test",
            RefineSettings {
                lu: LuPath::Unblocked,
                substitution: Substitution::Cpu,
                criterion: Criterion::BackwardError,
                ..d
            },
        ),
    ]
}

/// Solves `g` on every path (row-major slices) and with the nalgebra entry point; each answer
/// must be `mixed` (or the fallback) and within [`allowed`] of the reference.
fn check_every_path(what: &str, g: &Graded, mixed: bool) {
    let n = g.y.len();
    let rows: Vec<f64> = g.a.transpose().as_slice().to_vec();
    let (b, tol) = (g.b.as_slice().to_vec(), allowed(g));
    let method_ok = |m: &Method| if mixed { *m == Method::Mixed } else { matches!(m, Method::DoubleFallback(_)) };
    for (path, st) in paths() {
        let (rows, b) = (rows.clone(), b.clone());
        let s = with_gpu(move |gpu| refine::linsolve(gpu, &rows, n, &b, &st))
            .unwrap_or_else(|e| panic!("{what}, {path}: {e}"));
        let err = error(g, &s.x);
        println!("{what}, {path}: {:?}, {} steps, error {err:.1e} (allowed {tol:.1e})", s.method, s.iterations);
        assert!(method_ok(&s.method), "{what}, {path}: method {:?}", s.method);
        assert!(err <= tol, "{what}, {path}: error {err:e} > {tol:e} ({:?}); x = {:?}", s.method, s.x);
    }
    let (a, bv) = (g.a.clone(), g.b.clone());
    let s = with_gpu(move |gpu| linsolve(gpu, &a, &bv)).unwrap_or_else(|e| panic!("{what}, linsolve: {e}"));
    let err = error(g, s.x.as_slice());
    assert!(method_ok(&s.method), "{what}, linsolve: method {:?}", s.method);
    assert!(err <= tol, "{what}, linsolve: error {err:e} > {tol:e} ({:?})", s.method);
    if mixed {
        assert!(s.criterion <= 16.0, "{what}, linsolve: a mixed answer with backward error {}", s.criterion);
    }
}

#[test]
fn the_two_by_two_with_unknowns_1e30_is_solved_by_the_mixed_path_to_f64_accuracy() {
    // A = [[2, 1], [1, 3]], κ∞ = 3.2: x = (1e30, 2e30) and (1e−30, 2e−30) (so b = (4, 7)·1e±30).
    // The reference is nalgebra's f64 LU of (A, b); a mixed answer's backward error is ≤ 16 in
    // LINPACK's units, so x is within κ∞·16·n·ε of it (and the reference within κ∞·4ε).
    let a = dmatrix![2.0, 1.0; 1.0, 3.0];
    for x_true in [dvector![1e30, 2e30], dvector![1e-30, 2e-30], dvector![-3e30, 1e30]] {
        let b = &a * &x_true;
        let reference = a.clone().lu().solve(&b).expect("regular");
        let tol = 3.2 * (16.0 * 2.0 + 4.0) * EPS;
        for (path, st) in paths() {
            let (rows, bs) = (a.transpose().as_slice().to_vec(), b.as_slice().to_vec());
            let s = with_gpu(move |gpu| refine::linsolve(gpu, &rows, 2, &bs, &st)).expect("regular");
            let err = (DVector::from_vec(s.x.clone()) - &reference).amax() / reference.amax();
            assert_eq!(s.method, Method::Mixed, "x = {x_true:?}, {path}");
            assert!(err <= tol, "x = {:?}, {path}: got {:?}, error {err:e} > {tol:e}", x_true.as_slice(), s.x);
        }
        let (a2, b2) = (a.clone(), b.clone());
        let s = with_gpu(move |gpu| linsolve(gpu, &a2, &b2)).expect("regular");
        assert_eq!(s.method, Method::Mixed, "x = {x_true:?}");
        assert!((&s.x - &reference).amax() / reference.amax() <= tol, "x = {x_true:?}: got {}", s.x);
    }
}

#[test]
fn columns_twenty_orders_apart_and_unknowns_at_1e30_are_mixed_on_every_path() {
    // Orders 7 (block 4 + 3) and 33 (block 32 + 1); s = 1e30 and 1e−30: x from 1e10 to 1e50
    // (or 1e−50 to 1e−10), b from 1e15 to 1e45 (or 1e−45 to 1e−15).
    for (n, seed) in [(7usize, 3u64), (33, 4)] {
        for s in [1e30, 1e-30] {
            let g = graded(well_conditioned(n, seed), s, seed);
            check_every_path(&format!("n = {n}, s = {s:e}, κ∞(A₀) = {:.1}", g.kappa), &g, true);
        }
    }
}

#[test]
fn the_fallback_scales_back_too() {
    // κ₂(A₀) = 1e9: κ·u₃₂ ≈ 60, so refinement cannot converge and the f64 LU answers, on the
    // same graded system.
    for (n, s) in [(7usize, 1e30), (9, 1e-30)] {
        let a0 = random::general_with_condition(n, 1e9, 11 + n as u64);
        let g = graded(DMatrix::from_row_slice(n, n, &a0), s, 5);
        check_every_path(&format!("κ = 1e9, n = {n}, s = {s:e}"), &g, false);
    }
    // Singular in single precision (1 + 2⁻³⁰ rounds to 1), regular in double: the fallback.
    let a0 = dmatrix![1.0, 1.0; 1.0, 1.0 + 2f64.powi(-30)];
    check_every_path("1 + 2⁻³⁰", &graded(a0, 1e30, 6), false);
}

#[test]
fn a_system_singular_in_double_is_an_error_at_any_scale() {
    // Rank one in f64 as well, far from 1: an error that says so, never an x.
    for s in [1e30, 1e-30] {
        let a = dmatrix![1.0, 2.0; 2.0, 4.0] * s;
        let b = dvector![3.0, 6.0] * s;
        let e = with_gpu(move |gpu| linsolve(gpu, &a, &b)).expect_err("singular");
        assert!(matches!(e, DenseError::Singular { .. }), "scale {s:e}: {e}");
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
