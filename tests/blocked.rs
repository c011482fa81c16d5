//! The blocked RGBA kernels (beyond the papers) on the real driver, against double-precision
//! references, on sizes around the block (1, odd, B − 1, B, B + 1, …), with every pass's fragments
//! counted by occlusion queries and compared with the plans' formulas.
//!
//! Tolerances (u = 2⁻²⁴, single precision; γ_k = k·u/(1 − k·u), Higham, *Accuracy and Stability*):
//! - Cholesky, componentwise backward error: |C − L̂L̂ᵀ| ≤ γ_{m+1}·|L̂||L̂ᵀ| for any summation
//!   order (Thm 10.3; the blocked algorithm performs the same operations reordered), plus u·|C|
//!   for rounding C to f32; GLSL allows a few ulps in division and square root, so the test
//!   allows 2·(m + 2)·u·(|L̂||L̂ᵀ|)ᵢⱼ entry by entry.
//! - Assembly, componentwise: |Ĉ − C| ≤ (n + 4)·u·(|A|D²|A|ᵀ) (an inner product of n terms of
//!   three rounded inputs each); the test allows twice that. A dropped column changes Cᵢᵢ by
//!   about Cᵢᵢ/n, far above 2(n+4)u·Cᵢᵢ at these sizes, so such a bug fails here.
//! - Substitution: x̂ from the GPU against the exact solve with the same L̂, entry by entry:
//!   |x̂ − x| ≤ γ·|L̂⁻ᵀ|·(|L̂ᵀ||x̂| + (1 + γ)·|L̂⁻¹||L̂||L̂ᵀ||x̂|) with γ = γ_{m+2}, from the
//!   componentwise backward stability of each substitution (`common::bounds::cholesky_solve`).
mod common;
use common::with_gpu;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::{Measure, PingPong, TexelFormat};
use glsolve::gpu::blocked::assemble::{assemble_into, BlockedOperands};
use glsolve::gpu::blocked::cholesky::{fragments, read_lower, BlockedWork};
use glsolve::gpu::blocked::{substitute, Block};
use glsolve::gpu::GpuError;
use glsolve::layout::Rows4;

const U: f64 = 5.960_464_5e-8;

fn sizes(block: Block) -> Vec<usize> {
    let b = block.size();
    vec![1, 2, 3, b - 1, b, b + 1, 2 * b + 3, 5 * b - 1]
}

/// Factors `c` on the GPU; returns L̂ (f64) and the fragments per pass name.
fn factor(c: Vec<f64>, m: usize, block: Block) -> (Vec<f64>, std::collections::BTreeMap<&'static str, u64>) {
    with_gpu(move |gpu| {
        let c32: Vec<f32> = c.iter().map(|&v| v as f32).collect();
        let mut w = BlockedWork::new(gpu, m, block).expect("textures");
        w.upload(gpu, &c32).expect("upload");
        let (r, log) = gpu.logged(Measure::FRAGMENTS, |g| w.factor(g, None));
        r.expect("factor");
        let l = read_lower(gpu, &w).expect("read").into_iter().map(f64::from).collect();
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
fn blocked_cholesky_meets_the_componentwise_backward_bound_and_shades_its_formula() {
    for block in Block::ALL {
        for m in sizes(block).into_iter().chain([133]) {
            let c = random::spd_well_conditioned(m, 3 + m as u64);
            let (l, counts) = factor(c.clone(), m, block);
            let what = format!("m={m} B={}", block.size());
            check_backward(&c, &l, m, &what);
            // And the factor itself: L is unique, κ(C) ≤ 10, so L̂ is close to faer's L.
            let reference = rowmajor::cholesky_lower(&c, m).expect("SPD");
            let top = reference.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for (p, (a, b)) in l.iter().zip(&reference).enumerate() {
                assert!((a - b).abs() <= 40.0 * m as f64 * U * top, "{what}: L at {p}: {a} vs {b}");
            }
            for (kind, n) in fragments(m, block) {
                assert_eq!(counts.get(kind.name()).copied().unwrap_or(0), n, "{what}: {kind:?} fragments");
            }
        }
    }
}

#[test]
fn a_matrix_that_is_not_positive_definite_breaks_down_at_its_pivot() {
    // Column 9 of an SPD matrix made dependent on column 3 (pivot 9 becomes ≈ 0 or negative).
    let m = 13;
    let mut c = random::spd_well_conditioned(m, 5);
    for k in 0..m {
        c[9 * m + k] = c[3 * m + k];
        c[k * m + 9] = c[k * m + 3];
    }
    c[9 * m + 9] = c[3 * m + 3] - 1.0;
    let (l, _) = factor(c, m, Block::B8);
    let bad = (0..m).position(|k| !(l[k * m + k] > 0.0 && l[k * m + k].is_finite()));
    assert_eq!(bad, Some(9), "diagonal {:?}", (0..m).map(|k| l[k * m + k]).collect::<Vec<_>>());
}

#[test]
fn blocked_assembly_meets_the_componentwise_bound_for_every_b() {
    for (m, n) in [(1usize, 1usize), (3, 5), (7, 13), (17, 64), (33, 101), (64, 255)] {
        let a = random::uniform(m, n, -1.0, 1.0, m as u64 * 7 + n as u64);
        let d2 = random::uniform(1, n, 0.1, 2.0, 99);
        let mut bs = vec![4, 8, n.max(4)];
        bs.dedup();
        for b in bs {
            let (a2, d22) = (a.clone(), d2.clone());
            let (c, counts, passes) = with_gpu(move |gpu| {
                let a32: Vec<f32> = a2.iter().map(|&v| v as f32).collect();
                let d32: Vec<f32> = d22.iter().map(|&v| v as f32).collect();
                let layout = Block::B8.layout(m);
                let ops = BlockedOperands::new(gpu, &a32, m, n, layout.padded_rows).expect("A");
                ops.set_d2(gpu, &d32).expect("d");
                let (w, h) = layout.texture_size();
                let tex = || gpu.texture_of(TexelFormat::Rgba32F, w, h, "C").expect("C");
                let mut pp = PingPong::new(tex(), tex());
                let (r, log) = gpu.logged(Measure::FRAGMENTS, |g| assemble_into(g, &ops, &mut pp, &layout, b));
                r.expect("assemble");
                let data = gpu.read(pp.source()).expect("read");
                // The padded diagonal is the identity, the padding elsewhere zero.
                for d in m..layout.padded_rows {
                    assert_eq!(data[layout.index(d, d)], 1.0, "padded diagonal {d}");
                }
                (layout.unpack(&data), log.fragments_of("assemble_blocks"), log.count_of("assemble_blocks"))
            });
            assert_eq!(passes as usize, n.div_ceil(b.div_ceil(4) * 4), "m={m} n={n} b={b}");
            let mb = Block::B8.layout(m).padded_rows / 2;
            assert_eq!(counts as usize, passes as usize * mb * (mb + 1) / 2, "fragments m={m} n={n} b={b}");
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
                    assert!(err <= bound, "m={m} n={n} b={b} C({i},{j}): {err:e} > {bound:e}");
                }
            }
        }
    }
}

/// A_D·W·A_Dᵀ + Δ (the split normal equations): Δ from the diagonal texture starts the diagonal
/// blocks of the first sum, in the passes and fragments of the k columns alone, within the
/// plain assembly's componentwise bound; the padded diagonal stays the identity.
#[test]
fn blocked_assembly_adds_a_diagonal_in_the_passes_of_its_columns() {
    for (m, k) in [(1usize, 1usize), (3, 2), (7, 13), (9, 3), (17, 5), (33, 101)] {
        let a = random::uniform(m, k, -1.0, 1.0, m as u64 * 5 + k as u64);
        let w = random::uniform(1, k, 0.1, 2.0, 17);
        let delta: Vec<f64> = (0..m).map(|i| if i % 3 == 1 { 0.0 } else { 0.5 + 1e3 * (i % 5) as f64 }).collect();
        for b in [4, k.max(4)] {
            let (a2, w2, delta2) = (a.clone(), w.clone(), delta.clone());
            let (c, counts, passes) = with_gpu(move |gpu| {
                let a32: Vec<f32> = a2.iter().map(|&v| v as f32).collect();
                let w32: Vec<f32> = w2.iter().map(|&v| v as f32).collect();
                let delta32: Vec<f32> = delta2.iter().map(|&v| v as f32).collect();
                let layout = Block::B8.layout(m);
                let mut ops = BlockedOperands::new(gpu, &a32, m, k, layout.padded_rows).expect("A");
                ops.set_d2(gpu, &w32).expect("w");
                ops.allocate_diagonal(gpu).expect("the diagonal");
                ops.set_diagonal(gpu, &delta32).expect("the diagonal");
                let (tw, th) = layout.texture_size();
                let tex = || gpu.texture_of(TexelFormat::Rgba32F, tw, th, "C").expect("C");
                let mut pp = PingPong::new(tex(), tex());
                let (r, log) = gpu.logged(Measure::FRAGMENTS, |g| assemble_into(g, &ops, &mut pp, &layout, b));
                r.expect("assemble");
                let data = gpu.read(pp.source()).expect("read");
                for d in m..layout.padded_rows {
                    assert_eq!(data[layout.index(d, d)], 1.0, "padded diagonal {d}");
                }
                (layout.unpack(&data), log.fragments_of("assemble_blocks"), log.count_of("assemble_blocks"))
            });
            assert_eq!(passes as usize, k.div_ceil(b.div_ceil(4) * 4), "m={m} k={k} b={b}");
            let mb = Block::B8.layout(m).padded_rows / 2;
            assert_eq!(counts as usize, passes as usize * mb * (mb + 1) / 2, "fragments m={m} k={k} b={b}");
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
                    assert!(err <= bound, "m={m} k={k} b={b} C({i},{j}): {err:e} > {bound:e}");
                }
            }
        }
    }
}

/// The diagonal is checked like d²: a negative or non-finite entry, a wrong length, or operands
/// made without one are typed errors, never a silent assembly.
#[test]
fn a_bad_diagonal_is_refused_with_its_index() {
    with_gpu(|gpu| {
        let mut ops = BlockedOperands::new(gpu, &[1.0, 2.0, 3.0], 3, 1, 8).expect("A");
        assert!(matches!(ops.set_diagonal(gpu, &[1.0, 1.0, 1.0]), Err(GpuError::Shape(_))), "before allocation");
        ops.allocate_diagonal(gpu).expect("the diagonal");
        assert!(matches!(ops.set_diagonal(gpu, &[1.0, 1.0]), Err(GpuError::Shape(_))), "short");
        for (bad, at) in [([1.0, -1.0, 0.0], 1), ([f32::NAN, 0.0, 0.0], 0), ([0.0, 0.0, f32::INFINITY], 2)] {
            match ops.set_diagonal(gpu, &bad) {
                Err(GpuError::NegativeDiagonal { index, .. }) => assert_eq!(index, at, "{bad:?}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        ops.set_diagonal(gpu, &[0.0, 1.0, 2.0]).expect("a good one");
    });
}

#[test]
fn blocked_substitution_solves_with_the_gpu_factor() {
    for block in Block::ALL {
        for m in sizes(block) {
            let c = random::spd_well_conditioned(m, 21 + m as u64);
            let r: Vec<f64> = (0..m).map(|i| ((i * 7 + 3) % 11) as f64 - 5.0).collect();
            let (c2, r2) = (c.clone(), r.clone());
            let (l, x, passes) = with_gpu(move |gpu| {
                let c32: Vec<f32> = c2.iter().map(|&v| v as f32).collect();
                let mut w = BlockedWork::new(gpu, m, block).expect("textures");
                w.upload(gpu, &c32).expect("upload");
                w.factor(gpu, None).expect("factor");
                let padded = w.layout.padded_rows;
                let mut rhs: Vec<f32> = r2.iter().map(|&v| v as f32).collect();
                rhs.resize(padded, 0.0);
                let vec = |d: &[f32]| gpu.upload_of(TexelFormat::Rgba32F, padded / 4, 1, d, "v").expect("v");
                let mut pp = PingPong::new(vec(&rhs), vec(&vec![0.0; padded]));
                let (res, log) =
                    gpu.logged(Measure::NOTHING, |g| substitute::solve(g, &w.l, &w.layout, block, &mut pp));
                res.expect("solve");
                let x = gpu.read(pp.source()).expect("read");
                assert!(x[m..].iter().all(|&v| v == 0.0), "padding stays zero");
                let l: Vec<f64> = read_lower(gpu, &w).expect("L").into_iter().map(f64::from).collect();
                (l, x[..m].iter().map(|&v| v as f64).collect::<Vec<_>>(), log.passes())
            });
            let padded = block.layout(m).padded_rows;
            assert_eq!(passes as usize, 2 * padded / block.size(), "m={m} B={}", block.size());
            common::bounds::cholesky_solve(&l, &r, &x, m).unwrap_or_else(|e| panic!("m={m} B={}: {e}", block.size()));
        }
    }
}

#[test]
fn rows4_a_refuses_non_finite_entries_with_their_position() {
    let e = with_gpu(|gpu| {
        let mut a = vec![1.0f32; 6];
        a[4] = f32::NAN;
        BlockedOperands::new(gpu, &a, 2, 3, 8).err().map(|e| e.to_string())
    });
    let e = e.expect("an error");
    assert!(e.contains("row 1") && e.contains("column 1"), "{e}");
    let _ = Rows4::new(1, 1);
}

/// The memory the report quotes for large m is [`blocked::texture_bytes`]: it must be what the
/// system really allocates, counted texture by texture by the GL layer, at sizes off the block.
#[test]
fn blocked_normal_system_allocates_exactly_its_predicted_bytes() {
    use glsolve::gpu::normal::{self, blocked, NormalOptions};
    use glsolve::gpu::TexturePool;
    for (m, n, block) in [(1, 3, Block::B8), (17, 45, Block::B16), (33, 130, Block::B32), (16, 64, Block::B16)] {
        let (before, after) = with_gpu(move |gpu| {
            let a: Vec<f32> = (0..m * n).map(|k| ((k * 7) % 11) as f32 - 5.0).collect();
            let opts = NormalOptions {
                variant: glsolve::gpu::cholesky::Variant::Blocked(block),
                format: glsolve::layout::Format::Full,
                substitute_on_gpu: true,
                pivot_tolerance: 1e-6,
                columns_per_pass: usize::MAX,
            };
            let before = gpu.texture_bytes().0;
            let sys = normal::build(gpu, &a, m, n, opts, TexturePool::new()).expect("system");
            let after = gpu.texture_bytes().0;
            drop(sys);
            assert_eq!(gpu.texture_bytes().0, before, "m={m} n={n}: dropping the system frees its bytes");
            (before, after)
        });
        assert_eq!(after - before, blocked::texture_bytes(m, n, block), "m={m} n={n} {block:?}");
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
