//! `glsolve bench cholesky`: every variant against faer, with passes, fragments and the floor.

use super::floor::FloorModel;
use super::{secs, Timing};
use faer::{Mat, Side};
use glsolve::fixtures::random;
use glsolve::gl::{GlResult, PassLog};
use glsolve::gpu::cholesky::{plan, plan_packed};
use glsolve::gpu::plan::PlannedPass;
pub(crate) use glsolve::gpu::plan_runner::PlanRunner;
use glsolve::kernels;
use glsolve::layout::Packed;
use glsolve::Domain;
use glsolve::Format;
use glsolve::Gpu;
use glsolve::IndexSource;
use glsolve::Variant;

/// One variant at one size.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct VariantRow {
    pub m: usize,
    pub variant: String,
    pub median_s: f64,
    pub spread: f64,
    pub passes: u64,
    pub fragments: u64,
    pub fragments_per_s: f64,
    /// The fragment-cost floor (see [`FloorModel`]); `None` for the inner form, whose
    /// per-fragment cost grows with k, and for the blocked variants.
    pub floor_s: Option<f64>,
    /// Texture fetches per multiply-add of the variant's update kernel (its dominant cost).
    #[serde(default)]
    pub fetches_per_madd: f64,
    /// Timed runs after the warm-up (the median is over these).
    #[serde(default)]
    pub reps: usize,
}

/// Texture fetches per multiply-add of a variant's update kernel: the papers' outer update reads
/// its own value, the neighbour and the pivot for one multiply-add; the inner form two operands
/// per multiply-add of its loop; the blocked update its own block once and two 2×2 blocks per
/// eight multiply-adds, B/2 times.
pub fn fetches_per_madd(v: Variant) -> f64 {
    match v {
        Variant::Outer { .. } => 3.0,
        Variant::Inner => 2.0,
        Variant::Blocked(b) => {
            let nb = (b.size() / 2) as f64;
            (1.0 + 2.0 * nb) / (8.0 * nb)
        }
        Variant::Tiled(b) => glsolve::gpu::tiled::cholesky::update_fetches_per_madd(b),
    }
}

/// The CPU references at one size.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CpuRow {
    pub m: usize,
    pub faer_f64_s: f64,
    pub faer_f32_s: f64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CholeskyBench {
    pub renderer: String,
    pub reps: usize,
    pub rows: Vec<VariantRow>,
    pub cpu: Vec<CpuRow>,
    pub floor_model: FloorModel,
}

/// Times `passes` (one warm-up, then `reps` runs) on a fresh copy of `data` each run, then
/// counts fragments in one more run.
pub(crate) fn time_plan(
    gpu: &Gpu,
    data: &[f32],
    size: (usize, usize),
    passes: &[PlannedPass],
    reps: usize,
) -> GlResult<(Timing, PassLog)> {
    let mut runner = PlanRunner::new(gpu, data, size, passes)?;
    let timing = time_interleaved(std::slice::from_mut(&mut runner), reps)?.remove(0);
    Ok((timing, runner.count()?))
}

/// Times several runners interleaved: a warm-up of each, then `reps` rounds in which each runs
/// once, so that a slow spell of a shared machine falls on every case alike and the ratios
/// between cases stay meaningful.
pub(crate) fn time_interleaved(runners: &mut [PlanRunner<'_>], reps: usize) -> GlResult<Vec<Timing>> {
    let mut timings: Vec<Timing> = runners.iter().map(|_| Timing { runs: Vec::new() }).collect();
    for r in runners.iter_mut() {
        r.time_once()?;
    }
    for _ in 0..reps.max(1) {
        for (r, t) in runners.iter_mut().zip(&mut timings) {
            t.runs.push(r.time_once()?);
        }
    }
    Ok(timings)
}

fn time_cpu<T: faer::traits::RealField + Copy>(c: &[f64], m: usize, reps: usize, conv: impl Fn(f64) -> T) -> f64 {
    let a = Mat::from_fn(m, m, |i, j| conv(c[i * m + j]));
    let t = Timing::measure(reps, || a.llt(Side::Lower).map(|_| ())).expect("SPD matrix");
    t.median()
}

/// Runs the benchmark for each size and variant; `progress` gets one line per measurement.
pub fn run(
    gpu: &Gpu,
    sizes: &[usize],
    variants: &[Variant],
    packed: bool,
    reps: usize,
    mut progress: impl FnMut(&str),
) -> GlResult<CholeskyBench> {
    let floor_kernels: Vec<(&'static glsolve::gl::Kernel, &'static [&'static str])> = vec![
        (&kernels::SQRT, &[]),
        (&kernels::COPY, &[]),
        (&kernels::NORMALIZE, &[]),
        (&kernels::OUTER_UPDATE, &[]),
        (&kernels::OUTER_UPDATE, &["TRIAD"]),
        (&kernels::OUTER_UPDATE, &["COMPUTED_INDEX"]),
    ];
    let side = sizes.iter().copied().max().unwrap_or(1024).min(gpu.info().max_side() as usize);
    let floor_model = FloorModel::measure(gpu, &floor_kernels, side, reps.max(3))?;
    let mut rows = Vec::new();
    let mut cpu = Vec::new();
    for &m in sizes {
        let c = random::spd_well_conditioned(m, 42);
        let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
        let mut cases: Vec<(String, Format, Variant)> =
            variants.iter().map(|&v| (v.name().to_string(), Format::Full, v)).collect();
        if packed {
            cases.push((format!("packed {}", Variant::PAPER), Format::Packed, Variant::PAPER));
        }
        let plans: Vec<(Format, Vec<PlannedPass>)> = cases
            .iter()
            .map(|(_, format, v)| match format {
                Format::Full => (Format::Full, plan(m as u32, *v)),
                Format::Packed => (Format::Packed, plan_packed(m as u32)),
            })
            .collect();
        let packed_data = Packed::new(m).pack(&c32);
        let mut runners = plans
            .iter()
            .zip(&cases)
            .map(|((format, passes), (_, _, v))| match v {
                Variant::Blocked(block) => PlanRunner::blocked(gpu, &c32, m, *block, passes),
                Variant::Tiled(block) => PlanRunner::tiled(
                    gpu,
                    &c32,
                    glsolve::layout::Tiles::square(m, block.size(), glsolve::gpu::tiled::FACTOR_TILE),
                    *block,
                    passes,
                ),
                _ => {
                    let data = if *format == Format::Packed { &packed_data } else { &c32 };
                    PlanRunner::new(gpu, data, format.texture_size(m), passes)
                }
            })
            .collect::<GlResult<Vec<_>>>()?;
        let timings = time_interleaved(&mut runners, reps)?;
        for (((name, _, v), runner), timing) in cases.iter().zip(&mut runners).zip(timings) {
            let log = runner.count()?;
            let row = VariantRow {
                m,
                variant: name.clone(),
                median_s: timing.median(),
                spread: timing.spread(),
                passes: log.passes(),
                fragments: log.fragments(),
                fragments_per_s: log.fragments() as f64 / timing.median(),
                // The inner form's and the blocked kernels' per-fragment work varies with the
                // fragment's place, so no one per-fragment cost makes a floor for them.
                floor_s: if *v == Variant::Inner || !v.is_paper() { None } else { floor_model.floor(&log) },
                fetches_per_madd: fetches_per_madd(*v),
                reps: timing.runs.len(),
            };
            progress(&format!(
                "m={m} {}: {} ({} passes, {} fragments)",
                row.variant,
                secs(row.median_s),
                row.passes,
                row.fragments
            ));
            rows.push(row);
        }
        let row =
            CpuRow { m, faer_f64_s: time_cpu(&c, m, reps, |x| x), faer_f32_s: time_cpu(&c, m, reps, |x| x as f32) };
        progress(&format!("m={m} faer: f64 {}, f32 {}", secs(row.faer_f64_s), secs(row.faer_f32_s)));
        cpu.push(row);
    }
    Ok(CholeskyBench { renderer: gpu.info().renderer.clone(), reps, rows, cpu, floor_model })
}

impl CholeskyBench {
    fn time(&self, m: usize, v: Variant) -> Option<f64> {
        self.time_named(m, v.name())
    }
    fn time_named(&self, m: usize, name: &str) -> Option<f64> {
        self.rows.iter().find(|r| r.m == m && r.variant == name).map(|r| r.median_s)
    }

    /// The results as Markdown: one table of variants, one of the paper's ratios.
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "Renderer: {}; median of the runs each row states, after a warm-up, the variants of one size interleaved run by run.\n\n",
            self.renderer
        );
        s.push_str("| m | variant | median | runs | spread | passes | fragments | fragments/s | floor | time/floor |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for r in &self.rows {
            let (floor, ratio) = match r.floor_s {
                Some(f) => (secs(f), format!("{:.2}", r.median_s / f)),
                None => ("–".into(), "–".into()),
            };
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.0}% | {} | {} | {:.3e} | {} | {} |\n",
                r.m,
                r.variant,
                secs(r.median_s),
                r.reps,
                r.spread * 100.0,
                r.passes,
                r.fragments,
                r.fragments_per_s,
                floor,
                ratio
            ));
        }
        s.push_str("\n| m | faer f64 | faer f32 | triangle/square (paper ≈ 0.5) | swizzled/computed (paper 1/1.35 ≈ 0.74) | pair/triad (paper ≈ 1) | inner/square (Fig. 7) | inner/triangle | packed/full (paper ≈ 1.01) | GL triangle / faer f64 | GL triangle / faer f32 |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        let tri = Variant::PAPER;
        let sq = Variant::Outer { domain: Domain::Square, index: IndexSource::Pair };
        let comp = Variant::Outer { domain: Domain::Triangle, index: IndexSource::Computed };
        let triad = Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad };
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "–".into(),
        };
        for c in &self.cpu {
            let m = c.m;
            s.push_str(&format!(
                "| {m} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                secs(c.faer_f64_s),
                secs(c.faer_f32_s),
                ratio(self.time(m, tri), self.time(m, sq)),
                ratio(self.time(m, tri), self.time(m, comp)),
                ratio(self.time(m, tri), self.time(m, triad)),
                ratio(self.time(m, Variant::Inner), self.time(m, sq)),
                ratio(self.time(m, Variant::Inner), self.time(m, tri)),
                ratio(self.time_named(m, &format!("packed {tri}")), self.time(m, tri)),
                ratio(self.time(m, tri), Some(c.faer_f64_s)),
                ratio(self.time(m, tri), Some(c.faer_f32_s)),
            ));
        }
        s
    }
}
