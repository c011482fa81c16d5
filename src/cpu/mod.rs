//! Double-precision CPU references and fallbacks (faer on rayon), the products of the cpu
//! backend (behind one seam, [`products`]).
//!
//! Two kernel families are written by hand beside the library calls they stand in for, each
//! kept because it won `glsolve bench cpu`'s rule (docs/results.md, "The CPU path"): `syrk`, the
//! reduced-precision A·diag(w)·Aᵀ (f32 micro-kernels, bf16 pairs on AMX tiles), and
//! `column_pass`, the fused passes over dense A. Both are built only for x86-64 (never for
//! wasm32) and chosen at run time by [`paths::CpuPaths`]; the portable path, and every f64
//! product, is faer's. They and `gl` hold the crate's `unsafe` code.

pub mod cholesky;
#[cfg(target_arch = "x86_64")]
mod column_pass;
pub mod rowmajor;
pub mod equilibrate;
pub mod gram;
pub mod join;
pub mod paths;
mod precision;
pub mod products;

mod shapes;
pub mod sparse_cholesky;
#[cfg(target_arch = "x86_64")]
mod syrk;
