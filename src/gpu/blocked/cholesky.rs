//! Blocked right-looking Cholesky on 2×2 blocks (LAPACK's `dpotrf` shape, in passes).
//!
//! The m×m matrix is padded to M, a multiple of B, with the identity (its factor is the factor of
//! the matrix bordered by the identity), and stored as M/2 × M/2 RGBA texels. Per step p, with
//! P = p·B/2 the first texel column of the step's block column:
//!
//! 1. `block_diagonal`: D ← the factor L11 of the B×B diagonal block of S (B/2 × B/2 texels);
//! 2. `block_panel`: L[column block p] ← L11 over L21 = A21·L11⁻ᵀ (reads S and D);
//! 3. `block_update`: T ← S − L21·L21ᵀ over the trailing lower triangle of blocks (reads S and
//!    L), the oversized triangle of Fig. 5 one block per fragment; then S and T swap.
//!
//! The factor accumulates in its own texture L (`Aux(0)`), which no pass both reads and writes;
//! S/T hold only the shrinking trailing matrix. Passes: 3·M/B − 1. Fragments: per step
//! (B/2)² + (B/2)·(M/2 − P) + k(k+1)/2 with k = M/2 − P − B/2.

use super::Block;
use crate::geometry::blocks::{lower_triangle, rect};
use crate::gl::{Gpu, Pass, PingPong, TexelFormat, Texture};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute, PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::Blocks2x2;

/// The factor's texture role in the plan.
pub const L: Role = Role::Aux(0);
/// The diagonal block's texture role.
pub const D: Role = Role::Aux(1);
/// The original diagonal's role (tiny pivots only).
pub const ORIGINAL_DIAGONAL: Role = Role::Aux(2);

/// The passes factoring the m×m matrix held (padded, in 2×2 blocks) in S. `tiny`: the
/// interior-point tiny-pivot treatment with its threshold (the original diagonal in `Aux(2)`).
pub fn plan(m: usize, block: Block, tiny: Option<f32>) -> Vec<PlannedPass> {
    let layout = block.layout(m);
    let mb = (layout.padded_rows / 2) as u32;
    let nb = (block.size() / 2) as u32;
    let steps = mb / nb;
    let mut passes = Vec::with_capacity(3 * steps as usize);
    for p in 0..steps {
        let at = p * nb;
        let diag = match tiny {
            None => PlannedPass::new(
                PassKind::BlockDiagonal,
                &kernels::CHOL_BLOCK_DIAG,
                D,
                &[Role::S],
                rect(0, 0, nb, nb),
                p,
            )
            .defines(block.define()),
            Some(t) => PlannedPass::new(
                PassKind::BlockDiagonal,
                &kernels::CHOL_BLOCK_DIAG,
                D,
                &[Role::S, ORIGINAL_DIAGONAL],
                rect(0, 0, nb, nb),
                p,
            )
            .defines(block.tiny_pivot_defines())
            .uniform("tiny", t),
        };
        passes.push(diag.uniform("offset", at as f32));
        passes.push(
            PlannedPass::new(
                PassKind::BlockPanel,
                &kernels::CHOL_BLOCK_PANEL,
                L,
                &[Role::S, D],
                rect(at, at, at + nb, mb),
                p,
            )
            .defines(block.define())
            .uniform("offset", at as f32),
        );
        if at + nb < mb {
            passes.push(
                PlannedPass::new(
                    PassKind::BlockUpdate,
                    &kernels::CHOL_BLOCK_UPDATE,
                    Role::T,
                    &[Role::S, L],
                    lower_triangle(at + nb, mb),
                    p,
                )
                .defines(block.define())
                .uniform("offset", at as f32)
                .then_swap(),
            );
        }
    }
    passes
}

/// Fragments of each pass kind of [`plan`] by formula (what the occlusion queries must count).
pub fn fragments(m: usize, block: Block) -> [(PassKind, u64); 3] {
    let mb = (block.layout(m).padded_rows / 2) as u64;
    let nb = (block.size() / 2) as u64;
    let (mut diag, mut panel, mut update) = (0, 0, 0);
    for p in 0..mb / nb {
        let at = p * nb;
        diag += nb * nb;
        panel += nb * (mb - at);
        let k = mb - at - nb;
        update += k * (k + 1) / 2;
    }
    [(PassKind::BlockDiagonal, diag), (PassKind::BlockPanel, panel), (PassKind::BlockUpdate, update)]
}

/// The textures of one blocked factorization: the trailing matrix's ping-pong pair (S holds the
/// matrix to factor), the factor L and the diagonal block D. Kept for reuse between
/// factorizations of the same size.
pub struct BlockedWork {
    pub m: usize,
    pub block: Block,
    pub layout: Blocks2x2,
    pub pp: PingPong,
    pub l: Texture,
    pub d: Texture,
}

impl BlockedWork {
    /// Textures for an m×m factorization (L cleared: its strict upper blocks are never written).
    pub fn new(gpu: &Gpu, m: usize, block: Block) -> GpuResult<Self> {
        if m == 0 {
            return Err(GpuError::Shape("a 0×0 matrix has no factor".into()));
        }
        let layout = block.layout(m);
        let (w, h) = layout.texture_size();
        let what = format!("the blocked Cholesky of an {m}×{m} matrix");
        let tex = |w, h| gpu.texture_of(TexelFormat::Rgba32F, w, h, &what);
        let pp = PingPong::new(tex(w, h)?, tex(w, h)?);
        let l = tex(w, h)?;
        let nb = block.size() / 2;
        let d = tex(nb, nb)?;
        let clear =
            Pass::new("clear", &kernels::FILL4, &l, &[], rect(0, 0, w as u32, h as u32)).uniforms(&[("value", 0.0)]);
        gpu.run(&clear)?;
        Ok(Self { m, block, layout, pp, l, d })
    }

    /// Uploads the lower triangle of the row-major m×m matrix `c` into S (padded with the
    /// identity). Non-finite entries of the lower triangle are refused with their position.
    pub fn upload(&self, gpu: &Gpu, c: &[f32]) -> GpuResult<()> {
        let m = self.m;
        if c.len() != m * m {
            return Err(GpuError::Shape(format!("{} values given for a {m}×{m} matrix", c.len())));
        }
        let mut lower = c.to_vec();
        for i in 0..m {
            for j in 0..m {
                let v = c[i * m + j];
                if j > i {
                    lower[i * m + j] = 0.0;
                } else if !v.is_finite() {
                    return Err(GpuError::NonFinite {
                        what: "the matrix to factor".into(),
                        row: i,
                        col: j,
                        value: v as f64,
                    });
                }
            }
        }
        gpu.write(self.pp.source(), &self.layout.pack(&lower, 1.0))?;
        Ok(())
    }

    /// Runs the factorization of the matrix in S; L then holds the factor.
    pub fn factor(&mut self, gpu: &Gpu, tiny: Option<(f32, &Texture)>) -> GpuResult<()> {
        let passes = plan(self.m, self.block, tiny.map(|(t, _)| t));
        match tiny {
            None => execute(gpu, &mut self.pp, &[&self.l, &self.d], &passes),
            Some((_, original)) => execute(gpu, &mut self.pp, &[&self.l, &self.d, original], &passes),
        }?;
        Ok(())
    }
}

/// The diagonal of a matrix in 2×2 blocks, gathered into `out` (a vec4 vector of M/4 texels).
pub fn gather_diagonal(gpu: &Gpu, matrix: &Texture, out: &Texture) -> GpuResult<()> {
    let sources = [matrix];
    gpu.run(&Pass::new("gather_diagonal", &kernels::GATHER_DIAGONAL4, out, &sources, rect(0, 0, out.width(), 1)))?;
    Ok(())
}

/// Reads L back: row-major m×m with the strict upper part zero.
pub fn read_lower(gpu: &Gpu, work: &BlockedWork) -> GpuResult<Vec<f32>> {
    let mut l = work.layout.unpack(&gpu.read(&work.l)?);
    let m = work.m;
    for i in 0..m {
        for j in i + 1..m {
            l[i * m + j] = 0.0;
        }
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn plans_shade_what_the_formulas_say_for_sizes_around_the_block() {
        for block in Block::ALL {
            let b = block.size();
            for m in [1, 2, 3, b - 1, b, b + 1, 2 * b + 3, 5 * b - 1] {
                let mb = (block.layout(m).padded_rows / 2) as u32;
                let p = plan(m, block, None);
                let got = predicted_fragments(&p, mb, mb).expect("no centre on an edge");
                for (kind, n) in fragments(m, block) {
                    assert_eq!(got.get(kind.name()).copied().unwrap_or(0), n, "{kind:?} m={m} B={b}");
                }
                let steps = mb as usize / (b / 2);
                assert_eq!(p.len(), 3 * steps - 1, "m={m} B={b}");
                for q in &p {
                    assert!(!q.sources.contains(&q.target), "{} reads its target", q.name);
                }
            }
        }
    }
}
