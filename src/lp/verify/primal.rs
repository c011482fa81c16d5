//! The primal side of a proof: x's componentwise backward error, each row (and each column's
//! bound) against its own data only, and its objective enclosed.

use super::exact::sign_of_difference;
use super::products::row_products;
use std::cmp::Ordering;
use super::rounding::{add_down, add_up, div_up, magnitude_below, may_underflow, sum_error_counted};
use crate::lp::model::LpModel;

/// Where the backward error is attained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum At {
    Row(usize),
    Column(usize),
}

/// The primal side of a point.
#[derive(Clone, Debug)]
pub(super) struct PrimalSide {
    /// β, rounded up (∞ for a non-finite point).
    pub backward_error: f64,
    pub worst: Option<At>,
    /// The exact cᵀx + c₀ (model's sense) lies in [lo, hi].
    pub objective: (f64, f64),
    /// The computed cᵀx + c₀.
    pub value: f64,
    /// Σⱼ |cⱼxⱼ| + |c₀|.
    pub size: f64,
    /// Each row's backward error.
    pub rows: Vec<f64>,
    /// Each row's violation (the distance of its exact activity to its bounds), rounded up.
    pub violation: Vec<f64>,
}

/// The relative distance `gap` over the row's or bound's own size `size`, rounded up; 0 when
/// nothing is violated.
fn relative(gap: f64, size: f64) -> f64 {
    if gap <= 0.0 {
        0.0
    } else if size > 0.0 {
        div_up(gap, size)
    } else {
        f64::INFINITY
    }
}

/// Rows of at most this many entries whose activity the rounding cannot place on one side of
/// a bound are settled exactly ([`super::exact`]).
const EXACT_TERMS: usize = 1 << 14;

/// Whether the computed activity `ax` with error bound `e` lies within that bound of `bound`:
/// the violation found may be the rounding's alone.
fn ambiguous(ax: f64, e: f64, bound: f64) -> bool {
    (ax - bound).abs() <= 2.0 * e
}

/// The primal side of `x` on a validated model whose rows have `row_nnz` entries.
pub(super) fn primal_side(model: &LpModel, x: &[f64], row_nnz: &[usize]) -> PrimalSide {
    let (m, n) = (model.num_rows(), model.num_cols());
    let mut worst = (0.0f64, None);
    let mut note = |beta: f64, at: At| {
        // NaN counts as the worst.
        if beta.is_nan() || beta > worst.0 || (beta == f64::INFINITY && worst.1.is_none()) {
            worst = (if beta.is_nan() { f64::INFINITY } else { beta }, Some(at));
        }
    };
    for (j, &v) in x.iter().enumerate().take(n) {
        let (lo, hi) = (model.col_lower[j], model.col_upper[j]);
        if v.is_nan() {
            note(f64::INFINITY, At::Column(j));
        } else if v < lo {
            note(relative(add_up(lo, -v), add_down(lo.abs(), v.abs())), At::Column(j));
        } else if v > hi {
            note(relative(add_up(v, -hi), add_down(hi.abs(), v.abs())), At::Column(j));
        }
    }
    let (sums, parts) = row_products(model, x);
    let (ax, ax_size) = (&sums.value, &sums.magnitude);
    let mut rows = vec![0.0; m];
    let mut violation = vec![0.0; m];
    // Rows whose violation is within their rounding: (row, bound, gap, terms, below the bound).
    let mut unsure: Vec<(usize, f64, f64, usize, bool)> = Vec::new();
    for i in 0..m {
        let (rl, ru) = (model.row_lower[i], model.row_upper[i]);
        let terms = row_nnz[i] + parts + 1;
        let e = sums.error(i, terms);
        let (act_lo, act_hi) = (add_down(ax[i], -e), add_up(ax[i], e));
        // The distance of the exact activity to [rl, ru], rounded up, and the bound it is to.
        let below = if rl.is_finite() { add_up(rl, -act_lo) } else { f64::NEG_INFINITY };
        let above = if ru.is_finite() { add_up(act_hi, -ru) } else { f64::NEG_INFINITY };
        let (gap, bound, under) = if below >= above { (below, rl, true) } else { (above, ru, false) };
        if ax[i].is_nan() || e.is_nan() {
            rows[i] = f64::INFINITY;
            violation[i] = f64::INFINITY;
            note(f64::INFINITY, At::Row(i));
            continue;
        }
        // Only where the rounding's own allowance would decide the grade (an exact zero row
        // whose terms are all tiny): elsewhere β of the rounding's size changes nothing.
        if gap > 0.0 && ambiguous(ax[i], e, bound) && row_nnz[i] <= EXACT_TERMS && e >= 1e-3 * bound.abs() {
            // The rounding cannot tell: the exact sign can (an equality met exactly, say).
            unsure.push((i, bound, gap, terms, under));
            continue;
        }
        if gap > 0.0 {
            violation[i] = gap;
            let size = add_down(bound.abs(), magnitude_below(terms, ax_size[i]));
            rows[i] = relative(gap, size);
            note(rows[i], At::Row(i));
        }
    }
    if !unsure.is_empty() {
        let mut slot = vec![usize::MAX; m];
        for (k, &(i, ..)) in unsure.iter().enumerate() {
            slot[i] = k;
        }
        let mut entries: Vec<Vec<(f64, f64)>> = vec![Vec::new(); unsure.len()];
        for (j, &xj) in x.iter().enumerate() {
            for (i, a) in model.a.col(j).filter(|&(i, _)| slot[i] != usize::MAX) {
                entries[slot[i]].push((a, xj));
            }
        }
        for (&(i, bound, gap, terms, under), row) in unsure.iter().zip(entries) {
            // bound − Σ aⱼxⱼ, exactly: ≤ 0 meets a lower bound, ≥ 0 an upper one, 0 both.
            let sign = sign_of_difference(bound, row.into_iter());
            let met = match sign {
                Some(Ordering::Equal) => true,
                Some(Ordering::Less) => under && model.row_lower[i] != model.row_upper[i],
                Some(Ordering::Greater) => !under && model.row_lower[i] != model.row_upper[i],
                None => false,
            };
            if !met {
                violation[i] = gap;
                let size = add_down(bound.abs(), magnitude_below(terms, ax_size[i]));
                rows[i] = relative(gap, size);
                note(rows[i], At::Row(i));
            }
        }
    }
    let (mut value, mut size, mut under) = (model.obj_constant, model.obj_constant.abs(), 0);
    for (&c, &xj) in model.c.iter().zip(x).take(n) {
        let t = c * xj;
        value += t;
        size += t.abs();
        under += may_underflow(c, xj, t) as usize;
    }
    let e = sum_error_counted(n + 2, size, under);
    let objective = if value.is_nan() || e.is_nan() {
        (f64::NAN, f64::NAN)
    } else {
        (add_down(value, -e), add_up(value, e))
    };
    PrimalSide { backward_error: worst.0, worst: worst.1, objective, value, size, rows, violation }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    #[test]
    fn each_row_is_judged_against_its_own_data_only() {
        // x + u = 1, x + u = 1.5, x + v = 1e14: at x = 1.25, u = 0, v = 1e14 − 1.25 the first two
        // rows are off by a fifth of their own size, however large the third row is.
        let m = LpModel::new(
            dmatrix![1.0, 1.0, 0.0; 1.0, 1.0, 0.0; 1.0, 0.0, 1.0],
            vec![0.0; 3],
            vec![1.0, 1.5, 1e14],
            vec![1.0, 1.5, 1e14],
        )
        .expect("valid");
        let p = primal_side(&m, &[1.25, 0.0, 1e14 - 1.25], &[2, 2, 2]);
        // Row 0: |1.25 − 1| / (1 + 1.25) = 1/9; row 1: 0.25 / 2.75.
        assert!((p.backward_error - 1.0 / 9.0).abs() < 1e-12, "{p:?}");
        assert_eq!(p.worst, Some(At::Row(0)));
    }

    #[test]
    fn a_feasible_point_has_no_backward_error_and_its_objective_is_enclosed() {
        let mut m = LpModel::new(dmatrix![1.0, 2.0], vec![0.1, 0.7], vec![-1.0], vec![3.0]).expect("valid");
        m.obj_constant = 1e-3;
        let p = primal_side(&m, &[1.0, 0.5], &[2]);
        assert_eq!(p.backward_error, 0.0);
        let exact = 0.1 + 0.35 + 1e-3;
        assert!(p.objective.0 <= exact && exact <= p.objective.1, "{p:?}");
    }

    #[test]
    fn a_bound_violation_and_a_nan_count_against_the_point() {
        let m = LpModel::new(dmatrix![1.0], vec![1.0], vec![0.0], vec![10.0]).expect("valid");
        let mut m2 = m.clone();
        m2.col_upper = vec![2.0];
        let p = primal_side(&m2, &[3.0], &[1]);
        assert!((p.backward_error - 0.2).abs() < 1e-12 && p.worst == Some(At::Column(0)), "{p:?}");
        let p = primal_side(&m, &[f64::NAN], &[1]);
        assert_eq!(p.backward_error, f64::INFINITY);
        assert!(p.objective.0.is_nan());
    }
}
