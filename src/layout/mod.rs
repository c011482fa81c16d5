//! Storage of matrices in textures: full format, the rectangular packed format, and the
//! four-values-per-texel layouts of the blocked kernels (pure).
pub mod packed;
pub mod rgba;
pub mod tiles;

pub use packed::Packed;
pub use rgba::{Blocks2x2, Rows4};
pub use tiles::{TileShape, Tiles};

/// How a symmetric or triangular matrix is stored in a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// m×m texture, lower triangle used.
    Full,
    /// The rectangular packed format: ⌈m/2⌉ × (m + mod(m+1, 2)).
    Packed,
}

impl Format {
    /// Texture (width, height) holding an m×m matrix.
    pub fn texture_size(&self, m: usize) -> (usize, usize) {
        match self {
            Format::Full => (m, m),
            Format::Packed => {
                let p = Packed::new(m);
                (p.w, p.h)
            }
        }
    }

    /// The name `FromStr` takes (`full` or `packed`).
    pub fn name(&self) -> &'static str {
        match self {
            Format::Full => "full",
            Format::Packed => "packed",
        }
    }
}

impl crate::names::Named for Format {
    const WHAT: &'static str = "format";
    fn all() -> &'static [Self] {
        &[Format::Packed, Format::Full]
    }
    fn name(self) -> &'static str {
        Format::name(&self)
    }
    fn description(self) -> &'static str {
        match self {
            Format::Full => "the m×m matrix, lower triangle used",
            Format::Packed => "the rectangular packed format, ⌈m/2⌉ × (m + mod(m+1, 2))",
        }
    }
}
crate::names::by_name!(Format);
