//! Infeasibility read off the iterates: certificates (rays) and stagnation.

use super::outcome::MpcProblem;
use crate::lp::backend::{BackendError, Reduction, VectorKernels};
use crate::lp::log::IterationInfo;
use crate::lp::settings::Settings;
use crate::lp::status::Status;

/// Stagnation test of `stalled_residual`: μ has fallen this much further than the residual.
pub const STALL_RATIO: f64 = 1e-10;
/// ... and the relative residual is still above this multiple of the tolerance.
pub const STALL_FLOOR: f64 = 1e3;

/// Infeasibility by stagnation (Wright, *Primal-Dual Interior-Point Methods*, ch. 6 and 11):
/// on a problem with a solution, infeasible-interior-point iterates reduce the residuals at
/// least in proportion to μ, ‖r_k‖/‖r_0‖ = O(μ_k/μ_0). When μ has shrunk [`STALL_RATIO`] times
/// more than the relative primal (dual) residual, and that residual is still above
/// [`STALL_FLOOR`]·ε, the iterates converge to a complementary point of a relaxed problem: the
/// equations Ax = b (dual equations) cannot be met. This catches infeasibility the certificate
/// test cannot see, e.g. contradictory equality rows that the tiny-pivot treatment drops.
pub(super) fn stalled_residual(start: &IterationInfo, now: &IterationInfo, eps: f64) -> Option<(Status, String)> {
    let mu_ratio = now.mu / start.mu;
    let test = |r_now: f64, r_start: f64| r_now > STALL_FLOOR * eps && mu_ratio < STALL_RATIO * r_now / r_start;
    if test(now.primal_infeasibility, start.primal_infeasibility) {
        return Some((
            Status::PrimalInfeasible,
            format!("primal residual stalls at {:.2e} while μ fell by {mu_ratio:.1e}", now.primal_infeasibility),
        ));
    }
    if test(now.dual_infeasibility, start.dual_infeasibility) {
        return Some((
            Status::DualInfeasible,
            format!("dual residual stalls at {:.2e} while μ fell by {mu_ratio:.1e}", now.dual_infeasibility),
        ));
    }
    None
}

/// Infeasibility detection by certificates read off the iterate (the method, not a guess):
///
/// * **Primal infeasible** (Farkas): λ with bᵀλ > 0 and Aᵀλ ≤ 0. When the primal is infeasible
///   the dual objective bᵀλ grows without bound while Aᵀλ = c − s − r_c stays bounded above, so
///   the normalized ray λ/bᵀλ satisfies the test
///   `max(Aᵀλ)₊ / ‖A‖∞ ≤ ε_inf · bᵀλ / ‖b‖∞`. With upper bounds the ray is (λ, z):
///   bᵀλ − uᵀz > 0 (`dobj`) and Aᵀλ − z ≤ 0; on free columns (Aᵀλ)ⱼ = 0 (`free`: their mask).
/// * **Dual infeasible**: x ≥ 0 off the free columns (always, interior iterate) with cᵀx < 0 and A·x ≈ 0, tested as
///   `‖A·x‖∞ / ‖A‖∞ ≤ ε_inf · (−cᵀx) / ‖c‖∞`; on a bounded problem ‖A·x‖ ≈ ‖b‖ while cᵀx stays
///   bounded, so this cannot hold. Columns with upper bounds must not take part in a ray: their
///   entries of x count against it as ‖A·x‖ does.
///
/// Both tests are invariant to scaling the ray, so they do not depend on how far the iterate
/// has diverged, only on how exactly it points along a ray.
#[allow(clippy::too_many_arguments)]
pub(super) fn certificates<V: VectorKernels>(
    be: &mut V,
    p: &MpcProblem,
    st: &Settings,
    ax: &V::Vector,
    atl: &V::Vector,
    bounded: Option<Bounded<'_, V::Vector>>,
    free: Option<&V::Vector>,
    pobj: f64,
    dobj: f64,
    b_norm: f64,
    c_norm: f64,
) -> Result<Option<(Status, String)>, BackendError> {
    let eps = st.infeasibility_tolerance();
    let a_norm = p.a_norm_inf.max(f64::MIN_POSITIVE);
    if dobj > 0.0 && b_norm > 0.0 {
        let viol = match &bounded {
            Some(bd) => {
                let d = be.lincomb(1.0, atl, -1.0, bd.z)?;
                be.reduce(Reduction::Max, &d)?.max(0.0)
            }
            None => be.reduce(Reduction::Max, atl)?.max(0.0),
        };
        // A free column's entry of Aᵀλ must vanish, not only be ≤ 0.
        let viol = match free {
            Some(mask) => {
                let f = be.mul(mask, atl)?;
                viol.max(be.reduce(Reduction::MaxAbs, &f)?)
            }
            None => viol,
        };
        if viol / a_norm <= eps * dobj / b_norm {
            return Ok(Some((
                Status::PrimalInfeasible,
                format!("Farkas ray: bᵀλ = {dobj:.3e}, max(Aᵀλ)₊ = {viol:.3e}"),
            )));
        }
    }
    if pobj < 0.0 && c_norm > 0.0 {
        let res = be.reduce(Reduction::MaxAbs, ax)? / a_norm;
        // A ray cannot move a column with an upper bound: those entries of x stay bounded while
        // a ray's grow without limit, so they count against it like A·x does (without this, any
        // problem with b = 0 and a negative objective looked unbounded).
        let stuck = match &bounded {
            Some(bd) => {
                let mx = be.mul(bd.mask, bd.x)?;
                be.reduce(Reduction::MaxAbs, &mx)?
            }
            None => 0.0,
        };
        if res.max(stuck) <= eps * (-pobj) / c_norm {
            return Ok(Some((
                Status::DualInfeasible,
                format!("primal ray: cᵀx = {pobj:.3e}, ‖Ax‖∞ = {:.3e}", res * a_norm),
            )));
        }
    }
    Ok(None)
}

/// The iterate's parts that the certificates need when some columns have upper bounds.
pub(super) struct Bounded<'a, T> {
    /// The duals of the upper bounds.
    pub z: &'a T,
    /// 1 on bounded columns, 0 elsewhere.
    pub mask: &'a T,
    pub x: &'a T,
}
