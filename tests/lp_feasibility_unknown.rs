//! A verified primal ray whose feasibility solve ends without a verdict (a time or iteration
//! budget spent first) is `dual infeasible` with feasibility unknown, never `unbounded`: an
//! unbounded LP needs a feasible point, and an undecided solve has not shown one. The models
//! here are built so that the truth is known: one is infeasible by 1% (so no point can pass the
//! checks, at the tolerance or at its square root), one is feasible (`unbounded` would be true,
//! but nothing has shown it within the budget).

#[path = "common/certify.rs"]
mod certify;
mod common;
use glsolve::lp::verify::CertificateKind;
use glsolve::lp::{mps, BackendKind, Feasibility, LpModel, Settings, Solution, Status};
use std::time::Duration;

const BACKENDS: [BackendKind; 3] = [BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Gpu];

/// X + Z ≥ 1 and X + Z ≤ `r2` (with X, Z ≥ 0), and a column Y with cost −1 in no row: presolve
/// proves the ray Y → ∞, and the model is feasible exactly when r2 ≥ 1.
fn presolve_ray(r2: f64) -> LpModel {
    let text = format!(
        "NAME RAY\nROWS\n N C\n G R1\n L R2\nCOLUMNS\n X C 1 R1 1\n X R2 1\n Z R1 1 R2 1\n Y C -1\nRHS\n R1 1\n R2 {r2}\nENDATA\n"
    );
    mps::read_str(&text).expect("valid MPS")
}

/// X + Z ≥ 1 and X + Z ≤ 0.99 (infeasible by 1%), and min −1000·Y with Y − W ≤ 0: the ray
/// (Y, W) = (1, 1) is found by the loop, not by presolve.
fn loop_ray() -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, 1.0, 0.0, 0.0; 1.0, 1.0, 0.0, 0.0; 0.0, 0.0, 1.0, -1.0])
        .minimize([0.0, 0.0, -1000.0, 0.0])
        .row_bounds([1.0, f64::NEG_INFINITY, f64::NEG_INFINITY], [f64::INFINITY, 0.99, 0.0])
        .build()
        .expect("a valid model")
}

fn settings(backend: BackendKind) -> Settings {
    Settings::for_backend(backend)
}

/// `s` is `dual infeasible` with feasibility unknown, after a feasibility solve that ended on
/// `limit`; never `unbounded`.
fn assert_unknown(s: &Solution, limit: Status, what: &str) {
    let f = s.feasibility.as_ref().unwrap_or_else(|| panic!("{what}: no feasibility check ({})", s.detail));
    assert_eq!(f.outcome, Feasibility::Unknown, "{what}: {}", f.summary());
    assert_eq!(f.solve_status, Some(limit), "{what}: {}", f.summary());
    assert_eq!(s.status, Status::DualInfeasible, "{what}: {} ({})", s.status, s.detail);
    assert!(s.detail.ends_with("primal feasibility unknown"), "{what}: {}", s.detail);
}

#[test]
fn a_feasibility_solve_out_of_time_leaves_a_presolve_ray_dual_infeasible() {
    // A time limit of 1 ns is spent before the feasibility solve starts, on every backend; for
    // the infeasible model and for the feasible one alike.
    for (r2, truth) in [(0.99, "infeasible"), (10.0, "feasible")] {
        let model = presolve_ray(r2);
        for backend in BACKENDS {
            let st = settings(backend).to_builder().time_limit(Duration::from_nanos(1)).build().expect("valid");
            let s = common::solve_lp(&model, st);
            assert_unknown(&s, Status::TimeLimit, &format!("{truth} model, {backend:?}, 1 ns"));
        }
        // With time, the same solve decides: refuted or established.
        let s = common::solve_lp(&model, settings(BackendKind::Cpu));
        let decided = if r2 < 1.0 {
            (Status::DualInfeasible, Feasibility::Refuted)
        } else {
            (Status::Unbounded, Feasibility::Established)
        };
        assert_eq!(
            (s.status, s.feasibility.as_ref().map(|f| f.outcome)),
            (decided.0, Some(decided.1)),
            "{truth}: {}",
            s.detail
        );
    }
}

#[test]
fn a_feasibility_solve_out_of_iterations_leaves_a_presolve_ray_dual_infeasible() {
    // The feasibility solve inherits the iteration limit. A 1%-infeasible model cannot be
    // refuted before a Farkas ray is verified, nor passed as feasible (its rows are 1% apart,
    // beyond √ε of the checks): with a budget too small for the ray the outcome is unknown.
    let model = presolve_ray(0.99);
    let mut undecided = 0;
    for budget in 1..=6 {
        for backend in BACKENDS {
            let s =
                common::solve_lp(&model, settings(backend).to_builder().max_iterations(budget).build().expect("valid"));
            let what = format!("{backend:?}, {budget} iterations");
            let f = s.feasibility.as_ref().unwrap_or_else(|| panic!("{what}: no feasibility check"));
            assert!(!matches!(s.status, Status::Unbounded | Status::UnboundedReducedAccuracy), "{what}: {}", s.detail);
            match f.outcome {
                Feasibility::Unknown => {
                    assert_unknown(&s, Status::IterationLimit, &what);
                    undecided += 1;
                }
                Feasibility::Refuted => assert_eq!(s.status, Status::DualInfeasible, "{what}"),
                Feasibility::Established => panic!("{what}: a 1%-infeasible model passed as feasible: {}", f.summary()),
            }
        }
    }
    assert!(undecided >= BACKENDS.len(), "no budget left the feasibility solve undecided on every backend");
}

#[test]
fn a_ray_found_by_the_loop_with_its_feasibility_undecided_is_dual_infeasible() {
    // The loop and the feasibility solve share the iteration budget: at some budget the loop has
    // verified the ray and the feasibility solve has not yet refuted the 1% gap (on the cpu
    // backend this budget is 4). Every budget is checked; at least one must be undecided.
    let model = loop_ray();
    let mut undecided = 0;
    for budget in 1..=8 {
        let st = settings(BackendKind::Cpu).to_builder().max_iterations(budget).build().expect("valid");
        let s = common::solve_lp(&model, st);
        let what = format!("{budget} iterations: {} ({})", s.status, s.detail);
        assert!(!matches!(s.status, Status::Unbounded | Status::UnboundedReducedAccuracy), "{what}");
        let Some(f) = &s.feasibility else { continue };
        // A ray was verified: it proves dual infeasibility on the model itself.
        let c = s.certificate.as_ref().unwrap_or_else(|| panic!("{what}: a feasibility check without a ray"));
        assert_eq!(c.kind, CertificateKind::PrimalRay, "{what}");
        assert!(certify::primal_ray(&model, &c.ray).holds(certify::TOL), "{what}: ray {:?}", c.ray);
        match f.outcome {
            Feasibility::Unknown => {
                assert_unknown(&s, Status::IterationLimit, &what);
                undecided += 1;
            }
            Feasibility::Refuted => assert_eq!(s.status, Status::DualInfeasible, "{what}"),
            Feasibility::Established => panic!("{what}: a 1%-infeasible model passed as feasible: {}", f.summary()),
        }
    }
    assert!(undecided >= 1, "no budget left a verified ray's feasibility undecided");
}
