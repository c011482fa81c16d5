//! The normal equations in RGBA storage, generic over the kernel design: A in runs of four
//! columns, vectors four entries per texel, C and its factor as the design stores them (2×2
//! blocks in [`super::blocked`], 4×4 register tiles in [`super::tiled`]). Every texture is made at
//! construction; an iteration creates none. Per factorization two scalars come back for the
//! breakdown check (the min and max of the factor's diagonal); the factor itself stays on the
//! GPU unless the solves are asked to run on the CPU.

use super::{check_rhs, AMatrix, NormalOptions, NormalSystem};
use crate::geometry::blocks::rect;
use crate::gl::{Gpu, Pass, PingPong, TexelFormat, Texture};
use crate::gpu::blas1::{ReduceOp, Reducer};
use crate::gpu::blocked::assemble::BlockedOperands;
use crate::gpu::cholesky::REPLACED_PIVOT;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::pool::{PooledVector, TexturePool};
use crate::gpu::vector::{Vector, VectorLayout};
use crate::kernels;
use std::rc::Rc;

/// Which matrix of a design's storage to read: C as assembled (until the factorization
/// overwrites it) or its factor L.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matrix {
    Assembled,
    Factor,
}

/// How one kernel design stores C = A·D²·Aᵀ and its factor, and the passes it runs on them.
/// The design owns the factorization's textures; A, d², the diagonal added and the vectors are
/// the system's ([`RgbaSystem`]), the same for every design.
pub trait KernelDesign: Sized {
    /// What a design is run with (the block B; for tiles, the plan).
    type Params: Copy;

    /// M: m padded to the design's block, with the identity on the padded diagonal.
    fn padded(m: usize, params: Self::Params) -> usize;

    /// Bytes of the design's own RGBA32F textures for order m (C's ping-pong pair, the factor,
    /// the diagonal block, what the assembly adds).
    fn texture_bytes(m: usize, params: Self::Params) -> u64;

    /// Makes the textures for an m×n A.
    fn new(gpu: &Gpu, m: usize, n: usize, params: Self::Params, opts: &NormalOptions) -> GpuResult<Self>;

    /// Forms C from `ops` (rows padded to [`Self::padded`]), `columns_per_pass` columns of A per
    /// pass.
    fn assemble(&mut self, gpu: &Gpu, ops: &BlockedOperands, columns_per_pass: usize) -> GpuResult<()>;

    /// Factors C in place with the tiny-pivot treatment: a pivot at or below `tolerance` times
    /// its entry of `original` (C's diagonal, four per texel) is replaced.
    fn factor(&mut self, gpu: &Gpu, tolerance: f32, original: &Texture) -> GpuResult<()>;

    /// The diagonal of `which`, gathered into `out` (M/4 texels, four entries per texel).
    fn gather_diagonal(&self, gpu: &Gpu, which: Matrix, out: &Texture) -> GpuResult<()>;

    /// `which` read back: its lower triangle, row-major m×m.
    fn read_lower(&self, gpu: &Gpu, which: Matrix) -> GpuResult<Vec<f32>>;

    /// Solves L·Lᵀ·x = r with the factor: `work`'s source holds r (M/4 texels, zero past m) on
    /// entry and x on return.
    fn substitute(&self, gpu: &Gpu, work: &mut PingPong) -> GpuResult<()>;
}

/// Bytes of texture storage [`RgbaSystem::new`] allocates for an m×n A: the design's (see
/// [`KernelDesign::texture_bytes`]), then A and A·D² (M rows of ⌈n/4⌉ texels), d², and four
/// vectors of M/4 texels; 16 bytes per RGBA32F texel. The LP's iterate vectors (a few dozen of
/// ⌈n/4⌉ texels) come on top.
pub fn texture_bytes<D: KernelDesign>(m: usize, n: usize, params: D::Params) -> u64 {
    let padded = D::padded(m, params);
    let runs = crate::layout::rgba::Rows4::new(m, n).texture_size().0;
    let texels = 2 * runs * padded.max(m) + runs + 4 * (padded / 4);
    D::texture_bytes(m, params) + 16 * texels as u64
}

/// The normal equations with the kernels of design `D`.
pub struct RgbaSystem<'g, D> {
    gpu: &'g Gpu,
    m: usize,
    ops: BlockedOperands,
    design: D,
    opts: NormalOptions,
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

impl<'g, D: KernelDesign> RgbaSystem<'g, D> {
    /// Uploads A (row-major m×n) once and makes every texture of the system.
    pub fn new(
        gpu: &'g Gpu,
        a: &[f32],
        m: usize,
        n: usize,
        params: D::Params,
        opts: NormalOptions,
        pool: TexturePool,
    ) -> GpuResult<Self> {
        let padded = D::padded(m, params);
        let design = D::new(gpu, m, n, params, &opts)?;
        let ops = BlockedOperands::new(gpu, a, m, n, padded)?;
        let quarter = padded / 4;
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
            design,
            opts,
            original,
            diagonal,
            reducer,
            subst,
            lower: None,
            factored: false,
            pool,
        })
    }

    fn ready(&self) -> GpuResult<()> {
        if self.factored {
            Ok(())
        } else {
            Err(GpuError::Shape("solve before factor".into()))
        }
    }
}

impl<D: KernelDesign> NormalSystem for RgbaSystem<'_, D> {
    fn layout(&self) -> VectorLayout {
        VectorLayout::Quad
    }

    fn a_matrix(&self) -> AMatrix {
        AMatrix::Rows4(Rc::clone(&self.ops.a))
    }

    fn set_d2(&mut self, d2: &Vector) -> GpuResult<()> {
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

    fn set_d2_host(&mut self, d2: &[f32]) -> GpuResult<()> {
        self.ops.set_d2(self.gpu, d2)
    }

    fn allocate_diagonal(&mut self) -> GpuResult<()> {
        self.ops.allocate_diagonal(self.gpu)
    }

    fn set_diagonal_host(&mut self, delta: &[f32]) -> GpuResult<()> {
        self.ops.set_diagonal(self.gpu, delta)
    }

    fn set_a_host(&mut self, a: &[f32]) -> GpuResult<()> {
        self.factored = false;
        self.ops.write_a(self.gpu, a)
    }

    fn assemble(&mut self) -> GpuResult<()> {
        self.factored = false;
        self.design.assemble(self.gpu, &self.ops, self.opts.columns_per_pass)
    }

    /// Valid between an assembly and the factorization, which overwrites C.
    fn assembled(&self) -> GpuResult<Vec<f32>> {
        if self.factored {
            return Err(GpuError::Shape("the assembled matrix was factored in place".into()));
        }
        self.design.read_lower(self.gpu, Matrix::Assembled)
    }

    fn factor(&mut self) -> GpuResult<usize> {
        let gpu = self.gpu;
        self.design.gather_diagonal(gpu, Matrix::Assembled, &self.original)?;
        self.design.factor(gpu, self.opts.pivot_tolerance, &self.original)?;
        // Two scalars come back, not the diagonal: its min (a breakdown leaves a pivot that is
        // not positive, or NaN) and its max (a replaced pivot is REPLACED_PIVOT). Only when one
        // of them says so is the diagonal read, to name the column or count the replacements.
        self.design.gather_diagonal(gpu, Matrix::Factor, self.diagonal.texture())?;
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
            Some(self.design.read_lower(gpu, Matrix::Factor)?.into_iter().map(f64::from).collect())
        };
        self.factored = true;
        Ok(diag.iter().filter(|&&v| v >= REPLACED_PIVOT).count())
    }

    fn factor_lower(&self) -> GpuResult<Vec<f32>> {
        self.ready()?;
        match &self.lower {
            Some(lower) => Ok(lower.iter().map(|&v| v as f32).collect()),
            None => self.design.read_lower(self.gpu, Matrix::Factor),
        }
    }

    fn solve(&mut self, r: &Vector) -> GpuResult<PooledVector> {
        check_rhs(r, self.m, VectorLayout::Quad)?;
        self.ready()?;
        let out = self.pool.vector(self.gpu, VectorLayout::Quad, self.m, "the normal equations' solution")?;
        if let Some(lower) = &self.lower {
            let rhs: Vec<f64> = r.read(self.gpu)?.into_iter().map(f64::from).collect();
            let x: Vec<f32> =
                crate::cpu::rowmajor::cholesky_solve(lower, self.m, &rhs).into_iter().map(|v| v as f32).collect();
            out.write(self.gpu, &x)?;
            return Ok(out);
        }
        let width = r.texture().width();
        let sources = [r.texture()];
        self.gpu.run(&Pass::new("load_rhs", &kernels::COPY4, self.subst.source(), &sources, rect(0, 0, width, 1)))?;
        self.design.substitute(self.gpu, &mut self.subst)?;
        let sources = [self.subst.source()];
        self.gpu.run(&Pass::new("store_solution", &kernels::COPY4, out.texture(), &sources, rect(0, 0, width, 1)))?;
        Ok(out)
    }

    fn solve_host(&mut self, r: &[f64]) -> GpuResult<Vec<f64>> {
        if r.len() != self.m {
            return Err(GpuError::Shape(format!("right-hand side of length {} for order {}", r.len(), self.m)));
        }
        self.ready()?;
        if let Some(lower) = &self.lower {
            return Ok(crate::cpu::rowmajor::cholesky_solve(lower, self.m, r));
        }
        let quarter = self.subst.source().width() as usize;
        let mut rhs: Vec<f32> = r.iter().map(|&v| v as f32).collect();
        rhs.resize(4 * quarter, 0.0);
        self.gpu.write(self.subst.source(), &rhs)?;
        self.design.substitute(self.gpu, &mut self.subst)?;
        let texels = self.m.div_ceil(4) as u32;
        let x = self.gpu.read_rect(self.subst.source(), 0, 0, texels, 1)?;
        Ok(x.into_iter().take(self.m).map(f64::from).collect())
    }
}
