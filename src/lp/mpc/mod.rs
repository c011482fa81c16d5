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
//! ε = [`Settings::tolerance`]; every test, infeasibility and numerical failure included, is in
//! `termination`, tried in one place each iteration.
//!
//! The loop's named parts: the variables ([`State`]) and their start (`start`), the residuals
//! ([`Residuals`], `residuals`), the direction ([`Direction`], `direction` and `correctors`),
//! the step and its two redo checkpoints (`step`), the
//! termination (`termination`) and the timers ([`MpcTimings`]).

mod bounds;
mod correctors;
mod direction;
mod free;
mod infeasibility;
#[cfg(test)]
mod loop_tests;
mod residuals;
mod start;
mod step;
mod outcome;
#[cfg(test)]
mod predictor_tests;
mod termination;

pub use free::{free_regularization, FREE_REGULARIZATION_FLOOR};
pub use infeasibility::{STALL_FLOOR, STALL_RATIO};
pub use step::LONG_STEP_CENTRALITY;
pub use outcome::{Iterate, Judge, MpcOutcome, MpcProblem, MpcTimings, Weights};
pub use termination::{
    converged, merit, JUDGE_PATIENCE, JUDGE_WINDOW, NO_PROGRESS_ITERATIONS, STEP_COLLAPSE,
};

use crate::clock::Instant;
use crate::lp::backend::{BackendError, FactorInfo, NormalEquations, Reduction, VectorKernels};
use crate::lp::log::{IterationInfo, Logger};
use crate::lp::settings::Settings;
use crate::lp::status::Status;
use std::ops::ControlFlow;
use std::time::Duration;
use termination::{Measured, Termination};

/// κ of [`crate::lp::backend::VectorKernels::recenter_free_pairs`]: the smaller part of a split free
/// variable is kept below κ·(1 + |x|), so x⁺ − x⁻ loses at most a factor ≈ κ in relative
/// precision while the pair stays well inside the positive orthant.
pub const FREE_PAIR_CAP: f64 = 10.0;

/// The primal-dual point (x, λ, s) on the backend, with the upper-bound slacks w and their
/// duals z when some column has an upper bound (w = 1 and z = 0 on the other columns).
struct State<T> {
    x: T,
    lambda: T,
    s: T,
    wz: Option<(T, T)>,
}

/// The residuals of a state and the products they are made of (the certificates need them).
struct Residuals<T> {
    ax: T,
    atl: T,
    r_b: T,
    /// c − Aᵀλ − s + z.
    r_c: T,
    /// u − x − w on the bounded columns (0 elsewhere).
    r_u: Option<T>,
}

/// One Newton direction of (4.12)–(4.14), with (Δw, Δz) for bounded columns.
struct Direction<T> {
    dx: T,
    dl: T,
    ds: T,
    dwz: Option<(T, T)>,
    /// (t, r_b + A·t): what the normal equations were solved with, in the general form (see
    /// `mpc::direction`); a centrality corrector, which changes r_xs in a few entries only,
    /// builds its right-hand side from it.
    rhs: Option<(T, T)>,
}

/// Loop errors are backend errors; they become [`Status::NumericalFailure`].
type R<T> = Result<T, BackendError>;

/// Why the loop stopped: the proposed status, the last state (if any) and the reason.
type Stop<T> = (Status, Option<State<T>>, String);

/// The direction's bookkeeping across an iteration's solves (see [`direction`]).
struct Newton<T> {
    /// Refinement steps taken (double-precision vectors only).
    refinements: usize,
    /// ρ of the primal regularization Θ = (S/X + Z/W + ρ)⁻¹; 0 until a direction of this step
    /// cannot be refined (see `step::PRIMAL_REGULARIZATION`).
    primal_regularization: f64,
    /// The largest primal error of this step's refined directions (termination measure).
    step_error: f64,
    /// (t, r_b + A·t) of the current state's affine predictor (ρ = 0), when the backend made
    /// them with the residuals (see `residuals`).
    predictor: Option<(T, T)>,
    /// What the last factorization reported (an inexact factor's directions are refined to
    /// the inexact-Newton target).
    factor: FactorInfo,
}

/// The loop's parts besides the state: the backend, the data, the direction's and the
/// termination's bookkeeping, the timers.
struct Run<'a, V: VectorKernels, N> {
    vk: &'a mut V,
    ne: &'a mut N,
    p: &'a MpcProblem,
    st: &'a Settings,
    t: MpcTimings,
    /// Upper bounds and termination weights on the backend.
    bounds: Option<bounds::Bounds<V::Vector>>,
    /// The free columns' masks.
    free: Option<free::FreeColumns<V::Vector>>,
    weights: Option<bounds::MeasureVectors<V::Vector>>,
    /// The vectors compute in single precision: unit roundoff above
    /// [`SINGLE_PRECISION_THRESHOLD`] (no full refinement, no fused predictor, no stalling
    /// verdict).
    single: bool,
    newton: Newton<V::Vector>,
    iterations: usize,
    last: IterationInfo,
    /// The termination tests' memory: best iterates, the judge, the ray of a verdict.
    stop: Termination<'a, V::Vector>,
}

impl<'a, V: VectorKernels, N> Run<'a, V, N> {
    /// A run that has taken no step yet.
    fn new(vk: &'a mut V, ne: &'a mut N, p: &'a MpcProblem, st: &'a Settings, judge: Option<Judge<'a>>) -> Self {
        let single = vk.unit_roundoff() > SINGLE_PRECISION_THRESHOLD;
        let newton = Newton {
            refinements: 0,
            primal_regularization: 0.0,
            step_error: 0.0,
            predictor: None,
            factor: FactorInfo::default(),
        };
        Run {
            vk,
            ne,
            p,
            st,
            t: MpcTimings::default(),
            bounds: None,
            free: None,
            weights: None,
            single,
            newton,
            iterations: 0,
            last: IterationInfo::default(),
            stop: Termination::new(judge),
        }
    }
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
    solve_judged(vk, ne, p, settings, log, None)
}

/// [`solve`] with a judge: with double-precision vectors the loop stops as optimal only where
/// the judge passes the point (see [`Judge`]), and returns the best judged point on failures.
pub fn solve_judged<V: VectorKernels, N: NormalEquations<V>>(
    vk: &mut V,
    ne: &mut N,
    p: &MpcProblem,
    settings: &Settings,
    log: &mut Logger,
    judge: Option<Judge<'_>>,
) -> MpcOutcome {
    let start = Instant::now();
    let mut run = Run::new(vk, ne, p, settings, judge);
    let r = run.run(log);
    let mut timings = std::mem::take(&mut run.t);
    let kernels = timings.assemble + timings.factor + timings.solve;
    timings.other = start.elapsed().saturating_sub(kernels);
    let (status, last_state, detail) = match r {
        Ok((s, state, d)) => (s, state, d),
        Err(e) => (Status::NumericalFailure, None, e.to_string()),
    };
    let residual_ray =
        if matches!(status, Status::PrimalInfeasible | Status::DualInfeasible) { run.stop.ray.take() } else { None };
    // Limits and failures hand back the best point seen, which verification then grades.
    let use_best = matches!(status, Status::NumericalFailure) || status.is_limit();
    // The best point by the judge (the verification itself) beats the best by the loop's merit.
    let best_state = match (run.stop.judged.take(), run.stop.best.take()) {
        (Some((_, s)), _) => Some(s),
        (None, b) => b.map(|b| b.state),
    };
    let best = best_state.and_then(|s| run.download(&s).ok());
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
        gpu_iterations: run.ne.counts().gpu,
        single_factorizations: run.ne.counts().single,
        residual_ray,
        best_returned,
        best_iterate,
        refinements: run.newton.refinements,
    }
}

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    fn download(&mut self, s: &State<V::Vector>) -> R<Iterate> {
        let (w, z) = match &s.wz {
            Some((w, z)) => (self.vk.download(w)?, self.vk.download(z)?),
            None => (Vec::new(), Vec::new()),
        };
        Ok(Iterate {
            x: self.vk.download(&s.x)?,
            lambda: self.vk.download(&s.lambda)?,
            s: self.vk.download(&s.s)?,
            w,
            z,
        })
    }

    fn copy(&mut self, s: &State<V::Vector>) -> R<State<V::Vector>> {
        let wz = match &s.wz {
            Some((w, z)) => Some((self.vk.copy(w)?, self.vk.copy(z)?)),
            None => None,
        };
        Ok(State { x: self.vk.copy(&s.x)?, lambda: self.vk.copy(&s.lambda)?, s: self.vk.copy(&s.s)?, wz })
    }

    fn assemble_and_factor(&mut self, d2: &V::Vector) -> R<()> {
        let (vk, ne) = (&mut *self.vk, &mut *self.ne);
        timed(&mut self.t.assemble, || ne.assemble(vk, d2))?;
        self.newton.factor = timed(&mut self.t.factor, || ne.factor(vk))?;
        Ok(())
    }

    fn solve_normal(&mut self, r: &V::Vector) -> R<V::Vector> {
        let (vk, ne) = (&mut *self.vk, &mut *self.ne);
        timed(&mut self.t.solve, || ne.solve(vk, r))
    }

    /// The loop: measure the iterate, log it, run the termination tests, step.
    fn run(&mut self, log: &mut Logger) -> R<Stop<V::Vector>> {
        self.p.check_shapes(self.vk.dims())?;
        let b = self.vk.upload(&self.p.b)?;
        let c = self.vk.upload(&self.p.c)?;
        let b_norm = self.vk.reduce(Reduction::MaxAbs, &b)?;
        let c_norm = self.vk.reduce(Reduction::MaxAbs, &c)?;
        self.bounds = bounds::Bounds::upload(&mut *self.vk, &self.p.upper)?;
        let n = self.vk.dims().1;
        self.free = free::FreeColumns::upload(&mut *self.vk, &self.p.free, n)?;
        self.weights = bounds::MeasureVectors::upload(&mut *self.vk, self.p.weights.as_ref())?;
        let nf = self.complementarity_pairs();
        let mut state = self.starting_point(&b, &c)?;
        log.header();
        let (mut alpha_p, mut alpha_d) = (0.0, 0.0);
        let mut k = 0;
        loop {
            let res = self.residuals(&b, &c, &state)?;
            let (pobj, dobj) = self.objectives(&b, &c, &state)?;
            let mu = self.complementarity(&state)? / nf;
            let (primal_infeasibility, dual_infeasibility) = self.infeasibilities(&res, b_norm, c_norm)?;
            let offset = self.p.weights.as_ref().map_or(0.0, |w| w.objective_offset);
            let info = IterationInfo {
                iteration: k,
                primal_objective: pobj,
                dual_objective: dobj,
                primal_infeasibility,
                dual_infeasibility,
                relative_gap: relative_gap(pobj + offset, dobj + offset, self.p.weights.is_some()),
                mu,
                alpha_primal: alpha_p,
                alpha_dual: alpha_d,
            };
            self.ne.begin_iteration(k, mu);
            // The backend column names the solver of the normal equations for the step into this
            // iterate (the hybrid policy reports its current side).
            // The iterate's x only for a progress sink that asked for it (a readback on the GPU).
            let x = if log.wants_points() { Some(self.vk.download(&state.x)?) } else { None };
            log.iteration_at(&info, self.ne.name(), x.as_deref());
            self.iterations = k;
            self.last = info.clone();
            state = match self.terminate(state, Measured { res: &res, info: &info, b_norm, c_norm })? {
                ControlFlow::Break(stop) => return Ok(stop),
                ControlFlow::Continue(state) => state,
            };
            (state, alpha_p, alpha_d) = self.step(&state, &res, mu, nf)?;
            k += 1;
        }
    }
}

/// The relative gap of the objectives `p` and `d` (with the model's constant): in the model's
/// units (`weighted`) relative to the objective itself, |p − d| / max(|p|, |d|), as the
/// independent check measures it — a "1 +" would be one unit of cost in the scaled problem, which
/// equilibration chose, not the user — and the papers' |p − d| / (1 + |p|) otherwise.
fn relative_gap(p: f64, d: f64, weighted: bool) -> f64 {
    let diff = (p - d).abs();
    match weighted {
        true if diff == 0.0 => 0.0,
        true => diff / p.abs().max(d.abs()),
        false => diff / (1.0 + p.abs()),
    }
}

/// Backends whose unit roundoff exceeds this compute in single precision (the one threshold of
/// that meaning: the refinement, the fused predictor and the stalling verdict all read
/// `Run::single`).
const SINGLE_PRECISION_THRESHOLD: f64 = 1e-10;
