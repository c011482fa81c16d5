//! Making textures and moving data between host and GPU. Data is row-major (texel row y = i),
//! `channels` floats per texel (1 for R32F, 4 for RGBA32F, in R, G, B, A order).
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::gpu::Gpu;
use super::info::Readback;
use super::texture::{self, TexelFormat, Texture};
use glow::HasContext;

impl Gpu {
    /// Checks that a `width × height` texture fits this driver; `what` names it in the error.
    pub fn check_size(&self, width: usize, height: usize, what: &str) -> GlResult<()> {
        if width == 0 || height == 0 {
            return Err(GlError::EmptyTexture { width, height, what: what.into() });
        }
        let max = self.info.max_side();
        if width > max as usize || height > max as usize {
            return Err(GlError::TextureTooLarge { width, height, max, what: what.into() });
        }
        Ok(())
    }

    internal_fn! {
        /// An uninitialized `width × height` R32F texture.
        fn texture(&self, width: usize, height: usize, what: &str) -> GlResult<Texture> {
            self.texture_of(TexelFormat::R32F, width, height, what)
        }
    }

    internal_fn! {
        /// An uninitialized `width × height` texture of `format`.
        fn texture_of(&self, format: TexelFormat, width: usize, height: usize, what: &str) -> GlResult<Texture> {
            self.check_size(width, height, what)?;
            Texture::new(&self.shared, width as u32, height as u32, None, format)
        }
    }

    internal_fn! {
        /// An R32F texture holding `data` in row-major order (row i = texel row y = i).
        fn upload(&self, width: usize, height: usize, data: &[f32], what: &str) -> GlResult<Texture> {
            self.upload_of(TexelFormat::R32F, width, height, data, what)
        }
    }

    internal_fn! {
        /// A texture of `format` holding `data` (row-major, `format.channels()` floats per texel).
        fn upload_of(
            &self,
            format: TexelFormat,
            width: usize,
            height: usize,
            data: &[f32],
            what: &str,
        ) -> GlResult<Texture> {
            self.check_size(width, height, what)?;
            let expected = width * height * format.channels();
            if data.len() != expected {
                return Err(GlError::SizeMismatch {
                    what: what.into(),
                    width: width as u32,
                    height: height as u32,
                    expected,
                    got: data.len(),
                });
            }
            let t = Texture::new(&self.shared, width as u32, height as u32, Some(data), format)?;
            self.count_upload(data.len());
            Ok(t)
        }
    }

    fn count_upload(&self, floats: usize) {
        let mut t = self.traffic.get();
        t.uploaded += 4 * floats as u64;
        self.traffic.set(t);
    }

    internal_fn! {
        /// Overwrites the texels `x..x+w` × `y..y+h` of `tex` with `data` (row-major).
        fn write_rect(&self, tex: &Texture, x: u32, y: u32, w: u32, h: u32, data: &[f32]) -> GlResult<()> {
            self.check_owned(tex, "a texture write")?;
            Self::check_rect(tex, [x, y, w, h], data.len(), "write")?;
            // SAFETY: context current; the rectangle lies inside the texture (checked).
            unsafe {
                let gl = self.shared.gl();
                let target = self.shared.texture_target();
                gl.bind_texture(target, Some(tex.tex));
                gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
                gl.tex_sub_image_2d(
                    target,
                    0,
                    x as i32,
                    y as i32,
                    w as i32,
                    h as i32,
                    tex.format().pixel_format(),
                    glow::FLOAT,
                    glow::PixelUnpackData::Slice(Some(texture::as_bytes(data))),
                );
            }
            self.count_upload(data.len());
            self.check("writing a texture")
        }
    }

    internal_fn! {
        /// Overwrites the whole texture.
        fn write(&self, tex: &Texture, data: &[f32]) -> GlResult<()> {
            self.write_rect(tex, 0, 0, tex.width(), tex.height(), data)
        }
    }

    internal_fn! {
        /// Reads the texels `x..x+w` × `y..y+h` back (row-major, all channels). This waits for the GPU.
        fn read_rect(&self, tex: &Texture, x: u32, y: u32, w: u32, h: u32) -> GlResult<Vec<f32>> {
            self.check_owned(tex, "a readback")?;
            let channels = tex.format().channels();
            let n = w as usize * h as usize * channels;
            Self::check_rect(tex, [x, y, w, h], n, "read")?;
            // Where GL_RED/GL_FLOAT is not allowed (OpenGL ES), one-channel textures come back as
            // RGBA, of which the first channel is kept.
            let rgba_only = self.info.readback == Readback::RgbaOnly;
            let (format, read_channels) = if tex.format() == TexelFormat::R32F && rgba_only {
                (glow::RGBA, 4)
            } else {
                (tex.format().pixel_format(), channels)
            };
            let read = w as usize * h as usize * read_channels;
            let mut out = vec![0f32; read];
            // SAFETY: context current; the buffer holds exactly w·h·read_channels floats (pack
            // alignment 4).
            unsafe {
                let gl = self.shared.gl();
                gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(tex.fbo));
                gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
                let bytes = std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), read * 4);
                gl.read_pixels(
                    x as i32,
                    y as i32,
                    w as i32,
                    h as i32,
                    format,
                    glow::FLOAT,
                    glow::PixelPackData::Slice(Some(bytes)),
                );
            }
            if read_channels != channels {
                out = out.chunks_exact(read_channels).map(|t| t[0]).collect();
            }
            let mut t = self.traffic.get();
            t.read_back += 4 * read as u64;
            t.readbacks += 1;
            self.traffic.set(t);
            self.check("reading a texture back")?;
            Ok(out)
        }
    }

    internal_fn! {
        /// Reads the whole texture back (row-major, all channels).
        fn read(&self, tex: &Texture) -> GlResult<Vec<f32>> {
            self.read_rect(tex, 0, 0, tex.width(), tex.height())
        }
    }

    /// Checks that `tex` was made by this `Gpu`: its name means nothing in another context.
    pub(super) fn check_owned(&self, tex: &Texture, what: &str) -> GlResult<()> {
        if std::rc::Rc::ptr_eq(&tex.shared, &self.shared) {
            Ok(())
        } else {
            Err(GlError::ForeignTexture { what: what.into(), texture: format!("{tex:?}") })
        }
    }

    /// Checks that the region `[x, y, w, h]` lies in `tex` and that `n` values fill it.
    fn check_rect(tex: &Texture, [x, y, w, h]: [u32; 4], n: usize, op: &str) -> GlResult<()> {
        let channels = tex.format().channels();
        if x as u64 + w as u64 > tex.width() as u64 || y as u64 + h as u64 > tex.height() as u64 {
            return Err(GlError::SizeMismatch {
                what: format!("{op} of {w}×{h} at ({x}, {y}) outside {tex:?}"),
                width: tex.width(),
                height: tex.height(),
                expected: tex.floats(),
                got: n,
            });
        }
        if n != w as usize * h as usize * channels {
            return Err(GlError::SizeMismatch {
                what: format!("{op} of {w}×{h} at ({x}, {y}) in {tex:?}"),
                width: w,
                height: h,
                expected: w as usize * h as usize * channels,
                got: n,
            });
        }
        Ok(())
    }
}
