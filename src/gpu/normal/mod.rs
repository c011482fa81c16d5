//! The interior-point normal equations A·D²·Aᵀ·u = r on the GPU, as one object: A uploaded
//! once, D² set per iteration, assembly, factorization with the tiny-pivot treatment, and solves.
//! [`build`] chooses the design: the papers' kernels ([`paper`], one value per texel, one pass per
//! column) or one system in RGBA storage ([`rgba`]) generic over a [`KernelDesign`] — the
//! blocked kernels ([`blocked`], 2×2 blocks per texel) or the register-tiled ones ([`tiled`],
//! 4×4 tiles in four planes). Every texture is made once, at construction or on first use, and
//! reused by later iterations.

pub mod blocked;
pub mod paper;
pub mod rgba;
pub mod tiled;

pub use blocked::BlockedKernels;
pub use rgba::{KernelDesign, RgbaSystem};
pub use tiled::TiledKernels;

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
    /// The Cholesky variant (papers', blocked or tiled); it decides every layout.
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

/// The normal equations on the GPU, whichever kernels hold them.
pub trait NormalSystem {
    /// The layout of the vectors the system takes and returns.
    fn layout(&self) -> VectorLayout;

    /// A, for the matrix–vector kernels (shared, not copied).
    fn a_matrix(&self) -> AMatrix;

    /// Sets D² from a GPU vector (a copy pass).
    fn set_d2(&mut self, d2: &Vector) -> GpuResult<()>;

    /// Sets D² from host values.
    fn set_d2_host(&mut self, d2: &[f32]) -> GpuResult<()>;

    /// Every assembly from now on forms A·D²·Aᵀ + Δ, with Δ ≥ 0 diagonal, zero until
    /// [`Self::set_diagonal_host`] (the RGBA systems; the papers' have no such pass).
    fn allocate_diagonal(&mut self) -> GpuResult<()>;

    /// Sets Δ (m values).
    fn set_diagonal_host(&mut self, delta: &[f32]) -> GpuResult<()>;

    /// Replaces A's values (row-major m×n, the size it was built with): the RGBA systems;
    /// the papers' keep A in the layout of their passes and refuse it.
    fn set_a_host(&mut self, a: &[f32]) -> GpuResult<()>;

    /// Forms A·D²·Aᵀ (plus Δ where allocated).
    fn assemble(&mut self) -> GpuResult<()>;

    /// The matrix assembled last, before it is factored: its lower triangle, row-major m×m
    /// (the RGBA systems; the papers' keep it in their own storage formats).
    fn assembled(&self) -> GpuResult<Vec<f32>>;

    /// Factors it with the tiny-pivot treatment; returns the number of pivots replaced.
    fn factor(&mut self) -> GpuResult<usize>;

    /// The factor L of the last factorization (C = L·Lᵀ), its lower triangle row-major m×m:
    /// the RGBA systems (read back from the GPU); the papers' refuse it.
    fn factor_lower(&self) -> GpuResult<Vec<f32>>;

    /// Solves for a GPU right-hand side; the solution is a pooled vector of the same layout.
    fn solve(&mut self, r: &Vector) -> GpuResult<PooledVector>;

    /// Solves for host values.
    fn solve_host(&mut self, r: &[f64]) -> GpuResult<Vec<f64>>;
}

/// Uploads A (row-major m×n) once and makes the system of `opts.variant` with its textures.
pub fn build<'g>(
    gpu: &'g Gpu,
    a: &[f32],
    m: usize,
    n: usize,
    opts: NormalOptions,
    pool: TexturePool,
) -> GpuResult<Box<dyn NormalSystem + 'g>> {
    if m == 0 || n == 0 {
        return Err(GpuError::Shape(format!("A is {m}×{n}: the normal equations need m, n ≥ 1")));
    }
    Ok(match opts.variant {
        Variant::Blocked(block) => Box::new(RgbaSystem::<BlockedKernels>::new(gpu, a, m, n, block, opts, pool)?),
        // A context with fewer draw buffers than a tile needs runs the blocked kernels
        // (`glsolve info` says so).
        Variant::Tiled(block) => match crate::gpu::tiled::TilePlan::default_for(gpu.info(), block) {
            Ok(plan) => Box::new(RgbaSystem::<TiledKernels>::new(gpu, a, m, n, plan, opts, pool)?),
            Err(_) => Box::new(RgbaSystem::<BlockedKernels>::new(gpu, a, m, n, block, opts, pool)?),
        },
        _ => Box::new(paper::PaperSystem::new(gpu, a, m, n, opts, pool)?),
    })
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
