//! The gpu backend on the families with columns of one entry (L1 and Chebyshev fits, the
//! matrix game): with the blocked and tiled kernels its normal equations pass over the dense
//! block's k columns and add the unit columns' diagonal Δ (d² read back each iteration for the
//! block's weights and Δ), while its vector kernels keep every column. Checked here: the matrix
//! it assembles against A·D²·Aᵀ in f64 over every column (a dropped or doubled Δ rejected by
//! the same check), the scaling passes' ⌈k/4⌉·M fragments against ⌈n/4⌉·M with the shapes off
//! and one pass fewer per assembly (no d² copy), the same status with the shapes on and off,
//! the papers' family untouched, and a NaN in d² a device fault, never a number.

mod common;
use common::{gl_builder, test_gl, with_gpu};
use glsolve::fixtures::families::Family;
use glsolve::gl::Measure;
use glsolve::gpu::blocked::Block;
use glsolve::gpu::cholesky::Variant;
use glsolve::gpu::tiled::TilePlan;
use glsolve::gpu::TexturePool;
use glsolve::lp::backend::shape::{with_forced_shape, NormalShape};
use glsolve::lp::backend::{BackendError, CpuPlan, GpuFault, GpuNormal, GpuVectors};
use glsolve::lp::backend::{NormalEquations, VectorKernels};
use glsolve::lp::faults::{inject, FaultInjection};
use glsolve::lp::log::Logger;
use glsolve::lp::pipeline::presolve;
use glsolve::lp::standard_form::{Presolved, StandardForm};
use glsolve::lp::{solve_on, BackendKind, GpuOptions, LpModel, Settings, Status};
use std::sync::{Arc, Mutex};

/// Unit roundoff of f32.
const U: f64 = f32::EPSILON as f64 / 2.0;

/// Small members with odd sizes: an L1 fit of 61 observations and 5 features, a Chebyshev fit
/// of 23 points (46 rows) and 3 features.
const SMALL: [(Family, usize, usize); 2] = [(Family::L1Regression, 61, 5), (Family::Chebyshev, 46, 3)];

/// A member and the standard form the gpu backend solves (its free columns split).
fn form(family: Family, rows: usize, features: usize) -> (LpModel, StandardForm) {
    let model = family.model(rows, features, 1).expect("a member");
    let st = Settings::builder(BackendKind::Gpu).build().expect("valid settings");
    let Presolved::Form(sf) = presolve(&model, &st) else { panic!("{family:?} presolved away") };
    (model, *sf)
}

/// The entries of C (lower triangle, row-major m×m) outside |C − exact| ≤ bound(i, j).
fn violations(c: &[f64], exact: &[f64], abs: &[f64], m: usize, n: usize) -> Vec<(usize, usize, f64)> {
    let mut bad = Vec::new();
    for i in 0..m {
        for j in 0..=i {
            let err = (c[i * m + j] - exact[i * m + j]).abs();
            // The sum over every column in f32 (each product and addition one rounding), the
            // weights and Δ rounded to f32 once each.
            if err > 2.0 * (n as f64 + 4.0) * U * abs[i * m + j] {
                bad.push((i, j, err));
            }
        }
    }
    bad
}

#[test]
fn the_split_normal_matrix_is_a_d2_at_over_every_column() {
    for (family, rows, features) in SMALL {
        let (_, sf) = form(family, rows, features);
        let (m, n) = sf.dims();
        let plan = CpuPlan::new(&sf.a, &sf.free_pairs);
        let split = plan.split(&sf.a).expect("the family has columns of one entry");
        let a = sf.dense_a();
        // Weights over two decades, as an iteration's d² spreads.
        let d2: Vec<f64> = (0..n).map(|j| 0.05 * 1.7f64.powi((j * 37 % 11) as i32)).collect();
        // C = A·D²·Aᵀ in f64 over every column, and independently the diagonal the unit columns
        // add (columns of one nonzero that are not half of a split free pair).
        let (mut exact, mut abs, mut delta) = (vec![0.0; m * m], vec![0.0; m * m], vec![0.0; m]);
        let paired = |j: usize| sf.free_pairs.iter().any(|&(p, q)| p == j || q == j);
        for t in 0..n {
            let nz: Vec<usize> = (0..m).filter(|&i| a[(i, t)] != 0.0).collect();
            if nz.len() == 1 && !paired(t) {
                delta[nz[0]] += a[(nz[0], t)] * a[(nz[0], t)] * d2[t];
            }
            for &i in &nz {
                for &j in nz.iter().filter(|&&j| j <= i) {
                    let v = a[(i, t)] * d2[t] * a[(j, t)];
                    exact[i * m + j] += v;
                    abs[i * m + j] += v.abs();
                }
            }
        }
        assert!(delta.iter().filter(|&&d| d > 0.0).count() >= m / 2, "{family:?}: most rows hold a unit column");
        for variant in [Variant::Blocked(Block::B8), Variant::Tiled(Block::B16)] {
            let (split, d2) = (split.clone(), d2.clone());
            let c = with_gpu(move |gpu| {
                let opts = GpuOptions { variant, gl: test_gl(), ..Default::default() };
                let mut ne = GpuNormal::over_block(gpu, split, &opts, TexturePool::new()).expect("the block");
                ne.set_d2_host(&d2).expect("d²");
                ne.assemble_set().expect("assembly");
                ne.assembled_host().expect("C read back")
            });
            let what = format!("{family:?} {rows}×{features} (m = {m}, n = {n}), {variant:?}");
            let bad = violations(&c, &exact, &abs, m, n);
            assert!(bad.is_empty(), "{what}: {} entries off, first {:?}", bad.len(), bad.first());
            // The same check rejects the matrix with Δ dropped or counted twice.
            for (planted, s) in [("Δ dropped", -1.0), ("Δ doubled", 1.0)] {
                let mut wrong = c.clone();
                (0..m).for_each(|i| wrong[i * m + i] += s * delta[i]);
                let caught = violations(&wrong, &exact, &abs, m, n).len();
                assert!(caught >= m / 2, "{what}: {planted} passes the check ({caught} entries caught)");
            }
        }
    }
}

/// The passes of a two-iteration gpu solve of `model`, with the shapes on or off, and its log.
fn counted(model: &LpModel, m: usize, full: bool) -> (glsolve::gl::PassLog, Vec<String>, u64) {
    let model = model.clone();
    with_gpu(move |gpu| {
        let st = gl_builder(BackendKind::Gpu).max_iterations(2).build().expect("valid settings");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let run = || {
            let mut log = Logger::lines(move |l| sink.lock().expect("log").push(l.to_string()));
            gpu.logged(Measure::FRAGMENTS, |g| solve_on(&model, &st, &mut log, Some(g)))
        };
        let (r, passes) = if full { with_forced_shape(NormalShape::Full, run) } else { run() };
        r.expect("a status");
        // M: the tiled system's padded order.
        let padded = TilePlan::default_for(gpu.info(), Block::B16)
            .map_or(Block::B16.layout(m).padded_rows, |p| p.layout(m).padded);
        let lines = lines.lock().expect("log").clone();
        (passes, lines, padded as u64)
    })
}

#[test]
fn the_gpu_backend_scales_the_block_columns_and_multiplies_by_every_column() {
    for (family, rows, features) in SMALL {
        let (model, sf) = form(family, rows, features);
        let (m, n) = sf.dims();
        let facts = CpuPlan::new(&sf.a, &sf.free_pairs).facts;
        let k = facts.block;
        assert!(k < n, "{family:?}: a block narrower than A");
        let what = format!("{family:?} {rows}×{features} (m = {m}, n = {n}, k = {k})");
        let (on, on_log, padded) = counted(&model, m, false);
        let (off, off_log, _) = counted(&model, m, true);
        let assemblies = on.count_of("scale_columns");
        assert!(assemblies >= 2, "{what}: {assemblies} assemblies");
        assert_eq!(off.count_of("scale_columns"), assemblies, "{what}: as many assemblies with the shapes off");
        assert_eq!(on.fragments_of("scale_columns"), assemblies * k.div_ceil(4) as u64 * padded, "{what}: the block");
        assert_eq!(off.fragments_of("scale_columns"), assemblies * n.div_ceil(4) as u64 * padded, "{what}: all of A");
        // d² reaches the split by a host upload, not the copy pass: one pass fewer per assembly;
        // the assembly's own passes (one 8×4 pass and its re-tiling, or the 4×4 pass) and their
        // fragments do not depend on the columns.
        assert_eq!(on.count_of("set_d2"), 0, "{what}: no d² copy with the split");
        assert_eq!(off.count_of("set_d2"), assemblies, "{what}: a d² copy per assembly without it");
        for pass in ["assemble_tiles", "retile", "assemble_blocks"] {
            assert_eq!(on.count_of(pass), off.count_of(pass), "{what}: {pass} passes");
            assert_eq!(on.fragments_of(pass), off.fragments_of(pass), "{what}: {pass} fragments");
        }
        assert!(on.count_of("assemble_tiles") + on.count_of("assemble_blocks") >= assemblies, "{what}: assemblies");
        // The vector kernels still read every column: A·x shades ⌈m/4⌉ texels, Aᵀ·y ⌈n/4⌉.
        for (pass, len) in [("gemv", m), ("gemv_t", n)] {
            let count = on.count_of(pass);
            assert!(count >= 2, "{what}: {count} {pass} passes");
            assert_eq!(on.fragments_of(pass), count * len.div_ceil(4) as u64, "{what}: {pass} over all of A");
        }
        let said = |log: &[String]| log.iter().any(|l| l.starts_with("gpu: the normal equations pass over the block"));
        assert!(said(&on_log), "{what}: the log says so: {on_log:?}");
        assert!(!said(&off_log), "{what}: not with the shapes off");
        let line = on_log.iter().find(|l| l.starts_with("gpu:")).expect("the line");
        assert!(line.contains(&format!("{k} block columns, {} columns of one entry", facts.units)), "{line}");
    }
}

/// One solve on the gpu backend with `tolerance` (or its default), the shapes on or off.
fn solve(model: &LpModel, tolerance: Option<f64>, full: bool) -> glsolve::lp::Solution {
    let model = model.clone();
    with_gpu(move |gpu| {
        let mut b = gl_builder(BackendKind::Gpu);
        if let Some(eps) = tolerance {
            b = b.tolerance(eps);
        }
        let st = b.build().expect("valid settings");
        let run = || solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)).expect("a status");
        if full {
            with_forced_shape(NormalShape::Full, run)
        } else {
            run()
        }
    })
}

#[test]
fn the_split_keeps_the_gpu_backends_status() {
    // In single precision the L1 and Chebyshev fits end in numerical failure with the shapes
    // on and off (the f32 factor stops resolving the direction); the matrix game of 101 rows
    // and 100 strategies ends optimal to ε = 1e-4 both ways, with HiGHS's objective.
    let game = (Family::MatrixGame, 101, 100, Some(1e-4), 0.015916068926583274);
    let cases = SMALL.iter().map(|&(f, r, p)| (f, r, p, None, f64::NAN)).chain([game]);
    for (family, rows, features, tolerance, highs) in cases {
        let model = family.model(rows, features, 1).expect("a member");
        let (on, off) = (solve(&model, tolerance, false), solve(&model, tolerance, true));
        let what = format!("{family:?} {rows}×{features}");
        assert_eq!(on.status, off.status, "{what}: {} / {}", on.detail, off.detail);
        if matches!(on.status, Status::Optimal | Status::OptimalReducedAccuracy) {
            for s in [&on, &off] {
                assert!(s.objective.is_finite(), "{what}: a finite objective");
                let rel = (s.objective - highs).abs() / highs.abs();
                assert!(rel <= 1e-2, "{what}: {:e} against HiGHS's {highs:e} ({rel:.1e})", s.objective);
            }
        }
    }
}

#[test]
fn the_papers_family_keeps_every_column() {
    let (model, sf) = form(Family::Papers, 64, 0);
    assert!(CpuPlan::new(&sf.a, &sf.free_pairs).split(&sf.a).is_none(), "the full path");
    let (on, log, _) = counted(&model, sf.dims().0, false);
    assert!(!log.iter().any(|l| l.starts_with("gpu:")), "{log:?}");
    assert_eq!(on.count_of("set_d2"), on.count_of("scale_columns"), "d² copied on the GPU");
}

#[test]
fn a_nan_in_d2_is_a_device_fault_not_a_number() {
    let (_, sf) = form(Family::L1Regression, 61, 5);
    let (m, n) = sf.dims();
    let split = CpuPlan::new(&sf.a, &sf.free_pairs).split(&sf.a).expect("a split");
    let (a, pairs) = (sf.dense_a(), sf.free_pairs.clone());
    let err = with_gpu(move |gpu| {
        let opts = GpuOptions { gl: test_gl(), ..Default::default() };
        let pool = TexturePool::new();
        let normal = GpuNormal::over_block(gpu, split, &opts, pool.clone()).expect("the block");
        let mut vk = GpuVectors::over_own_a(gpu, a.as_ref(), &pairs, pool).expect("A");
        assert_eq!(vk.dims(), (m, n));
        let mut ne = normal;
        let mut d2 = vec![1.0; n];
        d2[n / 2] = f64::NAN;
        let d2 = vk.upload(&d2).expect("d²");
        ne.assemble(&mut vk, &d2).map_err(|e| format!("{e:?}")).err()
    });
    let err = err.expect("an error");
    assert!(err.contains(&format!("{:?}", GpuFault::NonFinite)), "{err}");
    // Injected into the textures of a whole solve, a NaN ends it without a verdict of optimal.
    let model = Family::L1Regression.model(61, 5, 1).expect("a member");
    let s = with_gpu(move |gpu| {
        let st = gl_builder(BackendKind::Gpu).build().expect("valid settings");
        inject(FaultInjection::NanInTexture, || solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)))
    });
    match s {
        Ok(s) => assert_eq!(s.status, Status::NumericalFailure, "{}", s.detail),
        Err(e) => assert!(matches!(e, glsolve::lp::SolveError::Backend(BackendError::Gpu { .. })), "{e}"),
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
