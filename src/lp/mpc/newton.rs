//! The Newton side of an iteration: Mehrotra's starting point, the residuals, the directions
//! of (4.12)–(4.14), and one predictor-corrector step.

use super::{Direction, Residuals, Run, State, FREE_PAIR_CAP, R};
use crate::lp::backend::{NormalEquations, VectorKernels};

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// Mehrotra's starting point (Wright, ch. 10): least-norm x̃ = Aᵀ(AAᵀ)⁻¹b and least-squares
    /// (λ̃, s̃), shifted to be positive and then balanced so that xᵀs is spread evenly.
    pub(super) fn starting_point(&mut self, b: &V::Vector, c: &V::Vector) -> R<State<V::Vector>> {
        let (_, n) = self.vk.dims();
        let ones = self.vk.fill(n, 1.0)?;
        self.assemble_and_factor(&ones)?;
        let u = self.solve_normal(b)?;
        let x_t = self.vk.at_mul(1.0, &u, None)?;
        let ac = self.vk.a_mul(1.0, c, None)?;
        let lambda = self.solve_normal(&ac)?;
        let vk = &mut *self.vk;
        let s_t = vk.at_mul(-1.0, &lambda, Some((1.0, c)))?;
        let dx = (-1.5 * vk.min(&x_t)?).max(0.0);
        let ds = (-1.5 * vk.min(&s_t)?).max(0.0);
        let x_h = vk.add_scalar(&x_t, dx)?;
        let s_h = vk.add_scalar(&s_t, ds)?;
        let xs = vk.dot(&x_h, &s_h)?;
        let (sum_x, sum_s) = (vk.sum(&x_h)?, vk.sum(&s_h)?);
        let (mut dx2, mut ds2) = (0.5 * xs / sum_s, 0.5 * xs / sum_x);
        // Degenerate data (b = 0 gives x̃ = 0, c in range(Aᵀ) gives s̃ = 0): xᵀs = 0 would leave a
        // zero iterate; shift by one instead, which keeps the point interior.
        if !(xs > 0.0 && dx2.is_finite() && ds2.is_finite()) {
            dx2 = 1.0;
            ds2 = 1.0;
        }
        Ok(State { x: vk.add_scalar(&x_h, dx2)?, lambda, s: vk.add_scalar(&s_h, ds2)? })
    }

    /// Residuals and objectives: sgemv with vector addition, then reductions (Algorithm 3).
    pub(super) fn residuals(&mut self, b: &V::Vector, c: &V::Vector, st: &State<V::Vector>) -> R<Residuals<V::Vector>> {
        let vk = &mut *self.vk;
        let ax = vk.a_mul(1.0, &st.x, None)?;
        let r_b = vk.lincomb(1.0, b, -1.0, &ax)?;
        let atl = vk.at_mul(1.0, &st.lambda, None)?;
        let c_minus_atl = vk.lincomb(1.0, c, -1.0, &atl)?;
        let r_c = vk.lincomb(1.0, &c_minus_atl, -1.0, &st.s)?;
        Ok(Residuals { ax, atl, r_b, r_c })
    }

    /// (4.12)–(4.14) given t = D²·r_c + S⁻¹·r_xs and S⁻¹·r_xs.
    fn direction(
        &mut self,
        t: &V::Vector,
        res: &Residuals<V::Vector>,
        d2: &V::Vector,
        rxs_over_s: &V::Vector,
    ) -> R<Direction<V::Vector>> {
        let rhs = self.vk.a_mul(1.0, t, Some((1.0, &res.r_b)))?; // (4.12) right-hand side
        let dl = self.solve_normal(&rhs)?;
        let ds = self.vk.at_mul(-1.0, &dl, Some((1.0, &res.r_c)))?; // (4.13)
        let d2ds = self.vk.mul(d2, &ds)?;
        let dx = self.vk.lincomb(-1.0, rxs_over_s, -1.0, &d2ds)?; // (4.14)
        Ok(Direction { dx, dl, ds })
    }

    /// One predictor-corrector step from `state`; returns the new state and the step lengths.
    pub(super) fn step(
        &mut self,
        state: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        mu: f64,
        nf: f64,
    ) -> R<(State<V::Vector>, f64, f64)> {
        let State { x, lambda, s } = state;
        // Normal matrix for this iterate: D² = X·S⁻¹.
        let d2 = self.vk.div(x, s)?;
        self.assemble_and_factor(&d2)?;
        let d2_rc = self.vk.mul(&d2, &res.r_c)?;

        // Predictor: r_xs = X·S·e, so S⁻¹·r_xs = x.
        let t = self.vk.lincomb(1.0, &d2_rc, 1.0, x)?;
        let aff = self.direction(&t, res, &d2, x)?;
        let vk = &mut *self.vk;
        let ap_aff = vk.max_step(x, &aff.dx)?;
        let ad_aff = vk.max_step(s, &aff.ds)?;
        let x_aff = vk.lincomb(1.0, x, ap_aff, &aff.dx)?;
        let s_aff = vk.lincomb(1.0, s, ad_aff, &aff.ds)?;
        let mu_aff = vk.dot(&x_aff, &s_aff)? / nf;
        let sigma = (mu_aff / mu).powi(3);

        // Combined predictor-corrector: r_xs = X·S·e + ΔX_aff·ΔS_aff·e − σμe.
        let xs = vk.mul(x, s)?;
        let dxds = vk.mul(&aff.dx, &aff.ds)?;
        let r_xs = vk.lincomb(1.0, &xs, 1.0, &dxds)?;
        let r_xs = vk.add_scalar(&r_xs, -sigma * mu)?;
        let r_xs_s = vk.div(&r_xs, s)?;
        let t = vk.lincomb(1.0, &d2_rc, 1.0, &r_xs_s)?;
        let dir = self.direction(&t, res, &d2, &r_xs_s)?;

        let vk = &mut *self.vk;
        let factor = self.st.step_factor;
        let alpha_p = (factor * vk.max_step(x, &dir.dx)?).min(1.0);
        let alpha_d = (factor * vk.max_step(s, &dir.ds)?).min(1.0);
        let x = vk.lincomb(1.0, x, alpha_p, &dir.dx)?;
        let x = vk.recenter_free_pairs(&x, FREE_PAIR_CAP)?;
        let lambda = vk.lincomb(1.0, lambda, alpha_d, &dir.dl)?;
        let s = vk.lincomb(1.0, s, alpha_d, &dir.ds)?;
        Ok((State { x, lambda, s }, alpha_p, alpha_d))
    }
}
