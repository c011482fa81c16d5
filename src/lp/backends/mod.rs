//! Implementations of [`crate::lp::backend::NormalEquationsBackend`].
pub mod cpu;

pub use cpu::CpuBackend;
