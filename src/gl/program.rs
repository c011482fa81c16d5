//! Kernels (one fragment shader file each) compiled with the shared vertex shader, cached by
//! (file, variant defines), with their uniforms resolved once at link time.
//!
//! A kernel declares the variant macros it understands; asking for any other is an error
//! ([`GlError::UnknownDefine`]), so a misspelt variant cannot silently compile the default. A
//! pass must set exactly the uniforms its program uses: a name the kernel does not declare is
//! [`GlError::UnknownUniform`], an active uniform left unset is [`GlError::MissingUniform`].
#![allow(unsafe_code)]

use super::dialect::{self, Stage};
use super::error::{GlError, GlResult};
use super::shared::Shared;
use super::texture::TexelFormat;
use glow::HasContext;
use std::rc::Rc;

/// One shader: its file name (for errors and logs), its source, and the variant macros it reads.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    pub file: &'static str,
    pub source: &'static str,
    /// Macro names a pass may `#define` (a define may carry a value: `"BLOCK 16"`).
    pub variants: &'static [&'static str],
}

impl Kernel {
    /// Whether `define` (`NAME` or `NAME value`) names one of this kernel's variants.
    pub fn accepts(&self, define: &str) -> bool {
        let name = define.split_whitespace().next().unwrap_or("");
        self.variants.contains(&name)
    }
}

/// The vertex shader shared by every pass: texel-unit positions to clip space, T0/T1 passed on.
pub const PASS_VERT: Kernel = Kernel { file: "pass.vert", source: include_str!("../../glsl/pass.vert"), variants: &[] };

/// How many source textures a pass may bind (samplers `S0`..`S15`): the texture units every
/// context glsolve runs on has (GL 3.3, OpenGL ES 3.0 and WebGL2 all guarantee
/// GL_MAX_TEXTURE_IMAGE_UNITS ≥ 16; the capability probe checks it).
pub const MAX_SOURCES: usize = 16;

/// The most fragment outputs a kernel may declare (`tile0`..`tile7`, each an RGBA target).
pub const MAX_OUTPUTS: usize = 8;

/// Uniforms every program gets from the runner, never from a pass.
const RUNNER_UNIFORMS: [&str; 1] = ["viewport"];

pub(super) struct Program {
    shared: Rc<Shared>,
    pub(super) program: glow::Program,
    pub(super) viewport: Option<glow::UniformLocation>,
    /// The active scalar uniforms a pass must set, with their locations.
    pub(super) uniforms: Vec<(String, glow::UniformLocation)>,
    /// Every uniform name the kernel's source declares (active or optimized away).
    pub(super) declared: Vec<String>,
    pub(super) name: String,
    /// What the kernel writes: `out float` (R32F targets) or `out vec4` (RGBA32F targets).
    pub(super) output: TexelFormat,
    /// How many targets it writes: 1 (`result`), or the active `tile0`, `tile1`, … outputs of a
    /// register-tile kernel (one per plane, at locations 0, 1, …).
    pub(super) outputs: usize,
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the context is alive (held by `shared`) and `gl()` makes it current.
        unsafe { self.shared.gl().delete_program(self.program) }
    }
}

impl Program {
    /// The location of each of the pass's uniforms, in order; every active uniform must be set.
    pub(super) fn locate(
        &self,
        pass: &str,
        given: &[(&'static str, f32)],
    ) -> GlResult<Vec<Option<glow::UniformLocation>>> {
        let mut out = Vec::with_capacity(given.len());
        for (name, _) in given {
            match self.uniforms.iter().find(|(n, _)| n == name) {
                // A native location is Copy, a WebGL one is not.
                #[allow(clippy::clone_on_copy)]
                Some((_, loc)) => out.push(Some(loc.clone())),
                // Declared but optimized away by this driver: setting it is harmless.
                None if self.declared.iter().any(|d| d == name) => out.push(None),
                None => {
                    return Err(GlError::UnknownUniform {
                        pass: pass.into(),
                        kernel: self.name.clone(),
                        name: (*name).into(),
                        declared: self.declared.join(", "),
                    })
                }
            }
        }
        if let Some((missing, _)) = self.uniforms.iter().find(|(n, _)| !given.iter().any(|(g, _)| g == n)) {
            return Err(GlError::MissingUniform {
                pass: pass.into(),
                kernel: self.name.clone(),
                name: missing.clone(),
            });
        }
        Ok(out)
    }
}

/// The names of the `uniform` declarations in a kernel's source (samplers included), whatever
/// the preprocessor later keeps: `uniform float tiny;`, `uniform vec2 viewport;`, …
pub fn declared_uniforms(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in source.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        let Some(rest) = line.strip_prefix("uniform ") else { continue };
        let decl = rest.trim_end_matches(';');
        // `uniform TYPE a, b;` — the names follow the type.
        let mut parts = decl.splitn(2, char::is_whitespace);
        let (_ty, names_part) = (parts.next(), parts.next().unwrap_or(""));
        for n in names_part.split(',') {
            let n = n.trim().split('[').next().unwrap_or("").trim();
            if !n.is_empty() {
                names.push(n.to_string());
            }
        }
    }
    names
}

pub(super) fn compile(shared: &Rc<Shared>, fragment: &Kernel, defines: &[&str]) -> GlResult<Program> {
    if let Some(bad) = defines.iter().find(|d| !fragment.accepts(d)) {
        return Err(GlError::UnknownDefine {
            kernel: fragment.file.into(),
            define: (*bad).into(),
            known: fragment.variants.join(", "),
        });
    }
    let gl = shared.gl();
    let vertex = &PASS_VERT;
    let name = if defines.is_empty() {
        fragment.file.to_string()
    } else {
        format!("{} [{}]", fragment.file, defines.join(", "))
    };
    // SAFETY: context current on this thread; shaders are deleted on every path, the program on
    // failure or by `Program::drop`.
    unsafe {
        let program = gl.create_program().map_err(|d| GlError::Create { what: "a program", detail: d })?;
        let mut shaders = Vec::new();
        for (kind, k, defs) in [(glow::VERTEX_SHADER, vertex, &[][..]), (glow::FRAGMENT_SHADER, fragment, defines)] {
            let sh = match gl.create_shader(kind) {
                Ok(s) => s,
                Err(d) => {
                    cleanup(&gl, program, &shaders);
                    return Err(GlError::Create { what: "a shader", detail: d });
                }
            };
            let stage = if kind == glow::VERTEX_SHADER { Stage::Vertex } else { Stage::Fragment };
            gl.shader_source(sh, &dialect::assemble(shared.dialect, shared.fetch, stage, k.source, defs));
            gl.compile_shader(sh);
            shaders.push(sh);
            if !gl.get_shader_compile_status(sh) {
                let log = gl.get_shader_info_log(sh);
                cleanup(&gl, program, &shaders);
                let kernel = if kind == glow::VERTEX_SHADER { k.file.to_string() } else { name.clone() };
                return Err(GlError::ShaderCompile { kernel, log: numbered_log(&log, k) });
            }
            gl.attach_shader(program, sh);
        }
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            cleanup(&gl, program, &shaders);
            return Err(GlError::ShaderLink { kernel: name, log });
        }
        for sh in shaders {
            gl.detach_shader(program, sh);
            gl.delete_shader(sh);
        }
        gl.use_program(Some(program));
        let mut uniforms = Vec::new();
        for index in 0..gl.get_active_uniforms(program) {
            let Some(u) = gl.get_active_uniform(program, index) else { continue };
            let Some(loc) = gl.get_uniform_location(program, &u.name) else { continue };
            if let Some(unit) = sampler_unit(&u.name) {
                gl.uniform_1_i32(Some(&loc), unit as i32);
            } else if !RUNNER_UNIFORMS.contains(&u.name.as_str()) {
                if u.utype != glow::FLOAT {
                    cleanup(&gl, program, &[]);
                    return Err(GlError::UniformType { kernel: name, name: u.name });
                }
                uniforms.push((u.name, loc));
            }
        }
        let viewport = gl.get_uniform_location(program, "viewport");
        let declared = declared_uniforms(fragment.source);
        let output = output_format(fragment.source);
        let mut outputs = 1;
        for k in 0..MAX_OUTPUTS {
            let location = gl.get_frag_data_location(program, &format!("tile{k}"));
            if location < 0 {
                break;
            }
            if location != k as i32 {
                cleanup(&gl, program, &[]);
                return Err(GlError::ShaderLink {
                    kernel: name,
                    log: format!("output tile{k} is at location {location}; tile k must be at location k"),
                });
            }
            outputs = k + 1;
        }
        Ok(Program { shared: Rc::clone(shared), program, viewport, uniforms, declared, name, output, outputs })
    }
}

/// A kernel that declares `out vec4` (after an optional `layout(location = k)`) writes RGBA
/// texels; every other kernel writes one float.
pub fn output_format(source: &str) -> TexelFormat {
    let vec4 = source.lines().any(|l| {
        let l = l.split("//").next().unwrap_or("").trim();
        let l = match l.strip_prefix("layout") {
            Some(rest) => rest.split_once(')').map_or("", |(_, after)| after.trim_start()),
            None => l,
        };
        l.starts_with("out vec4 ")
    });
    if vec4 {
        TexelFormat::Rgba32F
    } else {
        TexelFormat::R32F
    }
}

/// `S0`..`S15` are the pass's source textures, bound to units 0..15.
fn sampler_unit(name: &str) -> Option<usize> {
    let unit: usize = name.strip_prefix('S')?.parse().ok()?;
    (unit < MAX_SOURCES).then_some(unit)
}

/// Deletes `shaders` and `program` (a compile or link that failed, or shaders no longer needed).
///
/// # Safety
/// `gl` is current on this thread and owns `program` and `shaders`, which nothing uses after.
unsafe fn cleanup(gl: &glow::Context, program: glow::Program, shaders: &[glow::Shader]) {
    // SAFETY: the caller's contract (# Safety): the context is current and the objects are
    // its own, deleted once.
    unsafe {
        for &sh in shaders {
            gl.delete_shader(sh);
        }
        gl.delete_program(program);
    }
}

/// The driver's log followed by the kernel's source with line numbers, so the failing line is
/// visible without opening the file.
fn numbered_log(log: &str, k: &Kernel) -> String {
    let mut s = format!("{}\n--- {} ---\n", log.trim_end(), k.file);
    for (n, line) in k.source.lines().enumerate() {
        s.push_str(&format!("{:4} | {}\n", n + 1, line));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn declared_uniforms_are_read_from_the_source() {
        let src = "uniform samplerRECT S0;\n#ifdef X\nuniform float tiny; // noise\nuniform float a, b[2];\n#endif\nout float r;";
        assert_eq!(declared_uniforms(src), ["S0", "tiny", "a", "b"]);
    }

    #[test]
    fn outputs_after_a_layout_qualifier_are_rgba() {
        assert_eq!(output_format("layout(location = 3) out vec4 tile3;"), TexelFormat::Rgba32F);
        assert_eq!(output_format("out vec4 result;"), TexelFormat::Rgba32F);
        assert_eq!(output_format("out float result;"), TexelFormat::R32F);
        assert_eq!(output_format("// out vec4 result;\nout float result;"), TexelFormat::R32F);
    }

    #[test]
    fn defines_are_matched_by_macro_name() {
        let k = Kernel { file: "k.frag", source: "", variants: &["TRIAD", "BLOCK"] };
        assert!(k.accepts("TRIAD"));
        assert!(k.accepts("BLOCK 16"));
        assert!(!k.accepts("TRAID"));
        assert!(!k.accepts(""));
    }

    #[test]
    fn samplers_are_s0_to_s15() {
        assert_eq!(sampler_unit("S0"), Some(0));
        assert_eq!(sampler_unit("S15"), Some(15));
        assert_eq!(sampler_unit("S16"), None);
        assert_eq!(sampler_unit("Sx"), None);
        assert_eq!(sampler_unit("tiny"), None);
    }
}
