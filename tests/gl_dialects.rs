//! Desktop OpenGL and OpenGL ES side by side on one thread: OpenGL ES has no `GL_SAMPLES_PASSED`,
//! so its fragment counts are predicted from each pass's primitive. Here the predictions are
//! checked against the counts the desktop context measures for the same passes, pass by pass,
//! and the results of the two dialects against each other.
use glsolve::fixtures::random;
use glsolve::gl::{FragmentCounting, GlApi, Gpu, HeadlessOptions, Measure, PassLog};
use glsolve::gpu::cholesky::{self, Variant};
use glsolve::lp::log::Logger;
use glsolve::lp::mps;
use glsolve::lp::solve_on;
use glsolve::{BackendKind, Settings};

fn contexts() -> (Gpu, Gpu) {
    let desktop = Gpu::headless_with(HeadlessOptions { api: GlApi::Desktop, ..Default::default() }).expect("desktop");
    let es = Gpu::headless_with(HeadlessOptions { api: GlApi::Es, ..Default::default() }).expect("OpenGL ES");
    assert_eq!(desktop.info().fragment_counting, FragmentCounting::SamplesPassed);
    assert_eq!(es.info().fragment_counting, FragmentCounting::Predicted);
    (desktop, es)
}

/// The same passes with the same fragments, measured on one side and predicted on the other.
fn same_passes(measured: &PassLog, predicted: &PassLog, what: &str) {
    assert_eq!(measured.records.len(), predicted.records.len(), "{what}: pass counts");
    assert!(!measured.records.is_empty(), "{what}: no passes");
    for (d, e) in measured.records.iter().zip(&predicted.records) {
        assert_eq!((d.name, d.kernel, d.step), (e.name, e.kernel, e.step), "{what}: pass order");
        assert!(!d.fragments_predicted && e.fragments_predicted, "{what}: {}", d.name);
        assert!(d.fragments.is_some(), "{what}: {} not counted on desktop", d.name);
        assert_eq!(d.fragments, e.fragments, "{what}: pass {} ({}) step {:?}", d.index, d.name, d.step);
    }
}

#[test]
fn predicted_fragments_on_es_equal_the_desktop_occlusion_counts_for_every_cholesky_variant() {
    let (desktop, es) = contexts();
    for m in [1usize, 2, 9, 16, 33, 50] {
        let c = random::spd_well_conditioned(m, 3);
        let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
        for v in Variant::all() {
            let run = |gpu: &Gpu| {
                let (f, log) = gpu.logged(Measure::FRAGMENTS, |g| cholesky::factor(g, &c32, m, v));
                let l = cholesky::read_lower(gpu, &f.unwrap_or_else(|e| panic!("m={m} {v}: {e}"))).unwrap();
                (l, log)
            };
            let (ld, logd) = run(&desktop);
            let (le, loge) = run(&es);
            same_passes(&logd, &loge, &format!("m={m} {v}"));
            // The same arithmetic on the same rasterizer: bit for bit.
            assert_eq!(ld, le, "m={m} {v}: factors differ between the dialects");
        }
    }
}

#[test]
fn the_gpu_lp_runs_the_same_passes_and_iterates_on_both_dialects() {
    let (desktop, es) = contexts();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netlib");
    let afiro = mps::read_file(&dir.join("afiro.mps")).unwrap();
    let st = Settings::for_backend(BackendKind::Gpu);
    let run = |gpu: &Gpu| {
        let (s, log) = gpu.logged(Measure::FRAGMENTS, |g| solve_on(&afiro, &st, &mut Logger::quiet(), Some(g)));
        (s.expect("afiro solves"), log)
    };
    let (sd, logd) = run(&desktop);
    let (se, loge) = run(&es);
    same_passes(&logd, &loge, "afiro, gpu backend");
    assert_eq!((sd.status, sd.iterations), (se.status, se.iterations));
    assert_eq!(sd.objective, se.objective, "afiro's objective differs between the dialects");
}

#[test]
fn both_lus_and_the_papers_lp_kernels_count_alike_on_both_dialects() {
    use glsolve::gpu::lu::{right_looking, timeline::Recorder, unblocked};
    let (desktop, es) = contexts();
    for n in [1usize, 7, 33, 64] {
        let a: Vec<f32> = random::uniform(n, n, -1.0, 1.0, 5).iter().map(|&x| x as f32).collect();
        let rhs: Vec<f32> = random::uniform(n, 1, -1.0, 1.0, 6).iter().map(|&x| x as f32).collect();
        let run_unblocked = |gpu: &Gpu| {
            let (f, log) = gpu.logged(Measure::FRAGMENTS, |g| unblocked::factor(g, &a, n));
            (unblocked::read(gpu, &f.expect("unblocked LU")).unwrap(), log)
        };
        let ((fd, logd), (fe, loge)) = (run_unblocked(&desktop), run_unblocked(&es));
        same_passes(&logd, &loge, &format!("unblocked LU n={n}"));
        assert_eq!(fd, fe, "unblocked LU n={n}");
        for st in [
            right_looking::BlockedSettings { block: 8, lookahead: true },
            right_looking::BlockedSettings { block: 16, lookahead: false },
        ] {
            let run_blocked = |gpu: &Gpu| {
                let mut rec = Recorder::new();
                let (f, log) =
                    gpu.logged(Measure::FRAGMENTS, |g| right_looking::factor(g, &a, n, Some(&rhs), &st, &mut rec));
                (f.expect("blocked LU").factor, log)
            };
            let ((fd, logd), (fe, loge)) = (run_blocked(&desktop), run_blocked(&es));
            same_passes(&logd, &loge, &format!("blocked LU n={n} {st:?}"));
            assert_eq!(fd, fe, "blocked LU n={n}");
        }
    }
    // The papers' variant of the gpu backend: per-column assembly in the packed format, the
    // papers' Cholesky and substitutions, the one-channel vector kernels.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netlib");
    let afiro = mps::read_file(&dir.join("afiro.mps")).unwrap();
    let st = Settings::builder(BackendKind::Gpu)
        .gpu(glsolve::GpuOptions { variant: Variant::PAPER, ..Default::default() })
        .build()
        .expect("valid");
    let run = |gpu: &Gpu| {
        let (s, log) = gpu.logged(Measure::FRAGMENTS, |g| solve_on(&afiro, &st, &mut Logger::quiet(), Some(g)));
        (s.expect("afiro solves").objective, log)
    };
    let ((od, logd), (oe, loge)) = (run(&desktop), run(&es));
    same_passes(&logd, &loge, "afiro, gpu backend, the papers' kernels");
    assert_eq!(od, oe);
}
