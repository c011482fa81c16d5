//! One Newton direction: the normal equations (4.12) and the back-substitutions (4.13)–(4.14),
//! with implicit upper bounds, and iterative refinement against the unreduced system.
//!
//! With upper bounds (see [`super::bounds`]) and Θ = (S/X + Z/W)⁻¹ in place of D² = X/S:
//!
//! * ρ = r_c + X⁻¹·r_xs − W⁻¹·(r_wz + Z·r_u), t = Θ·ρ,
//! * A·Θ·Aᵀ·Δλ = r_b + A·t,
//! * Δx = Θ·Aᵀ·Δλ − t, Δw = r_u − Δx, Δz = −W⁻¹·(r_wz + Z·Δw), Δs = r_c − Aᵀ·Δλ + Δz,
//!
//! which satisfies the dual equations Aᵀ·Δλ + Δs − Δz = r_c and the bound equations exactly and
//! the complementarity equations up to rounding. Without upper bounds the papers' formulas are
//! used as they were (t = D²·r_c + S⁻¹·r_xs, Δs = r_c − Aᵀ·Δλ, Δx = −S⁻¹·r_xs − D²·Δs).
//!
//! **Refinement by preconditioned conjugate gradients.** Every equation but the primal one
//! holds by construction, so the error of the whole Newton step is the primal residual
//! e = r_b − A·Δx. Near the optimum Θ spans 30 orders of magnitude; the assembled A·Θ·Aᵀ then
//! loses the small components of rows whose large-Θ columns are nearly dependent to rounding
//! (greenbea, scfxm3: a direction from the factor alone misses A·Δx = r_b by 1–10 in the
//! termination measure, and the primal residual grows instead of shrinking), and the tiny-pivot
//! treatment discards rows outright. The factor is still an excellent *preconditioner*: the
//! direction is corrected by conjugate gradients on A·Θ·Aᵀ·Δλ = rhs, applying the operator as
//! A·(Θ⊙(Aᵀ·p)) (never the assembled matrix), preconditioned by the factor, with the true
//! residual r_b − A·Δx recomputed at every step (Δλ += αp, Δx += α·Θ⊙Aᵀp: Δs and Δz follow).
//! In double precision a direction is refined fully; in single precision (the gpu backend) by
//! [`SINGLE_REFINEMENTS`] steps, since its residual is accurate to √n·u only. A direction is
//! refined until e is below a hundredth of the tolerance, or stops improving.

use super::{Direction, Residuals, Run, State, R};
use crate::lp::backend::{NormalEquations, Reduction, VectorKernels};

/// Most conjugate-gradient steps for a direction the step is taken along (each: one solve with
/// the factor and three products with A or Aᵀ).
pub const MAX_REFINEMENTS: usize = 50;
/// ... and for trial directions (the affine predictor, centrality-corrector candidates), whose
/// step lengths only steer the method.
pub const TRIAL_REFINEMENTS: usize = 3;
/// Conjugate gradients stop after this many steps without a new smallest error.
pub const REFINE_PATIENCE: usize = 8;

/// Refinement stops once the primal error of the step, in the termination measure, is below
/// this fraction of ε: then it cannot keep the next iterate from meeting the tolerance.
pub const REFINE_TARGET: f64 = 1e-2;

/// The forcing term η of the inexact-Newton target ‖r_b − A·Δx‖ ≤ η·‖r_b‖ (in the termination
/// measure) for directions from a single-precision factor: the step then removes at least
/// (1 − η)·α of the primal residual. 0.1: on the random family m = 512 the iteration count stayed
/// that of exact directions while single-precision factors needed about one refinement step
/// per iteration.
pub const INEXACT_FORCING: f64 = 0.1;

/// How accurately a direction is refined (see [`MAX_REFINEMENTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Accuracy {
    /// A direction the iterate moves along.
    Step,
    /// A direction only looked at.
    Trial,
}

/// The complementarity right-hand sides of one Newton system.
pub(super) enum Compl<'a, T> {
    /// No upper bounds: S⁻¹·r_xs.
    Plain { rxs_over_s: &'a T },
    /// Upper bounds or primal regularization: r_xs and, with upper bounds, r_wz (zero on
    /// unbounded columns).
    General { rxs: &'a T, rwz: Option<&'a T> },
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// The scaling of the normal equations: D² = X·S⁻¹, or Θ = (S/X + Z/W)⁻¹ with bounds, and
    /// 1/ρ_f on free columns (see `mpc::free`).
    pub(super) fn theta(&mut self, st: &State<V::Vector>) -> R<V::Vector> {
        self.theta_with(st, self.newton.primal_regularization)
    }

    /// [`Self::theta`] with the primal regularization ρ given.
    pub(super) fn theta_with(&mut self, st: &State<V::Vector>, rho: f64) -> R<V::Vector> {
        if st.wz.is_none() && rho == 0.0 && self.free.is_none() {
            return self.vk.div(&st.x, &st.s);
        }
        let xd = self.divisor(&st.x)?;
        let vk = &mut *self.vk;
        let mut inv = vk.div(&st.s, xd.as_ref().unwrap_or(&st.x))?;
        if let Some((w, z)) = &st.wz {
            let zw = vk.div(z, w)?;
            inv = vk.lincomb(1.0, &inv, 1.0, &zw)?;
        }
        if self.free.is_some() {
            let rho_f = self.free_regularization(st)?;
            let (vk, f) = (&mut *self.vk, self.free.as_ref().expect("checked"));
            inv = vk.lincomb(1.0, &inv, rho_f, &f.mask)?;
        }
        let vk = &mut *self.vk;
        if rho > 0.0 {
            inv = vk.add_scalar(&inv, rho)?;
        }
        let (_, n) = vk.dims();
        let ones = vk.fill(n, 1.0)?;
        vk.div(&ones, &inv)
    }

    /// The Newton direction for the residuals `res` and the complementarity terms `compl`.
    ///
    /// `base`: the (t₀, r_b + A·t₀) of a direction for the same iterate, residuals and Θ whose
    /// complementarity right-hand sides differ from these in a few entries: t − t₀ is exactly
    /// zero elsewhere, and the right-hand side is r_b + A·t₀ + A·(t − t₀), whose product reads
    /// only the columns where t moved (the cpu vectors skip zero multipliers; the correctors
    /// that pass a base run only there).
    pub(super) fn direction(
        &mut self,
        st: &State<V::Vector>,
        res: &Residuals<V::Vector>,
        theta: &V::Vector,
        compl: Compl<'_, V::Vector>,
        accuracy: Accuracy,
        base: Option<&(V::Vector, V::Vector)>,
    ) -> R<Direction<V::Vector>> {
        let xd = self.divisor(&st.x)?;
        let vk = &mut *self.vk;
        let t = match (&compl, &st.wz, &res.r_u) {
            (Compl::General { rxs, rwz }, wz, r_u) => {
                let q = vk.div(rxs, xd.as_ref().unwrap_or(&st.x))?;
                let mut rho = vk.lincomb(1.0, &res.r_c, 1.0, &q)?;
                match (rwz, wz, r_u) {
                    (Some(rwz), Some((w, z)), Some(r_u)) => {
                        let zr = vk.mul(z, r_u)?;
                        let num = vk.lincomb(1.0, rwz, 1.0, &zr)?;
                        let p = vk.div(&num, w)?;
                        rho = vk.lincomb(1.0, &rho, -1.0, &p)?;
                    }
                    // The bound terms come together or not at all (the run's bounds decide
                    // all three).
                    (rwz, wz, r_u) => debug_assert!(
                        rwz.is_none() && wz.is_none() && r_u.is_none(),
                        "upper-bound terms without upper bounds"
                    ),
                }
                vk.mul(theta, &rho)?
            }
            (Compl::Plain { rxs_over_s }, ..) => {
                let d2_rc = vk.mul(theta, &res.r_c)?;
                vk.lincomb(1.0, &d2_rc, 1.0, rxs_over_s)?
            }
        };
        // (4.12) right-hand side.
        let rhs = match (base, &compl) {
            (Some((t0, rhs0)), Compl::General { .. }) => {
                let dt = self.vk.lincomb(1.0, &t, -1.0, t0)?;
                self.vk.a_mul(1.0, &dt, Some((1.0, rhs0)))?
            }
            _ => self.vk.a_mul(1.0, &t, Some((1.0, &res.r_b)))?,
        };
        let mut dl = self.solve_normal(&rhs)?;
        let steps = match (self.single, accuracy) {
            (true, _) if self.st.gpu_refinement().unwrap_or(true) => SINGLE_REFINEMENTS,
            (true, _) => 0,
            (false, Accuracy::Step) => MAX_REFINEMENTS,
            (false, Accuracy::Trial) => TRIAL_REFINEMENTS,
        };
        let (mut atdl, mut dx, primal_residual) = match &compl {
            Compl::General { .. } => {
                // Δx = Θ·AᵀΔλ − t, and the primal error r_b − A·Δx when it will be refined: one
                // pass over A where the backend fuses them.
                let r_b = (steps > 0).then_some(&res.r_b);
                let np = self.vk.normal_product(&dl, theta, Some(&t), r_b)?;
                (np.u, np.v, r_b.map(|_| np.av))
            }
            Compl::Plain { rxs_over_s } => {
                let vk = &mut *self.vk;
                let atdl = vk.at_mul(1.0, &dl, None)?;
                let ds = vk.lincomb(1.0, &res.r_c, -1.0, &atdl)?; // (4.13)
                let d2ds = vk.mul(theta, &ds)?;
                let dx = vk.lincomb(-1.0, rxs_over_s, -1.0, &d2ds)?; // (4.14)
                (atdl, dx, None)
            }
        };
        if steps > 0 {
            // Single precision: `SINGLE_REFINEMENTS` conjugate-gradient steps (the best of them
            // and the factor's direction is kept); double precision: to the target.
            let err = self.refine(res, theta, (&mut dl, &mut atdl, &mut dx), primal_residual, steps)?;
            if !self.single && accuracy == Accuracy::Step {
                self.newton.step_error = self.newton.step_error.max(err);
            }
        }
        let vk = &mut *self.vk;
        let rc_atdl = vk.lincomb(1.0, &res.r_c, -1.0, &atdl)?;
        let general = matches!(compl, Compl::General { .. });
        let dwz = match (&compl, &st.wz, &res.r_u, &self.bounds) {
            (Compl::General { rwz: Some(rwz), .. }, Some((w, z)), Some(r_u), Some(bd)) => {
                let mdx = vk.mul(&bd.mask, &dx)?;
                let dw = vk.lincomb(1.0, r_u, -1.0, &mdx)?;
                let zdw = vk.mul(z, &dw)?;
                let num = vk.lincomb(-1.0, rwz, -1.0, &zdw)?;
                Some((dw, vk.div(&num, w)?))
            }
            _ => None,
        };
        let ds = match &dwz {
            Some((_, dz)) => vk.lincomb(1.0, &rc_atdl, 1.0, dz)?,
            None => rc_atdl,
        };
        // A free column has no dual slack (its Δx carries the regularized dual equation).
        let ds = self.without_free(&ds)?.unwrap_or(ds);
        Ok(Direction { dx, dl, ds, dwz, rhs: general.then_some((t, rhs)) })
    }

    /// The refinement target of a direction from an exact factor: [`REFINE_TARGET`]·ε.
    pub(super) fn exact_target(&self) -> f64 {
        REFINE_TARGET * self.st.tolerance()
    }

    /// The refinement target of a direction from a single-precision factor (see
    /// `backend::MixedPrecision`): [`INEXACT_FORCING`] × the current relative primal
    /// infeasibility, and never below the exact target.
    pub(super) fn inexact_target(&self) -> f64 {
        (INEXACT_FORCING * self.last.primal_infeasibility).max(self.exact_target())
    }

    /// The primal error of a step in the termination measure: ‖weights ⊙ e‖∞ or ‖e‖∞/(1 + ‖b‖∞).
    fn primal_error(&mut self, e: &V::Vector) -> R<f64> {
        let vk = &mut *self.vk;
        match &self.weights {
            Some(w) => {
                let we = vk.mul(&w.primal, e)?;
                vk.reduce(Reduction::MaxAbs, &we)
            }
            None => {
                let b_norm = self.p.b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                Ok(vk.reduce(Reduction::MaxAbs, e)? / (1.0 + b_norm))
            }
        }
    }

    /// Conjugate gradients on A·Θ·Aᵀ·Δλ = rhs from the factor's solution, preconditioned by the
    /// factor, with the true residual e = r_b − A·Δx at every step (see the module
    /// documentation); keeps the (Δλ, AᵀΔλ, Δx) with the smallest error seen, and returns
    /// that error.
    /// `r` is r_b − A·Δx when the caller has it.
    fn refine(
        &mut self,
        res: &Residuals<V::Vector>,
        theta: &V::Vector,
        (dl, atdl, dx): (&mut V::Vector, &mut V::Vector, &mut V::Vector),
        r: Option<V::Vector>,
        max_steps: usize,
    ) -> R<f64> {
        let target = if self.newton.factor.inexact { self.inexact_target() } else { self.exact_target() };
        let mut r = match r {
            Some(r) => r,
            None => self.vk.a_mul(-1.0, dx, Some((1.0, &res.r_b)))?,
        };
        let err = self.primal_error(&r)?;
        if err.is_nan() || err <= target || max_steps == 0 {
            return Ok(err);
        }
        let mut best = (err, self.vk.copy(dl)?, self.vk.copy(atdl)?, self.vk.copy(dx)?);
        let mut since_best = 0;
        let mut z = self.solve_normal(&r)?;
        let mut p = self.vk.copy(&z)?;
        let mut rz = self.vk.dot(&r, &z)?;
        for _ in 0..max_steps {
            // u = Aᵀp, Θ·u and q = A·Θ·Aᵀp: one pass over A where the backend fuses them.
            let np = self.vk.normal_product(&p, theta, None, None)?;
            let (u, tu, q) = (np.u, np.v, np.av);
            let vk = &mut *self.vk;
            let pq = vk.dot(&p, &q)?;
            // A·Θ·Aᵀ is positive semidefinite and the factor positive definite: anything else is
            // rounding, and the search has nothing left to find.
            if !(pq > 0.0 && rz > 0.0) {
                break;
            }
            let a = rz / pq;
            *dl = vk.lincomb(1.0, dl, a, &p)?;
            *atdl = vk.lincomb(1.0, atdl, a, &u)?;
            *dx = vk.lincomb(1.0, dx, a, &tu)?;
            // The true residual (not the recurrence's) drives the search: near the optimum the
            // recurrence drifts away from it within a few steps.
            r = vk.a_mul(-1.0, dx, Some((1.0, &res.r_b)))?;
            let err = self.primal_error(&r)?;
            self.newton.refinements += 1;
            if err < best.0 {
                best = (err, self.vk.copy(dl)?, self.vk.copy(atdl)?, self.vk.copy(dx)?);
                since_best = 0;
            } else {
                since_best += 1;
            }
            if err.is_nan() || err <= target || since_best >= REFINE_PATIENCE {
                break;
            }
            z = self.solve_normal(&r)?;
            let rz_new = self.vk.dot(&r, &z)?;
            p = self.vk.lincomb(1.0, &z, rz_new / rz, &p)?;
            rz = rz_new;
        }
        let err;
        (err, *dl, *atdl, *dx) = best;
        Ok(err)
    }
}

/// Conjugate-gradient steps for a direction in single precision (the gpu backend, with
/// [`crate::lp::Settings::gpu_refinement`]): the f32 residual r_b − A·Δx is accurate to about
/// √n·u, far below the drift it removes; more steps cost a solve each and gained no iteration
/// on the random family (m = 512: 21 iterations without refinement, 12 with one step, 12 with
/// three or six).
pub const SINGLE_REFINEMENTS: usize = 1;

#[cfg(test)]
mod tests {
    use super::super::{Run, State};
    use super::{Accuracy, Compl};
    use crate::lp::backend::{CpuNormal, CpuVectors};
    use crate::lp::mpc::MpcProblem;
    use crate::lp::settings::{BackendKind, Settings};

    /// |got − want| ≤ 1e-12·(1 + max|want|), entry by entry.
    fn assert_close(what: &str, got: &[f64], want: &[f64]) {
        let scale = 1.0 + want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() <= 1e-12 * scale, "{what}[{k}]: {g} against {w}");
        }
    }

    #[test]
    fn a_corrector_built_on_its_base_is_the_one_built_from_scratch() {
        let (m, n) = (7, 19);
        let a = faer::Mat::from_fn(m, n, |i, j| {
            (((i * 5 + j * 3) % 11) as f64 - 5.0) / 4.0 + if i == j % m { 3.0 } else { 0.0 }
        });
        let (b, c): (Vec<f64>, Vec<f64>) = ((0..m).map(|i| 1.0 + i as f64).collect(), vec![1.0; n]);
        let mut vk = CpuVectors::new(a.as_ref(), &[]);
        let mut ne = CpuNormal::new(m, n);
        let p = MpcProblem {
            b: b.clone(),
            c: c.clone(),
            upper: Vec::new(),
            free: Vec::new(),
            a_norm_inf: 1.0,
            deadline: None,
            weights: None,
        };
        let st = Settings::for_backend(BackendKind::Cpu);
        let mut run = Run::new(&mut vk, &mut ne, &p, &st, None);
        // An interior point off the central path, and its residuals.
        let x: Vec<f64> = (0..n).map(|j| 0.5 + (j % 4) as f64).collect();
        let s: Vec<f64> = (0..n).map(|j| 2.0 - 0.3 * (j % 5) as f64).collect();
        let state = State { x: x.clone(), lambda: vec![0.1; m], s: s.clone(), wz: None };
        let res = run.residuals(&b, &c, &state).expect("residuals");
        let theta = run.theta(&state).expect("theta");
        run.assemble_and_factor(&theta).expect("factor");
        let rxs: Vec<f64> = x.iter().zip(&s).map(|(a, b)| a * b).collect();
        let first = run
            .direction(&state, &res, &theta, Compl::General { rxs: &rxs, rwz: None }, Accuracy::Step, None)
            .expect("first direction");
        // A corrector moves r_xs in a few entries.
        let mut moved = rxs.clone();
        moved[3] -= 0.75;
        moved[11] += 0.5;
        let compl = || Compl::General { rxs: &moved, rwz: None };
        let scratch = run.direction(&state, &res, &theta, compl(), Accuracy::Step, None).expect("from scratch");
        let built = run.direction(&state, &res, &theta, compl(), Accuracy::Step, first.rhs.as_ref()).expect("on base");
        let (Some((t0, rhs0)), Some((t1, rhs1))) = (&scratch.rhs, &built.rhs) else { panic!("general form keeps t") };
        assert_close("t", t1, t0);
        assert_close("right-hand side", rhs1, rhs0);
        assert_close("Δx", &built.dx, &scratch.dx);
        assert_close("Δλ", &built.dl, &scratch.dl);
        assert_close("Δs", &built.ds, &scratch.ds);
        // The move is visible: the base's own right-hand side is not the corrector's.
        let base_rhs = &first.rhs.as_ref().expect("base").1;
        assert!(base_rhs.iter().zip(rhs0).any(|(a, b)| (a - b).abs() > 1e-6), "the corrector changed nothing");
    }
}
