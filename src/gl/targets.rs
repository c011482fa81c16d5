//! The framebuffer a pass draws into: its target's own, or, for a pass that writes several
//! targets at once (a register tile's planes), one with a color attachment per target and every
//! attachment a draw buffer — made on first use and kept until one of its textures is dropped.
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::gpu::Gpu;
use super::pass::Pass;
use glow::HasContext;

impl Gpu {
    /// Checks a pass's targets against each other and the context, and returns the framebuffer
    /// that draws into all of them.
    pub(super) fn framebuffer_of(&self, pass: &Pass) -> GlResult<glow::Framebuffer> {
        if pass.more_targets.is_empty() {
            return Ok(pass.target.fbo);
        }
        let count = 1 + pass.more_targets.len();
        let max = self.info.max_draw_buffers.min(self.info.max_color_attachments) as usize;
        if count > max {
            return Err(GlError::TooManyTargets { pass: pass.name.into(), count, max });
        }
        let ids: Vec<u64> = pass.targets().map(|t| t.id()).collect();
        if (1..ids.len()).any(|i| ids[..i].contains(&ids[i])) {
            return Err(GlError::Format {
                pass: pass.name.into(),
                detail: "a texture is given twice as a target".into(),
            });
        }
        let first = pass.target;
        if let Some(odd) = pass
            .more_targets
            .iter()
            .find(|t| (t.width(), t.height(), t.format()) != (first.width(), first.height(), first.format()))
        {
            return Err(GlError::Format {
                pass: pass.name.into(),
                detail: format!(
                    "targets {first:?} and {odd:?} differ in size or format; the planes of one pass must match"
                ),
            });
        }
        if let Some((_, fbo)) = self.shared.multi_targets.borrow().iter().find(|(k, _)| *k == ids) {
            return Ok(*fbo);
        }
        let gl = self.shared.gl();
        let target = self.shared.texture_target();
        // SAFETY: context current; every attached texture is alive (owned by the pass's
        // borrowers), and the framebuffer is deleted here on failure or when one of them drops.
        let fbo = unsafe {
            let fbo = gl.create_framebuffer().map_err(|d| GlError::Create { what: "a framebuffer", detail: d })?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            let mut buffers = Vec::with_capacity(count);
            for (k, t) in pass.targets().enumerate() {
                let attachment = glow::COLOR_ATTACHMENT0 + k as u32;
                gl.framebuffer_texture_2d(glow::FRAMEBUFFER, attachment, target, Some(t.tex), 0);
                buffers.push(attachment);
            }
            gl.draw_buffers(&buffers);
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                gl.bind_framebuffer(glow::FRAMEBUFFER, None);
                gl.delete_framebuffer(fbo);
                return Err(GlError::FramebufferIncomplete {
                    what: format!("{count} {}×{} targets of pass {}", first.width(), first.height(), pass.name),
                    status,
                });
            }
            fbo
        };
        self.shared.multi_targets.borrow_mut().push((ids, fbo));
        Ok(fbo)
    }
}
