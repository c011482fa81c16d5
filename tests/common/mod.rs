//! One headless GL context per test binary, living on its own thread: tests hand it closures.
//! If no context can be made, every GL test fails with the driver's error (never a silent pass).
#![allow(dead_code)]

pub mod bounds;
pub mod log;
pub mod matrices;

use glsolve::gl::Gpu;
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
                let gpu = Gpu::headless().map_err(|e| e.to_string());
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
