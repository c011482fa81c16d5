//! Timing entry point for random dense LPs of the papers' family (what `glsolve bench lp` runs).

use crate::gpu::cholesky::Variant;
use crate::lp::log::Logger;
use crate::lp::random::random_lp;
use crate::lp::settings::{BackendKind, Settings, Verbosity};
use crate::lp::status::Status;
use std::time::Duration;

/// One measured solve.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LpBenchRow {
    pub m: usize,
    pub n: usize,
    pub seed: u64,
    pub backend: BackendKind,
    pub status: Status,
    pub iterations: usize,
    /// Median wall time of the solve over the repetitions (standard form included).
    pub median: Duration,
    pub min: Duration,
    pub max: Duration,
    /// Median share of the loop spent assembling A·D²·Aᵀ, factoring it and solving with it.
    pub assemble: Duration,
    pub factor: Duration,
    #[serde(default)]
    pub solve: Duration,
    /// GPU backends: the Cholesky variant of the normal equations.
    #[serde(default)]
    pub variant: Option<String>,
    /// GPU backends: bytes read back from the GPU per iteration (from the counting run).
    #[serde(default)]
    pub read_back_per_iteration: Option<f64>,
    /// GPU backends: bytes uploaded per iteration (from the counting run).
    #[serde(default)]
    pub uploaded_per_iteration: Option<f64>,
    /// Iterations factored on the GPU (GPU backends).
    pub gpu_iterations: Option<usize>,
    /// GL passes and fragments per iteration (GPU backends; from a separate counting run).
    pub passes_per_iteration: Option<f64>,
    pub fragments_per_iteration: Option<f64>,
}

impl LpBenchRow {
    /// The median solve's time outside assembly, factorization and the normal equations' solves
    /// (residuals, steps, reductions, standard form, verification).
    pub fn rest(&self) -> Duration {
        self.median.saturating_sub(self.assemble + self.factor + self.solve)
    }
}

/// Solves the member (m, seed) of the random family `repeats` times (after one warm-up) for each
/// m in `sizes`, and reports median, min and max times.
/// GPU backends run on `gpu` (one context for every run, so shader compilation stays in the
/// warm-up); without one they are skipped. Tolerance: [`Settings::default_tolerance`].
pub fn random_lp_times(
    sizes: &[usize],
    seed: u64,
    backend: BackendKind,
    variant: Variant,
    repeats: usize,
    gpu: Option<&crate::gl::Gpu>,
) -> Vec<LpBenchRow> {
    if backend.uses_gl() && gpu.is_none() {
        return Vec::new();
    }
    let settings = Settings {
        backend,
        tolerance: Settings::default_tolerance(backend),
        verbosity: Verbosity::Quiet,
        gpu_variant: variant,
        ..Settings::default()
    };
    let mut rows = Vec::new();
    for &m in sizes {
        let model = random_lp(m, seed).to_model(seed);
        let mut runs = Vec::new();
        for rep in 0..=repeats.max(1) {
            let Ok(sol) = crate::lp::solve_on(&model, &settings, &mut Logger::quiet(), gpu) else {
                continue;
            };
            if rep > 0 {
                runs.push(sol);
            }
        }
        if runs.is_empty() {
            continue;
        }
        runs.sort_by_key(|s| s.timings.total);
        let med = &runs[runs.len() / 2];
        // One more, untimed run counts the passes and fragments (occlusion queries synchronize).
        let counts = gpu.filter(|_| backend.uses_gl()).map(|g| {
            let before = g.traffic();
            let (r, log) = g.logged(crate::gl::Measure::FRAGMENTS, |g| {
                crate::lp::solve_on(&model, &settings, &mut Logger::quiet(), Some(g))
            });
            let after = g.traffic();
            let its = r.map(|s| s.iterations.max(1)).unwrap_or(1) as f64;
            (
                log.passes() as f64 / its,
                log.fragments() as f64 / its,
                (after.read_back - before.read_back) as f64 / its,
                (after.uploaded - before.uploaded) as f64 / its,
            )
        });
        rows.push(LpBenchRow {
            m,
            n: 4 * m,
            seed,
            backend,
            status: med.status,
            iterations: med.iterations,
            median: med.timings.total,
            min: runs[0].timings.total,
            max: runs[runs.len() - 1].timings.total,
            assemble: med.timings.mpc.assemble,
            factor: med.timings.mpc.factor,
            solve: med.timings.mpc.solve,
            variant: backend.uses_gl().then(|| variant.name().to_string()),
            gpu_iterations: med.gpu_iterations,
            passes_per_iteration: counts.map(|c| c.0),
            fragments_per_iteration: counts.map(|c| c.1),
            read_back_per_iteration: counts.map(|c| c.2),
            uploaded_per_iteration: counts.map(|c| c.3),
        });
    }
    rows
}
