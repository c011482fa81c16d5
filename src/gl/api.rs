//! Which OpenGL a headless context speaks, and the options of making one (plain data: the
//! settings of every target, the browser's included, name them).

/// Which EGL device to prefer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DevicePreference {
    /// A hardware device if there is one, else Mesa's software device.
    #[default]
    HardwareFirst,
    /// Only a software rasterizer (reproducible results on any machine).
    SoftwareOnly,
}

/// Which OpenGL a headless context speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GlApi {
    /// Desktop OpenGL (3.3 core or newer) where the driver offers it, else OpenGL ES 3.
    #[default]
    Auto,
    /// Desktop OpenGL, 3.3 core or newer.
    Desktop,
    /// OpenGL ES, 3.0 or newer (the API WebGL2 is made from).
    Es,
}

impl GlApi {
    /// Every choice, in the order the CLI lists them.
    pub const ALL: &'static [GlApi] = &[GlApi::Auto, GlApi::Desktop, GlApi::Es];
    /// The choice's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            GlApi::Auto => "auto",
            GlApi::Desktop => "desktop",
            GlApi::Es => "es",
        }
    }
    /// The APIs to try, in order.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(super) fn attempts(self) -> &'static [GlApi] {
        match self {
            GlApi::Auto => &[GlApi::Desktop, GlApi::Es],
            GlApi::Desktop => &[GlApi::Desktop],
            GlApi::Es => &[GlApi::Es],
        }
    }
}

impl crate::names::Named for GlApi {
    const WHAT: &'static str = "GL API";
    fn all() -> &'static [Self] {
        GlApi::ALL
    }
    fn name(self) -> &'static str {
        GlApi::name(self)
    }
    fn description(self) -> &'static str {
        match self {
            GlApi::Auto => "desktop OpenGL where the driver offers it, else OpenGL ES",
            GlApi::Desktop => "desktop OpenGL, 3.3 core or newer",
            GlApi::Es => "OpenGL ES, 3.0 or newer",
        }
    }
}
crate::names::by_name!(GlApi);

/// Options for [`super::Gpu::headless_with`].
#[derive(Clone, Copy, Debug)]
pub struct HeadlessOptions {
    /// The API to ask for.
    pub api: GlApi,
    /// The version to ask for; `None`: the oldest the kernels run on ([`super::MIN_GL_VERSION`]
    /// core, [`super::MIN_GLES_VERSION`] for OpenGL ES).
    pub version: Option<(u8, u8)>,
    pub device: DevicePreference,
    /// How kernels fetch; `None`: the dialect's choice (rectangle textures on desktop GL,
    /// [`super::ES_FETCH`] on OpenGL ES). Rectangle textures do not exist on OpenGL ES.
    pub fetch: Option<super::Fetch>,
    /// Use at most this many draw buffers (targets one pass writes), whatever the driver has:
    /// how the fallback of kernels that need more is exercised on a driver with enough.
    pub max_draw_buffers: Option<u32>,
}

impl Default for HeadlessOptions {
    fn default() -> Self {
        Self {
            api: GlApi::Auto,
            version: None,
            device: DevicePreference::default(),
            fetch: None,
            max_draw_buffers: None,
        }
    }
}

impl HeadlessOptions {
    /// An OpenGL ES 3 context on the preferred device.
    pub fn es() -> Self {
        Self { api: GlApi::Es, ..Self::default() }
    }
    /// A desktop OpenGL context on the preferred device.
    pub fn desktop() -> Self {
        Self { api: GlApi::Desktop, ..Self::default() }
    }
}
