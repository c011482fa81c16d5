//! Running a plan: uploads, the factorization in place, the breakdown check on the gathered
//! diagonal, the tiny-pivot treatment of the interior-point normal equations, read-back.

use super::{plan_for, Variant};
use crate::geometry::cholesky as fig;
use crate::geometry::packed as packed_fig;
use crate::geometry::Primitive;
use crate::gl::{Gpu, Pass, PingPong, TexelFormat, Texture};
use crate::gpu::blocked::cholesky::{check_lower, zero_upper, BlockedWork};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute, PassKind, PlannedPass, Role};
use crate::gpu::tiled::cholesky::TiledWork;
use crate::gpu::tiled::TilePlan;
use crate::kernels;
use crate::layout::{Blocks2x2, Format, Packed, Tiles};

/// A factor on the GPU: L in the lower triangle of `texture` (full format; the strict upper part
/// holds whatever the variant left there), in all of it (packed format), or in the lower
/// triangle of 2×2 blocks (the blocked variants, `blocks` then gives the layout).
pub struct Factor {
    pub m: usize,
    pub variant: Variant,
    pub format: Format,
    pub texture: Texture,
    /// The other ping-pong texture, kept for reuse.
    pub spare: Texture,
    /// The 2×2-block layout of a blocked variant's factor.
    pub blocks: Option<Blocks2x2>,
    /// A tiled variant's layout and the factor's planes 1, 2, 3 (plane 0 is `texture`).
    pub tiles: Option<(Tiles, Vec<Texture>)>,
}

/// Factors the m×m symmetric matrix whose lower triangle is in `c` (row-major; the strict upper
/// part is ignored). Non-finite inputs and non-positive pivots are errors naming where.
pub fn factor(gpu: &Gpu, c: &[f32], m: usize, variant: Variant) -> GpuResult<Factor> {
    factor_with(gpu, c, m, variant, Format::Full)
}

/// [`factor`] in either storage format (the matrix is packed on the CPU before upload).
pub fn factor_with(gpu: &Gpu, c: &[f32], m: usize, variant: Variant, format: Format) -> GpuResult<Factor> {
    check_lower(c, m)?;
    if let Some(block) = variant.block() {
        if format == Format::Packed {
            return Err(GpuError::Unsupported(format!("the {variant} variant stores full blocks, not packed")));
        }
        if let Variant::Tiled(_) = variant {
            match TilePlan::default_for(gpu.info(), block) {
                Ok(plan) => {
                    let mut w = TiledWork::new(gpu, plan.layout(m), block)?;
                    w.upload(gpu, c)?;
                    w.factor(gpu, None)?;
                    return tiled_factor(gpu, w, variant);
                }
                // Fewer draw buffers than a tile needs: the blocked kernels, same B.
                Err(_) => return factor_with(gpu, c, m, Variant::Blocked(block), format),
            }
        }
        let mut w = BlockedWork::new(gpu, m, block)?;
        w.upload(gpu, c)?;
        w.factor(gpu, None)?;
        return blocked_factor(gpu, w, variant);
    }
    plan_for(m as u32, variant, format)?;
    let data = match format {
        Format::Full => c.to_vec(),
        Format::Packed => Packed::new(m).pack(c),
    };
    let (w, h) = format.texture_size(m);
    let s = gpu.upload(w, h, &data, "the matrix to factor (S)")?;
    let t = gpu.upload(w, h, &data, "the ping-pong copy (T)")?;
    factor_in_place(gpu, PingPong::new(s, t), m, variant, format)
}

/// Factors the matrix held in `pp.source()`. The inner form also reads the original matrix from
/// the target, so it is copied there first when needed.
pub fn factor_textures(gpu: &Gpu, pp: PingPong, m: usize, variant: Variant, format: Format) -> GpuResult<Factor> {
    if !variant.is_paper() {
        return Err(GpuError::Unsupported(format!("the {variant} variant factors 2×2 blocks, not R32F textures")));
    }
    if variant == Variant::Inner {
        let full = Primitive::full(pp.source().width(), pp.source().height());
        gpu.run(&Pass::new("copy_matrix", &kernels::COPY, pp.target(), &[pp.source()], full))?;
    }
    factor_in_place(gpu, pp, m, variant, format)
}

fn factor_in_place(gpu: &Gpu, mut pp: PingPong, m: usize, variant: Variant, format: Format) -> GpuResult<Factor> {
    let (w, h) = format.texture_size(m);
    let size = |t: &Texture| (t.width() as usize, t.height() as usize);
    if size(pp.source()) != (w, h) || size(pp.target()) != (w, h) {
        return Err(GpuError::Shape(format!(
            "textures {:?}, {:?} for an {m}×{m} factorization in {} format ({w}×{h})",
            pp.source(),
            pp.target(),
            format.name()
        )));
    }
    let passes = plan_for(m as u32, variant, format)?;
    execute(gpu, &mut pp, &[], &passes)?;
    let (spare, texture) = pp.into_parts();
    check_diagonal(gpu, &texture, m, format)?;
    Ok(Factor { m, variant, format, texture, spare, blocks: None, tiles: None })
}

/// The finished blocked factorization as a [`Factor`], after the breakdown check.
fn blocked_factor(gpu: &Gpu, w: BlockedWork, variant: Variant) -> GpuResult<Factor> {
    blocked_diagonal(gpu, &w.l, w.m, &w.layout)?;
    let BlockedWork { m, layout, l, d, .. } = w;
    Ok(Factor { m, variant, format: Format::Full, texture: l, spare: d, blocks: Some(layout), tiles: None })
}

/// The finished tiled factorization as a [`Factor`], after the breakdown check.
fn tiled_factor(gpu: &Gpu, w: TiledWork, variant: Variant) -> GpuResult<Factor> {
    let out = gpu.texture_of(TexelFormat::Rgba32F, w.layout.padded / 4, 1, "the factor's diagonal")?;
    let l: Vec<&Texture> = w.l.iter().collect();
    crate::gpu::tiled::cholesky::gather_diagonal(gpu, &l, &out)?;
    let diag: Vec<f32> = gpu.read(&out)?.into_iter().take(w.m).collect();
    if let Some(column) = diag.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
        return Err(GpuError::NotPositiveDefinite { column, pivot: diag[column] });
    }
    let TiledWork { m, layout, l, mut d, .. } = w;
    let mut planes = l.into_iter();
    let texture = planes.next().ok_or_else(|| GpuError::Shape("a tiled factor without planes".into()))?;
    let spare = d.swap_remove(0);
    Ok(Factor {
        m,
        variant,
        format: Format::Full,
        texture,
        spare,
        blocks: None,
        tiles: Some((layout, planes.collect())),
    })
}

/// The blocked factor's diagonal, gathered and read back (m values), with the breakdown check of
/// [`check_diagonal`].
pub fn blocked_diagonal(gpu: &Gpu, l: &Texture, m: usize, layout: &Blocks2x2) -> GpuResult<Vec<f32>> {
    let out = gpu.texture_of(TexelFormat::Rgba32F, layout.padded_rows / 4, 1, "the factor's diagonal")?;
    crate::gpu::blocked::cholesky::gather_diagonal(gpu, l, &out)?;
    let diag: Vec<f32> = gpu.read(&out)?.into_iter().take(m).collect();
    match diag.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
        Some(column) => Err(GpuError::NotPositiveDefinite { column, pivot: diag[column] }),
        None => Ok(diag),
    }
}

/// Gathers the diagonal of the m×m matrix in `src` (full or packed) into the m×1 texture `out`.
pub fn gather_diagonal(gpu: &Gpu, src: &Texture, m: usize, format: Format, out: &Texture) -> GpuResult<()> {
    let gathers = match format {
        Format::Full => vec![fig::diagonal_gather(m as u32)],
        Format::Packed => packed_fig::packed_diagonal_gather(m as u32).to_vec(),
    };
    for p in gathers {
        gpu.run(&Pass::new("gather_diagonal", &kernels::FETCH_T0, out, &[src], p))?;
    }
    Ok(())
}

/// Gathers the diagonal of the factor into an m×1 texture and reads it back (m values): the first
/// diagonal entry that is not a positive finite number names the column where the factorization
/// broke down (the square-root kernel leaves a non-positive pivot in place). Returns the diagonal.
pub fn check_diagonal(gpu: &Gpu, l: &Texture, m: usize, format: Format) -> GpuResult<Vec<f32>> {
    let d = gpu.texture(m, 1, "the factor's diagonal")?;
    gather_diagonal(gpu, l, m, format, &d)?;
    let diag = gpu.read(&d)?;
    match diag.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
        Some(column) => Err(GpuError::NotPositiveDefinite { column, pivot: diag[column] }),
        None => Ok(diag),
    }
}

/// The value the `TINY_PIVOT` square root writes for a replaced pivot (see `glsl/sqrt.frag`).
pub const REPLACED_PIVOT: f32 = 1e15;

/// Turns the square-root passes of a plan into `TINY_PIVOT` ones: a pivot at or below
/// `tiny`·C(k, k) is replaced by a huge one. They read the original diagonal from `Aux(0)`.
pub fn with_tiny_pivots(plan: Vec<PlannedPass>, tiny: f32) -> Vec<PlannedPass> {
    plan.into_iter()
        .map(|mut p| {
            if p.kind == PassKind::SquareRoot {
                p.sources = vec![Role::S, Role::Aux(0)];
                let k = p.step as f32;
                p.defines(&["TINY_PIVOT"]).uniform("tiny", tiny).uniform("pivot", k)
            } else {
                p
            }
        })
        .collect()
}

/// Factors normal equations with a paper variant and tiny-pivot replacement: returns the factor
/// and the number of pivots replaced. NaN or a negative pivot beyond the threshold is still a
/// breakdown error. (The blocked variants do the same in `gpu::blocked::cholesky`.)
pub fn factor_normal_equations(
    gpu: &Gpu,
    mut pp: PingPong,
    m: usize,
    format: Format,
    variant: Variant,
    tiny: f32,
) -> GpuResult<(Factor, usize)> {
    if !variant.is_paper() {
        return Err(GpuError::Unsupported(format!("the {variant} variant factors 2×2 blocks, not R32F textures")));
    }
    let original = gpu.texture(m, 1, "the original diagonal")?;
    gather_diagonal(gpu, pp.source(), m, format, &original)?;
    let passes = with_tiny_pivots(plan_for(m as u32, variant, format)?, tiny);
    if variant == Variant::Inner {
        // The inner form reads the original matrix from T as well.
        let full = Primitive::full(pp.source().width(), pp.source().height());
        gpu.run(&Pass::new("copy_matrix", &kernels::COPY, pp.target(), &[pp.source()], full))?;
    }
    execute(gpu, &mut pp, &[&original], &passes)?;
    let (spare, texture) = pp.into_parts();
    let diag = check_diagonal(gpu, &texture, m, format)?;
    let replaced = diag.iter().filter(|&&v| v >= REPLACED_PIVOT).count();
    Ok((Factor { m, variant, format, texture, spare, blocks: None, tiles: None }, replaced))
}

/// Reads the factor back: L row-major with the strict upper part zero.
pub fn read_lower(gpu: &Gpu, f: &Factor) -> GpuResult<Vec<f32>> {
    if let Some((layout, rest)) = &f.tiles {
        let mut planes = vec![gpu.read(&f.texture)?];
        for t in rest {
            planes.push(gpu.read(t)?);
        }
        let mut l = layout.unpack(&planes);
        zero_upper(&mut l, f.m);
        return Ok(l);
    }
    if let Some(layout) = &f.blocks {
        let mut l = layout.unpack(&gpu.read(&f.texture)?);
        zero_upper(&mut l, f.m);
        return Ok(l);
    }
    if f.format == Format::Packed {
        return Ok(Packed::new(f.m).unpack(&gpu.read(&f.texture)?));
    }
    let mut l = gpu.read(&f.texture)?;
    zero_upper(&mut l, f.m);
    Ok(l)
}
