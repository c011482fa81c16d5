//! Each measure of the independent check is read: a point that is exact but for one measure,
//! tampered with to 1.01× the tolerance, fails; at 0.99× it passes. The expected values are
//! worked out by hand below, on a model whose units are the identity (every row's and
//! column's largest entry 1, the largest cost 1), so that the measures are the plain formulas
//! of `lp::verify` with R = C = γ = 1.

use glsolve::lp::verify::{verify_point, Accuracy, Verification, VERIFY_FACTOR};
use glsolve::lp::{LpModel, SparseColMatrix, Units};

const INF: f64 = f64::INFINITY;
/// ε of the solve the check grades; the point passes at T = VERIFY_FACTOR·ε.
const EPS: f64 = 1e-8;
const T: f64 = VERIFY_FACTOR * EPS;

/// Five rows, each a block of its own (every coefficient 1):
/// * r0: x0 = 1, c0 = 0 (the primal block: x0 moves no objective);
/// * r1: x1 ≥ −1e-6, c1 = 0 (the dual block: y1 < 0 is wrong-signed, and x1 = 0 keeps
///   z1·x1 = 0; its bound balances r4's, so that the geometric mean of the bounds, which sets
///   the units' gauge, is 1);
/// * r2: x2 ≥ 1, c2 = 1 (an inequality with dual 1);
/// * r3: x3 = 1, c3 = 1 (an equality with dual 1);
/// * r4: x4 ≤ 1e6, c4 = 0 (a large bound: B_row = 1 + 1e6, so that a violation of r3 by 1e-7
///   is 1e-13 in the primal measure);
///
/// and x5 ∈ [0, 1], c5 = 0, in no row (the bound block). All columns x ≥ 0.
///
/// Optimum: x = (1, 0, 1, 1, 0, 1), y = (0, 0, 1, 1, 0), z = c − Aᵀy = 0; objective 2 = the
/// dual objective y2·1 + y3·1. Denominators: B_row = 1 + 1e6, B_col = 1 + 1 (x5's upper
/// bound), B_c = 1 + 1, and 1 + |objective| = 3 for complementarity and the gap.
fn blocks() -> LpModel {
    let t = [(0, 0, 1.0), (1, 1, 1.0), (2, 2, 1.0), (3, 3, 1.0), (4, 4, 1.0)];
    let a = SparseColMatrix::from_triplets(5, 6, &t).expect("valid triplets");
    LpModel::builder(a)
        .minimize([0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
        .row_bounds([1.0, -1e-6, 1.0, 1.0, -INF], [1.0, INF, INF, 1.0, 1e6])
        .col_bounds([0.0; 6], [INF, INF, INF, INF, INF, 1.0])
        .build()
        .expect("a valid model")
}

const X: [f64; 6] = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
const Y: [f64; 5] = [0.0, 0.0, 1.0, 1.0, 0.0];
const B_ROW: f64 = 1.0 + 1e6;
const B_COL: f64 = 2.0;
const B_C: f64 = 2.0;

fn measures(v: &Verification) -> [f64; 5] {
    [v.primal_residual, v.bound_violation, v.dual_residual, v.complementarity, v.gap]
}

/// Checks a point built by `tamper(f)` at f = 1.01 and 0.99: the measure at `which` (primal,
/// bounds, dual, complementarity, gap) equals f·T to rounding, every other one is below T/1000,
/// and the point fails at 1.01 and passes at 0.99.
fn only(which: usize, tamper: impl Fn(f64) -> ([f64; 6], [f64; 5])) {
    let model = blocks();
    let units = Units::of(&model);
    assert_eq!(units, Units::identity(&model), "the hand-worked values assume the identity units");
    let exact = verify_point(&model, &X, &Y, EPS);
    assert_eq!(exact.worst(), 0.0, "the optimum measures 0: {}", exact.summary());
    for (f, pass) in [(1.01, false), (0.99, true)] {
        let (x, y) = tamper(f);
        let v = verify_point(&model, &x, &y, EPS);
        let got = measures(&v);
        assert!((got[which] - f * T).abs() <= 1e-9 * T, "measure {which} at {f}·T: {}", v.summary());
        for (k, m) in got.iter().enumerate().filter(|(k, _)| *k != which) {
            assert!(*m <= 1e-3 * T, "measure {k} should stay untouched: {}", v.summary());
        }
        assert_eq!(v.tolerance, T);
        let want = if pass { Accuracy::Tolerance } else { Accuracy::Reduced };
        assert_eq!(v.accuracy, want, "{f}·T: {}", v.summary());
    }
}

#[test]
fn the_primal_residual_alone_fails_a_point() {
    // x0 = 1 + d violates r0 by d: primal = d / B_row. c0 = 0 and y0 = 0: nothing else moves.
    only(0, |f| {
        let mut x = X;
        x[0] += f * T * B_ROW;
        (x, Y)
    });
}

#[test]
fn the_bound_violation_alone_fails_a_point() {
    // x5 = 1 + d is d above its upper bound: bounds = d / B_col; x5 is in no row, c5 = z5 = 0.
    only(1, |f| {
        let mut x = X;
        x[5] += f * T * B_COL;
        (x, Y)
    });
}

#[test]
fn the_dual_residual_alone_fails_a_point() {
    // y1 = −d on r1 (no upper bound): wrong-signed by d, dual = d / B_c. z1 = 0 − y1 = d ≥ 0
    // selects x1's lower bound 0, where x1 is: no complementarity, no dual objective term.
    only(2, |f| {
        let mut y = Y;
        y[1] = -f * T * B_C;
        (X, y)
    });
}

#[test]
fn complementarity_alone_fails_a_point() {
    // x2 = 1 + d leaves r2 by d under its dual 1: complementarity d / 3. x3 = 1 − d keeps the
    // objective at 2, so the gap stays 0; r3 (an equality, no complementarity) is violated by d,
    // which the primal measure divides by B_row = 1 + 1e6.
    only(3, |f| {
        let d = f * T * 3.0;
        let mut x = X;
        x[2] += d;
        x[3] -= d;
        (x, Y)
    });
}

#[test]
fn the_gap_alone_fails_a_point() {
    // x3 = 1 + d: the objective is 2 + d, the dual objective 2: gap d / (3 + d) = f·T for
    // d = 3fT / (1 − fT). r3 is violated by d (primal d / B_row), an equality: no complementarity.
    only(4, |f| {
        let g = f * T;
        let mut x = X;
        x[3] += 3.0 * g / (1.0 - g);
        (x, Y)
    });
}
