//! The proof attacked with LPs written the way modellers write them, each with an optimum or a
//! verdict known by hand: limits of 1e6…1e15 standing for "no limit", a column that no row uses,
//! two rows that contradict each other beside a row with a large right-hand side, a column fixed
//! twice by singleton rows, a ray beside an infeasibility, objective constants and origin shifts
//! that cancel cᵀx, an optimum of 0 with costs spread over ten orders — each in several unit
//! systems (the cost, one row and one column times powers of ten), on the cpu, hybrid and gpu
//! backends. cpu and hybrid must be right (`optimal` with the known optimum inside the proven
//! enclosure, within 10ε of it, or the right infeasibility verdict); gpu must be right or say it
//! is not optimal. Then a property: on random small LPs the enclosure holds the optimum that a
//! vertex enumeration (independent of the solver) finds.

mod common;
use common::Rng;
use glsolve::lp::{LpModel, Settings, SparseColMatrix, Status};
use glsolve::BackendKind;
use nalgebra::DMatrix;

const INF: f64 = f64::INFINITY;

/// What a model's answer must be.
#[derive(Clone, Copy, Debug)]
enum Known {
    Optimum(f64),
    /// No feasible point (whatever the cost).
    Infeasible,
    /// Feasible and improving without limit.
    Unbounded,
}

/// A model from dense rows: min/max cᵀx + constant, rows in [lo, up], columns in [cl, cu].
#[allow(clippy::too_many_arguments)]
fn model(a: &[&[f64]], c: &[f64], rows: (&[f64], &[f64]), cols: (&[f64], &[f64]), constant: f64) -> LpModel {
    let m = a.len();
    let n = c.len();
    let dense = DMatrix::from_fn(m, n, |i, j| a[i][j]);
    let mut model = LpModel::builder(SparseColMatrix::from_dense(&dense))
        .minimize(c.to_vec())
        .row_bounds(rows.0.to_vec(), rows.1.to_vec())
        .col_bounds(cols.0.to_vec(), cols.1.to_vec())
        .build()
        .expect("a valid model");
    model.obj_constant = constant;
    model
}

/// The models and what they must give (`name`, model, known answer).
fn cases() -> Vec<(String, LpModel, Known)> {
    let mut out = Vec::new();
    // 1. min x₁ + 2x₂ + 3x₃ s.t. x₁ + 2x₂ + x₃ ≥ 1, 3x₁ + x₂ + 2x₃ ≥ 1, x₁ + x₂ + x₃ ≤ 10, and a
    //    column u in no row with cost 1 and a limit L standing for infinity: optimum 1.
    for limit in [1e6, 1e10, 1e12, 1e15] {
        let m = model(
            &[&[1.0, 2.0, 1.0, 0.0], &[3.0, 1.0, 2.0, 0.0], &[1.0, 1.0, 1.0, 0.0]],
            &[1.0, 2.0, 3.0, 1.0],
            (&[1.0, 1.0, -INF], &[INF, INF, 10.0]),
            (&[0.0; 4], &[INF, INF, INF, limit]),
            0.0,
        );
        out.push((format!("unused column limited at {limit:e}"), m, Known::Optimum(1.0)));
    }
    // 2. x + u = 1, x + u = 1.5, x + v = B, all ≥ 0, no cost: infeasible by a third of the rows'
    //    size, whatever B.
    for big in [1e6, 1e10, 1e14] {
        let m = model(
            &[&[1.0, 1.0, 0.0], &[1.0, 1.0, 0.0], &[1.0, 0.0, 1.0]],
            &[0.0; 3],
            (&[1.0, 1.5, big], &[1.0, 1.5, big]),
            (&[0.0; 3], &[INF; 3]),
            0.0,
        );
        out.push((format!("contradicting rows beside a row of {big:e}"), m, Known::Infeasible));
    }
    // 3. x = 1 and x = 2 as singleton rows beside x + y = 1e10: infeasible; x = 2 and 2x = 4
    //    (fixed twice, consistently) beside it: optimum of min y = 1e10 − 2.
    for (second, known) in [(2.0, Known::Infeasible), (4.0, Known::Optimum(1e10 - 2.0))] {
        let first = if second == 2.0 { 1.0 } else { 2.0 };
        let m = model(
            &[&[1.0, 0.0], &[if second == 2.0 { 1.0 } else { 2.0 }, 0.0], &[1.0, 1.0]],
            &[0.0, 1.0],
            (&[first, second, 1e10], &[first, second, 1e10]),
            (&[0.0, 0.0], &[INF, INF]),
            0.0,
        );
        out.push((format!("a column fixed twice ({first}, then {second})"), m, known));
    }
    // 3b. A column fixed by its bounds at 1 and by a singleton row at 1 + 1e-3, beside a row of
    //     1e10: presolve's empty row 0 = 1e-3 is a contradiction by its own numbers.
    let m = model(
        &[&[1.0, 0.0], &[1.0, 1.0]],
        &[0.0, 1.0],
        (&[1.0 + 1e-3, 1e10], &[1.0 + 1e-3, 1e10]),
        (&[1.0, 0.0], &[1.0, INF]),
        0.0,
    );
    out.push(("a column fixed by its bounds and by a row".into(), m, Known::Infeasible));
    // 4. Case 2 with a ray beside it: z − w ≥ 0, cost −z. Infeasible (and dual infeasible).
    let m = model(
        &[
            &[1.0, 1.0, 0.0, 0.0, 0.0],
            &[1.0, 1.0, 0.0, 0.0, 0.0],
            &[1.0, 0.0, 1.0, 0.0, 0.0],
            &[0.0, 0.0, 0.0, 1.0, -1.0],
        ],
        &[0.0, 0.0, 0.0, -1.0, 0.0],
        (&[1.0, 1.5, 1e14, 0.0], &[1.0, 1.5, 1e14, INF]),
        (&[0.0; 5], &[INF; 5]),
        0.0,
    );
    out.push(("a ray beside contradicting rows".into(), m, Known::Infeasible));
    // 5. A ray with a feasible point: min −z s.t. z − w ≥ 0, z + w ≥ 1: unbounded.
    let m = model(&[&[1.0, -1.0], &[1.0, 1.0]], &[-1.0, 0.0], (&[0.0, 1.0], &[INF, INF]), (&[0.0; 2], &[INF; 2]), 0.0);
    out.push(("a ray from a feasible point".into(), m, Known::Unbounded));
    // 6. An optimum of 0 with costs from 1e7 down to 1e-2, every costed column 0 there:
    //    xⱼ + wⱼ = 1 with wⱼ ≥ 0 uncosted.
    let k = 10;
    let rows: Vec<Vec<f64>> =
        (0..k).map(|j| (0..2 * k).map(|c| if c == j || c == k + j { 1.0 } else { 0.0 }).collect()).collect();
    let rows_ref: Vec<&[f64]> = rows.iter().map(|r| r.as_slice()).collect();
    let c: Vec<f64> = (0..2 * k).map(|j| if j < k { 10f64.powi(7 - j as i32) } else { 0.0 }).collect();
    let m = model(&rows_ref, &c, (&vec![1.0; k], &vec![1.0; k]), (&vec![0.0; 2 * k], &vec![INF; 2 * k]), 0.0);
    out.push(("an optimum of 0, costs over ten orders".into(), m, Known::Optimum(0.0)));
    // 7. Costs 1e7, 2.5e-3, 1, 1e-3: min s.t. x₁ + x₂ ≥ 1, x₃ + x₄ ≥ 9: optimum 0.0115.
    let m = model(
        &[&[1.0, 1.0, 0.0, 0.0], &[0.0, 0.0, 1.0, 1.0]],
        &[1e7, 2.5e-3, 1.0, 1e-3],
        (&[1.0, 9.0], &[INF, INF]),
        (&[0.0; 4], &[INF; 4]),
        0.0,
    );
    out.push(("costs 1e7 to 1e-3".into(), m, Known::Optimum(0.0115)));
    // 8. A constant that cancels cᵀx: min x + y − 1e6 s.t. x + y ≥ 1e6 + 0.25: optimum 0.25.
    let m = model(&[&[1.0, 1.0]], &[1.0, 1.0], (&[1e6 + 0.25], &[INF]), (&[0.0; 2], &[INF; 2]), -1e6);
    out.push(("a constant cancelling the objective".into(), m, Known::Optimum(0.25)));
    // 9. An origin far away: x ∈ [1e8, 1e8 + 10], min x − 1e8 s.t. x − y ≥ 1e8 + 0.5, y ∈ [0, 1e12].
    let m = model(&[&[1.0, -1.0]], &[1.0, 0.0], (&[1e8 + 0.5], &[INF]), (&[1e8, 0.0], &[1e8 + 10.0, 1e12]), -1e8);
    out.push(("an origin at 1e8".into(), m, Known::Optimum(0.5)));
    out
}

/// `model` in other units: the cost times 10^kc, row `row` times 10^kr, column `col` times
/// 10^kj (its bounds divided). The optimum scales with the cost.
fn rescaled(model: &LpModel, (kc, kr, kj): (i32, i32, i32), row: usize, col: usize) -> LpModel {
    let (fc, fr, fj) = (10f64.powi(kc), 10f64.powi(kr), 10f64.powi(kj));
    let mut s = model.clone();
    for j in 0..s.num_cols() {
        for p in s.a.col_ptr[j]..s.a.col_ptr[j + 1] {
            if s.a.row_idx[p] == row {
                s.a.values[p] *= fr;
            }
            if j == col {
                s.a.values[p] *= fj;
            }
        }
    }
    if row < s.num_rows() {
        s.row_lower[row] *= fr;
        s.row_upper[row] *= fr;
    }
    if col < s.num_cols() {
        s.c[col] *= fj;
        s.col_lower[col] /= fj;
        s.col_upper[col] /= fj;
    }
    s.c.iter_mut().for_each(|c| *c *= fc);
    s.obj_constant *= fc;
    s
}

/// Whether `sol` says what `known` (the optimum in these units: times `fc`) requires; `strict`
/// (cpu, hybrid): it must; otherwise (gpu) it may also say it is not optimal.
fn judge(what: &str, sol: &glsolve::lp::Solution, known: Known, fc: f64, strict: bool) -> Result<(), String> {
    let said = format!("{what}: {} ({}) {:?}", sol.status, sol.detail, sol.verification.as_ref().map(|v| v.summary()));
    match known {
        Known::Optimum(p) => {
            let p = p * fc;
            match sol.status {
                Status::Optimal | Status::OptimalReducedAccuracy => {
                    let v = sol.verification.as_ref().ok_or(format!("{said}: no verification"))?;
                    let e = v.enclosure;
                    // The dual end is proven for the model as written; the primal end where the
                    // point is exactly feasible (otherwise it is the objective of a point within
                    // its backward error, charged at the multipliers). Slack: the rounding of the
                    // hand-computed value.
                    let slack = 1e-12 * p.abs().max(v.objective_size);
                    let (below, above) = (e.lower - slack <= p, p <= e.upper + slack);
                    if !below || (v.primal_backward_error == 0.0 && !above) {
                        return Err(format!("{said}: the optimum {p:e} is outside [{:e}, {:e}]", e.lower, e.upper));
                    }
                    // The status's promise: within its tolerance of the objective's size.
                    let promise = if sol.status == Status::Optimal { v.tolerance } else { v.tolerance.sqrt() };
                    if (sol.objective - p).abs() > promise * v.objective_size {
                        return Err(format!(
                            "{said}: objective {:e} more than {promise:e} of its size off {p:e}",
                            sol.objective
                        ));
                    }
                    if strict && sol.status != Status::Optimal {
                        return Err(format!("{said}: not optimal"));
                    }
                    Ok(())
                }
                Status::NumericalFailure | Status::IterationLimit if !strict => Ok(()),
                _ => Err(format!("{said}: expected the optimum {p:e}")),
            }
        }
        Known::Infeasible => match sol.status {
            Status::PrimalInfeasible | Status::PrimalInfeasibleReducedAccuracy => Ok(()),
            // A proven ray with the feasibility solve refuting every feasible point is right too.
            Status::DualInfeasible | Status::DualInfeasibleReducedAccuracy
                if sol.feasibility.as_ref().is_some_and(|f| f.outcome == glsolve::lp::Feasibility::Refuted) =>
            {
                Ok(())
            }
            Status::NumericalFailure | Status::IterationLimit | Status::DualInfeasible if !strict => Ok(()),
            _ => Err(format!("{said}: expected infeasible")),
        },
        Known::Unbounded => match sol.status {
            Status::Unbounded | Status::UnboundedReducedAccuracy => Ok(()),
            Status::NumericalFailure | Status::IterationLimit | Status::DualInfeasible if !strict => Ok(()),
            _ => Err(format!("{said}: expected unbounded")),
        },
    }
}

const UNITS: [(i32, i32, i32); 4] = [(0, 0, 0), (7, -6, 0), (-8, 0, 6), (3, 8, -7)];

fn run(kind: BackendKind) {
    let mut failures = Vec::new();
    for (name, model, known) in cases() {
        for units in UNITS {
            let scaled = rescaled(&model, units, 0, model.num_cols() - 1);
            let st: Settings = common::gl_settings(kind);
            let sol = common::solve_lp(&scaled, st);
            let what = format!("{name} [{}, units {units:?}]", kind.name());
            if let Err(e) = judge(&what, &sol, known, 10f64.powi(units.0), kind != BackendKind::Gpu) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{} wrong answers:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn modellers_lps_are_right_on_cpu() {
    run(BackendKind::Cpu);
}

#[test]
fn modellers_lps_are_right_on_hybrid() {
    run(BackendKind::Hybrid);
}

#[test]
fn modellers_lps_are_right_or_honestly_not_optimal_on_gpu() {
    run(BackendKind::Gpu);
}

/// The optimum of min cᵀx s.t. A·x ≤ b, 0 ≤ x ≤ u by enumerating the vertices: every choice of
/// n active constraints among the rows and the bounds, solved in f64 and kept where feasible.
fn vertex_optimum(a: &DMatrix<f64>, b: &[f64], u: &[f64], c: &[f64]) -> f64 {
    let (m, n) = (a.nrows(), a.ncols());
    // Constraint k: rows 0..m (aᵢ·x = bᵢ), then xⱼ = 0, then xⱼ = uⱼ.
    let total = m + 2 * n;
    let mut best = f64::INFINITY;
    let mut pick = vec![0usize; n];
    fn next(pick: &mut [usize], total: usize) -> bool {
        let n = pick.len();
        for k in (0..n).rev() {
            if pick[k] < total - (n - k) {
                pick[k] += 1;
                for l in k + 1..n {
                    pick[l] = pick[l - 1] + 1;
                }
                return true;
            }
        }
        false
    }
    for (k, p) in pick.iter_mut().enumerate() {
        *p = k;
    }
    loop {
        let mut mat = DMatrix::<f64>::zeros(n, n);
        let mut rhs = nalgebra::DVector::<f64>::zeros(n);
        for (r, &k) in pick.iter().enumerate() {
            if k < m {
                for j in 0..n {
                    mat[(r, j)] = a[(k, j)];
                }
                rhs[r] = b[k];
            } else if k < m + n {
                mat[(r, k - m)] = 1.0;
            } else {
                mat[(r, k - m - n)] = 1.0;
                rhs[r] = u[k - m - n];
            }
        }
        if let Some(x) = mat.lu().solve(&rhs) {
            let tol = 1e-9;
            let feasible = (0..n).all(|j| x[j] >= -tol && x[j] <= u[j] + tol)
                && (0..m).all(|i| (0..n).map(|j| a[(i, j)] * x[j]).sum::<f64>() <= b[i] + tol * (1.0 + b[i].abs()));
            if feasible {
                best = best.min((0..n).map(|j| c[j] * x[j]).sum());
            }
        }
        if !next(&mut pick, total) {
            break;
        }
    }
    best
}

#[test]
fn the_enclosure_holds_the_optimum_of_random_lps_found_by_vertex_enumeration() {
    let mut rng = Rng::new(20261201);
    let mut checked = 0;
    for case in 0..60 {
        let (m, n) = (2 + case % 3, 2 + case % 2);
        let a = DMatrix::from_fn(m, n, |_, _| f64::from(rng.f32()) * 10f64.powi((case % 4) as i32 - 2));
        // Feasible at x₀ inside the box; the box keeps it bounded.
        let x0: Vec<f64> = (0..n).map(|_| 0.5 + 0.4 * f64::from(rng.f32())).collect();
        let b: Vec<f64> =
            (0..m).map(|i| (0..n).map(|j| a[(i, j)] * x0[j]).sum::<f64>() + 0.3 * f64::from(rng.f32()).abs()).collect();
        let u: Vec<f64> = (0..n).map(|_| 1.0 + f64::from(rng.f32()).abs()).collect();
        let c: Vec<f64> = (0..n).map(|_| f64::from(rng.f32()) * 10f64.powi((case % 5) as i32 - 2)).collect();
        let model = LpModel::builder(SparseColMatrix::from_dense(&a))
            .minimize(c.clone())
            .rows_at_most(b.clone())
            .col_bounds(vec![0.0; n], u.clone())
            .build()
            .expect("a valid model");
        let p = vertex_optimum(&a, &b, &u, &c);
        assert!(p.is_finite(), "case {case}: x₀ is feasible, so a vertex is");
        let sol = common::solve_lp(&model, Settings::default());
        assert_eq!(sol.status, Status::Optimal, "case {case}: {}", sol.detail);
        let v = sol.verification.as_ref().expect("verified");
        // The enumeration's own rounding: 1e-9 of the objective's terms.
        let slack = 1e-9 * c.iter().zip(&u).map(|(c, u)| (c * u).abs()).sum::<f64>();
        assert!(
            v.enclosure.lower - slack <= p && p <= v.enclosure.upper + slack,
            "case {case}: the vertex optimum {p:e} is outside {}",
            v.summary()
        );
        checked += 1;
    }
    assert_eq!(checked, 60);
}
