//! Certificates re-checked with arithmetic of the tests' own over the original model (not the
//! crate's `lp::verify`): a Farkas ray y or a primal ray r is turned into its proof here, and
//! the proof's inequality is required to hold beyond the rounding of computing it.
#![allow(dead_code)]

use glsolve::lp::{LpModel, Sense};

/// The tolerance the solver's certificates are decided at (`Settings::infeasibility_tolerance`'s
/// default), stated here and not read from the solution.
pub const TOL: f64 = 1e-8;
const UD: f64 = f64::EPSILON / 2.0;

/// A certificate's proof: `gain` > 0 is what the inequality proves by, `violation` the largest
/// term that would need an infinite bound (scaled as the module doc of `lp::verify` states, so
/// that `ratio` is comparable to a tolerance), `rounding` a bound on the error of `gain`.
#[derive(Debug)]
pub struct Proof {
    pub gain: f64,
    pub ratio: f64,
    pub rounding: f64,
}

impl Proof {
    /// A proof at tolerance `tol`: it gains by more than its own rounding and its infinite-bound
    /// terms are within `tol` relative to the gain.
    pub fn holds(&self, tol: f64) -> bool {
        self.gain > self.rounding && self.ratio <= tol
    }
}

fn max_finite(v: impl Iterator<Item = f64>) -> f64 {
    v.filter(|x| x.is_finite()).fold(0.0, |m, x| m.max(x.abs()))
}

fn a_max(model: &LpModel) -> f64 {
    model.a.values.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Farkas: for every x in the column box, yᵀAx = dᵀx ≤ Σⱼ max(dⱼlⱼ, dⱼuⱼ) with d = Aᵀy; for every
/// row activity in the row box, yᵀ(Ax) ≥ Σᵢ min(yᵢlᵢ, yᵢuᵢ). The row lower sum exceeding the
/// column upper sum proves infeasibility. Each sum of k terms errs by at most γ_k·Σ|terms|.
pub fn farkas(model: &LpModel, y: &[f64]) -> Proof {
    let a = &model.a;
    let (mut lower, mut upper, mut abs, mut wrong) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (i, &yi) in y.iter().enumerate() {
        let bound = if yi > 0.0 { model.row_lower[i] } else { model.row_upper[i] };
        if yi == 0.0 {
            continue;
        }
        if bound.is_finite() {
            lower += yi * bound;
            abs += (yi * bound).abs();
        } else {
            wrong = wrong.max(yi.abs());
        }
    }
    let mut terms = y.len();
    for j in 0..a.ncols {
        let (mut dj, mut dabs) = (0.0, 0.0);
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            dj += a.values[p] * y[a.row_idx[p]];
            dabs += (a.values[p] * y[a.row_idx[p]]).abs();
        }
        terms += a.col_ptr[j + 1] - a.col_ptr[j] + 1;
        if dj == 0.0 {
            continue;
        }
        let bound = if dj > 0.0 { model.col_upper[j] } else { model.col_lower[j] };
        if bound.is_finite() {
            upper += dj * bound;
            abs += dabs * bound.abs();
        } else {
            wrong = wrong.max(dj.abs());
        }
    }
    let gain = lower - upper;
    let b_scale = 1.0
        + max_finite(
            model.row_lower.iter().chain(&model.row_upper).chain(&model.col_lower).chain(&model.col_upper).copied(),
        );
    let ratio = (wrong / (1.0 + a_max(model))) / (gain / b_scale);
    let rounding = terms as f64 * UD / (1.0 - terms as f64 * UD) * abs;
    Proof { gain, ratio: if gain > 0.0 { ratio } else { f64::INFINITY }, rounding }
}

/// Primal ray: no row moves towards a finite row bound, no column towards a finite column
/// bound, and the objective improves, −σ·cᵀr > 0.
#[allow(clippy::needless_range_loop)]
pub fn primal_ray(model: &LpModel, r: &[f64]) -> Proof {
    let a = &model.a;
    let mut ar = vec![0.0; a.nrows];
    for j in 0..a.ncols {
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            ar[a.row_idx[p]] += a.values[p] * r[j];
        }
    }
    let towards = |v: f64, lo: f64, up: f64| {
        let up = if up.is_finite() { v.max(0.0) } else { 0.0 };
        let lo = if lo.is_finite() { (-v).max(0.0) } else { 0.0 };
        up.max(lo)
    };
    let row = (0..a.nrows).map(|i| towards(ar[i], model.row_lower[i], model.row_upper[i])).fold(0.0, f64::max);
    let col = (0..a.ncols).map(|j| towards(r[j], model.col_lower[j], model.col_upper[j])).fold(0.0, f64::max);
    let sigma = if model.sense == Sense::Maximize { -1.0 } else { 1.0 };
    let gain = -sigma * model.c.iter().zip(r).map(|(c, x)| c * x).sum::<f64>();
    let abs: f64 = model.c.iter().zip(r).map(|(c, x)| (c * x).abs()).sum();
    let n = r.len() as f64;
    let ratio = (row / (1.0 + a_max(model))).max(col) / (gain / (1.0 + max_finite(model.c.iter().copied())));
    Proof { gain, ratio: if gain > 0.0 { ratio } else { f64::INFINITY }, rounding: n * UD / (1.0 - n * UD) * abs }
}

/// cᵀx + constant in f64 here, with the bound γ_n·Σ|cⱼxⱼ| on its rounding.
pub fn objective(model: &LpModel, x: &[f64]) -> (f64, f64) {
    let v: f64 = model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant;
    let abs: f64 = model.c.iter().zip(x).map(|(c, x)| (c * x).abs()).sum::<f64>() + model.obj_constant.abs();
    let n = x.len() as f64 + 1.0;
    (v, n * UD / (1.0 - n * UD) * abs)
}

/// The largest distance of a row activity or a column value to its box, over 1 + the largest
/// finite bound of the kind (the scale-free measure of `lp::verify`'s module doc).
#[allow(clippy::needless_range_loop)]
pub fn primal_infeasibility(model: &LpModel, x: &[f64]) -> f64 {
    let a = &model.a;
    let mut ax = vec![0.0; a.nrows];
    for j in 0..a.ncols {
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            ax[a.row_idx[p]] += a.values[p] * x[j];
        }
    }
    let dist = |v: f64, lo: f64, up: f64| (lo - v).max(v - up).max(0.0);
    let rows = (0..a.nrows).map(|i| dist(ax[i], model.row_lower[i], model.row_upper[i])).fold(0.0, f64::max);
    let cols = (0..a.ncols).map(|j| dist(x[j], model.col_lower[j], model.col_upper[j])).fold(0.0, f64::max);
    let rs = 1.0 + max_finite(model.row_lower.iter().chain(&model.row_upper).copied());
    let cs = 1.0 + max_finite(model.col_lower.iter().chain(&model.col_upper).copied());
    (rows / rs).max(cols / cs)
}
