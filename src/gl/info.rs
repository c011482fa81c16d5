//! What the driver is and can do.

use super::record::TimeMode;

/// What the driver is and can do.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GpuInfo {
    /// EGL device and version (headless), or the windowing system's description.
    pub platform: String,
    pub vendor: String,
    pub renderer: String,
    pub version: String,
    pub glsl_version: String,
    pub max_texture_size: u32,
    pub max_rectangle_texture_size: u32,
    /// R32F rectangle textures are framebuffer-complete (checked by making one).
    pub r32f_renderable: bool,
    /// RGBA32F rectangle textures are framebuffer-complete (checked by making one).
    #[serde(default)]
    pub rgba32f_renderable: bool,
    /// GPU resets are reported by `glGetGraphicsResetStatus` (a robust context on a driver that has it).
    pub reset_notification: bool,
}

impl GpuInfo {
    /// The largest side a rectangle texture may have.
    pub fn max_side(&self) -> u32 {
        self.max_texture_size.min(self.max_rectangle_texture_size)
    }
    /// Mesa's software rasterizers rasterize at flush, so timer queries miss the work.
    pub fn is_software(&self) -> bool {
        let r = self.renderer.to_ascii_lowercase();
        r.contains("llvmpipe") || r.contains("softpipe") || r.contains("swrast") || r.contains("lavapipe")
    }
    /// The timing method that tells the truth on this driver.
    pub fn honest_time_mode(&self) -> TimeMode {
        if self.is_software() {
            TimeMode::HostFinish
        } else {
            TimeMode::GpuTimer
        }
    }
}
