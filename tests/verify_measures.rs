//! Each measure of the independent check is read: a point that is exact but for one change,
//! tampered with to 1.01× the tolerance, fails; at 0.99× it passes. Every measure of every
//! tampered point is worked out by hand below, from the definitions in `lp::verify`'s module
//! documentation, on a model of one-column blocks; and the same points, in units changed by
//! powers of ten, measure the same.

use glsolve::lp::verify::{verify_point, Accuracy, Verification, GAP_FLOOR, SIZE_FLOOR, VERIFY_FACTOR};
use glsolve::lp::{LpModel, SparseColMatrix};

const INF: f64 = f64::INFINITY;
/// ε of the solve the check grades; the point passes at T = VERIFY_FACTOR·ε.
const EPS: f64 = 1e-8;
const T: f64 = VERIFY_FACTOR * EPS;

/// Four rows, each a block of its own (every coefficient 1), and a column in no row:
/// * r0: x0 = 2, c0 = 0 (the primal block: x0 moves no objective; its dual is 0);
/// * r1: x1 ≥ 1, c1 = 1 (an inequality with dual 1);
/// * r2: x2 = 1, c2 = 1 (an equality with dual 1);
/// * r3: x3 ≥ 0 with x3 free, c3 = 0 (the dual block: a negative y3 is wrong for the row, and
///   z3 = −y3 wrong for the free column);
/// * x4 ∈ [0, 1], c4 = 0, in no row (the bound block). Other columns x ≥ 0.
///
/// Optimum: x = (2, 1, 1, 1, 1), y = (0, 1, 1, 0), z = c − Aᵀy = 0; objective 2 = the dual
/// objective y1·1 + y2·1.
///
/// Sizes at the optimum (the natural sizes, X̂ = (2, 1, 1, none, 1) and Ŷ = (none, 1, 1,
/// none), cap nothing): D = (2 + 2, 1 + 1, 1 + 1, 0 + 1) = (4, 2, 2, 1); F = Σ ỹᵢ·|selected row
/// bound| + Σ (|cⱼ| + Σᵢ|aᵢⱼ|ỹᵢ)·(x̃ⱼ + |selected bound|) = 2 + (2 + 2) = 6; G = max(|p|, |d|) +
/// GAP_FLOOR·F = 2 + 6e-6.
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

fn measures(v: &Verification) -> [f64; 5] {
    [v.primal_residual, v.bound_violation, v.dual_residual, v.complementarity, v.gap]
}

/// The point `tamper(f)` at f = 1.01 and 0.99 has the measures `expected(f)` (primal, bounds,
/// dual, complementarity, gap) to 1e-6 relative (the rounding of units changed by powers of
/// ten), the largest of them f·T or just above, and it fails at 1.01 and
/// passes at 0.99. The same holds with every row, every column and the cost in other units.
fn check(tamper: impl Fn(f64) -> ([f64; 5], [f64; 4]), expected: impl Fn(f64) -> [f64; 5]) {
    assert_eq!((GAP_FLOOR, SIZE_FLOOR), (1e-6, 1e-6), "the hand-worked sizes assume these floors");
    let model = blocks();
    let exact = verify_point(&model, &X, &Y, EPS);
    assert_eq!(exact.worst(), 0.0, "the optimum measures 0: {}", exact.summary());
    for (f, pass) in [(1.01, false), (0.99, true)] {
        let (x, y) = tamper(f);
        for (k, (row, col, cost)) in [(1.0, 1.0, 1.0), (1e7, 1e-5, 1e-9), (1e-11, 1e12, 1e6)].into_iter().enumerate() {
            // Row i times `row`, column j times `col` (x̄ⱼ = xⱼ/col), the cost times `cost`
            // (ȳ = cost·y/row): the same point in other units.
            let scaled = rescale(&model, row, col, cost);
            let xs: Vec<f64> = x.iter().map(|v| v / col).collect();
            let ys: Vec<f64> = y.iter().map(|v| v * cost / row).collect();
            let v = verify_point(&scaled, &xs, &ys, EPS);
            let (got, want) = (measures(&v), expected(f));
            for (m, (g, w)) in got.iter().zip(want).enumerate() {
                assert!(
                    (g - w).abs() <= 1e-6 * w.abs().max(T),
                    "units {k}, f = {f}: measure {m} is {g:e}, not {w:e}: {}",
                    v.summary()
                );
            }
            let worst = want.iter().fold(0.0f64, |m, &w| m.max(w));
            assert!((v.worst() - worst).abs() <= 1e-6 * T, "units {k}, f = {f}: {}", v.summary());
            let want = if pass { Accuracy::Tolerance } else { Accuracy::Reduced };
            assert_eq!(v.accuracy, want, "units {k}, {f}·T: {}", v.summary());
        }
    }
}

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

#[test]
fn the_primal_residual_is_a_row_violation_over_the_rows_size() {
    // x0 = 2 + d violates r0 by d; x̃0 is capped at X̂0 = 2, so D0 = 2 + 2 = 4: primal d/4.
    // c0 = 0 and y0 = 0: nothing else moves.
    check(
        |f| {
            let mut x = X;
            x[0] += 4.0 * f * T;
            (x, Y)
        },
        |f| [f * T, 0.0, 0.0, 0.0, 0.0],
    );
}

#[test]
fn a_bound_violation_of_a_column_in_no_row_is_over_its_own_size() {
    // x4 = 1 + d is d above its upper bound, in no row and without cost: d / (|x4| + 1 + d)
    // = d / (2 + 2d) = f·T for d = 2fT / (1 − 2fT).
    check(
        |f| {
            let mut x = X;
            x[4] += 2.0 * f * T / (1.0 - 2.0 * f * T);
            (x, Y)
        },
        |f| [0.0, f * T, 0.0, 0.0, 0.0],
    );
}

#[test]
fn a_wrong_signed_dual_is_over_its_columns_size_with_the_floor() {
    // y3 = −δ is wrong for r3 (no upper bound) and makes z3 = δ wrong for the free x3. Both are
    // δ over E3 = |c3| + ỹ3 with ỹ3 held above SIZE_FLOOR·F/D3 = 1e-6·(6 + δ) (F gains x3's
    // (|c3| + ỹ3)·x̃3 = δ): the block has no cost of its own, so the floor is its size.
    // Wrong parts enter neither the dual objective nor complementarity.
    let delta = |f: f64| 6e-6 * f * T / (1.0 - 1e-6 * f * T);
    check(
        |f| {
            let mut y = Y;
            y[3] = -delta(f);
            (X, y)
        },
        |f| [0.0, 0.0, f * T, 0.0, 0.0],
    );
}

#[test]
fn complementarity_and_the_gap_are_over_the_objective_scale() {
    // x1 = 1 + d leaves r1's bound by d under its dual 1: complementarity d, objective 2 + d
    // against the dual objective 2. G = max(2 + d, 2) + 1e-6·6 (x̃1 is capped at X̂1 = 1, so F
    // stays 6): both are d / (2 + d + 6e-6) = f·T for d = fT·(2 + 6e-6) / (1 − fT).
    let d = |f: f64| f * T * (2.0 + 6e-6) / (1.0 - f * T);
    check(
        |f| {
            let mut x = X;
            x[1] += d(f);
            (x, Y)
        },
        |f| [0.0, 0.0, 0.0, f * T, f * T],
    );
}

#[test]
fn an_equality_moved_off_its_bound_shows_in_the_rows_and_the_gap_only() {
    // x2 = 1 + d violates the equality r2 by d (D2 = 1 + x̃2 = 2, x̃2 capped at 1): primal d/2.
    // The objective is 2 + d: gap d / (2 + d + 6e-6). An equality has no complementarity. The
    // gap is the larger: f·T for d = fT·(2 + 6e-6) / (1 − fT).
    let d = |f: f64| f * T * (2.0 + 6e-6) / (1.0 - f * T);
    check(
        |f| {
            let mut x = X;
            x[2] += d(f);
            (x, Y)
        },
        |f| [d(f) / 2.0, 0.0, 0.0, 0.0, f * T],
    );
}
