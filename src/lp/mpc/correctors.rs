//! Gondzio's multiple centrality correctors (Gondzio 1996; Colombo & Gondzio 2008).
//!
//! Mehrotra's corrector aims every complementarity product at σμ but says nothing about how far
//! the products spread; on badly centred iterates a few tiny products block the step and the
//! method crawls (vtp.base: 40 iterations with steps below 0.2 and μ stuck near 50, pilot.we 89
//! iterations). A centrality corrector asks for a longer step α̃ = min(1, α + δ_α), looks at the
//! products v = (x + α̃Δx)∘(s + α̃Δs) there, and adds the Newton direction that moves the
//! outliers back into [β_min·σμ, β_max·σμ] (right-hand side t = P(v) − v, entries below −β_max·σμ
//! raised to it). The corrected direction is kept while it lengthens the steps by at least
//! γ·δ_α. Each corrector costs one solve with the factor already computed (cheap next to the
//! factorization), so a few are always worth trying.
//!
//! Only backends with the [`VectorKernels::centrality_target`] kernel take correctors.

use super::direction::Accuracy;
use super::{Direction, Residuals, Run, State, R};
use crate::lp::backend::{NormalEquations, VectorKernels};

/// Most correctors per iteration.
pub const MAX_CORRECTORS: usize = 3;
/// δ_α: how much longer a step each corrector aims for.
pub const ASPIRATION: f64 = 0.3;
/// γ: a corrector is kept when the steps grow by at least γ·δ_α (in sum, primal + dual).
pub const ACCEPT: f64 = 0.1;
/// [β_min, β_max]·σμ: the products a corrector aims for.
pub const BETA_MIN: f64 = 0.1;
pub const BETA_MAX: f64 = 10.0;

/// The products (x + αp·Δx)∘(s + αd·Δs).
pub(super) fn trial_products<V: VectorKernels>(
    vk: &mut V,
    x: &V::Vector,
    s: &V::Vector,
    dx: &V::Vector,
    ds: &V::Vector,
    ap: f64,
    ad: f64,
) -> R<V::Vector> {
    let xt = vk.lincomb(1.0, x, ap, dx)?;
    let st = vk.lincomb(1.0, s, ad, ds)?;
    vk.mul(&xt, &st)
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// Applies up to [`MAX_CORRECTORS`] centrality correctors to the predictor-corrector
    /// direction `pc` (with its step lengths), whose complementarity right-hand sides are
    /// `r_xs`, `r_wz`; `target` is σμ.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn correctors(
        &mut self,
        st: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        theta: &V::Vector,
        pc: (Direction<V::Vector>, f64, f64),
        mut r_xs: V::Vector,
        mut r_wz: Option<V::Vector>,
        target: f64,
    ) -> R<(Direction<V::Vector>, f64, f64)> {
        let (mut dir, mut ap, mut ad) = pc;
        let (lo, hi) = (BETA_MIN * target, BETA_MAX * target);
        for _ in 0..MAX_CORRECTORS {
            if (ap >= 1.0 && ad >= 1.0) || target.is_nan() || target <= 0.0 {
                break;
            }
            let (tp, td) = ((ap + ASPIRATION).min(1.0), (ad + ASPIRATION).min(1.0));
            let v = trial_products(&mut *self.vk, &st.x, &st.s, &dir.dx, &dir.ds, tp, td)?;
            let Some(t) = self.vk.centrality_target(&v, lo, hi)? else { break };
            // Free columns have no (x, s) pair: no target there.
            let t = self.without_free(&t)?.unwrap_or(t);
            let r_xs_new = self.vk.lincomb(1.0, &r_xs, -1.0, &t)?;
            let vk = &mut *self.vk;
            let r_wz_new = match (&st.wz, &dir.dwz, &r_wz, &self.bounds) {
                (Some((w, z)), Some((dw, dz)), Some(r_wz), Some(bd)) => {
                    let v = trial_products(vk, w, z, dw, dz, tp, td)?;
                    let Some(t) = vk.centrality_target(&v, lo, hi)? else { break };
                    // Columns without an upper bound have no (w, z) pair: no target there.
                    let t = vk.mul(&bd.mask, &t)?;
                    Some(vk.lincomb(1.0, r_wz, -1.0, &t)?)
                }
                _ => None,
            };
            // Only the entries the target moved differ from `dir`'s right-hand sides.
            let base = dir.rhs.as_ref();
            let cand = self.solve_compl(st, res, theta, &r_xs_new, r_wz_new.as_ref(), true, Accuracy::Step, base)?;
            let (cp, cd) = self.max_steps(st, &cand)?;
            if (cp + cd).partial_cmp(&(ap + ad + ACCEPT * ASPIRATION)).is_none_or(|o| o.is_lt()) {
                break;
            }
            (dir, ap, ad, r_xs, r_wz) = (cand, cp, cd, r_xs_new, r_wz_new);
        }
        Ok((dir, ap, ad))
    }
}
