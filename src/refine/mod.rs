//! Mixed-precision solution of dense general systems A·x = b, as the mixed-precision LU paper
//! builds it: LU with partial pivoting in single precision — by default the right-looking
//! blocked LU (CPU panels, GPU updates) with look-ahead ([`crate::gpu::lu::right_looking`]) of [A | b], so that L⁻¹·P·b comes with the
//! factors (its Fig. 6) — then iterative refinement (its Fig. 1): the residual in double
//! precision, the correction from the single-precision factors, until the paper's convergence
//! test ‖Ax − b‖ / (‖A‖·‖b‖·n·ε) ≤ 16 ([`Criterion::Paper`], §2.3 Eq. (1)). By default each
//! step uses the paper's blocked substitutions split between CPU and GPU with the residual formed
//! on the GPU in double precision (Figs. 2–5). When refinement stalls or diverges
//! (κ(A)·u₃₂ ≳ 1), or single-precision LU finds A singular, a double-precision LU on the CPU
//! solves the system instead and the result says so.
//!
//! The loop itself is [`iterate::refine`], shared with weighted least squares.

pub mod criterion;
mod general;
pub mod iterate;
mod scaled;
mod solve;

pub use criterion::{backward_error_bound, linpack_criterion, paper_criterion, Criterion};
pub use general::Substitution;
pub use solve::{check_sizes, linsolve};

use crate::gpu::lu::right_looking::BlockedSettings;
use crate::gpu::lu::timeline::Timeline;
use crate::gpu::GpuError;
use std::time::Duration;

/// Which single-precision LU runs on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LuPath {
    /// The right-looking blocked LU (CPU panels, GPU updates) with (or without) look-ahead: the
    /// default.
    Blocked(BlockedSettings),
    /// The Galoppo et al. baseline: one set of passes per column, pivots found on the GPU.
    Unblocked,
}

impl LuPath {
    /// The path in words, with its block size and look-ahead.
    pub fn name(&self) -> String {
        match self {
            LuPath::Blocked(b) => {
                format!("blocked nb={}{}", b.block, if b.lookahead { ", look-ahead" } else { ", no look-ahead" })
            }
            LuPath::Unblocked => "unblocked".into(),
        }
    }
}

/// Refinement parameters.
#[derive(Clone, Debug)]
pub struct RefineSettings {
    /// Largest number of refinement steps before falling back.
    pub max_iterations: usize,
    /// The bound on the convergence test (the paper's O(1); HPL uses 16).
    pub threshold: f64,
    /// Steps without at least halving the criterion before refinement counts as stalled.
    pub patience: usize,
    /// Refinement counts as diverged when the criterion exceeds this multiple of its best value.
    pub growth_limit: f64,
    /// The convergence test.
    pub criterion: Criterion,
    /// Which single-precision LU factors A on the GPU.
    pub lu: LuPath,
    /// How each refinement step applies the factors.
    pub substitution: Substitution,
}

impl Default for RefineSettings {
    fn default() -> Self {
        Self {
            max_iterations: 30,
            threshold: 16.0,
            patience: 3,
            growth_limit: 1e4,
            criterion: Criterion::Paper,
            lu: LuPath::Blocked(BlockedSettings::default()),
            substitution: Substitution::Split,
        }
    }
}

/// What can stop a solve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RefineError {
    /// A is not n×n or b has not n entries (n ≥ 1): the lengths given.
    #[error("shape mismatch: {0}")]
    Shape(String),
    /// An entry of A or b is NaN or infinite.
    #[error("{what} holds a non-finite value at row {row}, column {col} (0-based)")]
    NonFinite {
        /// "A" or "b".
        what: &'static str,
        /// 0-based row of the entry.
        row: usize,
        /// 0-based column of the entry (0 for b).
        col: usize,
    },
    /// Singular in double precision too.
    #[error("the matrix is singular to double precision (the single-precision LU stopped at column {column:?})")]
    Singular {
        /// 0-based column where the single-precision LU found no pivot, if it stopped at one
        /// (`None`: it finished, and the solve fell back to double precision for another reason).
        column: Option<usize>,
    },
    /// The GPU factorization or the GL layer failed.
    #[error(transparent)]
    Gpu(GpuError),
}

/// How the answer was obtained.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Method {
    /// Single-precision GPU factors plus double-precision refinement.
    Mixed,
    /// Double-precision LU on the CPU, with the reason the mixed path was abandoned.
    DoubleFallback(String),
}

/// A solved system.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solved {
    pub x: Vec<f64>,
    pub method: Method,
    /// Refinement steps taken (0: the first solve already met the test).
    pub iterations: usize,
    /// The test that stopped the refinement.
    pub test: Criterion,
    /// That test's value before each step and at the end.
    pub history: Vec<f64>,
    /// A proven bound on the answer's normwise backward error in LINPACK's units
    /// ([`backward_error_bound`]: [`Criterion::BackwardError`] with the residual's rounding
    /// added), on the system as written. The mixed answer is returned only when it is at most
    /// `threshold`.
    pub backward_error: f64,
    /// The bound `backward_error` had to meet ([`RefineSettings::threshold`], HPL's 16).
    pub threshold: f64,
    /// Time of the single-precision LU (upload, passes, read-backs of the factors).
    pub factor_time: Duration,
    pub refine_time: Duration,
    pub total_time: Duration,
    /// What the CPU and the GPU did when (factorization, forward and backward sweeps).
    pub timeline: Timeline,
    pub lu: LuPath,
    pub substitution: Substitution,
}

impl Solved {
    /// The bound on the answer's normwise backward error in LINPACK's units,
    /// (‖b − Ax‖∞ + γ_{n+1}·‖|b| + |A||x|‖∞) / (‖A‖∞‖x‖∞·n·ε) with ε = 2⁻⁵²: what any
    /// backward-stable solve keeps ≤ 16 whatever κ(A). The stopping test's own values are in
    /// `history`.
    pub fn criterion(&self) -> f64 {
        self.backward_error
    }
    /// The stopping test's last value.
    pub fn test_value(&self) -> f64 {
        self.history.last().copied().unwrap_or(f64::NAN)
    }
    /// Effective rate as the mixed-precision paper reports it: (2/3·n³ + 2·n²) / total time.
    pub fn gflops(&self) -> f64 {
        let n = self.x.len() as f64;
        (2.0 / 3.0 * n * n * n + 2.0 * n * n) / self.total_time.as_secs_f64() / 1e9
    }
}
