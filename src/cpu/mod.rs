//! Double-precision CPU references and fallbacks (faer), and the random test matrices.
pub mod cholesky;
pub mod column_pass;
pub mod dense;
pub mod equilibrate;
pub mod huge_pages;
pub mod random;
pub mod sparse_cholesky;
pub mod spin_join;
pub mod syrk;
