//! GL faults provoked on purpose: each is detected and reported as a typed error or a status by
//! the `gpu` backend, and the `hybrid` backend finishes on the CPU with a notice instead.

mod common;

use common::with_gpu;
use glsolve::lp::backend::{BackendError, GpuFault};
use glsolve::lp::faults::{inject, FaultInjection};
use glsolve::lp::log::Logger;
use glsolve::lp::{mps, solve_on, BackendKind, LpModel, Settings, Solution, SolveError, Status};

fn afiro() -> LpModel {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/netlib/afiro.mps");
    mps::read_file(std::path::Path::new(p)).expect("asset")
}

/// `backend`'s defaults, with `fault` to inject when the solve runs (see [`run`]).
fn settings(backend: BackendKind, fault: Option<FaultInjection>) -> (Settings, Option<FaultInjection>) {
    (Settings::for_backend(backend), fault)
}

/// Solves on the test context's thread, with the fault injected there.
fn run(model: LpModel, (st, fault): (Settings, Option<FaultInjection>)) -> Result<Solution, SolveError> {
    with_gpu(move |gpu| {
        let solve = || solve_on(&model, &st, &mut Logger::quiet(), Some(gpu));
        match fault {
            Some(f) => inject(f, solve),
            None => solve(),
        }
    })
}

fn fault_of(r: Result<Solution, SolveError>) -> GpuFault {
    match r {
        Err(SolveError::Backend(BackendError::Gpu { kind, .. })) => kind,
        Err(e) => panic!("expected a GPU fault, got {e}"),
        Ok(s) => panic!("expected a GPU fault, got status {} ({})", s.status, s.detail),
    }
}

fn assert_hybrid_finished_on_cpu(s: &Solution, needle: &str) {
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    assert!(s.notes.iter().any(|n| n.contains(needle)), "a notice with `{needle}`: {:?}", s.notes);
    assert!((s.objective - -464.753142857).abs() < 1e-6, "{}", s.objective);
}

/// One row, n columns: min Σ xⱼ·(j mod 7 + 1) s.t. Σ xⱼ = 1, x ≥ 0 (optimum 1). A texture of
/// A is n texels wide in the papers' layout and ⌈n/4⌉ in the blocked one.
fn wide(n: usize) -> LpModel {
    let a = glsolve::lp::SparseColMatrix::from_triplets(1, n, &(0..n).map(|j| (0, j, 1.0)).collect::<Vec<_>>())
        .expect("in range");
    LpModel {
        name: "WIDE".into(),
        c: (0..n).map(|j| (j % 7 + 1) as f64).collect(),
        row_names: vec!["SUM".into()],
        col_names: (0..n).map(|j| format!("X{j}")).collect(),
        a,
        row_lower: vec![1.0],
        row_upper: vec![1.0],
        col_lower: vec![0.0; n],
        col_upper: vec![f64::INFINITY; n],
        integer: vec![false; n],
        ..LpModel::default()
    }
}

#[test]
fn a_matrix_over_the_texture_limit() {
    // The limit is read from the driver, not assumed.
    let max = with_gpu(|g| g.info().max_side() as usize);
    let paper = |b| {
        let gpu = glsolve::GpuOptions { variant: glsolve::cholesky::Variant::PAPER, ..Default::default() };
        (Settings::builder(b).gpu(gpu).build().expect("valid"), None)
    };
    assert_eq!(fault_of(run(wide(max + 1), paper(BackendKind::Gpu))), GpuFault::TextureTooLarge);
    // Four columns per texel: the blocked layout takes that A, and refuses one four times wider.
    let s = run(wide(max + 1), settings(BackendKind::Gpu, None)).expect("fits in runs of four");
    assert!((s.objective - 1.0).abs() < 1e-3, "{} {}", s.status, s.objective);
    assert_eq!(fault_of(run(wide(4 * max + 1), settings(BackendKind::Gpu, None))), GpuFault::TextureTooLarge);
    let s = run(wide(max + 1), paper(BackendKind::Hybrid)).expect("hybrid falls back");
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    assert!((s.objective - 1.0).abs() < 1e-7);
    assert!(
        s.notes.iter().any(|n| n.contains("could not be set up") && n.contains("GL_MAX_TEXTURE_SIZE")),
        "{:?}",
        s.notes
    );
}

#[test]
fn a_broken_kernel() {
    let f = Some(FaultInjection::BrokenKernel);
    assert_eq!(fault_of(run(afiro(), settings(BackendKind::Gpu, f))), GpuFault::ShaderFailure);
    let s = run(afiro(), settings(BackendKind::Hybrid, f)).expect("hybrid falls back");
    assert_hybrid_finished_on_cpu(&s, "shader failure");
}

#[test]
fn a_nan_injected_into_a_texture() {
    let f = Some(FaultInjection::NanInTexture);
    let s = run(afiro(), settings(BackendKind::Gpu, f)).expect("a status, not an error");
    assert_eq!(s.status, Status::NumericalFailure, "{}", s.detail);
    assert!(s.detail.contains("NaN/Inf read back"), "{}", s.detail);
    let s = run(afiro(), settings(BackendKind::Hybrid, f)).expect("hybrid falls back");
    assert_hybrid_finished_on_cpu(&s, "switched to the CPU");
    assert_eq!(s.gpu_iterations, Some(0), "no GPU factorization counted");
}

#[test]
fn a_lost_context() {
    let f = Some(FaultInjection::ContextLost);
    // The gpu backend loses its context inside the loop (after the first factorization): it
    // stops with NumericalFailure, naming the fault, and certifies nothing.
    let s = run(afiro(), settings(BackendKind::Gpu, f)).expect("a status, not an error");
    assert_eq!(s.status, Status::NumericalFailure, "{}", s.detail);
    assert!(s.detail.contains("GPU fault (context lost)"), "{}", s.detail);
    assert!(s.detail.contains("injected after a factorization"), "{}", s.detail);
    assert!(s.certificate.is_none());
    let s = run(afiro(), settings(BackendKind::Hybrid, f)).expect("hybrid falls back");
    assert_hybrid_finished_on_cpu(&s, "context was lost");
}

#[test]
fn gpu_results_are_certified_only_by_double_precision_verification() {
    let s = run(afiro(), settings(BackendKind::Gpu, None)).expect("solves");
    let v = s.verification.as_ref().expect("verified");
    match s.status {
        Status::Optimal => assert_eq!(v.accuracy, glsolve::lp::Accuracy::Tolerance, "{}", v.summary()),
        Status::OptimalReducedAccuracy => assert_eq!(v.accuracy, glsolve::lp::Accuracy::Reduced),
        other => panic!("unexpected {other}: {}", s.detail),
    }
    assert!(v.tolerance >= 1e-4, "graded at the gpu backend's ε, {:e}", v.tolerance);
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
