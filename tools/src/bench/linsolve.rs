//! `glsolve bench linsolve`: the mixed-precision general solver as the paper reports it —
//! effective GFLOP/s ((2/3·n³ + 2·n²)/time) against n, refinement steps, and the share of time
//! the CPU and the GPU each spend per phase with their overlap — for the paper's configuration
//! (blocked LU with look-ahead, split substitutions) and the alternatives, beside faer's LU solve
//! on the CPU in double and in single precision.

use super::timeline_plot::timeline_chart;
use super::{secs, Timing};
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gpu::lu::timeline::{Shares, Timeline};
use glsolve::refine;
use glsolve::Gpu;
use glsolve::LinearMethod as Method;
use glsolve::LinearSettings as RefineSettings;
use glsolve::LuBlocking as BlockedSettings;
use glsolve::LuPath;
use glsolve::RefineError;
use glsolve::RefinementSubstitution as Substitution;
use std::path::Path;
use std::time::Instant;

/// Busy times of one phase of one solve.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PhaseShares {
    pub phase: String,
    pub shares: Shares,
}

/// One configuration at one size; fields after `cpu_f64_s` are absent from older runs.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LinsolveRow {
    pub n: usize,
    pub method: String,
    pub iterations: usize,
    /// The answer's normwise backward error in LINPACK units (≤ 16 for any stable solve).
    pub criterion: f64,
    pub total_s: f64,
    pub gflops: f64,
    /// faer's LU solve in double precision.
    pub cpu_f64_s: f64,
    /// LU and substitution used.
    #[serde(default)]
    pub config: String,
    /// Condition number of the generated matrix, when one was imposed.
    #[serde(default)]
    pub cond: Option<f64>,
    /// The paper's Eq. (1) test on the answer.
    #[serde(default)]
    pub paper_test: Option<f64>,
    #[serde(default)]
    pub factor_s: Option<f64>,
    /// faer's LU solve in single precision (no refinement).
    #[serde(default)]
    pub cpu_f32_s: Option<f64>,
    #[serde(default)]
    pub phases: Vec<PhaseShares>,
    #[serde(default)]
    pub reps: Option<usize>,
}

/// The configurations compared: the paper's first (the default of `glsolve linsolve`).
pub fn configs() -> Vec<(String, RefineSettings)> {
    let with = |lu, substitution| RefineSettings { lu, substitution, ..RefineSettings::default() };
    let la = BlockedSettings::default();
    let no = BlockedSettings { lookahead: false, ..la };
    vec![
        ("blocked LA + split".into(), with(LuPath::Blocked(la), Substitution::Split)),
        ("blocked, no LA + split".into(), with(LuPath::Blocked(no), Substitution::Split)),
        ("blocked LA + CPU subst.".into(), with(LuPath::Blocked(la), Substitution::Cpu)),
        ("unblocked + CPU subst.".into(), with(LuPath::Unblocked, Substitution::Cpu)),
    ]
}

/// The timeline of one solve, kept for the report's plots.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TimelineRun {
    pub n: usize,
    pub config: String,
    pub timeline: Timeline,
}

/// Times every configuration at every size (`unblocked`: include the unblocked LU, slow at
/// large n), plus the default configuration on one matrix with κ = 1e9 (which must fall back).
/// Returns the rows and the default configuration's timeline at the largest size.
pub fn run(
    gpu: &Gpu,
    sizes: &[usize],
    reps: usize,
    unblocked: bool,
    mut progress: impl FnMut(&str),
) -> Result<(Vec<LinsolveRow>, Option<TimelineRun>), RefineError> {
    let mut rows = Vec::new();
    let mut kept = None;
    let cases: Vec<(usize, Option<f64>)> =
        sizes.iter().map(|&n| (n, None)).chain([(sizes.first().copied().unwrap_or(256), Some(1e9))]).collect();
    for (n, cond) in cases {
        let a = match cond {
            Some(k) => random::general_with_condition(n, k, 5),
            None => random::uniform(n, n, -1.0, 1.0, 5),
        };
        let b = random::uniform(n, 1, -1.0, 1.0, 6);
        let cpu = |single: bool| {
            let t = Timing::measure(reps, || {
                if single {
                    let (a32, b32): (Vec<f32>, Vec<f32>) =
                        (a.iter().map(|&v| v as f32).collect(), b.iter().map(|&v| v as f32).collect());
                    std::hint::black_box(rowmajor::solve_general_f32(&a32, n, &b32));
                } else {
                    std::hint::black_box(rowmajor::solve_general(&a, n, &b));
                }
                Ok::<(), ()>(())
            });
            t.map_or(f64::NAN, |t| t.median())
        };
        let (cpu_f64_s, cpu_f32_s) = (cpu(false), cpu(true));
        let all = configs();
        let chosen: Vec<_> = all
            .into_iter()
            .enumerate()
            .filter(|(i, (name, _))| (cond.is_none() || *i == 0) && (unblocked || !name.starts_with("unblocked")))
            .map(|(_, c)| c)
            .collect();
        for (config, st) in chosen {
            let mut last = None;
            let t = Timing::measure(reps, || {
                let t0 = Instant::now();
                let s = refine::linsolve(gpu, &a, n, &b, &st)?;
                last = Some((s, t0.elapsed()));
                Ok::<(), RefineError>(())
            })?;
            let Some((s, _)) = last else { continue };
            let method = match (&s.method, cond) {
                (Method::Mixed, _) => "mixed".to_string(),
                (Method::DoubleFallback(why), Some(k)) => format!("fallback (κ = {k:e}): {why}"),
                (Method::DoubleFallback(why), None) => format!("fallback: {why}"),
            };
            let flops = 2.0 / 3.0 * (n as f64).powi(3) + 2.0 * (n as f64).powi(2);
            let total = t.median();
            progress(&format!(
                "n={n} {config}: {method}, {} steps, {} ({:.2} GFLOP/s)",
                s.iterations,
                secs(total),
                flops / total / 1e9
            ));
            let phases = ["factor", "forward", "backward", "substitute", "residual"]
                .iter()
                .map(|p| PhaseShares { phase: p.to_string(), shares: s.timeline.shares_summed(p) })
                .filter(|p| p.shares.wall > 0.0)
                .collect();
            if cond.is_none() && config == configs()[0].0 && kept.as_ref().is_none_or(|k: &TimelineRun| k.n <= n) {
                kept = Some(TimelineRun { n, config: config.clone(), timeline: s.timeline.clone() });
            }
            rows.push(LinsolveRow {
                n,
                method,
                iterations: s.iterations,
                criterion: s.criterion(),
                total_s: total,
                gflops: flops / total / 1e9,
                cpu_f64_s,
                config,
                cond,
                paper_test: Some(refine::paper_criterion(&a, n, &b, &s.x, rowmajor::norm_inf(&a, n, n))),
                factor_s: Some(s.factor_time.as_secs_f64()),
                cpu_f32_s: Some(cpu_f32_s),
                phases,
                reps: Some(reps),
            });
        }
    }
    Ok((rows, kept))
}

/// One timeline plot per phase: the factorization, and the first refinement step's forward and
/// backward sweeps. Files `stem_factor`, `stem_forward`, `stem_backward` (.png and .svg).
pub fn timeline_plots(dir: &Path, stem: &str, run: &TimelineRun) -> Result<(), String> {
    for (phase, iteration, what) in [
        ("factor", 0, "blocked LU with look-ahead"),
        ("forward", 1, "forward substitution (Figs. 4-5)"),
        ("backward", 1, "backward substitution + double residual (Figs. 2-3)"),
    ] {
        let spans = run.timeline.select(Some(phase), Some(iteration));
        let title = format!("{what}, n = {}: CPU, transfers, GPU", run.n);
        timeline_chart(&dir.join(format!("{stem}_{phase}")), &title, &spans)?;
    }
    Ok(())
}

/// The report's tables.
pub fn markdown(rows: &[LinsolveRow], renderer: &str) -> String {
    let reps = rows.iter().filter_map(|r| r.reps).max().map_or("?".into(), |r| r.to_string());
    let mut s = format!(
        "Renderer: {renderer}. Median of {reps} timed runs after a warm-up. Effective GFLOP/s = (2/3·n³ + 2n²)/time (the paper's measure). \
         \"paper test\" is its Eq. (1), ‖b − Ax‖∞/(‖A‖∞‖b‖∞·n·ε), ε = 2⁻⁵³, which stops the refinement (≤ 16); \"backward error\" is ‖b − Ax‖∞/(‖A‖∞‖x‖∞·n·ε), ε = 2⁻⁵².\n\n\
         | n | configuration | method | steps | paper test | backward error | factor | total | GFLOP/s | faer f64 solve | faer f32 solve | faer f64 / total |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let opt = |v: Option<f64>| v.map_or("–".into(), secs);
    for r in rows {
        s.push_str(&format!(
            "| {}{} | {} | {} | {} | {} | {:.3} | {} | {} | {:.3} | {} | {} | {:.3} |\n",
            r.n,
            r.cond.map_or(String::new(), |k| format!(" (κ = {k:.0e})")),
            if r.config.is_empty() { "unblocked + CPU subst." } else { &r.config },
            r.method,
            r.iterations,
            r.paper_test.map_or("–".into(), |v| format!("{v:.3}")),
            r.criterion,
            opt(r.factor_s),
            secs(r.total_s),
            r.gflops,
            secs(r.cpu_f64_s),
            opt(r.cpu_f32_s),
            r.cpu_f64_s / r.total_s
        ));
    }
    s.push_str("\nTime shares per phase (last timed run; host = CPU work + transfers, GPU = passes in flight, overlap = both busy at once; summed over refinement steps):\n\n| n | configuration | phase | wall | host busy | GPU busy | overlap | overlap / GPU busy |\n|---|---|---|---|---|---|---|---|\n");
    for r in rows.iter().filter(|r| r.cond.is_none()) {
        for p in &r.phases {
            let sh = &p.shares;
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {:.0}% |\n",
                r.n,
                r.config,
                p.phase,
                secs(sh.wall),
                secs(sh.host),
                secs(sh.gpu),
                secs(sh.overlap),
                if sh.gpu > 0.0 { 100.0 * sh.overlap / sh.gpu } else { 0.0 }
            ));
        }
    }
    s
}
