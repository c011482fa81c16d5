//! Double-precision CPU references and fallbacks (faer on rayon), the products of the cpu
//! backend, and the random test matrices.
//!
//! A few pieces are written by hand beside the library calls they stand in for, each switched
//! by [`paths::CpuPaths`] and compiled only where it can run (x86-64 kernels, native threads,
//! Linux memory advice; never for wasm32, whose build runs faer and rayon only).

pub mod cholesky;
#[cfg(target_arch = "x86_64")]
mod column_pass;
pub mod dense;
pub mod equilibrate;
pub mod gram;
pub mod join;
pub mod paths;
pub mod products;
pub mod random;
mod shapes;
pub mod sparse_cholesky;
#[cfg(target_arch = "x86_64")]
mod syrk;
