//! The register-tile kernels (4×4 tiles written to four targets at once, the assembly's 8×4 to
//! eight) on the real driver, against double-precision references, on sizes that are not round
//! (1, odd, tile ± 1, block ± 1, …), with every pass's fragments counted by occlusion queries
//! (desktop; on OpenGL ES the reference rasterizer's prediction) and compared with the plans'
//! formulas.
//!
//! Tolerances are those of tests/blocked.rs (u = 2⁻²⁴, γ_k = k·u/(1 − k·u), Higham): a tile
//! kernel performs the same operations as the blocked one, in another order.
//! - Cholesky, componentwise: |C − L̂L̂ᵀ| ≤ 2·(m + 2)·u·(|L̂||L̂ᵀ|) entry by entry.
//! - Assembly, componentwise: |Ĉ − C| ≤ 2·(n + 4)·u·(|A|D²|A|ᵀ).
//! - Substitution: `common::bounds::cholesky_solve`, from each substitution's componentwise
//!   backward stability with the GPU's own L̂.
mod common;
use common::with_gpu;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::{GlApi, Gpu, HeadlessOptions, Measure, PingPong, TexelFormat, Texture};
use glsolve::gpu::blocked::assemble::BlockedOperands;
use glsolve::gpu::blocked::Block;
use glsolve::gpu::tiled::cholesky::{fragments, planes, read_lower, TiledWork};
use glsolve::gpu::tiled::{assemble, substitute, TilePlan, FACTOR_TILE};
use glsolve::layout::{TileShape, Tiles};

const U: f64 = 5.960_464_5e-8;

fn sizes(block: Block) -> Vec<usize> {
    let b = block.size();
    vec![1, 2, 3, 5, b - 1, b, b + 1, 2 * b + 3, 5 * b - 1]
}

fn layout(m: usize, block: Block) -> Tiles {
    Tiles::square(m, block.size(), FACTOR_TILE)
}

/// Factors `c` on the GPU; returns L̂ (f64) and the fragments per pass name.
fn factor(c: Vec<f64>, m: usize, block: Block) -> (Vec<f64>, std::collections::BTreeMap<&'static str, u64>) {
    with_gpu(move |gpu| {
        let c32: Vec<f32> = c.iter().map(|&v| v as f32).collect();
        let mut w = TiledWork::new(gpu, layout(m, block), block).expect("textures");
        w.upload(gpu, &c32).expect("upload");
        let (r, log) = gpu.logged(Measure::FRAGMENTS, |g| w.factor(g, None));
        r.expect("factor");
        let l = read_lower(gpu, &w.layout, &w.l).expect("read").into_iter().map(f64::from).collect();
        let counts = log.by_name().into_iter().map(|(k, v)| (k, v.fragments)).collect();
        (l, counts)
    })
}

fn check_backward(c: &[f64], l: &[f64], m: usize, what: &str) {
    for i in 0..m {
        for j in 0..=i {
            let (mut llt, mut abs) = (0.0, 0.0);
            for k in 0..=j {
                llt += l[i * m + k] * l[j * m + k];
                abs += (l[i * m + k] * l[j * m + k]).abs();
            }
            let err = (c[i * m + j] - llt).abs();
            let bound = 2.0 * (m as f64 + 2.0) * U * abs;
            assert!(err <= bound, "{what}: |C − LLᵀ| at ({i}, {j}) = {err:e} > {bound:e}");
        }
    }
}

#[test]
fn tiled_cholesky_meets_the_componentwise_backward_bound_and_shades_its_formula() {
    for block in Block::ALL {
        for m in sizes(block).into_iter().chain([133]) {
            let c = random::spd_well_conditioned(m, 3 + m as u64);
            let (l, counts) = factor(c.clone(), m, block);
            let what = format!("m={m} B={}", block.size());
            check_backward(&c, &l, m, &what);
            // L is unique and κ(C) ≤ 10, so L̂ is close to faer's L.
            let reference = rowmajor::cholesky_lower(&c, m).expect("SPD");
            let top = reference.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for (p, (a, b)) in l.iter().zip(&reference).enumerate() {
                assert!((a - b).abs() <= 40.0 * m as f64 * U * top, "{what}: L at {p}: {a} vs {b}");
            }
            for (kind, n) in fragments(layout(m, block).padded, block) {
                assert_eq!(counts.get(kind.name()).copied().unwrap_or(0), n, "{what}: {kind:?} fragments");
            }
        }
    }
}

#[test]
fn a_matrix_that_is_not_positive_definite_breaks_down_at_its_pivot() {
    // Column 9 of an SPD matrix made dependent on column 3 (pivot 9 becomes ≈ 0 or negative),
    // in the third tile of the second block of eight.
    let m = 13;
    let mut c = random::spd_well_conditioned(m, 5);
    for k in 0..m {
        c[9 * m + k] = c[3 * m + k];
        c[k * m + 9] = c[k * m + 3];
    }
    c[9 * m + 9] = c[3 * m + 3] - 1.0;
    for block in [Block::B8, Block::B16] {
        let (l, _) = factor(c.clone(), m, block);
        let bad = (0..m).position(|k| !(l[k * m + k] > 0.0 && l[k * m + k].is_finite()));
        assert_eq!(bad, Some(9), "B={}: diagonal {:?}", block.size(), (0..m).map(|k| l[k * m + k]).collect::<Vec<_>>());
    }
}

/// Assembles on the GPU with tiles of `shape` (8×4: one pass), `b` columns per pass, adding the
/// diagonal `delta` when it is not empty; returns C (row-major m×m, all of it as stored), the
/// sums' and the re-tiling's fragments and the sums' passes.
fn assemble_on_gpu(
    a: &[f64],
    d2: &[f64],
    delta: &[f64],
    (m, n): (usize, usize),
    shape: TileShape,
    b: usize,
) -> (Vec<f32>, u64, u64, u64) {
    let (a, d2, delta) = (a.to_vec(), d2.to_vec(), delta.to_vec());
    with_gpu(move |gpu| {
        let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let d32: Vec<f32> = d2.iter().map(|&v| v as f32).collect();
        let out = layout(m, Block::B8);
        let mut ops = BlockedOperands::new(gpu, &a32, m, n, out.padded).expect("A");
        ops.set_d2(gpu, &d32).expect("d");
        if !delta.is_empty() {
            ops.allocate_diagonal(gpu).expect("the diagonal");
            let delta32: Vec<f32> = delta.iter().map(|&v| v as f32).collect();
            ops.set_diagonal(gpu, &delta32).expect("the diagonal");
        }
        let size = out.plane_size();
        let s = planes(gpu, 4, size, "C").expect("C");
        let t = planes(gpu, 4, size, "C").expect("C");
        let mut pp: Vec<PingPong> = s.into_iter().zip(t).map(|(s, t)| PingPong::new(s, t)).collect();
        let wide: Option<Vec<Texture>> = (shape == TileShape::T8X4)
            .then(|| planes(gpu, 8, Tiles { shape, ..out }.plane_size(), "8×4").expect("planes"));
        let (r, log) =
            gpu.logged(Measure::FRAGMENTS, |g| assemble::assemble_into(g, &ops, &mut pp, wide.as_deref(), &out, b));
        r.expect("assemble");
        let data: Vec<Vec<f32>> = pp.iter().map(|p| gpu.read(p.source()).expect("read")).collect();
        // The padded diagonal is the identity (rows past m of A are zero).
        let all = Tiles { order: out.padded, ..out }.unpack(&data);
        for d in m..out.padded {
            assert_eq!(all[d * out.padded + d], 1.0, "padded diagonal {d}");
            assert_eq!(all[d * out.padded], 0.0, "padded row {d}");
        }
        (
            out.unpack(&data),
            log.fragments_of("assemble_tiles"),
            log.fragments_of("retile"),
            log.count_of("assemble_tiles"),
        )
    })
}

#[test]
fn tiled_assembly_meets_the_componentwise_bound_for_both_tiles_and_every_b() {
    for (m, n) in [(1usize, 1usize), (3, 5), (5, 13), (7, 13), (9, 31), (17, 64), (33, 101), (64, 255)] {
        let a = random::uniform(m, n, -1.0, 1.0, m as u64 * 7 + n as u64);
        let d2 = random::uniform(1, n, 0.1, 2.0, 99);
        let mut cases =
            vec![(TileShape::T8X4, n), (TileShape::T4X4, 4), (TileShape::T4X4, 8), (TileShape::T4X4, n.max(4))];
        cases.dedup();
        for (shape, b) in cases {
            let (c, sums, retile, passes) = assemble_on_gpu(&a, &d2, &[], (m, n), shape, b);
            let what = format!("{} m={m} n={n} b={b}", shape.name());
            let out = layout(m, Block::B8);
            let (want_sums, want_retile) = assemble::fragments(n, b, &out, shape);
            assert_eq!((sums, retile), (want_sums, want_retile), "{what}: fragments");
            let want_passes = if shape == TileShape::T8X4 { 1 } else { n.div_ceil(b.div_ceil(4) * 4) };
            assert_eq!(passes as usize, want_passes, "{what}: passes");
            for i in 0..m {
                for j in 0..=i {
                    let (mut exact, mut abs) = (0.0, 0.0);
                    for k in 0..n {
                        let t = a[i * n + k] * d2[k] * a[j * n + k];
                        exact += t;
                        abs += t.abs();
                    }
                    let err = (c[i * m + j] as f64 - exact).abs();
                    let bound = 2.0 * (n as f64 + 4.0) * U * abs;
                    assert!(err <= bound, "{what} C({i},{j}): {err:e} > {bound:e}");
                }
            }
        }
    }
}

/// The split normal equations' assembly: A_D·W·A_Dᵀ + Δ with Δ ≥ 0 from the diagonal texture,
/// in the passes and fragments of the k columns alone (the formulas of the plain assembly), Δ
/// carried exactly into C's diagonal within the same componentwise bound (Δ enters the sum first).
#[test]
fn tiled_assembly_adds_a_diagonal_in_the_passes_of_its_columns() {
    for (m, k) in [(1usize, 1usize), (3, 2), (5, 13), (9, 3), (17, 5), (33, 101)] {
        let a = random::uniform(m, k, -1.0, 1.0, m as u64 * 5 + k as u64);
        let w = random::uniform(1, k, 0.1, 2.0, 17);
        // Some rows without a unit column (Δ = 0), others dominated by theirs.
        let delta: Vec<f64> = (0..m).map(|i| if i % 3 == 1 { 0.0 } else { 0.5 + 1e3 * (i % 5) as f64 }).collect();
        for (shape, b) in [(TileShape::T8X4, k), (TileShape::T4X4, 4), (TileShape::T4X4, k.max(4))] {
            let (c, sums, retile, passes) = assemble_on_gpu(&a, &w, &delta, (m, k), shape, b);
            let what = format!("{} m={m} k={k} b={b}", shape.name());
            let out = layout(m, Block::B8);
            assert_eq!((sums, retile), assemble::fragments(k, b, &out, shape), "{what}: fragments");
            let want_passes = if shape == TileShape::T8X4 { 1 } else { k.div_ceil(b.div_ceil(4) * 4) };
            assert_eq!(passes as usize, want_passes, "{what}: passes");
            for i in 0..m {
                for j in 0..=i {
                    let (mut exact, mut abs) = if i == j { (delta[i], delta[i]) } else { (0.0, 0.0) };
                    for t in 0..k {
                        let v = a[i * k + t] * w[t] * a[j * k + t];
                        exact += v;
                        abs += v.abs();
                    }
                    let err = (c[i * m + j] as f64 - exact).abs();
                    let bound = 2.0 * (k as f64 + 4.0) * U * abs;
                    assert!(err <= bound, "{what} C({i},{j}): {err:e} > {bound:e}");
                }
            }
        }
    }
}

#[test]
fn tiled_substitution_solves_with_the_gpu_factor() {
    for block in Block::ALL {
        for m in sizes(block) {
            let c = random::spd_well_conditioned(m, 21 + m as u64);
            let r: Vec<f64> = (0..m).map(|i| ((i * 7 + 3) % 11) as f64 - 5.0).collect();
            let (c2, r2) = (c.clone(), r.clone());
            let (l, x, counts) = with_gpu(move |gpu| {
                let c32: Vec<f32> = c2.iter().map(|&v| v as f32).collect();
                let mut w = TiledWork::new(gpu, layout(m, block), block).expect("textures");
                w.upload(gpu, &c32).expect("upload");
                w.factor(gpu, None).expect("factor");
                let padded = w.layout.padded;
                let mut rhs: Vec<f32> = r2.iter().map(|&v| v as f32).collect();
                rhs.resize(padded, 0.0);
                let vec = |d: &[f32]| gpu.upload_of(TexelFormat::Rgba32F, padded / 4, 1, d, "v").expect("v");
                let mut pp = PingPong::new(vec(&rhs), vec(&vec![0.0; padded]));
                let (res, log) =
                    gpu.logged(Measure::FRAGMENTS, |g| substitute::solve(g, &w.l, &w.layout, block, &mut pp));
                res.expect("solve");
                let x = gpu.read(pp.source()).expect("read");
                assert!(x[m..].iter().all(|&v| v == 0.0), "padding stays zero");
                let l: Vec<f64> = read_lower(gpu, &w.layout, &w.l).expect("L").into_iter().map(f64::from).collect();
                (l, x[..m].iter().map(|&v| v as f64).collect::<Vec<_>>(), (log.passes(), log.fragments()))
            });
            let padded = layout(m, block).padded;
            let passes = 2 * padded / block.size();
            assert_eq!(counts, (passes as u64, (passes * padded / 4) as u64), "m={m} B={}", block.size());
            common::bounds::cholesky_solve(&l, &r, &x, m).unwrap_or_else(|e| panic!("m={m} B={}: {e}", block.size()));
        }
    }
}

/// The memory the report quotes is [`tiled::texture_bytes`]: what the system really allocates,
/// counted texture by texture by the GL layer, for both assembly tiles.
#[test]
fn tiled_normal_system_allocates_exactly_its_predicted_bytes() {
    use glsolve::gpu::normal::{self, tiled, NormalOptions};
    use glsolve::gpu::TexturePool;
    for (m, n, block) in [(1, 3, Block::B8), (17, 45, Block::B16), (33, 130, Block::B32), (16, 64, Block::B16)] {
        let (before, after, plan) = with_gpu(move |gpu| {
            let a: Vec<f32> = (0..m * n).map(|k| ((k * 7) % 11) as f32 - 5.0).collect();
            let opts = NormalOptions {
                variant: glsolve::gpu::cholesky::Variant::Tiled(block),
                format: glsolve::layout::Format::Full,
                substitute_on_gpu: true,
                pivot_tolerance: 1e-6,
                columns_per_pass: usize::MAX,
            };
            let before = gpu.texture_bytes().0;
            let plan =
                TilePlan::default_for(gpu.info(), block).expect("a context with enough draw buffers runs the tiles");
            let sys = normal::build(gpu, &a, m, n, opts, TexturePool::new()).expect("system");
            let after = gpu.texture_bytes().0;
            drop(sys);
            assert_eq!(gpu.texture_bytes().0, before, "m={m} n={n}: dropping the system frees its bytes");
            (before, after, plan)
        });
        assert_eq!(after - before, tiled::texture_bytes(m, n, &plan), "m={m} n={n} {block:?}");
    }
}

/// The normal equations on the tiles against the blocked kernels on the same A and d²: the
/// solution of A·D²·Aᵀ·x = r agrees to single precision's accuracy on this well-conditioned
/// system (κ ≈ 10²), through the tiny-pivot diagonal kernel and both tiled substitutions.
#[test]
fn tiled_normal_equations_solve_like_the_blocked_ones() {
    use glsolve::gpu::normal::{self, NormalOptions};
    use glsolve::gpu::TexturePool;
    for (m, n) in [(1, 4), (6, 17), (19, 61), (37, 150)] {
        let a: Vec<f32> = random::uniform(m, n, -1.0, 1.0, 5 + m as u64).iter().map(|&v| v as f32).collect();
        let d2: Vec<f32> = (0..n).map(|k| 0.5 + (k % 7) as f32 / 7.0).collect();
        let r: Vec<f64> = (0..m).map(|i| (i % 5) as f64 - 2.0).collect();
        let exact = {
            let mut c = vec![0.0f64; m * m];
            for i in 0..m {
                for j in 0..m {
                    c[i * m + j] = (0..n).map(|k| a[i * n + k] as f64 * d2[k] as f64 * a[j * n + k] as f64).sum();
                }
            }
            rowmajor::cholesky_solve(&rowmajor::cholesky_lower(&c, m).expect("SPD"), m, &r)
        };
        for variant in [Block::B8, Block::B16].map(glsolve::gpu::cholesky::Variant::Tiled) {
            let (a, d2, r) = (a.clone(), d2.clone(), r.clone());
            let (x, replaced) = with_gpu(move |gpu| {
                let opts = NormalOptions {
                    variant,
                    format: glsolve::layout::Format::Full,
                    substitute_on_gpu: true,
                    pivot_tolerance: 1e-6,
                    columns_per_pass: usize::MAX,
                };
                let mut sys = normal::build(gpu, &a, m, n, opts, TexturePool::new()).expect("system");
                sys.set_d2_host(&d2).expect("d²");
                sys.assemble().expect("assemble");
                let replaced = sys.factor().expect("factor");
                (sys.solve_host(&r).expect("solve"), replaced)
            });
            assert_eq!(replaced, 0, "{variant} m={m}: no pivot is tiny here");
            let top = exact.iter().fold(0.0f64, |t, v| t.max(v.abs()));
            for (i, (g, e)) in x.iter().zip(&exact).enumerate() {
                assert!((g - e).abs() <= 1e-3 * top, "{variant} m={m} n={n}: x[{i}] = {g} against {e}");
            }
        }
    }
}

/// A context offering fewer draw buffers than a 4×4 tile writes: the plan says why, the
/// tiled variants run the blocked kernels there (the same factor, bit for bit), and a pass
/// asking for four targets is refused with the limit.
#[test]
fn fewer_draw_buffers_than_a_tile_needs_fall_back_to_the_blocked_kernels() {
    let run = || -> Result<(), String> {
        let gpu = Gpu::headless_with(HeadlessOptions {
            api: common::test_gl(),
            max_draw_buffers: Some(2),
            ..Default::default()
        })
        .map_err(|e| e.to_string())?;
        let why = TilePlan::default_for(gpu.info(), Block::B16).expect_err("two draw buffers cannot hold a 4×4 tile");
        assert!(why.contains("2 draw buffers"), "{why}");
        assert!(glsolve::gpu::tiled::info_line(gpu.info()).contains("fall back to blocked"));
        let m = 21;
        let c: Vec<f32> = random::spd_well_conditioned(m, 8).iter().map(|&v| v as f32).collect();
        let tiled = glsolve::gpu::cholesky::factor(&gpu, &c, m, glsolve::gpu::cholesky::Variant::Tiled(Block::B16))
            .map_err(|e| e.to_string())?;
        assert!(tiled.tiles.is_none() && tiled.blocks.is_some(), "the blocked kernels ran");
        let blocked = glsolve::gpu::cholesky::factor(&gpu, &c, m, glsolve::gpu::cholesky::Variant::Blocked(Block::B16))
            .map_err(|e| e.to_string())?;
        let read = |f| glsolve::gpu::cholesky::read_lower(&gpu, f).map_err(|e| e.to_string());
        assert_eq!(read(&tiled)?, read(&blocked)?);
        let e = TiledWork::new(&gpu, layout(m, Block::B16), Block::B16)
            .and_then(|mut w| {
                w.upload(&gpu, &c)?;
                w.factor(&gpu, None)
            })
            .expect_err("four targets on a two-buffer context");
        assert!(e.to_string().contains("4 targets") && e.to_string().contains("2 draw buffers"), "{e}");
        Ok(())
    };
    // A context of its own (the cap is per context), on this thread.
    run().unwrap_or_else(|e| panic!("{e}"));
}

/// The desktop and the ES context both offer at least what the 8×4 assembly writes here
/// (Mesa: eight draw buffers), so the default plan takes it; an ES 3.0 context with only the
/// guaranteed four would take 4×4.
#[test]
fn the_default_plan_follows_the_draw_buffers() {
    let (info, api) = with_gpu(|gpu| (gpu.info().clone(), common::test_gl()));
    let plan = TilePlan::default_for(&info, Block::B16).expect("Mesa has the draw buffers");
    let want = if info.max_targets() >= 8 { TileShape::T8X4 } else { TileShape::T4X4 };
    assert_eq!(plan.assembly, want, "{api:?}: {} draw buffers", info.max_targets());
    let mut four = info.clone();
    four.max_draw_buffers = 4;
    assert_eq!(TilePlan::default_for(&four, Block::B16).map(|p| p.assembly), Ok(TileShape::T4X4));
    assert_eq!(info.is_es(), api == GlApi::Es, "the context is the API the tests asked for");
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
