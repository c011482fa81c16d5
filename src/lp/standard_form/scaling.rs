//! Ruiz equilibration of the standard form, on A's nonzeros.

use super::StandardForm;

/// Ruiz equilibration stops when max/min of the row (and of the column) max-norms is below this.
pub const RUIZ_SPREAD: f64 = 4.0;

/// Ruiz factors are clamped to [1/`RUIZ_CLAMP`, `RUIZ_CLAMP`] (cumulatively, per row and
/// column): an empty-ish row or a column of tiny entries would otherwise get a factor so large
/// that unscaling magnifies its residual past what verification on the original model accepts
/// (2^±40: wide enough to leave every NETLIB problem's factors untouched).
pub const RUIZ_CLAMP: f64 = 1099511627776.0;

/// max/min of the positive entries of `v` (1 when there are none).
fn spread(v: &[f64]) -> f64 {
    let (lo, hi) = v.iter().filter(|&&x| x > 0.0).fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    if hi > 0.0 {
        hi / lo
    } else {
        1.0
    }
}

impl StandardForm {
    /// Ruiz equilibration: up to `passes` rounds of dividing every row and column by the square
    /// root of its max-norm; converges to max-norms of 1 (Ruiz 2001). Stops as soon as the row
    /// and the column max-norms each lie within a factor [`RUIZ_SPREAD`] of one another: then
    /// further passes change the conditioning of A·D²·Aᵀ by at most a small constant (data that
    /// is already balanced, like the random family, costs one pass).
    pub(super) fn equilibrate(&mut self, passes: usize) {
        let (m, n) = self.dims();
        for _ in 0..passes {
            let mut rmax = vec![0.0f64; m];
            let mut cmax = vec![0.0f64; n];
            for (j, cm) in cmax.iter_mut().enumerate() {
                let r = self.a.col_ptr[j]..self.a.col_ptr[j + 1];
                // A local maximum: updating *cm per entry is a chain through memory.
                let mut col_max = 0.0f64;
                for (&i, &v) in self.a.row_idx[r.clone()].iter().zip(&self.a.values[r]) {
                    let v = v.abs();
                    rmax[i] = rmax[i].max(v);
                    col_max = col_max.max(v);
                }
                *cm = col_max;
            }
            if spread(&rmax) <= RUIZ_SPREAD && spread(&cmax) <= RUIZ_SPREAD {
                break;
            }
            let factor = |v: f64| if v > 0.0 { 1.0 / v.sqrt() } else { 1.0 };
            let clamp = |acc: f64, f: f64| (acc * f).clamp(1.0 / RUIZ_CLAMP, RUIZ_CLAMP) / acc;
            let rf: Vec<f64> = rmax.into_iter().zip(&self.row_scale).map(|(v, &a)| clamp(a, factor(v))).collect();
            let cf: Vec<f64> = cmax.into_iter().zip(&self.col_scale).map(|(v, &a)| clamp(a, factor(v))).collect();
            for (j, &cj) in cf.iter().enumerate() {
                let r = self.a.col_ptr[j]..self.a.col_ptr[j + 1];
                for (v, &i) in self.a.values[r.clone()].iter_mut().zip(&self.a.row_idx[r]) {
                    *v *= rf[i] * cj;
                }
            }
            for ((rs, b), f) in self.row_scale.iter_mut().zip(&mut self.b).zip(&rf) {
                *rs *= f;
                *b *= f;
            }
            // x = C·x̄, so the bound x ≤ u becomes x̄ ≤ u / C.
            for (((cs, c), u), f) in self.col_scale.iter_mut().zip(&mut self.c).zip(&mut self.upper).zip(&cf) {
                *cs *= f;
                *c *= f;
                *u /= f;
            }
        }
    }

    /// ‖A‖∞: the largest absolute row sum.
    pub fn a_norm_inf(&self) -> f64 {
        let mut sums = vec![0.0f64; self.a.nrows];
        for (&i, v) in self.a.row_idx.iter().zip(&self.a.values) {
            sums[i] += v.abs();
        }
        sums.into_iter().fold(0.0, f64::max)
    }
}
