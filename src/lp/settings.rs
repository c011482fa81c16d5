//! Solver settings: every knob of the interior-point method, with defaults and validation.
//!
//! Start from [`Settings::for_backend`] (or [`Settings::default`], the cpu backend) and change
//! fields with struct update syntax. The termination tolerance depends on the backend: 1e-8 in
//! double precision, 1e-4 on the single-precision `gpu` backend; [`Settings::validate`] refuses
//! a `gpu` tolerance that single precision cannot reach, so `Settings { backend: Gpu,
//! ..Settings::default() }` is an error that says so, not a solve that ends at reduced accuracy.
//!
//! ```
//! use glsolve::lp::{BackendKind, Settings};
//! let st = Settings::for_backend(BackendKind::Gpu);
//! assert_eq!(st.tolerance, 1e-4);
//! assert!(st.validate().is_ok());
//! let wrong = Settings { backend: BackendKind::Gpu, ..Settings::default() };
//! assert!(wrong.validate().is_err());
//! ```

pub use crate::lp::hybrid_rules::{CostRule, HybridRules};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;

/// Which implementation of the normal-equations kernels the MPC loop runs on.
///
/// Chosen by an enum, not a string, so that a misspelt backend is a compile or parse error.
/// The library's default is `Cpu`: it needs no GL driver and gives double-precision answers.
/// `Auto` (the command line's default for `solve FILE`) picks `Cpu` or `Hybrid` per problem and
/// per device ([`crate::lp::auto`]); the default job shows `Hybrid`, the 2008 paper's method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum BackendKind {
    /// Double precision, dense, faer (multi-threaded BLAS-3 assembly and Cholesky).
    #[default]
    Cpu,
    /// Every kernel in single precision on the GL pipeline (2006 paper): A uploaded once,
    /// vectors in textures, only scalars read back.
    Gpu,
    /// The 2008 IPM paper's Algorithm 2: vectors in double precision on the CPU; the normal
    /// equations assembled, factored and solved on the GPU until a switching rule (3.16)–(3.18)
    /// fires, in double precision on the CPU from then on.
    Hybrid,
    /// `Cpu` or `Hybrid`, whichever this problem on this device is expected to finish sooner
    /// (both answer in double precision at the same ε): small or sparse problems, software
    /// rasterizers and textures too small go to `Cpu` without a probe; otherwise a short probe
    /// of the context against the CPU, cached per device for the process, decides
    /// ([`crate::lp::auto`]). The solution names the backend that ran and why.
    Auto,
}

/// How the cpu backend factors A·D²·Aᵀ when it holds A sparse (dense A is factored dense).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum NormalFactorization {
    /// Sparse when the analysis (AMD ordering, supernodes) predicts
    /// [`crate::lp::backend::SPARSE_FACTOR_ADVANTAGE`] times fewer multiply-adds than the dense
    /// factorization's m³/6, dense otherwise.
    #[default]
    Auto,
    /// Always the dense m×m matrix and blocked Cholesky.
    Dense,
    /// Always the sparse matrix and supernodal Cholesky.
    Sparse,
}

impl BackendKind {
    /// The backends that run a solve themselves (`Auto` chooses one of them).
    pub const ALL: &'static [BackendKind] = &[BackendKind::Cpu, BackendKind::Gpu, BackendKind::Hybrid];

    /// The name used on the command line and in the log.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Gpu => "gpu",
            BackendKind::Hybrid => "hybrid",
            BackendKind::Auto => "auto",
        }
    }

    /// Whether the backend needs a GL context (`Auto` makes one only when its problem needs
    /// the device's facts, see [`crate::lp::auto`]).
    pub fn uses_gl(self) -> bool {
        matches!(self, BackendKind::Gpu | BackendKind::Hybrid)
    }
}

/// Where the triangular solves of the GPU backends run (2008 IPM paper Table 4.1's two columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Substitution {
    /// Read the factor back once per factorization and substitute on the CPU ("CPU subst."):
    /// faster, as the paper's Figure 4.1 and our `bench solve` show, but the right-hand sides
    /// and solutions then cross between GPU and CPU.
    Cpu,
    /// Forward and back substitution as passes on the GPU ("GPU subst."): the default, which
    /// keeps the `gpu` backend's vectors in textures from the first iteration to the last.
    #[default]
    Gpu,
}

/// The loop's termination test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum StoppingRule {
    /// The 2006 paper's (6.1)–(6.3): ‖r_b‖∞/(1 + ‖b‖∞) ≤ ε, ‖r_c‖∞/(1 + ‖c‖∞) ≤ ε and
    /// |cᵀx − bᵀλ|/(1 + |cᵀx|) ≤ ε, each on its own.
    #[default]
    Separate,
    /// The 2008 IPM paper's (3.15): max{max(‖r_b‖∞, ‖r_c‖∞)/max(‖b‖∞, ‖c‖∞, ‖A‖∞),
    /// |cᵀx − bᵀλ|/(1 + |cᵀx|)} ≤ ε — residuals relative to the largest of the data's norms.
    Combined315,
}

impl StoppingRule {
    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            StoppingRule::Separate => "6.1-6.3",
            StoppingRule::Combined315 => "3.15",
        }
    }
}

/// Parameters of Mehrotra's predictor-corrector method (2006 paper, Algorithm 3; 2008 paper,
/// Algorithm 2).
#[derive(Clone, Debug)]
pub struct Settings {
    /// ε of the termination tests (6.1)–(6.3): relative primal and dual residuals and relative
    /// duality gap must all fall below it. The papers use 1e-8 in double precision.
    pub tolerance: f64,
    /// The termination test of the loop (the independent verification is the same either way).
    pub stopping: StoppingRule,
    /// Iteration limit; reaching it gives [`crate::lp::Status::IterationLimit`].
    pub max_iterations: usize,
    /// The kernels' implementation.
    pub backend: BackendKind,
    /// Fraction of the maximal step taken, keeping the iterates strictly interior:
    /// [`Settings::default_step_factor`] of the backend unless the user says otherwise.
    pub step_factor: f64,
    /// A longer fraction tried first: taken when every complementarity product after it stays
    /// at least [`crate::lp::mpc::LONG_STEP_CENTRALITY`]·μ (the new μ), `step_factor` otherwise.
    /// `None` (and any value not above `step_factor`) always takes `step_factor`.
    /// [`Settings::default_long_step_factor`] of the backend unless the user says otherwise.
    pub long_step_factor: Option<f64>,
    /// ε_inf of the infeasibility certificates (see `mpc::certificates`): a ray whose residual
    /// is below ε_inf times its objective improvement proves infeasibility.
    pub infeasibility_tolerance: f64,
    /// Solve in the model's units ([`crate::lp::Units`]: Ruiz equilibration of rows and columns
    /// by powers of two, slacks following their rows). Improves the conditioning of A·D²·Aᵀ on
    /// badly scaled models (many NETLIB problems). The cost's power of two is applied either
    /// way, and the independent check always measures in the units.
    pub scaling: bool,
    /// GPU backends: where the triangular solves run.
    pub substitution: Substitution,
    /// GPU backends: the Cholesky variant of the normal equations, which also decides the
    /// layout of every GPU vector and kernel. Default: the fastest verified one (a blocked
    /// variant); any of the papers' variants can be chosen to run the LP as the papers did.
    pub gpu_variant: crate::gpu::cholesky::Variant,
    /// GPU backends, blocked variants: columns of A per assembly pass (`usize::MAX`: one pass).
    pub assembly_columns: usize,
    /// GPU backends, the 2008 papers' variant (triangle-pair): storage of A·D²·Aᵀ (the papers
    /// pack it); the other papers' variants store it in full, the blocked ones in 2×2 blocks.
    pub normal_format: crate::layout::Format,
    /// GPU backends: a pivot at or below this fraction of its original diagonal entry is rounding
    /// noise in single precision and is replaced by a huge one (the row drops out).
    pub gpu_pivot_tolerance: f64,
    /// gpu backend (single-precision vectors): one preconditioned conjugate-gradient step on
    /// each Newton direction against the primal equation A·Δx = r_b, with the same factor. Without it the
    /// primal residual drifts once D² spans many orders of magnitude and single precision stalls
    /// a few digits short of ε; `false` runs the 2006 paper's method as published (the NETLIB
    /// Table 3 setups do). Double-precision vectors are always refined (conjugate gradients).
    pub gpu_refinement: bool,
    /// Hybrid backend: the switching rules.
    pub hybrid: HybridRules,
    /// cpu backend with dense A of at least 256 rows: form the early iterations' A·D²·Aᵀ with
    /// reduced-precision products (bf16 pairs on AMX tiles where the CPU and the operating
    /// system allow them, about three times as fast; elsewhere single precision, twice as
    /// fast) and refine every direction in double
    /// precision against the exact operator, switching to double-precision products for good
    /// when the refinement stops paying (see [`crate::lp::backend::MixedPrecision`]); from then
    /// on only the columns whose weights have fallen far below the others' are summed in
    /// reduced precision, their error at most the f64 sum's own error bound on the diagonal
    /// ([`crate::cpu::products::split_columns`]). The answer is verified in double precision
    /// either way.
    pub mixed_precision: bool,
    /// cpu backend with sparse A: how A·D²·Aᵀ is factored (see [`NormalFactorization`]).
    pub factorization: NormalFactorization,
    /// cpu and hybrid backends: the code of the CPU's products, factorization and joins
    /// (hand-written kernels or library calls; see [`crate::cpu::paths::CpuPaths`]).
    pub cpu: crate::cpu::paths::CpuPaths,
    /// Wall-clock limit of the whole solve (standard form included); reaching it gives
    /// [`crate::lp::Status::TimeLimit`] with the best iterate so far.
    pub time_limit: Option<Duration>,
    /// Raised by another thread (the CLI's Ctrl-C handler) to stop the solve at the next
    /// iteration with [`crate::lp::Status::Interrupted`] and the best iterate so far.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// GPU backends: which OpenGL the context made for the solve speaks — desktop OpenGL where
    /// the driver offers it, else OpenGL ES (`Auto`), or one of them only. A context given to
    /// [`crate::LpSolver::with_gpu`] is used as it is.
    pub gl: crate::gl::GlApi,
    /// Tests only: a GL fault to inject into the GPU backends (see [`crate::lp::backend::FaultInjection`]).
    pub gpu_fault: Option<crate::lp::backend::FaultInjection>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tolerance: 1e-8,
            stopping: StoppingRule::Separate,
            max_iterations: 200,
            backend: BackendKind::Cpu,
            step_factor: CPU_STEP_FACTOR,
            long_step_factor: Some(CPU_LONG_STEP_FACTOR),
            infeasibility_tolerance: 1e-8,
            scaling: true,
            substitution: Substitution::Gpu,
            gpu_variant: crate::gpu::cholesky::Variant::FASTEST,
            assembly_columns: usize::MAX,
            normal_format: crate::layout::Format::Packed,
            gpu_pivot_tolerance: 1e-6,
            gpu_refinement: true,
            hybrid: HybridRules::default(),
            mixed_precision: true,
            factorization: NormalFactorization::Auto,
            cpu: crate::cpu::paths::CpuPaths::default(),
            time_limit: None,
            interrupt: None,
            gl: crate::gl::GlApi::Auto,
            gpu_fault: None,
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
    #[error("long step factor must be in (0, 1), got {0}")]
    LongStepFactor(f64),
    #[error("infeasibility tolerance must be in (0, 1), got {0}")]
    InfeasibilityTolerance(f64),
    #[error("max iterations must be at least 1")]
    MaxIterations,
    #[error("GPU pivot tolerance must be in (0, 1), got {0}")]
    PivotTolerance(f64),
    #[error("hybrid rule {0} must be positive and finite, got {1}")]
    HybridRule(&'static str, f64),
    /// The `gpu` backend computes in single precision: its termination tests cannot see below
    /// single precision's unit roundoff.
    #[error(
        "tolerance {0:e} is below what the gpu backend's single precision can reach (≥ {GPU_MIN_TOLERANCE:e}); \
         start from Settings::for_backend(BackendKind::Gpu) (ε = 1e-4) or use the hybrid backend"
    )]
    GpuTolerance(f64),
    /// A CPU path this machine or build cannot run.
    #[error(transparent)]
    CpuPath(#[from] crate::cpu::paths::PathError),
}

/// The smallest ε the `gpu` backend accepts: single precision's unit roundoff 2⁻²⁴ ≈ 6e-8,
/// rounded up. Its residuals and gap are computed in single precision, so tests (6.1)–(6.3)
/// below this compare rounding noise.
pub const GPU_MIN_TOLERANCE: f64 = 1e-7;

/// The papers' fraction of the maximal step: the gpu and hybrid backends' default.
pub const PAPERS_STEP_FACTOR: f64 = 0.99;

/// The cpu backend's default fraction of the maximal step. With 0.99 the double-precision loop
/// let a few complementarity products of greenbea fall to 1e-2·μ and below; Θ = x/s then
/// spanned 1e24, conjugate gradients could no longer refine the directions, and the run crawled
/// to reduced accuracy in 170 iterations. At 0.95 it is optimal in 94; over the 104 problems of
/// the NETLIB collection (`bench netlib-all`) every one then ends at full accuracy or with a
/// certificate, in 1878 iterations in all against 1913 at 0.99; the random dense family takes
/// one iteration more (13 against 12 at m = 512 and 1024, seed 7).
pub const CPU_STEP_FACTOR: f64 = 0.95;

/// The cpu backend's long step (see [`Settings::long_step_factor`]): 0.995 where the step keeps
/// the iterate centred, 0.95 where it would not. Over the NETLIB collection (`bench
/// netlib-all`) the statuses stay those of 0.95 alone, greenbea included, in 1846 iterations
/// against 1879 for 0.95 alone in the same build (1847 once the substitutions ran on one thread,
/// which changed their rounding); the random dense family (m = 512 and 1024, seed 7) takes 12
/// iterations against 13.
pub const CPU_LONG_STEP_FACTOR: f64 = 0.995;

impl Settings {
    /// The ε a backend is run with unless the user says otherwise: 1e-8 (the papers' double
    /// precision value) for cpu and hybrid; 1e-4 for gpu, whose single precision cannot certify
    /// 1e-8 (the 2006 paper's Table 3 used problem-specific values from 3e-5 to 2e-3).
    pub fn default_tolerance(backend: BackendKind) -> f64 {
        match backend {
            BackendKind::Gpu => 1e-4,
            BackendKind::Cpu | BackendKind::Hybrid | BackendKind::Auto => 1e-8,
        }
    }

    /// The step factor a backend is run with unless the user says otherwise:
    /// [`PAPERS_STEP_FACTOR`] for gpu and hybrid (the papers' method), [`CPU_STEP_FACTOR`] for
    /// cpu and auto (which takes hybrid's when it chooses hybrid, see [`Settings::resolved`]).
    pub fn default_step_factor(backend: BackendKind) -> f64 {
        match backend {
            BackendKind::Cpu | BackendKind::Auto => CPU_STEP_FACTOR,
            BackendKind::Gpu | BackendKind::Hybrid => PAPERS_STEP_FACTOR,
        }
    }

    /// The long step a backend tries unless the user says otherwise: none for gpu and hybrid
    /// (the papers' fixed fraction), [`CPU_LONG_STEP_FACTOR`] for cpu and auto.
    pub fn default_long_step_factor(backend: BackendKind) -> Option<f64> {
        match backend {
            BackendKind::Cpu | BackendKind::Auto => Some(CPU_LONG_STEP_FACTOR),
            BackendKind::Gpu | BackendKind::Hybrid => None,
        }
    }

    /// The defaults for `backend`: [`Settings::default`] with that backend, its tolerance
    /// ([`Settings::default_tolerance`]) and its step factors ([`Settings::default_step_factor`],
    /// [`Settings::default_long_step_factor`]).
    pub fn for_backend(backend: BackendKind) -> Self {
        Self {
            backend,
            tolerance: Self::default_tolerance(backend),
            step_factor: Self::default_step_factor(backend),
            long_step_factor: Self::default_long_step_factor(backend),
            ..Self::default()
        }
    }

    /// These settings with `backend` in place of `Auto`: the tolerance and the step factors
    /// still at auto's defaults become `backend`'s defaults (a value set to exactly auto's
    /// default counts as left); everything else is kept.
    pub fn resolved(&self, backend: BackendKind) -> Settings {
        let mut st = Settings { backend, ..self.clone() };
        if self.tolerance == Self::default_tolerance(BackendKind::Auto) {
            st.tolerance = Self::default_tolerance(backend);
        }
        if self.step_factor == Self::default_step_factor(BackendKind::Auto) {
            st.step_factor = Self::default_step_factor(backend);
        }
        if self.long_step_factor == Self::default_long_step_factor(BackendKind::Auto) {
            st.long_step_factor = Self::default_long_step_factor(backend);
        }
        st
    }

    /// Checks every parameter; the solver calls this before doing any work.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let open_unit = |v: f64| v > 0.0 && v < 1.0;
        if !open_unit(self.tolerance) {
            return Err(SettingsError::Tolerance(self.tolerance));
        }
        if self.backend == BackendKind::Gpu && self.tolerance < GPU_MIN_TOLERANCE {
            return Err(SettingsError::GpuTolerance(self.tolerance));
        }
        if !open_unit(self.step_factor) {
            return Err(SettingsError::StepFactor(self.step_factor));
        }
        if let Some(v) = self.long_step_factor.filter(|&v| !open_unit(v)) {
            return Err(SettingsError::LongStepFactor(v));
        }
        if !open_unit(self.infeasibility_tolerance) {
            return Err(SettingsError::InfeasibilityTolerance(self.infeasibility_tolerance));
        }
        if self.max_iterations == 0 {
            return Err(SettingsError::MaxIterations);
        }
        if !open_unit(self.gpu_pivot_tolerance) {
            return Err(SettingsError::PivotTolerance(self.gpu_pivot_tolerance));
        }
        let h = &self.hybrid;
        for (name, v) in [("θ_r", h.theta_r), ("ε_d", h.eps_d), ("θ_d", h.theta_d), ("θ_a", h.theta_a)] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(SettingsError::HybridRule(name, v));
            }
        }
        if let Some(c) = h.cost {
            if !(c.factor > 0.0 && c.factor.is_finite()) {
                return Err(SettingsError::HybridRule("cost factor", c.factor));
            }
            if !(c.min_seconds >= 0.0 && c.min_seconds.is_finite()) {
                return Err(SettingsError::HybridRule("cost rule's min_seconds", c.min_seconds));
            }
        }
        self.cpu.validate()?;
        Ok(())
    }
}
