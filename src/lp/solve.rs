//! The whole pipeline, orchestrated: standard form, the backend the settings ask for, the MPC
//! loop, and the verdict on the original model.

use crate::clock::Instant;
use crate::gl::{GlError, Gpu};
use crate::gpu::TexturePool;
use crate::layout::Format;
use crate::lp::backend::{
    check_gpu_limits, dependent_rows_of_valid, BackendError, CpuNormal, CpuVectors, FaultInjection, GpuFault,
    GpuNormal, GpuNormalOptions, GpuSide, GpuVectors, HybridNormal,
};
use crate::lp::log::{log_dependent_rows, log_make_up, log_ranges, log_tiny_entries, IterationInfo, Logger};
use crate::lp::model::{LpModel, ModelError};
use crate::lp::mpc::{self, Iterate, Judge, MpcOutcome, MpcProblem, MpcTimings, Weights};
use crate::lp::settings::{BackendKind, Settings, SettingsError, Verbosity};
use crate::lp::standard_form::{standard_form, Presolved, StandardForm};
use crate::lp::status::Status;
use crate::lp::verdict::{verdict, Certificate};
use crate::lp::verify::{objective, reduced_costs, verify_in, Verification};
use std::time::Duration;
use thiserror::Error;

/// Errors that prevent a solve from starting (a non-optimal outcome is a [`Status`], not this).
/// The same mistake gives the same error on every backend: the model and the settings are
/// checked before any backend is chosen.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The model is malformed ([`LpModel::validate`]): a length, an index, a NaN, an infinity.
    #[error("invalid model: {0}")]
    Model(#[from] ModelError),
    #[error("invalid settings: {0}")]
    Settings(#[from] SettingsError),
    /// The `gpu` backend needs a GL context and none could be made (`hybrid` falls back to the
    /// CPU instead).
    #[error("the gpu backend needs OpenGL: {0}")]
    Gl(#[from] GlError),
    /// The `gpu` backend could not be set up (e.g. A exceeds the texture size limit).
    #[error("the gpu backend could not be set up: {0}")]
    Backend(BackendError),
}

/// Time per phase of a solve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Timings {
    /// Building the dense standard form (and scaling).
    pub standard_form: Duration,
    /// Backend construction (uploading A).
    pub setup: Duration,
    /// The MPC loop, split by kernel.
    pub mpc: MpcTimings,
    /// Mapping the answer back to the original model.
    pub postsolve: Duration,
    pub total: Duration,
}

/// The answer, in terms of the original model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    pub status: Status,
    /// cᵀx + objective constant, in the model's sense (meaningful when optimal).
    pub objective: f64,
    /// Values of the original columns.
    pub x: Vec<f64>,
    /// Row duals y (∂objective/∂row activity, in the model's sense).
    pub row_duals: Vec<f64>,
    /// Reduced costs c − Aᵀy of the original columns.
    pub reduced_costs: Vec<f64>,
    pub iterations: usize,
    pub backend: BackendKind,
    /// Standard-form size (m, n) that the backend worked on.
    pub standard_form_size: (usize, usize),
    /// The last row of the iteration log.
    pub last_iteration: IterationInfo,
    /// Why a non-optimal status was given.
    pub detail: String,
    /// GPU backends: iterations whose normal equations were factored on the GPU (Table 4.1's
    /// parenthesized count).
    pub gpu_iterations: Option<usize>,
    /// cpu backend, [`Settings::mixed_precision`]: normal matrices of reduced-precision products
    /// (bf16 pairs on AMX tiles where the process may use them, single precision elsewhere).
    pub single_factorizations: Option<usize>,
    /// Notices for the user (a hybrid solve's switch to the CPU, a missing GL driver, …).
    pub notes: Vec<String>,
    /// The independent double-precision check of (x, row_duals) on the original model (`None`
    /// when presolve decided the status without a point).
    pub verification: Option<Verification>,
    /// The infeasibility certificate and its check, for the infeasible statuses.
    pub certificate: Option<Certificate>,
    /// Whether x and the duals are the best iterate by `mpc::merit` (limits and failures)
    /// rather than the last one.
    pub best_iterate: bool,
    pub timings: Timings,
}

/// Solves `model` with `settings`, writing the iteration log to `log` (as
/// `settings.verbosity` allows). GPU backends make a headless GL context for this call; where
/// none can be made, `hybrid` runs on the CPU with a notice and `gpu` is an error.
/// [`crate::LpSolver`] keeps one context for many solves.
pub fn solve(model: &LpModel, settings: &Settings, log: &mut Logger) -> Result<Solution, SolveError> {
    settings.validate()?;
    model.validate()?;
    if !settings.backend.uses_gl() {
        return solve_valid(model, settings, log, None);
    }
    match Gpu::headless_with(crate::gl::HeadlessOptions { api: settings.gl, ..Default::default() }) {
        Ok(gpu) => solve_valid(model, settings, log, Some(&gpu)),
        Err(e) if settings.backend == BackendKind::Hybrid => {
            log.line(&format!("notice: no GL context ({e}); the hybrid backend runs on the CPU"));
            solve_valid(model, settings, log, None)
        }
        Err(e) => Err(SolveError::Gl(e)),
    }
}

/// [`solve`] on a context the caller owns (`None`: GPU backends are unavailable; `hybrid` then
/// runs on the CPU with a notice).
pub fn solve_on(
    model: &LpModel,
    settings: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
) -> Result<Solution, SolveError> {
    settings.validate()?;
    model.validate()?;
    solve_valid(model, settings, log, gpu)
}

/// [`solve_on`] once the model and the settings have passed validation (a pass over A, made
/// once per solve).
fn solve_valid(
    model: &LpModel,
    settings: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
) -> Result<Solution, SolveError> {
    let mut quiet = Logger::quiet();
    let log = if settings.verbosity == Verbosity::Quiet { &mut quiet } else { log };
    let t0 = Instant::now();
    let mut timings = Timings::default();
    let presolved = standard_form(model, settings.scaling);
    let mut sf = match presolved {
        Presolved::Form(sf) => sf,
        Presolved::PrimalInfeasible(why) => {
            return Ok(trivial(model, settings, Status::PrimalInfeasible, why, timings, t0))
        }
        Presolved::DualInfeasible(why) => {
            return Ok(trivial(model, settings, Status::DualInfeasible, why, timings, t0))
        }
    };
    // The standard form of a validated model has a valid A by construction (b is checked there).
    let dependent = dependent_rows_of_valid(&sf.a, &sf.b);
    sf.drop_rows(&dependent.rows);
    timings.standard_form = t0.elapsed();
    let (m, n) = sf.dims();
    let bounded = sf.upper.iter().filter(|u| u.is_finite()).count();
    log.line(&format!(
        "model {}: {} rows, {} columns, {} nonzeros; standard form {m} x {n}, {} nonzeros, {bounded} upper bounds; backend {}",
        model.name,
        model.num_rows(),
        model.num_cols(),
        model.a.nnz(),
        sf.a.nnz(),
        settings.backend.name()
    ));
    log_ranges(log, model, &sf);
    log_dependent_rows(log, &dependent);
    if settings.verbosity == Verbosity::Verbose {
        log_make_up(log, &sf);
    }
    log.set_objective_map(sf.sense_sign / sf.cost_scale, sf.sense_sign * sf.offset, model.obj_constant);
    let mut notes: Vec<String> = log_tiny_entries(log, &sf).into_iter().collect();
    let deadline = settings.time_limit.map(|d| t0 + d);
    let w = sf.measure_weights(model);
    let weights = Weights { primal: w.primal, dual: w.dual, bound: w.bound, objective_offset: w.objective_offset };
    let upper = if bounded > 0 { sf.upper.clone() } else { Vec::new() };
    let mut problem = MpcProblem {
        b: sf.b.clone(),
        c: sf.c.clone(),
        upper,
        a_norm_inf: sf.a_norm_inf(),
        deadline,
        weights: Some(weights),
    };
    if settings.gpu_fault == Some(FaultInjection::NanInTexture) && settings.backend == BackendKind::Gpu {
        // The gpu backend uploads b into a texture: the NaN lives in GPU memory from then on.
        if let Some(b0) = problem.b.first_mut() {
            *b0 = f64::NAN;
        }
    }
    // The loop stops where the independent check on the original model passes (double
    // precision only: the loop ignores the judge in single precision).
    let judge = |it: &Iterate| {
        let v = verify_in(model, &sf.units, &sf.original_x(&it.x), &sf.original_duals(&it.lambda), settings.tolerance);
        v.worst() / v.tolerance
    };
    let outcome = run_backend(&sf, &problem, settings, log, gpu, &mut timings, &mut notes, &judge)?;
    let t_post = Instant::now();
    let v = verdict(model, &sf, &outcome, settings);
    let reduced_costs = reduced_costs(model, &v.row_duals);
    let objective = objective(model, &v.x);
    log.line(&format!("verification: {}", v.verification.summary()));
    if let Some(c) = &v.certificate {
        log.line(&format!("certificate: {}", c.check.summary()));
    }
    timings.postsolve = t_post.elapsed();
    timings.mpc = outcome.timings;
    timings.total = t0.elapsed();
    if settings.verbosity == Verbosity::Verbose {
        log_timings(log, &timings);
    }
    Ok(Solution {
        status: v.status,
        objective,
        x: v.x,
        row_duals: v.row_duals,
        reduced_costs,
        iterations: outcome.iterations,
        backend: settings.backend,
        standard_form_size: (m, n),
        last_iteration: outcome.last,
        detail: v.detail,
        gpu_iterations: outcome.gpu_iterations,
        single_factorizations: outcome.single_factorizations,
        notes,
        verification: Some(v.verification),
        certificate: v.certificate,
        best_iterate: outcome.best_returned,
        timings,
    })
}

/// The options of the GPU normal equations from the settings.
fn gpu_options(st: &Settings) -> GpuNormalOptions {
    GpuNormalOptions {
        variant: st.gpu_variant,
        // The packed format exists for the 2008 papers' variant only (its kernels address the
        // rotated half); every other variant stores A·D²·Aᵀ in full.
        format: if st.gpu_variant == crate::gpu::cholesky::Variant::PAPER { st.normal_format } else { Format::Full },
        substitution: st.substitution,
        pivot_tolerance: st.gpu_pivot_tolerance,
        columns_per_pass: st.assembly_columns,
        fault: st.gpu_fault,
    }
}

/// Builds the backend the settings ask for and runs the loop on it.
#[allow(clippy::too_many_arguments)]
fn run_backend(
    sf: &StandardForm,
    problem: &MpcProblem,
    st: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
    timings: &mut Timings,
    notes: &mut Vec<String>,
    judge: Judge<'_>,
) -> Result<MpcOutcome, SolveError> {
    let t_setup = Instant::now();
    let (m, n) = sf.dims();
    let empty = m == 0 || n == 0;
    if empty && st.backend.uses_gl() {
        // Presolve fixed every column: there is nothing for a GPU to compute (and no 0×0
        // texture to make), so every backend answers as the cpu backend does.
        notes.push("the standard form is empty (presolve fixed every column): solved without the GPU".into());
    }
    Ok(match (st.backend, gpu) {
        (_, _) if empty => {
            let vk = CpuVectors::for_matrix(&sf.a, &sf.free_pairs).with_paths(st.cpu);
            let (mut vk, mut ne) = (vk, CpuNormal::new(m, n).with_paths(st.cpu));
            timings.setup = t_setup.elapsed();
            let mut out = mpc::solve(&mut vk, &mut ne, problem, st, log);
            out.gpu_iterations = st.backend.uses_gl().then_some(0);
            out
        }
        (BackendKind::Cpu, _) => {
            let mut vk = CpuVectors::for_matrix(&sf.a, &sf.free_pairs).with_paths(st.cpu);
            let mut ne = CpuNormal::new(m, n)
                .with_paths(st.cpu)
                .with_mixed_precision(st.mixed_precision, &vk)
                .with_factorization(st.factorization, &vk)
                .map_err(SolveError::Backend)?;
            log.line(&ne.describe(&vk));
            timings.setup = t_setup.elapsed();
            mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge))
        }
        (BackendKind::Gpu, None) => {
            return Err(SolveError::Gl(GlError::NoEgl { detail: "no GL context was given to the gpu backend".into() }))
        }
        (BackendKind::Gpu, Some(g)) => {
            check_gpu_limits(g, m, n, &gpu_options(st)).map_err(SolveError::Backend)?;
            setup_fault(g, st).map_err(SolveError::Backend)?;
            let pool = TexturePool::new();
            let dense = sf.dense_a();
            let normal =
                GpuNormal::new(g, dense.as_ref(), gpu_options(st), pool.clone()).map_err(SolveError::Backend)?;
            let mut vk =
                GpuVectors::new(g, normal.a_matrix(), m, n, &sf.free_pairs, pool).map_err(SolveError::Backend)?;
            let mut ne = GpuSide::new(normal);
            timings.setup = t_setup.elapsed();
            mpc::solve(&mut vk, &mut ne, problem, st, log)
        }
        (BackendKind::Hybrid, g) => {
            let dense = sf.dense_a();
            let side = match g {
                None => {
                    notes.push("no GL context: the hybrid backend ran on the CPU".to_string());
                    None
                }
                Some(g) => match check_gpu_limits(g, m, n, &gpu_options(st))
                    .and_then(|()| setup_fault(g, st))
                    .and_then(|()| GpuNormal::new(g, dense.as_ref(), gpu_options(st), TexturePool::new()))
                {
                    Ok(normal) => Some(normal),
                    Err(e) => {
                        let note = format!("hybrid: the GPU could not be set up ({e}); solved on the CPU");
                        log.line(&format!("notice: {note}"));
                        notes.push(note);
                        None
                    }
                },
            };
            let on_gpu = side.is_some();
            let mut vk = CpuVectors::new(dense.as_ref(), &sf.free_pairs).with_paths(st.cpu);
            let mut ne = HybridNormal::new(side, CpuNormal::new(m, n).with_paths(st.cpu), st.hybrid);
            timings.setup = t_setup.elapsed();
            let mut out = mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge));
            if let Some(sw) = ne.switch() {
                let note = format!("hybrid: switched to the CPU at iteration {}: {}", sw.iteration, sw.reason);
                log.line(&note);
                notes.push(note);
            }
            if !on_gpu {
                // Without a GPU side the policy is the cpu backend, which reports no GPU count.
                out.gpu_iterations = None;
            }
            out
        }
    })
}

/// A kernel that cannot compile, built only for [`FaultInjection::BrokenKernel`].
const BROKEN_KERNEL: crate::gl::Kernel =
    crate::gl::Kernel { file: "fault_injection.frag", source: "void main() { this_is_not_glsl = ; }\n", variants: &[] };

/// Injects the set-up faults of [`FaultInjection`] through the real GL paths.
fn setup_fault(g: &Gpu, settings: &Settings) -> Result<(), BackendError> {
    if settings.gpu_fault == Some(FaultInjection::BrokenKernel) {
        g.prepare(&BROKEN_KERNEL, &[])
            .map_err(|e| BackendError::Gpu { kind: GpuFault::of(&e), detail: e.to_string() })?;
    }
    Ok(())
}

fn trivial(model: &LpModel, st: &Settings, status: Status, why: String, mut timings: Timings, t0: Instant) -> Solution {
    timings.total = t0.elapsed();
    Solution {
        status,
        objective: f64::NAN,
        x: vec![f64::NAN; model.num_cols()],
        row_duals: vec![f64::NAN; model.num_rows()],
        reduced_costs: vec![f64::NAN; model.num_cols()],
        iterations: 0,
        backend: st.backend,
        standard_form_size: (0, 0),
        last_iteration: IterationInfo::default(),
        detail: format!("presolve: {why}"),
        gpu_iterations: None,
        single_factorizations: None,
        notes: Vec::new(),
        verification: None,
        certificate: None,
        best_iterate: false,
        timings,
    }
}

/// Verbose: the time of each phase.
fn log_timings(log: &mut Logger, t: &Timings) {
    log.line(&format!(
        "time: {:.3} s (standard form {:.3}, setup {:.3}, assemble {:.3}, factor {:.3}, solve {:.3}, other {:.3}, postsolve {:.3})",
        t.total.as_secs_f64(),
        t.standard_form.as_secs_f64(),
        t.setup.as_secs_f64(),
        t.mpc.assemble.as_secs_f64(),
        t.mpc.factor.as_secs_f64(),
        t.mpc.solve.as_secs_f64(),
        t.mpc.other.as_secs_f64(),
        t.postsolve.as_secs_f64()
    ));
}

/// The standard form `solve` would build (for tests and tools that inspect it), of a valid
/// `model` (see [`standard_form`]).
pub fn presolve(model: &LpModel, settings: &Settings) -> Presolved {
    standard_form(model, settings.scaling)
}
