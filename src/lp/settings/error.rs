//! What [`super::SettingsBuilder::build`] refuses.

use super::kinds::BackendKind;
use thiserror::Error;

/// The smallest ε the `gpu` backend accepts: single precision's unit roundoff 2⁻²⁴ ≈ 6e-8,
/// rounded up. Its residuals and gap are computed in single precision, so tests (6.1)–(6.3)
/// below this compare rounding noise.
pub const GPU_MIN_TOLERANCE: f64 = 1e-7;

/// A setting outside its meaningful range, or an option given to a backend that does not read it.
#[derive(Debug, Error, PartialEq)]
pub enum SettingsError {
    /// The tolerance ε (the value given) is not in (0, 1).
    #[error("tolerance must be in (0, 1), got {}", shown(*.0))]
    Tolerance(f64),
    /// The step factor (the value given) is not in (0, 1).
    #[error("step factor must be in (0, 1), got {}", shown(*.0))]
    StepFactor(f64),
    /// The long step factor (the value given) is not in (0, 1).
    #[error("long step factor must be in (0, 1), got {}", shown(*.0))]
    LongStepFactor(f64),
    /// The infeasibility tolerance (the value given) is not in (0, 1).
    #[error("infeasibility tolerance must be in (0, 1), got {}", shown(*.0))]
    InfeasibilityTolerance(f64),
    /// The iteration limit is 0.
    #[error("max iterations must be at least 1")]
    MaxIterations,
    /// The time limit (the seconds given) is not positive and finite, or not a duration: below
    /// half a nanosecond it rounds to 0, which would stop every solve before its first
    /// iteration, and above u64::MAX seconds (1.8e19) no `Duration` holds it.
    #[error("time_limit = {}: the time limit must be > 0 seconds and finite, from 1 ns to 1.8e19 s", shown(*.0))]
    TimeLimit(f64),
    /// The GPU options' pivot tolerance (the value given) is not in (0, 1).
    #[error("GPU pivot tolerance must be in (0, 1), got {}", shown(*.0))]
    PivotTolerance(f64),
    /// The GPU options' assembly columns per pass is 0.
    #[error("GPU assembly columns per pass must be at least 1")]
    AssemblyColumns,
    /// A value of the switching rules (hybrid and auto backends) is out of range: its name and
    /// the value given.
    #[error("hybrid rule {} must be positive and finite, got {}", .0, shown(*.1))]
    HybridRule(&'static str, f64),
    /// The `gpu` backend computes in single precision: its termination tests cannot see below
    /// single precision's unit roundoff.
    #[error(
        "tolerance {0:e} is below what the gpu backend's single precision can reach (≥ {GPU_MIN_TOLERANCE:e}); \
         leave it at the gpu backend's default (ε = 1e-4) or use the hybrid backend"
    )]
    GpuTolerance(f64),
    /// A normal-matrix format was given with a variant that has no choice of storage.
    #[error("a storage format for A·D²·Aᵀ applies to the triangle-pair variant only; {variant} stores it its own way")]
    NormalFormat {
        /// The variant's name (one other than the paper's triangle pair).
        variant: &'static str,
    },
    /// Options given to a backend that does not read them.
    #[error("{option} do not apply to the {backend} backend (they apply to {applies})")]
    NotApplicable {
        /// The options given (e.g. "GPU options").
        option: &'static str,
        /// The backend chosen.
        backend: &'static str,
        /// The backends that read them.
        applies: &'static str,
    },
    /// A CPU path this machine or build cannot run.
    #[error(transparent)]
    CpuPath(#[from] crate::cpu::paths::PathError),
}

impl SettingsError {
    pub(super) fn not_applicable(option: &'static str, backend: BackendKind, applies: &'static str) -> Self {
        SettingsError::NotApplicable { option, backend: backend.name(), applies }
    }
}

/// A value as a message shows it: in full where that is short, in scientific notation where the
/// full decimal would run to dozens of digits (1e300, 1e-12).
fn shown(v: f64) -> String {
    let a = v.abs();
    if a.is_finite() && a != 0.0 && !(1e-4..1e15).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
