//! When the loop stops: every termination test, in one place and in the order they are tried.
//!
//! 1. a non-finite measure: numerical failure;
//! 2. optimality: (6.1)–(6.3) or the 2008 paper's (3.15) ([`converged`]), or, with a judge, the
//!    independent check on the original model (which then decides);
//! 3. infeasibility: certificates (rays), then a stalling residual (proof of nothing in single
//!    precision);
//! 4. single precision without progress ([`NO_PROGRESS_ITERATIONS`]);
//! 5. the caller's interrupt and deadline, the iteration limit;
//! 6. both step lengths below [`STEP_COLLAPSE`].
//!
//! Besides the tests, the part keeps what they need across iterations: the first iteration's
//! measures, the best iterate by [`merit`] and the best judged one.

use super::infeasibility::{certificates, stalled_residual, Bounded};
use super::{Judge, Residuals, Run, State, Stop, R};
use crate::clock::Instant;
use crate::lp::backend::{NormalEquations, VectorKernels};
use crate::lp::log::IterationInfo;
use crate::lp::settings::StoppingRule;
use crate::lp::status::Status;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// Both step lengths below this means no representable progress: numerical failure.
pub const STEP_COLLAPSE: f64 = 1e-12;

/// In single precision, iterations without a new best iterate (by [`merit`]) after which the
/// loop stops: the arithmetic's floor has been reached and further steps only wander (seen on
/// the random family at m = 512: within 4% of ε = 1e-4 at iteration 11, then 190 iterations
/// without progress). The best iterate is returned and graded by verification like any
/// numerical failure. Double precision has no such rule: there a stalling merit is what the
/// infeasibility tests need time to see.
pub const NO_PROGRESS_ITERATIONS: usize = 10;

/// The check's own factor: a judged point within it of passing (measures ≤ 100·ε) starts the
/// judge's patience, and one within its inverse (measures ≤ ε) stops the loop as optimal.
pub const JUDGE_WINDOW: f64 = crate::lp::verify::VERIFY_FACTOR;

/// The loop's merit (its own measures) below which iterates are judged: JUDGE_REACH·ε.
pub const JUDGE_REACH: f64 = 1e3;

/// A judged ratio from which a point is far from any proof (its width or β of order 1e-3 at
/// ε = 1e-8): the next iterate is unlikely to pass either.
pub const JUDGE_HOPELESS: f64 = 1e5;

/// Judged iterations without a better judged point after which the loop stops with the best
/// one (near the end each iteration either improves the point or ruins it: degenerate problems
/// lose the last digits to a factorization that can no longer resolve A·Θ·Aᵀ). One, where the
/// best already passes.
pub const JUDGE_PATIENCE: usize = 3;

/// The merit by which the best iterate is kept for limits and failures, and by which single
/// precision's progress is judged: the largest of the primal and dual measures of (6.1)–(6.2)
/// and `progress_gap`, the papers' |cᵀx − bᵀλ| / (1 + |cᵀx|) on the scaled standard form. That
/// gap falls with μ from the first iteration on, where the relative gap of the log (and of the
/// check) stays near 1 while the objectives are far apart (modszk1: its first 12 iterations);
/// it is no test of optimality, which only the check on the original model makes.
pub fn merit(info: &IterationInfo, progress_gap: f64) -> f64 {
    let parts = [info.primal_infeasibility, info.dual_infeasibility, progress_gap];
    // `f64::max` drops a NaN operand: test for it first, so that NaN is never a good merit.
    if parts.iter().any(|v| v.is_nan()) {
        return f64::INFINITY;
    }
    info.primal_infeasibility.max(info.dual_infeasibility).max(progress_gap)
}

/// The termination test `rule` on an iteration's measures; `norms` = (‖b‖∞, ‖c‖∞, ‖A‖∞). The
/// measures and norms are those of the standard form in the model's units (`lp::units`), whose
/// weights make the residuals the independent check's: so the test does not depend on the units
/// the model was written in.
pub fn converged(rule: StoppingRule, info: &IterationInfo, [b, c, a]: [f64; 3], eps: f64) -> bool {
    // `f64::max` below would drop a NaN measure: NaN never converges.
    if [info.primal_infeasibility, info.dual_infeasibility, info.relative_gap].iter().any(|v| v.is_nan()) {
        return false;
    }
    match rule {
        StoppingRule::Separate => {
            info.primal_infeasibility <= eps && info.dual_infeasibility <= eps && info.relative_gap <= eps
        }
        StoppingRule::Combined315 => {
            // The log's measures are ‖r_b‖∞/(1 + ‖b‖∞) and ‖r_c‖∞/(1 + ‖c‖∞): undo the scaling.
            let r = (info.primal_infeasibility * (1.0 + b)).max(info.dual_infeasibility * (1.0 + c));
            let scale = b.max(c).max(a).max(f64::MIN_POSITIVE);
            (r / scale).max(info.relative_gap) <= eps
        }
    }
}

/// The best state so far by [`merit`], kept on the backend (no download until the end).
pub(super) struct Best<T> {
    pub merit: f64,
    pub iteration: usize,
    pub state: State<T>,
}

/// What the termination tests keep across iterations, and what they hand to the outcome.
pub(super) struct Termination<'a, T> {
    /// The caller's grading on the original model.
    judge: Option<Judge<'a>>,
    /// The first iteration's measures: the stalling test's reference.
    first: Option<IterationInfo>,
    /// The best state by [`merit`].
    pub best: Option<Best<T>>,
    /// The best judged state (ratio, state).
    pub judged: Option<(f64, State<T>)>,
    /// Whether that ratio came from a decisive judgement (see [`Judge`]).
    judged_decisive: bool,
    /// Judged iterations without a better judged point since the best came within
    /// [`JUDGE_WINDOW`] of passing.
    since_judged: usize,
    /// Iterations in a row whose own test passed but whose judgement did not.
    converged_unproven: usize,
    /// Whether the last iteration was judged.
    judged_last: bool,
    /// The residual ray of an infeasible outcome (see [`super::MpcOutcome::residual_ray`]).
    pub ray: Option<Vec<f64>>,
}

impl<'a, T> Termination<'a, T> {
    pub fn new(judge: Option<Judge<'a>>) -> Self {
        Termination {
            judge,
            first: None,
            best: None,
            judged: None,
            judged_decisive: false,
            since_judged: 0,
            converged_unproven: 0,
            judged_last: false,
            ray: None,
        }
    }
}

/// Stop, or go on with the state handed back.
pub(super) type Verdict<T> = ControlFlow<Stop<T>, State<T>>;

/// What the tests see of an iteration besides its state: the residuals, the log's measures and
/// (‖b‖∞, ‖c‖∞) of the scaled standard form.
pub(super) struct Measured<'r, T> {
    pub res: &'r Residuals<T>,
    pub info: &'r IterationInfo,
    pub b_norm: f64,
    pub c_norm: f64,
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// Runs the tests on `state`; `Continue` hands it back for the next step.
    pub(super) fn terminate(
        &mut self,
        state: State<V::Vector>,
        m: Measured<'_, V::Vector>,
    ) -> R<Verdict<V::Vector>> {
        use ControlFlow::{Break, Continue};
        let Measured { res, info, b_norm, c_norm } = m;
        let (k, pobj, dobj) = (info.iteration, info.primal_objective, info.dual_objective);
        let scalars = [pobj, dobj, info.mu, info.primal_infeasibility, info.dual_infeasibility];
        if scalars.iter().any(|v| !v.is_finite()) {
            let why = "non-finite iterate (NaN or Inf in the residuals or objectives)".to_string();
            return Ok(Break((Status::NumericalFailure, None, why)));
        }
        let offset = self.p.weights.as_ref().map_or(0.0, |w| w.objective_offset);
        let merit_now = merit(info, (pobj - dobj).abs() / (1.0 + (pobj + offset).abs()));
        if self.stop.best.as_ref().is_none_or(|b| merit_now < b.merit) {
            let kept = self.copy(&state)?;
            self.stop.best = Some(Best { merit: merit_now, iteration: k, state: kept });
        }
        // With a judge, the independent check decides, every iteration (the loop's own measures
        // live in the scaled standard form, whose units are not the model's: only the check on
        // the original model can say a point is optimal).
        let eps = self.st.tolerance();
        let done = converged(self.st.stopping(), info, [b_norm, c_norm, self.p.a_norm_inf], eps);
        match self.stop.judge {
            // The proof costs passes over A: it is asked for once the loop's own measures are
            // within JUDGE_REACH of the tolerance (an iterate further out cannot pass it).
            Some(judge) if done || merit_now <= JUDGE_REACH * eps => {
                // While every judgement so far was hopeless, an iterate the loop's own test
                // does not pass is judged every other iteration only.
                let hopeless = self.stop.judged.as_ref().is_some_and(|(r, _)| *r >= JUDGE_HOPELESS);
                if !done && hopeless && self.stop.judged_last {
                    self.stop.judged_last = false;
                } else {
                    self.stop.judged_last = true;
                    if let Some(stop) = self.consult(judge, &state, done)? {
                        return Ok(Break(stop));
                    }
                }
            }
            Some(_) => {}
            None if done => return Ok(Break((Status::Optimal, Some(state), String::new()))),
            None => {}
        }
        if let Some((status, why)) = self.infeasible(&state, res, info, b_norm, c_norm)? {
            return Ok(Break((status, Some(state), why)));
        }
        let best_k = self.stop.best.as_ref().map_or(0, |b| b.iteration);
        if self.single && k >= best_k + NO_PROGRESS_ITERATIONS {
            let why = format!(
                "no progress in single precision: the best iterate (iteration {best_k}, merit {:.2e}) was not improved on in {NO_PROGRESS_ITERATIONS} iterations (the f32 factor of A·D²·Aᵀ no longer resolves the direction: the primal residual grows with every step)",
                self.stop.best.as_ref().map_or(f64::NAN, |b| b.merit)
            );
            return Ok(Break((Status::NumericalFailure, Some(state), why)));
        }
        let (p, st) = (self.p, self.st);
        let limit = if st.interrupt().is_some_and(|f| f.load(Ordering::Relaxed)) {
            Some((Status::Interrupted, format!("interrupted at iteration {k}")))
        } else if p.deadline.is_some_and(|d| Instant::now() >= d) {
            Some((Status::TimeLimit, format!("time limit reached at iteration {k}")))
        } else if k >= st.max_iterations() {
            Some((Status::IterationLimit, String::new()))
        } else if k > 0 && info.alpha_primal < STEP_COLLAPSE && info.alpha_dual < STEP_COLLAPSE {
            Some((Status::NumericalFailure, "step lengths collapsed".into()))
        } else {
            None
        };
        Ok(match limit {
            Some((status, why)) => Break((status, Some(state), why)),
            None => Continue(state),
        })
    }

    /// The infeasibility tests: certificates, then a stalling residual; keeps the ray of a
    /// verdict.
    fn infeasible(
        &mut self,
        state: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        info: &IterationInfo,
        b_norm: f64,
        c_norm: f64,
    ) -> R<Option<(Status, String)>> {
        let (p, st) = (self.p, self.st);
        let bounded = match (&state.wz, &self.bounds) {
            (Some((_, z)), Some(bd)) => Some(Bounded { z, mask: &bd.mask, x: &state.x }),
            _ => None,
        };
        let (pobj, dobj) = (info.primal_objective, info.dual_objective);
        let free = self.free.as_ref().map(|f| &f.mask);
        let verdict = match certificates(&mut *self.vk, p, st, &res.ax, &res.atl, bounded, free, pobj, dobj, b_norm, c_norm)? {
            Some(v) => Some(v),
            None => {
                let start = self.stop.first.get_or_insert_with(|| info.clone());
                match stalled_residual(start, info, st.tolerance()) {
                    // In single precision a stalling residual is the arithmetic's floor as often
                    // as it is infeasibility: without a certificate, it is not proof of either.
                    Some((_, why)) if self.single => {
                        let why = format!(
                            "{why}; in single precision this proves nothing: try a larger ε or the hybrid backend"
                        );
                        return Ok(Some((Status::NumericalFailure, why)));
                    }
                    v => v,
                }
            }
        };
        if let Some((status, _)) = &verdict {
            self.keep_ray(*status, res)?;
        }
        Ok(verdict)
    }

    /// Keeps the ray of an infeasibility verdict: r_b (primal) or −r_c (dual).
    fn keep_ray(&mut self, status: Status, res: &Residuals<V::Vector>) -> R<()> {
        self.stop.ray = match status {
            Status::PrimalInfeasible => Some(self.vk.download(&res.r_b)?),
            Status::DualInfeasible => Some(self.vk.download(&res.r_c)?.into_iter().map(|v| -v).collect()),
            _ => None,
        };
        Ok(())
    }

    /// Grades `state` with `judge`; `Some` when the loop stops. `done`: the loop's own test
    /// passes.
    fn consult(&mut self, judge: Judge<'_>, state: &State<V::Vector>, done: bool) -> R<Option<Stop<V::Vector>>> {
        let decisive = done || self.single;
        let ratio = judge(&self.download(state)?, decisive);
        // The loop's tests pass and the proof at its own tolerance (10ε) does: the papers'
        // stopping rule, confirmed. In single precision, whose loop may never reach its own
        // test, the proof passing at ε itself ends it too. (In double precision the proof can
        // pass at ε a step or two before the loop's test: the objective is then within ε of
        // its size, x and the duals not yet at the accuracy the loop's test gives them.)
        let passes = (done && ratio <= 1.0) || (self.single && ratio <= 1.0 / JUDGE_WINDOW);
        if passes {
            return Ok(Some((Status::Optimal, Some(self.copy(state)?), String::new())));
        }
        if self.stop.judged.as_ref().is_none_or(|(r, _)| ratio < *r) {
            self.stop.judged = Some((ratio, self.copy(state)?));
            self.stop.judged_decisive = decisive;
            self.stop.since_judged = 0;
        } else if self.stop.judged.as_ref().is_some_and(|(r, _)| *r <= JUDGE_WINDOW) {
            self.stop.since_judged += 1;
        }
        // The loop's own test keeps passing where the proof does not: further steps only wander
        // (the last digits of a degenerate problem), so the best judged point is returned.
        self.stop.converged_unproven = if done { self.stop.converged_unproven + 1 } else { 0 };
        let waited = self.stop.converged_unproven >= 2 * JUDGE_PATIENCE;
        // A best point that already passes waits for one better judgement only.
        let passing = self.stop.judged.as_ref().is_some_and(|(r, _)| *r <= 1.0);
        let patience = if passing { 1 } else { JUDGE_PATIENCE };
        if self.stop.since_judged < patience && !waited {
            return Ok(None);
        }
        let Some((mut best, kept)) = self.stop.judged.take() else { return Ok(None) };
        if best <= 1.0 && !self.stop.judged_decisive {
            // Ranked by an estimate: the point ends the loop only where it passes in full.
            best = judge(&self.download(&kept)?, true);
            self.stop.judged_decisive = true;
            if best > 1.0 {
                self.stop.judged = Some((best, kept));
                return Ok(None);
            }
        }
        if best <= 1.0 {
            let why = format!("the best checked point (ratio {best:.2}) is returned");
            return Ok(Some((Status::Optimal, Some(kept), why)));
        }
        let why = format!("the check on the original model stays at {best:.1}× its tolerance");
        self.stop.judged = Some((best, kept));
        Ok(Some((Status::NumericalFailure, Some(self.copy(state)?), why)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(primal: f64, dual: f64, gap: f64) -> IterationInfo {
        IterationInfo {
            primal_infeasibility: primal,
            dual_infeasibility: dual,
            relative_gap: gap,
            ..Default::default()
        }
    }

    #[test]
    fn the_2008_rule_measures_residuals_against_the_largest_norm() {
        // ‖r_b‖ = 1e-6·(1 + 99) = 1e-4, ‖r_c‖ ≈ 0: (6.1) fails at ε = 1e-5, (3.15) divides by
        // max(‖b‖, ‖c‖, ‖A‖) = 1000 and passes (1e-7 ≤ 1e-5) — unless the gap fails it.
        let i = info(1e-6, 0.0, 1e-6);
        let norms = [99.0, 1.0, 1000.0];
        assert!(!converged(StoppingRule::Separate, &i, norms, 1e-7));
        assert!(converged(StoppingRule::Combined315, &i, norms, 1e-5));
        assert!(!converged(StoppingRule::Combined315, &info(1e-6, 0.0, 2e-5), norms, 1e-5));
        // With small data norms (3.15) is the stricter test.
        assert!(converged(StoppingRule::Separate, &info(1e-6, 1e-6, 1e-6), [0.0, 0.0, 0.5], 1e-6));
        assert!(!converged(StoppingRule::Combined315, &info(1e-6, 1e-6, 1e-6), [0.0, 0.0, 0.5], 1e-6));
    }

    #[test]
    fn a_nan_measure_never_converges_and_has_the_worst_merit() {
        for rule in [StoppingRule::Separate, StoppingRule::Combined315] {
            assert!(!converged(rule, &info(f64::NAN, 0.0, 0.0), [1.0; 3], 1e-6));
            assert!(!converged(rule, &info(0.0, 0.0, f64::NAN), [1.0; 3], 1e-6));
        }
        assert_eq!(merit(&info(f64::NAN, 0.0, 0.0), 0.0), f64::INFINITY);
        assert_eq!(merit(&info(1e-3, 2e-3, 0.0), 5e-3), 5e-3);
    }
}
