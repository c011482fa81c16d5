//! What may cross threads: an `LpSolver` (and what a solve takes and gives) is `Send`; a solver
//! made on one thread solves on others, one after another, on its one GL context.
mod common;
use glsolve::lp::mps;
use glsolve::{BackendKind, Logger, LpModel, LpSolver, Settings, Solution, SolveError, Status};

fn send<T: Send>() {}

#[test]
fn a_solver_and_what_it_takes_and_gives_are_send() {
    send::<LpSolver>();
    send::<Settings>();
    send::<Logger>();
    send::<LpModel>();
    send::<Solution>();
    send::<SolveError>();
}

/// Published optimum of afiro (NETLIB's list).
const AFIRO: f64 = -464.75314286;

fn afiro() -> LpModel {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib/afiro.mps");
    mps::read_file(std::path::Path::new(p)).expect("fixture")
}

/// Solves `model` with `solver` on a new thread, hands the solver back and keeps that thread
/// alive until `stay` is dropped: a context still current there could not be made current
/// anywhere else (EGL refuses), so the next solve would fail.
fn on_a_thread(mut solver: LpSolver, model: &LpModel, what: &str) -> (LpSolver, std::sync::mpsc::Sender<()>) {
    let model = model.clone();
    let (back, solved) = std::sync::mpsc::channel();
    let (stay, done) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        let s = solver.solve(&model);
        let _ = back.send((solver, s));
        let _ = done.recv();
    });
    let (solver, answer) = solved.recv().unwrap_or_else(|_| panic!("{what}: the thread died"));
    check(answer, solver.settings().backend(), what);
    (solver, stay)
}

fn check(s: Result<Solution, SolveError>, backend: BackendKind, what: &str) {
    let s = s.unwrap_or_else(|e| panic!("{what}: {e}"));
    // 1e-6 relative in double precision; 1e-3 on the single-precision gpu backend (ε = 1e-4).
    let tol = if backend == BackendKind::Gpu { 1e-3 } else { 1e-6 };
    assert_eq!(s.status, Status::Optimal, "{what}: {}", s.detail);
    assert!((s.objective - AFIRO).abs() <= tol * AFIRO.abs(), "{what}: objective {}", s.objective);
}

#[test]
fn a_solver_moves_between_threads_with_its_context() {
    let model = afiro();
    for kind in [BackendKind::Gpu, BackendKind::Hybrid] {
        let solver = LpSolver::new(common::gl_settings(kind));
        // Made here, first solved on another thread, then on a third, then back here.
        let (s, _one) = on_a_thread(solver, &model, &format!("{kind:?}, thread 1"));
        let first = s.context_use().expect("a context");
        assert!(first.passes > 0, "{kind:?}: the solve ran on the GPU");
        let (mut solver, _two) = on_a_thread(s, &model, &format!("{kind:?}, thread 2"));
        let second = solver.context_use().expect("the context");
        assert!(second.passes > first.passes && second.textures_created > first.textures_created, "{second:?}");
        check(solver.solve(&model), kind, &format!("{kind:?}, the first thread"));
        let third = solver.context_use().expect("the context");
        assert!(third.passes > second.passes, "{kind:?}: one context throughout, {third:?}");
        assert_eq!(third.live_textures, 0, "nothing outlives a solve");
        // And dropped on yet another thread.
        std::thread::spawn(move || drop(solver)).join().expect("dropped");
    }
}

#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
