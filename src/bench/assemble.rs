//! `glsolve bench assemble`: A·D²·Aᵀ in full and packed format against faer, and the 2006
//! paper's Figure 10 question — time to form C against time to factor it, for n = 2m.

use super::cholesky::time_plan;
use super::{secs, Timing};
use crate::cpu::random;
use crate::gl::{Gpu, Measure};
use crate::gpu::assemble::{assemble_into, c_textures, read_lower, Operands};
use crate::gpu::cholesky::{plan, Variant};
use crate::layout::Format;
use faer::Mat;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AssembleRow {
    pub m: usize,
    pub n: usize,
    pub full_s: f64,
    pub full_spread: f64,
    pub packed_s: f64,
    pub packed_spread: f64,
    pub passes: u64,
    pub fragments: u64,
    pub faer_s: f64,
    /// The paper's Cholesky (triangle-pair, full format) of the assembled C.
    pub factor_s: f64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AssembleBench {
    pub renderer: String,
    pub reps: usize,
    pub rows: Vec<AssembleRow>,
}

fn time_assembly(
    gpu: &Gpu,
    ops: &Operands,
    format: Format,
    reps: usize,
) -> crate::gpu::GpuResult<(Timing, crate::gl::PassLog, Vec<f32>)> {
    let mut c = c_textures(gpu, ops.m, format)?;
    let timing = Timing::measure(reps, || {
        assemble_into(gpu, ops, &mut c, format)?;
        gpu.finish();
        Ok::<(), crate::gpu::GpuError>(())
    })?;
    let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| assemble_into(gpu, ops, &mut c, format));
    r?;
    let lower = read_lower(gpu, c.source(), ops.m, format)?;
    Ok((timing, log, lower))
}

/// Runs the benchmark for each m with n = `ratio`·m.
pub fn run(
    gpu: &Gpu,
    sizes: &[usize],
    ratio: usize,
    reps: usize,
    mut progress: impl FnMut(&str),
) -> crate::gpu::GpuResult<AssembleBench> {
    let mut rows = Vec::new();
    for &m in sizes {
        let n = ratio * m;
        let a: Vec<f32> = random::uniform(m, n, 0.0, 1.0, 7).iter().map(|&x| x as f32).collect();
        let d: Vec<f32> = random::uniform(n, 1, 0.5, 1.5, 8).iter().map(|&x| x as f32).collect();
        let ops = Operands::new(gpu, &a, m, n)?;
        ops.set_d2(gpu, &d)?;
        let (full, log, c) = time_assembly(gpu, &ops, Format::Full, reps)?;
        progress(&format!("m={m} n={n} assembly full: {}", secs(full.median())));
        let (packed, _, _) = time_assembly(gpu, &ops, Format::Packed, reps)?;
        progress(&format!("m={m} n={n} assembly packed: {}", secs(packed.median())));
        let am = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64);
        let bm = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64 * d[k] as f64);
        let faer = Timing::measure(reps, || {
            let c = &bm * am.transpose();
            std::hint::black_box(c);
            Ok::<(), ()>(())
        })
        .unwrap_or(Timing { runs: vec![f64::NAN] });
        let (factor, _) = time_plan(gpu, &c, (m, m), &plan(m as u32, Variant::PAPER), reps)?;
        progress(&format!("m={m} n={n} faer {}, factor {}", secs(faer.median()), secs(factor.median())));
        rows.push(AssembleRow {
            m,
            n,
            full_s: full.median(),
            full_spread: full.spread(),
            packed_s: packed.median(),
            packed_spread: packed.spread(),
            passes: log.passes(),
            fragments: log.fragments(),
            faer_s: faer.median(),
            factor_s: factor.median(),
        });
    }
    Ok(AssembleBench { renderer: gpu.info().renderer.clone(), reps, rows })
}

impl AssembleBench {
    pub fn markdown(&self) -> String {
        let mut s = format!("Renderer: {}; median of {} runs after a warm-up.\n\n", self.renderer, self.reps);
        s.push_str("| m | n | full | packed | packed/full (paper ≈ 1.01) | passes | fragments | faer f64 (A·D²·Aᵀ) | GL full / faer | factor (GL, triangle) | form/factor (2006 Fig. 10) |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.3} | {} | {} | {} | {:.1} | {} | {:.2} |\n",
                r.m,
                r.n,
                secs(r.full_s),
                secs(r.packed_s),
                r.packed_s / r.full_s,
                r.passes,
                r.fragments,
                secs(r.faer_s),
                r.full_s / r.faer_s,
                secs(r.factor_s),
                r.full_s / r.factor_s
            ));
        }
        s
    }
}
