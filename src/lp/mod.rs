//! Linear programs: reading them, bringing them to standard form, solving them.
pub mod model;

pub use model::{LpModel, Sense, SparseColMatrix};
