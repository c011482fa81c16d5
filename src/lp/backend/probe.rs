//! What an iteration of the normal equations costs here: the CPU's rate (measured once per
//! process) and, for the `auto` backend, one context's time against the CPU's on the same
//! problem (measured once per device and process).
//!
//! An interior-point iteration's work is the normal equations': forming A·D²·Aᵀ (m²n
//! multiply-adds counted as flops, the lower half's) and factoring it (m³/3); the vectors are
//! O(mn). Both probes time exactly that, through the backends' own code.

use super::{BackendError, CpuNormal, CpuVectors, GpuNormal, NormalEquations};
use crate::clock::Instant;
use crate::gl::Gpu;
use crate::gpu::TexturePool;
use crate::lp::settings::GpuOptions;
use faer::Mat;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The size of the CPU's rate probe: small enough to take milliseconds, large enough that
/// faer's blocked kernels run at speed.
const RATE_M: usize = 256;
const RATE_N: usize = 1024;

/// The size the `auto` backend's device probe times: the smallest problem it sends to a probe
/// ([`crate::lp::auto::AUTO_MIN_ROWS`] rows, n = 4m as in the papers' family). A GPU's
/// advantage grows with the size, so a problem at least this large does at least as well.
pub const PROBE_M: usize = 512;
pub const PROBE_N: usize = 4 * PROBE_M;

/// The dense normal equations' work of one iteration, in flops.
pub fn iteration_flops(m: usize, n: usize) -> f64 {
    let (m, n) = (m as f64, n as f64);
    m * m * n + m * m * m / 3.0
}

/// A deterministic, well-conditioned dense A (entries in [−1, 1) by a fixed recurrence) and
/// D² = 1: the probes measure speed, so any full-rank data will do.
fn probe_matrix(m: usize, n: usize) -> Mat<f64> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    Mat::from_fn(m, n, |_, _| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    })
}

/// Seconds of one CPU iteration (assembly, factorization, one solve) at m × n, the fastest of
/// `reps` after a settling one.
fn time_cpu(a: &Mat<f64>, reps: usize) -> Result<f64, BackendError> {
    let (m, n) = (a.nrows(), a.ncols());
    let d2 = vec![1.0; n];
    let r = vec![1.0; m];
    let mut ne = CpuNormal::new(m, n);
    let mut best = f64::INFINITY;
    for rep in 0..=reps {
        let t = Instant::now();
        ne.assemble_from(a.as_ref(), &d2)?;
        ne.factor_assembled()?;
        ne.solve_host(&r)?;
        if rep > 0 {
            best = best.min(t.elapsed().as_secs_f64());
        }
    }
    Ok(best)
}

/// Seconds of one iteration of the cpu backend's own normal equations at m × n (with its
/// reduced-precision products where `mixed_precision` asks for them, as the cpu backend builds
/// them), the fastest of `reps` after a settling one.
fn time_cpu_backend(a: &Mat<f64>, mixed_precision: bool, reps: usize) -> Result<f64, BackendError> {
    let (m, n) = (a.nrows(), a.ncols());
    let mut vk = CpuVectors::new(a.as_ref(), &[]);
    let mut ne = CpuNormal::new(m, n).with_mixed_precision(mixed_precision, &vk);
    let d2 = vec![1.0; n];
    let r = vec![1.0; m];
    let mut best = f64::INFINITY;
    for rep in 0..=reps {
        let t = Instant::now();
        ne.assemble(&mut vk, &d2)?;
        ne.factor(&mut vk)?;
        ne.solve(&mut vk, &r)?;
        if rep > 0 {
            best = best.min(t.elapsed().as_secs_f64());
        }
    }
    Ok(best)
}

/// The rate of the hybrid backend's CPU side (dense f64 normal equations), in flops per second
/// (measured on the first call, kept for the process).
pub fn cpu_rate() -> f64 {
    static RATE: OnceLock<f64> = OnceLock::new();
    *RATE.get_or_init(|| {
        let a = probe_matrix(RATE_M, RATE_N);
        match time_cpu(&a, 2) {
            Ok(t) if t > 0.0 => iteration_flops(RATE_M, RATE_N) / t,
            // A probe that cannot run says nothing: a rate this high makes every CPU estimate
            // tiny, so the cost rule (the only reader) keeps the GPU only while it is fast.
            _ => 1e12,
        }
    })
}

/// What an iteration of the hybrid backend's CPU side (dense f64) costs on an m × n standard
/// form: the dense work at [`cpu_rate`].
pub fn cpu_iteration_estimate(m: usize, n: usize) -> Duration {
    Duration::try_from_secs_f64(iteration_flops(m, n) / cpu_rate()).unwrap_or(Duration::MAX)
}

/// One context's iteration against the CPU's, on the same [`PROBE_M`] × [`PROBE_N`] problem.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeviceProbe {
    /// Seconds of the GPU's normal equations (the hybrid backend's GPU side).
    pub gpu_seconds: f64,
    /// Seconds of the cpu backend's.
    pub cpu_seconds: f64,
}

/// Times [`PROBE_M`] × [`PROBE_N`] normal equations on `gpu` (the hybrid backend's GPU side
/// with `options`) and on the CPU (the cpu backend's, with its reduced-precision products where
/// `mixed_precision` asks for them), the faster of two after a settling run each; kept per
/// device (vendor, renderer, version) and options for the process.
pub fn probe_device(gpu: &Gpu, options: &GpuOptions, mixed_precision: bool) -> Result<DeviceProbe, BackendError> {
    static CACHE: OnceLock<Mutex<HashMap<String, DeviceProbe>>> = OnceLock::new();
    let info = gpu.info();
    let key = format!(
        "{} | {} | {} | {} | {:?} | {mixed_precision}",
        info.vendor,
        info.renderer,
        info.version,
        options.variant.name(),
        options.substitution
    );
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(p) = cache.lock().ok().and_then(|c| c.get(&key).copied()) {
        return Ok(p);
    }
    let a = probe_matrix(PROBE_M, PROBE_N);
    let d2 = vec![1.0; PROBE_N];
    let r = vec![1.0; PROBE_M];
    let mut normal = GpuNormal::new(gpu, a.as_ref(), options, TexturePool::new())?;
    let mut gpu_seconds = f64::INFINITY;
    for rep in 0..3 {
        let t = Instant::now();
        normal.set_d2_host(&d2)?;
        normal.assemble_set()?;
        normal.factor_assembled()?;
        normal.solve_host(&r)?;
        if rep > 0 {
            gpu_seconds = gpu_seconds.min(t.elapsed().as_secs_f64());
        }
    }
    let probe = DeviceProbe { gpu_seconds, cpu_seconds: time_cpu_backend(&a, mixed_precision, 2)? };
    if let Ok(mut c) = cache.lock() {
        c.insert(key, probe);
    }
    Ok(probe)
}
