//! Drawing one pass, and the observer hook around it.
#![allow(unsafe_code)]

use super::error::{GlError, GlResult};
use super::gpu::PassObserver;
use super::gpu::{Gpu, FLOATS_PER_VERTEX, MAX_VERTICES};
use super::info::FragmentCounting;
use super::observer::PassLog;
use super::pass::Pass;
use super::program::{Program, MAX_SOURCES};
use super::record::{Measure, PassRecord, TimeMode};
use super::texture;
use crate::clock::Instant;
use crate::geometry::{coverage, Primitive, Vertex};
use glow::HasContext;
use std::cell::RefCell;
use std::rc::Rc;

impl Gpu {
    internal_fn! {
        /// Attaches an observer to every following pass (replacing any other).
        fn observe(&self, observer: Rc<RefCell<dyn PassObserver>>) {
            *self.observer.borrow_mut() = Some(observer);
        }
    }

    /// Detaches the observer.
    pub fn stop_observing(&self) {
        *self.observer.borrow_mut() = None;
    }

    internal_fn! {
        /// Runs `f` with a fresh [`PassLog`] attached and returns its records. Any observer attached
        /// before is attached again afterwards.
        fn logged<R>(&self, measure: Measure, f: impl FnOnce(&Gpu) -> R) -> (R, PassLog) {
            let log = Rc::new(RefCell::new(PassLog::new(measure)));
            let previous = self.observer.replace(Some(log.clone()));
            let r = f(self);
            *self.observer.borrow_mut() = previous;
            let records = log.borrow().clone();
            (r, records)
        }
    }

    internal_fn! {
        /// Draws one pass.
        fn run(&self, pass: &Pass) -> GlResult<()> {
            for t in pass.sources.iter().copied().chain(pass.targets()) {
                self.check_owned(t, &format!("pass {}", pass.name))?;
            }
            if pass.sources.iter().any(|s| pass.targets().any(|t| s.id() == t.id())) {
                return Err(GlError::Feedback { pass: pass.name.into() });
            }
            let max_sources = MAX_SOURCES.min(self.info.max_texture_units as usize);
            if pass.sources.len() > max_sources {
                return Err(GlError::TooManySources {
                    pass: pass.name.into(),
                    count: pass.sources.len(),
                    max: max_sources,
                });
            }
            let program = self.program(pass.kernel, pass.defines)?;
            if program.output != pass.target.format() {
                return Err(GlError::Format {
                    pass: pass.name.into(),
                    detail: format!(
                        "{} writes {} texels but the target {:?} is {}",
                        program.name,
                        program.output.name(),
                        pass.target,
                        pass.target.format().name()
                    ),
                });
            }
            let targets = 1 + pass.more_targets.len();
            if program.outputs != targets {
                return Err(GlError::Format {
                    pass: pass.name.into(),
                    detail: format!("{} writes {} targets but the pass gives {targets}", program.name, program.outputs),
                });
            }
            let fbo = self.framebuffer_of(pass)?;
            let locations = program.locate(pass.name, pass.uniforms)?;
            // The observer is taken out while it runs, so passes it issues itself go unobserved.
            let observer = self.observer.borrow_mut().take();
            let measure = observer.as_ref().map(|o| o.borrow().measure()).unwrap_or(Measure::NOTHING);
            if let Some(o) = &observer {
                o.borrow_mut().before_pass(self, pass);
            }
            let result = self.draw(pass, fbo, &program, &locations, measure);
            if let (Some(o), Ok(record)) = (&observer, &result) {
                o.borrow_mut().after_pass(self, pass, record);
            }
            *self.observer.borrow_mut() = observer;
            result.map(|_| ())
        }
    }

    fn draw(
        &self,
        pass: &Pass,
        fbo: glow::Framebuffer,
        program: &Program,
        locations: &[Option<glow::UniformLocation>],
        measure: Measure,
    ) -> GlResult<PassRecord> {
        let gl = self.shared.gl();
        let verts = pass.primitive.vertices();
        let mut buf = [0f32; FLOATS_PER_VERTEX * MAX_VERTICES];
        for (n, v) in verts.iter().enumerate() {
            buf[n * FLOATS_PER_VERTEX..(n + 1) * FLOATS_PER_VERTEX].copy_from_slice(&flatten(v));
        }
        let mode = match pass.primitive {
            Primitive::Point(_) => glow::POINTS,
            Primitive::Line(_) => glow::LINES,
            Primitive::Rectangle(_) => glow::TRIANGLE_STRIP,
            Primitive::Triangle(_) | Primitive::TwoTriangles(_) => glow::TRIANGLES,
        };
        let (w, h) = (pass.target.width(), pass.target.height());
        let mut fragments = None;
        let mut time = None;
        let target = self.shared.texture_target();
        let predicted = measure.fragments && self.info.fragment_counting == FragmentCounting::Predicted;
        let query_fragments = measure.fragments && !predicted;
        // A context without timer queries times by the host clock.
        let time_mode = match measure.time {
            TimeMode::GpuTimer if !self.info.timer_query.per_pass() => TimeMode::HostFinish,
            t => t,
        };
        // SAFETY: context current; every bound object is alive for the duration of the call.
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            gl.viewport(0, 0, w as i32, h as i32);
            gl.use_program(Some(program.program));
            gl.uniform_2_f32(program.viewport.as_ref(), w as f32, h as f32);
            for (unit, src) in pass.sources.iter().enumerate() {
                gl.active_texture(glow::TEXTURE0 + unit as u32);
                gl.bind_texture(target, Some(src.tex));
            }
            for ((_, value), loc) in pass.uniforms.iter().zip(locations) {
                gl.uniform_1_f32(loc.as_ref(), *value);
            }
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_sub_data_u8_slice(
                glow::ARRAY_BUFFER,
                0,
                texture::as_bytes(&buf[..verts.len() * FLOATS_PER_VERTEX]),
            );
            let started = if time_mode == TimeMode::HostFinish {
                self.shared.finish();
                Some(Instant::now())
            } else {
                None
            };
            if query_fragments {
                gl.begin_query(glow::SAMPLES_PASSED, self.queries[0]);
            }
            if time_mode == TimeMode::GpuTimer {
                gl.begin_query(glow::TIME_ELAPSED, self.queries[1]);
            }
            gl.draw_arrays(mode, 0, verts.len() as i32);
            if time_mode == TimeMode::GpuTimer {
                gl.end_query(glow::TIME_ELAPSED);
            }
            if query_fragments {
                gl.end_query(glow::SAMPLES_PASSED);
            }
            self.shared.last_target.set(Some(pass.target.fbo));
            if let Some(t) = started {
                self.shared.finish();
                time = Some(t.elapsed());
            }
            if query_fragments {
                fragments = Some(gl.get_query_parameter_u32(self.queries[0], glow::QUERY_RESULT) as u64);
            }
            if time_mode == TimeMode::GpuTimer {
                let ns = gl.get_query_parameter_u32(self.queries[1], glow::QUERY_RESULT);
                time = Some(std::time::Duration::from_nanos(ns as u64));
            }
        }
        if cfg!(debug_assertions) || measure != Measure::NOTHING {
            self.check(pass.name)?;
        }
        if predicted {
            // A primitive the reference rasterizer cannot settle (a centre on an edge) has no count.
            fragments = coverage::count(&pass.primitive, w, h).ok();
        }
        let index = self.passes.get();
        self.passes.set(index + 1);
        Ok(PassRecord {
            index,
            name: pass.name,
            kernel: pass.kernel.file,
            defines: pass.defines,
            primitive: pass.primitive.kind(),
            step: pass.step,
            target: (w, h),
            fragments,
            fragments_predicted: predicted,
            time,
        })
    }
}

fn flatten(v: &Vertex) -> [f32; FLOATS_PER_VERTEX] {
    [v.pos[0], v.pos[1], v.t0[0], v.t0[1], v.t0[2], v.t1[0], v.t1[1], v.t1[2]]
}
