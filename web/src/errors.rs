//! Every failure the package can report, as a `code` JavaScript can switch on (the package's
//! `GlsolveError.code`) beside the library's own message. The library classifies its errors
//! (`glsolve::binding::ErrorKind`); this file only names each class's code and speaks the
//! package's field names.

use glsolve::binding::{Classify, Device, ErrorKind, Input, Math};
use glsolve::{DenseError, GlError, GpuError, ModelError, MpsError, SettingsError, SolveError, UnknownName};

/// A failure with its code (see the package's README for the list) and message. `line` is the
/// 1-based line of an MPS file that does not parse.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub code: &'static str,
    pub message: String,
    pub line: Option<usize>,
}

impl ApiError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        ApiError { code, message: message.into(), line: None }
    }
    /// A value passed in that cannot be used (a name, a shape, an option).
    pub fn invalid(message: impl Into<String>) -> Self {
        ApiError::new("invalid-argument", message)
    }
    /// The same error, its message after `context`.
    pub fn with_prefix(self, context: &str) -> Self {
        ApiError { message: format!("{context}: {}", self.message), ..self }
    }
}

/// The library's names of the model's and the options' fields as the package spells them (its
/// messages are the library's, written for Rust callers).
pub fn js_names(message: &str) -> String {
    [
        ("row_lower", "rowLower"),
        ("row_upper", "rowUpper"),
        ("col_lower", "colLower"),
        ("col_upper", "colUpper"),
        ("obj_constant", "objectiveConstant"),
        ("A.col_ptr", "A (compressed columns)"),
        ("A.row_idx", "A (compressed columns)"),
        ("time_limit", "timeLimit"),
        ("max_iterations", "maxIterations"),
    ]
    .iter()
    .fold(message.to_string(), |m, (rust, js)| m.replace(rust, js))
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

/// The package's code of a class of failure.
pub fn code(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::InvalidInput(Input::Parse { .. }) => "parse",
        ErrorKind::InvalidInput(Input::Model) => "invalid-model",
        ErrorKind::InvalidInput(Input::Argument) => "invalid-argument",
        ErrorKind::Math(Math::NotPositiveDefinite) => "not-positive-definite",
        ErrorKind::Math(Math::Singular) => "singular",
        ErrorKind::Math(Math::RankDeficient) => "rank-deficient",
        ErrorKind::Device(Device::Unavailable) => "no-webgl2",
        ErrorKind::Device(Device::FloatTargets) => "no-float-targets",
        ErrorKind::Device(Device::TooLarge) => "too-large",
        ErrorKind::Device(Device::ContextLost) => "context-lost",
        ErrorKind::Device(Device::Other) => "gpu",
        ErrorKind::Interrupted => "aborted",
    }
}

/// The code of a GL-layer error.
pub fn gl_code(e: &GlError) -> &'static str {
    code(e.error_kind())
}

impl ApiError {
    /// A library error with its class's code and the library's message in the package's words.
    fn classified(e: &(impl Classify + std::fmt::Display)) -> Self {
        ApiError::new(code(e.error_kind()), js_names(&e.to_string()))
    }
}

/// `From` the library's errors whose message needs no more than the package's field names.
macro_rules! classified {
    ($($t:ty),*) => {$(
        impl From<$t> for ApiError {
            fn from(e: $t) -> Self {
                ApiError::classified(&e)
            }
        }
    )*};
}
classified!(GlError, UnknownName, SettingsError, SolveError, GpuError, DenseError);

/// In the package's words: its field names, and what to give where the library's builder names
/// its own methods.
impl From<ModelError> for ApiError {
    fn from(e: ModelError) -> Self {
        let message = match e {
            ModelError::Missing(what) if what.starts_with("row bounds") => {
                "the model has no row bounds: give rowLower, rowUpper or both".to_string()
            }
            ModelError::Missing(what) if what.starts_with("objective") => "the model has no objective c".to_string(),
            other => js_names(&other.to_string()),
        };
        ApiError::new("invalid-model", format!("invalid model: {message}"))
    }
}

impl From<MpsError> for ApiError {
    fn from(e: MpsError) -> Self {
        ApiError {
            code: code(e.error_kind()),
            message: format!("the MPS text cannot be read: {e}"),
            line: Some(e.line),
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod js {
    use super::ApiError;
    use wasm_bindgen::JsValue;

    impl From<glsolve::debug::DebugError> for ApiError {
        fn from(e: glsolve::debug::DebugError) -> Self {
            use glsolve::debug::DebugError as D;
            match e {
                D::Gl(g) => g.into(),
                D::Gpu(g) => g.into(),
                D::Invalid(why) => ApiError::invalid(why),
                other => ApiError::new("internal", other.to_string()),
            }
        }
    }

    /// A JavaScript `Error` with `code` (and `line`) set: the package wraps it in its class.
    impl From<ApiError> for JsValue {
        fn from(e: ApiError) -> JsValue {
            let error = js_sys::Error::new(&e.message);
            let _ = js_sys::Reflect::set(&error, &"code".into(), &e.code.into());
            if let Some(line) = e.line {
                let _ = js_sys::Reflect::set(&error, &"line".into(), &(line as f64).into());
            }
            error.into()
        }
    }
}
