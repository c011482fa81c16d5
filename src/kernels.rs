//! Every shader of glsolve, one file each under `glsl/`, compiled into the binary.
//! Kernel files carry no `#version`: the GL layer prepends it and the variant `#define`s.

use crate::gl::Kernel;

macro_rules! kernels {
    ($($(#[$doc:meta])* $name:ident = $file:literal;)*) => {
        $($(#[$doc])* pub const $name: Kernel = Kernel { file: $file, source: include_str!(concat!("../glsl/", $file)) };)*
        /// All kernels, for compile checks.
        pub const ALL: &[&Kernel] = &[$(&$name),*];
    };
}

kernels! {
    /// The vertex shader shared by every pass: texel-unit positions to clip space, T0/T1 passed on.
    PASS_VERT = "pass.vert";
    /// Writes the source texel at the fragment's own position (the papers' copy kernel).
    COPY = "copy.frag";
    /// Writes the source texel at the interpolated T0 (gathers, transposes via swizzled vertices).
    FETCH_T0 = "fetch_t0.frag";
    /// Writes T0.x, T0.y, T1.x or T1.y (selected by the uniform `component`): coordinate probes.
    PROBE_COORDS = "probe_coords.frag";
    /// Writes the uniform `value` (fills, markers).
    FILL = "fill.frag";
}
