//! The names of the library's choices — backends, stopping rules, Cholesky variants, storage
//! formats, GL APIs, … — from one list per enum: its `FromStr` and `Display`, the command line's
//! values and help, and what the browser page and the Python package accept.
//!
//! ```
//! use glsolve::{BackendKind, Named};
//! assert_eq!("hybrid".parse::<BackendKind>(), Ok(BackendKind::Hybrid));
//! assert_eq!(BackendKind::Gpu.to_string(), "gpu");
//! let e = "fast".parse::<BackendKind>().unwrap_err();
//! assert_eq!(e.to_string(), "backend \"fast\" is not one of auto, cpu, hybrid, gpu");
//! assert!(BackendKind::all().iter().all(|b| b.name().parse() == Ok(*b)));
//! ```

/// A name that is none of a choice's names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} {given:?} is not one of {}", .expected.join(", "))]
pub struct UnknownName {
    /// What was being named ("backend", "Cholesky variant", …).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// Every name there is, in [`Named::all`]'s order.
    pub expected: Vec<&'static str>,
}

/// An enum whose values have names: the one list that parsing, printing and help are made of.
pub trait Named: Copy + PartialEq + 'static {
    /// What a value is called in messages.
    const WHAT: &'static str;
    /// Every value, in the order lists show them.
    fn all() -> &'static [Self];
    /// The value's name (what `FromStr` takes and `Display` writes).
    fn name(self) -> &'static str;
    /// One line on what the value is (help text).
    fn description(self) -> &'static str;

    /// The value named `given`.
    fn parse_name(given: &str) -> Result<Self, UnknownName> {
        Self::all().iter().copied().find(|v| v.name() == given).ok_or_else(|| UnknownName {
            what: Self::WHAT,
            given: given.to_string(),
            expected: Self::all().iter().map(|v| v.name()).collect(),
        })
    }
}

/// `FromStr` and `Display` of a [`Named`] enum, by its names.
macro_rules! by_name {
    ($t:ty) => {
        impl std::str::FromStr for $t {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$t as $crate::names::Named>::parse_name(s)
            }
        }
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::names::Named::name(*self))
            }
        }
    };
}
pub(crate) use by_name;
