//! Statuses that mean what they say: infeasible and unbounded LPs (hand-made and NETLIB variants)
//! get the right status and a certificate that passes its double-precision check on the original
//! model; optimal points pass verification; limits stop with the best point and the right status.
//!
//! Every certificate is re-checked by `common/certify.rs`, this suite's own arithmetic over the
//! model, at the tolerance stated there (1e-8, the default `infeasibility_tolerance`); the
//! crate's checkers are themselves tested on rays and points built by hand to sit just inside
//! and just outside their tolerance.

#[path = "common/certify.rs"]
mod certify;

use glsolve::lp::log::Logger;
use glsolve::lp::verify::{check_farkas, check_primal_ray, verify_point, Accuracy, CertificateKind, CANCELLATION};
use glsolve::lp::{mps, solve, LpModel, Sense, Settings, Solution, Status};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn quiet() -> Settings {
    Settings::default()
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

/// The status, and a certificate of the right kind that the solver graded as passing and that
/// this suite's own check (`certify`) accepts at 1e-8; the crate's proven gain is positive and,
/// for a ray (whose check changes nothing), at most the one computed here plus its rounding.
fn assert_certified(model: &LpModel, s: &Solution, status: Status, kind: CertificateKind, what: &str) {
    assert_eq!(s.status, status, "{what}: {}", s.detail);
    let c = s.certificate.as_ref().unwrap_or_else(|| panic!("{what}: no certificate"));
    assert_eq!(c.kind, kind, "{what}");
    assert_eq!(c.check.accuracy, Accuracy::Tolerance, "{what}: {}", c.check.summary());
    let proof = match kind {
        CertificateKind::Farkas => certify::farkas(model, &c.ray),
        CertificateKind::PrimalRay => certify::primal_ray(model, &c.ray),
    };
    assert!(proof.holds(certify::TOL), "{what}: independent re-check {proof:?}");
    assert!(c.check.gain > 0.0, "{what}: {}", c.check.summary());
    if kind == CertificateKind::PrimalRay {
        assert!(c.check.gain <= proof.gain + 2.0 * proof.rounding, "{what}: {proof:?} vs {}", c.check.summary());
    }
}

#[test]
fn hand_made_infeasible_and_unbounded_models_are_certified() {
    for name in ["infeasible.mps", "infeasible_equalities.mps"] {
        let m = asset(name);
        assert_certified(&m, &run(&m, &quiet()), Status::PrimalInfeasible, CertificateKind::Farkas, name);
    }
    for name in ["unbounded.mps", "unbounded_free.mps"] {
        let m = asset(name);
        assert_certified(&m, &run(&m, &quiet()), Status::Unbounded, CertificateKind::PrimalRay, name);
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
    assert_certified(&m, &s, Status::Unbounded, CertificateKind::PrimalRay, "adlittle max");
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
        // Recomputed here: the objective of x (within the rounding of the two sums) and its
        // primal feasibility at the verification's 10·ε.
        let (obj, rounding) = certify::objective(&m, &s.x);
        assert!(
            (obj - s.objective).abs() <= 2.0 * rounding,
            "{name}: cᵀx = {obj} but the solution says {}",
            s.objective
        );
        let infeasibility = certify::primal_infeasibility(&m, &s.x);
        assert!(infeasibility <= 10.0 * 1e-8, "{name}: x is {infeasibility:e} outside its boxes");
    }
}

#[test]
fn equilibration_is_undone_exactly() {
    // kb2 is badly scaled; with and without Ruiz scaling the same vertex comes back.
    let m = netlib("kb2");
    let a = run(&m, &quiet());
    let b = run(&m, &quiet().to_builder().scaling(false).build().expect("valid"));
    assert_eq!((a.status, b.status), (Status::Optimal, Status::Optimal));
    let scale = 1.0 + a.x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (x, y) in a.x.iter().zip(&b.x) {
        assert!((x - y).abs() <= 1e-5 * scale, "{x} vs {y}");
    }
    assert!((a.objective - b.objective).abs() <= 1e-7 * a.objective.abs());
}

/// max x + y  s.t.  x + y ≤ 4,  x − y = 0,  0 ≤ x ≤ 1.5,  y ≥ 0: the optimum x = y = 1.5 and
/// its duals are exact small integers.
fn two_by_two() -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, 1.0; 1.0, -1.0])
        .maximize([1.0, 1.0])
        .row_bounds([f64::NEG_INFINITY, 0.0], [4.0, 0.0])
        .col_bounds([0.0, 0.0], [1.5, f64::INFINITY])
        .build()
        .expect("a valid model")
}

#[test]
fn a_point_tampered_at_the_tolerance_scale_fails_verification() {
    let m = two_by_two();
    let s = run(&m, &quiet());
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    // The exact duals are integers; the solver's are within 1e-6 of them.
    let y: Vec<f64> = s.row_duals.iter().map(|v| v.round()).collect();
    assert!(s.row_duals.iter().zip(&y).all(|(a, b)| (a - b).abs() <= 1e-6), "{:?}", s.row_duals);
    let x = [1.5, 1.5];
    let exact = verify_point(&m, &x, &y, 1e-8);
    // Exact but for the rounding of the two sides' sums.
    assert!(exact.worst() <= 1e-14, "the exact optimum measures 0: {}", exact.summary());
    assert!(exact.enclosure.contains(3.0), "{}", exact.summary());
    // Moving x by −δ·(1, 1) keeps the rows and boxes and costs 2δ of objective: the enclosure
    // is [3 − 2δ, 3] (a maximization: the point's side is the lower end). The dual side is made
    // of one term, 2·1.5 (x's reduced cost on its upper bound), so the objective's size is
    // S = 3 + CANCELLATION·3 and the width 2δ / S. Just below and just above 10·ε = 1e-7:
    let size = 3.0 + CANCELLATION * 3.0;
    for (factor, expected) in [(1.0 - 1e-3, Accuracy::Tolerance), (1.0 + 1e-3, Accuracy::Reduced)] {
        let delta = 1e-7 * factor * size / 2.0;
        let v = verify_point(&m, &[1.5 - delta, 1.5 - delta], &y, 1e-8);
        assert!((v.width - 2.0 * delta / size).abs() <= 1e-6 * v.width, "δ = {delta:e}: {}", v.summary());
        assert_eq!(v.accuracy, expected, "δ = {delta:e}: {}", v.summary());
    }
    // A sign-flipped dual proves what it can (after its repair): never an enclosure without 3.
    let flipped: Vec<f64> = y.iter().map(|v| -v).collect();
    let v = verify_point(&m, &x, &flipped, 1e-8);
    assert!(v.enclosure.lower <= 3.0 && 3.0 <= v.enclosure.upper, "{}", v.summary());
    // And afiro's point with one column moved by 1e-3 (far beyond ε, far below the old +1).
    let m = netlib("afiro");
    let s = run(&m, &quiet());
    let mut x = s.x.clone();
    let j = (0..x.len()).find(|&j| m.a.col_ptr[j + 1] > m.a.col_ptr[j]).expect("a column with entries");
    x[j] += 1e-3;
    let v = verify_point(&m, &x, &s.row_duals, 1e-8);
    assert_ne!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
}

#[test]
fn a_nan_dual_never_passes_verification() {
    // min 0 s.t. x1 + x2 = 0, x1 − x2 ≥ 0, x ≥ 0: x = 0 is optimal and every measure of
    // (x, y = 0) is 0. With c = 0 a NaN row dual would contribute nothing to any sum.
    let m = LpModel::builder(nalgebra::dmatrix![1.0, 1.0; 1.0, -1.0])
        .minimize([0.0, 0.0])
        .row_bounds([0.0, 0.0], [0.0, f64::INFINITY])
        .build()
        .expect("a valid model");
    let x = [0.0, 0.0];
    let v = verify_point(&m, &x, &[0.0, 0.0], 1e-8);
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
    // A NaN on the equality row (free dual), on the inequality row, on both: the row's own
    // multiplier and the reduced costs c − Aᵀy it spoils are NaN, and the point fails.
    for y in [[f64::NAN, 0.0], [0.0, f64::NAN], [f64::NAN, f64::NAN]] {
        let v = verify_point(&m, &x, &y, 1e-8);
        assert_eq!(v.accuracy, Accuracy::Failed, "y = {y:?}: {}", v.summary());
    }
}

/// row 0: x1 + x2 + x3 ≥ 3,  row 1: x1 + x2 ≤ 1,  row 2: x3 ≤ 1,  x1, x2 ≥ 0, x3 free: infeasible
/// (the rows allow x1 + x2 + x3 ≤ 2), proved by y = (1, −1, −1). The ray y = (1, −1, −(1 − η))
/// leaves d₃ = η on x3, which is free: as given it proves nothing, and the check's exact step
/// moves row 2's multiplier by exactly η, which proves 3 − 1 − 1 = 1 > 0 for the model as written.
fn farkas_model() -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, 1.0, 1.0; 1.0, 1.0, 0.0; 0.0, 0.0, 1.0])
        .minimize([0.0, 0.0, 0.0])
        .row_bounds([3.0, f64::NEG_INFINITY, f64::NEG_INFINITY], [f64::INFINITY, 1.0, 1.0])
        .col_bounds([0.0, 0.0, f64::NEG_INFINITY], [f64::INFINITY, f64::INFINITY, f64::INFINITY])
        .build()
        .expect("a valid model")
}

/// x1 + x2 + ε·x3 ≥ 3, x1 + x2 ≤ 1, x1, x2 ≥ 0, x3 free is feasible (x3 = 3/ε): the ray
/// y = (1, −1) proves 3 − 1 = 2 > 0 only while ε·x3 < 2. However small ε, the checker must refuse
/// it: the only row that could cancel x3's part is row 0, and cancelling it cancels the proof.
fn feasible_with_a_small_coefficient(eps: f64) -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, 1.0, eps; 1.0, 1.0, 0.0])
        .minimize([0.0, 0.0, 0.0])
        .row_bounds([3.0, f64::NEG_INFINITY], [f64::INFINITY, 1.0])
        .col_bounds([0.0, 0.0, f64::NEG_INFINITY], [f64::INFINITY, f64::INFINITY, f64::INFINITY])
        .build()
        .expect("a valid model")
}

/// r = (1, 1) on  min −x1  s.t.  x1 − (1 − ε)·x2 ≤ 1,  x ≥ 0: A·r = ε moves the row towards its
/// finite upper bound by ε of its own terms Σⱼ|a₀ⱼrⱼ| = 2 − ε: ρ = ε / (2 − ε).
fn ray_model(eps: f64) -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, -(1.0 - eps)])
        .minimize([-1.0, 0.0])
        .row_bounds([f64::NEG_INFINITY], [1.0])
        .col_bounds([0.0, 0.0], [f64::INFINITY, f64::INFINITY])
        .build()
        .expect("a valid model")
}

#[test]
fn checkers_prove_repairable_rays_reject_bad_ones_and_grade_at_the_tolerance_edge() {
    let tol = 1e-8;
    for eta in [1e-12, 1e-9, 1e-6, 0.25] {
        let c = check_farkas(&farkas_model(), &[1.0, -1.0, -(1.0 - eta)], tol);
        assert_eq!((c.accuracy, c.backward_error), (Accuracy::Tolerance, 0.0), "η = {eta:e}: {}", c.summary());
        assert!(c.gain > 0.0 && c.gain <= 1.0, "η = {eta:e}: {}", c.summary());
    }
    for factor in [1.0 - 1e-3, 1.0 + 1e-3] {
        let eps = tol * factor;
        let expected = if factor < 1.0 { Accuracy::Tolerance } else { Accuracy::Reduced };
        // However small its coefficient, a term that can fill a row is no rounding error.
        let m = feasible_with_a_small_coefficient(eps);
        assert_eq!(check_farkas(&m, &[1.0, -1.0], tol).accuracy, Accuracy::Failed, "ε = {eps:e}");
        assert!(!certify::farkas(&m, &[1.0, -1.0]).holds(tol), "ε = {eps:e}");
        // ε / (2 − ε) = eps: ε = 2·eps / (1 + eps).
        let m = ray_model(2.0 * eps / (1.0 + eps));
        let c = check_primal_ray(&m, &[1.0, 1.0], tol);
        assert!((c.backward_error - eps).abs() <= 1e-6 * eps, "ray ρ {eps:e}: {}", c.summary());
        assert_eq!(c.accuracy, expected, "ray ε = {eps:e}: {}", c.summary());
        assert_eq!(certify::primal_ray(&m, &[1.0, 1.0]).holds(tol), expected == Accuracy::Tolerance);
    }
    // Sign-flipped and zero rays prove nothing, for the crate's checkers and the suite's.
    let m = farkas_model();
    assert_eq!(check_farkas(&m, &[1.0, -1.0, -1.0], tol).accuracy, Accuracy::Tolerance);
    for y in [[-1.0, 1.0, 1.0], [0.0, 0.0, 0.0]] {
        assert_eq!(check_farkas(&m, &y, tol).accuracy, Accuracy::Failed, "Farkas {y:?}");
        assert!(!certify::farkas(&m, &y).holds(tol), "Farkas {y:?}");
    }
    let m = ray_model(0.0);
    let c = check_primal_ray(&m, &[1.0, 1.0], tol);
    assert_eq!((c.accuracy, c.backward_error), (Accuracy::Tolerance, 0.0), "an exact ray: {}", c.summary());
    for r in [[-1.0, -1.0], [0.0, 0.0]] {
        assert_eq!(check_primal_ray(&m, &r, tol).accuracy, Accuracy::Failed, "ray {r:?}");
        assert!(!certify::primal_ray(&m, &r).holds(tol), "ray {r:?}");
    }
}

#[test]
fn limits_stop_with_the_best_point_and_the_right_status() {
    let m = netlib("sc50b");
    // Iteration limit: the best iterate comes back, graded.
    let s = run(&m, &quiet().to_builder().max_iterations(4).build().expect("valid"));
    assert_eq!(s.status, Status::IterationLimit);
    assert!(s.best_iterate);
    assert!(s.verification.as_ref().is_some_and(|v| v.accuracy != Accuracy::Tolerance));
    // A time limit of a nanosecond (zero is refused) stops at the first check.
    let s = run(&m, &quiet().to_builder().time_limit(std::time::Duration::from_nanos(1)).build().expect("valid"));
    assert_eq!(s.status, Status::TimeLimit, "{}", s.detail);
    assert_eq!(s.iterations, 0);
    // A raised interrupt flag (what Ctrl-C sets in the CLI).
    let flag = Arc::new(AtomicBool::new(true));
    let s = run(&m, &quiet().to_builder().interrupt(flag).build().expect("valid"));
    assert_eq!(s.status, Status::Interrupted);
    assert_eq!(s.x.len(), m.num_cols());
    // A limit loose enough to finish does not change the answer.
    let s = run(&m, &quiet().to_builder().time_limit(std::time::Duration::from_secs(3600)).build().expect("valid"));
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

#[test]
fn coefficient_ranges_skip_zeros_and_infinities_and_see_every_entry() {
    // 19 columns (four groups of four and a remainder of three): the extremes sit in the
    // remainder and in the middle of a group; zeros and infinite bounds are not coefficients.
    let n = 19;
    let a = nalgebra::DMatrix::from_fn(1, n, |_, j| match j {
        17 => -3e4,
        5 => 2e-6,
        3 => 0.0,
        _ => 1.0 + j as f64,
    });
    let m = LpModel::builder(a)
        .minimize(vec![0.0; n])
        .row_bounds([f64::NEG_INFINITY], [7.0])
        .col_bounds(vec![0.0; n], vec![f64::INFINITY; n])
        .build()
        .expect("a valid model");
    let lines = glsolve::lp::log::coefficient_ranges(&m);
    assert_eq!(lines[1].trim(), "matrix [2e-6, 3e4]", "{lines:?}");
    assert_eq!(lines[2].trim(), "cost   [none]", "{lines:?}");
    assert_eq!(lines[3].trim(), "bound  [none]", "{lines:?}");
    assert_eq!(lines[4].trim(), "rhs    [7e0, 7e0]", "{lines:?}");
}

/// min x₁ + x₂ s.t. the row x₁ + x₂ (= 1 twice, or ≥ 1 and ≤ 1): any y with y₀ + y₁ = 1 is a
/// dual optimum, so y = (1 + t, −t) is one for every t: the dual optimal set is unbounded.
fn twice_the_same_row(first: (f64, f64), second: (f64, f64)) -> LpModel {
    LpModel::builder(nalgebra::dmatrix![1.0, 1.0; 1.0, 1.0])
        .minimize([1.0, 1.0])
        .row_bounds([first.0, second.0], [first.1, second.1])
        .build()
        .expect("a valid model")
}

#[test]
fn a_point_off_its_rows_is_charged_at_its_multipliers() {
    // x misses the rows by 1e-9 (a backward error of 5e-10 against 10ε = 1e-7) with the minimal
    // duals (y₀ + y₁ = 1): the primal end is cᵀx plus 1e-9 priced at |y|, and the point passes.
    let (x, near) = ([0.5, 0.5 + 1e-9], [1.0, 0.0]);
    let m = twice_the_same_row((1.0, 1.0), (1.0, 1.0));
    let v = verify_point(&m, &x, &near, 1e-8);
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
    assert!(v.enclosure.lower <= 1.0 && 1.0 <= v.enclosure.upper, "{}", v.summary());
    // The same point with duals far out on their ray: each row's miss is charged at 1e9, and the
    // enclosure [1, ≈ 3] is what that point proves: not optimal.
    let far = [1.0 + 1e9, -1e9];
    let v = verify_point(&m, &x, &far, 1e-8);
    assert_eq!(v.accuracy, Accuracy::Failed, "{}", v.summary());
    assert!(v.enclosure.lower <= 1.0 && 1.0 <= v.enclosure.upper, "{}", v.summary());
}
