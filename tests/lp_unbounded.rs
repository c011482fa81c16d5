//! `unbounded` means a verified primal ray *and* a primal feasible point; a ray alone is `dual
//! infeasible` (cplex1 of HiGHS's check instances is primal and dual infeasible). On every
//! backend, the feasibility solve that follows a ray (the model with c = 0, cpu backend)
//! establishes or refutes the point, and the answer is checked here in f64 on the model itself.

#[path = "common/certify.rs"]
mod certify;
mod common;
use glsolve::lp::verify::CertificateKind;
use glsolve::lp::{mps, BackendKind, Feasibility, LpModel, Settings, Solution, Status};

fn settings(backend: BackendKind) -> Settings {
    Settings::for_backend(backend)
}

/// Solves `model` on `backend` (the GL ones on the shared context).
fn run(model: &LpModel, backend: BackendKind) -> Solution {
    common::solve_lp(model, settings(backend))
}

const BACKENDS: [BackendKind; 3] = [BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Gpu];

/// min −1000·(x1 + x2) s.t. x1 − x2 ≥ 1, x1 − x2 ≤ −1, x ≥ 0: the rows contradict each other
/// (y = (1, −1) proves it: 1 − (−1) > 0), and r = (1, 1) leaves both rows unchanged and gains
/// 2000 (the dual is infeasible too). With this cost the gpu backend's loop finds the primal ray
/// first (the cpu and hybrid loops the Farkas ray), so the feasibility solve decides there.
fn primal_and_dual_infeasible() -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, -1.0; 1.0, -1.0])
        .minimize([-1000.0, -1000.0])
        .row_bounds([1.0, f64::NEG_INFINITY], [f64::INFINITY, -1.0])
        .build()
        .expect("a valid model")
}

/// min −x1 − x2 s.t. x1 − x2 ≤ 1, x1 + 2·x2 ≥ 4, x ≥ 0: feasible (x = (0, 2)), and r = (1, 1)
/// keeps the first row, raises the second and gains 2.
fn unbounded() -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, -1.0; 1.0, 2.0])
        .minimize([-1.0, -1.0])
        .row_bounds([f64::NEG_INFINITY, 4.0], [1.0, f64::INFINITY])
        .build()
        .expect("a valid model")
}

/// The primal ray of `s` proves dual infeasibility of `model` (checked here, in f64).
fn assert_ray(model: &LpModel, s: &Solution, what: &str) {
    let c = s.certificate.as_ref().unwrap_or_else(|| panic!("{what}: no primal ray ({})", s.detail));
    assert_eq!(c.kind, CertificateKind::PrimalRay, "{what}");
    let proof = certify::primal_ray(model, &c.ray);
    assert!(proof.holds(certify::TOL), "{what}: primal ray {:?}: {proof:?}", c.ray);
}

#[test]
fn a_model_both_primal_and_dual_infeasible_is_never_unbounded() {
    let model = primal_and_dual_infeasible();
    for backend in BACKENDS {
        let s = run(&model, backend);
        let what = format!("{backend:?}: {} ({})", s.status, s.detail);
        match s.status {
            Status::DualInfeasible | Status::DualInfeasibleReducedAccuracy => {
                assert_ray(&model, &s, &what);
                // The feasibility solve refuted a feasible point, with a Farkas ray that holds.
                let f = s.feasibility.as_ref().unwrap_or_else(|| panic!("{what}: no feasibility check"));
                assert_eq!(f.outcome, Feasibility::Refuted, "{what}: {}", f.summary());
                let farkas = f.certificate.as_ref().unwrap_or_else(|| panic!("{what}: refuted without a ray"));
                let proof = certify::farkas(&model, &farkas.ray);
                assert!(proof.holds(certify::TOL), "{what}: Farkas ray {:?}: {proof:?}", farkas.ray);
            }
            Status::PrimalInfeasible | Status::PrimalInfeasibleReducedAccuracy => {
                let c = s.certificate.as_ref().unwrap_or_else(|| panic!("{what}: no Farkas ray"));
                assert_eq!(c.kind, CertificateKind::Farkas, "{what}");
                assert!(certify::farkas(&model, &c.ray).holds(certify::TOL), "{what}: Farkas ray {:?}", c.ray);
            }
            _ => panic!("{what}: expected dual or primal infeasible"),
        }
        assert!(!matches!(s.status, Status::Unbounded | Status::UnboundedReducedAccuracy), "{what}");
    }
}

#[test]
fn an_unbounded_model_returns_a_ray_and_a_feasible_point() {
    let model = unbounded();
    for backend in BACKENDS {
        let s = run(&model, backend);
        let what = format!("{backend:?}: {} ({})", s.status, s.detail);
        assert_eq!(s.status, Status::Unbounded, "{what}");
        assert_ray(&model, &s, &what);
        let f = s.feasibility.as_ref().unwrap_or_else(|| panic!("{what}: no feasibility check"));
        assert_eq!(f.outcome, Feasibility::Established, "{what}");
        // The point is feasible in f64 on the model itself, at the verification's tolerance.
        let inf = certify::primal_infeasibility(&model, &s.x);
        assert!(inf <= f.tolerance, "{what}: x = {:?} is {inf:.2e} infeasible (tol {:.1e})", s.x, f.tolerance);
    }
}

fn asset(name: &str) -> LpModel {
    let path = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/lp")).join(name);
    mps::read_file(&path).expect("asset readable")
}

#[test]
fn the_unbounded_fixtures_are_unbounded_with_feasible_points() {
    for name in ["unbounded.mps", "unbounded_free.mps"] {
        let model = asset(name);
        let s = run(&model, BackendKind::Cpu);
        assert_eq!(s.status, Status::Unbounded, "{name}: {}", s.detail);
        assert_ray(&model, &s, name);
        let inf = certify::primal_infeasibility(&model, &s.x);
        assert!(inf <= 1e-6, "{name}: the point is {inf:.2e} infeasible");
    }
}

#[test]
fn presolve_rays_are_unbounded_only_with_a_feasible_point() {
    // Y appears only in the objective with cost −1 and no upper bound; X = 0 is feasible.
    let text = "NAME E\nROWS\n N C\n L R\nCOLUMNS\n X C 1 R 1\n Y C -1\nRHS\n R 1\nENDATA\n";
    let model = mps::read_str(text).expect("valid MPS");
    let s = run(&model, BackendKind::Cpu);
    assert_eq!(s.status, Status::Unbounded, "{}", s.detail);
    assert!(certify::primal_infeasibility(&model, &s.x) <= 1e-6, "x = {:?}", s.x);
    let v = s.verification.as_ref().expect("the established point is verified");
    assert!(v.primal_backward_error <= v.tolerance, "{}", v.summary());
    // The same Y beside rows that contradict each other: no feasible point.
    let text = "NAME F\nROWS\n N C\n G R1\n L R2\nCOLUMNS\n X C 1 R1 1\n X R2 1\n Z R1 1 R2 1\n Y C -1\nRHS\n R1 3\n R2 1\nENDATA\n";
    let model = mps::read_str(text).expect("valid MPS");
    let s = run(&model, BackendKind::Cpu);
    // Presolve finds Y's ray before the loop runs; the feasibility solve then refutes the rest.
    assert_eq!(s.status, Status::DualInfeasible, "{}", s.detail);
    assert_eq!(s.feasibility.as_ref().map(|f| f.outcome), Some(Feasibility::Refuted), "{}", s.detail);
}

#[test]
fn the_names_say_one_thing_each() {
    assert_eq!(Status::Unbounded.name(), "unbounded");
    assert_eq!(Status::DualInfeasible.name(), "dual infeasible");
    assert_eq!(Status::PrimalInfeasible.name(), "primal infeasible");
    for s in [Status::DualInfeasible, Status::DualInfeasibleReducedAccuracy] {
        assert!(!s.name().contains("unbounded"), "{s}");
    }
}
