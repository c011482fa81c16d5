//! Cholesky factorization in fragment shaders, full format, every variant of the 2006 paper:
//! outer product over the square domain (BrookGPU) or the oversized triangle (Fig. 5), with the
//! indices interpolated as a pair, as one triad, or computed; and the inner-product form (Fig. 4a).
//! Passes follow Algorithm 2 / Algorithm 5: square root, copy back, normalization, copy back,
//! update, swap.

mod factor;
mod plan;

use crate::gpu::blocked::Block;

pub use factor::{
    blocked_diagonal, check_diagonal, factor, factor_normal_equations, factor_textures, factor_with, gather_diagonal,
    read_lower, with_tiny_pivots, Factor, REPLACED_PIVOT,
};
pub use plan::{plan, plan_for, plan_packed};

/// The domain the outer-product update is drawn over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Domain {
    /// One oversized triangle over the trailing lower triangle (Fig. 5): (m−1)m(m+1)/6 fragments.
    Triangle,
    /// The trailing square, as BrookGPU must: (m−1)m(2m−1)/6 fragments.
    Square,
    /// The trailing triangle one column per pass (2006 §3.2, BrookGPU's multipass mimic of a
    /// triangular domain): the triangle's fragments in m−k−1 passes at step k.
    Columns,
}

/// Where the update kernel's neighbour and pivot indices come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum IndexSource {
    /// Two interpolated coordinates T0, T1; the pivot through a `.yx` swizzle (the paper's).
    Pair,
    /// One interpolated triad whose z holds the invariant k (2006 paper Fig. 5c).
    Triad,
    /// The pivot index computed in the shader from the fragment position.
    Computed,
}

/// A Cholesky variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    /// Outer-product form: one update pass per step.
    Outer {
        /// The domain the update is drawn over.
        domain: Domain,
        /// Where the neighbour and pivot indices come from.
        index: IndexSource,
    },
    /// Inner-product form: column k+1 by a dynamic loop over k, one copy per step.
    Inner,
    /// Beyond the papers: right-looking over blocks of B columns on 2×2 blocks per RGBA texel
    /// (`gpu::blocked`).
    Blocked(Block),
    /// The blocked design with register tiles: a 4×4 tile per fragment written to four targets
    /// at once (`gpu::tiled`); on a context with fewer than four draw buffers it runs
    /// as `Blocked` with the same B.
    Tiled(Block),
}

impl Variant {
    /// The 2008 paper's choice: oversized triangle, interpolated and swizzled pair.
    pub const PAPER: Variant = Variant::Outer { domain: Domain::Triangle, index: IndexSource::Pair };

    /// The papers' variants, the 2008 paper's first.
    pub const PAPERS: [Variant; 8] = [
        Variant::PAPER,
        Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad },
        Variant::Outer { domain: Domain::Triangle, index: IndexSource::Computed },
        Variant::Outer { domain: Domain::Square, index: IndexSource::Pair },
        Variant::Outer { domain: Domain::Square, index: IndexSource::Triad },
        Variant::Outer { domain: Domain::Square, index: IndexSource::Computed },
        Variant::Outer { domain: Domain::Columns, index: IndexSource::Pair },
        Variant::Inner,
    ];

    /// The blocked variants (beyond the papers).
    pub const BLOCKED: [Variant; 3] =
        [Variant::Blocked(Block::B8), Variant::Blocked(Block::B16), Variant::Blocked(Block::B32)];

    /// The register-tile variants (beyond the papers).
    pub const TILED: [Variant; 3] = [Variant::Tiled(Block::B8), Variant::Tiled(Block::B16), Variant::Tiled(Block::B32)];

    /// The fastest verified variant on the drivers measured (docs/results.md, "Register
    /// tiles": the LP's gpu and hybrid backends against blocked-16): the default of the LP's
    /// GPU backends. On a context with fewer than four draw buffers it runs as blocked-16.
    pub const FASTEST: Variant = Variant::Tiled(Block::B16);

    /// Every variant, the papers' first, then the blocked and the tiled ones: the one list every
    /// interface (command-line help and parsing, the browser page) is made from.
    pub const ALL: [Variant; 14] = {
        let mut all = [Variant::PAPER; 14];
        let mut i = 0;
        while i < Self::PAPERS.len() {
            all[i] = Self::PAPERS[i];
            i += 1;
        }
        while i < Self::PAPERS.len() + Self::BLOCKED.len() {
            all[i] = Self::BLOCKED[i - Self::PAPERS.len()];
            i += 1;
        }
        while i < all.len() {
            all[i] = Self::TILED[i - Self::PAPERS.len() - Self::BLOCKED.len()];
            i += 1;
        }
        all
    };

    /// Every variant: [`Variant::ALL`] in order.
    pub fn all() -> impl Iterator<Item = Variant> {
        Self::ALL.into_iter()
    }

    /// One line on what the variant is.
    pub fn description(&self) -> &'static str {
        match self {
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Pair } => {
                "outer product over the oversized triangle, indices from an interpolated pair (the 2008 papers')"
            }
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad } => {
                "outer product over the oversized triangle, indices from one interpolated triad (2006 Fig. 5c)"
            }
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Computed } => {
                "outer product over the oversized triangle, the pivot index computed in the shader"
            }
            Variant::Outer { domain: Domain::Square, index: IndexSource::Pair } => {
                "outer product over the trailing square (BrookGPU's domain), interpolated pair"
            }
            Variant::Outer { domain: Domain::Square, index: IndexSource::Triad } => {
                "outer product over the trailing square, one interpolated triad"
            }
            Variant::Outer { domain: Domain::Square, index: IndexSource::Computed } => {
                "outer product over the trailing square, the pivot index computed"
            }
            Variant::Outer { domain: Domain::Columns, .. } => {
                "outer product one column per pass (BrookGPU's multipass triangle)"
            }
            Variant::Inner => "inner-product form, one column per step by a loop (2006 Fig. 4a)",
            Variant::Blocked(Block::B8) => "blocked right-looking, 8 columns per step on 2×2 RGBA blocks",
            Variant::Blocked(Block::B16) => "blocked right-looking, 16 columns per step on 2×2 RGBA blocks",
            Variant::Blocked(Block::B32) => "blocked right-looking, 32 columns per step on 2×2 RGBA blocks",
            Variant::Tiled(Block::B8) => "blocked-8 with 4×4 register tiles written to four targets at once",
            Variant::Tiled(Block::B16) => {
                "blocked-16 with 4×4 register tiles written to four targets at once (the LP's GPU default)"
            }
            Variant::Tiled(Block::B32) => "blocked-32 with 4×4 register tiles written to four targets at once",
        }
    }

    /// Whether this is one of the papers' variants (one value per texel, R32F).
    pub fn is_paper(&self) -> bool {
        !matches!(self, Variant::Blocked(_) | Variant::Tiled(_))
    }

    /// The block size B of a blocked or tiled variant.
    pub fn block(&self) -> Option<Block> {
        match self {
            Variant::Blocked(b) | Variant::Tiled(b) => Some(*b),
            _ => None,
        }
    }

    /// A short name: `triangle-pair`, `square-triad`, `inner`, …
    pub fn name(&self) -> &'static str {
        match self {
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Pair } => "triangle-pair",
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad } => "triangle-triad",
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Computed } => "triangle-computed",
            Variant::Outer { domain: Domain::Square, index: IndexSource::Pair } => "square-pair",
            Variant::Outer { domain: Domain::Square, index: IndexSource::Triad } => "square-triad",
            Variant::Outer { domain: Domain::Square, index: IndexSource::Computed } => "square-computed",
            Variant::Outer { domain: Domain::Columns, .. } => "column-multipass",
            Variant::Inner => "inner",
            Variant::Blocked(Block::B8) => "blocked-8",
            Variant::Blocked(Block::B16) => "blocked-16",
            Variant::Blocked(Block::B32) => "blocked-32",
            Variant::Tiled(Block::B8) => "tiled-8",
            Variant::Tiled(Block::B16) => "tiled-16",
            Variant::Tiled(Block::B32) => "tiled-32",
        }
    }

    /// The variant called `name` (see [`Variant::name`]).
    pub fn from_name(name: &str) -> Option<Variant> {
        Self::all().find(|v| v.name() == name)
    }
}

impl crate::names::Named for Variant {
    const WHAT: &'static str = "Cholesky variant";
    fn all() -> &'static [Self] {
        &Variant::ALL
    }
    fn name(self) -> &'static str {
        Variant::name(&self)
    }
    fn description(self) -> &'static str {
        Variant::description(&self)
    }
}

impl std::str::FromStr for Variant {
    type Err = crate::names::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        <Variant as crate::names::Named>::parse_name(s)
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
