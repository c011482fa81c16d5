//! The whole pipeline: standard form, the MPC loop on the chosen backend, mapping back.

use crate::lp::backend::NormalEquationsBackend;
use crate::lp::backends::CpuBackend;
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
    pub timings: Timings,
}

/// Solves `model` with `settings`, writing the iteration log to `log`.
pub fn solve(model: &LpModel, settings: &Settings, log: &mut Logger) -> Result<Solution, SolveError> {
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
    let outcome = match settings.backend {
        BackendKind::Cpu => {
            let mut be = CpuBackend::new(sf.a.as_ref(), &sf.free_pairs);
            timings.setup = t_setup.elapsed();
            run_on(&mut be, &problem, settings, log)
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
        timings,
    }
}

/// The standard form `solve` would build (for tests and tools that inspect it).
pub fn presolve(model: &LpModel, settings: &Settings) -> Presolved {
    standard_form(model, settings.scaling)
}
