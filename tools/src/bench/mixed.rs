//! `glsolve bench lsq`: weighted least squares (2008 structure paper Tables 1–2). The LU and
//! mixed-precision general solver benchmarks are in [`super::lu`] and [`super::linsolve`].

use super::secs;
use glsolve::fixtures::random;
use glsolve::lsq;
use glsolve::Gpu;
use glsolve::LeastSquaresSettings as LsqSettings;
use std::time::Instant;

pub use super::linsolve::LinsolveRow;
pub use super::lu::LuRow;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LsqRow {
    pub m: usize,
    pub ill: bool,
    pub error_single: f64,
    pub error_refined: f64,
    pub iterations: usize,
    pub method: String,
    pub gpu_single_s: f64,
    pub refine_s: f64,
    pub total_s: f64,
    pub cpu_s: f64,
    /// The same normal-equations solve on the CPU in single precision (faer f32): what the
    /// GPU's single-precision stage competes with.
    #[serde(default)]
    pub cpu_f32_s: f64,
}

/// The 2008 structure paper's Tables 1 (random) and 2 (ill-conditioned), n = 2m.
pub fn lsq_tables(gpu: &Gpu, sizes: &[usize], mut progress: impl FnMut(&str)) -> Result<Vec<LsqRow>, lsq::LsqError> {
    let mut rows = Vec::new();
    for ill in [false, true] {
        for &m in sizes {
            let n = 2 * m;
            let a = random::uniform(m, n, 0.0, 1.0, 1);
            let d2: Vec<f64> = if ill {
                (0..n).map(|i| 10f64.powf(-4.0 + 8.0 * i as f64 / (n as f64 - 1.0))).collect()
            } else {
                random::uniform(n, 1, 0.0, 1.0, 2)
            };
            let b = random::uniform(n, 1, 0.0, 1.0, 3);
            let t = Instant::now();
            let exact = lsq::solve_cpu(&a, m, n, &d2, &b)?;
            let cpu_s = t.elapsed().as_secs_f64();
            let cpu_f32_s = cpu_f32_time(&a, m, n, &d2, &b);
            // One untimed run compiles the kernels.
            lsq::solve(gpu, &a, m, n, &d2, &b, &LsqSettings::default())?;
            let s = lsq::solve(gpu, &a, m, n, &d2, &b, &LsqSettings::default())?;
            let err = |x: &[f64]| glsolve::cpu::rowmajor::relative_frobenius(x, &exact);
            let row = LsqRow {
                m,
                ill,
                error_single: err(&s.x_single),
                error_refined: err(&s.x),
                iterations: s.iterations,
                method: format!("{:?}", s.method),
                gpu_single_s: s.single_time.as_secs_f64(),
                refine_s: s.refine_time.as_secs_f64(),
                total_s: s.total_time.as_secs_f64(),
                cpu_s,
                cpu_f32_s,
            };
            progress(&format!(
                "m={m} ill={ill}: error {:.2e} → {:.2e} in {} steps, {:.2} s",
                row.error_single, row.error_refined, row.iterations, row.total_s
            ));
            rows.push(row);
        }
    }
    Ok(rows)
}

/// Seconds of A·D²·Aᵀ (faer's product), its Cholesky and the solve for A·D²·b, all in f32.
fn cpu_f32_time(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64]) -> f64 {
    use faer::{linalg::solvers::Solve, Mat, Side};
    let t = Instant::now();
    let ad = Mat::<f32>::from_fn(m, n, |i, j| (a[i * n + j] * d2[j]) as f32);
    let am = Mat::<f32>::from_fn(m, n, |i, j| a[i * n + j] as f32);
    let c = &ad * am.transpose();
    let rhs = Mat::<f32>::from_fn(m, 1, |i, _| (0..n).map(|j| ad[(i, j)] * b[j] as f32).sum());
    let x = c.llt(Side::Lower).map(|f| f.solve(&rhs));
    std::hint::black_box(&x);
    t.elapsed().as_secs_f64()
}

pub fn lsq_markdown(rows: &[LsqRow], renderer: &str) -> String {
    let mut s =
        format!("Renderer: {renderer}. One run each after a warm-up; CPU = faer f64 (assemble + Cholesky + solve), CPU f32 = the same in single precision (faer f32, no refinement).\n");
    for (ill, title) in [(false, "Table 1 (random)"), (true, "Table 2 (ill-conditioned)")] {
        s.push_str(&format!("\n{title}:\n\n| m | error x⁰_sgl | error refined | steps | method | GPU x⁰_sgl | CPU f32 x⁰_sgl | refine | total | CPU | speed-up |\n|---|---|---|---|---|---|---|---|---|---|---|\n"));
        for r in rows.iter().filter(|r| r.ill == ill) {
            s.push_str(&format!(
                "| {} | {:.2e} | {:.2e} | {} | {} | {} | {} | {} | {} | {} | {:.3} |\n",
                r.m,
                r.error_single,
                r.error_refined,
                r.iterations,
                r.method,
                secs(r.gpu_single_s),
                secs(r.cpu_f32_s),
                secs(r.refine_s),
                secs(r.total_s),
                secs(r.cpu_s),
                r.cpu_s / r.total_s
            ));
        }
    }
    s
}
