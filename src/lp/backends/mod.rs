//! Implementations of [`crate::lp::backend::NormalEquationsBackend`].
pub mod cholesky;
pub mod cpu;

pub use cpu::CpuBackend;
