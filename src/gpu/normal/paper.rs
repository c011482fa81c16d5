//! The normal equations with the papers' kernels: the per-column assembly (2008 structure paper
//! Algorithm 3), any of the papers' Cholesky variants with the tiny-pivot square root, and the
//! substitution of the 2008 IPM paper's Algorithm 1 (or a read-back and CPU solves).

use super::{check_rhs, AMatrix, NormalOptions, NormalSystem};
use crate::gl::{Gpu, PingPong};
use crate::gpu::assemble::{assemble_into, c_textures, Operands};
use crate::gpu::cholesky::{factor_normal_equations, read_lower, Factor};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::pool::{PooledVector, TexturePool};
use crate::gpu::substitute;
use crate::gpu::vector::{Vector, VectorLayout};
use std::rc::Rc;

/// The factor and, with CPU substitution, its read-back copy.
enum Factored {
    None,
    Gpu(Factor),
    Host { factor: Factor, lower: Vec<f64> },
}

/// One value per texel, one pass per column.
pub struct PaperSystem<'g> {
    gpu: &'g Gpu,
    m: usize,
    ops: Operands,
    opts: NormalOptions,
    /// The ping-pong pair for A·D²·Aᵀ, taken by the factorization and given back afterwards.
    c: Option<PingPong>,
    factored: Factored,
    pool: TexturePool,
}

impl<'g> PaperSystem<'g> {
    pub fn new(gpu: &'g Gpu, a: &[f32], m: usize, n: usize, opts: NormalOptions, pool: TexturePool) -> GpuResult<Self> {
        let ops = Operands::new(gpu, a, m, n)?;
        let c = c_textures(gpu, m, opts.format)?;
        Ok(Self { gpu, m, ops, opts, c: Some(c), factored: Factored::None, pool })
    }

    /// The C textures back from a previous factor (or the ones never used).
    fn take_c(&mut self) -> GpuResult<PingPong> {
        if let Some(c) = self.c.take() {
            return Ok(c);
        }
        match std::mem::replace(&mut self.factored, Factored::None) {
            Factored::Gpu(f) | Factored::Host { factor: f, .. } => Ok(PingPong::new(f.texture, f.spare)),
            Factored::None => c_textures(self.gpu, self.m, self.opts.format),
        }
    }
}

impl NormalSystem for PaperSystem<'_> {
    fn layout(&self) -> VectorLayout {
        VectorLayout::Scalar
    }

    fn a_matrix(&self) -> AMatrix {
        AMatrix::Scalar(Rc::clone(&self.ops.a))
    }

    fn set_d2(&mut self, d2: &Vector) -> GpuResult<()> {
        self.ops.copy_d2(self.gpu, d2)
    }

    fn set_d2_host(&mut self, d2: &[f32]) -> GpuResult<()> {
        self.ops.set_d2(self.gpu, d2)
    }

    fn allocate_diagonal(&mut self) -> GpuResult<()> {
        Err(GpuError::Unsupported("a diagonal added to the papers' assembly".into()))
    }

    fn set_diagonal_host(&mut self, _delta: &[f32]) -> GpuResult<()> {
        Err(GpuError::Unsupported("a diagonal added to the papers' assembly".into()))
    }

    fn assembled(&self) -> GpuResult<Vec<f32>> {
        Err(GpuError::Unsupported("reading the papers' assembled matrix".into()))
    }

    fn set_a_host(&mut self, _a: &[f32]) -> GpuResult<()> {
        Err(GpuError::Shape("the papers' kernels take A once, at construction".into()))
    }

    fn factor_lower(&self) -> GpuResult<Vec<f32>> {
        Err(GpuError::Shape("the papers' kernels keep the factor in their own storage formats".into()))
    }

    fn assemble(&mut self) -> GpuResult<()> {
        let mut c = self.take_c()?;
        let r = assemble_into(self.gpu, &self.ops, &mut c, self.opts.format);
        self.c = Some(c);
        r
    }

    fn factor(&mut self) -> GpuResult<usize> {
        let c = self.c.take().ok_or_else(|| GpuError::Shape("factor before assemble".into()))?;
        let tol = self.opts.pivot_tolerance;
        let (factor, replaced) =
            factor_normal_equations(self.gpu, c, self.m, self.opts.format, self.opts.variant, tol)?;
        self.factored = if self.opts.substitute_on_gpu {
            Factored::Gpu(factor)
        } else {
            let lower = read_lower(self.gpu, &factor)?.into_iter().map(f64::from).collect();
            Factored::Host { factor, lower }
        };
        Ok(replaced)
    }

    fn solve(&mut self, r: &Vector) -> GpuResult<PooledVector> {
        check_rhs(r, self.m, VectorLayout::Scalar)?;
        match &self.factored {
            Factored::None => Err(GpuError::Shape("solve before factor".into())),
            Factored::Gpu(f) => Ok(self.pool.adopt(substitute::solve(self.gpu, f, r)?)),
            Factored::Host { lower, .. } => {
                let rhs: Vec<f64> = r.read(self.gpu)?.into_iter().map(f64::from).collect();
                let x: Vec<f32> =
                    crate::cpu::rowmajor::cholesky_solve(lower, self.m, &rhs).into_iter().map(|v| v as f32).collect();
                let out = self.pool.vector(self.gpu, VectorLayout::Scalar, self.m, "the normal equations' solution")?;
                out.write(self.gpu, &x)?;
                Ok(out)
            }
        }
    }

    fn solve_host(&mut self, r: &[f64]) -> GpuResult<Vec<f64>> {
        if r.len() != self.m {
            return Err(GpuError::Shape(format!("right-hand side of length {} for order {}", r.len(), self.m)));
        }
        match &self.factored {
            Factored::None => Err(GpuError::Shape("solve before factor".into())),
            Factored::Host { lower, .. } => Ok(crate::cpu::rowmajor::cholesky_solve(lower, self.m, r)),
            Factored::Gpu(f) => {
                let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
                let rv = self.pool.vector(
                    self.gpu,
                    VectorLayout::Scalar,
                    self.m,
                    "the normal equations' right-hand side",
                )?;
                rv.write(self.gpu, &r32)?;
                let x = substitute::solve(self.gpu, f, &rv)?;
                Ok(x.read(self.gpu)?.into_iter().map(f64::from).collect())
            }
        }
    }
}
