//! Cholesky factorization in fragment shaders, full format, every variant of the 2006 paper:
//! outer product over the square domain (BrookGPU) or the oversized triangle (Fig. 5), with the
//! indices interpolated as a pair, as one triad, or computed; and the inner-product form (Fig. 4a).
//! Passes follow Algorithm 2 / Algorithm 5: square root, copy back, normalization, copy back,
//! update, swap.

use super::error::{GpuError, GpuResult};
use super::plan::{execute, PassKind, PlannedPass, Role};
use crate::geometry::cholesky as fig;
use crate::geometry::packed as packed_fig;
use crate::geometry::Primitive;
use crate::gl::{Gpu, Pass, PingPong, Texture};
use crate::kernels;
use crate::layout::{Format, Packed};

/// The domain the outer-product update is drawn over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Domain {
    /// One oversized triangle over the trailing lower triangle (Fig. 5): (m−1)m(m+1)/6 fragments.
    Triangle,
    /// The trailing square, as BrookGPU must: (m−1)m(2m−1)/6 fragments.
    Square,
}

/// Where the update kernel's neighbour and pivot indices come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum IndexSource {
    /// Two interpolated coordinates T0, T1; the pivot through a `.yx` swizzle (the paper's).
    Pair,
    /// One interpolated triad whose z holds the invariant k (2006 paper Fig. 5c).
    Triad,
    /// The pivot index computed in the shader from the fragment position.
    Computed,
}

/// A Cholesky variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Variant {
    /// Outer-product form: one update pass per step.
    Outer { domain: Domain, index: IndexSource },
    /// Inner-product form: column k+1 by a dynamic loop over k, one copy per step.
    Inner,
}

impl Variant {
    /// The 2008 paper's choice: oversized triangle, interpolated and swizzled pair.
    pub const PAPER: Variant = Variant::Outer { domain: Domain::Triangle, index: IndexSource::Pair };

    /// Every variant, the paper's first.
    pub const ALL: [Variant; 7] = [
        Variant::PAPER,
        Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad },
        Variant::Outer { domain: Domain::Triangle, index: IndexSource::Computed },
        Variant::Outer { domain: Domain::Square, index: IndexSource::Pair },
        Variant::Outer { domain: Domain::Square, index: IndexSource::Triad },
        Variant::Outer { domain: Domain::Square, index: IndexSource::Computed },
        Variant::Inner,
    ];

    /// A short name: `triangle-pair`, `square-triad`, `inner`, …
    pub fn name(&self) -> &'static str {
        match self {
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Pair } => "triangle-pair",
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad } => "triangle-triad",
            Variant::Outer { domain: Domain::Triangle, index: IndexSource::Computed } => "triangle-computed",
            Variant::Outer { domain: Domain::Square, index: IndexSource::Pair } => "square-pair",
            Variant::Outer { domain: Domain::Square, index: IndexSource::Triad } => "square-triad",
            Variant::Outer { domain: Domain::Square, index: IndexSource::Computed } => "square-computed",
            Variant::Inner => "inner",
        }
    }

    /// The variant called `name` (see [`Variant::name`]).
    pub fn from_name(name: &str) -> Option<Variant> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn update_primitive(domain: Domain, index: IndexSource, k: u32, m: u32) -> Primitive {
    match (domain, index) {
        (Domain::Triangle, IndexSource::Triad) => fig::fig5c_outer_update_triad(k, m),
        (Domain::Triangle, _) => fig::fig5_outer_update_triangle(k, m),
        (Domain::Square, IndexSource::Triad) => fig::square_outer_update_triad(k, m),
        (Domain::Square, _) => fig::square_outer_update(k, m),
    }
}

fn update_defines(index: IndexSource) -> &'static [&'static str] {
    match index {
        IndexSource::Pair => &[],
        IndexSource::Triad => &["TRIAD"],
        IndexSource::Computed => &["COMPUTED_INDEX"],
    }
}

/// The passes that factor an m×m matrix held in S (and, for the inner form, also in T). The
/// factor ends in T. Outer form (Algorithm 5): per step k = 0..m−2 square root S→T, copy T→S,
/// normalization S→T, copy T→S, update S→T, swap; then the last square root S→T. Inner form:
/// square root S→T, copy T→S, normalization S→T, inner-product column update T→S; no swap.
pub fn plan(m: u32, variant: Variant) -> Vec<PlannedPass> {
    use Role::{S, T};
    let mut passes = Vec::with_capacity(5 * m as usize);
    for k in 0..m.saturating_sub(1) {
        passes.push(PlannedPass::new(PassKind::SquareRoot, &kernels::SQRT, T, &[S], fig::diagonal_square(k), k));
        passes.push(PlannedPass::new(PassKind::CopyDiagonal, &kernels::COPY, S, &[T], fig::diagonal_square(k), k));
        passes.push(PlannedPass::new(
            PassKind::Normalize,
            &kernels::NORMALIZE,
            T,
            &[S],
            fig::column_below_diagonal(k, m),
            k,
        ));
        match variant {
            Variant::Outer { domain, index } => {
                passes.push(PlannedPass::new(
                    PassKind::CopyColumn,
                    &kernels::COPY,
                    S,
                    &[T],
                    fig::column_below_diagonal(k, m),
                    k,
                ));
                passes.push(
                    PlannedPass::new(
                        PassKind::OuterUpdate,
                        &kernels::OUTER_UPDATE,
                        T,
                        &[S],
                        update_primitive(domain, index, k, m),
                        k,
                    )
                    .defines(update_defines(index))
                    .then_swap(),
                );
            }
            Variant::Inner => {
                passes.push(PlannedPass::new(
                    PassKind::InnerUpdate,
                    &kernels::INNER_UPDATE,
                    S,
                    &[T],
                    fig::inner_product_column(k, m),
                    k,
                ));
            }
        }
    }
    if m > 0 {
        passes.push(PlannedPass::new(
            PassKind::SquareRoot,
            &kernels::SQRT,
            T,
            &[S],
            fig::diagonal_square(m - 1),
            m - 1,
        ));
    }
    passes
}

/// The passes that factor an m×m matrix held in packed format in S (2008 structure paper §4.3):
/// Algorithm 5's passes with packed primitives — two update triangles for k = 0..w−1 (Figs. 6a,
/// 7a), one for k = w..m−2 (Figs. 6b, 7b) — and the same kernels as the full format's paper variant.
pub fn plan_packed(m: u32) -> Vec<PlannedPass> {
    use Role::{S, T};
    let mut passes = Vec::with_capacity(5 * m as usize);
    for k in 0..m.saturating_sub(1) {
        let diag = packed_fig::packed_diagonal_square(k, m);
        let col = packed_fig::packed_column_below_diagonal(k, m);
        passes.push(PlannedPass::new(PassKind::SquareRoot, &kernels::SQRT, T, &[S], diag, k));
        passes.push(PlannedPass::new(PassKind::CopyDiagonal, &kernels::COPY, S, &[T], diag, k));
        passes.push(PlannedPass::new(PassKind::Normalize, &kernels::NORMALIZE, T, &[S], col, k));
        passes.push(PlannedPass::new(PassKind::CopyColumn, &kernels::COPY, S, &[T], col, k));
        passes.push(
            PlannedPass::new(
                PassKind::OuterUpdate,
                &kernels::OUTER_UPDATE,
                T,
                &[S],
                packed_fig::fig6_fig7_packed_update(k, m),
                k,
            )
            .then_swap(),
        );
    }
    if m > 0 {
        passes.push(PlannedPass::new(
            PassKind::SquareRoot,
            &kernels::SQRT,
            T,
            &[S],
            packed_fig::packed_diagonal_square(m - 1, m),
            m - 1,
        ));
    }
    passes
}

/// The plan for `variant` in `format`; the packed format exists for the paper's variant only
/// (its update addresses the neighbour and pivot through interpolated pairs).
pub fn plan_for(m: u32, variant: Variant, format: Format) -> GpuResult<Vec<PlannedPass>> {
    match format {
        Format::Full => Ok(plan(m, variant)),
        Format::Packed if variant == Variant::PAPER => Ok(plan_packed(m)),
        Format::Packed => Err(GpuError::Unsupported(format!(
            "the packed format runs the {} variant only, not {variant}",
            Variant::PAPER
        ))),
    }
}

/// A factor on the GPU: L in the lower triangle of `texture` (full format; the strict upper part
/// holds whatever the variant left there) or in all of it (packed format).
pub struct Factor {
    pub m: usize,
    pub variant: Variant,
    pub format: Format,
    pub texture: Texture,
    /// The other ping-pong texture, kept for reuse.
    pub spare: Texture,
}

/// Factors the m×m symmetric matrix whose lower triangle is in `c` (row-major; the strict upper
/// part is ignored). Non-finite inputs and non-positive pivots are errors naming where.
pub fn factor(gpu: &Gpu, c: &[f32], m: usize, variant: Variant) -> GpuResult<Factor> {
    factor_with(gpu, c, m, variant, Format::Full)
}

/// [`factor`] in either storage format (the matrix is packed on the CPU before upload).
pub fn factor_with(gpu: &Gpu, c: &[f32], m: usize, variant: Variant, format: Format) -> GpuResult<Factor> {
    if c.len() != m * m {
        return Err(GpuError::Shape(format!("{} values given for a {m}×{m} matrix", c.len())));
    }
    for i in 0..m {
        for j in 0..=i {
            let v = c[i * m + j];
            if !v.is_finite() {
                return Err(GpuError::NonFinite {
                    what: "the matrix to factor".into(),
                    row: i,
                    col: j,
                    value: v as f64,
                });
            }
        }
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
    Ok(Factor { m, variant, format, texture, spare })
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

/// Factors normal equations (the paper's variant) with tiny-pivot replacement: returns the factor
/// and the number of pivots replaced. NaN or a negative pivot beyond the threshold is still a
/// breakdown error.
pub fn factor_normal_equations(
    gpu: &Gpu,
    mut pp: PingPong,
    m: usize,
    format: Format,
    tiny: f32,
) -> GpuResult<(Factor, usize)> {
    let original = gpu.texture(m, 1, "the original diagonal")?;
    gather_diagonal(gpu, pp.source(), m, format, &original)?;
    let passes = with_tiny_pivots(plan_for(m as u32, Variant::PAPER, format)?, tiny);
    execute(gpu, &mut pp, &[&original], &passes)?;
    let (spare, texture) = pp.into_parts();
    let diag = check_diagonal(gpu, &texture, m, format)?;
    let replaced = diag.iter().filter(|&&v| v >= REPLACED_PIVOT).count();
    Ok((Factor { m, variant: Variant::PAPER, format, texture, spare }, replaced))
}

/// Reads the factor back: L row-major with the strict upper part zero.
pub fn read_lower(gpu: &Gpu, f: &Factor) -> GpuResult<Vec<f32>> {
    if f.format == Format::Packed {
        return Ok(Packed::new(f.m).unpack(&gpu.read(&f.texture)?));
    }
    let mut l = gpu.read(&f.texture)?;
    let m = f.m;
    for i in 0..m {
        for j in i + 1..m {
            l[i * m + j] = 0.0;
        }
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    fn formulas(m: u64, v: Variant) -> Vec<(&'static str, u64)> {
        let mut f =
            vec![("sqrt", m), ("copy_diagonal", m.saturating_sub(1)), ("normalize", (m.saturating_sub(1)) * m / 2)];
        match v {
            Variant::Outer { domain, .. } => {
                f.push(("copy_column", (m.saturating_sub(1)) * m / 2));
                let upd = match domain {
                    Domain::Triangle => (m.saturating_sub(1)) * m * (m + 1) / 6,
                    Domain::Square => (m.saturating_sub(1)) * m * (2 * m).saturating_sub(1) / 6,
                };
                if m > 1 {
                    f.push(("outer_update", upd));
                }
            }
            Variant::Inner => {
                if m > 1 {
                    f.push(("inner_update", (m - 1) * m / 2));
                }
            }
        }
        // A plan has no passes of a kind that shades nothing (m = 1 is one square root).
        f.retain(|&(_, n)| n > 0);
        f.sort();
        f
    }

    #[test]
    fn plans_shade_the_fragment_counts_of_tables_1_and_2() {
        for m in [1u32, 2, 3, 4, 7, 16, 33] {
            for v in Variant::ALL {
                let p = plan(m, v);
                let got: Vec<(&str, u64)> =
                    predicted_fragments(&p, m, m).expect("centres off edges").into_iter().collect();
                assert_eq!(got, formulas(m as u64, v), "m={m} {v}");
            }
        }
    }

    #[test]
    fn outer_plans_follow_algorithm_5_order_and_swap_once_per_step() {
        let m = 6;
        let p = plan(m, Variant::PAPER);
        assert_eq!(p.len() as u32, 5 * (m - 1) + 1);
        let names: Vec<&str> = p[..5].iter().map(|q| q.name).collect();
        assert_eq!(names, ["sqrt", "copy_diagonal", "normalize", "copy_column", "outer_update"]);
        assert_eq!(p.iter().filter(|q| q.swap_after).count() as u32, m - 1);
        // Writes alternate T, S, T, S, T: never the texture being read.
        for q in &p {
            assert!(!q.sources.contains(&q.target), "{}", q.name);
        }
        let inner = plan(m, Variant::Inner);
        assert_eq!(inner.len() as u32, 4 * (m - 1) + 1);
        assert!(inner.iter().all(|q| !q.swap_after));
        assert_eq!(inner.iter().filter(|q| q.name.starts_with("copy")).count() as u32, m - 1);
    }

    #[test]
    fn packed_plan_shades_what_the_full_plan_shades() {
        for m in 1..=30u32 {
            let full = predicted_fragments(&plan(m, Variant::PAPER), m, m).unwrap();
            let p = Packed::new(m as usize);
            let packed = predicted_fragments(&plan_packed(m), p.w as u32, p.h as u32).unwrap();
            assert_eq!(full, packed, "m={m}");
            assert_eq!(plan(m, Variant::PAPER).len(), plan_packed(m).len());
        }
        assert!(plan_for(5, Variant::Inner, Format::Packed).is_err());
    }

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
        }
        assert_eq!(Variant::from_name("nonsense"), None);
    }
}
