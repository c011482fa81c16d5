//! Units never change the answer: a cost in millionths and a row in micro-units are solved as
//! the same model in ordinary units is, on every backend. Each case once ended `optimal` at the
//! wrong point (the gap was measured against 1 + |objective|, an absolute test for a small
//! objective; a row's slack kept equilibration from scaling a row of small coefficients up).
//!
//! Tolerances: cpu and hybrid stop at ε = 1e-8 and the check passes at 10ε in the model's units,
//! where the cost's largest entry is ≈ 1: the objective is right to ≈ 1e-7 relative and x (a
//! vertex of well-conditioned 2×2 bases here) to ≈ 1e-7; 1e-6 is asserted. The gpu backend
//! (single precision, ε = 1e-4, checked at 1e-3) is held to 10× its check's tolerance, 1e-2, or
//! must say that it is not optimal.

mod common;
use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::{solve, BackendKind, LpModel, Settings, Solution, Status};
use nalgebra::dmatrix;

const BACKENDS: [BackendKind; 3] = [BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Gpu];

fn run(model: &LpModel, backend: BackendKind) -> Solution {
    common::solve_lp(model, Settings::for_backend(backend))
}

/// The relative tolerance a backend's optimum is held to (see the module documentation).
fn tolerance(backend: BackendKind) -> f64 {
    if backend == BackendKind::Gpu {
        1e-2
    } else {
        1e-6
    }
}

/// `optimal` at (objective, x) within the backend's tolerance; the gpu backend may instead
/// report a non-optimal status, never `optimal` elsewhere.
fn assert_answer(s: &Solution, backend: BackendKind, objective: f64, x: &[f64], what: &str) {
    let tol = tolerance(backend);
    if backend == BackendKind::Gpu && s.status != Status::Optimal {
        println!("{what} gpu: {:?} ({}), an honest non-optimal status", s.status, s.detail);
        return;
    }
    assert_eq!(s.status, Status::Optimal, "{what} {backend:?}: {}", s.detail);
    let rel = (s.objective - objective).abs() / objective.abs();
    assert!(rel <= tol, "{what} {backend:?}: objective {:e}, want {objective:e} (rel. error {rel:.1e})", s.objective);
    for (j, (got, want)) in s.x.iter().zip(x).enumerate() {
        assert!((got - want).abs() <= tol * (1.0 + want.abs()), "{what} {backend:?}: x[{j}] = {got}, want {want}");
    }
}

#[test]
fn a_cost_in_millionths_has_the_optimum_of_the_cost_in_units() {
    // max 3e-5·x + 2e-5·y s.t. x + y ≤ 4, x + 3y ≤ 6: 1.2e-4 at (4, 0) (HiGHS agrees). The gpu
    // backend once said optimal 1.13988e-4 at (3.407, 0.589).
    let model =
        LpModel::builder(dmatrix![1.0, 1.0; 1.0, 3.0]).maximize([3e-5, 2e-5]).rows_at_most([4.0, 6.0]).build().unwrap();
    for backend in BACKENDS {
        assert_answer(&run(&model, backend), backend, 1.2e-4, &[4.0, 0.0], "cost 1e-5");
    }
}

#[test]
fn a_row_in_small_units_binds_as_it_does_in_large_ones() {
    // max 3x + 2y s.t. s·x + s·y ≤ 4s, x + 3y ≤ 6: the first row binds, 12 at (4, 0). Its slack
    // once kept the row unscaled: gpu said 17.996 at s = 1e-6, cpu 18 at s = 1e-10 (the optimum
    // without the row).
    for s in [1e-6, 1e-10] {
        let model = LpModel::builder(dmatrix![s, s; 1.0, 3.0])
            .maximize([3.0, 2.0])
            .rows_at_most([4.0 * s, 6.0])
            .build()
            .unwrap();
        for backend in BACKENDS {
            assert_answer(&run(&model, backend), backend, 12.0, &[4.0, 0.0], &format!("row ×{s:e}"));
        }
    }
}

#[test]
fn a_random_lp_with_its_cost_in_ten_millionths_has_the_same_optimum() {
    // The papers' random family (20 × 80, c = 1) and the same LP with c = 1e-7: the objective
    // scales by 1e-7 and x stays. Once 3.4e-5 (cpu) and 3.3 % (hybrid) off at ε = 1e-8.
    for seed in [1, 2, 3] {
        let base = random_lp(20, seed).to_model(seed);
        let mut small = base.clone();
        small.c.iter_mut().for_each(|c| *c *= 1e-7);
        for backend in [BackendKind::Cpu, BackendKind::Hybrid] {
            let reference = run(&base, backend);
            assert_eq!(reference.status, Status::Optimal, "seed {seed} {backend:?}: {}", reference.detail);
            let what = format!("seed {seed}, c × 1e-7");
            assert_answer(&run(&small, backend), backend, 1e-7 * reference.objective, &reference.x, &what);
        }
    }
}

#[test]
fn coefficients_negligible_in_the_model_units_are_dropped_with_a_warning() {
    // min x + y s.t. x + 1e-14·y ≥ 1, 1e-14·x + y ≥ 1: each 1e-14 is 1e-14 of its row's and its
    // column's largest entry, below SMALL_MATRIX_VALUE (1e-12). The solve says so, in the log
    // and in the notes, and the check (which keeps them) still passes: x = y = 1 misses the
    // rows by 1e-14.
    use common::log::SharedLog;
    use glsolve::lp::standard_form::SMALL_MATRIX_VALUE;
    assert_eq!(SMALL_MATRIX_VALUE, 1e-12);
    let model = LpModel::builder(dmatrix![1.0, 1e-14; 1e-14, 1.0])
        .minimize([1.0, 1.0])
        .rows_at_least([1.0, 1.0])
        .build()
        .unwrap();
    let log = SharedLog::default();
    let st = Settings::default();
    let s = solve(&model, &st, &mut Logger::to_writer(Box::new(log.clone()))).expect("valid settings");
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    assert!((s.objective - 2.0).abs() <= 1e-7, "{}", s.objective);
    let note =
        "2 coefficients at most 1e-12 of their row's and column's largest (in the model's units) were treated as zero";
    assert!(s.notes.iter().any(|n| n == note), "{:?}", s.notes);
    assert!(log.text().contains(&format!("warning: {note}")), "{}", log.text());
    // Above the threshold nothing is dropped and nothing is said.
    let model = LpModel::builder(dmatrix![1.0, 1e-11; 1e-11, 1.0])
        .minimize([1.0, 1.0])
        .rows_at_least([1.0, 1.0])
        .build()
        .unwrap();
    assert!(run(&model, BackendKind::Cpu).notes.is_empty());
}
