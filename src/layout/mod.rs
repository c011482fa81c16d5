//! Storage of matrices in textures: full format and the rectangular packed format (pure).
pub mod packed;

pub use packed::Packed;
