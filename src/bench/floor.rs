//! The fragment-cost floor of a run: Σ over kernels of (fragments × that kernel's per-fragment
//! cost on one big primitive) + passes × the cost of an empty pass. The gap between a run and
//! its floor is per-pass overhead that is ours to remove.

use super::Timing;
use crate::geometry::{Primitive, Vertex};
use crate::gl::{GlResult, Gpu, Kernel, Pass, PassLog};
use std::collections::BTreeMap;

/// Per-fragment costs of kernels and the cost of an empty pass, measured on one driver.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct FloorModel {
    /// Seconds per fragment, by kernel file and variant defines (see [`FloorModel::key`]).
    pub per_fragment: BTreeMap<String, f64>,
    /// Seconds per pass that shades nothing.
    pub empty_pass: f64,
}

impl FloorModel {
    /// Measures `kernels` (with their defines) on one `side × side` rectangle (sources are
    /// `side × side` textures of ones, so divisions stay finite) and the empty pass.
    pub fn measure(
        gpu: &Gpu,
        kernels: &[(&'static Kernel, &'static [&'static str])],
        side: usize,
        reps: usize,
    ) -> GlResult<FloorModel> {
        let ones = vec![1.0f32; side * side];
        let a = gpu.upload(side, side, &ones, "floor source")?;
        let t = gpu.texture(side, side, "floor target")?;
        let s = side as f32;
        // Coordinates spanning the texture, so fetches land inside it like the real kernels'.
        let corners = [[0.0, 0.0], [s, 0.0], [0.0, s], [s, s]];
        let rect = Primitive::Rectangle(corners.map(|p| Vertex::new(p, [p[0], p[1], 0.5], [p[0], 0.5, 0.0])));
        let mut model = FloorModel::default();
        for &(k, defines) in kernels {
            gpu.prepare(k, defines)?;
            let timing = Timing::measure(reps, || {
                gpu.run(
                    &Pass::new("floor", k, &t, &[&a], rect)
                        .defines(defines)
                        .uniforms(&[("value", 1.0), ("component", 0.0)]),
                )?;
                gpu.finish();
                Ok::<(), crate::gl::GlError>(())
            })?;
            model.per_fragment.insert(Self::key(k.file, defines), timing.median() / (side * side) as f64);
        }
        // An empty pass: a point outside the target shades nothing but costs a draw.
        let outside = Primitive::Point(Vertex::at(-4.0, -4.0));
        let n = 2000;
        let timing = Timing::measure(reps, || {
            for _ in 0..n {
                gpu.run(&Pass::new("empty", &crate::kernels::COPY, &t, &[&a], outside))?;
            }
            gpu.finish();
            Ok::<(), crate::gl::GlError>(())
        })?;
        model.empty_pass = timing.median() / n as f64;
        Ok(model)
    }

    /// `file` or `file[DEFINE,…]`.
    pub fn key(file: &str, defines: &[&str]) -> String {
        if defines.is_empty() {
            file.to_string()
        } else {
            format!("{file}[{}]", defines.join(","))
        }
    }

    /// The floor of a logged run (fragments counted per pass), or `None` when a kernel of the run
    /// has no measured per-fragment cost.
    pub fn floor(&self, log: &PassLog) -> Option<f64> {
        let mut t = 0.0;
        for r in &log.records {
            let cost = self.per_fragment.get(&Self::key(r.kernel, r.defines))?;
            t += self.empty_pass + r.fragments.unwrap_or(0) as f64 * cost;
        }
        Some(t)
    }
}
