//! Ruiz equilibration of the standard form, on A's nonzeros.

use super::StandardForm;
use rayon::prelude::*;

/// Columns per rayon task at least.
const COLUMNS_PER_TASK: usize = 16;

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
        for _ in 0..passes {
            let (rmax, cmax) = self.max_norms();
            if spread(&rmax) <= RUIZ_SPREAD && spread(&cmax) <= RUIZ_SPREAD {
                break;
            }
            let factor = |v: f64| if v > 0.0 { 1.0 / v.sqrt() } else { 1.0 };
            let clamp = |acc: f64, f: f64| (acc * f).clamp(1.0 / RUIZ_CLAMP, RUIZ_CLAMP) / acc;
            let rf: Vec<f64> = rmax.into_iter().zip(&self.row_scale).map(|(v, &a)| clamp(a, factor(v))).collect();
            let cf: Vec<f64> = cmax.into_iter().zip(&self.col_scale).map(|(v, &a)| clamp(a, factor(v))).collect();
            self.scale_entries(&rf, &cf);
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

    /// The max-norm of every row and every column of A, the columns on all threads (each
    /// thread's row maxima are merged at the end: a maximum, so the result does not depend on
    /// how the columns were shared).
    fn max_norms(&self) -> (Vec<f64>, Vec<f64>) {
        let (m, n) = self.dims();
        let a = &self.a;
        let mut cmax = vec![0.0f64; n];
        let rmax = cmax
            .par_iter_mut()
            .enumerate()
            .with_min_len(COLUMNS_PER_TASK)
            .fold(
                || vec![0.0f64; m],
                |mut rmax, (j, cm)| {
                    let r = a.col_ptr[j]..a.col_ptr[j + 1];
                    // A local maximum: updating *cm per entry is a chain through memory.
                    let mut col_max = 0.0f64;
                    for (&i, &v) in a.row_idx[r.clone()].iter().zip(&a.values[r]) {
                        let v = v.abs();
                        rmax[i] = rmax[i].max(v);
                        col_max = col_max.max(v);
                    }
                    *cm = col_max;
                    rmax
                },
            )
            .reduce(
                || vec![0.0f64; m],
                |mut x, y| {
                    for (p, q) in x.iter_mut().zip(y) {
                        *p = p.max(q);
                    }
                    x
                },
            );
        (rmax, cmax)
    }

    /// aᵢⱼ ← rfᵢ·aᵢⱼ·cfⱼ, the columns on all threads.
    fn scale_entries(&mut self, rf: &[f64], cf: &[f64]) {
        let a = &mut self.a;
        let mut parts = Vec::with_capacity(a.ncols);
        let mut rest = a.values.as_mut_slice();
        for j in 0..a.ncols {
            let (col, tail) = rest.split_at_mut(a.col_ptr[j + 1] - a.col_ptr[j]);
            parts.push((j, col));
            rest = tail;
        }
        let (row_idx, col_ptr) = (&a.row_idx, &a.col_ptr);
        parts.into_par_iter().with_min_len(COLUMNS_PER_TASK).for_each(|(j, col)| {
            for (v, &i) in col.iter_mut().zip(&row_idx[col_ptr[j]..col_ptr[j + 1]]) {
                *v *= rf[i] * cf[j];
            }
        });
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
