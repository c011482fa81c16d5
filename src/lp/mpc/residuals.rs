//! The residuals of a state, r_b = b − A·x, r_c = c − Aᵀλ − s + z and r_u = u − x − w, with
//! the affine predictor's right-hand side where the backend forms it from the same read of A.

use super::{Residuals, Run, State, R};
use crate::lp::backend::{NormalEquations, PredictorParts, ResidualProducts, VectorKernels};

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
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
        let xd = self.divisor(&st.x)?;
        let vk = &mut *self.vk;
        let xs = vk.mul(&st.x, &st.s)?;
        let q = vk.div(&xs, xd.as_ref().unwrap_or(&st.x))?;
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
}
