//! Ruiz equilibration of the standard form, on A's nonzeros.

use super::columns::rows_in_order;
use super::{split_at_bounds, thread_ranges, StandardForm};
use rayon::prelude::*;

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

    /// The max-norm of every row and every column of A, one range of columns per thread (the
    /// ranges' row maxima are merged at the end: a maximum, so the result does not depend on
    /// how the columns were shared).
    fn max_norms(&self) -> (Vec<f64>, Vec<f64>) {
        let (m, n) = self.dims();
        let a = &self.a;
        let parts: Vec<(Vec<f64>, Vec<f64>)> = thread_ranges(n)
            .into_par_iter()
            .map(|cols| {
                let mut rmax = vec![0.0f64; m];
                let cmax = cols
                    .map(|j| {
                        let r = a.col_ptr[j]..a.col_ptr[j + 1];
                        let values = &a.values[r.clone()];
                        if values.len() == m && rows_in_order(&a.row_idx[r.clone()], m) {
                            // A full column (the dense family): lane by lane, no scatter.
                            for (rm, v) in rmax.iter_mut().zip(values) {
                                *rm = rm.max(v.abs());
                            }
                            return values.iter().fold(0.0f64, |c, v| c.max(v.abs()));
                        }
                        // A local maximum: updating cmax[j] per entry is a chain through memory.
                        let mut col_max = 0.0f64;
                        for (&i, &v) in a.row_idx[r].iter().zip(values) {
                            let v = v.abs();
                            rmax[i] = rmax[i].max(v);
                            col_max = col_max.max(v);
                        }
                        col_max
                    })
                    .collect::<Vec<f64>>();
                (rmax, cmax)
            })
            .collect();
        let mut rmax = vec![0.0f64; m];
        let mut cmax = Vec::with_capacity(n);
        for (rows, cols) in parts {
            for (p, q) in rmax.iter_mut().zip(rows) {
                *p = p.max(q);
            }
            cmax.extend(cols);
        }
        (rmax, cmax)
    }

    /// aᵢⱼ ← rfᵢ·aᵢⱼ·cfⱼ, one range of columns per thread.
    fn scale_entries(&mut self, rf: &[f64], cf: &[f64]) {
        let a = &mut self.a;
        let ranges = thread_ranges(a.ncols);
        let bounds: Vec<usize> = std::iter::once(0).chain(ranges.iter().map(|r| a.col_ptr[r.end])).collect();
        let (row_idx, col_ptr) = (&a.row_idx, &a.col_ptr);
        let pieces = split_at_bounds(&mut a.values, &bounds);
        ranges.into_par_iter().zip(pieces).for_each(|(cols, values)| {
            let start = col_ptr[cols.start];
            for j in cols {
                let r = col_ptr[j]..col_ptr[j + 1];
                for (v, &i) in values[r.start - start..r.end - start].iter_mut().zip(&row_idx[r]) {
                    *v *= rf[i] * cf[j];
                }
            }
        });
    }

    /// ‖A‖∞: the largest absolute row sum (of A as the standard form builds it: rows ascending
    /// without repeats in each column).
    pub fn a_norm_inf(&self) -> f64 {
        let a = &self.a;
        let mut sums = vec![0.0f64; a.nrows];
        // The entries in storage order, column by column where the column pointers cover them
        // in order: a column holding rows 0..m in order (the dense family) is summed lane by
        // lane, the same sums in the same order.
        let by_column = a.col_ptr.len() == a.ncols + 1
            && a.col_ptr.first() == Some(&0)
            && a.col_ptr.last() == Some(&a.values.len())
            && a.row_idx.len() == a.values.len()
            && a.col_ptr.windows(2).all(|w| w[0] <= w[1]);
        let mut add = |rows: &[usize], values: &[f64]| {
            if rows.len() == values.len() && rows_in_order(rows, sums.len()) {
                for (s, v) in sums.iter_mut().zip(values) {
                    *s += v.abs();
                }
            } else {
                for (&i, v) in rows.iter().zip(values) {
                    sums[i] += v.abs();
                }
            }
        };
        if by_column {
            for w in a.col_ptr.windows(2) {
                add(&a.row_idx[w[0]..w[1]], &a.values[w[0]..w[1]]);
            }
        } else {
            add(&a.row_idx, &a.values);
        }
        sums.into_iter().fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use crate::lp::standard_form::{standard_form, Presolved};
    use crate::lp::{LpModel, SparseColMatrix};

    #[test]
    fn max_norms_of_full_and_partial_columns_are_those_of_the_entries() {
        // Columns 0 and 3 full (the lane-by-lane path), the others every other row.
        let (m, n) = (7, 6);
        let mut t = Vec::new();
        for j in 0..n {
            for i in 0..m {
                if j == 0 || j == 3 || (i + j) % 2 == 0 {
                    t.push((i, j, ((i * 5 + j * 3) % 11) as f64 - 5.5));
                }
            }
        }
        let a = SparseColMatrix::from_triplets(m, n, &t).expect("valid triplets");
        let b = vec![1.0; m];
        let model = LpModel::builder(a).minimize(vec![1.0; n]).row_bounds(b.clone(), b).build().expect("valid");
        let Presolved::Form(sf) = standard_form(&model, false) else { panic!("a standard form") };
        let (mut rows, mut cols) = (vec![0.0f64; m], vec![0.0f64; n]);
        for (j, col) in cols.iter_mut().enumerate() {
            for (i, v) in sf.a.col(j) {
                rows[i] = rows[i].max(v.abs());
                *col = col.max(v.abs());
            }
        }
        assert_eq!(sf.max_norms(), (rows, cols));
    }
}
