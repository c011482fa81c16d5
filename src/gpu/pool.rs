//! Textures recycled by shape instead of created per operation (TF.js's texture manager): a
//! vector taken from the pool goes back to it when dropped, so an iterative method allocates
//! textures in its first iteration only.

use super::error::GpuResult;
use super::vector::{Vector, VectorLayout};
use crate::gl::{Gpu, TexelFormat, Texture};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Shape = (u32, u32, TexelFormat);

/// Free textures by shape. Cloning shares the pool.
#[derive(Clone, Default)]
pub struct TexturePool {
    free: Rc<RefCell<HashMap<Shape, Vec<Texture>>>>,
}

impl TexturePool {
    pub fn new() -> Self {
        Self::default()
    }

    /// A texture of this shape: a free one, or a new one when none is free.
    pub fn texture(
        &self,
        gpu: &Gpu,
        format: TexelFormat,
        width: usize,
        height: usize,
        what: &str,
    ) -> GpuResult<Texture> {
        let key = (width as u32, height as u32, format);
        if let Some(t) = self.free.borrow_mut().get_mut(&key).and_then(Vec::pop) {
            return Ok(t);
        }
        Ok(gpu.texture_of(format, width, height, what)?)
    }

    /// Gives a texture back.
    pub fn put(&self, t: Texture) {
        let key = (t.width(), t.height(), t.format());
        self.free.borrow_mut().entry(key).or_default().push(t);
    }

    /// A vector of length `len` in `layout` (contents undefined) that returns to the pool when
    /// dropped.
    pub fn vector(&self, gpu: &Gpu, layout: VectorLayout, len: usize, what: &str) -> GpuResult<PooledVector> {
        let t = self.texture(gpu, layout.format(), layout.width(len), 1, what)?;
        Ok(PooledVector { v: Some(Vector::from_texture(t, len)), pool: self.clone() })
    }

    /// Makes `v` a pooled vector (its texture joins the pool when it is dropped).
    pub fn adopt(&self, v: Vector) -> PooledVector {
        PooledVector { v: Some(v), pool: self.clone() }
    }

    /// Textures waiting in the pool.
    pub fn free_textures(&self) -> usize {
        self.free.borrow().values().map(Vec::len).sum()
    }
}

/// A [`Vector`] on loan from a [`TexturePool`].
pub struct PooledVector {
    v: Option<Vector>,
    pool: TexturePool,
}

impl std::ops::Deref for PooledVector {
    type Target = Vector;
    fn deref(&self) -> &Vector {
        // Only `drop` takes the vector out.
        self.v.as_ref().unwrap_or_else(|| unreachable!("a pooled vector is present until dropped"))
    }
}

impl Drop for PooledVector {
    fn drop(&mut self) {
        if let Some(v) = self.v.take() {
            self.pool.put(v.into_texture());
        }
    }
}

impl std::fmt::Debug for PooledVector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pooled{:?}", **self)
    }
}
