//! Forward and back substitution with a Cholesky factor on the GPU (2008 IPM paper §3.2,
//! Algorithm 1, Kernels 1–3): per step a division point, its copy-back, and the sub-column (or
//! sub-row) subtraction as a line, ping-pong between two m×1 textures — 3 or 4 passes per step,
//! so the pass count is linear in m. Also the paper's other option: read the factor back and
//! substitute on the CPU, in single or double precision.

use super::cholesky::{self, Factor};
use super::error::{GpuError, GpuResult};
use super::plan::{execute, PassKind, PlannedPass, Role};
use super::vector::Vector;
use crate::geometry::solve as fig;
use crate::gl::{Gpu, PingPong};
use crate::kernels;
use crate::layout::Format;

fn subtract_defines(swizzled: bool) -> &'static [&'static str] {
    if swizzled {
        &["SWIZZLE_YX"]
    } else {
        &[]
    }
}

/// Passes solving L·y = f: f in S (and its copy in T), L in `Aux(0)`; y ends in T.
pub fn plan_forward(m: u32, format: Format) -> Vec<PlannedPass> {
    use Role::{Aux, S, T};
    let mut p = Vec::with_capacity(3 * m as usize);
    for k in 0..m {
        let point = fig::division_point(k, m, format);
        p.push(PlannedPass::new(PassKind::Divide, &kernels::DIVIDE, T, &[S, Aux(0)], point, k));
        if k + 1 < m {
            p.push(PlannedPass::new(PassKind::CopyEntry, &kernels::COPY, S, &[T], point, k));
            let (line, swizzled) = fig::forward_sub_column(k, m, format);
            p.push(
                PlannedPass::new(PassKind::SubColumn, &kernels::SUBTRACT, T, &[S, Aux(0)], line, k)
                    .defines(subtract_defines(swizzled))
                    .then_swap(),
            );
        }
    }
    p
}

/// Passes solving Lᵀ·x = y: y in S, L in `Aux(0)`; x ends in T.
pub fn plan_backward(m: u32, format: Format) -> Vec<PlannedPass> {
    use Role::{Aux, S, T};
    let mut p = Vec::with_capacity(4 * m as usize);
    for k in (0..m).rev() {
        let point = fig::division_point(k, m, format);
        p.push(PlannedPass::new(PassKind::Divide, &kernels::DIVIDE, T, &[S, Aux(0)], point, k));
        if k > 0 {
            p.push(PlannedPass::new(PassKind::CopyEntry, &kernels::COPY, S, &[T], point, k));
            let lines = fig::backward_sub_row(k, m, format);
            let last = lines.len() - 1;
            for (n, line) in lines.into_iter().enumerate() {
                let pass = PlannedPass::new(PassKind::SubRow, &kernels::SUBTRACT, T, &[S, Aux(0)], line, k);
                p.push(if n == last { pass.then_swap() } else { pass });
            }
        }
    }
    p
}

fn run_plan(gpu: &Gpu, factor: &Factor, rhs: &Vector, plan: &[PlannedPass]) -> GpuResult<Vector> {
    if factor.blocks.is_some() || factor.tiles.is_some() {
        return Err(GpuError::Unsupported(
            "a blocked or tiled factor is solved by gpu::blocked::substitute or gpu::tiled::substitute".into(),
        ));
    }
    if rhs.len() != factor.m {
        return Err(GpuError::Shape(format!(
            "right-hand side of length {} for an {}×{} factor",
            rhs.len(),
            factor.m,
            factor.m
        )));
    }
    let s = Vector::new(gpu, factor.m, "substitution vector (S)")?;
    let t = Vector::new(gpu, factor.m, "substitution vector (T)")?;
    super::blas1::copy(gpu, &s, rhs)?;
    let mut pp = PingPong::new(s.into_texture(), t.into_texture());
    execute(gpu, &mut pp, &[&factor.texture], plan)?;
    let (_, result) = pp.into_parts();
    Ok(Vector::from_texture(result, factor.m))
}

/// Solves L·y = f on the GPU.
pub fn forward(gpu: &Gpu, factor: &Factor, f: &Vector) -> GpuResult<Vector> {
    run_plan(gpu, factor, f, &plan_forward(factor.m as u32, factor.format))
}

/// Solves Lᵀ·x = y on the GPU.
pub fn backward(gpu: &Gpu, factor: &Factor, y: &Vector) -> GpuResult<Vector> {
    run_plan(gpu, factor, y, &plan_backward(factor.m as u32, factor.format))
}

/// Solves L·Lᵀ·x = b on the GPU.
pub fn solve(gpu: &Gpu, factor: &Factor, b: &Vector) -> GpuResult<Vector> {
    let y = forward(gpu, factor, b)?;
    backward(gpu, factor, &y)
}

/// Precision of the CPU substitution after a read-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CpuPrecision {
    Single,
    Double,
}

/// Reads the factor back (m² or m(m+1)/2 values) and solves L·Lᵀ·x = b on the CPU.
pub fn solve_on_cpu(gpu: &Gpu, factor: &Factor, b: &[f64], precision: CpuPrecision) -> GpuResult<Vec<f64>> {
    let l = cholesky::read_lower(gpu, factor)?;
    let m = factor.m;
    if b.len() != m {
        return Err(GpuError::Shape(format!("right-hand side of length {} for an {m}×{m} factor", b.len())));
    }
    Ok(match precision {
        Precision::Double => {
            let l: Vec<f64> = l.iter().map(|&v| v as f64).collect();
            crate::cpu::rowmajor::cholesky_solve(&l, m, b)
        }
        Precision::Single => {
            let b32: Vec<f32> = b.iter().map(|&v| v as f32).collect();
            crate::cpu::rowmajor::cholesky_solve(&l, m, &b32).into_iter().map(f64::from).collect()
        }
    })
}

use CpuPrecision as Precision;

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn pass_counts_are_linear_in_m() {
        for format in [Format::Full, Format::Packed] {
            for m in [1u32, 2, 3, 10, 101] {
                assert_eq!(plan_forward(m, format).len() as u32, 3 * m - 2);
                let back = plan_backward(m, format).len() as u32;
                assert!(back >= 3 * m - 2 && back <= 4 * m, "{format:?} m={m}: {back}");
                assert_eq!(plan_backward(m, format).iter().filter(|p| p.swap_after).count() as u32, m - 1);
            }
        }
    }
}
