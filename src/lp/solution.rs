//! [`Solution`]: what a solve returns, and its [`Timings`].

use crate::lp::log::IterationInfo;
use crate::lp::mpc::MpcTimings;
use crate::lp::settings::BackendKind;
use crate::lp::status::Status;
use crate::lp::verify::feasibility::FeasibilityCheck;
use crate::lp::verify::verdict::Certificate;
use crate::lp::verify::Verification;
use std::time::Duration;

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
    /// The feasibility solve after a primal ray (zero otherwise).
    pub feasibility: Duration,
    /// Proving: the loop's judgement of its iterates and the verdict on the answer
    /// on the original model; part of `mpc.other` and `postsolve`.
    pub proof: Duration,
    /// The whole solve, from the model to the answer.
    pub total: Duration,
}

/// The answer, in terms of the original model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    /// What the solve established (only `Optimal` is a verified optimum).
    pub status: Status,
    /// cᵀx + objective constant, in the model's sense (meaningful when optimal).
    pub objective: f64,
    /// Values of the original columns.
    pub x: Vec<f64>,
    /// Row duals y (∂objective/∂row activity, in the model's sense).
    pub row_duals: Vec<f64>,
    /// Reduced costs c − Aᵀy of the original columns.
    pub reduced_costs: Vec<f64>,
    /// Interior-point iterations taken.
    pub iterations: usize,
    /// The backend that solved it (`auto` resolved to `cpu` or `hybrid`).
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
    /// cpu backend, [`crate::lp::CpuOptions::mixed_precision`]: normal matrices of reduced-precision products
    /// (bf16 pairs on AMX tiles where the process may use them, single precision elsewhere).
    pub single_factorizations: Option<usize>,
    /// Notices for the user (a hybrid solve's switch to the CPU, a missing GL driver, …).
    pub notes: Vec<String>,
    /// The independent double-precision check of (x, row_duals) on the original model (`None`
    /// when presolve decided the status without a point).
    pub verification: Option<Verification>,
    /// The infeasibility certificate and its check, for the infeasible statuses (the primal ray
    /// for `dual infeasible` and `unbounded`).
    pub certificate: Option<Certificate>,
    /// After a primal ray: whether a primal feasible point was established (then the status is
    /// [`Status::Unbounded`] and [`Solution::x`] is that point), refuted (with its Farkas ray) or
    /// left unknown ([`crate::lp::FeasibilityCheck`]).
    pub feasibility: Option<FeasibilityCheck>,
    /// Whether x and the duals are the best iterate by `mpc::merit` (limits and failures)
    /// rather than the last one.
    pub best_iterate: bool,
    /// Wall-clock time per phase of the solve.
    pub timings: Timings,
}

impl Solution {
    /// The proven enclosure of the optimum ([`crate::lp::Enclosure`]) where the status
    /// leaves one to state: optimal, reduced accuracy, a limit or a numerical failure (what
    /// the point returned proves, if the model is feasible). `None` for the infeasible and
    /// unbounded statuses, which have no optimum.
    pub fn enclosure(&self) -> Option<crate::lp::verify::Enclosure> {
        let has_optimum = matches!(
            self.status,
            Status::Optimal
                | Status::OptimalReducedAccuracy
                | Status::IterationLimit
                | Status::TimeLimit
                | Status::Interrupted
                | Status::NumericalFailure
        );
        self.verification.as_ref().filter(|_| has_optimum).map(|v| v.enclosure)
    }
}
