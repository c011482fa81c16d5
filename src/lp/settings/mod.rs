//! Solver settings: valid by construction, with per-backend options.
//!
//! [`Settings::for_backend`] (or [`Settings::default`], the cpu backend) gives a backend's
//! defaults; [`Settings::builder`] changes what the caller wants and [`SettingsBuilder::build`]
//! checks it. A backend holds only the options it reads ([`Backend`]): GPU options given to the
//! cpu backend, a storage format given to a variant without a choice, or a tolerance the `gpu`
//! backend's single precision cannot reach are errors that say so, never settings that are
//! silently ignored. What the caller leaves unset is the backend's default, resolved when read
//! (so `auto` runs the backend it chooses with that backend's own defaults).
//!
//! ```
//! use glsolve::lp::{BackendKind, Settings, SettingsError};
//! let st = Settings::for_backend(BackendKind::Gpu);
//! assert_eq!(st.tolerance(), 1e-4);
//! let st = Settings::builder(BackendKind::Hybrid).tolerance(1e-9).build()?;
//! assert_eq!((st.tolerance(), st.step_factor()), (1e-9, 0.99));
//! assert!(Settings::builder(BackendKind::Gpu).tolerance(1e-8).build().is_err());
//! # Ok::<(), SettingsError>(())
//! ```

mod builder;
mod error;
mod kinds;
mod options;
mod values;

pub use crate::lp::hybrid_rules::{CostRule, HybridRules};
pub use builder::SettingsBuilder;
pub use error::{SettingsError, GPU_MIN_TOLERANCE};
pub use kinds::{BackendKind, NormalFactorization, StoppingRule, Substitution};
pub use options::{Backend, CpuOptions, GpuOptions};
pub use values::{Settings, CPU_LONG_STEP_FACTOR, CPU_STEP_FACTOR, PAPERS_STEP_FACTOR};
