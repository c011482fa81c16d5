//! The only code that calls OpenGL: contexts, textures, programs, passes and their accounting.
//!
//! Resource rule: every GL object is owned by an RAII value holding an `Rc` of the context, so
//! objects are freed in `Drop` while the context is alive and current. A [`Gpu`] is not `Send`:
//! the context is current on the thread that made it and stays there.
#![allow(unsafe_code)]

mod context;
mod error;
mod fence;
mod gpu;
mod info;
mod observer;
mod pass;
mod program;
mod record;
mod runner;
mod shared;
mod texture;
mod transfer;
#[cfg(feature = "viewer")]
pub mod window;

pub use context::{load_reset_status, DevicePreference, HeadlessOptions, ResetStatusFn, MIN_GL_VERSION};
pub use error::{GlError, GlResult};
pub use fence::Fence;
pub use gpu::{Gpu, PassObserver, Traffic};
pub use info::GpuInfo;
pub use observer::{PassLog, PassTotals};
pub use pass::Pass;
pub use program::{declared_uniforms, output_format, Kernel, MAX_SOURCES, PASS_VERT};
pub use record::{Measure, PassRecord, TimeMode};
pub use shared::ContextHome;
pub use texture::{PingPong, TexelFormat, TexelGrid, Texture};
