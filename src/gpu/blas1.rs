//! Level-1 kernels on GPU vectors (2006 paper §4.2): element-wise operations, reductions by
//! multi-pass halving ping-pong (any length, not only powers of two), dot product, norms, and the
//! line search. Reductions bring back one scalar: the "minimum feedback" the papers ask for.

use super::error::GpuResult;
use super::vector::{Vector, VectorLayout};
use crate::geometry::Primitive;
use crate::gl::{Gpu, Pass, TexelFormat, Texture};
use crate::kernels;
use std::cell::RefCell;
use std::collections::HashMap;

/// out = α·x + β·y.
pub fn axpby(gpu: &Gpu, out: &Vector, alpha: f32, x: &Vector, beta: f32, y: &Vector) -> GpuResult<()> {
    binary(gpu, "axpby", &["AXPBY"], out, x, y, &[("alpha", alpha), ("beta", beta)])
}

/// out = x + α·y (saxpy).
pub fn axpy(gpu: &Gpu, out: &Vector, x: &Vector, alpha: f32, y: &Vector) -> GpuResult<()> {
    axpby(gpu, out, 1.0, x, alpha, y)
}

/// out = x ⊙ y.
pub fn mul(gpu: &Gpu, out: &Vector, x: &Vector, y: &Vector) -> GpuResult<()> {
    binary(gpu, "mul", &["MUL"], out, x, y, &[])
}

/// out = x / y element-wise.
pub fn div(gpu: &Gpu, out: &Vector, x: &Vector, y: &Vector) -> GpuResult<()> {
    binary(gpu, "div", &["DIV"], out, x, y, &[])
}

/// out = α·x + β (β broadcast to every entry).
pub fn affine(gpu: &Gpu, out: &Vector, alpha: f32, x: &Vector, beta: f32) -> GpuResult<()> {
    out.same_len(x, "affine")?;
    elementwise(gpu, "affine", &["AFFINE"], out, &[x.texture()], &[("alpha", alpha), ("beta", beta)])
}

/// out = x.
pub fn copy(gpu: &Gpu, out: &Vector, x: &Vector) -> GpuResult<()> {
    out.same_len(x, "copy")?;
    let kernel = match out.layout() {
        VectorLayout::Scalar => &kernels::COPY,
        VectorLayout::Quad => &kernels::COPY4,
    };
    gpu.run(&Pass::new("copy", kernel, out.texture(), &[x.texture()], out.domain()))?;
    Ok(())
}

/// Every entry of out = value.
pub fn fill(gpu: &Gpu, out: &Vector, value: f32) -> GpuResult<()> {
    let pass = match out.layout() {
        VectorLayout::Scalar => Pass::new("fill", &kernels::FILL, out.texture(), &[], out.domain()),
        VectorLayout::Quad => Pass::new("fill", &kernels::FILL4, out.texture(), &[], out.domain()).defines(&["MASKED"]),
    };
    let len = out.len() as f32;
    match out.layout() {
        VectorLayout::Scalar => gpu.run(&pass.uniforms(&[("value", value)]))?,
        VectorLayout::Quad => gpu.run(&pass.uniforms(&[("value", value), ("len", len)]))?,
    }
    Ok(())
}

fn binary(
    gpu: &Gpu,
    name: &'static str,
    defines: &'static [&'static str],
    out: &Vector,
    x: &Vector,
    y: &Vector,
    uniforms: &[(&'static str, f32)],
) -> GpuResult<()> {
    out.same_len(x, name)?;
    out.same_len(y, name)?;
    elementwise(gpu, name, defines, out, &[x.texture(), y.texture()], uniforms)
}

/// One element-wise pass in the layout of `out` (the vec4 kernel also masks the padding).
fn elementwise(
    gpu: &Gpu,
    name: &'static str,
    defines: &'static [&'static str],
    out: &Vector,
    src: &[&Texture],
    uniforms: &[(&'static str, f32)],
) -> GpuResult<()> {
    match out.layout() {
        VectorLayout::Scalar => gpu.run(
            &Pass::new(name, &kernels::ELEMENTWISE, out.texture(), src, out.domain())
                .defines(defines)
                .uniforms(uniforms),
        )?,
        VectorLayout::Quad => {
            let mut u = uniforms.to_vec();
            u.push(("len", out.len() as f32));
            gpu.run(
                &Pass::new(name, &kernels::ELEMENTWISE4, out.texture(), src, out.domain())
                    .defines(defines)
                    .uniforms(&u),
            )?
        }
    }
    Ok(())
}

/// A reduction's combining operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Sum,
    /// max |xᵢ| (the infinity norm).
    MaxAbs,
    Min,
    Max,
}

impl ReduceOp {
    fn defines(self) -> &'static [&'static str] {
        match self {
            ReduceOp::Sum => &["SUM"],
            ReduceOp::MaxAbs => &["MAXABS"],
            ReduceOp::Min => &["MIN"],
            ReduceOp::Max => &["MAX"],
        }
    }
}

/// The lengths a reduction of n entries passes through: ⌈n/2⌉, ⌈n/4⌉, …, 1 (at least one pass,
/// so that n = 1 still applies the operation, e.g. the absolute value).
pub fn reduction_lengths(n: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut len = n.max(1);
    loop {
        len = len.div_ceil(2);
        v.push(len);
        if len == 1 {
            return v;
        }
    }
}

/// Scratch textures for reductions, kept between calls so that the interior-point loop allocates
/// nothing per iteration.
#[derive(Default)]
pub struct Reducer {
    levels: RefCell<HashMap<usize, Texture>>,
    quad_levels: RefCell<HashMap<usize, Texture>>,
    products: RefCell<HashMap<(usize, VectorLayout), Vector>>,
}

/// How many texels a reduction pass over four-entry texels folds into one.
pub const QUAD_FAN_IN: usize = 8;

/// The widths a quad reduction of n entries passes through: ⌈⌈n/4⌉/8⌉, … down to 1 texel (at
/// least one pass), whose four channels the CPU combines.
pub fn quad_reduction_widths(n: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut w = n.div_ceil(4).max(1);
    loop {
        w = w.div_ceil(QUAD_FAN_IN);
        v.push(w);
        if w == 1 {
            return v;
        }
    }
}

/// The CPU's share of a quad reduction: the four channels of the last texel (NaN propagates).
fn combine_lanes(v: &[f32], op: ReduceOp) -> f32 {
    if v.iter().any(|x| x.is_nan()) {
        return f32::NAN;
    }
    match op {
        ReduceOp::Sum => v.iter().sum(),
        ReduceOp::MaxAbs | ReduceOp::Max => v.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        ReduceOp::Min => v.iter().copied().fold(f32::INFINITY, f32::min),
    }
}

impl Reducer {
    pub fn new() -> Self {
        Self::default()
    }

    fn level(&self, gpu: &Gpu, len: usize) -> GpuResult<()> {
        if !self.levels.borrow().contains_key(&len) {
            let t = gpu.texture(len, 1, "a reduction level")?;
            self.levels.borrow_mut().insert(len, t);
        }
        Ok(())
    }

    /// Reduces the first `n` entries of `src` with `op` into the 1×1 texture `out`, without
    /// reading anything back (the result can feed later passes).
    pub fn reduce_into(&self, gpu: &Gpu, src: &Texture, n: usize, op: ReduceOp, out: &Texture) -> GpuResult<()> {
        let last = self.run_levels(gpu, src, n, op)?;
        let levels = self.levels.borrow();
        gpu.run(&Pass::new("copy_scalar", &kernels::COPY, out, &[&levels[&last]], Primitive::full(1, 1)))?;
        Ok(())
    }

    /// The halving passes; returns the length (1) of the last level written.
    fn run_levels(&self, gpu: &Gpu, src: &Texture, n: usize, op: ReduceOp) -> GpuResult<usize> {
        let lengths = reduction_lengths(n);
        for &l in &lengths {
            self.level(gpu, l)?;
        }
        let levels = self.levels.borrow();
        let mut source = src;
        let mut valid = n;
        for &l in &lengths {
            let target = &levels[&l];
            let u = [("len", valid as f32)];
            let pass = Pass::new(
                "reduce",
                &kernels::REDUCE,
                target,
                std::slice::from_ref(&source),
                Primitive::full(l as u32, 1),
            );
            gpu.run(&pass.defines(op.defines()).uniforms(&u))?;
            source = target;
            valid = l;
        }
        Ok(valid)
    }

    /// Reduces the first `n` entries of `src` (an n×1 texture) with `op`; returns the scalar.
    pub fn reduce_texture(&self, gpu: &Gpu, src: &Texture, n: usize, op: ReduceOp) -> GpuResult<f32> {
        let last = self.run_levels(gpu, src, n, op)?;
        let levels = self.levels.borrow();
        Ok(gpu.read_rect(&levels[&last], 0, 0, 1, 1)?[0])
    }

    /// Reduces a vector.
    pub fn reduce(&self, gpu: &Gpu, x: &Vector, op: ReduceOp) -> GpuResult<f32> {
        match x.layout() {
            VectorLayout::Scalar => self.reduce_texture(gpu, x.texture(), x.len(), op),
            VectorLayout::Quad => self.reduce_quad(gpu, x, op),
        }
    }

    /// A quad vector: passes of [`QUAD_FAN_IN`] texels each, one texel read back (four floats).
    fn reduce_quad(&self, gpu: &Gpu, x: &Vector, op: ReduceOp) -> GpuResult<f32> {
        let widths = quad_reduction_widths(x.len());
        for &w in &widths {
            if !self.quad_levels.borrow().contains_key(&w) {
                let t = gpu.texture_of(TexelFormat::Rgba32F, w, 1, "a reduction level (four per texel)")?;
                self.quad_levels.borrow_mut().insert(w, t);
            }
        }
        let levels = self.quad_levels.borrow();
        let mut source = x.texture();
        let (mut len, mut width) = (x.len(), x.texture().width() as usize);
        for (pass, &w) in widths.iter().enumerate() {
            let target = &levels[&w];
            let first = pass == 0;
            let defines: &'static [&'static str] = match (op, first) {
                (ReduceOp::MaxAbs, true) => &["MAXABS", "FIRST"],
                _ => op.defines(),
            };
            let u = [("len", len as f32), ("width", width as f32)];
            let sources = [source];
            gpu.run(
                &Pass::new("reduce", &kernels::REDUCE4, target, &sources, Primitive::full(w as u32, 1))
                    .defines(defines)
                    .uniforms(&u),
            )?;
            source = target;
            (len, width) = (4 * w, w);
        }
        Ok(combine_lanes(&gpu.read(source)?, op))
    }

    /// A scratch vector of length n for element-wise results (one per length and layout).
    fn with_product<R>(
        &self,
        gpu: &Gpu,
        n: usize,
        layout: VectorLayout,
        f: impl FnOnce(&Vector) -> GpuResult<R>,
    ) -> GpuResult<R> {
        if !self.products.borrow().contains_key(&(n, layout)) {
            let v = Vector::new_in(gpu, layout, n, "a reduction's element-wise product")?;
            self.products.borrow_mut().insert((n, layout), v);
        }
        let products = self.products.borrow();
        f(&products[&(n, layout)])
    }

    /// xᵀy: a multiply pass and a sum reduction.
    pub fn dot(&self, gpu: &Gpu, x: &Vector, y: &Vector) -> GpuResult<f32> {
        x.same_len(y, "dot")?;
        self.with_product(gpu, x.len(), x.layout(), |p| {
            mul(gpu, p, x, y)?;
            self.reduce(gpu, p, ReduceOp::Sum)
        })
    }

    /// ‖x‖∞ (NaN if any entry is NaN).
    pub fn norm_inf(&self, gpu: &Gpu, x: &Vector) -> GpuResult<f32> {
        self.reduce(gpu, x, ReduceOp::MaxAbs)
    }

    /// The largest α ∈ [0, 1] with x + α·Δx ≥ 0: a ratio pass and a min reduction. NaN in x or Δx
    /// gives NaN, so a caller cannot mistake a broken direction for a full step.
    pub fn max_step(&self, gpu: &Gpu, x: &Vector, dx: &Vector) -> GpuResult<f32> {
        x.same_len(dx, "line search")?;
        self.with_product(gpu, x.len(), x.layout(), |p| {
            let src = [x.texture(), dx.texture()];
            match p.layout() {
                VectorLayout::Scalar => {
                    gpu.run(&Pass::new("step_ratio", &kernels::STEP_RATIO, p.texture(), &src, p.domain()))?
                }
                VectorLayout::Quad => gpu.run(
                    &Pass::new("step_ratio", &kernels::STEP_RATIO4, p.texture(), &src, p.domain())
                        .uniforms(&[("len", x.len() as f32)]),
                )?,
            }
            let r = self.reduce(gpu, p, ReduceOp::Min)?;
            Ok(if r.is_nan() { r } else { r.min(1.0) })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::reduction_lengths;
    #[test]
    fn quad_reductions_fold_eight_texels_per_pass() {
        use super::quad_reduction_widths;
        assert_eq!(quad_reduction_widths(1), vec![1]);
        assert_eq!(quad_reduction_widths(32), vec![1]);
        assert_eq!(quad_reduction_widths(33), vec![2, 1]);
        assert_eq!(quad_reduction_widths(2048), vec![64, 8, 1]);
    }

    #[test]
    fn reduction_lengths_halve_to_one() {
        assert_eq!(reduction_lengths(1), vec![1]);
        assert_eq!(reduction_lengths(2), vec![1]);
        assert_eq!(reduction_lengths(5), vec![3, 2, 1]);
        assert_eq!(reduction_lengths(8), vec![4, 2, 1]);
        for n in 1..=5000 {
            let l = reduction_lengths(n);
            assert_eq!(*l.last().unwrap(), 1);
            assert!(l.len() <= (usize::BITS - n.leading_zeros()) as usize + 1);
        }
    }
}
