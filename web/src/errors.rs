//! Every failure the package can report, as a `code` JavaScript can switch on (the package's
//! `GlsolveError.code`) beside the library's own message. The library's errors are classified
//! here and nowhere else, so that a change of its error types touches one file.

use glsolve::{
    BackendError, DenseError, GlError, GpuError, GpuFault, ModelError, MpsError, SettingsError, SolveError, UnknownName,
};

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

/// The library's names of the model's fields as the package spells them (its messages are the
/// library's, written for Rust callers).
pub fn js_names(message: &str) -> String {
    [
        ("row_lower", "rowLower"),
        ("row_upper", "rowUpper"),
        ("col_lower", "colLower"),
        ("col_upper", "colUpper"),
        ("obj_constant", "objectiveConstant"),
        ("A.col_ptr", "A (compressed columns)"),
        ("A.row_idx", "A (compressed columns)"),
    ]
    .iter()
    .fold(message.to_string(), |m, (rust, js)| m.replace(rust, js))
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

/// The code of a GL-layer error.
pub fn gl_code(e: &GlError) -> &'static str {
    match e {
        GlError::TextureTooLarge { .. } => "too-large",
        GlError::FloatTargetUnsupported { .. } => "no-float-targets",
        GlError::ContextLost { .. } => "context-lost",
        GlError::NoContext { .. } | GlError::VersionTooOld { .. } => "no-webgl2",
        _ => "gpu",
    }
}

fn fault_code(kind: GpuFault) -> &'static str {
    match kind {
        GpuFault::TextureTooLarge | GpuFault::Memory => "too-large",
        GpuFault::FloatTargets => "no-float-targets",
        GpuFault::ContextLost => "context-lost",
        _ => "gpu",
    }
}

impl From<GlError> for ApiError {
    fn from(e: GlError) -> Self {
        ApiError::new(gl_code(&e), e.to_string())
    }
}

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
        ApiError { code: "parse", message: format!("the MPS text cannot be read: {e}"), line: Some(e.line) }
    }
}

/// A name that is none of the library's names for that choice (a backend, a variant).
impl From<UnknownName> for ApiError {
    fn from(e: UnknownName) -> Self {
        ApiError::invalid(e.to_string())
    }
}

/// A setting the library's builder refuses (a tolerance out of range, an option the backend
/// does not read).
impl From<SettingsError> for ApiError {
    fn from(e: SettingsError) -> Self {
        ApiError::invalid(e.to_string())
    }
}

impl From<SolveError> for ApiError {
    fn from(e: SolveError) -> Self {
        let code = match &e {
            SolveError::Model(_) => "invalid-model",
            SolveError::Settings(_) => "invalid-argument",
            SolveError::Gl(g) => gl_code(g),
            SolveError::Backend(BackendError::Gpu { kind, .. }) => fault_code(*kind),
            SolveError::Backend(_) => "gpu",
            _ => "internal",
        };
        ApiError::new(code, e.to_string())
    }
}

impl From<GpuError> for ApiError {
    fn from(e: GpuError) -> Self {
        let code = match &e {
            GpuError::Gl(g) => gl_code(g),
            GpuError::NotPositiveDefinite { .. } => "not-positive-definite",
            GpuError::Singular { .. } => "singular",
            GpuError::NonFinite { .. } | GpuError::NegativeWeight { .. } | GpuError::Shape(_) => "invalid-argument",
            _ => "gpu",
        };
        ApiError::new(code, e.to_string())
    }
}

impl From<DenseError> for ApiError {
    fn from(e: DenseError) -> Self {
        let code = match e {
            DenseError::Gpu(g) => return g.into(),
            DenseError::Shape { .. }
            | DenseError::Length { .. }
            | DenseError::NonFinite { .. }
            | DenseError::Weight { .. } => "invalid-argument",
            DenseError::NotPositiveDefinite { .. } => "not-positive-definite",
            DenseError::Singular { .. } => "singular",
            DenseError::RankDeficient => "rank-deficient",
            _ => "internal",
        };
        ApiError::new(code, e.to_string())
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
