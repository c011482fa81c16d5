//! The sizes the check's measures are relative to, from the model's numbers at the point:
//! a row's Dᵢ = |its bound| + Σⱼ |aᵢⱼ|·x̃ⱼ and a column's Eⱼ = |cⱼ| + Σᵢ |aᵢⱼ|·ỹᵢ.
//!
//! x̃ⱼ is |xⱼ| held above [`SIZE_FLOOR`] times the size the column has at the point, ỹᵢ the
//! same for the row's dual. The floor keeps a row that forces its columns to zero (b = 0, terms of one sign) from being
//! measured against the very values that should vanish: at x = 5e-14 its violation 5e-14 would
//! be 100 % of Σ|aᵢⱼxⱼ| (modszk1 has such rows); the same holds for a column whose dual
//! constraint forces its rows' duals to zero. The size of column j at the point is the largest
//! of F / E⁰ⱼ — the amount of it whose share of F (the size of the products the objectives are
//! made of, Σⱼ xⱼ·E⁰ⱼ among them) is all of F — and of D⁰ₖ / |aₖⱼ| over its rows, the most of it
//! that any of its rows holds at its own size (the only size a model without cost gives); a row
//! dual's, symmetrically, F / D⁰ᵢ and E⁰ₗ / |aᵢₗ| (the ⁰ sizes are those without the floor).
//!
//! Every one of these follows the units of its row, column and cost, so the measures are free
//! of them.

use crate::lp::model::LpModel;

/// A value below this fraction of its size at the point counts as that size in the
/// denominators.
pub const SIZE_FLOOR: f64 = 1e-6;

/// Dᵢ per row and Eⱼ per column, with the floors.
pub(super) struct Sizes {
    pub row: Vec<f64>,
    pub col: Vec<f64>,
}

/// The sizes at the point (|x|, |y|): `compared` is each row's |bound it is compared with| (0
/// for a free row), `ax_size` = |A|·|x|, `aty_size` = |A|ᵀ·|y|, `products` is F.
pub(super) fn sizes(
    model: &LpModel,
    (x, y): (&[f64], &[f64]),
    compared: &[f64],
    (ax_size, aty_size): (&[f64], &[f64]),
    products: f64,
) -> Sizes {
    let (m, n) = (model.num_rows(), model.num_cols());
    let d0: Vec<f64> = (0..m).map(|i| compared[i] + ax_size[i]).collect();
    let e0: Vec<f64> = (0..n).map(|j| model.c[j].abs() + aty_size[j]).collect();
    let share = |size: f64| if size > 0.0 && products.is_finite() { products / size } else { 0.0 };
    let mut x_floor: Vec<f64> = e0.iter().map(|&e| share(e)).collect();
    let mut y_floor: Vec<f64> = d0.iter().map(|&d| share(d)).collect();
    for (j, xf) in x_floor.iter_mut().enumerate() {
        for (i, v) in model.a.col(j).filter(|&(_, v)| v != 0.0) {
            let a = v.abs();
            *xf = xf.max(d0[i] / a);
            y_floor[i] = y_floor[i].max(e0[j] / a);
        }
    }
    let mut row: Vec<f64> = compared.to_vec();
    let mut col: Vec<f64> = model.c.iter().map(|c| c.abs()).collect();
    for (j, e) in col.iter_mut().enumerate() {
        let xj = x[j].max(SIZE_FLOOR * x_floor[j]);
        for (i, v) in model.a.col(j) {
            let a = v.abs();
            row[i] += a * xj;
            *e += a * y[i].max(SIZE_FLOOR * y_floor[i]);
        }
    }
    Sizes { row, col }
}
