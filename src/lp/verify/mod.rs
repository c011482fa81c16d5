//! Independent checks, in double precision on the **original** model (before standard form,
//! scaling, shifts and splits), of every answer the solver gives.
//!
//! The interior-point loop decides on the scaled standard form, and the `gpu` backend in single
//! precision; neither is allowed to certify anything on its own. Here a point (x, y) is checked
//! against `row_lower ≤ A·x ≤ row_upper`, `col_lower ≤ x ≤ col_upper` and the sign conditions of
//! the duals, and an infeasibility certificate against the inequalities that make it a proof.
//!
//! Measures, all taken in the model's units ([`Units`]: a power of two per row Rᵢ, per column
//! Cⱼ and for the cost γ, from the model alone), so that they do not depend on the units the
//! model was written in — a row in grams or in tonnes, a cost in dollars or in millionths:
//! * **primal residual**: max over rows of Rᵢ·(distance of aᵢ·x to [lᵢ, uᵢ]) — the row measured
//!   against its own norm — over B_row = 1 + the largest finite |Rᵢ·row bound|;
//! * **bound violation**: max over columns of (distance of xⱼ to [lⱼ, uⱼ]) / Cⱼ, over B_col =
//!   1 + the largest finite |column bound / Cⱼ|;
//! * **dual residual**: with σ = ±1 the sense and z = c − Aᵀy, the largest wrong-signed γ·Cⱼ·σzⱼ
//!   (positive with lⱼ = −∞, negative with uⱼ = +∞) or γ·σyᵢ/Rᵢ (positive with a row lower
//!   bound −∞, negative with a row upper bound +∞), over B_c = 1 + γ·max |Cⱼcⱼ| (≈ 2);
//! * **complementarity**: γ·Σ |σzⱼ|·(distance of xⱼ to the bound its sign selects) + the same
//!   for the rows, over 1 + γ·|objective|, over the inequalities only: an equality row (or a
//!   fixed column) has no complementarity condition, its distance to the bound is the primal
//!   residual (bound violation) measured above, and weighing it by |yᵢ| would make the measure
//!   grow with the duals where the dual optimal set is unbounded (dfl001: row duals of 3e11
//!   along a ray of equal objective, whose signed terms cancel in the gap but not in a sum of
//!   |·|);
//! * **gap**: γ·|primal objective − dual objective| / (1 + γ·|primal objective|), the dual
//!   objective being Σ σyᵢ·(selected row bound) + Σ σzⱼ·(selected column bound), in the model's
//!   sense, plus the objective constant. With γ·C·c of max-norm ≈ 1, the 1 is ‖c‖ times a unit
//!   x in the model's units: the gap is relative to the larger of the objective's own size and
//!   the cost's, whatever the currency (a cost in millionths once made this an absolute test).

mod products;

pub use products::{activities, reduced_costs};

use crate::lp::model::{LpModel, Sense};
use crate::lp::units::Units;
use products::activities_and_reduced_costs;

/// A point is optimal when every measure is at most `VERIFY_FACTOR`·ε. The loop stops at ε on
/// the scaled standard form, in the same units; undoing the column shifts and the splits can
/// magnify a residual by a small factor, so the check allows one order of magnitude and no more.
pub const VERIFY_FACTOR: f64 = 10.0;

/// How well a point or a certificate passed.
/// Ordered best first: `Tolerance < Reduced < Failed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Accuracy {
    /// Passes at the requested tolerance (times [`VERIFY_FACTOR`] for points).
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

    pub fn name(self) -> &'static str {
        match self {
            Accuracy::Tolerance => "passed",
            Accuracy::Reduced => "passed at reduced accuracy",
            Accuracy::Failed => "failed",
        }
    }
}

/// The measures of a primal-dual point on the original model.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verification {
    pub objective: f64,
    pub dual_objective: f64,
    pub primal_residual: f64,
    pub bound_violation: f64,
    pub dual_residual: f64,
    pub complementarity: f64,
    pub gap: f64,
    /// The tolerance the measures were graded against (`VERIFY_FACTOR`·ε).
    pub tolerance: f64,
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
            "{} (tol {:.1e}): primal {:.2e}, bounds {:.2e}, dual {:.2e}, compl. {:.2e}, gap {:.2e}, objective {:.12e}",
            self.accuracy.name(),
            self.tolerance,
            self.primal_residual,
            self.bound_violation,
            self.dual_residual,
            self.complementarity,
            self.gap,
            self.objective
        )
    }
}

/// cᵀx + constant in the model's sense.
pub fn objective(model: &LpModel, x: &[f64]) -> f64 {
    model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant
}

fn sigma(model: &LpModel) -> f64 {
    if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    }
}

fn max_finite_abs(v: impl IntoIterator<Item = f64>) -> f64 {
    v.into_iter().filter(|x| x.is_finite()).fold(0.0, |m, x| m.max(x.abs()))
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
/// part (on an infinite bound), and its contribution m·(bound its sign selects).
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

/// Checks the point (x, row duals y) on `model`; `tol` is the solver's ε (graded at
/// [`VERIFY_FACTOR`]·ε and, for reduced accuracy, at its square root).
pub fn verify_point(model: &LpModel, x: &[f64], y: &[f64], tol: f64) -> Verification {
    let (m, n) = (model.num_rows(), model.num_cols());
    if x.len() != n || y.len() != m || model.validate().is_err() {
        // A point of the wrong size, or a malformed model: nothing can be checked.
        let nan = f64::NAN;
        return Verification {
            objective: nan,
            dual_objective: nan,
            primal_residual: nan,
            bound_violation: nan,
            dual_residual: nan,
            complementarity: nan,
            gap: nan,
            tolerance: VERIFY_FACTOR * tol,
            accuracy: Accuracy::Failed,
        };
    }
    verify_in(model, &Units::of(model), x, y, tol)
}

/// A row's or a column's shares of the measures, from its value `v` (the activity aᵢ·x or xⱼ),
/// its min-sense multiplier `mult` and its bounds: (distance of v to [lo, up], the multiplier's
/// wrong-signed part, its dual-objective term, its complementarity term — zero on equalities).
fn shares(v: f64, mult: f64, lo: f64, up: f64) -> (f64, f64, f64, f64) {
    let (wrong, term, bound) = dual_term(mult, lo, up);
    let compl = if bound.is_finite() && lo != up { mult.abs() * (v - bound).abs() } else { 0.0 };
    (outside(v, lo, up), wrong, term, compl)
}

/// [`verify_point`] in the given units, on a model that passed validation and a point of its
/// size (the solver's own checks: the model was validated and its units found once per solve).
pub(crate) fn verify_in(model: &LpModel, units: &Units, x: &[f64], y: &[f64], tol: f64) -> Verification {
    let s = sigma(model);
    let (m, n) = (model.num_rows(), model.num_cols());
    let (ax, z) = activities_and_reduced_costs(model, x, y);
    let (row_scale, col_scale, c_scale) = units.measure_scales(model);
    let objective = objective(model, x);
    let g = units.cost;
    let (mut primal, mut bounds, mut dual, mut compl, mut dobj) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for i in 0..m {
        let (violation, wrong, term, c) = shares(ax[i], s * y[i], model.row_lower[i], model.row_upper[i]);
        let r = units.row[i];
        primal = primal.max(r * violation);
        dual = dual.max(g * wrong / r);
        dobj += term;
        compl += c;
    }
    for j in 0..n {
        let (violation, wrong, term, c) = shares(x[j], s * z[j], model.col_lower[j], model.col_upper[j]);
        let unit = units.col[j];
        bounds = bounds.max(violation / unit);
        dual = dual.max(g * unit * wrong);
        dobj += term;
        compl += c;
    }
    let dual_objective = s * dobj + model.obj_constant;
    let rel = 1.0 + g * objective.abs();
    let mut v = Verification {
        objective,
        dual_objective,
        primal_residual: primal / row_scale,
        bound_violation: bounds / col_scale,
        dual_residual: dual / c_scale,
        complementarity: g * compl / rel,
        gap: g * (objective - dual_objective).abs() / rel,
        tolerance: VERIFY_FACTOR * tol,
        accuracy: Accuracy::Failed,
    };
    v.accuracy = Accuracy::grade(v.worst(), v.tolerance);
    v
}

/// Which kind of ray a certificate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CertificateKind {
    /// Row multipliers y proving that no x satisfies the rows and the bounds (Farkas).
    Farkas,
    /// A direction r along which every feasible point stays feasible and the objective improves.
    PrimalRay,
}

/// The result of checking a certificate.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CertificateCheck {
    pub kind: CertificateKind,
    /// What the ray gains: L(y) − U(Aᵀy) for Farkas, −σ·cᵀr for a primal ray (must be > 0).
    pub value: f64,
    /// The largest wrong-signed part of the ray (on an infinite bound, where it spoils the proof).
    pub violation: f64,
    /// The scale-free ratio graded against the tolerance (see the check functions).
    pub ratio: f64,
    pub tolerance: f64,
    pub accuracy: Accuracy,
}

impl CertificateCheck {
    pub fn summary(&self) -> String {
        let what = match self.kind {
            CertificateKind::Farkas => "Farkas ray",
            CertificateKind::PrimalRay => "primal ray",
        };
        format!(
            "{what} {} (tol {:.1e}): gain {:.3e}, violation {:.3e}, ratio {:.2e}",
            self.accuracy.name(),
            self.tolerance,
            self.value,
            self.violation,
            self.ratio
        )
    }
}

fn a_max(model: &LpModel) -> f64 {
    max_finite_abs(model.a.values.iter().copied())
}

fn grade_ray(kind: CertificateKind, value: f64, violation: f64, ratio: f64, tol: f64) -> CertificateCheck {
    let accuracy = if value > 0.0 && value.is_finite() && ratio.is_finite() {
        Accuracy::grade(ratio, tol)
    } else {
        Accuracy::Failed
    };
    CertificateCheck { kind, value, violation, ratio, tolerance: tol, accuracy }
}

/// Farkas check of row multipliers y. With d = Aᵀy, every x in the column box has
/// yᵀA·x = dᵀx ≤ U(d) = Σ max(dⱼlⱼ, dⱼuⱼ), and every row activity r in the row box has
/// yᵀr ≥ L(y) = Σ min(yᵢlᵢ, yᵢuᵢ); L(y) > U(d) proves infeasibility. Terms on infinite bounds
/// would make the proof void; their largest magnitude is the `violation`, and the certificate
/// passes when `ratio = (violation / (1 + max|aᵢⱼ|)) / ((L − U) / (1 + max finite |bound|))` is at
/// most `tol` (the same scale-free form as the loop's test on the standard form).
#[allow(clippy::needless_range_loop)]
pub fn check_farkas(model: &LpModel, y: &[f64], tol: f64) -> CertificateCheck {
    let (m, n) = (model.num_rows(), model.num_cols());
    if y.len() != m || y.iter().any(|v| !v.is_finite()) {
        return grade_ray(CertificateKind::Farkas, f64::NAN, f64::NAN, f64::NAN, tol);
    }
    let mut d = vec![0.0; n];
    for (j, dj) in d.iter_mut().enumerate() {
        *dj = model.a.col(j).map(|(i, v)| v * y[i]).sum();
    }
    let (mut lower, mut upper, mut violation) = (0.0, 0.0, 0.0f64);
    for i in 0..m {
        // L(y): yᵢ > 0 takes the row's lower bound, yᵢ < 0 its upper bound.
        let (wrong, term, _) = dual_term(y[i], model.row_lower[i], model.row_upper[i]);
        violation = violation.max(wrong);
        lower += term;
    }
    for j in 0..n {
        // U(d): dⱼ > 0 takes the upper bound, dⱼ < 0 the lower one, i.e. −L(−d).
        let (wrong, term, _) = dual_term(-d[j], model.col_lower[j], model.col_upper[j]);
        violation = violation.max(wrong);
        upper -= term;
    }
    let value = lower - upper;
    let b_scale = 1.0
        + max_finite_abs(
            model.row_lower.iter().chain(&model.row_upper).chain(&model.col_lower).chain(&model.col_upper).copied(),
        );
    let ratio = (violation / (1.0 + a_max(model))) / (value / b_scale);
    grade_ray(CertificateKind::Farkas, value, violation, ratio, tol)
}

/// Zeroes the multipliers of rows whose sign asks for an infinite bound (yᵢ > 0 on a row with no
/// lower bound, yᵢ < 0 on one with no upper bound): such a term can only spoil a Farkas proof, and
/// removing it leaves a valid certificate valid. The check is then run on what remains.
pub fn drop_wrong_signs(model: &LpModel, mut y: Vec<f64>) -> Vec<f64> {
    for (i, yi) in y.iter_mut().enumerate().take(model.num_rows()) {
        if (*yi > 0.0 && model.row_lower[i] == f64::NEG_INFINITY) || (*yi < 0.0 && model.row_upper[i] == f64::INFINITY)
        {
            *yi = 0.0;
        }
    }
    y
}

/// Primal-ray check of a direction r: the rows must not move towards a finite bound
/// ((A·r)ᵢ ≤ 0 where uᵢ is finite, ≥ 0 where lᵢ is), nor the columns (rⱼ ≤ 0 where uⱼ is finite,
/// ≥ 0 where lⱼ is), and the objective must improve, gain = −σ·cᵀr > 0. The certificate passes
/// when `ratio = max(row violation / (1 + max|aᵢⱼ|), column violation) / (gain / (1 + ‖c‖∞))` is
/// at most `tol`.
pub fn check_primal_ray(model: &LpModel, r: &[f64], tol: f64) -> CertificateCheck {
    let (m, n) = (model.num_rows(), model.num_cols());
    if r.len() != n || r.iter().any(|v| !v.is_finite()) {
        return grade_ray(CertificateKind::PrimalRay, f64::NAN, f64::NAN, f64::NAN, tol);
    }
    let ar = activities(model, r);
    let moves = |v: f64, lo: f64, up: f64| {
        let towards_up = if up.is_finite() { v.max(0.0) } else { 0.0 };
        let towards_lo = if lo.is_finite() { (-v).max(0.0) } else { 0.0 };
        towards_up.max(towards_lo)
    };
    let row_v = (0..m).map(|i| moves(ar[i], model.row_lower[i], model.row_upper[i])).fold(0.0, f64::max);
    let col_v = (0..n).map(|j| moves(r[j], model.col_lower[j], model.col_upper[j])).fold(0.0, f64::max);
    let gain = -sigma(model) * model.c.iter().zip(r).map(|(c, r)| c * r).sum::<f64>();
    let violation = row_v.max(col_v);
    let scaled = (row_v / (1.0 + a_max(model))).max(col_v);
    let ratio = scaled / (gain / (1.0 + max_finite_abs(model.c.iter().copied())));
    grade_ray(CertificateKind::PrimalRay, gain, violation, ratio, tol)
}
