//! The blocked kernels: beyond the papers' one value per fragment and one pass per column.
//!
//! Matrices live four values per RGBA32F texel in 2×2 blocks ([`crate::layout::Blocks2x2`], the
//! layout of TensorFlow.js's packed WebGL kernels), A and the vectors in runs of four
//! ([`crate::layout::Rows4`]). A fragment reads a 2×2 block with one fetch, so a 2×2 by 2×2
//! product costs eight multiply-adds for two fetches where the papers' kernels pay three fetches
//! for one; and an algorithm takes one pass per block of B columns instead of one per column.
//!
//! * [`cholesky`]: right-looking, per step a diagonal-block factorization, a panel solve and one
//!   rank-B update drawn as the oversized triangle over 2×2 blocks.
//! * [`assemble`]: C = A·D²·Aᵀ with one fragment per 2×2 block of C accumulating b columns of A
//!   per pass (b = n: a single pass, the 2008 paper's rectangular assembly of Fig. 10).
//! * [`substitute`]: blocked forward and back substitution on vec4 vectors.

pub mod assemble;
pub mod cholesky;
pub mod substitute;

use crate::layout::Blocks2x2;

/// The block size B of the blocked Cholesky and substitution (B columns per step, B/2 texels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Block {
    /// 8 columns per step (4 texels).
    B8,
    /// 16 columns per step (8 texels).
    B16,
    /// 32 columns per step (16 texels).
    B32,
}

impl Block {
    /// Every block size, smallest first.
    pub const ALL: [Block; 3] = [Block::B8, Block::B16, Block::B32];

    /// B, in matrix columns.
    pub const fn size(self) -> usize {
        match self {
            Block::B8 => 8,
            Block::B16 => 16,
            Block::B32 => 32,
        }
    }

    /// The `BLOCK` define of the kernels.
    pub const fn define(self) -> &'static [&'static str] {
        match self {
            Block::B8 => &["BLOCK 8"],
            Block::B16 => &["BLOCK 16"],
            Block::B32 => &["BLOCK 32"],
        }
    }

    /// The define with the tiny-pivot treatment of the interior-point normal equations.
    pub const fn tiny_pivot_defines(self) -> &'static [&'static str] {
        match self {
            Block::B8 => &["BLOCK 8", "TINY_PIVOT"],
            Block::B16 => &["BLOCK 16", "TINY_PIVOT"],
            Block::B32 => &["BLOCK 32", "TINY_PIVOT"],
        }
    }

    /// The storage of an m×m matrix factored with this block: padded to a multiple of B with the
    /// identity on the padded diagonal.
    pub fn layout(self, m: usize) -> Blocks2x2 {
        Blocks2x2::square(m, self.size())
    }
}
