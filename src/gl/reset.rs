//! `glGetGraphicsResetStatus`, which glow does not expose: loaded by hand where the context has it.
#![allow(unsafe_code)]

use std::ffi::{c_void, CStr};

/// `glGetGraphicsResetStatus` (GL 4.5, or the KHR/ARB robustness extensions).
pub type ResetStatusFn = unsafe extern "system" fn() -> u32;

/// Loads the reset-status query where the context says it has one and was made to report
/// resets (a robust context, `GL_LOSE_CONTEXT_ON_RESET`; on any other the query always answers
/// "no reset"). Some EGL implementations return a pointer for any name, so the version and
/// extension list decide, not the pointer alone.
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
    // SAFETY: context current (the caller's contract); the parameter exists with robustness.
    let strategy = unsafe { gl.get_parameter_i32(glow::RESET_NOTIFICATION_STRATEGY) };
    // SAFETY: as above; clears an INVALID_ENUM from a driver that lacks the parameter.
    unsafe { gl.get_error() };
    if strategy != glow::LOSE_CONTEXT_ON_RESET as i32 {
        return None;
    }
    let ptr = load(name);
    // SAFETY: a non-null pointer for this name is the GL entry point of that signature.
    (!ptr.is_null()).then(|| unsafe { std::mem::transmute::<*const c_void, ResetStatusFn>(ptr) })
}
