//! The `auto` backend's choice, the hybrid backend's switching rules at their thresholds (both
//! sides), and the cost rule forced alone.
mod common;
use common::with_gpu;
use glsolve::lp::auto::{by_device, by_device_for, by_shape, Work, AUTO_MARGIN, AUTO_MIN_ROWS};
use glsolve::lp::backend::{
    cost_rule_fires, cpu_iteration_estimate, cpu_rate, iteration_flops, probe_device, rule_3_16_fires, rule_3_17_fires,
    rule_3_18_fires, sparse_assembly_pays, DeviceProbe, COST_RULE_ITERATIONS,
};
use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::{mps, solve, solve_on, BackendKind, CostRule, GpuOptions, HybridRules, LpSolver, Settings, Status};
use std::path::PathBuf;

fn model(name: &str) -> glsolve::lp::LpModel {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib")).join(format!("{name}.mps"));
    mps::read_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn quiet(backend: BackendKind) -> Settings {
    common::gl_settings(backend)
}

#[test]
fn rule_3_17_fires_above_n_minus_m_small_entries_only() {
    // n = 10, m = 4: six small entries are allowed (fewer than m active dual constraints is
    // what the rule guards against), the seventh fires.
    assert!(!rule_3_17_fires(6, 4, 10));
    assert!(rule_3_17_fires(7, 4, 10));
    // n = m: no small entry is allowed.
    assert!(!rule_3_17_fires(0, 5, 5));
    assert!(rule_3_17_fires(1, 5, 5));
    // More rows than columns (no standard form has it, the rule must not wrap around).
    assert!(rule_3_17_fires(1, 6, 5));
    assert!(!rule_3_17_fires(0, 6, 5));
}

#[test]
fn rule_3_18_fires_on_a_spread_above_theta_a_only() {
    let theta_a = 1e5;
    assert!(!rule_3_18_fires(Some(theta_a), theta_a));
    assert!(rule_3_18_fires(Some(theta_a.next_up()), theta_a));
    assert!(!rule_3_18_fires(Some(theta_a.next_down()), theta_a));
    assert!(!rule_3_18_fires(None, theta_a), "no diverging entries, no spread");
}

#[test]
fn rule_3_16_fires_at_theta_r_and_above_and_on_nan() {
    let theta_r = 1e-2;
    assert!(rule_3_16_fires(theta_r, theta_r));
    assert!(!rule_3_16_fires(theta_r.next_down(), theta_r));
    assert!(rule_3_16_fires(f64::NAN, theta_r));
    assert!(rule_3_16_fires(f64::INFINITY, theta_r));
}

#[test]
fn cost_rule_fires_past_its_factor_and_floor_only() {
    let rule = CostRule { factor: 3.0, min_seconds: 0.2 };
    // At the factor exactly: not more costly than allowed.
    assert!(!cost_rule_fires(&rule, 3.0, 1.0));
    assert!(cost_rule_fires(&rule, 3.0f64.next_up(), 1.0));
    // Below the floor nothing fires, however slow relative to the CPU.
    assert!(!cost_rule_fires(&rule, 0.2f64.next_down(), 1e-9));
    assert!(cost_rule_fires(&rule, 0.2, 1e-9));
}

#[test]
fn the_papers_setups_run_without_the_cost_rule_and_the_default_has_it() {
    assert_eq!(HybridRules::papers().cost, None);
    assert_eq!(HybridRules::default().cost, Some(CostRule::default()));
    let paper = HybridRules::papers();
    let d = HybridRules::default();
    assert_eq!((paper.theta_r, paper.eps_d, paper.theta_d, paper.theta_a), (d.theta_r, d.eps_d, d.theta_d, d.theta_a));
    let hybrid = |rules| Settings::builder(BackendKind::Hybrid).hybrid_rules(rules).build();
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let st = hybrid(HybridRules { cost: Some(CostRule { factor: bad, min_seconds: 0.1 }), ..d });
        assert!(st.is_err(), "factor {bad}");
    }
    assert!(hybrid(HybridRules { cost: Some(CostRule { factor: 3.0, min_seconds: -1.0 }), ..d }).is_err());
    assert!(hybrid(HybridRules { cost: Some(CostRule { factor: 3.0, min_seconds: 0.0 }), ..d }).is_ok());
}

/// The cost rule alone (the paper's three disabled as in tests/lp_gpu.rs): a factor of 1e-12
/// and no floor find every GPU iteration too slow; iteration 0 is judged when iteration 1
/// begins, and after COST_RULE_ITERATIONS (2) slow ones in a row the solve leaves the GPU as
/// iteration 2 begins. A factor of 1e300 never fires.
#[test]
fn cost_rule_forced_alone_switches_after_two_slow_iterations_and_names_the_times() {
    let never = HybridRules { theta_r: 1e300, eps_d: 1e-300, theta_d: 1e3, theta_a: 1e300, cost: None };
    let fire = HybridRules { cost: Some(CostRule { factor: 1e-12, min_seconds: 0.0 }), ..never };
    let idle = HybridRules { cost: Some(CostRule { factor: 1e300, min_seconds: 0.0 }), ..never };
    let (fired, idled) = with_gpu(move |gpu| {
        let run = |rules| {
            let st = common::gl_builder(BackendKind::Hybrid).hybrid_rules(rules).build().expect("valid");
            solve_on(&model("afiro"), &st, &mut Logger::quiet(), Some(gpu)).unwrap()
        };
        (run(fire), run(idle))
    });
    assert_eq!(fired.status, Status::Optimal, "{}", fired.detail);
    let notes: Vec<&String> = fired.notes.iter().filter(|n| n.starts_with("hybrid: switched")).collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(COST_RULE_ITERATIONS, 2);
    assert!(
        notes[0].starts_with("hybrid: switched to the CPU at iteration 2: cost rule: 2 GPU iterations in a row took "),
        "{}",
        notes[0]
    );
    assert!(
        notes[0].contains(" s, the CPU's is estimated at ") && notes[0].contains("(> 0.000000000001×)"),
        "{}",
        notes[0]
    );
    assert_eq!(fired.gpu_iterations, Some(2));
    assert!(!idled.notes.iter().any(|n| n.starts_with("hybrid: switched")), "{:?}", idled.notes);
    assert_eq!(idled.gpu_iterations, Some(idled.iterations));
}

#[test]
fn cpu_iteration_estimate_is_the_dense_work_at_the_measured_rate() {
    assert_eq!(iteration_flops(3, 12), 9.0 * 12.0 + 27.0 / 3.0);
    let rate = cpu_rate();
    assert!(rate > 0.0 && rate.is_finite(), "{rate}");
    let t = cpu_iteration_estimate(1000, 4000).as_secs_f64();
    let expected = iteration_flops(1000, 4000) / rate;
    assert!((t - expected).abs() <= 1e-9 + 1e-9 * expected, "{t} vs {expected}");
    assert_eq!(cpu_iteration_estimate(usize::MAX, usize::MAX), std::time::Duration::MAX, "no overflow panic");
}

#[test]
fn auto_sends_small_and_sparse_problems_to_the_cpu_without_a_device() {
    let small = by_shape(AUTO_MIN_ROWS - 1, false).expect("decided without the device");
    assert_eq!(small.backend, BackendKind::Cpu);
    assert!(small.reason.starts_with(&format!("{} rows < {AUTO_MIN_ROWS}", AUTO_MIN_ROWS - 1)), "{}", small.reason);
    assert_eq!(by_shape(AUTO_MIN_ROWS, false), None, "a dense problem of {AUTO_MIN_ROWS} rows asks the device");
    let sparse = by_shape(AUTO_MIN_ROWS, true).expect("sparse is decided without the device");
    assert_eq!(sparse.backend, BackendKind::Cpu);
    assert!(sparse.reason.contains("sparse"), "{}", sparse.reason);
    // The sparsity test is the cpu backend's own: the random dense family is dense, NETLIB's
    // staircase problems are sparse (sctap1).
    assert!(!sparse_assembly_pays(&random_lp(AUTO_MIN_ROWS, 1).to_model(1).a));
    assert!(sparse_assembly_pays(&model("sctap1").a));
}

#[test]
fn auto_on_a_device_prefers_the_cpu_unless_the_probe_finds_the_gpu_clearly_faster() {
    let info = with_gpu(|gpu| gpu.info().clone());
    let mut hardware = info.clone();
    hardware.renderer = "NVIDIA H100 80GB HBM3/PCIe/SSE2".into();
    hardware.platform = "EGL 1.5, device".into();
    assert!(!hardware.is_software());
    let probe = |gpu_seconds: f64, cpu_seconds: f64| Some(Ok(DeviceProbe { gpu_seconds, cpu_seconds }));
    // This machine's renderer is a software one: cpu, whatever the probe would say.
    if info.is_software() {
        let c = by_device(&info, Ok(()), probe(1e-6, 1.0));
        assert_eq!(c.backend, BackendKind::Cpu);
        assert!(c.reason.contains("software rasterizer"), "{}", c.reason);
    }
    let fast = by_device(&hardware, Ok(()), probe(0.01, 0.1));
    assert_eq!(fast.backend, BackendKind::Hybrid, "{}", fast.reason);
    assert!(fast.reason.contains("GPU 10.0 ms, CPU 100.0 ms"), "{}", fast.reason);
    // At the margin exactly the GPU is not chosen; just past it, it is.
    let at = by_device(&hardware, Ok(()), probe(0.08, 0.08 * AUTO_MARGIN));
    assert_eq!(at.backend, BackendKind::Cpu, "{}", at.reason);
    let past = by_device(&hardware, Ok(()), probe(0.08f64.next_down(), 0.08 * AUTO_MARGIN));
    assert_eq!(past.backend, BackendKind::Hybrid, "{}", past.reason);
    let too_big = by_device(&hardware, Err("texture side 20000 > 16384".into()), None);
    assert_eq!(too_big.backend, BackendKind::Cpu);
    assert!(too_big.reason.contains("does not fit"), "{}", too_big.reason);
    let failed = by_device(&hardware, Ok(()), Some(Err("shader did not compile".into())));
    assert_eq!(failed.backend, BackendKind::Cpu);
    assert!(failed.reason.contains("probe failed"), "{}", failed.reason);
}

/// A problem with columns of one entry: the cpu backend's shaped path does `cpu` multiply-adds
/// per iteration where the GPU's m×m matrix does `gpu`; the probe's times are scaled by them, so
/// a GPU ten times faster on the papers' shape loses where the CPU's side is a hundred times
/// smaller, and the margin holds exactly at the scaled times.
#[test]
fn auto_scales_the_probe_by_each_sides_work_on_a_shaped_problem() {
    let mut hardware = with_gpu(|gpu| gpu.info().clone());
    hardware.renderer = "NVIDIA H100 80GB HBM3/PCIe/SSE2".into();
    hardware.platform = "EGL 1.5, device".into();
    let probe = |gpu_seconds: f64, cpu_seconds: f64| Some(Ok(DeviceProbe { gpu_seconds, cpu_seconds }));
    let tall = Work { gpu: 1.2e10, cpu: 1.2e8, path: "schur" };
    let c = by_device_for(&hardware, Ok(()), probe(0.01, 0.1), Some(&tall));
    assert_eq!(c.backend, BackendKind::Cpu, "{}", c.reason);
    assert!(
        c.reason.contains("1.20e10 multiply-adds on the GPU against 1.20e8 on the CPU's schur path"),
        "{}",
        c.reason
    );
    // 1000× faster on the probe: 1000·1.2e8 > 1.25·1.2e10.
    let c = by_device_for(&hardware, Ok(()), probe(0.0001, 0.1), Some(&tall));
    assert_eq!(c.backend, BackendKind::Hybrid, "{}", c.reason);
    // At the scaled margin exactly the GPU is not chosen; just past it, it is.
    let w = Work { gpu: 2.0, cpu: 1.0, path: "diagonal" };
    let at = by_device_for(&hardware, Ok(()), probe(0.04, 0.08 * AUTO_MARGIN), Some(&w));
    assert_eq!(at.backend, BackendKind::Cpu, "{}", at.reason);
    let past = by_device_for(&hardware, Ok(()), probe(0.04f64.next_down(), 0.08 * AUTO_MARGIN), Some(&w));
    assert_eq!(past.backend, BackendKind::Hybrid, "{}", past.reason);
    // Without work, the plain rule (by_device).
    let plain = by_device_for(&hardware, Ok(()), probe(0.01, 0.1), None);
    assert_eq!(plain, by_device(&hardware, Ok(()), probe(0.01, 0.1)));
}

#[test]
fn the_device_probe_times_both_sides_and_is_kept_per_device() {
    let (first, second) = with_gpu(|gpu| {
        let options = GpuOptions::default();
        (probe_device(gpu, &options, true).unwrap(), probe_device(gpu, &options, true).unwrap())
    });
    assert!(first.gpu_seconds > 0.0 && first.gpu_seconds.is_finite(), "{first:?}");
    assert!(first.cpu_seconds > 0.0 && first.cpu_seconds.is_finite(), "{first:?}");
    assert_eq!(first, second, "the second call reads the cache");
}

#[test]
fn auto_solves_and_says_which_backend_ran_and_why() {
    // Small: decided without a context.
    let sol = solve(&model("afiro"), &quiet(BackendKind::Auto), &mut Logger::quiet()).unwrap();
    assert_eq!(sol.status, Status::Optimal);
    assert_eq!(sol.backend, BackendKind::Cpu);
    assert!(sol.notes[0].starts_with("auto: cpu (27 rows < 512"), "{:?}", sol.notes);
    // Dense and large enough to ask the device: here a software rasterizer, so cpu, with the
    // cpu backend's step factors (auto's defaults are cpu's).
    let big = random_lp(AUTO_MIN_ROWS, 3).to_model(3);
    let (sol, software) = with_gpu(move |gpu| {
        (solve_on(&big, &quiet(BackendKind::Auto), &mut Logger::quiet(), Some(gpu)).unwrap(), gpu.info().is_software())
    });
    assert_eq!(sol.status, Status::Optimal, "{}", sol.detail);
    assert!(sol.notes[0].starts_with("auto: "), "{:?}", sol.notes);
    if software {
        assert_eq!(sol.backend, BackendKind::Cpu);
        assert!(sol.notes[0].contains("software rasterizer"), "{:?}", sol.notes);
    }
    // An LpSolver makes no context for a problem decided by its shape.
    let mut solver = LpSolver::new(quiet(BackendKind::Auto));
    let sol = solver.solve(&model("sc50b")).unwrap();
    assert_eq!(sol.status, Status::Optimal);
    assert_eq!(sol.backend, BackendKind::Cpu);
    assert!(solver.context_use().is_none(), "no context for a 50-row problem");
}

#[test]
fn auto_resolves_to_the_chosen_backends_defaults_and_keeps_what_the_user_set() {
    let auto = Settings::for_backend(BackendKind::Auto);
    assert_eq!(auto.tolerance(), 1e-8);
    let hybrid = auto.resolved(BackendKind::Hybrid);
    assert_eq!(hybrid.backend(), BackendKind::Hybrid);
    assert_eq!(hybrid.step_factor(), Settings::default_step_factor(BackendKind::Hybrid));
    assert_eq!(hybrid.long_step_factor(), Settings::default_long_step_factor(BackendKind::Hybrid));
    assert_eq!(hybrid.hybrid_rules(), auto.hybrid_rules(), "auto's rules go with the hybrid backend");
    let cpu = auto.resolved(BackendKind::Cpu);
    assert_eq!(cpu.step_factor(), Settings::default_step_factor(BackendKind::Cpu));
    assert_eq!(cpu.long_step_factor(), Settings::default_long_step_factor(BackendKind::Cpu));
    assert!(cpu.gpu().is_none() && cpu.hybrid_rules().is_none(), "the cpu backend holds no GPU options");
    // auto never chooses the gpu backend: asked to, it stays as it is.
    assert_eq!(auto.resolved(BackendKind::Gpu).backend(), BackendKind::Auto);
    let mine = auto.to_builder().step_factor(0.9).long_step_factor(Some(0.97)).tolerance(1e-7).build().expect("valid");
    let r = mine.resolved(BackendKind::Hybrid);
    assert_eq!((r.step_factor(), r.long_step_factor(), r.tolerance()), (0.9, Some(0.97), 1e-7));
    // A value the user set equal to auto's default is the user's, not "left at the default":
    // the hybrid backend runs with the cpu's step factors when they were asked for.
    let cpus = Settings::default_step_factor(BackendKind::Cpu);
    let cpu_long = Settings::default_long_step_factor(BackendKind::Cpu);
    let asked = auto.to_builder().step_factor(cpus).long_step_factor(cpu_long).build().expect("valid");
    let r = asked.resolved(BackendKind::Hybrid);
    assert_eq!((r.step_factor(), r.long_step_factor()), (cpus, cpu_long));
}

#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
