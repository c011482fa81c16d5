//! Making a GL context: headless through EGL's device platform (tests, CI, benchmarks).
//! A windowed context (the debug viewer) hands its own `glow::Context` to [`super::Gpu::from_glow`].
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use glutin::api::egl::{context::PossiblyCurrentContext, device::Device, display::Display};
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Robustness, Version};
use glutin::prelude::*;
use std::ffi::{c_void, CStr};

/// The smallest OpenGL version glsolve runs on (core profile).
pub const MIN_GL_VERSION: (u8, u8) = (3, 3);

/// Which EGL device to prefer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DevicePreference {
    /// A hardware device if there is one, else Mesa's software device.
    #[default]
    HardwareFirst,
    /// Only a software rasterizer (reproducible results on any machine).
    SoftwareOnly,
}

/// Options for [`super::Gpu::headless_with`].
#[derive(Clone, Copy, Debug)]
pub struct HeadlessOptions {
    /// The OpenGL core version to ask for.
    pub version: (u8, u8),
    pub device: DevicePreference,
}

impl Default for HeadlessOptions {
    fn default() -> Self {
        Self { version: MIN_GL_VERSION, device: DevicePreference::default() }
    }
}

/// The EGL objects a headless context lives on; kept alive as long as any GL object.
pub struct HeadlessEgl {
    _context: PossiblyCurrentContext,
    _display: Display,
    pub egl_version: String,
    pub device: String,
}

impl super::shared::ContextHome for HeadlessEgl {
    fn is_current(&self) -> bool {
        self._context.is_current()
    }

    fn make_current(&self) -> Result<(), String> {
        self._context.make_current_surfaceless().map_err(|e| e.to_string())
    }
}

/// A made headless context: its EGL objects, the GL function table, the reset query if any.
pub type Headless = (HeadlessEgl, glow::Context, Option<ResetStatusFn>);

/// `glGetGraphicsResetStatus` (GL 4.5, or the KHR/ARB robustness extensions), which glow does not expose.
pub type ResetStatusFn = unsafe extern "system" fn() -> u32;

/// Loads the reset-status query where the context says it has one. Some EGL implementations return
/// a pointer for any name, so the version and extension list decide, not the pointer alone.
pub fn load_reset_status(gl: &glow::Context, load: impl Fn(&CStr) -> *const c_void) -> Option<ResetStatusFn> {
    use glow::HasContext;
    let v = gl.version();
    let exts = gl.supported_extensions();
    let name: &CStr = if !v.is_embedded && (v.major, v.minor) >= (4, 5) {
        c"glGetGraphicsResetStatus"
    } else if exts.contains("GL_KHR_robustness") {
        c"glGetGraphicsResetStatusKHR"
    } else if exts.contains("GL_ARB_robustness") {
        c"glGetGraphicsResetStatusARB"
    } else {
        return None;
    };
    let ptr = load(name);
    // SAFETY: a non-null pointer for this name is the GL entry point of that signature.
    (!ptr.is_null()).then(|| unsafe { std::mem::transmute::<*const c_void, ResetStatusFn>(ptr) })
}

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
    for device in &devices {
        match on_device(device, opts.version) {
            Ok(made) => return Ok(made),
            Err(e) => failures.push(e),
        }
    }
    // A version refusal on every device is the more useful message.
    let pick = failures.iter().position(|e| matches!(e, GlError::NoContext { .. })).unwrap_or(0);
    Err(failures.swap_remove(pick))
}

fn on_device(device: &Device, (major, minor): (u8, u8)) -> GlResult<Headless> {
    let kind = if is_software(device) { "software device" } else { "hardware device" };
    let name = match device.name().or(device.vendor()) {
        Some(n) => format!("{n} ({kind})"),
        None => kind.to_string(),
    };
    let no_device = |what: &str, e: glutin::error::Error| GlError::NoDevice { detail: format!("{name}: {what}: {e}") };
    // SAFETY: no native display handle is passed; the device comes from EGL's own enumeration.
    let display = unsafe { Display::with_device(device, None) }.map_err(|e| no_device("display", e))?;
    // The default template asks for window surfaces, which a device display has none of.
    let template =
        ConfigTemplateBuilder::new().with_surface_type(ConfigSurfaceTypes::empty()).with_api(Api::OPENGL).build();
    // SAFETY: the display is valid for the duration of the call.
    let config = unsafe { display.find_configs(template) }
        .map_err(|e| no_device("configs", e))?
        .next()
        .ok_or_else(|| GlError::NoDevice { detail: format!("{name}: no OpenGL config without surfaces") })?;
    let attrs = |robustness| {
        ContextAttributesBuilder::new()
            .with_profile(GlProfile::Core)
            .with_robustness(robustness)
            .with_context_api(ContextApi::OpenGl(Some(Version::new(major, minor))))
            .build(None)
    };
    // A robust context reports GPU resets through glGetGraphicsResetStatus; drivers without
    // robustness still get a plain context, where only GL_CONTEXT_LOST from glGetError tells.
    // SAFETY: config belongs to display; no window handle is involved.
    let context = unsafe { display.create_context(&config, &attrs(Robustness::RobustLoseContextOnReset)) }
        .or_else(|_| unsafe { display.create_context(&config, &attrs(Robustness::NotRobust)) })
        .map_err(|e| GlError::NoContext { major, minor, detail: format!("{name}: {e}") })?;
    let context = context.make_current_surfaceless().map_err(|e| GlError::NoContext {
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
