//! Algorithms made of passes. They plan passes and hand them to the GL layer; none calls GL.
pub mod assemble;
pub mod cholesky;
pub mod error;
pub mod plan;

pub use error::{GpuError, GpuResult};
