//! Statuses that mean what they say: infeasible and unbounded LPs (hand-made and NETLIB variants)
//! get the right status and a certificate that passes its double-precision check on the original
//! model; optimal points pass verification; limits stop with the best point and the right status.

use glsolve::lp::log::Logger;
use glsolve::lp::verify::{check_farkas, check_primal_ray, Accuracy, CertificateKind};
use glsolve::lp::{mps, solve, LpModel, Sense, Settings, Solution, Status, Verbosity};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn quiet() -> Settings {
    Settings { verbosity: Verbosity::Quiet, ..Settings::default() }
}

fn netlib(name: &str) -> LpModel {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib"));
    assert!(dir.is_dir(), "NETLIB folder {} is missing", dir.display());
    mps::read_file(&dir.join(format!("{name}.mps"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn asset(name: &str) -> LpModel {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/lp")).join(name);
    mps::read_file(&p).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run(model: &LpModel, st: &Settings) -> Solution {
    solve(model, st, &mut Logger::quiet()).expect("valid settings")
}

/// The status, and a certificate of the right kind whose check passes at the tolerance; the
/// check is re-run here from the returned ray.
fn assert_certified(model: &LpModel, s: &Solution, status: Status, kind: CertificateKind, what: &str) {
    assert_eq!(s.status, status, "{what}: {}", s.detail);
    let c = s.certificate.as_ref().unwrap_or_else(|| panic!("{what}: no certificate"));
    assert_eq!(c.kind, kind, "{what}");
    assert_eq!(c.check.accuracy, Accuracy::Tolerance, "{what}: {}", c.check.summary());
    let again = match kind {
        CertificateKind::Farkas => check_farkas(model, &c.ray, c.check.tolerance),
        CertificateKind::PrimalRay => check_primal_ray(model, &c.ray, c.check.tolerance),
    };
    assert_eq!(again.accuracy, Accuracy::Tolerance, "{what}: re-check {}", again.summary());
    assert!(again.value > 0.0 && again.ratio <= c.check.tolerance, "{what}: {}", again.summary());
}

#[test]
fn hand_made_infeasible_and_unbounded_models_are_certified() {
    for name in ["infeasible.mps", "infeasible_equalities.mps"] {
        let m = asset(name);
        assert_certified(&m, &run(&m, &quiet()), Status::PrimalInfeasible, CertificateKind::Farkas, name);
    }
    for name in ["unbounded.mps", "unbounded_free.mps"] {
        let m = asset(name);
        assert_certified(&m, &run(&m, &quiet()), Status::DualInfeasible, CertificateKind::PrimalRay, name);
    }
}

#[test]
fn the_farkas_ray_of_contradictory_equalities_is_exact() {
    // x1 + x2 = 1 and x1 + x2 = 3: y ∝ (−1, 1, 0) proves it with Aᵀy = 0.
    let m = asset("infeasible_equalities.mps");
    let s = run(&m, &quiet());
    let y = &s.certificate.as_ref().expect("certificate").ray;
    assert!(y[0] < 0.0 && y[1] > 0.0, "{y:?}");
    assert!((y[0] + y[1]).abs() <= 1e-9 * y[1].abs() && y[2].abs() <= 1e-9 * y[1].abs(), "{y:?}");
}

#[test]
fn netlib_made_infeasible_by_one_rhs_is_certified() {
    // afiro: the equality row R09 (= 0) set to −1000; sc50b: ROW00001 (≤ 300) set to ≤ −1000.
    let mut afiro = netlib("afiro");
    let i = afiro.row_names.iter().position(|r| r == "R09").expect("R09");
    afiro.row_lower[i] = -1000.0;
    afiro.row_upper[i] = -1000.0;
    assert_certified(&afiro, &run(&afiro, &quiet()), Status::PrimalInfeasible, CertificateKind::Farkas, "afiro R09");
    let mut sc50b = netlib("sc50b");
    let i = sc50b.row_names.iter().position(|r| r == "ROW00001").expect("ROW00001");
    sc50b.row_upper[i] = -1000.0;
    assert_certified(&sc50b, &run(&sc50b, &quiet()), Status::PrimalInfeasible, CertificateKind::Farkas, "sc50b");
}

#[test]
fn adlittle_maximized_is_unbounded_with_a_checked_ray() {
    let mut m = netlib("adlittle");
    m.sense = Sense::Maximize;
    let s = run(&m, &quiet());
    assert_certified(&m, &s, Status::DualInfeasible, CertificateKind::PrimalRay, "adlittle max");
}

#[test]
fn optimal_points_pass_verification_on_the_original_model() {
    for name in ["afiro", "kb2", "sc50b", "adlittle"] {
        let m = netlib(name);
        let s = run(&m, &quiet());
        assert_eq!(s.status, Status::Optimal, "{name}: {}", s.detail);
        let v = s.verification.as_ref().expect("verified");
        assert_eq!(v.accuracy, Accuracy::Tolerance, "{name}: {}", v.summary());
        assert!(v.worst() <= 10.0 * 1e-8, "{name}: {}", v.summary());
        assert_eq!(v.objective, s.objective);
    }
}

#[test]
fn equilibration_is_undone_exactly() {
    // kb2 is badly scaled; with and without Ruiz scaling the same vertex comes back.
    let m = netlib("kb2");
    let a = run(&m, &quiet());
    let b = run(&m, &Settings { scaling: false, ..quiet() });
    assert_eq!((a.status, b.status), (Status::Optimal, Status::Optimal));
    let scale = 1.0 + a.x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (x, y) in a.x.iter().zip(&b.x) {
        assert!((x - y).abs() <= 1e-5 * scale, "{x} vs {y}");
    }
    assert!((a.objective - b.objective).abs() <= 1e-7 * a.objective.abs());
}

#[test]
fn a_tampered_optimal_point_fails_verification() {
    let m = netlib("afiro");
    let s = run(&m, &quiet());
    let mut x = s.x.clone();
    x[0] += 1.0;
    let v = glsolve::lp::verify::verify_point(&m, &x, &s.row_duals, 1e-8);
    assert_eq!(v.accuracy, Accuracy::Failed, "{}", v.summary());
}

#[test]
fn limits_stop_with_the_best_point_and_the_right_status() {
    let m = netlib("sc50b");
    // Iteration limit: the best iterate comes back, graded.
    let s = run(&m, &Settings { max_iterations: 4, ..quiet() });
    assert_eq!(s.status, Status::IterationLimit);
    assert!(s.best_iterate);
    assert!(s.verification.as_ref().is_some_and(|v| v.accuracy != Accuracy::Tolerance));
    // A time limit of zero stops at the first check.
    let s = run(&m, &Settings { time_limit: Some(std::time::Duration::ZERO), ..quiet() });
    assert_eq!(s.status, Status::TimeLimit, "{}", s.detail);
    assert_eq!(s.iterations, 0);
    // A raised interrupt flag (what Ctrl-C sets in the CLI).
    let flag = Arc::new(AtomicBool::new(true));
    let s = run(&m, &Settings { interrupt: Some(flag), ..quiet() });
    assert_eq!(s.status, Status::Interrupted);
    assert_eq!(s.x.len(), m.num_cols());
    // A limit loose enough to finish does not change the answer.
    let s = run(&m, &Settings { time_limit: Some(std::time::Duration::from_secs(3600)), ..quiet() });
    assert_eq!(s.status, Status::Optimal);
}

#[test]
fn the_log_header_prints_coefficient_ranges() {
    let m = netlib("kb2");
    let lines = glsolve::lp::log::coefficient_ranges(&m);
    assert_eq!(lines.len(), 5);
    assert!(lines[1].trim_start().starts_with("matrix ["), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("rhs")), "{lines:?}");
}
