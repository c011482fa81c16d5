//! The normal equations with the register-tile kernels: A in runs of four columns (as the
//! blocked kernels keep it), C and its factor in 4×4 tiles (four planes), vectors four entries
//! per texel. Every texture is made at construction; an iteration creates none. Per
//! factorization two scalars come back for the breakdown check (the min and max of the factor's
//! diagonal); the factor itself stays on the GPU unless the solves are asked to run on the CPU.

use super::{check_rhs, lower_part, NormalOptions};
use crate::geometry::blocks::rect;
use crate::gl::{Gpu, Pass, PingPong, TexelFormat, Texture};
use crate::gpu::blas1::{ReduceOp, Reducer};
use crate::gpu::blocked::assemble::BlockedOperands;
use crate::gpu::cholesky::REPLACED_PIVOT;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::pool::{PooledVector, TexturePool};
use crate::gpu::tiled::assemble::assemble_into;
use crate::gpu::tiled::cholesky::{gather_diagonal, planes, read_lower, TiledWork};
use crate::gpu::tiled::{substitute, TilePlan};
use crate::gpu::vector::{Vector, VectorLayout};
use crate::kernels;
use crate::layout::{TileShape, Tiles};
use std::rc::Rc;

/// Bytes of texture storage [`TiledSystem::new`] allocates for an m×n A: the factorization's
/// three (M/4)² texel matrices of four planes each (S, T, L) — the same storage as the blocked
/// kernels' three (M/2)² — its diagonal block (four (B/4)² planes), the 8×4 assembly's eight
/// planes (one more matrix) where the plan has it, A and A·D² (M rows of ⌈n/4⌉ texels), d², and
/// four vectors of M/4 texels; 16 bytes per RGBA32F texel. The LP's iterate vectors come on top.
pub fn texture_bytes(m: usize, n: usize, plan: &TilePlan) -> u64 {
    let layout = plan.layout(m);
    let (w, h) = layout.plane_size();
    let rows = layout.padded.max(m);
    let runs = crate::layout::rgba::Rows4::new(m, n).texture_size().0;
    let nt = plan.block.size() / 4;
    let wide = if plan.assembly.planes() > 4 { w * h * 4 } else { 0 };
    let texels = 3 * 4 * w * h + 4 * nt * nt + wide + 2 * runs * rows + runs + 4 * (layout.padded / 4);
    16 * texels as u64
}

/// 4×4 tiles in four planes, B columns per Cholesky step.
pub struct TiledSystem<'g> {
    gpu: &'g Gpu,
    m: usize,
    ops: BlockedOperands,
    work: TiledWork,
    /// The eight planes of an 8×4 assembly (when the plan has it and one pass takes every column).
    wide: Option<Vec<Texture>>,
    opts: NormalOptions,
    plan: TilePlan,
    /// The diagonal of C before factoring (the tiny-pivot reference), four per texel.
    original: Texture,
    /// The factor's diagonal, gathered for the breakdown check (m entries, four per texel).
    diagonal: Vector,
    /// The min and max reductions of the breakdown check.
    reducer: Reducer,
    /// The substitution's vectors (M/4 texels; zero past m).
    subst: PingPong,
    /// The factor read back, when the solves run on the CPU.
    lower: Option<Vec<f64>>,
    factored: bool,
    pool: TexturePool,
}

impl<'g> TiledSystem<'g> {
    pub fn new(
        gpu: &'g Gpu,
        a: &[f32],
        m: usize,
        n: usize,
        plan: TilePlan,
        opts: NormalOptions,
        pool: TexturePool,
    ) -> GpuResult<Self> {
        let layout = plan.layout(m);
        let work = TiledWork::new(gpu, layout, plan.block)?;
        let ops = BlockedOperands::new(gpu, a, m, n, layout.padded)?;
        let wide = if plan.assembly.planes() > 4 && opts.columns_per_pass >= n {
            let size = Tiles { shape: TileShape::T8X4, ..layout }.plane_size();
            Some(planes(gpu, TileShape::T8X4.planes(), size, "the 8×4 assembly's planes")?)
        } else {
            None
        };
        let quarter = layout.padded / 4;
        let vec4 = |what| gpu.texture_of(TexelFormat::Rgba32F, quarter, 1, what);
        let original = vec4("the original diagonal")?;
        let diagonal = Vector::from_texture(vec4("the factor's diagonal")?, m);
        let subst = PingPong::new(vec4("substitution (S)")?, vec4("substitution (T)")?);
        for t in [subst.source(), subst.target()] {
            let clear = Pass::new("clear", &kernels::FILL4, t, &[], rect(0, 0, quarter as u32, 1));
            gpu.run(&clear.uniforms(&[("value", 0.0)]))?;
        }
        let reducer = Reducer::new();
        Ok(Self {
            gpu,
            m,
            ops,
            work,
            wide,
            opts,
            plan,
            original,
            diagonal,
            reducer,
            subst,
            lower: None,
            factored: false,
            pool,
        })
    }

    pub fn a(&self) -> Rc<Texture> {
        Rc::clone(&self.ops.a)
    }

    pub fn set_d2(&mut self, d2: &Vector) -> GpuResult<()> {
        if d2.len() != self.ops.n || d2.layout() != VectorLayout::Quad {
            return Err(GpuError::Shape(format!(
                "d² of length {} ({:?}) for {} columns",
                d2.len(),
                d2.layout(),
                self.ops.n
            )));
        }
        let sources = [d2.texture()];
        self.gpu.run(&Pass::new("set_d2", &kernels::COPY4, &self.ops.d, &sources, d2.domain()))?;
        Ok(())
    }

    pub fn set_d2_host(&mut self, d2: &[f32]) -> GpuResult<()> {
        self.ops.set_d2(self.gpu, d2)
    }

    /// Every assembly from now on adds the diagonal of [`Self::set_diagonal_host`].
    pub fn allocate_diagonal(&mut self) -> GpuResult<()> {
        self.ops.allocate_diagonal(self.gpu)
    }

    pub fn set_diagonal_host(&mut self, delta: &[f32]) -> GpuResult<()> {
        self.ops.set_diagonal(self.gpu, delta)
    }

    pub fn assemble(&mut self) -> GpuResult<()> {
        self.factored = false;
        let layout = self.work.layout;
        assemble_into(self.gpu, &self.ops, &mut self.work.pp, self.wide.as_deref(), &layout, self.opts.columns_per_pass)
    }

    /// C as assembled (its lower triangle, row-major m×m): valid between an assembly and the
    /// factorization, which overwrites it.
    pub fn assembled(&self) -> GpuResult<Vec<f32>> {
        if self.factored {
            return Err(GpuError::Shape("the assembled matrix was factored in place".into()));
        }
        let planes = self.work.source().into_iter().map(|t| self.gpu.read(t)).collect::<Result<Vec<_>, _>>()?;
        Ok(lower_part(self.work.layout.unpack(&planes), self.m))
    }

    pub fn factor(&mut self) -> GpuResult<usize> {
        let gpu = self.gpu;
        gather_diagonal(gpu, &self.work.source(), &self.original)?;
        self.work.factor(gpu, Some((self.opts.pivot_tolerance, &self.original)))?;
        // Two scalars come back, not the diagonal: its min (a breakdown leaves a pivot that is
        // not positive, or NaN) and its max (a replaced pivot is REPLACED_PIVOT). Only when one
        // of them says so is the diagonal read, to name the column or count the replacements.
        let l: Vec<&Texture> = self.work.l.iter().collect();
        gather_diagonal(gpu, &l, self.diagonal.texture())?;
        let min = self.reducer.reduce(gpu, &self.diagonal, ReduceOp::Min)?;
        let max = self.reducer.reduce(gpu, &self.diagonal, ReduceOp::Max)?;
        let broken = !(min.is_finite() && min > 0.0 && max.is_finite());
        let diag = if broken || max >= REPLACED_PIVOT { self.diagonal.read(gpu)? } else { Vec::new() };
        if let Some(column) = diag.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(GpuError::NotPositiveDefinite { column, pivot: diag[column] });
        }
        if broken {
            // The reductions saw what the read-back does not: report it as the driver's fault.
            return Err(GpuError::NotPositiveDefinite { column: 0, pivot: min });
        }
        self.lower = if self.opts.substitute_on_gpu {
            None
        } else {
            Some(read_lower(gpu, &self.work.layout, &self.work.l)?.into_iter().map(f64::from).collect())
        };
        self.factored = true;
        Ok(diag.iter().filter(|&&v| v >= REPLACED_PIVOT).count())
    }

    fn ready(&self) -> GpuResult<()> {
        if self.factored {
            Ok(())
        } else {
            Err(GpuError::Shape("solve before factor".into()))
        }
    }

    /// Runs both tiled triangular solves on the substitution vectors.
    fn substitute(&mut self) -> GpuResult<()> {
        substitute::solve(self.gpu, &self.work.l, &self.work.layout, self.plan.block, &mut self.subst)
    }

    /// The plan this system runs.
    pub fn plan(&self) -> TilePlan {
        self.plan
    }

    pub fn solve(&mut self, r: &Vector) -> GpuResult<PooledVector> {
        check_rhs(r, self.m, VectorLayout::Quad)?;
        self.ready()?;
        let out = self.pool.vector(self.gpu, VectorLayout::Quad, self.m, "the normal equations' solution")?;
        if let Some(lower) = &self.lower {
            let rhs: Vec<f64> = r.read(self.gpu)?.into_iter().map(f64::from).collect();
            let x: Vec<f32> =
                crate::cpu::dense::cholesky_solve(lower, self.m, &rhs).into_iter().map(|v| v as f32).collect();
            out.write(self.gpu, &x)?;
            return Ok(out);
        }
        let width = r.texture().width();
        let sources = [r.texture()];
        self.gpu.run(&Pass::new("load_rhs", &kernels::COPY4, self.subst.source(), &sources, rect(0, 0, width, 1)))?;
        self.substitute()?;
        let sources = [self.subst.source()];
        self.gpu.run(&Pass::new("store_solution", &kernels::COPY4, out.texture(), &sources, rect(0, 0, width, 1)))?;
        Ok(out)
    }

    pub fn solve_host(&mut self, r: &[f64]) -> GpuResult<Vec<f64>> {
        if r.len() != self.m {
            return Err(GpuError::Shape(format!("right-hand side of length {} for order {}", r.len(), self.m)));
        }
        self.ready()?;
        if let Some(lower) = &self.lower {
            return Ok(crate::cpu::dense::cholesky_solve(lower, self.m, r));
        }
        let quarter = self.subst.source().width() as usize;
        let mut rhs: Vec<f32> = r.iter().map(|&v| v as f32).collect();
        rhs.resize(4 * quarter, 0.0);
        self.gpu.write(self.subst.source(), &rhs)?;
        self.substitute()?;
        let texels = self.m.div_ceil(4) as u32;
        let x = self.gpu.read_rect(self.subst.source(), 0, 0, texels, 1)?;
        Ok(x.into_iter().take(self.m).map(f64::from).collect())
    }
}
