//! Independent checks, in double precision on the **original** model (before standard form,
//! scaling, shifts and splits), of every answer the solver gives.
//!
//! The interior-point loop decides on the scaled standard form, and the `gpu` backend in single
//! precision; neither is allowed to certify anything on its own. Here a point (x, y) is checked
//! against `row_lower ≤ A·x ≤ row_upper`, `col_lower ≤ x ≤ col_upper` and the sign conditions of
//! the duals, and an infeasibility certificate against the inequalities that make it a proof.
//!
//! Every measure is relative to the model's own numbers **at the point being judged**, never to
//! units or floors an equilibration chose, so that it is the same whether a row is written in
//! grams or tonnes, a column in dollars or cents, the cost in units or millionths (each such
//! change scales a measure's numerator and denominator alike). With σ = ±1 the sense, the
//! min-sense multipliers σy (rows) and σz, z = c − Aᵀy (columns), and a row's or column's
//! *selected bound* the one its multiplier's sign selects (lower for a positive multiplier):
//! * **primal residual**: max over rows of the distance of aᵢ·x to [lᵢ, uᵢ] over
//!   Dᵢ = |bound it is compared with| + Σⱼ |aᵢⱼxⱼ| — the componentwise backward error of the
//!   row (Oettli–Prager): the relative change of the row's data that makes x satisfy it;
//! * **bound violation**: max over columns outside their bounds by δⱼ of what moving xⱼ into
//!   them does, relatively, to each row it is in (|aᵢⱼ|δⱼ / (Dᵢ + |aᵢⱼ|δⱼ)) and to the
//!   objective; a column in no row and without cost is measured against |xⱼ| + |bound| + δⱼ.
//!   The solver moves its answers into the bounds before checking them (`into_bounds`), so for
//!   its points this is 0 and any repair shows in the rows;
//! * **dual residual**: the wrong-signed part of σzⱼ (positive with lⱼ = −∞, negative with
//!   uⱼ = +∞) over Eⱼ = |cⱼ| + Σᵢ |aᵢⱼyᵢ| — the componentwise backward error of the dual
//!   constraint — and, for a row multiplier of the wrong sign for its bounds (σyᵢ > 0 with
//!   lᵢ = −∞, < 0 with uᵢ = +∞), what setting it to zero does to each dual constraint it is in,
//!   max over j of |aᵢⱼ|·(wrong part) / Eⱼ;
//! * **complementarity**: Σ |σzⱼ|·(distance of xⱼ to its selected bound) + the same for the
//!   rows, over the inequalities only (an equality row or fixed column has no such condition,
//!   and weighing its residual by |yᵢ| would grow with the duals where the dual optimal set is
//!   unbounded), over the objective scale G below;
//! * **gap**: |primal objective − dual objective| / G, the dual objective being
//!   Σ σyᵢ·(selected row bound) + Σ σzⱼ·(selected column bound), in the model's sense, plus
//!   the objective constant.
//!
//! G = max(|cᵀx|, |dual objective − constant|) + [`GAP_FLOOR`]·F, with F = Σⱼ |cⱼxⱼ| +
//! Σᵢⱼ |yᵢaᵢⱼxⱼ| + Σ |terms of the dual objective|, the size of the products the two objectives
//! are made of. The gap is thus relative to the objective itself (never looser than
//! |p − d| / (1 + |p| + |d|) where F ≤ 1/`GAP_FLOOR`), and an objective that cancels to zero
//! is judged against a small fraction of its terms, the only size it has. Where the terms
//! vanish too (an optimum at x = 0, y = 0), F is at least the objective's reach within the
//! model's tightest stated limits ([`NaturalSizes::objective_reach`]).
//!
//! What passing at τ guarantees: x is feasible for the model whose row bounds are moved by at
//! most τ·Dᵢ (relative change ≤ τ of each row's data); (y, z) is dual feasible for the model
//! whose costs are moved by at most τ·Eⱼ; and the objective of x is within τ·G of the dual
//! objective of (y, z), so — where x and (y, z) are feasible — within τ·G of the optimum, which
//! lies between the two.

mod natural;
mod point;
mod products;
mod rays;
mod sizes;

pub use natural::NaturalSizes;
pub(crate) use point::{into_bounds, verify_valid, Checker};
pub use point::{objective, verify_point, GAP_FLOOR};
pub use products::{activities, reduced_costs};
pub use rays::{check_farkas, check_primal_ray, drop_wrong_signs, CertificateCheck, CertificateKind};
pub use sizes::SIZE_FLOOR;

use crate::lp::model::{LpModel, Sense};

/// A point is optimal when every measure is at most `VERIFY_FACTOR`·ε. The loop stops at ε on
/// the scaled standard form; undoing the column shifts and the splits can magnify a residual by
/// a small factor, so the check allows one order of magnitude and no more.
pub const VERIFY_FACTOR: f64 = 10.0;

/// How well a point or a certificate passed.
/// Ordered best first: `Tolerance < Reduced < Failed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Accuracy {
    /// Passes at the requested tolerance (times `VERIFY_FACTOR` for points).
    Tolerance,
    /// Passes only at the reduced tolerance: the square root of the requested one.
    Reduced,
    /// Passes neither.
    Failed,
}

impl Accuracy {
    fn grade(measure: f64, tol: f64) -> Self {
        if measure <= tol {
            Accuracy::Tolerance
        } else if measure <= tol.sqrt() {
            Accuracy::Reduced
        } else {
            Accuracy::Failed
        }
    }

    /// The grade in words (`passed`, `passed at reduced accuracy`, `failed`).
    pub fn name(self) -> &'static str {
        match self {
            Accuracy::Tolerance => "passed",
            Accuracy::Reduced => "passed at reduced accuracy",
            Accuracy::Failed => "failed",
        }
    }
}

/// The measures of a primal-dual point on the original model (see the module documentation).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verification {
    /// cᵀx + constant, in the model's sense.
    pub objective: f64,
    /// The dual objective (the multipliers times their selected bounds, plus the constant), in the model's sense.
    pub dual_objective: f64,
    /// Primal residual: the rows' largest componentwise backward error.
    pub primal_residual: f64,
    /// Bound violation: what moving x into its bounds does, relatively, to the rows and the objective.
    pub bound_violation: f64,
    /// Dual residual: the dual constraints' largest componentwise backward error.
    pub dual_residual: f64,
    /// Complementarity of x and the duals over the inequalities, over the objective scale G.
    pub complementarity: f64,
    /// |primal objective − dual objective| / G.
    pub gap: f64,
    /// G: the objective scale that complementarity and the gap are relative to.
    pub objective_scale: f64,
    /// The tolerance the measures were graded against (`VERIFY_FACTOR`·ε).
    pub tolerance: f64,
    /// The grade: every measure within the tolerance, within its square root, or neither.
    pub accuracy: Accuracy,
}

impl Verification {
    /// The largest of the five measures (NaN counts as infinite).
    pub fn worst(&self) -> f64 {
        [self.primal_residual, self.bound_violation, self.dual_residual, self.complementarity, self.gap]
            .into_iter()
            .map(|v| if v.is_nan() { f64::INFINITY } else { v })
            .fold(0.0, f64::max)
    }

    /// One line for logs and summaries.
    pub fn summary(&self) -> String {
        format!(
            "{} (tol {:.1e}): primal {:.2e}, bounds {:.2e}, dual {:.2e}, compl. {:.2e}, gap {:.2e}, objective {:.12e}, dual objective {:.12e}",
            self.accuracy.name(),
            self.tolerance,
            self.primal_residual,
            self.bound_violation,
            self.dual_residual,
            self.complementarity,
            self.gap,
            self.objective,
            self.dual_objective
        )
    }
}

fn sigma(model: &LpModel) -> f64 {
    if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    }
}

/// Distance of `v` to [lo, up]; infinite when any of them is NaN (`f64::max` drops a NaN, so a
/// NaN bound or value would otherwise read as no violation at all).
fn outside(v: f64, lo: f64, up: f64) -> f64 {
    if v.is_nan() || lo.is_nan() || up.is_nan() {
        return f64::INFINITY;
    }
    (lo - v).max(v - up).max(0.0)
}

/// The multiplier `m` (min-sense) of a variable or row with bounds [lo, up]: its wrong-signed
/// part (on an infinite bound), its contribution m·(bound its sign selects), and that bound
/// (NaN where there is none).
fn dual_term(m: f64, lo: f64, up: f64) -> (f64, f64, f64) {
    if m > 0.0 {
        if lo.is_finite() {
            (0.0, m * lo, lo)
        } else {
            (m, 0.0, f64::NAN)
        }
    } else if m < 0.0 {
        if up.is_finite() {
            (0.0, m * up, up)
        } else {
            (-m, 0.0, f64::NAN)
        }
    } else if m.is_nan() {
        // Neither sign: a NaN multiplier is wrong on every bound (no point with one passes).
        (f64::INFINITY, 0.0, f64::NAN)
    } else {
        (0.0, 0.0, f64::NAN)
    }
}

/// `num / den`, with 0 / 0 = 0: a measure whose terms are all zero has nothing to measure
/// (a NaN in either stays NaN, which [`Verification::worst`] counts as infinite).
fn ratio(num: f64, den: f64) -> f64 {
    if num == 0.0 && den == 0.0 {
        0.0
    } else {
        num / den
    }
}
