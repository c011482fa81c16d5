//! Correcting the multipliers until every column whose bound is infinite on one side has a
//! reduced cost of the sign that bound needs, proven — and every free column a reduced cost of
//! exactly zero (Neumaier & Shcherbina's repair of the dual, where no bound on the column is
//! known).
//!
//! 1. **Least squares.** The columns J in need (a reduced cost of the wrong sign, or too close
//!    to it to survive the correction, and the free columns) ask for A_Jᵀ·Δ = r_J − t_J, t the
//!    target: a small margin of the needed sign, proportional to the column's own terms (a
//!    reduced cost of that sign then holds whatever the rounding), 0 for a free column. Δ solves
//!    (A_J·A_Jᵀ)·Δ = A_J·(r_J − t_J) with the cpu backend's factorization (dense or sparse, its
//!    tiny pivots replaced: Δ is 0 on what J does not reach), refined by recomputing r from the
//!    corrected multipliers; a one-sided row's multiplier that crosses zero is set to zero and
//!    stays there. Nothing here needs to be exact: every reduced cost is recomputed and enclosed
//!    afterwards, and only that enclosure counts.
//! 2. **Exact zeros.** A free column's reduced cost is then small, but only an exact zero makes
//!    its term vanish. For the free columns F and as many rows I (pivoted from the two-sided
//!    rows first: their multipliers may move either way), the exact real shift t* with
//!    A_{I,F}ᵀ·t* = r_F makes every rⱼ, j ∈ F, exactly zero; t* is enclosed by a verified
//!    solve ([`super::interval`]) for every r_F in its rounding interval, and the multipliers of
//!    I and the reduced costs of the columns in those rows become intervals
//!    ([`super::exact_step`]: the rows I are chosen where their columns have room).
//! 3. **Again where it spoils.** A column whose margin the exact step's intervals cross is given
//!    a margin of a few widenings by step 1, on the active rows only, and step 2 repeated.

use super::dual::DualIntervals;
use super::point::{Checker, Need};
use super::certificate::{without_negligible_parts, CertificateKind};
use super::products::Sums;
use crate::lp::backend::{CpuNormal, CpuVectors};
use crate::lp::model::SparseColMatrix;
use crate::lp::units::Units;
use crate::lp::settings::NormalFactorization;

/// Rounds of weighted least squares, each with its own factorization (the weights follow the
/// reduced costs).
const ROUNDS: usize = 8;
/// Multipliers whose effect is below this fraction of the largest are dust, set to zero after
/// each round ([`without_negligible_parts`]): far below any correction the rounds make.
const DUST: f64 = 1e-20;
/// The least weight of a column held where it is (one with much room moves freely).
const MIN_WEIGHT: f64 = 1e-16;
/// A one-sided row whose multiplier's effect is below this share of the largest is out of play
/// once the exact step has run.
const INACTIVE: f64 = 1e-9;
/// Corrections followed by the exact step at most (see the end of [`Checker::repair`]).
const EXACT_PASSES: usize = 3;
/// Free columns the verified solve takes at most (its cost is cubic).
pub const MAX_EXACT_COLUMNS: usize = 1000;
/// The margin relative to a column's own terms (|cⱼ| + Σᵢ|aᵢⱼyᵢ|), at most: far below any
/// tolerance the solver accepts, far above the rounding of the sums.
const MARGIN: f64 = 1e-12;

/// The result of a repair: the intervals, and (corrected columns, exact columns).
pub(super) type Repaired = (DualIntervals, usize, usize);

/// The margin a column of `need` is moved to (signed), from its rounding bound `e` and its
/// terms' size `mag`.
fn target(need: Need, e: f64, mag: f64, tol: f64, extra: f64) -> f64 {
    let margin = (16.0 * e).max(MARGIN.min(tol * 1e-3) * mag).max(extra);
    match need {
        Need::AtLeastZero => margin,
        Need::AtMostZero => -margin,
        Need::Zero | Need::Any => 0.0,
    }
}

impl Checker<'_> {
    /// Repairs the min-sense multipliers `y` (already projected) for `cost`; `Err` names the
    /// column or rows that could not be brought to what they need.
    /// `soft`: columns with finite bounds that should get a sign too (their term drags the
    /// bound down: a bound of 1e10 standing for none).
    pub(super) fn repair(&self, cost: &[f64], mut y: Vec<f64>, tol: f64, soft: &[(usize, Need)]) -> Result<Repaired, String> {
        let model = self.model();
        let (m, n) = (model.num_rows(), model.num_cols());
        let (lower, upper) = self.bounds();
        let mut need: Vec<Need> = (0..n).map(|j| Need::of(lower[j], upper[j])).collect();
        for &(j, wanted) in soft {
            if need[j] == Need::Any {
                need[j] = wanted;
            }
        }
        // A pair of twins whose needs conflict (xⱼ ≥ 0 and xₖ ≥ 0 with aₖ = −aⱼ: together a
        // free variable) needs rⱼ = −rₖ exactly zero: the first stands for both.
        let twins = self.twins();
        for j in 0..n {
            let k = twins[j];
            if k == usize::MAX || k < j {
                continue;
            }
            let flipped = match need[k] {
                Need::AtLeastZero => Need::AtMostZero,
                Need::AtMostZero => Need::AtLeastZero,
                other => other,
            };
            let conflict = matches!(
                (need[j], flipped),
                (Need::AtLeastZero, Need::AtMostZero) | (Need::AtMostZero, Need::AtLeastZero) | (Need::Zero, _) | (_, Need::Zero)
            );
            if conflict {
                (need[j], need[k]) = (Need::Zero, Need::Any);
            }
        }
        let mut pinned = vec![false; m];
        let mut in_j = vec![false; n];
        // The intervals at the multipliers as given (as the dual side found them), kept while
        // no correction moves them.
        let (mut red, given) = self.reduced_and_intervals(cost, &y);
        let mut moved = false;
        // Whether column j's proven interval (for the multipliers y) has the wrong sign.
        let failing_at = |y: &[f64], red: &Sums, j: usize| {
            if need[j] != Need::AtLeastZero && need[j] != Need::AtMostZero {
                return false;
            }
            let (lo, hi) = self.col_interval(cost, y, red, j);
            match need[j] {
                // NaN fails.
                Need::AtLeastZero => lo.is_nan() || lo < 0.0,
                _ => hi.is_nan() || hi > 0.0,
            }
        };
        // Each column's test, once per multipliers (an exact sign can cost a pass over the
        // column's terms).
        let failing_all = |y: &[f64], red: &Sums| -> Vec<bool> { (0..n).map(|j| failing_at(y, red, j)).collect() };
        // Σ over the failing columns of their wrong part relative to their own terms.
        let deficit = |red: &Sums, failing: &[bool]| -> f64 {
            (0..n)
                .filter(|&j| failing[j])
                .map(|j| red.value[j].abs() / red.magnitude[j].max(f64::MIN_POSITIVE))
                .sum()
        };
        let mut failing: Vec<bool> = (0..n)
            .map(|j| match need[j] {
                // NaN fails.
                Need::AtLeastZero => given.cols[j].0.is_nan() || given.cols[j].0 < 0.0,
                Need::AtMostZero => given.cols[j].1.is_nan() || given.cols[j].1 > 0.0,
                Need::Zero | Need::Any => false,
            })
            .collect();
        let mut done = !failing.contains(&true);
        // Every column whose term needs a sign takes part: the ones in need pulled to their
        // target, the others held where they are, the harder the closer they are to their margin.
        let cols: Vec<usize> = (0..n).filter(|&j| need[j] != Need::Any).collect();
        let units = self.units();
        // Margins a column needs beyond its own: what the exact step widened it by.
        let mut extra = vec![0.0f64; n];
        let mut system: Option<(Vec<bool>, SparseColMatrix, CpuVectors, CpuNormal)> = None;
        for pass in 0..EXACT_PASSES {
            if pass > 0 {
                // Moving the columns the exact step spoiled needs only the rows in play: the
                // one-sided rows whose multiplier is negligible stay where they are (a far
                // smaller system where most rows are inactive).
                let reach = self.row_weights().1;
                let size = (0..m).map(|i| (y[i] * reach[i]).abs()).fold(0.0, f64::max);
                for i in 0..m {
                    if !self.two_sided(i) && (y[i] * reach[i]).abs() <= INACTIVE * size {
                        pinned[i] = true;
                    }
                }
            }
            for _ in 0..ROUNDS {
                if done {
                    break;
                }
                // Weighted least squares in the model's units (Ā = R·A·C, Δ = R·Δ̄, r̄ = C·r):
                // min Σ wⱼ·((Āᵀ·Δ̄)ⱼ − d̄ⱼ)², wⱼ = 1 for a column in need (d̄ⱼ = Cⱼ·(rⱼ − tⱼ)) and
                // (tⱼ / slackⱼ)² for one with room (d̄ⱼ = 0): (Ā·W·Āᵀ)·Δ̄ = Ā·W·d̄.
                let mut w = Vec::with_capacity(cols.len());
                let mut d = Vec::with_capacity(cols.len());
                for &j in &cols {
                    let t = target(need[j], self.col_error(&red, j), red.magnitude[j], tol, extra[j]);
                    let room = match need[j] {
                        Need::AtLeastZero => red.value[j] - t,
                        Need::AtMostZero => t - red.value[j],
                        Need::Zero | Need::Any => 0.0,
                    };
                    if room <= t.abs() || failing[j] {
                        in_j[j] |= failing[j] || need[j] == Need::Zero;
                        w.push(1.0);
                        d.push(units.col[j] * (red.value[j] - t));
                    } else {
                        w.push((t.abs() / room).powi(2).max(MIN_WEIGHT));
                        d.push(0.0);
                    }
                }
                // The matrix and its factorization's analysis stay while no row is newly pinned.
                if system.as_ref().is_none_or(|s| s.0 != pinned) {
                    let a_u = self.columns_without(&cols, &pinned, units);
                    let vk = CpuVectors::for_matrix(&a_u, &[]);
                    let ne = CpuNormal::new(a_u.nrows, cols.len())
                        .with_factorization(NormalFactorization::Auto, &vk)
                        .map_err(|e| format!("the correction's factorization: {e}"))?;
                    system = Some((pinned.clone(), a_u, vk, ne));
                }
                let (_, a_u, vk, ne) = system.as_mut().ok_or("the correction's system is missing")?;
                ne.assemble_on(vk, &w).map_err(|e| format!("the correction's assembly: {e}"))?;
                if ne.factor_assembled().is_err() {
                    // Only semidefinite: the deflating rule drops what rounding made negative.
                    ne.refactor_deflating(|ne| ne.assemble_on(vk, &w))
                        .map_err(|e| format!("the correction's factorization: {e}"))?;
                }
                let mut rhs = vec![0.0; a_u.nrows];
                for k in 0..cols.len() {
                    for (i, v) in a_u.col(k) {
                        rhs[i] += v * w[k] * d[k];
                    }
                }
                let local = ne.solve_host(&rhs).map_err(|e| format!("the correction's solve: {e}"))?;
                let mut delta = vec![0.0; m];
                for (&i, dl) in (0..m).filter(|&i| !pinned[i]).collect::<Vec<_>>().iter().zip(local) {
                    delta[i] = dl * units.row[i];
                }
                let before = (y.clone(), red.clone(), pinned.clone());
                for i in 0..m {
                    if pinned[i] || !delta[i].is_finite() {
                        continue;
                    }
                    y[i] += delta[i];
                    if !self.row_allows(i, y[i]) {
                        y[i] = 0.0;
                        pinned[i] = true;
                    }
                }
                // The least squares leave dust on rows they barely reach (multipliers of 1e-25 where
                // the exact one is 0, keeping the zero-cost columns there from an exact zero).
                y = without_negligible_parts(model, CertificateKind::Farkas, &y, DUST);
                moved = true;
                red = self.reduced(cost, &y);
                let now = failing_all(&y, &red);
                // A step that makes the deficit worse (a factor that could not resolve the
                // correction) is taken back, and the correction ends.
                if deficit(&red, &now) > 2.0 * deficit(&before.1, &failing) || y.iter().any(|v| !v.is_finite()) {
                    (y, red, pinned) = before;
                    break;
                }
                failing = now;
                done = !failing.contains(&true);
            }
            if let Some(j) = (0..n).find(|&j| failing[j]) {
                return Err(format!(
                    "the reduced cost of column {} ({:.3e}) keeps the wrong sign for its infinite bound after the multipliers' correction",
                    model.col_name(j),
                    red.value[j]
                ));
            }
            let corrected = in_j.iter().filter(|&&v| v).count();
            let mut d = if moved { self.intervals_at(cost, &y, &red) } else { given.clone() };
            let free: Vec<usize> = (0..n).filter(|&j| need[j] == Need::Zero && d.cols[j] != (0.0, 0.0)).collect();
            if free.is_empty() {
                return Ok((d, corrected, 0));
            }
            let twins_of_free: Vec<usize> = free.iter().map(|&j| twins[j]).filter(|&k| k != usize::MAX).collect();
            if free.len() > MAX_EXACT_COLUMNS {
                return Err(format!(
                    "{} free columns need a reduced cost of exactly zero: more than the verified solve takes ({MAX_EXACT_COLUMNS})",
                    free.len()
                ));
            }
            self.exact_zeros(&free, &y, &red, &pinned, &need, &mut d)?;
            // rₖ = −rⱼ for every multiplier: the twin of an exact zero is one.
            for k in twins_of_free {
                d.cols[k] = (0.0, 0.0);
            }
            // The exact step widens the columns in its rows: one of them whose margin was smaller
            // than that (a column at its bound near the optimum, rⱼ of order μ) is moved again, by
            // the least squares, to a margin of a few widenings, and the exact step repeated.
            let mut spoiled = false;
            for &j in &cols {
                let (lo, hi) = d.cols[j];
                let wrong = match need[j] {
                    Need::AtLeastZero => lo.is_nan() || lo < 0.0,
                    Need::AtMostZero => hi.is_nan() || hi > 0.0,
                    Need::Zero | Need::Any => false,
                };
                if wrong && (hi - lo).is_finite() {
                    extra[j] = extra[j].max(4.0 * (hi - lo));
                    (failing[j], spoiled) = (true, true);
                }
            }
            if !spoiled {
                return Ok((d, corrected, free.len()));
            }
            done = false;
        }
        Err(format!("the exact step keeps widening columns past their margins after {EXACT_PASSES} corrections"))
    }

    /// Ā's columns `cols` (R·A·C in `units`) on the rows that are not `pinned` (their
    /// multipliers do not move), numbered in order.
    fn columns_without(&self, cols: &[usize], pinned: &[bool], units: &Units) -> SparseColMatrix {
        let model = self.model();
        let mut local = vec![usize::MAX; model.num_rows()];
        let mut live = 0;
        for (i, slot) in local.iter_mut().enumerate() {
            if !pinned[i] {
                (*slot, live) = (live, live + 1);
            }
        }
        let mut a = SparseColMatrix::new(live);
        for &j in cols {
            for (i, v) in model.a.col(j).filter(|&(i, v)| !pinned[i] && v != 0.0) {
                a.row_idx.push(local[i]);
                a.values.push(units.row[i] * v * units.col[j]);
            }
            a.col_ptr.push(a.row_idx.len());
        }
        a.ncols = cols.len();
        a
    }
}
