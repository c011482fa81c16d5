//! Linear programs: reading them, bringing them to standard form, solving them.
//!
//! Pipeline: [`mps`] → [`LpModel`] → [`standard_form`] (dense min cᵀx, Ax = b, x ≥ 0) →
//! [`mpc`] (Mehrotra's predictor-corrector over a backend's [`backend::VectorKernels`] and
//! [`backend::NormalEquations`]) → mapped
//! back by [`solve::solve`].
pub mod auto;
pub mod backend;
pub mod builder;
pub mod families;
#[cfg(feature = "fault-injection")]
pub mod faults;
pub mod feasibility;
mod hybrid_rules;
pub mod log;
pub mod model;
pub mod mpc;
pub mod mps;
pub mod random;
mod run;
pub mod settings;
pub mod solve;
mod solve_error;
pub mod solver;
pub mod standard_form;
pub mod status;
pub mod units;
pub mod validate;
pub mod verdict;
pub mod verify;

/// The MPS writer (also reachable as `lp::mps::write`).
pub use mps::write as mps_write;

pub use builder::{IntoValues, LpModelBuilder};
pub use feasibility::{Feasibility, FeasibilityCheck};
pub use log::{IterationInfo, Logger, Progress, Verbosity};
pub use model::ModelError;
pub use model::{LpModel, Sense, SparseColMatrix};
pub use settings::{
    Backend, BackendKind, CostRule, CpuOptions, GpuOptions, HybridRules, NormalFactorization, Settings,
    SettingsBuilder, SettingsError, StoppingRule, Substitution,
};
pub use solve::{solve, solve_on, Solution, SolveError};
pub use solver::{ContextUse, LpSolver};
pub use status::Status;
pub use units::Units;
pub use verdict::Certificate;
pub use verify::{Accuracy, Verification};
