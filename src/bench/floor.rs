//! The fragment-cost floor of a run: Σ over kernels of (fragments × that kernel's per-fragment
//! cost on one big primitive) + passes × the cost of an empty pass. The gap between a run and
//! its floor is per-pass overhead that is ours to remove.

use super::Timing;
use crate::geometry::{Primitive, PrimitiveKind, Vertex};

/// The primitive class a per-fragment cost was measured on: rasterizers spend more per fragment
/// along a triangle's slanted edge than inside a rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Rect,
    Triangle,
}
use crate::gl::{GlResult, Gpu, Kernel, Pass, PassLog};
use std::collections::BTreeMap;

/// Per-fragment costs of kernels and the cost of an empty pass, measured on one driver.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FloorModel {
    /// Seconds per fragment, by kernel file and variant defines (see [`FloorModel::key`]).
    pub per_fragment: BTreeMap<String, f64>,
    /// Seconds per pass that shades nothing.
    pub empty_pass: f64,
}

impl FloorModel {
    /// Measures `kernels` (with their defines) on one `side × side` rectangle and on the Fig. 5
    /// triangle over it (sources are `side × side` textures of ones, so divisions stay finite),
    /// and the empty pass.
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
        let triangle = crate::geometry::cholesky::fig5_outer_update_triangle(0, side as u32);
        let tri_fragments = (side * (side - 1) / 2).max(1);
        let mut model = FloorModel::default();
        for &(k, defines) in kernels {
            gpu.prepare(k, defines)?;
            for (shape, prim, fragments) in
                [(Shape::Rect, rect, side * side), (Shape::Triangle, triangle, tri_fragments)]
            {
                let timing = Timing::measure(reps, || {
                    let sources = [&a];
                    let pass = Pass::new("floor", k, &t, &sources, prim).defines(defines);
                    gpu.run(&pass.uniforms(&[("value", 1.0), ("component", 0.0)]))?;
                    gpu.finish();
                    Ok::<(), crate::gl::GlError>(())
                })?;
                model.per_fragment.insert(Self::key(k.file, defines, shape), timing.median() / fragments as f64);
            }
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

    /// `file@shape` or `file[DEFINE,…]@shape`.
    pub fn key(file: &str, defines: &[&str], shape: Shape) -> String {
        let shape = match shape {
            Shape::Rect => "rect",
            Shape::Triangle => "triangle",
        };
        if defines.is_empty() {
            format!("{file}@{shape}")
        } else {
            format!("{file}[{}]@{shape}", defines.join(","))
        }
    }

    /// The floor of a logged run (fragments counted per pass), or `None` when a kernel of the run
    /// has no measured per-fragment cost.
    pub fn floor(&self, log: &PassLog) -> Option<f64> {
        let mut t = 0.0;
        for r in &log.records {
            let shape = match r.primitive {
                PrimitiveKind::Triangle | PrimitiveKind::TwoTriangles => Shape::Triangle,
                _ => Shape::Rect,
            };
            let cost = self.per_fragment.get(&Self::key(r.kernel, r.defines, shape))?;
            t += self.empty_pass + r.fragments.unwrap_or(0) as f64 * cost;
        }
        Some(t)
    }
}
