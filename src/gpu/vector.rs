//! Vectors on the GPU: an n-vector is an n×1 texture (width × height), entry i at texel (i, 0).
//!
//! Length limit: n ≤ the driver's largest texture side (GL_MAX_TEXTURE_SIZE and
//! GL_MAX_RECTANGLE_TEXTURE_SIZE; 16384 on Mesa llvmpipe). Longer vectors are refused with
//! [`crate::gl::GlError::TextureTooLarge`] naming the vector and the limit; they are not wrapped
//! into 2-D textures. Every matrix glsolve factors is m×m in a texture too, so m is bounded by the
//! same limit, and A (n×m texture) bounds n the same way.

use super::error::{GpuError, GpuResult};
use crate::geometry::Primitive;
use crate::gl::{Gpu, Texture};

/// A single-precision vector living in a texture.
pub struct Vector {
    tex: Texture,
    len: usize,
}

impl Vector {
    /// An uninitialized vector of length `len`; `what` names it in errors.
    pub fn new(gpu: &Gpu, len: usize, what: &str) -> GpuResult<Vector> {
        Ok(Vector { tex: gpu.texture(len, 1, what)?, len })
    }

    /// A vector holding `data`.
    pub fn from_slice(gpu: &Gpu, data: &[f32], what: &str) -> GpuResult<Vector> {
        Ok(Vector { tex: gpu.upload(data.len(), 1, data, what)?, len: data.len() })
    }

    /// Overwrites the entries with `data` (same length).
    pub fn write(&self, gpu: &Gpu, data: &[f32]) -> GpuResult<()> {
        if data.len() != self.len {
            return Err(GpuError::Shape(format!("{} values written to a vector of length {}", data.len(), self.len)));
        }
        gpu.write(&self.tex, data)?;
        Ok(())
    }

    /// Wraps an n×1 texture.
    pub fn from_texture(tex: Texture, len: usize) -> Vector {
        debug_assert_eq!((tex.width() as usize, tex.height()), (len, 1));
        Vector { tex, len }
    }

    /// Gives the texture back.
    pub fn into_texture(self) -> Texture {
        self.tex
    }

    /// Reads the entries back (waits for the GPU).
    pub fn read(&self, gpu: &Gpu) -> GpuResult<Vec<f32>> {
        Ok(gpu.read(&self.tex)?)
    }

    /// Reads entry i back.
    pub fn get(&self, gpu: &Gpu, i: usize) -> GpuResult<f32> {
        if i >= self.len {
            return Err(GpuError::Shape(format!("entry {i} of a vector of length {}", self.len)));
        }
        Ok(gpu.read_rect(&self.tex, i as u32, 0, 1, 1)?[0])
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

    /// The rectangle over all entries.
    pub fn domain(&self) -> Primitive {
        Primitive::full(self.len as u32, 1)
    }

    /// Checks that `other` has this vector's length.
    pub fn same_len(&self, other: &Vector, op: &str) -> GpuResult<()> {
        if self.len != other.len {
            return Err(GpuError::Shape(format!("{op}: vectors of length {} and {}", self.len, other.len)));
        }
        Ok(())
    }
}

impl std::fmt::Debug for Vector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vector({}, {:?})", self.len, self.tex)
    }
}
