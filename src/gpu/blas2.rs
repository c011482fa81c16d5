//! Level-2 kernels: y = α·A·x (+ β·z) and y = α·Aᵀ·x (+ β·z), one inner product per fragment in
//! a single pass (2006 paper §4.2). With β = −1 and z = b this is the LP residual r_b = A·x − b;
//! with z = s − c, r_c = Aᵀλ + s − c.

use super::error::{GpuError, GpuResult};
use super::vector::{Vector, VectorLayout};
use crate::gl::{Gpu, Pass, Texture};
use crate::kernels;

/// A dense m×n matrix stored as an n×m texture (A(i, k) at texel (k, i)), as assembly stores it.
pub struct MatrixRef<'a> {
    pub texture: &'a Texture,
    pub m: usize,
    pub n: usize,
}

/// y = α·op(A)·x + β·z where op(A) is A or Aᵀ; `add` is (β, z).
pub fn gemv(
    gpu: &Gpu,
    y: &Vector,
    a: &MatrixRef,
    transpose: bool,
    alpha: f32,
    x: &Vector,
    add: Option<(f32, &Vector)>,
) -> GpuResult<()> {
    let (rows, cols) = if transpose { (a.n, a.m) } else { (a.m, a.n) };
    if (a.texture.width() as usize, a.texture.height() as usize) != (a.n, a.m) {
        return Err(GpuError::Shape(format!("A's texture {:?} does not hold an {}×{} matrix", a.texture, a.m, a.n)));
    }
    if y.len() != rows || x.len() != cols {
        return Err(GpuError::Shape(format!(
            "y = {}A{}·x with A {}×{}: y has length {}, x {}",
            alpha,
            if transpose { "ᵀ" } else { "" },
            a.m,
            a.n,
            y.len(),
            x.len()
        )));
    }
    let u = [("count", cols as f32), ("alpha", alpha), ("beta", add.map_or(0.0, |(b, _)| b))];
    let defines: &'static [&'static str] = match (transpose, add.is_some()) {
        (false, false) => &[],
        (false, true) => &["ADD_VECTOR"],
        (true, false) => &["TRANSPOSE"],
        (true, true) => &["TRANSPOSE", "ADD_VECTOR"],
    };
    let sources: Vec<&Texture> = match add {
        Some((_, z)) => {
            z.same_len(y, "gemv's added vector")?;
            vec![a.texture, x.texture(), z.texture()]
        }
        None => vec![a.texture, x.texture()],
    };
    let name = if transpose { "gemv_t" } else { "gemv" };
    gpu.run(&Pass::new(name, &kernels::GEMV, y.texture(), &sources, y.domain()).defines(defines).uniforms(&u))?;
    Ok(())
}

/// A dense m×n matrix in runs of four columns ([`crate::layout::Rows4`]): texel (K, i) holds
/// A(i, 4K..4K+3); the texture may have more rows than m (zero rows).
pub struct Rows4Ref<'a> {
    pub texture: &'a Texture,
    pub m: usize,
    pub n: usize,
}

/// y = α·op(A)·x + β·z on vectors of four entries per texel: one pass, four fetches of A and
/// one of x per sixteen multiply-adds.
pub fn gemv_rows4(
    gpu: &Gpu,
    y: &Vector,
    a: &Rows4Ref,
    transpose: bool,
    alpha: f32,
    x: &Vector,
    add: Option<(f32, &Vector)>,
) -> GpuResult<()> {
    let (rows, cols) = if transpose { (a.n, a.m) } else { (a.m, a.n) };
    if (a.texture.width() as usize) != a.n.div_ceil(4) || (a.texture.height() as usize) < 4 * a.m.div_ceil(4) {
        return Err(GpuError::Shape(format!(
            "A's texture {:?} does not hold an {}×{} matrix in runs of four",
            a.texture, a.m, a.n
        )));
    }
    let quad = |v: &Vector| v.layout() == VectorLayout::Quad;
    if y.len() != rows || x.len() != cols || !quad(y) || !quad(x) {
        return Err(GpuError::Shape(format!(
            "y = {alpha}A{}·x with A {}×{}: y has length {}, x {} (both four per texel)",
            if transpose { "ᵀ" } else { "" },
            a.m,
            a.n,
            y.len(),
            x.len()
        )));
    }
    let count = x.texture().width() as f32;
    let u = [("count", count), ("alpha", alpha), ("beta", add.map_or(0.0, |(b, _)| b)), ("len", rows as f32)];
    let defines: &'static [&'static str] = match (transpose, add.is_some()) {
        (false, false) => &[],
        (false, true) => &["ADD_VECTOR"],
        (true, false) => &["TRANSPOSE"],
        (true, true) => &["TRANSPOSE", "ADD_VECTOR"],
    };
    let sources: Vec<&Texture> = match add {
        Some((_, z)) => {
            z.same_len(y, "gemv's added vector")?;
            vec![a.texture, x.texture(), z.texture()]
        }
        None => vec![a.texture, x.texture()],
    };
    let name = if transpose { "gemv_t" } else { "gemv" };
    gpu.run(&Pass::new(name, &kernels::GEMV_ROWS4, y.texture(), &sources, y.domain()).defines(defines).uniforms(&u))?;
    Ok(())
}
