//! LU factorization with partial pivoting in fragment shaders — the LU-GPU baseline (Galoppo et
//! al.) that the 2006 paper compares Cholesky against. Per step k: the column below the diagonal
//! is gathered and searched for its pivot by a max-abs reduction and an index-of-max reduction
//! (one scalar read back: the pivot row), rows k and p are swapped by row passes, the column is
//! normalized, and a rank-1 update covers the trailing square; ping-pong with copy-backs as in the
//! Cholesky of Algorithm 2.

use crate::geometry::cholesky::column_below_diagonal;
use crate::geometry::lu as fig;
use crate::gl::{Gpu, Pass, PingPong, Texture};
use crate::gpu::blas1::{ReduceOp, Reducer};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute, PassKind, PlannedPass, Role};
use crate::kernels;

/// P·A = L·U on the GPU: L (unit lower, below the diagonal) and U (upper, diagonal included)
/// share `texture`; `perm[i]` is the row of A that became row i.
pub struct LuFactor {
    pub m: usize,
    pub texture: Texture,
    pub spare: Texture,
    pub perm: Vec<usize>,
}

/// The passes of step k after the pivot row p is known: row exchange (or the copy of row k that
/// keeps both ping-pong textures current), normalization and its copy-back, trailing update.
pub fn plan_step(k: u32, p: u32, m: u32) -> Vec<PlannedPass> {
    use Role::{S, T};
    let mut v = Vec::with_capacity(8);
    if p != k {
        v.push(PlannedPass::new(PassKind::SwapRows, &kernels::FETCH_T0, T, &[S], fig::row_copy(k, p, m), k));
        v.push(PlannedPass::new(PassKind::SwapRows, &kernels::FETCH_T0, T, &[S], fig::row_copy(p, k, m), k));
        v.push(PlannedPass::new(PassKind::CopyRow, &kernels::FETCH_T0, S, &[T], fig::row_copy(k, k, m), k));
        v.push(PlannedPass::new(PassKind::CopyRow, &kernels::FETCH_T0, S, &[T], fig::row_copy(p, p, m), k));
    } else {
        v.push(PlannedPass::new(PassKind::CopyRow, &kernels::FETCH_T0, T, &[S], fig::row_copy(k, k, m), k));
    }
    if k + 1 < m {
        let col = column_below_diagonal(k, m);
        v.push(PlannedPass::new(PassKind::Normalize, &kernels::NORMALIZE, T, &[S], col, k));
        v.push(PlannedPass::new(PassKind::CopyColumn, &kernels::COPY, S, &[T], col, k));
        v.push(
            PlannedPass::new(PassKind::Elimination, &kernels::OUTER_UPDATE, T, &[S], fig::trailing_update(k, m), k)
                .then_swap(),
        );
    }
    v
}

/// Factors the m×m matrix `a` (row-major). NaN or ±∞ in the input is refused up front. A
/// column whose largest candidate pivot is at most m·u·max|A| (u = 2⁻²⁴) — zero up to the
/// rounding of single-precision elimination — is [`GpuError::Singular`].
pub fn factor(gpu: &Gpu, a: &[f32], m: usize) -> GpuResult<LuFactor> {
    if a.len() != m * m {
        return Err(GpuError::Shape(format!("{} values given for a {m}×{m} matrix", a.len())));
    }
    if let Some(p) = a.iter().position(|v| !v.is_finite()) {
        return Err(GpuError::NonFinite {
            what: "the matrix to factor".into(),
            row: p / m,
            col: p % m,
            value: a[p] as f64,
        });
    }
    let s = gpu.upload(m, m, a, "the matrix to factor (S)")?;
    let t = gpu.upload(m, m, a, "the ping-pong copy (T)")?;
    let scale = a.iter().fold(0.0f32, |acc, v| acc.max(v.abs()));
    factor_textures(gpu, PingPong::new(s, t), m, m as f32 * f32::EPSILON / 2.0 * scale)
}

/// Factors the matrix in `pp.source()` (every row of T is written from S before T is read).
/// A column whose largest candidate pivot is at most `singular_below` is singular.
pub fn factor_textures(gpu: &Gpu, mut pp: PingPong, m: usize, singular_below: f32) -> GpuResult<LuFactor> {
    let column = gpu.texture(m, 1, "the pivot column")?;
    let index = gpu.texture(m, 1, "pivot candidates")?;
    let max = gpu.texture(1, 1, "the column's max-abs")?;
    let reducer = Reducer::new();
    let mut perm: Vec<usize> = (0..m).collect();
    for k in 0..m as u32 {
        let len = m - k as usize;
        gpu.run(
            &Pass::new(
                "pivot_gather",
                &kernels::FETCH_T0,
                &column,
                &[pp.source()],
                fig::pivot_column_gather(k, m as u32),
            )
            .step(k),
        )?;
        reducer.reduce_into(gpu, &column, len, ReduceOp::MaxAbs, &max)?;
        let domain = crate::geometry::Primitive::full(len as u32, 1);
        let sources = [&column, &max];
        let argmatch = Pass::new("pivot_argmatch", &kernels::ARGMATCH, &index, &sources, domain);
        gpu.run(&argmatch.uniforms(&[("tiny", singular_below)]).step(k))?;
        let r = reducer.reduce_texture(gpu, &index, len, ReduceOp::Min)?;
        if r.is_nan() {
            return Err(GpuError::NonFinite {
                what: "the factorization".into(),
                row: k as usize,
                col: k as usize,
                value: f64::NAN,
            });
        }
        if !r.is_finite() {
            return Err(GpuError::Singular { column: k as usize });
        }
        let p = k + r as u32;
        perm.swap(k as usize, p as usize);
        execute(gpu, &mut pp, &[], &plan_step(k, p, m as u32))?;
    }
    // Every step that updates ends with a swap, so the factor is in S; the last step only copies
    // row m − 1 into T.
    let (factor, other) = pp.into_parts();
    Ok(LuFactor { m, texture: factor, spare: other, perm })
}

/// Reads L and U back (row-major, sharing one array as LAPACK's getrf does).
pub fn read(gpu: &Gpu, f: &LuFactor) -> GpuResult<Vec<f32>> {
    Ok(gpu.read(&f.texture)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn step_plans_shade_normalization_and_elimination_counts() {
        for m in [2u32, 3, 8, 17] {
            let mut total = std::collections::BTreeMap::new();
            for k in 0..m {
                for (name, n) in predicted_fragments(&plan_step(k, k, m), m, m).unwrap() {
                    *total.entry(name).or_insert(0u64) += n;
                }
            }
            let m = m as u64;
            assert_eq!(total["normalize"], (m - 1) * m / 2);
            assert_eq!(total["elimination"], (m - 1) * m * (2 * m - 1) / 6);
            assert_eq!(total["copy_row"], m * m);
        }
        let swap = predicted_fragments(&plan_step(1, 4, 6), 6, 6).unwrap();
        assert_eq!(swap["swap_rows"], 12);
        assert_eq!(swap["copy_row"], 12);
    }
}
