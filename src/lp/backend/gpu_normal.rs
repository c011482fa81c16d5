//! The normal equations on the GPU in single precision, shared by the `gpu` backend (right-hand
//! sides and solutions in textures) and the `hybrid` policy (host vectors in double precision,
//! converted at the boundary). A (standard form, dense) goes up once; A·D²·Aᵀ is assembled and
//! factored on the GPU in the packed (default) or full format; the triangular solves run on the
//! GPU or, after reading the factor back, on the CPU (the 2008 IPM paper's Table 4.1 columns).

use super::{BackendError, FactorInfo, FaultInjection, GpuFault, GpuVectors, NormalEquations};
use crate::gl::{GlError, Gpu, PingPong, Texture};
use crate::gpu::assemble::{assemble_into, c_textures, Operands};
use crate::gpu::cholesky::{factor_normal_equations, read_lower, Factor};
use crate::gpu::{substitute, GpuError, PooledVector, Vector};
use crate::layout::Format;
use crate::lp::settings::Substitution;
use faer::MatRef;
use std::rc::Rc;

impl From<GpuError> for BackendError {
    fn from(e: GpuError) -> Self {
        match e {
            GpuError::NotPositiveDefinite { column, pivot } => {
                BackendError::Factorization { column, pivot: pivot as f64 }
            }
            GpuError::Gl(g) => g.into(),
            other => BackendError::Device(other.to_string()),
        }
    }
}

impl From<GlError> for BackendError {
    fn from(g: GlError) -> Self {
        BackendError::Gpu { kind: GpuFault::of(&g), detail: g.to_string() }
    }
}

/// How the GPU normal equations are stored, factored and solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuNormalOptions {
    /// Storage of A·D²·Aᵀ (the 2008 papers pack it).
    pub format: Format,
    /// Where the triangular solves run.
    pub substitution: Substitution,
    /// A pivot at or below this fraction of its original diagonal entry is rounding noise in
    /// single precision and is replaced by a huge one (the row drops out).
    pub pivot_tolerance: f64,
    /// Tests only: a fault to inject (see [`FaultInjection`]).
    pub fault: Option<FaultInjection>,
}

/// The factor and, with CPU substitution, its read-back copy.
enum Factored {
    None,
    Gpu(Factor),
    Host { factor: Factor, lower: Vec<f64> },
}

/// Single-precision normal equations on a GL context borrowed for their lifetime.
pub struct GpuNormal<'g> {
    gpu: &'g Gpu,
    m: usize,
    n: usize,
    ops: Operands,
    opts: GpuNormalOptions,
    /// The ping-pong pair for A·D²·Aᵀ, taken by the factorization and given back afterwards.
    c: Option<PingPong>,
    factored: Factored,
    factorizations: usize,
}

impl<'g> GpuNormal<'g> {
    /// Uploads A (m×n, f64 → f32) once; refuses non-finite entries and sizes past the driver's
    /// texture limit with typed errors.
    pub fn new(gpu: &'g Gpu, a: MatRef<'_, f64>, opts: GpuNormalOptions) -> Result<Self, BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        let data: Vec<f32> = (0..m).flat_map(|i| (0..n).map(move |k| a[(i, k)] as f32)).collect();
        let ops = Operands::new(gpu, &data, m, n)?;
        let c = c_textures(gpu, m, opts.format)?;
        Ok(Self { gpu, m, n, ops, opts, c: Some(c), factored: Factored::None, factorizations: 0 })
    }

    /// A on the GPU (n×m texture, A(i, k) at texel (k, i)), shared with the vector kernels.
    pub fn a_texture(&self) -> Rc<Texture> {
        Rc::clone(&self.ops.a)
    }

    /// (m, n).
    pub fn dims(&self) -> (usize, usize) {
        (self.m, self.n)
    }

    /// Factorizations done so far.
    pub fn factorizations(&self) -> usize {
        self.factorizations
    }

    /// Sets D² from a GPU vector (a copy pass; nothing leaves the GPU).
    pub fn set_d2_texture(&mut self, d2: &Vector) -> Result<(), BackendError> {
        if d2.len() != self.n {
            return Err(BackendError::Dimension { op: "assemble", expected: self.n, got: d2.len() });
        }
        Ok(self.ops.copy_d2(self.gpu, d2)?)
    }

    /// Sets D² from host values (n floats uploaded).
    pub fn set_d2_host(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        if d2.len() != self.n {
            return Err(BackendError::Dimension { op: "assemble", expected: self.n, got: d2.len() });
        }
        let mut d: Vec<f32> = d2.iter().map(|&v| v as f32).collect();
        if self.opts.fault == Some(FaultInjection::NanInTexture) {
            if let Some(v) = d.first_mut() {
                *v = f32::NAN;
            }
        }
        Ok(self.ops.set_d2(self.gpu, &d)?)
    }

    /// The C textures back from a previous factor (or the ones never used).
    fn take_c(&mut self) -> Result<PingPong, BackendError> {
        if let Some(c) = self.c.take() {
            return Ok(c);
        }
        match std::mem::replace(&mut self.factored, Factored::None) {
            Factored::Gpu(f) | Factored::Host { factor: f, .. } => Ok(PingPong::new(f.texture, f.spare)),
            Factored::None => Ok(c_textures(self.gpu, self.m, self.opts.format)?),
        }
    }

    /// Forms A·D²·Aᵀ from the D² set last.
    pub fn assemble(&mut self) -> Result<(), BackendError> {
        let mut c = self.take_c()?;
        let r = assemble_into(self.gpu, &self.ops, &mut c, self.opts.format);
        self.c = Some(c);
        Ok(r?)
    }

    /// Factors the assembled matrix with the tiny-pivot treatment; with CPU substitution the
    /// factor is read back once.
    pub fn factor(&mut self) -> Result<FactorInfo, BackendError> {
        let c = self.c.take().ok_or(BackendError::NotFactored)?;
        let tol = self.opts.pivot_tolerance as f32;
        let (factor, replaced) =
            factor_normal_equations(self.gpu, c, self.m, self.opts.format, crate::gpu::cholesky::Variant::PAPER, tol)?;
        // Once per factorization: a GL error or a GPU reset (robust contexts) since the last check.
        self.gpu.check("the factorization of A·D²·Aᵀ")?;
        if self.opts.fault == Some(FaultInjection::ContextLost) {
            return Err(GlError::ContextLost { detail: "injected after a factorization".into() }.into());
        }
        self.factored = match self.opts.substitution {
            Substitution::Gpu => Factored::Gpu(factor),
            Substitution::Cpu => {
                let lower = read_lower(self.gpu, &factor)?.into_iter().map(f64::from).collect();
                Factored::Host { factor, lower }
            }
        };
        self.factorizations += 1;
        Ok(FactorInfo { replaced_pivots: replaced })
    }

    /// Solves A·D²·Aᵀ·u = r for a GPU vector r.
    pub fn solve_texture(&mut self, r: &Vector) -> Result<Vector, BackendError> {
        if r.len() != self.m {
            return Err(BackendError::Dimension { op: "solve", expected: self.m, got: r.len() });
        }
        match &self.factored {
            Factored::None => Err(BackendError::NotFactored),
            Factored::Gpu(f) => Ok(substitute::solve(self.gpu, f, r)?),
            Factored::Host { lower, .. } => {
                let rhs: Vec<f64> = r.read(self.gpu)?.into_iter().map(f64::from).collect();
                let x: Vec<f32> =
                    crate::cpu::dense::cholesky_solve(lower, self.m, &rhs).into_iter().map(|v| v as f32).collect();
                Ok(Vector::from_slice(self.gpu, &x, "the normal equations' solution")?)
            }
        }
    }

    /// Solves A·D²·Aᵀ·u = r for host values; a non-finite entry of u is a [`GpuFault::NonFinite`].
    pub fn solve_host(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        if r.len() != self.m {
            return Err(BackendError::Dimension { op: "solve", expected: self.m, got: r.len() });
        }
        let u: Vec<f64> = match &self.factored {
            Factored::None => return Err(BackendError::NotFactored),
            Factored::Host { lower, .. } => crate::cpu::dense::cholesky_solve(lower, self.m, r),
            Factored::Gpu(f) => {
                let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
                let rv = Vector::from_slice(self.gpu, &r32, "the normal equations' right-hand side")?;
                substitute::solve(self.gpu, f, &rv)?.read(self.gpu)?.into_iter().map(f64::from).collect()
            }
        };
        if let Some((i, v)) = u.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(BackendError::Gpu {
                kind: GpuFault::NonFinite,
                detail: format!("the GPU's solution of the normal equations holds {v} at row {i}"),
            });
        }
        Ok(u)
    }
}

/// The `gpu` backend's normal equations: right-hand sides and solutions stay in textures.
pub struct GpuSide<'g> {
    pub normal: GpuNormal<'g>,
    /// Factorizations counted from the first iteration on (the starting point's is not one).
    counted: Option<usize>,
}

impl<'g> GpuSide<'g> {
    pub fn new(normal: GpuNormal<'g>) -> Self {
        Self { normal, counted: None }
    }
}

impl<'g> NormalEquations<GpuVectors<'g>> for GpuSide<'g> {
    fn name(&self) -> &str {
        "gpu"
    }
    fn assemble(&mut self, _vk: &mut GpuVectors<'g>, d2: &PooledVector) -> Result<(), BackendError> {
        self.normal.set_d2_texture(d2)?;
        self.normal.assemble()
    }
    fn factor(&mut self, _vk: &mut GpuVectors<'g>) -> Result<FactorInfo, BackendError> {
        self.normal.factor()
    }
    fn solve(&mut self, vk: &mut GpuVectors<'g>, r: &PooledVector) -> Result<PooledVector, BackendError> {
        let u = self.normal.solve_texture(r)?;
        Ok(vk.pool().adopt(u))
    }
    fn begin_iteration(&mut self, _k: usize, _mu: f64) {
        self.counted.get_or_insert(self.normal.factorizations());
    }
    fn gpu_factorizations(&self) -> Option<usize> {
        Some(self.counted.map_or(0, |c| self.normal.factorizations() - c))
    }
}
