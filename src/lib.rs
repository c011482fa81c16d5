//! glsolve: dense linear programs, weighted least squares and dense linear systems whose heavy
//! linear algebra runs as passes of the OpenGL raster pipeline (headless EGL), with a
//! double-precision CPU path (faer) beside it.
//!
//! # Entry points
//!
//! Everything a user needs is re-exported here, at the crate root; nalgebra's `DMatrix<f64>` and
//! `DVector<f64>` are the currency (f64 in, single precision on the GPU inside, f64 out).
//!
//! | task | entry point |
//! | --- | --- |
//! | a GL context (headless EGL; Mesa llvmpipe without a GPU) | [`Gpu::headless`] |
//! | Cholesky C = L·Lᵀ, then solves | [`Cholesky::new`], [`Cholesky::solve`] |
//! | a dense system A·x = b, mixed precision | [`linsolve`] |
//! | weighted least squares, the usual layout | [`least_squares`] |
//! | a linear program built in code or read from MPS | [`LpModel::builder`], [`LpModel::new`], [`lp::mps::read_file`] |
//! | solving it on the cpu, gpu or hybrid backend | [`LpSolver::new`], [`LpSolver::solve`], [`Settings::for_backend`] |
//! | options from a record, a solution as plain data, an error's class (for bindings) | [`binding`] |
//!
//! Errors are typed and say where: [`ModelError`] names the field, index and value of a
//! malformed model; [`SolveError`] wraps it, [`SettingsError`], [`BackendError`] and
//! [`GlError`]; [`MpsError`] gives a file's line; [`DenseError`] names the argument and entry
//! of a dense problem. Every error type a public function returns is reachable here, at the
//! crate root. Nothing in this API panics on bad input,
//! and no model holding a NaN is ever solved.
//!
//! ## A linear program
//!
//! ```
//! use glsolve::{LpModel, LpSolver, Settings, Status};
//! use nalgebra::dmatrix;
//! // max 3x + 2y  s.t.  x + y ≤ 4,  x + 3y ≤ 6,  x ≤ 3,  x, y ≥ 0   → x = 3, y = 1, objective 11
//! let model = LpModel::builder(dmatrix![1.0, 1.0; 1.0, 3.0])
//!     .maximize([3.0, 2.0])
//!     .rows_at_most([4.0, 6.0])
//!     .col_bounds([0.0, 0.0], [3.0, f64::INFINITY])
//!     .build()?;
//! let mut solver = LpSolver::new(Settings::default());
//! let solution = solver.solve(&model)?;
//! assert_eq!(solution.status, Status::Optimal);
//! assert!((solution.objective - 11.0).abs() < 1e-6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `Settings::default()` is the `cpu` backend (double precision, no GL needed). The GPU
//! backends: `Settings::for_backend(BackendKind::Hybrid)` (the 2008 paper's method; falls back
//! to the CPU with a notice where no GL driver exists) and
//! `Settings::for_backend(BackendKind::Gpu)` (everything in single precision, ε = 1e-4).
//! `Settings::for_backend(BackendKind::Auto)` (the command line's default for `solve`) picks
//! `cpu` or `hybrid` per problem and device and says why ([`lp::auto`]). An [`LpSolver`] makes
//! its GL context on the first solve that needs it and keeps it.
//!
//! A malformed model is an error before any work, on every backend:
//!
//! ```
//! use glsolve::{LpModel, LpSolver, ModelError, Settings, SolveError};
//! use nalgebra::dmatrix;
//! let mut model = LpModel::builder(dmatrix![1.0, 1.0]).minimize([1.0, 1.0]).rows_at_least([1.0]).build()?;
//! model.col_upper[1] = f64::NAN;
//! let err = LpSolver::new(Settings::default()).solve(&model).unwrap_err();
//! assert!(matches!(err, SolveError::Model(ModelError::NotANumber { field: "col_upper", index: 1 })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Dense linear algebra on the GPU
//!
//! ```
//! use glsolve::{least_squares, linsolve, Cholesky, Gpu};
//! use nalgebra::{dmatrix, dvector};
//! let gpu = Gpu::headless()?;
//! let c = dmatrix![4.0, 2.0; 2.0, 3.0];
//! let x = Cholesky::new(&gpu, &c)?.solve(&dvector![6.0, 5.0])?;   // single-precision factor
//! assert!((x[0] - 1.0).abs() < 1e-5);
//! let s = linsolve(&gpu, &c, &dvector![6.0, 5.0])?;                // refined to double precision
//! assert!((s.x[1] - 1.0).abs() < 1e-12);
//! let a = dmatrix![1.0, 0.0; 1.0, 1.0; 1.0, 2.0];                  // observations × unknowns
//! let fit = least_squares(&gpu, &a, &dvector![1.0, 3.0, 5.0], Some(&dvector![1.0, 1.0, 0.5]))?;
//! assert!((fit.x[1] - 2.0).abs() < 1e-10);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Threads
//!
//! An [`LpSolver`] is `Send`: it owns its GL context, lends it to nobody and releases it from
//! its thread after every solve, so a solver can move to (or live in) any thread — one per
//! worker of a pool. A [`Gpu`] is not `Send`: the textures and programs made on it share it
//! through non-atomic counts and a GL context is current on one thread only, so a `Gpu` (and
//! [`Cholesky`], [`linsolve`], [`least_squares`] on it) stays on the thread that made it; make
//! one per thread.
//!
//! What is serialized, and why: Mesa's software rasterizer (llvmpipe, the driver of machines
//! without a GPU) keeps state shared by all its contexts, and contexts used by several threads
//! at once crashed inside it (`glDrawArrays`, `glReadPixels`). So GL work on a software
//! rasterizer's context takes one process-wide lock: each stretch of GL calls (a pass, an
//! upload, a readback, a texture's deletion) holds it, and threads take turns between them;
//! the CPU work of a solve runs in parallel as before. Making, making current, releasing and
//! destroying a context take the lock on every driver. Contexts of a hardware driver run their
//! GL calls without it. Threads therefore never crash, and on llvmpipe they share its
//! rasterizer rather than adding to it (it already rasterizes on every core).
//!
//! The `examples/` folder has the four complete programs (`cargo run --release --example lp`,
//! `cholesky`, `polyfit`, `linsolve`).
//!
//! # The public API
//!
//! What this page lists is the API: the items re-exported here (the solvers, their settings,
//! solutions and options, the typed errors, [`Gpu`], [`Variant`] and [`Format`] for the dense
//! factorizations, [`Named`] for the enums' names) and the module [`lp`] with [`lp::mps`] (MPS
//! files), [`lp::random`] (the papers' random family) and [`lp::auto`] (the `auto` backend's
//! choice). Every public item is documented; a test builds the crate without `internals` under
//! `deny(missing_docs)`.
//!
//! # The machinery
//!
//! The layers below the API are the papers' algorithms, one module each, crate-private: `gl`
//! (the only code that calls OpenGL), `geometry` and `layout` (the papers' primitives and the
//! packed formats, pure), `kernels` (one `glsl/` file each), `gpu` (algorithms made of passes),
//! `cpu` (double precision on faer), the LP's backends, loop, standard form and verification
//! inside `lp`, `lsq` and `refine` (the mixed-precision solvers), `dense` (the nalgebra entry
//! points above), `fixtures` (seeded test matrices and LP families, for the tests and benchmarks
//! only), and `debug` (feature `frames`: the pass-by-pass viewer). The
//! feature `internals` makes them public (and hidden from these docs) for the tools — the
//! `glsolve` command line and the benchmarks, the workspace member `tools/` —, the browser
//! page's kernel suite and the tests, which check pass counts, fragments, plans and kernels one
//! by one; they take validated, row-major `f32`/`f64` slices and promise nothing.
//!
//! # Cargo features
//!
//! `default = ["viewer"]` (the debug viewer's window; winit). The library core — GL, the
//! algorithms, the LP solver, nalgebra and faer — needs none: depend with
//! `default-features = false`. `internals` (above) and `fault-injection` (the tests' GL faults)
//! are for the project's own crates and tests.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(unsafe_code)]
// The public API (what is reachable without `internals`) is documented, item by item
// (tests/api_docs.rs builds the crate so and fails on an undocumented public item).
#![cfg_attr(not(feature = "internals"), deny(missing_docs))]
// Without `internals`, no public item names a type less visible than itself; methods of public
// types that hand out the layers' types are declared with `internal_fn!` below.
#![cfg_attr(not(feature = "internals"), deny(private_interfaces, private_bounds))]
// Every type the public API reaches has a public name (one path per item).
#![cfg_attr(not(feature = "internals"), deny(unnameable_types))]

/// Declares modules that are the crate's layers below its API: public (and hidden from the docs)
/// with the `internals` feature, for the tools, the browser page's kernel suite and the tests;
/// crate-private without it. Without the feature, code only those callers use is unused here.
macro_rules! internal_mods {
    ($($(#[$attr:meta])* mod $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code, unused_imports)]
        pub(crate) mod $name;
    )*};
}

/// Declares a method of a public type whose signature names a type of the layers below the API
/// (a texture, a pass, a kernel): public (and hidden from the docs) with the `internals`
/// feature, crate-private without, so that the API without the feature names no type it does
/// not export. One method per use; its doc comment and attributes go inside.
macro_rules! internal_fn {
    ($(#[$attr:meta])* fn $($rest:tt)*) => {
        $(#[$attr])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub fn $($rest)*
        $(#[$attr])*
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code)]
        pub(crate) fn $($rest)*
    };
}

pub mod binding;
pub mod lp;

internal_mods! {
    #[cfg(feature = "frames")]
    mod debug;
    mod clock;
    mod cpu;
    mod dense;
    mod geometry;
    mod gl;
    mod gpu;
    mod kernels;
    mod layout;
    mod lsq;
    #[cfg(any(test, feature = "internals", feature = "frames"))]
    mod fixtures;
    mod names;
    mod refine;
}

#[cfg(all(feature = "frames", feature = "internals"))]
pub use debug::DebugError;
pub use dense::{
    least_squares, least_squares_with, linsolve, linsolve_with, Cholesky, CholeskyOptions, DenseError,
    LeastSquaresSolution, LinearSolution,
};
pub use gl::{GlError, Gpu};
pub use gpu::blocked::Block;
pub use gpu::cholesky::{Domain, IndexSource, Variant};
pub use gpu::lu::right_looking::BlockedSettings as LuBlocking;
#[cfg(feature = "internals")]
pub use gpu::{assemble, cholesky};
pub use layout::{Blocks2x2, Format};
pub use lp::{
    Backend, BackendKind, ContextUse, CpuOptions, GpuOptions, IterationInfo, Logger, LpModel, LpModelBuilder, LpSolver,
    ModelError, Progress, Sense, Settings, SettingsBuilder, Solution, SolveError, SparseColMatrix, Status, Verbosity,
};
pub use lsq::Accuracy as LeastSquaresAccuracy;
pub use lsq::LsqSettings as LeastSquaresSettings;
pub use lsq::Method as LeastSquaresMethod;
pub use names::{Named, UnknownName};
pub use refine::Method as LinearMethod;
pub use refine::{
    Criterion as RefinementCriterion, LuPath, RefineSettings as LinearSettings, Substitution as RefinementSubstitution,
};

/// What the machine offers: the GL context's capabilities ([`Gpu::info`]) and the CPU's kernel
/// paths (the ISA the f64 kernels use).
pub mod machine {
    pub use crate::cpu::paths::{Amx, CpuPaths, Isa, Kernels};
    pub use crate::gl::{Dialect, FenceWait, Fetch, FragmentCounting, GlApi, GpuInfo, Readback, TimerQuery};
}
/// Every error type a public function returns, at the root (each also lives in its module).
pub use {
    cpu::cholesky::PivotBreakdown,
    cpu::paths::PathError,
    cpu::sparse_cholesky::{FactorError, PatternError},
    gpu::GpuError,
    lp::backend::{BackendError, GpuFault},
    lp::mps::{MpsError, MpsErrorKind},
    lp::settings::SettingsError,
    lsq::LsqError,
    refine::RefineError,
};
/// Errors that only the layers below the API return (for the tools and tests).
#[cfg(feature = "internals")]
pub use {
    cpu::products::{GramShapeError, PassShapeError},
    geometry::coverage::CoverageError,
    gpu::lu::panel::PanelError,
};
