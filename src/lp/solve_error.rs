//! Why a solve could not start.

use crate::gl::GlError;
use crate::lp::backend::BackendError;
use crate::lp::model::ModelError;
use crate::lp::settings::SettingsError;
use thiserror::Error;

/// Errors that prevent a solve from starting (a non-optimal outcome is a [`crate::lp::Status`], not this).
/// The same mistake gives the same error on every backend: the model and the settings are
/// checked before any backend is chosen.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The model is malformed ([`crate::lp::LpModel::validate`]): a length, an index, a NaN, an infinity.
    #[error("invalid model: {0}")]
    Model(#[from] ModelError),
    /// The settings are out of range or do not fit the backend.
    #[error("invalid settings: {0}")]
    Settings(#[from] SettingsError),
    /// The `gpu` backend needs a GL context and none could be made (`hybrid` falls back to the
    /// CPU instead).
    #[error("the gpu backend needs OpenGL: {0}")]
    Gl(#[from] GlError),
    /// The `gpu` backend could not be set up (e.g. A exceeds the texture size limit).
    #[error("the gpu backend could not be set up: {0}")]
    Backend(BackendError),
}
