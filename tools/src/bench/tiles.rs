//! `glsolve bench tiles`: the register-tile kernels against the blocked ones and against faer in
//! single precision on the same CPU, in one run, interleaved round by round — the assembly
//! A·D²·Aᵀ (lower triangle, m²n flops) and the Cholesky (m³/3 flops) in GFLOP/s, with fetches
//! per multiply-add, passes and fragments (measured against the plans' formulas) and each
//! result's error against double precision; then the LP's GPU backends before and after
//! ([`super::tiles_lp`]).

use super::Timing;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, Par, Side};
use glsolve::fixtures::random;
use glsolve::gl::{GlResult, Measure, PingPong, TexelFormat, Texture};
use glsolve::gpu::blocked::assemble::{self as blocked_assemble, BlockedOperands};
use glsolve::gpu::cholesky::plan;
use glsolve::gpu::plan::PlannedPass;
use glsolve::gpu::plan_runner::PlanRunner;
use glsolve::gpu::tiled::{self, assemble as tiled_assemble, TilePlan, FACTOR_TILE};
use glsolve::layout::{TileShape, Tiles};
use glsolve::Block;
use glsolve::Blocks2x2;
use glsolve::Gpu;
use glsolve::Variant;
use std::time::Instant;

/// One kernel (or faer) at one size: its runs, GFLOP/s and accounting.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct KernelRow {
    /// "assembly" or "Cholesky".
    pub operation: String,
    pub variant: String,
    pub m: usize,
    /// Columns of A (the assembly; 0 for the Cholesky).
    pub n: usize,
    pub runs: Vec<f64>,
    pub median_s: f64,
    /// The operation's flops (m²n or m³/3) over the median.
    pub gflops: f64,
    /// Texture fetches per multiply-add of the dominant kernel (none for faer).
    pub fetches_per_madd: Option<f64>,
    pub passes: Option<u64>,
    pub fragments: Option<u64>,
    /// The fragments the plans' formulas predict (equal to `fragments` where counted).
    pub predicted_fragments: Option<u64>,
    /// Assembly: the largest |Ĉ − C|/(|A|D²|A|ᵀ) over the lower triangle; Cholesky: the
    /// relative backward error ‖C − L̂L̂ᵀ‖_F/‖C‖_F; against double precision.
    pub error: f64,
}

/// Flops the report counts: m²n for the assembly of the lower triangle (m(m+1)/2·n
/// multiply-adds, two flops each, rounded to m²n), m³/3 for the Cholesky.
pub fn flops(operation: &str, m: usize, n: usize) -> f64 {
    let m = m as f64;
    if operation == "assembly" {
        m * m * n as f64
    } else {
        m * m * m / 3.0
    }
}

fn row(operation: &str, variant: String, (m, n): (usize, usize), t: &Timing) -> KernelRow {
    let median_s = t.median();
    KernelRow {
        operation: operation.into(),
        variant,
        m,
        n,
        runs: t.runs.clone(),
        median_s,
        gflops: flops(operation, m, n) / median_s / 1e9,
        fetches_per_madd: None,
        passes: None,
        fragments: None,
        predicted_fragments: None,
        error: f64::NAN,
    }
}

/// The assemblies compared: the blocked one (2×2 blocks, one pass) and the tiled ones.
enum Assembly {
    Blocked { ops: BlockedOperands, c: PingPong, layout: Blocks2x2 },
    Tiled { ops: BlockedOperands, c: Vec<PingPong>, wide: Option<Vec<Texture>>, layout: Tiles },
}

impl Assembly {
    fn run(&mut self, gpu: &Gpu) -> glsolve::gpu::GpuResult<()> {
        match self {
            Assembly::Blocked { ops, c, layout } => blocked_assemble::assemble_into(gpu, ops, c, layout, usize::MAX),
            Assembly::Tiled { ops, c, wide, layout } => {
                tiled_assemble::assemble_into(gpu, ops, c, wide.as_deref(), layout, usize::MAX)
            }
        }
    }
    /// C read back, row-major m×m (the lower triangle is what is compared).
    fn result(&self, gpu: &Gpu) -> glsolve::gpu::GpuResult<Vec<f32>> {
        Ok(match self {
            Assembly::Blocked { c, layout, .. } => layout.unpack(&gpu.read(c.source())?),
            Assembly::Tiled { c, layout, .. } => {
                layout.unpack(&c.iter().map(|p| gpu.read(p.source())).collect::<Result<Vec<_>, _>>()?)
            }
        })
    }
}

fn gpu_err(e: glsolve::gpu::GpuError) -> String {
    e.to_string()
}

/// The assembly rows at (m, n): blocked (2×2), tiled 4×4 and, where the context has eight draw
/// buffers, 8×4; faer's f32 triangular product beside them.
pub fn assembly(gpu: &Gpu, m: usize, n: usize, reps: usize, progress: &dyn Fn(&str)) -> Result<Vec<KernelRow>, String> {
    let a: Vec<f32> = random::uniform(m, n, -1.0, 1.0, 7).iter().map(|&x| x as f32).collect();
    let d: Vec<f32> = random::uniform(n, 1, 0.5, 1.5, 8).iter().map(|&x| x as f32).collect();
    let mut cases: Vec<(String, f64, Assembly)> = Vec::new();
    let layout = Block::B16.layout(m);
    let ops = BlockedOperands::new(gpu, &a, m, n, layout.padded_rows).map_err(gpu_err)?;
    ops.set_d2(gpu, &d).map_err(gpu_err)?;
    let (w, h) = layout.texture_size();
    let tex = || gpu.texture_of(TexelFormat::Rgba32F, w, h, "C (2×2 blocks)").map_err(|e| e.to_string());
    let c = PingPong::new(tex()?, tex()?);
    cases.push(("blocked (2×2)".into(), 0.25, Assembly::Blocked { ops, c, layout }));
    let mut shapes = vec![TileShape::T4X4];
    if TilePlan::for_context(gpu.info(), Block::B16, true).map(|p| p.assembly) == Ok(TileShape::T8X4) {
        shapes.push(TileShape::T8X4);
    }
    for shape in shapes {
        let plan = TilePlan { assembly: shape, block: Block::B16 };
        let layout = plan.layout(m);
        let ops = BlockedOperands::new(gpu, &a, m, n, layout.padded).map_err(gpu_err)?;
        ops.set_d2(gpu, &d).map_err(gpu_err)?;
        let planes = |k, size| tiled::cholesky::planes(gpu, k, size, "C (tiles)").map_err(gpu_err);
        let c = planes(4, layout.plane_size())?
            .into_iter()
            .zip(planes(4, layout.plane_size())?)
            .map(|(s, t)| PingPong::new(s, t))
            .collect();
        let wide = match shape.planes() > 4 {
            true => Some(planes(8, Tiles { shape, ..layout }.plane_size())?),
            false => None,
        };
        let fetches = tiled_assemble::fetches_per_madd(shape);
        cases.push((format!("tiled {}", shape.name()), fetches, Assembly::Tiled { ops, c, wide, layout }));
    }
    let bm = Mat::<f32>::from_fn(m, n, |i, k| a[i * n + k] * d[k]);
    let am = Mat::<f32>::from_fn(m, n, |i, k| a[i * n + k]);
    let mut cpu = Mat::<f32>::zeros(m, m);
    let mut faer_product = || {
        triangular::matmul(
            cpu.as_mut(),
            BlockStructure::TriangularLower,
            Accum::Replace,
            bm.as_ref(),
            BlockStructure::Rectangular,
            am.transpose(),
            BlockStructure::Rectangular,
            1.0f32,
            Par::rayon(0),
        )
    };
    let mut timings: Vec<Timing> = (0..=cases.len()).map(|_| Timing { runs: Vec::new() }).collect();
    for round in 0..=reps.max(1) {
        for (k, (_, _, case)) in cases.iter_mut().enumerate() {
            gpu.finish();
            let t = Instant::now();
            case.run(gpu).map_err(gpu_err)?;
            gpu.finish();
            if round > 0 {
                timings[k].runs.push(t.elapsed().as_secs_f64());
            }
        }
        let t = Instant::now();
        faer_product();
        if round > 0 {
            timings[cases.len()].runs.push(t.elapsed().as_secs_f64());
        }
    }
    let (exact, scale) = reference_assembly(&a, &d, m, n);
    let error = |c: &[f32]| {
        let mut worst = 0.0f64;
        for i in 0..m {
            for j in 0..=i {
                let e = (c[i * m + j] as f64 - exact[i * m + j]).abs() / scale[i * m + j].max(f64::MIN_POSITIVE);
                worst = worst.max(e);
            }
        }
        worst
    };
    let mut rows = Vec::new();
    for ((name, fetches, case), t) in cases.iter_mut().zip(&timings) {
        let (r, log) = gpu.logged(Measure::FRAGMENTS, |g| case.run(g));
        r.map_err(gpu_err)?;
        let sums = ["assemble_blocks", "assemble_tiles"].iter().map(|k| log.fragments_of(k)).sum::<u64>();
        let predicted = match case {
            Assembly::Blocked { layout, .. } => {
                let mb = (layout.padded_rows / 2) as u64;
                mb * (mb + 1) / 2
            }
            Assembly::Tiled { layout, wide, .. } => {
                let shape = if wide.is_some() { TileShape::T8X4 } else { TileShape::T4X4 };
                tiled_assemble::fragments(n, usize::MAX, layout, shape).0
            }
        };
        let mut r = row("assembly", name.clone(), (m, n), t);
        r.fetches_per_madd = Some(*fetches);
        r.passes = Some(log.passes());
        r.fragments = Some(sums);
        r.predicted_fragments = Some(predicted);
        r.error = error(&case.result(gpu).map_err(gpu_err)?);
        progress(&format!("assembly m={m} n={n} {}: {:.1} GFLOP/s", r.variant, r.gflops));
        rows.push(r);
    }
    let mut r = row("assembly", "faer f32 (CPU)".into(), (m, n), &timings[cases.len()]);
    faer_product();
    let c: Vec<f32> = (0..m * m).map(|p| cpu[(p / m, p % m)]).collect();
    r.error = error(&c);
    progress(&format!("assembly m={m} n={n} faer f32: {:.1} GFLOP/s", r.gflops));
    rows.push(r);
    Ok(rows)
}

/// A·D²·Aᵀ and |A|D²|A|ᵀ in f64 (row-major m×m).
fn reference_assembly(a: &[f32], d: &[f32], m: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
    let am = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64);
    let bm = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64 * d[k] as f64);
    let c = &bm * am.transpose();
    let absa = Mat::from_fn(m, n, |i, k| (a[i * n + k] as f64).abs());
    let absb = Mat::from_fn(m, n, |i, k| (a[i * n + k] as f64 * d[k] as f64).abs());
    let s = &absb * absa.transpose();
    ((0..m * m).map(|p| c[(p / m, p % m)]).collect(), (0..m * m).map(|p| s[(p / m, p % m)]).collect())
}

/// The Cholesky rows at m for `variants` (blocked and tiled), faer's f32 Cholesky beside them.
pub fn cholesky(
    gpu: &Gpu,
    m: usize,
    variants: &[Variant],
    reps: usize,
    progress: &dyn Fn(&str),
) -> Result<Vec<KernelRow>, String> {
    let c = random::spd_well_conditioned(m, 42);
    let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
    let plans: Vec<Vec<PlannedPass>> = variants.iter().map(|&v| plan(m as u32, v)).collect();
    let tiles = |b: Block| Tiles::square(m, b.size(), FACTOR_TILE);
    let mut runners = variants
        .iter()
        .zip(&plans)
        .map(|(v, passes)| match *v {
            Variant::Blocked(b) => PlanRunner::blocked(gpu, &c32, m, b, passes),
            Variant::Tiled(b) => PlanRunner::tiled(gpu, &c32, tiles(b), b, passes),
            v => Err(glsolve::gl::GlError::Format { pass: v.name().into(), detail: "not a blocked variant".into() }),
        })
        .collect::<GlResult<Vec<_>>>()
        .map_err(|e| e.to_string())?;
    let cm = Mat::<f32>::from_fn(m, m, |i, j| c32[i * m + j]);
    let mut timings: Vec<Timing> = (0..=variants.len()).map(|_| Timing { runs: Vec::new() }).collect();
    for round in 0..=reps.max(1) {
        for (k, r) in runners.iter_mut().enumerate() {
            let t = r.time_once().map_err(|e| e.to_string())?;
            if round > 0 {
                timings[k].runs.push(t);
            }
        }
        let t = Instant::now();
        let f = cm.llt(Side::Lower).map_err(|_| "faer: not positive definite".to_string())?;
        if round > 0 {
            timings[variants.len()].runs.push(t.elapsed().as_secs_f64());
        }
        std::hint::black_box(f);
    }
    let mut rows = Vec::new();
    for ((v, runner), t) in variants.iter().zip(&mut runners).zip(&timings) {
        let log = runner.count().map_err(|e| e.to_string())?;
        let (fetches, predicted, l) = match *v {
            Variant::Blocked(b) => {
                let kinds = glsolve::gpu::blocked::cholesky::fragments(m, b);
                let layout = b.layout(m);
                let l = layout.unpack(&gpu.read(&runner.aux()[0]).map_err(|e| e.to_string())?);
                (super::cholesky::fetches_per_madd(*v), kinds.iter().map(|k| k.1).sum::<u64>(), l)
            }
            Variant::Tiled(b) => {
                let layout = tiles(b);
                let kinds = tiled::cholesky::fragments(layout.padded, b);
                let planes = runner.aux()[..4].iter().map(|p| gpu.read(p)).collect::<Result<Vec<_>, _>>();
                let l = layout.unpack(&planes.map_err(|e| e.to_string())?);
                (tiled::cholesky::update_fetches_per_madd(b), kinds.iter().map(|k| k.1).sum::<u64>(), l)
            }
            _ => unreachable!("only blocked variants have runners"),
        };
        let mut r = row("Cholesky", v.name().into(), (m, 0), t);
        r.fetches_per_madd = Some(fetches);
        r.passes = Some(log.passes());
        // The factorization's own passes (the runner's restores are not in the count).
        r.fragments = Some(log.fragments());
        r.predicted_fragments = Some(predicted);
        r.error = backward_error(&c, &l, m);
        progress(&format!("Cholesky m={m} {}: {:.1} GFLOP/s", r.variant, r.gflops));
        rows.push(r);
    }
    let mut r = row("Cholesky", "faer f32 (CPU)".into(), (m, 0), &timings[variants.len()]);
    let f = cm.llt(Side::Lower).map_err(|_| "faer: not positive definite".to_string())?;
    let l = f.L();
    r.error = backward_error(&c, &(0..m * m).map(|p| l[(p / m, p % m)]).collect::<Vec<_>>(), m);
    progress(&format!("Cholesky m={m} faer f32: {:.1} GFLOP/s", r.gflops));
    rows.push(r);
    Ok(rows)
}

/// ‖C − L̂L̂ᵀ‖_F/‖C‖_F in f64, L̂ the lower triangle of `l` (row-major m×m).
fn backward_error(c: &[f64], l: &[f32], m: usize) -> f64 {
    let lm = Mat::from_fn(m, m, |i, j| if j <= i { l[i * m + j] as f64 } else { 0.0 });
    let cm = Mat::from_fn(m, m, |i, j| c[i * m + j]);
    let r = &cm - &lm * lm.transpose();
    r.norm_l2() / cm.norm_l2()
}
