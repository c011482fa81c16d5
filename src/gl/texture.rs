//! Single-channel float rectangle textures (the papers' `samplerRECT` streams), each with its own
//! framebuffer so it can be a pass target, and the ping-pong pair of Algorithms 2 and 5.
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::Shared;
use glow::HasContext;
use std::rc::Rc;

/// An R32F `GL_TEXTURE_RECTANGLE` of `width × height` texels, NEAREST filtered, addressed in texel
/// units (x = column, y = row). Freed (texture and framebuffer) when dropped.
pub struct Texture {
    pub(super) shared: Rc<Shared>,
    pub(super) tex: glow::Texture,
    pub(super) fbo: glow::Framebuffer,
    width: u32,
    height: u32,
    id: u64,
}

impl Texture {
    pub(super) fn new(shared: &Rc<Shared>, width: u32, height: u32, data: Option<&[f32]>) -> GlResult<Self> {
        Self::with_format(shared, width, height, data, glow::R32F)
    }

    pub(super) fn with_format(
        shared: &Rc<Shared>,
        width: u32,
        height: u32,
        data: Option<&[f32]>,
        internal_format: u32,
    ) -> GlResult<Self> {
        let gl = &shared.gl;
        // SAFETY: the context is current on this thread (a `Gpu` never leaves its thread); every
        // object created here is owned by the returned value or deleted on the error path.
        unsafe {
            let tex = gl.create_texture().map_err(|d| GlError::Create { what: "a texture", detail: d })?;
            gl.bind_texture(glow::TEXTURE_RECTANGLE, Some(tex));
            for (p, v) in [
                (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
                (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
                (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
            ] {
                gl.tex_parameter_i32(glow::TEXTURE_RECTANGLE, p, v as i32);
            }
            let bytes = data.map(as_bytes);
            gl.tex_image_2d(
                glow::TEXTURE_RECTANGLE,
                0,
                internal_format as i32,
                width as i32,
                height as i32,
                0,
                glow::RED,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(bytes),
            );
            let fbo = match gl.create_framebuffer() {
                Ok(f) => f,
                Err(d) => {
                    gl.delete_texture(tex);
                    return Err(GlError::Create { what: "a framebuffer", detail: d });
                }
            };
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::TEXTURE_RECTANGLE,
                Some(tex),
                0,
            );
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                gl.delete_framebuffer(fbo);
                gl.delete_texture(tex);
                return Err(GlError::FramebufferIncomplete {
                    what: format!("a {width}×{height} texture of format 0x{internal_format:04x}"),
                    status,
                });
            }
            let code = gl.get_error();
            if code != glow::NO_ERROR {
                gl.delete_framebuffer(fbo);
                gl.delete_texture(tex);
                return Err(GlError::Driver {
                    call: format!("creating a {width}×{height} texture of format 0x{internal_format:04x}"),
                    code,
                });
            }
            shared.live_textures.set(shared.live_textures.get() + 1);
            let id = shared.next_id.get();
            shared.next_id.set(id + 1);
            Ok(Texture { shared: Rc::clone(shared), tex, fbo, width, height, id })
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn height(&self) -> u32 {
        self.height
    }
    /// Number of texels.
    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A number unique among the textures of one `Gpu` (for logs and the viewer).
    pub fn id(&self) -> u64 {
        self.id
    }
}

impl Drop for Texture {
    fn drop(&mut self) {
        // SAFETY: `shared` keeps the context alive and it is current on this thread.
        unsafe {
            self.shared.gl.delete_framebuffer(self.fbo);
            self.shared.gl.delete_texture(self.tex);
        }
        self.shared.live_textures.set(self.shared.live_textures.get() - 1);
    }
}

impl std::fmt::Debug for Texture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Texture#{}({}×{})", self.id, self.width, self.height)
    }
}

pub(super) fn as_bytes(data: &[f32]) -> &[u8] {
    // SAFETY: f32 has no padding, u8 has alignment 1 and the byte length is exact.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}

/// The papers' pair of streams: passes read `source()` (S) and write `target()` (T); `swap()`
/// exchanges them, as "swap the pointers to texture ID of S and T" in Algorithm 2.
#[derive(Debug)]
pub struct PingPong {
    pair: [Texture; 2],
    source: usize,
}

impl PingPong {
    pub fn new(source: Texture, target: Texture) -> Self {
        Self { pair: [source, target], source: 0 }
    }
    pub fn source(&self) -> &Texture {
        &self.pair[self.source]
    }
    pub fn target(&self) -> &Texture {
        &self.pair[1 - self.source]
    }
    pub fn swap(&mut self) {
        self.source = 1 - self.source;
    }
    /// Gives back (source, target).
    pub fn into_parts(self) -> (Texture, Texture) {
        let [a, b] = self.pair;
        if self.source == 0 {
            (a, b)
        } else {
            (b, a)
        }
    }
}
