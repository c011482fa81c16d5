//! Register tiles: the blocked kernels with more output per fragment. A fragment computes a
//! ROWS × COLS tile (4×4, or 8×4 where it pays) and writes its 2×2 blocks to several RGBA targets
//! at once (multiple render targets; OpenGL 3.3 guarantees eight draw buffers, OpenGL ES 3.0 and
//! WebGL2 four), so each fetched texel serves more multiply-adds. Matrices live in planes
//! ([`crate::layout::Tiles`]): the factor and the matrix it is made from in 4×4 tiles (four
//! planes), the assembly's output in 4×4 or 8×4 tiles ([`TilePlan`]).
//!
//! * [`assemble`]: C = A·D²·Aᵀ, one tile per fragment (8×4 tiles then re-tiled to 4×4).
//! * [`cholesky`]: the blocked right-looking Cholesky on 4×4 tiles: diagonal block, panel and
//!   rank-B update, each tile by one fragment.
//! * [`substitute`]: forward and back substitution with the tiled factor.

pub mod assemble;
pub mod cholesky;
pub mod substitute;

use crate::gl::GpuInfo;
use crate::gpu::blocked::Block;
use crate::layout::{TileShape, Tiles};

/// The tile of the factorization and the substitutions (and of the matrix they read).
pub const FACTOR_TILE: TileShape = TileShape::T4X4;

/// How the register-tile kernels run on one context: the assembly's tile and the Cholesky's
/// block B (B columns per step, B/4 tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TilePlan {
    pub assembly: TileShape,
    pub block: Block,
}

impl TilePlan {
    /// The plan for a context (its capability record) and block: the 4×4 tiles need four draw
    /// buffers (and eight samplers for the update's two planed sources); the 8×4 assembly tile
    /// eight draw buffers, and is taken where `wide_assembly` says it pays. `Err` says why the
    /// context cannot run register tiles (the caller then falls back to the blocked kernels).
    pub fn for_context(info: &GpuInfo, block: Block, wide_assembly: bool) -> Result<TilePlan, String> {
        let targets = info.max_targets() as usize;
        if targets < FACTOR_TILE.planes() {
            return Err(format!(
                "{targets} draw buffers (GL_MAX_DRAW_BUFFERS {}, GL_MAX_COLOR_ATTACHMENTS {}) < the {} the 4×4 tiles write",
                info.max_draw_buffers,
                info.max_color_attachments,
                FACTOR_TILE.planes()
            ));
        }
        let samplers = 2 * FACTOR_TILE.planes() + 2;
        if (info.max_texture_units as usize) < samplers {
            return Err(format!(
                "{} texture units (GL_MAX_TEXTURE_IMAGE_UNITS) < the {samplers} the tiled kernels sample",
                info.max_texture_units
            ));
        }
        let wide = wide_assembly && targets >= TileShape::T8X4.planes();
        Ok(TilePlan { assembly: if wide { TileShape::T8X4 } else { TileShape::T4X4 }, block })
    }

    /// The plan a context gets by default: the 8×4 assembly tile wherever it fits
    /// (`glsolve bench tiles` measures both; see docs/results.md).
    pub fn default_for(info: &GpuInfo, block: Block) -> Result<TilePlan, String> {
        Self::for_context(info, block, WIDE_ASSEMBLY_PAYS)
    }

    /// The storage of an m×m matrix factored with this plan (padded to a multiple of B and of the
    /// tiles, the identity on the padded diagonal).
    pub fn layout(&self, m: usize) -> Tiles {
        Tiles::square(m, self.block.size().max(self.assembly.rows), FACTOR_TILE)
    }

    /// "4×4 tiles, assembly 8×4, B = 16".
    pub fn describe(&self) -> String {
        format!("4×4 tiles, assembly {} tiles, B = {}", self.assembly.name(), self.block.size())
    }
}

/// Whether the 8×4 assembly tile (and its re-tiling pass) beats the 4×4 one where both fit.
pub const WIDE_ASSEMBLY_PAYS: bool = true;

/// The `glsolve info` line: what the register tiles do on this context, or why they fall back.
pub fn info_line(info: &GpuInfo) -> String {
    match TilePlan::default_for(info, Block::B16) {
        Ok(p) => format!(
            "{} (the tiled-* variants; {} draw buffers)",
            p.describe().replace(", B = 16", ""),
            info.max_targets()
        ),
        Err(why) => format!("not available: {why}; the tiled-* variants fall back to blocked-*"),
    }
}
