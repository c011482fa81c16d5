//! `glsolve bench dialects`: the same kernels on every context and fetch this driver offers —
//! desktop OpenGL with rectangle textures (the papers' `texRECT`), desktop and OpenGL ES with
//! 2D textures fetched by `texelFetch` or by normalized `texture()` — timed interleaved in one
//! run, each result compared with the desktop rectangle one's.

use super::cholesky::{time_interleaved, PlanRunner};
use super::{secs, Timing};
use glsolve::fixtures::random;
use glsolve::gl::{GlResult, HeadlessOptions, PingPong, TexelFormat};
use glsolve::gpu::blocked::assemble::{assemble_into, BlockedOperands};
use glsolve::gpu::cholesky::plan;
use glsolve::gpu::plan::PlannedPass;
use glsolve::machine::Fetch;
use glsolve::machine::GlApi;
use glsolve::Block;
use glsolve::Blocks2x2;
use glsolve::Gpu;
use glsolve::Variant;
use std::time::Instant;

/// The contexts compared: (API, fetch).
pub const CONTEXTS: [(GlApi, Fetch); 5] = [
    (GlApi::Desktop, Fetch::Rectangle),
    (GlApi::Desktop, Fetch::TexelFetch),
    (GlApi::Desktop, Fetch::Normalized),
    (GlApi::Es, Fetch::TexelFetch),
    (GlApi::Es, Fetch::Normalized),
];

/// One case on one context.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct DialectRow {
    pub case: String,
    pub api: String,
    pub fetch: String,
    pub median_s: f64,
    pub spread: f64,
    pub reps: usize,
    /// Median time over the desktop rectangle context's, same case, same run.
    pub ratio: f64,
    /// Largest |difference| of the result from the desktop rectangle context's.
    pub max_abs_difference: f64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct DialectBench {
    pub renderer: String,
    pub rows: Vec<DialectRow>,
}

/// The blocked assembly of A·D²·Aᵀ (b = n: one accumulating pass) as a repeatable run.
struct Assembly {
    ops: BlockedOperands,
    c: PingPong,
    layout: Blocks2x2,
}

impl Assembly {
    fn new(gpu: &Gpu, a: &[f32], d: &[f32], m: usize, n: usize) -> GlResult<Self> {
        let layout = Block::B16.layout(m);
        let ops = BlockedOperands::new(gpu, a, m, n, layout.padded_rows).map_err(gl_error)?;
        ops.set_d2(gpu, d).map_err(gl_error)?;
        let (w, h) = layout.texture_size();
        let tex = || gpu.texture_of(TexelFormat::Rgba32F, w, h, "C (2×2 blocks)");
        Ok(Self { ops, c: PingPong::new(tex()?, tex()?), layout })
    }
    fn time_once(&mut self, gpu: &Gpu) -> GlResult<f64> {
        gpu.finish();
        let t = Instant::now();
        assemble_into(gpu, &self.ops, &mut self.c, &self.layout, usize::MAX).map_err(gl_error)?;
        gpu.finish();
        Ok(t.elapsed().as_secs_f64())
    }
}

fn gl_error(e: glsolve::gpu::GpuError) -> glsolve::gl::GlError {
    match e {
        glsolve::gpu::GpuError::Gl(g) => g,
        other => glsolve::gl::GlError::Driver { call: other.to_string(), code: 0 },
    }
}

/// Times the triangle-pair and blocked-16 Cholesky of order `m` and the blocked assembly of an
/// m × 4m A on every context of [`CONTEXTS`] the driver can make, `reps` interleaved rounds.
pub fn run(m: usize, reps: usize, mut progress: impl FnMut(&str)) -> GlResult<DialectBench> {
    let mut gpus = Vec::new();
    for (api, fetch) in CONTEXTS {
        let opts = HeadlessOptions { api, fetch: Some(fetch), ..Default::default() };
        gpus.push((api, fetch, Gpu::headless_with(opts)?));
    }
    let c = random::spd_well_conditioned(m, 42);
    let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
    let paper: Vec<PlannedPass> = plan(m as u32, Variant::PAPER);
    let blocked: Vec<PlannedPass> = plan(m as u32, Variant::Blocked(Block::B16));
    let n = 4 * m;
    let a: Vec<f32> = random::uniform(m, n, 0.0, 1.0, 7).iter().map(|&x| x as f32).collect();
    let d: Vec<f32> = random::uniform(n, 1, 0.5, 1.5, 8).iter().map(|&x| x as f32).collect();
    let cases = [
        format!("Cholesky triangle-pair, m = {m}"),
        format!("Cholesky blocked-16, m = {m}"),
        format!("assembly blocked (b = n), m = {m}, n = {n}"),
    ];
    let mut chol = Vec::new();
    let mut asm = Vec::new();
    for (_, _, gpu) in &gpus {
        chol.push(PlanRunner::new(gpu, &c32, (m, m), &paper)?);
        chol.push(PlanRunner::blocked(gpu, &c32, m, Block::B16, &blocked)?);
        asm.push(Assembly::new(gpu, &a, &d, m, n)?);
    }
    // Warm-up of each, then rounds in which every case on every context runs once.
    let mut chol_t = time_interleaved(&mut chol, 0)?;
    chol_t.iter_mut().for_each(|t| t.runs.clear());
    let mut asm_t: Vec<Timing> = asm.iter().map(|_| Timing { runs: Vec::new() }).collect();
    for (x, (_, _, gpu)) in asm.iter_mut().zip(&gpus) {
        x.time_once(gpu)?;
    }
    for round in 0..reps.max(1) {
        for (k, (_, _, gpu)) in gpus.iter().enumerate() {
            chol_t[2 * k].runs.push(chol[2 * k].time_once()?);
            chol_t[2 * k + 1].runs.push(chol[2 * k + 1].time_once()?);
            asm_t[k].runs.push(asm[k].time_once(gpu)?);
        }
        progress(&format!("round {} of {}", round + 1, reps.max(1)));
    }
    let mut results: Vec<[Vec<f32>; 3]> = Vec::new();
    for (k, (_, _, gpu)) in gpus.iter().enumerate() {
        results.push([chol[2 * k].result()?, chol[2 * k + 1].result()?, gpu.read(asm[k].c.source())?]);
    }
    let mut rows = Vec::new();
    for (case_index, case) in cases.iter().enumerate() {
        let timing = |k: usize| match case_index {
            0 => &chol_t[2 * k],
            1 => &chol_t[2 * k + 1],
            _ => &asm_t[k],
        };
        let base = timing(0).median();
        for (k, (api, fetch, _)) in gpus.iter().enumerate() {
            let t = timing(k);
            let diff = results[k][case_index]
                .iter()
                .zip(&results[0][case_index])
                .map(|(p, q)| (p - q).abs() as f64)
                .fold(0.0, f64::max);
            let row = DialectRow {
                case: case.clone(),
                api: api.name().into(),
                fetch: fetch.name().into(),
                median_s: t.median(),
                spread: t.spread(),
                reps: t.runs.len(),
                ratio: t.median() / base,
                max_abs_difference: diff,
            };
            progress(&format!("{case} on {} / {}: {} ({:.2}×)", row.api, row.fetch, secs(row.median_s), row.ratio));
            rows.push(row);
        }
    }
    Ok(DialectBench { renderer: gpus[0].2.info().renderer.clone(), rows })
}

impl DialectBench {
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "Every case on every context of **{}**, timed interleaved in one run (median of the stated runs, after a warm-up); ratio = median / the desktop rectangle-texture median of the same case; Δ = largest |difference| of the result from that context's.\n\n| case | API | fetch | median | spread | runs | ratio | Δ |\n|---|---|---|---|---|---|---|---|\n",
            self.renderer
        );
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {} | {} | ±{:.0}% | {} | {:.2} | {:.1e} |\n",
                r.case,
                r.api,
                r.fetch,
                secs(r.median_s),
                100.0 * r.spread,
                r.reps,
                r.ratio,
                r.max_abs_difference
            ));
        }
        s
    }
}
