//! Algorithms made of passes. They plan passes and hand them to the GL layer; none calls GL.
pub mod assemble;
pub mod blas1;
pub mod blas2;
pub mod blocked;
pub mod cholesky;
pub mod error;
pub mod lu;
pub mod normal;
pub mod plan;
pub mod plan_runner;
pub mod pool;
pub mod substitute;
pub mod tiled;
pub mod vector;

pub use error::{GpuError, GpuResult};
pub use pool::{PooledVector, TexturePool};
pub use vector::{Vector, VectorLayout};
