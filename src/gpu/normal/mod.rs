//! The interior-point normal equations A·D²·Aᵀ·u = r on the GPU, as one object: A uploaded
//! once, D² set per iteration, assembly, factorization with the tiny-pivot treatment, and solves
//! — with the papers' kernels ([`paper`], one value per texel, one pass per column), the
//! blocked ones ([`blocked`], 2×2 blocks per RGBA texel) or the register-tiled ones ([`tiled`],
//! 4×4 tiles in four planes). Every texture is made once, at
//! construction or on first use, and reused by later iterations.

pub mod blocked;
pub mod paper;
pub mod tiled;

use super::cholesky::Variant;
use super::error::{GpuError, GpuResult};
use super::pool::{PooledVector, TexturePool};
use super::vector::{Vector, VectorLayout};
use crate::gl::{Gpu, Texture};
use crate::layout::Format;
use std::rc::Rc;

/// How the system is stored, factored and solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalOptions {
    /// The Cholesky variant (papers' or blocked); it decides every layout.
    pub variant: Variant,
    /// Storage of A·D²·Aᵀ for the papers' variants (the 2008 papers pack it).
    pub format: Format,
    /// Triangular solves on the GPU; otherwise the factor is read back once per factorization
    /// and the solves run on the CPU (the 2008 IPM paper's Table 4.1 columns).
    pub substitute_on_gpu: bool,
    /// A pivot at or below this fraction of its original diagonal entry is rounding noise in
    /// single precision and is replaced by a huge one (the row drops out).
    pub pivot_tolerance: f32,
    /// Blocked assembly: columns of A per pass (`usize::MAX`: all in one pass).
    pub columns_per_pass: usize,
}

/// A on the GPU in the layout of the system's vector kernels.
#[derive(Clone)]
pub enum AMatrix {
    /// n×m R32F texture, A(i, k) at texel (k, i) (the papers' `gemv`).
    Scalar(Rc<Texture>),
    /// Runs of four columns, rows padded with zeros (`gemv_rows4`).
    Rows4(Rc<Texture>),
}

/// The normal equations in one of the three designs.
pub enum NormalSystem<'g> {
    Paper(Box<paper::PaperSystem<'g>>),
    Blocked(Box<blocked::BlockedSystem<'g>>),
    Tiled(Box<tiled::TiledSystem<'g>>),
}

impl<'g> NormalSystem<'g> {
    /// Uploads A (row-major m×n) once and makes the textures of `opts.variant`.
    pub fn new(gpu: &'g Gpu, a: &[f32], m: usize, n: usize, opts: NormalOptions, pool: TexturePool) -> GpuResult<Self> {
        if m == 0 || n == 0 {
            return Err(GpuError::Shape(format!("A is {m}×{n}: the normal equations need m, n ≥ 1")));
        }
        Ok(match opts.variant {
            Variant::Blocked(block) => {
                NormalSystem::Blocked(Box::new(blocked::BlockedSystem::new(gpu, a, m, n, block, opts, pool)?))
            }
            // A context with fewer draw buffers than a tile needs runs the blocked kernels
            // (`glsolve info` says so).
            Variant::Tiled(block) => match crate::gpu::tiled::TilePlan::default_for(gpu.info(), block) {
                Ok(plan) => NormalSystem::Tiled(Box::new(tiled::TiledSystem::new(gpu, a, m, n, plan, opts, pool)?)),
                Err(_) => {
                    NormalSystem::Blocked(Box::new(blocked::BlockedSystem::new(gpu, a, m, n, block, opts, pool)?))
                }
            },
            _ => NormalSystem::Paper(Box::new(paper::PaperSystem::new(gpu, a, m, n, opts, pool)?)),
        })
    }

    /// The layout of the vectors the system takes and returns.
    pub fn layout(&self) -> VectorLayout {
        match self {
            NormalSystem::Paper(_) => VectorLayout::Scalar,
            NormalSystem::Blocked(_) | NormalSystem::Tiled(_) => VectorLayout::Quad,
        }
    }

    /// A, for the matrix–vector kernels (shared, not copied).
    pub fn a_matrix(&self) -> AMatrix {
        match self {
            NormalSystem::Paper(s) => AMatrix::Scalar(s.a()),
            NormalSystem::Blocked(s) => AMatrix::Rows4(s.a()),
            NormalSystem::Tiled(s) => AMatrix::Rows4(s.a()),
        }
    }

    /// Sets D² from a GPU vector (a copy pass).
    pub fn set_d2(&mut self, d2: &Vector) -> GpuResult<()> {
        match self {
            NormalSystem::Paper(s) => s.set_d2(d2),
            NormalSystem::Blocked(s) => s.set_d2(d2),
            NormalSystem::Tiled(s) => s.set_d2(d2),
        }
    }

    /// Sets D² from host values.
    pub fn set_d2_host(&mut self, d2: &[f32]) -> GpuResult<()> {
        match self {
            NormalSystem::Paper(s) => s.set_d2_host(d2),
            NormalSystem::Blocked(s) => s.set_d2_host(d2),
            NormalSystem::Tiled(s) => s.set_d2_host(d2),
        }
    }

    /// Every assembly from now on forms A·D²·Aᵀ + Δ, with Δ ≥ 0 diagonal, zero until
    /// [`Self::set_diagonal_host`] (the blocked and tiled kernels; the papers' have no such
    /// pass).
    pub fn allocate_diagonal(&mut self) -> GpuResult<()> {
        match self {
            NormalSystem::Paper(_) => Err(GpuError::Unsupported("a diagonal added to the papers' assembly".into())),
            NormalSystem::Blocked(s) => s.allocate_diagonal(),
            NormalSystem::Tiled(s) => s.allocate_diagonal(),
        }
    }

    /// Sets Δ (m values).
    pub fn set_diagonal_host(&mut self, delta: &[f32]) -> GpuResult<()> {
        match self {
            NormalSystem::Paper(_) => Err(GpuError::Unsupported("a diagonal added to the papers' assembly".into())),
            NormalSystem::Blocked(s) => s.set_diagonal_host(delta),
            NormalSystem::Tiled(s) => s.set_diagonal_host(delta),
        }
    }

    /// Forms A·D²·Aᵀ (plus Δ where allocated).
    pub fn assemble(&mut self) -> GpuResult<()> {
        match self {
            NormalSystem::Paper(s) => s.assemble(),
            NormalSystem::Blocked(s) => s.assemble(),
            NormalSystem::Tiled(s) => s.assemble(),
        }
    }

    /// The matrix assembled last, before it is factored: its lower triangle, row-major m×m
    /// (the blocked and tiled systems; the papers' keep it in their own storage formats).
    pub fn assembled(&self) -> GpuResult<Vec<f32>> {
        match self {
            NormalSystem::Paper(_) => Err(GpuError::Unsupported("reading the papers' assembled matrix".into())),
            NormalSystem::Blocked(s) => s.assembled(),
            NormalSystem::Tiled(s) => s.assembled(),
        }
    }

    /// Factors it with the tiny-pivot treatment; returns the number of pivots replaced.
    pub fn factor(&mut self) -> GpuResult<usize> {
        match self {
            NormalSystem::Paper(s) => s.factor(),
            NormalSystem::Blocked(s) => s.factor(),
            NormalSystem::Tiled(s) => s.factor(),
        }
    }

    /// Solves for a GPU right-hand side; the solution is a pooled vector of the same layout.
    pub fn solve(&mut self, r: &Vector) -> GpuResult<PooledVector> {
        match self {
            NormalSystem::Paper(s) => s.solve(r),
            NormalSystem::Blocked(s) => s.solve(r),
            NormalSystem::Tiled(s) => s.solve(r),
        }
    }

    /// Solves for host values.
    pub fn solve_host(&mut self, r: &[f64]) -> GpuResult<Vec<f64>> {
        match self {
            NormalSystem::Paper(s) => s.solve_host(r),
            NormalSystem::Blocked(s) => s.solve_host(r),
            NormalSystem::Tiled(s) => s.solve_host(r),
        }
    }
}

/// The lower triangle of a row-major order-m matrix (the strict upper part zeroed).
fn lower_part(mut c: Vec<f32>, m: usize) -> Vec<f32> {
    for i in 0..m {
        c[i * m + i + 1..(i + 1) * m].fill(0.0);
    }
    c
}

/// Checks a right-hand side's length and layout.
fn check_rhs(r: &Vector, m: usize, layout: VectorLayout) -> GpuResult<()> {
    if r.len() != m || r.layout() != layout {
        return Err(GpuError::Shape(format!(
            "right-hand side of length {} ({:?}) for an order-{m} system ({layout:?})",
            r.len(),
            r.layout()
        )));
    }
    Ok(())
}
