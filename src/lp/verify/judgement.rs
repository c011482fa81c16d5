//! The grade of a point (see [`super`]): the enclosure from a primal side and a dual side, the
//! full proof of one point or the best of several, and the loop's cheaper judgement.

use super::dual::Dual;
use super::point::{Checker, CANCELLATION};
use super::primal::{At, PrimalSide};
use std::sync::Arc;
use super::rounding::{add_down, add_up, div_up, mul_up, LowerSum};
use super::{Accuracy, DualBound, Enclosure, Verification, VERIFY_FACTOR};

impl Checker<'_> {

    /// x's componentwise backward error β (see [`super`]): NaN counts as infinite.
    pub(crate) fn backward_error(&self, x: &[f64]) -> f64 {
        let b = self.primal(x).backward_error;
        if b.is_nan() {
            f64::INFINITY
        } else {
            b
        }
    }

    /// Each row's backward error at x.
    pub(crate) fn row_backward_errors(&self, x: &[f64]) -> Vec<f64> {
        self.primal(x).rows.clone()
    }

    /// A failed verification that proves nothing, and why.
    fn failed(&self, tol: f64, why: &str) -> Verification {
        Verification::failed(tol, why)
    }

    /// Model-sense row duals as min-sense multipliers.
    fn min_sense(&self, y: &[f64]) -> Vec<f64> {
        y.iter().map(|v| self.sigma * v).collect()
    }

    /// The full proof of (x, y) at `tol`.
    pub(crate) fn verify(&self, x: &[f64], y: &[f64], tol: f64) -> Verification {
        if y.iter().any(|v| v.is_nan()) {
            // The bound would still be proven with the NaN set to zero, but an answer with a
            // NaN in it is no answer.
            return self.failed(tol, "a row dual is NaN");
        }
        let primal = self.primal(x);
        self.verify_best_of(std::slice::from_ref(&primal), y, tol, true).1
    }

    /// The best grade of the primal sides `ps` (at least one) with the duals y, the dual side
    /// tried again without its cost-negligible parts where the best does not pass; `repair`:
    /// whether multipliers that prove no bound are corrected (about an iteration's work, spared
    /// where the answer is a certificate and the point only says how far it got).
    fn verify_best_of(&self, ps: &[Arc<PrimalSide>], y: &[f64], tol: f64, repair: bool) -> (usize, Verification) {
        let constant = self.sigma * self.model.obj_constant;
        let y = self.min_sense(y);
        let mut dual = self.dual(&self.cost, constant, &y, tol, repair, None);
        if matches!(dual.how, DualBound::Estimated) {
            dual.how = DualBound::Unproven { reason: "no finite bound without the multipliers' correction, not tried for a certificate's point".into() };
        }
        let key = |v: &Verification| (v.accuracy, v.worst());
        let better = |a: &(usize, Verification), b: &(usize, Verification)| {
            key(&a.1).partial_cmp(&key(&b.1)).unwrap_or(std::cmp::Ordering::Equal)
        };
        let graded = |dual: &Dual| {
            ps.iter().enumerate().map(|(k, p)| (k, self.grade(p, dual, tol, false))).min_by(better).expect("one point at least")
        };
        let best = graded(&dual);
        if best.1.accuracy == Accuracy::Tolerance {
            return best;
        }
        match self.cost_cleaned(constant, &dual.multipliers) {
            Some(cleaned) => [best, graded(&cleaned)].into_iter().min_by(better).expect("two"),
            None => best,
        }
    }

    /// The proof of the best of the points `xs` with the duals y: the same dual side for all,
    /// the point with the best grade (then the smallest measure). `None` for no points.
    /// `repair`: as for [`Self::verify_best_of`].
    pub(crate) fn verify_best(&self, xs: &[Vec<f64>], y: &[f64], tol: f64, repair: bool) -> Option<(usize, Verification)> {
        if y.iter().any(|v| v.is_nan()) {
            return (!xs.is_empty()).then(|| (0, self.failed(tol, "a row dual is NaN")));
        }
        if xs.is_empty() {
            return None;
        }
        let ps: Vec<Arc<PrimalSide>> = xs.iter().map(|x| self.primal(x)).collect();
        Some(self.verify_best_of(&ps, y, tol, repair))
    }

    /// The loop's judgement of the points `xs` with the duals y: max(β/ε, width/(VERIFY_FACTOR·ε))
    /// of the best (at most 1: it passes). The dual side is repaired only where its estimate
    /// would pass and the judgement is `decisive` (it can end the loop; a repair costs about an
    /// iteration); otherwise the estimate stands in.
    pub(crate) fn judge(&self, xs: &[Vec<f64>], y: &[f64], tol: f64, decisive: bool) -> f64 {
        if y.iter().any(|v| v.is_nan()) {
            return f64::INFINITY;
        }
        let constant = self.sigma * self.model.obj_constant;
        let ratio = |v: &Verification| v.worst() / (VERIFY_FACTOR * tol);
        let (x0, y) = (xs.first().map(|x| x.as_slice()), self.min_sense(y));
        let dual = self.dual(&self.cost, constant, &y, tol, false, x0);
        let estimated = matches!(dual.how, DualBound::Estimated);
        // The points one at a time: the first that passes ends the judgement (each is a pass
        // over A).
        let mut primals: Vec<Arc<PrimalSide>> = Vec::with_capacity(xs.len());
        let mut best_ratio = f64::INFINITY;
        for x in xs {
            let p = self.primal(x);
            best_ratio = best_ratio.min(ratio(&self.grade(&p, &dual, tol, estimated)));
            primals.push(p);
            if best_ratio <= 1.0 {
                break;
            }
        }
        if estimated && best_ratio <= 1.0 {
            // The estimate passed one point; the repaired bound may not pass it, so every
            // point is weighed against that bound.
            for x in &xs[primals.len()..] {
                primals.push(self.primal(x));
            }
        }
        let best = |dual: &Dual, estimated: bool| {
            primals.iter().map(|p| ratio(&self.grade(p, dual, tol, estimated))).fold(f64::INFINITY, f64::min)
        };
        // An optimum of exactly 0: the point passes on β, the width only without the dual's
        // cost-negligible parts.
        let cleaned = |ratio: f64| {
            if ratio <= 1.0 || !primals.iter().any(|p| p.backward_error <= VERIFY_FACTOR * tol) {
                return ratio;
            }
            self.cost_cleaned(constant, &dual.multipliers).map_or(ratio, |d| ratio.min(best(&d, false)))
        };
        if !estimated || best_ratio > 1.0 || !decisive {
            return cleaned(best_ratio);
        }
        let repaired = self.dual(&self.cost, constant, &y, tol, true, None);
        cleaned(best(&repaired, false))
    }

    /// The verification of a primal side with a dual side; `estimated`: the dual's estimate
    /// stands in for its bound (the loop's judgement only).
    fn grade(&self, p: &PrimalSide, d: &Dual, tol: f64, estimated: bool) -> Verification {
        let s = self.sigma;
        let dual_min = if estimated { d.estimate } else { d.side.lower };
        // The primal end: x's objective, with each row's violation priced at its multiplier
        // (for every y, the dual side at y is at most cᵀx + Σ |yᵢ|·violationᵢ, so at an optimal
        // dual this bounds the optimum; with x feasible it is cᵀx alone).
        let mut charge = LowerSum::default();
        for (v, price) in p.violation.iter().zip(&d.price) {
            if *v > 0.0 {
                charge.add(-mul_up(*v, *price));
            }
        }
        let charge = -charge.lower();
        // Model sense: a minimization's dual side is its lower end, a maximization's its upper.
        let enclosure = if s > 0.0 {
            Enclosure { lower: dual_min, upper: add_up(p.objective.1, charge) }
        } else {
            Enclosure { lower: add_down(p.objective.0, -charge), upper: -dual_min }
        };
        // The objective's own size: its terms at the point and the enclosure's ends, with a
        // small share of the dual side's terms for an objective that cancels to nothing.
        let ends = |v: f64| if v.is_finite() { v.abs() } else { 0.0 };
        let size = p.size.max(ends(enclosure.lower)).max(ends(enclosure.upper)) + CANCELLATION * d.side.size;
        let gap = (enclosure.upper - enclosure.lower).abs();
        let width = if gap == 0.0 {
            0.0
        } else if size > 0.0 {
            div_up(gap, size)
        } else {
            f64::INFINITY
        };
        let width = if enclosure.lower.is_nan() || enclosure.upper.is_nan() { f64::NAN } else { width };
        let beta = p.backward_error;
        let reduced = (VERIFY_FACTOR * tol).sqrt();
        let accuracy = if beta <= VERIFY_FACTOR * tol && width <= VERIFY_FACTOR * tol {
            Accuracy::Tolerance
        } else if beta <= reduced && width <= reduced {
            Accuracy::Reduced
        } else {
            Accuracy::Failed
        };
        let worst = p.worst.map(|at| match at {
            At::Row(i) => format!("row {}", self.model.row_name(i)),
            At::Column(j) => format!("bound of column {}", self.model.col_name(j)),
        });
        Verification {
            objective: p.value,
            enclosure,
            primal_backward_error: beta,
            worst,
            width,
            objective_size: size,
            violation_charge: charge,
            dual_bound: if estimated { DualBound::Estimated } else { d.how.clone() },
            tolerance: VERIFY_FACTOR * tol,
            accuracy,
        }
    }
}
