//! The `gpu` backend: every kernel of the MPC loop in single precision on the GL pipeline (2006
//! paper §4.2). A (standard form, dense) goes up once as an n×m texture; vectors live in n×1 or
//! m×1 textures; D² and right-hand sides never leave the GPU; only the scalars the loop decides on
//! (dot products, norms, minima, step lengths) are read back — the papers' "minimum feedback".
//! A·D²·Aᵀ is assembled and factored in the packed (default) or full format; the triangular solves
//! run on the GPU or, after reading the factor back, on the CPU (Table 4.1's two columns).

use crate::gl::{Gpu, Pass, PingPong};
use crate::gpu::assemble::{assemble_into, c_textures, Operands};
use crate::gpu::blas1::{self, ReduceOp, Reducer};
use crate::gpu::blas2::{gemv, MatrixRef};
use crate::gpu::cholesky::{factor_normal_equations, read_lower, Factor};
use crate::gpu::substitute;
use crate::gpu::{GpuError, Vector};
use crate::kernels;
use crate::layout::Format;
use crate::lp::backend::{BackendError, FactorInfo, NormalEquationsBackend};
use crate::lp::settings::Substitution;
use faer::MatRef;

impl From<GpuError> for BackendError {
    fn from(e: GpuError) -> Self {
        match e {
            GpuError::NotPositiveDefinite { column, pivot } => {
                BackendError::Factorization { column, pivot: pivot as f64 }
            }
            GpuError::Gl(g) => BackendError::Gpu { kind: crate::lp::backend::GpuFault::of(&g), detail: g.to_string() },
            other => BackendError::Device(other.to_string()),
        }
    }
}

/// A value read back from the GPU must be finite: NaN or Inf there is a device fault (a
/// corrupted texture, a broken kernel), reported as such, never passed on as a number.
fn finite(v: f32, what: &str) -> Result<f64, BackendError> {
    if v.is_finite() {
        Ok(f64::from(v))
    } else {
        Err(BackendError::Gpu {
            kind: crate::lp::backend::GpuFault::NonFinite,
            detail: format!("{what} read back from the GPU is {v}"),
        })
    }
}

/// A (m×n, row-major, rounded to f32) uploaded once as the operands of the assembly.
pub(super) fn upload_a(gpu: &Gpu, a: MatRef<'_, f64>) -> Result<Operands, BackendError> {
    let (m, n) = (a.nrows(), a.ncols());
    let data: Vec<f32> = (0..m).flat_map(|i| (0..n).map(move |k| a[(i, k)] as f32)).collect();
    Ok(Operands::new(gpu, &data, m, n)?)
}

/// The factor and, with CPU substitution, its read-back copy.
enum Factored {
    None,
    Gpu(Factor),
    Host { factor: Factor, lower: Vec<f64> },
}

/// Single-precision GL backend; borrows the context for its lifetime.
pub struct GpuBackend<'g> {
    gpu: &'g Gpu,
    m: usize,
    n: usize,
    ops: Operands,
    format: Format,
    substitution: Substitution,
    pivot_tolerance: f32,
    /// The ping-pong pair for A·D²·Aᵀ, taken by the factorization and given back afterwards.
    c: Option<PingPong>,
    factored: Factored,
    reducer: Reducer,
    /// Partner index of each column in a split free pair, or −1.
    partners: Option<Vector>,
    factorizations: usize,
    started: bool,
}

impl<'g> GpuBackend<'g> {
    /// Uploads A (m×n, f64 → f32) once.
    pub fn new(
        gpu: &'g Gpu,
        a: MatRef<'_, f64>,
        free_pairs: &[(usize, usize)],
        format: Format,
        substitution: Substitution,
        pivot_tolerance: f64,
    ) -> Result<Self, BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        let ops = upload_a(gpu, a)?;
        let c = c_textures(gpu, m, format)?;
        let partners = if free_pairs.is_empty() {
            None
        } else {
            let mut p = vec![-1.0f32; n];
            for &(a, b) in free_pairs {
                p[a] = b as f32;
                p[b] = a as f32;
            }
            Some(Vector::from_slice(gpu, &p, "free-variable partners")?)
        };
        Ok(Self {
            gpu,
            m,
            n,
            ops,
            format,
            substitution,
            pivot_tolerance: pivot_tolerance as f32,
            c: Some(c),
            factored: Factored::None,
            reducer: Reducer::new(),
            partners,
            factorizations: 0,
            started: false,
        })
    }

    fn new_vec(&self, len: usize) -> Result<Vector, BackendError> {
        Ok(Vector::new(self.gpu, len, "an interior-point vector")?)
    }

    fn same(&self, op: &'static str, x: &Vector, y: &Vector) -> Result<(), BackendError> {
        if x.len() != y.len() {
            return Err(BackendError::Dimension { op, expected: x.len(), got: y.len() });
        }
        Ok(())
    }

    /// The C textures back from a previous factor (or the ones never used).
    fn take_c(&mut self) -> Result<PingPong, BackendError> {
        if let Some(c) = self.c.take() {
            return Ok(c);
        }
        match std::mem::replace(&mut self.factored, Factored::None) {
            Factored::Gpu(f) | Factored::Host { factor: f, .. } => Ok(PingPong::new(f.texture, f.spare)),
            Factored::None => Ok(c_textures(self.gpu, self.m, self.format)?),
        }
    }
}

impl NormalEquationsBackend for GpuBackend<'_> {
    type Vector = Vector;

    fn name(&self) -> &str {
        "gpu"
    }

    fn dims(&self) -> (usize, usize) {
        (self.m, self.n)
    }

    fn upload(&mut self, v: &[f64]) -> Result<Vector, BackendError> {
        let data: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        Ok(Vector::from_slice(self.gpu, &data, "an interior-point vector")?)
    }

    fn download(&mut self, v: &Vector) -> Result<Vec<f64>, BackendError> {
        v.read(self.gpu)?.into_iter().map(|x| finite(x, "a vector entry")).collect()
    }

    fn fill(&mut self, len: usize, value: f64) -> Result<Vector, BackendError> {
        let v = self.new_vec(len)?;
        blas1::fill(self.gpu, &v, value as f32)?;
        Ok(v)
    }

    fn lincomb(&mut self, alpha: f64, x: &Vector, beta: f64, y: &Vector) -> Result<Vector, BackendError> {
        self.same("lincomb", x, y)?;
        let out = self.new_vec(x.len())?;
        blas1::axpby(self.gpu, &out, alpha as f32, x, beta as f32, y)?;
        Ok(out)
    }

    fn add_scalar(&mut self, x: &Vector, alpha: f64) -> Result<Vector, BackendError> {
        let out = self.new_vec(x.len())?;
        blas1::affine(self.gpu, &out, 1.0, x, alpha as f32)?;
        Ok(out)
    }

    fn mul(&mut self, x: &Vector, y: &Vector) -> Result<Vector, BackendError> {
        self.same("mul", x, y)?;
        let out = self.new_vec(x.len())?;
        blas1::mul(self.gpu, &out, x, y)?;
        Ok(out)
    }

    fn div(&mut self, x: &Vector, y: &Vector) -> Result<Vector, BackendError> {
        self.same("div", x, y)?;
        let out = self.new_vec(x.len())?;
        blas1::div(self.gpu, &out, x, y)?;
        Ok(out)
    }

    fn dot(&mut self, x: &Vector, y: &Vector) -> Result<f64, BackendError> {
        self.same("dot", x, y)?;
        finite(self.reducer.dot(self.gpu, x, y)?, "a dot product")
    }

    fn sum(&mut self, x: &Vector) -> Result<f64, BackendError> {
        finite(self.reducer.reduce(self.gpu, x, ReduceOp::Sum)?, "a sum")
    }

    fn norm_inf(&mut self, x: &Vector) -> Result<f64, BackendError> {
        finite(self.reducer.norm_inf(self.gpu, x)?, "a max-norm")
    }

    fn min(&mut self, x: &Vector) -> Result<f64, BackendError> {
        if x.is_empty() {
            return Ok(f64::INFINITY);
        }
        Ok(self.reducer.reduce(self.gpu, x, ReduceOp::Min)? as f64)
    }

    fn max(&mut self, x: &Vector) -> Result<f64, BackendError> {
        if x.is_empty() {
            return Ok(f64::NEG_INFINITY);
        }
        Ok(self.reducer.reduce(self.gpu, x, ReduceOp::Max)? as f64)
    }

    fn max_step(&mut self, x: &Vector, dx: &Vector) -> Result<f64, BackendError> {
        self.same("max_step", x, dx)?;
        Ok(self.reducer.max_step(self.gpu, x, dx)? as f64)
    }

    fn recenter_free_pairs(&mut self, x: &Vector, cap: f64) -> Result<Vector, BackendError> {
        let out = self.new_vec(x.len())?;
        match &self.partners {
            None => blas1::copy(self.gpu, &out, x)?,
            Some(p) => {
                self.same("recenter_free_pairs", x, p)?;
                let src = [x.texture(), p.texture()];
                let pass = Pass::new("recenter", &kernels::RECENTER, out.texture(), &src, out.domain());
                self.gpu.run(&pass.uniforms(&[("cap", cap as f32)])).map_err(GpuError::from)?;
            }
        }
        Ok(out)
    }

    fn a_mul(&mut self, alpha: f64, x: &Vector, add: Option<(f64, &Vector)>) -> Result<Vector, BackendError> {
        let out = self.new_vec(self.m)?;
        let a = MatrixRef { texture: &self.ops.a, m: self.m, n: self.n };
        gemv(self.gpu, &out, &a, false, alpha as f32, x, add.map(|(b, v)| (b as f32, v)))?;
        Ok(out)
    }

    fn at_mul(&mut self, alpha: f64, y: &Vector, add: Option<(f64, &Vector)>) -> Result<Vector, BackendError> {
        let out = self.new_vec(self.n)?;
        let a = MatrixRef { texture: &self.ops.a, m: self.m, n: self.n };
        gemv(self.gpu, &out, &a, true, alpha as f32, y, add.map(|(b, v)| (b as f32, v)))?;
        Ok(out)
    }

    fn assemble(&mut self, d2: &Vector) -> Result<(), BackendError> {
        if d2.len() != self.n {
            return Err(BackendError::Dimension { op: "assemble", expected: self.n, got: d2.len() });
        }
        let mut c = self.take_c()?;
        let gpu = self.gpu;
        gpu.run(&Pass::new("set_d2", &kernels::COPY, &self.ops.d, &[d2.texture()], d2.domain()))
            .map_err(GpuError::from)?;
        assemble_into(gpu, &self.ops, &mut c, self.format)?;
        self.c = Some(c);
        Ok(())
    }

    fn factor(&mut self) -> Result<FactorInfo, BackendError> {
        let c = self.c.take().ok_or(BackendError::NotFactored)?;
        let (factor, replaced) = factor_normal_equations(self.gpu, c, self.m, self.format, self.pivot_tolerance)?;
        // Once per iteration: a GL error or a GPU reset (robust contexts) since the last check.
        self.gpu.check("the factorization of A·D²·Aᵀ").map_err(GpuError::from)?;
        self.factored = match self.substitution {
            Substitution::Gpu => Factored::Gpu(factor),
            Substitution::Cpu => {
                let lower = read_lower(self.gpu, &factor)?.into_iter().map(f64::from).collect();
                Factored::Host { factor, lower }
            }
        };
        if self.started {
            self.factorizations += 1;
        }
        Ok(FactorInfo { replaced_pivots: replaced })
    }

    fn solve(&mut self, r: &Vector) -> Result<Vector, BackendError> {
        if r.len() != self.m {
            return Err(BackendError::Dimension { op: "solve", expected: self.m, got: r.len() });
        }
        match &self.factored {
            Factored::None => Err(BackendError::NotFactored),
            Factored::Gpu(f) => Ok(substitute::solve(self.gpu, f, r)?),
            Factored::Host { lower, .. } => {
                let rhs: Vec<f64> = r.read(self.gpu)?.into_iter().map(f64::from).collect();
                let x = crate::cpu::dense::cholesky_solve(lower, self.m, &rhs);
                self.upload(&x)
            }
        }
    }

    fn unit_roundoff(&self) -> f64 {
        f64::from(f32::EPSILON) / 2.0
    }

    fn begin_iteration(&mut self, _k: usize, _mu: f64) {
        self.started = true;
    }

    fn gpu_factorizations(&self) -> Option<usize> {
        Some(self.factorizations)
    }
}
