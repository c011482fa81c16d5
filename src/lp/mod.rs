//! Linear programs: reading them, bringing them to standard form, solving them.
//!
//! Pipeline: [`mps`] → [`LpModel`] → the standard form (dense min cᵀx, Ax = b, x ≥ 0) →
//! Mehrotra's predictor-corrector over a backend's vector kernels and normal equations →
//! mapped back and checked on the original model by [`solve()`]; [`LpSolver`] keeps a GL context
//! between solves. The standard form, the loop and its backends are crate-private (public with
//! the feature `internals`).
pub mod auto;
pub mod mps;
pub mod random;
internal_mods! {
    mod backend;
    mod builder;
    #[cfg(feature = "fault-injection")]
    mod faults;
    mod log;
    mod model;
    mod mpc;
    mod settings;
    mod pipeline;
    mod solution;
    mod solver;
    mod standard_form;
    mod status;
    mod units;
    mod validate;
    mod verify;
}
mod chosen_backend;
mod hybrid_rules;
mod solve_error;

/// The MPS writer (also reachable as `lp::mps::write`).
pub use mps::write as mps_write;

pub use builder::{IntoValues, LpModelBuilder};
pub use log::{IterationInfo, Logger, Progress, Verbosity};
pub use model::ModelError;
pub use model::{LpModel, Sense, SparseColMatrix};
pub use mpc::MpcTimings;
pub use pipeline::{solve, solve_on, SolveError};
pub use settings::{
    Backend, BackendKind, CostRule, CpuOptions, GpuOptions, HybridRules, NormalFactorization, Settings,
    SettingsBuilder, SettingsError, StoppingRule, Substitution,
};
pub use solution::{Solution, Timings};
pub use solver::{ContextUse, LpSolver};
pub use status::Status;
pub use units::Units;
pub use verify::feasibility::{Feasibility, FeasibilityCheck};
pub use verify::verdict::Certificate;
pub use verify::{Accuracy, CertificateCheck, CertificateKind, DualBound, Enclosure, Verification, VERIFY_FACTOR};
