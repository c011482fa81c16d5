//! The products of an interior-point iteration with its matrix A, on the CPU: the one seam
//! between the LP's cpu backend (which decides what to compute: storage, precision, when to
//! split) and the CPU's kernels (how it is computed).
//!
//! * A held dense ([`DenseA`]: aligned columns filled on all threads) or as compressed columns
//!   ([`Csc`]);
//! * the lower triangle of A·diag(w)·Aᵀ: dense by `cpu::gram` ([`normal_lower`]), with its
//!   smallest-share columns summed in reduced precision ([`assemble_split`]), or sparse from the
//!   nonzeros ([`SparsePlan`]); the columns of one entry apart as a diagonal beside a dense
//!   block of the others ([`DiagonalSplit`]);
//! * the fused level-2 products (Aᵀy, v, A·v) and A·x ([`fused_dense`], [`fused_pair`],
//!   [`dense_a_mul`], [`fused_sparse`]).
//!
//! Every function takes the [`CpuPaths`] that name its code.

mod dense_a;
mod diagonal;
mod fused;
mod operands;
#[cfg(target_arch = "x86_64")]
mod ranges;
mod sparse;
mod split;

pub use super::gram::{GramShapeError, Precision};
pub use super::paths::CpuPaths;
pub use super::shapes::PassShapeError;
pub use dense_a::DenseA;
pub use diagonal::{column_kinds, mirrors, ColumnKinds, DiagonalSplit, Slot};
pub use fused::{dense as fused_dense, dense_a_mul, dense_pair as fused_pair};
pub use operands::{ColumnMap, Fused, Paired, VSource, PARALLEL_ENTRIES};
pub use sparse::{fused as fused_sparse, Csc, SparsePlan};
pub use split::{
    assemble_split, column_max_squares, share_bound, split_columns, ColumnMaxima, ColumnSplit, MIN_REDUCED_SHARE,
    SMALLEST_DIAGONAL,
};

use faer::{Accum, MatMut, MatRef};

/// Threads for the assemblies and the passes over A: those of the rayon pool the solve runs in
/// (the machine's parallelism unless `RAYON_NUM_THREADS` says otherwise). Asking the operating
/// system instead (`available_parallelism` reads the cgroup's files) cost 11 µs a call, about
/// 1.7 ms of an m = 512 solve's 155 calls.
pub fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// Writes the lower triangle of A·diag(w)·Aᵀ for dense A into `out` (m×m) in `precision`, on
/// the paths' kernels and all of [`threads`].
///
/// # Errors
/// [`GramShapeError`] when `w` or `out` does not fit A.
pub fn normal_lower(
    paths: &CpuPaths,
    a: MatRef<'_, f64>,
    w: &[f64],
    out: MatMut<'_, f64>,
    precision: Precision,
) -> Result<(), GramShapeError> {
    super::gram::gram_lower(paths, precision, a, w, out, Accum::Replace, threads())
}
