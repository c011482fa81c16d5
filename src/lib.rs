//! glsolve: dense linear programs, weighted least squares and dense linear systems whose heavy
//! linear algebra runs as passes of the OpenGL raster pipeline, with a double-precision CPU path.
#![deny(unsafe_code)]

pub mod bench;
pub mod cpu;
pub mod debug;
pub mod geometry;
pub mod gl;
pub mod gpu;
pub mod kernels;
pub mod layout;
pub mod lp;
pub mod lsq;
pub mod matrix_market;
pub mod refine;

pub use gpu::{assemble, cholesky};
