//! One predictor-corrector step: the affine predictor, σ, the combined direction and its
//! correctors, the step lengths, and the two checkpoints at which a step is redone (the
//! Newton directions themselves are in [`super::direction`]).

use super::direction::{Accuracy, Compl};
use super::{Direction, Residuals, Run, State, FREE_PAIR_CAP, R};
use crate::lp::backend::{NormalEquations, Reduction, VectorKernels, MIXED_MAX_REFINEMENTS};

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// The largest primal and dual steps in [0, 1] that keep (x, w) and (s, z) non-negative
    /// (x on the columns that are not free).
    pub(super) fn max_steps(&mut self, st: &State<V::Vector>, d: &Direction<V::Vector>) -> R<(f64, f64)> {
        let dx = self.without_free(&d.dx)?;
        let vk = &mut *self.vk;
        let mut ap = vk.max_step(&st.x, dx.as_ref().unwrap_or(&d.dx))?;
        let mut ad = vk.max_step(&st.s, &d.ds)?;
        if let (Some((w, z)), Some((dw, dz))) = (&st.wz, &d.dwz) {
            ap = ap.min(vk.max_step(w, dw)?);
            ad = ad.min(vk.max_step(z, dz)?);
        }
        Ok((ap, ad))
    }

    /// The complementarity after steps (αp, αd) along `d`: (x + αpΔx)ᵀ(s + αdΔs) + the same
    /// for (w, z).
    fn complementarity_after(&mut self, st: &State<V::Vector>, d: &Direction<V::Vector>, ap: f64, ad: f64) -> R<f64> {
        let vk = &mut *self.vk;
        let x_aff = vk.lincomb(1.0, &st.x, ap, &d.dx)?;
        let s_aff = vk.lincomb(1.0, &st.s, ad, &d.ds)?;
        let mut g = vk.dot(&x_aff, &s_aff)?;
        if let (Some((w, z)), Some((dw, dz))) = (&st.wz, &d.dwz) {
            let w_aff = vk.lincomb(1.0, w, ap, dw)?;
            let z_aff = vk.lincomb(1.0, z, ad, dz)?;
            g += vk.dot(&w_aff, &z_aff)?;
        }
        Ok(g)
    }

    /// The direction for the complementarity right-hand sides r_xs (and r_wz): the papers'
    /// formulas (`Compl::Plain`) unless `general`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve_compl(
        &mut self,
        st: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        theta: &V::Vector,
        r_xs: &V::Vector,
        r_wz: Option<&V::Vector>,
        general: bool,
        accuracy: Accuracy,
        base: Option<&(V::Vector, V::Vector)>,
    ) -> R<Direction<V::Vector>> {
        if general {
            self.direction(st, res, theta, Compl::General { rxs: r_xs, rwz: r_wz }, accuracy, base)
        } else {
            let r_xs_s = self.vk.div(r_xs, &st.s)?;
            self.direction(st, res, theta, Compl::Plain { rxs_over_s: &r_xs_s }, accuracy, base)
        }
    }

    /// One predictor-corrector step from `state`; returns the new state and the step lengths.
    ///
    /// Two checkpoints may redo it: [`Self::redo_exactly`] (a mixed-precision factor that could
    /// not deliver the inexact-Newton target: the step again with the exact factor) and
    /// [`Self::redo_regularized`] (a refined direction that still misses A·Δx = r_b by more than
    /// the current primal residual: the step again with primal regularization
    /// Θ = (S/X + Z/W + ρ)⁻¹, ρ = [`PRIMAL_REGULARIZATION`], for this step; see there why).
    pub(super) fn step(
        &mut self,
        state: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        mu: f64,
        nf: f64,
    ) -> R<(State<V::Vector>, f64, f64)> {
        self.newton.step_error = 0.0;
        self.newton.primal_regularization = 0.0;
        // Mixed precision: once the inexact-Newton target is the exact one, single-precision
        // products no longer save anything (see `backend::MixedPrecision`).
        if self.inexact_target() <= self.exact_target() {
            self.ne.require_exact();
        }
        let before = self.newton.refinements;
        let mut out = self.step_once(state, res, mu, nf)?;
        if self.redo_exactly(before) {
            self.newton.step_error = 0.0;
            out = self.step_once(state, res, mu, nf)?;
        }
        if self.redo_regularized() {
            self.newton.primal_regularization = PRIMAL_REGULARIZATION;
            out = self.step_once(state, res, mu, nf)?;
        }
        Ok(out)
    }

    /// The step's first checkpoint, after a step from an inexact (mixed-precision) factor:
    /// whether the single-precision preconditioner could not deliver, so the step is redone
    /// with the exact factor. A factor that delivered but needed more than
    /// [`MIXED_MAX_REFINEMENTS`] refinements is made exact from the next iteration on, since
    /// it no longer saves more than it costs.
    fn redo_exactly(&mut self, refinements_before: usize) -> bool {
        if !self.newton.factor.inexact {
            return false;
        }
        if self.newton.step_error <= self.inexact_target() {
            if self.newton.refinements - refinements_before > MIXED_MAX_REFINEMENTS {
                self.ne.require_exact();
            }
            return false;
        }
        self.ne.require_exact()
    }

    /// The step's second checkpoint: whether even the refined direction misses A·Δx = r_b by
    /// more than the current primal residual (the step would make the iterate less feasible),
    /// so the step is redone with primal regularization. Single precision has no refinement to
    /// judge by.
    fn redo_regularized(&self) -> bool {
        let primal = self.last.primal_infeasibility.max(self.st.tolerance());
        let error = self.newton.step_error;
        !(self.single || self.newton.primal_regularization > 0.0 || error.is_nan() || error <= primal)
    }

    fn step_once(
        &mut self,
        state: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        mu: f64,
        nf: f64,
    ) -> R<(State<V::Vector>, f64, f64)> {
        // Normal matrix for this iterate: D² = X·S⁻¹ (Θ with upper bounds).
        let theta = self.theta(state)?;
        self.assemble_and_factor(&theta)?;
        let vk = &mut *self.vk;
        let xs = vk.mul(&state.x, &state.s)?;
        let wz = match &state.wz {
            Some((w, z)) => Some(vk.mul(w, z)?),
            None => None,
        };
        // Single precision without upper bounds keeps the papers' formulas (and results).
        let general = wz.is_some() || self.newton.primal_regularization > 0.0 || !self.single || self.free.is_some();

        // Predictor: r_xs = X·S·e (S⁻¹·r_xs = x), r_wz = W·Z·e.
        let compl =
            if general { Compl::General { rxs: &xs, rwz: wz.as_ref() } } else { Compl::Plain { rxs_over_s: &state.x } };
        // The right-hand side made with the residuals is this predictor's only without ρ.
        let base = if self.newton.primal_regularization == 0.0 && general { self.newton.predictor.take() } else { None };
        let aff = self.direction(state, res, &theta, compl, Accuracy::Trial, base.as_ref());
        if base.is_some() {
            self.newton.predictor = base;
        }
        let aff = aff?;
        let (ap_aff, ad_aff) = self.max_steps(state, &aff)?;
        let mu_aff = self.complementarity_after(state, &aff, ap_aff, ad_aff)? / nf;
        let sigma = (mu_aff / mu).powi(3);

        // Combined predictor-corrector: r_xs = X·S·e + ΔX_aff·ΔS_aff·e − σμe (and the same for
        // (w, z) on the bounded columns).
        let vk = &mut *self.vk;
        let dxds = vk.mul(&aff.dx, &aff.ds)?;
        let r_xs = vk.lincomb(1.0, &xs, 1.0, &dxds)?;
        let r_xs = self.minus_on_pairs(&r_xs, sigma * mu)?;
        let vk = &mut *self.vk;
        let r_wz = match (&wz, &aff.dwz, &self.bounds) {
            (Some(wz), Some((dw, dz)), Some(bd)) => {
                let dwdz = vk.mul(dw, dz)?;
                let r_wz = vk.lincomb(1.0, wz, 1.0, &dwdz)?;
                Some(vk.lincomb(1.0, &r_wz, -sigma * mu, &bd.mask)?)
            }
            _ => None,
        };
        let dir = self.solve_compl(state, res, &theta, &r_xs, r_wz.as_ref(), general, Accuracy::Step, None)?;
        let (ap, ad) = self.max_steps(state, &dir)?;
        let (dir, ap, ad) = self.correctors(state, res, &theta, (dir, ap, ad), r_xs, r_wz, sigma * mu)?;

        let factor = self.step_factor(state, &dir, ap, ad, nf)?;
        let alpha_p = (factor * ap).min(1.0);
        let alpha_d = (factor * ad).min(1.0);
        let vk = &mut *self.vk;
        let x = vk.lincomb(1.0, &state.x, alpha_p, &dir.dx)?;
        let x = vk.recenter_free_pairs(&x, FREE_PAIR_CAP)?;
        let lambda = vk.lincomb(1.0, &state.lambda, alpha_d, &dir.dl)?;
        let s = vk.lincomb(1.0, &state.s, alpha_d, &dir.ds)?;
        let wz = match (&state.wz, &dir.dwz) {
            (Some((w, z)), Some((dw, dz))) => {
                Some((vk.lincomb(1.0, w, alpha_p, dw)?, vk.lincomb(1.0, z, alpha_d, dz)?))
            }
            _ => None,
        };
        Ok((State { x, lambda, s, wz }, alpha_p, alpha_d))
    }
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// The fraction of the largest steps (ap, ad) along `d` to take: the long one of
    /// [`Settings::long_step_factor`] when every product (x + αpΔx)ⱼ(s + αdΔs)ⱼ (and (w, z) on
    /// bounded columns) stays ≥ [`LONG_STEP_CENTRALITY`]·μ there, else [`Settings::step_factor`].
    ///
    /// [`Settings::long_step_factor`]: crate::lp::Settings::long_step_factor
    /// [`Settings::step_factor`]: crate::lp::Settings::step_factor
    fn step_factor(&mut self, st: &State<V::Vector>, d: &Direction<V::Vector>, ap: f64, ad: f64, nf: f64) -> R<f64> {
        let short = self.st.step_factor();
        let Some(long) = self.st.long_step_factor().filter(|&l| l > short) else { return Ok(short) };
        let (tp, td) = ((long * ap).min(1.0), (long * ad).min(1.0));
        let vk = &mut *self.vk;
        let v = super::correctors::trial_products(vk, &st.x, &st.s, &d.dx, &d.ds, tp, td)?;
        let mut sum = vk.reduce(Reduction::Sum, &v)?;
        let mut bounded_least = f64::INFINITY;
        if let (Some((w, z)), Some((dw, dz)), Some(bd)) = (&st.wz, &d.dwz, &self.bounds) {
            let v = super::correctors::trial_products(vk, w, z, dw, dz, tp, td)?;
            sum += vk.reduce(Reduction::Sum, &v)?;
            // Unbounded columns (w = 1, z = 0) have no pair: lifted to the floor, which stays
            // finite in single precision (a huge lift would not).
            let floor = LONG_STEP_CENTRALITY * sum / nf;
            let bounded = vk.mul(&bd.mask, &v)?;
            let off = vk.add_scalar(&bd.mask, -1.0)?;
            let lifted = vk.lincomb(1.0, &bounded, -floor, &off)?;
            bounded_least = vk.reduce(Reduction::Min, &lifted)?;
        }
        // Free columns (s = 0) have no pair either: their products, 0, lifted the same way.
        let least = match &self.free {
            Some(f) => {
                let lifted = vk.lincomb(1.0, &v, LONG_STEP_CENTRALITY * sum / nf, &f.mask)?;
                vk.reduce(Reduction::Min, &lifted)?
            }
            None => vk.reduce(Reduction::Min, &v)?,
        };
        let least = least.min(bounded_least);
        Ok(if least >= LONG_STEP_CENTRALITY * sum / nf { long } else { short })
    }
}

/// The centrality a long step must keep (see `Run::step_factor`): no complementarity product
/// below this fraction of the new μ. On greenbea 0.2 let the products fall apart (the iteration
/// limit); 0.25 to 0.5 kept it optimal in 94 iterations, and up to 0.3 the random family took
/// 12 iterations at m = 1024 (13 above).
pub const LONG_STEP_CENTRALITY: f64 = 0.3;

/// ρ of the primal regularization switched on when a direction cannot be refined to primal
/// accuracy (in the scaled problem's units). It bounds Θ by 1/ρ: the columns of basic variables
/// (s → 0, Θ → ∞) then no longer swamp A·Θ·Aᵀ, whose rows of nonbasic columns otherwise drown
/// in their rounding (scfxm2: the primal residual jumped from 3e-10 to 4e-2 at iteration 15
/// and stayed there, conjugate gradients unable to go below it). It perturbs only the
/// complementarity equations, by ρ·Δx; the primal equation A·Δx = r_b stays exact. Off by
/// default: on problems that do not need it a fixed ρ costs iterations (greenbea).
pub const PRIMAL_REGULARIZATION: f64 = 1e-10;
