//! Forward and back substitution with a factor in 4×4 tiles (four planes), on vectors of four
//! entries per texel padded to the factor's order M: vector texel t is tile row t. One pass per
//! block of B entries (M/B passes per triangular solve, each over the M/4 texels of the vector),
//! as [`crate::gpu::blocked::substitute`]; a fragment reads the factor a tile (four fetches) at a
//! time.

use crate::gl::{Gpu, PingPong, Texture};
use crate::gpu::blocked::substitute::{execute_on_vectors, plan_with, Triangle};
use crate::gpu::blocked::Block;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::Tiles;

/// The passes of one triangular solve of order M (a multiple of B); the factor's planes are
/// `Aux(0..4)`.
pub fn plan(padded: usize, block: Block, which: Triangle) -> Vec<PlannedPass> {
    let kernels = [&kernels::TILE_FORWARD, &kernels::TILE_BACKWARD];
    let sources = [Role::S, Role::Aux(0), Role::Aux(1), Role::Aux(2), Role::Aux(3)];
    plan_with(padded, block, which, PassKind::SubstituteTiles, kernels, &sources)
}

/// Solves L·Lᵀ·x = r for the factor's planes `l` (in `layout`, padded to a multiple of `block`):
/// `work`'s source holds r (M/4 texels, zero beyond m) on entry and x on return.
pub fn solve(gpu: &Gpu, l: &[Texture], layout: &Tiles, block: Block, work: &mut PingPong) -> GpuResult<()> {
    let padded = layout.padded;
    if !padded.is_multiple_of(block.size()) || l.len() != 4 {
        return Err(GpuError::Shape(format!(
            "a factor of order {padded} in {} planes for the block {}",
            l.len(),
            block.size()
        )));
    }
    let mut passes = plan(padded, block, Triangle::Lower);
    passes.extend(plan(padded, block, Triangle::Upper));
    let planes: Vec<&Texture> = l.iter().collect();
    execute_on_vectors(gpu, padded, &planes, &passes, work)
}
