//! Maps between the standard form and the original model: points, rays, duals, and the weights
//! that make the loop's termination measures those of the verification on the original model.

use super::{ColumnMap, StandardForm};
use crate::lp::model::LpModel;
use crate::lp::verify::measure_scales;
use faer::Mat;

/// Per-entry weights that turn the loop's residuals on the scaled standard form into bounds on
/// the verification's measures on the original model ([`crate::lp::verify::verify_point`]):
///
/// * row i of the original model is violated by at most |r̄_b,i| / Rᵢ (Ā = R·A·C), and the
///   verification divides row violations by 1 + the largest finite row bound: `primal[i]` =
///   1 / (Rᵢ·(1 + max row bound));
/// * a column's upper bound is violated by at most Cⱼ·|r̄_u,j| (x = C·x̄): `bound[j]` =
///   Cⱼ / (1 + the largest finite bound of its kind: column bounds for model columns, row bounds
///   for slacks), 0 for columns without an upper bound;
/// * a reduced cost of the model is off by r̄_c,j / Cⱼ, over 1 + ‖c‖∞: `dual[j]` = 1 / (Cⱼ·(1 + ‖c‖∞)).
///
/// Without these weights the loop stopped at ‖r̄_b‖∞ ≤ ε·(1 + ‖b̄‖∞) while the verification asked
/// for ε·(1 + max row bound): on grow15 (all row bounds 0, b̄ made of bounds up to 1e6 by the
/// shifts) the loop's "1e-8" was an absolute row violation of 7e-5.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureWeights {
    pub primal: Vec<f64>,
    pub dual: Vec<f64>,
    pub bound: Vec<f64>,
    /// sense·(objective constant of the original model): the original objective in the
    /// minimization sense is c̄ᵀx̄ + this, the scale of the relative gap.
    pub objective_offset: f64,
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
        let (row_scale, col_scale, c_scale) = measure_scales(model);
        let (_, n) = self.dims();
        let mut structural = vec![false; n];
        for map in &self.columns {
            match *map {
                ColumnMap::Single { col, .. } => structural[col] = true,
                ColumnMap::Free { pos, neg } => {
                    structural[pos] = true;
                    structural[neg] = true;
                }
                ColumnMap::Fixed(_) => {}
            }
        }
        let primal = self.row_scale.iter().map(|r| 1.0 / (r * row_scale)).collect();
        let dual = self.col_scale.iter().map(|c| 1.0 / (c * c_scale)).collect();
        let bound = (0..n)
            .map(|j| match (self.upper[j].is_finite(), structural[j]) {
                (false, _) => 0.0,
                (true, true) => self.col_scale[j] / col_scale,
                (true, false) => self.col_scale[j] / row_scale,
            })
            .collect();
        MeasureWeights { primal, dual, bound, objective_offset: self.sense_sign * self.offset }
    }

    /// Original columns from a (scaled) standard-form x̄.
    pub fn original_x(&self, x_scaled: &[f64]) -> Vec<f64> {
        let x = |k: usize| x_scaled.get(k).copied().unwrap_or(0.0) * self.col_scale.get(k).copied().unwrap_or(1.0);
        self.columns
            .iter()
            .map(|map| match *map {
                ColumnMap::Fixed(v) => v,
                ColumnMap::Single { col, offset, sign } => offset + sign * x(col),
                ColumnMap::Free { pos, neg } => x(pos) - x(neg),
            })
            .collect()
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
                ColumnMap::Free { pos, neg } => x(pos) - x(neg),
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

    /// Row duals of the original model (in its own sense) from a scaled λ̄: y = sense·R·λ̄.
    pub fn original_duals(&self, lambda_scaled: &[f64]) -> Vec<f64> {
        self.row_of
            .iter()
            .map(|r| match r {
                Some(i) => self.sense_sign * self.row_scale[*i] * lambda_scaled.get(*i).copied().unwrap_or(0.0),
                None => 0.0,
            })
            .collect()
    }
}
