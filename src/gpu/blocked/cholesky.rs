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
use crate::gl::{Gpu, Kernel, Pass, PingPong, TexelFormat, Texture};
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
    let mb = (block.layout(m).padded_rows / 2) as u32;
    BLOCKS.plan(mb, (block.size() / 2) as u32, block, tiny)
}

/// Fragments of each pass kind of [`plan`] by formula (what the occlusion queries must count).
pub fn fragments(m: usize, block: Block) -> [(PassKind, u64); 3] {
    let mb = (block.layout(m).padded_rows / 2) as u64;
    BLOCKS.fragments(mb, (block.size() / 2) as u64)
}

/// The factorization on 2×2 blocks: one texture per matrix.
const BLOCKS: RightLooking = RightLooking {
    steps: [
        (PassKind::BlockDiagonal, &kernels::CHOL_BLOCK_DIAG),
        (PassKind::BlockPanel, &kernels::CHOL_BLOCK_PANEL),
        (PassKind::BlockUpdate, &kernels::CHOL_BLOCK_UPDATE),
    ],
    s: &[Role::S],
    t: &[Role::T],
    l: &[L],
    d: &[D],
    original_diagonal: ORIGINAL_DIAGONAL,
};

/// A right-looking factorization on RGBA texels, as data: the pass kind and kernel of its
/// diagonal-block, panel and update steps, and the roles of its matrices (one per plane: S, T,
/// the factor L, the diagonal block D) and of the original diagonal (tiny pivots only). The 2×2
/// blocks and the 4×4 tiles share its passes and their fragment counts.
pub(crate) struct RightLooking {
    pub steps: [(PassKind, &'static Kernel); 3],
    pub s: &'static [Role],
    pub t: &'static [Role],
    pub l: &'static [Role],
    pub d: &'static [Role],
    pub original_diagonal: Role,
}

impl RightLooking {
    /// The passes over a matrix of `units` texels a side, `per_step` texels (B columns) per
    /// step. Per step: D ← the factor of the diagonal block of S; L's block column ← the panel
    /// (reads S and D); T ← S − L21·L21ᵀ over the trailing lower triangle (the oversized
    /// triangle of Fig. 5), then S and T swap.
    pub fn plan(&self, units: u32, per_step: u32, block: Block, tiny: Option<f32>) -> Vec<PlannedPass> {
        let [(diag_kind, diag_kernel), (panel_kind, panel_kernel), (update_kind, update_kernel)] = self.steps;
        let concat = |a: &[Role], b: &[Role]| -> Vec<Role> { a.iter().chain(b).copied().collect() };
        let mut diag_sources = self.s.to_vec();
        let diag_defines = match tiny {
            Some(_) => {
                diag_sources.push(self.original_diagonal);
                block.tiny_pivot_defines()
            }
            None => block.define(),
        };
        let steps = units / per_step;
        let mut passes = Vec::with_capacity(3 * steps as usize);
        for p in 0..steps {
            let at = p * per_step;
            let square = rect(0, 0, per_step, per_step);
            let mut diag = PlannedPass::new(diag_kind, diag_kernel, self.d[0], &diag_sources, square, p)
                .more_targets(&self.d[1..])
                .defines(diag_defines);
            if let Some(t) = tiny {
                diag = diag.uniform("tiny", t);
            }
            passes.push(diag.uniform("offset", at as f32));
            let panel = rect(at, at, at + per_step, units);
            passes.push(
                PlannedPass::new(panel_kind, panel_kernel, self.l[0], &concat(self.s, self.d), panel, p)
                    .more_targets(&self.l[1..])
                    .defines(block.define())
                    .uniform("offset", at as f32),
            );
            if at + per_step < units {
                let trailing = lower_triangle(at + per_step, units);
                passes.push(
                    PlannedPass::new(update_kind, update_kernel, self.t[0], &concat(self.s, self.l), trailing, p)
                        .more_targets(&self.t[1..])
                        .defines(block.define())
                        .uniform("offset", at as f32)
                        .then_swap(),
                );
            }
        }
        passes
    }

    /// Fragments of each pass kind of [`Self::plan`] by formula: per step P = p·`per_step`,
    /// `per_step`² + `per_step`·(units − P) + k(k+1)/2 with k = units − P − `per_step`.
    pub fn fragments(&self, units: u64, per_step: u64) -> [(PassKind, u64); 3] {
        let (mut diag, mut panel, mut update) = (0, 0, 0);
        for p in 0..units / per_step {
            let at = p * per_step;
            diag += per_step * per_step;
            panel += per_step * (units - at);
            let k = units - at - per_step;
            update += k * (k + 1) / 2;
        }
        let [(diag_kind, _), (panel_kind, _), (update_kind, _)] = self.steps;
        [(diag_kind, diag), (panel_kind, panel), (update_kind, update)]
    }
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

    /// Bytes of the RGBA32F textures [`BlockedWork::new`] makes: S, T and L ((M/2)² texels each)
    /// and the diagonal block ((B/2)² texels).
    pub fn texture_bytes(m: usize, block: Block) -> u64 {
        let (w, h) = block.layout(m).texture_size();
        let nb = block.size() / 2;
        16 * (3 * w * h + nb * nb) as u64
    }

    /// Uploads the lower triangle of the row-major m×m matrix `c` into S (padded with the
    /// identity). Non-finite entries of the lower triangle are refused with their position.
    pub fn upload(&self, gpu: &Gpu, c: &[f32]) -> GpuResult<()> {
        let lower = checked_lower(c, self.m)?;
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
    zero_upper(&mut l, work.m);
    Ok(l)
}

/// Zeroes the strict upper part of a row-major order-m matrix.
pub(crate) fn zero_upper(l: &mut [f32], m: usize) {
    for i in 0..m {
        l[i * m + i + 1..(i + 1) * m].fill(0.0);
    }
}

/// Refuses a row-major matrix to factor that is not m×m or whose lower triangle holds a
/// non-finite entry (the first, by rows, is named): the check of every factorization's upload,
/// the papers' ([`crate::gpu::cholesky::factor_with`]) and both RGBA designs'.
pub(crate) fn check_lower(c: &[f32], m: usize) -> GpuResult<()> {
    if c.len() != m * m {
        return Err(GpuError::Shape(format!("{} values given for a {m}×{m} matrix", c.len())));
    }
    for i in 0..m {
        for j in 0..=i {
            let v = c[i * m + j];
            if !v.is_finite() {
                return Err(GpuError::NonFinite {
                    what: "the matrix to factor".into(),
                    row: i,
                    col: j,
                    value: v as f64,
                });
            }
        }
    }
    Ok(())
}

/// The lower triangle of the row-major m×m matrix `c` (the strict upper part zeroed), as the
/// blocked and tiled factorizations upload it, after [`check_lower`].
pub(crate) fn checked_lower(c: &[f32], m: usize) -> GpuResult<Vec<f32>> {
    check_lower(c, m)?;
    let mut lower = c.to_vec();
    zero_upper(&mut lower, m);
    Ok(lower)
}

/// Checks a factorization's plans for every block and orders m around it: `of(block, m)` gives
/// the plan, the texels of a side of the matrix and the fragments its formulas predict; the plan
/// must shade those, in 3·steps − 1 passes (B/`per_texel` texels per step), none reading a
/// texture it writes.
#[cfg(test)]
pub(crate) fn check_plans_around_the_block(
    per_texel: usize,
    of: impl Fn(Block, usize) -> (Vec<PlannedPass>, u32, [(PassKind, u64); 3]),
) {
    for block in Block::ALL {
        let b = block.size();
        for m in [1, 2, 3, 5, b - 1, b, b + 1, 2 * b + 3, 5 * b - 1] {
            let (p, side, formulas) = of(block, m);
            let got = crate::gpu::plan::predicted_fragments(&p, side, side).expect("no centre on an edge");
            for (kind, n) in formulas {
                assert_eq!(got.get(kind.name()).copied().unwrap_or(0), n, "{kind:?} m={m} B={b}");
            }
            let steps = side as usize / (b / per_texel);
            assert_eq!(p.len(), 3 * steps - 1, "m={m} B={b}");
            for q in &p {
                assert!(!q.targets().any(|t| q.sources.contains(&t)), "{} reads its target", q.name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_shade_what_the_formulas_say_for_sizes_around_the_block() {
        check_plans_around_the_block(2, |block, m| {
            (plan(m, block, None), (block.layout(m).padded_rows / 2) as u32, fragments(m, block))
        });
    }
}
