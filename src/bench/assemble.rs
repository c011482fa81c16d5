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
use std::time::Instant;

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

/// Times the assembly in full and packed format interleaved (a warm-up of each, then `reps`
/// rounds of one run each), so that the packed/full ratio is measured under the same conditions;
/// then counts the fragments of the full assembly and reads its C back.
fn time_assemblies(
    gpu: &Gpu,
    ops: &Operands,
    reps: usize,
) -> crate::gpu::GpuResult<(Timing, Timing, crate::gl::PassLog, Vec<f32>)> {
    let mut full_c = c_textures(gpu, ops.m, Format::Full)?;
    let mut packed_c = c_textures(gpu, ops.m, Format::Packed)?;
    let once = |c: &mut crate::gl::PingPong, format: Format| -> crate::gpu::GpuResult<f64> {
        gpu.finish();
        let t = Instant::now();
        assemble_into(gpu, ops, c, format)?;
        gpu.finish();
        Ok(t.elapsed().as_secs_f64())
    };
    once(&mut full_c, Format::Full)?;
    once(&mut packed_c, Format::Packed)?;
    let (mut full, mut packed) = (Timing { runs: Vec::new() }, Timing { runs: Vec::new() });
    for _ in 0..reps.max(1) {
        full.runs.push(once(&mut full_c, Format::Full)?);
        packed.runs.push(once(&mut packed_c, Format::Packed)?);
    }
    let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| assemble_into(gpu, ops, &mut full_c, Format::Full));
    r?;
    let lower = read_lower(gpu, full_c.source(), ops.m, Format::Full)?;
    Ok((full, packed, log, lower))
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
        let (full, packed, log, c) = time_assemblies(gpu, &ops, reps)?;
        progress(&format!("m={m} n={n} assembly full: {}, packed: {}", secs(full.median()), secs(packed.median())));
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
        let mut s = format!(
            "Renderer: {}; median of {} runs after a warm-up, full and packed interleaved run by run.\n\n",
            self.renderer, self.reps
        );
        s.push_str("| m | n | full | spread | packed | spread | packed/full (paper ≈ 1.01) | passes | fragments | faer f64 (A·D²·Aᵀ) | GL full / faer | factor (GL, triangle) | form/factor (2006 Fig. 10) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {} | {:.0}% | {} | {:.0}% | {:.3} | {} | {} | {} | {:.1} | {} | {:.2} |\n",
                r.m,
                r.n,
                secs(r.full_s),
                100.0 * r.full_spread,
                secs(r.packed_s),
                100.0 * r.packed_spread,
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
