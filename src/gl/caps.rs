//! The capability probe: run once on a fresh context (the TF.js way: probe, then decide), it
//! fills the [`GpuInfo`] record every other part of the crate reads instead of asking the driver.
#![allow(unsafe_code)]

use super::dialect::{Dialect, Fetch};
use super::error::{GlError, GlResult};
use super::info::{FenceWait, FragmentCounting, GpuInfo, Readback, TimerQuery};
use super::texture::TexelFormat;
use glow::HasContext;

/// The oldest desktop OpenGL the kernels run on (core profile).
pub const MIN_GL_VERSION: (u8, u8) = (3, 3);
/// The oldest OpenGL ES the kernels run on (WebGL2 is OpenGL ES 3.0).
pub const MIN_GLES_VERSION: (u8, u8) = (3, 0);

/// How ES and WebGL2 contexts fetch: normalized `texture()` on 2D textures. On Mesa llvmpipe
/// (`glsolve bench dialects`, m = 1024, one run) it took 1.07–1.30× the desktop rectangle
/// fetch's time where `texelFetch` took 1.15–2.07×, with bit-identical results.
pub const ES_FETCH: Fetch = Fetch::Normalized;

/// Probes the current context. `platform` says where it lives; `reset_notification` whether a
/// reset query was loaded for it; `fetch` how kernels shall fetch (`None`: the dialect's way).
pub(super) fn probe(
    gl: &glow::Context,
    platform: String,
    reset_notification: bool,
    fetch: Option<Fetch>,
) -> GlResult<GpuInfo> {
    let version = gl.version().clone();
    let es = version.is_embedded;
    // SAFETY: the caller made the context current on this thread.
    let [vendor, renderer, version_string, glsl_version] = unsafe {
        [glow::VENDOR, glow::RENDERER, glow::VERSION, glow::SHADING_LANGUAGE_VERSION]
            .map(|p| gl.get_parameter_string(p))
    };
    // WebGL masks the renderer ("WebKit WebGL"); WEBGL_debug_renderer_info's parameter names
    // the real one (SwiftShader, ANGLE on a GPU), which says whether it is a software rasterizer.
    #[cfg(target_arch = "wasm32")]
    let renderer = {
        const UNMASKED_RENDERER_WEBGL: u32 = 0x9246;
        // SAFETY: an unknown parameter yields an empty string and a GL error, cleared here.
        let unmasked = unsafe { gl.get_parameter_string(UNMASKED_RENDERER_WEBGL) };
        // SAFETY: as above.
        unsafe { gl.get_error() };
        if unmasked.is_empty() {
            renderer
        } else {
            unmasked
        }
    };
    let (major, minor) = if es { MIN_GLES_VERSION } else { MIN_GL_VERSION };
    if (version.major, version.minor) < (major as u32, minor as u32) {
        return Err(GlError::VersionTooOld { found: version_string, es, major, minor });
    }
    let (dialect, default_fetch) = if es { (Dialect::Essl300, ES_FETCH) } else { (Dialect::Glsl330, Fetch::Rectangle) };
    let fetch = fetch.unwrap_or(default_fetch);
    if es && fetch.uses_rectangles() {
        return Err(GlError::FetchUnsupported {
            fetch: fetch.name(),
            detail: "OpenGL ES has no rectangle textures".into(),
        });
    }
    let target = fetch.texture_target();
    // SAFETY: as above; rectangle limits are asked only where rectangle textures exist.
    let (max_texture_size, max_rectangle_texture_size) = unsafe {
        let rect = if fetch.uses_rectangles() { gl.get_parameter_i32(glow::MAX_RECTANGLE_TEXTURE_SIZE) } else { 0 };
        (gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE).max(0) as u32, rect.max(0) as u32)
    };
    // SAFETY: as above; three integer limits every GL 3.3 / ES 3.0 context has.
    let [max_draw_buffers, max_color_attachments, max_texture_units] = unsafe {
        [glow::MAX_DRAW_BUFFERS, glow::MAX_COLOR_ATTACHMENTS, glow::MAX_TEXTURE_IMAGE_UNITS]
            .map(|p| gl.get_parameter_i32(p).max(0) as u32)
    };
    let exts = gl.supported_extensions();
    let has = |names: &[&str]| names.iter().any(|n| exts.contains(*n));
    // Float render support is checked by making targets, so later failures are real ones.
    let red_read = render_target(gl, target, TexelFormat::R32F, es)?;
    render_target(gl, target, TexelFormat::Rgba32F, false)?;
    let readback = if !es || red_read == Some(true) { Readback::Red } else { Readback::RgbaOnly };
    let timer_query = if !es {
        TimerQuery::Core
    } else if has(&["EXT_disjoint_timer_query_webgl2"]) {
        TimerQuery::Deferred
    } else if has(&["GL_EXT_disjoint_timer_query"]) {
        TimerQuery::DisjointExt
    } else {
        TimerQuery::None
    };
    let fp64 = !es && ((version.major, version.minor) >= (4, 0) || has(&["GL_ARB_gpu_shader_fp64"]));
    Ok(GpuInfo {
        platform,
        vendor,
        renderer,
        version: version_string,
        glsl_version,
        dialect,
        fetch,
        max_texture_size,
        max_rectangle_texture_size,
        max_draw_buffers,
        max_color_attachments,
        max_texture_units,
        r32f_renderable: true,
        rgba32f_renderable: true,
        fragment_counting: if es { FragmentCounting::Predicted } else { FragmentCounting::SamplesPassed },
        timer_query,
        readback,
        fence_wait: if cfg!(target_arch = "wasm32") { FenceWait::Polling } else { FenceWait::Blocking },
        fp64,
        reset_notification,
    })
}

/// Makes a 1×1 texture of `format` on `target` and attaches it as a render target; a driver that
/// cannot render to it gets [`GlError::FloatTargetUnsupported`]. With `ask_read_format` (an ES
/// query) it also says whether the target may be read back as `GL_RED`/`GL_FLOAT`, the
/// implementation's own read format beside the always allowed `GL_RGBA`/`GL_FLOAT`.
pub(super) fn render_target(
    gl: &glow::Context,
    target: u32,
    format: TexelFormat,
    ask_read_format: bool,
) -> GlResult<Option<bool>> {
    render_target_raw(gl, target, format.internal(), format.pixel_format(), format.name(), ask_read_format)
}

/// The probe on any internal format (`pixel_format` is the matching upload format).
pub(super) fn render_target_raw(
    gl: &glow::Context,
    target: u32,
    internal: u32,
    pixel_format: u32,
    name: &'static str,
    ask_read_format: bool,
) -> GlResult<Option<bool>> {
    let unsupported = |detail: String| GlError::FloatTargetUnsupported { format: name, detail };
    // SAFETY: context current; both objects are deleted before returning.
    unsafe {
        let tex = gl.create_texture().map_err(|d| GlError::Create { what: "a texture", detail: d })?;
        gl.bind_texture(target, Some(tex));
        // A 2D texture with the default mipmap filter is incomplete: NEAREST, as every texture.
        gl.tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
        gl.tex_parameter_i32(target, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
        gl.tex_image_2d(
            target,
            0,
            internal as i32,
            1,
            1,
            0,
            pixel_format,
            glow::FLOAT,
            glow::PixelUnpackData::Slice(None),
        );
        let fbo = match gl.create_framebuffer() {
            Ok(f) => f,
            Err(d) => {
                gl.delete_texture(tex);
                return Err(GlError::Create { what: "a framebuffer", detail: d });
            }
        };
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_texture_2d(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, target, Some(tex), 0);
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        let red_read = (ask_read_format && status == glow::FRAMEBUFFER_COMPLETE).then(|| {
            gl.get_parameter_i32(glow::IMPLEMENTATION_COLOR_READ_FORMAT) == glow::RED as i32
                && gl.get_parameter_i32(glow::IMPLEMENTATION_COLOR_READ_TYPE) == glow::FLOAT as i32
        });
        let code = gl.get_error();
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.delete_framebuffer(fbo);
        gl.delete_texture(tex);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(unsupported(format!("framebuffer status 0x{status:04x}")));
        }
        if code != glow::NO_ERROR {
            return Err(unsupported(format!("GL error 0x{code:04x}")));
        }
        Ok(red_read)
    }
}
