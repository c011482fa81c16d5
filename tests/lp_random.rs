//! Random dense LPs of the papers' family, the cpu backend's kernels, and the MPS writer.
//! Optimality is checked on the original data by the test itself (KKT conditions), not by
//! comparing with anything the solver printed.

use faer::{Mat, Par};
use glsolve::cpu::cholesky::cholesky_lower;
use glsolve::lp::backend::{CpuNormal, CpuVectors, NormalEquations, Reduction, VectorKernels};
use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::{mps, mps_write, solve, Settings, Status};

#[test]
fn random_family_is_optimal_and_satisfies_kkt() {
    let (m, seed) = (48, 7);
    let lp = random_lp(m, seed);
    let n = lp.n;
    assert_eq!(n, 4 * m);
    for j in 0..n {
        let norm: f64 = (0..m).map(|i| lp.a_row_major[i * n + j].powi(2)).sum::<f64>().sqrt();
        assert!((norm - 1.0).abs() < 1e-12, "column {j} has norm {norm}");
    }
    let st = Settings::default();
    let s = solve(&lp.to_model(seed), &st, &mut Logger::quiet()).expect("valid settings");
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    // Primal feasibility ‖Ax − b‖∞ and x ≥ 0; dual feasibility Aᵀy ≤ c (reduced costs ≥ 0);
    // duality gap. Tolerance 1e-6: the solver's own tests are at 1e-8 relative to 1 + ‖b‖∞
    // (‖b‖∞ ≈ 3 for Gaussian b) and the map back is exact up to rounding.
    let tol = 1e-6;
    for i in 0..m {
        let ax: f64 = (0..n).map(|j| lp.a_row_major[i * n + j] * s.x[j]).sum();
        assert!((ax - lp.b[i]).abs() < tol, "row {i}: Ax = {ax}, b = {}", lp.b[i]);
    }
    assert!(s.x.iter().all(|&v| v > -tol));
    let cx: f64 = s.x.iter().sum();
    let by: f64 = lp.b.iter().zip(&s.row_duals).map(|(b, y)| b * y).sum();
    for j in 0..n {
        let aty: f64 = (0..m).map(|i| lp.a_row_major[i * n + j] * s.row_duals[i]).sum();
        assert!(1.0 - aty > -tol, "dual constraint {j} violated: aᵀy = {aty}");
        assert!((s.reduced_costs[j] - (1.0 - aty)).abs() < 1e-9);
    }
    assert!((cx - by).abs() <= tol * (1.0 + cx.abs()), "gap: cᵀx = {cx}, bᵀy = {by}");
    assert!((s.objective - cx).abs() < 1e-9);
}

#[test]
fn generate_writes_mps_that_reads_back_bit_identical() {
    let seed = 3;
    let mut model = random_lp(16, seed).to_model(seed);
    // Column bounds of every kind the writer must carry: upper, negative lower, free, fixed,
    // and values that need all 17 significant digits.
    model.col_upper[0] = 7.25;
    model.col_lower[1] = -3.5;
    (model.col_lower[2], model.col_upper[2]) = (f64::NEG_INFINITY, f64::INFINITY);
    (model.col_lower[3], model.col_upper[3]) = (0.1, 0.1);
    (model.col_lower[4], model.col_upper[4]) = (1.0 / 3.0, std::f64::consts::PI);
    let text = mps_write::to_mps_string(&model).expect("a valid model");
    let back = mps::read_str(&text).expect("written MPS parses");
    assert_eq!(back.a, model.a);
    assert_eq!(back.c, model.c);
    assert_eq!(back.row_lower, model.row_lower);
    assert_eq!(back.row_upper, model.row_upper);
    assert_eq!(back.col_names, model.col_names);
    assert_eq!(back.row_names, model.row_names);
    // Bit for bit (f64 equality; no bound here is NaN).
    assert_eq!(back.col_lower, model.col_lower);
    assert_eq!(back.col_upper, model.col_upper);
    assert_eq!((back.sense, back.obj_constant), (model.sense, model.obj_constant));
}

#[test]
fn mps_writer_round_trips_bounds_ranges_constant_and_sense() {
    let text = "NAME RT\nOBJSENSE\n    MAX\nROWS\n N OBJ\n G G1\n L L1\n E E1\nCOLUMNS\n X OBJ 1 G1 1\n X L1 2 E1 1\n Y OBJ -1 G1 1\n Z E1 1\nRHS\n OBJ 2.5 G1 1\n L1 8 E1 3\nRANGES\n G1 4 E1 -1\nBOUNDS\n UP BND X 5\n FR BND Y\n MI BND Z\n UP BND Z 9\nENDATA\n";
    let model = mps::read_str(text).expect("valid");
    let back = mps::read_str(&mps_write::to_mps_string(&model).expect("a valid model")).expect("written MPS parses");
    assert_eq!(back.sense, model.sense);
    assert_eq!(back.obj_constant, -2.5);
    assert_eq!((back.row_lower.clone(), back.row_upper.clone()), (model.row_lower.clone(), model.row_upper.clone()));
    assert_eq!((back.col_lower.clone(), back.col_upper.clone()), (model.col_lower.clone(), model.col_upper.clone()));
    assert_eq!(back.a, model.a);
}

/// Random SPD matrix G·Gᵀ + I (eigenvalues ≥ 1), with a deterministic generator.
fn spd(m: usize) -> Mat<f64> {
    let g = Mat::<f64>::from_fn(m, m, |i, j| (((i * 31 + j * 17) % 23) as f64 - 11.0) / 11.0);
    let mut a = &g * g.transpose();
    for i in 0..m {
        a[(i, i)] += 1.0;
    }
    a
}

#[test]
fn blocked_cholesky_reconstructs_spd_matrix() {
    // m = 150 spans three blocks of 64 (diagonal block, panel solve and trailing update all run).
    let m = 150;
    let a = spd(m);
    let mut l = a.clone();
    let replaced = cholesky_lower(l.as_mut(), 1e-14, 1e64, Par::Seq).expect("SPD factors");
    assert_eq!(replaced, 0);
    let lower = Mat::<f64>::from_fn(m, m, |i, j| if i >= j { l[(i, j)] } else { 0.0 });
    let r = &lower * lower.transpose() - &a;
    // Backward error of Cholesky is O(m·u)·‖A‖; 1e-12 relative leaves margin for m = 150.
    assert!(r.norm_max() <= 1e-12 * a.norm_max(), "‖LLᵀ − A‖ = {:e}", r.norm_max());
}

#[test]
fn dependent_rows_get_replaced_pivots_and_consistent_solves() {
    // A with row 2 = row 0 + row 1: AAᵀ is singular; the backend must factor it (one pivot
    // replaced) and still solve consistent systems: with r = A·A ᵀ·u₀, A ᵀ·u must equal A ᵀ·u₀.
    let a = Mat::<f64>::from_fn(3, 5, |i, j| match i {
        0 => (j + 1) as f64,
        1 => ((j * j) % 5) as f64 - 2.0,
        _ => (j + 1) as f64 + ((j * j) % 5) as f64 - 2.0,
    });
    let mut be = CpuVectors::new(a.as_ref(), &[]);
    let mut ne = CpuNormal::new(3, 5);
    let ones = be.fill(5, 1.0).expect("fill");
    ne.assemble(&mut be, &ones).expect("assemble");
    let info = ne.factor(&mut be).expect("singular matrix handled");
    assert_eq!(info.replaced_pivots, 1);
    let u0 = be.upload(&[1.0, -2.0, 0.5]).expect("upload");
    let atu0 = be.at_mul(1.0, &u0, None).expect("at_mul");
    let r = be.a_mul(1.0, &atu0, None).expect("a_mul");
    let u = ne.solve(&mut be, &r).expect("solve");
    let atu = be.at_mul(1.0, &u, None).expect("at_mul");
    for (x, y) in atu.iter().zip(&atu0) {
        assert!((x - y).abs() < 1e-9 * (1.0 + y.abs()), "{x} vs {y}");
    }
}

#[test]
fn cpu_kernels_match_definitions() {
    let a = Mat::<f64>::from_fn(2, 3, |i, j| (i * 3 + j) as f64 - 2.0); // [[-2,-1,0],[1,2,3]]
    let mut be = CpuVectors::new(a.as_ref(), &[(0, 2)]);
    let x = be.upload(&[1.0, 2.0, 4.0]).expect("upload");
    let dx = be.upload(&[-2.0, 1.0, -1.0]).expect("upload");
    assert_eq!(be.a_mul(1.0, &x, None).expect("a_mul"), vec![-4.0, 17.0]);
    let y = be.upload(&[1.0, 1.0]).expect("upload");
    assert_eq!(be.at_mul(2.0, &y, Some((1.0, &x))).expect("at_mul"), vec![-1.0, 4.0, 10.0]);
    // Largest α ∈ [0, 1] with x + αΔx ≥ 0: min(1/2, 4/1) = 0.5.
    assert_eq!(be.max_step(&x, &dx).expect("step"), 0.5);
    assert_eq!(be.dot(&x, &dx).expect("dot"), -4.0);
    assert_eq!(be.reduce(Reduction::MaxAbs, &dx).expect("norm"), 2.0);
    assert_eq!(
        (be.reduce(Reduction::Min, &dx).expect("min"), be.reduce(Reduction::Max, &dx).expect("max")),
        (-2.0, 1.0)
    );
    // Free pair (0, 2) with x⁺ = 100, x⁻ = 99: x = 1, cap 10·(1 + 1) = 20, both lowered by 79.
    let big = be.upload(&[100.0, 5.0, 99.0]).expect("upload");
    assert_eq!(be.recenter_free_pairs(&big, 10.0).expect("recenter"), vec![21.0, 5.0, 20.0]);
    assert!(be.dot(&x, &y).is_err(), "length mismatch is an error, not a panic");
}
