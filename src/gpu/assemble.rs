//! Assembly of C = A·D²·Aᵀ (2008 structure paper, Algorithm 3): for k = 0..n−1 a column-scaling
//! pass b = d(k)·A(:, k) (Fig. 2a) and an outer-product addition C += A(:, k)·bᵀ over the lower
//! triangle (Fig. 2b, or the two triangles of Fig. 4 in the packed format), ping-pong between
//! C_S and C_T. A and d go up once; C stays on the GPU for the factorization.

use super::error::{GpuError, GpuResult};
use super::plan::{execute, PassKind, PlannedPass, Role};
use super::vector::Vector;
use crate::geometry::assembly as fig;
use crate::geometry::Primitive;
use crate::gl::{Gpu, Pass, PingPong, Texture};
use crate::kernels;
use crate::layout::Format;
use std::rc::Rc;

/// A (m×n, stored as an n×m texture) and the diagonal of D² (n×1) on the GPU.
pub struct Operands {
    pub m: usize,
    pub n: usize,
    /// Shared with the matrix–vector kernels of the LP (`gpu::blas2`), which read the same layout.
    pub a: Rc<Texture>,
    pub d: Texture,
}

impl Operands {
    /// Uploads A (row-major m×n) once. Non-finite entries are refused with their position.
    pub fn new(gpu: &Gpu, a: &[f32], m: usize, n: usize) -> GpuResult<Operands> {
        if a.len() != m * n {
            return Err(GpuError::Shape(format!("A has {} values, an {m}×{n} matrix needs {}", a.len(), m * n)));
        }
        if let Some(p) = a.iter().position(|v| !v.is_finite()) {
            return Err(GpuError::NonFinite { what: "A".into(), row: p / n, col: p % n, value: a[p] as f64 });
        }
        gpu.check_size(n, m, "A (stored n×m)")?;
        let a = Rc::new(gpu.upload(n, m, a, "A (stored n×m)")?);
        let d = gpu.texture(n, 1, "d, the diagonal of D²")?;
        Ok(Operands { m, n, a, d })
    }

    /// Sets the diagonal of D² (n values, each finite and ≥ 0).
    pub fn set_d2(&self, gpu: &Gpu, d2: &[f32]) -> GpuResult<()> {
        if d2.len() != self.n {
            return Err(GpuError::Shape(format!("d has {} values, A has {} columns", d2.len(), self.n)));
        }
        if let Some(k) = d2.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
            return Err(GpuError::NegativeWeight { index: k, value: d2[k] as f64 });
        }
        gpu.write(&self.d, d2)?;
        Ok(())
    }

    /// Sets the diagonal of D² from a GPU vector (a copy pass; nothing leaves the GPU).
    pub fn copy_d2(&self, gpu: &Gpu, d2: &Vector) -> GpuResult<()> {
        if d2.len() != self.n {
            return Err(GpuError::Shape(format!("d has {} values, A has {} columns", d2.len(), self.n)));
        }
        gpu.run(&Pass::new("set_d2", &kernels::COPY, &self.d, &[d2.texture()], d2.domain()))?;
        Ok(())
    }
}

/// The passes of Algorithm 3 after C_S and C_T have been cleared: per column k a scaling pass
/// into b (`Aux(2)`, from A = `Aux(0)` and d = `Aux(1)`) and an addition pass S→T, then swap.
pub fn plan(m: usize, n: usize, format: Format) -> Vec<PlannedPass> {
    let (m32, mut passes) = (m as u32, Vec::with_capacity(2 * n));
    for k in 0..n as u32 {
        passes.push(PlannedPass::new(
            PassKind::ColumnScale,
            &kernels::COLUMN_SCALE,
            Role::Aux(2),
            &[Role::Aux(0), Role::Aux(1)],
            fig::fig2a_column_scaling(k, m32),
            k,
        ));
        let add = match format {
            Format::Full => fig::fig2b_outer_addition(k, m32),
            Format::Packed => fig::fig4_packed_outer_addition(k, m32),
        };
        passes.push(
            PlannedPass::new(
                PassKind::OuterAdd,
                &kernels::OUTER_ADD,
                Role::T,
                &[Role::S, Role::Aux(0), Role::Aux(2)],
                add,
                k,
            )
            .then_swap(),
        );
    }
    passes
}

/// Two textures for C in `format`, sized for m.
pub fn c_textures(gpu: &Gpu, m: usize, format: Format) -> GpuResult<PingPong> {
    let (w, h) = format.texture_size(m);
    let what = format!("C = A·D²·Aᵀ ({}, m = {m})", format.name());
    Ok(PingPong::new(gpu.texture(w, h, &what)?, gpu.texture(w, h, &what)?))
}

/// Assembles C = A·D²·Aᵀ into `c` (lower triangle; both textures are cleared first). On return
/// `c.source()` holds C.
pub fn assemble_into(gpu: &Gpu, ops: &Operands, c: &mut PingPong, format: Format) -> GpuResult<()> {
    let (w, h) = format.texture_size(ops.m);
    if (c.source().width() as usize, c.source().height() as usize) != (w, h) {
        return Err(GpuError::Shape(format!(
            "C textures are {:?}, {} format needs {w}×{h}",
            c.source(),
            format.name()
        )));
    }
    let b = gpu.texture(ops.m, 1, "b, the scaled column")?;
    let full = Primitive::full(w as u32, h as u32);
    for t in [c.source(), c.target()] {
        gpu.run(&Pass::new("clear", &kernels::FILL, t, &[], full).uniforms(&[("value", 0.0)]))?;
    }
    execute(gpu, c, &[&*ops.a, &ops.d, &b], &plan(ops.m, ops.n, format))?;
    Ok(())
}

/// Uploads A and d², assembles C and returns the ping-pong pair with C in its source.
pub fn assemble(gpu: &Gpu, a: &[f32], d2: &[f32], m: usize, n: usize, format: Format) -> GpuResult<PingPong> {
    let ops = Operands::new(gpu, a, m, n)?;
    ops.set_d2(gpu, d2)?;
    let mut c = c_textures(gpu, m, format)?;
    assemble_into(gpu, &ops, &mut c, format)?;
    Ok(c)
}

/// Reads C back as a row-major m×m lower triangle (strict upper part zero).
pub fn read_lower(gpu: &Gpu, c: &Texture, m: usize, format: Format) -> GpuResult<Vec<f32>> {
    let data = gpu.read(c)?;
    Ok(match format {
        Format::Full => {
            let mut d = data;
            for i in 0..m {
                for j in i + 1..m {
                    d[i * m + j] = 0.0;
                }
            }
            d
        }
        Format::Packed => crate::layout::Packed::new(m).unpack(&data),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn packed_and_full_plans_shade_the_same_fragments() {
        for m in 1..=20usize {
            for n in [1, m, 2 * m] {
                let full = predicted_fragments(&plan(m, n, Format::Full), m as u32, m as u32).unwrap();
                let (w, h) = Format::Packed.texture_size(m);
                let packed = predicted_fragments(&plan(m, n, Format::Packed), w as u32, h as u32).unwrap();
                // column_scale is drawn on b (m×1) in both; predicted on the C size it would be
                // clipped, so compare the additions only and check the scaling separately.
                assert_eq!(full["outer_add"], packed["outer_add"], "m={m} n={n}");
                assert_eq!(full["outer_add"] as usize, n * m * (m + 1) / 2);
            }
        }
        let scale = predicted_fragments(&plan(7, 3, Format::Full), 7, 1).unwrap();
        assert_eq!(scale["column_scale"], 21);
    }
}
