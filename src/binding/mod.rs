//! What the command line, the npm package and the Python package share, so that each of them
//! only formats: the LP options as a serde record ([`SolveOptions`], checked by the settings'
//! own builder), a solution as one record of plain data ([`SolutionRecord`]: names and units
//! written once, the status by its stable name), and the class of every error a call can
//! return ([`ErrorKind`], through [`Classify`]) that each binding turns into its own exceptions
//! or codes.
//!
//! ```
//! use glsolve::binding::{Classify, ErrorKind, Input, SolveOptions};
//! let opts = SolveOptions { time_limit: Some(0.0), ..SolveOptions::default() };
//! let e = opts.settings().unwrap_err();
//! assert_eq!(e.to_string(), "time_limit = 0: the time limit must be > 0 seconds and finite, from 1 ns to 1.8e19 s");
//! assert_eq!(e.error_kind(), ErrorKind::InvalidInput(Input::Argument));
//! ```

mod failure;
mod options;
mod solution;

pub use failure::{Classify, Device, ErrorKind, Input, Math};
pub use options::{lp_backends, SolveOptions};
pub use solution::{Entries, SolutionRecord, TimingsRecord};
