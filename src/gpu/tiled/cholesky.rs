//! Blocked right-looking Cholesky on 4×4 register tiles (four planes).
//!
//! The m×m matrix is padded to M, a multiple of B, with the identity, and held as four planes of
//! M/4 × M/4 RGBA texels ([`crate::layout::Tiles`]). Per step p, with P = p·B/4 the first tile
//! column of the step's block column and NT = B/4:
//!
//! 1. `tile_diagonal`: D ← the factor L11 of the B×B diagonal block of S (NT × NT tiles, four
//!    planes), every fragment refactoring the block in registers;
//! 2. `tile_panel`: L[tile column block p] ← L11 over L21 = A21·L11⁻ᵀ (reads S and D);
//! 3. `tile_update`: T ← S − L21·L21ᵀ over the trailing lower triangle of tiles (reads S and L),
//!    the oversized triangle of Fig. 5 one tile per fragment; then S and T swap.
//!
//! The same shape as [`crate::gpu::blocked::cholesky`], a tile of 4×4 where that has a block of
//! 2×2: passes 3·M/B − 1; fragments per step NT² + NT·(M/4 − P) + k(k+1)/2, k = M/4 − P − NT.
//! Fetches per multiply-add of the update: (4 + 8·NT)/(64·NT) — 17/128 at B = 16, the blocked
//! kernel's (1 + 2·B/2)/(8·B/2) = 17/64.

use crate::geometry::blocks::rect;
use crate::gl::{Gpu, Pass, PingPong, TexelFormat, Texture};
use crate::gpu::blocked::cholesky::{checked_lower, zero_upper, RightLooking};
use crate::gpu::blocked::Block;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute_planes, PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::Tiles;

use super::FACTOR_TILE;

/// Planes of every tiled matrix of the factorization.
pub const PLANES: usize = FACTOR_TILE.planes();
/// The factor's planes: `Aux(0..4)`.
pub const L: [Role; PLANES] = [Role::Aux(0), Role::Aux(1), Role::Aux(2), Role::Aux(3)];
/// The diagonal block's planes: `Aux(4..8)`.
pub const D: [Role; PLANES] = [Role::Aux(4), Role::Aux(5), Role::Aux(6), Role::Aux(7)];
/// The original diagonal (tiny pivots only): `Aux(8)`.
pub const ORIGINAL_DIAGONAL: Role = Role::Aux(8);
const S: [Role; PLANES] = [Role::SPlane(0), Role::SPlane(1), Role::SPlane(2), Role::SPlane(3)];
const T: [Role; PLANES] = [Role::TPlane(0), Role::TPlane(1), Role::TPlane(2), Role::TPlane(3)];

/// The passes factoring the matrix of order `padded` (a multiple of B and 4) held in the planes
/// of S. `tiny`: the interior-point tiny-pivot treatment with its threshold.
pub fn plan(padded: usize, block: Block, tiny: Option<f32>) -> Vec<PlannedPass> {
    TILES.plan((padded / 4) as u32, (block.size() / 4) as u32, block, tiny)
}

/// Fragments of each pass kind of [`plan`] by formula (what the occlusion queries must count).
pub fn fragments(padded: usize, block: Block) -> [(PassKind, u64); 3] {
    TILES.fragments((padded / 4) as u64, (block.size() / 4) as u64)
}

/// The factorization on 4×4 tiles: four planes per matrix, every pass writing all four.
const TILES: RightLooking = RightLooking {
    steps: [
        (PassKind::TileDiagonal, &kernels::TILE_DIAG),
        (PassKind::TilePanel, &kernels::TILE_PANEL),
        (PassKind::TileUpdate, &kernels::TILE_UPDATE),
    ],
    s: &S,
    t: &T,
    l: &L,
    d: &D,
    original_diagonal: ORIGINAL_DIAGONAL,
};

/// Texture fetches per multiply-add of the update kernel (its dominant cost): its own tile (four
/// fetches) once, and per tile column of the panel eight fetches for 64 multiply-adds.
pub fn update_fetches_per_madd(block: Block) -> f64 {
    let nt = (block.size() / 4) as f64;
    (4.0 + 8.0 * nt) / (64.0 * nt)
}

/// `count` planes of `w × h` RGBA texels.
pub fn planes(gpu: &Gpu, count: usize, (w, h): (usize, usize), what: &str) -> GpuResult<Vec<Texture>> {
    (0..count).map(|_| Ok(gpu.texture_of(TexelFormat::Rgba32F, w, h, what)?)).collect()
}

/// The textures of one tiled factorization: the trailing matrix's planes as ping-pong pairs (S
/// holds the matrix to factor), the factor L and the diagonal block D, four planes each. Kept
/// for reuse between factorizations of the same size.
pub struct TiledWork {
    pub m: usize,
    pub block: Block,
    pub layout: Tiles,
    pub pp: Vec<PingPong>,
    pub l: Vec<Texture>,
    pub d: Vec<Texture>,
}

impl TiledWork {
    /// Textures for an m×m factorization in `layout` (L cleared: its strict upper tiles are
    /// never written).
    pub fn new(gpu: &Gpu, layout: Tiles, block: Block) -> GpuResult<Self> {
        if layout.order == 0 {
            return Err(GpuError::Shape("a 0×0 matrix has no factor".into()));
        }
        if layout.shape != FACTOR_TILE || !layout.padded.is_multiple_of(block.size()) {
            return Err(GpuError::Shape(format!(
                "a factor in {} tiles of order {} for the block {}",
                layout.shape.name(),
                layout.padded,
                block.size()
            )));
        }
        let size = layout.plane_size();
        gpu.check_size(size.0, size.1, "a plane of the tiled Cholesky")?;
        let what = format!("the tiled Cholesky of an {0}×{0} matrix", layout.order);
        let pp = planes(gpu, PLANES, size, &what)?
            .into_iter()
            .zip(planes(gpu, PLANES, size, &what)?)
            .map(|(s, t)| PingPong::new(s, t))
            .collect();
        let l = planes(gpu, PLANES, size, &what)?;
        let nt = block.size() / 4;
        let d = planes(gpu, PLANES, (nt, nt), &what)?;
        for t in &l {
            let clear = Pass::new("clear", &kernels::FILL4, t, &[], rect(0, 0, size.0 as u32, size.1 as u32))
                .uniforms(&[("value", 0.0)]);
            gpu.run(&clear)?;
        }
        Ok(Self { m: layout.order, block, layout, pp, l, d })
    }

    /// Bytes of the RGBA32F textures [`TiledWork::new`] makes for `layout`: S, T and L (four
    /// planes of (M/4)² texels each) and the diagonal block (four planes of (B/4)² texels).
    pub fn texture_bytes(layout: &Tiles, block: Block) -> u64 {
        let (w, h) = layout.plane_size();
        let nt = block.size() / 4;
        16 * (3 * PLANES * w * h + PLANES * nt * nt) as u64
    }

    /// Uploads the lower triangle of the row-major m×m matrix `c` into S (padded with the
    /// identity). Non-finite entries of the lower triangle are refused with their position.
    pub fn upload(&self, gpu: &Gpu, c: &[f32]) -> GpuResult<()> {
        let lower = checked_lower(c, self.m)?;
        for (pp, data) in self.pp.iter().zip(self.layout.pack(&lower, 1.0)) {
            gpu.write(pp.source(), &data)?;
        }
        Ok(())
    }

    /// Runs the factorization of the matrix in S; L then holds the factor. With `tiny`, the
    /// tiny-pivot threshold and the original diagonal (M/4 texels, four per texel).
    pub fn factor(&mut self, gpu: &Gpu, tiny: Option<(f32, &Texture)>) -> GpuResult<()> {
        let passes = plan(self.layout.padded, self.block, tiny.map(|(t, _)| t));
        let mut aux: Vec<&Texture> = self.l.iter().chain(&self.d).collect();
        if let Some((_, original)) = tiny {
            aux.push(original);
        }
        execute_planes(gpu, &mut self.pp, &aux, &passes)?;
        Ok(())
    }

    /// The source planes (the matrix to factor, before [`TiledWork::factor`]).
    pub fn source(&self) -> Vec<&Texture> {
        self.pp.iter().map(PingPong::source).collect()
    }
}

/// The diagonal of a matrix in 4×4 tiles, gathered into `out` (a vec4 vector of M/4 texels).
pub fn gather_diagonal(gpu: &Gpu, planes: &[&Texture], out: &Texture) -> GpuResult<()> {
    if planes.len() != PLANES {
        return Err(GpuError::Shape(format!("{} planes for a matrix in 4×4 tiles", planes.len())));
    }
    let sources = [planes[0], planes[3]];
    gpu.run(&Pass::new("gather_diagonal", &kernels::TILE_GATHER_DIAGONAL, out, &sources, rect(0, 0, out.width(), 1)))?;
    Ok(())
}

/// Reads a factor in 4×4 tiles back: row-major m×m with the strict upper part zero.
pub fn read_lower(gpu: &Gpu, layout: &Tiles, l: &[Texture]) -> GpuResult<Vec<f32>> {
    let planes = l.iter().map(|t| gpu.read(t)).collect::<Result<Vec<_>, _>>()?;
    let mut out = layout.unpack(&planes);
    zero_upper(&mut out, layout.order);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_shade_what_the_formulas_say_for_sizes_around_the_block() {
        crate::gpu::blocked::cholesky::check_plans_around_the_block(4, |block, m| {
            let padded = Tiles::square(m, block.size(), FACTOR_TILE).padded;
            let p = plan(padded, block, None);
            assert!(p.iter().all(|q| q.more_targets.len() == PLANES - 1), "every pass writes every plane");
            (p, (padded / 4) as u32, fragments(padded, block))
        });
    }

    #[test]
    fn the_update_halves_the_blocked_kernels_panel_fetches_per_multiply_add() {
        for block in Block::ALL {
            // The blocked update: its own 2×2 block once, two blocks per eight multiply-adds, B/2
            // times; the tiled one: its own texel once, one texel of each panel per eight, B/2
            // times — half the panel fetches, so the ratio nears 2 as B grows.
            let nb = (block.size() / 2) as f64;
            let blocked = (1.0 + 2.0 * nb) / (8.0 * nb);
            let tiled = update_fetches_per_madd(block);
            let expected = (1.0 + nb) / (8.0 * nb);
            assert!((tiled - expected).abs() < 1e-12, "B = {}: {tiled} against {expected}", block.size());
            assert!(blocked / tiled >= 1.75, "B = {}: {blocked} against {tiled}", block.size());
        }
    }
}
