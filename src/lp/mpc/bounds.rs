//! Upper bounds handled implicitly, and the termination measures.
//!
//! With upper bounds the problem is min cᵀx, A·x = b, x + w = u (bounded columns), x, w ≥ 0;
//! its dual max bᵀλ − uᵀz, Aᵀλ + s − z = c, s, z ≥ 0 (Wright, *Primal-Dual Interior-Point
//! Methods*, ch. 11, "upper bounds"). Every vector keeps the full length n so that the GPU's
//! element-wise kernels apply unchanged: on a column without an upper bound w = 1, z = 0,
//! u = 0, and the mask (1 on bounded columns, 0 elsewhere) zeroes Δw and the centring term there,
//! so that the products w·z, z/w and the steps on w and z vanish or never block.

use super::{Residuals, Run, State, R};
use crate::lp::backend::{NormalEquations, Reduction, VectorKernels};
use crate::lp::mpc::outcome::Weights;

/// The upper bounds on the backend.
pub(super) struct Bounds<T> {
    /// u on bounded columns, 0 elsewhere.
    pub u: T,
    /// 1 on bounded columns, 0 elsewhere.
    pub mask: T,
    /// Number of bounded columns.
    pub count: usize,
}

impl<T> Bounds<T> {
    /// Uploads the finite entries of `upper` (`None` if there are none).
    pub fn upload<V: VectorKernels<Vector = T>>(vk: &mut V, upper: &[f64]) -> R<Option<Self>> {
        let count = upper.iter().filter(|u| u.is_finite()).count();
        if count == 0 {
            return Ok(None);
        }
        let host: Vec<f64> = upper.iter().map(|&u| if u.is_finite() { u } else { 0.0 }).collect();
        let mask: Vec<f64> = upper.iter().map(|&u| if u.is_finite() { 1.0 } else { 0.0 }).collect();
        Ok(Some(Self { u: vk.upload(&host)?, mask: vk.upload(&mask)?, count }))
    }
}

/// The termination weights on the backend.
pub(super) struct MeasureVectors<T> {
    pub primal: T,
    pub dual: T,
    pub bound: T,
}

impl<T> MeasureVectors<T> {
    /// Uploads the weights (their lengths checked by [`super::MpcProblem::check_shapes`]).
    pub fn upload<V: VectorKernels<Vector = T>>(vk: &mut V, w: Option<&Weights>) -> R<Option<Self>> {
        let Some(w) = w else { return Ok(None) };
        Ok(Some(Self { primal: vk.upload(&w.primal)?, dual: vk.upload(&w.dual)?, bound: vk.upload(&w.bound)? }))
    }
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// The number of complementary pairs: one per column but the free ones (x·s) plus one per
    /// bounded column (w·z).
    pub(super) fn complementarity_pairs(&self) -> f64 {
        let (_, n) = self.vk.dims();
        let free = self.free.as_ref().map_or(0, |f| f.count);
        (n - free + self.bounds.as_ref().map_or(0, |b| b.count)).max(1) as f64
    }

    /// xᵀs + wᵀz.
    pub(super) fn complementarity(&mut self, st: &State<V::Vector>) -> R<f64> {
        let xs = self.vk.dot(&st.x, &st.s)?;
        Ok(match &st.wz {
            Some((w, z)) => xs + self.vk.dot(w, z)?,
            None => xs,
        })
    }

    /// Primal cᵀx and dual bᵀλ − uᵀz objectives.
    pub(super) fn objectives(&mut self, b: &V::Vector, c: &V::Vector, st: &State<V::Vector>) -> R<(f64, f64)> {
        let pobj = self.vk.dot(c, &st.x)?;
        let mut dobj = self.vk.dot(b, &st.lambda)?;
        if let (Some(bd), Some((_, z))) = (&self.bounds, &st.wz) {
            dobj -= self.vk.dot(&bd.u, z)?;
        }
        Ok((pobj, dobj))
    }

    /// The relative primal and dual infeasibilities of (6.1)–(6.2): weighted as the
    /// verification on the original model weighs them when the problem gives weights, the
    /// papers' ‖r_b‖∞/(1 + ‖b‖∞) and ‖r_c‖∞/(1 + ‖c‖∞) otherwise. The primal one includes the
    /// upper-bound residual u − x − w.
    pub(super) fn infeasibilities(&mut self, res: &Residuals<V::Vector>, b_norm: f64, c_norm: f64) -> R<(f64, f64)> {
        let vk = &mut *self.vk;
        match &self.weights {
            Some(w) => {
                let wp = vk.mul(&w.primal, &res.r_b)?;
                let mut primal = vk.reduce(Reduction::MaxAbs, &wp)?;
                if let Some(r_u) = &res.r_u {
                    let wu = vk.mul(&w.bound, r_u)?;
                    primal = primal.max(vk.reduce(Reduction::MaxAbs, &wu)?);
                }
                let wd = vk.mul(&w.dual, &res.r_c)?;
                Ok((primal, vk.reduce(Reduction::MaxAbs, &wd)?))
            }
            None => {
                let mut primal = vk.reduce(Reduction::MaxAbs, &res.r_b)? / (1.0 + b_norm);
                if let (Some(r_u), Some(bd)) = (&res.r_u, &self.bounds) {
                    let u_norm = vk.reduce(Reduction::MaxAbs, &bd.u)?;
                    primal = primal.max(vk.reduce(Reduction::MaxAbs, r_u)? / (1.0 + u_norm));
                }
                Ok((primal, vk.reduce(Reduction::MaxAbs, &res.r_c)? / (1.0 + c_norm)))
            }
        }
    }
}
