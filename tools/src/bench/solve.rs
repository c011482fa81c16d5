//! `glsolve bench solve`: forward + back substitution on the GPU against reading the factor back
//! and substituting on the CPU (2008 IPM paper Figure 4.1), in one run.

use super::{secs, Timing};
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::cholesky::factor_with;
use glsolve::gpu::substitute::{solve, solve_on_cpu, CpuPrecision};
use glsolve::gpu::{GpuResult, Vector};
use glsolve::Format;
use glsolve::Gpu;
use glsolve::Variant;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SolveRow {
    pub m: usize,
    pub format: String,
    /// GPU substitution including reading x back.
    pub gpu_s: f64,
    pub gpu_passes: u64,
    /// Reading L back and substituting in single precision on the CPU.
    pub readback_cpu_f32_s: f64,
    /// Reading L back and substituting in double precision on the CPU.
    pub readback_cpu_f64_s: f64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SolveBench {
    pub renderer: String,
    pub reps: usize,
    pub rows: Vec<SolveRow>,
}

pub fn run(gpu: &Gpu, sizes: &[usize], reps: usize, mut progress: impl FnMut(&str)) -> GpuResult<SolveBench> {
    let mut rows = Vec::new();
    for &m in sizes {
        let c: Vec<f32> = random::spd_well_conditioned(m, 5).iter().map(|&x| x as f32).collect();
        let b: Vec<f64> = random::uniform(m, 1, -1.0, 1.0, 6);
        let b32: Vec<f32> = b.iter().map(|&x| x as f32).collect();
        for format in [Format::Full, Format::Packed] {
            let f = factor_with(gpu, &c, m, Variant::PAPER, format)?;
            let gb = Vector::from_slice(gpu, &b32, "b")?;
            let g = Timing::measure(reps, || solve(gpu, &f, &gb)?.read(gpu).map(|_| ()))?;
            let (_, log) = gpu.logged(Measure::FRAGMENTS, |gpu| solve(gpu, &f, &gb).map(|_| ()));
            let c32 = Timing::measure(reps, || solve_on_cpu(gpu, &f, &b, CpuPrecision::Single).map(|_| ()))?;
            let c64 = Timing::measure(reps, || solve_on_cpu(gpu, &f, &b, CpuPrecision::Double).map(|_| ()))?;
            let row = SolveRow {
                m,
                format: format.name().into(),
                gpu_s: g.median(),
                gpu_passes: log.passes(),
                readback_cpu_f32_s: c32.median(),
                readback_cpu_f64_s: c64.median(),
            };
            progress(&format!(
                "m={m} {}: GPU {}, read-back + CPU f64 {}",
                row.format,
                secs(row.gpu_s),
                secs(row.readback_cpu_f64_s)
            ));
            rows.push(row);
        }
    }
    Ok(SolveBench { renderer: gpu.info().renderer.clone(), reps, rows })
}

impl SolveBench {
    pub fn markdown(&self) -> String {
        let mut s = format!("Renderer: {}; median of {} runs after a warm-up.\n\n", self.renderer, self.reps);
        s.push_str("| m | format | GPU substitution | passes | read-back + CPU f32 | read-back + CPU f64 | GPU / (read-back + CPU f64) |\n|---|---|---|---|---|---|---|\n");
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {:.2} |\n",
                r.m,
                r.format,
                secs(r.gpu_s),
                r.gpu_passes,
                secs(r.readback_cpu_f32_s),
                secs(r.readback_cpu_f64_s),
                r.gpu_s / r.readback_cpu_f64_s
            ));
        }
        s
    }
}
