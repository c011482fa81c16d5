//! The GL backends on the dense-column path: the dense columns' k×k matrix
//! K = W⁻¹ + Gᵀ·G (G m×k) assembled and factored on the GPU in single precision, against a
//! double-precision reference on odd sizes, in passes over the m rows of the dense columns
//! only; the hybrid backend's GPU side on the textbook L1 regression (free columns whole), a
//! wrong factor planted on the GPU side that its residual check must reject.

mod common;
use common::with_gpu;
use faer::Mat;
use glsolve::fixtures::families::{Family, Form};
use glsolve::gl::Measure;
use glsolve::gpu::blocked::Block;
use glsolve::gpu::cholesky::Variant;
use glsolve::gpu::tiled::TilePlan;
use glsolve::lp::backend::{GramFactor, GramOnGpu};
use glsolve::lp::faults::{inject, FaultInjection};
use glsolve::lp::log::Logger;
use glsolve::lp::{solve_on, BackendKind, GpuOptions, HybridRules, LpModel, Settings, Status};
use std::sync::{Arc, Mutex};

/// Deterministic values in [−1, 1).
fn lcg(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// Rows of the k-order system's textures: the design pads them.
fn padded(gpu: &glsolve::gl::Gpu, variant: Variant, k: usize) -> usize {
    match variant {
        Variant::Tiled(b) => {
            TilePlan::default_for(gpu.info(), b).map_or(b.layout(k).padded_rows, |p| p.layout(k).padded)
        }
        Variant::Blocked(b) => b.layout(k).padded_rows,
        _ => unreachable!("the RGBA variants only"),
    }
}

#[test]
fn the_gpu_factors_k_like_the_double_precision_reference_in_passes_over_its_rows() {
    // Odd sizes, one, and a block's width ± 1.
    let sizes = [(1, 1), (7, 3), (33, 5), (130, 15), (101, 16), (64, 17)];
    for variant in [Variant::Tiled(Block::B16), Variant::Blocked(Block::B16)] {
        for &(m, k) in &sizes {
            let mut next = lcg((m * 31 + k) as u64);
            let g = Mat::from_fn(m, k, |_, _| next());
            let w_inv: Vec<f64> = (0..k).map(|c| 10f64.powi(c as i32 % 5 - 2)).collect();
            let (lower, log, rows) = with_gpu(move |gpu| {
                let opts = GpuOptions { variant, ..GpuOptions::default() };
                let mut gram = GramOnGpu::new(gpu, m, k, &opts).expect("K's textures");
                let (r, log) = gpu.logged(Measure::FRAGMENTS, |_| gram.factor(g.as_ref(), &w_inv));
                let (lower, replaced) = r.expect("K factored");
                assert_eq!(replaced, 0, "K is positive definite");
                (lower, log, padded(gpu, variant, k))
            });
            // K = W⁻¹ + Gᵀ·G in f64 here, against L·Lᵀ from the GPU.
            let mut next = lcg((m * 31 + k) as u64);
            let g = Mat::from_fn(m, k, |_, _| next());
            let mut kmat = g.transpose() * &g;
            for c in 0..k {
                kmat[(c, c)] += 10f64.powi(c as i32 % 5 - 2);
            }
            let l = Mat::from_fn(k, k, |i, j| if i >= j { lower[j * k + i] } else { 0.0 });
            let back = &l * l.transpose();
            let err = (&back - &kmat).norm_max() / kmat.norm_max();
            let what = format!("{variant} m {m} k {k}");
            assert!(err <= 2e-6, "{what}: ‖L·Lᵀ − K‖/‖K‖ = {err:e}");
            // The assembly's scaling pass runs over G's m rows (⌈m/4⌉ texels) for the k-order
            // system's padded rows: never an m×m matrix.
            let passes = log.count_of("scale_columns");
            assert_eq!(passes, 1, "{what}: one scaling pass");
            assert_eq!(log.fragments_of("scale_columns"), (m.div_ceil(4) * rows) as u64, "{what}");
        }
    }
    // The papers' variants have no diagonal pass and take A once: a typed error.
    let err = with_gpu(|gpu| {
        let opts = GpuOptions { variant: Variant::PAPER, ..GpuOptions::default() };
        GramOnGpu::new(gpu, 9, 2, &opts).err().map(|e| e.to_string())
    });
    assert!(err.is_some_and(|e| e.contains("blocked or tiled")), "the papers' variant refused");
    // Wrong sizes and values out of single precision's range: typed errors that say where.
    let errs = with_gpu(|gpu| {
        let mut gram = GramOnGpu::new(gpu, 9, 2, &GpuOptions::default()).expect("K's textures");
        let mut msg = |g: Mat<f64>, w: &[f64]| gram.factor(g.as_ref(), w).err().map(|e| e.to_string());
        [
            msg(Mat::zeros(8, 2), &[1.0, 1.0]),
            msg(Mat::from_fn(9, 2, |i, c| (i + c) as f64), &[1.0]),
            msg(Mat::from_fn(9, 2, |i, c| if (i, c) == (4, 1) { 1e39 } else { 1.0 }), &[1.0, 1.0]),
            msg(Mat::from_fn(9, 2, |i, c| if (i, c) == (7, 0) { f64::NAN } else { 1.0 }), &[1.0, 1.0]),
        ]
    });
    // A weight so small that its inverse leaves single precision: K's pivot there is the capped
    // 1e20's root, not a replaced pivot.
    let (lower, replaced) = with_gpu(|gpu| {
        let mut gram = GramOnGpu::new(gpu, 7, 3, &GpuOptions::default()).expect("K's textures");
        let g = Mat::from_fn(7, 3, |i, c| ((i + 2 * c) % 3) as f64 - 1.0);
        gram.factor(g.as_ref(), &[1.0, 1e300, 0.5]).expect("K factored")
    });
    assert_eq!(replaced, 0, "no pivot replaced");
    assert!((lower[3 + 1] / 1e10 - 1.0).abs() < 1e-6, "K's second pivot {} against 1e10", lower[3 + 1]);
    let expect = [
        "expected 18, got 16",
        "expected 2, got 1",
        "1000000000000000000000000000000000000000 at row 4, column 1",
        "NaN at row 7, column 0",
    ];
    for (e, want) in errs.iter().zip(expect) {
        assert!(e.as_ref().is_some_and(|e| e.contains(want)), "{e:?} should say {want}");
    }
}

fn t_form() -> LpModel {
    Family::L1Regression.model_in(Form::Textbook, 301, 9, 1).expect("a member")
}

/// A solve with its log's lines.
fn logged_solve(model: LpModel, st: Settings, fault: Option<FaultInjection>) -> (glsolve::lp::Solution, Vec<String>) {
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let s = with_gpu(move |gpu| {
        let mut logger = Logger::lines(move |l: &str| sink.lock().expect("the log").push(l.to_string()));
        let mut run = move || solve_on(&model, &st, &mut logger, Some(gpu)).expect("solved");
        match fault {
            Some(f) => inject(f, run),
            None => run(),
        }
    });
    let lines = lines.lock().expect("the log").clone();
    (s, lines)
}

#[test]
fn the_hybrid_gpu_side_is_k_on_the_dense_column_path_and_a_wrong_k_is_rejected() {
    let model = t_form();
    let cpu = glsolve::lp::solve(&model, &Settings::default(), &mut Logger::quiet()).expect("solved");
    assert_eq!(cpu.status, Status::Optimal, "{}", cpu.detail);
    let st = Settings::builder(BackendKind::Hybrid).hybrid_rules(HybridRules::papers()).build().expect("valid");
    let (s, lines) = logged_solve(model.clone(), st.clone(), None);
    let what = format!("{}\n{}", s.detail, lines.join("\n"));
    assert!(lines.iter().any(|l| l.contains("GPU side the dense columns' k×k matrix")), "{what}");
    assert!(lines.iter().any(|l| l.contains("free columns: 9 kept whole")), "{what}");
    let on_gpu = lines.iter().filter(|l| l.ends_with("hybrid/gpu dense columns")).count();
    assert!(on_gpu >= 2, "{on_gpu} iterations on the GPU side: {what}");
    assert!(s.gpu_iterations.is_some_and(|g| g >= 1), "{:?}: {what}", s.gpu_iterations);
    assert_eq!(s.status, Status::Optimal, "{what}");
    assert!(
        (s.objective - cpu.objective).abs() <= 1e-8 * cpu.objective.abs(),
        "{} against {}",
        s.objective,
        cpu.objective
    );

    // K's factor doubled on its way back: every solution through it is wrong by a factor of
    // about four in the dense directions, and rule (3.16) must leave the GPU at the first one.
    let (s, lines) = logged_solve(model, st, Some(FaultInjection::WrongDenseColumnFactor));
    let what = format!("{}\n{}", s.detail, lines.join("\n"));
    let switch = lines.iter().find(|l| l.starts_with("hybrid: switched to the CPU")).expect("a switch");
    assert!(switch.contains("at iteration 0: (3.16)"), "{switch}");
    assert!(!lines.iter().any(|l| l.ends_with("hybrid/gpu dense columns")), "{what}");
    assert_eq!(s.status, Status::Optimal, "{what}");
    assert!(
        (s.objective - cpu.objective).abs() <= 1e-8 * cpu.objective.abs(),
        "{} against {}",
        s.objective,
        cpu.objective
    );
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
