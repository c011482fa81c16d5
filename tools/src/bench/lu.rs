//! `glsolve bench lu`: LU factorization in single precision — the right-looking blocked LU
//! (CPU panels, GPU updates) with and without look-ahead, the unblocked GPU baseline, faer's LU on the CPU in double and single
//! precision — and Cholesky for the 2006 paper's comparison (Fig. 8). GFLOP/s = (2/3·n³)/time.

use super::cholesky::time_plan;
use super::{secs, Timing};
use faer::Mat;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::cholesky::plan;
use glsolve::gpu::lu::right_looking;
use glsolve::gpu::lu::timeline::{Recorder, Shares};
use glsolve::gpu::{lu, GpuResult};
use glsolve::Gpu;
use glsolve::GpuError;
use glsolve::LuBlocking as BlockedSettings;
use glsolve::Variant;

/// One blocked configuration at one size.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BlockedTiming {
    pub block: usize,
    pub lookahead: bool,
    pub median_s: f64,
    pub spread: f64,
    pub passes: u64,
    pub fragments: u64,
    /// Host and GPU busy time and their overlap, from the timeline of the last timed run.
    pub shares: Shares,
}

/// Everything at one size; fields after `lu_s` are absent from runs made before the blocked LU.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LuRow {
    pub m: usize,
    pub cholesky_s: f64,
    /// The unblocked GPU LU (Galoppo et al.).
    pub lu_s: f64,
    #[serde(default)]
    pub blocked: Vec<BlockedTiming>,
    #[serde(default)]
    pub faer_f64_s: Option<f64>,
    #[serde(default)]
    pub faer_f32_s: Option<f64>,
    /// Timed runs per median (after one warm-up run).
    #[serde(default)]
    pub reps: Option<usize>,
}

/// (2/3·n³)/seconds in GFLOP/s.
pub fn gflops(n: usize, s: f64) -> f64 {
    2.0 / 3.0 * (n as f64).powi(3) / s / 1e9
}

impl LuRow {
    /// The default blocked configuration's timing (look-ahead, the default panel width, else any).
    pub fn best_blocked(&self) -> Option<&BlockedTiming> {
        let d = BlockedSettings::default();
        self.blocked
            .iter()
            .find(|b| b.block == d.block && b.lookahead)
            .or_else(|| self.blocked.iter().filter(|b| b.lookahead).min_by(|a, b| a.median_s.total_cmp(&b.median_s)))
    }
    fn blocked_of(&self, block: usize, lookahead: bool) -> Option<&BlockedTiming> {
        self.blocked.iter().find(|b| b.block == block && b.lookahead == lookahead)
    }
}

/// Times every configuration at every size, in one run. `blocks`: the panel widths to try
/// (each with and without look-ahead); `unblocked`: also time the baseline and Cholesky.
pub fn run(
    gpu: &Gpu,
    sizes: &[usize],
    blocks: &[usize],
    unblocked: bool,
    reps: usize,
    mut progress: impl FnMut(&str),
) -> GpuResult<Vec<LuRow>> {
    let mut rows = Vec::new();
    for &m in sizes {
        let a64 = random::uniform(m, m, -1.0, 1.0, 4);
        let a: Vec<f32> = a64.iter().map(|&v| v as f32).collect();
        let mut blocked_rows = Vec::new();
        for &block in blocks {
            for lookahead in [true, false] {
                let st = BlockedSettings { block, lookahead };
                let mut shares = Shares::default();
                let t = Timing::measure(reps, || {
                    let mut rec = Recorder::new();
                    rec.enter("factor", 0);
                    right_looking::factor(gpu, &a, m, None, &st, &mut rec)?;
                    shares = rec.finish()?.shares(Some("factor"), None);
                    Ok::<(), GpuError>(())
                })?;
                let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| {
                    right_looking::factor(gpu, &a, m, None, &st, &mut Recorder::new()).map(|_| ())
                });
                r?;
                progress(&format!(
                    "m={m} blocked nb={block}{}: {} ({:.2} GFLOP/s)",
                    if lookahead { "" } else { " no look-ahead" },
                    secs(t.median()),
                    gflops(m, t.median())
                ));
                blocked_rows.push(BlockedTiming {
                    block,
                    lookahead,
                    median_s: t.median(),
                    spread: t.spread(),
                    passes: log.passes(),
                    fragments: log.fragments(),
                    shares,
                });
            }
        }
        let (cholesky_s, lu_s) = if unblocked {
            let c: Vec<f32> = random::spd_well_conditioned(m, 3).iter().map(|&v| v as f32).collect();
            let (chol, _) = time_plan(gpu, &c, (m, m), &plan(m as u32, Variant::PAPER), reps)?;
            let l = Timing::measure(reps, || {
                let f = lu::factor(gpu, &a, m)?;
                lu::read(gpu, &f)?;
                Ok::<(), GpuError>(())
            })?;
            progress(&format!("m={m}: Cholesky {}, unblocked LU {}", secs(chol.median()), secs(l.median())));
            (chol.median(), l.median())
        } else {
            (f64::NAN, f64::NAN)
        };
        let m64 = Mat::from_fn(m, m, |i, j| a64[i * m + j]);
        let m32 = Mat::from_fn(m, m, |i, j| a[i * m + j]);
        let f64s = Timing::measure(reps, || {
            std::hint::black_box(rowmajor::lu_factor_only(&m64));
            Ok::<(), ()>(())
        })
        .unwrap_or(Timing { runs: vec![] });
        let f32s = Timing::measure(reps, || {
            std::hint::black_box(rowmajor::lu_factor_only(&m32));
            Ok::<(), ()>(())
        })
        .unwrap_or(Timing { runs: vec![] });
        progress(&format!("m={m}: faer LU f64 {}, f32 {}", secs(f64s.median()), secs(f32s.median())));
        rows.push(LuRow {
            m,
            cholesky_s,
            lu_s,
            blocked: blocked_rows,
            faer_f64_s: Some(f64s.median()),
            faer_f32_s: Some(f32s.median()),
            reps: Some(reps),
        });
    }
    Ok(rows)
}

/// The report's tables: GFLOP/s of each LU against n, look-ahead's gain and overlap, and the
/// 2006 paper's Cholesky/LU ratio where the baseline was timed.
pub fn markdown(rows: &[LuRow], renderer: &str) -> String {
    let reps = rows.iter().filter_map(|r| r.reps).max().map_or("?".into(), |r| r.to_string());
    let mut s = format!(
        "Renderer: {renderer}. Median of {reps} timed runs after a warm-up; GFLOP/s = (2/3·n³)/time, single precision except faer f64. \
         The blocked LU's time includes the upload of A, the panel readbacks and the readback of U (the factor ends on the host).\n\n\
         | n | blocked LU (look-ahead) | blocked, no look-ahead | unblocked GPU LU | faer f64 (CPU) | faer f32 (CPU) | blocked / unblocked | faer f32 / blocked |\n|---|---|---|---|---|---|---|---|\n"
    );
    let rate = |n: usize, t: Option<f64>| match t {
        Some(t) if t.is_finite() => format!("{} ({:.2} GFLOP/s)", secs(t), gflops(n, t)),
        _ => "–".into(),
    };
    for r in rows {
        let best = r.best_blocked();
        let no = best.and_then(|b| r.blocked_of(b.block, false));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if a.is_finite() && b.is_finite() => format!("{:.2}", a / b),
            _ => "–".into(),
        };
        let label = best.map_or(String::new(), |b| format!(" nb={}", b.block));
        s.push_str(&format!(
            "| {} | {}{label} | {} | {} | {} | {} | {} | {} |\n",
            r.m,
            rate(r.m, best.map(|b| b.median_s)),
            rate(r.m, no.map(|b| b.median_s)),
            rate(r.m, Some(r.lu_s)),
            rate(r.m, r.faer_f64_s),
            rate(r.m, r.faer_f32_s),
            ratio(Some(r.lu_s), best.map(|b| b.median_s)),
            ratio(r.faer_f32_s, best.map(|b| b.median_s))
        ));
    }
    s.push_str("\nBlocked LU per panel width, with (LA) and without look-ahead: time, passes, fragments, and the timeline's busy times (host = CPU work and transfers, GPU = passes in flight, overlap = both at once):\n\n| n | nb | look-ahead | time | spread | passes | fragments | host busy | GPU busy | overlap | LA gain |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in rows {
        for b in &r.blocked {
            let gain = match (b.lookahead, r.blocked_of(b.block, false)) {
                (true, Some(no)) => format!("{:.2}", no.median_s / b.median_s),
                _ => "–".into(),
            };
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.0}% | {} | {:.3e} | {} | {} | {} | {gain} |\n",
                r.m,
                b.block,
                if b.lookahead { "yes" } else { "no" },
                secs(b.median_s),
                100.0 * b.spread,
                b.passes,
                b.fragments as f64,
                secs(b.shares.host),
                secs(b.shares.gpu),
                secs(b.shares.overlap)
            ));
        }
    }
    if rows.iter().any(|r| r.cholesky_s.is_finite()) {
        s.push_str("\n| n | Cholesky (triangle) | unblocked LU | Cholesky / LU (paper ≈ 0.5) |\n|---|---|---|---|\n");
        for r in rows.iter().filter(|r| r.cholesky_s.is_finite()) {
            s.push_str(&format!(
                "| {} | {} | {} | {:.2} |\n",
                r.m,
                secs(r.cholesky_s),
                secs(r.lu_s),
                r.cholesky_s / r.lu_s
            ));
        }
    }
    s
}
