//! One kernel source, several shading languages: what the program layer prepends to a `glsl/`
//! file for the context at hand (pure text, tested without GL).
//!
//! Kernel files are written against three names, the papers' Cg vocabulary, that the prelude
//! defines per dialect:
//! - `samplerRECT`: the type of a source texture (`S0`, `S1`, …);
//! - `texRECT(s, p)`: the texel that contains the texel-unit point `p` (texel floor(p)), the
//!   papers' `texRECT`; `p` is usually an interpolated T0/T1, swizzled;
//! - `texelAt(s, ij)`: the texel at integer coordinates `ij` (an `ivec2`).
//!
//! Desktop GL keeps rectangle textures, which take texel-unit coordinates as they are. OpenGL ES
//! and WebGL2 have no rectangle textures: sources are `TEXTURE_2D` and a fetch turns the same
//! coordinates into either an integer `texelFetch` or a normalized `texture()`. GLSL ES samplers
//! and floats default to low precision in fragment shaders (on Mesa an RGBA32F fetch through a
//! lowp `sampler2D` comes back rounded to half precision), so the ES prelude sets every type a
//! kernel uses to `highp`.

/// The shading language of a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dialect {
    /// GLSL 3.30 core, desktop OpenGL 3.3 and newer.
    Glsl330,
    /// GLSL ES 3.00: OpenGL ES 3.0 and newer, and WebGL2.
    Essl300,
}

impl Dialect {
    /// The dialect's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Glsl330 => "GLSL 3.30 core",
            Dialect::Essl300 => "GLSL ES 3.00",
        }
    }
    /// The `#version` line.
    fn version_line(self) -> &'static str {
        match self {
            Dialect::Glsl330 => "#version 330 core\n",
            Dialect::Essl300 => "#version 300 es\n",
        }
    }
}

/// How a kernel's texel-unit coordinates become a texture fetch.
// `TexelFetch` is GLSL's function, and the name is in the stored benchmark JSON (docs/bench).
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Fetch {
    /// `texture()` on a rectangle texture (`sampler2DRect`), coordinates as they are: desktop GL.
    Rectangle,
    /// `texelFetch()` on a 2D texture at the integer part of the coordinates.
    TexelFetch,
    /// `texture()` on a 2D texture at the coordinates divided by the texture's size.
    Normalized,
}

impl Fetch {
    /// The fetch's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Fetch::Rectangle => "texture() on rectangle textures",
            Fetch::TexelFetch => "texelFetch() on 2D textures",
            Fetch::Normalized => "texture() on 2D textures, normalized coordinates",
        }
    }
    /// Whether source textures are rectangle textures (else 2D textures).
    pub fn uses_rectangles(self) -> bool {
        self == Fetch::Rectangle
    }
    /// The texture target every texture of the context is made on.
    pub(super) fn texture_target(self) -> u32 {
        if self.uses_rectangles() {
            glow::TEXTURE_RECTANGLE
        } else {
            glow::TEXTURE_2D
        }
    }
}

/// Which shader a prelude is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Vertex,
    Fragment,
}

/// The sampler types the ES prelude makes `highp`: `samplerRECT` becomes `sampler2D` there, and
/// no kernel uses another (a test checks every kernel against this list).
pub const ES_SAMPLER_TYPES: &[&str] = &["sampler2D"];

/// The text before a kernel's `#line 1`: version, extensions the kernel asks for, precision,
/// the fetch vocabulary, and the variant `#define`s.
pub fn prelude(dialect: Dialect, fetch: Fetch, stage: Stage, extensions: &[&str], defines: &[&str]) -> String {
    let mut s = String::from(dialect.version_line());
    // `#extension` must precede every other token but the version.
    for e in extensions {
        s.push_str(e.trim());
        s.push('\n');
    }
    if dialect == Dialect::Essl300 {
        s.push_str("precision highp float;\nprecision highp int;\n");
        if stage == Stage::Fragment {
            for t in ES_SAMPLER_TYPES {
                s.push_str(&format!("precision highp {t};\n"));
            }
        }
    }
    if stage == Stage::Fragment {
        s.push_str(match fetch {
            Fetch::Rectangle => {
                "#define samplerRECT sampler2DRect\n\
                 #define texRECT(s, p) texture(s, p)\n\
                 #define texelAt(s, p) texture(s, vec2(p) + 0.5)\n"
            }
            Fetch::TexelFetch => {
                "#define samplerRECT sampler2D\n\
                 #define texRECT(s, p) texelFetch(s, ivec2(floor(p)), 0)\n\
                 #define texelAt(s, p) texelFetch(s, p, 0)\n"
            }
            Fetch::Normalized => {
                "#define samplerRECT sampler2D\n\
                 #define texRECT(s, p) texture(s, (p) / vec2(textureSize(s, 0)))\n\
                 #define texelAt(s, p) texture(s, (vec2(p) + 0.5) / vec2(textureSize(s, 0)))\n"
            }
        });
    }
    for d in defines {
        s.push_str("#define ");
        s.push_str(d);
        s.push('\n');
    }
    s
}

/// A kernel source split into its `#extension` lines (hoisted into the prelude) and its body,
/// where each hoisted line is left empty so line numbers still match the file.
pub fn split_extensions(source: &str) -> (Vec<&str>, String) {
    let mut extensions = Vec::new();
    let mut body = String::with_capacity(source.len());
    for line in source.split_inclusive('\n') {
        if line.trim_start().starts_with("#extension") {
            extensions.push(line.trim_end());
            body.push('\n');
        } else {
            body.push_str(line);
        }
    }
    (extensions, body)
}

/// The whole shader text: prelude, `#line 1` so driver logs name lines of the kernel's file,
/// then the kernel.
pub fn assemble(dialect: Dialect, fetch: Fetch, stage: Stage, source: &str, defines: &[&str]) -> String {
    let (extensions, body) = split_extensions(source);
    let mut s = prelude(dialect, fetch, stage, &extensions, defines);
    s.push_str("#line 1\n");
    s.push_str(&body);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn desktop_keeps_rectangle_textures_and_its_version_line() {
        let s = assemble(Dialect::Glsl330, Fetch::Rectangle, Stage::Fragment, "void main(){}\n", &["TRIAD"]);
        assert!(s.starts_with("#version 330 core\n"));
        assert!(s.contains("#define samplerRECT sampler2DRect\n"));
        assert!(s.contains("#define TRIAD\n#line 1\nvoid main(){}\n"));
        assert!(!s.contains("precision"));
    }

    #[test]
    fn es_sets_every_type_to_high_precision_before_the_kernel() {
        let s = assemble(Dialect::Essl300, Fetch::TexelFetch, Stage::Fragment, "void main(){}\n", &["BLOCK 16"]);
        assert!(s.starts_with("#version 300 es\n"));
        let kernel = s.find("#line 1").unwrap();
        for p in ["precision highp float;", "precision highp int;", "precision highp sampler2D;"] {
            let at = s.find(p).unwrap_or_else(|| panic!("{p} missing"));
            assert!(at < kernel);
        }
        assert!(s.contains("#define samplerRECT sampler2D\n"));
        assert!(s.contains("#define BLOCK 16\n"));
        let v = assemble(Dialect::Essl300, Fetch::TexelFetch, Stage::Vertex, "void main(){}\n", &[]);
        assert!(v.contains("precision highp float;") && !v.contains("sampler2D") && !v.contains("texRECT"));
    }

    #[test]
    fn extensions_are_hoisted_above_precision_and_lines_keep_their_numbers() {
        let src = "#extension GL_ARB_gpu_shader_fp64 : require\n// one\nvoid main(){}\n";
        let s = assemble(Dialect::Glsl330, Fetch::Rectangle, Stage::Fragment, src, &[]);
        assert!(s.starts_with("#version 330 core\n#extension GL_ARB_gpu_shader_fp64 : require\n"));
        let body = &s[s.find("#line 1\n").unwrap() + 8..];
        assert_eq!(body, "\n// one\nvoid main(){}\n");
    }

    #[test]
    fn every_fetch_defines_the_three_names() {
        for f in [Fetch::Rectangle, Fetch::TexelFetch, Fetch::Normalized] {
            let s = prelude(Dialect::Essl300, f, Stage::Fragment, &[], &[]);
            for name in ["#define samplerRECT ", "#define texRECT(s, p) ", "#define texelAt(s, p) "] {
                assert!(s.contains(name), "{f:?} lacks {name}");
            }
        }
    }
}
