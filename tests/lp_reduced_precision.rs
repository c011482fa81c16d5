//! The cpu backend's reduced-precision iterations end to end, on every CPU path this machine
//! runs: the early normal matrices from f32 products (AMX switched off, or not available) or bf16
//! pairs (AMX), the solve still optimal, verified by the independent f64 check, at the objective
//! of the all-f64 solve.

mod common;

use common::log::SharedLog;
use common::paths::{on, report, runnable};
use glsolve::cpu::gram::amx_available;
use glsolve::cpu::paths::{Amx, CpuPaths};
use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::solve;
use glsolve::{BackendKind, CpuOptions, Settings, Status};

#[test]
fn reduced_precision_iterations_reach_the_optimum_of_the_all_f64_solve_on_every_path() {
    // m = 256: the smallest dense LP that takes the mixed-precision iterations.
    let model = random_lp(256, 3).to_model(3);
    let exact = Settings::builder(BackendKind::Cpu)
        .cpu(CpuOptions { mixed_precision: false, ..CpuOptions::default() })
        .build()
        .expect("valid settings");
    let f64_only = solve(&model, &exact, &mut Logger::quiet()).expect("valid settings");
    assert_eq!(f64_only.status, Status::Optimal, "{}", f64_only.detail);
    let mut ran = Vec::new();
    for isa in runnable("reduced-precision LP") {
        for amx in [Amx::Off, Amx::Auto] {
            let paths = CpuPaths { amx, ..on(isa) };
            let bf16 = amx == Amx::Auto && amx_available() && isa != glsolve::cpu::paths::Isa::Portable;
            let tag = if bf16 { "cpu bf16" } else { "cpu f32" };
            let log = SharedLog::default();
            let st = Settings::builder(BackendKind::Cpu).cpu_paths(paths).build().expect("valid settings");
            let s = solve(&model, &st, &mut Logger::to_writer(Box::new(log.clone()))).expect("valid settings");
            let text = log.text();
            let what = format!("{} amx {amx:?}", isa.name());
            assert!(text.lines().any(|l| l.ends_with(tag)), "{what}: no iteration names {tag}:\n{text}");
            assert!(s.single_factorizations.is_some_and(|k| k > 0), "{what}: {:?}", s.single_factorizations);
            assert_eq!(s.status, Status::Optimal, "{what}: {}", s.detail);
            let v = s.verification.as_ref().expect("a verified answer");
            assert!(v.worst() <= v.tolerance, "{what}: {v:?}");
            let rel = (s.objective - f64_only.objective).abs() / f64_only.objective.abs().max(1.0);
            assert!(rel <= 1e-8, "{what}: objective {} against {} ({rel:e})", s.objective, f64_only.objective);
            ran.push(format!("{what} ({tag})"));
        }
    }
    report(&format!("reduced-precision LP solves: {}", ran.join(", ")));
}
