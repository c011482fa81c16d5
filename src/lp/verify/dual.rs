//! The dual side of a proof: Neumaier & Shcherbina's safe lower bound of min cᵀx from
//! multipliers and reduced costs known as intervals, in the min sense.
//!
//! For every x with rows in [l_row, u_row] and columns in [l, u] and every exact y and
//! r = c − Aᵀy: cᵀx = yᵀ(A·x) + rᵀx ≥ Σᵢ inf yᵢ·[l_rowᵢ, u_rowᵢ] + Σⱼ inf rⱼ·[lⱼ, uⱼ]. With y and r
//! known only to lie in intervals, each term's infimum over the box of its factors is a corner
//! product, rounded down ([`bilinear_min`]); the sum is rounded down with its error bound.

use super::rounding::{mul_down, LowerSum};
use super::DualBound;

/// min of p·q over p ∈ [p_lo, p_hi], q ∈ [q_lo, q_hi], rounded down, with 0·∞ = 0: −∞ where an
/// infinite end of q meets a factor that does not vanish on the side that makes it −∞.
pub(super) fn bilinear_min((p_lo, p_hi): (f64, f64), (q_lo, q_hi): (f64, f64)) -> f64 {
    if p_lo.is_nan() || p_hi.is_nan() || q_lo.is_nan() || q_hi.is_nan() {
        return f64::NEG_INFINITY;
    }
    // The least corner by the signs (p·q is bilinear), and mul_down is exact directed rounding,
    // so monotone: the same value as the least of the four rounded corners, for one or two
    // products.
    if p_lo >= 0.0 {
        if q_lo >= 0.0 {
            mul_down(p_lo, q_lo)
        } else {
            mul_down(p_hi, q_lo)
        }
    } else if p_hi <= 0.0 {
        if q_hi <= 0.0 {
            mul_down(p_hi, q_hi)
        } else {
            mul_down(p_lo, q_hi)
        }
    } else {
        mul_down(p_lo, q_hi).min(mul_down(p_hi, q_lo))
    }
}

/// The dual side found for some multipliers, and how.
#[derive(Clone)]
pub(super) struct Dual {
    pub(super) side: DualSide,
    pub(super) how: DualBound,
    /// The dual side with each unbounded column's term taken at the point (its share of the
    /// duality gap there): what a repair would roughly reach, for the loop's judgement.
    pub(super) estimate: f64,
    /// Each row's multiplier in magnitude (the largest of its interval): the price at which the
    /// primal side charges a row's violation.
    pub(super) price: Vec<f64>,
    /// The multipliers the bound was proven with (the middle of each row's interval).
    pub(super) multipliers: Vec<f64>,
}

/// Multipliers (per row) and reduced costs (per column) as intervals, in the min sense.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct DualIntervals {
    pub rows: Vec<(f64, f64)>,
    pub cols: Vec<(f64, f64)>,
}

/// The dual side's value.
#[derive(Clone, Debug)]
pub(super) struct DualSide {
    /// A proven lower bound of min cᵀx + constant (−∞: none).
    pub lower: f64,
    /// Σ |terms| + |constant|: the size of what the bound is made of.
    pub size: f64,
    /// Columns whose term is −∞ (their reduced cost has the wrong sign, or may have, on an
    /// infinite bound).
    pub unbounded_cols: Vec<usize>,
    /// Rows whose term is −∞.
    pub unbounded_rows: Vec<usize>,
}

/// The dual side of `d` over the row bounds and the column bounds (`lower`, `upper`: the
/// model's own, or tighter ones the rows imply), with `constant` (min sense) added.
pub(super) fn dual_side(
    d: &DualIntervals,
    (row_lower, row_upper): (&[f64], &[f64]),
    (lower, upper): (&[f64], &[f64]),
    constant: f64,
) -> DualSide {
    let mut sum = LowerSum::default();
    sum.add(constant);
    let (mut unbounded_cols, mut unbounded_rows) = (Vec::new(), Vec::new());
    for (i, &y) in d.rows.iter().enumerate() {
        let t = bilinear_min(y, (row_lower[i], row_upper[i]));
        if t == f64::NEG_INFINITY {
            unbounded_rows.push(i);
        }
        sum.add(t);
    }
    for (j, &r) in d.cols.iter().enumerate() {
        let t = bilinear_min(r, (lower[j], upper[j]));
        if t == f64::NEG_INFINITY {
            unbounded_cols.push(j);
        }
        sum.add(t);
    }
    DualSide { lower: sum.lower(), size: sum.magnitude(), unbounded_cols, unbounded_rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lp::verify::rounding::mul_down;

    const INF: f64 = f64::INFINITY;

    #[test]
    fn corner_products_with_zero_times_infinity_as_zero() {
        // r ∈ [0, 2] on x ≥ 0: the least is 0 (r = 0 exactly allowed on the infinite side).
        assert_eq!(bilinear_min((0.0, 2.0), (0.0, INF)), 0.0);
        // r possibly negative on x ≥ 0 unbounded: no bound.
        assert_eq!(bilinear_min((-1e-300, 2.0), (0.0, INF)), f64::NEG_INFINITY);
        // A free column with r exactly 0 contributes 0; with r ∈ [−e, e] nothing bounds it.
        assert_eq!(bilinear_min((0.0, 0.0), (-INF, INF)), 0.0);
        assert_eq!(bilinear_min((-1e-20, 1e-20), (-INF, INF)), f64::NEG_INFINITY);
        // A boxed column: the worst corner, rounded down.
        // Corners 0.2, −0.5, −0.6, 1.5: the least is 0.3·(−2).
        let t = bilinear_min((-0.1, 0.3), (-2.0, 5.0));
        assert!(t <= -0.6 && t > -0.6 - 1e-15, "{t}");
        assert_eq!(bilinear_min((f64::NAN, 1.0), (0.0, 1.0)), f64::NEG_INFINITY);
    }

    #[test]
    fn the_corner_chosen_by_the_signs_is_the_least_of_the_four() {
        // Every pair of intervals over ends with zeros, infinities, small and inexact values:
        // the one or two products taken give what the least of the four rounded corners gives.
        // (Products below 1e-290 are moved one ulp down unasked, not rounded exactly: there
        // the corners chosen may give the tighter bound, which this does not compare.)
        let ends = [-INF, -3.7, -1.0 / 3.0, -1e-140, -0.0, 0.0, 1e-140, 0.1, 2.0 / 3.0, 5.0, INF];
        let mut pairs = 0;
        for (a, &p_lo) in ends.iter().enumerate() {
            for &p_hi in &ends[a..] {
                for (b, &q_lo) in ends.iter().enumerate() {
                    for &q_hi in &ends[b..] {
                        let four = [mul_down(p_lo, q_lo), mul_down(p_lo, q_hi), mul_down(p_hi, q_lo), mul_down(p_hi, q_hi)]
                            .into_iter()
                            .fold(f64::INFINITY, f64::min);
                        let got = bilinear_min((p_lo, p_hi), (q_lo, q_hi));
                        assert_eq!(got.to_bits() | (1 << 63), four.to_bits() | (1 << 63), "p [{p_lo}, {p_hi}], q [{q_lo}, {q_hi}]: {got} vs {four}");
                        pairs += 1;
                    }
                }
            }
        }
        assert_eq!(pairs, 66 * 66);
    }

    #[test]
    fn the_bound_is_below_every_feasible_objective_of_a_small_lp() {
        // min x + 2y s.t. x + y ≥ 1, x, y ∈ [0, 10]; y = 1 (exact dual): r = (0, 1), bound 1.
        let d = DualIntervals { rows: vec![(1.0, 1.0)], cols: vec![(0.0, 0.0), (1.0, 1.0)] };
        let s = dual_side(&d, (&[1.0], &[INF]), (&[0.0, 0.0], &[10.0, 10.0]), 0.0);
        assert!(s.lower <= 1.0 && s.lower > 1.0 - 1e-14, "{s:?}");
        // A multiplier of the wrong sign on the row's missing bound: no bound, and which row.
        let d = DualIntervals { rows: vec![(-1.0, -1.0)], cols: vec![(2.0, 2.0), (3.0, 3.0)] };
        let s = dual_side(&d, (&[1.0], &[INF]), (&[0.0, 0.0], &[10.0, 10.0]), 0.0);
        assert_eq!((s.lower, s.unbounded_rows.clone()), (f64::NEG_INFINITY, vec![0]));
    }
}
