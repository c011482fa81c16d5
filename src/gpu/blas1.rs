//! Level-1 kernels on GPU vectors (2006 paper §4.2): element-wise operations, reductions by
//! multi-pass halving ping-pong (any length, not only powers of two), dot product, norms, and the
//! line search. Reductions bring back one scalar: the "minimum feedback" the papers ask for.

use super::error::GpuResult;
use super::vector::Vector;
use crate::geometry::Primitive;
use crate::gl::{Gpu, Pass, Texture};
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
    let src = [x.texture()];
    let u = [("alpha", alpha), ("beta", beta)];
    gpu.run(
        &Pass::new("affine", &kernels::ELEMENTWISE, out.texture(), &src, out.domain())
            .defines(&["AFFINE"])
            .uniforms(&u),
    )?;
    Ok(())
}

/// out = x.
pub fn copy(gpu: &Gpu, out: &Vector, x: &Vector) -> GpuResult<()> {
    out.same_len(x, "copy")?;
    gpu.run(&Pass::new("copy", &kernels::COPY, out.texture(), &[x.texture()], out.domain()))?;
    Ok(())
}

/// Every entry of out = value.
pub fn fill(gpu: &Gpu, out: &Vector, value: f32) -> GpuResult<()> {
    gpu.run(&Pass::new("fill", &kernels::FILL, out.texture(), &[], out.domain()).uniforms(&[("value", value)]))?;
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
    let src = [x.texture(), y.texture()];
    gpu.run(
        &Pass::new(name, &kernels::ELEMENTWISE, out.texture(), &src, out.domain()).defines(defines).uniforms(uniforms),
    )?;
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
    products: RefCell<HashMap<usize, Vector>>,
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
        self.reduce_texture(gpu, x.texture(), x.len(), op)
    }

    /// A scratch vector of length n for element-wise results (one per length).
    fn with_product<R>(&self, gpu: &Gpu, n: usize, f: impl FnOnce(&Vector) -> GpuResult<R>) -> GpuResult<R> {
        if !self.products.borrow().contains_key(&n) {
            let v = Vector::new(gpu, n, "a reduction's element-wise product")?;
            self.products.borrow_mut().insert(n, v);
        }
        let products = self.products.borrow();
        f(&products[&n])
    }

    /// xᵀy: a multiply pass and a sum reduction.
    pub fn dot(&self, gpu: &Gpu, x: &Vector, y: &Vector) -> GpuResult<f32> {
        x.same_len(y, "dot")?;
        self.with_product(gpu, x.len(), |p| {
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
        self.with_product(gpu, x.len(), |p| {
            let src = [x.texture(), dx.texture()];
            gpu.run(&Pass::new("step_ratio", &kernels::STEP_RATIO, p.texture(), &src, p.domain()))?;
            let r = self.reduce(gpu, p, ReduceOp::Min)?;
            Ok(if r.is_nan() { r } else { r.min(1.0) })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::reduction_lengths;
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
