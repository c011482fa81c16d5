//! The only code that calls OpenGL: contexts, textures, programs, passes and their accounting.
//!
//! Resource rule: every GL object is owned by an RAII value holding an `Rc` of the context, so
//! objects are freed in `Drop` while the context is alive and current. A [`Gpu`] is not `Send`:
//! the context is current on the thread that made it and stays there. Threads rule: GL calls on
//! a software rasterizer's context, and the making, switching and destroying of any context,
//! hold one process-wide lock (`serial.rs`), since llvmpipe's contexts share state.
#![allow(unsafe_code)]

mod api;
mod caps;
#[cfg(not(target_arch = "wasm32"))]
mod context;
pub mod dialect;
mod error;
mod fence;
mod gpu;
mod info;
mod observer;
mod pass;
mod program;
mod record;
mod reset;
mod runner;
mod serial;
mod shared;
mod targets;
mod texture;
mod transfer;
#[cfg(feature = "viewer")]
pub mod window;

pub use api::{DevicePreference, GlApi, HeadlessOptions};
pub use caps::{ES_FETCH, MIN_GLES_VERSION, MIN_GL_VERSION};
pub use dialect::{Dialect, Fetch};
pub use error::{GlError, GlResult};
pub use fence::Fence;
pub use gpu::{Gpu, PassObserver, Traffic};
pub use info::{FenceWait, FragmentCounting, GpuInfo, Readback, TimerQuery};
pub use observer::{PassLog, PassTotals};
pub use pass::Pass;
pub use program::{declared_uniforms, output_format, Kernel, MAX_OUTPUTS, MAX_SOURCES, PASS_VERT};
pub use record::{Measure, PassRecord, TimeMode};
pub use reset::{load_reset_status, ResetStatusFn};
pub use shared::ContextHome;
pub use texture::{PingPong, TexelFormat, TexelGrid, Texture};
