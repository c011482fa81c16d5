//! The units a model is measured in: one power of two per row (R), per column (C) and for the
//! cost (γ), from the model alone, so that the same problem written in grams or tonnes, in
//! dollars or in millions of dollars, is solved and judged the same way.
//!
//! * R and C are Ruiz's equilibration (Ruiz 2001) of A over the rows that constrain something
//!   (free rows are left out) and the columns that are not fixed: up to [`RUIZ_PASSES`] rounds
//!   of dividing every row and column by the square root of its max-norm, each factor rounded
//!   to the nearest power of two, until the row and the column max-norms each lie within a
//!   factor [`RUIZ_SPREAD`] of one another. A row's slack (see `standard_form`) is not part of
//!   A here: it takes the factor 1/Rᵢ, so that it follows its row wherever the row is scaled
//!   (with the slack's −1 counted, a row of tiny coefficients had max-norm 1 and stayed tiny).
//! * γ makes the largest |Cⱼ·cⱼ| lie in [2^-½, 2^½).
//!
//! Being powers of two, the factors are undone exactly: x = C·x̄, y = R·ȳ/γ. The solver runs on
//! the scaled standard form; the independent check ([`crate::lp::verify`]) measures the answer
//! on the original model in the model's own numbers, without them.

use crate::lp::model::LpModel;
use rayon::prelude::*;
use std::ops::Range;

/// Ruiz equilibration stops when max/min of the row (and of the column) max-norms is below this.
pub const RUIZ_SPREAD: f64 = 4.0;

/// Rounds of Ruiz equilibration at most (a row or column of another order of magnitude needs
/// about log₂(log₂ of it) rounds: 10¹² is balanced to within [`RUIZ_SPREAD`] in six).
pub const RUIZ_PASSES: usize = 10;

/// Ruiz factors are clamped to [1/`RUIZ_CLAMP`, `RUIZ_CLAMP`] (cumulatively, per row and
/// column): 2^±64, far beyond what units do to a model (10^±12 on a row and on a column needs
/// 2^±40 each), but finite, so that a row of entries near the underflow threshold does not
/// carry its right-hand side past f64's range.
pub const RUIZ_CLAMP: f64 = 18446744073709551616.0;

/// The units of a model (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Units {
    /// Rᵢ per model row (1 for free rows).
    pub row: Vec<f64>,
    /// Cⱼ per model column (1 for fixed columns and columns without entries).
    pub col: Vec<f64>,
    /// γ: the cost in these units is γ·C·c.
    pub cost: f64,
}

/// The power of two nearest to `v` (by its exponent: within a factor √2), for finite v > 0.
pub fn power_of_two_near(v: f64) -> f64 {
    let e = v.log2().round().clamp(-1000.0, 1000.0) as i32;
    2f64.powi(e)
}

/// max/min of the positive entries of `v` (1 when there are none).
fn spread(v: &[f64]) -> f64 {
    let (lo, hi) = v.iter().filter(|&&x| x > 0.0).fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    if hi > 0.0 {
        hi / lo
    } else {
        1.0
    }
}

/// Contiguous ranges of 0..n, one per rayon thread.
fn thread_ranges(n: usize) -> Vec<Range<usize>> {
    let t = rayon::current_num_threads().clamp(1, n.max(1));
    (0..t).map(|k| k * n / t..(k + 1) * n / t).collect()
}

impl Units {
    /// Units that change nothing.
    pub fn identity(model: &LpModel) -> Self {
        Self { row: vec![1.0; model.num_rows()], col: vec![1.0; model.num_cols()], cost: 1.0 }
    }

    /// The units of `model` (a valid one: [`LpModel::validate`]).
    pub fn of(model: &LpModel) -> Self {
        let mut u = Self::identity(model);
        let rows: Vec<bool> = (0..model.num_rows())
            .map(|i| model.row_lower[i] > f64::NEG_INFINITY || model.row_upper[i] < f64::INFINITY)
            .collect();
        let cols: Vec<bool> = (0..model.num_cols()).map(|j| model.col_lower[j] != model.col_upper[j]).collect();
        for _ in 0..RUIZ_PASSES {
            let (rmax, cmax) = u.max_norms(model, &rows, &cols);
            if spread(&rmax) <= RUIZ_SPREAD && spread(&cmax) <= RUIZ_SPREAD {
                break;
            }
            let step = |acc: &mut f64, v: f64| {
                if v > 0.0 && v.is_finite() {
                    *acc = (*acc * power_of_two_near(1.0 / v.sqrt())).clamp(1.0 / RUIZ_CLAMP, RUIZ_CLAMP);
                }
            };
            for (r, v) in u.row.iter_mut().zip(rmax) {
                step(r, v);
            }
            for (c, v) in u.col.iter_mut().zip(cmax) {
                step(c, v);
            }
        }
        u.set_gauge(model, &rows, &cols);
        let c_max =
            (0..model.num_cols()).filter(|&j| cols[j]).map(|j| (u.col[j] * model.c[j]).abs()).fold(0.0, f64::max);
        if c_max > 0.0 && c_max.is_finite() {
            u.cost = power_of_two_near(1.0 / c_max);
        }
        u
    }

    /// Fixes the one freedom equilibration leaves: R·t and C/t give the same R·A·C for any t,
    /// but measure x (x̄ = x/C) and the bounds in units t times larger. t is the power of two
    /// that brings the geometric mean of the nonzero finite bounds in these units — Rᵢ·(row
    /// bounds) and (column bounds)/Cⱼ of the rows and columns that take part — to about 1, so
    /// that x̄ is of the size 1 that the measures' "1 +" take as their unit (without it, a row and
    /// a column of other units could leave every bound at 1e-5 and make the checks absolute).
    /// A geometric mean, not the largest: a bound of 1e10 written for "no bound" moves t by a
    /// factor 10^(10/count) only. Without any nonzero finite bound, t = 1.
    fn set_gauge(&mut self, model: &LpModel, rows: &[bool], cols: &[bool]) {
        let (mut log_sum, mut count) = (0.0f64, 0usize);
        let mut add = |v: f64| {
            if v.is_finite() && v != 0.0 {
                log_sum += v.abs().log2();
                count += 1;
            }
        };
        for i in (0..model.num_rows()).filter(|&i| rows[i]) {
            add(self.row[i] * model.row_lower[i]);
            add(self.row[i] * model.row_upper[i]);
        }
        for j in (0..model.num_cols()).filter(|&j| cols[j]) {
            add(model.col_lower[j] / self.col[j]);
            add(model.col_upper[j] / self.col[j]);
        }
        if count == 0 {
            return;
        }
        let t = 2f64.powi((-log_sum / count as f64).round().clamp(-1000.0, 1000.0) as i32);
        self.row.iter_mut().for_each(|r| *r *= t);
        self.col.iter_mut().for_each(|c| *c /= t);
    }

    /// The max-norm of every row and column of R·A·C over the rows and columns that take part
    /// (0 for the others), one range of columns per thread (row maxima merged at the end: a
    /// maximum, so the result does not depend on how the columns were shared).
    fn max_norms(&self, model: &LpModel, rows: &[bool], cols: &[bool]) -> (Vec<f64>, Vec<f64>) {
        let (m, n) = (model.num_rows(), model.num_cols());
        let a = &model.a;
        let parts: Vec<(Vec<f64>, Vec<f64>)> = thread_ranges(n)
            .into_par_iter()
            .map(|range| {
                let mut rmax = vec![0.0f64; m];
                let cmax = range
                    .map(|j| {
                        if !cols[j] {
                            return 0.0;
                        }
                        let (cj, mut col_max) = (self.col[j], 0.0f64);
                        let r = a.col_ptr[j]..a.col_ptr[j + 1];
                        for (&i, &v) in a.row_idx[r.clone()].iter().zip(&a.values[r]) {
                            if rows[i] {
                                let v = (self.row[i] * v * cj).abs();
                                rmax[i] = rmax[i].max(v);
                                col_max = col_max.max(v);
                            }
                        }
                        col_max
                    })
                    .collect::<Vec<f64>>();
                (rmax, cmax)
            })
            .collect();
        let mut rmax = vec![0.0f64; m];
        let mut cmax = Vec::with_capacity(n);
        for (r, c) in parts {
            for (p, q) in rmax.iter_mut().zip(r) {
                *p = p.max(q);
            }
            cmax.extend(c);
        }
        (rmax, cmax)
    }

    /// The denominators of the loop's own relative measures (`StandardForm::measure_weights`),
    /// in these units: 1 + the largest finite |Rᵢ·row bound|, 1 + the largest finite
    /// |column bound / Cⱼ|, 1 + γ·max |Cⱼ·cⱼ|. The check on the original model uses none of
    /// them (`lp::verify`).
    pub fn measure_scales(&self, model: &LpModel) -> (f64, f64, f64) {
        let finite = |v: f64| if v.is_finite() { v.abs() } else { 0.0 };
        let rows = (0..model.num_rows())
            .map(|i| self.row[i] * finite(model.row_lower[i]).max(finite(model.row_upper[i])))
            .fold(0.0, f64::max);
        let cols = (0..model.num_cols())
            .map(|j| finite(model.col_lower[j]).max(finite(model.col_upper[j])) / self.col[j])
            .fold(0.0, f64::max);
        let cost = (0..model.num_cols()).map(|j| self.cost * (self.col[j] * model.c[j]).abs()).fold(0.0, f64::max);
        (1.0 + rows, 1.0 + cols, 1.0 + cost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lp::SparseColMatrix;

    #[test]
    fn powers_of_two_are_the_nearest_by_exponent() {
        assert_eq!(power_of_two_near(1.0), 1.0);
        assert_eq!(power_of_two_near(1.4), 1.0);
        assert_eq!(power_of_two_near(1.5), 2.0);
        assert_eq!(power_of_two_near(1e-6), 2f64.powi(-20));
        assert_eq!(power_of_two_near(3e-5), 2f64.powi(-15));
    }

    #[test]
    fn a_row_in_small_units_is_scaled_up_and_the_cost_to_one() {
        // max 3e-5·x + 2e-5·y s.t. 1e-6·x + 1e-6·y ≤ 4e-6, x + 3y ≤ 6.
        let a = SparseColMatrix::from_triplets(2, 2, &[(0, 0, 1e-6), (0, 1, 1e-6), (1, 0, 1.0), (1, 1, 3.0)]).unwrap();
        let model = LpModel::builder(a).maximize([3e-5, 2e-5]).rows_at_most([4e-6, 6.0]).build().unwrap();
        let u = Units::of(&model);
        // Row 0 ends within a factor RUIZ_SPREAD of row 1 (its entries 2^20 times larger).
        let norm =
            |i: usize| (0..2).map(|j| (u.row[i] * model.a.to_dense()[(i, j)] * u.col[j]).abs()).fold(0.0, f64::max);
        assert!(norm(0) / norm(1) <= RUIZ_SPREAD && norm(1) / norm(0) <= RUIZ_SPREAD, "{u:?}");
        let c_max = (0..2).map(|j| (u.cost * u.col[j] * model.c[j]).abs()).fold(0.0, f64::max);
        assert!((0.5f64.sqrt()..2f64.sqrt()).contains(&c_max), "{u:?}");
        for f in u.row.iter().chain(&u.col).chain([&u.cost]) {
            assert_eq!(power_of_two_near(*f), *f, "{f} is a power of two");
        }
    }
}
