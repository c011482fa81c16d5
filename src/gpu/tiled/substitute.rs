//! Forward and back substitution with a factor in 4×4 tiles (four planes), on vectors of four
//! entries per texel padded to the factor's order M: vector texel t is tile row t. One pass per
//! block of B entries (M/B passes per triangular solve, each over the M/4 texels of the vector),
//! as [`crate::gpu::blocked::substitute`]; a fragment reads the factor a tile (four fetches) at a
//! time.

use crate::geometry::blocks::rect;
use crate::gl::{Gpu, PingPong, Texture};
use crate::gpu::blocked::substitute::Triangle;
use crate::gpu::blocked::Block;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute, PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::Tiles;

/// The passes of one triangular solve of order M (a multiple of B); the factor's planes are
/// `Aux(0..4)`.
pub fn plan(padded: usize, block: Block, which: Triangle) -> Vec<PlannedPass> {
    let b = block.size();
    let texels = (padded / 4) as u32;
    let steps = padded.div_ceil(b);
    let (kernel, order): (_, Vec<usize>) = match which {
        Triangle::Lower => (&kernels::TILE_FORWARD, (0..steps).collect()),
        Triangle::Upper => (&kernels::TILE_BACKWARD, (0..steps).rev().collect()),
    };
    let sources = [Role::S, Role::Aux(0), Role::Aux(1), Role::Aux(2), Role::Aux(3)];
    order
        .into_iter()
        .map(|p| {
            PlannedPass::new(PassKind::SubstituteTiles, kernel, Role::T, &sources, rect(0, 0, texels, 1), p as u32)
                .defines(block.define())
                .uniform("offset", (p * b / 4) as f32)
                .then_swap()
        })
        .collect()
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
    if work.source().width() as usize != padded / 4 || work.target().width() as usize != padded / 4 {
        return Err(GpuError::Shape(format!(
            "substitution vectors {:?} for a factor of order {padded}",
            work.source()
        )));
    }
    let mut passes = plan(padded, block, Triangle::Lower);
    passes.extend(plan(padded, block, Triangle::Upper));
    let aux: Vec<&Texture> = l.iter().collect();
    execute(gpu, work, &aux, &passes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn one_pass_per_block_over_the_whole_vector() {
        for block in Block::ALL {
            for padded in [block.size(), 3 * block.size(), 64] {
                if !padded.is_multiple_of(block.size()) {
                    continue;
                }
                let p = plan(padded, block, Triangle::Lower);
                assert_eq!(p.len(), padded / block.size());
                let f = predicted_fragments(&p, (padded / 4) as u32, 1).expect("no centre on an edge");
                assert_eq!(f["substitute_tiles"], (p.len() * padded / 4) as u64);
                let back = plan(padded, block, Triangle::Upper);
                assert_eq!(back.first().map(|q| q.step), Some((padded / block.size() - 1) as u32));
                assert_eq!(back.last().map(|q| q.step), Some(0));
            }
        }
    }
}
