//! Solver settings: every knob of the interior-point method, with defaults and validation.

use thiserror::Error;

/// Which implementation of the normal-equations kernels the MPC loop runs on.
///
/// Chosen by an enum, not a string, so that a misspelt backend is a compile or parse error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum BackendKind {
    /// Double precision, dense, faer (multi-threaded BLAS-3 assembly and Cholesky).
    #[default]
    Cpu,
}

impl BackendKind {
    /// All backends this build provides (for `--backend` help and tests).
    pub const ALL: &'static [BackendKind] = &[BackendKind::Cpu];

    /// The name used on the command line and in the log.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Cpu => "cpu",
        }
    }
}

/// How much the solver prints through its [`crate::lp::log::Logger`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Verbosity {
    /// Nothing.
    Quiet,
    /// Header, one line per iteration and the final summary.
    #[default]
    Normal,
    /// Also the details of the standard form and of every factorization.
    Verbose,
}

/// Parameters of Mehrotra's predictor-corrector method (2006 paper, Algorithm 3; 2008 paper,
/// Algorithm 2).
#[derive(Clone, Debug)]
pub struct Settings {
    /// ε of the termination tests (6.1)–(6.3): relative primal and dual residuals and relative
    /// duality gap must all fall below it. The papers use 1e-8 in double precision.
    pub tolerance: f64,
    /// Iteration limit; reaching it gives [`crate::lp::Status::IterationLimit`].
    pub max_iterations: usize,
    /// The kernels' implementation.
    pub backend: BackendKind,
    /// Fraction of the maximal step taken (the papers' 0.99): keeps iterates strictly interior.
    pub step_factor: f64,
    /// ε_inf of the infeasibility certificates (see `mpc::certificates`): a ray whose residual
    /// is below ε_inf times its objective improvement proves infeasibility.
    pub infeasibility_tolerance: f64,
    /// Apply Ruiz equilibration to the standard-form matrix before solving. Improves the
    /// conditioning of A·D²·Aᵀ on badly scaled models (many NETLIB problems).
    pub scaling: bool,
    /// What gets printed.
    pub verbosity: Verbosity,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tolerance: 1e-8,
            max_iterations: 200,
            backend: BackendKind::Cpu,
            step_factor: 0.99,
            infeasibility_tolerance: 1e-8,
            scaling: true,
            verbosity: Verbosity::Normal,
        }
    }
}

/// A setting outside its meaningful range.
#[derive(Debug, Error, PartialEq)]
pub enum SettingsError {
    #[error("tolerance must be in (0, 1), got {0}")]
    Tolerance(f64),
    #[error("step factor must be in (0, 1), got {0}")]
    StepFactor(f64),
    #[error("infeasibility tolerance must be in (0, 1), got {0}")]
    InfeasibilityTolerance(f64),
    #[error("max iterations must be at least 1")]
    MaxIterations,
}

impl Settings {
    /// Checks every parameter; the solver calls this before doing any work.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let open_unit = |v: f64| v > 0.0 && v < 1.0;
        if !open_unit(self.tolerance) {
            return Err(SettingsError::Tolerance(self.tolerance));
        }
        if !open_unit(self.step_factor) {
            return Err(SettingsError::StepFactor(self.step_factor));
        }
        if !open_unit(self.infeasibility_tolerance) {
            return Err(SettingsError::InfeasibilityTolerance(self.infeasibility_tolerance));
        }
        if self.max_iterations == 0 {
            return Err(SettingsError::MaxIterations);
        }
        Ok(())
    }
}
