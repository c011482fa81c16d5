//! `glsolve bench assemble`: A·D²·Aᵀ in full and packed format against faer, and the 2006
//! paper's Figure 10 question — time to form C against time to factor it, for n = 2m.

use super::cholesky::time_plan;
use super::{secs, Timing};
use faer::Mat;
use glsolve::fixtures::random;
use glsolve::gl::{Measure, PingPong, TexelFormat};
use glsolve::gpu::assemble::{assemble_into, c_textures, read_lower, Operands};
use glsolve::gpu::blocked::assemble::{self as blocked, BlockedOperands};
use glsolve::gpu::cholesky::plan;
use glsolve::Block;
use glsolve::Blocks2x2;
use glsolve::Format;
use glsolve::Gpu;
use glsolve::Variant;
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
    /// The paper's per-column assembly, full against packed, with the form/factor question.
    pub rows: Vec<AssembleRow>,
    /// Every variant timed (interleaved with the rows above).
    #[serde(default)]
    pub variants: Vec<AssembleVariantRow>,
}

/// One assembly variant at one size (the JSON rows of `bench assemble`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AssembleVariantRow {
    pub variant: String,
    pub m: usize,
    pub n: usize,
    pub median_s: f64,
    pub spread: f64,
    pub passes: u64,
    pub fragments: u64,
    /// Texture fetches per multiply-add of the variant's accumulating kernel.
    pub fetches_per_madd: f64,
    /// Largest |Ĉ − C| / (|A|D²|A|ᵀ) over the lower triangle against an f64 product.
    pub max_relative_error: f64,
}

/// The assembly variants `bench assemble` times side by side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AssemblyVariant {
    /// The 2008 structure paper's Algorithm 3: a column-scaling and an outer-product pass per
    /// column of A.
    PerColumn(Format),
    /// One fragment per 2×2 block of C, b columns of A per pass (`usize::MAX`: all n).
    Blocked(usize),
}

impl AssemblyVariant {
    pub fn name(&self, n: usize) -> String {
        match self {
            AssemblyVariant::PerColumn(f) => format!("per-column {}", f.name()),
            AssemblyVariant::Blocked(b) if *b >= n => "blocked b=n".to_string(),
            AssemblyVariant::Blocked(b) => format!("blocked b={b}"),
        }
    }

    /// Fetches per multiply-add: the paper's addition reads C, A(i, k) and b(j) for one; the
    /// blocked kernel two texels of A·D² and two of A for sixteen.
    pub fn fetches_per_madd(&self) -> f64 {
        match self {
            AssemblyVariant::PerColumn(_) => 3.0,
            AssemblyVariant::Blocked(_) => 4.0 / 16.0,
        }
    }
}

/// One variant ready to run: its operands and output textures.
enum Runner {
    PerColumn(Format, PingPong),
    Blocked(usize, Box<BlockedOperands>, PingPong, Blocks2x2),
}

impl Runner {
    fn run(&mut self, gpu: &Gpu, ops: &Operands) -> glsolve::gpu::GpuResult<()> {
        match self {
            Runner::PerColumn(format, c) => assemble_into(gpu, ops, c, *format),
            Runner::Blocked(b, bops, c, layout) => blocked::assemble_into(gpu, bops, c, layout, *b),
        }
    }

    /// C read back as a row-major lower triangle.
    fn lower(&self, gpu: &Gpu, m: usize) -> glsolve::gpu::GpuResult<Vec<f32>> {
        match self {
            Runner::PerColumn(format, c) => read_lower(gpu, c.source(), m, *format),
            Runner::Blocked(_, _, c, layout) => {
                let mut l = layout.unpack(&gpu.read(c.source())?);
                for i in 0..m {
                    for j in i + 1..m {
                        l[i * m + j] = 0.0;
                    }
                }
                Ok(l)
            }
        }
    }
}

/// Times every variant interleaved (a warm-up of each, then `reps` rounds of one run each);
/// counts fragments in one more run and checks C against f64.
#[allow(clippy::too_many_arguments)]
fn time_variants(
    gpu: &Gpu,
    a: &[f32],
    d: &[f32],
    m: usize,
    n: usize,
    variants: &[AssemblyVariant],
    reps: usize,
) -> glsolve::gpu::GpuResult<(Vec<AssembleVariantRow>, Vec<f32>)> {
    let ops = Operands::new(gpu, a, m, n)?;
    ops.set_d2(gpu, d)?;
    let mut runners = Vec::new();
    for v in variants {
        runners.push(match *v {
            AssemblyVariant::PerColumn(f) => Runner::PerColumn(f, c_textures(gpu, m, f)?),
            AssemblyVariant::Blocked(b) => {
                let layout = Block::B16.layout(m);
                let bops = BlockedOperands::new(gpu, a, m, n, layout.padded_rows)?;
                bops.set_d2(gpu, d)?;
                let (w, h) = layout.texture_size();
                let tex = || gpu.texture_of(TexelFormat::Rgba32F, w, h, "C (2×2 blocks)");
                Runner::Blocked(b, Box::new(bops), PingPong::new(tex()?, tex()?), layout)
            }
        });
    }
    let once = |r: &mut Runner| -> glsolve::gpu::GpuResult<f64> {
        gpu.finish();
        let t = Instant::now();
        r.run(gpu, &ops)?;
        gpu.finish();
        Ok(t.elapsed().as_secs_f64())
    };
    let mut timings: Vec<Timing> = Vec::new();
    for r in runners.iter_mut() {
        once(r)?;
        timings.push(Timing { runs: Vec::new() });
    }
    for _ in 0..reps.max(1) {
        for (r, t) in runners.iter_mut().zip(&mut timings) {
            t.runs.push(once(r)?);
        }
    }
    let (exact, scale) = reference(a, d, m, n);
    let mut rows = Vec::new();
    let mut first_c = Vec::new();
    for ((v, r), t) in variants.iter().zip(&mut runners).zip(&timings) {
        let (res, log) = gpu.logged(Measure::FRAGMENTS, |g| r.run(g, &ops));
        res?;
        let c = r.lower(gpu, m)?;
        let mut worst = 0.0f64;
        for i in 0..m {
            for j in 0..=i {
                let e = (c[i * m + j] as f64 - exact[i * m + j]).abs() / scale[i * m + j].max(f64::MIN_POSITIVE);
                worst = worst.max(e);
            }
        }
        if first_c.is_empty() {
            first_c = c;
        }
        rows.push(AssembleVariantRow {
            variant: v.name(n),
            m,
            n,
            median_s: t.median(),
            spread: t.spread(),
            passes: log.passes(),
            fragments: log.fragments(),
            fetches_per_madd: v.fetches_per_madd(),
            max_relative_error: worst,
        });
    }
    Ok((rows, first_c))
}

/// A·D²·Aᵀ and |A|D²|A|ᵀ in f64 (row-major m×m).
fn reference(a: &[f32], d: &[f32], m: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
    let am = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64);
    let bm = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64 * d[k] as f64);
    let absa = Mat::from_fn(m, n, |i, k| (a[i * n + k] as f64).abs());
    let absb = Mat::from_fn(m, n, |i, k| (a[i * n + k] as f64 * d[k] as f64).abs());
    let c = &bm * am.transpose();
    let s = &absb * absa.transpose();
    ((0..m * m).map(|p| c[(p / m, p % m)]).collect(), (0..m * m).map(|p| s[(p / m, p % m)]).collect())
}

/// The variants timed by default: the paper's per-column assembly (full and packed) and the
/// blocked one with 4, 64 and all n columns per pass.
pub fn default_variants() -> Vec<AssemblyVariant> {
    vec![
        AssemblyVariant::PerColumn(Format::Full),
        AssemblyVariant::PerColumn(Format::Packed),
        AssemblyVariant::Blocked(4),
        AssemblyVariant::Blocked(64),
        AssemblyVariant::Blocked(usize::MAX),
    ]
}

/// Runs the benchmark for each m with n = `ratio`·m.
pub fn run(
    gpu: &Gpu,
    sizes: &[usize],
    ratio: usize,
    variants: &[AssemblyVariant],
    reps: usize,
    mut progress: impl FnMut(&str),
) -> glsolve::gpu::GpuResult<AssembleBench> {
    let mut rows = Vec::new();
    let mut variant_rows = Vec::new();
    for &m in sizes {
        let n = ratio * m;
        let a: Vec<f32> = random::uniform(m, n, 0.0, 1.0, 7).iter().map(|&x| x as f32).collect();
        let d: Vec<f32> = random::uniform(n, 1, 0.5, 1.5, 8).iter().map(|&x| x as f32).collect();
        let (vrows, c) = time_variants(gpu, &a, &d, m, n, variants, reps)?;
        for r in &vrows {
            progress(&format!("m={m} n={n} {}: {} ({} passes)", r.variant, secs(r.median_s), r.passes));
        }
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
        let get = |name: &str| vrows.iter().find(|r| r.variant == name);
        if let (Some(full), Some(packed)) = (get("per-column full"), get("per-column packed")) {
            rows.push(AssembleRow {
                m,
                n,
                full_s: full.median_s,
                full_spread: full.spread,
                packed_s: packed.median_s,
                packed_spread: packed.spread,
                passes: full.passes,
                fragments: full.fragments,
                faer_s: faer.median(),
                factor_s: factor.median(),
            });
        }
        variant_rows.extend(vrows);
    }
    Ok(AssembleBench { renderer: gpu.info().renderer.clone(), reps, rows, variants: variant_rows })
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
        if !self.variants.is_empty() {
            s.push_str("\n| m | n | variant | median | spread | passes | fragments | fetches/multiply-add | max |Ĉ−C|/(|A|D²|A|ᵀ) | per-column full / variant |\n|---|---|---|---|---|---|---|---|---|---|\n");
            for r in &self.variants {
                let base = self.variants.iter().find(|b| b.m == r.m && b.variant == "per-column full");
                s.push_str(&format!(
                    "| {} | {} | {} | {} | {:.0}% | {} | {} | {:.3} | {:.1e} | {} |\n",
                    r.m,
                    r.n,
                    r.variant,
                    secs(r.median_s),
                    100.0 * r.spread,
                    r.passes,
                    r.fragments,
                    r.fetches_per_madd,
                    r.max_relative_error,
                    base.map_or("–".into(), |b| format!("{:.1}", b.median_s / r.median_s))
                ));
            }
        }
        s
    }
}
