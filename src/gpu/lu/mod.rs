//! LU factorization with partial pivoting on the GPU, two ways:
//!
//! * [`unblocked`] — the LU-GPU baseline of Galoppo et al. that the 2006 paper compares Cholesky
//!   against: one set of passes per column, the pivot found on the GPU (its functions are
//!   re-exported here: [`factor`], [`read`], [`LuFactor`]).
//! * [`right_looking`] — the LU of the mixed-precision paper, split between CPU and GPU
//!   (Volkov and Demmel's blocked right-looking LU): the CPU factors each panel of `nb` columns, the GPU forms the strip of U
//!   and updates the trailing matrix on 2×2 blocks, and with look-ahead the GPU's update of the
//!   rest overlaps the CPU's factorization of the next panel. [`schedule`] plans its passes as
//!   data; [`panel`] is its CPU half; [`substitute`] holds the paper's blocked forward and
//!   backward substitution split between CPU and GPU (Figs. 2–5); [`timeline`] records what the
//!   CPU and the GPU did when.

pub mod right_looking;
pub mod double;
pub mod panel;
pub mod schedule;
pub mod substitute;
pub mod timeline;
pub mod unblocked;

pub use unblocked::{factor, factor_textures, plan_step, read, LuFactor};
