//! Making a GL context: headless through EGL's device platform (tests, CI, benchmarks), desktop
//! OpenGL or OpenGL ES. A windowed context (the debug viewer) hands its own `glow::Context` to
//! [`super::Gpu::from_glow`].
#![allow(unsafe_code)]

use super::api::{GlApi, HeadlessOptions};
use super::caps::{MIN_GLES_VERSION, MIN_GL_VERSION};
use super::error::{GlError, GlResult};
use super::reset::{load_reset_status, ResetStatusFn};
use super::shared::ContextHome;
use super::DevicePreference;
use glutin::api::egl::{context::PossiblyCurrentContext, device::Device, display::Display};
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Robustness, Version};
use glutin::prelude::*;

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

    fn release(&self) -> Result<(), String> {
        self._context.make_not_current_in_place().map_err(|e| e.to_string())
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
    // SAFETY (both calls): config belongs to display; no window handle is involved.
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
