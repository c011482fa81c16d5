//! The loop's start: Mehrotra's starting point, with the bound slacks where columns have
//! upper bounds.

use super::{bounds, Run, State, R};
use crate::lp::backend::{NormalEquations, Reduction, VectorKernels};

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// Mehrotra's starting point (Wright, ch. 10): least-norm x̃ = Aᵀ(AAᵀ)⁻¹b and least-squares
    /// (λ̃, s̃), shifted to be positive and then balanced so that xᵀs is spread evenly. Free
    /// columns keep x̃ and have s = 0 (see `mpc::free`).
    ///
    /// With upper bounds the least-norm problems include the bound slacks:
    /// min ‖x‖² + ‖w‖² s.t. A·x = b, x + w = u gives x̃ = Θ₀(Aᵀy + u), w̃ = u − x̃ with
    /// A·Θ₀·Aᵀ·y = b − A·Θ₀·u, and min ‖s‖² + ‖z‖² s.t. Aᵀλ + s − z = c gives s̃ = Θ₀·r,
    /// z̃ = s̃ − r on bounded columns, r = c − Aᵀλ̃, A·Θ₀·Aᵀ·λ̃ = A·Θ₀·c; Θ₀ = ½ on bounded
    /// columns and 1 elsewhere (one factorization). The shifts then cover (x, w) and (s, z).
    pub(super) fn starting_point(&mut self, b: &V::Vector, c: &V::Vector) -> R<State<V::Vector>> {
        let (_, n) = self.vk.dims();
        let ones = self.vk.fill(n, 1.0)?;
        // The bounds are lent to the bounded start for its duration: the factorization it runs
        // borrows the whole run, and the bounds are read again after it.
        let Some(bd) = self.bounds.take() else {
            return self.plain_start(b, c, &ones);
        };
        let start = self.bounded_start(&bd, b, c, &ones);
        self.bounds = Some(bd);
        start
    }

    /// Mehrotra's starting point with the bound slacks (see [`Self::starting_point`]).
    fn bounded_start(
        &mut self,
        bd: &bounds::Bounds<V::Vector>,
        b: &V::Vector,
        c: &V::Vector,
        ones: &V::Vector,
    ) -> R<State<V::Vector>> {
        let (u, mask) = (&bd.u, &bd.mask);
        let vk = &mut *self.vk;
        let theta0 = vk.lincomb(1.0, ones, -0.5, mask)?;
        let tu = vk.mul(&theta0, u)?;
        let rhs = vk.a_mul(-1.0, &tu, Some((1.0, b)))?;
        let tc = vk.mul(&theta0, c)?;
        let ac = vk.a_mul(1.0, &tc, None)?;
        self.assemble_and_factor(&theta0)?;
        let y = self.solve_normal(&rhs)?;
        let lambda = self.solve_normal(&ac)?;
        let vk = &mut *self.vk;
        let aty = vk.at_mul(1.0, &y, Some((1.0, u)))?;
        let x_t = vk.mul(&theta0, &aty)?;
        let u_x = vk.lincomb(1.0, u, -1.0, &x_t)?;
        let w_t = vk.mul(mask, &u_x)?;
        let r = vk.at_mul(-1.0, &lambda, Some((1.0, c)))?;
        let s_t = vk.mul(&theta0, &r)?;
        let s_r = vk.lincomb(1.0, &s_t, -1.0, &r)?;
        let z_t = vk.mul(mask, &s_r)?;
        let s_t = self.without_free(&s_t)?.unwrap_or(s_t);
        let x_pairs = self.without_free(&x_t)?;
        let vk = &mut *self.vk;
        let x_min = vk.reduce(Reduction::Min, x_pairs.as_ref().unwrap_or(&x_t))?;
        let dx = (-1.5 * x_min.min(vk.reduce(Reduction::Min, &w_t)?)).max(0.0);
        let ds = (-1.5 * vk.reduce(Reduction::Min, &s_t)?.min(vk.reduce(Reduction::Min, &z_t)?)).max(0.0);
        let x_h = self.minus_on_pairs(&x_t, -dx)?;
        let s_h = self.minus_on_pairs(&s_t, -ds)?;
        let x_pairs = self.without_free(&x_h)?;
        let vk = &mut *self.vk;
        let w_h = vk.lincomb(1.0, &w_t, dx, mask)?;
        let z_h = vk.lincomb(1.0, &z_t, ds, mask)?;
        let xs = vk.dot(&x_h, &s_h)? + vk.dot(&w_h, &z_h)?;
        let sum_x = vk.reduce(Reduction::Sum, x_pairs.as_ref().unwrap_or(&x_h))? + vk.reduce(Reduction::Sum, &w_h)?;
        let sum_s = vk.reduce(Reduction::Sum, &s_h)? + vk.reduce(Reduction::Sum, &z_h)?;
        let (mut dx2, mut ds2) = (0.5 * xs / sum_s, 0.5 * xs / sum_x);
        if !(xs > 0.0 && dx2.is_finite() && ds2.is_finite()) {
            dx2 = 1.0;
            ds2 = 1.0;
        }
        let x = self.minus_on_pairs(&x_h, -dx2)?;
        let s = self.minus_on_pairs(&s_h, -ds2)?;
        let vk = &mut *self.vk;
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
        let s_t = self.vk.at_mul(-1.0, &lambda, Some((1.0, c)))?;
        let s_t = self.without_free(&s_t)?.unwrap_or(s_t);
        let x_pairs = self.without_free(&x_t)?;
        let vk = &mut *self.vk;
        let dx = (-1.5 * vk.reduce(Reduction::Min, x_pairs.as_ref().unwrap_or(&x_t))?).max(0.0);
        let ds = (-1.5 * vk.reduce(Reduction::Min, &s_t)?).max(0.0);
        let x_h = self.minus_on_pairs(&x_t, -dx)?;
        let s_h = self.minus_on_pairs(&s_t, -ds)?;
        let x_pairs = self.without_free(&x_h)?;
        let vk = &mut *self.vk;
        let xs = vk.dot(&x_h, &s_h)?;
        let (sum_x, sum_s) = (vk.reduce(Reduction::Sum, x_pairs.as_ref().unwrap_or(&x_h))?, vk.reduce(Reduction::Sum, &s_h)?);
        let (mut dx2, mut ds2) = (0.5 * xs / sum_s, 0.5 * xs / sum_x);
        // Degenerate data (b = 0 gives x̃ = 0, c in range(Aᵀ) gives s̃ = 0): xᵀs = 0 would leave a
        // zero iterate; shift by one instead, which keeps the point interior.
        if !(xs > 0.0 && dx2.is_finite() && ds2.is_finite()) {
            dx2 = 1.0;
            ds2 = 1.0;
        }
        Ok(State { x: self.minus_on_pairs(&x_h, -dx2)?, lambda, s: self.minus_on_pairs(&s_h, -ds2)?, wz: None })
    }
}
