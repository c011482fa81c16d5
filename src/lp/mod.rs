//! Linear programs: reading them, bringing them to standard form, solving them.
//!
//! Pipeline: [`mps`] → [`LpModel`] → [`standard_form`] (dense min cᵀx, Ax = b, x ≥ 0) →
//! [`mpc`] (Mehrotra's predictor-corrector over a backend's [`backend::VectorKernels`] and
//! [`backend::NormalEquations`]) → mapped
//! back by [`solve::solve`].
pub mod backend;
pub mod builder;
pub mod log;
pub mod model;
pub mod mpc;
pub mod mps;
pub mod random;
pub mod settings;
pub mod solve;
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
pub use model::ModelError;
pub use model::{LpModel, Sense, SparseColMatrix};
pub use settings::{BackendKind, HybridRules, NormalFactorization, Settings, StoppingRule, Substitution, Verbosity};
pub use solve::{solve, solve_on, Solution, SolveError};
pub use solver::LpSolver;
pub use status::Status;
pub use units::Units;
pub use verdict::Certificate;
pub use verify::{Accuracy, Verification};
