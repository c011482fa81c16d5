//! [`SolveOptions`]: the options of an LP solve as a binding receives them, mapped onto the
//! settings' builder, which checks every value.

use crate::lp::{BackendKind, Settings, SettingsError};
use crate::names::Named;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The names of the LP backends, in the order lists show them (`auto` first, the default):
/// [`BackendKind`]'s one list.
pub fn lp_backends() -> Vec<&'static str> {
    BackendKind::all().iter().map(|b| b.name()).collect()
}

/// The options of an LP solve as plain data (JSON in the browser, keyword arguments in
/// Python). Unknown fields are refused; a value left out is the backend's default. Nothing is
/// checked here: [`SolveOptions::settings`] hands every value to [`crate::SettingsBuilder`],
/// whose errors name the field.
///
/// ```
/// use glsolve::binding::SolveOptions;
/// use glsolve::BackendKind;
/// let o: SolveOptions = serde_json::from_str(r#"{"backend": "cpu", "time_limit": 2.5}"#).unwrap();
/// let st = o.settings()?;
/// assert_eq!((st.backend(), st.time_limit().map(|t| t.as_secs_f64())), (BackendKind::Cpu, Some(2.5)));
/// let e = serde_json::from_str::<SolveOptions>(r#"{"backend": "fast"}"#).unwrap_err();
/// assert!(e.to_string().starts_with("backend \"fast\" is not one of auto, cpu, hybrid, gpu"), "{e}");
/// # Ok::<(), glsolve::SettingsError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveOptions {
    /// The backend by its name ([`lp_backends`]); `None`: `auto`.
    #[serde(default, serialize_with = "backend_name", deserialize_with = "backend_by_name")]
    pub backend: Option<BackendKind>,
    /// ε of the termination tests, in (0, 1).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Iteration limit, at least 1.
    #[serde(default)]
    pub max_iterations: Option<usize>,
    /// Wall-clock limit in seconds, > 0 and finite.
    #[serde(default)]
    pub time_limit: Option<f64>,
}

impl SolveOptions {
    /// The backend asked for (`auto` where none is).
    pub fn backend(&self) -> BackendKind {
        self.backend.unwrap_or(BackendKind::Auto)
    }

    /// The library's settings for these options, checked by [`crate::SettingsBuilder::build`].
    pub fn settings(&self) -> Result<Settings, SettingsError> {
        self.settings_with(None)
    }

    /// [`SolveOptions::settings`] with the flag the binding raises to stop the solve (Ctrl-C,
    /// an abort signal, a callback's answer).
    pub fn settings_with(&self, interrupt: Option<Arc<AtomicBool>>) -> Result<Settings, SettingsError> {
        let mut b = Settings::builder(self.backend());
        if let Some(eps) = self.tolerance {
            b = b.tolerance(eps);
        }
        if let Some(k) = self.max_iterations {
            b = b.max_iterations(k);
        }
        if let Some(s) = self.time_limit {
            b = b.time_limit_seconds(s);
        }
        if let Some(flag) = interrupt {
            b = b.interrupt(flag);
        }
        b.build()
    }
}

fn backend_name<S: Serializer>(b: &Option<BackendKind>, s: S) -> Result<S::Ok, S::Error> {
    b.map(BackendKind::name).serialize(s)
}

fn backend_by_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BackendKind>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(name) => BackendKind::parse_name(&name).map(Some).map_err(serde::de::Error::custom),
    }
}
