//! The `hybrid` policy: the 2008 IPM paper's Algorithm 2. Vectors, residuals and step lengths
//! stay in double precision on the CPU ([`CpuVectors`]); the normal equations
//! A·D²·Aᵀ·Δλ = r are assembled, factored and solved by [`GpuNormal`] in single precision while
//! that is trustworthy, and by [`CpuNormal`] in double precision from the first time any
//! switching rule fires:
//!
//! - (3.16) a GPU solution's relative residual ‖r − A·D²·Aᵀ·Δλ‖₂/‖r‖₂ ≥ θ_r (checked in double
//!   precision on every GPU solve; the offending solve is redone on the CPU);
//! - (3.17) more than n − m entries of D² are below ε_d (fewer than m active dual constraints);
//! - (3.18) among the entries of D² above μ·θ_d, max/min > θ_a (diverging primal variables);
//! - any GL failure or factorization breakdown on the GPU (a fault is never fatal here);
//! - the cost rule (not the paper's; [`crate::lp::CostRule`], off in the papers' setups): two GPU
//!   iterations in a row took at least its floor and more than its factor times the CPU's
//!   estimated one.
//!
//! The GPU side ([`super::GpuSide`]) is A·D²·Aᵀ over every column, over the dense block plus
//! the unit columns' diagonal, or — where the CPU side is the dense-column path — that path
//! with the dense columns' k×k matrix assembled and factored on the GPU.
//!
//! Once on the CPU it stays there (the paper's `useGPU` is never set back). The CPU side is
//! the m×m matrix over every column ([`CpuSide::Full`]) or the cpu backend's shaped normal
//! equations ([`CpuSide::Shaped`]: for A with columns of one entry the dense block's product
//! plus a diagonal or the smaller side; on the dense-column path the sparse columns' factor and
//! the dense ones' Schur complement, weighed by the cost rule at that path's predicted work),
//! as [`super::CpuPlan`] chooses. The log's backend column names the CPU side's path
//! (`hybrid/cpu dense columns, …`).

use super::{
    cpu_rate, iteration_flops, BackendError, CpuNormal, CpuVectors, FactorCounts, FactorInfo, GpuSide, NormalEquations,
    VectorKernels,
};
use crate::clock::Instant;
use crate::lp::settings::{CostRule, HybridRules};
use std::time::Duration;

/// (3.17): more than n − m of the n entries of D² are below ε_d (`small` of them).
pub fn rule_3_17_fires(small: usize, m: usize, n: usize) -> bool {
    small > n.saturating_sub(m)
}

/// (3.18): the diverging entries of D² (those above μ·θ_d) spread by more than θ_a; `spread`
/// is their max/min (`None` when there are none).
pub fn rule_3_18_fires(spread: Option<f64>, theta_a: f64) -> bool {
    spread.is_some_and(|s| s > theta_a)
}

/// (3.16): a GPU solution's relative residual is at least θ_r (or not a number).
pub fn rule_3_16_fires(relative_residual: f64, theta_r: f64) -> bool {
    !(relative_residual.is_finite() && relative_residual < theta_r)
}

/// How many GPU iterations in a row the cost rule must find too slow before it switches.
pub const COST_RULE_ITERATIONS: usize = 2;

/// The cost rule on one GPU iteration of `t_gpu` seconds against the CPU's estimated `t_cpu`.
pub fn cost_rule_fires(rule: &CostRule, t_gpu: f64, t_cpu: f64) -> bool {
    t_gpu >= rule.min_seconds && t_gpu > rule.factor * t_cpu
}

/// Why the hybrid policy left the GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    /// The iteration (as given to `begin_iteration`) at which it happened.
    pub iteration: usize,
    pub reason: String,
}

/// The hybrid policy's double-precision normal equations.
pub enum CpuSide {
    /// A·D²·Aᵀ over every column of A held dense (`CpuVectors::a`).
    Full(Box<CpuNormal>),
    /// The cpu backend's normal equations for A's shape, with their own breakdown retry.
    Shaped(Box<dyn NormalEquations<CpuVectors>>),
}

impl CpuSide {
    /// The CPU side's normal equations by name (the log's backend column).
    fn name(&self) -> &str {
        match self {
            CpuSide::Full(c) => c.name(),
            CpuSide::Shaped(s) => s.name(),
        }
    }

    fn assemble(&mut self, vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        match self {
            CpuSide::Full(c) => c.assemble_from(vk.a(), d2),
            CpuSide::Shaped(s) => s.assemble(vk, d2),
        }
    }

    fn factor(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        match self {
            CpuSide::Full(c) => c.factor_assembled(),
            CpuSide::Shaped(s) => s.factor(vk),
        }
    }

    fn solve(&mut self, vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        match self {
            CpuSide::Full(c) => c.solve_host(r),
            CpuSide::Shaped(s) => s.solve(vk, r),
        }
    }
}

/// Double-precision iterate, single-precision GPU normal equations until a rule fires.
pub struct HybridNormal<'g> {
    gpu: Option<GpuSide<'g>>,
    cpu: CpuSide,
    /// Flops of one CPU iteration for the cost rule (`None`: the dense m×m work,
    /// [`iteration_flops`]).
    cpu_flops: Option<f64>,
    rules: HybridRules,
    /// The current factorization is the GPU's.
    on_gpu: bool,
    d2: Vec<f64>,
    mu: f64,
    iteration: usize,
    started: bool,
    gpu_factorizations: usize,
    switch: Option<Switch>,
    /// GPU time of the normal equations since the current iteration began.
    gpu_time: Duration,
    /// The GPU times of the iterations in a row that the cost rule found too slow.
    slow: Vec<f64>,
    dims: (usize, usize),
    /// The backend column's name while the CPU side factors: `hybrid/` and its path.
    cpu_label: String,
    /// The backend column's name while the GPU side factors.
    gpu_name: &'static str,
}

impl<'g> HybridNormal<'g> {
    /// `gpu` is `None` when the GPU side could not be set up: the policy then runs on the CPU.
    pub fn new(gpu: Option<GpuSide<'g>>, cpu: CpuSide, rules: HybridRules) -> Self {
        Self {
            gpu_name: gpu.as_ref().map_or("hybrid/gpu", GpuSide::name),
            gpu,
            cpu,
            cpu_flops: None,
            rules,
            on_gpu: false,
            d2: Vec::new(),
            mu: f64::NAN,
            iteration: 0,
            started: false,
            gpu_factorizations: 0,
            switch: None,
            gpu_time: Duration::ZERO,
            slow: Vec::new(),
            dims: (0, 0),
            cpu_label: "hybrid/cpu".into(),
        }
    }

    /// The cost rule's estimate of a CPU iteration: `flops` at the CPU's measured rate (for a
    /// shaped CPU side, whose work is not the dense m×m matrix's).
    pub fn with_cpu_flops(mut self, flops: f64) -> Self {
        self.cpu_flops = Some(flops);
        self
    }

    /// The switch to the CPU, if it happened.
    pub fn switch(&self) -> Option<&Switch> {
        self.switch.as_ref()
    }

    /// The paper's `useGPU`.
    fn use_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    fn leave_gpu(&mut self, reason: String) {
        if self.gpu.take().is_some() {
            self.switch = Some(Switch { iteration: self.iteration, reason });
        }
        self.on_gpu = false;
    }

    /// (3.17) and (3.18) on the new D².
    fn rules_fire(&self, d2: &[f64], m: usize, n: usize) -> Option<String> {
        let r = &self.rules;
        let small = d2.iter().filter(|&&v| v < r.eps_d).count();
        if rule_3_17_fires(small, m, n) {
            return Some(format!(
                "(3.17): {small} entries of D² below ε_d = {:e} > n − m = {}",
                r.eps_d,
                n.saturating_sub(m)
            ));
        }
        if self.mu.is_finite() {
            let big = d2.iter().copied().filter(|&v| v > self.mu * r.theta_d);
            let (lo, hi) = big.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
            let spread = (hi > 0.0).then(|| hi / lo);
            if rule_3_18_fires(spread, r.theta_a) {
                return Some(format!(
                    "(3.18): diverging entries of D² spread by {:.1e} > θ_a = {:e}",
                    hi / lo,
                    r.theta_a
                ));
            }
        }
        if d2.iter().any(|v| !v.is_finite()) {
            return Some("D² holds a non-finite entry".into());
        }
        None
    }

    /// ‖r − A·D²·Aᵀ·u‖₂ / ‖r‖₂ in double precision (A·(D²⊙(Aᵀu)), O(mn)).
    fn relative_residual(&self, vk: &mut CpuVectors, r: &[f64], u: &[f64]) -> Result<f64, BackendError> {
        let atu = vk.at_mul(1.0, &u.to_vec(), None)?;
        let scaled: Vec<f64> = atu.iter().zip(&self.d2).map(|(a, d)| a * d).collect();
        let cu = vk.a_mul(1.0, &scaled, None)?;
        let num: f64 = r.iter().zip(&cu).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
        let den: f64 = r.iter().map(|a| a * a).sum::<f64>().sqrt();
        Ok(if den > 0.0 { num / den } else { num })
    }

    fn cpu_refactor(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        let d2 = std::mem::take(&mut self.d2);
        let assembled = self.cpu.assemble(vk, &d2);
        self.d2 = d2;
        assembled?;
        self.cpu_factor(vk)
    }

    /// The CPU side's factorization; the log's backend column then names its path.
    fn cpu_factor(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        let info = self.cpu.factor(vk);
        self.cpu_label = format!("hybrid/{}", self.cpu.name());
        info
    }

    /// The GPU side's assembly; `Err` carries the reason to leave the GPU.
    fn gpu_assemble(&mut self) -> Result<(), String> {
        let Some(g) = self.gpu.as_mut() else { return Err("no GPU".into()) };
        g.assemble(&self.d2).map_err(|e| format!("GPU assembly failed: {e}"))
    }
}

impl NormalEquations<CpuVectors> for HybridNormal<'_> {
    fn name(&self) -> &str {
        if self.on_gpu {
            self.gpu_name
        } else {
            &self.cpu_label
        }
    }

    fn assemble(&mut self, vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        let (m, n) = vk.dims();
        if d2.len() != n {
            return Err(BackendError::Dimension { op: "assemble", expected: n, got: d2.len() });
        }
        self.d2.clone_from(d2);
        self.dims = (m, n);
        if self.use_gpu() {
            if let Some(why) = self.rules_fire(d2, m, n) {
                self.leave_gpu(why);
            }
        }
        if self.use_gpu() {
            let t = Instant::now();
            let assembled = self.gpu_assemble();
            self.gpu_time += t.elapsed();
            match assembled {
                Ok(()) => {
                    self.on_gpu = true;
                    return Ok(());
                }
                Err(why) => self.leave_gpu(why),
            }
        }
        self.on_gpu = false;
        self.cpu.assemble(vk, d2)
    }

    fn factor(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        // The policy's factors are exact or the GPU's: never preconditioners to refine inexactly.
        self.factor_on_a_side(vk).map(|i| FactorInfo { inexact: false, ..i })
    }

    fn solve(&mut self, vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        if self.on_gpu {
            let t = Instant::now();
            let result = self.gpu.as_mut().map(|g| g.solve_host(r));
            self.gpu_time += t.elapsed();
            match result {
                Some(Ok(u)) => {
                    let rel = self.relative_residual(vk, r, &u)?;
                    if !rule_3_16_fires(rel, self.rules.theta_r) {
                        return Ok(u);
                    }
                    self.leave_gpu(format!("(3.16): relative residual {rel:.2e} ≥ θ_r = {:e}", self.rules.theta_r));
                }
                Some(Err(e)) => self.leave_gpu(format!("GPU solve failed: {e}")),
                None => self.on_gpu = false,
            }
            // Redo this iteration's factorization in double precision (the GPU's still counts as a
            // GPU iteration, as in the paper, where the switch takes effect at the next one).
            self.cpu_refactor(vk)?;
        }
        self.cpu.solve(vk, r)
    }

    fn begin_iteration(&mut self, k: usize, mu: f64) {
        self.iteration = k;
        self.mu = mu;
        // The cost rule judges whole loop iterations (the time before iteration 0, the
        // starting point's and the kernels' compilation, is not one), and leaves only after
        // COST_RULE_ITERATIONS of them in a row: one slow iteration may be another process.
        let spent = std::mem::take(&mut self.gpu_time);
        if let (Some(rule), true, true) = (self.rules.cost, self.started, self.use_gpu()) {
            let (m, n) = self.dims;
            let t_cpu = self.cpu_flops.unwrap_or_else(|| iteration_flops(m, n)) / cpu_rate();
            let t_gpu = spent.as_secs_f64();
            if cost_rule_fires(&rule, t_gpu, t_cpu) {
                self.slow.push(t_gpu);
            } else {
                self.slow.clear();
            }
            if self.slow.len() >= COST_RULE_ITERATIONS {
                let times: Vec<String> = self.slow.iter().map(|t| format!("{t:.3} s")).collect();
                self.leave_gpu(format!(
                    "cost rule: {} GPU iterations in a row took {}, the CPU's is estimated at {t_cpu:.3} s (> {}×)",
                    times.len(),
                    times.join(" and "),
                    rule.factor
                ));
            }
        }
        self.started = true;
    }

    fn counts(&self) -> FactorCounts {
        FactorCounts { gpu: Some(self.gpu_factorizations), single: None }
    }
}

impl HybridNormal<'_> {
    /// Factors on the side that assembled, leaving the GPU on a failure.
    fn factor_on_a_side(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        if self.on_gpu {
            let t = Instant::now();
            let factored = self.gpu.as_mut().map(GpuSide::factor);
            self.gpu_time += t.elapsed();
            match factored {
                Some(Ok(info)) => {
                    if self.started {
                        self.gpu_factorizations += 1;
                    }
                    return Ok(info);
                }
                Some(Err(e)) => self.leave_gpu(format!("GPU factorization failed: {e}")),
                None => self.on_gpu = false,
            }
            return self.cpu_refactor(vk);
        }
        self.cpu_factor(vk)
    }
}
