//! `glsolve bench lu|lsq|linsolve`: Cholesky against LU on the GPU (2006 paper Fig. 8, 2008
//! structure paper Fig. 9), weighted least squares (2008 structure paper Tables 1–2) and the
//! mixed-precision general solver (effective GFLOP/s and refinement steps).

use super::cholesky::time_plan;
use super::{secs, Timing};
use crate::cpu::random;
use crate::gl::Gpu;
use crate::gpu::cholesky::{plan, Variant};
use crate::gpu::{lu, GpuResult};
use crate::lsq::{self, LsqSettings};
use crate::refine::{self, RefineSettings};
use std::time::Instant;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LuRow {
    pub m: usize,
    pub cholesky_s: f64,
    pub lu_s: f64,
}

/// Cholesky (the paper's triangle variant) and LU of the same size, in one run.
pub fn lu_vs_cholesky(
    gpu: &Gpu,
    sizes: &[usize],
    reps: usize,
    mut progress: impl FnMut(&str),
) -> GpuResult<Vec<LuRow>> {
    let mut rows = Vec::new();
    for &m in sizes {
        let c: Vec<f32> = random::spd_well_conditioned(m, 3).iter().map(|&v| v as f32).collect();
        let (chol, _) = time_plan(gpu, &c, (m, m), &plan(m as u32, Variant::PAPER), reps)?;
        let a: Vec<f32> = random::uniform(m, m, -1.0, 1.0, 4).iter().map(|&v| v as f32).collect();
        let l = Timing::measure(reps, || {
            lu::factor(gpu, &a, m)?;
            gpu.finish();
            Ok::<(), crate::gpu::GpuError>(())
        })?;
        progress(&format!("m={m}: Cholesky {}, LU {}", secs(chol.median()), secs(l.median())));
        rows.push(LuRow { m, cholesky_s: chol.median(), lu_s: l.median() });
    }
    Ok(rows)
}

pub fn lu_markdown(rows: &[LuRow], renderer: &str) -> String {
    let mut s = format!("Renderer: {renderer}. LU includes its pivot searches (one scalar read back per column) and uploads.\n\n| m | Cholesky (triangle) | LU (partial pivoting) | Cholesky / LU (paper ≈ 0.5) |\n|---|---|---|---|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {:.2} |\n",
            r.m,
            secs(r.cholesky_s),
            secs(r.lu_s),
            r.cholesky_s / r.lu_s
        ));
    }
    s
}

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
            // One untimed run compiles the kernels.
            lsq::solve(gpu, &a, m, n, &d2, &b, &LsqSettings::default())?;
            let s = lsq::solve(gpu, &a, m, n, &d2, &b, &LsqSettings::default())?;
            let err = |x: &[f64]| crate::cpu::dense::relative_frobenius(x, &exact);
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

pub fn lsq_markdown(rows: &[LsqRow], renderer: &str) -> String {
    let mut s =
        format!("Renderer: {renderer}. One run each after a warm-up; CPU = faer f64 (assemble + Cholesky + solve).\n");
    for (ill, title) in [(false, "Table 1 (random)"), (true, "Table 2 (ill-conditioned)")] {
        s.push_str(&format!("\n{title}:\n\n| m | error x⁰_sgl | error refined | steps | method | GPU x⁰_sgl | refine | total | CPU | speed-up |\n|---|---|---|---|---|---|---|---|---|---|\n"));
        for r in rows.iter().filter(|r| r.ill == ill) {
            s.push_str(&format!(
                "| {} | {:.2e} | {:.2e} | {} | {} | {} | {} | {} | {} | {:.3} |\n",
                r.m,
                r.error_single,
                r.error_refined,
                r.iterations,
                r.method,
                secs(r.gpu_single_s),
                secs(r.refine_s),
                secs(r.total_s),
                secs(r.cpu_s),
                r.cpu_s / r.total_s
            ));
        }
    }
    s
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LinsolveRow {
    pub n: usize,
    pub method: String,
    pub iterations: usize,
    pub criterion: f64,
    pub total_s: f64,
    pub gflops: f64,
    pub cpu_f64_s: f64,
}

/// The mixed-precision solver on random systems (and one with κ = 1e9, which must fall back).
pub fn linsolve_table(
    gpu: &Gpu,
    sizes: &[usize],
    mut progress: impl FnMut(&str),
) -> Result<Vec<LinsolveRow>, refine::RefineError> {
    let mut rows = Vec::new();
    let cases: Vec<(usize, Option<f64>)> =
        sizes.iter().map(|&n| (n, None)).chain([(sizes.first().copied().unwrap_or(256), Some(1e9))]).collect();
    for (n, cond) in cases {
        let a = match cond {
            Some(k) => random::general_with_condition(n, k, 5),
            None => random::uniform(n, n, -1.0, 1.0, 5),
        };
        let b = random::uniform(n, 1, -1.0, 1.0, 6);
        refine::linsolve(gpu, &a, n, &b, &RefineSettings::default())?;
        let s = refine::linsolve(gpu, &a, n, &b, &RefineSettings::default())?;
        let t = Instant::now();
        let _ = crate::cpu::dense::solve_general(&a, n, &b);
        let cpu = t.elapsed().as_secs_f64();
        let method = match (&s.method, cond) {
            (refine::Method::Mixed, _) => "mixed".to_string(),
            (refine::Method::DoubleFallback(why), Some(k)) => format!("fallback (κ = {k:e}): {why}"),
            (refine::Method::DoubleFallback(why), None) => format!("fallback: {why}"),
        };
        progress(&format!("n={n}: {method}, {} steps, {:.3} GFLOP/s", s.iterations, s.gflops()));
        rows.push(LinsolveRow {
            n,
            method,
            iterations: s.iterations,
            criterion: s.criterion(),
            total_s: s.total_time.as_secs_f64(),
            gflops: s.gflops(),
            cpu_f64_s: cpu,
        });
    }
    Ok(rows)
}

pub fn linsolve_markdown(rows: &[LinsolveRow], renderer: &str) -> String {
    let mut s = format!("Renderer: {renderer}. One run each after a warm-up.\n\n| n | method | refinement steps | LINPACK criterion | total | effective GFLOP/s | faer f64 LU solve |\n|---|---|---|---|---|---|---|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {:.3} | {} | {:.3} | {} |\n",
            r.n,
            r.method,
            r.iterations,
            r.criterion,
            secs(r.total_s),
            r.gflops,
            secs(r.cpu_f64_s)
        ));
    }
    s
}
