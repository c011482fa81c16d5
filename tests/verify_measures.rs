//! The proof's measures read one by one: a point that is exact but for one change, tampered
//! with to 1.01× the tolerance, fails; at 0.99× it passes. Every number is worked out by hand
//! below from the definitions in `lp::verify`'s module documentation, on a model of one-row
//! blocks; and the same points, in units changed by powers of ten, measure the same.

use glsolve::lp::verify::{verify_point, Accuracy, DualBound, Verification, CANCELLATION, VERIFY_FACTOR};
use glsolve::lp::{LpModel, SparseColMatrix};

const INF: f64 = f64::INFINITY;
/// ε of the solve; the point passes at T = VERIFY_FACTOR·ε.
const EPS: f64 = 1e-8;
const T: f64 = VERIFY_FACTOR * EPS;

/// Four rows, each a block of its own (every coefficient 1), and a column in no row:
/// * r0: x0 = 2, c0 = 0 (its dual is 0);
/// * r1: x1 ≥ 1, c1 = 1 (an inequality with dual 1);
/// * r2: x2 = 1, c2 = 1 (an equality with dual 1);
/// * r3: x3 ≥ 0 with x3 free, c3 = 0;
/// * x4 ∈ [0, 1], c4 = 0, in no row. Other columns x ≥ 0.
///
/// Optimum: x = (2, 1, 1, 1, 1), y = (0, 1, 1, 0), r = c − Aᵀy = 0. The dual side is
/// y1·1 + y2·1 = 2 exactly (its terms 1 and 1), the primal side cᵀx = 2 exactly (its terms 1
/// and 1): S = max(2, 2, 2) + CANCELLATION·2.
fn blocks() -> LpModel {
    let t = [(0, 0, 1.0), (1, 1, 1.0), (2, 2, 1.0), (3, 3, 1.0)];
    let a = SparseColMatrix::from_triplets(4, 5, &t).expect("valid triplets");
    LpModel::builder(a)
        .minimize([0.0, 1.0, 1.0, 0.0, 0.0])
        .row_bounds([2.0, 1.0, 1.0, 0.0], [2.0, INF, 1.0, INF])
        .col_bounds([0.0, 0.0, 0.0, -INF, 0.0], [INF, INF, INF, INF, 1.0])
        .build()
        .expect("a valid model")
}

const X: [f64; 5] = [2.0, 1.0, 1.0, 1.0, 1.0];
const Y: [f64; 4] = [0.0, 1.0, 1.0, 0.0];
const S: f64 = 2.0 + CANCELLATION * 2.0;

/// `model` with every row multiplied by `row`, every column by `col` and the cost by `cost`.
fn rescale(model: &LpModel, row: f64, col: f64, cost: f64) -> LpModel {
    let mut m = model.clone();
    m.a.values.iter_mut().for_each(|v| *v *= row * col);
    for v in m.row_lower.iter_mut().chain(m.row_upper.iter_mut()) {
        *v *= row;
    }
    for v in m.col_lower.iter_mut().chain(m.col_upper.iter_mut()) {
        *v /= col;
    }
    m.c.iter_mut().for_each(|c| *c *= col * cost);
    m
}

/// The point `tamper(f)` at f = 1.01 and 0.99 has backward error `beta(f)` and relative width
/// `width(f)` (to 1e-6, the rounding of units changed by powers of ten), fails at 1.01 and
/// passes at 0.99 — also with the rows, the columns and the cost in other units.
fn check(tamper: impl Fn(f64) -> ([f64; 5], [f64; 4]), beta: impl Fn(f64) -> f64, width: impl Fn(f64) -> f64) {
    let model = blocks();
    let exact = verify_point(&model, &X, &Y, EPS);
    // Exact but for the rounding allowed to the two sides' sums (a few units of 1e-16).
    assert!(exact.primal_backward_error <= 1e-15, "the optimum: {}", exact.summary());
    assert!(exact.width <= 1e-14 && exact.enclosure.contains(2.0), "the optimum: {}", exact.summary());
    for (f, pass) in [(1.01, false), (0.99, true)] {
        let (x, y) = tamper(f);
        for (k, (row, col, cost)) in [(1.0, 1.0, 1.0), (1e7, 1e-5, 1e-9), (1e-11, 1e12, 1e6)].into_iter().enumerate() {
            let scaled = rescale(&model, row, col, cost);
            let xs: Vec<f64> = x.iter().map(|v| v / col).collect();
            let ys: Vec<f64> = y.iter().map(|v| v * cost / row).collect();
            let v = verify_point(&scaled, &xs, &ys, EPS);
            let close = |g: f64, w: f64| (g - w).abs() <= 1e-6 * w.abs().max(T);
            assert!(
                close(v.primal_backward_error, beta(f)),
                "units {k}, f = {f}: β {:e}, not {:e}: {}",
                v.primal_backward_error,
                beta(f),
                v.summary()
            );
            assert!(
                close(v.width, width(f)),
                "units {k}, f = {f}: width {:e}, not {:e}: {}",
                v.width,
                width(f),
                v.summary()
            );
            let want = if pass { Accuracy::Tolerance } else { Accuracy::Reduced };
            assert_eq!(v.accuracy, want, "units {k}, {f}·T: {}", v.summary());
            // The enclosure holds the optimum of the model as written (2, in its cost's units).
            assert!(
                v.enclosure.lower <= 2.0 * cost && 2.0 * cost <= v.enclosure.upper * (1.0 + 1e-15),
                "units {k}: {}",
                v.summary()
            );
        }
    }
}

#[test]
fn a_row_violation_is_over_the_rows_own_size() {
    // x0 = 2 + d violates r0 by d, against |2| + |2 + d|: β = d / (4 + d) = fT for
    // d = 4fT / (1 − fT). y0 = 0 prices it at nothing, c0 = 0: the enclosure stays [2, 2].
    check(
        |f| {
            let mut x = X;
            x[0] += 4.0 * f * T / (1.0 - f * T);
            (x, Y)
        },
        |f| f * T,
        |_| 0.0,
    );
}

#[test]
fn a_bound_violation_is_over_the_columns_own_bound() {
    // x4 = 1 + d is d above its upper bound 1: β = d / (1 + 1 + d) = fT for d = 2fT / (1 − fT).
    check(
        |f| {
            let mut x = X;
            x[4] += 2.0 * f * T / (1.0 - f * T);
            (x, Y)
        },
        |f| f * T,
        |_| 0.0,
    );
}

#[test]
fn an_objective_off_the_optimum_widens_the_enclosure() {
    // x1 = 1 + d stays feasible and costs d more: the enclosure is [2, 2 + d], width d / S.
    check(
        |f| {
            let mut x = X;
            x[1] += f * T * S;
            (x, Y)
        },
        |_| 0.0,
        |f| f * T,
    );
}

#[test]
fn an_equality_off_its_bound_is_charged_at_its_multiplier() {
    // x2 = 1 + d violates r2 by d (β = d / (2 + d)) and costs d more; the violation is charged
    // at |y2| = 1: the primal end is 2 + 2d, the width 2d / S — the larger measure.
    let d = |f: f64| f * T * S / 2.0;
    check(
        |f| {
            let mut x = X;
            x[2] += d(f);
            (x, Y)
        },
        |f| d(f) / (2.0 + d(f)),
        |f| f * T,
    );
}

#[test]
fn a_smaller_multiplier_proves_between_its_own_bound_and_the_optimum() {
    // y1 = 1 − δ: r1 = δ ≥ 0 on x1 ≥ 0, row term 1 − δ: the bound is 2 − δ from the model's own
    // bounds, and 2 where the rows' implied bound x1 ≥ 1 is used (δ·1 back). Either is proven.
    for delta in [1e-9, 1e-3] {
        let mut y = Y;
        y[1] -= delta;
        let v = verify(&X, &y);
        assert!(
            v.enclosure.lower >= 2.0 - delta - 1e-14 && v.enclosure.contains(2.0),
            "δ = {delta:e}: {}",
            v.summary()
        );
    }
}

fn verify(x: &[f64], y: &[f64]) -> Verification {
    verify_point(&blocks(), x, y, EPS)
}

#[test]
fn a_wrong_signed_multiplier_is_set_to_zero_and_a_wrong_signed_reduced_cost_repaired() {
    // y3 = −1 is wrong for r3 (no upper bound): as 0 it proves the same bound.
    let mut y = Y;
    y[3] = -1.0;
    let v = verify(&X, &y);
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
    assert!(v.enclosure.lower > 2.0 - 1e-14, "{}", v.summary());
    // y1 = 1 + δ makes r1 = −δ on x1 ≥ 0 with no upper bound: no bound as given; the repair
    // brings y1 back under 1 and proves 2 to its margin.
    let mut y = Y;
    y[1] += 1e-3;
    let v = verify(&X, &y);
    assert!(matches!(v.dual_bound, DualBound::Repaired { .. }), "{}", v.summary());
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
    assert!(v.enclosure.lower <= 2.0 && v.enclosure.lower > 2.0 - 1e-9, "{}", v.summary());
}

#[test]
fn a_free_column_with_a_nonzero_reduced_cost_is_made_exactly_zero() {
    // y3 = 1e-3 (allowed on r3) makes r3 = −1e-3 on the free x3: the correction moves y3 back
    // (to an exact zero, by its least squares or by the verified solve), and the bound is 2.
    let mut y = Y;
    y[3] = 1e-3;
    let v = verify(&X, &y);
    assert!(matches!(v.dual_bound, DualBound::Repaired { .. }), "{}", v.summary());
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
    assert!(v.enclosure.lower > 2.0 - 1e-14, "{}", v.summary());
    // 1/3 of a unit cannot be undone exactly in floats: the verified solve takes over.
    y[3] = 1.0 / 3.0;
    let v = verify(&X, &y);
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{}", v.summary());
}

#[test]
fn an_optimum_of_zero_passes_exactly_and_a_point_off_it_fails() {
    let m = LpModel::builder(SparseColMatrix::from_triplets(2, 2, &[(0, 0, 1.0), (1, 1, 1.0)]).expect("valid"))
        .minimize([1.0, 2.0])
        .rows_at_most([4.0, 1.0])
        .build()
        .expect("a valid model");
    let v = verify_point(&m, &[0.0, 0.0], &[0.0, 0.0], EPS);
    assert_eq!((v.accuracy, v.enclosure.lower, v.enclosure.upper), (Accuracy::Tolerance, 0.0, 0.0), "{}", v.summary());
    // Off zero there is nothing the width could be relative to but the point's own terms.
    let v = verify_point(&m, &[1e-6, 0.0], &[0.0, 0.0], EPS);
    assert_eq!(v.accuracy, Accuracy::Failed, "{}", v.summary());
}

#[test]
fn a_nan_or_a_point_of_the_wrong_size_never_passes() {
    let mut x = X;
    x[1] = f64::NAN;
    assert_eq!(verify(&x, &Y).accuracy, Accuracy::Failed);
    let mut y = Y;
    y[2] = f64::NAN;
    assert_eq!(verify(&X, &y).accuracy, Accuracy::Failed);
    let v = verify(&X[..4], &Y);
    assert!(v.accuracy == Accuracy::Failed && v.width.is_nan());
}
