//! The passes of every full-format variant (Algorithm 2 / Algorithm 5, the inner-product form)
//! and of the packed format, as data.

use super::{Domain, IndexSource, Variant};
use crate::geometry::cholesky as fig;
use crate::geometry::packed as packed_fig;
use crate::geometry::Primitive;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::Format;

fn update_primitive(domain: Domain, index: IndexSource, k: u32, m: u32) -> Primitive {
    match (domain, index) {
        // One column per pass: see `plan`.
        (Domain::Columns, _) => fig::column_outer_update(k, k + 1, m),
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
    if let Variant::Blocked(block) = variant {
        // Its own textures: see `gpu::blocked::cholesky` for the roles.
        return crate::gpu::blocked::cholesky::plan(m as usize, block, None);
    }
    if let Variant::Tiled(block) = variant {
        // Planes and textures of its own: see `gpu::tiled::cholesky` for the roles.
        let padded = crate::layout::Tiles::square(m as usize, block.size(), crate::gpu::tiled::FACTOR_TILE).padded;
        return crate::gpu::tiled::cholesky::plan(padded, block, None);
    }
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
            Variant::Outer { domain: Domain::Columns, index } => {
                passes.push(PlannedPass::new(
                    PassKind::CopyColumn,
                    &kernels::COPY,
                    S,
                    &[T],
                    fig::column_below_diagonal(k, m),
                    k,
                ));
                for j in k + 1..m {
                    let pass = PlannedPass::new(
                        PassKind::OuterUpdate,
                        &kernels::OUTER_UPDATE,
                        T,
                        &[S],
                        fig::column_outer_update(k, j, m),
                        k,
                    )
                    .defines(update_defines(index));
                    passes.push(if j + 1 == m { pass.then_swap() } else { pass });
                }
            }
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
            // Planned by `gpu::blocked` and `gpu::tiled` (returned above).
            Variant::Blocked(_) | Variant::Tiled(_) => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;
    use crate::layout::Packed;

    fn formulas(m: u64, v: Variant) -> Vec<(&'static str, u64)> {
        let mut f =
            vec![("sqrt", m), ("copy_diagonal", m.saturating_sub(1)), ("normalize", (m.saturating_sub(1)) * m / 2)];
        match v {
            Variant::Outer { domain, .. } => {
                f.push(("copy_column", (m.saturating_sub(1)) * m / 2));
                let upd = match domain {
                    Domain::Triangle | Domain::Columns => (m.saturating_sub(1)) * m * (m + 1) / 6,
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
            Variant::Blocked(_) | Variant::Tiled(_) => unimplemented!("the blocked plans have their own formulas"),
        }
        // A plan has no passes of a kind that shades nothing (m = 1 is one square root).
        f.retain(|&(_, n)| n > 0);
        f.sort();
        f
    }

    #[test]
    fn plans_shade_the_fragment_counts_of_tables_1_and_2() {
        for m in [1u32, 2, 3, 4, 7, 16, 33] {
            for v in Variant::PAPERS {
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
    fn the_column_multipass_update_is_one_pass_per_trailing_column() {
        let m = 7;
        let v = Variant::Outer { domain: Domain::Columns, index: IndexSource::Pair };
        let p = plan(m, v);
        let updates = p.iter().filter(|q| q.kind == PassKind::OuterUpdate).count() as u32;
        assert_eq!(updates, (m - 1) * m / 2, "Σ_k (m − k − 1) column passes");
        assert_eq!(p.iter().filter(|q| q.swap_after).count() as u32, m - 1);
    }

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::all() {
            assert_eq!(Variant::from_name(v.name()), Some(v));
        }
        assert_eq!(Variant::from_name("nonsense"), None);
    }
}
