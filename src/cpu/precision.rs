//! The arithmetic of the products A·diag(w)·Aᵀ and the depths of their blocks, shared by
//! `cpu::gram` (which chooses a path) and the hand-written kernels of `cpu::syrk`.

/// Depth of a k block of the reduced-precision products: each block's products are summed in
/// f32, the blocks in f64.
pub const KC: usize = 256;

/// Rows of A per packed row block of the hand-written kernels (MC·KC values stay in L2); a
/// multiple of every tile height.
pub const MC: usize = 192;

/// Values of k summed in f32 by [`Precision::Bf16Pair`] before they are added in f64.
pub const AMX_KC: usize = 512;

/// The arithmetic of the products inside a k block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// f64 throughout.
    Double,
    /// f32 products and sums within a k block of [`KC`], f64 sums across blocks and in C.
    Single,
    /// Entries split into two bfloat16 values (16 significant bits), three bf16 products on AMX
    /// tiles with f32 sums within a k chunk of [`AMX_KC`], f64 across chunks and in C;
    /// [`Precision::Single`] where the process cannot use AMX.
    Bf16Pair,
}
