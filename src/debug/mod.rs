//! The visual debug mode: watch an algorithm pass by pass. A [`observer::Viewer`] attached to a
//! `Gpu` keeps CPU copies of the textures the passes touch and hands frames to sinks: a desktop
//! window ([`window`]), one PNG per pass ([`dump::Dump`]) or one texture at one pass
//! ([`dump::TextureExport`]). Every frame is drawn on the CPU by [`render`], so the window and the
//! PNGs are the same picture.

pub mod capture;
pub mod colormap;
#[cfg(feature = "viewer")]
pub mod dump;
pub mod error;
mod font;
pub mod observer;
mod panels;
pub mod recording;
pub mod render;
pub mod scenario;
#[cfg(feature = "viewer")]
pub mod window;

pub use capture::{Capture, PassInfo, Snapshot};
pub use error::{DebugError, DebugResult};
pub use observer::{Flow, Label, Sink, View, Viewer};
pub use recording::{RecordedPass, Recorder, Recording};
pub use scenario::{watch_lp, Algorithm, Direction, Outcome, Scenario};
