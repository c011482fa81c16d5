//! The check of a primal-dual point (see the module documentation of [`super`]).

use super::natural::{capped, NaturalSizes};
use super::products::{activities_and_reduced_costs, term_sizes};
use super::sizes::{sizes, Sizes};
use super::{dual_term, outside, ratio, sigma, Accuracy, Verification, VERIFY_FACTOR};
use crate::lp::model::LpModel;

/// The fraction of F (the size of the products the objectives are made of) below which the
/// gap is not asked to resolve an objective that cancels to zero. Far below the objective
/// itself on every NETLIB problem (F / |objective| ≤ 6·10⁴ there, modszk1 the largest), so
/// that the gap stays relative to the objective; and above the rounding of the sums that make
/// it (n·u₆₄·F), so that a zero optimum can pass in double precision.
pub const GAP_FLOOR: f64 = 1e-6;

/// cᵀx + constant in the model's sense.
pub fn objective(model: &LpModel, x: &[f64]) -> f64 {
    model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant
}

/// Moves every xⱼ into [lⱼ, uⱼ]: the solver's answers are reported within their bounds, so
/// that what the interior-point method left outside them (an implicit upper bound met to its
/// tolerance) is judged by its effect on the rows and the objective.
pub(crate) fn into_bounds(model: &LpModel, x: &mut [f64]) {
    for ((v, &lo), &up) in x.iter_mut().zip(&model.col_lower).zip(&model.col_upper) {
        if *v < lo {
            *v = lo;
        } else if *v > up {
            *v = up;
        }
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
            objective_scale: nan,
            tolerance: VERIFY_FACTOR * tol,
            accuracy: Accuracy::Failed,
        };
    }
    Checker::new(model).verify(x, y, tol)
}

/// The check of points on one validated model, with the model's natural sizes found once (a
/// solve checks every iterate).
pub(crate) struct Checker<'a> {
    model: &'a LpModel,
    natural: NaturalSizes,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(model: &'a LpModel) -> Self {
        Self { model, natural: NaturalSizes::of(model) }
    }

    /// The model the checker checks points of.
    pub(crate) fn model(&self) -> &'a LpModel {
        self.model
    }

    /// [`verify_point`] of (x, y), of the model's sizes.
    pub(crate) fn verify(&self, x: &[f64], y: &[f64], tol: f64) -> Verification {
        let model = self.model;
        let s = sigma(model);
        let (m, n) = (model.num_rows(), model.num_cols());
        let (ax, z) = activities_and_reduced_costs(model, x, y);
        let x_size: Vec<f64> = x.iter().map(|v| v.abs()).collect();
        let y_size: Vec<f64> = y.iter().map(|v| v.abs()).collect();
        let (ax_size, aty_size) = term_sizes(model, &x_size, &y_size);
        // F, the floor's size of the objective, from the point's values capped at their natural
        // sizes (a point far out on a ray would make it as large as itself).
        let x_cap: Vec<f64> = x.iter().zip(&self.natural.col).map(|(&v, &s)| capped(v, s)).collect();
        let y_cap: Vec<f64> = y.iter().zip(&self.natural.dual).map(|(&v, &s)| capped(v, s)).collect();
        let (_, aty_cap) = term_sizes(model, &x_cap, &y_cap);
        // The dual objective and F (the size of the products both objectives are made of).
        let (mut dual_sum, mut size) = (0.0, 0.0);
        let mut compared = vec![0.0; m];
        let rows: Vec<(f64, f64, f64)> = (0..m)
            .map(|i| {
                let (lo, up) = (model.row_lower[i], model.row_upper[i]);
                let bound = if ax[i] < lo || !up.is_finite() { lo } else { up };
                compared[i] = if bound.is_finite() { bound.abs() } else { 0.0 };
                let (wrong, term, selected) = dual_term(s * y[i], lo, up);
                dual_sum += term;
                size += y_cap[i] * if selected.is_finite() { selected.abs() } else { 0.0 };
                (wrong, selected, outside(ax[i], lo, up))
            })
            .collect();
        let cols: Vec<(f64, f64, f64)> = (0..n)
            .map(|j| {
                let (lo, up) = (model.col_lower[j], model.col_upper[j]);
                let (wrong, term, selected) = dual_term(s * z[j], lo, up);
                dual_sum += term;
                let bound = if selected.is_finite() { selected.abs() } else { 0.0 };
                size += (model.c[j].abs() + aty_cap[j]) * (x_cap[j] + bound);
                (wrong, selected, outside(x[j], lo, up))
            })
            .collect();
        let objective = objective(model, x);
        let dual_objective = s * dual_sum + model.obj_constant;
        let floor = GAP_FLOOR * size.max(self.natural.objective_reach);
        let scale = (objective - model.obj_constant).abs().max(dual_sum.abs()) + floor;
        let Sizes { row: row_size, col: col_size } =
            sizes(model, (&x_size, &y_size), &compared, (&ax_size, &aty_size), size);
        let (mut primal, mut dual, mut compl) = (0.0f64, 0.0f64, 0.0);
        let mut row_wrong = vec![0.0; m];
        for (i, &(wrong, selected, violation)) in rows.iter().enumerate() {
            primal = primal.max(ratio(violation, row_size[i]));
            row_wrong[i] = wrong;
            if selected.is_finite() && model.row_lower[i] != model.row_upper[i] {
                compl += (s * y[i]).abs() * (ax[i] - selected).abs();
            }
        }
        let mut moved = Vec::new();
        for (j, &(wrong, selected, violation)) in cols.iter().enumerate() {
            dual = dual.max(ratio(wrong, col_size[j]));
            if violation > 0.0 {
                moved.push((j, violation));
            }
            if selected.is_finite() && model.col_lower[j] != model.col_upper[j] {
                compl += (s * z[j]).abs() * (x[j] - selected).abs();
            }
        }
        // A wrong-signed row multiplier, set to zero, moves each dual constraint it is in by
        // |aᵢⱼ|·(its wrong part): relative to the column's size Eⱼ, and 0 in no row.
        if row_wrong.iter().any(|&w| w > 0.0) {
            for (j, &e) in col_size.iter().enumerate() {
                for (i, v) in model.a.col(j).filter(|&(i, _)| row_wrong[i] > 0.0) {
                    dual = dual.max(ratio(v.abs() * row_wrong[i], e));
                }
            }
        }
        let mut v = Verification {
            objective,
            dual_objective,
            primal_residual: primal,
            bound_violation: bound_effects(model, &moved, &row_size, scale, x),
            dual_residual: dual,
            complementarity: ratio(compl, scale),
            gap: ratio((objective - dual_objective).abs(), scale),
            objective_scale: scale,
            tolerance: VERIFY_FACTOR * tol,
            accuracy: Accuracy::Failed,
        };
        v.accuracy = Accuracy::grade(v.worst(), v.tolerance);
        v
    }
}

/// [`verify_point`] on a model that passed validation and a point of its size.
pub(crate) fn verify_valid(model: &LpModel, x: &[f64], y: &[f64], tol: f64) -> Verification {
    Checker::new(model).verify(x, y, tol)
}

/// The bound-violation measure of the columns `moved` ((j, δⱼ) outside their bounds by δⱼ):
/// what moving each into its bounds does to the rows it is in (relative to Dᵢ and the change)
/// and to the objective (relative to G and the change); a column that touches neither is
/// measured against its own size.
fn bound_effects(model: &LpModel, moved: &[(usize, f64)], row_scale: &[f64], scale: f64, x: &[f64]) -> f64 {
    let mut worst = 0.0f64;
    for &(j, d) in moved {
        let cost = (model.c[j] * d).abs();
        let mut effect = ratio(cost, scale + cost);
        let mut touches = cost > 0.0;
        for (i, v) in model.a.col(j).filter(|&(_, v)| v != 0.0) {
            let change = (v * d).abs();
            effect = effect.max(ratio(change, row_scale[i] + change));
            touches = true;
        }
        if !touches {
            let bound = if x[j] < model.col_lower[j] { model.col_lower[j] } else { model.col_upper[j] };
            effect = ratio(d, x[j].abs() + bound.abs() + d);
        }
        worst = worst.max(if d.is_finite() { effect } else { f64::INFINITY });
    }
    worst
}
