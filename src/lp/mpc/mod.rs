//! Mehrotra's predictor-corrector method on the normal equations, written once over the
//! vector kernels ([`VectorKernels`]) and the normal equations ([`NormalEquations`]) of a
//! backend (2006 paper, Algorithm 3; 2008 paper, Algorithm 2).
//!
//! Problem: min cᵀx s.t. A·x = b, x ≥ 0, dual max bᵀλ s.t. Aᵀλ + s = c, s ≥ 0.
//! Residuals use the papers' signs: r_b = b − A·x, r_c = c − Aᵀλ − s.
//! Each iteration solves (4.12)–(4.14) twice with one factorization:
//!
//! * (4.12) A·D²·Aᵀ·Δλ = r_b + A·(D²·r_c + S⁻¹·r_xs), D² = X·S⁻¹,
//! * (4.13) Δs = r_c − Aᵀ·Δλ,
//! * (4.14) Δx = −S⁻¹·(r_xs + X·Δs) = −S⁻¹·r_xs − D²·Δs,
//!
//! with r_xs = X·S·e for the affine predictor and r_xs = X·S·e + ΔX_aff·ΔS_aff·e − σμe for the
//! combined step (by linearity, solving with the combined r_xs gives the sum of the predictor and
//! the corrector directions that Algorithm 3 adds), σ = (μ_aff/μ)³.
//!
//! Termination: (6.1)–(6.3), or the 2008 IPM paper's (3.15) (see [`Settings::stopping`]), with
//! ε = [`Settings::tolerance`]. Infeasibility: see
//! `infeasibility`; numerical failure: a factorization breakdown, a non-finite scalar, or
//! both step lengths below [`STEP_COLLAPSE`].

mod infeasibility;
mod newton;
mod outcome;

pub use infeasibility::{STALL_FLOOR, STALL_RATIO};
pub use outcome::{Iterate, MpcOutcome, MpcProblem, MpcTimings};

use crate::lp::backend::{BackendError, NormalEquations, VectorKernels};
use crate::lp::log::{IterationInfo, Logger};
use crate::lp::settings::{Settings, StoppingRule};
use crate::lp::status::Status;
use infeasibility::{certificates, stalled_residual};
use std::time::{Duration, Instant};

/// Both step lengths below this means no representable progress: numerical failure.
pub const STEP_COLLAPSE: f64 = 1e-12;

/// κ of [`crate::lp::backend::VectorKernels::recenter_free_pairs`]: the smaller part of a split free
/// variable is kept below κ·(1 + |x|), so x⁺ − x⁻ loses at most a factor ≈ κ in relative
/// precision while the pair stays well inside the positive orthant.
pub const FREE_PAIR_CAP: f64 = 10.0;

/// In single precision, iterations without a new best iterate (by [`merit`]) after which the
/// loop stops: the arithmetic's floor has been reached and further steps only wander (seen on
/// the random family at m = 512: within 4% of ε = 1e-4 at iteration 11, then 190 iterations
/// without progress). The best iterate is returned and graded by verification like any
/// numerical failure. Double precision has no such rule: there a stalling merit is what the
/// infeasibility tests need time to see.
pub const NO_PROGRESS_ITERATIONS: usize = 10;

/// The merit by which the best iterate is kept for limits and failures: the largest of the
/// three relative measures of (6.1)–(6.3) (primal residual, dual residual, gap).
pub fn merit(info: &IterationInfo) -> f64 {
    let m = info.primal_infeasibility.max(info.dual_infeasibility).max(info.relative_gap);
    if m.is_nan() {
        f64::INFINITY
    } else {
        m
    }
}

/// The primal-dual point (x, λ, s) on the backend.
struct State<T> {
    x: T,
    lambda: T,
    s: T,
}

/// The residuals of a state and the products they are made of (the certificates need them).
struct Residuals<T> {
    ax: T,
    atl: T,
    r_b: T,
    r_c: T,
}

/// One Newton direction of (4.12)–(4.14).
struct Direction<T> {
    dx: T,
    dl: T,
    ds: T,
}

/// The best state so far by [`merit`], kept on the backend (no download until the end).
struct Best<T> {
    merit: f64,
    iteration: usize,
    state: State<T>,
}

/// Loop errors are backend errors; they become [`Status::NumericalFailure`].
type R<T> = Result<T, BackendError>;

/// Why the loop stopped: the proposed status, the last state (if any) and the reason.
type Stop<T> = (Status, Option<State<T>>, String);

/// The loop's bookkeeping besides the state.
struct Run<'a, V: VectorKernels, N> {
    vk: &'a mut V,
    ne: &'a mut N,
    p: &'a MpcProblem,
    st: &'a Settings,
    t: MpcTimings,
    /// The residual ray of an infeasible outcome (see [`MpcOutcome::residual_ray`]).
    ray: Option<Vec<f64>>,
    iterations: usize,
    last: IterationInfo,
    best: Option<Best<V::Vector>>,
}

fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let t0 = Instant::now();
    let r = f();
    *slot += t0.elapsed();
    r
}

/// Runs the method from Mehrotra's starting point.
pub fn solve<V: VectorKernels, N: NormalEquations<V>>(
    vk: &mut V,
    ne: &mut N,
    p: &MpcProblem,
    settings: &Settings,
    log: &mut Logger,
) -> MpcOutcome {
    let start = Instant::now();
    let mut run = Run {
        vk,
        ne,
        p,
        st: settings,
        t: MpcTimings::default(),
        ray: None,
        iterations: 0,
        last: IterationInfo::default(),
        best: None,
    };
    let r = run.run(log);
    let mut timings = std::mem::take(&mut run.t);
    let kernels = timings.assemble + timings.factor + timings.solve;
    timings.other = start.elapsed().saturating_sub(kernels);
    let (status, last_state, detail) = match r {
        Ok((s, state, d)) => (s, state, d),
        Err(e) => (Status::NumericalFailure, None, e.to_string()),
    };
    let residual_ray =
        if matches!(status, Status::PrimalInfeasible | Status::DualInfeasible) { run.ray.take() } else { None };
    // Limits and failures hand back the best point seen, which verification then grades.
    let use_best = matches!(status, Status::NumericalFailure) || status.is_limit();
    let best = run.best.take().and_then(|b| run.download(&b.state).ok());
    let last_iterate = last_state.and_then(|s| run.download(&s).ok()).unwrap_or_default();
    let (iterate, best_returned, best_iterate) = match best {
        Some(b) if use_best => (b, true, None),
        Some(b) => (last_iterate, false, Some(b)),
        None => (last_iterate, false, None),
    };
    MpcOutcome {
        status,
        iterate,
        iterations: run.iterations,
        last: run.last.clone(),
        timings,
        detail,
        gpu_iterations: run.ne.gpu_factorizations(),
        residual_ray,
        best_returned,
        best_iterate,
    }
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    fn download(&mut self, s: &State<V::Vector>) -> R<Iterate> {
        Ok(Iterate { x: self.vk.download(&s.x)?, lambda: self.vk.download(&s.lambda)?, s: self.vk.download(&s.s)? })
    }

    fn copy(&mut self, s: &State<V::Vector>) -> R<State<V::Vector>> {
        Ok(State { x: self.vk.copy(&s.x)?, lambda: self.vk.copy(&s.lambda)?, s: self.vk.copy(&s.s)? })
    }

    fn assemble_and_factor(&mut self, d2: &V::Vector) -> R<()> {
        let (vk, ne) = (&mut *self.vk, &mut *self.ne);
        timed(&mut self.t.assemble, || ne.assemble(vk, d2))?;
        timed(&mut self.t.factor, || ne.factor(vk))?;
        Ok(())
    }

    fn solve_normal(&mut self, r: &V::Vector) -> R<V::Vector> {
        let (vk, ne) = (&mut *self.vk, &mut *self.ne);
        timed(&mut self.t.solve, || ne.solve(vk, r))
    }

    /// Keeps `ray` for an infeasibility verdict: r_b (primal) or −r_c (dual).
    fn keep_ray(&mut self, status: Status, res: &Residuals<V::Vector>) -> R<()> {
        self.ray = match status {
            Status::PrimalInfeasible => Some(self.vk.download(&res.r_b)?),
            Status::DualInfeasible => Some(self.vk.download(&res.r_c)?.into_iter().map(|v| -v).collect()),
            _ => None,
        };
        Ok(())
    }

    /// The loop; returns the proposed status, the last state (if any) and why.
    fn run(&mut self, log: &mut Logger) -> R<Stop<V::Vector>> {
        let (_, n) = self.vk.dims();
        let nf = n.max(1) as f64;
        let b = self.vk.upload(&self.p.b)?;
        let c = self.vk.upload(&self.p.c)?;
        let b_norm = self.vk.norm_inf(&b)?;
        let c_norm = self.vk.norm_inf(&c)?;
        let mut state = self.starting_point(&b, &c)?;
        log.header(self.ne.name());
        let (mut alpha_p, mut alpha_d) = (0.0, 0.0);
        let mut k = 0;
        let mut first: Option<IterationInfo> = None;
        let single = self.vk.unit_roundoff() > SINGLE_PRECISION_THRESHOLD;
        loop {
            let res = self.residuals(&b, &c, &state)?;
            let vk = &mut *self.vk;
            let pobj = vk.dot(&c, &state.x)?;
            let dobj = vk.dot(&b, &state.lambda)?;
            let mu = vk.dot(&state.x, &state.s)? / nf;
            let info = IterationInfo {
                iteration: k,
                primal_objective: pobj,
                dual_objective: dobj,
                primal_infeasibility: vk.norm_inf(&res.r_b)? / (1.0 + b_norm),
                dual_infeasibility: vk.norm_inf(&res.r_c)? / (1.0 + c_norm),
                relative_gap: (pobj - dobj).abs() / (1.0 + pobj.abs()),
                mu,
                alpha_primal: alpha_p,
                alpha_dual: alpha_d,
            };
            self.ne.begin_iteration(k, mu);
            // The backend column names the solver of the normal equations for the step into this
            // iterate (the hybrid policy reports its current side).
            log.iteration(&info, self.ne.name());
            self.iterations = k;
            self.last = info.clone();
            let scalars = [pobj, dobj, mu, info.primal_infeasibility, info.dual_infeasibility];
            if scalars.iter().any(|v| !v.is_finite()) {
                let why = "non-finite iterate (NaN or Inf in the residuals or objectives)".to_string();
                return Ok((Status::NumericalFailure, None, why));
            }
            let merit_now = merit(&info);
            if self.best.as_ref().is_none_or(|b| merit_now < b.merit) {
                let kept = self.copy(&state)?;
                self.best = Some(Best { merit: merit_now, iteration: k, state: kept });
            }
            let best_k = self.best.as_ref().map_or(0, |b| b.iteration);
            let eps = self.st.tolerance;
            if converged(self.st.stopping, &info, [b_norm, c_norm, self.p.a_norm_inf], eps) {
                return Ok((Status::Optimal, Some(state), String::new()));
            }
            let (p, st) = (self.p, self.st);
            if let Some((status, why)) =
                certificates(&mut *self.vk, p, st, &res.ax, &res.atl, pobj, dobj, b_norm, c_norm)?
            {
                self.keep_ray(status, &res)?;
                return Ok((status, Some(state), why));
            }
            let start = first.get_or_insert_with(|| info.clone());
            if let Some((status, why)) = stalled_residual(start, &info, eps) {
                // In single precision a stalling residual is the arithmetic's floor as often as it
                // is infeasibility: without a certificate, it is not proof of either.
                if single {
                    let why =
                        format!("{why}; in single precision this proves nothing: try a larger ε or the hybrid backend");
                    return Ok((Status::NumericalFailure, Some(state), why));
                }
                self.keep_ray(status, &res)?;
                return Ok((status, Some(state), why));
            }
            if single && k >= best_k + NO_PROGRESS_ITERATIONS {
                let why = format!(
                    "no progress in single precision: the best iterate (iteration {best_k}, merit {:.2e}) was not improved on in {NO_PROGRESS_ITERATIONS} iterations",
                    self.best.as_ref().map_or(f64::NAN, |b| b.merit)
                );
                return Ok((Status::NumericalFailure, Some(state), why));
            }
            if st.interrupt.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)) {
                return Ok((Status::Interrupted, Some(state), format!("interrupted at iteration {k}")));
            }
            if p.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok((Status::TimeLimit, Some(state), format!("time limit reached at iteration {k}")));
            }
            if k >= st.max_iterations {
                return Ok((Status::IterationLimit, Some(state), String::new()));
            }
            if k > 0 && alpha_p < STEP_COLLAPSE && alpha_d < STEP_COLLAPSE {
                return Ok((Status::NumericalFailure, Some(state), "step lengths collapsed".into()));
            }
            (state, alpha_p, alpha_d) = self.step(&state, &res, mu, nf)?;
            k += 1;
        }
    }
}

/// The termination test `rule` on an iteration's measures; `norms` = (‖b‖∞, ‖c‖∞, ‖A‖∞).
pub fn converged(rule: StoppingRule, info: &IterationInfo, [b, c, a]: [f64; 3], eps: f64) -> bool {
    match rule {
        StoppingRule::Separate => {
            info.primal_infeasibility <= eps && info.dual_infeasibility <= eps && info.relative_gap <= eps
        }
        StoppingRule::Combined315 => {
            // The log's measures are ‖r_b‖∞/(1 + ‖b‖∞) and ‖r_c‖∞/(1 + ‖c‖∞): undo the scaling.
            let r = (info.primal_infeasibility * (1.0 + b)).max(info.dual_infeasibility * (1.0 + c));
            let scale = b.max(c).max(a).max(f64::MIN_POSITIVE);
            (r / scale).max(info.relative_gap) <= eps
        }
    }
}

/// Backends whose unit roundoff exceeds this compute in single precision.
const SINGLE_PRECISION_THRESHOLD: f64 = 1e-10;

#[cfg(test)]
mod tests {
    use super::*;

    fn info(primal: f64, dual: f64, gap: f64) -> IterationInfo {
        IterationInfo {
            primal_infeasibility: primal,
            dual_infeasibility: dual,
            relative_gap: gap,
            ..Default::default()
        }
    }

    #[test]
    fn the_2008_rule_measures_residuals_against_the_largest_norm() {
        // ‖r_b‖ = 1e-6·(1 + 99) = 1e-4, ‖r_c‖ ≈ 0: (6.1) fails at ε = 1e-5, (3.15) divides by
        // max(‖b‖, ‖c‖, ‖A‖) = 1000 and passes (1e-7 ≤ 1e-5) — unless the gap fails it.
        let i = info(1e-6, 0.0, 1e-6);
        let norms = [99.0, 1.0, 1000.0];
        assert!(!converged(StoppingRule::Separate, &i, norms, 1e-7));
        assert!(converged(StoppingRule::Combined315, &i, norms, 1e-5));
        assert!(!converged(StoppingRule::Combined315, &info(1e-6, 0.0, 2e-5), norms, 1e-5));
        // With small data norms (3.15) is the stricter test.
        assert!(converged(StoppingRule::Separate, &info(1e-6, 1e-6, 1e-6), [0.0, 0.0, 0.5], 1e-6));
        assert!(!converged(StoppingRule::Combined315, &info(1e-6, 1e-6, 1e-6), [0.0, 0.0, 0.5], 1e-6));
    }
}
