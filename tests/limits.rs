//! Limits before work: a problem the GPU cannot hold is a typed error before anything is read,
//! built or uploaded. Once a 16385-row LP on the gpu backend was refused only after 53 s of
//! allocation, and `linsolve` took n = 16385 (half an hour of factorization before its last
//! texture failed). Here: no texture is created, and the refusal comes well within a second (a
//! generous bound on what is a size comparison; the 16385² matrices are zeroed lazily by the
//! allocator and never read).

mod common;
use common::with_gpu;
use glsolve::gl::GlError;
use glsolve::gpu::GpuError;
use glsolve::lp::backend::{BackendError, GpuFault};
use glsolve::lp::log::Logger;
use glsolve::lp::{solve_on, BackendKind, LpModel, Settings, SolveError, SparseColMatrix};
use glsolve::{linsolve, Cholesky, DenseError};
use nalgebra::{DMatrix, DVector};
use std::time::{Duration, Instant};

const N: usize = 16385;

fn too_large(e: &DenseError) -> bool {
    matches!(e, DenseError::Gpu(GpuError::Gl(GlError::TextureTooLarge { max, .. })) if (*max as usize) < N)
}

#[test]
fn linsolve_and_cholesky_refuse_an_order_past_the_texture_limit_at_once() {
    let (a, b) = (DMatrix::<f64>::zeros(N, N), DVector::<f64>::zeros(N));
    let (e, f, created, took) = with_gpu(move |g| {
        let before = g.textures_created();
        let t0 = Instant::now();
        let e = linsolve(g, &a, &b).expect_err("n = 16385 is past the limit");
        let f = Cholesky::new(g, &a).expect_err("so is m = 16385");
        (e, f, g.textures_created() - before, t0.elapsed())
    });
    assert!(too_large(&e), "{e}");
    assert!(too_large(&f), "{f}");
    assert_eq!(created, 0, "a texture was made before the refusal");
    println!("refused in {took:?}");
    assert!(took < Duration::from_secs(1), "{took:?}");
}

/// 16385 rows xᵢ + xᵢ₊₁ ≥ 1, minimize Σ x: sparse, built in microseconds.
fn tall_model() -> LpModel {
    let t: Vec<(usize, usize, f64)> = (0..N).flat_map(|i| [(i, i, 1.0), (i, i + 1, 1.0)]).collect();
    let a = SparseColMatrix::from_triplets(N, N + 1, &t).expect("valid triplets");
    LpModel::builder(a).minimize(vec![1.0; N + 1]).rows_at_least(vec![1.0; N]).build().expect("valid")
}

#[test]
fn a_gpu_lp_past_the_texture_limit_is_refused_before_anything_is_built() {
    let model = tall_model();
    let (r, created, took) = with_gpu(move |g| {
        let st = Settings::for_backend(BackendKind::Gpu);
        let before = g.textures_created();
        let t0 = Instant::now();
        let r = solve_on(&model, &st, &mut Logger::quiet(), Some(g));
        (r.map(|s| s.status), g.textures_created() - before, t0.elapsed())
    });
    match r {
        Err(SolveError::Backend(BackendError::Gpu { kind: GpuFault::TextureTooLarge, detail })) => {
            assert!(detail.contains("GL_MAX_TEXTURE_SIZE"), "{detail}")
        }
        other => panic!("expected a texture-too-large error, got {other:?}"),
    }
    assert_eq!(created, 0, "a texture was made before the refusal");
    println!("refused in {took:?}");
    assert!(took < Duration::from_secs(1), "{took:?}");
}
