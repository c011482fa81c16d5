//! The whole pipeline: standard form, the MPC loop on the chosen backend, mapping back.

use crate::gl::{GlError, Gpu};
use crate::lp::backend::BackendError;
use crate::lp::backend::NormalEquationsBackend;
use crate::lp::backends::{CpuBackend, GpuBackend, HybridBackend};
use crate::lp::log::{IterationInfo, Logger};
use crate::lp::model::LpModel;
use crate::lp::mpc::{self, MpcProblem, MpcTimings};
use crate::lp::settings::{BackendKind, Settings, SettingsError};
use crate::lp::standard_form::{standard_form, Presolved};
use crate::lp::status::Status;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Errors that prevent a solve from starting (a non-optimal outcome is a [`Status`], not this).
#[derive(Debug, Error)]
pub enum SolveError {
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
    /// Notices for the user (a hybrid solve's switch to the CPU, a missing GL driver, …).
    pub notes: Vec<String>,
    pub timings: Timings,
}

/// Solves `model` with `settings`, writing the iteration log to `log`. GPU backends make a
/// headless GL context; where none can be made, `hybrid` runs on the CPU with a notice and `gpu`
/// is an error.
pub fn solve(model: &LpModel, settings: &Settings, log: &mut Logger) -> Result<Solution, SolveError> {
    settings.validate()?;
    if !settings.backend.uses_gl() {
        return solve_on(model, settings, log, None);
    }
    match Gpu::headless() {
        Ok(gpu) => solve_on(model, settings, log, Some(&gpu)),
        Err(e) if settings.backend == BackendKind::Hybrid => {
            log.line(&format!("notice: no GL context ({e}); the hybrid backend runs on the CPU"));
            solve_on(model, settings, log, None)
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
    let t0 = Instant::now();
    let mut timings = Timings::default();
    let presolved = standard_form(model, settings.scaling);
    timings.standard_form = t0.elapsed();
    let sf = match presolved {
        Presolved::Form(sf) => sf,
        Presolved::PrimalInfeasible(why) => {
            return Ok(trivial(model, settings, Status::PrimalInfeasible, why, timings, t0))
        }
        Presolved::DualInfeasible(why) => {
            return Ok(trivial(model, settings, Status::DualInfeasible, why, timings, t0))
        }
    };
    let (m, n) = (sf.a.nrows(), sf.a.ncols());
    log.line(&format!(
        "model {}: {} rows, {} columns, {} nonzeros; standard form {m} x {n} (dense); backend {}",
        model.name,
        model.num_rows(),
        model.num_cols(),
        model.a.nnz(),
        settings.backend.name()
    ));
    let problem = MpcProblem { b: sf.b.clone(), c: sf.c.clone(), a_norm_inf: sf.a_norm_inf() };
    let t_setup = Instant::now();
    let mut notes = Vec::new();
    let cpu = |timings: &mut Timings, log: &mut Logger| {
        let mut be = CpuBackend::new(sf.a.as_ref(), &sf.free_pairs);
        timings.setup = t_setup.elapsed();
        run_on(&mut be, &problem, settings, log)
    };
    let (fmt, sub, tol) = (settings.normal_format, settings.substitution, settings.gpu_pivot_tolerance);
    let outcome = match (settings.backend, gpu) {
        (BackendKind::Cpu, _) => cpu(&mut timings, log),
        (BackendKind::Gpu, None) => {
            return Err(SolveError::Gl(GlError::NoEgl { detail: "no GL context was given to the gpu backend".into() }))
        }
        (BackendKind::Gpu, Some(g)) => {
            let mut be =
                GpuBackend::new(g, sf.a.as_ref(), &sf.free_pairs, fmt, sub, tol).map_err(SolveError::Backend)?;
            timings.setup = t_setup.elapsed();
            run_on(&mut be, &problem, settings, log)
        }
        (BackendKind::Hybrid, None) => {
            notes.push("no GL context: the hybrid backend ran on the CPU".to_string());
            cpu(&mut timings, log)
        }
        (BackendKind::Hybrid, Some(g)) => {
            match HybridBackend::new(g, sf.a.as_ref(), &sf.free_pairs, fmt, sub, tol, settings.hybrid) {
                Ok(mut be) => {
                    timings.setup = t_setup.elapsed();
                    let out = run_on(&mut be, &problem, settings, log);
                    if let Some(sw) = be.switch() {
                        let note = format!("hybrid: switched to the CPU at iteration {}: {}", sw.iteration, sw.reason);
                        log.line(&note);
                        notes.push(note);
                    }
                    out
                }
                Err(e) => {
                    let note = format!("hybrid: the GPU could not be set up ({e}); solved on the CPU");
                    log.line(&format!("notice: {note}"));
                    notes.push(note);
                    cpu(&mut timings, log)
                }
            }
        }
    };
    let t_post = Instant::now();
    let x = sf.original_x(&outcome.iterate.x);
    let row_duals = sf.original_duals(&outcome.iterate.lambda);
    let reduced_costs = reduced_costs(model, &row_duals);
    let objective = objective(model, &x);
    timings.postsolve = t_post.elapsed();
    timings.mpc = outcome.timings;
    timings.total = t0.elapsed();
    Ok(Solution {
        status: outcome.status,
        objective,
        x,
        row_duals,
        reduced_costs,
        iterations: outcome.iterations,
        backend: settings.backend,
        standard_form_size: (m, n),
        last_iteration: outcome.last,
        detail: outcome.detail,
        gpu_iterations: outcome.gpu_iterations,
        notes,
        timings,
    })
}

fn run_on<B: NormalEquationsBackend>(be: &mut B, p: &MpcProblem, st: &Settings, log: &mut Logger) -> mpc::MpcOutcome {
    mpc::solve(be, p, st, log)
}

/// cᵀx + constant in the model's sense.
pub fn objective(model: &LpModel, x: &[f64]) -> f64 {
    model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant
}

/// c − Aᵀy for the original columns.
pub fn reduced_costs(model: &LpModel, y: &[f64]) -> Vec<f64> {
    (0..model.num_cols()).map(|j| model.c[j] - model.a.col(j).map(|(i, v)| v * y[i]).sum::<f64>()).collect()
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
        notes: Vec::new(),
        timings,
    }
}

/// The standard form `solve` would build (for tests and tools that inspect it).
pub fn presolve(model: &LpModel, settings: &Settings) -> Presolved {
    standard_form(model, settings.scaling)
}
