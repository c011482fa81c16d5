//! Issue 20's findings on the solver: settings per backend with the library's own defaults,
//! verbosity honoured, the log's objective in the user's sense, one GL context per solver, and
//! a status detail that does not repeat the verification's numbers.
mod common;
use glsolve::lp::log::Logger;
use glsolve::lp::mpc::{Iterate, MpcOutcome};
use glsolve::lp::settings::SettingsError;
use glsolve::lp::standard_form::{standard_form, Presolved};
use glsolve::lp::verify::verdict::verdict;
use glsolve::{BackendKind, LpModel, LpSolver, Settings, Status, Verbosity};
use nalgebra::dmatrix;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// max 3x + 2y  s.t.  x + y ≤ 4,  x + 3y ≤ 6,  0 ≤ x ≤ 3, y ≥ 0: objective 11 (x = 3, y = 1).
fn eleven() -> LpModel {
    LpModel::builder(dmatrix![1.0, 1.0; 1.0, 3.0])
        .maximize([3.0, 2.0])
        .rows_at_most([4.0, 6.0])
        .col_bounds([0.0, 0.0], [3.0, f64::INFINITY])
        .build()
        .expect("valid")
}

/// A log sink the test can read afterwards.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);
impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
impl Buffer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|p| p.into_inner())).into_owned()
    }
}

fn logged(verbosity: Verbosity) -> String {
    let buf = Buffer::default();
    let log = Logger::to_writer(Box::new(buf.clone())).with_verbosity(verbosity);
    let mut solver = LpSolver::new(Settings::default()).with_logger(log);
    assert_eq!(solver.solve(&eleven()).expect("solves").status, Status::Optimal);
    buf.text()
}

#[test]
fn settings_have_per_backend_defaults_in_the_library() {
    assert_eq!(Settings::default().backend(), BackendKind::Cpu, "the library default, as README says");
    assert_eq!(Settings::for_backend(BackendKind::Gpu).tolerance(), 1e-4);
    assert_eq!(Settings::for_backend(BackendKind::Hybrid).tolerance(), 1e-8);
    assert_eq!(Settings::for_backend(BackendKind::Cpu).tolerance(), 1e-8);
    // The papers' step factor on the GPU backends; the cpu backend's own.
    assert_eq!(Settings::for_backend(BackendKind::Gpu).step_factor(), 0.99);
    assert_eq!(Settings::for_backend(BackendKind::Hybrid).step_factor(), 0.99);
    assert_eq!(Settings::for_backend(BackendKind::Cpu).step_factor(), 0.95);
    assert_eq!(Settings::default().step_factor(), 0.95);
    // The long step is the cpu backend's alone.
    assert_eq!(Settings::for_backend(BackendKind::Gpu).long_step_factor(), None);
    assert_eq!(Settings::for_backend(BackendKind::Hybrid).long_step_factor(), None);
    assert_eq!(Settings::for_backend(BackendKind::Cpu).long_step_factor(), Some(0.995));
    assert_eq!(Settings::default().long_step_factor(), Some(0.995));
    // The trap of the issue: the gpu backend with the double-precision ε is refused, not run
    // into a NaN pivot and "reduced accuracy".
    let wrong = Settings::builder(BackendKind::Gpu).tolerance(1e-8).build();
    assert_eq!(wrong.err(), Some(SettingsError::GpuTolerance(1e-8)));
}

#[test]
fn verbosity_is_honoured() {
    assert_eq!(logged(Verbosity::Quiet), "", "quiet silences even a given logger");
    let normal = logged(Verbosity::Normal);
    assert!(normal.contains("primal obj") && normal.contains("verification:"), "{normal}");
    assert!(!normal.contains("standard form:") && !normal.contains("time:"), "{normal}");
    let verbose = logged(Verbosity::Verbose);
    assert!(verbose.contains("standard form:") && verbose.contains("time:"), "{verbose}");
}

#[test]
fn the_log_shows_the_objective_in_the_users_sense() {
    let log = logged(Verbosity::Normal);
    let last_row = log
        .lines()
        .rfind(|l| l.split_whitespace().next().is_some_and(|w| w.parse::<usize>().is_ok()))
        .unwrap_or_else(|| panic!("no iteration rows in\n{log}"));
    let primal: f64 = last_row.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("primal obj");
    let dual: f64 = last_row.split_whitespace().nth(2).and_then(|v| v.parse().ok()).expect("dual obj");
    assert!((primal - 11.0).abs() < 1e-5, "the log printed {primal} for a maximization whose objective is 11");
    assert!((dual - 11.0).abs() < 1e-5, "dual objective {dual}");
}

#[test]
fn a_solver_makes_its_gl_context_once_and_keeps_it() {
    let settings = common::gl_settings(BackendKind::Hybrid);
    let mut solver = LpSolver::new(settings);
    assert!(solver.context_use().is_none(), "nothing is made before the first solve");
    assert_eq!(solver.solve(&eleven()).expect("solves").status, Status::Optimal);
    let first = solver.context_use().expect("a context after a hybrid solve");
    let renderer = solver.gpu_info().map(|i| i.renderer.clone());
    assert!(first.textures_created > 0 && first.passes > 0, "the hybrid solve ran on the GPU: {first:?}");
    assert_eq!(first.live_textures, 0, "nothing outlives a solve");
    assert_eq!(solver.solve(&eleven()).expect("solves").status, Status::Optimal);
    let second = solver.context_use().expect("still there");
    // The same context: its counts went on from where they were (a new one would start at 0).
    assert!(second.textures_created > first.textures_created && second.passes > first.passes, "{second:?}");
    assert_eq!(solver.gpu_info().map(|i| i.renderer.clone()), renderer);
    // The cpu backend never makes one.
    let mut cpu = LpSolver::new(Settings::default());
    cpu.solve(&eleven()).expect("solves");
    assert!(cpu.context_use().is_none() && cpu.gpu_info().is_none());
}

#[test]
fn a_reduced_accuracy_detail_does_not_repeat_the_verification() {
    // min x1 + x2 s.t. x1 + x2 = 1, x ≥ 0; the loop claims optimal at x = (0.5, 0.5)·(1 + 1e-6):
    // the row is violated by 1e-6 of its size 2, and the objective 1e-6 above the dual's 1
    // (relative 5e-7 and 1e-6: above 10·ε = 1e-7, below its square root).
    let model = LpModel::builder(dmatrix![1.0, 1.0]).minimize([1.0, 1.0]).rows_equal([1.0]).build().expect("valid");
    let Presolved::Form(sf) = standard_form(&model, false) else { panic!("a standard form") };
    let half = 0.5 * (1.0 + 1e-6);
    let outcome = MpcOutcome {
        status: Status::Optimal,
        iterate: Iterate { x: vec![half, half], lambda: vec![1.0], s: vec![0.0, 0.0], ..Default::default() },
        iterations: 1,
        last: Default::default(),
        timings: Default::default(),
        detail: String::new(),
        gpu_iterations: None,
        single_factorizations: None,
        residual_ray: None,
        best_returned: false,
        best_iterate: None,
        refinements: 0,
    };
    let v = verdict(&model, &sf, &outcome, &Settings::default());
    assert_eq!(v.status, Status::OptimalReducedAccuracy);
    assert!(v.detail.contains("reduced accuracy"), "{}", v.detail);
    assert!(!v.detail.contains(&v.verification.summary()), "the summary prints it on its own line: {}", v.detail);
    assert!(!v.detail.contains("compl."), "{}", v.detail);
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
