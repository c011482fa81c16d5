//! Two `Gpu`s on one thread: each one's objects live in its own context, whichever was made last.
mod common;
use glsolve::geometry::Primitive;
use glsolve::gl::{Pass, Texture};
use glsolve::kernels;

#[test]
fn two_contexts_on_one_thread_keep_their_own_textures() {
    let a = common::headless().expect("first context");
    let ta = a.upload(3, 1, &[1.0, 2.0, 3.0], "a").unwrap();
    let b = common::headless().expect("second context");
    let tb = b.upload(3, 1, &[7.0, 8.0, 9.0], "b").unwrap();
    assert_eq!(a.read(&ta).unwrap(), vec![1.0, 2.0, 3.0]);
    assert_eq!(b.read(&tb).unwrap(), vec![7.0, 8.0, 9.0]);
    drop(ta);
    assert_eq!(b.read(&tb).unwrap(), vec![7.0, 8.0, 9.0]);
    drop(b);
    let ta2 = a.upload(2, 1, &[4.0, 5.0], "a2").unwrap();
    assert_eq!(a.read(&ta2).unwrap(), vec![4.0, 5.0]);
}

/// The library case: two solvers on the GPU backends, used in turn, each as if alone.
#[test]
fn two_gpu_solvers_on_one_thread_solve_as_if_alone() {
    use glsolve::lp::mps;
    use glsolve::{BackendKind, LpSolver, Status};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netlib");
    let afiro = mps::read_file(&dir.join("afiro.mps")).unwrap();
    let blend = mps::read_file(&dir.join("blend.mps")).unwrap();
    // Published optima (NETLIB's list).
    let (afiro_opt, blend_opt): (f64, f64) = (-464.75314286, -30.812149846);
    let quiet = common::gl_settings;
    let mut first = LpSolver::new(quiet(BackendKind::Gpu));
    let mut second = LpSolver::new(quiet(BackendKind::Hybrid));
    for _ in 0..2 {
        let a = first.solve(&afiro).unwrap();
        let b = second.solve(&blend).unwrap();
        assert_eq!(a.status, Status::Optimal, "afiro on the first solver: {:?}", a.detail);
        assert_eq!(b.status, Status::Optimal, "blend on the second solver: {:?}", b.detail);
        assert!((a.objective - afiro_opt).abs() <= 1e-3 * afiro_opt.abs(), "afiro {}", a.objective);
        assert!((b.objective - blend_opt).abs() <= 1e-6 * blend_opt.abs(), "blend {}", b.objective);
    }
}

/// A texture of one context handed to another is a typed error, never another object's data.
#[test]
fn a_texture_of_another_context_is_refused() {
    use glsolve::gl::GlError;
    let a = common::headless().expect("first context");
    let b = common::headless().expect("second context");
    let ta = a.upload(2, 1, &[1.0, 2.0], "a").unwrap();
    let _tb = b.upload(2, 1, &[3.0, 4.0], "b").unwrap();
    match b.read(&ta) {
        Err(GlError::ForeignTexture { what, .. }) => assert_eq!(what, "a readback"),
        other => panic!("expected ForeignTexture, got {other:?}"),
    }
    match b.write(&ta, &[5.0, 6.0]) {
        Err(GlError::ForeignTexture { what, .. }) => assert_eq!(what, "a texture write"),
        other => panic!("expected ForeignTexture, got {other:?}"),
    }
    // A pass on `b` whose source or target belongs to `a`.
    let tb2 = b.texture(2, 1, "b2").unwrap();
    match b.run(&copy(&tb2, &[&ta])) {
        Err(GlError::ForeignTexture { what, .. }) => assert_eq!(what, "pass copy"),
        other => panic!("expected ForeignTexture, got {other:?}"),
    }
    match b.run(&copy(&ta, &[&tb2])) {
        Err(GlError::ForeignTexture { what, .. }) => assert_eq!(what, "pass copy"),
        other => panic!("expected ForeignTexture, got {other:?}"),
    }
    assert_eq!(a.read(&ta).unwrap(), vec![1.0, 2.0]);
}

fn copy<'a>(target: &'a Texture, sources: &'a [&'a Texture]) -> Pass<'a> {
    Pass::new("copy", &kernels::COPY, target, sources, Primitive::full(2, 1))
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
