//! The register-tile kernel design: C and its factor in 4×4 tiles (four planes), B columns per
//! Cholesky step, the assembly in 4×4 or 8×4 tiles as the context's [`TilePlan`] says
//! ([`crate::gpu::tiled`]).

use super::rgba::{KernelDesign, Matrix};
use super::NormalOptions;
use crate::gl::{Gpu, PingPong, Texture};
use crate::gpu::blocked::assemble::BlockedOperands;
use crate::gpu::blocked::cholesky::zero_upper;
use crate::gpu::error::GpuResult;
use crate::gpu::tiled::assemble::assemble_into;
use crate::gpu::tiled::cholesky::{gather_diagonal, planes, TiledWork};
use crate::gpu::tiled::{substitute, TilePlan};
use crate::layout::{TileShape, Tiles};

/// Bytes of texture storage the tiled system allocates for an m×n A: the factorization's three
/// (M/4)² texel matrices of four planes each (S, T, L) — the same storage as the blocked
/// kernels' three (M/2)² — its diagonal block (four (B/4)² planes), the 8×4 assembly's eight
/// planes (one more matrix) where the plan has it, and what the system holds for every design
/// ([`super::rgba::texture_bytes`]).
pub fn texture_bytes(m: usize, n: usize, plan: &TilePlan) -> u64 {
    super::rgba::texture_bytes::<TiledKernels>(m, n, *plan)
}

/// The register-tile kernels' textures: the factorization's (which also hold C once
/// assembled) and the 8×4 assembly's planes.
pub struct TiledKernels {
    work: TiledWork,
    /// The eight planes of an 8×4 assembly (when the plan has it and one pass takes every column).
    wide: Option<Vec<Texture>>,
}

/// The size of a plane of the 8×4 assembly for C in `layout`.
fn wide_plane(layout: Tiles) -> (usize, usize) {
    Tiles { shape: TileShape::T8X4, ..layout }.plane_size()
}

impl TiledKernels {
    fn planes(&self, which: Matrix) -> Vec<&Texture> {
        match which {
            Matrix::Assembled => self.work.source(),
            Matrix::Factor => self.work.l.iter().collect(),
        }
    }
}

impl KernelDesign for TiledKernels {
    type Params = TilePlan;

    fn padded(m: usize, plan: TilePlan) -> usize {
        plan.layout(m).padded
    }

    /// The 8×4 assembly's planes counted wherever the plan has it: the most the plan takes.
    fn texture_bytes(m: usize, plan: TilePlan) -> u64 {
        let layout = plan.layout(m);
        let (w, h) = wide_plane(layout);
        let wide = if plan.assembly.planes() > 4 { 16 * (TileShape::T8X4.planes() * w * h) as u64 } else { 0 };
        TiledWork::texture_bytes(&layout, plan.block) + wide
    }

    fn new(gpu: &Gpu, m: usize, n: usize, plan: TilePlan, opts: &NormalOptions) -> GpuResult<Self> {
        let layout = plan.layout(m);
        let work = TiledWork::new(gpu, layout, plan.block)?;
        let wide = if plan.assembly.planes() > 4 && opts.columns_per_pass >= n {
            Some(planes(gpu, TileShape::T8X4.planes(), wide_plane(layout), "the 8×4 assembly's planes")?)
        } else {
            None
        };
        Ok(Self { work, wide })
    }

    fn assemble(&mut self, gpu: &Gpu, ops: &BlockedOperands, columns_per_pass: usize) -> GpuResult<()> {
        let layout = self.work.layout;
        assemble_into(gpu, ops, &mut self.work.pp, self.wide.as_deref(), &layout, columns_per_pass)
    }

    fn factor(&mut self, gpu: &Gpu, tolerance: f32, original: &Texture) -> GpuResult<()> {
        self.work.factor(gpu, Some((tolerance, original)))
    }

    fn gather_diagonal(&self, gpu: &Gpu, which: Matrix, out: &Texture) -> GpuResult<()> {
        gather_diagonal(gpu, &self.planes(which), out)
    }

    fn read_lower(&self, gpu: &Gpu, which: Matrix) -> GpuResult<Vec<f32>> {
        let planes = self.planes(which).into_iter().map(|t| gpu.read(t)).collect::<Result<Vec<_>, _>>()?;
        let mut lower = self.work.layout.unpack(&planes);
        zero_upper(&mut lower, self.work.m);
        Ok(lower)
    }

    fn substitute(&self, gpu: &Gpu, work: &mut PingPong) -> GpuResult<()> {
        substitute::solve(gpu, &self.work.l, &self.work.layout, self.work.block, work)
    }
}
