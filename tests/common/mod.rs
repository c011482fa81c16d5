//! One headless GL context per test binary, living on its own thread: tests hand it closures.
//! If no context can be made, every GL test fails with the driver's error (never a silent pass).
//!
//! The context is desktop OpenGL unless `GLSOLVE_TEST_GL=es` asks for OpenGL ES. Each test file
//! that runs GL has one test, [`rerun_on_es`], that runs every other test of the file again in a
//! child process with `GLSOLVE_TEST_GL=es`: so `cargo test` runs the suite on both contexts.
#![allow(dead_code)]

pub mod bounds;
pub mod log;
pub mod matrices;
pub mod paths;

use glsolve::gl::{GlApi, Gpu, HeadlessOptions};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, OnceLock};

type Job = Box<dyn FnOnce(Result<&Gpu, &str>) + Send>;

fn gl_thread() -> &'static Mutex<Sender<Job>> {
    static SENDER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    SENDER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("gl".into())
            .spawn(move || {
                let gpu = headless().map_err(|e| e.to_string());
                for job in rx {
                    match &gpu {
                        Ok(g) => {
                            job(Ok(g));
                            g.stop_observing();
                        }
                        Err(e) => job(Err(e)),
                    }
                }
            })
            .expect("spawn the GL thread");
        Mutex::new(tx)
    })
}

/// The API this process's tests run on: `GLSOLVE_TEST_GL=es` or desktop OpenGL (never `Auto`,
/// so a missing desktop driver fails instead of passing on ES).
pub fn test_gl() -> GlApi {
    match std::env::var("GLSOLVE_TEST_GL").as_deref() {
        Ok("es") => GlApi::Es,
        Ok("desktop") | Err(_) => GlApi::Desktop,
        Ok(other) => panic!("GLSOLVE_TEST_GL={other}: expected `es` or `desktop`"),
    }
}

/// A new headless context of the test API (for tests that need a context of their own).
pub fn headless() -> Result<Gpu, glsolve::gl::GlError> {
    Gpu::headless_with(HeadlessOptions { api: test_gl(), ..Default::default() })
}

/// `kind`'s default settings, with its GPU side (if any) making contexts of the test API.
pub fn gl_settings(kind: glsolve::BackendKind) -> glsolve::Settings {
    gl_builder(kind).build().expect("the defaults with a GL API are valid")
}

/// A builder for `kind` whose GPU side (if any) makes contexts of the test API.
pub fn gl_builder(kind: glsolve::BackendKind) -> glsolve::SettingsBuilder {
    let b = glsolve::Settings::builder(kind);
    match kind {
        glsolve::BackendKind::Cpu => b,
        _ => b.gpu(glsolve::GpuOptions { gl: test_gl(), ..Default::default() }),
    }
}

/// The name of the test that reruns its file on OpenGL ES (see [`rerun_on_es`]).
pub const ES_RERUN: &str = "every_test_of_this_file_passes_on_opengl_es";

/// Runs every other test of this test binary again in a child process on an OpenGL ES context,
/// and fails with the child's output unless each of them passes there. Call it from a test named
/// [`ES_RERUN`]; in the child (already on ES) it does nothing, being filtered out.
pub fn rerun_on_es() {
    assert_eq!(test_gl(), GlApi::Desktop, "the ES rerun runs from the desktop run only");
    let exe = std::env::current_exe().expect("the test binary's path");
    let listed = std::process::Command::new(&exe).args(["--list", "--format", "terse"]).output().expect("list tests");
    let expected = String::from_utf8_lossy(&listed.stdout).lines().filter(|l| l.ends_with(": test")).count() - 1;
    let out = std::process::Command::new(&exe)
        .env("GLSOLVE_TEST_GL", "es")
        .args(["--skip", ES_RERUN])
        .output()
        .expect("run the tests again on OpenGL ES");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let summary = text.lines().find(|l| l.starts_with("test result:")).unwrap_or("no summary");
    let passed: usize =
        summary.split("ok. ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(out.status.success() && passed == expected, "on OpenGL ES ({passed} of {expected} passed):\n{text}");
    println!("on OpenGL ES: {passed} of {expected} tests passed");
}

/// Runs `f` on the shared context and returns its result; a panic inside `f` is re-raised here.
pub fn with_gpu<R: Send + 'static>(f: impl FnOnce(&Gpu) -> R + Send + 'static) -> R {
    let (rtx, rrx) = channel();
    let job: Job = Box::new(move |gpu| {
        let r = match gpu {
            Ok(g) => catch_unwind(AssertUnwindSafe(|| f(g))),
            Err(e) => catch_unwind(|| panic!("no headless GL context: {e}")),
        };
        let _ = rtx.send(r);
    });
    gl_thread().lock().unwrap_or_else(|p| p.into_inner()).send(job).expect("GL thread alive");
    match rrx.recv().expect("GL thread answered") {
        Ok(r) => r,
        Err(p) => resume_unwind(p),
    }
}

/// A small deterministic generator (xorshift) so tests need no seed plumbing.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// Uniform in [-1, 1).
    pub fn f32(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

/// Solves `model` with `st`: on the test binary's shared context for the GL backends, without
/// one for the cpu backend (the settings are valid: a setting error fails the test).
pub fn solve_lp(model: &glsolve::lp::LpModel, st: glsolve::lp::Settings) -> glsolve::lp::Solution {
    use glsolve::lp::{log::Logger, solve, solve_on};
    if !st.backend().uses_gl() {
        return solve(model, &st, &mut Logger::quiet()).expect("valid settings");
    }
    let model = model.clone();
    with_gpu(move |gpu| solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)).expect("valid settings"))
}
