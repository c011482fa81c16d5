//! Errors of the debug viewer.
use crate::gl::GlError;
use crate::gpu::GpuError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DebugError {
    /// No X display to open a window on.
    #[error(
        "cannot open a window: {detail}. Set DISPLAY to a running X server, or run under a virtual \
         one: xvfb-run -a glsolve show … (Debian: apt-get install xvfb xauth); or use --dump DIR for \
         PNGs without a window"
    )]
    NoDisplay { detail: String },
    /// The window or its GL context could not be made.
    #[error("the viewer window could not be set up: {0}")]
    Window(String),
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A PNG could not be written.
    #[error("cannot write {path}: {detail}")]
    Write { path: PathBuf, detail: String },
    /// A request that cannot be honoured (bad pass number, role, size).
    #[error("{0}")]
    Invalid(String),
}

pub type DebugResult<T> = Result<T, DebugError>;

/// Writes `img` as a PNG, creating the parent directory.
pub fn save_png(img: &image::RgbaImage, path: &std::path::Path) -> DebugResult<()> {
    let write = |detail: String| DebugError::Write { path: path.to_path_buf(), detail };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| write(e.to_string()))?;
    }
    img.save_with_format(path, image::ImageFormat::Png).map_err(|e| write(e.to_string()))
}
