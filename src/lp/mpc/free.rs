//! Free columns (no bound at all), carried as one column each.
//!
//! A free xⱼ has no dual slack: sⱼ = 0 throughout, and its dual equation (Aᵀλ)ⱼ = cⱼ has no
//! complementarity to relax it. In the normal equations its weight Θⱼ = (sⱼ/xⱼ)⁻¹ would be
//! infinite; it is 1/ρ_f instead, ρ_f = max(μ, [`FREE_REGULARIZATION_FLOOR`])
//! ([`free_regularization`]), a proximal term ρ_f·(Δxⱼ) in that equation (S. Wright, *Primal-Dual Interior-Point Methods*, ch. 11, free variables;
//! the primal regularization of Altman & Gondzio). Then:
//!
//! * A·Δx = r_b still holds exactly; the free column's dual residual becomes
//!   (1 − α)·r_cⱼ − α·ρ_f·Δxⱼ after a step, which vanishes as μ and the steps do;
//! * Δsⱼ = 0 and the complementarity right-hand sides are 0 there (the centring term σμ and
//!   the correctors' targets are masked), so sⱼ stays exactly 0;
//! * the step lengths and the long step's centrality look at the other columns only; μ counts
//!   the complementary pairs, which a free column is not part of.
//!
//! Splitting xⱼ = x⁺ − x⁻ instead (`StandardForm::free_pairs`, the pairs re-centred every
//! step) makes two columns of one and a singular direction x⁺ = x⁻ of the normal equations. The
//! solve keeps free columns whole where the cpu backend's normal equations take a shaped path
//! and splits them elsewhere (`chosen_backend::free_column_split` says why).

use super::{Run, R};
use crate::lp::backend::{NormalEquations, VectorKernels};

/// The least ρ_f: Θ of a free column is at most its inverse (in the scaled problem's units,
/// where A's columns and the cost have max-norm ≈ 1), once μ is below it.
pub const FREE_REGULARIZATION_FLOOR: f64 = 1e-13;

/// ρ_f at complementarity μ: a free column weighs 1/μ in the normal equations, growing as the
/// iterate converges like a split pair's x⁺/s⁺ + x⁻/s⁻ (x·s ≈ μ, so x/s ≈ x²/μ). A fixed ρ_f = 1e-8 made the regressions' coefficients
/// dominate the normal equations from the first iteration (1190 of 4000 rows of the t-form
/// quantile regression 2000 × 100 in the dense columns' Schur complement, against 202 with
/// ρ_f = μ: 1.02 s against 0.28 s, 13 iterations either way); ρ_f = μ/10 and μ/100 took as long.
pub fn free_regularization(mu: f64) -> f64 {
    mu.max(FREE_REGULARIZATION_FLOOR)
}

/// The free columns on the backend.
pub(super) struct FreeColumns<T> {
    /// 1 on free columns, 0 elsewhere.
    pub mask: T,
    /// 0 on free columns, 1 elsewhere.
    pub kept: T,
    pub count: usize,
}

impl<T> FreeColumns<T> {
    /// Uploads the masks of the free columns `free` among `n` (`None` if there are none).
    pub fn upload<V: VectorKernels<Vector = T>>(vk: &mut V, free: &[usize], n: usize) -> R<Option<Self>> {
        if free.is_empty() {
            return Ok(None);
        }
        let mut mask = vec![0.0; n];
        for &j in free {
            if let Some(v) = mask.get_mut(j) {
                *v = 1.0;
            }
        }
        let kept: Vec<f64> = mask.iter().map(|m| 1.0 - m).collect();
        Ok(Some(Self { mask: vk.upload(&mask)?, kept: vk.upload(&kept)?, count: free.len() }))
    }
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// x with 1 on the free columns: what the complementarity terms (0 there) are divided by.
    /// `None` without free columns (x itself).
    pub(super) fn divisor(&mut self, x: &V::Vector) -> R<Option<V::Vector>> {
        let Some(f) = &self.free else { return Ok(None) };
        let kept = self.vk.mul(&f.kept, x)?;
        Ok(Some(self.vk.lincomb(1.0, &kept, 1.0, &f.mask)?))
    }

    /// ρ_f at the state `st`: max(μ, [`FREE_REGULARIZATION_FLOOR`]).
    pub(super) fn free_regularization(&mut self, st: &super::State<V::Vector>) -> R<f64> {
        let mu = self.complementarity(st)? / self.complementarity_pairs();
        Ok(free_regularization(mu))
    }

    /// `v` with 0 on the free columns (`None` without free columns: `v` itself).
    pub(super) fn without_free(&mut self, v: &V::Vector) -> R<Option<V::Vector>> {
        match &self.free {
            Some(f) => Ok(Some(self.vk.mul(&f.kept, v)?)),
            None => Ok(None),
        }
    }

    /// v − α on the columns with a complementary pair (every column but the free ones).
    pub(super) fn minus_on_pairs(&mut self, v: &V::Vector, alpha: f64) -> R<V::Vector> {
        match &self.free {
            Some(f) => self.vk.lincomb(1.0, v, -alpha, &f.kept),
            None => self.vk.add_scalar(v, -alpha),
        }
    }
}
