//! Vectors on the GPU. [`VectorLayout::Scalar`] (the papers'): an n-vector is an n×1 R32F
//! texture, entry i at texel (i, 0). [`VectorLayout::Quad`] (the blocked kernels'): ⌈n/4⌉×1
//! RGBA32F, entry i at channel i mod 4 of texel (i/4, 0), the lanes past n kept at zero.
//!
//! Length limit: n ≤ the driver's largest texture side (GL_MAX_TEXTURE_SIZE and
//! GL_MAX_RECTANGLE_TEXTURE_SIZE; 16384 on Mesa llvmpipe). Longer vectors are refused with
//! [`crate::gl::GlError::TextureTooLarge`] naming the vector and the limit; they are not wrapped
//! into 2-D textures. Every matrix glsolve factors is m×m in a texture too, so m is bounded by the
//! same limit, and A (n×m texture) bounds n the same way.

use super::error::{GpuError, GpuResult};
use crate::geometry::Primitive;
use crate::gl::{Gpu, TexelFormat, Texture};

/// How a vector's entries sit in its texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum VectorLayout {
    /// One entry per R32F texel (the papers' kernels).
    Scalar,
    /// Four entries per RGBA32F texel (the blocked kernels).
    Quad,
}

impl VectorLayout {
    /// The texture's width for `len` entries.
    pub fn width(self, len: usize) -> usize {
        match self {
            VectorLayout::Scalar => len,
            VectorLayout::Quad => len.div_ceil(4),
        }
    }
    pub fn format(self) -> TexelFormat {
        match self {
            VectorLayout::Scalar => TexelFormat::R32F,
            VectorLayout::Quad => TexelFormat::Rgba32F,
        }
    }
}

/// A single-precision vector living in a texture.
pub struct Vector {
    tex: Texture,
    len: usize,
    layout: VectorLayout,
}

impl Vector {
    /// An uninitialized vector of length `len` (one entry per texel); `what` names it in errors.
    pub fn new(gpu: &Gpu, len: usize, what: &str) -> GpuResult<Vector> {
        Self::new_in(gpu, VectorLayout::Scalar, len, what)
    }

    /// An uninitialized vector of length `len` in `layout`.
    pub fn new_in(gpu: &Gpu, layout: VectorLayout, len: usize, what: &str) -> GpuResult<Vector> {
        Ok(Vector { tex: gpu.texture_of(layout.format(), layout.width(len), 1, what)?, len, layout })
    }

    /// A vector holding `data` (one entry per texel).
    pub fn from_slice(gpu: &Gpu, data: &[f32], what: &str) -> GpuResult<Vector> {
        Self::from_slice_in(gpu, VectorLayout::Scalar, data, what)
    }

    /// A vector holding `data` in `layout`.
    pub fn from_slice_in(gpu: &Gpu, layout: VectorLayout, data: &[f32], what: &str) -> GpuResult<Vector> {
        let v = Self::new_in(gpu, layout, data.len(), what)?;
        v.write(gpu, data)?;
        Ok(v)
    }

    /// Overwrites the entries with `data` (same length; a quad vector's padding becomes zero).
    pub fn write(&self, gpu: &Gpu, data: &[f32]) -> GpuResult<()> {
        if data.len() != self.len {
            return Err(GpuError::Shape(format!("{} values written to a vector of length {}", data.len(), self.len)));
        }
        match self.layout {
            VectorLayout::Scalar => gpu.write(&self.tex, data)?,
            VectorLayout::Quad => {
                let mut padded = data.to_vec();
                padded.resize(4 * self.tex.width() as usize, 0.0);
                gpu.write(&self.tex, &padded)?;
            }
        }
        Ok(())
    }

    /// Wraps a texture holding `len` entries in the layout its format implies.
    pub fn from_texture(tex: Texture, len: usize) -> Vector {
        let layout = match tex.format() {
            TexelFormat::R32F => VectorLayout::Scalar,
            TexelFormat::Rgba32F => VectorLayout::Quad,
        };
        Vector { tex, len, layout }
    }

    pub fn layout(&self) -> VectorLayout {
        self.layout
    }

    /// Gives the texture back.
    pub fn into_texture(self) -> Texture {
        self.tex
    }

    /// Reads the entries back (waits for the GPU).
    pub fn read(&self, gpu: &Gpu) -> GpuResult<Vec<f32>> {
        let mut v = gpu.read(&self.tex)?;
        v.truncate(self.len);
        Ok(v)
    }

    /// Reads entry i back.
    pub fn get(&self, gpu: &Gpu, i: usize) -> GpuResult<f32> {
        if i >= self.len {
            return Err(GpuError::Shape(format!("entry {i} of a vector of length {}", self.len)));
        }
        Ok(match self.layout {
            VectorLayout::Scalar => gpu.read_rect(&self.tex, i as u32, 0, 1, 1)?[0],
            VectorLayout::Quad => gpu.read_rect(&self.tex, (i / 4) as u32, 0, 1, 1)?[i % 4],
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn texture(&self) -> &Texture {
        &self.tex
    }

    /// The rectangle over all entries (all texels).
    pub fn domain(&self) -> Primitive {
        Primitive::full(self.tex.width(), 1)
    }

    /// Checks that `other` has this vector's length and layout.
    pub fn same_len(&self, other: &Vector, op: &str) -> GpuResult<()> {
        if self.len != other.len {
            return Err(GpuError::Shape(format!("{op}: vectors of length {} and {}", self.len, other.len)));
        }
        if self.layout != other.layout {
            return Err(GpuError::Shape(format!("{op}: vectors in layouts {:?} and {:?}", self.layout, other.layout)));
        }
        Ok(())
    }
}

impl std::fmt::Debug for Vector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vector({}, {:?})", self.len, self.tex)
    }
}
