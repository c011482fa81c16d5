//! Kernels (one fragment shader file each) compiled with the shared vertex shader, cached by
//! (file, variant defines).
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::Shared;
use glow::HasContext;
use std::rc::Rc;

/// The version line every shader gets; kernel files carry none.
const VERSION_LINE: &str = "#version 330 core\n";

/// One fragment program: its file name (for errors and logs) and its source.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    pub file: &'static str,
    pub source: &'static str,
}

/// How many source textures a pass may bind (samplers `S0`..`S3`).
pub const MAX_SOURCES: usize = 4;

pub(super) struct Program {
    shared: Rc<Shared>,
    pub(super) program: glow::Program,
    pub(super) viewport: Option<glow::UniformLocation>,
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the context is alive (held by `shared`) and current on this thread.
        unsafe { self.shared.gl.delete_program(self.program) }
    }
}

/// Prepends the version and one `#define` per variant, then resets line numbers so the driver's
/// log refers to lines of the kernel's own file.
fn assemble(source: &str, defines: &[&str]) -> String {
    let mut s = String::from(VERSION_LINE);
    for d in defines {
        s.push_str("#define ");
        s.push_str(d);
        s.push('\n');
    }
    s.push_str("#line 1\n");
    s.push_str(source);
    s
}

pub(super) fn compile(shared: &Rc<Shared>, vertex: &Kernel, fragment: &Kernel, defines: &[&str]) -> GlResult<Program> {
    let gl = &shared.gl;
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
                    cleanup(gl, program, &shaders);
                    return Err(GlError::Create { what: "a shader", detail: d });
                }
            };
            gl.shader_source(sh, &assemble(k.source, defs));
            gl.compile_shader(sh);
            shaders.push(sh);
            if !gl.get_shader_compile_status(sh) {
                let log = gl.get_shader_info_log(sh);
                cleanup(gl, program, &shaders);
                let kernel = if kind == glow::VERTEX_SHADER { k.file.to_string() } else { name.clone() };
                return Err(GlError::ShaderCompile { kernel, log: numbered_log(&log, k) });
            }
            gl.attach_shader(program, sh);
        }
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            cleanup(gl, program, &shaders);
            return Err(GlError::ShaderLink { kernel: name, log });
        }
        for sh in shaders {
            gl.detach_shader(program, sh);
            gl.delete_shader(sh);
        }
        gl.use_program(Some(program));
        for unit in 0..MAX_SOURCES {
            if let Some(loc) = gl.get_uniform_location(program, &format!("S{unit}")) {
                gl.uniform_1_i32(Some(&loc), unit as i32);
            }
        }
        let viewport = gl.get_uniform_location(program, "viewport");
        Ok(Program { shared: Rc::clone(shared), program, viewport })
    }
}

unsafe fn cleanup(gl: &glow::Context, program: glow::Program, shaders: &[glow::Shader]) {
    for &sh in shaders {
        gl.delete_shader(sh);
    }
    gl.delete_program(program);
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
    fn assembled_source_has_version_defines_and_line_reset() {
        let s = assemble("void main(){}\n", &["TRIAD", "COMPUTED_INDEX"]);
        assert!(s.starts_with("#version 330 core\n#define TRIAD\n#define COMPUTED_INDEX\n#line 1\n"));
        assert!(s.ends_with("void main(){}\n"));
    }
}
