//! [`ErrorKind`]: the class of a failure, decided once here for every error type a public
//! function returns, so that a binding maps classes (to exceptions, to codes) and never the
//! library's variants.

use crate::dense::DenseError;
use crate::gl::GlError;
use crate::gpu::GpuError;
use crate::lp::backend::{BackendError, GpuFault};
use crate::lp::mps::MpsError;
use crate::lp::{ModelError, SettingsError, SolveError};
use crate::names::UnknownName;

/// What kind of failure an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// What the caller passed cannot be used: fix the input.
    InvalidInput(Input),
    /// The input is well formed but the mathematics refuses it.
    Math(Math),
    /// The GL driver or device is missing, too small or failed.
    Device(Device),
    /// The caller stopped the work (an interrupt flag, Ctrl-C, an abort signal). An LP solve
    /// stopped so answers [`crate::Status::Interrupted`] with its best iterate; a binding that
    /// reports the stop as a failure gives it this class.
    Interrupted,
}

/// Which input cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// An MPS text that does not parse, at this 1-based line (0: the whole text).
    Parse {
        /// The line.
        line: usize,
    },
    /// A model's arrays do not make a model.
    Model,
    /// An option, a name, a shape or a value.
    Argument,
}

/// What the mathematics refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Math {
    /// A Cholesky factorization met a pivot that is not positive.
    NotPositiveDefinite,
    /// A linear system has no unique solution.
    Singular,
    /// A least-squares problem's columns are dependent.
    RankDeficient,
}

/// How the device failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// No context of the OpenGL (ES, WebGL2) the library needs could be made.
    Unavailable,
    /// Float textures cannot be rendered to.
    FloatTargets,
    /// A texture (or the memory) the work needs is larger than the device allows.
    TooLarge,
    /// The context was lost during the work.
    ContextLost,
    /// Any other failure of the driver or the backend.
    Other,
}

/// An error that knows its [`ErrorKind`].
pub trait Classify {
    /// The class of this error.
    fn error_kind(&self) -> ErrorKind;
}

impl Classify for ModelError {
    fn error_kind(&self) -> ErrorKind {
        ErrorKind::InvalidInput(Input::Model)
    }
}

impl Classify for SettingsError {
    fn error_kind(&self) -> ErrorKind {
        ErrorKind::InvalidInput(Input::Argument)
    }
}

impl Classify for UnknownName {
    fn error_kind(&self) -> ErrorKind {
        ErrorKind::InvalidInput(Input::Argument)
    }
}

impl Classify for MpsError {
    fn error_kind(&self) -> ErrorKind {
        ErrorKind::InvalidInput(Input::Parse { line: self.line })
    }
}

impl Classify for GlError {
    fn error_kind(&self) -> ErrorKind {
        ErrorKind::Device(match self {
            GlError::NoEgl { .. }
            | GlError::NoDevice { .. }
            | GlError::NoContext { .. }
            | GlError::VersionTooOld { .. } => Device::Unavailable,
            GlError::FloatTargetUnsupported { .. } => Device::FloatTargets,
            GlError::TextureTooLarge { .. } => Device::TooLarge,
            GlError::ContextLost { .. } => Device::ContextLost,
            _ => Device::Other,
        })
    }
}

impl Classify for GpuFault {
    fn error_kind(&self) -> ErrorKind {
        ErrorKind::Device(match self {
            GpuFault::TextureTooLarge | GpuFault::Memory => Device::TooLarge,
            GpuFault::FloatTargets => Device::FloatTargets,
            GpuFault::ContextLost => Device::ContextLost,
            _ => Device::Other,
        })
    }
}

impl Classify for BackendError {
    fn error_kind(&self) -> ErrorKind {
        match self {
            BackendError::Gpu { kind, .. } => kind.error_kind(),
            _ => ErrorKind::Device(Device::Other),
        }
    }
}

impl Classify for SolveError {
    fn error_kind(&self) -> ErrorKind {
        match self {
            SolveError::Model(e) => e.error_kind(),
            SolveError::Settings(e) => e.error_kind(),
            SolveError::Gl(e) => e.error_kind(),
            SolveError::Backend(e) => e.error_kind(),
        }
    }
}

impl Classify for GpuError {
    fn error_kind(&self) -> ErrorKind {
        match self {
            GpuError::Gl(e) => e.error_kind(),
            GpuError::NotPositiveDefinite { .. } => ErrorKind::Math(Math::NotPositiveDefinite),
            GpuError::Singular { .. } => ErrorKind::Math(Math::Singular),
            GpuError::NonFinite { .. }
            | GpuError::NegativeWeight { .. }
            | GpuError::NegativeDiagonal { .. }
            | GpuError::Shape(_) => ErrorKind::InvalidInput(Input::Argument),
            GpuError::Unsupported(_) => ErrorKind::Device(Device::Other),
        }
    }
}

impl Classify for DenseError {
    fn error_kind(&self) -> ErrorKind {
        match self {
            DenseError::Shape { .. }
            | DenseError::Length { .. }
            | DenseError::NonFinite { .. }
            | DenseError::Weight { .. } => ErrorKind::InvalidInput(Input::Argument),
            DenseError::NotPositiveDefinite { .. } => ErrorKind::Math(Math::NotPositiveDefinite),
            DenseError::Singular { .. } => ErrorKind::Math(Math::Singular),
            DenseError::RankDeficient => ErrorKind::Math(Math::RankDeficient),
            DenseError::Gpu(e) => e.error_kind(),
        }
    }
}
