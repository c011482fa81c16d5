//! The gpu and hybrid LP backends on the GL pipeline (Mesa llvmpipe in CI).
//!
//! - hybrid: all 20 NETLIB problems to relative objective error ≤ 1e-6, as the cpu backend (the
//!   final iterations run in double precision once a switching rule fires).
//! - gpu: the 2006 paper's ten Table 3 problems with the paper's tolerances ε. Termination at ε
//!   bounds relative residuals and gap by ε, not the objective error; 10·ε leaves room for the
//!   residuals' effect on the objective.
mod common;
use common::with_gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::settings::{SettingsError, GPU_MIN_TOLERANCE};
use glsolve::lp::{mps, solve, solve_on, BackendKind, Settings, Status, Substitution};
use std::path::PathBuf;

fn netlib() -> Vec<(String, f64)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib"));
    let table = std::fs::read_to_string(dir.join("optimal.tsv"))
        .unwrap_or_else(|e| panic!("{}/optimal.tsv is part of the repository: {e}", dir.display()));
    table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[4].parse::<f64>().unwrap() + f[5].parse::<f64>().unwrap())
        })
        .collect()
}

fn model(name: &str) -> glsolve::lp::LpModel {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib")).join(format!("{name}.mps"));
    mps::read_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The papers' method: hybrid switches by (3.16)–(3.18) alone (the cost rule, which reads the
/// clock, has tests of its own in tests/lp_auto.rs).
fn builder(backend: BackendKind, tol: f64) -> glsolve::SettingsBuilder {
    let b = Settings::builder(backend).tolerance(tol);
    match backend {
        BackendKind::Hybrid | BackendKind::Auto => b.hybrid_rules(glsolve::lp::HybridRules::papers()),
        _ => b,
    }
}

fn settings(backend: BackendKind, tol: f64) -> Settings {
    builder(backend, tol).build().expect("valid settings")
}

/// `backend`'s GPU options with `change` applied.
fn with_gpu_options(b: glsolve::SettingsBuilder, change: impl FnOnce(&mut glsolve::GpuOptions)) -> Settings {
    let mut g = glsolve::GpuOptions::default();
    change(&mut g);
    b.gpu(g).build().expect("valid settings")
}

#[test]
fn hybrid_solves_all_twenty_netlib_problems() {
    let problems = netlib();
    assert_eq!(problems.len(), 20);
    let failures = with_gpu(move |gpu| {
        let mut failures = Vec::new();
        for (name, expected) in problems {
            let sol =
                solve_on(&model(&name), &settings(BackendKind::Hybrid, 1e-8), &mut Logger::quiet(), Some(gpu)).unwrap();
            let rel = (sol.objective - expected).abs() / expected.abs().max(1.0);
            let gpu_its = sol.gpu_iterations.expect("hybrid counts GPU iterations");
            println!(
                "{name:10} {:?} rel.err {rel:.2e} iterations {} ({gpu_its} GPU) {:?}",
                sol.status, sol.iterations, sol.notes
            );
            // The GPU did part of the work: a hybrid that switched before its first factorization
            // would be the cpu backend under another name.
            assert!(gpu_its > 0 && gpu_its <= sol.iterations, "{name}: {gpu_its} GPU of {} iterations", sol.iterations);
            if sol.status != Status::Optimal || rel.is_nan() || rel > 1e-6 {
                failures.push(format!("{name}: {:?} rel.err {rel:.2e} ({})", sol.status, sol.detail));
            }
        }
        failures
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (problem, ε) of the 2006 paper's Table 3.
const TABLE3: [(&str, f64); 10] = [
    ("adlittle", 3e-5),
    ("afiro", 4e-5),
    ("agg2", 5e-5),
    ("agg3", 6e-4),
    ("bandm", 2e-3),
    ("beaconfd", 3e-4),
    ("blend", 2e-3),
    ("e226", 9e-4),
    ("sc50b", 3e-5),
    ("sctap1", 5e-4),
];

#[test]
fn gpu_solves_the_table_3_problems_at_the_papers_tolerances() {
    let expected: std::collections::HashMap<String, f64> = netlib().into_iter().collect();
    let failures = with_gpu(move |gpu| {
        let mut failures = Vec::new();
        for (name, eps) in TABLE3 {
            let sol =
                solve_on(&model(name), &settings(BackendKind::Gpu, eps), &mut Logger::quiet(), Some(gpu)).unwrap();
            let rel = (sol.objective - expected[name]).abs() / expected[name].abs().max(1.0);
            println!("{name:10} ε={eps:e} {:?} rel.err {rel:.2e} iterations {}", sol.status, sol.iterations);
            assert_eq!(sol.gpu_iterations, Some(sol.iterations), "{name}: every gpu iteration factors on the GPU");
            if sol.status != Status::Optimal || rel.is_nan() || rel > 10.0 * eps {
                failures.push(format!("{name}: {:?} rel.err {rel:.2e} ({})", sol.status, sol.detail));
            }
        }
        failures
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gpu_matches_cpu_up_to_single_precision_with_either_substitution() {
    let m = random_lp(48, 3).to_model(3);
    let cpu = glsolve::lp::solve(&m, &settings(BackendKind::Cpu, 1e-8), &mut Logger::quiet()).unwrap();
    assert_eq!(cpu.status, Status::Optimal);
    let sols = with_gpu(move |gpu| {
        [Substitution::Cpu, Substitution::Gpu].map(|sub| {
            // ε = 1e-5: with its directions refined the gpu backend reaches it; at 1e-4 it stops
            // at an interior point whose gap is 1e-4 but whose x is still a few percent from the
            // vertex (ε bounds residuals and gap, not that distance).
            let st = with_gpu_options(builder(BackendKind::Gpu, 1e-5), |g| g.substitution = sub);
            solve_on(&m, &st, &mut Logger::quiet(), Some(gpu)).unwrap()
        })
    });
    for s in sols {
        assert_eq!(s.status, Status::Optimal);
        let rel = (s.objective - cpu.objective).abs() / cpu.objective.abs();
        // Termination at ε = 1e-4 bounds the gap; single precision adds u·κ-sized noise.
        assert!(rel <= 1e-3, "objective {} vs cpu {} ({rel:e})", s.objective, cpu.objective);
        let dx: f64 = s.x.iter().zip(&cpu.x).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(dx <= 1e-2 * cpu.x.iter().map(|v| v.abs()).fold(1.0, f64::max), "max |Δx| {dx}");
    }
}

#[test]
fn an_unreachable_tolerance_is_refused_and_the_smallest_accepted_is_a_status_never_a_silent_nan() {
    let m = model("afiro");
    let e = builder(BackendKind::Gpu, 1e-12).build().expect_err("refused");
    assert!(matches!(e, SettingsError::GpuTolerance(t) if t == 1e-12), "{e}");
    let sol = with_gpu(move |gpu| {
        let st = builder(BackendKind::Gpu, GPU_MIN_TOLERANCE).max_iterations(60).build().expect("the floor is valid");
        solve_on(&m, &st, &mut Logger::quiet(), Some(gpu)).unwrap()
    });
    if sol.x.iter().any(|v| !v.is_finite()) || !sol.objective.is_finite() {
        assert_eq!(sol.status, Status::NumericalFailure, "non-finite results must carry a failure status");
    }
}

#[test]
fn single_precision_stagnation_is_not_reported_as_infeasibility() {
    // This member of the random family (feasible and bounded by construction) stalls in single
    // precision at ε = 1e-5: the status must not claim infeasibility.
    let m = random_lp(48, 3).to_model(3);
    let sol =
        with_gpu(move |gpu| solve_on(&m, &settings(BackendKind::Gpu, 1e-5), &mut Logger::quiet(), Some(gpu)).unwrap());
    assert!(
        !matches!(sol.status, Status::PrimalInfeasible | Status::DualInfeasible | Status::Unbounded),
        "{:?}: {}",
        sol.status,
        sol.detail
    );
}

#[test]
fn hybrid_without_a_context_runs_on_the_cpu_and_says_so() {
    let m = model("afiro");
    let sol = solve_on(&m, &settings(BackendKind::Hybrid, 1e-8), &mut Logger::quiet(), None).unwrap();
    assert_eq!(sol.status, Status::Optimal);
    assert!(sol.notes.iter().any(|n| n.contains("no GL context")), "{:?}", sol.notes);
    let e = solve_on(&m, &settings(BackendKind::Gpu, 1e-4), &mut Logger::quiet(), None).expect_err("gpu needs GL");
    assert!(e.to_string().contains("OpenGL"), "{e}");
}

#[test]
fn hybrid_reports_the_rule_that_moved_it_to_the_cpu() {
    let m = model("sc50b");
    let sol = with_gpu(move |gpu| {
        solve_on(&m, &settings(BackendKind::Hybrid, 1e-8), &mut Logger::quiet(), Some(gpu)).unwrap()
    });
    assert_eq!(sol.status, Status::Optimal);
    let g = sol.gpu_iterations.unwrap();
    assert!(g > 0 && g < sol.iterations, "sc50b starts on the GPU and finishes on the CPU: {g} of {}", sol.iterations);
    let note = sol.notes.iter().find(|n| n.starts_with("hybrid: switched to the CPU")).expect("a switch note");
    assert!(note.starts_with(&format!("hybrid: switched to the CPU at iteration {g}: (3.1")), "{note}");
}

/// Each switching rule forced alone. The rules must be positive and finite (settings
/// validation), so the other two are disabled with extreme values: θ_r = 1e300 passes every
/// residual of (3.16) (they are ≤ 1 + ‖A·D²·Aᵀ‖·‖Δλ‖/‖r‖, nowhere near); ε_d = 1e-300 leaves no
/// entry of D² (a ratio x/z of iterates ≥ 1e-30 or so) below it for (3.17); θ_a = 1e300 admits
/// any spread in (3.18). The forced one fires at the first check it gets: the rules are checked
/// on D² after each assembly, (3.16) after each GPU solve.
#[test]
fn each_switching_rule_forced_alone_fires_with_its_own_note() {
    use glsolve::lp::HybridRules;
    let never = HybridRules { theta_r: 1e300, eps_d: 1e-300, theta_d: 1e3, theta_a: 1e300, cost: None };
    let cases = [
        // (3.16) with θ_r = 1e-300: no single-precision solve has a residual below it, so the
        // first GPU solve is refused.
        (HybridRules { theta_r: 1e-300, ..never }, "(3.16): relative residual"),
        // (3.17) with ε_d = 1e300: all n entries of D² are below it, n > n − m.
        (HybridRules { eps_d: 1e300, ..never }, "(3.17): "),
        // (3.18) with θ_d = 1e-300, θ_a = 1: every entry is "diverging" and any spread > 1
        // fires; it needs μ, so it can fire first once the loop has begun.
        (HybridRules { theta_d: 1e-300, theta_a: 1.0, ..never }, "(3.18): diverging entries"),
    ];
    let results = with_gpu(move |gpu| {
        cases
            .iter()
            .map(|(rules, _)| {
                let st = builder(BackendKind::Hybrid, 1e-8).hybrid_rules(*rules).build().expect("valid");
                solve_on(&model("afiro"), &st, &mut Logger::quiet(), Some(gpu)).unwrap()
            })
            .collect::<Vec<_>>()
    });
    let never_sol = with_gpu(move |gpu| {
        let st = builder(BackendKind::Hybrid, 1e-8).hybrid_rules(never).build().expect("valid");
        solve_on(&model("afiro"), &st, &mut Logger::quiet(), Some(gpu)).unwrap()
    });
    // With the three disabled the whole solve stays on the GPU: no note, every iteration counted
    // (and single precision alone ends at reduced accuracy for ε = 1e-8, as the gpu backend does).
    assert!(matches!(never_sol.status, Status::Optimal | Status::OptimalReducedAccuracy), "{}", never_sol.detail);
    assert!(!never_sol.notes.iter().any(|n| n.starts_with("hybrid: switched")), "{:?}", never_sol.notes);
    assert_eq!(never_sol.gpu_iterations, Some(never_sol.iterations));
    for ((_, rule), sol) in cases.iter().zip(&results) {
        assert_eq!(sol.status, Status::Optimal, "{rule}: {}", sol.detail);
        let notes: Vec<&String> = sol.notes.iter().filter(|n| n.starts_with("hybrid: switched")).collect();
        // Exactly one switch, at iteration 0 (the first check), by this rule and no other.
        assert_eq!(notes.len(), 1, "{rule}: {notes:?}");
        let expected = format!("hybrid: switched to the CPU at iteration 0: {rule}");
        assert!(notes[0].starts_with(&expected), "expected `{expected}…`, got `{}`", notes[0]);
        assert_eq!(sol.gpu_iterations, Some(0), "{rule}");
    }
}

#[test]
fn single_precision_that_stops_improving_ends_with_its_best_point_before_the_limit() {
    // ε = 1e-6 is below what single precision reaches on this member of the random family: the
    // merit stops improving around 1e-5. The loop must stop soon after its best iterate
    // (NO_PROGRESS_ITERATIONS, or JUDGE_PATIENCE checked iterations), not run to the iteration
    // limit, and return that iterate graded by verification.
    // (On other members the primal residual blows up after the best iterate and the stalling
    // test ends the solve first, with the same best iterate.)
    let model = random_lp(32, 6).to_model(6);
    let reference = solve(&model, &settings(BackendKind::Cpu, 1e-9), &mut Logger::quiet()).unwrap();
    assert_eq!(reference.status, Status::Optimal);
    let limit = 100;
    // The papers' method (no refinement of the directions), where the rule is needed; with
    // refinement the same solve must end without it, proven optimal.
    let (sol, refined) = with_gpu(move |gpu| {
        // blocked-16: with tiled-16 the refined solve took 12 iterations against the plain one's 11.
        let b = builder(BackendKind::Gpu, 1e-6).max_iterations(limit).gpu_refinement(false);
        let st = with_gpu_options(b, |g| g.variant = glsolve::cholesky::Variant::BLOCKED[1]);
        let plain = solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)).unwrap();
        let st = st.to_builder().gpu_refinement(true).build().expect("valid");
        (plain, solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)).unwrap())
    });
    assert_eq!(refined.status, Status::Optimal, "{}", refined.detail);
    assert!(!refined.detail.contains("no progress"), "{}", refined.detail);
    assert!(refined.iterations < limit, "{} iterations", refined.iterations);
    assert!(sol.iterations < limit, "ran to the limit: {:?} {}", sol.status, sol.detail);
    assert!(!sol.status.is_limit(), "{:?}", sol.status);
    // Stopped by the no-progress rule or by the check's patience (no better checked point).
    let stalled = sol.detail.contains("no progress") || sol.detail.contains("stays at");
    assert!(stalled, "{}", sol.detail);
    assert!(sol.best_iterate, "the best iterate is returned");
    // Reduced accuracy is √ε = 1e-3: the objective is at least that close to double precision's.
    let rel = (sol.objective - reference.objective).abs() / (1.0 + reference.objective.abs());
    assert!(matches!(sol.status, Status::OptimalReducedAccuracy | Status::Optimal), "{:?}", sol.status);
    assert!(rel <= 1e-3, "objective {} vs {}: {rel:e}", sol.objective, reference.objective);
}

#[test]
fn an_iteration_on_the_gpu_creates_no_texture_and_reads_back_only_scalars_and_its_point() {
    // Two solves of the same LP stopped at different iteration limits: every texture (and its
    // framebuffer) is made by the set-up and the first iterations, so the counts are equal; the
    // bytes read back per extra iteration are a few reductions, the factor's diagonal, and the
    // point (x, λ, z) that the check on the original model judges.
    let model = random_lp(64, 5).to_model(5);
    for backend in [BackendKind::Gpu, BackendKind::Hybrid] {
        let m2 = model.clone();
        let (runs, m, n) = with_gpu(move |gpu| {
            let runs: Vec<(u64, u64, usize)> = [2usize, 6]
                .into_iter()
                .map(|limit| {
                    let (c0, t0) = (gpu.textures_created(), gpu.traffic().read_back);
                    // Tolerances no iteration reaches within the limits (1e-7 is the gpu's floor).
                    let tol = if backend == BackendKind::Gpu { 1e-7 } else { 1e-12 };
                    let st = builder(backend, tol).max_iterations(limit).build().expect("valid");
                    let sol = solve_on(&m2, &st, &mut Logger::quiet(), Some(gpu)).unwrap();
                    assert_eq!(sol.status, Status::IterationLimit, "{backend:?}: {}", sol.detail);
                    (gpu.textures_created() - c0, gpu.traffic().read_back - t0, sol.iterations)
                })
                .collect();
            (runs, m2.num_rows(), m2.num_cols())
        });
        assert_eq!(runs[0].0, runs[1].0, "{backend:?}: textures created in 2 and 6 iterations");
        assert!(runs[0].0 > 0, "the set-up makes textures");
        if backend == BackendKind::Gpu {
            // 4 extra iterations, each reading back reductions — one texel of four floats,
            // 16 bytes, apiece: the iteration's dots, norms and step lengths and the min and max
            // of the factor's diagonal, at most 24 of them — and the point x, λ, s: n + m + n
            // floats (equality rows and x ≥ 0: the standard form is the model); nothing of size m·n.
            let per_iteration = (runs[1].1 - runs[0].1) / 4;
            let point = 4 * (2 * n + m) as u64;
            assert!(per_iteration <= 24 * 16 + point, "{per_iteration} bytes per iteration (m = {m}, n = {n})");
        }
    }
}

#[test]
fn every_cholesky_variant_runs_inside_the_lp() {
    // The normal equations of the gpu backend factored by each variant, the papers' and the
    // blocked ones, on two NETLIB problems at the 2006 paper's ε (Table 3).
    let expected: std::collections::HashMap<String, f64> = netlib().into_iter().collect();
    let failures = with_gpu(move |gpu| {
        let mut failures = Vec::new();
        for variant in glsolve::cholesky::Variant::all() {
            for (name, eps) in [("afiro", 4e-5), ("sc50b", 3e-5)] {
                let st = with_gpu_options(builder(BackendKind::Gpu, eps), |g| g.variant = variant);
                let sol = solve_on(&model(name), &st, &mut Logger::quiet(), Some(gpu)).unwrap();
                let rel = (sol.objective - expected[name]).abs() / expected[name].abs().max(1.0);
                if sol.status != Status::Optimal || rel > 10.0 * eps {
                    failures.push(format!("{variant} {name}: {:?} rel.err {rel:.2e} ({})", sol.status, sol.detail));
                }
            }
        }
        failures
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_2008_stopping_rule_ends_with_verified_optima_as_the_2006_rule_does() {
    // (3.15) measures the residuals against max(‖b‖, ‖c‖, ‖A‖): a different stopping point, the
    // same verification on the original model. cpu at 1e-8; the paper's gpu configuration
    // (square update, GPU substitution) at the 2006 paper's ε for each problem.
    let expected: std::collections::HashMap<String, f64> = netlib().into_iter().collect();
    let stop = glsolve::lp::StoppingRule::Combined315;
    for name in ["afiro", "sc50b", "adlittle"] {
        let st = builder(BackendKind::Cpu, 1e-8).stopping(stop).build().expect("valid");
        let sol = solve(&model(name), &st, &mut Logger::quiet()).unwrap();
        let rel = (sol.objective - expected[name]).abs() / expected[name].abs().max(1.0);
        assert_eq!(sol.status, Status::Optimal, "{name}: {}", sol.detail);
        assert!(rel <= 1e-7, "{name}: {rel:e}");
    }
    let failures = with_gpu(move |gpu| {
        let mut failures = Vec::new();
        let square = glsolve::cholesky::Variant::Outer {
            domain: glsolve::cholesky::Domain::Square,
            index: glsolve::cholesky::IndexSource::Pair,
        };
        for (name, eps) in [("afiro", 4e-5), ("sc50b", 3e-5), ("blend", 2e-3)] {
            let st = with_gpu_options(builder(BackendKind::Gpu, eps).stopping(stop), |g| {
                g.variant = square;
                g.substitution = Substitution::Gpu;
            });
            let sol = solve_on(&model(name), &st, &mut Logger::quiet(), Some(gpu)).unwrap();
            let rel = (sol.objective - expected[name]).abs() / expected[name].abs().max(1.0);
            if sol.status != Status::Optimal || rel > 10.0 * eps {
                failures.push(format!("{name}: {:?} rel.err {rel:.2e} ({})", sol.status, sol.detail));
            }
        }
        failures
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[path = "common/certify.rs"]
mod certify;

/// x1 + x2 ≥ 3 and x1 + x2 ≤ 1 with x ≥ 0: y = (1, −1) proves it (3 − 1 > 0).
fn infeasible() -> glsolve::lp::LpModel {
    glsolve::lp::LpModel::builder(nalgebra::dmatrix![1.0, 1.0; 1.0, 1.0])
        .minimize([1.0, 2.0])
        .row_bounds([3.0, f64::NEG_INFINITY], [f64::INFINITY, 1.0])
        .build()
        .expect("a valid model")
}

/// min −x1 − x2 s.t. x1 − x2 ≤ 1, x ≥ 0: r = (1, 1) keeps the row and gains 2.
fn unbounded() -> glsolve::lp::LpModel {
    glsolve::lp::LpModel::builder(nalgebra::dmatrix![1.0, -1.0])
        .minimize([-1.0, -1.0])
        .row_bounds([f64::NEG_INFINITY], [1.0])
        .build()
        .expect("a valid model")
}

#[test]
fn gpu_and_hybrid_certify_infeasible_and_unbounded_models() {
    use glsolve::lp::verify::CertificateKind;
    for backend in [BackendKind::Gpu, BackendKind::Hybrid] {
        let st = Settings::for_backend(backend);
        let (inf, unb) = with_gpu(move |gpu| {
            let run = |m: &glsolve::lp::LpModel| solve_on(m, &st, &mut Logger::quiet(), Some(gpu)).unwrap();
            (run(&infeasible()), run(&unbounded()))
        });
        if backend == BackendKind::Gpu && inf.status == Status::NumericalFailure {
            // Single precision alone does not decide primal infeasibility here: the residual
            // stalls at 0.5 and the backend says so instead of claiming anything.
            assert!(inf.detail.contains("in single precision this proves nothing"), "{}", inf.detail);
            assert!(inf.certificate.is_none(), "{backend:?}: a certificate with a failure status");
        } else {
            assert_eq!(inf.status, Status::PrimalInfeasible, "{backend:?}: {}", inf.detail);
            let c = inf.certificate.as_ref().unwrap_or_else(|| panic!("{backend:?}: no Farkas ray"));
            assert_eq!(c.kind, CertificateKind::Farkas, "{backend:?}");
            let proof = certify::farkas(&infeasible(), &c.ray);
            assert!(proof.holds(certify::TOL), "{backend:?}: Farkas ray {:?}: {proof:?}", c.ray);
        }
        assert_eq!(unb.status, Status::Unbounded, "{backend:?}: {}", unb.detail);
        let c = unb.certificate.as_ref().unwrap_or_else(|| panic!("{backend:?}: no primal ray"));
        assert_eq!(c.kind, CertificateKind::PrimalRay, "{backend:?}");
        let proof = certify::primal_ray(&unbounded(), &c.ray);
        assert!(proof.holds(certify::TOL), "{backend:?}: primal ray {:?}: {proof:?}", c.ray);
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
