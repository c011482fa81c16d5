//! The Newton side of an iteration: Mehrotra's starting point, the residuals, and one
//! predictor-corrector step (the directions themselves are in [`super::direction`]).

use super::direction::{Accuracy, Compl};
use super::{Direction, Residuals, Run, State, FREE_PAIR_CAP, R};
use crate::lp::backend::{
    NormalEquations, PredictorParts, Reduction, ResidualProducts, VectorKernels, MIXED_MAX_REFINEMENTS,
};

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// Mehrotra's starting point (Wright, ch. 10): least-norm x̃ = Aᵀ(AAᵀ)⁻¹b and least-squares
    /// (λ̃, s̃), shifted to be positive and then balanced so that xᵀs is spread evenly.
    ///
    /// With upper bounds the least-norm problems include the bound slacks:
    /// min ‖x‖² + ‖w‖² s.t. A·x = b, x + w = u gives x̃ = Θ₀(Aᵀy + u), w̃ = u − x̃ with
    /// A·Θ₀·Aᵀ·y = b − A·Θ₀·u, and min ‖s‖² + ‖z‖² s.t. Aᵀλ + s − z = c gives s̃ = Θ₀·r,
    /// z̃ = s̃ − r on bounded columns, r = c − Aᵀλ̃, A·Θ₀·Aᵀ·λ̃ = A·Θ₀·c; Θ₀ = ½ on bounded
    /// columns and 1 elsewhere (one factorization). The shifts then cover (x, w) and (s, z).
    pub(super) fn starting_point(&mut self, b: &V::Vector, c: &V::Vector) -> R<State<V::Vector>> {
        let (_, n) = self.vk.dims();
        let ones = self.vk.fill(n, 1.0)?;
        let Some((u, mask)) = self.bounds.as_ref().map(|bd| (&bd.u, &bd.mask)) else {
            return self.plain_start(b, c, &ones);
        };
        let vk = &mut *self.vk;
        let theta0 = vk.lincomb(1.0, &ones, -0.5, mask)?;
        let tu = vk.mul(&theta0, u)?;
        let rhs = vk.a_mul(-1.0, &tu, Some((1.0, b)))?;
        let tc = vk.mul(&theta0, c)?;
        let ac = vk.a_mul(1.0, &tc, None)?;
        self.assemble_and_factor(&theta0)?;
        let y = self.solve_normal(&rhs)?;
        let lambda = self.solve_normal(&ac)?;
        let (u, mask) = match self.bounds.as_ref() {
            Some(bd) => (&bd.u, &bd.mask),
            None => return Err(crate::lp::backend::BackendError::Device("bounds vanished".into())),
        };
        let vk = &mut *self.vk;
        let aty = vk.at_mul(1.0, &y, Some((1.0, u)))?;
        let x_t = vk.mul(&theta0, &aty)?;
        let u_x = vk.lincomb(1.0, u, -1.0, &x_t)?;
        let w_t = vk.mul(mask, &u_x)?;
        let r = vk.at_mul(-1.0, &lambda, Some((1.0, c)))?;
        let s_t = vk.mul(&theta0, &r)?;
        let s_r = vk.lincomb(1.0, &s_t, -1.0, &r)?;
        let z_t = vk.mul(mask, &s_r)?;
        let dx = (-1.5 * vk.reduce(Reduction::Min, &x_t)?.min(vk.reduce(Reduction::Min, &w_t)?)).max(0.0);
        let ds = (-1.5 * vk.reduce(Reduction::Min, &s_t)?.min(vk.reduce(Reduction::Min, &z_t)?)).max(0.0);
        let x_h = vk.add_scalar(&x_t, dx)?;
        let w_h = vk.lincomb(1.0, &w_t, dx, mask)?;
        let s_h = vk.add_scalar(&s_t, ds)?;
        let z_h = vk.lincomb(1.0, &z_t, ds, mask)?;
        let xs = vk.dot(&x_h, &s_h)? + vk.dot(&w_h, &z_h)?;
        let sum_x = vk.reduce(Reduction::Sum, &x_h)? + vk.reduce(Reduction::Sum, &w_h)?;
        let sum_s = vk.reduce(Reduction::Sum, &s_h)? + vk.reduce(Reduction::Sum, &z_h)?;
        let (mut dx2, mut ds2) = (0.5 * xs / sum_s, 0.5 * xs / sum_x);
        if !(xs > 0.0 && dx2.is_finite() && ds2.is_finite()) {
            dx2 = 1.0;
            ds2 = 1.0;
        }
        let x = vk.add_scalar(&x_h, dx2)?;
        let s = vk.add_scalar(&s_h, ds2)?;
        // w = ŵ + δx₂ on bounded columns and 1 elsewhere; z = ẑ + δs₂ on bounded columns, 0 elsewhere.
        let w = vk.lincomb(1.0, &w_h, dx2 - 1.0, mask)?;
        let w = vk.add_scalar(&w, 1.0)?;
        let z = vk.lincomb(1.0, &z_h, ds2, mask)?;
        Ok(State { x, lambda, s, wz: Some((w, z)) })
    }

    /// Mehrotra's starting point without upper bounds (the papers' computation).
    fn plain_start(&mut self, b: &V::Vector, c: &V::Vector, ones: &V::Vector) -> R<State<V::Vector>> {
        self.assemble_and_factor(ones)?;
        let u = self.solve_normal(b)?;
        let x_t = self.vk.at_mul(1.0, &u, None)?;
        let ac = self.vk.a_mul(1.0, c, None)?;
        let lambda = self.solve_normal(&ac)?;
        let vk = &mut *self.vk;
        let s_t = vk.at_mul(-1.0, &lambda, Some((1.0, c)))?;
        let dx = (-1.5 * vk.reduce(Reduction::Min, &x_t)?).max(0.0);
        let ds = (-1.5 * vk.reduce(Reduction::Min, &s_t)?).max(0.0);
        let x_h = vk.add_scalar(&x_t, dx)?;
        let s_h = vk.add_scalar(&s_t, ds)?;
        let xs = vk.dot(&x_h, &s_h)?;
        let (sum_x, sum_s) = (vk.reduce(Reduction::Sum, &x_h)?, vk.reduce(Reduction::Sum, &s_h)?);
        let (mut dx2, mut ds2) = (0.5 * xs / sum_s, 0.5 * xs / sum_x);
        // Degenerate data (b = 0 gives x̃ = 0, c in range(Aᵀ) gives s̃ = 0): xᵀs = 0 would leave a
        // zero iterate; shift by one instead, which keeps the point interior.
        if !(xs > 0.0 && dx2.is_finite() && ds2.is_finite()) {
            dx2 = 1.0;
            ds2 = 1.0;
        }
        Ok(State { x: vk.add_scalar(&x_h, dx2)?, lambda, s: vk.add_scalar(&s_h, ds2)?, wz: None })
    }

    /// Residuals and objectives: sgemv with vector addition, then reductions (Algorithm 3).
    ///
    /// In double precision a backend that can ([`VectorKernels::residual_products`])
    /// also forms the affine predictor's t and r_b + A·t from the same read of A, for
    /// `step_once` (the predictor's right-hand side then costs no pass of its own; the numbers
    /// are those the predictor would compute).
    pub(super) fn residuals(&mut self, b: &V::Vector, c: &V::Vector, st: &State<V::Vector>) -> R<Residuals<V::Vector>> {
        self.newton.predictor = None;
        let r_u = self.upper_residual(st)?;
        let products = match self.single {
            true => self.vk.residual_products(&st.x, &st.lambda, None)?,
            false => self.products_with_predictor(c, st, r_u.as_ref())?,
        };
        let ResidualProducts { ax, aty: atl, predictor } = products;
        let vk = &mut *self.vk;
        let r_b = vk.lincomb(1.0, b, -1.0, &ax)?;
        let c_minus_atl = vk.lincomb(1.0, c, -1.0, &atl)?;
        let mut r_c = vk.lincomb(1.0, &c_minus_atl, -1.0, &st.s)?;
        if let (Some((_, z)), Some(_)) = (&st.wz, &self.bounds) {
            r_c = vk.lincomb(1.0, &r_c, 1.0, z)?;
        }
        if let Some((t, at)) = predictor {
            // What `a_mul(1, t, Some((1, r_b)))` gives: 1·r_b, then + 1·(A·t).
            let rhs = vk.lincomb(1.0, &r_b, 1.0, &at)?;
            self.newton.predictor = Some((t, rhs));
        }
        Ok(Residuals { ax, atl, r_b, r_c, r_u })
    }

    /// u − x − w on the bounded columns (0 elsewhere), with upper bounds.
    fn upper_residual(&mut self, st: &State<V::Vector>) -> R<Option<V::Vector>> {
        let (Some((w, _)), Some(bd)) = (&st.wz, &self.bounds) else { return Ok(None) };
        let vk = &mut *self.vk;
        let xw = vk.lincomb(1.0, &st.x, 1.0, w)?;
        let mxw = vk.mul(&bd.mask, &xw)?;
        Ok(Some(vk.lincomb(1.0, &bd.u, -1.0, &mxw)?))
    }

    /// A·x and Aᵀλ, with the affine predictor's (t, A·t) for ρ = 0 where the backend fuses
    /// them, its pieces computed as `direction` computes them.
    fn products_with_predictor(
        &mut self,
        c: &V::Vector,
        st: &State<V::Vector>,
        r_u: Option<&V::Vector>,
    ) -> R<ResidualProducts<V::Vector>> {
        let theta = self.theta_with(st, 0.0)?;
        let vk = &mut *self.vk;
        let xs = vk.mul(&st.x, &st.s)?;
        let q = vk.div(&xs, &st.x)?;
        let p = match (&st.wz, r_u) {
            (Some((w, z)), Some(r_u)) => {
                let wz = vk.mul(w, z)?;
                let zr = vk.mul(z, r_u)?;
                let num = vk.lincomb(1.0, &wz, 1.0, &zr)?;
                Some(vk.div(&num, w)?)
            }
            _ => None,
        };
        let z = st.wz.as_ref().filter(|_| self.bounds.is_some()).map(|(_, z)| z);
        let parts = PredictorParts { theta: &theta, c, s: &st.s, z, q: &q, p: p.as_ref() };
        vk.residual_products(&st.x, &st.lambda, Some(&parts))
    }

    /// The largest primal and dual steps in [0, 1] that keep (x, w) and (s, z) non-negative.
    pub(super) fn max_steps(&mut self, st: &State<V::Vector>, d: &Direction<V::Vector>) -> R<(f64, f64)> {
        let vk = &mut *self.vk;
        let mut ap = vk.max_step(&st.x, &d.dx)?;
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
    /// When even the refined direction misses A·Δx = r_b by more than the current primal
    /// residual (the step would make the iterate *less* feasible), the step is computed again
    /// with primal regularization Θ = (S/X + Z/W + ρ)⁻¹, ρ = [`PRIMAL_REGULARIZATION`], kept
    /// for the rest of the run (see there why).
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
        if self.newton.factor.inexact {
            if self.newton.step_error <= self.inexact_target() {
                // The preconditioner no longer saves more than it costs.
                if self.newton.refinements - before > MIXED_MAX_REFINEMENTS {
                    self.ne.require_exact();
                }
            } else if self.ne.require_exact() {
                // The single-precision preconditioner could not deliver: redo it exactly.
                self.newton.step_error = 0.0;
                out = self.step_once(state, res, mu, nf)?;
            }
        }
        let primal = self.last.primal_infeasibility.max(self.st.tolerance());
        if self.single || self.newton.primal_regularization > 0.0 || self.newton.step_error.is_nan() || self.newton.step_error <= primal {
            return Ok(out);
        }
        self.newton.primal_regularization = PRIMAL_REGULARIZATION;
        self.step_once(state, res, mu, nf)
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
        let general = wz.is_some() || self.newton.primal_regularization > 0.0 || !self.single;

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
        let r_xs = vk.add_scalar(&r_xs, -sigma * mu)?;
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
        let (mut sum, mut least) = (vk.reduce(Reduction::Sum, &v)?, vk.reduce(Reduction::Min, &v)?);
        if let (Some((w, z)), Some((dw, dz)), Some(bd)) = (&st.wz, &d.dwz, &self.bounds) {
            let v = super::correctors::trial_products(vk, w, z, dw, dz, tp, td)?;
            sum += vk.reduce(Reduction::Sum, &v)?;
            // Unbounded columns (w = 1, z = 0) have no pair: lifted to the floor, which stays
            // finite in single precision (a huge lift would not).
            let floor = LONG_STEP_CENTRALITY * sum / nf;
            let bounded = vk.mul(&bd.mask, &v)?;
            let off = vk.add_scalar(&bd.mask, -1.0)?;
            let lifted = vk.lincomb(1.0, &bounded, -floor, &off)?;
            least = least.min(vk.reduce(Reduction::Min, &lifted)?);
        }
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
