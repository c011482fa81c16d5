//! The standard form in the model's units ([`crate::lp::units`]): Ā = R·A·C, b̄ = R·b,
//! c̄ = γ·C·c, ū = C⁻¹·u, and the coefficients that are negligible in those units.

use super::columns::rows_in_order;
use super::columns::{split_at_bounds, thread_ranges};
use super::{Col, Source, StandardForm};
use crate::lp::model::SparseColMatrix;
use crate::lp::units::Units;
use rayon::prelude::*;

/// A coefficient of the scaled matrix Ā at or below this (in units where every row's and
/// column's largest entry is about 1) is treated as zero, and the solve says how many were
/// (a warning in the log and a note in the solution). HiGHS's `small_matrix_value` (1e-9)
/// plays the same part on the model as written; ours is relative, and smaller, because the
/// independent check keeps every entry: a dropped one moves its row by at most 1e-12·|x̄ⱼ|,
/// invisible beside the check's 10ε = 1e-7 for any x̄ⱼ below 1e4.
pub const SMALL_MATRIX_VALUE: f64 = 1e-12;

/// The units' factors of the kept standard-form rows and columns: a row's Rᵢ, a model column's
/// Cⱼ, and 1/Rᵢ for a row's slack (so that its −1 stays −1 and it follows its row wherever the
/// row is scaled). `row_index` maps model rows to rows before empty ones were dropped,
/// `new_row` and `new_col` those to kept ones (`usize::MAX`: dropped).
pub(super) fn factors(
    units: &Units,
    row_index: &[usize],
    new_row: &[usize],
    cols: &[Col],
    new_col: &[usize],
) -> (Vec<f64>, Vec<f64>) {
    let mut model_row = vec![usize::MAX; new_row.len()];
    for (i, &r) in row_index.iter().enumerate() {
        if r != usize::MAX {
            model_row[r] = i;
        }
    }
    let rf = (0..new_row.len()).filter(|&r| new_row[r] != usize::MAX).map(|r| units.row[model_row[r]]).collect();
    let cf = (0..cols.len())
        .filter(|&k| new_col[k] != usize::MAX)
        .map(|k| match cols[k].src {
            Source::Model(j) => units.col[j],
            Source::Slack(r) => 1.0 / units.row[model_row[r]],
        })
        .collect();
    (rf, cf)
}

impl StandardForm {
    /// Scales the standard form by row factors `rf`, column factors `cf` and the cost factor
    /// `cost` (all powers of two), and, when `drop_tiny`, treats the entries of Ā at most
    /// [`SMALL_MATRIX_VALUE`] as zero (counted in `tiny_entries`).
    pub(super) fn scale(&mut self, rf: Vec<f64>, cf: Vec<f64>, cost: f64, drop_tiny: bool) {
        self.scale_entries(&rf, &cf);
        for (b, f) in self.b.iter_mut().zip(&rf) {
            *b *= f;
        }
        // x = C·x̄, so the bound x ≤ u becomes x̄ ≤ u / C.
        for ((c, u), f) in self.c.iter_mut().zip(&mut self.upper).zip(&cf) {
            *c *= f * cost;
            *u /= f;
        }
        (self.row_scale, self.col_scale, self.cost_scale) = (rf, cf, cost);
        if drop_tiny {
            self.tiny_entries = self.drop_tiny_entries();
        }
    }

    /// Removes the entries of Ā whose size is at most [`SMALL_MATRIX_VALUE`]; their number.
    fn drop_tiny_entries(&mut self) -> usize {
        let tiny = self.a.values.par_iter().filter(|v| v.abs() <= SMALL_MATRIX_VALUE).count();
        if tiny == 0 {
            return 0;
        }
        let a = &self.a;
        let mut kept = SparseColMatrix::new(a.nrows);
        for j in 0..a.ncols {
            for (i, v) in a.col(j).filter(|(_, v)| v.abs() > SMALL_MATRIX_VALUE) {
                kept.row_idx.push(i);
                kept.values.push(v);
            }
            kept.col_ptr.push(kept.row_idx.len());
        }
        kept.ncols = a.ncols;
        self.a = kept;
        tiny
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
    fn entries_negligible_in_the_model_units_are_dropped_and_counted() {
        // Row 0: 1·x + 1e-13·y; row 1: 1e-13·x + 1·y. Each tiny entry is 1e-13 of its row's and
        // its column's largest: dropped. The slacks' −1 stay.
        let t = [(0, 0, 1.0), (0, 1, 1e-13), (1, 0, 1e-13), (1, 1, 1.0)];
        let a = SparseColMatrix::from_triplets(2, 2, &t).expect("valid triplets");
        let model = LpModel::builder(a).minimize([1.0, 1.0]).rows_at_least([1.0, 1.0]).build().expect("valid");
        let Presolved::Form(sf) = standard_form(&model, true) else { panic!("a standard form") };
        assert_eq!(sf.tiny_entries, 2);
        assert_eq!(sf.a.nnz(), 4, "two structural entries and two slacks");
        assert!(sf.a.values.iter().all(|v| v.abs() >= 0.5), "{:?}", sf.a.values);
        // Unscaled, nothing is dropped.
        let Presolved::Form(sf) = standard_form(&model, false) else { panic!("a standard form") };
        assert_eq!((sf.tiny_entries, sf.a.nnz()), (0, 6));
    }
}
