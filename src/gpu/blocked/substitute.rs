//! Blocked forward and back substitution with a factor in 2×2 blocks, on vectors of four entries
//! per texel padded to the factor's size M. One pass per block of B entries (M/B passes per
//! triangular solve, each over the M/4 texels of the vector): the block's triangle is solved by
//! every fragment that needs it, so the update of the rest needs no pass of its own.

use super::Block;
use crate::geometry::blocks::rect;
use crate::gl::{Gpu, Kernel, PingPong, Texture};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute, PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::Blocks2x2;

/// Direction of a triangular solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Triangle {
    /// L·y = r, first block first.
    Lower,
    /// Lᵀ·x = y, last block first.
    Upper,
}

/// The passes of one triangular solve of order M (padded, a multiple of B); the factor is `Aux(0)`.
pub fn plan(padded: usize, block: Block, which: Triangle) -> Vec<PlannedPass> {
    let kernels = [&kernels::SUBST_FORWARD_BLOCK, &kernels::SUBST_BACKWARD_BLOCK];
    plan_with(padded, block, which, PassKind::SubstituteBlock, kernels, &[Role::S, Role::Aux(0)])
}

/// The passes of one triangular solve of order M (a multiple of B) for either design: one pass
/// of `kind` per block of B entries, each over the M/4 texels of the vector — `forward` from
/// the first block for L, `backward` from the last for Lᵀ — reading `sources` (S, then the
/// factor's roles).
pub(crate) fn plan_with(
    padded: usize,
    block: Block,
    which: Triangle,
    kind: PassKind,
    [forward, backward]: [&'static Kernel; 2],
    sources: &[Role],
) -> Vec<PlannedPass> {
    let b = block.size();
    let texels = (padded / 4) as u32;
    let steps = padded.div_ceil(b);
    let (kernel, order): (_, Vec<usize>) = match which {
        Triangle::Lower => (forward, (0..steps).collect()),
        Triangle::Upper => (backward, (0..steps).rev().collect()),
    };
    order
        .into_iter()
        .map(|p| {
            PlannedPass::new(kind, kernel, Role::T, sources, rect(0, 0, texels, 1), p as u32)
                .defines(block.define())
                .uniform("offset", (p * b / 4) as f32)
                .then_swap()
        })
        .collect()
}

/// Solves L·Lᵀ·x = r for the factor `l` (in `layout`, padded to a multiple of `block`): `work`'s
/// source holds r (M/4 texels, zero beyond m) on entry and x on return.
pub fn solve(gpu: &Gpu, l: &Texture, layout: &Blocks2x2, block: Block, work: &mut PingPong) -> GpuResult<()> {
    let padded = layout.padded_rows;
    if !padded.is_multiple_of(block.size()) {
        return Err(GpuError::Shape(format!(
            "a factor of order {padded} is not a multiple of the block {}",
            block.size()
        )));
    }
    let mut passes = plan(padded, block, Triangle::Lower);
    passes.extend(plan(padded, block, Triangle::Upper));
    execute_on_vectors(gpu, padded, &[l], &passes, work)
}

/// Runs the passes of both triangular solves with the factor's textures on `work`, whose
/// vectors must have the M/4 texels of a factor of order M = `padded`.
pub(crate) fn execute_on_vectors(
    gpu: &Gpu,
    padded: usize,
    factor: &[&Texture],
    passes: &[PlannedPass],
    work: &mut PingPong,
) -> GpuResult<()> {
    if work.source().width() as usize != padded / 4 || work.target().width() as usize != padded / 4 {
        return Err(GpuError::Shape(format!(
            "substitution vectors {:?} for a factor of order {padded}",
            work.source()
        )));
    }
    execute(gpu, work, factor, passes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn one_pass_per_block_over_the_whole_vector_in_both_designs() {
        type Plan = fn(usize, Block, Triangle) -> Vec<PlannedPass>;
        let designs: [(Plan, &str); 2] =
            [(plan, "substitute_block"), (crate::gpu::tiled::substitute::plan, "substitute_tiles")];
        for (plan, kind) in designs {
            for block in Block::ALL {
                for padded in [block.size(), 3 * block.size(), 32, 64] {
                    if !padded.is_multiple_of(block.size()) {
                        continue;
                    }
                    let p = plan(padded, block, Triangle::Lower);
                    assert_eq!(p.len(), padded / block.size());
                    let f = predicted_fragments(&p, (padded / 4) as u32, 1).expect("no centre on an edge");
                    assert_eq!(f[kind], (p.len() * padded / 4) as u64);
                    let back = plan(padded, block, Triangle::Upper);
                    assert_eq!(back.first().map(|q| q.step), Some((padded / block.size() - 1) as u32));
                    assert_eq!(back.last().map(|q| q.step), Some(0));
                }
            }
        }
    }
}
