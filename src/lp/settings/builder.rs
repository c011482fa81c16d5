//! [`SettingsBuilder`]: the one way to settings other than a backend's defaults; `build`
//! checks every value and refuses options the backend would not read.

use super::error::{SettingsError, GPU_MIN_TOLERANCE};
use super::kinds::{BackendKind, StoppingRule};
use super::options::{Backend, CpuOptions, GpuOptions};
use super::values::Settings;
use crate::cpu::paths::CpuPaths;
use crate::gpu::cholesky::Variant;
use crate::lp::hybrid_rules::HybridRules;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Builds [`Settings`] for one backend. Every setter takes a value as it is; [`build`] checks
/// them all and says which one is wrong. Options a backend does not read (GPU options for the
/// cpu backend, switching rules for gpu, …) are refused, not ignored.
///
/// ```
/// use glsolve::lp::{BackendKind, GpuOptions, Settings, SettingsError, Substitution};
/// let st = Settings::builder(BackendKind::Gpu)
///     .gpu(GpuOptions { substitution: Substitution::Cpu, ..GpuOptions::default() })
///     .max_iterations(50)
///     .build()?;
/// assert_eq!(st.tolerance(), 1e-4);               // the gpu backend's own ε, not the cpu's
/// assert_eq!(st.gpu().map(|g| g.substitution), Some(Substitution::Cpu));
/// // The cpu backend has no GPU side, and single precision cannot reach 1e-8:
/// let e = Settings::builder(BackendKind::Cpu).gpu(GpuOptions::default()).build().unwrap_err();
/// assert!(matches!(e, SettingsError::NotApplicable { .. }));
/// let e = Settings::builder(BackendKind::Gpu).tolerance(1e-8).build().unwrap_err();
/// assert_eq!(e, SettingsError::GpuTolerance(1e-8));
/// # Ok::<(), SettingsError>(())
/// ```
///
/// [`build`]: SettingsBuilder::build
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until `build`"]
pub struct SettingsBuilder {
    base: Settings,
    cpu: Option<CpuOptions>,
    paths: Option<CpuPaths>,
    gpu: Option<GpuOptions>,
    rules: Option<HybridRules>,
    refinement: Option<bool>,
    /// Seconds as given, checked by `build` (a `Duration` cannot hold NaN or a negative value).
    seconds: Option<f64>,
}

impl Settings {
    /// A builder starting from `backend`'s defaults.
    pub fn builder(backend: BackendKind) -> SettingsBuilder {
        Settings::for_backend(backend).to_builder()
    }

    /// A builder starting from these settings (same backend, same values).
    pub fn to_builder(&self) -> SettingsBuilder {
        SettingsBuilder {
            base: self.clone(),
            cpu: None,
            paths: None,
            gpu: None,
            rules: None,
            refinement: None,
            seconds: None,
        }
    }
}

impl SettingsBuilder {
    /// ε of the termination tests, in (0, 1); at least `GPU_MIN_TOLERANCE` on the gpu backend.
    pub fn tolerance(mut self, eps: f64) -> Self {
        self.base.tolerance = Some(eps);
        self
    }
    /// The loop's termination test.
    pub fn stopping(mut self, rule: StoppingRule) -> Self {
        self.base.stopping = rule;
        self
    }
    /// Iteration limit, at least 1.
    pub fn max_iterations(mut self, k: usize) -> Self {
        self.base.max_iterations = k;
        self
    }
    /// Fraction of the maximal step, in (0, 1).
    pub fn step_factor(mut self, f: f64) -> Self {
        self.base.step_factor = Some(f);
        self
    }
    /// The long step tried first (`None`: never), in (0, 1).
    pub fn long_step_factor(mut self, f: Option<f64>) -> Self {
        self.base.long_step_factor = Some(f);
        self
    }
    /// ε_inf of the infeasibility certificates, in (0, 1).
    pub fn infeasibility_tolerance(mut self, eps: f64) -> Self {
        self.base.infeasibility_tolerance = eps;
        self
    }
    /// Whether to solve in the model's units (see [`Settings::scaling`]).
    pub fn scaling(mut self, on: bool) -> Self {
        self.base.scaling = on;
        self
    }
    /// Wall-clock limit of the whole solve, > 0.
    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.base.time_limit = Some(limit);
        self.seconds = None;
        self
    }
    /// Wall-clock limit of the whole solve in seconds, > 0 and finite (what the command line
    /// and the bindings are given).
    pub fn time_limit_seconds(mut self, seconds: f64) -> Self {
        self.seconds = Some(seconds);
        self
    }
    /// A flag another thread raises to stop the solve at its next iteration.
    pub fn interrupt(mut self, flag: Arc<AtomicBool>) -> Self {
        self.base.interrupt = Some(flag);
        self
    }
    /// The cpu backend's options (cpu and auto only).
    pub fn cpu(mut self, options: CpuOptions) -> Self {
        self.cpu = Some(options);
        self
    }
    /// The CPU paths (every backend but gpu).
    pub fn cpu_paths(mut self, paths: CpuPaths) -> Self {
        self.paths = Some(paths);
        self
    }
    /// The GPU side's options (gpu, hybrid and auto).
    pub fn gpu(mut self, options: GpuOptions) -> Self {
        self.gpu = Some(options);
        self
    }
    /// The hybrid backend's switching rules (hybrid and auto).
    pub fn hybrid_rules(mut self, rules: HybridRules) -> Self {
        self.rules = Some(rules);
        self
    }
    /// Whether the gpu backend refines its directions (gpu only).
    pub fn gpu_refinement(mut self, on: bool) -> Self {
        self.refinement = Some(on);
        self
    }

    /// The settings, once every value has been checked.
    pub fn build(self) -> Result<Settings, SettingsError> {
        let mut st = self.base;
        if let Some(s) = self.seconds {
            let limit = Duration::try_from_secs_f64(s).ok().filter(|d| !d.is_zero());
            st.time_limit = Some(limit.ok_or(SettingsError::TimeLimit(s))?);
        }
        let kind = st.backend();
        let na = |option, applies| Err(SettingsError::not_applicable(option, kind, applies));
        match &mut st.backend {
            Backend::Cpu { cpu, paths } => {
                if self.gpu.is_some() {
                    return na("GPU options", "gpu, hybrid and auto");
                }
                set(cpu, self.cpu);
                set(paths, self.paths);
            }
            Backend::Gpu { gpu, refinement } => {
                if self.cpu.is_some() || self.paths.is_some() {
                    return na("CPU options and paths", "cpu, hybrid and auto");
                }
                set(gpu, self.gpu);
                set(refinement, self.refinement);
            }
            Backend::Hybrid { gpu, rules, paths } => {
                if self.cpu.is_some() {
                    return na("the cpu backend's options", "cpu and auto");
                }
                set(gpu, self.gpu);
                set(rules, self.rules);
                set(paths, self.paths);
            }
            Backend::Auto { cpu, gpu, rules, paths } => {
                set(cpu, self.cpu);
                set(gpu, self.gpu);
                set(rules, self.rules);
                set(paths, self.paths);
            }
        }
        if self.rules.is_some() && st.hybrid_rules().is_none() {
            return na("switching rules", "hybrid and auto");
        }
        if self.refinement.is_some() && kind != BackendKind::Gpu {
            return na("direction refinement", "gpu");
        }
        check(&st)?;
        Ok(st)
    }
}

fn set<T>(slot: &mut T, given: Option<T>) {
    if let Some(v) = given {
        *slot = v;
    }
}

/// Every value of `st` in its range.
fn check(st: &Settings) -> Result<(), SettingsError> {
    let open_unit = |v: f64| v > 0.0 && v < 1.0;
    let eps = st.tolerance();
    if !open_unit(eps) {
        return Err(SettingsError::Tolerance(eps));
    }
    if st.backend() == BackendKind::Gpu && eps < GPU_MIN_TOLERANCE {
        return Err(SettingsError::GpuTolerance(eps));
    }
    if !open_unit(st.step_factor()) {
        return Err(SettingsError::StepFactor(st.step_factor()));
    }
    if let Some(v) = st.long_step_factor().filter(|&v| !open_unit(v)) {
        return Err(SettingsError::LongStepFactor(v));
    }
    if !open_unit(st.infeasibility_tolerance) {
        return Err(SettingsError::InfeasibilityTolerance(st.infeasibility_tolerance));
    }
    if st.max_iterations == 0 {
        return Err(SettingsError::MaxIterations);
    }
    if st.time_limit.is_some_and(|t| t.is_zero()) {
        return Err(SettingsError::TimeLimit(0.0));
    }
    if let Some(g) = st.gpu() {
        if !open_unit(g.pivot_tolerance) {
            return Err(SettingsError::PivotTolerance(g.pivot_tolerance));
        }
        if g.assembly_columns == 0 {
            return Err(SettingsError::AssemblyColumns);
        }
        if g.normal_format.is_some() && g.variant != Variant::PAPER {
            return Err(SettingsError::NormalFormat { variant: g.variant.name() });
        }
    }
    if let Some(h) = st.hybrid_rules() {
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
    }
    st.cpu_paths().validate()?;
    Ok(())
}
