//! Implementations of [`crate::lp::backend::NormalEquationsBackend`].
pub mod cholesky;
pub mod cpu;
pub mod gpu;
pub mod hybrid;

pub use cpu::CpuBackend;
pub use gpu::GpuBackend;
pub use hybrid::HybridBackend;
