//! The tools built on the glsolve library: the benchmarks behind `glsolve bench` (timings,
//! floors, the peers, the JSON report, docs/results.md and its plots). The `glsolve` binary
//! (`src/main.rs`, `src/cli/`) is their command line. They reach the library's layers through
//! its `internals` feature; the library itself holds none of this code.
#![deny(unsafe_op_in_unsafe_fn)]

pub mod bench;
pub mod matrix_market;
