//! Timing entry point for random dense LPs of the papers' family (what `glsolve bench lp` runs).

use glsolve::lp::random::random_lp;
use glsolve::lp::BackendKind;
use glsolve::lp::GpuOptions;
use glsolve::lp::HybridRules;
use glsolve::lp::Settings;
use glsolve::lp::SettingsError;
use glsolve::lp::Status;
use glsolve::Logger;
use glsolve::Variant;
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
    /// GPU backends: bytes read back by a whole solve outside its iterations (the start, and the
    /// best and last iterates downloaded at the end).
    #[serde(default)]
    pub read_back_outside_iterations: Option<f64>,
    /// GPU backends: bytes uploaded per iteration (from the counting run).
    #[serde(default)]
    pub uploaded_per_iteration: Option<f64>,
    /// Iterations factored on the GPU (GPU backends).
    pub gpu_iterations: Option<usize>,
    /// GL passes and fragments per iteration (GPU backends; from a separate counting run).
    pub passes_per_iteration: Option<f64>,
    pub fragments_per_iteration: Option<f64>,
    /// GPU backends: the most bytes of texture storage alive during the counting run.
    #[serde(default)]
    pub texture_bytes_peak: Option<u64>,
    /// GPU backends: textures created after the first iteration of the counting run.
    #[serde(default)]
    pub textures_created_after_first: Option<u64>,
    /// The median solve's objective and the solver's detail (why it stopped, when not plainly).
    #[serde(default)]
    pub objective: f64,
    #[serde(default)]
    pub detail: String,
    /// cpu backend: GFLOP/s of the assembly (2 flops per multiply-add of the lower triangle,
    /// one assembly per iteration plus the starting point's).
    #[serde(default)]
    pub assembly_gflops: Option<f64>,
    /// The machine's measured peak for the same shapes: a faer f64 GEMM (A·D)·(A·D)ᵀ of the full
    /// m×m product, m²n multiply-adds, all threads, median of three (measured in the same run).
    #[serde(default)]
    pub peak_gflops: Option<f64>,
}

impl LpBenchRow {
    /// The median solve's time outside assembly, factorization and the normal equations' solves
    /// (residuals, steps, reductions, standard form, verification).
    pub fn rest(&self) -> Duration {
        self.median.saturating_sub(self.assemble + self.factor + self.solve)
    }
}

/// The settings the random family is timed with: the backend's defaults, the given Cholesky
/// variant (GPU backends), and Figure 4.2's method (the hybrid backend switches by the paper's
/// rules only). Callers pass a quiet [`Logger`].
pub fn settings(backend: BackendKind, variant: Variant) -> Result<Settings, SettingsError> {
    let mut builder = Settings::builder(backend);
    if backend.uses_gl() {
        builder = builder.gpu(GpuOptions { variant, ..GpuOptions::default() });
    }
    if backend == BackendKind::Hybrid {
        builder = builder.hybrid_rules(HybridRules::papers());
    }
    builder.build()
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
    gpu: Option<&glsolve::gl::Gpu>,
) -> Vec<LpBenchRow> {
    if backend.uses_gl() && gpu.is_none() {
        return Vec::new();
    }
    let Ok(settings) = settings(backend, variant) else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    for &m in sizes {
        let model = random_lp(m, seed).to_model(seed);
        let mut runs = Vec::new();
        for rep in 0..=repeats.max(1) {
            let Ok(sol) = glsolve::lp::solve_on(&model, &settings, &mut Logger::quiet(), gpu) else {
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
            let t0 = g.traffic();
            // Textures made by a solve stopped after one iteration, then by the whole solve: the
            // difference is what the iterations after the first created (the same steps, as
            // the solve is deterministic).
            let one = settings.to_builder().max_iterations(1).build();
            let c0 = g.textures_created();
            if let Ok(one) = &one {
                let _ = glsolve::lp::solve_on(&model, one, &mut Logger::quiet(), Some(g));
            }
            let first = g.textures_created() - c0;
            let t1 = g.traffic();
            g.reset_texture_bytes_peak();
            let c1 = g.textures_created();
            let (r, log) = g.logged(glsolve::gl::Measure::FRAGMENTS, |g| {
                glsolve::lp::solve_on(&model, &settings, &mut Logger::quiet(), Some(g))
            });
            let whole = g.textures_created() - c1;
            let t2 = g.traffic();
            let its = r.map(|s| s.iterations.max(1)).unwrap_or(1) as f64;
            let (read, up) =
                (per_iteration(t0, t1, t2, its, |t| t.read_back), per_iteration(t0, t1, t2, its, |t| t.uploaded));
            (
                log.passes() as f64 / its,
                log.fragments() as f64 / its,
                read,
                up,
                g.texture_bytes().1,
                whole.checked_sub(first),
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
            read_back_per_iteration: counts.map(|c| c.2 .0),
            read_back_outside_iterations: counts.map(|c| c.2 .1),
            uploaded_per_iteration: counts.map(|c| c.3 .0),
            texture_bytes_peak: counts.map(|c| c.4),
            textures_created_after_first: counts.and_then(|c| c.5),
            objective: med.objective,
            detail: med.detail.clone(),
            assembly_gflops: (backend == BackendKind::Cpu).then(|| {
                let assemblies = (med.iterations + 1) as f64;
                let multiply_adds = (m * m) as f64 * (4 * m) as f64 / 2.0;
                2.0 * multiply_adds * assemblies / med.timings.mpc.assemble.as_secs_f64().max(1e-9) / 1e9
            }),
            peak_gflops: (backend == BackendKind::Cpu).then(|| gemm_peak_gflops(m, 4 * m)),
        });
    }
    rows
}

/// Notes on the rows whose solve ended other than plainly (the no-progress rule of single
/// precision, a switch, a best iterate), with the objective's relative error against the cpu
/// row of the same m when there is one.
pub fn details(rows: &[LpBenchRow]) -> String {
    let mut s = String::new();
    for r in rows.iter().filter(|r| !r.detail.is_empty()) {
        let cpu = rows.iter().find(|c| c.m == r.m && c.backend == BackendKind::Cpu && c.status == Status::Optimal);
        let err = cpu.map_or(String::new(), |c| {
            format!(
                "; objective {:.10e} against cpu's {:.10e} (relative error {:.1e})",
                r.objective,
                c.objective,
                (r.objective - c.objective).abs() / c.objective.abs().max(1.0)
            )
        });
        s.push_str(&format!(
            "- m = {}, {} ({}): {:?} — {}{err}\n",
            r.m,
            r.backend.name(),
            r.variant.as_deref().unwrap_or("f64"),
            r.status,
            r.detail
        ));
    }
    s
}

/// GFLOP/s of a faer f64 GEMM C = B·Bᵀ with B m×n (the full product: 2m²n flops), all
/// threads, median of three after a warm-up: the machine's peak for the assembly's shapes.
pub fn gemm_peak_gflops(m: usize, n: usize) -> f64 {
    let b = faer::Mat::<f64>::from_fn(m, n, |i, j| ((i * 7 + j * 13) % 17) as f64 / 17.0 - 0.5);
    let mut c = faer::Mat::<f64>::zeros(m, m);
    let mut times = Vec::new();
    for rep in 0..4 {
        let t0 = std::time::Instant::now();
        faer::linalg::matmul::matmul(
            c.as_mut(),
            faer::Accum::Replace,
            b.as_ref(),
            b.transpose(),
            1.0,
            faer::Par::rayon(0),
        );
        if rep > 0 {
            times.push(t0.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    2.0 * (m * m) as f64 * n as f64 / times[times.len() / 2].max(1e-9) / 1e9
}

/// The Markdown of `rows`: one line per solve (time split, iterations, the assembly's GFLOP/s
/// against the GEMM peak on the cpu backend), then the CPU/GPU ratios per size when a GL
/// backend ran.
pub fn markdown(rows: &[LpBenchRow], sizes: &[usize]) -> String {
    let secs = |d: Duration| crate::bench::secs(d.as_secs_f64());
    let mut md = String::from("| m | n | backend | variant | status | iterations (GPU) | median | min | max | assemble | factor | solves | rest | assembly GFLOP/s | GEMM peak GFLOP/s | assembly / peak | passes/iter | fragments/iter | bytes read back/iter |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or("–".to_string(), f);
    for r in rows {
        let its = match r.gpu_iterations {
            Some(g) => format!("{} ({g})", r.iterations),
            None => r.iterations.to_string(),
        };
        let share = r.assembly_gflops.zip(r.peak_gflops).map(|(a, p)| a / p);
        md.push_str(&format!(
            "| {} | {} | {} | {} | {:?} | {its} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.m,
            r.n,
            r.backend.name(),
            r.variant.as_deref().unwrap_or("–"),
            r.status,
            secs(r.median),
            secs(r.min),
            secs(r.max),
            secs(r.assemble),
            secs(r.factor),
            secs(r.solve),
            secs(r.rest()),
            opt(r.assembly_gflops, &|g| format!("{g:.1}")),
            opt(r.peak_gflops, &|g| format!("{g:.1}")),
            opt(share, &|s| format!("{:.0}%", 100.0 * s)),
            opt(r.passes_per_iteration, &|p| format!("{p:.0}")),
            opt(r.fragments_per_iteration, &|f| format!("{f:.3e}")),
            opt(r.read_back_per_iteration, &|b| format!("{b:.0}")),
        ));
    }
    // The 2008 IPM paper's Figure 4.2 (bottom): CPU time over GPU-backed time, per size.
    let time =
        |m: usize, k: &str| rows.iter().find(|r| r.m == m && r.backend.name() == k).map(|r| r.median.as_secs_f64());
    if rows.iter().any(|r| r.backend.uses_gl()) {
        md.push_str("\n| m | cpu / hybrid | cpu / gpu |\n|---|---|---|\n");
        for &m in sizes {
            let ratio = |k| match (time(m, "cpu"), time(m, k)) {
                (Some(c), Some(g)) => format!("{:.3}", c / g),
                _ => "–".into(),
            };
            md.push_str(&format!("| {m} | {} | {} |\n", ratio("hybrid"), ratio("gpu")));
        }
    }
    md
}

/// Bytes moved per iteration, and outside the iterations, from the traffic counters before (t0)
/// and after (t1) a solve stopped after one iteration and after (t2) the whole solve of `its`
/// iterations. Both solves do the same work before the loop and after it (uploading A,
/// downloading the best and last iterates), so their difference is what iterations 2..its moved.
pub fn per_iteration(
    t0: glsolve::gl::Traffic,
    t1: glsolve::gl::Traffic,
    t2: glsolve::gl::Traffic,
    its: f64,
    bytes: impl Fn(glsolve::gl::Traffic) -> u64,
) -> (f64, f64) {
    let one = bytes(t1).saturating_sub(bytes(t0)) as f64;
    let whole = bytes(t2).saturating_sub(bytes(t1)) as f64;
    if its <= 1.0 {
        return (whole, 0.0);
    }
    let per = ((whole - one) / (its - 1.0)).max(0.0);
    (per, (one - per).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::per_iteration;
    use glsolve::gl::Traffic;

    fn t(read_back: u64) -> Traffic {
        Traffic { uploaded: 0, read_back, readbacks: 0 }
    }

    #[test]
    fn per_iteration_removes_the_work_outside_the_loop() {
        // Outside the loop 1000 bytes, each iteration 48: one iteration 1048, twelve 1576.
        let (t0, t1) = (t(500), t(500 + 1048));
        let t2 = t(500 + 1048 + 1576);
        assert_eq!(per_iteration(t0, t1, t2, 12.0, |x| x.read_back), (48.0, 1000.0));
        // A solve of one iteration: everything is that iteration's.
        assert_eq!(per_iteration(t0, t1, t(500 + 1048 + 1048), 1.0, |x| x.read_back), (1048.0, 0.0));
    }
}
