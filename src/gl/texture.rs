//! Float rectangle textures (the papers' `samplerRECT` streams), each with its own framebuffer so
//! it can be a pass target, and the ping-pong pair of Algorithms 2 and 5. A texel holds one value
//! (R32F, the papers' layout) or four (RGBA32F, the blocked kernels' layout).
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::shared::Shared;
use glow::HasContext;
use std::rc::Rc;

/// What one texel holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum TexelFormat {
    /// One 32-bit float (`GL_R32F`): the papers' one value per fragment.
    R32F,
    /// Four 32-bit floats (`GL_RGBA32F`): a 2×2 block of a matrix or four entries of a vector.
    Rgba32F,
}

impl TexelFormat {
    /// Floats per texel.
    pub fn channels(self) -> usize {
        match self {
            TexelFormat::R32F => 1,
            TexelFormat::Rgba32F => 4,
        }
    }
    pub(super) fn internal(self) -> u32 {
        match self {
            TexelFormat::R32F => glow::R32F,
            TexelFormat::Rgba32F => glow::RGBA32F,
        }
    }
    pub(super) fn pixel_format(self) -> u32 {
        match self {
            TexelFormat::R32F => glow::RED,
            TexelFormat::Rgba32F => glow::RGBA,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            TexelFormat::R32F => "R32F",
            TexelFormat::Rgba32F => "RGBA32F",
        }
    }
}

/// How the values of an RGBA texel map to a logical matrix (for the viewer and read-backs):
/// `Blocks2x2` — a 2×2 block, (r, g, b, a) = (a(2y, 2x), a(2y, 2x+1), a(2y+1, 2x), a(2y+1, 2x+1));
/// `Runs4` — four consecutive entries of a row, a(y, 4x..4x+3). One-channel textures are `One`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexelGrid {
    One,
    Blocks2x2,
    Runs4,
}

impl TexelGrid {
    /// Logical entries per texel along x and y.
    pub fn span(self) -> (u32, u32) {
        match self {
            TexelGrid::One => (1, 1),
            TexelGrid::Blocks2x2 => (2, 2),
            TexelGrid::Runs4 => (4, 1),
        }
    }

    /// Logical (column, row) of channel `c` of texel (x, y).
    pub fn entry(self, x: u32, y: u32, c: u32) -> (u32, u32) {
        match self {
            TexelGrid::One => (x, y),
            TexelGrid::Blocks2x2 => (2 * x + c % 2, 2 * y + c / 2),
            TexelGrid::Runs4 => (4 * x + c, y),
        }
    }
}

/// A float texture of `width × height` texels, NEAREST filtered, addressed in texel units
/// (x = column, y = row): a `GL_TEXTURE_RECTANGLE` on desktop GL, a `GL_TEXTURE_2D` where
/// rectangle textures do not exist (OpenGL ES, WebGL2). Freed (texture and framebuffer) when
/// dropped.
pub struct Texture {
    pub(super) shared: Rc<Shared>,
    pub(super) tex: glow::Texture,
    pub(super) fbo: glow::Framebuffer,
    width: u32,
    height: u32,
    format: TexelFormat,
    grid: std::cell::Cell<TexelGrid>,
    id: u64,
}

impl Texture {
    pub(super) fn new(
        shared: &Rc<Shared>,
        width: u32,
        height: u32,
        data: Option<&[f32]>,
        format: TexelFormat,
    ) -> GlResult<Self> {
        let gl = shared.gl();
        let internal = format.internal();
        let target = shared.texture_target();
        // SAFETY: `gl()` made the context current (a `Gpu` never leaves its thread); every
        // object created here is owned by the returned value or deleted on the error path.
        unsafe {
            let tex = gl.create_texture().map_err(|d| GlError::Create { what: "a texture", detail: d })?;
            gl.bind_texture(target, Some(tex));
            for (p, v) in [
                (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
                (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
                (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
            ] {
                gl.tex_parameter_i32(target, p, v as i32);
            }
            let bytes = data.map(as_bytes);
            gl.tex_image_2d(
                target,
                0,
                internal as i32,
                width as i32,
                height as i32,
                0,
                format.pixel_format(),
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
            gl.framebuffer_texture_2d(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, target, Some(tex), 0);
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                gl.delete_framebuffer(fbo);
                gl.delete_texture(tex);
                return Err(GlError::FramebufferIncomplete {
                    what: format!("a {width}×{height} {} texture", format.name()),
                    status,
                });
            }
            let code = gl.get_error();
            if code != glow::NO_ERROR {
                gl.delete_framebuffer(fbo);
                gl.delete_texture(tex);
                return Err(GlError::Driver {
                    call: format!("creating a {width}×{height} {} texture", format.name()),
                    code,
                });
            }
            shared.live_textures.set(shared.live_textures.get() + 1);
            shared.textures_created.set(shared.textures_created.get() + 1);
            let live = shared.texture_bytes.get() + texel_bytes(width, height, format);
            shared.texture_bytes.set(live);
            shared.texture_bytes_peak.set(shared.texture_bytes_peak.get().max(live));
            let id = shared.next_id.get();
            shared.next_id.set(id + 1);
            // RGBA: a one-row texture is a vector (runs of four), a taller one a matrix in 2×2
            // blocks, unless its maker says otherwise (`set_grid`).
            let grid = match format {
                TexelFormat::R32F => TexelGrid::One,
                TexelFormat::Rgba32F if height == 1 => TexelGrid::Runs4,
                TexelFormat::Rgba32F => TexelGrid::Blocks2x2,
            };
            Ok(Texture {
                shared: Rc::clone(shared),
                tex,
                fbo,
                width,
                height,
                format,
                grid: std::cell::Cell::new(grid),
                id,
            })
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn height(&self) -> u32 {
        self.height
    }
    pub fn format(&self) -> TexelFormat {
        self.format
    }
    /// Number of texels.
    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Floats held: texels × channels.
    pub fn floats(&self) -> usize {
        self.len() * self.format.channels()
    }
    /// Bytes of GPU memory the texels take (the framebuffer object holds none).
    pub fn bytes(&self) -> usize {
        self.floats() * 4
    }
    /// How an RGBA texel maps to logical entries.
    pub fn grid(&self) -> TexelGrid {
        self.grid.get()
    }

    /// Declares the layout of an RGBA texture (ignored for one-channel textures).
    pub fn set_grid(&self, grid: TexelGrid) {
        if self.format == TexelFormat::Rgba32F && grid != TexelGrid::One {
            self.grid.set(grid);
        }
    }

    /// A number unique among the textures of one `Gpu` (for logs and the viewer).
    pub fn id(&self) -> u64 {
        self.id
    }
    /// The driver's name of the texture object (for tests that ask GL itself, `Gpu::is_texture`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn gl_name(&self) -> u32 {
        self.tex.0.get()
    }
}

impl Drop for Texture {
    fn drop(&mut self) {
        if self.shared.last_target.get() == Some(self.fbo) {
            self.shared.last_target.set(None);
        }
        let multi: Vec<glow::Framebuffer> = {
            let mut cache = self.shared.multi_targets.borrow_mut();
            let (with, without): (Vec<_>, Vec<_>) = cache.drain(..).partition(|(ids, _)| ids.contains(&self.id));
            *cache = without;
            with.into_iter().map(|(_, fbo)| fbo).collect()
        };
        // SAFETY: `shared` keeps the context alive and `gl()` makes it current.
        unsafe {
            let gl = self.shared.gl();
            for fbo in multi {
                gl.delete_framebuffer(fbo);
            }
            gl.delete_framebuffer(self.fbo);
            gl.delete_texture(self.tex);
        }
        self.shared.live_textures.set(self.shared.live_textures.get() - 1);
        let bytes = texel_bytes(self.width, self.height, self.format);
        self.shared.texture_bytes.set(self.shared.texture_bytes.get().saturating_sub(bytes));
    }
}

/// Storage of a width×height float texture of `format`.
pub(crate) fn texel_bytes(width: u32, height: u32, format: TexelFormat) -> u64 {
    u64::from(width) * u64::from(height) * format.channels() as u64 * 4
}

impl std::fmt::Debug for Texture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.format {
            TexelFormat::R32F => write!(f, "Texture#{}({}×{})", self.id, self.width, self.height),
            TexelFormat::Rgba32F => write!(f, "Texture#{}({}×{} RGBA)", self.id, self.width, self.height),
        }
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
