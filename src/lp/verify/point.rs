//! The proof of a primal-dual point (see the module documentation of [`super`]): the primal
//! side, the dual side (direct, with implied bounds, or repaired), the enclosure and its grade.

use super::dual::{Dual, DualIntervals};
use super::exact::sign_of_difference;
use std::cmp::Ordering;
use super::implied::{implied_bounds, ImpliedBounds};
use super::products::{column_products, Sums};
use super::rounding::{add_down, add_up};
use super::{sigma, Verification};
use crate::lp::model::LpModel;
use crate::lp::units::Units;
use super::primal::{primal_side, PrimalSide};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// cᵀx + constant in the model's sense.
pub fn objective(model: &LpModel, x: &[f64]) -> f64 {
    model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant
}

/// Moves every xⱼ into [lⱼ, uⱼ]: the solver's answers are reported within their bounds, so
/// that what the interior-point method left outside them (an implicit upper bound met to its
/// tolerance) is judged by its effect on the rows and the objective.
pub(crate) fn into_bounds(model: &LpModel, x: &mut [f64]) {
    for ((v, &lo), &up) in x.iter_mut().zip(&model.col_lower).zip(&model.col_upper) {
        if *v < lo {
            *v = lo;
        } else if *v > up {
            *v = up;
        }
    }
}

/// Proves what can be proven of the point (x, row duals y) on `model`, graded at the tolerance
/// `tol` (see [`super`]). A point of the wrong size or a malformed model gives a failed
/// verification with NaN measures.
pub fn verify_point(model: &LpModel, x: &[f64], y: &[f64], tol: f64) -> Verification {
    let (m, n) = (model.num_rows(), model.num_cols());
    if x.len() != n || y.len() != m || model.validate().is_err() {
        return Verification::failed(tol, "the point does not fit the model");
    }
    Checker::new(model).verify(x, y, tol)
}

/// Columns of at most this many entries have a reduced cost their rounding cannot sign settled
/// exactly ([`super::exact`]).
const EXACT_TERMS: usize = 1 << 14;

/// The share of the dual side's terms in the objective's size: an objective whose terms cancel
/// (an optimum of 0 reached through multipliers of 1) is judged against this fraction of them,
/// the only size it has; far below the objective on every NETLIB problem, and far above the
/// rounding of the sums, so that a zero optimum can pass in double precision.
pub const CANCELLATION: f64 = 1e-6;

/// What a column's reduced cost must be for its term in the dual side to be finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Need {
    /// Lower bound finite, upper infinite.
    AtLeastZero,
    /// Upper bound finite, lower infinite.
    AtMostZero,
    /// Free: exactly zero.
    Zero,
    /// Both bounds finite: any value.
    Any,
}

impl Need {
    pub(super) fn of(lower: f64, upper: f64) -> Need {
        match (lower.is_finite(), upper.is_finite()) {
            (true, true) => Need::Any,
            (true, false) => Need::AtLeastZero,
            (false, true) => Need::AtMostZero,
            (false, false) => Need::Zero,
        }
    }
}


/// The proof of points on one validated model, with what depends on the model alone found once
/// (a solve judges every iterate).
pub(crate) struct Checker<'a> {
    pub(super) model: &'a LpModel,
    pub(super) sigma: f64,
    /// σ·c: the cost in the min sense.
    pub(super) cost: Vec<f64>,
    pub(super) row_nnz: Vec<usize>,
    pub(super) col_nnz: Vec<usize>,
    implied: OnceLock<ImpliedBounds>,
    twins: OnceLock<Vec<usize>>,
    units: OnceLock<Units>,
    /// Per row: the largest |cⱼ| and the largest |aᵢⱼ| over its entries.
    row_weights: OnceLock<(Vec<f64>, Vec<f64>)>,
    /// The last repaired dual side and what it was asked for.
    last_repaired: Mutex<Option<(RepairKey, Dual)>>,
    /// The last multipliers' reduced costs and intervals, with the (cost, multipliers) they
    /// are of: the judge's estimate, the repair it asks for and the verdict start from the same.
    last_intervals: Mutex<Option<IntervalsAt>>,
    /// The last unrepaired dual side with an estimate at a point, and what it was asked for
    /// (the judge's quick and full candidates share it).
    last_estimated: Mutex<Option<(RepairKey, Vec<f64>, Dual)>>,
    /// The primal sides of the last points proven, newest last ([`PRIMAL_MEMO`] of them): the
    /// targeted candidates are built from their rows' backward errors, then judged, then graded.
    primal_memo: Mutex<Vec<(Vec<f64>, Arc<PrimalSide>)>>,
}

/// Points whose primal sides a checker remembers: a full list of candidates.
const PRIMAL_MEMO: usize = 12;

/// Reduced costs and their intervals at (cost, y).
type IntervalsAt = (Vec<f64>, Vec<f64>, Sums, DualIntervals);

/// What a repaired dual side was asked for (the min-sense cost, constant, tolerance and
/// multipliers).
pub(super) struct RepairKey {
    pub cost: Vec<f64>,
    pub constant: f64,
    pub tol: f64,
    pub y: Vec<f64>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(model: &'a LpModel) -> Self {
        let s = sigma(model);
        let mut row_nnz = vec![0usize; model.num_rows()];
        let col_nnz = (0..model.num_cols())
            .map(|j| {
                let mut k = 0;
                for (i, _) in model.a.col(j) {
                    row_nnz[i] += 1;
                    k += 1;
                }
                k
            })
            .collect();
        Self {
            model,
            sigma: s,
            cost: model.c.iter().map(|c| s * c).collect(),
            row_nnz,
            col_nnz,
            implied: OnceLock::new(),
            twins: OnceLock::new(),
            units: OnceLock::new(),
            row_weights: OnceLock::new(),
            last_repaired: Mutex::new(None),
            last_intervals: Mutex::new(None),
            last_estimated: Mutex::new(None),
            primal_memo: Mutex::new(Vec::new()),
        }
    }

    /// The model's units (powers of two per row and column, [`Units::of`]).
    pub(super) fn units(&self) -> &Units {
        self.units.get_or_init(|| Units::of(self.model))
    }

    /// Each column's twin (`usize::MAX`: none): a column k with aₖ = −aⱼ and cₖ = −cⱼ exactly —
    /// a free variable written as the difference of two bounded ones, whose reduced costs are
    /// exact negatives of each other for every y.
    pub(super) fn twins(&self) -> &[usize] {
        self.twins.get_or_init(|| {
            use std::collections::HashMap;
            let model = self.model;
            let n = model.num_cols();
            // Grouped by a fingerprint (entries, first and last entry's row and magnitude, |cⱼ|)
            // that twins share; within a group the whole columns are compared.
            let mut groups: HashMap<[u64; 6], Vec<usize>> = HashMap::new();
            for j in 0..n {
                let a = &model.a;
                let (start, end) = (a.col_ptr[j], a.col_ptr[j + 1]);
                if start == end {
                    continue;
                }
                let ((i0, v0), (i1, v1)) = ((a.row_idx[start], a.values[start]), (a.row_idx[end - 1], a.values[end - 1]));
                let len = (end - start) as u64;
                let key = [len, i0 as u64, v0.abs().to_bits(), i1 as u64, v1.abs().to_bits(), model.c[j].abs().to_bits()];
                groups.entry(key).or_default().push(j);
            }
            let mut twin = vec![usize::MAX; n];
            for cols in groups.values().filter(|g| g.len() > 1) {
                for (p, &j) in cols.iter().enumerate() {
                    if twin[j] != usize::MAX {
                        continue;
                    }
                    let negated = |k: usize| {
                        twin[k] == usize::MAX
                            && model.c[k] == -model.c[j]
                            && model.a.col(k).zip(model.a.col(j)).all(|((i, a), (l, b))| i == l && a == -b)
                    };
                    if let Some(&k) = cols[p + 1..].iter().find(|&&k| negated(k)) {
                        (twin[j], twin[k]) = (k, j);
                    }
                }
            }
            twin
        })
    }

    /// The primal side of x, remembered (bit for bit) for the next few points.
    pub(super) fn primal(&self, x: &[f64]) -> Arc<PrimalSide> {
        // A poisoned lock only means a panic elsewhere: the value is still whole.
        let same = |a: &[f64]| a.len() == x.len() && a.iter().zip(x).all(|(u, v)| u.to_bits() == v.to_bits());
        if let Some((_, p)) = self.primal_memo.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| same(k)) {
            return p.clone();
        }
        let p = Arc::new(primal_side(self.model, x, &self.row_nnz));
        let mut memo = self.primal_memo.lock().unwrap_or_else(|e| e.into_inner());
        if memo.len() >= PRIMAL_MEMO {
            memo.remove(0);
        }
        memo.push((x.to_vec(), p.clone()));
        p
    }

    /// The last estimated dual side (see [`Self::last_repaired`]).
    pub(super) fn last_estimated(&self) -> MutexGuard<'_, Option<(RepairKey, Vec<f64>, Dual)>> {
        self.last_estimated.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last repaired dual side (a poisoned lock only means a panic elsewhere: its value is
    /// still whole).
    pub(super) fn last_repaired(&self) -> MutexGuard<'_, Option<(RepairKey, Dual)>> {
        self.last_repaired.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Per row, the largest |cⱼ| (σ·c) and the largest |aᵢⱼ| over its entries.
    pub(super) fn row_weights(&self) -> (&[f64], &[f64]) {
        let (cost, reach) = self.row_weights.get_or_init(|| {
            let m = self.model.num_rows();
            let (mut weight, mut reach) = (vec![0.0f64; m], vec![0.0f64; m]);
            // Plain comparisons (a NaN entry is refused by the model's validation).
            for (j, c) in self.cost.iter().enumerate() {
                let c = c.abs();
                for (i, a) in self.model.a.col(j) {
                    if c > weight[i] {
                        weight[i] = c;
                    }
                    if a.abs() > reach[i] {
                        reach[i] = a.abs();
                    }
                }
            }
            (weight, reach)
        });
        (cost, reach)
    }

    /// The model the checker checks points of.
    pub(crate) fn model(&self) -> &'a LpModel {
        self.model
    }

    /// The terms of column j's reduced cost as a sum (its entries, the cost, the subtraction).
    pub(super) fn col_terms(&self, j: usize) -> usize {
        self.col_nnz[j] + 2
    }

    /// The column bounds the dual side uses: the model's own, tightened by what the rows imply.
    pub(super) fn bounds(&self) -> (&[f64], &[f64]) {
        let b = self.implied.get_or_init(|| implied_bounds(self.model));
        (&b.lower, &b.upper)
    }

    /// c − Aᵀy (with |c| + |A|ᵀ|y|) for the min-sense `cost` and multipliers `y`.
    pub(super) fn reduced(&self, cost: &[f64], y: &[f64]) -> Sums {
        column_products(self.model, cost, y)
    }

    /// The error bound of column j's reduced cost in `red`.
    pub(super) fn col_error(&self, red: &Sums, j: usize) -> f64 {
        red.error(j, self.col_terms(j))
    }

    /// Whether row i's bounds allow the min-sense multiplier `y` (a finite term).
    pub(super) fn row_allows(&self, i: usize, y: f64) -> bool {
        self.row_interval_allows(i, (y, y))
    }

    /// Whether they allow every multiplier in the interval.
    pub(super) fn row_interval_allows(&self, i: usize, (lo, hi): (f64, f64)) -> bool {
        let (rl, ru) = (self.model.row_lower[i], self.model.row_upper[i]);
        (hi <= 0.0 || rl.is_finite()) && (lo >= 0.0 || ru.is_finite())
    }

    /// Whether row i has two finite bounds (its multiplier may take either sign).
    pub(super) fn two_sided(&self, i: usize) -> bool {
        self.model.row_lower[i].is_finite() && self.model.row_upper[i].is_finite()
    }

    /// Min-sense multipliers, each of a sign its row allows (the others set to zero: such a
    /// term can only weaken the bound).
    pub(super) fn project(&self, y: &[f64]) -> Vec<f64> {
        y.iter().enumerate().map(|(i, &v)| if self.row_allows(i, v) { v } else { 0.0 }).collect()
    }

    /// The enclosure of column j's reduced cost cⱼ − aⱼᵀy, computed as `red`: its rounding
    /// interval, or, where that holds 0 against an infinite bound and the column is short
    /// enough, its exact sign ([`super::exact`]): an exact zero is [0, 0], an exact positive
    /// value [0, hi].
    pub(super) fn col_interval(&self, cost: &[f64], y: &[f64], red: &Sums, j: usize) -> (f64, f64) {
        let (z, e) = (red.value[j], self.col_error(red, j));
        if z.is_nan() || e.is_nan() {
            return (f64::NAN, f64::NAN);
        }
        if e == 0.0 {
            return (z, z);
        }
        let (lo, hi) = (add_down(z, -e), add_up(z, e));
        // The sign decides the bound only against an infinite bound of the model (a finite one,
        // or one the rows imply, takes a straddling interval at the cost of e times itself).
        let (l, u) = (self.model.col_lower[j], self.model.col_upper[j]);
        let decides = (lo < 0.0 && u == f64::INFINITY) || (hi > 0.0 && l == f64::NEG_INFINITY);
        if lo > 0.0 || hi < 0.0 || !decides || self.col_nnz[j] > EXACT_TERMS {
            return (lo, hi);
        }
        let terms = self.model.a.col(j).map(|(i, a)| (a, y[i]));
        match sign_of_difference(cost[j], terms) {
            Some(Ordering::Equal) => (0.0, 0.0),
            Some(Ordering::Greater) => (0.0, hi),
            Some(Ordering::Less) => (lo, 0.0),
            None => (lo, hi),
        }
    }

    /// Point multipliers `y` (min sense, for the min-sense `cost`) and the enclosures of their
    /// reduced costs `red`.
    /// [`Self::reduced`] and [`Self::intervals_at`] at (cost, y), the last ones remembered.
    pub(super) fn reduced_and_intervals(&self, cost: &[f64], y: &[f64]) -> (Sums, DualIntervals) {
        // A poisoned lock only means a panic elsewhere: the value is still whole.
        let mut last = self.last_intervals.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, red, d)) = last.as_ref().filter(|(c, v, _, _)| c == cost && v == y) {
            return (red.clone(), d.clone());
        }
        let red = self.reduced(cost, y);
        let d = self.intervals_at(cost, y, &red);
        *last = Some((cost.to_vec(), y.to_vec(), red.clone(), d.clone()));
        (red, d)
    }

    pub(super) fn intervals_at(&self, cost: &[f64], y: &[f64], red: &Sums) -> DualIntervals {
        let cols = (0..red.value.len()).map(|j| self.col_interval(cost, y, red, j)).collect();
        DualIntervals { rows: y.iter().map(|&v| (v, v)).collect(), cols }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    #[test]
    fn twins_are_exact_negatives_on_the_same_rows_only() {
        // Columns 0 and 1 are negatives; 2 and 3 share the fingerprint (three entries, first in
        // row 0, last in row 3, the same magnitudes and |c|) and negated values, but not rows.
        let a = dmatrix![
            1.0, -1.0, 1.0, -1.0;
            2.0, -2.0, 0.0, -2.0;
            0.0, 0.0, 2.0, 0.0;
            3.0, -3.0, 3.0, -3.0
        ];
        let model = LpModel::new(a, vec![1.0, -1.0, 1.0, -1.0], vec![0.0; 4], vec![1.0; 4]).expect("a valid model");
        let checker = Checker::new(&model);
        assert_eq!(checker.twins(), &[1, 0, usize::MAX, usize::MAX]);
    }
}
