//! The hybrid backend on the families with columns of one entry (L1 and quantile regressions,
//! the Chebyshev fit, the matrix game): its GPU side assembles over the dense block's k
//! columns and adds the unit columns' diagonal (blocked and tiled kernels), its CPU side is the
//! cpu backend's shaped normal equations. It must end optimal with HiGHS's objective
//! (tests/data/families/highs.tsv), after iterations on the GPU, and its scaling passes must
//! shade ⌈k/4⌉·M fragments each where the same backend with the shapes off shades ⌈n/4⌉·M.

mod common;
use common::with_gpu;
use glsolve::fixtures::families::Family;
use glsolve::gl::Measure;
use glsolve::gpu::blocked::Block;
use glsolve::gpu::tiled::TilePlan;
use glsolve::lp::backend::shape::{with_forced_shape, NormalShape};
use glsolve::lp::backend::CpuPlan;
use glsolve::lp::log::Logger;
use glsolve::lp::pipeline::presolve;
use glsolve::lp::standard_form::{standard_form, Presolved};
use glsolve::lp::{solve_on, BackendKind, HybridRules, Settings, Status};

/// The references of tests/data/families/highs.tsv with columns of one entry, small enough for
/// the suite: (family, rows, features, HiGHS's objective).
fn cases() -> Vec<(Family, usize, usize, f64)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/families/highs.tsv"))
        .expect("tests/data/families/highs.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (family, rows, features) = (Family::parse(f[0])?, f[1].parse().ok()?, f[2].parse().ok()?);
            let small = family != Family::Papers && rows <= 600 && rows * features <= 20_000;
            small.then(|| (family, rows, features, f[5].parse().expect("an objective")))
        })
        .collect()
}

fn hybrid(rules: HybridRules, max_iterations: Option<usize>) -> Settings {
    let mut b = Settings::builder(BackendKind::Hybrid).hybrid_rules(rules);
    if let Some(k) = max_iterations {
        b = b.max_iterations(k);
    }
    b.build().expect("valid settings")
}

#[test]
fn the_hybrid_backend_solves_the_families_with_highs_objective() {
    let cases = cases();
    assert!(cases.len() >= 4, "l1, quantile, chebyshev and game references: {cases:?}");
    for (family, rows, features, highs) in cases {
        let model = family.model(rows, features, 1).expect("a member");
        let s = with_gpu(move |gpu| {
            solve_on(&model, &hybrid(HybridRules::papers(), None), &mut Logger::quiet(), Some(gpu))
        })
        .expect("valid settings");
        let what = format!("{family:?} {rows}×{features}");
        assert_eq!(s.status, Status::Optimal, "{what}: {}", s.detail);
        assert!(
            (s.objective - highs).abs() <= 1e-8 * highs.abs(),
            "{what}: {:e} against HiGHS's {highs:e}",
            s.objective
        );
        assert!(s.gpu_iterations.is_some_and(|g| g >= 1), "{what}: no iteration on the GPU ({:?})", s.gpu_iterations);
    }
}

#[test]
fn the_gpu_side_scales_the_block_columns_only() {
    // Rules that never leave the GPU, for two iterations: every assembly is the GPU's.
    let never = HybridRules { theta_r: 1e300, eps_d: 1e-300, theta_d: 1e3, theta_a: 1e300, cost: None };
    for (family, rows, features, _) in cases() {
        let model = family.model(rows, features, 1).expect("a member");
        let st = hybrid(never, Some(2));
        // The standard form the hybrid backend solves (its free columns split).
        let Presolved::Form(sf) = presolve(&model, &st) else { panic!("{family:?} presolved away") };
        let (m, n) = sf.dims();
        let k = CpuPlan::new(&sf.a, &sf.free_pairs).facts.block;
        assert!(k < n, "{family:?}: a block narrower than A");
        let per_pass = move |shape: Option<NormalShape>| {
            let (model, st) = (model.clone(), st.clone());
            with_gpu(move |gpu| {
                let padded = TilePlan::default_for(gpu.info(), Block::B16)
                    .map_or(Block::B16.layout(m).padded_rows, |p| p.layout(m).padded);
                let run = || gpu.logged(Measure::FRAGMENTS, |g| solve_on(&model, &st, &mut Logger::quiet(), Some(g)));
                let (r, log) = match shape {
                    Some(s) => with_forced_shape(s, run),
                    None => run(),
                };
                r.expect("valid settings");
                let passes = log.count_of("scale_columns");
                assert!(passes >= 2, "{passes} scaling passes");
                (log.fragments_of("scale_columns") / passes, padded as u64)
            })
        };
        let what = format!("{family:?} {rows}×{features} (m = {m}, n = {n}, k = {k})");
        let (split, padded) = per_pass(None);
        assert_eq!(split, (k.div_ceil(4) as u64) * padded, "{what}: the block's columns");
        let (full, _) = per_pass(Some(NormalShape::Full));
        assert_eq!(full, (n.div_ceil(4) as u64) * padded, "{what}: every column with the shapes off");
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}

#[test]
fn on_the_dense_column_path_the_hybrid_cpu_side_is_that_path() {
    // The L1 regression in its t form: the cpu backend's path is the dense columns' Schur
    // complement; the hybrid's CPU side must be the same path (its cost is what the cost rule
    // weighs), and the answer the cpu backend's.
    use glsolve::fixtures::families::Form;
    let model = Family::L1Regression.model_in(Form::Textbook, 300, 7, 1).expect("a member");
    let Presolved::Form(sf) = standard_form(&model, true) else { panic!("presolved away") };
    assert!(CpuPlan::new(&sf.a, &sf.free_pairs).dense.is_some(), "the cpu backend's path is the dense columns'");
    let cpu = glsolve::lp::solve(&model, &Settings::default(), &mut Logger::quiet()).expect("solved");
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let s = with_gpu(move |gpu| {
        let mut logger = Logger::lines(move |l: &str| sink.lock().expect("the log").push(l.to_string()));
        solve_on(&model, &hybrid(HybridRules::papers(), None), &mut logger, Some(gpu)).expect("solved")
    });
    let lines = lines.lock().expect("the log").clone();
    // The iteration lines' backend column names the side that factored: after the switch, the
    // CPU side's path.
    let on_cpu: Vec<&String> = lines.iter().filter(|l| l.contains("hybrid/cpu")).collect();
    assert!(!on_cpu.is_empty(), "the hybrid never factored on the CPU: {lines:?}");
    assert!(on_cpu.iter().all(|l| l.contains("hybrid/cpu dense columns")), "{on_cpu:?}");
    assert_eq!((s.status, cpu.status), (Status::Optimal, Status::Optimal), "{}", s.detail);
    assert!(
        (s.objective - cpu.objective).abs() <= 1e-8 * cpu.objective.abs(),
        "{} against {}",
        s.objective,
        cpu.objective
    );
}
