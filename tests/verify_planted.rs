//! The check attacked with wrong answers, in every unit system: for random LPs and NETLIB
//! problems (modszk1 among them, whose objective is 6·10⁴ times smaller than the products it is
//! made of), the verified optimum is taken from the cpu backend and wrong points are planted
//! beside it —
//! * the objective moved by δ·S (S the objective's size at the optimum, the grade's denominator)
//!   along a feasible direction (towards a feasible point of the
//!   same model, so that every row and bound still holds),
//! * one row's bound moved by δ·Dᵢ so that the optimum violates it by that much,
//! * a nonzero row dual with its sign flipped —
//!
//! and, with the cost, one row and one column multiplied by 10^k (k from −12 to 12), the check
//! must accept the optimum, reject each planted point once δ exceeds the tolerance 10·ε, and
//! give every point the same verdict in every unit system.

mod common;
use common::Rng;
use glsolve::lp::verify::{verify_point, Accuracy, DualBound, Verification};
use glsolve::lp::{mps, LpModel, Settings, Status};
use nalgebra::DMatrix;

const EPS: f64 = 1e-8;
/// The tolerance the check grades at (VERIFY_FACTOR·ε), stated here.
const TOL: f64 = 1e-7;
const INF: f64 = f64::INFINITY;
/// The unit changes: (cost, row, column) exponents of ten.
const UNITS: [(i32, i32, i32); 7] =
    [(0, 0, 0), (12, 0, 0), (-12, 0, 0), (0, 12, 0), (0, -12, 0), (0, 0, 12), (6, -9, -12)];

fn settings() -> Settings {
    Settings::default().to_builder().tolerance(EPS).build().expect("valid")
}

fn netlib(name: &str) -> LpModel {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netlib-all");
    mps::read_file(&dir.join(format!("{name}.mps.gz"))).expect("a NETLIB problem of the repository")
}

/// 10 rows (equalities, ≤, ≥ and ranges) by 24 columns, dense, feasible at a built-in x₀ and
/// bounded (costs positive on the columns without an upper bound).
fn random_model(seed: u64) -> LpModel {
    let (m, n) = (10, 24);
    let mut rng = Rng::new(seed);
    let mut u = |lo: f64, hi: f64| lo + (hi - lo) * (f64::from(rng.f32()) + 1.0) / 2.0;
    let a = DMatrix::from_fn(m, n, |_, _| u(-1.0, 1.0));
    let x0: Vec<f64> = (0..n).map(|_| u(0.2, 1.0)).collect();
    let ax = &a * nalgebra::DVector::from_column_slice(&x0);
    let bounds: Vec<(f64, f64)> = (0..m)
        .map(|i| match i % 4 {
            0 => (ax[i], ax[i]),
            1 => (-INF, ax[i] + 0.5),
            2 => (ax[i] - 0.5, INF),
            _ => (ax[i] - 0.5, ax[i] + 0.5),
        })
        .collect();
    let upper: Vec<f64> = (0..n).map(|j| if j % 3 == 0 { x0[j] + 1.0 } else { INF }).collect();
    let c: Vec<f64> = (0..n).map(|j| if j % 3 == 0 { u(-1.0, 1.0) } else { u(0.1, 1.0) }).collect();
    LpModel::builder(a)
        .minimize(c)
        .row_bounds(bounds.iter().map(|b| b.0).collect::<Vec<_>>(), bounds.iter().map(|b| b.1).collect::<Vec<_>>())
        .col_bounds(vec![0.0; n], upper)
        .build()
        .expect("a valid model")
}

/// A model in other units: the cost times 10^kc, row `row` times 10^kr, column `col` times
/// 10^kj (its bounds divided); a point (x, y) of the original model maps to (x/…, y·…).
struct Units {
    fc: f64,
    fr: f64,
    fj: f64,
    row: usize,
    col: usize,
}

impl Units {
    fn apply(&self, model: &LpModel) -> LpModel {
        let mut s = model.clone();
        for j in 0..s.num_cols() {
            for p in s.a.col_ptr[j]..s.a.col_ptr[j + 1] {
                if s.a.row_idx[p] == self.row {
                    s.a.values[p] *= self.fr;
                }
                if j == self.col {
                    s.a.values[p] *= self.fj;
                }
            }
        }
        s.row_lower[self.row] *= self.fr;
        s.row_upper[self.row] *= self.fr;
        s.c[self.col] *= self.fj;
        s.col_lower[self.col] /= self.fj;
        s.col_upper[self.col] /= self.fj;
        s.c.iter_mut().for_each(|c| *c *= self.fc);
        s.obj_constant *= self.fc;
        s
    }

    fn point(&self, x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut xs = x.to_vec();
        xs[self.col] /= self.fj;
        let mut ys: Vec<f64> = y.iter().map(|v| v * self.fc).collect();
        ys[self.row] /= self.fr;
        (xs, ys)
    }
}

/// The verdicts of `points` on `model` in every unit system of [`UNITS`]: each must be the same
/// in all of them, and its worst measure the same to 1e-3 where it passes (the rounding of data
/// changed by powers of ten, read through sums that nearly cancel at an optimum) or 1e-2 of the
/// tolerance (an optimum's measures are rounding, a few 1e-10 here); to a factor of 2 where it
/// fails.
/// Whether the dual side of `v` needed the multipliers' correction (or had none).
fn corrected(v: &Verification) -> bool {
    matches!(v.dual_bound, DualBound::Repaired { .. } | DualBound::Unproven { .. })
}

fn verdicts(model: &LpModel, points: &[(&str, Vec<f64>, Vec<f64>)], row: usize, col: usize) -> Vec<Verification> {
    let mut first: Vec<Verification> = Vec::new();
    for (kc, kr, kj) in UNITS {
        let u = Units { fc: 10f64.powi(kc), fr: 10f64.powi(kr), fj: 10f64.powi(kj), row, col };
        let scaled = u.apply(model);
        for (k, (what, x, y)) in points.iter().enumerate() {
            let (xs, ys) = u.point(x, y);
            let v = verify_point(&scaled, &xs, &ys, EPS);
            match first.get(k) {
                None => first.push(v),
                // The multipliers' correction works in the model's units (powers of two, which
                // 10^k is not), so where either side needed it the grade may differ: each
                // enclosure must still hold what the first one proved of the optimum.
                Some(f) if corrected(&v) || corrected(f) => {
                    // In the first unit system's cost units (the first is 10^(0, 0, 0)).
                    let (lo, hi) = (v.enclosure.lower / u.fc, v.enclosure.upper / u.fc);
                    let slack = 1e-12 * (f.objective_size + v.objective_size / u.fc);
                    assert!(
                        lo <= f.enclosure.upper + slack && f.enclosure.lower <= hi + slack,
                        "{what}, units 10^({kc}, {kr}, {kj}): {} against {}",
                        v.summary(),
                        f.summary()
                    );
                }
                Some(f) => {
                    assert_eq!(
                        v.accuracy,
                        f.accuracy,
                        "{what}, units 10^({kc}, {kr}, {kj}): {} against {}",
                        v.summary(),
                        f.summary()
                    );
                    let (a, b) = (v.worst(), f.worst());
                    let agree = if v.accuracy == Accuracy::Tolerance { 1e-3 * a.max(b) } else { 0.5 * a.max(b) };
                    assert!(
                        a == b || (a - b).abs() <= agree + 1e-2 * TOL,
                        "{what}, units 10^({kc}, {kr}, {kj}): worst {a:e} against {b:e}"
                    );
                }
            }
        }
    }
    first
}

/// Σⱼ |aᵢⱼxⱼ| + |b|: the size of row i at x (x within its natural size, as at an optimum).
fn row_size(model: &LpModel, x: &[f64], i: usize, bound: f64) -> f64 {
    let mut s = bound.abs();
    for (j, &xj) in x.iter().enumerate() {
        for (r, v) in model.a.col(j) {
            if r == i {
                s += (v * xj).abs();
            }
        }
    }
    s
}

/// The attack on one model (see the module documentation).
fn attack(name: &str, model: &LpModel) {
    let solution = common::solve_lp(model, settings());
    assert_eq!(solution.status, Status::Optimal, "{name}: {}", solution.detail);
    let (x, y) = (solution.x.clone(), solution.row_duals.clone());
    // A feasible point of the same rows and bounds: the model without its cost, solved.
    let mut zero = model.clone();
    zero.c.iter_mut().for_each(|c| *c = 0.0);
    let feasible = common::solve_lp(&zero, settings());
    let p = solution.objective - model.obj_constant;
    let dir: Vec<f64> = feasible.x.iter().zip(&x).map(|(f, o)| f - o).collect();
    let rise: f64 = model.c.iter().zip(&dir).map(|(c, d)| c * d).sum();
    assert!(rise.abs() > 1e-6 * p.abs(), "{name}: the feasible point's objective differs from the optimum's");
    // The objective's size S at the optimum: the grade's denominator.
    let size = verify_point(model, &x, &y, EPS).objective_size;
    let moved = |delta: f64| -> Vec<f64> {
        let t = delta * size / rise.abs();
        x.iter().zip(&dir).map(|(o, d)| o + t * d).collect()
    };
    // Planted: a row's bound moved past the optimum by δ·Dᵢ.
    // The row with the most weight in the objective, |yᵢ|·(its size at x).
    let weight = |i: usize| {
        let b = if model.row_lower[i].is_finite() { model.row_lower[i] } else { model.row_upper[i] };
        y[i].abs() * row_size(model, &x, i, if b.is_finite() { b } else { 0.0 })
    };
    let active = (0..model.num_rows()).max_by(|&a, &b| weight(a).total_cmp(&weight(b))).expect("a row");
    let col = (0..model.num_cols()).max_by(|&a, &b| x[a].abs().total_cmp(&x[b].abs())).expect("a column");
    let shifted = |delta: f64| -> LpModel {
        let mut m = model.clone();
        let lo = m.row_lower[active];
        let ax: f64 = x
            .iter()
            .enumerate()
            .map(|(j, xj)| m.a.col(j).filter(|&(r, _)| r == active).map(|(_, v)| v * xj).sum::<f64>())
            .sum();
        // The violated bound will lie d from the activity: its size is |ax| to within d.
        let d = delta * row_size(&m, &x, active, ax);
        if lo.is_finite() {
            // Raise the lower bound above the activity (and the upper one with it, if it is an
            // equality or lies below).
            m.row_lower[active] = ax + d;
            m.row_upper[active] = m.row_upper[active].max(ax + d);
        } else {
            m.row_upper[active] = ax - d;
        }
        m
    };
    let mut flipped = y.clone();
    flipped[active] = -flipped[active];

    // The optimum passes; an objective 1.5·TOL off, a flipped dual, fail — in every unit system.
    let points = [
        ("optimum", x.clone(), y.clone()),
        ("objective moved", moved(1.5 * TOL), y.clone()),
        ("dual flipped", x.clone(), flipped),
    ];
    let v = verdicts(model, &points, active, col);
    assert_eq!(v[0].accuracy, Accuracy::Tolerance, "{name}: the optimum: {}", v[0].summary());
    assert_ne!(v[1].accuracy, Accuracy::Tolerance, "{name}: an objective 1.5·TOL off: {}", v[1].summary());
    assert_ne!(v[2].accuracy, Accuracy::Tolerance, "{name}: a flipped dual: {}", v[2].summary());
    // The enclosure's width measures the planted error: δ·S over the moved point's size (to
    // 20 % and the optimum's own width).
    let planted = 1.5 * TOL * size / v[1].objective_size;
    assert!(
        (v[1].width - planted).abs() <= 0.2 * planted + v[0].width,
        "{name}: width {:e} for a planted {planted:e} (the optimum's own {:e})",
        v[1].width,
        v[0].width
    );
    // Far below the tolerance the moved point still passes: the check is not stricter than it says.
    let near = verdicts(model, &[("objective moved by TOL/20", moved(TOL / 20.0), y.clone())], active, col);
    assert_eq!(near[0].accuracy, Accuracy::Tolerance, "{name}: TOL/20 off: {}", near[0].summary());
    // A row violated by 1.5·TOL of its size fails, in every unit system, with the primal
    // measure reading the violation.
    let shifted_model = shifted(1.5 * TOL);
    let v = verdicts(&shifted_model, &[("row violated", x.clone(), y.clone())], active, col);
    assert_ne!(v[0].accuracy, Accuracy::Tolerance, "{name}: a row 1.5·TOL off: {}", v[0].summary());
    assert!(
        (v[0].primal_backward_error - 1.5 * TOL).abs() <= 0.05 * 1.5 * TOL,
        "{name}: backward error {:e}",
        v[0].primal_backward_error
    );
}

#[test]
fn random_lps_reject_every_planted_error_in_every_unit() {
    for seed in 1..=6 {
        attack(&format!("random seed {seed}"), &random_model(seed));
    }
}

#[test]
fn netlib_problems_reject_every_planted_error_in_every_unit() {
    for name in ["afiro", "sc50b", "kb2", "blend", "modszk1", "israel"] {
        attack(name, &netlib(name));
    }
}

/// Optima at x = 0 with objective 0, where every term of the point vanishes: each solves
/// `optimal` with the enclosure [0, 0] in every unit system (the answer's columns put exactly at
/// their bounds), and a point moved off zero is refused in all of them — there is no size but
/// its own for an error to be small against.
#[test]
fn an_optimum_at_zero_is_proven_exactly_and_a_point_off_it_refused_in_every_unit() {
    let boxes = LpModel::builder(DMatrix::<f64>::identity(2, 2))
        .minimize(vec![1.0, 2.0])
        .rows_at_most(vec![4.0, 1.0])
        .build()
        .expect("a valid model");
    let simplex = LpModel::builder(DMatrix::from_row_slice(1, 2, &[1.0, 1.0]))
        .minimize(vec![1.0, 1.0])
        .rows_at_most(vec![1.0])
        .col_bounds(vec![0.0, 0.0], vec![1.0, 1.0])
        .build()
        .expect("a valid model");
    for (name, model) in [("boxes", boxes), ("simplex", simplex)] {
        for (kc, kr, kj) in UNITS {
            let u = Units { fc: 10f64.powi(kc), fr: 10f64.powi(kr), fj: 10f64.powi(kj), row: 0, col: 0 };
            let scaled = u.apply(&model);
            let sol = common::solve_lp(&scaled, settings());
            assert_eq!(sol.status, Status::Optimal, "{name} 10^({kc}, {kr}, {kj}): {}", sol.detail);
            let v = sol.verification.as_ref().expect("verified");
            assert_eq!(
                (v.enclosure.lower, v.enclosure.upper),
                (0.0, 0.0),
                "{name} 10^({kc}, {kr}, {kj}): {}",
                v.summary()
            );
        }
        let y = vec![0.0; model.num_rows()];
        let points = [("at zero", vec![0.0, 0.0], y.clone()), ("off zero", vec![1e-9, 0.0], y.clone())];
        let v = verdicts(&model, &points, 0, 0);
        assert_eq!(v[0].accuracy, Accuracy::Tolerance, "{name} at zero: {}", v[0].summary());
        assert_eq!(v[1].accuracy, Accuracy::Failed, "{name} off zero: {}", v[1].summary());
    }
}
