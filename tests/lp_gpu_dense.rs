//! The papers' random dense LP on the gpu backend at its default tolerance: the proof of the
//! answer ends the loop as soon as it passes, so the proven optimum costs no more iterations
//! than the loop's own test did before the proof (12 on m = 512, seed 7).

mod common;
use common::with_gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::{solve, solve_on, BackendKind, Settings, Status};

#[test]
fn the_random_lp_of_512_rows_is_proven_optimal_on_the_gpu_within_14_iterations() {
    let model = random_lp(512, 7).to_model(7);
    let cpu = solve(&model, &Settings::builder(BackendKind::Cpu).build().expect("valid"), &mut Logger::quiet())
        .expect("valid settings");
    assert_eq!(cpu.status, Status::Optimal, "{}", cpu.detail);
    let st = Settings::builder(BackendKind::Gpu).build().expect("valid settings");
    let eps = st.tolerance();
    let gpu = with_gpu(move |gpu| solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)).expect("valid settings"));
    assert_eq!(gpu.status, Status::Optimal, "{}", gpu.detail);
    assert!(gpu.iterations <= 14, "{} iterations: {}", gpu.iterations, gpu.detail);
    // Proven: the enclosure holds the cpu's optimum and is within the status's 10ε.
    let e = gpu.enclosure().expect("an optimal answer has an enclosure");
    assert!(e.lower <= cpu.objective && cpu.objective <= e.upper, "{e:?} against the cpu's {}", cpu.objective);
    assert!(
        (gpu.objective - cpu.objective).abs() <= 10.0 * eps * cpu.objective.abs(),
        "{} against {}",
        gpu.objective,
        cpu.objective
    );
}
