//! [`Settings`]: valid by construction (made by [`Settings::for_backend`], [`Settings::default`]
//! or [`super::SettingsBuilder::build`]), read through getters.

use super::kinds::{BackendKind, StoppingRule};
use super::options::{Backend, CpuOptions, GpuOptions};
use crate::cpu::paths::CpuPaths;
use crate::gl::GlApi;
use crate::lp::hybrid_rules::HybridRules;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The papers' fraction of the maximal step: the gpu and hybrid backends' default.
pub const PAPERS_STEP_FACTOR: f64 = 0.99;

/// The cpu backend's default fraction of the maximal step. The papers' 0.99 lets a few
/// complementarity products fall far below μ on some NETLIB problems (greenbea), after which
/// Θ = x/s spans so many orders that the directions can no longer be refined; 0.95 keeps them
/// refinable at the price of about one iteration on the dense family (docs/results.md, "How the
/// cpu backend's step factors were chosen").
pub const CPU_STEP_FACTOR: f64 = 0.95;

/// The cpu backend's long step (see [`Settings::long_step_factor`]): 0.995 where the step keeps
/// the iterate centred, 0.95 where it would not (docs/results.md, "How the cpu backend's step
/// factors were chosen").
pub const CPU_LONG_STEP_FACTOR: f64 = 0.995;

/// Parameters of Mehrotra's predictor-corrector method (2006 paper, Algorithm 3; 2008 paper,
/// Algorithm 2) and of the backend that runs it. Every value is valid: a `Settings` comes from
/// [`Settings::for_backend`] (the backend's defaults), [`Settings::default`] (the cpu
/// backend's) or [`super::SettingsBuilder::build`], which checks what it is given. Values left
/// unset are the backend's own defaults, resolved when read.
#[derive(Clone, Debug)]
pub struct Settings {
    pub(super) backend: Backend,
    /// `None`: [`Settings::default_tolerance`] of the backend.
    pub(super) tolerance: Option<f64>,
    pub(super) stopping: StoppingRule,
    pub(super) max_iterations: usize,
    /// `None`: [`Settings::default_step_factor`] of the backend.
    pub(super) step_factor: Option<f64>,
    /// `None`: [`Settings::default_long_step_factor`] of the backend; `Some(None)`: none.
    pub(super) long_step_factor: Option<Option<f64>>,
    pub(super) infeasibility_tolerance: f64,
    pub(super) scaling: bool,
    pub(super) time_limit: Option<Duration>,
    pub(super) interrupt: Option<Arc<AtomicBool>>,
}

impl Default for Settings {
    /// The cpu backend's defaults.
    fn default() -> Self {
        Self::for_backend(BackendKind::Cpu)
    }
}

impl Settings {
    /// The defaults of `backend`: its options ([`Backend::defaults`]), its tolerance
    /// ([`Settings::default_tolerance`]) and its step factors.
    pub fn for_backend(backend: BackendKind) -> Self {
        Self {
            backend: Backend::defaults(backend),
            tolerance: None,
            stopping: StoppingRule::Separate,
            max_iterations: 200,
            step_factor: None,
            long_step_factor: None,
            infeasibility_tolerance: 1e-8,
            scaling: true,
            time_limit: None,
            interrupt: None,
        }
    }

    /// The ε a backend is run with unless the user says otherwise: 1e-8 (the papers' double
    /// precision value) for cpu, hybrid and auto; 1e-4 for gpu, whose single precision cannot
    /// certify 1e-8 (the 2006 paper's Table 3 used problem-specific values from 3e-5 to 2e-3).
    pub fn default_tolerance(backend: BackendKind) -> f64 {
        match backend {
            BackendKind::Gpu => 1e-4,
            BackendKind::Cpu | BackendKind::Hybrid | BackendKind::Auto => 1e-8,
        }
    }

    /// The step factor a backend is run with unless the user says otherwise:
    /// `PAPERS_STEP_FACTOR` for gpu and hybrid (the papers' method), `CPU_STEP_FACTOR` for
    /// cpu (and auto: the backend it chooses then runs with its own).
    pub fn default_step_factor(backend: BackendKind) -> f64 {
        match backend {
            BackendKind::Cpu | BackendKind::Auto => CPU_STEP_FACTOR,
            BackendKind::Gpu | BackendKind::Hybrid => PAPERS_STEP_FACTOR,
        }
    }

    /// The long step a backend tries unless the user says otherwise: none for gpu and hybrid
    /// (the papers' fixed fraction), `CPU_LONG_STEP_FACTOR` for cpu (and auto, as above).
    pub fn default_long_step_factor(backend: BackendKind) -> Option<f64> {
        match backend {
            BackendKind::Cpu | BackendKind::Auto => Some(CPU_LONG_STEP_FACTOR),
            BackendKind::Gpu | BackendKind::Hybrid => None,
        }
    }

    /// The backend.
    pub fn backend(&self) -> BackendKind {
        self.backend.kind()
    }
    /// The backend with its options.
    pub fn backend_options(&self) -> &Backend {
        &self.backend
    }
    /// ε of the termination tests (6.1)–(6.3) (or (3.15)) and of the independent check.
    pub fn tolerance(&self) -> f64 {
        self.tolerance.unwrap_or(Self::default_tolerance(self.backend()))
    }
    /// The termination test of the loop (the independent verification is the same either way).
    pub fn stopping(&self) -> StoppingRule {
        self.stopping
    }
    /// Iteration limit; reaching it gives [`crate::lp::Status::IterationLimit`].
    pub fn max_iterations(&self) -> usize {
        self.max_iterations
    }
    /// Fraction of the maximal step taken, keeping the iterates strictly interior.
    pub fn step_factor(&self) -> f64 {
        self.step_factor.unwrap_or(Self::default_step_factor(self.backend()))
    }
    /// A longer fraction tried first: taken when every complementarity product after it stays
    /// at least `lp::mpc::LONG_STEP_CENTRALITY`·μ (the new μ), the step factor
    /// otherwise. `None` (and any value not above the step factor) always takes the step factor.
    pub fn long_step_factor(&self) -> Option<f64> {
        self.long_step_factor.unwrap_or(Self::default_long_step_factor(self.backend()))
    }
    /// ε_inf of the infeasibility certificates (see `mpc::certificates`): a ray whose residual
    /// is below ε_inf times its objective improvement proves infeasibility.
    pub fn infeasibility_tolerance(&self) -> f64 {
        self.infeasibility_tolerance
    }
    /// Whether the model is solved in its own units ([`crate::lp::Units`]: Ruiz equilibration
    /// of rows and columns by powers of two, slacks following their rows). The cost's power of
    /// two is applied either way, and the independent check always measures in the units.
    pub fn scaling(&self) -> bool {
        self.scaling
    }
    /// Wall-clock limit of the whole solve (standard form included); reaching it gives
    /// [`crate::lp::Status::TimeLimit`] with the best iterate so far.
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }
    /// The flag another thread raises (the CLI's Ctrl-C handler) to stop the solve at the next
    /// iteration with [`crate::lp::Status::Interrupted`] and the best iterate so far.
    pub fn interrupt(&self) -> Option<&Arc<AtomicBool>> {
        self.interrupt.as_ref()
    }
    /// The cpu backend's options (`cpu`, `auto`).
    pub fn cpu(&self) -> Option<&CpuOptions> {
        self.backend.cpu()
    }
    /// The GPU side's options (`gpu`, `hybrid`, `auto`).
    pub fn gpu(&self) -> Option<&GpuOptions> {
        self.backend.gpu()
    }
    /// The hybrid backend's switching rules (`hybrid`, `auto`).
    pub fn hybrid_rules(&self) -> Option<&HybridRules> {
        self.backend.rules()
    }
    /// The CPU paths of the double-precision backends; the defaults for `gpu`, whose vectors
    /// live on the GPU (its CPU work is the standard form and the check, which have no paths).
    pub fn cpu_paths(&self) -> CpuPaths {
        self.backend.paths().copied().unwrap_or_default()
    }
    /// Whether the `gpu` backend refines its single-precision directions (`None` for the
    /// others, which always refine).
    pub fn gpu_refinement(&self) -> Option<bool> {
        self.backend.refinement()
    }
    /// The OpenGL a context made for these settings speaks (`Auto` for the cpu backend, which
    /// makes none).
    pub fn gl(&self) -> GlApi {
        self.gpu().map_or(GlApi::Auto, |g| g.gl)
    }

    /// These settings' values, as they are in effect, on the cpu backend (with its options where
    /// these settings have them) and with `time_limit`: the feasibility solve after a ray.
    pub(crate) fn on_cpu(&self, time_limit: Option<Duration>) -> Settings {
        Settings {
            backend: Backend::Cpu { cpu: self.cpu().copied().unwrap_or_default(), paths: self.cpu_paths() },
            tolerance: Some(self.tolerance()),
            step_factor: Some(self.step_factor()),
            long_step_factor: Some(self.long_step_factor()),
            time_limit,
            ..self.clone()
        }
    }

    /// `auto`'s settings once it has chosen `backend` (cpu or hybrid): that backend with
    /// `auto`'s options for it; values left unset become the chosen backend's defaults.
    /// Any other settings (or another choice) come back as they are.
    pub fn resolved(&self, backend: BackendKind) -> Settings {
        let chosen = match (&self.backend, backend) {
            (Backend::Auto { cpu, paths, .. }, BackendKind::Cpu) => Backend::Cpu { cpu: *cpu, paths: *paths },
            (Backend::Auto { gpu, rules, paths, .. }, BackendKind::Hybrid) => {
                Backend::Hybrid { gpu: *gpu, rules: *rules, paths: *paths }
            }
            (other, _) => other.clone(),
        };
        Settings { backend: chosen, ..self.clone() }
    }
}
