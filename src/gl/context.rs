//! Making a GL context: headless through EGL's device platform (tests, CI, benchmarks), desktop
//! OpenGL or OpenGL ES. A windowed context (the debug viewer) hands its own `glow::Context` to
//! [`super::Gpu::from_glow`].
#![allow(unsafe_code)]

use super::caps::{MIN_GLES_VERSION, MIN_GL_VERSION};
use super::error::{GlError, GlResult};
use super::reset::{load_reset_status, ResetStatusFn};
use super::shared::ContextHome;
use glutin::api::egl::{context::PossiblyCurrentContext, device::Device, display::Display};
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Robustness, Version};
use glutin::prelude::*;

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
    pub const ALL: &'static [GlApi] = &[GlApi::Auto, GlApi::Desktop, GlApi::Es];
    pub fn name(self) -> &'static str {
        match self {
            GlApi::Auto => "auto",
            GlApi::Desktop => "desktop",
            GlApi::Es => "es",
        }
    }
    /// The APIs to try, in order.
    fn attempts(self) -> &'static [GlApi] {
        match self {
            GlApi::Auto => &[GlApi::Desktop, GlApi::Es],
            GlApi::Desktop => &[GlApi::Desktop],
            GlApi::Es => &[GlApi::Es],
        }
    }
}

impl std::str::FromStr for GlApi {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL.iter().copied().find(|a| a.name() == s).ok_or_else(|| {
            format!(
                "unknown GL API `{s}` (one of: {})",
                Self::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
            )
        })
    }
}

/// Options for [`super::Gpu::headless_with`].
#[derive(Clone, Copy, Debug)]
pub struct HeadlessOptions {
    /// The API to ask for.
    pub api: GlApi,
    /// The version to ask for; `None`: the oldest the kernels run on ([`MIN_GL_VERSION`] core,
    /// [`MIN_GLES_VERSION`] for OpenGL ES).
    pub version: Option<(u8, u8)>,
    pub device: DevicePreference,
    /// How kernels fetch; `None`: the dialect's choice (rectangle textures on desktop GL,
    /// [`super::ES_FETCH`] on OpenGL ES). Rectangle textures do not exist on OpenGL ES.
    pub fetch: Option<super::Fetch>,
}

impl Default for HeadlessOptions {
    fn default() -> Self {
        Self { api: GlApi::Auto, version: None, device: DevicePreference::default(), fetch: None }
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

/// The EGL objects a headless context lives on; kept alive as long as any GL object.
pub struct HeadlessEgl {
    _context: PossiblyCurrentContext,
    _display: Display,
    pub egl_version: String,
    pub device: String,
}

impl ContextHome for HeadlessEgl {
    fn is_current(&self) -> bool {
        self._context.is_current()
    }

    fn make_current(&self) -> Result<(), String> {
        self._context.make_current_surfaceless().map_err(|e| e.to_string())
    }
}

/// A made headless context: its EGL objects, the GL function table, the reset query if any.
pub type Headless = (HeadlessEgl, glow::Context, Option<ResetStatusFn>);

fn is_software(d: &Device) -> bool {
    d.extensions().contains("EGL_MESA_device_software")
}

/// Creates a surfaceless context on the preferred EGL device and makes it current on this thread.
pub fn create_headless(opts: HeadlessOptions) -> GlResult<Headless> {
    let devices = Device::query_devices().map_err(|e| GlError::NoEgl { detail: e.to_string() })?;
    let mut devices: Vec<Device> = devices.collect();
    if opts.device == DevicePreference::SoftwareOnly {
        devices.retain(is_software);
    }
    // Hardware first: `false` sorts before `true`.
    devices.sort_by_key(is_software);
    if devices.is_empty() {
        return Err(GlError::NoEgl { detail: "EGL lists no usable device".into() });
    }
    let mut failures = Vec::new();
    for &api in opts.api.attempts() {
        let version = opts.version.unwrap_or(if api == GlApi::Es { MIN_GLES_VERSION } else { MIN_GL_VERSION });
        for device in &devices {
            match on_device(device, api, version) {
                Ok(made) => return Ok(made),
                Err(e) => failures.push(e),
            }
        }
    }
    // A version refusal on every device is the more useful message.
    let pick = failures.iter().position(|e| matches!(e, GlError::NoContext { .. })).unwrap_or(0);
    Err(failures.swap_remove(pick))
}

fn on_device(device: &Device, api: GlApi, (major, minor): (u8, u8)) -> GlResult<Headless> {
    let es = api == GlApi::Es;
    let kind = if is_software(device) { "software device" } else { "hardware device" };
    let name = match device.name().or(device.vendor()) {
        Some(n) => format!("{n} ({kind})"),
        None => kind.to_string(),
    };
    let no_device = |what: &str, e: glutin::error::Error| GlError::NoDevice { detail: format!("{name}: {what}: {e}") };
    // SAFETY: no native display handle is passed; the device comes from EGL's own enumeration.
    let display = unsafe { Display::with_device(device, None) }.map_err(|e| no_device("display", e))?;
    // The default template asks for window surfaces, which a device display has none of.
    let template = ConfigTemplateBuilder::new()
        .with_surface_type(ConfigSurfaceTypes::empty())
        .with_api(if es { Api::GLES3 } else { Api::OPENGL })
        .build();
    // SAFETY: the display is valid for the duration of the call.
    let config = unsafe { display.find_configs(template) }
        .map_err(|e| no_device("configs", e))?
        .next()
        .ok_or_else(|| GlError::NoDevice { detail: format!("{name}: no {} config without surfaces", api_name(es)) })?;
    let attrs = |robustness| {
        let b = ContextAttributesBuilder::new().with_robustness(robustness);
        if es {
            b.with_context_api(ContextApi::Gles(Some(Version::new(major, minor)))).build(None)
        } else {
            b.with_profile(GlProfile::Core)
                .with_context_api(ContextApi::OpenGl(Some(Version::new(major, minor))))
                .build(None)
        }
    };
    // A robust context reports GPU resets through glGetGraphicsResetStatus; drivers without
    // robustness (Mesa refuses it for ES: EGL error 0x3004) still get a plain context, where only
    // GL_CONTEXT_LOST from glGetError tells.
    // SAFETY: config belongs to display; no window handle is involved.
    let context = unsafe { display.create_context(&config, &attrs(Robustness::RobustLoseContextOnReset)) }
        .or_else(|_| unsafe { display.create_context(&config, &attrs(Robustness::NotRobust)) })
        .map_err(|e| GlError::NoContext { api: api_name(es), major, minor, detail: format!("{name}: {e}") })?;
    let context = context.make_current_surfaceless().map_err(|e| GlError::NoContext {
        api: api_name(es),
        major,
        minor,
        detail: format!("{name}: make current: {e}"),
    })?;
    // SAFETY: the context is current on this thread; pointers come from the same display.
    let gl = unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s)) };
    let reset_status = load_reset_status(&gl, |s| display.get_proc_address(s));
    let egl_version = display.version_string();
    Ok((HeadlessEgl { _context: context, _display: display, egl_version, device: name }, gl, reset_status))
}

fn api_name(es: bool) -> &'static str {
    if es {
        "OpenGL ES"
    } else {
        "OpenGL core"
    }
}
