//! The fragment-cost floor of a run: Σ over kernels of (fragments × that kernel's per-fragment
//! cost on big primitives) + passes × the overhead of a pass that shades (almost) nothing, both
//! measured on chains of dependent passes as the algorithms issue them. The gap between a run and
//! its floor is per-pass overhead that is ours to remove.

use super::Timing;
use glsolve::geometry::{Primitive, PrimitiveKind, Vertex};

/// The primitive class a per-fragment cost was measured on: rasterizers spend more per fragment
/// along a triangle's slanted edge than inside a rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Rect,
    Triangle,
}
use glsolve::gl::{GlResult, Kernel, Pass, PassLog, Texture};
use glsolve::Gpu;
use std::collections::BTreeMap;

/// Per-fragment costs of kernels and the overhead of one pass, measured on one driver.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FloorModel {
    /// Seconds per fragment, by kernel file and variant defines (see [`FloorModel::key`]).
    pub per_fragment: BTreeMap<String, f64>,
    /// Seconds per pass of a chain of one-texel passes, each reading what the previous wrote.
    #[serde(alias = "empty_pass")]
    pub pass_overhead: f64,
}

impl FloorModel {
    /// Measures `kernels` (with their defines) on one `side × side` rectangle and on the Fig. 5
    /// triangle over it, and the cost of a pass that shades one texel. Both are measured as the
    /// algorithms run: chains of passes ping-ponging between two textures, each pass reading what
    /// the one before wrote, so the driver must finish a pass before the next starts (on llvmpipe
    /// that is a flush and a wait per pass, which a batch of independent draws would hide). The
    /// per-fragment cost is taken from chains of big passes, where that latency is amortized.
    pub fn measure(
        gpu: &Gpu,
        kernels: &[(&'static Kernel, &'static [&'static str])],
        side: usize,
        reps: usize,
    ) -> GlResult<FloorModel> {
        // Sources hold ones so that divisions and square roots stay finite.
        let ones = vec![1.0f32; side * side];
        let a = gpu.upload(side, side, &ones, "floor ping")?;
        let b = gpu.upload(side, side, &ones, "floor pong")?;
        let s = side as f32;
        // Coordinates spanning the texture, so fetches land inside it like the real kernels'.
        let corners = [[0.0, 0.0], [s, 0.0], [0.0, s], [s, s]];
        let rect = Primitive::Rectangle(corners.map(|p| Vertex::new(p, [p[0], p[1], 0.5], [p[0], 0.5, 0.0])));
        let triangle = glsolve::geometry::cholesky::fig5_outer_update_triangle(0, side as u32);
        let tri_fragments = (side * (side - 1) / 2).max(1);
        // Chain length: enough fragments that one pass's latency is a small part of the total.
        let chain = (4_000_000 / (side * side)).clamp(4, 64);
        let mut model = FloorModel::default();
        for &(k, defines) in kernels {
            gpu.prepare(k, defines)?;
            for (shape, prim, fragments) in
                [(Shape::Rect, rect, side * side), (Shape::Triangle, triangle, tri_fragments)]
            {
                let timing = Timing::measure(reps, || {
                    ping_pong_chain(gpu, k, defines, prim, chain, &a, &b)?;
                    gpu.finish();
                    Ok::<(), glsolve::gl::GlError>(())
                })?;
                let per_fragment = timing.median() / (chain * fragments) as f64;
                model.per_fragment.insert(Self::key(k.file, defines, shape), per_fragment);
            }
        }
        // The pass overhead: a chain of one-texel copies, each reading the texel the last wrote.
        let texel = Primitive::texel_rect(0, 0, 1, 1);
        let n = 500;
        let timing = Timing::measure(reps, || {
            ping_pong_chain(gpu, &glsolve::kernels::COPY, &[], texel, n, &a, &b)?;
            gpu.finish();
            Ok::<(), glsolve::gl::GlError>(())
        })?;
        model.pass_overhead = timing.median() / n as f64;
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
            t += self.pass_overhead + r.fragments.unwrap_or(0) as f64 * cost;
        }
        Some(t)
    }
}

/// `n` passes of kernel `k` over `prim`, alternately a → b and b → a.
fn ping_pong_chain(
    gpu: &Gpu,
    k: &'static Kernel,
    defines: &'static [&'static str],
    prim: Primitive,
    n: usize,
    a: &Texture,
    b: &Texture,
) -> GlResult<()> {
    // Only the uniforms the kernel declares: a pass must not set names its kernel lacks.
    let declared = glsolve::gl::declared_uniforms(k.source);
    let uniforms: Vec<(&'static str, f32)> =
        [("value", 1.0), ("component", 0.0)].into_iter().filter(|(n, _)| declared.iter().any(|d| d == n)).collect();
    for i in 0..n {
        let (src, dst) = if i % 2 == 0 { (a, b) } else { (b, a) };
        let sources = [src];
        gpu.run(&Pass::new("floor", k, dst, &sources, prim).defines(defines).uniforms(&uniforms))?;
    }
    Ok(())
}
