//! The natural sizes of a model's columns, rows and duals, from its data alone: what the check
//! measures a ray against (a ray has no point to be relative to), and what holds a point's
//! values in the objective scale's floor, so that a point far out along a ray of the primal
//! (x₁ ≈ x₂ ≈ 10⁸) or of the dual optimal set (dfl001's row duals of 3·10¹¹) does not make the
//! objective's size, and with it the gap's denominator, as large as itself.
//!
//! * X̂ⱼ (a column's value): its largest finite bound; else the largest Ŝₖ / |aₖⱼ| over its
//!   rows k of known size — the value at which xⱼ alone fills such a row;
//! * Ŝᵢ (a row's activity): its largest finite bound; else the largest |aᵢⱼ|·X̂ⱼ over its
//!   columns of known size;
//! * Ĉⱼ (a column's cost): |cⱼ|; else the largest |aᵢⱼ|·Ŷᵢ over its rows of known dual size;
//! * Ŷᵢ (a row's dual): the largest Ĉⱼ / |aᵢⱼ| over its columns of known cost — the dual at
//!   which the row alone pays such a column's cost.
//!
//! A size the data give directly is kept; the others are filled from neighbours, round after
//! round, until nothing changes (sizes are only filled, never grown, so that a chain of rows
//! cannot inflate them). Each follows any change of the units of its row, column or cost, so
//! that measures taken against them are unit-free. A size of 0 means the data give none (a
//! part of the model with no bound, or no cost, anywhere).

use crate::lp::model::LpModel;

/// See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct NaturalSizes {
    /// X̂ⱼ per column.
    pub col: Vec<f64>,
    /// Ŝᵢ per row.
    pub row: Vec<f64>,
    /// Ŷᵢ per row.
    pub dual: Vec<f64>,
    /// Ĉⱼ per column.
    pub cost: Vec<f64>,
    /// Σⱼ |cⱼ|·Rⱼ, Rⱼ the smallest nonzero size the data give column j directly — a finite
    /// bound, or |bound|/|aᵢⱼ| of a row it is in: how far the objective reaches within the
    /// model's tightest stated limits. The objective's size where the point's own terms vanish
    /// (an optimum at x = 0, y = 0, which no relative measure of the point can resolve).
    pub objective_reach: f64,
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v.abs()
    } else {
        0.0
    }
}

impl NaturalSizes {
    /// The sizes of a validated `model`.
    pub fn of(model: &LpModel) -> Self {
        let (m, n) = (model.num_rows(), model.num_cols());
        let mut row: Vec<f64> = (0..m).map(|i| finite(model.row_lower[i]).max(finite(model.row_upper[i]))).collect();
        let mut col: Vec<f64> = (0..n).map(|j| finite(model.col_lower[j]).max(finite(model.col_upper[j]))).collect();
        let objective_reach = objective_reach(model, &row);
        fill(model, &mut col, &mut row, |size, a| size / a, |size, a| size * a);
        // Duals: a row's from its columns' costs, an unknown cost from its rows' duals.
        let mut cost: Vec<f64> = model.c.iter().map(|&c| finite(c)).collect();
        let mut dual = vec![0.0f64; m];
        fill(model, &mut cost, &mut dual, |size, a| size * a, |size, a| size / a);
        Self { col, row, dual, cost, objective_reach }
    }
}

/// [`NaturalSizes::objective_reach`] from the rows' sizes the data give (`rows`, before any fill).
fn objective_reach(model: &LpModel, rows: &[f64]) -> f64 {
    let smallest = |a: f64, b: f64| if a > 0.0 && (b == 0.0 || a < b) { a } else { b };
    (0..model.num_cols())
        .map(|j| {
            let (lo, up) = (finite(model.col_lower[j]), finite(model.col_upper[j]));
            let mut reach = smallest(lo, smallest(up, 0.0));
            for (i, v) in model.a.col(j).filter(|&(_, v)| v != 0.0 && v.is_finite()) {
                reach = smallest(rows[i] / v.abs(), reach);
            }
            finite(model.c[j]) * if reach.is_finite() { reach } else { 0.0 }
        })
        .sum()
}

/// Sweeps of [`fill`] at most: each reaches one row or column further from the known sizes; what
/// lies further still (a chain of rows without bounds this long) keeps no size.
const FILL_SWEEPS: usize = 64;

/// Fills the unknown (zero) entries of `cols` and `rows` from their known neighbours until
/// nothing changes: an unknown column takes the largest `from_row(row size, |aᵢⱼ|)` over its
/// rows of known size, an unknown row the largest `from_col(column size, |aᵢⱼ|)` over its
/// columns; the sizes found in one sweep are known in the next.
fn fill(
    model: &LpModel,
    cols: &mut [f64],
    rows: &mut [f64],
    from_row: impl Fn(f64, f64) -> f64,
    from_col: impl Fn(f64, f64) -> f64,
) {
    for _ in 0..FILL_SWEEPS {
        let mut changed = false;
        let mut found = vec![0.0f64; rows.len()];
        for (j, cj) in cols.iter_mut().enumerate() {
            let mut col_found = 0.0f64;
            for (i, v) in model.a.col(j).filter(|&(_, v)| v != 0.0 && v.is_finite()) {
                let a = v.abs();
                if rows[i] == 0.0 && *cj > 0.0 {
                    found[i] = found[i].max(from_col(*cj, a));
                }
                if *cj == 0.0 && rows[i] > 0.0 {
                    col_found = col_found.max(from_row(rows[i], a));
                }
            }
            if col_found > 0.0 && col_found.is_finite() {
                *cj = col_found;
                changed = true;
            }
        }
        for (r, f) in rows.iter_mut().zip(found) {
            if *r == 0.0 && f > 0.0 && f.is_finite() {
                *r = f;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// |v| capped at `size` where the data give one (> 0).
pub(super) fn capped(v: f64, size: f64) -> f64 {
    if size > 0.0 {
        v.abs().min(size)
    } else {
        v.abs()
    }
}
