//! Certificates re-checked with arithmetic of the tests' own over the original model (not the
//! crate's `lp::verify`): a Farkas ray y or a primal ray r is turned into its proof here, and
//! the proof's inequality is required to hold beyond the rounding of computing it.
#![allow(dead_code)]

use glsolve::lp::{LpModel, Sense};

/// The tolerance the solver's certificates are decided at (`Settings::infeasibility_tolerance`'s
/// default), stated here and not read from the solution.
pub const TOL: f64 = 1e-8;
const UD: f64 = f64::EPSILON / 2.0;

/// A certificate's proof: `gain` > 0 is what the inequality proves by, `ratio` the better of its
/// two readings of the terms that would need an infinite bound (weighed by the natural size they
/// concern, or componentwise, each over the gain, as `lp::verify::rays` states), `rounding` a
/// bound on the error of `gain`.
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

/// The natural sizes of the columns and rows as `lp::verify` states them (X̂ⱼ: the largest
/// finite bound of column j, else filled from its rows as Ŝₖ/|aₖⱼ|; Ŝᵢ: the largest finite bound
/// of row i, else filled from its columns as |aᵢⱼ|·X̂ⱼ; filled sweep after sweep), here on the
/// dense matrix.
pub fn natural_sizes(model: &LpModel) -> (Vec<f64>, Vec<f64>) {
    let d = model.a.to_dense();
    let (m, n) = (d.nrows(), d.ncols());
    let bound = |lo: f64, up: f64| max_finite([lo, up].into_iter());
    let mut col: Vec<f64> = (0..n).map(|j| bound(model.col_lower[j], model.col_upper[j])).collect();
    let mut row: Vec<f64> = (0..m).map(|i| bound(model.row_lower[i], model.row_upper[i])).collect();
    for _ in 0..64 {
        let (old_col, old_row) = (col.clone(), row.clone());
        for j in 0..n {
            if old_col[j] == 0.0 {
                col[j] = (0..m).filter(|&i| d[(i, j)] != 0.0).map(|i| old_row[i] / d[(i, j)].abs()).fold(0.0, f64::max);
            }
        }
        for i in 0..m {
            if old_row[i] == 0.0 {
                row[i] = (0..n).filter(|&j| d[(i, j)] != 0.0).map(|j| d[(i, j)].abs() * old_col[j]).fold(0.0, f64::max);
            }
        }
        if col == old_col && row == old_row {
            break;
        }
    }
    (col, row)
}

/// w·size, infinite for a nonzero w on something of no natural size.
fn weighed(w: f64, size: f64) -> f64 {
    match (w == 0.0, size > 0.0) {
        (true, _) => 0.0,
        (false, true) => w * size,
        (false, false) => f64::INFINITY,
    }
}

/// Farkas: for every x in the column box, yᵀAx = dᵀx ≤ Σⱼ max(dⱼlⱼ, dⱼuⱼ) with d = Aᵀy; for every
/// row activity in the row box, yᵀ(Ax) ≥ Σᵢ min(yᵢlᵢ, yᵢuᵢ). The row lower sum exceeding the
/// column upper sum proves infeasibility. Each sum of k terms errs by at most γ_k·Σ|terms|.
pub fn farkas(model: &LpModel, y: &[f64]) -> Proof {
    let a = &model.a;
    let (col_size, row_size) = natural_sizes(model);
    let (mut lower, mut upper, mut abs, mut wrong) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    // The componentwise reading: each wrong part over Σᵢ|aᵢⱼyᵢ| of its column (for a wrong row,
    // each of its terms over its columns' sums), and the gain over Σ|terms of L and U|.
    let (mut relative, mut terms_size) = (0.0f64, 0.0f64);
    let wrong_row = |i: usize| {
        let yi = y[i];
        (yi > 0.0 && !model.row_lower[i].is_finite()) || (yi < 0.0 && !model.row_upper[i].is_finite())
    };
    for (i, &yi) in y.iter().enumerate() {
        let bound = if yi > 0.0 { model.row_lower[i] } else { model.row_upper[i] };
        if yi == 0.0 {
            continue;
        }
        if bound.is_finite() {
            lower += yi * bound;
            abs += (yi * bound).abs();
            terms_size += (yi * bound).abs();
        } else {
            wrong = wrong.max(weighed(yi.abs(), row_size[i]));
        }
    }
    let mut terms = y.len();
    for (j, &size) in col_size.iter().enumerate().take(a.ncols) {
        let (mut dj, mut dabs) = (0.0, 0.0);
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            dj += a.values[p] * y[a.row_idx[p]];
            dabs += (a.values[p] * y[a.row_idx[p]]).abs();
        }
        terms += a.col_ptr[j + 1] - a.col_ptr[j] + 1;
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            if wrong_row(a.row_idx[p]) {
                relative = relative.max((a.values[p] * y[a.row_idx[p]]).abs() / dabs);
            }
        }
        if dj == 0.0 {
            continue;
        }
        let bound = if dj > 0.0 { model.col_upper[j] } else { model.col_lower[j] };
        if bound.is_finite() {
            upper += dj * bound;
            abs += dabs * bound.abs();
            terms_size += (dj * bound).abs();
        } else {
            wrong = wrong.max(weighed(dj.abs(), size));
            relative = relative.max(dj.abs() / dabs);
        }
    }
    let gain = lower - upper;
    let ratio = (wrong / gain).min(relative / (gain / terms_size));
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
    // Each move over the natural size of what moves; the gain over the objective's, Σ|cⱼ|·X̂ⱼ.
    let (col_size, row_size) = natural_sizes(model);
    let relative = |w: f64, size: f64| weighed(w, if size > 0.0 { 1.0 / size } else { 0.0 });
    let row = (0..a.nrows)
        .map(|i| relative(towards(ar[i], model.row_lower[i], model.row_upper[i]), row_size[i]))
        .fold(0.0, f64::max);
    let col = (0..a.ncols)
        .map(|j| relative(towards(r[j], model.col_lower[j], model.col_upper[j]), col_size[j]))
        .fold(0.0, f64::max);
    let sigma = if model.sense == Sense::Maximize { -1.0 } else { 1.0 };
    let gain = -sigma * model.c.iter().zip(r).map(|(c, x)| c * x).sum::<f64>();
    let abs: f64 = model.c.iter().zip(r).map(|(c, x)| (c * x).abs()).sum();
    let n = r.len() as f64;
    let objective_size: f64 = model.c.iter().zip(&col_size).map(|(c, s)| c.abs() * s).sum();
    // The componentwise reading: each row's move over Σⱼ|aᵢⱼrⱼ|, a wrong column's terms over its
    // rows' sums and its cost term over Σ|cⱼrⱼ|; the gain over Σ|cⱼrⱼ|.
    let mut ar_abs = vec![0.0; a.nrows];
    for j in 0..a.ncols {
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            ar_abs[a.row_idx[p]] += (a.values[p] * r[j]).abs();
        }
    }
    let share = |v: f64, s: f64| if v == 0.0 { 0.0 } else { v / s };
    let mut relative = (0..a.nrows)
        .map(|i| share(towards(ar[i], model.row_lower[i], model.row_upper[i]), ar_abs[i]))
        .fold(0.0, f64::max);
    for j in (0..a.ncols).filter(|&j| towards(r[j], model.col_lower[j], model.col_upper[j]) > 0.0) {
        let mut effect = share((model.c[j] * r[j]).abs(), abs);
        for p in a.col_ptr[j]..a.col_ptr[j + 1] {
            effect = effect.max(share((a.values[p] * r[j]).abs(), ar_abs[a.row_idx[p]]));
        }
        relative = relative.max(if effect > 0.0 { effect } else { 1.0 });
    }
    let ratio = (row.max(col) / (gain / objective_size)).min(relative / (gain / abs));
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
