//! The blocked kernel design: C and its factor in 2×2 blocks per RGBA texel, B columns per
//! Cholesky step ([`crate::gpu::blocked`]).

use super::rgba::{KernelDesign, Matrix};
use super::NormalOptions;
use crate::gl::{Gpu, PingPong, Texture};
use crate::gpu::blocked::assemble::{assemble_into, BlockedOperands};
use crate::gpu::blocked::cholesky::{gather_diagonal, zero_upper, BlockedWork};
use crate::gpu::blocked::{substitute, Block};
use crate::gpu::error::GpuResult;

/// Bytes of texture storage the blocked system allocates for an m×n A: the factorization's
/// three (M/2)² texel matrices (S, T, L; M = m padded to the block) and its (B/2)² diagonal
/// block, and what the system holds for every design ([`super::rgba::texture_bytes`]).
pub fn texture_bytes(m: usize, n: usize, block: Block) -> u64 {
    super::rgba::texture_bytes::<BlockedKernels>(m, n, block)
}

/// The blocked kernels' textures: the factorization's, which also hold C once assembled.
pub struct BlockedKernels {
    work: BlockedWork,
}

impl BlockedKernels {
    fn texture(&self, which: Matrix) -> &Texture {
        match which {
            Matrix::Assembled => self.work.pp.source(),
            Matrix::Factor => &self.work.l,
        }
    }
}

impl KernelDesign for BlockedKernels {
    type Params = Block;

    fn padded(m: usize, block: Block) -> usize {
        block.layout(m).padded_rows
    }

    fn texture_bytes(m: usize, block: Block) -> u64 {
        BlockedWork::texture_bytes(m, block)
    }

    fn new(gpu: &Gpu, m: usize, _n: usize, block: Block, _opts: &NormalOptions) -> GpuResult<Self> {
        Ok(Self { work: BlockedWork::new(gpu, m, block)? })
    }

    fn assemble(&mut self, gpu: &Gpu, ops: &BlockedOperands, columns_per_pass: usize) -> GpuResult<()> {
        assemble_into(gpu, ops, &mut self.work.pp, &self.work.layout, columns_per_pass)
    }

    fn factor(&mut self, gpu: &Gpu, tolerance: f32, original: &Texture) -> GpuResult<()> {
        self.work.factor(gpu, Some((tolerance, original)))
    }

    fn gather_diagonal(&self, gpu: &Gpu, which: Matrix, out: &Texture) -> GpuResult<()> {
        gather_diagonal(gpu, self.texture(which), out)
    }

    fn read_lower(&self, gpu: &Gpu, which: Matrix) -> GpuResult<Vec<f32>> {
        let mut lower = self.work.layout.unpack(&gpu.read(self.texture(which))?);
        zero_upper(&mut lower, self.work.m);
        Ok(lower)
    }

    fn substitute(&self, gpu: &Gpu, work: &mut PingPong) -> GpuResult<()> {
        substitute::solve(gpu, &self.work.l, &self.work.layout, self.work.block, work)
    }
}
