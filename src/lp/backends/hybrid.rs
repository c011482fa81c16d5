//! The `hybrid` backend: the 2008 IPM paper's Algorithm 2. Vectors, residuals and step lengths
//! stay in double precision on the CPU; the normal equations A·D²·Aᵀ·Δλ = r are assembled and
//! factored on the GPU in single precision (packed format by default) while that is trustworthy,
//! and in double precision on the CPU from the first time any switching rule fires:
//!
//! - (3.16) a GPU solution's relative residual ‖r − A·D²·Aᵀ·Δλ‖₂/‖r‖₂ ≥ θ_r (checked in double
//!   precision on every GPU solve; the offending solve is redone on the CPU);
//! - (3.17) more than n − m entries of D² are below ε_d (fewer than m active dual constraints);
//! - (3.18) among the entries of D² above μ·θ_d, max/min > θ_a (diverging primal variables);
//! - any GL failure or factorization breakdown on the GPU (a fault is never fatal here).
//!
//! Once on the CPU it stays there (the paper's `useGPU` is never set back).

use super::cpu::CpuBackend;
use crate::gl::{Gpu, PingPong};
use crate::gpu::assemble::{assemble_into, c_textures, Operands};
use crate::gpu::cholesky::{factor_normal_equations, read_lower, Factor};
use crate::gpu::substitute;
use crate::gpu::Vector;
use crate::layout::Format;
use crate::lp::backend::{BackendError, FactorInfo, NormalEquationsBackend};
use crate::lp::settings::{HybridRules, Substitution};
use faer::MatRef;

/// Why the hybrid backend left the GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    /// The iteration (as given to `begin_iteration`) at which it happened.
    pub iteration: usize,
    pub reason: String,
}

/// Double-precision iterate, single-precision GPU normal equations until a rule fires.
pub struct HybridBackend<'g> {
    /// A fault injected by tests (see [`crate::lp::backend::FaultInjection`]).
    fault: Option<crate::lp::backend::FaultInjection>,
    cpu: CpuBackend,
    gpu: &'g Gpu,
    m: usize,
    n: usize,
    ops: Operands,
    format: Format,
    substitution: Substitution,
    pivot_tolerance: f32,
    rules: HybridRules,
    c: Option<PingPong>,
    factor: Option<(Factor, Option<Vec<f64>>)>,
    /// The paper's `useGPU`.
    use_gpu: bool,
    /// The current factorization is the GPU's.
    on_gpu: bool,
    d2: Vec<f64>,
    mu: f64,
    iteration: usize,
    started: bool,
    gpu_factorizations: usize,
    switch: Option<Switch>,
}

impl<'g> HybridBackend<'g> {
    pub fn new(
        gpu: &'g Gpu,
        a: MatRef<'_, f64>,
        free_pairs: &[(usize, usize)],
        format: Format,
        substitution: Substitution,
        pivot_tolerance: f64,
        rules: HybridRules,
    ) -> Result<Self, BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        let ops = super::gpu::upload_a(gpu, a)?;
        let c = Some(c_textures(gpu, m, format)?);
        Ok(Self {
            fault: None,
            cpu: CpuBackend::new(a, free_pairs),
            gpu,
            m,
            n,
            ops,
            format,
            substitution,
            pivot_tolerance: pivot_tolerance as f32,
            rules,
            c,
            factor: None,
            use_gpu: true,
            on_gpu: false,
            d2: Vec::new(),
            mu: f64::NAN,
            iteration: 0,
            started: false,
            gpu_factorizations: 0,
            switch: None,
        })
    }

    /// The switch to the CPU, if it happened.
    pub fn switch(&self) -> Option<&Switch> {
        self.switch.as_ref()
    }

    fn leave_gpu(&mut self, reason: String) {
        if self.use_gpu {
            self.use_gpu = false;
            self.switch = Some(Switch { iteration: self.iteration, reason });
        }
        self.on_gpu = false;
    }

    /// (3.17) and (3.18) on the new D².
    fn rules_fire(&self, d2: &[f64]) -> Option<String> {
        let r = &self.rules;
        let small = d2.iter().filter(|&&v| v < r.eps_d).count();
        if small > self.n - self.m.min(self.n) {
            return Some(format!(
                "(3.17): {small} entries of D² below ε_d = {:e} > n − m = {}",
                r.eps_d,
                self.n - self.m
            ));
        }
        if self.mu.is_finite() {
            let big = d2.iter().copied().filter(|&v| v > self.mu * r.theta_d);
            let (lo, hi) = big.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
            if hi > 0.0 && hi / lo > r.theta_a {
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

    /// Makes the GPU side fail on purpose (tests of the fault paths).
    pub fn inject(&mut self, fault: Option<crate::lp::backend::FaultInjection>) {
        self.fault = fault;
    }

    fn gpu_assemble(&mut self) -> Result<(), crate::gpu::GpuError> {
        let mut d2: Vec<f32> = self.d2.iter().map(|&v| v as f32).collect();
        if self.fault == Some(crate::lp::backend::FaultInjection::NanInTexture) {
            if let Some(d) = d2.first_mut() {
                *d = f32::NAN;
            }
        }
        self.ops.set_d2(self.gpu, &d2)?;
        let mut c = match self.c.take() {
            Some(c) => c,
            None => match self.factor.take() {
                Some((f, _)) => PingPong::new(f.texture, f.spare),
                None => c_textures(self.gpu, self.m, self.format)?,
            },
        };
        let r = assemble_into(self.gpu, &self.ops, &mut c, self.format);
        self.c = Some(c);
        r
    }

    fn gpu_factor(&mut self) -> Result<usize, crate::gpu::GpuError> {
        let c = match self.c.take() {
            Some(c) => c,
            None => return Err(crate::gpu::GpuError::Shape("factor before assemble".into())),
        };
        let (f, replaced) = factor_normal_equations(self.gpu, c, self.m, self.format, self.pivot_tolerance)?;
        // A lost context shows up in glGetError as GL_CONTEXT_LOST (`Gpu::check`).
        self.gpu.check("the factorization of A·D²·Aᵀ")?;
        if self.fault == Some(crate::lp::backend::FaultInjection::ContextLost) {
            return Err(crate::gl::GlError::ContextLost { detail: "injected after a factorization".into() }.into());
        }
        let lower = match self.substitution {
            Substitution::Cpu => Some(read_lower(self.gpu, &f)?.into_iter().map(f64::from).collect()),
            Substitution::Gpu => None,
        };
        self.factor = Some((f, lower));
        Ok(replaced)
    }

    fn gpu_solve(&mut self, r: &[f64]) -> Result<Vec<f64>, crate::gpu::GpuError> {
        let Some((f, lower)) = &self.factor else {
            return Err(crate::gpu::GpuError::Shape("solve before factor".into()));
        };
        let u: Vec<f64> = match lower {
            Some(l) => crate::cpu::dense::cholesky_solve(l, self.m, r),
            None => {
                let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
                let rv = Vector::from_slice(self.gpu, &r32, "the normal equations' right-hand side")?;
                substitute::solve(self.gpu, f, &rv)?.read(self.gpu)?.into_iter().map(f64::from).collect()
            }
        };
        if let Some((i, v)) = u.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(crate::gpu::GpuError::NonFinite {
                what: "the GPU's solution of the normal equations".into(),
                row: i,
                col: 0,
                value: *v,
            });
        }
        Ok(u)
    }

    /// ‖r − A·D²·Aᵀ·u‖₂ / ‖r‖₂ in double precision (A·(D²⊙(Aᵀu)), O(mn)).
    fn relative_residual(&mut self, r: &[f64], u: &[f64]) -> Result<f64, BackendError> {
        let atu = self.cpu.at_mul(1.0, &u.to_vec(), None)?;
        let scaled: Vec<f64> = atu.iter().zip(&self.d2).map(|(a, d)| a * d).collect();
        let cu = self.cpu.a_mul(1.0, &scaled, None)?;
        let num: f64 = r.iter().zip(&cu).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
        let den: f64 = r.iter().map(|a| a * a).sum::<f64>().sqrt();
        Ok(if den > 0.0 { num / den } else { num })
    }

    fn cpu_refactor(&mut self) -> Result<FactorInfo, BackendError> {
        let d2 = self.d2.clone();
        self.cpu.assemble(&d2)?;
        self.cpu.factor()
    }
}

impl NormalEquationsBackend for HybridBackend<'_> {
    type Vector = Vec<f64>;

    fn name(&self) -> &str {
        if self.on_gpu {
            "hybrid/gpu"
        } else {
            "hybrid/cpu"
        }
    }
    fn dims(&self) -> (usize, usize) {
        (self.m, self.n)
    }
    fn upload(&mut self, v: &[f64]) -> Result<Vec<f64>, BackendError> {
        self.cpu.upload(v)
    }
    fn download(&mut self, v: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.cpu.download(v)
    }
    fn fill(&mut self, len: usize, value: f64) -> Result<Vec<f64>, BackendError> {
        self.cpu.fill(len, value)
    }
    fn lincomb(&mut self, alpha: f64, x: &Vec<f64>, beta: f64, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.cpu.lincomb(alpha, x, beta, y)
    }
    fn add_scalar(&mut self, x: &Vec<f64>, alpha: f64) -> Result<Vec<f64>, BackendError> {
        self.cpu.add_scalar(x, alpha)
    }
    fn mul(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.cpu.mul(x, y)
    }
    fn div(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.cpu.div(x, y)
    }
    fn dot(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<f64, BackendError> {
        self.cpu.dot(x, y)
    }
    fn sum(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        self.cpu.sum(x)
    }
    fn norm_inf(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        self.cpu.norm_inf(x)
    }
    fn min(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        self.cpu.min(x)
    }
    fn max(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        self.cpu.max(x)
    }
    fn max_step(&mut self, x: &Vec<f64>, dx: &Vec<f64>) -> Result<f64, BackendError> {
        self.cpu.max_step(x, dx)
    }
    fn recenter_free_pairs(&mut self, x: &Vec<f64>, cap: f64) -> Result<Vec<f64>, BackendError> {
        self.cpu.recenter_free_pairs(x, cap)
    }
    fn a_mul(&mut self, alpha: f64, x: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        self.cpu.a_mul(alpha, x, add)
    }
    fn at_mul(&mut self, alpha: f64, y: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        self.cpu.at_mul(alpha, y, add)
    }

    fn assemble(&mut self, d2: &Vec<f64>) -> Result<(), BackendError> {
        if d2.len() != self.n {
            return Err(BackendError::Dimension { op: "assemble", expected: self.n, got: d2.len() });
        }
        self.d2.clone_from(d2);
        if self.use_gpu {
            if let Some(why) = self.rules_fire(d2) {
                self.leave_gpu(why);
            }
        }
        if self.use_gpu {
            match self.gpu_assemble() {
                Ok(()) => {
                    self.on_gpu = true;
                    return Ok(());
                }
                Err(e) => self.leave_gpu(format!("GPU assembly failed: {e}")),
            }
        }
        self.on_gpu = false;
        self.cpu.assemble(d2)
    }

    fn factor(&mut self) -> Result<FactorInfo, BackendError> {
        if self.on_gpu {
            match self.gpu_factor() {
                Ok(replaced) => {
                    if self.started {
                        self.gpu_factorizations += 1;
                    }
                    return Ok(FactorInfo { replaced_pivots: replaced });
                }
                Err(e) => {
                    self.leave_gpu(format!("GPU factorization failed: {e}"));
                    return self.cpu_refactor();
                }
            }
        }
        self.cpu.factor()
    }

    fn solve(&mut self, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        if self.on_gpu {
            match self.gpu_solve(r) {
                Ok(u) => {
                    let rel = self.relative_residual(r, &u)?;
                    if rel.is_finite() && rel < self.rules.theta_r {
                        return Ok(u);
                    }
                    self.leave_gpu(format!("(3.16): relative residual {rel:.2e} ≥ θ_r = {:e}", self.rules.theta_r));
                }
                Err(e) => self.leave_gpu(format!("GPU solve failed: {e}")),
            }
            // Redo this iteration's factorization in double precision (the GPU's still counts as a
            // GPU iteration, as in the paper, where the switch takes effect at the next one).
            self.cpu_refactor()?;
        }
        self.cpu.solve(r)
    }

    fn begin_iteration(&mut self, k: usize, mu: f64) {
        self.iteration = k;
        self.mu = mu;
        self.started = true;
    }

    fn gpu_factorizations(&self) -> Option<usize> {
        Some(self.gpu_factorizations)
    }
}
