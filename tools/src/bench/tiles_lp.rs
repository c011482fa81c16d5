//! The LP part of `glsolve bench tiles`: the gpu and hybrid backends on the random dense family
//! (n = 4m, the papers' Figure 4.2 family) with the blocked kernels and with the register tiles,
//! interleaved round by round in one run: total time, iterations and time per iteration.

use glsolve::lp::random::random_lp;
use glsolve::lp::BackendKind;
use glsolve::Gpu;
use glsolve::Logger;
use glsolve::Variant;

/// One (backend, variant) at one m.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LpRow {
    pub m: usize,
    pub n: usize,
    pub seed: u64,
    pub backend: BackendKind,
    pub variant: String,
    pub status: String,
    pub iterations: usize,
    /// Iterations whose normal equations ran on the GPU.
    pub gpu_iterations: Option<usize>,
    /// Whole solves (standard form and verification included), seconds.
    pub runs: Vec<f64>,
    /// The median solve's time: the middle run, the slower of the two middle ones for an even
    /// count (so that its phases below are one real solve's).
    pub median_s: f64,
    /// The median solve's loop phases, seconds.
    pub assemble_s: f64,
    pub factor_s: f64,
    pub solve_s: f64,
    pub objective: f64,
}

impl LpRow {
    /// The median solve over its iterations.
    pub fn per_iteration_s(&self) -> f64 {
        self.median_s / self.iterations.max(1) as f64
    }
}

/// Every (backend, variant) case on the member (m, seed) of each size, `reps` rounds after a
/// warm-up round at the first size (shader compilation), each round running every case once.
pub fn run(
    gpu: &Gpu,
    sizes: &[usize],
    cases: &[(BackendKind, Variant)],
    reps: usize,
    seed: u64,
    progress: &dyn Fn(&str),
) -> Result<Vec<LpRow>, String> {
    let mut rows = Vec::new();
    for (i, &m) in sizes.iter().enumerate() {
        let model = random_lp(m, seed).to_model(seed);
        let mut solutions: Vec<Vec<glsolve::lp::Solution>> = cases.iter().map(|_| Vec::new()).collect();
        let warm_up = usize::from(i == 0);
        for round in 0..warm_up + reps.max(1) {
            for (k, &(backend, variant)) in cases.iter().enumerate() {
                let st = super::lp::settings(backend, variant).map_err(|e| e.to_string())?;
                let sol =
                    glsolve::lp::solve_on(&model, &st, &mut Logger::quiet(), Some(gpu)).map_err(|e| e.to_string())?;
                progress(&format!(
                    "LP m={m} {} {variant}: {} in {:.2} s ({} iterations)",
                    backend.name(),
                    sol.status.name(),
                    sol.timings.total.as_secs_f64(),
                    sol.iterations
                ));
                if round >= warm_up {
                    solutions[k].push(sol);
                }
            }
        }
        for (&(backend, variant), mut sols) in cases.iter().zip(solutions) {
            let runs: Vec<f64> = sols.iter().map(|s| s.timings.total.as_secs_f64()).collect();
            sols.sort_by_key(|s| s.timings.total);
            let med = &sols[sols.len() / 2];
            rows.push(LpRow {
                m,
                n: 4 * m,
                seed,
                backend,
                variant: variant.name().into(),
                status: med.status.name().into(),
                iterations: med.iterations,
                gpu_iterations: med.gpu_iterations,
                runs,
                median_s: med.timings.total.as_secs_f64(),
                assemble_s: med.timings.mpc.assemble.as_secs_f64(),
                factor_s: med.timings.mpc.factor.as_secs_f64(),
                solve_s: med.timings.mpc.solve.as_secs_f64(),
                objective: med.objective,
            });
        }
    }
    Ok(rows)
}
