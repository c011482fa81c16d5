//! What can go wrong inside a backend, and the GL faults the GPU backends classify.

use crate::cpu::products::{GramShapeError, PassShapeError};
use thiserror::Error;

/// A failure inside a backend kernel.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum BackendError {
    /// Cholesky broke down: the pivot of column `column` was not positive (or not finite) even
    /// after the tiny-pivot treatment.
    #[error("Cholesky factorization of A·D²·Aᵀ broke down at pivot {column} (value {pivot:e})")]
    Factorization {
        /// 0-based column of A·D²·Aᵀ (or of the normal matrix the backend factors).
        column: usize,
        /// The pivot met there.
        pivot: f64,
    },
    /// `solve` was called before a successful `factor`.
    #[error("solve called without a valid factorization")]
    NotFactored,
    /// Operands of incompatible lengths (a programming error in the caller, reported not panicked).
    #[error("dimension mismatch in {op}: expected {expected}, got {got}")]
    Dimension {
        /// The operation.
        op: &'static str,
        /// The length it needs.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A backend-specific failure that is not a GPU fault.
    #[error("{0}")]
    Device(String),
    /// A fault of the GL driver or device, classified so that callers (and tests) can tell
    /// which one happened; `detail` is the driver's message.
    #[error("GPU fault ({}): {detail}", kind.name())]
    Gpu {
        /// Which fault.
        kind: GpuFault,
        /// The driver's message.
        detail: String,
    },
}

// The kernels' shape errors become backend errors by name, not by `From`: a `From` impl on this
// public type would make the kernels' error types part of the API.
impl BackendError {
    /// A Gram kernel's shape error.
    pub(crate) fn from_gram(e: GramShapeError) -> Self {
        match e {
            GramShapeError::Weights { weights, columns } => {
                BackendError::Dimension { op: "assemble", expected: columns, got: weights }
            }
            GramShapeError::Output { rows, m, .. } => {
                BackendError::Dimension { op: "assemble (normal matrix)", expected: m, got: rows }
            }
        }
    }

    /// A column pass's shape error.
    pub(crate) fn from_pass(e: PassShapeError) -> Self {
        match e {
            PassShapeError::Length { expected, got, .. } => {
                BackendError::Dimension { op: "column pass", expected, got }
            }
            PassShapeError::Columns { end, ncols } => {
                BackendError::Dimension { op: "column pass (columns)", expected: ncols, got: end }
            }
        }
    }
}

/// The GL faults the LP backends detect and report (the hybrid backend continues on the CPU
/// after any of them; the gpu backend stops with a status or an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum GpuFault {
    /// A texture would exceed GL_MAX_TEXTURE_SIZE (e.g. A has more columns than the limit).
    TextureTooLarge,
    /// The LP would need more memory than is available (found before anything is built).
    Memory,
    /// A kernel failed to compile or link.
    ShaderFailure,
    /// Float render targets are unavailable.
    FloatTargets,
    /// The context was lost (GL_CONTEXT_LOST from glGetError, or a reset reported by
    /// glGetGraphicsResetStatus).
    ContextLost,
    /// A value read back from the GPU was NaN or infinite.
    NonFinite,
    /// Any other driver error.
    Driver,
}

impl GpuFault {
    /// The fault in a few words (for logs and error codes).
    pub fn name(self) -> &'static str {
        match self {
            GpuFault::TextureTooLarge => "texture too large",
            GpuFault::Memory => "not enough memory",
            GpuFault::ShaderFailure => "shader failure",
            GpuFault::FloatTargets => "no float render targets",
            GpuFault::ContextLost => "context lost",
            GpuFault::NonFinite => "NaN/Inf read back",
            GpuFault::Driver => "driver error",
        }
    }

    /// Classifies a GL-layer error.
    pub fn of(e: &crate::gl::GlError) -> Self {
        use crate::gl::GlError as G;
        match e {
            G::TextureTooLarge { .. } => GpuFault::TextureTooLarge,
            G::ShaderCompile { .. } | G::ShaderLink { .. } => GpuFault::ShaderFailure,
            G::FloatTargetUnsupported { .. } => GpuFault::FloatTargets,
            G::ContextLost { .. } => GpuFault::ContextLost,
            _ => GpuFault::Driver,
        }
    }
}
