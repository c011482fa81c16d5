//! Maps between the standard form and the original model: points, rays, duals, and the weights
//! of the loop's own measures (its log, its stall and certificate tests) in the model's units.

use super::StandardForm;
use crate::lp::model::LpModel;
use crate::lp::mpc::Iterate;
use faer::Mat;

/// Per-entry weights that put the loop's residuals on the scaled standard form into the model's
/// units (R, C, γ of [`crate::lp::Units`]), relative to the denominators of
/// [`crate::lp::Units::measure_scales`] (B_row, B_col, B_c). They are the loop's own measures:
/// whether a point is optimal only the check on the original model says
/// ([`crate::lp::verify`], consulted every iteration), since "1 +" in these units is one unit of
/// what equilibration chose, not of the model (modszk1's cost gauge made it 3·10⁸ of objective).
///
/// * row i of the original model is violated by at most |r̄_b,i| / R̄ᵢ (Ā = R̄·A·C̄, the standard
///   form's own factors), which the check counts as Rᵢ·|r_b,i| / B_row: `primal[i]` =
///   Rᵢ / (R̄ᵢ·B_row);
/// * a column's upper bound is violated by at most C̄ⱼ·|r̄_u,j| (x = C̄·x̄), counted as
///   that / Cⱼ over B_col (B_row for a row's slack, whose unit is 1/Rᵢ): `bound[j]`, 0 for
///   columns without an upper bound;
/// * a reduced cost of the model is off by r̄_c,j / (γ·C̄ⱼ), counted as γ·Cⱼ·that / B_c:
///   `dual[j]` = Cⱼ / (C̄ⱼ·B_c).
///
/// With equilibration on, R̄ = R and C̄ = C and the weights are the three denominators. Without
/// them the loop's measures were ‖r̄_b‖∞ / (1 + ‖b̄‖∞): on grow15 (all row bounds 0, b̄ made of
/// bounds up to 1e6 by the shifts) its "1e-8" was an absolute row violation of 7e-5.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureWeights {
    pub primal: Vec<f64>,
    pub dual: Vec<f64>,
    pub bound: Vec<f64>,
    /// γ·sense·(objective constant of the original model): the original objective in the
    /// minimization sense, in the model's units, is c̄ᵀx̄ + this, the scale of the relative gap.
    pub objective_offset: f64,
}

/// How an original column is recovered from the standard-form x.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnMap {
    /// x = value (fixed by its bounds or eliminated as an empty column).
    Fixed(f64),
    /// x = offset + sign·x_std\[col\].
    Single { col: usize, offset: f64, sign: f64 },
    /// x = x_std\[col\], a column with no bound.
    Free { col: usize },
    /// x = x_std\[pos\] − x_std\[neg\].
    Split { pos: usize, neg: usize },
}

/// How the standard form writes a free model column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FreeColumns {
    /// One column with no bound ([`StandardForm::free`]).
    #[default]
    Kept,
    /// Two columns x⁺ − x⁻ ≥ 0 ([`StandardForm::free_pairs`]).
    Split,
}

impl StandardForm {
    /// Dense copy of A (m×n), for the backends that keep A dense (the GPU's texture, the dense
    /// CPU path) and for O(m³) diagnostics.
    pub fn dense_a(&self) -> Mat<f64> {
        let (m, n) = self.dims();
        let mut d = Mat::<f64>::zeros(m, n);
        for j in 0..n {
            let col = d.col_as_slice_mut(j);
            for (i, v) in self.a.col(j) {
                col[i] = v;
            }
        }
        d
    }

    /// The weights of [`MeasureWeights`] for this standard form of `model`.
    pub fn measure_weights(&self, model: &LpModel) -> MeasureWeights {
        let units = &self.units;
        let (row_scale, col_scale, c_scale) = units.measure_scales(model);
        let (m, n) = self.dims();
        // Each standard-form column's unit: its model column's Cⱼ, or 1/Rᵢ for a row's slack.
        let mut unit = vec![f64::NAN; n];
        for (j, map) in self.columns.iter().enumerate() {
            match *map {
                ColumnMap::Single { col, .. } | ColumnMap::Free { col } => unit[col] = units.col[j],
                ColumnMap::Split { pos, neg } => (unit[pos], unit[neg]) = (units.col[j], units.col[j]),
                ColumnMap::Fixed(_) => {}
            }
        }
        let mut row_unit = vec![1.0; m];
        for (i, r) in self.row_of.iter().enumerate() {
            if let Some(k) = *r {
                row_unit[k] = units.row[i];
            }
        }
        // Slacks: the only columns no model column maps to (one entry, in their row).
        let structural: Vec<bool> = unit.iter().map(|u| !u.is_nan()).collect();
        for (k, u) in unit.iter_mut().enumerate() {
            if u.is_nan() {
                *u = self.a.col(k).next().map_or(1.0, |(i, _)| 1.0 / row_unit[i]);
            }
        }
        let primal = (0..m).map(|k| row_unit[k] / (self.row_scale[k] * row_scale)).collect();
        let dual = (0..n).map(|k| unit[k] / (self.col_scale[k] * c_scale)).collect();
        let bound = (0..n)
            .map(|k| match self.upper[k].is_finite() {
                false => 0.0,
                true => self.col_scale[k] / unit[k] / if structural[k] { col_scale } else { row_scale },
            })
            .collect();
        let objective_offset = self.cost_scale * self.sense_sign * self.offset;
        MeasureWeights { primal, dual, bound, objective_offset }
    }

    /// Original columns from a (scaled) standard-form x̄.
    pub fn original_x(&self, x_scaled: &[f64]) -> Vec<f64> {
        original_columns(&self.columns, &self.col_scale, x_scaled)
    }

    /// A direction of the original columns from a (scaled) standard-form ray x̄: like
    /// [`StandardForm::original_x`] without the offsets (a ray has no origin); fixed columns do
    /// not move.
    pub fn primal_ray(&self, x_scaled: &[f64]) -> Vec<f64> {
        let x = |k: usize| x_scaled.get(k).copied().unwrap_or(0.0) * self.col_scale.get(k).copied().unwrap_or(1.0);
        self.columns
            .iter()
            .map(|map| match *map {
                ColumnMap::Fixed(_) => 0.0,
                ColumnMap::Single { col, sign, .. } => sign * x(col),
                ColumnMap::Free { col } => x(col),
                ColumnMap::Split { pos, neg } => x(pos) - x(neg),
            })
            .collect()
    }

    /// Farkas multipliers of the original rows from a (scaled) standard-form ray λ̄: y = R·λ̄
    /// (independent of the objective's sense; dropped rows get 0). With Ā = R·A·C,
    /// b̄ᵀλ̄ = bᵀ(R·λ̄) and Āᵀλ̄ = C·Aᵀ(R·λ̄), so the signs of the standard-form test carry over.
    pub fn farkas_ray(&self, lambda_scaled: &[f64]) -> Vec<f64> {
        self.row_of
            .iter()
            .map(|r| match r {
                Some(i) => self.row_scale[*i] * lambda_scaled.get(*i).copied().unwrap_or(0.0),
                None => 0.0,
            })
            .collect()
    }

    /// Gives each equality row of one entry that fixed its column ([`StandardForm::singletons`])
    /// the dual that makes the column's reduced cost zero, yᵢ = (cⱼ − Σₖ aₖⱼyₖ)/aᵢⱼ, in `y`
    /// (the model's row duals, in its sense, with yᵢ = 0 for the dropped row).
    pub fn complete_duals(&self, model: &LpModel, y: &mut [f64]) {
        for &(i, j, a) in &self.singletons {
            let z = model.c[j] - model.a.col(j).map(|(k, v)| v * y.get(k).copied().unwrap_or(0.0)).sum::<f64>();
            if let Some(yi) = y.get_mut(i) {
                *yi += z / a;
            }
        }
    }

    /// Row duals of the original model (in its own sense) from a scaled λ̄: y = sense·R·λ̄/γ.
    pub fn original_duals(&self, lambda_scaled: &[f64]) -> Vec<f64> {
        let to_model = self.sense_sign / self.cost_scale;
        self.row_of
            .iter()
            .map(|r| match r {
                Some(i) => to_model * self.row_scale[*i] * lambda_scaled.get(*i).copied().unwrap_or(0.0),
                None => 0.0,
            })
            .collect()
    }

    /// A Farkas candidate for infeasibility found by stagnation, where the iterate's λ is no ray:
    /// the component of b̄ in the near-null space of Ā·D²·Āᵀ at the final iterate (eigenvalues below
    /// 1e-10 of the largest). Contradictory dependent rows (what the tiny-pivot treatment drops) are
    /// exactly such directions: y with Āᵀy ≈ 0 on the columns that carry weight and b̄ᵀy > 0.
    /// O(m³) on the CPU in double precision, run only after the loop declared infeasibility.
    pub(crate) fn null_space_ray(&self, it: &Iterate) -> Option<Vec<f64>> {
        let (m, n) = self.dims();
        if it.x.len() != n || it.s.len() != n || m == 0 {
            return None;
        }
        // Θ = (S/X + Z/W)⁻¹ (D² = X/S without upper bounds), and 1/ρ_f on free columns, as the
        // loop's normal equations.
        let bounded = it.w.len() == n && it.z.len() == n;
        let mut d2: Vec<f64> = (0..n)
            .map(|j| {
                let inv = it.s[j] / it.x[j] + if bounded { it.z[j] / it.w[j] } else { 0.0 };
                1.0 / inv
            })
            .collect();
        if !self.free.is_empty() {
            let mut free = vec![false; n];
            self.free.iter().filter(|&&j| j < n).for_each(|&j| free[j] = true);
            let xs: f64 = (0..n).filter(|&j| !free[j]).map(|j| it.x[j] * it.s[j]).sum::<f64>()
                + if bounded { (0..n).map(|j| it.w[j] * it.z[j]).sum::<f64>() } else { 0.0 };
            let pairs = n - self.free.len() + if bounded { self.upper.iter().filter(|u| u.is_finite()).count() } else { 0 };
            let rho = crate::lp::mpc::free_regularization(xs / pairs.max(1) as f64);
            self.free.iter().filter(|&&j| j < n).for_each(|&j| d2[j] = 1.0 / rho);
        }
        let mut ad = self.dense_a();
        for (j, d) in d2.iter().enumerate() {
            let w = d.sqrt();
            for v in ad.col_as_slice_mut(j) {
                *v *= w;
            }
        }
        let normal = &ad * ad.transpose();
        let evd = normal.self_adjoint_eigen(faer::Side::Lower).ok()?;
        let (u, s) = (evd.U(), evd.S());
        let top = (0..m).map(|k| s[k].abs()).fold(0.0, f64::max);
        let mut y = vec![0.0; m];
        for k in (0..m).filter(|&k| s[k].abs() <= 1e-10 * top) {
            let proj: f64 = (0..m).map(|i| u[(i, k)] * self.b[i]).sum();
            for (i, yi) in y.iter_mut().enumerate() {
                *yi += proj * u[(i, k)];
            }
        }
        y.iter().any(|v| *v != 0.0).then_some(y)
    }
}

/// [`StandardForm::original_x`] from the two parts of the standard form it reads (the solver's
/// progress records map every iterate with a copy of just these).
pub fn original_columns(columns: &[ColumnMap], col_scale: &[f64], x_scaled: &[f64]) -> Vec<f64> {
    let x = |k: usize| x_scaled.get(k).copied().unwrap_or(0.0) * col_scale.get(k).copied().unwrap_or(1.0);
    columns
        .iter()
        .map(|map| match *map {
            ColumnMap::Fixed(v) => v,
            ColumnMap::Single { col, offset, sign } => offset + sign * x(col),
            ColumnMap::Free { col } => x(col),
            ColumnMap::Split { pos, neg } => x(pos) - x(neg),
        })
        .collect()
}

impl StandardForm {
    /// (m, n): rows and columns of A.
    pub fn dims(&self) -> (usize, usize) {
        (self.a.nrows, self.a.ncols)
    }

    /// Whether any column has a finite upper bound.
    pub fn has_upper_bounds(&self) -> bool {
        self.upper.iter().any(|u| u.is_finite())
    }
}
