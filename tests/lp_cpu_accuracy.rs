//! The cpu backend's accuracy mechanisms, each on a small model built to need it: sparse
//! assembly (against the dense one), implicit upper bounds, nearly dependent rows (tiny-pivot
//! replacement recovered by refinement), free variables, and NETLIB problems (primal
//! regularization; a stalling residual that is no infeasibility; a factorization breakdown; a
//! model solved through the sparse factorization; dependent rows removed before the loop). Every `optimal` here is
//! `optimal` at ε = 1e-8 with the independent check on the original model passing.

mod common;

use common::log::SharedLog;
use glsolve::lp::backend::{CpuNormal, CpuVectors};
use glsolve::lp::log::Logger;
use glsolve::lp::{mps, solve, Accuracy, LpModel, Settings, Solution, SparseColMatrix, Status};
use nalgebra::DMatrix;

fn quiet() -> Settings {
    Settings::default()
}

fn solve_model(model: &LpModel) -> Solution {
    solve(model, &quiet(), &mut Logger::quiet()).expect("valid settings")
}

/// Optimal at full accuracy, and the objective within 1e-7 relative of `want` (the loop stops
/// at relative gap 1e-8; the check allows 10ε).
fn assert_optimal(sol: &Solution, want: f64) {
    assert_eq!(sol.status, Status::Optimal, "{}", sol.detail);
    let v = sol.verification.as_ref().expect("the cpu backend verifies");
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{v:?}");
    assert!((sol.objective - want).abs() <= 1e-7 * want.abs().max(1.0), "objective {} want {want}", sol.objective);
}

/// A deterministic sparse m×n matrix with about `per_col` nonzeros per column (xorshift).
fn sparse_matrix(m: usize, n: usize, per_col: usize, seed: u64) -> SparseColMatrix {
    let mut s = seed.max(1);
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut t = Vec::new();
    for j in 0..n {
        let mut rows: Vec<usize> = (0..per_col).map(|_| (next() % m as u64) as usize).collect();
        rows.sort_unstable();
        rows.dedup();
        for i in rows {
            t.push((i, j, (next() % 1000) as f64 / 250.0 - 2.0));
        }
    }
    SparseColMatrix::from_triplets(m, n, &t).expect("valid triplets")
}

#[test]
fn sparse_assembly_equals_the_dense_one() {
    let (m, n) = (60, 200);
    let a = sparse_matrix(m, n, 4, 11);
    let d2: Vec<f64> = (0..n).map(|j| 10f64.powi((j % 13) as i32 - 6)).collect();
    let full = a.to_dense();
    let dense = CpuVectors::new(faer::Mat::from_fn(m, n, |i, j| full[(i, j)]).as_ref(), &[]);
    let sparse = CpuVectors::sparse(a.clone(), &[]);
    let (mut nd, mut ns) = (CpuNormal::new(m, n), CpuNormal::new(m, n));
    nd.assemble_on(&dense, &d2).expect("assembles");
    ns.assemble_on(&sparse, &d2).expect("assembles");
    let (x, y) = (nd.matrix(), ns.matrix());
    let scale = (0..m).map(|i| x[(i, i)].abs()).fold(0.0, f64::max);
    for j in 0..m {
        for i in j..m {
            // Both sum the same products in different orders: agreement to rounding.
            assert!((x[(i, j)] - y[(i, j)]).abs() <= 1e-13 * scale, "({i},{j}): {} vs {}", x[(i, j)], y[(i, j)]);
        }
    }
}

#[test]
fn upper_bounds_are_kept_implicitly_and_met() {
    // max Σ xⱼ s.t. Σ xⱼ ≤ 10, 0 ≤ xⱼ ≤ uⱼ with Σ uⱼ = 6: every bound is active, objective 6.
    let u = [0.5, 1.0, 1.5, 3.0];
    let model = LpModel::builder(DMatrix::from_row_slice(1, 4, &[1.0, 1.0, 1.0, 1.0]))
        .maximize([1.0; 4])
        .rows_at_most([10.0])
        .col_bounds([0.0; 4], u)
        .build()
        .expect("valid");
    let sol = solve_model(&model);
    assert_optimal(&sol, 6.0);
    for (x, u) in sol.x.iter().zip(u) {
        assert!((x - u).abs() <= 1e-7, "x {x} at its bound {u}");
    }
}

#[test]
fn nearly_dependent_rows_are_solved_to_full_accuracy() {
    // Row 3 repeats row 1 up to 1e-13 (with a consistent right-hand side): A·D²·Aᵀ is singular
    // to rounding, its tiny pivot replaced and the lost direction recovered by refinement.
    let e = 1e-13;
    let a = DMatrix::from_row_slice(3, 4, &[1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0 + e, 0.0]);
    let model = LpModel::builder(a).minimize([1.0, 2.0, 3.0, 1.0]).rows_equal([4.0, 3.0, 4.0]).build().expect("valid");
    let sol = solve_model(&model);
    // x = (4 − x₂ − x₃, x₂, x₃, 3 − x₂ − 2x₃): cost 7 + 0·x₂ + 0·x₃ on the feasible set
    // {x₂ + 2x₃ ≤ 3, x₂ + x₃ ≤ 4}: every feasible point is optimal with objective 7 — up to
    // the 1e-13 perturbation of row 3, which forces x₃ ≈ 0.
    assert_optimal(&sol, 7.0);
}

#[test]
fn free_variables_are_split_and_solved() {
    // min x₁ + 2x₂ s.t. x₁ − x₂ = −3, x₁ + x₂ ≥ 1, x₁, x₂ free: x = (−1, 2), objective 3.
    let model = LpModel::builder(DMatrix::from_row_slice(2, 2, &[1.0, -1.0, 1.0, 1.0]))
        .minimize([1.0, 2.0])
        .row_bounds([-3.0, 1.0], [-3.0, f64::INFINITY])
        .free_columns()
        .build()
        .expect("valid");
    let sol = solve_model(&model);
    assert_optimal(&sol, 3.0);
    assert!((sol.x[0] + 1.0).abs() <= 1e-7 && (sol.x[1] - 2.0).abs() <= 1e-7, "{:?}", sol.x);
}

fn netlib_hard(name: &str) -> Solution {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib-hard"));
    let plain = dir.join(format!("{name}.mps"));
    let path = if plain.exists() { plain } else { dir.join(format!("{name}.mps.gz")) };
    let model = mps::read_file(&path).expect("fixture readable");
    solve_model(&model)
}

#[test]
fn scfxm2_needs_primal_regularization_and_gets_full_accuracy() {
    // Without it the primal residual jumped from 3e-10 to 4e-2 at iteration 15 and the run
    // ended "optimal (reduced accuracy)".
    assert_optimal(&netlib_hard("scfxm2"), 3.6660261565e4);
}

#[test]
fn a_stalling_residual_that_is_no_infeasibility_ends_optimal_with_a_clean_detail() {
    let sol = netlib_hard("etamacro");
    assert_optimal(&sol, -7.5571523330e2);
    assert!(!sol.detail.contains("certificate"), "{}", sol.detail);
}

#[test]
fn qap12_factorization_breakdown_is_retried_with_deflated_pivots() {
    // 398 of its 3192 rows are dependent. Near the optimum, rows whose pivots were rounding noise
    // were accepted, and the factorization broke down (a pivot of −∞) at iteration 13; the
    // retry with the deflating rule (RETRY_TINY_PIVOT) carries the solve to full accuracy.
    let sol = netlib_hard("qap12");
    assert_optimal(&sol, 5.2289435056e2);
}

#[test]
fn stocfor3_is_solved_through_the_sparse_factor() {
    // 16675 rows: the dense normal matrix would be 2.2 GB and each factorization ≈ 8·10¹¹
    // multiply-adds (the solve hit a 120 s limit); its AMD-ordered factor needs a few hundred
    // times fewer, so the automatic choice is the sparse factor, and the solve ends optimal.
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib-hard"));
    let model = mps::read_file(&dir.join("stocfor3.mps.gz")).expect("fixture readable");
    let log = SharedLog::default();
    let st = Settings::default();
    let sol = solve(&model, &st, &mut Logger::to_writer(Box::new(log.clone()))).expect("valid settings");
    let text = log.text();
    assert!(text.contains("sparse Cholesky"), "the log does not name the sparse factor:\n{text}");
    assert_optimal(&sol, -3.9976783944e4);
}

/// min Σ x over the arcs of a cycle of `len` nodes (both directions, cost 1) sending one unit
/// from node 0 to node 3: the shortest path has 3 arcs (the other way round has len − 3). The
/// node rows sum to zero, so one of them is a combination of the others.
fn cycle_flow(len: usize) -> LpModel {
    let mut t = Vec::new();
    for i in 0..len {
        let (u, v) = (i, (i + 1) % len);
        t.extend([(u, 2 * i, 1.0), (v, 2 * i, -1.0), (v, 2 * i + 1, 1.0), (u, 2 * i + 1, -1.0)]);
    }
    let a = SparseColMatrix::from_triplets(len, 2 * len, &t).expect("valid triplets");
    let mut b = vec![0.0; len];
    b[0] = 1.0;
    b[3] = -1.0;
    LpModel::builder(a).minimize(vec![1.0; 2 * len]).rows_equal(b).build().expect("valid model")
}

#[test]
fn a_dependent_row_is_removed_and_the_duals_stay_bounded() {
    let model = cycle_flow(101);
    let log = SharedLog::default();
    let st = Settings::default();
    let sol = solve(&model, &st, &mut Logger::to_writer(Box::new(log.clone()))).expect("valid settings");
    let text = log.text();
    assert!(text.contains("presolve: 1 linearly dependent rows removed"), "{text}");
    assert_eq!(sol.standard_form_size, (100, 202));
    assert_optimal(&sol, 3.0);
    // The duals are node potentials: y₀ − y₃ = 3 along the path, one row's dual is 0 (the
    // dropped one), so none exceeds the longest shortest path (50) in size.
    assert_eq!(sol.row_duals.iter().filter(|&&y| y == 0.0).count(), 1, "{:?}", sol.row_duals);
    assert!((sol.row_duals[0] - sol.row_duals[3] - 3.0).abs() <= 1e-6, "{:?}", &sol.row_duals[..4]);
    assert!(sol.row_duals.iter().all(|y| y.abs() <= 51.0), "{:?}", sol.row_duals);
}

#[test]
fn dfl001_is_proven_after_its_dependent_rows_are_removed() {
    // 13 of its 6071 rows are combinations of the others. Kept, the conjugate-gradient
    // refinement moved λ along the null space of Aᵀ and the dual residual rose from 2e-9 to
    // 1e-4 within three iterations (iteration limit at 200, 40 s); removed, the loop converges.
    // Its proven enclosure is wider than 10ε of the objective (the dual side needs the
    // multipliers' repair), so the answer is `optimal (reduced accuracy)` at best — and the
    // enclosure holds the optimum.
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib-hard"));
    let model = mps::read_file(&dir.join("dfl001.mps.gz")).expect("fixture readable");
    let sol = solve_model(&model);
    assert_eq!(sol.standard_form_size.0, 6071 - 13);
    assert!(matches!(sol.status, Status::Optimal | Status::OptimalReducedAccuracy), "{}", sol.detail);
    let e = sol.enclosure().expect("an enclosure");
    let reference = 1.1266396047e7;
    assert!(e.lower <= reference && reference <= e.upper, "{e:?}");
    let v = sol.verification.as_ref().expect("verified");
    assert!(
        v.width <= (10.0 * 1e-8f64).sqrt() && v.primal_backward_error <= (10.0 * 1e-8f64).sqrt(),
        "{}",
        v.summary()
    );
}

#[test]
fn greenbea_is_optimal_at_the_cpu_step_factor() {
    // Its optimal vertex holds values up to 3e8. At the papers' step factor 0.99 a few
    // complementarity products fell far below μ, Θ = x/s spanned 1e24, conjugate gradients could
    // no longer refine the directions, and the run crawled to reduced accuracy in 170
    // iterations; at the cpu backend's default (0.95) the check passes at ε.
    assert_eq!(Settings::default().step_factor(), glsolve::lp::settings::CPU_STEP_FACTOR);
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib-hard"));
    let model = mps::read_file(&dir.join("greenbea.mps.gz")).expect("fixture readable");
    let sol = solve_model(&model);
    assert_optimal(&sol, -7.2555248130e7);
}
