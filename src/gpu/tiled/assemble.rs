//! Register-tiled assembly of C = A·D²·Aᵀ: one fragment per ROWS × COLS tile of the lower
//! triangle of C, looping over b columns of A per pass (b ≥ n: one pass), the tile's 2×2 blocks
//! written to its planes at once. A and B = A·D² are the blocked assembly's operands
//! ([`crate::gpu::blocked::assemble::BlockedOperands`]: runs of four columns, rows padded to the
//! tiles' order M). Passes: one scaling (⌈n/4⌉·M fragments), then ⌈n/b⌉ sums, each over the
//! ratio·T(T+1)/2 tiles of the lower triangle (T = M/ROWS tile rows, ratio = ROWS/COLS); an 8×4
//! assembly is one sum followed by one pass re-tiling it to the factor's 4×4 tiles (M/4·(M/4+1)/2
//! fragments, four fetches each). Fetches per multiply-add: (ROWS + COLS)/(4·ROWS·COLS) — ⅛ for
//! 4×4, 3/32 for 8×4 (the blocked kernel's 2×2: ¼).

use crate::geometry::blocks::{lower_triangle as blocks_lower_triangle, rect};
use crate::geometry::tiles::{lower_triangle, lower_triangle_fragments};
use crate::gl::{Gpu, PingPong, Texture};
use crate::gpu::blocked::assemble::BlockedOperands;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute_planes, PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::{TileShape, Tiles};

/// The `#define`s of the assembly kernel for a tile shape (`None`: a shape it has no variant for).
pub fn defines(shape: TileShape, accumulate: bool) -> Option<&'static [&'static str]> {
    Some(match (shape.rows, shape.cols, accumulate) {
        (2, 2, false) => &["ROWS 2", "COLS 2", "PLANES 1"],
        (2, 2, true) => &["ROWS 2", "COLS 2", "PLANES 1", "ACCUMULATE"],
        (4, 4, false) => &["ROWS 4", "COLS 4", "PLANES 4"],
        (4, 4, true) => &["ROWS 4", "COLS 4", "PLANES 4", "ACCUMULATE"],
        (8, 4, false) => &["ROWS 8", "COLS 4", "PLANES 8"],
        (8, 4, true) => &["ROWS 8", "COLS 4", "PLANES 8", "ACCUMULATE"],
        _ => return None,
    })
}

/// Texture fetches per multiply-add of the accumulating loop.
pub fn fetches_per_madd(shape: TileShape) -> f64 {
    (shape.rows + shape.cols) as f64 / (4 * shape.rows * shape.cols) as f64
}

/// The aux roles of [`plan`]: A, d², B = A·D², then the eight planes of an 8×4 assembly.
pub const A: Role = Role::Aux(0);
pub const D2: Role = Role::Aux(1);
pub const SCALED: Role = Role::Aux(2);
const WIDE: [Role; 8] =
    [Role::Aux(3), Role::Aux(4), Role::Aux(5), Role::Aux(6), Role::Aux(7), Role::Aux(8), Role::Aux(9), Role::Aux(10)];

/// The passes assembling the m×m C into the planes of T (swapped into S), in `out` (4×4 tiles),
/// from n columns of A, with tiles of `shape`: B = A·D² into `SCALED`, then
/// * 4×4: the sums, `b` columns per pass (rounded up to a multiple of 4), each after the first
///   reading the previous planes from S;
/// * 8×4: one sum over all n columns into the eight planes `Aux(3..11)`, then one `retile`
///   pass over the lower triangle of 4×4 tiles into T (`b` is then ignored).
pub fn plan(m: usize, n: usize, b: usize, out: &Tiles, shape: TileShape) -> Vec<PlannedPass> {
    let texels = n.div_ceil(4).max(1);
    let mut passes = vec![PlannedPass::new(
        PassKind::ScaleColumns,
        &kernels::SCALE_COLUMNS4,
        SCALED,
        &[A, D2],
        rect(0, 0, texels as u32, out.padded as u32),
        0,
    )];
    let tiles = Tiles { shape, ..*out };
    let (_, rows) = tiles.plane_size();
    let ratio = (shape.rows / shape.cols) as u32;
    let sum = |k0: usize, k1: usize, accumulate: bool, step: u32| {
        PlannedPass::new(
            PassKind::AssembleTiles,
            &kernels::ASSEMBLE_TILES,
            Role::T,
            &[SCALED, A],
            lower_triangle(rows as u32, ratio),
            step,
        )
        .defines(defines(shape, accumulate).expect("a tile shape the assembly kernel has"))
        .uniform("k0", k0 as f32)
        .uniform("k1", k1 as f32)
        .uniform("m", m as f32)
    };
    if shape.planes() > super::FACTOR_TILE.planes() {
        let wide = &WIDE[..shape.planes()];
        let mut p = sum(0, texels, false, 0);
        p.target = wide[0];
        passes.push(p.more_targets(&wide[1..]));
        let mt = (out.padded / 4) as u32;
        passes.push(
            PlannedPass::new(PassKind::Retile, &kernels::RETILE, Role::T, wide, blocks_lower_triangle(0, mt), 0)
                .more_targets(&[Role::TPlane(1), Role::TPlane(2), Role::TPlane(3)])
                .then_swap(),
        );
        return passes;
    }
    let planes = shape.planes();
    let targets: Vec<Role> = (1..planes).map(Role::TPlane).collect();
    let per_pass = b.max(4).div_ceil(4);
    let mut k0 = 0;
    while k0 < texels {
        let k1 = (k0 + per_pass).min(texels);
        let mut p = sum(k0, k1, k0 > 0, (k0 / per_pass) as u32).more_targets(&targets).then_swap();
        if k0 > 0 {
            p.sources.extend((0..planes).map(Role::SPlane));
        }
        passes.push(p);
        k0 = k1;
    }
    passes
}

/// Fragments of the sums of [`plan`] (what the occlusion queries must count), and of its
/// re-tiling pass (0 for 4×4).
pub fn fragments(n: usize, b: usize, out: &Tiles, shape: TileShape) -> (u64, u64) {
    let tiles = Tiles { shape, ..*out };
    let (_, rows) = tiles.plane_size();
    let triangle = lower_triangle_fragments(rows as u64, (shape.rows / shape.cols) as u64);
    if shape.planes() > super::FACTOR_TILE.planes() {
        let mt = (out.padded / 4) as u64;
        return (triangle, mt * (mt + 1) / 2);
    }
    let sums = n.div_ceil(4).max(1).div_ceil(b.max(4).div_ceil(4)) as u64;
    (sums * triangle, 0)
}

/// Assembles C into the planes of `c` (S holds it on return; 4×4 tiles in `out`) from the
/// blocked operands (rows padded to at least `out.padded`). `wide`: the eight planes of an 8×4
/// assembly (M/4 × M/8 texels each), used when given; else 4×4 tiles, `b` columns per pass.
pub fn assemble_into(
    gpu: &Gpu,
    ops: &BlockedOperands,
    c: &mut [PingPong],
    wide: Option<&[Texture]>,
    out: &Tiles,
    b: usize,
) -> GpuResult<()> {
    if out.padded > ops.padded_rows || out.order != ops.m || out.shape != super::FACTOR_TILE {
        return Err(GpuError::Shape(format!(
            "C of order {} (padded {}, {} tiles) from A with {} rows (padded {})",
            out.order,
            out.padded,
            out.shape.name(),
            ops.m,
            ops.padded_rows
        )));
    }
    let size = out.plane_size();
    if c.len() != super::FACTOR_TILE.planes()
        || c.iter().any(|p| (p.source().width() as usize, p.source().height() as usize) != size)
    {
        return Err(GpuError::Shape(format!("{} planes for C, four of {size:?} texels needed", c.len())));
    }
    let shape = match wide {
        Some(w) => {
            let want = Tiles { shape: TileShape::T8X4, ..*out }.plane_size();
            if w.len() != 8 || w.iter().any(|t| (t.width() as usize, t.height() as usize) != want) {
                return Err(GpuError::Shape(format!(
                    "{} planes for the 8×4 assembly, eight of {want:?} texels needed",
                    w.len()
                )));
            }
            TileShape::T8X4
        }
        None => TileShape::T4X4,
    };
    let mut aux: Vec<&Texture> = vec![&*ops.a, &ops.d, &ops.scaled];
    aux.extend(wide.unwrap_or(&[]));
    execute_planes(gpu, c, &aux, &plan(ops.m, ops.n, b, out, shape))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn sums_and_retiling_shade_what_the_formulas_say() {
        for shape in [TileShape::T4X4, TileShape::T8X4] {
            for (m, n, b) in [(1, 1, 4), (5, 7, 4), (9, 33, 8), (17, 64, 64), (17, 64, 1000), (30, 10, 12)] {
                let out = Tiles::square(m, 16, crate::gpu::tiled::FACTOR_TILE);
                let p = plan(m, n, b, &out, shape);
                let (sums, retile) = fragments(n, b, &out, shape);
                let mt = (out.padded / 4) as u32;
                let f = predicted_fragments(&p, n.div_ceil(4).max(mt as usize) as u32, out.padded as u32)
                    .expect("no centre on an edge");
                assert_eq!(f["assemble_tiles"], sums, "{shape:?} m={m} n={n} b={b}");
                assert_eq!(f.get("retile").copied().unwrap_or(0), retile);
                assert_eq!(f["scale_columns"], (n.div_ceil(4) * out.padded) as u64);
                let sum_passes = p.iter().filter(|q| q.kind == PassKind::AssembleTiles).count();
                if shape == TileShape::T8X4 {
                    assert_eq!((p.len(), sum_passes), (3, 1));
                    assert_eq!(p[1].more_targets.len(), 7);
                } else {
                    assert_eq!(sum_passes, n.div_ceil(4).div_ceil(b.max(4) / 4));
                    assert!(p[2..].iter().all(|q| q.defines.contains(&"ACCUMULATE") && q.sources.len() == 6));
                }
                for q in &p {
                    assert!(!q.targets().any(|t| q.sources.contains(&t)), "{} reads its target", q.name);
                }
            }
        }
    }

    #[test]
    fn fetches_per_multiply_add_fall_with_the_tile() {
        assert_eq!(fetches_per_madd(TileShape::T2X2), 0.25);
        assert_eq!(fetches_per_madd(TileShape::T4X4), 0.125);
        assert_eq!(fetches_per_madd(TileShape::T8X4), 3.0 / 32.0);
    }
}
