//! What the driver is and can do: the capability record, probed once when a [`super::Gpu`] is
//! made (`caps.rs`). Nothing else in the crate asks the driver what it can do.
//!
//! Records written before a field existed (the JSON of older benchmark runs) were all made on
//! desktop GL 3.3+ contexts; the serde defaults say what those contexts had.

use super::dialect::{Dialect, Fetch};
use super::record::TimeMode;

/// How the shaded fragments of a pass are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FragmentCounting {
    /// A `GL_SAMPLES_PASSED` occlusion query: the driver's exact count.
    #[default]
    SamplesPassed,
    /// No counting query (OpenGL ES and WebGL2 have only `ANY_SAMPLES_PASSED`): the count is the
    /// one the reference rasterizer predicts from the pass's primitive (`geometry::coverage`).
    Predicted,
}

/// Which GPU timer query the context has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TimerQuery {
    /// `GL_TIME_ELAPSED`, core since OpenGL 3.3.
    #[default]
    Core,
    /// `GL_TIME_ELAPSED_EXT` of EXT_disjoint_timer_query (OpenGL ES).
    DisjointExt,
    /// EXT_disjoint_timer_query_webgl2: WebGL delivers a query's result only after the page has
    /// returned to the browser, never while a computation waits for it, so passes are timed
    /// by the host clock.
    Deferred,
    /// None: passes are timed by the host clock only.
    None,
}

impl TimerQuery {
    /// Whether a pass can read its own timer query back.
    pub fn per_pass(self) -> bool {
        matches!(self, TimerQuery::Core | TimerQuery::DisjointExt)
    }
}

/// How a one-channel (R32F) texture is read back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Readback {
    /// `glReadPixels` with `GL_RED`/`GL_FLOAT`: one float per texel crosses.
    #[default]
    Red,
    /// `GL_RGBA`/`GL_FLOAT`, the only combination OpenGL ES guarantees for float targets; the
    /// first channel is kept.
    RgbaOnly,
}

/// How the host waits for a fence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FenceWait {
    /// `glClientWaitSync` with a timeout.
    #[default]
    Blocking,
    /// Zero-timeout polls only (WebGL2's `clientWaitSync` accepts no other timeout).
    Polling,
}

fn desktop() -> Dialect {
    Dialect::Glsl330
}
fn rectangle() -> Fetch {
    Fetch::Rectangle
}
fn yes() -> bool {
    true
}
/// OpenGL 3.3's minima (every record written before these fields were probed came from a
/// desktop GL 3.3+ context).
fn gl33_draw_buffers() -> u32 {
    8
}
fn gl33_texture_units() -> u32 {
    16
}

/// What the driver is and can do.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GpuInfo {
    /// EGL device and version (headless), the windowing system's description, or the browser.
    pub platform: String,
    /// `GL_VENDOR`.
    pub vendor: String,
    /// `GL_RENDERER`.
    pub renderer: String,
    /// `GL_VERSION`.
    pub version: String,
    /// `GL_SHADING_LANGUAGE_VERSION`.
    pub glsl_version: String,
    /// The shading language the kernels are compiled in.
    #[serde(default = "desktop")]
    pub dialect: Dialect,
    /// How kernels fetch texels (and so which texture target sources are).
    #[serde(default = "rectangle")]
    pub fetch: Fetch,
    /// `GL_MAX_TEXTURE_SIZE`.
    pub max_texture_size: u32,
    /// `GL_MAX_RECTANGLE_TEXTURE_SIZE`; 0 where rectangle textures do not exist.
    pub max_rectangle_texture_size: u32,
    /// `GL_MAX_DRAW_BUFFERS`: how many targets one pass may write (multiple render targets; at
    /// least 8 on OpenGL 3.3, at least 4 on OpenGL ES 3.0 and WebGL2).
    #[serde(default = "gl33_draw_buffers")]
    pub max_draw_buffers: u32,
    /// `GL_MAX_COLOR_ATTACHMENTS`: how many textures one framebuffer may hold.
    #[serde(default = "gl33_draw_buffers")]
    pub max_color_attachments: u32,
    /// `GL_MAX_TEXTURE_IMAGE_UNITS`: how many sources a fragment shader may sample (at least 16
    /// on every API glsolve runs on).
    #[serde(default = "gl33_texture_units")]
    pub max_texture_units: u32,
    /// R32F textures are framebuffer-complete (checked by making one).
    pub r32f_renderable: bool,
    /// RGBA32F textures are framebuffer-complete (checked by making one).
    #[serde(default = "yes")]
    pub rgba32f_renderable: bool,
    /// How passes' fragments are counted.
    #[serde(default)]
    pub fragment_counting: FragmentCounting,
    /// Whether GPU time can be measured by timer queries.
    #[serde(default)]
    pub timer_query: TimerQuery,
    /// How textures are read back.
    #[serde(default)]
    pub readback: Readback,
    /// How the host waits for a fence.
    #[serde(default)]
    pub fence_wait: FenceWait,
    /// Fragment shaders may compute in double precision (`GL_ARB_gpu_shader_fp64` or GL 4.0+);
    /// without it the mixed-precision LU forms its residual on the CPU.
    #[serde(default = "yes")]
    pub fp64: bool,
    /// GPU resets are reported by `glGetGraphicsResetStatus` (a robust context on a driver that has it).
    pub reset_notification: bool,
}

impl GpuInfo {
    /// The largest side a source or target texture may have.
    pub fn max_side(&self) -> u32 {
        if self.fetch.uses_rectangles() {
            self.max_texture_size.min(self.max_rectangle_texture_size)
        } else {
            self.max_texture_size
        }
    }
    /// How many targets one pass may write at once: the smaller of the draw buffers and the
    /// color attachments.
    pub fn max_targets(&self) -> u32 {
        self.max_draw_buffers.min(self.max_color_attachments)
    }
    /// Mesa's software rasterizers rasterize at flush, so timer queries miss the work; ANGLE's
    /// SwiftShader is a software rasterizer too.
    pub fn is_software(&self) -> bool {
        let r = format!("{} {}", self.renderer, self.platform).to_ascii_lowercase();
        ["llvmpipe", "softpipe", "swrast", "lavapipe", "swiftshader"].iter().any(|s| r.contains(s))
    }
    /// Whether the context is OpenGL ES or WebGL2.
    pub fn is_es(&self) -> bool {
        self.dialect == Dialect::Essl300
    }
    internal_fn! {
        /// The timing method that tells the truth on this driver: a GPU timer where the driver has
        /// one and honours it, else `glFinish` and the host clock.
        fn honest_time_mode(&self) -> TimeMode {
            if self.is_software() || !self.timer_query.per_pass() {
                TimeMode::HostFinish
            } else {
                TimeMode::GpuTimer
            }
        }
    }

    /// The record as `name: value` lines, as `glsolve info` prints it.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        vec![
            ("platform", self.platform.clone()),
            ("GL vendor", self.vendor.clone()),
            ("GL renderer", self.renderer.clone()),
            ("GL version", self.version.clone()),
            ("GLSL version", self.glsl_version.clone()),
            ("kernel dialect", self.dialect.name().to_string()),
            ("texel fetch", self.fetch.name().to_string()),
            ("GL_MAX_TEXTURE_SIZE", self.max_texture_size.to_string()),
            (
                "GL_MAX_RECTANGLE_TEXTURE_SIZE",
                if self.fetch.uses_rectangles() {
                    self.max_rectangle_texture_size.to_string()
                } else {
                    "none (no rectangle textures)".into()
                },
            ),
            ("largest matrix side", self.max_side().to_string()),
            ("GL_MAX_DRAW_BUFFERS", self.max_draw_buffers.to_string()),
            ("GL_MAX_COLOR_ATTACHMENTS", self.max_color_attachments.to_string()),
            ("GL_MAX_TEXTURE_IMAGE_UNITS", self.max_texture_units.to_string()),
            ("R32F render target", yes_no(self.r32f_renderable)),
            ("RGBA32F render target", yes_no(self.rgba32f_renderable)),
            (
                "fragment counting",
                match self.fragment_counting {
                    FragmentCounting::SamplesPassed => "exact (GL_SAMPLES_PASSED)".into(),
                    FragmentCounting::Predicted => "predicted from the primitive (no GL_SAMPLES_PASSED)".into(),
                },
            ),
            (
                "timer queries",
                match self.timer_query {
                    TimerQuery::Core => "GL_TIME_ELAPSED".into(),
                    TimerQuery::DisjointExt => "EXT_disjoint_timer_query".into(),
                    TimerQuery::Deferred => {
                        "EXT_disjoint_timer_query_webgl2 (results only after the page yields)".into()
                    }
                    TimerQuery::None => "none".into(),
                },
            ),
            ("pass timing used", format!("{:?}", self.honest_time_mode())),
            (
                "R32F readback",
                match self.readback {
                    Readback::Red => "GL_RED/GL_FLOAT".into(),
                    Readback::RgbaOnly => "GL_RGBA/GL_FLOAT, first channel kept".into(),
                },
            ),
            (
                "fence waits",
                match self.fence_wait {
                    FenceWait::Blocking => "blocking (glClientWaitSync with a timeout)".into(),
                    FenceWait::Polling => "polling (zero timeout)".into(),
                },
            ),
            (
                "double precision in shaders",
                if self.fp64 { "yes".into() } else { "no (the LU residual is formed on the CPU)".into() },
            ),
            (
                "GPU reset notification",
                if self.reset_notification { "yes".into() } else { "no (GL_CONTEXT_LOST only)".into() },
            ),
        ]
    }
}
